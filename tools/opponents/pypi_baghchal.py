"""The pure-Python `baghchal` package from PyPI (1.0.1) as an opponent: the one owner of the
translation between our notation and the package's, and of how its minimax is asked for a move.

Used by tools/opponents/pypi_baghchal_engine.py (the package behind our engine protocol, for the
referee) and tools/holdout/other_program.py (games for the held-out test sets).

The package's notation: points are `<row><column>`, row 1-5 from the top, column 1-5 from the
left (our `c3` is its `33`, our `a5` its `11`); moves are `G33` (placement), `G3344` (goat step),
`B3344` (tiger step), `Bx3355` (tiger jump); its `pure_move` takes them without the letters.
Its rules differ from ours in places: it has no forced capture, the tigers always need 5
captures, a board seen three times in the movement phase is a draw, and a repeated state is never
forbidden. Its `possible_moves` are Python sets of strings, so their order, hence its choice
among equal moves, depends on the string hash: pin PYTHONHASHSEED (`repin_hash_seed`).

Importing `baghchal.env` changes the working directory to the package's folder (it loads its
images from there): `load` does that import; make paths absolute before calling it.
"""

from __future__ import annotations

import os
import sys
from collections import Counter
from copy import deepcopy
from typing import Any, Callable, Iterable, Optional

TIGERS_TO_WIN = 5  # the package's fixed winning count of captures
INF = 1e6  # the package's score of a won position (`baghchal.engine.INF`)


def repin_hash_seed() -> None:
    """Re-run under PYTHONHASHSEED=0 so that the package's set order, hence its moves, repeat."""
    if os.environ.get("PYTHONHASHSEED") != "0":
        os.environ["PYTHONHASHSEED"] = "0"
        os.execv(sys.executable, [sys.executable, *sys.argv])


def load() -> tuple[Any, Any]:
    """Imports the package: returns (its Engine class, its `baghchal.env` module)."""
    from baghchal import env  # changes the working directory (see the module's doc)
    from baghchal.engine import Engine

    return Engine, env


def their_square(square: str) -> str:
    """Our square (`c3`: file a-e, rank 1-5 from the bottom) as theirs (`33`: row from the top, column)."""
    column = ord(square[0]) - ord("a") + 1
    row = 6 - int(square[1])
    return f"{row}{column}"


def our_square(theirs: str) -> str:
    row, column = int(theirs[0]), int(theirs[1])
    return f"{chr(ord('a') + column - 1)}{6 - row}"


def their_move(move: Any) -> str:
    """Our move (a `baghchal_engine.Move`) as the package's `pure_move` text (`33`, `3344`)."""
    source = move.from_square
    target = their_square(move.to_square)
    return target if source is None else their_square(source) + target


def our_move_text(theirs: str) -> str:
    """The package's move (`G33`, `G3344`, `B3344`, `Bx3355`) as our move text."""
    digits = theirs.lstrip("GBx")
    if len(digits) == 2:
        return our_square(digits)
    return our_square(digits[:2]) + our_square(digits[2:])


def their_board_text(position: str) -> str:
    """The board field of our position string as the package writes it (`board_to_fen`): the
    same rows (top first) and runs of empty points, with `B` (bagh) for our `T`."""
    return position.split()[0].replace("T", "B")


def their_board(env: Any, position: str, earlier: Iterable[str] = ()) -> Any:
    """The package's Board for our position string, set up directly (its own position loader
    turns goats into tigers). `earlier` are the positions of the game before this one: the
    movement-phase ones fill the package's threefold-repetition count, as if it had seen the game."""
    fields = position.split()
    board = env.Board()
    board.board = [[0] * 5 for _ in range(5)]
    board.bagh_points, board.goat_points = set(), set()
    for row, text in enumerate(fields[0].split("/"), start=1):
        column = 1
        for char in text:
            if char.isdigit():
                column += int(char)
                continue
            (env.Bagh if char == "T" else env.Goat)(board, (row, column))
            column += 1
    in_hand, captured = int(fields[2]), int(fields[3])
    board.goats_placed = 20 - in_hand
    # The package places while it has made fewer than 20 goat moves, then moves: 20 means "moving".
    board.no_of_goat_moves = 20 - in_hand
    board.goats_captured = captured
    board.next_turn = "G" if fields[1] == "g" else "B"
    board.fen = board.board_to_fen()
    board.fen_history = [board.fen]
    # It counts a board after every move made with no goat in hand. The zero entry keeps the
    # count non-empty (its draw check takes the max of the counts).
    board.fen_count = Counter({"": 0})
    for seen in [*earlier, position]:
        if int(seen.split()[2]) == 0:
            board.fen_count[their_board_text(seen)] += 1
    return board


def root_order(board: Any) -> list[str]:
    """The package's moves in the order its minimax tries them at the root: goats in set order,
    tigers sorted jumps first (a stable sort of the set's order)."""
    moves = list(board.possible_moves() or [])
    if board.next_turn == "B":
        moves.sort(key=lambda text: 5 - len(text))
    return moves


def minimax_choice(
    engine: Any, board: Any, allowed: Optional[set[str]] = None
) -> tuple[Optional[str], float]:
    """The move the package's minimax (at `engine.depth`) chooses, among `allowed` of its moves
    only (all when None), and its score (goats' view). This is the package's own root loop
    (`Engine.minimax` with maxPlayer for goats), restricted: with every move allowed it returns
    what `engine.get_best_move` does. None when no allowed move scores better than a loss (the
    package itself then returns 0, "no move")."""
    goats = board.next_turn == "G"
    best: Optional[str] = None
    best_score = -INF if goats else INF
    alpha, beta = -INF, INF
    for move in root_order(board):
        if allowed is not None and move not in allowed:
            continue
        child = deepcopy(board)
        child.move(move)
        score = engine.minimax(child, engine.depth - 1, alpha, beta, not goats)[1]
        if goats and score > best_score or not goats and score < best_score:
            best, best_score = move, score
        if goats:
            alpha = max(alpha, score)
        else:
            beta = min(beta, score)
        if beta <= alpha:
            break
    return best, best_score


class Aborted(Exception):
    """A search was stopped by its node budget or from outside (`bounded`)."""


def bounded(engine: Any, tick: Callable[[], None]) -> None:
    """Makes every node of `engine`'s minimax call `tick` first, which may raise `Aborted`.
    (Its minimax recurses through `self.minimax`, so an instance attribute catches every node.)"""
    inner = type(engine).minimax.__get__(engine)

    def counted(*args: Any, **kwargs: Any) -> Any:
        tick()
        return inner(*args, **kwargs)

    engine.minimax = counted
