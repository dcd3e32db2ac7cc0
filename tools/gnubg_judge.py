#!/usr/bin/env python3
"""Judges the plays of recorded Frangieh `modern` games by GNU Backgammon's 0-ply evaluator.

For every ply of the judged games, GNU Backgammon lists the distinct positions the dice can
reach (`gnubg_nn.moves`) and evaluates each at 0 ply, cubeless, from the mover's view (the
equity `2 win - 1 + win gammon + win backgammon - lose gammon - lose backgammon`, as `modern`
scores a game; a finished game its exact points). A play's equity loss is the best of them minus
the played one. Plies with one reachable position (forced, or no play) are counted apart and not
judged. A played position that is not among gnubg's is an error (the two move generators
disagree), never skipped.

Input: the JSON lines `cowrie replay FILE --plies OUT.jsonl` writes (each ply's position before
and after, in cowrie's Frangieh notation). Output: one CSV row per agent and seat (1, 2, both):
judged plays, forced plies, games, the mean equity loss per judged play with a 95% interval
clustered by game (the ratio estimator over games, as docs/metrics.md treats clustered rates),
and the share of plays that lose more than 0.05 (gnubg's "doubtful" threshold is 0.04).

  cowrie match --game frangieh --variant modern --p1 td:ply=1 \\
      --p2 'external:cmd=python3 tools/gnubg_agent.py --ply 0' --games 2000 --record --out RUN
  cowrie replay RUN/records.jsonl --quiet --plies RUN/plies.jsonl
  python3 tools/gnubg_judge.py RUN/plies.jsonl --out RUN/equity_loss.csv

GNU Backgammon's evaluator is the `gnubg-nn` package in tools/.venv (tools/gnubg_venv.py).
"""

import argparse
import csv
import json
import math
import sys
from collections import defaultdict

from gnubg_agent import parse_position
from gnubg_venv import ensure_venv

# Equity losses above this count as errors in the summary's share.
ERROR = 0.05


def finished(me, opp):
    """The mover's exact points when its play bore off its last checker (else None): 1, a
    gammon 2 (the opponent has borne off none), a backgammon 3 (and has a checker on the bar or
    in the mover's home board, the opponent's points 19 to 24)."""
    if sum(me) != 0:
        return None
    if sum(opp) < 15:
        return 1.0
    return 3.0 if sum(opp[18:25]) > 0 else 2.0


def mover_equity(g, me, opp):
    """The 0-ply cubeless equity, for the player who just moved, of the position (`me` moved,
    `opp` on roll; gnubg's 25 counts each)."""
    done = finished(me, opp)
    if done is not None:
        return done
    w, wg, wbg, lg, lbg = g.probabilities([list(me), list(opp)], 0)
    # Probabilities of the player on roll (opp); the mover's equity is its negation.
    return -(2 * w - 1 + wg + wbg - lg - lbg)


def judge_ply(g, line):
    """(loss, forced) of one ply; loss None for a forced ply."""
    sides, seat, dice = parse_position(line["before"])
    if dice is None:
        raise ValueError(f"ply {line['ply']} of game {line['game_index']}: no dice in '{line['before']}'")
    me, opp = sides[seat - 1], sides[2 - seat]
    keys = g.moves([opp, me], dice[0], dice[1])
    keys = [k if isinstance(k, str) else k[0] for k in keys]
    if len(keys) <= 1:
        return None, True
    values = {}
    for k in keys:
        # A key of `moves` decodes to the opponent's side first, then the mover's after the play.
        after_opp, after_me = g.boardfromkey(k)
        values[(tuple(after_me), tuple(after_opp))] = mover_equity(g, after_me, after_opp)
    after, _, _ = parse_position(line["after"])
    played = (tuple(after[seat - 1]), tuple(after[2 - seat]))
    if played not in values:
        raise ValueError(
            f"ply {line['ply']} of game {line['game_index']}: the played position of "
            f"'{line['action']}' is none of gnubg's {len(values)} at '{line['before']}'"
        )
    return max(values.values()) - values[played], False


def clustered(per_game):
    """Mean loss per play over games [(loss sum, plays)], with its 95% interval clustered by
    game (ratio estimator; normal approximation)."""
    n = len(per_game)
    plays = sum(m for _, m in per_game)
    if plays == 0:
        return float("nan"), float("nan"), float("nan")
    mean = sum(s for s, _ in per_game) / plays
    if n < 2:
        return mean, float("nan"), float("nan")
    mbar = plays / n
    var = sum((s - mean * m) ** 2 for s, m in per_game) / (n - 1) / (n * mbar * mbar)
    half = 1.959964 * math.sqrt(var)
    # A play's loss is never negative, so neither is the interval's lower end.
    return mean, max(0.0, mean - half), mean + half


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("plies", help="the JSON lines of `cowrie replay FILE --plies OUT.jsonl`")
    ap.add_argument("--out", help="the CSV to write (default: print it)")
    args = ap.parse_args()
    ensure_venv()
    import gnubg_nn as g

    # (agent, seat) -> game -> [loss sum, plays]; forced plies and errors per (agent, seat).
    sums = defaultdict(lambda: defaultdict(lambda: [0.0, 0]))
    forced = defaultdict(int)
    errors = defaultdict(int)
    with open(args.plies) as f:
        for n, text in enumerate(f, 1):
            line = json.loads(text)
            if not line["before"].count(" ") == 3:
                sys.exit(f"{args.plies} line {n}: not a Frangieh position: '{line['before']}'")
            loss, was_forced = judge_ply(g, line)
            for seat in (str(line["seat"]), "both"):
                key = (line["agent"], seat)
                if was_forced:
                    forced[key] += 1
                    continue
                cell = sums[key][line["game_index"]]
                cell[0] += loss
                cell[1] += 1
                errors[key] += loss > ERROR
    keys = sorted(set(sums) | set(forced))
    out = open(args.out, "w", newline="") if args.out else sys.stdout
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["agent", "seat", "judged", "forced", "games", "mean_loss", "ci95_low", "ci95_high",
                "error_share"])
    for key in keys:
        per_game = list(sums[key].values())
        judged = sum(m for _, m in per_game)
        mean, lo, hi = clustered(per_game)
        share = errors[key] / judged if judged else float("nan")
        w.writerow([key[0], key[1], judged, forced[key], len(per_game), f"{mean:.6f}", f"{lo:.6f}",
                    f"{hi:.6f}", f"{share:.6f}"])
    if args.out:
        out.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
