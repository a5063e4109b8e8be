#!/usr/bin/env bash
# SPRT test of a new engine build against a base build with the referee.
#
#   tools/sprt.sh NEW_ENGINE BASE_ENGINE [TC] [CONCURRENCY] [ELO0] [ELO1]
#
# Defaults: TC=5+0.05, CONCURRENCY=number of cores, ELO0=0, ELO1=5 (normalized Elo,
# alpha = beta = 0.05). Openings are generated once (openings.txt, seed 1) with the base engine
# as the checker. Records go to sprt-<date>.pgn and .jsonl; rerun the same command with
# RESUME=1 to continue an interrupted test. REPETITION=draw plays under the draw rule (default:
# forbid, the rules' default); NEW_OPTIONS adds settings to the new engine (for example
# NEW_OPTIONS=option.Eval=classic), BASE_OPTIONS the same to the base engine (both, to compare
# two searches with one evaluation); OUT, OPENINGS, SEED and REFEREE override the rest.
set -euo pipefail

if [ $# -lt 2 ]; then
    sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
new=$1
base=$2
tc=${3:-5+0.05}
concurrency=${4:-$(nproc 2>/dev/null || echo 1)}
elo0=${5:-0}
elo1=${6:-5}
here=$(cd "$(dirname "$0")/.." && pwd)
referee=${REFEREE:-$here/target/release/referee}
openings=${OPENINGS:-openings.txt}
out=${OUT:-sprt-$(date -u +%Y%m%d)}

if [ ! -x "$referee" ]; then
    echo "error: no referee at $referee: run cargo build --release (or set REFEREE)" >&2
    exit 2
fi
if [ ! -f "$openings" ]; then
    "$referee" openings --engine "cmd=$base" --count 500 --plies 6 --seed 1 --out "$openings"
fi
# shellcheck disable=SC2206
new_options=(${NEW_OPTIONS:-})
# shellcheck disable=SC2206
base_options=(${BASE_OPTIONS:-})
resume=()
if [ "${RESUME:-0}" = 1 ]; then
    resume=(-resume)
fi
exec "$referee" \
    -engine "cmd=$new" name=new "${new_options[@]}" \
    -engine "cmd=$base" name=base "${base_options[@]}" \
    -each "tc=$tc" timemargin=100 \
    -games 2 -rounds 50000 -concurrency "$concurrency" \
    -openings "file=$openings" order=random -seed "${SEED:-1}" \
    -sprt "elo0=$elo0" "elo1=$elo1" alpha=0.05 beta=0.05 \
    -repetition "${REPETITION:-forbid}" \
    -recover -ratinginterval 20 \
    -pgnout "$out.pgn" -jsonout "$out.jsonl" "${resume[@]}"
