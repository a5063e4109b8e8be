"""Perft through Python equals `baghchal perft` under every rule variant, from the start and
from movement-phase positions reached with a history (so the repetition rules matter)."""

from __future__ import annotations

import random

import pytest

import baghchal_engine as bc
from conftest import RULE_VARIANTS, random_game, run_cli


def cli_perft(engine_bin: str, board: bc.Board, depth: int) -> int:
    rules = board.rules
    args = ["perft", str(depth), "--position", board.start_position, "--captures-to-win", str(rules.captures_to_win), "--repetition", rules.repetition]
    if rules.forced_capture:
        args.append("--forced-capture")
    moves = [str(m) for m in board.move_stack]
    if moves:
        args += ["--moves", *moves]
    out = run_cli(engine_bin, *args)
    totals = [line for line in out.splitlines() if line.startswith("Nodes searched:")]
    return int(totals[0].split(":")[1])


@pytest.mark.parametrize("rules", RULE_VARIANTS, ids=str)
def test_perft_equals_the_cli(engine_bin: str, rules: bc.Rules) -> None:
    rng = random.Random(str(rules))
    boards = [bc.Board(rules=rules)]
    # Three positions from random games, from the movement phase when a game reaches it (with
    # one capture to win, most end before).
    for _ in range(3):
        candidates = []
        for _ in range(20):
            game = [b for b in random_game(rules, rng, max_plies=120) if not b.is_game_over()]
            candidates = [b for b in game if b.goats_in_hand == 0] or candidates or game[-3:]
            if candidates and candidates[0].goats_in_hand == 0:
                break
        boards.append(rng.choice(candidates))
    for board in boards:
        depth = 4 if board.goats_in_hand else 5
        assert board.perft(depth) == cli_perft(engine_bin, board, depth), board.position()
    # A different start position, given as a string.
    board = bc.Board("T3T/5/2G2/5/T3T t 19 0", rules)
    assert board.perft(4) == cli_perft(engine_bin, board, 4)
