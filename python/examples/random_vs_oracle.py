"""Random agents play each other in the PettingZoo environment; the goats' agent is scored
against the oracle: the share of its moves that keep the game-theoretic value (win stays win,
draw stays draw), on small tables (CapturesToWin 1, placement included) generated on the fly.

    python python/examples/random_vs_oracle.py [--games 50] [--tables DIR]
"""

from __future__ import annotations

import argparse
import tempfile

import numpy as np

import baghchal_engine as bc


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--tables", help="directory of CapturesToWin 1 tables (default: generate them)")
    args = parser.parse_args()
    rules = bc.Rules(captures_to_win=1)
    with tempfile.TemporaryDirectory() as scratch:
        directory = args.tables or scratch
        if not args.tables:
            bc.generate_tablebase(directory, rules, placement=True, max_in_hand=4)
        tables = bc.Tablebase(directory)
        env = bc.env(rules=rules, max_plies=200)
        rng = np.random.default_rng(args.seed)
        kept = scored = 0
        results = {"goat": 0, "tiger": 0, "draw": 0}
        for game in range(args.games):
            env.reset(seed=args.seed + game)
            for agent in env.agent_iter():
                observation, reward, termination, truncation, _ = env.last()
                if termination or truncation:
                    if agent == "goat":
                        results["goat" if reward > 0 else "tiger" if reward < 0 else "draw"] += 1
                    env.step(None)
                    continue
                action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
                if agent == "goat":
                    board = env.unwrapped.board
                    best = tables.best_moves(board)
                    if best:  # a covered position with moves
                        scored += 1
                        kept += bc.Move.from_action(action) in best
                env.step(action)
        print(f"{args.games} games of random goats vs random tigers (CapturesToWin 1): {results}")
        print(f"random goats kept the value in {kept} of {scored} moves ({100 * kept / max(scored, 1):.1f}%)")


if __name__ == "__main__":
    main()
