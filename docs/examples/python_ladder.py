# %% [markdown]
# # A policy trained in Python, ranked in a cowrie ladder
#
# A notebook-style script (cells marked `# %%`). We train a tiny Frangieh policy with numpy
# alone on the PettingZoo environment (`cowrie.pettingzoo`): a linear evaluation of the
# observation tensor, fitted by least squares to the results of random self-play games (a
# Monte Carlo value estimate), played greedily one ply ahead. Then `cowrie.ladder` ranks it
# between `random`, `heuristic` and `td` (the shipped network), through `cowrie ladder`'s own
# code: seat-swapped pairs on shared dice, each step's pair-level score with its interval.
#
# Run as a script: `python docs/examples/python_ladder.py --episodes 60 --games 10 --out
# runs/python-ladder` (`pip install './python[test]'` brings PettingZoo).

# %%
import argparse
import csv
import time
from pathlib import Path

import numpy as np

import cowrie
from cowrie.pettingzoo import env as make_env

parser = argparse.ArgumentParser(description=__doc__)
parser.add_argument("--episodes", type=int, default=200, help="self-play games to learn from")
parser.add_argument("--games", type=int, default=40, help="games per ladder step (even)")
parser.add_argument("--seed", type=int, default=1)
parser.add_argument("--threads", type=int, default=2)
parser.add_argument("--out", type=Path, default=Path("runs/python-ladder"))
args = parser.parse_args()

GAME, VARIANT = "frangieh", "modern"

# %% [markdown]
# ## Collect positions and results from the environment
# Random play (uniform over the action mask, from a numpy generator seeded by `--seed`); every
# decision's observation is labelled with the final reward of the player who saw it (the
# observation is from the acting player's view). Truncated games are left out.

# %%
started = time.process_time()
rng = np.random.default_rng(args.seed)
env = make_env(GAME, VARIANT)
xs, ys = [], []
env.reset(seed=args.seed)
for episode in range(args.episodes):
    if episode:
        env.reset()
    seen = {a: [] for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
            continue
        seen[agent].append(obs["observation"])
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(rng.choice(legal)))
    if any(env.unwrapped.truncations.values()):
        continue
    rewards = env.unwrapped.state.returns()
    for i, a in enumerate(env.possible_agents):
        xs.extend(seen[a])
        ys.extend([np.sign(rewards[i])] * len(seen[a]))

# %% [markdown]
# ## Fit the evaluation
# Ridge regression of the result on the observation (with a constant term): `w` maps a
# position, seen by the player to act, to that player's expected result in [-1, 1].

# %%
X = np.asarray(xs, dtype=np.float64)
X = np.hstack([X, np.ones((len(X), 1))])
y = np.asarray(ys, dtype=np.float64)
w = np.linalg.solve(X.T @ X + 1.0 * np.eye(X.shape[1]), X.T @ y)
print(f"fitted on {len(y)} positions from {args.episodes} games "
      f"in {time.process_time() - started:.1f} s of CPU")


def value(state, me: int) -> float:
    """The fitted evaluation of `state` from player `me`'s view."""
    if state.is_terminal():
        return float(np.sign(state.returns()[me]))
    v = float(np.dot(w[:-1], state.observation_tensor()) + w[-1])
    return v if state.observation_player() == me else -v


def greedy(state) -> int:
    """One ply ahead: the legal action whose afterstate the evaluation likes best (ties to the
    first in the game's order)."""
    me = state.current_player()
    best, best_value = None, -np.inf
    for a in state.legal_actions():
        after = state.clone()
        after.apply_action(a)
        v = value(after, me)
        if v > best_value:
            best, best_value = a, v
    return best


# Deterministic given the state: the same seed plays the same ladder.
policy = cowrie.PythonAgent("linear-mc", greedy, version=f"{args.episodes}ep", reproducible=True)

# %% [markdown]
# ## Rank it
# The rungs, weakest first as `cowrie ladder` expects them: each step plays adjacent rungs.

# %%
out = cowrie.ladder(GAME, ["random", policy, "heuristic", "td"], args.out, variant=VARIANT,
                    games_per_pair=args.games, seed=args.seed, threads=args.threads,
                    force=True)
with open(Path(out) / "ladder.csv", newline="") as f:
    table = list(csv.DictReader(f))
for r in table:
    if r["upper_seat"] == "both":
        low, high = r["pair_score_ci95_low"] or "-", r["pair_score_ci95_high"] or "-"
        print(f"step {r['step']}: {r['upper']} v {r['lower']}: score {r['score']} "
              f"(pair score's 95% interval {low} to {high})")
# The Python rung is named in the ladder's files by its spec.
assert any(policy.spec in (r["upper"], r["lower"]) for r in table)
print(f"in all {time.process_time() - started:.1f} s of CPU in this process; files in {out}")
