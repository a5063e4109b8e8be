#!/usr/bin/env bash
# Writes the held-out test sets of tests/data/holdout/ (issue 27; docs/eval.md, "Held-out test
# sets") from the complete default tables: six sources, each under both repetition rules.
#
#   tools/holdout/make_sets.sh TABLES
#
# The games against another program (other-program-games.txt) are made first, by
#   pip install baghchal==1.0.1 ./python
#   python tools/holdout/other_program.py --games 80 --depth 3 --nodes 20000 --seed 27 \
#       --out tests/data/holdout/other-program-games.txt
# Every source but movetime repeats position for position; movetime depends on the machine.
# The engine plays with the classic evaluation, as when the sets were made; the elo: sources
# read the ladder of src/search/skill_elo.rs, so they repeat with the ladder of that time (the
# one measured with the classic evaluation, before the network became the default).
set -euo pipefail
tables=${1:?usage: tools/holdout/make_sets.sh TABLES}
cd "$(dirname "$0")/../.."
cargo build --release --example holdout_sets
out=tests/data/holdout
make() { # name source max-games: both rules side by side
  for rule in draw forbid; do
    "${CARGO_TARGET_DIR:-target}/release/examples/holdout_sets" --tables "$tables" --source "$2" --max-games "$3" \
      --per-phase 150 --per-game 3 --seed 2701 --repetition "$rule" --out "$out/$1-$rule.txt" &
  done
  wait
}
make selfplay-nodes-2000 nodes:2000 400
make selfplay-movetime-50 movetime:50 40
make level-elo-600 elo:600 400
make level-elo-1200 elo:1200 400
make other-program games:$out/other-program-games.txt 0
make uniform uniform 400
