"""Shared fixtures: the engine binaries built by cargo (target/release or target/debug at the
repository root, or the directory in $BAGHCHAL_BIN_DIR)."""

from __future__ import annotations

import os
import random
import subprocess
from pathlib import Path
from typing import List

import pytest

import baghchal_engine as bc

ROOT = Path(__file__).resolve().parents[2]


def _binary(name: str) -> str:
    candidates = []
    if os.environ.get("BAGHCHAL_BIN_DIR"):
        candidates.append(Path(os.environ["BAGHCHAL_BIN_DIR"]) / name)
    candidates += [ROOT / "target" / "release" / name, ROOT / "target" / "debug" / name]
    for path in candidates:
        if path.is_file():
            return str(path)
    pytest.fail(f"{name} not found in {[str(c) for c in candidates]}: build it with cargo build (or set BAGHCHAL_BIN_DIR)")


@pytest.fixture(scope="session")
def engine_bin() -> str:
    return _binary("baghchal")


@pytest.fixture(scope="session")
def mock_bin() -> str:
    return _binary("mock-engine")


@pytest.fixture(scope="session")
def referee_bin() -> str:
    return _binary("referee")


def run_cli(binary: str, *args: str) -> str:
    done = subprocess.run([binary, *args], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout


# Every rule variant the tests cover: both capture rules, both repetition rules, and captures
# to win at the low end, the default and the high end.
RULE_VARIANTS = [
    bc.Rules(forced_capture=forced, captures_to_win=ctw, repetition=rep)
    for forced in (False, True)
    for rep in ("forbid", "draw")
    for ctw in (1, 5, 20)
]


def random_game(rules: bc.Rules, rng: random.Random, max_plies: int = 300) -> List[bc.Board]:
    """The boards of one random legal game, the start first."""
    board = bc.Board(rules=rules)
    boards = [board.copy()]
    while not board.is_game_over() and board.ply < max_plies:
        board.push(rng.choice(board.legal_moves))
        boards.append(board.copy())
    return boards
