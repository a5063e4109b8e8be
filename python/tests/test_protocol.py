"""popen_engine against the engine binary and against mock-engine's faults."""

from __future__ import annotations

import random

import pytest

import baghchal_engine as bc
from conftest import RULE_VARIANTS


def test_drives_the_engine_binary(engine_bin: str) -> None:
    with bc.popen_engine([engine_bin]) as engine:
        assert engine.name is not None and engine.name.startswith("baghchal")
        assert "Hash" in engine.options and "MultiPV" in engine.options
        board = bc.Board()
        for _ in range(10):
            move = engine.play(board, depth=3)
            assert move is not None and board.is_legal(move)
            board.push(move)
        counts = engine.perft(board, 3)
        assert counts["total"] == board.perft(3)
        assert sum(v for k, v in counts.items() if k != "total") == counts["total"]
        assert sorted(engine.legal_moves(board)) == sorted(str(m) for m in board.legal_moves)
        lines = engine.analyse(board, depth=4, multipv=2)
        assert [line["multipv"] for line in lines] == [1, 2]
        assert all(board.is_legal(line["pv"][0]) for line in lines)
        with pytest.raises(ValueError, match='bad value "0" for option Hash'):
            engine.configure({"Hash": 0})
        with pytest.raises(ValueError, match='depth "0" out of range 1..100'):
            engine.play(board, depth=0)
        # Still answering after the errors.
        assert engine.play(board, depth=2) is not None


def test_in_process_and_piped_engines_agree(engine_bin: str) -> None:
    board = bc.Board()
    for text in ["c3", "a1b2", "b3", "e1d2"]:
        board.push_str(text)
    options = {"Seed": 3, "Hash": 16}
    local = bc.Engine(options)
    with bc.popen_engine([engine_bin]) as piped:
        piped.configure(options)
        assert str(piped.play(board, depth=6)) == str(local.play(board, depth=6))
        local_line = local.analyse(board, depth=6)[0]
        piped_line = piped.analyse(board, depth=6)[0]
        assert piped_line["score"] == local_line["score"]
        assert piped_line["pv"] == local_line["pv"]


def test_random_games_legal_moves_equal_the_engine(engine_bin: str) -> None:
    """For every position of many random games under every rule variant, the legal moves and
    the outcome through Python equal what the engine binary's `d` reports (commands are
    pipelined: one `position` + `d` per ply, read back in order)."""
    import subprocess

    rng = random.Random(17)
    games_per_variant = 170  # 12 variants: over 2,000 games
    total_positions = 0
    for rules in RULE_VARIANTS:
        games = []
        for _ in range(games_per_variant):
            board = bc.Board(rules=rules)
            plies = [board.copy()]
            while not board.is_game_over() and board.ply < 150:
                board.push(rng.choice(board.legal_moves))
                plies.append(board.copy())
            games.append(plies)
        script = [
            f"setoption name ForcedCapture value {str(rules.forced_capture).lower()}",
            f"setoption name CapturesToWin value {rules.captures_to_win}",
            f"setoption name Repetition value {rules.repetition}",
        ]
        expected = []
        for plies in games:
            for board in plies:
                moves = " ".join(str(m) for m in board.move_stack)
                script.append(f"position startpos moves {moves}" if moves else "position startpos")
                script.append("d")
                expected.append(board)
        script.append("quit")
        done = subprocess.run([engine_bin], input="\n".join(script) + "\n", capture_output=True, text=True, timeout=600)
        assert done.returncode == 0
        reports = [line for line in done.stdout.splitlines() if line.startswith(("Legal moves", "Outcome:", "Position:"))]
        assert len(reports) == 3 * len(expected), done.stdout[-2000:]
        for i, board in enumerate(expected):
            position, legal, outcome = reports[3 * i : 3 * i + 3]
            assert position == f"Position: {board.position()}"
            listed = legal.split(": ", 1)[1].split() if ": " in legal else []
            assert sorted(listed) == sorted(str(m) for m in board.legal_moves), (board.position(), str(rules))
            ours = board.outcome()
            assert outcome == f"Outcome: {'none' if ours is None else ours}"
        total_positions += len(expected)
    assert total_positions > 50_000


@pytest.mark.parametrize(
    "behaviour, error, match",
    [
        ("crash", bc.EngineTerminatedError, "exited"),
        ("exit-on-go", bc.EngineTerminatedError, "exited"),
        ("segfault", bc.EngineTerminatedError, "exited"),
        ("stall", bc.EngineTimeoutError, "no bestmove"),
        ("illegal", bc.EngineProtocolError, "not a legal move"),
        ("malformed", bc.EngineProtocolError, "not a legal move"),
    ],
)
def test_misbehaving_engines_raise_clear_errors(mock_bin: str, behaviour: str, error: type, match: str) -> None:
    engine = bc.popen_engine([mock_bin, "--behaviour", behaviour], timeout=1.0)
    with pytest.raises(error, match=match):
        engine.play(bc.Board(), time=0.05)
    engine.close()


def test_a_chatty_engine_still_works(mock_bin: str) -> None:
    with bc.popen_engine([mock_bin, "--behaviour", "garbage"], timeout=2.0) as engine:
        board = bc.Board()
        for _ in range(6):
            move = engine.play(board, time=0.01)
            assert move is not None and board.is_legal(move)
            board.push(move)


def test_handshake_failures(mock_bin: str) -> None:
    with pytest.raises(bc.EngineTimeoutError, match="no uciok"):
        bc.popen_engine([mock_bin, "--behaviour", "no-uciok"], timeout=0.5)
    with pytest.raises(bc.EngineTerminatedError, match="cannot start"):
        bc.popen_engine(["/nonexistent/engine"])
    with pytest.raises(ValueError, match="invalid timeout"):
        bc.popen_engine([mock_bin], timeout=0)
