"""A Gymnasium single-agent environment: one side against a fixed opponent.

`BaghChalEnv(play_as="goats", opponent="random")`: the opponent is `"random"` (a uniformly random
legal move from the environment's seeded generator), an int 0..20 (the engine at that
`Skill Level`, seeded from the environment's seed), an `Engine`, or any callable
`board -> Move`. Observation: the 8 planes (float32, (8, 5, 5)); action: one of 425
(`Move.from_action`); `action_masks()` gives the legal actions (for maskable PPO), also in
`info["action_mask"]`. Also registered as `gymnasium.make("baghchal_engine/BaghChal-v0")`
(after importing this module). Rewards: +1 win, -1 loss, 0 draw or cut at `max_plies`; an illegal
action ends the episode with -1 (`info["illegal_action"]`).
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Optional, Tuple, Union

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from baghchal_engine._native import NUM_ACTIONS, NUM_PLANES, Board, Engine, Move, Rules, Side

Opponent = Union[str, int, Engine, Callable[[Board], Move]]


class BaghChalEnv(gym.Env):
    """Bagh Chal for one agent against a fixed opponent (see the module's documentation)."""

    metadata: Dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(
        self,
        play_as: str = "goats",
        opponent: Opponent = "random",
        rules: Optional[Rules] = None,
        max_plies: int = 300,
        opponent_nodes: int = 20000,
        render_mode: Optional[str] = None,
    ) -> None:
        if play_as not in ("goats", "tigers"):
            raise ValueError(f"invalid play_as {play_as!r}: expected goats or tigers")
        if max_plies < 1:
            raise ValueError(f"invalid max_plies {max_plies}: expected at least 1")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"invalid render_mode {render_mode!r}: expected ansi or human")
        if isinstance(opponent, str) and opponent != "random":
            raise ValueError(f"invalid opponent {opponent!r}: expected 'random', a skill level 0..20, an Engine or a callable")
        if isinstance(opponent, int) and not isinstance(opponent, bool):
            Engine({"Skill Level": opponent, "Hash": 1})  # the engine checks the level
        self.side = Side.GOATS if play_as == "goats" else Side.TIGERS
        self.opponent = opponent
        self.rules = rules if rules is not None else Rules()
        self.max_plies = max_plies
        self.opponent_nodes = opponent_nodes
        self.render_mode = render_mode
        self.observation_space = spaces.Box(0.0, 1.0, (NUM_PLANES, 5, 5), np.float32)
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self.board = Board(rules=self.rules)
        self._engine: Optional[Engine] = opponent if isinstance(opponent, Engine) else None

    def _opponent_move(self) -> Move:
        opponent = self.opponent
        if opponent == "random":
            moves = self.board.legal_moves
            return moves[int(self.np_random.integers(len(moves)))]
        if self._engine is not None:
            return self._engine.play(self.board, nodes=self.opponent_nodes)
        assert callable(opponent)
        return opponent(self.board)

    def _reply(self) -> Tuple[float, bool, bool]:
        """Lets the opponent move if the game goes on; returns (reward, terminated, truncated)."""
        for _ in range(2):
            outcome = self.board.outcome()
            if outcome is not None:
                winner = outcome.winner
                return (0.0 if winner is None else (1.0 if winner == self.side else -1.0)), True, False
            if self.board.ply >= self.max_plies:
                return 0.0, False, True
            if self.board.turn == self.side:
                return 0.0, False, False
            self.board.push(self._opponent_move())
        return 0.0, False, False

    def _info(self) -> Dict[str, Any]:
        return {"action_mask": self.action_masks(), "position": self.board.position()}

    def action_masks(self) -> np.ndarray:
        """The legal actions now (bool, 425)."""
        if self.board.turn != self.side:
            return np.zeros(NUM_ACTIONS, dtype=bool)
        return self.board.action_mask()

    def reset(self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> Tuple[np.ndarray, Dict[str, Any]]:
        super().reset(seed=seed)
        if isinstance(self.opponent, int) and not isinstance(self.opponent, bool):
            if seed is not None or self._engine is None:
                engine_seed = int(self.np_random.integers(1, 2**31 - 1))
                self._engine = Engine({"Skill Level": self.opponent, "Seed": engine_seed, "Hash": 1})
        elif self._engine is not None:
            self._engine.new_game()
        self.board = Board(rules=self.rules)
        self._reply()
        return self.board.observation(), self._info()

    def step(self, action: Any) -> Tuple[np.ndarray, float, bool, bool, Dict[str, Any]]:
        try:
            move = Move.from_action(int(action))
            self.board.push(move)
        except ValueError as error:
            info = self._info()
            info["illegal_action"] = str(error)
            return self.board.observation(), -1.0, True, False, info
        reward, terminated, truncated = self._reply()
        return self.board.observation(), reward, terminated, truncated, self._info()

    def render(self) -> Optional[str]:
        if self.render_mode is None:
            return None
        text = f"{self.board}\n{self.board.position()}"
        if self.render_mode == "human":
            print(text)
            return None
        return text


ENV_ID = "baghchal_engine/BaghChal-v0"
if ENV_ID not in gym.registry:
    gym.register(id=ENV_ID, entry_point="baghchal_engine.envs.gym:BaghChalEnv")
