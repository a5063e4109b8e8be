#!/usr/bin/env python3
"""Fits the win/draw/loss model to self-play data (standard library only).

Usage: tools/wdl_fit.py CSV... [--command TEXT] [--write FILE] [--table FILE]

Reads the CSV of tools/wdl_data.rs. Games whose number is 4 modulo 5 are held back; the rest
fit, per cell (repetition rule, side to move, goats-in-hand bucket, captures-needed bucket, as
src/search/wdl.rs defines them), an ordered logistic model by maximum likelihood:
P(loss) = s((loss_below - x) / scale), P(win) = s((x - win_above) / scale). A cell with fewer
than MIN_GAMES games or MIN_POSITIONS positions takes the fit of its rule, side and hand bucket,
and failing that of its rule and side. Proven wins and losses (mate scores) are exact in the
engine and left out. Prints the held-back check (predicted vs observed rates per score bucket,
with the former hand-set model for comparison) and writes the Rust constants with --write.
Scores are fitted in bins of 10 cp, clamped to +/-1500.
"""

import argparse
import csv
import math

MIN_GAMES = 25
MIN_POSITIONS = 300
CLAMP = 1500
BIN = 10
BUCKETS = [-400, -200, -100, -30, 30, 100, 200, 400]


def hand_bucket(hand):
    return 0 if hand == 0 else 1 if hand <= 7 else 2 if hand <= 14 else 3


def capture_bucket(captured, to_win=5):
    needed = max(to_win - captured, 0)
    return 0 if needed >= 5 else 1 if needed == 4 else 2 if needed == 3 else 3


def read(paths):
    rows = []
    for path in paths:
        with open(path) as data:
            for row in csv.DictReader(data):
                kind, value = row["score"].split()
                if kind != "cp":
                    continue
                cell = (
                    0 if row["repetition"] == "forbid" else 1,
                    0 if row["side"] == "g" else 1,
                    hand_bucket(int(row["hand"])),
                    capture_bucket(int(row["captured"])),
                )
                rows.append((int(row["game"]), cell, int(value), "WDL".index(row["result"])))
    return rows


def sigmoid(x):
    if x < -40:
        return 0.0
    if x > 40:
        return 1.0
    return 1.0 / (1.0 + math.exp(-x))


def probabilities(params, cp):
    loss_below, win_above, scale = params
    win_above = max(win_above, loss_below)
    loss = sigmoid((loss_below - cp) / scale)
    win = sigmoid((cp - win_above) / scale)
    draw = max(1.0 - win - loss, 0.0)
    total = win + draw + loss
    return [win / total, draw / total, loss / total]


def handset(cp):
    win = 1.0 / (1.0 + math.exp(-(cp - 60.0) / 45.0))
    loss = 1.0 / (1.0 + math.exp((cp + 60.0) / 45.0))
    return [win, max(1.0 - win - loss, 0.0), loss]


def log_loss(model, counts):
    total = 0.0
    for (cp, result), n in counts.items():
        total -= n * math.log(max(model(cp)[result], 1e-6))
    return total


def nelder_mead(f, start, steps, iterations=400):
    simplex = [start[:]]
    for i, step in enumerate(steps):
        point = start[:]
        point[i] += step
        simplex.append(point)
    values = [f(p) for p in simplex]
    for _ in range(iterations):
        order = sorted(range(len(simplex)), key=lambda i: values[i])
        simplex = [simplex[i] for i in order]
        values = [values[i] for i in order]
        centroid = [sum(p[i] for p in simplex[:-1]) / (len(simplex) - 1) for i in range(len(start))]
        worst = simplex[-1]
        reflected = [c + (c - w) for c, w in zip(centroid, worst)]
        fr = f(reflected)
        if fr < values[0]:
            expanded = [c + 2 * (c - w) for c, w in zip(centroid, worst)]
            fe = f(expanded)
            simplex[-1], values[-1] = (expanded, fe) if fe < fr else (reflected, fr)
        elif fr < values[-2]:
            simplex[-1], values[-1] = reflected, fr
        else:
            contracted = [c + 0.5 * (w - c) for c, w in zip(centroid, worst)]
            fc = f(contracted)
            if fc < values[-1]:
                simplex[-1], values[-1] = contracted, fc
            else:
                best = simplex[0]
                simplex = [best] + [[b + 0.5 * (p - b) for b, p in zip(best, q)] for q in simplex[1:]]
                values = [values[0]] + [f(p) for p in simplex[1:]]
    return simplex[min(range(len(simplex)), key=lambda i: values[i])]


def fit_counts(counts):
    """(loss_below, win_above, scale) maximising the likelihood of counts {(cp, result): n}."""

    def unpack(v):
        return [v[0], v[0] + math.exp(max(min(v[1], 8.0), -8.0)), math.exp(max(min(v[2], 8.0), 0.0))]

    def objective(v):
        return log_loss(lambda cp: probabilities(unpack(v), cp), counts)

    best = nelder_mead(objective, [-60.0, math.log(120.0), math.log(60.0)], [50.0, 1.0, 0.5], 250)
    best = nelder_mead(objective, best, [10.0, 0.3, 0.1], 150)
    return [round(v, 1) for v in unpack(best)]


def aggregate(rows, key):
    groups = {}
    for game, cell, cp, result in rows:
        group = groups.setdefault(key(cell), {"games": set(), "counts": {}})
        group["games"].add(game)
        point = (max(-CLAMP, min(CLAMP, round(cp / BIN) * BIN)), result)
        group["counts"][point] = group["counts"].get(point, 0) + 1
    return groups


def enough(group):
    return (group is not None and len(group["games"]) >= MIN_GAMES
            and sum(group["counts"].values()) >= MIN_POSITIONS)


def fit_cells(rows):
    levels = [
        aggregate(rows, lambda c: c),
        aggregate(rows, lambda c: c[:3]),
        aggregate(rows, lambda c: c[:2]),
    ]
    fits, sources, cache = {}, {}, {}
    for rep in range(2):
        for side in range(2):
            for hand in range(4):
                for cap in range(4):
                    cell = (rep, side, hand, cap)
                    for depth, key in enumerate([cell, cell[:3], cell[:2]]):
                        group = levels[depth].get(key)
                        if enough(group) or depth == 2:
                            if key not in cache:
                                counts = group["counts"] if group else {(0, 1): 1}
                                cache[key] = fit_counts(counts)
                            fits[cell] = cache[key]
                            sources[cell] = ["own", "pooled over captures", "pooled over phase"][depth]
                            break
    return fits, sources


def check(rows, fits):
    lines = ["| rule | score (cp) | positions | predicted W/D/L % | observed W/D/L % | hand-set W/D/L % |",
             "|---|---|---:|---|---|---|"]
    for rep, name in enumerate(["forbid", "draw"]):
        held = [r for r in rows if r[1][0] == rep]
        edges = [-10**9] + BUCKETS + [10**9]
        for low, high in zip(edges, edges[1:]):
            part = [r for r in held if low <= r[2] < high]
            if not part:
                continue
            predicted = [0.0] * 3
            old = [0.0] * 3
            observed = [0] * 3
            for _, cell, cp, result in part:
                for i, p in enumerate(probabilities(fits[cell], cp)):
                    predicted[i] += p
                for i, p in enumerate(handset(cp)):
                    old[i] += p
                observed[result] += 1
            n = len(part)
            label = (f"< {high}" if low == -10**9 else f">= {low}" if high == 10**9
                     else f"{low} .. {high - 1}")
            fmt = lambda v: " / ".join(f"{100 * x / n:.0f}" for x in v)
            lines.append(f"| {name} | {label} | {n} | {fmt(predicted)} | {fmt(observed)} | {fmt(old)} |")
    if not rows:
        return "\n".join(lines)
    fitted = sum(-math.log(max(probabilities(fits[c], cp)[res], 1e-6)) for _, c, cp, res in rows)
    former = sum(-math.log(max(handset(cp)[res], 1e-6)) for _, c, cp, res in rows)
    lines.append("")
    lines.append(f"Mean log loss on held-back positions: fitted {fitted / len(rows):.3f}, "
                 f"hand-set {former / len(rows):.3f} (nats per position, {len(rows)} positions, "
                 f"{len({r[0] + 10**6 * r[1][0] for r in rows})} games).")
    return "\n".join(lines)


def write(path, fits, sources, command, summary):
    out = ["//! Fitted win/draw/loss model constants.", "//!",
           f"//! Written by `tools/wdl_fit.py`, run by `{command}`",
           f"//! ({summary}; docs/wdl.md). Do not edit.", "",
           "use super::wdl::{Logit, CAPTURE_BUCKETS, HAND_BUCKETS};", "",
           "const fn l(loss_below: f64, win_above: f64, scale: f64) -> Logit {",
           "    Logit {", "        loss_below,", "        win_above,", "        scale,", "    }", "}", "",
           "/// `[repetition forbid, draw][goats, tigers to move][hand bucket][captures bucket]`",
           "/// (hand: 0, 1..=7, 8..=14, 15..=20 goats; captures still needed: 5+, 4, 3, 2 or fewer).",
           "#[rustfmt::skip]",
           "pub const FIT: [[[[Logit; CAPTURE_BUCKETS]; HAND_BUCKETS]; 2]; 2] = ["]
    for rep in range(2):
        out.append(f"    // Repetition {['forbid', 'draw'][rep]}")
        out.append("    [")
        for side in range(2):
            out.append(f"        // {['goats', 'tigers'][side]} to move")
            out.append("        [")
            for hand in range(4):
                cells = []
                for cap in range(4):
                    a, b, c = fits[(rep, side, hand, cap)]
                    cells.append(f"l({a:.1f}, {b:.1f}, {c:.1f})")
                kinds = sorted({sources[(rep, side, hand, cap)] for cap in range(4)})
                out.append(f"            [{', '.join(cells)}], // {', '.join(kinds)}")
            out.append("        ],")
        out.append("    ],")
    out.append("];")
    with open(path, "w") as source:
        source.write("\n".join(out) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("csv", nargs="+")
    parser.add_argument("--command", default="tools/wdl.sh")
    parser.add_argument("--write")
    args = parser.parse_args()
    rows = read(args.csv)
    train = [r for r in rows if r[0] % 5 != 4]
    held = [r for r in rows if r[0] % 5 == 4]
    fits, sources = fit_cells(train)
    summary = f"{len(train)} positions fitted, {len(held)} held back"
    print(summary)
    print()
    print(check(held, fits))
    if args.write:
        write(args.write, fits, sources, args.command, summary)
        print(f"\nwrote {args.write}")


if __name__ == "__main__":
    main()
