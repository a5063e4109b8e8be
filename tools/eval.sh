#!/usr/bin/env bash
# The evaluation fitted to tablebase-labelled positions, and its move quality measured.
#
#   tools/eval.sh TABLES [OUT_DIR]
#
# TABLES: a directory with the movement and placement tables of the default rules (`baghchal tb
# gen --out TABLES --placement`). Steps, each skipped when its output exists:
# 1. training positions: 400 self-play games at 4000 nodes a move, seed 1, Repetition forbid,
#    with every position one move away (OUT_DIR/train.tsv);
# 2. test positions: 150 other games (seed 1001) under Repetition draw (OUT_DIR/test.tsv);
# 3. the fit (tools/eval_tune.rs), written to src/search/eval_weights.rs when WRITE=1 (default
#    0: printed only);
# 4. move quality on the first 1000 critical movement-phase test positions at MOVETIME ms (100),
#    Repetition draw, with the weights built in and with the fitted ones, side by side (both
#    with the classic evaluation, `--param network=0`: the default is the pattern network).
# Environment: GAMES (400), NODES (4000), THREADS (games at once, 1), STEPS (2000), MOVETIME,
# LIMIT (1000). Builds the examples with cargo (release).
set -euo pipefail

if [ $# -lt 1 ]; then
    sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
tables=$1
out=${2:-eval-fit}
here=$(cd "$(dirname "$0")/.." && pwd)
games=${GAMES:-400}
nodes=${NODES:-4000}
threads=${THREADS:-1}
limit=${LIMIT:-1000}
movetime=${MOVETIME:-100}

cargo build --release --manifest-path "$here/Cargo.toml" \
    --example eval_data --example eval_tune --example move_quality
bin=${CARGO_TARGET_DIR:-$here/target}/release/examples
mkdir -p "$out"

if [ ! -s "$out/train.tsv" ]; then
    "$bin/eval_data" --tables "$tables" --games "$games" --nodes "$nodes" --seed 1 \
        --threads "$threads" > "$out/train.tsv.part"
    mv "$out/train.tsv.part" "$out/train.tsv"
fi
if [ ! -s "$out/test.tsv" ]; then
    "$bin/eval_data" --tables "$tables" --games 150 --nodes "$nodes" --seed 1001 \
        --repetition draw --threads "$threads" > "$out/test.tsv.part"
    mv "$out/test.tsv.part" "$out/test.tsv"
fi

write=()
if [ "${WRITE:-0}" = 1 ]; then
    write=(--write "$here/src/search/eval_weights.rs")
fi
"$bin/eval_tune" --data "$out/train.tsv" --steps "${STEPS:-2000}" "${write[@]}" \
    --command "GAMES=$games NODES=$nodes STEPS=${STEPS:-2000} WRITE=1 tools/eval.sh TABLES" \
    2> "$out/tune.err" | tee "$out/tune.txt"
grep 'as settings' "$out/tune.err" | sed 's/^eval_tune: as settings: //' > "$out/fitted.params"

quality() {
    # shellcheck disable=SC2046
    "$bin/move_quality" --tables "$tables" --positions "$out/test.tsv" --limit "$limit" \
        --movetime "$movetime" --repetition draw --lost "$out/lost-$1.txt" --param network=0 \
        "${@:2}"
}
echo "move quality, built-in weights: $(quality built-in 2>/dev/null)"
# shellcheck disable=SC2046
echo "move quality, fitted weights:   $(quality fitted $(cat "$out/fitted.params") 2>/dev/null)"
