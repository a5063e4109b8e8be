#!/usr/bin/env bash
# The pattern network's training data and weights (docs/eval.md, "The pattern network").
#
#   tools/network.sh TABLES [OUT_DIR]
#
# TABLES: the complete tables of the default rules (`baghchal tb gen --out TABLES --placement`).
# Writes four sets of self-play positions and their neighbours, labelled by the tables
# (OUT_DIR/a..d.tsv, each skipped when it exists), then trains the network on them, leaving out
# every position of the held-out test sets, and writes src/search/network/network.bin. The same
# tables give the same file, byte for byte. THREADS: games played at once (1; no effect on the
# output). FOCUS=1 adds the data for the weak spots (OUT_DIR/g.tsv: tablebase-labelled
# positions on short walks from the games' crowded movement-phase and late-placement positions,
# `eval_focus`; docs/eval.md, "Data for the weak spots"), FOCUS=2 adds it twice (weight 2):
# the candidates of that section, not the committed network. FOCUS_EMPTY=5 takes that data's
# movement-phase focus to 5 empty points (the goats' last layer included; OUT_DIR/g5.tsv, default
# 4). LAST_DRAWS=N trains each table draw of the goats' last movement-phase layer N times
# (`network_train --last-layer-draws`; default 1).
set -euo pipefail

if [ $# -lt 1 ]; then
    sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
tables=$1
out=${2:-network-data}
here=$(cd "$(dirname "$0")/.." && pwd)
threads=${THREADS:-1}

focus=${FOCUS:-0}
focus_empty=${FOCUS_EMPTY:-4}
last_draws=${LAST_DRAWS:-1}
cargo build --release --manifest-path "$here/Cargo.toml" \
    --example eval_data --example eval_focus --example network_train
bin=${CARGO_TARGET_DIR:-$here/target}/release/examples
mkdir -p "$out"

data() {
    local tool=$1 name=$2
    shift 2
    if [ ! -s "$out/$name.tsv" ]; then
        "$bin/$tool" --tables "$tables" --threads "$threads" "$@" > "$out/$name.tsv.part"
        mv "$out/$name.tsv.part" "$out/$name.tsv"
    fi
}
# Engine play at several strengths, both repetition rules, some with random moves mixed in.
data eval_data a --games 700 --nodes 1000 --seed 11 --explore 5
data eval_data b --games 700 --nodes 1500 --seed 12 --explore 15 --repetition draw
data eval_data c --games 1500 --nodes 800 --seed 13 --explore 20
data eval_data d --games 500 --nodes 3000 --seed 14 --repetition draw
sets=(a b c d)
distinct=(a b c d)
command="tools/network.sh TABLES"
if [ "$focus" != 0 ]; then
    # Three walks of up to 12 plies from each game position of a..d with at most 4 (or
    # FOCUS_EMPTY) empty points (movement) or 1 to 3 goats in hand; 90% of the plies are moves
    # the tables call best.
    focus_set=g
    if [ "$focus_empty" != 4 ]; then
        focus_set=g$focus_empty
        command="FOCUS_EMPTY=$focus_empty $command"
    fi
    data eval_focus "$focus_set" --from "$out/a.tsv" --from "$out/b.tsv" --from "$out/c.tsv" \
        --from "$out/d.tsv" --seed 3 --walks 3 --plies 12 --best 90 --max-empty "$focus_empty" \
        --max-hand 3
    for _ in $(seq "$focus"); do sets+=("$focus_set"); done
    distinct+=("$focus_set")
    command="FOCUS=$focus $command"
fi
weights=()
if [ "$last_draws" != 1 ]; then
    weights=(--last-layer-draws "$last_draws")
    command="LAST_DRAWS=$last_draws $command"
fi
files=()
for set in "${sets[@]}"; do files+=(--data "$out/$set.tsv"); done
samples=()
for set in "${distinct[@]}"; do samples+=("$out/$set.tsv"); done

"$bin/network_train" --holdout "$here/tests/data/holdout" "${files[@]}" \
    "${weights[@]}" --epochs 6 --rate 0.05 --seed 1 --out "$here/src/search/network/network.bin" \
    --command "$command"
# A sample of the training data (held-out positions left out, as in training), for the test
# that keeps the two apart.
cat "$here"/tests/data/holdout/*-draw.txt "$here"/tests/data/holdout/*-forbid.txt |
    grep -v '^#' | cut -d'|' -f1 | sed 's/ *$//' > "$out/held-out.txt"
cat "$out/held-out.txt" "${samples[@]}" |
    awk -F'\t' -v held="$(wc -l < "$out/held-out.txt")" \
        'NR <= held { h[$1] = 1; next } !($1 in h) && (++n % 1000 == 1)' \
        > "$here/tools/network_sample.tsv"
