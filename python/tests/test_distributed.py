"""cowrie.distributed on real Ray clusters started here, on a loopback address only: a match or
a study spread over Ray tasks and merged equals the unsharded `cowrie match` / `cowrie study`
run of the binary, byte for byte; a worker killed mid-shard is retried, resumes, and the run
still ends identical.

Skipped when Ray is not installed, unless COWRIE_REQUIRE_CLUSTER=1 (as CI sets it), under which
a missing Ray is a failure.
"""

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

REQUIRED = os.environ.get("COWRIE_REQUIRE_CLUSTER") == "1"
# Light clusters, for this process and every `ray start` it runs: no usage reporting, and no
# token authentication (each node started by hand would need the token; every address is a
# loopback one).
os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
os.environ.setdefault("RAY_AUTH_MODE", "disabled")
try:
    import ray
except ImportError:
    if REQUIRED:
        pytest.fail("COWRIE_REQUIRE_CLUSTER=1 but Ray is not installed: "
                    "pip install './python[ray]'", pytrace=False)
    pytest.skip("Ray is not installed (pip install './python[ray]')", allow_module_level=True)

from cowrie import distributed  # noqa: E402

# Light clusters: a small object store, no dashboard, no usage reporting.
OBJECT_STORE = 200 * 1024 * 1024
# Every node and driver on a loopback address, never the machine's other addresses. Not
# 127.0.0.1 itself: Ray takes "127.0.0.1" and "localhost" as a node's address to mean "this
# machine" and replaces them with the address of its outward network interface (unless clusters
# are switched off, which refuses a second node); another address of the loopback range is kept.
LOOPBACK = "127.0.0.2"
os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")

# A match of seat-swapped pairs whose games take a few milliseconds each, records included.
MATCH = dict(game="frangieh", variant="modern", p1="expectimax:depth=1", p2="heuristic",
             games=40, seed=3, record=True)
MATCH_ARGS = ["--game", "frangieh", "--variant", "modern", "--p1", "expectimax:depth=1",
              "--p2", "heuristic", "--games", "40", "--seed", "3", "--record"]


def files(root: Path) -> dict:
    return {p.relative_to(root).as_posix(): p.read_bytes()
            for p in sorted(root.rglob("*")) if p.is_file()}


def assert_same_run(got: Path, expected: Path) -> None:
    """`got` holds the files of the run in `expected`: the same files, each byte for byte but
    the manifests (which record the command line, times and host) and the run pages (whose
    title counts distinct games, which a merge does not count); of every manifest, what
    defines the run and the length and SHA-256 of each file it vouches for."""
    a, b = files(got), files(expected)
    assert sorted(a) == sorted(b)
    for name in a:
        leaf = name.rsplit("/", 1)[-1]
        if leaf == "manifest.json":
            ma, mb = json.loads(a[name]), json.loads(b[name])
            assert ma["status"] == mb["status"] == "complete", name
            assert ma["run"] == mb["run"], name
            fa = {k: v for k, v in ma.get("files", {}).items() if k != "index.html"}
            fb = {k: v for k, v in mb.get("files", {}).items() if k != "index.html"}
            assert fa == fb, name
        elif leaf != "index.html":
            assert a[name] == b[name], name


def cli_run(cowrie_bin: Path, cwd: Path, *args: str) -> None:
    """`cowrie ARGS` in `cwd` (the study's README names its --out as given)."""
    cwd.mkdir(parents=True, exist_ok=True)
    r = subprocess.run([str(cowrie_bin), *args], cwd=cwd, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


@pytest.fixture(scope="module")
def binary(cowrie_bin) -> Path:
    """The `cowrie` binary's absolute path: the tests change directory."""
    return Path(cowrie_bin).resolve()


@pytest.fixture(scope="module")
def unsharded_match(binary, tmp_path_factory) -> Path:
    """`cowrie match` of MATCH, unsharded, by the binary."""
    out = tmp_path_factory.mktemp("cli") / "match"
    cli_run(binary, out.parent, "match", *MATCH_ARGS, "--threads", "2", "--out", "match",
            "--quiet")
    return out


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, object_store_memory=OBJECT_STORE, include_dashboard=False,
             log_to_driver=False, _node_ip_address=LOOPBACK)
    try:
        yield
    finally:
        ray.shutdown()


def test_match_in_four_shards_is_the_unsharded_run(local_ray, unsharded_match, tmp_path,
                                                   monkeypatch, capfd):
    monkeypatch.chdir(tmp_path)
    run = distributed.run_match(**MATCH, out="match", shards=4, progress=True)
    assert_same_run(tmp_path / "match", unsharded_match)
    assert len(run.games) == 40 and run.status == "complete"
    # One bar over all shards, on stderr.
    assert "4/4" in capfd.readouterr().err


def test_study_in_three_shards_is_the_unsharded_study(local_ray, binary, tmp_path,
                                                      monkeypatch):
    # The same relative --out in two directories: the study's README names it.
    cli_run(binary, tmp_path / "cli", "study", "--games", "6", "--name", "ray-check",
            "--out", "study", "--quiet", "--threads", "1")
    (tmp_path / "ray").mkdir()
    monkeypatch.chdir(tmp_path / "ray")
    distributed.run_study("study", shards=3, games=6, name="ray-check", progress=False)
    assert_same_run(tmp_path / "ray" / "study", tmp_path / "cli" / "study")
    # And every file, the run pages too, is what `cowrie merge` makes of the binary's shards.
    shards = tmp_path / "cli-shards"
    for k in (1, 2, 3):
        cli_run(binary, shards, "study", "--games", "6", "--name", "ray-check",
                "--out", f"s{k}", "--quiet", "--threads", "1", "--shard", f"{k}/3")
    cli_run(binary, shards, "merge", "--out", "study", "s1", "s2", "s3")
    a, b = files(tmp_path / "ray" / "study"), files(shards / "study")
    assert sorted(a) == sorted(b)
    assert {n: a[n] for n in a if not n.endswith("manifest.json")} == \
        {n: b[n] for n in b if not n.endswith("manifest.json")}


def test_run_command_takes_only_the_commands_the_package_wraps(tmp_path):
    from cowrie._cowrie import run_command

    with pytest.raises(ValueError, match="runs only cowrie match, study, merge, tournament, "
                                         "ladder and converge"):
        run_command(["cowrie", "rules", "--game", "baghchal"])
    with pytest.raises(ValueError, match="--shard '3/2'"):
        run_command(["cowrie", "match", "--game", "baghchal", "--p1", "random", "--p2", "random",
                     "--games", "4", "--shard", "3/2", "--out", str(tmp_path / "m")])


def test_import_cowrie_does_not_load_ray():
    code = "import sys, cowrie; assert 'ray' not in sys.modules, 'ray loaded'"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def kill_once_mid_shard(marks: str):
    """A `before_shard` hook: on a shard's first attempt, kills its worker process (SIGKILL)
    as soon as the shard's first games are on disk; on the next, notes whether the attempt
    resumes the killed one's directory."""

    def hook(k: int, n: int, directory: str) -> None:
        killed = os.path.join(marks, f"killed-{k}")
        if os.path.exists(killed):
            resumed = os.path.exists(os.path.join(directory, "manifest.json"))
            with open(os.path.join(marks, f"retried-{k}"), "w") as f:
                f.write("resumed" if resumed else "afresh")
            return
        open(killed, "w").close()

        def watch() -> None:
            games = os.path.join(directory, "games.csv")
            for _ in range(20000):
                try:
                    with open(games) as f:
                        if len(f.read().splitlines()) >= 2:
                            os.kill(os.getpid(), signal.SIGKILL)
                except FileNotFoundError:
                    pass
                time.sleep(0.001)

        threading.Thread(target=watch, daemon=True).start()

    return hook


def test_a_worker_killed_mid_shard_is_retried_and_the_run_is_unchanged(
        local_ray, binary, tmp_path, monkeypatch):
    args = dict(game="baghchal", p1="mcts:iterations=300", p2="heuristic", games=32, seed=5)
    cli_run(binary, tmp_path / "cli", "match", "--game", "baghchal", "--p1",
            "mcts:iterations=300", "--p2", "heuristic", "--games", "32", "--seed", "5",
            "--out", "match", "--quiet")
    marks = tmp_path / "marks"
    marks.mkdir()
    (tmp_path / "ray").mkdir()
    monkeypatch.chdir(tmp_path / "ray")
    distributed.run_match(**args, out="match", shards=2, progress=False, max_retries=2,
                          before_shard=kill_once_mid_shard(str(marks)))
    assert_same_run(tmp_path / "ray" / "match", tmp_path / "cli" / "match")
    # Each shard's first worker was killed, and its retry continued what it had written.
    assert sorted(p.name for p in marks.iterdir()) == \
        ["killed-1", "killed-2", "retried-1", "retried-2"]
    assert (marks / "retried-1").read_text() == "resumed"
    assert (marks / "retried-2").read_text() == "resumed"


def test_a_bad_argument_is_the_command_lines_error(local_ray, tmp_path):
    with pytest.raises(ValueError, match="unknown agent|'nobody'"):
        distributed.run_match("baghchal", "nobody", "random", 4, out=tmp_path / "m", shards=2,
                              progress=False, max_retries=0)
    assert not (tmp_path / "m").exists()


def test_an_out_that_holds_a_run_is_refused_before_any_shard(local_ray, unsharded_match,
                                                              tmp_path):
    marks = tmp_path / "started"
    marks.mkdir()
    with pytest.raises(ValueError, match="already holds a run"):
        distributed.run_match(**MATCH, out=unsharded_match, shards=2, progress=False,
                              before_shard=lambda k, n, d: (marks / str(k)).touch())
    assert not list(marks.iterdir())


def free_port() -> int:
    with socket.socket() as s:
        s.bind((LOOPBACK, 0))
        return s.getsockname()[1]


def ray_cli(*args: str, timeout: float = 120) -> None:
    ray_bin = Path(sys.executable).parent / "ray"
    r = subprocess.run([str(ray_bin), *args], capture_output=True, text=True, timeout=timeout)
    assert r.returncode == 0, (args, r.stdout[-2000:], r.stderr[-2000:])


def test_a_head_and_a_worker_node_play_the_unsharded_match(unsharded_match, tmp_path,
                                                           monkeypatch):
    if ray.is_initialized():
        ray.shutdown()
    port = free_port()
    light = ["--num-cpus=1", f"--object-store-memory={OBJECT_STORE}", "--disable-usage-stats"]
    marks = tmp_path / "nodes"
    marks.mkdir()

    def nodes() -> set:
        return {p.name.split("-", 1)[1] for p in marks.iterdir()}

    def note_node(k: int, n: int, directory: str) -> None:
        """Notes the shard's node, then waits (60 s at most) until a shard has started on each
        node: with one CPU a node, the first node's shard holds it, so the others must go to
        the second rather than wait for the first node's worker."""
        (marks / f"{k}-{ray.get_runtime_context().get_node_id()}").touch()
        deadline = time.monotonic() + 60
        while len(nodes()) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)

    try:
        ray_cli("start", "--head", f"--node-ip-address={LOOPBACK}", f"--port={port}",
                "--include-dashboard=false", *light)
        ray_cli("start", f"--address={LOOPBACK}:{port}", f"--node-ip-address={LOOPBACK}", *light)
        ray.init(address=f"{LOOPBACK}:{port}", log_to_driver=False, _node_ip_address=LOOPBACK)
        deadline = time.monotonic() + 60
        while sum(1 for n in ray.nodes() if n["Alive"]) < 2:
            assert time.monotonic() < deadline, "the worker node did not join within 60 s"
            time.sleep(0.5)
        monkeypatch.chdir(tmp_path)
        distributed.run_match(**MATCH, out="match", shards=4, progress=False,
                              before_shard=note_node)
        assert_same_run(tmp_path / "match", unsharded_match)
        assert len(nodes()) == 2, nodes()
    finally:
        if ray.is_initialized():
            ray.shutdown()
        ray_bin = Path(sys.executable).parent / "ray"
        subprocess.run([str(ray_bin), "stop", "--force"], capture_output=True, timeout=120)
