"""Ctrl-C stops play_match as SIGINT stops `cowrie match`: the games being played are finished
and written, the manifest says `interrupted`, KeyboardInterrupt is raised, and resume=True plays
the rest into the files of an uninterrupted run."""

import os
import signal
import subprocess
import sys
import textwrap
import time

import cowrie

# A match slow enough to be stopped part of the way (about a second in all on two threads).
MATCH = dict(game="baghchal", p1="mcts:iterations=1000", p2="random", games=40, seed=3,
             threads=2, record=True)

CHILD = textwrap.dedent(
    """
    import signal, sys
    import cowrie
    # Python's own Ctrl-C handler, even where this process was started with SIGINT ignored.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        cowrie.play_match(**{match!r}, out=sys.argv[1])
    except KeyboardInterrupt as e:
        print(e, flush=True)
        sys.exit(42)
    print("complete", flush=True)
    """
).format(match=MATCH)


def _rows_written(path):
    try:
        with open(path, encoding="utf-8") as f:
            return sum(1 for _ in f) - 1
    except FileNotFoundError:
        return -1


def test_ctrl_c_leaves_a_run_that_resumes_to_the_uninterrupted_files(tmp_path):
    stopped = tmp_path / "stopped"
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(stopped)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        # Ctrl-C once the first games are on disk.
        deadline = time.monotonic() + 60
        while _rows_written(stopped / "games.csv") < 1 and child.poll() is None:
            assert time.monotonic() < deadline, "no game was written within 60 s"
            time.sleep(0.005)
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=60)
    finally:
        child.kill()
    assert child.returncode == 42, (child.returncode, out, err)
    run = cowrie.read_run(stopped)
    written = len(run.games)
    assert 0 < written < MATCH["games"], written
    assert out.strip() == (f"interrupted: {written} of {MATCH['games']} games are in "
                           f"'{stopped}'; call play_match again with resume=True to continue")
    assert run.status == "interrupted"
    assert run.manifest["games_written"] == written
    # Every row on disk is a finished game the manifest vouches for, and no more.
    for name in ("games.csv", "records.jsonl"):
        assert os.path.getsize(stopped / name) == run.manifest["files"][name]["bytes"]
    assert len(run.records) == written
    assert not (stopped / "summary.csv").exists()

    resumed = cowrie.play_match(**MATCH, out=stopped, resume=True)
    whole = cowrie.play_match(**MATCH, out=tmp_path / "whole")
    assert resumed.csv == whole.csv
    for name in ("games.csv", "records.jsonl", "summary.csv"):
        assert (stopped / name).read_bytes() == (tmp_path / "whole" / name).read_bytes(), name
    assert cowrie.read_run(stopped).status == "complete"
    assert "--resume" in cowrie.read_run(stopped).manifest["command_line"]
