#!/usr/bin/env python3
"""Fits Elo ratings to the matches of tools/calibrate.sh (standard library only).

Usage: tools/calibrate_fit.py DIR [--full-nodes N] [--command TEXT] [--write FILE]

Every DIR/A-B.jsonl is one match of referee game pairs (the two games of a pair share an
opening, colours swapped). Per match, the score of A is the mean of its pair scores, with one
win and one loss added (so that a clean sweep still has a finite Elo difference) and a standard
error from the spread of the pair scores (at least the binomial one of that score). Ratings come
from weighted least squares on the matches' Elo differences, the random mover (R) fixed at 0;
their errors from the inverse of the normal matrix. Prints a Markdown table and, with --write,
the Rust source of LEVEL_ELO.
"""

import argparse
import glob
import json
import math
import os
import sys

PLAYERS = ["R"] + [str(level) for level in range(20)] + ["F"]


def match_result(path):
    """(A, B, games, points of A, pair-score standard error) of one match file."""
    a, b = os.path.basename(path)[: -len(".jsonl")].split("-")
    pairs = {}
    with open(path) as records:
        for line in records:
            game = json.loads(line)
            if game["result"] == "1/2-1/2":
                points = 0.5
            else:
                goat_won = game["result"] == "1-0"
                points = 1.0 if goat_won == (game["goat"] == a) else 0.0
            pairs.setdefault(game["pair"], []).append(points)
    scores = [sum(p) / len(p) for p in pairs.values()]
    games = sum(len(p) for p in pairs.values())
    points = sum(sum(p) for p in pairs.values())
    n = len(scores)
    mean = sum(scores) / n
    spread = sum((s - mean) ** 2 for s in scores) / max(n - 1, 1)
    return a, b, games, points, spread, n


def elo_of(score):
    return -400.0 * math.log10(1.0 / score - 1.0)


def solve(matrix, vector):
    """Solves matrix x = vector (Gauss-Jordan); also returns the inverse."""
    size = len(matrix)
    aug = [row[:] + [vector[i]] + [1.0 if j == i else 0.0 for j in range(size)]
           for i, row in enumerate(matrix)]
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: abs(aug[r][col]))
        aug[col], aug[pivot] = aug[pivot], aug[col]
        div = aug[col][col]
        aug[col] = [v / div for v in aug[col]]
        for r in range(size):
            if r != col and aug[r][col] != 0.0:
                factor = aug[r][col]
                aug[r] = [v - factor * w for v, w in zip(aug[r], aug[col])]
    x = [aug[i][size] for i in range(size)]
    inverse = [aug[i][size + 1:] for i in range(size)]
    return x, inverse


def fit(matches):
    free = PLAYERS[1:]
    index = {p: i for i, p in enumerate(free)}
    size = len(free)
    normal = [[0.0] * size for _ in range(size)]
    rhs = [0.0] * size
    for a, b, diff, var in matches:
        weight = 1.0 / var
        row = [0.0] * size
        if a in index:
            row[index[a]] += 1.0
        if b in index:
            row[index[b]] -= 1.0
        for i in range(size):
            rhs[i] += weight * row[i] * diff
            for j in range(size):
                normal[i][j] += weight * row[i] * row[j]
    x, inverse = solve(normal, rhs)
    ratings = {"R": (0.0, 0.0)}
    for p, i in index.items():
        ratings[p] = (x[i], math.sqrt(max(inverse[i][i], 0.0)))
    return ratings


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir")
    parser.add_argument("--full-nodes", type=int, default=64000)
    parser.add_argument("--command", default="tools/calibrate.sh")
    parser.add_argument("--write")
    args = parser.parse_args()
    matches = []
    total_games = 0
    print("| match | games | score | Elo difference |")
    print("|---|---:|---:|---:|")
    def order(path):
        a, b = os.path.basename(path)[: -len(".jsonl")].split("-")
        return PLAYERS.index(a), PLAYERS.index(b)

    for path in sorted(glob.glob(os.path.join(args.dir, "*.jsonl")), key=order):
        a, b, games, points, spread, pairs = match_result(path)
        total_games += games
        score = (points + 1.0) / (games + 2.0)
        var_score = max(spread / pairs, score * (1.0 - score) / (games + 2.0))
        diff = elo_of(score)
        slope = 400.0 / (math.log(10.0) * score * (1.0 - score))
        var = var_score * slope * slope
        matches.append((a, b, diff, var))
        print(f"| {a} vs {b} | {games} | {points / games:.3f} | {diff:+.0f} ± {1.96 * math.sqrt(var):.0f} |")
    ratings = fit(matches)
    print()
    print(f"{len(matches)} matches, {total_games} games")
    print()
    print("| player | Elo | 95% interval |")
    print("|---|---:|---:|")
    for p in PLAYERS:
        if p not in ratings:
            sys.exit(f"no games of player {p}")
        elo, error = ratings[p]
        name = {"R": "random mover", "F": f"level 20 (full strength, {args.full_nodes} nodes)"}
        label = name.get(p, f"level {p}")
        print(f"| {label} | {elo:.0f} | ± {1.96 * error:.0f} |")
    if args.write:
        levels = [round(ratings[str(level)][0]) for level in range(20)]
        levels.append(round(ratings["F"][0]))
        body = ", ".join(str(v) for v in levels)
        with open(args.write, "w") as source:
            source.write(
                "//! Measured Elo of each `Skill Level` (index = level), the uniformly random mover"
                " = 0.\n//!\n"
                f"//! Written by `tools/calibrate_fit.py`, run by `{args.command}`\n"
                f"//! ({len(matches)} matches, {total_games} games; level 20 at {args.full_nodes}"
                " nodes per move; docs/strength.md). Do not edit.\n\n"
                "/// Elo of levels 0..=20 on the scale where the uniformly random mover is 0.\n"
                "#[rustfmt::skip]\n"
                f"pub const LEVEL_ELO: [i32; 21] = [{body}];\n"
            )
        print(f"\nwrote {args.write}")


if __name__ == "__main__":
    main()
