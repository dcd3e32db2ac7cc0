#!/usr/bin/env python3
"""GNU Backgammon as a cowrie external agent, for Frangieh `modern` (cubeless money play).

Speaks cowrie's external-agent protocol (docs/agents.md): reads JSON lines on stdin, a `hello`
line and then one `move` line per decision, and answers each move with
`{"action": "<one of the legal actions>"}`. The move is GNU Backgammon's own choice at the
chosen ply (`gnubg_nn.best_move(board, d1, d2, n=PLY)`, cubeless, gammons and backgammons
counted as `modern` counts them); it is matched to cowrie's legal action by the resulting
position, which the protocol sends beside every action. A resulting position that matches no
action, or a variant other than `modern`, is an error: the tool exits with status 1 and a
message on stderr, which cowrie records as a forfeit (`forfeit-crash`), never silently.

GNU Backgammon's evaluator comes from the `gnubg-nn` package on PyPI, installed into
tools/.venv (gitignored) on first use, as tools/crosscheck_gnubg.py does. Install it once
before a parallel run, so no move waits for pip:

  python3 tools/gnubg_agent.py --install
  cowrie match --game frangieh --variant modern \\
      --p1 'external:cmd=python3 tools/gnubg_agent.py --ply 0' --p2 expectimax:depth=2 ...

Options: --ply N (0, 1 or 2; default 0): the plies of gnubg's search.
"""

import argparse
import json
import sys

from gnubg_venv import ensure_venv


def parse_side(text):
    """One player's part of cowrie's Frangieh notation (`24:2,13:5,bar:1,off:3`, the player's own
    numbering) -> gnubg's 25 counts (index i = point i + 1, index 24 = the bar)."""
    counts = [0] * 25
    if text in ("", "-"):
        return counts
    for item in text.split(","):
        slot, n = item.split(":")
        if slot == "off":
            continue
        counts[24 if slot == "bar" else int(slot) - 1] += int(n)
    return counts


def parse_position(notation):
    """cowrie's Frangieh notation -> (sides per seat, seat to move, dice or None)."""
    board, turn, phase, _plies = notation.split(" ")
    a, b = board.split("/")
    dice = None
    if "-" in phase:
        d1, d2 = phase.split("-")
        dice = (int(d1), int(d2))
    return (parse_side(a), parse_side(b)), int(turn), dice


def choose(g, message, ply):
    sides, seat, dice = parse_position(message["position"])
    me, opp = sides[seat - 1], sides[2 - seat]
    if dice is None:
        raise ValueError(f"no dice to play in '{message['position']}'")
    _moves, key = g.best_move([opp, me], dice[0], dice[1], n=ply, b=1)
    # best_move's key is the position after the play seen by the opponent, now on roll.
    after_me, after_opp = g.boardfromkey(key)
    want = (tuple(after_me), tuple(after_opp))
    for action, after in zip(message["actions"], message["after"]):
        s, _, _ = parse_position(after)
        if (tuple(s[seat - 1]), tuple(s[2 - seat])) == want:
            return action
    raise ValueError(f"gnubg's play {_moves} at '{message['position']}' matches no legal action")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ply", type=int, choices=[0, 1, 2], default=0)
    ap.add_argument("--install", action="store_true", help="install gnubg-nn into tools/.venv and exit")
    args = ap.parse_args()
    ensure_venv()
    import gnubg_nn as g

    if args.install:
        print("gnubg-nn is installed in", sys.prefix)
        return 0
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            if message.get("game") != "frangieh" or message.get("variant") != "modern":
                sys.exit(f"gnubg_agent plays frangieh 'modern' only, not {message.get('game')} "
                         f"'{message.get('variant')}'")
            continue
        if kind != "move":
            continue
        try:
            action = choose(g, message, args.ply)
        except Exception as e:  # reported on stderr; exiting makes cowrie record the forfeit
            sys.exit(f"gnubg_agent: {e}")
        sys.stdout.write(json.dumps({"action": action}) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
