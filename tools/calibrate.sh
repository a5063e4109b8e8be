#!/usr/bin/env bash
# Measures the Elo of every Skill Level with the referee and writes src/search/skill_elo.rs.
#
#   tools/calibrate.sh [OUT_DIR]
#
# Players: a uniformly random mover (Strategy random, Elo 0 by definition), Skill Level 0..19,
# and full strength (level 20) at FULL_NODES nodes per move. Levels are node-limited, so the
# result does not depend on the machine or its load: the same command gives the same games.
# Matches (PAIRS game pairs each, every opening played with both colours, Repetition forbid):
# random vs levels 0, 1, 2; each level vs the next and the one after (level 20 = full, so
# levels 18 and 19 meet it), and the levels in EXTRA_FULL (default none) vs full as well.
# tools/calibrate_fit.py fits the ratings (weighted least squares on the
# matches' Elo differences, random fixed at 0), prints the table and rewrites
# src/search/skill_elo.rs. Environment: PAIRS (20), PAIRS_FULL (game pairs of the matches
# against full strength, the slow ones: 15), FULL_NODES (64000), CONCURRENCY (2), SEED (1),
# WRITE (1: rewrite skill_elo.rs; 0: only print).
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
target=${CARGO_TARGET_DIR:-$here/target}
engine=${ENGINE:-$target/release/baghchal}
referee=${REFEREE:-$target/release/referee}
out=${1:-calibration}
pairs=${PAIRS:-20}
pairs_full=${PAIRS_FULL:-15}
full_nodes=${FULL_NODES:-64000}
concurrency=${CONCURRENCY:-2}
seed=${SEED:-1}

for binary in "$engine" "$referee"; do
    if [ ! -x "$binary" ]; then
        echo "error: no $binary: run cargo build --release (or set ENGINE and REFEREE)" >&2
        exit 2
    fi
done
mkdir -p "$out"
openings=$out/openings.txt
if [ ! -f "$openings" ]; then
    "$referee" openings --engine "cmd=$engine" --count 200 --plies 4 --seed "$seed" \
        --out "$openings"
fi

# The engine spec of a player: R (random), 0..19 (a level) or F (full strength).
spec() {
    case $1 in
        R) echo "option.Strategy=random" ;;
        F) echo "option.Skill Level=20" ;;
        *) echo "option.Skill Level=$1" ;;
    esac
}

match() {
    local a=$1 b=$2 file=$out/$1-$2.jsonl rounds=$pairs
    if [ "$b" = F ]; then rounds=$pairs_full; fi
    if [ -f "$file" ] && [ "$(wc -l < "$file")" -ge $((2 * rounds)) ]; then
        return
    fi
    rm -f "$file"
    "$referee" \
        -engine "cmd=$engine" "name=$a" "$(spec "$a")" \
        -engine "cmd=$engine" "name=$b" "$(spec "$b")" \
        -each "nodes=$full_nodes" "option.Seed=$seed" \
        -games 2 -rounds "$rounds" -concurrency "$concurrency" \
        -openings "file=$openings" order=random -seed "$seed" -maxplies 400 \
        -jsonout "$file" > "$out/$a-$b.log" 2>&1
    echo "$a vs $b: $(grep '^Score of' "$out/$a-$b.log" | tail -1)"
}

level() { if [ "$1" -ge 20 ]; then echo F; else echo "$1"; fi; }

start=$(date +%s)
for level in 0 1 2; do match R "$level"; done
for level in $(seq 0 19); do
    match "$level" "$(level $((level + 1)))"
    if [ "$level" -le 18 ]; then match "$level" "$(level $((level + 2)))"; fi
done
for level in ${EXTRA_FULL:-}; do match "$level" F; done
echo "games played in $(($(date +%s) - start)) s"

write=()
if [ "${WRITE:-1}" = 1 ]; then
    write=(--write "$here/src/search/skill_elo.rs")
fi
python3 "$here/tools/calibrate_fit.py" "$out" --full-nodes "$full_nodes" \
    --command "PAIRS=$pairs PAIRS_FULL=$pairs_full FULL_NODES=$full_nodes SEED=$seed tools/calibrate.sh $out" "${write[@]}"
