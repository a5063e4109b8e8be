"""Games of our engine against a different program, for the held-out test sets (issue 27).

The opponent is the minimax engine of the pure-Python `baghchal` package from PyPI (an
independent program with its own move generator, evaluation and rules: it stops at threefold
repetition, we forbid a repeated state). Our engine plays the other side through the
`baghchal_engine` package, at a node limit so that the same command gives the same games.
Each game starts with a few random plies (seeded), then the engines alternate; colours swap
every game. A game ends when either program sees it over, or when the opponent's move is not
legal under our rules (a repetition we forbid): the positions up to there are kept.

Output: for each game a line `# game <i> <who played goats> <result or reason>`, then the
position string before every move, one a line (our notation), for `holdout_sets --games`.

    python tools/holdout/other_program.py --games 60 --depth 3 --nodes 20000 --seed 27 --out FILE

Needs `pip install baghchal==1.0.1 ./python` (the package changes the working directory when
imported: paths given here are made absolute first). String hashing is pinned (PYTHONHASHSEED=0)
because the opponent iterates over sets of move strings.
"""

from __future__ import annotations

import argparse
import os
import random
import sys


def repin_hash_seed() -> None:
    """Re-run under PYTHONHASHSEED=0 so that the opponent's set order, hence its moves, repeat."""
    if os.environ.get("PYTHONHASHSEED") != "0":
        os.environ["PYTHONHASHSEED"] = "0"
        os.execv(sys.executable, [sys.executable, *sys.argv])


def their_square(square: str) -> str:
    """Our square (`c3`: file a-e, rank 1-5 from the bottom) as theirs (`33`: row 1-5 from the top, column)."""
    column = ord(square[0]) - ord("a") + 1
    row = 6 - int(square[1])
    return f"{row}{column}"


def our_square(theirs: str) -> str:
    row, column = int(theirs[0]), int(theirs[1])
    return f"{chr(ord('a') + column - 1)}{6 - row}"


def their_move(move) -> str:
    """Our move as the opponent's `pure_move` text (`33` placement, `3344` step or jump)."""
    source = move.from_square
    target = their_square(move.to_square)
    return target if source is None else their_square(source) + target


def our_move_text(theirs: str) -> str:
    """The opponent's move (`G33`, `G3344`, `B3344`, `Bx3355`) as our move text."""
    digits = theirs.lstrip("GBx")
    if len(digits) == 2:
        return our_square(digits)
    return our_square(digits[:2]) + our_square(digits[2:])


def play_game(index: int, args, bc, their_engine_cls, their_board_cls) -> list[str]:
    rng = random.Random(args.seed * 1_000_003 + index)
    rules = bc.Rules()  # default rules: the sets are labelled by the default tables
    ours = bc.Board(rules=rules)
    theirs = their_board_cls()
    engine = bc.Engine({"Threads": 1, "Hash": 16})
    opponent = their_engine_cls(depth=args.depth)
    we_play_goats = index % 2 == 0
    lines: list[str] = []
    reason = "max plies"
    for ply in range(args.max_plies):
        if ours.is_game_over():
            reason = ours.outcome().result()
            break
        if theirs.is_game_over():
            reason = f"opponent says over ({theirs.winner() or 'draw'})"
            break
        lines.append(ours.position())
        goats_to_move = ours.turn == bc.Side.GOATS
        if ply < args.random_plies:
            move = rng.choice(ours.legal_moves)
        elif goats_to_move == we_play_goats:
            move = engine.play(ours, nodes=args.nodes)
        else:
            text, _ = opponent.get_best_move(theirs)
            if not isinstance(text, str):
                # Its minimax returns 0 when every move loses: it would play any, take the first.
                text = sorted(theirs.possible_moves())[0]
            try:
                move = ours.parse_move(our_move_text(text))
            except ValueError as error:
                lines.pop()
                reason = f"opponent move {text} not legal here: {error}"
                break
            if not ours.is_legal(move):
                lines.pop()
                reason = f"opponent move {text} not legal here (repetition)"
                break
        ours.push(move)
        theirs.pure_move(their_move(move))
    header = f"# game {index} goats={'ours' if we_play_goats else 'theirs'} {reason}"
    return [header, *lines]


def main() -> None:
    repin_hash_seed()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--depth", type=int, default=3, help="the opponent's minimax depth")
    parser.add_argument("--nodes", type=int, default=20_000, help="our engine's nodes a move")
    parser.add_argument("--random-plies", type=int, default=4)
    parser.add_argument("--max-plies", type=int, default=300)
    parser.add_argument("--seed", type=int, default=27)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    out = os.path.abspath(args.out)
    import baghchal_engine as bc
    from baghchal.engine import Engine as TheirEngine  # noqa: E402 (changes the working directory)
    from baghchal.env import Board as TheirBoard

    with open(out + ".tmp", "w", encoding="utf-8") as file:
        print(f"# generated by: {' '.join(['python', *sys.argv])}", file=file)
        for index in range(args.games):
            lines = play_game(index, args, bc, TheirEngine, TheirBoard)
            print("\n".join(lines), file=file, flush=True)
            print(f"game {index + 1}/{args.games}: {lines[0]}", file=sys.stderr, flush=True)
    os.replace(out + ".tmp", out)


if __name__ == "__main__":
    main()
