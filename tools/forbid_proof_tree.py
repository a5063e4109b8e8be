#!/usr/bin/env python3
"""Checks a proof tree under forbid: a tigers' strategy made of `tb forbid prove` searches.

Usage: tools/forbid_proof_tree.py TREE DIR [--baghchal BIN] [--out OUT] [--jobs N]
                                   [--captures-to-win N] [--from POSITION] [--without-proofs]

TREE lists nodes, one a line: `NODES ENTRIES MOVE ...` (`-` for the root; `#` starts a
comment). A node is the position after those moves from the root (the start, or POSITION with
an empty history); the engine's `d` command (over the protocol) plays them and gives its
position string and legal moves, so a tree with an illegal move is refused. Each node is
searched with `BIN tb forbid prove DIR --with-proofs --position P --nodes NODES --table-entries
ENTRIES` (`--without-proofs` leaves out `--with-proofs`), and `--each-move` where the goats are
to move. A search starts from an empty history, so a node other than the root must be one that
no history can touch: the goats to move with goats in hand, or the tigers to move right after a
placement (a placement changes the state for good). The tree is refused otherwise. So the
results of separate searches combine:

- a node with the goats to move is a tigers' win when each legal move is: settled by its own
  search (`move m: tigers win`), the image of a settled move under a symmetry (`as m`), or
  followed by a line of the tigers that is a tigers' win (next);
- a line with the tigers to move is a tigers' win when its search says so, or when one tigers'
  move leads to a node of the tree (the goats to move) that is a tigers' win; such a line need
  not be a node itself (`c1 a1a2` alone says the tigers answer c1 with a1a2).

The verdict of the first node, with every node's result, goes to stdout. Each search's output is
kept in OUT (default `forbid-proof-tree`) as `NNN.out` with its command; a rerun reuses those of
the same command, so an interrupted run resumes. Progress goes to stderr.
"""

import argparse
import concurrent.futures
import os
import re
import shlex
import subprocess
import sys
import time

MOVE_LINE = re.compile(r"^move (\S+): (tigers win|goats win|unknown) ?(?:\(as (\S+):)?")


def parse_tree(path):
    """[(nodes, entries, moves)] in file order."""
    nodes = []
    with open(path) as tree:
        for number, line in enumerate(tree, 1):
            fields = line.split("#", 1)[0].split()
            if not fields:
                continue
            if len(fields) < 3 or not fields[0].isdigit() or not fields[1].isdigit():
                sys.exit(f"{path}:{number}: expected `NODES ENTRIES MOVE ...` or `NODES ENTRIES -`")
            moves = tuple(fields[2:]) if fields[2:] != ["-"] else ()
            nodes.append((int(fields[0]), int(fields[1]), moves))
    if not nodes:
        sys.exit(f"{path}: no nodes")
    return nodes


def describe(binary, captures_to_win, root, moves):
    """(position string, side to move 'g' or 't', legal moves) after `moves`, from the engine."""
    script = ""
    if captures_to_win is not None:
        script += f"setoption name CapturesToWin value {captures_to_win}\n"
    script += f"position {f'fen {root}' if root else 'startpos'}"
    script += (" moves " + " ".join(moves) if moves else "") + "\nd\nquit\n"
    try:
        reply = subprocess.run([binary], input=script, capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError) as error:
        sys.exit(f"line {' '.join(moves) or '-'}: the engine {binary} failed: {error}")
    fields = {}
    for line in reply.stdout.splitlines():
        if line.startswith("info string error") or line.startswith("Warning"):
            sys.exit(f"line {' '.join(moves) or '-'}: the engine refused it: {line}")
        key, _, value = line.partition(": ")
        fields[key.split(" (")[0]] = value
    played = int(fields.get("Moves played", "-1"))
    if played != len(moves) or "Position" not in fields:
        sys.exit(f"line {' '.join(moves) or '-'}: the engine played {played} of its moves")
    legal = fields.get("Legal moves", "").split()
    position = fields["Position"]
    side, in_hand = position.split()[1:3]
    placed_last = bool(moves) and len(moves[-1]) == 2
    if moves and not (side == "g" and in_hand != "0" or side == "t" and placed_last):
        sys.exit(f"line {' '.join(moves)}: a history could forbid moves here ({position}); "
                 "a node must have the goats to move with goats in hand, or follow a placement")
    return position, side, legal


def search_command(binary, directory, proofs, position, nodes, entries, goats_to_move):
    """The `tb forbid prove` command of one node: each move alone where the goats are to move."""
    command = [binary, "tb", "forbid", "prove", directory] + ["--with-proofs"] * proofs
    command += ["--position", position, "--nodes", str(nodes), "--table-entries", str(entries)]
    return command + ["--each-move"] * goats_to_move


def search(command, log, label):
    """The output lines of `command`, kept in the file `log` with the command as its first line
    and reused from there when the command is the same."""
    header = "$ " + shlex.join(command)
    if os.path.exists(log):
        with open(log) as kept:
            lines = kept.read().splitlines()
        if lines and lines[0] == header and any(line.startswith("wall seconds") for line in lines):
            return lines
    started = time.time()
    position = command[command.index("--position") + 1]
    kind = "each move" if "--each-move" in command else "search"
    nodes = command[command.index("--nodes") + 1]
    print(f"{label}: {position} ({kind}, {nodes} expansions)", file=sys.stderr, flush=True)
    try:
        reply = subprocess.run(command, capture_output=True, text=True)
    except OSError as error:
        sys.exit(f"{label}: `{header}` failed: {error}")
    if reply.returncode != 0:
        sys.exit(f"{label}: `{header}` failed: {reply.stderr.strip()}")
    lines = [header] + reply.stdout.splitlines()
    with open(log + ".part", "w") as part:
        part.write("\n".join(lines) + "\n")
    os.replace(log + ".part", log)
    print(f"{label}: done in {time.time() - started:.0f} s", file=sys.stderr, flush=True)
    return lines


def move_results(output):
    """{move: (value, image or None)} from an `--each-move` search's output."""
    results = {}
    for line in output:
        match = MOVE_LINE.match(line)
        if match:
            results[match.group(1)] = (match.group(2), match.group(3))
    return results


def tree_verdicts(tree, described, outputs):
    """Whether the tree proves each node a tigers' win, by index."""
    by_line = {moves: index for index, (_, _, moves) in enumerate(tree)}
    proven = {}

    def tigers_move_won(moves):
        """Whether the tree proves the line `moves`, the tigers to move, a tigers' win: by its
        own search, or by one tigers' move to a proven node (the line itself need not be a node:
        the line of that move implies it)."""
        index = by_line.get(moves)
        if index is not None and any(line.startswith("forbid: tigers win")
                                     for line in outputs[index]):
            return True
        return any(tigers_win(child) for line, child in by_line.items()
                   if len(line) == len(moves) + 1 and line[:-1] == moves)

    def tigers_win(index):
        """Whether the tree proves node `index` a tigers' win (children first)."""
        if index in proven:
            return proven[index]
        moves = tree[index][2]
        _, side, legal = described[index]
        if side == "t":
            won = tigers_move_won(moves)
        else:
            results = move_results(outputs[index])
            if sorted(results) != sorted(legal):
                sys.exit(f"node {index}: the search's moves are not the engine's legal moves")

            def move_won(move):
                value, image = results[move]
                if value == "tigers win":
                    return True
                if image is not None:
                    return move_won(image)
                return tigers_move_won(moves + (move,))

            won = all(move_won(move) for move in legal)
        proven[index] = won
        return won

    return [tigers_win(index) for index in range(len(tree))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("tree")
    parser.add_argument("dir")
    parser.add_argument("--baghchal", default="target/release/baghchal")
    parser.add_argument("--out", default="forbid-proof-tree")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--captures-to-win", type=int,
                        help="the variant of the tables, for the engine that plays the moves")
    parser.add_argument("--from", dest="root", help="the root's position string")
    parser.add_argument("--without-proofs", action="store_true",
                        help="search without the values of `--entries --write`")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)

    tree = parse_tree(args.tree)
    described = [describe(args.baghchal, args.captures_to_win, args.root, moves)
                 for _, _, moves in tree]
    seen = set()
    for _, _, moves in tree:
        if moves in seen:
            sys.exit(f"line {' '.join(moves) or '-'} is in the tree twice")
        seen.add(moves)
    proofs = not args.without_proofs

    def node_search(index):
        nodes, entries, _ = tree[index]
        position, side, _ = described[index]
        command = search_command(args.baghchal, args.dir, proofs, position, nodes, entries,
                                 side == "g")
        return search(command, os.path.join(args.out, f"{index:03}.out"), f"node {index}")

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        outputs = list(pool.map(node_search, range(len(tree))))

    won = tree_verdicts(tree, described, outputs)
    for index, (node, output) in enumerate(zip(tree, outputs)):
        summary = next((line for line in output if line.startswith("forbid:")), "forbid: ?")
        print(f"{index:3} {' '.join(node[2]) or '(root)':45} {described[index][0]:28} "
              f"{'tigers win' if won[index] else 'not proven':10} | {summary}")
    first = " ".join(tree[0][2]) or args.root or "the start"
    print(f"verdict: {'the tigers win' if won[0] else 'not proven'} from {first}")
    return 0 if won[0] else 1


if __name__ == "__main__":
    sys.exit(main())
