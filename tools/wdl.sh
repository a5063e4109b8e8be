#!/usr/bin/env bash
# Refits the win/draw/loss model: self-play data, then the fit, then src/search/wdl_fit.rs.
#
#   tools/wdl.sh [OUT_DIR]
#
# Plays GAMES self-play games (default 240) under each repetition rule at NODES nodes per move
# (default 4000) from openings seeded with SEED (default 1) with tools/wdl_data.rs, writes
# OUT_DIR/forbid.csv and OUT_DIR/draw.csv, and fits them with tools/wdl_fit.py (every fifth game
# held back for the check it prints). WRITE=0 only prints.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-wdl-data}
games=${GAMES:-240}
nodes=${NODES:-4000}
seed=${SEED:-1}
mkdir -p "$out"
(cd "$here" && cargo build --release --example wdl_data)
data=${CARGO_TARGET_DIR:-$here/target}/release/examples/wdl_data
for rule in forbid draw; do
    if [ ! -s "$out/$rule.csv" ]; then
        "$data" --games "$games" --nodes "$nodes" --seed "$seed" --repetition "$rule" \
            --threads "${THREADS:-2}" > "$out/$rule.csv"
    fi
done
write=()
if [ "${WRITE:-1}" = 1 ]; then
    write=(--write "$here/src/search/wdl_fit.rs")
fi
python3 "$here/tools/wdl_fit.py" "$out/forbid.csv" "$out/draw.csv" \
    --command "GAMES=$games NODES=$nodes SEED=$seed tools/wdl.sh $out" "${write[@]}"
