#!/usr/bin/env bash
# The figures of docs/cluster.md: one match played unsharded, then through submit.sh as 1, 2
# and 4 shards on the Slurm cluster of SLURM_CONF (e.g. tools/slurm-local.sh up):
# games per second, time from submit to the first game, from the last game to the merged
# result. Release builds: cargo build --release first.
#
#   tools/slurm/measure.sh [ROUNDS] [ENGINE_LIMIT]     (defaults 100 and nodes=3000)
set -euo pipefail

here=$(cd "$(dirname "$0")/../.." && pwd)
target=${CARGO_TARGET_DIR:-$here/target}
referee=$target/release/referee
engine=$target/release/baghchal
rounds=${1:-100}
limit=${2:-nodes=3000}
work=$(mktemp -d /var/tmp/referee-measure-XXXXXX)
now() { date +%s.%N; }
mtime() { stat -c %.9Y "$@" | sort -n | tail -1; }
since() { echo "$2 - $1" | bc -l | xargs printf '%.2f'; }

"$referee" openings --no-search --count 200 --plies 6 --seed 3 --out "$work/openings.txt" 2>/dev/null
args=(-engine "cmd=$engine" name=a -engine "cmd=$engine" name=b option.Hash=1
    -each "$limit" -games 2 -rounds "$rounds" -seed 11 -ratinginterval 0
    -openings "file=$work/openings.txt" order=random)
games=$((rounds * 2))

start=$(now)
"$referee" "${args[@]}" -jsonout "$work/whole.jsonl" >/dev/null 2>&1
end=$(now)
echo "unsharded, concurrency 1: $games games in $(since "$start" "$end") s: $(echo "$games / ($end - $start)" | bc -l | xargs printf '%.2f') games/s"

for shards in 1 2 4; do
    start=$(now)
    "$here/tools/slurm/submit.sh" --shards "$shards" --out "$work/runs" --name "s$shards" \
        --referee "$referee" -- "${args[@]}" >"$work/submit-$shards.txt" &
    submitter=$!
    run=""
    first=""
    while [ -z "$first" ]; do
        run=${run:-$(sed -n 's/^run directory: //p' "$work/submit-$shards.txt" 2>/dev/null)}
        if [ -n "$run" ] && grep -qs '^Started game' "$run"/shard-*.out; then
            first=$(now)
        fi
        sleep 0.02
    done
    wait "$submitter"
    while [ ! -f "$run/result.txt" ]; do sleep 0.02; done
    done_at=$(now)
    last=$(mtime "$run"/shard-*.jsonl)
    result=$(mtime "$run/result.txt")
    cmp -s <(cut -d, -f1-6 "$run/merged.jsonl") <(cut -d, -f1-6 "$work/whole.jsonl") \
        && same="same games as unsharded" || same="DIFFERENT games from unsharded"
    echo "$shards shards: $games games, submit to first game $(since "$start" "$first") s," \
        "last game to merged result $(since "$last" "$result") s," \
        "submit to result $(since "$start" "$done_at") s:" \
        "$(echo "$games / ($done_at - $start)" | bc -l | xargs printf '%.2f') games/s; $same"
done
rm -rf "$work"
