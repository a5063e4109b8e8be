#!/usr/bin/env python3
"""Grows a proof tree under forbid: looks for a tigers' strategy made of `tb forbid prove` searches.

Usage: tools/forbid_proof_grow.py DIR [--baghchal BIN] [--out OUT] [--captures-to-win N]
                                   [--from POSITION] [--without-proofs] [--nodes N]
                                   [--max-nodes N] [--factor F] [--split-nodes S] [--depth D]
                                   [--width W] [--order depth-first|best-first]
                                   [--max-table-entries E]

What tools/forbid_proof_tree.py checks, this finds, from the root (the start, or POSITION with
an empty history). Its nodes:

- a goats' node (goats to move) is searched with `--each-move` at N expansions. Each move left
  unknown (and not the image of another) leads to a tigers' node; the node is lost for the goats
  when every one of them is won for the tigers. With no goats in hand (the root only) no move
  leads to a node, so the search is repeated with F times the expansions, up to the most
  allowed, until every move is settled;
- a tigers' node (the tigers to move, right after a placement) is searched whole at N
  expansions, then with F times as many, up to the most allowed. Once a search of at least S
  expansions (default N) leaves it unknown, and the goats still have goats in hand, it may be
  split: its W most promising moves (by the smallest disproof number of their goats' node,
  what the tigers still have to prove there; no two of them symmetric images, which would
  have the same value) lead to goats' nodes, up to D goats' nodes below the root.

In which order (`--order`):

- best first (the default), as proof-number search one level up: each step goes down from the
  root, to the tigers' move of the smallest proof number and the goats' move of the smallest
  disproof number (the numbers a node's last search gave, summed and minimised over the children
  of a node already split), and searches the node it reaches: a goats' node move by move, a
  tigers' node with the next budget, or, once searched with S, split. A split whose moves all
  fail is undone and the node searched on; a node past the most expansions is given up;
- depth first: a goats' node's unknown moves in turn, easiest first; a tigers' node is split
  once, its moves tried in turn; its searches grow on if that fails.

A search's table holds half as many entries as it may expand, at least 2^24 (the prover's
default) and at most E (default 2^26).
Each search's output is kept in OUT/searches under a name drawn from its command and reused on a
rerun, so an interrupted run resumes and a rerun with other limits redoes nothing it has. The
tree goes to OUT/tree.txt: the proof's nodes when the root is proven, else every node searched
(at its largest budget). Then tools/forbid_proof_tree.py checks it (with OUT/check prefilled from
the kept outputs; give it another --out to search everything again): its report and verdict go
to stdout and its exit code is this tool's (0 when proven, 1 when not). Progress goes to stderr,
ending with what the run cost: the searches it used (run or reused), their expansions and their
wall seconds.
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
INF = float("inf")


class Grower:
    """The search of a tree: every search run and described node, and the limits."""

    def __init__(self, args):
        self.args = args
        self.described = {}
        self.searched = {}
        self.costs = {}  # (expansions, wall seconds) of each search command run or reused

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
        self.costs[key] = (sum(int(row.split("(", 1)[1].split()[0]) for row in output
                               if " nodes expanded, " in row),
                           next(float(row.split(": ")[1]) for row in output
                                if row.startswith("wall seconds: ")))
        if self.searched.get(line, (0, 0))[0] < nodes:
            self.searched[line] = (nodes, entries, output)
        return output, (nodes, entries)

    def most_promising(self, line, ranked):
        """The first W of the tigers' moves `ranked` (best first, (key, move) pairs) from the
        tigers' node `line` whose positions are not symmetric images of each other's (the
        tigers need only one of a symmetric pair, and both would have the same value)."""
        chosen, seen = [], set()
        for key, move in ranked:
            if len(chosen) == self.args.width:
                break
            image = canonical(self.describe(line + (move,))[0])
            if image not in seen:
                seen.add(image)
                chosen.append((key, move))
        return chosen

    def budgets(self):
        """The expansions a node may be searched with, smallest first."""
        nodes = self.args.nodes
        while True:
            yield nodes
            if nodes >= self.args.max_nodes:
                return
            nodes = min(nodes * self.args.factor, self.args.max_nodes)


class DepthFirst(Grower):
    """The search of a tree depth first: a goats' node's unknown moves in turn, easiest first;
    a tigers' node searched with growing budgets, split once on its most promising moves."""

    def grow(self):
        """(value, proof's nodes) of the root."""
        _, side, _, _ = self.describe(())
        value, proof = (self.goats if side == "g" else self.tigers)((), 0)
        if value == WON and proof[0][1] != ():
            # A tigers' root won by a goats' node below it: the root is the tree's first line.
            proof.insert(0, (self.searched[()][:2], ()))
        return value, proof

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
            value, _ = search_summary(output)
            if value != OPEN:
                return value, [(limits, line)] if value == WON else []
            if split_done or nodes < self.args.split_nodes:
                continue
            split_done = True
            ranked = [(disproof_number(row), move) for move, row in move_rows(output)
                      if row.startswith(OPEN)]
            for _, move in self.most_promising(line, sorted(ranked)):
                value, below = self.goats(line + (move,), depth + 1)
                if value == WON:
                    return WON, below
        return OPEN, []


class Node:
    """A node of the best-first tree: a goats' node (goats to move) or a tigers' node, with the
    proof and disproof numbers of the tigers' win (what is left to prove, to refute)."""

    def __init__(self, line, side, depth, numbers):
        self.line, self.side, self.depth = line, side, depth
        self.own = numbers  # the numbers of its own last search (or its parent's)
        self.proof, self.disproof = numbers
        self.value = OPEN
        self.given_up = False
        self.split_failed = False  # a tigers' node whose split moves all failed
        self.budget = 0  # the most expansions this node was searched with
        self.rows = None  # a tigers' node: its whole search's `move` rows
        self.children = None  # {move: Node} once expanded


class BestFirst(Grower):
    """The search of a tree in best-first order, as proof-number search one level up: each step
    follows the smallest proof number at the tigers' nodes and the smallest disproof number at
    the goats' nodes down to a leaf, and searches it (a larger budget, or split)."""

    def grow(self):
        """(value, proof's nodes) of the root."""
        _, side, _, _ = self.describe(())
        root = Node((), side, 0, (1, 1))
        step = 0
        while True:
            numbers(root)
            if root.proof == 0 or root.disproof == 0:
                break
            leaf = root
            while leaf.children:
                leaf = most_proving(leaf)
            step += 1
            print(f"step {step}: root proof {root.proof} disproof {root.disproof}; "
                  f"{' '.join(leaf.line) or '(root)'}", file=sys.stderr, flush=True)
            (self.expand_goats if leaf.side == "g" else self.deepen_tigers)(leaf)
        if root.proof != 0:
            return (LOST if not root.given_up else OPEN), []
        return WON, self.proof(root)

    def expand_goats(self, node):
        """Searches a goats' node's moves each alone; its unknown moves become tigers' nodes."""
        _, _, legal, in_hand = self.describe(node.line)
        nodes = next((n for n in self.budgets() if n > node.budget), None)
        if nodes is None:
            node.given_up = True
            return
        output, _ = self.run(node.line, nodes)
        node.budget = nodes
        results = checker.move_results(output)
        if sorted(results) != sorted(legal):
            sys.exit(f"{' '.join(node.line) or '(root)'}: the search's moves are not the "
                     "engine's legal moves")
        if any(value == LOST for value, _ in results.values()):
            node.value = LOST
            return
        unknown = [move for move in legal if results[move] == (OPEN, None)]
        if in_hand == 0:
            # The root of a movement position: a history lies below it, so no move is a node
            # of its own; it is searched again with more expansions until settled.
            node.value = WON if not unknown else OPEN
            node.own = (sum(root_numbers(output, move)[0] for move in unknown),
                        min((root_numbers(output, move)[1] for move in unknown), default=INF))
            return
        node.children = {}
        for move in unknown:
            child = Node(node.line + (move,), "t", node.depth, root_numbers(output, move))
            child.budget = nodes  # each move alone searched it with as many expansions
            node.children[move] = child

    def deepen_tigers(self, node):
        """Searches a tigers' node with a larger budget, or splits it on its W most promising
        moves (once; if they all fail, its searches grow on)."""
        _, _, _, in_hand = self.describe(node.line)
        can_split = node.depth < self.args.depth and in_hand > 0 and not node.split_failed
        if node.rows is not None and node.budget >= self.args.split_nodes and can_split:
            # The rows are the goats' view: their disproof is the tigers' proof.
            ranked = sorted((row_numbers(row)[::-1], move) for move, row in node.rows
                            if row.startswith(OPEN))
            if ranked:
                node.children = {
                    move: Node(node.line + (move,), "g", node.depth + 1, tigers_numbers)
                    for tigers_numbers, move in self.most_promising(node.line, ranked)}
                return
            node.split_failed = True
        nodes = next((n for n in self.budgets() if n > node.budget), None)
        if nodes is None and node.rows is None and can_split:
            nodes = node.budget  # searched only as a move of its parent: no rows yet
        if nodes is None:
            node.given_up = True
            return
        output, _ = self.run(node.line, nodes)
        node.budget, node.rows = nodes, list(move_rows(output))
        node.value, found = search_summary(output)
        if found is not None:
            node.own = found

    def proof(self, node):
        """The proof's nodes below a node proven won."""
        if node.children is None:
            return [(self.searched[node.line][:2], node.line)]
        if node.side == "t":
            proven = next(c for c in node.children.values() if c.proof == 0)
            below = self.proof(proven)
            return below if node.line else [(self.searched[()][:2], ())] + below
        proof = [(self.searched[node.line][:2], node.line)]
        for child in node.children.values():
            proof += self.proof(child)
        return proof


def numbers(node):
    """Sets the proof and disproof numbers of `node` from its children, recursively."""
    if node.value == WON:
        node.proof, node.disproof = 0, INF
    elif node.value == LOST:
        node.proof, node.disproof = INF, 0
    elif node.given_up:
        node.proof, node.disproof = INF, 0
    elif node.children is None:
        node.proof, node.disproof = node.own
    else:
        for child in node.children.values():
            numbers(child)
        children = list(node.children.values())
        proofs = [child.proof for child in children]
        disproofs = [child.disproof for child in children]
        if node.side == "t":
            if min(proofs) == INF:
                # None of the moves it was split on can be won: a tigers' node is only refuted
                # by its own search, so it becomes a leaf again and is searched on.
                node.children, node.split_failed = None, True
                node.proof, node.disproof = node.own
                return
            node.proof, node.disproof = min(proofs), sum(disproofs)
        else:
            node.proof, node.disproof = sum(proofs), min(disproofs, default=INF)
            # Refuted for good when one move is (its goats' refutation is); otherwise a budget
            # ran out below.
            refuted = any(child.proof == INF and not child.given_up for child in children)
            node.given_up = node.proof == INF and not refuted


def most_proving(node):
    """The child to follow: the smallest proof number where the tigers choose, the smallest
    disproof number where the goats do."""
    children = node.children.values()
    if node.side == "t":
        return min(children, key=lambda child: (child.proof, child.disproof))
    return min(children, key=lambda child: (child.disproof, child.proof))


def canonical(position):
    """The least of the eight symmetric images of a position string's board (the board's lines
    are the same under each), with the rest of the string as it is."""
    board, rest = position.split(" ", 1)
    rows = ["".join("." * int(c) if c.isdigit() else c for c in row) for row in board.split("/")]
    images = []
    for grid in (rows, ["".join(column) for column in zip(*rows)]):
        for turned in (grid, grid[::-1]):
            for image in (turned, [row[::-1] for row in turned]):
                images.append("/".join(image))
    return min(images) + " " + rest


def move_rows(output):
    """(move, the rest of its line) for each `move m: ...` line of a search's output."""
    for row in output:
        if row.startswith("move "):
            move, _, rest = row[len("move "):].partition(": ")
            yield move, rest


def row_numbers(row):
    """(proof, disproof) of a whole search's root move, in the view of the goats, who are to
    move after it: the disproof number is how much the tigers still have to prove."""
    proof, disproof = row.rsplit("(proof ", 1)[1].rstrip(")").split(" disproof ")
    return number(proof), number(disproof)


def disproof_number(row):
    """How much the tigers still have to prove after a whole search's root move."""
    return row_numbers(row)[1]


def number(text):
    """A proof or disproof number as printed (`inf` for infinity)."""
    return INF if text == "inf" else int(text)


def root_numbers(output, move):
    """(proof, disproof) of the root of the `--each-move` search of `move` (the tigers' view)."""
    for found, rest in move_rows(output):
        if found == move:
            return searched_numbers(rest) or (INF, INF)
    return (INF, INF)


def search_summary(output):
    """(value, root's (proof, disproof) or None) from a whole search's `forbid:` line; unknown
    without one."""
    row = next((row for row in output if row.startswith("forbid:")), None)
    if row is None:
        return OPEN, None
    rest = row.split(":", 1)[1]
    return rest.split("(")[0].strip(), searched_numbers(rest)


def searched_numbers(text):
    """(proof, disproof) of a search's root from the `root proof P disproof D` in its line, or
    None when it has none."""
    if "root proof " not in text:
        return None
    found = text.split("root proof ", 1)[1].split(",")[0].split(" disproof ")
    return tuple(number(n) for n in found)


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
    parser.add_argument("--order", choices=["best-first", "depth-first"], default="best-first",
                        help="the order nodes are searched in")
    parser.add_argument("--max-table-entries", type=int, default=1 << 26,
                        help="the most entries of a search's transposition table")
    args = parser.parse_args()
    if args.nodes < 1 or args.max_nodes < args.nodes or args.factor < 2 or args.width < 1:
        sys.exit("need 1 <= --nodes <= --max-nodes, --factor >= 2 and --width >= 1")
    if args.split_nodes is None:
        args.split_nodes = args.nodes
    os.makedirs(os.path.join(args.out, "searches"), exist_ok=True)

    grower = (BestFirst if args.order == "best-first" else DepthFirst)(args)
    try:
        value, proof = grower.grow()
    except KeyboardInterrupt:
        sys.exit(f"interrupted: the searches done are kept in {args.out}/searches; "
                 "the same command goes on from there")
    if value != WON:
        proof = [(limits, line) for line, (*limits, _) in grower.searched.items()]
    print(f"search: {value} from {args.root or 'the start'}; {len(grower.searched)} nodes "
          f"searched, {len(proof)} in the tree; {len(grower.costs)} searches, "
          f"{sum(e for e, _ in grower.costs.values()) / 1e6:.1f} million expansions, "
          f"{sum(s for _, s in grower.costs.values()):.0f} s", file=sys.stderr, flush=True)

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
