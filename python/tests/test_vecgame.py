"""VecGame against boards replaying the same actions; seeding; auto-reset; errors."""

from __future__ import annotations

import numpy as np
import pytest

import baghchal_engine as bc
from conftest import RULE_VARIANTS


@pytest.mark.parametrize("rules", RULE_VARIANTS[::2], ids=str)
def test_vecgame_matches_boards_step_by_step(rules: bc.Rules) -> None:
    n, max_plies = 16, 120
    game = bc.VecGame(n, rules=rules, seed=3, max_plies=max_plies)
    observations, masks = game.reset()
    boards = [bc.Board(rules=rules) for _ in range(n)]
    finished = 0
    for _ in range(400):
        for i, board in enumerate(boards):
            assert np.array_equal(masks[i], board.action_mask())
            assert np.array_equal(observations[i], board.observation())
        actions = game.sample_actions()
        movers = [b.turn for b in boards]
        for i, board in enumerate(boards):
            board.push(bc.Move.from_action(int(actions[i])))
        observations, masks, rewards, dones = game.step(actions)
        finals, truncated, winners = game.final_observations(), game.truncated(), game.winners()
        assert np.array_equal(game.movers(), [int(m == bc.Side.TIGERS) for m in movers])
        for i, board in enumerate(boards):
            outcome = board.outcome()
            cut = outcome is None and board.ply >= max_plies
            assert bool(dones[i]) == (outcome is not None or cut)
            assert bool(truncated[i]) == cut
            if dones[i]:
                finished += 1
                assert np.array_equal(finals[i], board.observation())
                winner = None if outcome is None else outcome.winner
                assert winners[i] == (-1 if winner is None else int(winner == bc.Side.TIGERS))
                assert rewards[i] == (0 if winner is None else (1 if winner == movers[i] else -1))
                boards[i] = bc.Board(rules=rules)
            else:
                assert rewards[i] == 0 and winners[i] == -2
    assert finished > 20
    assert game.finished_games == finished


def test_same_seed_same_games() -> None:
    def run(seed: int) -> list:
        game = bc.VecGame(8, seed=seed)
        game.reset()
        out = []
        for _ in range(100):
            actions = game.sample_actions()
            out.append(actions.tolist())
            game.step(actions)
        return out

    assert run(5) == run(5)
    assert run(5) != run(6)
    game = bc.VecGame(8, seed=9)
    game.reset()
    first = game.sample_actions()
    game.reset(seed=9)
    assert np.array_equal(first, game.sample_actions())


def test_positions_and_random_steps() -> None:
    game = bc.VecGame(64, seed=1, max_plies=50)
    game.reset()
    assert game.step_random(200) > 0
    tigers, goats, side, in_hand, captured = game.positions()
    for i in range(64):
        board = bc.Board(game.position(i))
        assert board.bitboards() == (tigers[i], goats[i])
        assert (board.turn == bc.Side.TIGERS) == bool(side[i])
        assert (board.goats_in_hand, board.captured) == (in_hand[i], captured[i])


def test_masks_and_observations_match_reset() -> None:
    game = bc.VecGame(3)
    observations, masks = game.reset()
    assert observations.shape == (3, bc.NUM_PLANES, 5, 5) and masks.shape == (3, bc.NUM_ACTIONS)
    assert np.array_equal(game.action_masks(), masks)
    assert np.array_equal(game.observations(), observations)
    assert np.array_equal(masks[0], bc.Board().action_mask())
    assert len(game) == 3 == game.num_envs


def test_bad_actions_and_arguments() -> None:
    game = bc.VecGame(2)
    game.reset()
    before = [game.position(0), game.position(1)]
    with pytest.raises(ValueError, match=r"game 1: action 25 \(a1a2\) is not legal: illegal move \"a1a2\": no goat on a1"):
        game.step(np.array([12, 25], dtype=np.int64))
    with pytest.raises(ValueError, match="game 0: invalid action 999"):
        game.step(np.array([999, 12], dtype=np.int64))
    with pytest.raises(ValueError, match="3 actions for 2 games"):
        game.step(np.array([12, 12, 12], dtype=np.int64))
    with pytest.raises(ValueError, match="invalid actions: expected one integer per game"):
        game.step(np.zeros((2, 2), dtype=np.int64))
    with pytest.raises(ValueError, match="invalid actions"):
        game.step(["c3", "d3"])
    assert [game.position(0), game.position(1)] == before  # nothing moved
    # Any sequence of integers will do.
    game.step([bc.Move("c3").action(), bc.Move("c3").action()])
    assert game.position(0) == game.position(1) != before[0]
    with pytest.raises(ValueError, match="invalid game 5"):
        game.position(5)
    with pytest.raises(ValueError, match="invalid game -1"):
        game.position(-1)
    with pytest.raises(ValueError, match="invalid number of games 0"):
        bc.VecGame(0)
    with pytest.raises(ValueError, match="invalid max_plies 0"):
        bc.VecGame(1, max_plies=0)
