"""The PettingZoo AEC environment, reached as PettingZoo's classic games are:
`baghchal_engine.env()` (wrapped) or `baghchal_engine.raw_env()`.

Agents `"goat"` (moves first) and `"tiger"`. Each observation is a dict: `"observation"`, the
8 planes of `Board.observation()` (float32, (8, 5, 5)), and `"action_mask"` (int8, 425 entries;
all zeros for the agent not to move). Rewards: +1 to the winner, -1 to the loser, 0 each for a
draw (repetition) or a game cut at `max_plies` half-moves (truncation).
"""

from __future__ import annotations

from typing import Any, Dict, Optional

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from baghchal_engine._native import NUM_ACTIONS, NUM_PLANES, Board, Move, Rules, Side

AGENT_OF_SIDE = {Side.GOATS: "goat", Side.TIGERS: "tiger"}


def env(**kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's usual wrappers: an illegal move ends the game with
    -1 for the agent that made it; actions out of range and calls out of order are errors."""
    game = raw_env(**kwargs)
    game = wrappers.TerminateIllegalWrapper(game, illegal_reward=-1)
    game = wrappers.AssertOutOfBoundsWrapper(game)
    game = wrappers.OrderEnforcingWrapper(game)
    return game


class raw_env(AECEnv):
    """Bagh Chal as a PettingZoo AEC game (see the module's documentation)."""

    metadata: Dict[str, Any] = {
        "render_modes": ["human", "ansi"],
        "name": "baghchal_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        rules: Optional[Rules] = None,
        max_plies: int = 300,
        render_mode: Optional[str] = None,
    ) -> None:
        super().__init__()
        if max_plies < 1:
            raise ValueError(f"invalid max_plies {max_plies}: expected at least 1")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"invalid render_mode {render_mode!r}: expected human or ansi")
        self.rules = rules if rules is not None else Rules()
        self.max_plies = max_plies
        self.render_mode = render_mode
        self.possible_agents = ["goat", "tiger"]
        self.agents = self.possible_agents[:]
        self.action_spaces = {agent: spaces.Discrete(NUM_ACTIONS) for agent in self.possible_agents}
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, (NUM_PLANES, 5, 5), np.float32),
                    "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.board = Board(rules=self.rules)

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> Dict[str, np.ndarray]:
        to_move = AGENT_OF_SIDE[self.board.turn] == agent and not self.board.is_game_over()
        mask = self.board.action_mask().astype(np.int8) if to_move else np.zeros(NUM_ACTIONS, np.int8)
        return {"observation": self.board.observation(), "action_mask": mask}

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> None:
        self.board = Board(rules=self.rules)
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: Dict[str, Dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = "goat"

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.board.push(Move.from_action(int(action)))
        self._cumulative_rewards[agent] = 0
        outcome = self.board.outcome()
        if outcome is not None:
            winner = outcome.winner
            for name in self.agents:
                if winner is None:
                    self.rewards[name] = 0
                else:
                    self.rewards[name] = 1 if AGENT_OF_SIDE[winner] == name else -1
                self.terminations[name] = True
                self.infos[name] = {"outcome": str(outcome)}
        elif self.board.ply >= self.max_plies:
            for name in self.agents:
                self.truncations[name] = True
        self.agent_selection = AGENT_OF_SIDE[self.board.turn]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> Optional[str]:
        if self.render_mode is None:
            return None
        text = f"{self.board}\n{self.board.position()}"
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass
