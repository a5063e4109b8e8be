"""The action encoding is a bijection with the legal moves, the masks are exactly the legal
moves, the observation planes say what the board says, and the symmetry permutations map
masks onto the masks of transformed positions."""

from __future__ import annotations

import random

import numpy as np

import baghchal_engine as bc
from conftest import RULE_VARIANTS, random_game


def sampled_boards(games_per_variant: int = 40, seed: int = 11):  # type: ignore[no-untyped-def]
    rng = random.Random(seed)
    for rules in RULE_VARIANTS:
        for _ in range(games_per_variant):
            boards = random_game(rules, rng, max_plies=200)
            # Every position of short games, a sample of long ones.
            yield from boards if len(boards) < 60 else rng.sample(boards, 60)


def test_encoding_is_a_bijection_and_masks_are_the_legal_moves() -> None:
    positions = 0
    for board in sampled_boards():
        legal = board.legal_moves
        actions = [m.action() for m in legal]
        assert len(set(actions)) == len(actions)
        for move, action in zip(legal, actions):
            assert 0 <= action < bc.NUM_ACTIONS
            assert bc.Move.from_action(action) == move
        mask = board.action_mask()
        assert mask.dtype == np.bool_ and mask.shape == (bc.NUM_ACTIONS,)
        assert set(np.flatnonzero(mask).tolist()) == set(actions)
        positions += 1
    assert positions > 5000


def test_every_decodable_action_round_trips() -> None:
    decodable = 0
    for action in range(bc.NUM_ACTIONS):
        try:
            move = bc.Move.from_action(action)
        except ValueError:
            continue
        decodable += 1
        assert move.action() == action
        assert bc.Move(str(move)) == move
    # Counted from the geometry, independently of the engine: the diagonals run through the
    # points whose file + rank is even.
    def along_lines(distance: int) -> int:
        count = 0
        for file in range(5):
            for rank in range(5):
                for df, dr in [(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, 1), (1, -1), (-1, -1)]:
                    if df and dr and (file + rank) % 2:
                        continue
                    if 0 <= file + distance * df < 5 and 0 <= rank + distance * dr < 5:
                        count += 1
        return count

    steps = sum(1 for a in range(25, 225) if _decodes(a))
    jumps = sum(1 for a in range(225, 425) if _decodes(a))
    assert steps == along_lines(1) and jumps == along_lines(2)
    assert decodable == 25 + steps + jumps


def _decodes(action: int) -> bool:
    try:
        bc.Move.from_action(action)
        return True
    except ValueError:
        return False


def test_observation_planes_say_what_the_board_says() -> None:
    for board in list(sampled_boards(games_per_variant=3, seed=3)):
        planes = board.observation()
        assert planes.shape == (bc.NUM_PLANES, 5, 5) and planes.dtype == np.float32
        tigers, goats = board.bitboards()
        for square in range(25):
            rank, file = divmod(square, 5)
            name = "abcde"[file] + str(rank + 1)
            piece = board.piece_at(name)
            assert planes[0, rank, file] == (piece == bc.Side.TIGERS) == bool(tigers >> square & 1)
            assert planes[1, rank, file] == (piece == bc.Side.GOATS) == bool(goats >> square & 1)
            assert planes[2, rank, file] == (piece is None)
        assert np.all(planes[3] == (board.turn == bc.Side.TIGERS))
        assert np.allclose(planes[4], board.goats_in_hand / 20)
        assert np.allclose(planes[5], board.captured / board.rules.captures_to_win)
        targets = {m.to_square for m in board.legal_moves}
        for square in range(25):
            rank, file = divmod(square, 5)
            assert planes[6, rank, file] == ("abcde"[file] + str(rank + 1) in targets)
        assert np.all(planes[7] == board.is_repetition())


def test_symmetry_permutations_map_masks_onto_transformed_masks() -> None:
    permutations = [bc.action_permutation(g) for g in range(8)]
    squares = [bc.square_permutation(g) for g in range(8)]
    for g in range(8):
        assert sorted(permutations[g].tolist()) == list(range(bc.NUM_ACTIONS))
        assert sorted(squares[g].tolist()) == list(range(25))
    checked = 0
    for board in sampled_boards(games_per_variant=8, seed=7):
        mask = board.action_mask()
        planes = board.observation().reshape(bc.NUM_PLANES, 25)
        for g in range(8):
            image = board.transform(g)
            moved = np.zeros_like(mask)
            moved[permutations[g]] = mask
            assert np.array_equal(moved, image.action_mask())
            moved_planes = np.zeros_like(planes)
            moved_planes[:, squares[g]] = planes
            assert np.array_equal(moved_planes, image.observation().reshape(bc.NUM_PLANES, 25))
            # Move by move: the permuted action is the action of the transformed move.
            for move in board.legal_moves[:3]:
                assert image.is_legal(bc.Move.from_action(int(permutations[g][move.action()])))
        checked += 1
    assert checked > 1000
