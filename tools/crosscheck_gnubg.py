#!/usr/bin/env python3
"""Cross-check cowrie's Frangieh move generator (variant `modern`) against GNU Backgammon.

GNU Backgammon's move generator is reached through the `gnubg-nn` package on PyPI
(`gnubg_nn.moves(board, d1, d2)` returns the key of every distinct resulting position). The
script creates a virtual environment in tools/.venv (gitignored) and installs it there on first
use, then re-runs itself inside it.

Positions come from random play driven by gnubg itself (random dice, a uniformly random choice
among gnubg's distinct results, including passes), so they cover entering from the bar,
blocked entry, hits, partial plays and bearing off. Each position is checked with the roll
played there and with one more random roll. For every (position, roll) pair the complete set of
resulting positions from cowrie (`experiments/examples/legal.rs`, i.e. `run_legal`) must equal
gnubg's; a roll gnubg cannot play must be cowrie's single `pass`.

Usage:
  python3 tools/crosscheck_gnubg.py [--pairs N] [--seed S]   # compare N pairs (default 100000)
  python3 tools/crosscheck_gnubg.py --pairs 2000 --profile dev   # CI: a dev build is enough
  python3 tools/crosscheck_gnubg.py --perft                  # print perft counts from gnubg
Exit status 0 when everything agrees, 1 on any mismatch.
"""

import argparse
import json
import os
import random
import subprocess
import sys
import time

from gnubg_venv import ROOT, ensure_venv


def cowrie_binary(build, profile):
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    path = os.path.join(target, "release" if profile == "release" else "debug", "examples", "legal")
    if build:
        subprocess.check_call(
            ["cargo", "build", "-q", "--profile", profile, "-p", "cowrie-experiments", "--example", "legal"],
            cwd=ROOT,
        )
    return path


def view(board):
    """gnubg board [opponent, mover] (25 each, index 24 the bar) -> cowrie's mover view."""
    opp, me = board
    points = [me[i] - opp[23 - i] for i in range(24)]
    return (tuple(points), (me[24], opp[24]), (15 - sum(me), 15 - sum(opp)))


def as_json(v, dice):
    return json.dumps({"points": list(v[0]), "bar": list(v[1]), "off": list(v[2]), "dice": dice})


def gnubg_results(g, board, d1, d2):
    keys = g.moves(board, d1, d2)
    if not keys:
        return {view(board)}, []
    boards = [g.boardfromkey(k) for k in keys]
    return {view(b) for b in boards}, boards


def generate(g, pairs, seed):
    """Random play with gnubg's own move generator: (board, dice, expected set) triples."""
    rng = random.Random(seed)
    out = []
    board = g.board_from_position_id("4HPwATDgc/ABMA")
    while len(out) < pairs:
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        expected, boards = gnubg_results(g, board, d1, d2)
        out.append((board, [d1, d2], expected))
        e1, e2 = rng.randint(1, 6), rng.randint(1, 6)
        out.append((board, [e1, e2], gnubg_results(g, board, e1, e2)[0]))
        after = rng.choice(boards) if boards else board
        if sum(after[1]) == 0:
            board = g.board_from_position_id("4HPwATDgc/ABMA")
        else:
            board = [list(after[1]), list(after[0])]
    return out[:pairs]


def crosscheck(g, args):
    t0 = time.time()
    cases = generate(g, args.pairs, args.seed)
    t1 = time.time()
    lines = "\n".join(as_json(view(b), d) for b, d, _ in cases) + "\n"
    proc = subprocess.run(
        [cowrie_binary(not args.no_build, args.profile), "modern"],
        input=lines.encode(),
        stdout=subprocess.PIPE,
        check=True,
    )
    t2 = time.time()
    outs = proc.stdout.decode().splitlines()
    assert len(outs) == len(cases), (len(outs), len(cases))
    mismatches = 0
    stats = {"bar": 0, "pass": 0, "bearoff": 0, "hits": 0, "partial": 0}
    for (board, dice, expected), line in zip(cases, outs):
        o = json.loads(line)
        got = {(tuple(r["position"]["points"]), tuple(r["position"]["bar"]),
                tuple(r["position"]["off"])) for r in o["results"]}
        v = view(board)
        stats["bar"] += v[1][0] > 0
        stats["pass"] += o["results"][0]["play"] == "pass"
        stats["bearoff"] += any(p[2][0] > v[2][0] for p in got)
        stats["hits"] += any(p[1][1] > v[1][1] for p in got)
        if got != expected:
            mismatches += 1
            if mismatches <= 5:
                print("MISMATCH", as_json(v, dice), o.get("position_id"))
                print("  only cowrie:", sorted(got - expected))
                print("  only gnubg: ", sorted(expected - got))
    print(f"pairs compared: {len(cases)}  mismatches: {mismatches}")
    print("coverage (pairs): mover on the bar {bar}, no legal play {pass}, "
          "bear-off possible {bearoff}, a hit possible {hits}".format(**stats))
    print(f"time: generate+gnubg {t1 - t0:.1f}s, cowrie (incl. build) {t2 - t1:.1f}s")
    return 1 if mismatches else 0


def perft_rows(g):
    """Perft through chance nodes, counted as cowrie's `perft` counts them: every roll (21,
    unweighted) and every distinct play; a pass counts as one play."""
    start = g.board_from_position_id("4HPwATDgc/ABMA")
    rolls = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]

    def children(board, d1, d2):
        keys = g.moves(board, d1, d2)
        if not keys:
            return [[list(board[1]), list(board[0])]]
        out = []
        for k in keys:
            b = g.boardfromkey(k)
            out.append([list(b[1]), list(b[0])])
        return out

    def perft(board, depth):
        if depth == 0:
            return 1
        if sum(board[0]) == 0:  # the player who just moved has borne off everything
            return 0
        total = 0
        for d1, d2 in rolls:
            kids = children(board, d1, d2)
            if depth == 1:
                total += len(kids)
            else:
                total += sum(perft(k, depth - 1) for k in kids)
        return total

    rows = [("roll", d, perft(start, d)) for d in (1, 2, 3)]
    # From the modern opening: 30 ordered pairs of different dice; the higher plays them.
    for depth in (1, 2):
        total = 0
        for a in range(1, 7):
            for b in range(1, 7):
                if a == b:
                    continue
                kids = children(start, a, b)
                total += len(kids) if depth == 1 else sum(perft(k, depth - 1) for k in kids)
        rows.append(("opening", depth, total))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pairs", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-build", action="store_true", help="use the already built example")
    ap.add_argument("--profile", choices=["release", "dev"], default="release",
                    help="cargo profile of the example (dev reuses a CI test build's dependencies)")
    ap.add_argument("--perft", action="store_true", help="print perft counts from gnubg-nn")
    args = ap.parse_args()
    ensure_venv()
    import gnubg_nn as g

    if args.perft:
        t0 = time.time()
        for start, depth, n in perft_rows(g):
            print(start, depth, n)
        print(f"# {time.time() - t0:.1f}s", file=sys.stderr)
        return 0
    return crosscheck(g, args)


if __name__ == "__main__":
    sys.exit(main())
