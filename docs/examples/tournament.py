# %% [markdown]
# # A round robin between Frangieh agents, from Python
#
# A notebook-style script (cells marked `# %%`; open it in Jupyter through jupytext, or in VS
# Code). Three agents play every pairing in seat-swapped pairs on shared dice through
# `cowrie.play_match` (the same games as `cowrie match` for the same arguments); we tabulate
# each agent's win rate against each opponent with its 95% Wilson interval and plot them.
#
# Run as a script: `python docs/examples/tournament.py --games 20 --out runs/python-tournament`
# (`pip install './python[test]'` brings pandas and matplotlib).

# %%
import argparse
import itertools
import math
from pathlib import Path

import cowrie

parser = argparse.ArgumentParser(description=__doc__)
parser.add_argument("--games", type=int, default=40, help="games per pairing (even)")
parser.add_argument("--seed", type=int, default=1)
parser.add_argument("--threads", type=int, default=2)
parser.add_argument("--out", type=Path, default=Path("runs/python-tournament"))
args = parser.parse_args()

GAME, VARIANT = "frangieh", "modern"
AGENTS = ["random", "heuristic", "expectimax:depth=1"]

# %% [markdown]
# ## Play every pairing
# Each pairing is one run directory under `--out` (as `cowrie match --out` writes it). Points
# in Frangieh `modern` can be 1, 2 or 3 (gammons, backgammons); here a game counts as a win or a
# loss.

# %%
def wilson(k: int, n: int, z: float = 1.959964) -> tuple:
    """The 95% Wilson score interval of k successes in n trials."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (centre - half, centre + half)


results = []
for a, b in itertools.combinations(AGENTS, 2):
    name = f"{a}-vs-{b}".replace(":", "_").replace("=", "")
    rows = cowrie.play_match(game=GAME, variant=VARIANT, p1=a, p2=b, games=args.games,
                             seed=args.seed, threads=args.threads, out=args.out / name)
    frame = rows.to_pandas()
    # The --p1 agent sits in seat 1 of even games and seat 2 of odd ones.
    a_seat = frame["game_index"].map(lambda i: 1 if i % 2 == 0 else 2)
    wins_a = int((frame["winner_seat"] == a_seat).sum())
    wins_b = int(((frame["winner_seat"] == 3 - a_seat)).sum())
    n = len(frame)
    for agent, opponent, wins in [(a, b, wins_a), (b, a, wins_b)]:
        low, high = wilson(wins, n)
        results.append({"agent": agent, "opponent": opponent, "games": n, "wins": wins,
                        "win_rate": wins / n, "low": low, "high": high})

# %%
import pandas as pd  # noqa: E402

table = pd.DataFrame(results)
print(table.to_string(index=False, float_format=lambda x: f"{x:.3f}"))
table.to_csv(args.out / "win_rates.csv", index=False)
# Every game has a winner in Frangieh, so the two sides of a pairing add up to its games.
assert (table.groupby(table[["agent", "opponent"]].apply(frozenset, axis=1))["wins"].sum()
        == args.games).all()

# %% [markdown]
# ## Plot the win rates with their intervals

# %%
import matplotlib  # noqa: E402

matplotlib.use("Agg")  # no display needed
import matplotlib.pyplot as plt  # noqa: E402

fig, ax = plt.subplots(figsize=(7, 3.5))
labels = [f"{r.agent}\nv {r.opponent}" for r in table.itertuples()]
x = range(len(table))
ax.bar(x, table["win_rate"], color="#6a8caf")
ax.errorbar(x, table["win_rate"],
            yerr=[table["win_rate"] - table["low"], table["high"] - table["win_rate"]],
            fmt="none", ecolor="black", capsize=3)
ax.axhline(0.5, color="grey", linewidth=0.8, linestyle="--")
ax.set_xticks(list(x), labels, fontsize=7)
ax.set_ylim(0, 1)
ax.set_ylabel("win rate (95% Wilson)")
ax.set_title(f"{GAME} {VARIANT}: round robin, {args.games} games per pairing, seed {args.seed}")
fig.tight_layout()
figure = args.out / "win_rates.svg"
fig.savefig(figure)
print(f"wrote {figure}")
