"""The PyPI `baghchal` package's minimax as an opponent (tools/opponents/): the shared
translation against the package's own board, and the protocol adapter against the referee."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, Iterator, List, Tuple

import pytest

import baghchal_engine as bc
from conftest import ROOT

OPPONENTS = ROOT / "tools" / "opponents"
ADAPTER = OPPONENTS / "pypi_baghchal_engine.py"
sys.path.insert(0, str(OPPONENTS))
import pypi_baghchal as pypi  # noqa: E402


@pytest.fixture(scope="module")
def package() -> Tuple[Any, Any]:
    """The package's (Engine class, env module); its import changes the working directory,
    which is put back at once."""
    here = os.getcwd()
    try:
        return pypi.load()
    finally:
        os.chdir(here)


def random_games(rules: bc.Rules, seed: int, games: int, max_plies: int) -> Iterator[Tuple[bc.Board, List[str]]]:
    """Random games; yields each position (a copy) with the moves that led there."""
    rng = random.Random(seed)
    for _ in range(games):
        board = bc.Board(rules=rules)
        moves: List[str] = []
        while not board.is_game_over() and len(moves) < max_plies:
            yield board.copy(), list(moves)
            move = rng.choice(board.legal_moves)
            board.push(move)
            moves.append(str(move))


def test_the_translation_agrees_with_the_package_board(package: Tuple[Any, Any]) -> None:
    """Along random games (no repetition possible before its threefold count, no forced
    capture), the package replaying our moves and `their_board` set up from our position agree
    on the board, and the package's moves, translated, are exactly our legal moves: two
    independent move generators and the notation between them."""
    _, env = package
    rng = random.Random(5)
    checked = 0
    for _ in range(40):
        board, replayed = bc.Board(rules=bc.Rules(repetition="draw")), env.Board()
        while not board.is_game_over() and not replayed.is_game_over() and board.ply < 60:
            direct = pypi.their_board(env, board.position())
            for theirs in (replayed, direct):
                assert theirs.board_to_fen().split()[0] == pypi.their_board_text(board.position())
                assert theirs.next_turn == ("G" if board.turn == bc.Side.GOATS else "B")
                translated = sorted(pypi.our_move_text(t) for t in theirs.possible_moves())
                assert translated == sorted(str(m) for m in board.legal_moves), board.position()
            assert direct.goats_captured == replayed.goats_captured == board.captured
            checked += 1
            move = rng.choice(board.legal_moves)
            board.push(move)
            replayed.pure_move(pypi.their_move(move))
    assert checked > 1000


def test_the_root_loop_is_the_package_minimax(package: Tuple[Any, Any]) -> None:
    """With every move allowed, `minimax_choice` returns what the package's own
    `get_best_move` does (move and score), for both sides; restricted, it picks among the
    allowed moves only."""
    engine_cls, env = package
    engine = engine_cls(depth=2)
    compared = 0
    for index, (board, _) in enumerate(random_games(bc.Rules(repetition="draw"), seed=9, games=8, max_plies=60)):
        if index % 4:
            continue  # a sample: the package's search is slow
        theirs = pypi.their_board(env, board.position())
        if theirs.is_game_over():
            continue
        expected = engine.get_best_move(theirs)
        assert pypi.minimax_choice(engine, theirs) == (expected[0] or None, expected[1])
        moves = pypi.root_order(theirs)
        if expected[0] and len(moves) > 1:
            allowed = {m for m in moves if m != expected[0]}
            move, _ = pypi.minimax_choice(engine, theirs, allowed)
            assert move is None or move in allowed
        compared += 1
    assert compared > 80


def adapter(*lines: str, refused: Tuple[str, ...] = ()) -> List[str]:
    """Runs the adapter on these input lines, then end of input (which stops a search, as
    `quit` does); after each `go` it waits for the `bestmove`, or for the error line when the
    `go` is one of `refused` (a bad `go` gets no `bestmove`). Returns the adapter's stdout lines."""
    process = subprocess.Popen(
        [sys.executable, str(ADAPTER)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        bufsize=1,
    )
    assert process.stdin is not None and process.stdout is not None
    out: List[str] = []
    for line in lines:
        process.stdin.write(line + "\n")
        process.stdin.flush()
        if line.startswith("go"):
            while True:
                answer = process.stdout.readline()
                assert answer, f"the adapter exited while {line!r} was due an answer"
                out.append(answer.rstrip("\n"))
                if answer.startswith("info string error: " if line in refused else "bestmove "):
                    break
    process.stdin.close()
    out += [line.rstrip("\n") for line in process.stdout]
    assert process.wait(timeout=60) == 0
    return out


def test_the_adapter_answers_bad_input_and_plays_on() -> None:
    out = adapter(
        "uci",
        "bogus command",
        "setoption name Depth value 99",
        "setoption name NoSuchOption value 1",
        "setoption name Repetition value sometimes",
        "position startpos moves c3 c3",
        "go depth 2",
        "position nonsense",
        "position fen T3T/5/5/5/T3T x 20 0",
        "setoption name Depth value 1",
        "position startpos moves c3",
        "go depth x",
        "go depth 2 matein 3",
        "isready",
        "go depth 2",
        "isready",
        refused=("go depth x", "go depth 2 matein 3"),
    )
    errors = [line for line in out if line.startswith("info string error: ")]
    assert any('unknown command "bogus"' in e for e in errors)
    assert any('bad value "99" for option Depth' in e for e in errors)
    assert any('unknown option "NoSuchOption"' in e for e in errors)
    assert any('bad value "sometimes" for option Repetition' in e for e in errors)
    assert any("moves index 1" in e for e in errors)  # the second c3: the point is taken
    assert any("no position to search" in e for e in errors)
    assert any("bad position command" in e for e in errors)
    assert any("bad side to move" in e for e in errors)
    assert any('bad depth "x"' in e for e in errors)
    assert any('unexpected token "matein"' in e for e in errors)
    assert len(errors) == 10, errors
    bestmoves = [line.split()[1] for line in out if line.startswith("bestmove ")]
    assert bestmoves[0] == "0000"  # the go without a good position
    board = bc.Board()
    board.push_str("c3")
    assert len(bestmoves) == 2 and board.is_legal(board.parse_move(bestmoves[1]))
    depths = [int(line.split()[2]) for line in out if line.startswith("info depth ")]
    assert depths == [1, 2]  # go depth 2: the package's search deepened to 2, whatever the option
    assert out.count("readyok") == 2  # answered at once, also during the search


def forbidden_repeat() -> Tuple[List[str], List[str]]:
    """A game (its moves) whose position has moves that recreate an earlier state: legal under
    `Repetition draw`, forbidden under `forbid`; and those moves. Found along seeded random games."""
    forbid, draw = bc.Rules(repetition="forbid"), bc.Rules(repetition="draw")
    for board, moves in random_games(forbid, seed=11, games=50, max_plies=200):
        loose = bc.Board(rules=draw)
        for text in moves:
            loose.push_str(text)
        repeats = sorted({str(m) for m in loose.legal_moves} - {str(m) for m in board.legal_moves})
        if repeats and board.legal_moves:
            return moves, repeats
    raise AssertionError("no repetition found in the random games")


def test_the_adapter_leaves_out_what_forbid_forbids() -> None:
    """Where the package (which knows no forbid rule) could repeat a state, under `Repetition
    forbid` the adapter names the moves it leaves out and plays a legal one; under `draw` it
    leaves nothing out."""
    moves, repeats = forbidden_repeat()
    position = "position startpos moves " + " ".join(moves)
    for repetition in ("forbid", "draw"):
        board = bc.Board(rules=bc.Rules(repetition=repetition))
        for text in moves:
            board.push_str(text)
        out = adapter("uci", f"setoption name Repetition value {repetition}", position, "go depth 2")
        notes = [line for line in out if "left out" in line]
        if repetition == "forbid":
            assert len(notes) == 1 and all(f"{r}: " in notes[0] for r in repeats), out
        else:
            assert not notes, out
        bestmove = [line.split()[1] for line in out if line.startswith("bestmove ")]
        assert len(bestmove) == 1 and board.is_legal(board.parse_move(bestmove[0])), out


@pytest.mark.parametrize("repetition", ["forbid", "draw"])
def test_a_referee_match_against_the_adapter(tmp_path: Path, engine_bin: str, referee_bin: str, repetition: str) -> None:
    """Our engine (low node count) against the adapter through the referee: no fault by
    either side, every game ends by the rules or the ply limit, and the recorded result is the
    one our rules give for the recorded moves."""
    records, openings = tmp_path / "games.jsonl", tmp_path / "openings.txt"
    openings.write_text("moves c3 a1b2\n")
    done = subprocess.run(
        [
            referee_bin,
            "-engine", f"cmd={engine_bin}", "name=ours", "nodes=300",
            "-engine", f"cmd={sys.executable}", f"arg={ADAPTER}", "name=pypi", "depth=2",
            "-games", "2", "-rounds", "1", "-maxplies", "160", "-repetition", repetition,
            "-openings", f"file={openings}", "-seed", "3", "-jsonout", f"file={records}",
        ],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    games = [json.loads(line) for line in records.read_text().splitlines()]
    assert len(games) == 2
    assert {games[0]["goat"], games[1]["goat"]} == {"ours", "pypi"}
    for game in games:
        assert game["termination"] in ("normal", "adjudication"), game
        board = bc.Board(rules=bc.Rules(repetition=repetition))
        for text in game["moves"]:
            board.push_str(text)  # raises on a move our rules call illegal
        outcome = board.outcome()
        if game["termination"] == "normal":
            assert outcome is not None and outcome.result() == game["result"], game
        else:
            assert outcome is None and len(game["moves"]) == 160 and game["result"] == "1/2-1/2"


def test_the_adapter_passes_referee_check(referee_bin: str) -> None:
    """Every check of `referee check` (protocol.md's rules, the rule variants, bad input; the
    time checks with a margin of a second, the machine may be loaded)."""
    done = subprocess.run(
        [referee_bin, "check", "--engine", f"cmd={sys.executable}", f"arg={ADAPTER}", "timemargin=1000"],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:]
    summary = re.search(r"^summary: (\d+) passed, 0 failed of (\d+) checks", done.stdout, re.M)
    assert summary and summary[1] == summary[2] and int(summary[1]) >= 29, done.stdout[-3000:]
