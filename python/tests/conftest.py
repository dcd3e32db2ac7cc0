"""Shared fixtures: the `cowrie` binary the Python package is checked against."""

import csv
import io
import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _binary() -> Path:
    given = os.environ.get("COWRIE_BIN")
    if given:
        return Path(given)
    target = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    if not target.is_absolute():
        target = REPO / target
    for profile in ("debug", "release"):
        p = target / profile / "cowrie"
        if p.exists():
            return p
    pytest.fail("no cowrie binary: run `cargo build` first or set COWRIE_BIN")


@pytest.fixture(scope="session")
def cowrie_bin() -> Path:
    return _binary()


class Cli:
    """Runs the `cowrie` binary."""

    def __init__(self, binary: Path):
        self.binary = binary

    def run(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run([str(self.binary), *args], capture_output=True, text=True)

    def match(self, out: Path, *args: str) -> str:
        """`cowrie match ARGS --out OUT --quiet`: the text of its games.csv."""
        r = self.run("match", *args, "--out", str(out), "--quiet")
        assert r.returncode == 0, r.stderr
        return (out / "games.csv").read_text()

    def error(self, *args: str) -> str:
        """The one-line error of a refused command (exit code 2), without `error: `."""
        r = self.run(*args)
        assert r.returncode == 2, (r.returncode, r.stderr)
        line = r.stderr.strip()
        assert "\n" not in line
        return line[len("error: "):] if line.startswith("error: ") else line


@pytest.fixture(scope="session")
def cli(cowrie_bin: Path) -> Cli:
    return Cli(cowrie_bin)


def rows(text: str):
    return list(csv.DictReader(io.StringIO(text, newline="")))
