"""The in-process engine: legal moves, determinism at a fixed node count and seed, analysis,
and the engine's own messages for bad options and limits."""

from __future__ import annotations

import re

import pytest

import baghchal_engine as bc


def test_plays_legal_moves_through_a_game() -> None:
    engine = bc.Engine({"Seed": 1, "Hash": 4})
    board = bc.Board()
    while not board.is_game_over() and board.ply < 30:
        move = engine.play(board, nodes=500)
        assert board.is_legal(move)
        board.push(move)


def test_same_seed_and_nodes_same_analysis() -> None:
    def analyse(seed: int, level: int) -> list:
        engine = bc.Engine({"Seed": seed, "Skill Level": level, "Hash": 4})
        board = bc.Board()
        out = []
        for _ in range(12):
            move = engine.play(board, nodes=3000)
            out.append(str(move))
            board.push(move)
        line = engine.analyse(board, nodes=5000)[0]
        out.append((line["score"], [str(m) for m in line["pv"]], line["nodes"], line["depth"]))
        return out

    assert analyse(7, 20) == analyse(7, 20)
    # Weak levels choose among moves at random, from the seed.
    assert analyse(7, 3) == analyse(7, 3)
    games = {tuple(analyse(seed, 0)[:12]) for seed in (1, 2, 3, 4)}
    assert len(games) > 1


def test_analysis_gives_lines_with_scores_and_wdl() -> None:
    engine = bc.Engine({"Seed": 1})
    board = bc.Board()
    board.push_str("c3")
    lines = engine.analyse(board, depth=5, multipv=3)
    assert [line["multipv"] for line in lines] == [1, 2, 3]
    firsts = {str(line["pv"][0]) for line in lines}
    assert len(firsts) == 3 and all(board.is_legal(bc.Move(m)) for m in firsts)
    for line in lines:
        assert line["depth"] >= 1 and line["nodes"] > 0 and line["time"] >= 0
        assert re.fullmatch(r"(cp|mate) -?\d+", line["score"])
        assert sum(line["wdl"]) == 1000
        assert (line["cp"] is None) != (line["mate"] is None)
    # Lines are best first.
    cps = [line["cp"] for line in lines if line["cp"] is not None]
    assert cps == sorted(cps, reverse=True)
    # A single line is the engine's best move at the same depth.
    assert str(engine.analyse(board, depth=5)[0]["pv"][0]) == str(engine.play(board, depth=5))


def test_a_won_position_is_a_mate_score() -> None:
    # Tigers to move capture the last goat they need: a win in one move.
    board = bc.Board("T3T/5/5/3G1/T3T t 19 0", bc.Rules(captures_to_win=1))
    line = bc.Engine().analyse(board, depth=3)[0]
    assert line["mate"] == 1 and str(line["pv"][0]) == "e1c3"
    assert line["wdl"][0] == 1000


@pytest.mark.parametrize(
    "options, message",
    [
        ({"Hash": 0}, 'bad value "0" for option Hash: expected an integer in 1..4096'),
        ({"Skill Level": 21}, 'bad value "21" for option Skill Level: expected an integer in 0..20'),
        ({"UCI_Elo": 5}, "for option UCI_Elo: expected an integer in"),
        ({"Strategy": "best"}, 'bad value "best" for option Strategy: expected search or random or greedy'),
        ({"Ponder": "maybe"}, 'bad value "maybe" for option Ponder: expected true or false'),
        ({"Hashes": 1}, 'unknown option "Hashes"'),
        ({"TablebasePath": "/nonexistent/tables"}, 'cannot use tablebases in "/nonexistent/tables"'),
    ],
)
def test_bad_options_raise_the_engine_message(options: dict, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        bc.Engine(options)


@pytest.mark.parametrize(
    "limits, message",
    [
        ({"depth": 0}, 'depth "0" out of range 1..100'),
        ({"depth": 101}, 'depth "101" out of range 1..100'),
        ({"nodes": 0}, 'nodes "0" out of range'),
        ({"mate": 51}, 'mate "51" out of range 1..50'),
        ({"time": -1.0}, 'movetime "-1000" out of range 0..'),
        ({"time": float("nan")}, "invalid time NaN: expected seconds"),
    ],
)
def test_bad_limits_raise_the_engine_message(limits: dict, message: str) -> None:
    engine = bc.Engine()
    with pytest.raises(ValueError, match=re.escape(message)):
        engine.play(bc.Board(), **limits)
    with pytest.raises(ValueError, match=re.escape(message)):
        engine.analyse(bc.Board(), **limits)


def test_bad_multipv_and_finished_games() -> None:
    engine = bc.Engine()
    with pytest.raises(ValueError, match=re.escape('bad value "0" for option MultiPV')):
        engine.analyse(bc.Board(), depth=2, multipv=0)
    board = bc.Board("T3T/5/5/3G1/T3T t 19 0", bc.Rules(captures_to_win=1))
    board.push_str("e1c3")
    with pytest.raises(ValueError, match="the game is over: tigers win by captures"):
        engine.play(board, depth=2)


def test_engine_with_tables_keeps_won_positions_won(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import random

    from conftest import random_game

    rules = bc.Rules(captures_to_win=1)
    bc.generate_tablebase(tmp_path, rules)
    engine = bc.Engine({"TablebasePath": str(tmp_path), "CapturesToWin": 1, "Seed": 1})
    assert engine.tablebase_status().startswith("tablebases loaded")
    tables = bc.Tablebase(tmp_path)
    rng = random.Random(3)
    checked = 0
    while checked < 10:
        for board in random_game(rules, rng):
            value = tables.probe(board)
            if board.goats_in_hand == 0 and value is not None and value.wdl == "win" and not board.is_game_over():
                move = engine.play(board, depth=6)
                assert move in tables.best_moves(board), board.position()
                checked += 1
                break
