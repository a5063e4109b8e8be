"""The board API: moves, history, outcome, symmetries, and every ValueError path."""

from __future__ import annotations

import copy
import re
import random

import pytest

import baghchal_engine as bc
from conftest import RULE_VARIANTS, random_game


def test_start_position_and_first_moves() -> None:
    board = bc.Board()
    assert board.position() == bc.START_POSITION
    assert board.turn == bc.Side.GOATS
    assert board.goats_in_hand == 20 and board.captured == 0 and board.ply == 0
    # 21 empty points, each a placement.
    assert len(board.legal_moves) == 21
    assert all(m.kind == "place" for m in board.legal_moves)
    board.push_str("c3")
    assert board.turn == bc.Side.TIGERS
    assert board.position() == "T3T/5/2G2/5/T3T t 19 0"
    assert board.piece_at("c3") == bc.Side.GOATS and board.piece_at("a1") == bc.Side.TIGERS
    assert board.piece_at("b2") is None
    assert str(board.pop()) == "c3"
    assert board.position() == bc.START_POSITION


def test_moves_know_their_parts() -> None:
    jump = bc.Move("E1C3")
    assert str(jump) == "e1c3" and jump.kind == "jump" and jump.is_capture()
    assert (jump.from_square, jump.captured_square, jump.to_square) == ("e1", "d2", "c3")
    step = bc.Move("a1b1")
    assert step.kind == "step" and step.captured_square is None
    place = bc.Move("c3")
    assert place.kind == "place" and place.from_square is None
    assert bc.Move("c3") == place and len({bc.Move("c3"), place}) == 1


def test_a_capture_and_the_outcome() -> None:
    board = bc.Board("T3T/5/5/3G1/T3T t 19 0", bc.Rules(captures_to_win=1))
    assert not board.is_game_over() and board.outcome() is None
    move = board.push_str("e1c3")
    assert move.is_capture() and board.captured == 1
    outcome = board.outcome()
    assert outcome is not None and board.is_game_over()
    assert outcome.winner == bc.Side.TIGERS and outcome.termination == "captures"
    assert outcome.result() == "0-1"


def test_repetition_under_both_rules() -> None:
    # Movement phase, goats to move; the goat a2 and the tiger a5 shuffle back and forth, so
    # the fifth position repeats the first.
    start = "T3T/5/5/GGGGG/TGGGT g 0 12"
    shuffle = ["a2a3", "a5b5", "a3a2", "b5a5"]
    draw = bc.Board(start, bc.Rules(captures_to_win=20, repetition="draw"))
    for text in shuffle:
        assert not draw.is_repetition()
        draw.push_str(text)
    assert draw.is_repetition()
    outcome = draw.outcome()
    assert outcome is not None and outcome.winner is None and outcome.termination == "repetition"
    assert draw.legal_moves == []
    forbid = bc.Board(start, bc.Rules(captures_to_win=20, repetition="forbid"))
    for text in shuffle[:3]:
        forbid.push_str(text)
    assert bc.Move("b5a5") not in forbid.legal_moves
    with pytest.raises(ValueError, match="repetition rule forbids"):
        forbid.push_str("b5a5")


def test_copy_is_independent() -> None:
    board = bc.Board()
    board.push_str("c3")
    other = board.copy()
    other.push_str("a1b1")
    assert board.ply == 1 and other.ply == 2
    assert copy.deepcopy(board).position() == board.position()


def test_symmetries_map_games_onto_games() -> None:
    rng = random.Random(5)
    for rules in RULE_VARIANTS[:4]:
        boards = random_game(rules, rng, max_plies=80)
        board = boards[-1]
        assert board.transform(0).position() == board.position()
        for g in range(8):
            image = board.transform(g)
            assert image.ply == board.ply
            assert len(image.legal_moves) == len(board.legal_moves)
            assert image.is_game_over() == board.is_game_over()
            assert image.goats_in_hand == board.goats_in_hand and image.captured == board.captured
            # Every symmetry is undone by applying its inverse (each is its own inverse except
            # the two quarter turns, 5 and 6).
            inverse = {5: 6, 6: 5}.get(g, g)
            assert image.transform(inverse).position() == board.position()


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: bc.Board("T3T/5/5/5/T3T x 20 0"), 'bad side to move "x": expected g or t'),
        (lambda: bc.Board("T3T/5/5/5 g 20 0"), "4 ranks: expected 5"),
        (lambda: bc.Board("T4T/5/5/5/T3T g 20 0"), "has 6 points"),
        (lambda: bc.Board("T3T/5/5/5/T3T g 21 0"), 'bad goats in hand "21"'),
        (lambda: bc.Board("T3T/5/5/5/T2TT g 20 0"), "5 tigers on the board: expected 4"),
        (lambda: bc.Board("T3T/5/5/5/T3T g 19 0"), "expected 20"),
        (lambda: bc.Board("T3T/5/5/5/T3T t 20 0"), "goats move first"),
        (lambda: bc.Board("T3X/5/5/5/T3T g 20 0"), 'bad character "X"'),
        (lambda: bc.Board("nonsense"), "1 fields"),
        (lambda: bc.Move("c9"), 'invalid move "c9"'),
        (lambda: bc.Move("a1b1c1"), "expected a point"),
        (lambda: bc.Move("b1c2"), "not one or two steps apart along a line"),
        (lambda: bc.Move(""), "invalid move"),
        (lambda: bc.Board().push_str("a1b2"), 'illegal move "a1b2"'),
        (lambda: bc.Board().push_str("a1"), 'illegal move "a1"'),
        (lambda: bc.Board().push(bc.Move("c3c4")), 'illegal move "c3c4"'),
        (lambda: bc.Board().parse_move("zz"), 'invalid move "zz"'),
        (lambda: bc.Board().piece_at("f1"), 'invalid'),
        (lambda: bc.Board().transform(8), "invalid symmetry 8"),
        (lambda: bc.Board().transform(-1), "invalid symmetry -1"),
        (lambda: bc.Board().perft(0), 'perft depth "0" out of range 1..10'),
        (lambda: bc.Board().perft(11), 'perft depth "11" out of range 1..10'),
        (lambda: bc.Rules(captures_to_win=0), "invalid captures to win 0: expected 1..20"),
        (lambda: bc.Rules(captures_to_win=21), "invalid captures to win 21: expected 1..20"),
        (lambda: bc.Rules(captures_to_win=-3), "invalid captures to win -3"),
        (lambda: bc.Rules(repetition="maybe"), 'invalid repetition rule "maybe": expected forbid or draw'),
        (lambda: bc.Rules.from_str("CapturesToWin=50"), "invalid captures to win 50"),
        (lambda: bc.Rules.from_str("Foo=1"), 'unknown rule "Foo"'),
        (lambda: bc.Move.from_action(425), "invalid action 425"),
        (lambda: bc.Move.from_action(-1), "invalid action -1"),
        (lambda: bc.Move.from_action(25 + 8 * 0 + 1), "invalid action 26"),
        (lambda: bc.action_permutation(9), "invalid symmetry 9"),
        (lambda: bc.square_permutation(-2), "invalid symmetry -2"),
    ],
)
def test_bad_input_raises_value_error_with_the_engine_reason(call, message) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError, match=re.escape(message)):
        call()


def test_pop_on_a_fresh_board_is_an_index_error() -> None:
    with pytest.raises(IndexError):
        bc.Board().pop()


def test_a_rust_panic_arrives_as_runtime_error() -> None:
    with pytest.raises(RuntimeError, match="a test panic"):
        bc._native._panic_for_test()


def test_rules_text_round_trips() -> None:
    for rules in RULE_VARIANTS:
        assert bc.Rules.from_str(str(rules)) == rules
        assert eval(repr(rules), {"Rules": bc.Rules}) == rules
