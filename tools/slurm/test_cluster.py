#!/usr/bin/env python3
"""Runs the job scripts of tools/slurm/ on a real Slurm cluster of one node, started here, and
checks that the runs they merge equal the unsharded runs byte for byte.

It installs Debian's slurmctld, slurmd, slurm-client and munge when they are missing (apt-get,
as root), writes a munge key and a slurm.conf for one node on 127.0.0.1 with four CPUs into a
state directory of its own, starts munged, slurmctld and slurmd there (inside a network
namespace of their own when `unshare --net` is allowed, so that nothing listens beyond the
loopback, which also gets 127.0.0.2: see LOOPBACK_UP), and then, through submit.sh:

1. a match (heuristic v random Baghchal, 4,000 games) as 4 shards and the merge;
2. the built-in study, 6 games a variant, as 4 shards (of 2, 2, 1 and 1 games) and the merge;
3. a match of 2 shards whose shard 1 is cancelled with scancel once it has written some games:
   the merge job is cancelled with it; the shard, submitted again (COWRIE_TASKS=1), continues
   with --resume, and its merge ends the run;
4. through solve.sh, the reduced Baghchal game (win-captures=2) solved down to the halves with
   18 goats placed: the movement phase, then each of the four halves as 4 units and a join; once
   the first half is joined every job left is cancelled with scancel, and solve.sh, run again,
   submits the halves left.

Each merged run must equal the same command run once without Slurm: the same files, every one
byte-identical (every CSV, README.md, plot and the study's index.html) but each manifest.json,
equal without the fields docs/conventions.md lets differ (times, threads, the command and its
command line, the distinct-game count; a solver database's, the commands that wrote it), and
each match's own index.html, whose title counts distinct games only in an unsharded run. It stops every job and daemon it started when it
ends, also on Ctrl-C, SIGTERM or SIGHUP; killed outright (SIGKILL), its daemons end with it
(PR_SET_PDEATHSIG) and its next run stops the job steps left behind. Without the packages
(not root, no apt-get, apt-get failing) it skips, unless COWRIE_REQUIRE_CLUSTER=1, under which
a skip is a failure. On a failure it prints the jobs' and daemons' logs. Its last line is
`slurm: P passed, F failed`.

  python3 tools/slurm/test_cluster.py --cowrie target/debug/cowrie [--keep]
"""

import argparse
import ctypes
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
PACKAGES = ["slurmctld", "slurmd", "slurm-client", "munge"]
PROGRAMS = ["munged", "slurmctld", "slurmd", "sbatch", "squeue", "scontrol", "scancel", "sinfo"]
# The fields of a manifest that a merged run may hold otherwise (docs/conventions.md, Shards), as
# the one list in experiments/src/run/manifest.rs (MERGED_MAY_DIFFER) defines them.
def merged_may_differ():
    source = (HERE.parent.parent / "experiments/src/run/manifest.rs").read_text()
    body = re.search(r"pub const MERGED_MAY_DIFFER: \[&str; \d+\] = \[(.*?)\];", source, re.S)
    if body is None:
        raise SystemExit("experiments/src/run/manifest.rs defines no MERGED_MAY_DIFFER")
    return re.findall(r'"([a-z_]+)"', body.group(1))


PROVENANCE = merged_may_differ()
# The longest any single wait may take (a job, a daemon, apt-get).
WAIT = 600
IN_NAMESPACE = "COWRIE_SLURM_NETNS"
# The state directories' names begin so, in the system's temporary directory.
STATE_PREFIX = "cowrie-slurm-"


class Failure(Exception):
    """A check that did not hold: the message says which."""


class Skip(Exception):
    """The cluster cannot be had on this machine: the message says why."""


def run(cmd, timeout=WAIT, **kw):
    """Runs `cmd`, returning its stdout; a non-zero exit or a timeout is a Failure."""
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, **kw)
    except subprocess.TimeoutExpired:
        raise Failure(f"{' '.join(map(str, cmd))}: no answer within {timeout} s")
    if p.returncode != 0:
        raise Failure(f"{' '.join(map(str, cmd))}: exit {p.returncode}\n{p.stdout}{p.stderr}")
    return p.stdout


def until(what, check, timeout=WAIT, every=0.5):
    """Calls `check` until it returns a true value, which it returns; Failure after `timeout`."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise Failure(f"{what}: not within {timeout} s")
        time.sleep(every)


def ensure_packages():
    """Installs the Debian packages if a program is missing; Skip if that cannot be done."""
    missing = [p for p in PROGRAMS if not shutil.which(p)]
    if not missing:
        return
    if os.geteuid() != 0:
        raise Skip(f"{', '.join(missing)} missing, and only root may install {' '.join(PACKAGES)}")
    if not shutil.which("apt-get"):
        raise Skip(f"{', '.join(missing)} missing, and no apt-get to install them")
    print(f"installing {' '.join(PACKAGES)} (apt-get)", flush=True)
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    wait_lock = "DPkg::Lock::Timeout=300"  # another apt-get may hold the lock a while
    for cmd in (
        ["apt-get", "-o", wait_lock, "update", "-q"],
        ["apt-get", "-o", wait_lock, "install", "-y", "-q", "--no-install-recommends", *PACKAGES],
    ):
        try:
            run(cmd, env=env)
        except Failure as e:
            raise Skip(f"apt-get failed: {str(e)[-2000:]}")
    missing = [p for p in PROGRAMS if not shutil.which(p)]
    if missing:
        raise Skip(f"{', '.join(missing)} still missing after installing {' '.join(PACKAGES)}")


# Brings the loopback of a new network namespace up. glibc's getaddrinfo, called by Slurm with
# AI_ADDRCONFIG, returns no IPv4 address while 127.0.0.1 is the only one configured: a second
# address of the loopback, 127.0.0.2, makes it answer (nothing binds to it).
LOOPBACK_UP = "ip link set lo up && ip addr add 127.0.0.2/8 dev lo"


def enter_network_namespace(argv):
    """Runs this test again inside a network namespace of its own, holding only the loopback,
    when the kernel allows it; otherwise says that the daemons share the machine's network."""
    if os.environ.get(IN_NAMESPACE) == "1":
        run(["sh", "-c", LOOPBACK_UP], timeout=30)
        return
    probe = shutil.which("unshare") and subprocess.run(
        ["unshare", "--net", "sh", "-c", LOOPBACK_UP], capture_output=True, timeout=30
    )
    if probe and probe.returncode == 0:
        os.environ[IN_NAMESPACE] = "1"
        sys.stdout.flush()
        os.execvp("unshare", ["unshare", "--net", sys.executable, *argv])
    print(
        "note: no network namespace (unshare --net, ip): the daemons run in this machine's "
        "network, slurmd and munged on 127.0.0.1 alone, slurmctld on every address"
    )


def terminate_with_parent():
    """Asks the kernel to send this process SIGTERM when its parent dies (PR_SET_PDEATHSIG), so
    that a daemon outlives no test, even one killed with SIGKILL."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(1, signal.SIGTERM, 0, 0, 0)


def free_ports(n):
    """`n` distinct TCP ports of 127.0.0.1 that nothing listens on now."""
    sockets = [socket.socket() for _ in range(n)]
    try:
        for s in sockets:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in sockets]
    finally:
        for s in sockets:
            s.close()


class Cluster:
    """munged, slurmctld and slurmd of one node, 127.0.0.1, with every file in `state`."""

    def __init__(self, state: Path):
        self.state = state
        self.conf = state / "slurm.conf"
        self.socket = state / "munge.socket"
        self.env = dict(os.environ, SLURM_CONF=str(self.conf))
        self.daemons = []  # (name, Popen), in the order started

    def write_config(self):
        key = self.state / "munge.key"
        key.write_bytes(os.urandom(128))
        key.chmod(0o600)
        for d in ("ctld", "spool"):
            (self.state / d).mkdir()
        s = self.state
        ctld_port, slurmd_port = free_ports(2)
        self.conf.write_text(
            f"""# A cluster of one node for tools/slurm/test_cluster.py.
ClusterName=cowrietest
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort={ctld_port}
SlurmdPort={slurmd_port}
CommunicationParameters=NoInAddrAny
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket={self.socket}
StateSaveLocation={s}/ctld
SlurmdSpoolDir={s}/spool
SlurmctldPidFile={s}/slurmctld.pid
SlurmdPidFile={s}/slurmd.pid
SlurmctldLogFile={s}/slurmctld.log
SlurmdLogFile={s}/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
MailProg=/bin/true
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
SlurmdParameters=config_overrides
ReturnToService=2
NodeName=localhost NodeAddr=127.0.0.1 CPUs=4 State=UNKNOWN
PartitionName=test Nodes=localhost Default=YES MaxTime=INFINITE State=UP
"""
        )

    def _start(self, name, cmd):
        out = open(self.state / f"{name}.out", "w")
        p = subprocess.Popen(
            cmd, stdout=out, stderr=out, env=self.env, preexec_fn=terminate_with_parent
        )
        self.daemons.append((name, p))

    def _alive(self):
        for name, p in self.daemons:
            if p.poll() is not None:
                raise Failure(f"{name} exited with code {p.returncode}")
        return True

    def start(self):
        self.write_config()
        s = self.state
        self._start(
            "munged",
            [
                "munged",
                "--foreground",
                f"--key-file={s}/munge.key",
                f"--socket={self.socket}",
                f"--pid-file={s}/munged.pid",
                f"--log-file={s}/munged.log",
                f"--seed-file={s}/munged.seed",
                "--origin=127.0.0.1",
            ],
        )
        until("munged's socket", lambda: self._alive() and self.socket.exists(), 60, 0.2)
        self._start("slurmctld", ["slurmctld", "-D", "-i"])
        until("slurmctld answering", lambda: self._alive() and self._ping(), 60)
        self._start("slurmd", ["slurmd", "-D", "-N", "localhost"])
        until("node localhost idle", lambda: self._alive() and self._idle(), 60)

    def _ping(self):
        p = self.call(["scontrol", "ping"])
        return p.returncode == 0 and "UP" in p.stdout

    def _idle(self):
        p = self.call(["sinfo", "-h", "-n", "localhost", "-o", "%t"])
        return p.returncode == 0 and p.stdout.strip() == "idle"

    def call(self, cmd, **kw):
        """Runs a Slurm client command on this cluster; its CompletedProcess."""
        try:
            return subprocess.run(
                cmd, capture_output=True, text=True, env=self.env, timeout=60, **kw
            )
        except subprocess.TimeoutExpired:
            raise Failure(f"{' '.join(cmd)}: no answer within 60 s")

    def jobs(self, job):
        """Each task of `job` (an array's tasks, or the job alone): a dict of its fields."""
        out = run(["scontrol", "-o", "show", "job", str(job)], env=self.env)
        tasks = []
        for line in out.splitlines():
            fields = dict(f.split("=", 1) for f in line.split() if "=" in f)
            tasks.append(fields)
        return tasks

    def states(self, job):
        """`job`'s tasks' states, by array index (or '-' for a job that is not an array)."""
        return {t.get("ArrayTaskId", "-"): t["JobState"] for t in self.jobs(job)}

    def wait_gone(self, job, timeout=WAIT):
        """Waits until `job` (every task of it) has left the queue."""

        def gone():
            p = self.call(["squeue", "-h", "-j", str(job), "-o", "%i"])
            return p.returncode != 0 or not p.stdout.strip()

        until(f"job {job} to end", lambda: self._alive() and gone(), timeout)

    def stop(self):
        """Cancels every job, stops the daemons (TERM, then KILL), then kills any process left
        that runs under this cluster's slurm.conf (a job step outliving its slurmd)."""
        if self.daemons and all(p.poll() is None for _, p in self.daemons):
            try:
                ids = self.call(["squeue", "-h", "-o", "%A"]).stdout.split()
                if ids:
                    self.call(["scancel", *ids])
                    deadline = time.monotonic() + 30
                    while time.monotonic() < deadline and self.call(
                        ["squeue", "-h", "-o", "%A"]
                    ).stdout.strip():
                        time.sleep(0.5)
            except (OSError, subprocess.SubprocessError, Failure):
                pass
        for name, p in reversed(self.daemons):
            if p.poll() is None:
                p.terminate()
                try:
                    p.wait(15)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait(15)
        for pid, conf in cluster_processes():
            if conf == self.conf:
                kill(pid)

    def logs(self, stderr=False):
        """The last lines of every daemon's log (its own, else what it wrote on stderr; with
        `stderr`, both)."""
        text = []
        for name, _ in self.daemons:
            paths = [self.state / f"{name}.{ext}" for ext in ("log", "out")]
            paths = [p for p in paths if p.exists()]
            for path in paths if stderr else paths[:1]:
                lines = path.read_text(errors="replace").splitlines()[-40:]
                text.append(f"--- {path.name} (last {len(lines)} lines)\n" + "\n".join(lines))
        return "\n".join(text)


def cluster_processes():
    """Each process that runs under a slurm.conf of this test (its environment names it, as the
    daemons', the job steps' and the jobs' do), with that file's path."""
    prefix = f"SLURM_CONF={tempfile.gettempdir()}/{STATE_PREFIX}".encode()
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
        except OSError:
            continue
        for var in environ:
            if var.startswith(prefix):
                yield int(pid), Path(var.split(b"=", 1)[1].decode())


def kill(pid):
    try:
        os.kill(pid, signal.SIGKILL)
    except OSError:
        pass


def alive(pid):
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
        return True
    except OSError:
        return False


def stop_leftovers():
    """Kills what an earlier run of this test left when it was itself killed (SIGKILL gives it no
    time to stop anything; its daemons end with it, but job steps outlive them): the processes
    under a slurm.conf of a state directory whose test.pid no longer runs."""
    for pid, conf in cluster_processes():
        try:
            owner = int((conf.parent / "test.pid").read_text())
        except (OSError, ValueError):
            owner = 0
        if not alive(owner):
            kill(pid)


def files(root: Path):
    """Every file under `root`, by its path relative to `root`."""
    return {p.relative_to(root): p for p in sorted(root.rglob("*")) if p.is_file()}


def same_run(whole: Path, merged: Path, provenance=PROVENANCE):
    """Checks that `merged` holds what `whole` holds (see the module's doc), each manifest.json
    equal without the fields `provenance` names; a line saying what was compared."""
    a, b = files(whole), files(merged)
    if sorted(a) != sorted(b):
        raise Failure(
            f"{merged} and {whole} hold other files: only in the merged run "
            f"{sorted(map(str, set(b) - set(a)))}, only in the unsharded run "
            f"{sorted(map(str, set(a) - set(b)))}"
        )
    counts = {"CSV": 0, "README.md": 0, "other files": 0, "manifest.json": 0}
    for name, path in a.items():
        if name.name == "manifest.json":
            m = [json.loads(p.read_bytes()) for p in (path, b[name])]
            for k in provenance:
                for x in m:
                    x.pop(k, None)
            if m[0] != m[1]:
                diff = sorted(k for k in m[0].keys() | m[1].keys() if m[0].get(k) != m[1].get(k))
                raise Failure(f"{merged / name} differs from the unsharded manifest in {diff}")
            counts["manifest.json"] += 1
        elif name.name == "index.html" and (path.parent / "games.csv").exists():
            continue
        elif path.read_bytes() != b[name].read_bytes():
            raise Failure(f"{merged / name} differs from {path}")
        elif name.suffix == ".csv":
            counts["CSV"] += 1
        elif name.name == "README.md":
            counts["README.md"] += 1
        else:
            counts["other files"] += 1
    if counts["CSV"] < 2:
        raise Failure(f"only {counts['CSV']} CSV files in {whole}")
    same = ", ".join(f"{n} {kind}" for kind, n in counts.items() if n and kind != "manifest.json")
    return f"byte-identical: {same}; {counts['manifest.json']} manifest.json equal"


class Runs:
    """The runs of one check: the unsharded run in `root`/whole, the Slurm run in `root`/slurm,
    both with `--out OUT`, so that a study's README.md names the same directory."""

    OUT = "run"

    def __init__(self, cluster: Cluster, cowrie: Path, root: Path, args):
        self.cluster, self.cowrie, self.args = cluster, cowrie, args
        self.whole, self.slurm = root / "whole", root / "slurm"
        self.whole.mkdir(parents=True)
        self.slurm.mkdir()
        self.shards = self.slurm / f"{self.OUT}.shards"
        self.process = None

    def start_unsharded(self):
        """Starts the unsharded run, which plays while Slurm runs the shards."""
        self.log = open(self.whole / "cowrie.log", "w")
        self.process = subprocess.Popen(
            [self.cowrie, *self.args, "--out", self.OUT, "--quiet"],
            cwd=self.whole,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )

    def close(self):
        """Stops the unsharded run if it still plays."""
        if self.process:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()
            self.log.close()

    def submit(self, n, tasks=None):
        """submit.sh N OUT ARGS: the array's and the merge's job ids."""
        env = dict(self.cluster.env, COWRIE=str(self.cowrie))
        if tasks:
            env["COWRIE_TASKS"] = tasks
        out = run([HERE / "submit.sh", str(n), self.OUT, *self.args], cwd=self.slurm, env=env)
        array, merge = out.split()
        return array, merge

    def wait_done(self, array, merge):
        """Waits for the array and the merge, which must both end COMPLETED."""
        self.cluster.wait_gone(merge)
        self.cluster.wait_gone(array)
        for job in (array, merge):
            bad = {k: s for k, s in self.cluster.states(job).items() if s != "COMPLETED"}
            if bad:
                raise Failure(f"job {job} ended {bad}")

    def compare(self, provenance=PROVENANCE):
        """Waits for the unsharded run, then compares the merged run with it (`same_run`)."""
        try:
            code = self.process.wait(WAIT)
        except subprocess.TimeoutExpired:
            raise Failure(f"the unsharded run did not end within {WAIT} s")
        if code != 0:
            said = (self.whole / "cowrie.log").read_text(errors="replace")
            raise Failure(f"the unsharded run exited with code {code}:\n{said}")
        return same_run(self.whole / self.OUT, self.slurm / self.OUT, provenance)

    def logs(self):
        text = []
        logs = [*self.shards.glob("*.log"), *(self.slurm / f"{self.OUT}.jobs").glob("*.log")]
        for path in sorted(logs):
            lines = path.read_text(errors="replace").splitlines()[-20:]
            text.append(f"--- {path.relative_to(self.slurm)}\n" + "\n".join(lines))
        return "\n".join(text)


def sharded(runs: Runs, n):
    runs.start_unsharded()
    runs.wait_done(*runs.submit(n))
    return f"{n} shards merged: " + runs.compare()


MATCH = ["match", "--game", "baghchal", "--p1", "heuristic", "--p2", "random"]
MATCH += ["--games", "4000", "--seed", "7", "--threads", "1"]
STUDY = ["study", "--games", "6", "--threads", "1"]
# Slow enough (a few seconds a shard) to be cancelled after its first games reach the disk.
SLOW = ["match", "--game", "baghchal", "--p1", "mcts:iterations=100", "--p2", "random"]
SLOW_GAMES = 2400
SLOW += ["--games", str(SLOW_GAMES), "--seed", "3", "--threads", "1"]


def check_match(runs):
    return sharded(runs, 4)


def check_study(runs):
    return sharded(runs, 4)


def check_cancelled(runs):
    runs.start_unsharded()
    array, merge = runs.submit(2)
    manifest = runs.shards / "1" / "manifest.json"

    queued = [time.monotonic()]

    def written():
        try:
            m = json.loads(manifest.read_bytes())
        except (OSError, ValueError):
            m = {}
        if m.get("status") == "complete":
            raise Failure(f"shard 1 finished before it could be cancelled: {SLOW} is too quick")
        if time.monotonic() - queued[0] > 1:
            queued[0] = time.monotonic()
            # A pending array is one record (ArrayTaskId=1-2) until its tasks start.
            state = runs.cluster.states(array).get("1", "PENDING")
            if state not in ("PENDING", "CONFIGURING", "RUNNING"):
                raise Failure(f"shard 1 ended ({state}) before writing a game")
        return m.get("games_written", 0)

    until("shard 1's first games on disk", written, WAIT, 0.05)
    run(["scancel", f"{array}_1"], env=runs.cluster.env)
    runs.cluster.wait_gone(array)
    runs.cluster.wait_gone(merge)
    states = runs.cluster.states(array)
    if states != {"1": "CANCELLED", "2": "COMPLETED"}:
        raise Failure(f"after scancel {array}_1 the array's tasks are {states}")
    if runs.cluster.states(merge) != {"-": "CANCELLED"}:
        raise Failure(f"merge job {merge} is {runs.cluster.states(merge)}, not CANCELLED")
    m = json.loads(manifest.read_bytes())
    kept = m.get("games_written", 0)
    if m.get("status") != "running" or not 0 < kept < SLOW_GAMES // 2:
        raise Failure(f"the cancelled shard's manifest says {m.get('status')}, {kept} games")
    if (runs.slurm / runs.OUT).exists():
        raise Failure("a merged run exists though a shard was cancelled")
    runs.wait_done(*runs.submit(2, tasks="1"))
    resumed = (runs.shards / "1.log").read_text()
    if "--resume" not in resumed:
        raise Failure(f"shard 1 submitted again did not resume:\n{resumed}")
    return f"shard 1 cancelled at {kept} games, resumed, merged: " + runs.compare()


# The reduced game's solve down to the halves with 18 goats placed: the movement phase, then four
# halves of 4 units and a join each.
SOLVE = ["solve", "--game", "baghchal", "--option", "win-captures=2"]
SOLVE += ["--down-to-placed", "18", "--threads", "1"]
# A solver database's manifest lists every command that wrote to it: one for the one-process
# solve, the movement job's and each join's for solve.sh.
SOLVE_PROVENANCE = ["commands"]


def check_solve(runs):
    runs.start_unsharded()
    env = dict(runs.cluster.env, COWRIE=str(runs.cowrie))
    solve = [HERE / "solve.sh", "4", runs.OUT, *runs.args[1:]]
    jobs = run(solve, cwd=runs.slurm, env=env).split()
    if len(jobs) != 9:
        raise Failure(f"solve.sh submitted {len(jobs)} jobs, not 1 + 4 halves x 2: {jobs}")
    manifest = runs.slurm / runs.OUT / "manifest.json"

    def halves():
        try:
            return len(json.loads(manifest.read_bytes()).get("placement", []))
        except (OSError, ValueError):
            return 0

    # Once the first half is joined, every job left is cancelled, a unit perhaps mid-run.
    until("the first half joined", halves, WAIT, 0.05)
    run(["scancel", *jobs], env=runs.cluster.env)
    for job in jobs:
        runs.cluster.wait_gone(job)
    joined = halves()
    if joined == 4:
        raise Failure("every half was joined before the jobs could be cancelled")
    # Submitted again, solve.sh submits the halves left: an array and a join each.
    again = run(solve, cwd=runs.slurm, env=env).split()
    if len(again) != 2 * (4 - joined):
        raise Failure(f"with {joined} halves joined solve.sh submitted {len(again)} jobs: {again}")
    runs.cluster.wait_gone(again[-1])
    for job in again:
        runs.cluster.wait_gone(job)
        bad = {k: s for k, s in runs.cluster.states(job).items() if s != "COMPLETED"}
        if bad:
            raise Failure(f"job {job} ended {bad}")
    arrays = [j for j in again if len(runs.cluster.states(j)) == 4]
    if len(arrays) != 4 - joined:
        raise Failure(f"{len(arrays)} arrays of 4 units among the jobs {again}, not {4 - joined}")
    said = runs.compare(SOLVE_PROVENANCE)
    return f"cancelled after {joined} of 4 halves, submitted again, joined: {said}"


CHECKS = [
    ("match, 4 shards", MATCH, check_match),
    ("study, 4 shards", STUDY, check_study),
    ("match, a shard cancelled and resumed", SLOW, check_cancelled),
    ("solve, 4 units a half, cancelled and submitted again", SOLVE, check_solve),
]


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cowrie", required=True, type=Path, help="the cowrie binary")
    ap.add_argument("--keep", action="store_true", help="keep the state directory")
    args = ap.parse_args(argv[1:])
    cowrie = args.cowrie.resolve()
    os.environ["PATH"] += ":/usr/local/sbin:/usr/sbin:/sbin"
    required = os.environ.get("COWRIE_REQUIRE_CLUSTER") == "1"
    if not cowrie.is_file():
        print(f"slurm: no cowrie binary at {args.cowrie} (cargo build -p cowrie-experiments)")
        return 2
    try:
        if os.geteuid() != 0:
            raise Skip("the cluster's daemons run as root")
        if os.environ.get(IN_NAMESPACE) != "1":
            ensure_packages()
    except Skip as e:
        print(f"slurm: skipped: {e}")
        if required:
            print("slurm: COWRIE_REQUIRE_CLUSTER=1: a skip is a failure\nslurm: 0 passed, 1 failed")
            return 1
        return 0
    enter_network_namespace([str(Path(__file__).resolve()), *argv[1:]])

    # A TERM or HUP stops the test as Ctrl-C does, through the `finally` below.
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.default_int_handler)
    stop_leftovers()
    state = Path(tempfile.mkdtemp(prefix=STATE_PREFIX))
    state.chmod(0o755)
    (state / "test.pid").write_text(str(os.getpid()))
    cluster = Cluster(state)
    passed = failed = 0
    try:
        t0 = time.monotonic()
        try:
            cluster.start()
        except Failure as e:
            print(f"FAIL starting the cluster: {e}\n{cluster.logs(stderr=True)}")
            failed = len(CHECKS)
            return 1
        print(f"cluster up in {time.monotonic() - t0:.1f} s ({state})", flush=True)
        for i, (name, cmd, check) in enumerate(CHECKS, 1):
            t0 = time.monotonic()
            runs = Runs(cluster, cowrie, state / f"check-{i}", cmd)
            try:
                said = check(runs)
                passed += 1
                print(f"ok   {name} ({time.monotonic() - t0:.1f} s): {said}", flush=True)
            except Exception as e:  # a Failure, or an error of the test itself
                failed += 1
                said = str(e) if isinstance(e, Failure) else traceback.format_exc()
                print(f"FAIL {name}: {said}\n{runs.logs()}\n{cluster.logs()}", flush=True)
            finally:
                runs.close()
        return 1 if failed else 0
    except KeyboardInterrupt:
        print("slurm: interrupted")
        failed += 1
        return 1
    finally:
        cluster.stop()
        if failed or args.keep:
            print(f"state kept in {state}")
        else:
            shutil.rmtree(state, ignore_errors=True)
        print(f"slurm: {passed} passed, {failed} failed", flush=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
