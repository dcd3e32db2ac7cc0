#!/usr/bin/env python3
"""Julbahar: the share of matches decided by the five-point bonus, from a run's subgames.csv.

A match is decided by a bonus when its last game has no bore_off_seat (the match ended during
that game when a bonus took a total to the target; a ply-capped match is counted apart).
Prints the run directory, matches, matches decided by a bonus, their share and its 95% Wilson
interval. Usage: python3 tools/bonus_share.py RUN/subgames.csv [RUN/games.csv]
"""

import csv
import math
import sys


def wilson(k, n, z=1.959963984540054):
    if n == 0:
        return (float("nan"), float("nan"))
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (c - h, c + h)


def main():
    if len(sys.argv) < 2:
        print("usage: bonus_share.py SUBGAMES_CSV", file=sys.stderr)
        sys.exit(2)
    path = sys.argv[1]
    last = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            last[row["game_index"]] = row
    games = path.rsplit("/", 1)[0] + "/games.csv"
    truncated = set()
    try:
        with open(games, newline="") as f:
            for row in csv.DictReader(f):
                if row["end_reason"] == "truncated":
                    truncated.add(row["game_index"])
    except FileNotFoundError:
        pass
    n = sum(1 for g in last if g not in truncated)
    k = sum(1 for g, r in last.items() if g not in truncated and r["bore_off_seat"] == "")
    lo, hi = wilson(k, n)
    print(f"{path}: {n} matches, {k} decided by a bonus, share {k / n:.4f} [{lo:.4f}, {hi:.4f}]"
          + (f", {len(truncated)} truncated" if truncated else ""))


if __name__ == "__main__":
    main()
