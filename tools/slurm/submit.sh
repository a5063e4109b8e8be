#!/usr/bin/env bash
# Submits a referee match to Slurm as a job array of N shards plus a merge job that runs after
# it, and prints where the results will be (docs/cluster.md).
#
#   tools/slurm/submit.sh [OPTIONS] -- MATCH_ARGS...
#
#   --shards N        array tasks, one shard each (default 2)
#   --out DIR         where the run directory is made (default ./referee-runs); it must be on
#                     a filesystem the compute nodes share, like the referee, engines, openings
#   --name NAME       first part of the run directory's name (default match)
#   --referee PATH    the referee as the compute nodes see it (default: this checkout's
#                     target/release/referee)
#   --sprt "elo0=E0 elo1=E1 [alpha=A] [beta=B]"
#                     SPRT for the watch and the merge (never given to the shards)
#   --watch SECONDS   stay: follow the shards with `referee merge --watch`, cancel the array
#                     once the SPRT is decided, then wait for the merge job and print its result
#   --wait            stay until the merge job has run and print its result (no watch)
#   --sbatch "ARGS"   more sbatch options for both jobs (e.g. "--partition=short --time=2:00:00")
#
# The run directory is named NAME-<UTC time>-<random>, never after job ids alone (they restart
# at 1 when a controller starts clean). Exit status: 0, or with --watch the watch's status
# (10 H0 accepted, 11 H1 accepted, 12 every shard finished but games are missing or bad).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
usage() {
    sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

shards=2
out=./referee-runs
name=match
referee=$here/../../target/release/referee
sprt=""
watch=""
wait_merge=0
sbatch_extra=""
while [ $# -gt 0 ]; do
    case $1 in
    --shards) shards=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --name) name=$2; shift 2 ;;
    --referee) referee=$2; shift 2 ;;
    --sprt) sprt=$2; shift 2 ;;
    --watch) watch=$2; shift 2 ;;
    --wait) wait_merge=1; shift ;;
    --sbatch) sbatch_extra=$2; shift 2 ;;
    --) shift; break ;;
    *) usage ;;
    esac
done
[ $# -gt 0 ] || usage
case $shards in '' | *[!0-9]* | 0) echo "error: --shards needs a positive number" >&2; exit 2 ;; esac
for arg in "$@"; do
    case ${arg#-} in
    -shard | shard | -jsonout | jsonout | -sprt | sprt | -resume | resume)
        echo "error: $arg is set by the submit script (use --sprt for an SPRT)" >&2
        exit 2
        ;;
    esac
done
referee=$(realpath "$referee")
if [ ! -x "$referee" ]; then
    echo "error: no referee at $referee (cargo build --release, or --referee PATH)" >&2
    exit 2
fi

mkdir -p "$out"
run=$(realpath "$out")/$name-$(date -u +%Y%m%dT%H%M%SZ)-$(od -An -N3 -tx1 /dev/urandom | tr -d ' \n')
mkdir "$run"
printf '%q ' "$referee" "$@" >"$run/command"
echo >>"$run/command"
read -r -a sprt_args <<<"$sprt"
read -r -a extra <<<"$sbatch_extra"

array=$(sbatch --parsable --array="1-$shards" "${extra[@]}" \
    --output="$run/shard-%a.out" \
    "$here/shard.sbatch" "$run" "$shards" "$referee" "$@")
array=${array%%;*}
merge=$(sbatch --parsable --dependency="afterany:$array" "${extra[@]}" \
    --output="$run/merge.out" \
    "$here/merge.sbatch" "$run" "$shards" "$referee" "${sprt_args[@]}")
merge=${merge%%;*}
echo "array=$array merge=$merge submitted=$(date -u +%FT%TZ)" >"$run/jobs"

files=()
for index in $(seq 1 "$shards"); do
    files+=("$run/shard-$index.jsonl")
done
watch_command=("$referee" merge --watch --interval "${watch:-30}" "${files[@]}")
if [ ${#sprt_args[@]} -gt 0 ]; then
    watch_command+=(-sprt "${sprt_args[@]}")
fi
echo "run directory: $run"
echo "jobs: array $array ($shards shards), merge $merge (after the array)"
echo "shard records: $run/shard-I.jsonl (with .done when a shard ends), logs $run/shard-I.out"
echo "merged result: $run/result.txt, records $run/merged.jsonl"
echo "to watch: $(printf '%q ' "${watch_command[@]}")"

# Polls squeue (faster than sbatch --wait) until job $1 has left the queue.
wait_for() {
    while squeue -h -j "$1" 2>/dev/null | grep -q .; do
        sleep 0.5
    done
}

status=0
if [ -n "$watch" ]; then
    "${watch_command[@]}" &
    watcher=$!
    gone_since=""
    stopped=0
    while kill -0 "$watcher" 2>/dev/null; do
        sleep 0.5
        if squeue -h -j "$array" 2>/dev/null | grep -q .; then
            continue
        fi
        # Every task has left the queue: each shard that ended wrote its marker, which the
        # watch sees within an interval. One killed outright (SIGKILL, node failure) did not.
        gone_since=${gone_since:-$SECONDS}
        if [ $((SECONDS - gone_since)) -gt $((${watch%.*} * 2 + 5)) ]; then
            echo "submit: the array has ended but not every shard wrote its end marker; stopping the watch" >&2
            kill "$watcher" 2>/dev/null || true
            stopped=1
        fi
    done
    wait "$watcher" || status=$?
    if [ "$stopped" = 1 ]; then
        status=12
    fi
    case $status in
    10 | 11)
        echo "submit: SPRT decided; cancelling array $array" >&2
        scancel "$array" || true
        ;;
    esac
fi
if [ -n "$watch" ] || [ "$wait_merge" = 1 ]; then
    wait_for "$array"
    wait_for "$merge"
    if [ ! -f "$run/result.txt" ]; then
        echo "error: the merge job left no $run/result.txt; see $run/merge.out" >&2
        exit 1
    fi
    echo "merged result ($run/result.txt):"
    cat "$run/result.txt"
fi
exit "$status"
