#!/usr/bin/env bash
# Runs one match as N shards in parallel on this machine and merges them: the pattern to use
# under a batch scheduler (one `referee ... -shard I/N -jsonout shard-I.jsonl` job per shard,
# all with the same command line and seed, then `referee merge shard-*.jsonl`).
#
#   tools/shards.sh N REFEREE_MATCH_ARGS...
#   e.g. tools/shards.sh 4 -engine cmd=./new depth=6 -engine cmd=./old depth=6 -rounds 200 -seed 7
set -euo pipefail

if [ $# -lt 2 ]; then
    sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
shards=$1
shift
here=$(cd "$(dirname "$0")/.." && pwd)
referee=${REFEREE:-$here/target/release/referee}
out=${OUT:-shards}
mkdir -p "$out"
pids=()
for i in $(seq 1 "$shards"); do
    "$referee" "$@" -shard "$i/$shards" -jsonout "$out/shard-$i.jsonl" >"$out/shard-$i.log" 2>&1 &
    pids+=($!)
done
status=0
for pid in "${pids[@]}"; do
    wait "$pid" || status=$?
done
"$referee" merge "$out"/shard-*.jsonl
exit "$status"
