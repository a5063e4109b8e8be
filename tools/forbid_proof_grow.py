#!/usr/bin/env python3
"""Grows a proof tree under forbid: looks for a tigers' strategy made of `tb forbid prove` searches.

Usage: tools/forbid_proof_grow.py DIR [--baghchal BIN] [--out OUT] [--captures-to-win N]
                                   [--from POSITION] [--without-proofs] [--nodes N]
                                   [--max-nodes N] [--factor F] [--split-nodes S] [--depth D]
                                   [--width W] [--max-table-entries E]

What tools/forbid_proof_tree.py checks, this finds, from the root (the start, or POSITION with
an empty history), depth first:

- a goats' node (goats to move) is searched with `--each-move` at N expansions. Each move left
  unknown (and not the image of another) leads to a tigers' node, taken in turn, easiest first;
  the node is lost for the goats when every one of them is won for the tigers. With no goats in
  hand (the root only) no move leads to a node, so the search is repeated with F times the
  expansions, up to the most allowed, until every move is settled;
- a tigers' node (the tigers to move, right after a placement) is searched whole at N
  expansions, then with F times as many, up to the most allowed. Once a search of at least S
  expansions (default N) leaves it unknown, and the goats still have goats in hand, it is split
  once: the W moves whose goats' node has the smallest disproof number (what the tigers still
  have to prove there) are tried in turn, up to D goats' nodes below the root; the searches
  grow on if that fails.

A search's table holds half as many entries as it may expand, at least 2^24 (the prover's
default) and at most E (default 2^26).
Each search's output is kept in OUT/searches under a name drawn from its command and reused on a
rerun, so an interrupted run resumes and a rerun with other limits redoes nothing it has. The
tree goes to OUT/tree.txt: the proof's nodes when the root is proven, else every node searched
(at its largest budget). Then tools/forbid_proof_tree.py checks it (with OUT/check prefilled from
the kept outputs; give it another --out to search everything again): its report and verdict go
to stdout and its exit code is this tool's (0 when proven, 1 when not). Progress goes to stderr.
"""

import argparse
import hashlib
import os
import shlex
import shutil
import subprocess
import sys

import forbid_proof_tree as checker

WON, LOST, OPEN = "tigers win", "goats win", "unknown"


class Grower:
    """The search of a tree: every search run and described node, and the limits."""

    def __init__(self, args):
        self.args = args
        self.described = {}
        self.searched = {}

    def describe(self, line):
        """(position, side to move, legal moves, goats in hand) after `line`, from the engine."""
        if line not in self.described:
            position, side, legal = checker.describe(
                self.args.baghchal, self.args.captures_to_win, self.args.root, line)
            self.described[line] = (position, side, legal, int(position.split()[2]))
        return self.described[line]

    def run(self, line, nodes):
        """The output of the search of node `line` with `nodes` expansions."""
        position, side, _, _ = self.describe(line)
        entries = min(max(nodes // 2, 1 << 24), self.args.max_table_entries)
        command = checker.search_command(self.args.baghchal, self.args.dir,
                                         not self.args.without_proofs, position, nodes, entries,
                                         side == "g")
        key = hashlib.sha1(shlex.join(command).encode()).hexdigest()[:16]
        log = os.path.join(self.args.out, "searches", f"{key}.out")
        output = checker.search(command, log, " ".join(line) or "(root)")
        if self.searched.get(line, (0, 0))[0] < nodes:
            self.searched[line] = (nodes, entries, output)
        return output, (nodes, entries)

    def budgets(self):
        """The expansions a node may be searched with, smallest first."""
        nodes = self.args.nodes
        while True:
            yield nodes
            if nodes >= self.args.max_nodes:
                return
            nodes = min(nodes * self.args.factor, self.args.max_nodes)

    def goats(self, line, depth):
        """(value, proof's nodes) of the goats' node `line`."""
        _, _, legal, in_hand = self.describe(line)
        for nodes in self.budgets():
            output, limits = self.run(line, nodes)
            results = checker.move_results(output)
            if sorted(results) != sorted(legal):
                sys.exit(f"{' '.join(line) or '(root)'}: the search's moves are not the engine's "
                         "legal moves")
            if any(value == LOST for value, _ in results.values()):
                return LOST, []
            unknown = [move for move in legal
                       if results[move][0] == OPEN and results[move][1] is None]
            if in_hand == 0 and unknown:
                continue
            proof = [(limits, line)]
            unknown.sort(key=lambda move: root_numbers(output, move)[0])
            for move in unknown:
                value, below = self.tigers(line + (move,), depth)
                if value != WON:
                    return value, []
                proof += below
            return WON, proof
        return OPEN, []

    def tigers(self, line, depth):
        """(value, proof's nodes) of the tigers' node `line`."""
        _, _, _, in_hand = self.describe(line)
        split_done = depth >= self.args.depth or in_hand == 0
        for nodes in self.budgets():
            output, limits = self.run(line, nodes)
            value = next((row.split(":")[1].split("(")[0].strip()
                          for row in output if row.startswith("forbid:")), OPEN)
            if value != OPEN:
                return value, [(limits, line)] if value == WON else []
            if split_done or nodes < self.args.split_nodes:
                continue
            split_done = True
            ranked = [(disproof_number(row), move) for move, row in move_rows(output)
                      if row.startswith(OPEN)]
            for _, move in sorted(ranked)[:self.args.width]:
                value, below = self.goats(line + (move,), depth + 1)
                if value == WON:
                    return WON, below
        return OPEN, []


def move_rows(output):
    """(move, the rest of its line) for each `move m: ...` line of a search's output."""
    for row in output:
        if row.startswith("move "):
            move, _, rest = row[len("move "):].partition(": ")
            yield move, rest


def disproof_number(row):
    """The disproof number of a whole search's root move: the goats are to move after it, so this
    is how much the tigers still have to prove."""
    number = row.rsplit("disproof ", 1)[1].rstrip(")")
    return float("inf") if number == "inf" else int(number)


def root_numbers(output, move):
    """(proof, disproof) of the root of the `--each-move` search of `move` (the tigers' view)."""
    for found, rest in move_rows(output):
        if found == move and "root proof " in rest:
            numbers = rest.split("root proof ", 1)[1].split(",")[0].split(" disproof ")
            return tuple(float("inf") if n == "inf" else int(n) for n in numbers)
    return (float("inf"), float("inf"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("dir")
    parser.add_argument("--baghchal", default="target/release/baghchal")
    parser.add_argument("--out", default="forbid-proof-grow")
    parser.add_argument("--captures-to-win", type=int,
                        help="the variant of the tables, for the engine that plays the moves")
    parser.add_argument("--from", dest="root", help="the root's position string")
    parser.add_argument("--without-proofs", action="store_true",
                        help="search without the values of `--entries --write`")
    parser.add_argument("--nodes", type=int, default=1_000_000,
                        help="expansions of a node's first search")
    parser.add_argument("--max-nodes", type=int, default=100_000_000,
                        help="the most expansions of one search")
    parser.add_argument("--factor", type=int, default=4,
                        help="how much a repeated search grows")
    parser.add_argument("--split-nodes", type=int,
                        help="expansions a tigers' node is searched with before it is split "
                             "(default: --nodes)")
    parser.add_argument("--depth", type=int, default=4,
                        help="the most goats' nodes below the root")
    parser.add_argument("--width", type=int, default=2,
                        help="tigers' moves tried where their node is split")
    parser.add_argument("--max-table-entries", type=int, default=1 << 26,
                        help="the most entries of a search's transposition table")
    args = parser.parse_args()
    if args.nodes < 1 or args.max_nodes < args.nodes or args.factor < 2 or args.width < 1:
        sys.exit("need 1 <= --nodes <= --max-nodes, --factor >= 2 and --width >= 1")
    if args.split_nodes is None:
        args.split_nodes = args.nodes
    os.makedirs(os.path.join(args.out, "searches"), exist_ok=True)

    grower = Grower(args)
    _, side, _, _ = grower.describe(())
    try:
        value, proof = (grower.goats if side == "g" else grower.tigers)((), 0)
    except KeyboardInterrupt:
        sys.exit(f"interrupted: the searches done are kept in {args.out}/searches; "
                 "the same command goes on from there")
    if value != WON:
        proof = [(limits, line) for line, (*limits, _) in grower.searched.items()]
    elif proof[0][1] != ():
        # A tigers' root won by a goats' node below it: the root is the tree's first line.
        proof.insert(0, (grower.searched[()][:2], ()))
    print(f"search: {value} from {args.root or 'the start'}; {len(grower.searched)} nodes "
          f"searched, {len(proof)} in the tree", file=sys.stderr, flush=True)

    tree_file = os.path.join(args.out, "tree.txt")
    check = os.path.join(args.out, "check")
    shutil.rmtree(check, ignore_errors=True)
    os.makedirs(check)
    with open(tree_file, "w") as tree:
        tree.write(f"# grown by: {shlex.join(sys.argv)}\n# search: {value}\n")
        for index, ((nodes, entries), line) in enumerate(proof):
            tree.write(f"{nodes} {entries} {' '.join(line) or '-'}\n")
            with open(os.path.join(check, f"{index:03}.out"), "w") as kept:
                kept.write("\n".join(grower.run(line, nodes)[0]) + "\n")
    command = [sys.executable, os.path.join(os.path.dirname(__file__), "forbid_proof_tree.py"),
               tree_file, args.dir, "--baghchal", args.baghchal, "--out", check]
    command += ["--captures-to-win", str(args.captures_to_win)] * (args.captures_to_win is not None)
    command += ["--from", args.root] * (args.root is not None)
    command += ["--without-proofs"] * args.without_proofs
    return subprocess.run(command).returncode


if __name__ == "__main__":
    sys.exit(main())
