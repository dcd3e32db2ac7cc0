#!/usr/bin/env python3
"""Cross-check cowrie's one-sided bear-off database (Frangieh `modern`, whose bear-off is GNU
Backgammon's) against GNU Backgammon's own one-sided bear-off database.

GNU Backgammon's database is reached through the `gnubg-nn` package on PyPI
(`gnubg_nn.bearoff_probabilities(six counts, 1-point first)` gives the probability of bearing
off in 1, 2, ... rolls, stored as 16-bit fractions); tools/gnubg_venv.py installs it into
tools/.venv on first use. The script reads `expected.csv` and `distribution.csv` that
`cowrie bearoff --game frangieh --variant modern --out DIR` wrote and compares, for every
position, the expected number of rolls and each probability.

Usage:
  cowrie bearoff --game frangieh --variant modern --out runs/bearoff-modern
  python3 tools/crosscheck_bearoff.py runs/bearoff-modern
Exit status 0 when every expected number of rolls agrees within --mean-tolerance (gnubg stores
its probabilities to 1/65535) and every probability within --probability-tolerance, 1 otherwise.
A few positions have the same expected rolls under both but probabilities apart by up to 0.003:
where two plays of a roll give the same (or nearly the same) expected rolls, the two programs
need not pick the same one, and the distributions then differ while the means do not.
"""

import argparse
import csv
import os
import sys
from collections import defaultdict

from gnubg_venv import ensure_venv


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir", help="the directory cowrie bearoff --out wrote")
    ap.add_argument("--mean-tolerance", type=float, default=1e-3,
                    help="largest difference allowed in an expected number of rolls (default 0.001)")
    ap.add_argument("--probability-tolerance", type=float, default=5e-3,
                    help="largest difference allowed in a probability (default 0.005)")
    args = ap.parse_args()
    ensure_venv()
    import gnubg_nn

    dist = defaultdict(dict)
    with open(os.path.join(args.dir, "distribution.csv"), newline="") as f:
        for row in csv.DictReader(f):
            if row["until"] == "all":
                dist[row["position"]][int(row["turns"])] = float(row["probability"])
    worst_mean, worst_p, n, beyond = (0.0, None), (0.0, None), 0, 0
    with open(os.path.join(args.dir, "expected.csv"), newline="") as f:
        for row in csv.DictReader(f):
            pos = tuple(int(x) for x in row["position"].split(","))
            if sum(pos) == 0:
                continue
            g = gnubg_nn.bearoff_probabilities(pos)
            mean = sum((i + 1) * p for i, p in enumerate(g))
            d = abs(mean - float(row["expected_turns"]))
            if d > worst_mean[0]:
                worst_mean = (d, row["position"])
            mine = dist[row["position"]]
            largest = 0.0
            for t in set(mine) | set(range(1, len(g) + 1)):
                gp = g[t - 1] if 1 <= t <= len(g) else 0.0
                d = abs(gp - mine.get(t, 0.0))
                largest = max(largest, d)
                if d > worst_p[0]:
                    worst_p = (d, f"{row['position']} in {t} rolls")
            beyond += largest > 5e-4
            n += 1
    print(f"{n} positions: largest difference in the expected rolls {worst_mean[0]:.2e} ({worst_mean[1]}), "
          f"in a probability {worst_p[0]:.2e} ({worst_p[1]}); {beyond} positions with a probability "
          f"differing by more than 5e-4")
    ok = worst_mean[0] <= args.mean_tolerance and worst_p[0] <= args.probability_tolerance
    print("agree" if ok else "DIFFER beyond the tolerances")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
