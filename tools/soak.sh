#!/usr/bin/env bash
# A clock soak (not run in CI): the engine plays itself through the referee at a short clock or
# a fixed move time; then the time forfeits and the distribution of time used relative to the
# time allowed are printed, read from the referee's JSON records (time_ms, allowed_ms,
# time_forfeit).
#
#   tools/soak.sh [--games N] [--tc TC | --st SECONDS] [--concurrency C] [--burn] [--seed S]
#                 [--out DIR]
#   tools/soak.sh --report FILE.jsonl
#
# Defaults: 1000 games, --tc 1+0.01, concurrency 2, seed 1, DIR soak-<limit>. --burn runs one busy
# loop (a CPU burner, for the other core of a two-core machine) for the whole run. Binaries:
# REFEREE and ENGINE (default target/release/referee and target/release/baghchal); more referee
# options (e.g. "-each timemargin=20") in REFEREE_ARGS. Needs python3 for the report.
set -euo pipefail

usage() {
    sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
}

# The report: forfeits, and time used / allowed over every timed answer (moves played and the
# answers that lost on time). Percentiles are nearest-rank.
report() {
    python3 - "$1" <<'EOF'
import json, math, sys
from collections import Counter

games, terminations, forfeits = 0, Counter(), Counter()
answers = []  # (time used, time allowed), ms
with open(sys.argv[1]) as records:
    for line in records:
        if not line.strip():
            continue
        game = json.loads(line)
        games += 1
        terminations[game["termination"]] += 1
        for used, allowed in zip(game.get("time_ms", []), game.get("allowed_ms", [])):
            if used is not None and allowed is not None:
                answers.append((used, allowed))
        if game["termination"] == "time forfeit":
            loser = game["goat"] if game["result"] == "0-1" else game["tiger"]
            forfeits[loser] += 1
            if game.get("time_forfeit"):
                answers.append((game["time_forfeit"]["time_ms"], game["time_forfeit"]["allowed_ms"]))

def percentile(values, p):
    return values[max(0, math.ceil(p * len(values)) - 1)]

def ratio(used, allowed):
    return used / allowed if allowed > 0 else (math.inf if used > 0 else 0.0)

print(f"games: {games} ({', '.join(f'{t} {n}' for t, n in sorted(terminations.items()))})")
by_engine = ", ".join(f"{name} {n}" for name, n in sorted(forfeits.items()))
print(f"time forfeits: {sum(forfeits.values())}" + (f" ({by_engine})" if by_engine else ""))
print(f"timed answers: {len(answers)}")
if answers:
    ratios = sorted(ratio(u, a) for u, a in answers)
    overruns = sorted(u - a for u, a in answers)
    points = [("median", 0.5), ("p99", 0.99), ("p99.9", 0.999), ("max", 1.0)]
    print("time used / allowed: " + ", ".join(f"{name} {100 * percentile(ratios, p):.1f}%" for name, p in points))
    print("time used - allowed (ms): " + ", ".join(f"{name} {percentile(overruns, p)}" for name, p in points))
    print(f"answers over the allowance: {sum(1 for o in overruns if o > 0)}")
EOF
}

games=1000
limit="tc=1+0.01"
concurrency=2
burn=0
seed=1
out=""
while [ $# -gt 0 ]; do
    case $1 in
        --report)
            [ $# -eq 2 ] || usage
            report "$2"
            exit 0
            ;;
        --games) games=$2; shift 2 ;;
        --tc) limit="tc=$2"; shift 2 ;;
        --st) limit="st=$2"; shift 2 ;;
        --concurrency) concurrency=$2; shift 2 ;;
        --burn) burn=1; shift ;;
        --seed) seed=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        *) usage ;;
    esac
done
here=$(cd "$(dirname "$0")/.." && pwd)
referee=${REFEREE:-$here/target/release/referee}
engine=${ENGINE:-$here/target/release/baghchal}
out=${out:-soak-${limit//[^0-9a-z.+]/-}}
for binary in "$referee" "$engine"; do
    if [ ! -x "$binary" ]; then
        echo "error: no binary at $binary: run cargo build --release (or set REFEREE and ENGINE)" >&2
        exit 2
    fi
done
command -v python3 >/dev/null || { echo "error: the report needs python3" >&2; exit 2; }
mkdir -p "$out"
rm -f "$out/soak.jsonl"
"$referee" openings --no-search --count 500 --plies 4 --seed 1 --out "$out/openings.txt" 2>/dev/null

burner=""
stop_burner() {
    if [ -n "$burner" ]; then
        kill "$burner" 2>/dev/null || true
        wait "$burner" 2>/dev/null || true
        burner=""
    fi
}
trap stop_burner EXIT
if [ "$burn" = 1 ]; then
    (while :; do :; done) &
    burner=$!
fi

echo "soak: $games games at $limit, concurrency $concurrency, burner: $([ "$burn" = 1 ] && echo on || echo off); records in $out/" >&2
# CPU time the hypervisor took from this machine (the "steal" column of /proc/stat, in clock
# ticks): on a virtual machine, stalls that no setting of the engine can prevent.
steal() { awk '/^cpu / { print $9 }' /proc/stat 2>/dev/null || echo 0; }
steal_before=$(steal)
start=$(date +%s)
status=0
# shellcheck disable=SC2086
"$referee" \
    -engine "cmd=$engine" name=a -engine "cmd=$engine" name=b \
    -each "$limit" ${REFEREE_ARGS:-} \
    -games 2 -rounds $(((games + 1) / 2)) -concurrency "$concurrency" \
    -openings "file=$out/openings.txt" order=random -seed "$seed" \
    -recover -ratinginterval 0 -jsonout "$out/soak.jsonl" \
    >"$out/referee.out" 2>"$out/referee.err" || status=$?
stop_burner
steal_after=$(steal)
grep -E '^(Score of|Elo|Time of)' "$out/referee.out" || true
if [ -n "$steal_before" ] && [ -n "$steal_after" ]; then
    ticks=$(getconf CLK_TCK 2>/dev/null || echo 100)
    echo "CPU steal (time the hypervisor took from this machine) during the run: $(((steal_after - steal_before) * 1000 / ticks)) ms in $(($(date +%s) - start)) s"
fi
if [ "$status" != 0 ]; then
    echo "soak: the referee exited with status $status (see $out/referee.err)" >&2
fi
report "$out/soak.jsonl"
exit "$status"
