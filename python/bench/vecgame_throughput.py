"""Throughput of VecGame (environment steps a second, one core) and, when installed, of the
pure-Python `baghchal` package from PyPI on the same work: random legal games from the start.

    python python/bench/vecgame_throughput.py [--games 1024] [--seconds 3]

Prints one line per measurement: steps/s and games finished. Run it on a quiet machine for
figures to quote; the ratios between lines are what to compare.
"""

from __future__ import annotations

import argparse
import os
import random
import time

# One core: numpy's BLAS threads would otherwise spin beside the measured loop.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402

import baghchal_engine as bc  # noqa: E402


def timed(label: str, run, seconds: float) -> float:
    """Calls `run()` (which returns the steps it made) until `seconds` have passed."""
    steps = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        steps += run()
    rate = steps / (time.perf_counter() - start)
    # Steps per second of this process's CPU time: the one-core figure, less disturbed by
    # other processes on a loaded machine than the wall-clock one.
    cpu_rate = steps / max(time.process_time() - cpu_start, 1e-9)
    print(f"{label:<58} {rate:>12,.0f} steps/s wall {cpu_rate:>12,.0f} steps/s CPU")
    return cpu_rate


def masked_choice(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per row, chosen in numpy from the masks."""
    scores = rng.random(masks.shape, dtype=np.float32) * masks
    return scores.argmax(axis=1).astype(np.int64)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1024)
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    n = args.games

    game = bc.VecGame(n, seed=1)
    game.reset()

    def rust_only() -> int:
        game.step_random(1)
        return n

    timed(f"VecGame({n}).step_random (Rust only, no observations)", rust_only, args.seconds)

    game = bc.VecGame(n, seed=1)
    game.reset()

    def sampled() -> int:
        game.step(game.sample_actions())
        return n

    rust = timed(f"VecGame({n}).step(sample_actions()) (+ obs, masks)", sampled, args.seconds)

    game = bc.VecGame(n, seed=1)
    _, masks = game.reset()
    rng = np.random.default_rng(1)
    state = {"masks": masks}

    def numpy_chosen() -> int:
        _, state["masks"], _, _ = game.step(masked_choice(state["masks"], rng))
        return n

    timed(f"VecGame({n}).step(actions chosen in numpy from the masks)", numpy_chosen, args.seconds)

    try:
        from baghchal.env import Board as PypiBoard  # the PyPI package `baghchal`
    except ImportError:
        print("pure-Python `baghchal` package not installed: no comparison")
        return
    python_rate = timed("pure-Python `baghchal` (PyPI), random legal moves", lambda: pypi_random_game(PypiBoard), args.seconds)
    print(f"ratio VecGame step / pure Python: {rust / python_rate:,.0f}x")


def pypi_random_game(board_class) -> int:  # type: ignore[no-untyped-def]
    """One random legal game with the PyPI package (its own rules: draw on a threefold
    repetition, cut at 400 moves like VecGame's max_plies); returns its moves."""
    board = board_class()
    steps = 0
    while not board.is_game_over() and steps < 400:
        board.move(random.choice(sorted(board.possible_moves())))
        steps += 1
    return max(steps, 1)


if __name__ == "__main__":
    main()
