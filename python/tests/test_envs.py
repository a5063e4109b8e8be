"""The environments pass their frameworks' own checkers; the example runs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

import baghchal_engine as bc
from baghchal_engine.envs.gym import BaghChalEnv


@pytest.mark.parametrize("rules", [bc.Rules(), bc.Rules(forced_capture=True, captures_to_win=1, repetition="draw")], ids=str)
def test_pettingzoo_api_test(rules: bc.Rules) -> None:
    api_test(bc.env(rules=rules, max_plies=60), num_cycles=300)
    api_test(bc.raw_env(rules=rules), num_cycles=100)


def test_pettingzoo_rewards_and_truncation() -> None:
    env = bc.env(max_plies=10)
    env.reset()
    for agent in env.agent_iter():
        observation, reward, termination, truncation, _ = env.last()
        if termination or truncation:
            assert truncation and not termination and reward == 0
            env.step(None)
            continue
        assert observation["observation"].shape == (bc.NUM_PLANES, 5, 5)
        env.step(int(np.flatnonzero(observation["action_mask"])[0]))
    env = bc.env(rules=bc.Rules(captures_to_win=1))
    env.reset()
    # Goats walk a goat next to a tiger with the point behind it empty; the tiger captures.
    for action in ["d2", "e1c3"]:
        env.step(bc.Move(action).action())
    assert env.terminations == {"goat": True, "tiger": True}
    assert env.rewards == {"goat": -1, "tiger": 1}


@pytest.mark.parametrize("play_as", ["goats", "tigers"])
@pytest.mark.parametrize("opponent", ["random", 0])
def test_gymnasium_check_env(play_as: str, opponent: object) -> None:
    env = BaghChalEnv(play_as=play_as, opponent=opponent, render_mode="ansi")  # type: ignore[arg-type]
    check_env(env, skip_render_check=False)
    observation, info = env.reset(seed=1)
    mask = env.action_masks()
    assert mask.any() and np.array_equal(mask, info["action_mask"])
    # An illegal action ends the episode with -1.
    illegal = int(np.flatnonzero(~mask)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert reward == -1 and terminated and "illegal_action" in info


def test_gymnasium_make_and_render() -> None:
    import gymnasium

    env = gymnasium.make("baghchal_engine/BaghChal-v0", play_as="goats", render_mode="ansi")
    check_env(env.unwrapped)
    env.reset(seed=3)
    assert "T3T/5/5/5/T3T g 20 0" in env.render()


def test_gymnasium_episode_against_the_engine_ends_with_a_result() -> None:
    env = BaghChalEnv(play_as="tigers", opponent=bc.Engine({"Seed": 2, "Hash": 1}), opponent_nodes=300, max_plies=80)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(200):
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        _, reward, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            assert reward in (-1.0, 0.0, 1.0)
            break
    else:
        pytest.fail("the episode did not end")


def test_bad_environment_arguments() -> None:
    with pytest.raises(ValueError, match="invalid play_as"):
        BaghChalEnv(play_as="both")
    with pytest.raises(ValueError, match="invalid opponent"):
        BaghChalEnv(opponent="strong")
    with pytest.raises(ValueError, match='bad value "30" for option Skill Level'):
        BaghChalEnv(opponent=30)
    with pytest.raises(ValueError, match="invalid max_plies"):
        bc.raw_env(max_plies=0)


def test_example_plays_and_scores() -> None:
    example = Path(__file__).resolve().parents[1] / "examples" / "random_vs_oracle.py"
    done = subprocess.run([sys.executable, str(example), "--games", "10"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "10 games of random goats vs random tigers" in done.stdout
    assert "random goats kept the value in" in done.stdout
