"""The virtual environment in tools/.venv (gitignored) that holds GNU Backgammon's evaluator, the
`gnubg-nn` package from PyPI, for the tools that use it (crosscheck_gnubg.py, gnubg_agent.py)."""

import fcntl
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV = os.path.join(ROOT, "tools", ".venv")
VENV_PY = os.path.join(VENV, "bin", "python")


def ensure_venv():
    """Returns if gnubg_nn is importable; otherwise installs it into tools/.venv (one installer at
    a time, so parallel callers wait for the first) and re-runs the calling script inside it."""
    try:
        import gnubg_nn  # noqa: F401

        return
    except ImportError:
        pass
    if os.path.abspath(sys.prefix) == os.path.abspath(VENV):
        sys.exit("gnubg-nn is not importable inside tools/.venv; pip install --pre gnubg-nn failed?")
    with open(os.path.join(ROOT, "tools", ".venv.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not os.path.exists(VENV_PY):
            subprocess.check_call([sys.executable, "-m", "venv", VENV], stdout=sys.stderr)
        probe = subprocess.run([VENV_PY, "-c", "import gnubg_nn"], stderr=subprocess.DEVNULL)
        if probe.returncode != 0:
            subprocess.check_call([VENV_PY, "-m", "pip", "install", "-q", "--pre", "gnubg-nn"],
                                  stdout=sys.stderr)
    os.execv(VENV_PY, [VENV_PY] + sys.argv)
