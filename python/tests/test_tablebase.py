"""The oracle: small tables (CapturesToWin 1, placement included) generated from Python and
probed from Python agree with `baghchal tb probe`; batched probes agree with single ones."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

import baghchal_engine as bc
from conftest import random_game, run_cli

RULES = bc.Rules(captures_to_win=1)
MAX_IN_HAND = 4


@pytest.fixture(scope="module")
def tables_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("tb")
    calls = []
    # Placement layers up to 4 goats in hand: seconds (all 20 take far longer).
    bc.generate_tablebase(directory, RULES, placement=True, max_in_hand=MAX_IN_HAND, threads=2, progress=lambda *a: calls.append(a))
    # Progress came with phases and counts that end complete.
    assert calls and all(isinstance(p, str) and 0 <= d <= t for p, d, t in calls)
    assert any(d == t for _, d, t in calls)
    return directory


def cli_probe(engine_bin: str, directory: Path, position: str) -> dict:
    out = run_cli(engine_bin, "tb", "probe", str(directory), position)
    fields = dict(line.split(": ", 1) if ": " in line else (line.rstrip(":"), "") for line in out.splitlines())
    return fields


def test_probes_equal_the_cli(engine_bin: str, tables_dir: Path) -> None:
    tables = bc.Tablebase(tables_dir)
    assert tables.rules == RULES and tables.has_placement and tables.corrupt_layers == []
    rng = random.Random(2)
    boards = []
    for _ in range(60):
        game = random_game(RULES, rng)
        covered = [b for b in game if b.goats_in_hand <= MAX_IN_HAND]
        boards += rng.sample(covered, min(2, len(covered)))
    assert any(b.goats_in_hand == 0 for b in boards) and any(b.goats_in_hand > 0 for b in boards)
    above = bc.Board("T3T/GGGGG/GGGGG/GGGGG/T3T t 5 0", RULES)
    assert tables.probe(above) is None and tables.best_moves(above) == []
    for board in boards:
        value = tables.probe(board)
        fields = cli_probe(engine_bin, tables_dir, board.position())
        assert value is not None
        assert value.wdl == fields["value"]
        assert fields["distance"] == ("none" if value.distance is None else str(value.distance))
        moves = []
        for move, after in tables.best_moves_with_values(board):
            moves.append(str(move) if after.wdl == "draw" or after.distance is None else f"{move}({after.distance})")
        assert " ".join(moves) == fields["moves"]
        assert [str(m) for m in tables.best_moves(board)] == [m.split("(")[0] for m in moves]


def test_batched_probes_equal_single_ones(tables_dir: Path) -> None:
    tables = bc.Tablebase(tables_dir, RULES)
    game = bc.VecGame(200, rules=RULES, seed=4, max_plies=60)
    game.reset()
    covered = 0
    for _ in range(6):
        game.step_random(11)
        wdl, distance = tables.probe_many(*game.positions())
        for i in range(len(game)):
            value = tables.probe(bc.Board(game.position(i), RULES))
            code = {"win": 1, "draw": 0, "loss": -1}[value.wdl] if value is not None else -2
            assert wdl[i] == code
            assert distance[i] == (-1 if value is None or value.distance is None else value.distance)
        covered += int((wdl != -2).sum())
    assert covered >= 10


def test_tablebase_errors(tables_dir: Path, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="table file not found"):
        bc.Tablebase(tmp_path)
    with pytest.raises(ValueError, match="table file made for rules"):
        bc.Tablebase(tables_dir, bc.Rules(captures_to_win=2))
    tables = bc.Tablebase(tables_dir)
    with pytest.raises(ValueError, match="the tables are for ForcedCapture=false CapturesToWin=1, the board plays ForcedCapture=false CapturesToWin=5"):
        tables.probe(bc.Board())
    one = np.array([0], dtype=np.uint32)
    small = np.array([0], dtype=np.uint8)
    with pytest.raises(ValueError, match="entry 0: 0 tigers on the board: expected 4"):
        tables.probe_many(one, one, small, small, small)
    with pytest.raises(ValueError, match="arrays of different lengths"):
        tables.probe_many(one, np.zeros(2, np.uint32), small, small, small)
    with pytest.raises(ValueError, match="entry 0: side 7"):
        tables.probe_many(np.array([0b1_0001_0000_0000_0000_0001_0001], np.uint32), one, np.array([7], np.uint8), np.array([20], np.uint8), small)
    with pytest.raises(ValueError, match="entry 0: bit sets must use bits 0..24 only"):
        tables.probe_many(np.array([1 << 25], np.uint32), one, small, small, small)
    with pytest.raises(ValueError, match="invalid max_in_hand 0"):
        bc.generate_tablebase(tmp_path, RULES, placement=True, max_in_hand=0)
    with pytest.raises(ValueError, match="invalid captures to win 6: tablebases cover 1..5"):
        bc.generate_tablebase(tmp_path, bc.Rules(captures_to_win=6))


def test_corrupt_tables_are_reported_not_used(tables_dir: Path, tmp_path: Path) -> None:
    import shutil

    def damaged(name: str) -> Path:
        copy = tmp_path / name
        shutil.copytree(tables_dir, copy)
        layer = copy / name
        data = bytearray(layer.read_bytes())
        data[-1] ^= 0xFF
        layer.write_bytes(bytes(data))
        return copy

    with pytest.raises(ValueError, match="corrupt table file: checksum mismatch"):
        bc.Tablebase(damaged("layer-0.bctb"))
    tables = bc.Tablebase(damaged("place-03-0.bctb"))
    assert len(tables.corrupt_layers) == 1 and tables.corrupt_layers[0].endswith("place-03-0.bctb")
    # A position of that layer is not covered any more; one of another layer still is.
    five = bc.Board("T1G1T/GGGGG/GGGGG/GGGGG/TG2T t 3 0", RULES)
    assert tables.probe(five) is None
    assert bc.Tablebase(tables_dir).probe(five) is not None


def test_compressed_tables_answer_like_the_uncompressed_ones(engine_bin: str, tables_dir: Path, tmp_path: Path) -> None:
    # `tb compress` writes the placement layers as `.bctz` only (tigers to move stored, goats to
    # move derived); the oracle reads them through the same `Tablebase`.
    packed = tmp_path / "packed"
    run_cli(engine_bin, "tb", "compress", str(tables_dir), "--out", str(packed))
    assert sorted(p.name for p in packed.glob("place-*.bctz")) == sorted(p.name[:-1] + "z" for p in tables_dir.glob("place-*.bctb"))
    assert not list(packed.glob("place-*.bctb"))
    plain, compressed = bc.Tablebase(tables_dir), bc.Tablebase(packed)
    assert compressed.corrupt_layers == []
    rng = random.Random(7)
    seen = set()
    for _ in range(80):
        game = random_game(RULES, rng)
        for board in rng.sample(game, min(4, len(game))):
            expected = plain.probe(board)
            value = compressed.probe(board)
            assert (value is None) == (expected is None)
            if expected is not None:
                assert (value.wdl, value.distance) == (expected.wdl, expected.distance)
                assert [str(m) for m in compressed.best_moves(board)] == [str(m) for m in plain.best_moves(board)]
                if board.goats_in_hand > 0:
                    seen.add(expected.wdl)
    assert len(seen) >= 2


def test_values_under_forbid_follow_the_cli_and_the_game(engine_bin: str, tables_dir: Path, tmp_path: Path) -> None:
    import shutil

    directory = tmp_path / "forbid"
    shutil.copytree(tables_dir, directory)
    board = bc.Board("TGGGT/GGGGG/GGGGG/GGGGG/T1G1T g 1 0", RULES)
    plain = bc.Tablebase(directory)
    assert not plain.has_forbid and plain.probe_forbid(board) is None
    # CapturesToWin 1: every table draw is solved, and the placement values up to 3 in hand.
    run_cli(engine_bin, "tb", "forbid", "solve", str(directory))
    run_cli(engine_bin, "tb", "forbid", "start", str(directory), "--max-in-hand", "3")
    tables = bc.Tablebase(directory)
    assert tables.has_forbid and tables.corrupt_layers == []
    with pytest.raises(ValueError, match="Repetition draw"):
        tables.probe_forbid(bc.Board(board.position(), bc.Rules(captures_to_win=1, repetition="draw")))
    rng = random.Random(3)
    compared = decisive = finished = 0
    for _ in range(300):
        game = random_game(RULES, rng)
        for before, after in zip(game, game[1:]):
            value = tables.probe_forbid(after)
            assert value in ("goats", "tigers", "unknown")
            decisive += value != "unknown"
            if after.is_game_over():
                winner = after.outcome().winner
                assert value == ("goats" if winner == bc.Side.GOATS else "tigers"), after.position()
                finished += 1
                continue
            # An empty history (the placement phase, the first movement state, right after a
            # capture): the value `tb probe` gives the position alone.
            if after.goats_in_hand > 0 or before.goats_in_hand > 0 or before.captured != after.captured:
                if after.goats_in_hand > 3:
                    continue
                line = cli_probe(engine_bin, directory, after.position())["forbid"]
                assert value == line.split()[0], (after.position(), line)
                compared += 1
    assert compared >= 40 and decisive >= 40 and finished >= 100, (compared, decisive, finished)
