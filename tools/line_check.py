#!/usr/bin/env python3
"""Checks the line mode of `cowrie play --line` through a pseudo-terminal, as a person at a
terminal without a browser meets it (Python's `pty` module; no other dependency).

It starts `cowrie play --line` on Baghchal (the tigers win on their fifth capture), the person
as the tigers against `random`, and plays one whole game to its end by
typing move numbers: a capture where one is legal, otherwise a move drawn with a fixed seed.
On the way it types an illegal move (a goat's placement, which a tiger cannot make), a
malformed one and a number past the last move, and checks that each gets one `error:` line and
leaves the game as it was (the same position and the same numbered moves, asked again with
`moves`); at the end, the game-over line and a clean `quit`. `tools/play_check.py` runs it
first, before the browser.

  python3 tools/line_check.py [--cowrie target/debug/cowrie]
"""

import argparse
import os
import pty
import random
import re
import select
import subprocess
import sys
import termios
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# A wait for the program's next prompt longer than this is a failure.
WAIT = 60
# More of the person's moves than this without an end is a failure (the tigers capture sooner).
MAX_MOVES = 500


def fail(msg):
    sys.exit("line check: FAILED: " + msg)


class Terminal:
    """`cowrie play --line` on the slave side of a pseudo-terminal, read and typed at from the
    master side."""

    def __init__(self, args):
        self.master, slave = pty.openpty()
        # No echo: what is read back is the program's output only.
        attrs = termios.tcgetattr(slave)
        attrs[3] &= ~termios.ECHO
        termios.tcsetattr(slave, termios.TCSANOW, attrs)
        self.proc = subprocess.Popen(args, stdin=slave, stdout=slave, stderr=slave, close_fds=True)
        os.close(slave)
        if not os.isatty(self.master):
            fail("the pseudo-terminal is not a terminal")

    def until_prompt(self):
        """The output up to and including the next `> ` prompt (or the end of the output)."""
        out = b""
        deadline = time.monotonic() + WAIT
        while not out.endswith(b"> "):
            left = deadline - time.monotonic()
            if left <= 0:
                fail(f"no prompt within {WAIT} s; the output ends {out[-300:]!r}")
            ready, _, _ = select.select([self.master], [], [], left)
            if not ready:
                continue
            try:
                chunk = os.read(self.master, 65536)
            except OSError:  # EIO: the program closed the terminal.
                break
            if not chunk:
                break
            out += chunk
        return out.decode().replace("\r\n", "\n")

    def type(self, line):
        """Types `line` and Enter; the output up to the next prompt."""
        os.write(self.master, (line + "\n").encode())
        return self.until_prompt()

    def close(self):
        try:
            code = self.proc.wait(timeout=WAIT)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
            os.close(self.master)
        return code


def moves(text):
    """The numbered moves the text lists, in order."""
    return re.findall(r"^\s+\d+\. (\S+)", text, re.M)


def position(text):
    """The last position line of the text."""
    found = re.findall(r"^position: (.+)$", text, re.M)
    return found[-1] if found else None


def check(cowrie):
    args = [cowrie, "play", "--line", "--game", "baghchal",
            "--agent", "random", "--seat", "2", "--seed", "5"]
    term = Terminal(args)
    rng = random.Random(11)
    try:
        text = term.until_prompt()
        if "you play seat 2 (tigers)" not in text:
            fail(f"the header does not say the person plays the tigers: {text[:300]!r}")
        at, legal = position(text), moves(text)
        if not at or not legal:
            fail(f"no position or no numbered moves at the start: {text[-600:]!r}")
        # Bad input, each refused on one line, the game as it was.
        for bad, needle in [("c3", "error: "), ("zz9", "malformed"),
                            (str(len(legal) + 1), f"no move numbered {len(legal) + 1}")]:
            reply = term.type(bad)
            errors = [l for l in reply.splitlines() if l.startswith("error: ")]
            if len(errors) != 1 or needle not in reply or position(reply) is not None:
                fail(f"'{bad}' was not refused on one line without a move: {reply!r}")
            again = term.type("moves")
            if moves(again) != legal:
                fail(f"after '{bad}' the moves are {moves(again)}, not {legal}")
        played = 0
        while "game over" not in text:
            if played == MAX_MOVES:
                fail(f"no end after {MAX_MOVES} moves")
            legal = moves(text)
            if not legal:
                legal = moves(term.type("moves"))
            if not legal:
                fail(f"no moves listed: {text[-600:]!r}")
            captures = [i for i, m in enumerate(legal) if "x" in m]
            k = captures[0] if captures else rng.randrange(len(legal))
            text = term.type(str(k + 1))
            if f"seat 2 (you) plays {legal[k]}" not in text:
                fail(f"move {k + 1} ({legal[k]}) was not played: {text[:400]!r}")
            new = position(text)
            if new is None or new == at:
                fail(f"the position did not change after {legal[k]}: {text[-600:]!r}")
            at = new
            played += 1
        over = re.search(r"^game over after (\d+) plies: (.+)$", text, re.M)
        if not over:
            fail(f"no game-over line: {text[-600:]!r}")
        os.write(term.master, b"quit\n")
        code = term.close()
        if code != 0:
            fail(f"quit ended the program with exit code {code}")
        print(f"line check: baghchal through a pseudo-terminal: {played} moves typed, "
              f"game over after {over.group(1)} plies ({over.group(2)}); an illegal, a malformed and "
              f"an out-of-range move refused on one line each, the game unchanged")
    except BaseException:
        if term.proc.poll() is None:
            term.proc.kill()
        raise


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cowrie", default=os.path.join(
        os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target")), "debug", "cowrie"))
    check(os.path.abspath(ap.parse_args().cowrie))


if __name__ == "__main__":
    main()
