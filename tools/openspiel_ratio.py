#!/usr/bin/env python3
"""Random-game speed of cowrie's Frangieh (`modern`, i.e. backgammon without the cube) against
OpenSpiel's backgammon, measured in the same run on the same machine.

OpenSpiel (PyPI `open_spiel`, installed into tools/.venv on first use) is driven from Python:
its figure includes the Python loop (chance sampling, `legal_actions`, `apply_action` calls),
so the ratio compares cowrie's Rust API with OpenSpiel's Python API, not the two C++ cores.
OpenSpiel's actions are checker-move pairs, not distinct resulting positions, so its branching
differs; plies per game are printed for both.

Usage: python3 tools/openspiel_ratio.py [--seconds S] [--games N]
"""

import argparse
import json
import os
import random
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV = os.path.join(ROOT, "tools", ".venv")
VENV_PY = os.path.join(VENV, "bin", "python")


def ensure_venv():
    try:
        import pyspiel  # noqa: F401

        return
    except ImportError:
        pass
    if os.path.abspath(sys.prefix) == os.path.abspath(VENV):
        sys.exit("pyspiel is not importable inside tools/.venv; pip install open_spiel failed?")
    if not os.path.exists(VENV_PY):
        subprocess.check_call([sys.executable, "-m", "venv", VENV])
    subprocess.check_call([VENV_PY, "-m", "pip", "install", "-q", "open_spiel"])
    os.execv(VENV_PY, [VENV_PY] + sys.argv)


def openspiel_rate(seconds):
    import pyspiel

    game = pyspiel.load_game("backgammon")
    rng = random.Random(1)
    start = time.perf_counter()
    games = plies = 0
    while time.perf_counter() - start < seconds:
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                r, acc = rng.random(), 0.0
                for action, p in outcomes:
                    acc += p
                    if r < acc:
                        break
                s.apply_action(action)
            else:
                legal = s.legal_actions()
                s.apply_action(legal[rng.randrange(len(legal))])
                plies += 1
        games += 1
    secs = time.perf_counter() - start
    return games / secs, plies / games


def cowrie_rate(games):
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    subprocess.check_call(
        ["cargo", "build", "--release", "-q", "-p", "cowrie-experiments", "--example", "frangieh_speed"],
        cwd=ROOT,
    )
    out = subprocess.check_output([os.path.join(target, "release", "examples", "frangieh_speed"), str(games)])
    r = json.loads(out)
    return r["games_per_second"], r["plies"] / r["games"]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=10.0, help="OpenSpiel measuring time")
    ap.add_argument("--games", type=int, default=20000, help="cowrie games")
    args = ap.parse_args()
    ensure_venv()
    c, cp = cowrie_rate(args.games)
    o, op = openspiel_rate(args.seconds)
    print(f"cowrie frangieh/modern (Rust API, 1 thread): {c:,.0f} games/s ({cp:.1f} plies/game)")
    print(f"OpenSpiel backgammon (Python loop over pyspiel): {o:,.0f} games/s ({op:.1f} plies/game)")
    print(f"ratio cowrie/OpenSpiel: {c / o:.0f}x  (OpenSpiel's figure includes Python's loop)")


if __name__ == "__main__":
    main()
