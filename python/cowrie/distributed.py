"""A match or a study spread over a Ray cluster: one Ray task per shard, joined by ``cowrie merge``.

``cowrie match --shard K/N`` and ``cowrie study --shard K/N`` play slice K of N of a run and
``cowrie merge`` joins the N slices into the files of the unsharded run, checking every shard's
files against the SHA-256 its manifest records. :func:`run_match` and :func:`run_study` run
each slice as a Ray task: the task runs the command line's own code for ``--shard K/N`` inside
its worker (through the extension module, :func:`cowrie._cowrie.run_command`), in a directory
of its own on the worker's node, and sends the shard's files back to the caller, who writes
them out and merges them. No shared file system is needed.

A worker that dies mid-task (killed, out of memory, its node lost) is retried by Ray up to
``max_retries`` times: the retry continues the shard's directory with ``--resume`` where it
lands on the same node, and plays the shard again in a fresh one elsewhere; either way the
shard's files are those of an uninterrupted run, so the merged result is too.

Needs Ray (``pip install './python[ray]'``); ``import cowrie`` does not. See ``docs/python.md``.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import uuid
from typing import Callable, List, Mapping, Optional, Sequence, Tuple, Union

try:
    import ray
except ImportError as e:  # pragma: no cover - depends on the environment
    raise ImportError(
        "cowrie.distributed needs Ray: pip install './python[ray]' (or pip install ray)"
    ) from e

from . import OptionValue, Run, _option_texts, read_run
from ._cowrie import run_command

__all__ = ["match_command", "play_shard", "run_match", "run_sharded", "run_study",
           "study_command"]

PathLike = Union[str, "os.PathLike[str]"]
#: A function a worker calls before it plays a shard: ``(k, n, directory)``.
ShardHook = Callable[[int, int, str], None]

#: The program name recorded as the first word of every manifest's command line.
PROGRAM = "cowrie"


def match_command(
    game: str,
    p1: str,
    p2: str,
    games: int,
    variant: Optional[str] = None,
    options: Union[None, Mapping[str, OptionValue], Sequence[str]] = None,
    seed: int = 1,
    threads: int = 1,
    swap: bool = True,
    record: bool = False,
) -> List[str]:
    """The ``cowrie match`` command line of these arguments (as :func:`cowrie.play_match`
    takes them), without ``--out`` and ``--shard``."""
    argv = [PROGRAM, "match", "--game", game]
    if variant is not None:
        argv += ["--variant", variant]
    for o in _option_texts(options):
        argv += ["--option", o]
    argv += ["--p1", p1, "--p2", p2, "--games", str(games), "--seed", str(seed),
             "--threads", str(threads)]
    if not swap:
        argv.append("--no-swap")
    if record:
        argv.append("--record")
    return argv + ["--quiet"]


def study_command(
    games: int = 2000,
    name: str = "default-study",
    seed: Optional[int] = None,
    threads: int = 1,
    db_dir: Optional[PathLike] = None,
) -> List[str]:
    """The ``cowrie study`` command line of these arguments, without ``--out`` and ``--shard``."""
    argv = [PROGRAM, "study", "--games", str(games), "--name", name]
    if seed is not None:
        argv += ["--seed", str(seed)]
    argv += ["--threads", str(threads)]
    if db_dir is not None:
        argv += ["--db-dir", os.fspath(db_dir)]
    return argv + ["--quiet"]


def _shard_files(directory: str) -> List[Tuple[str, bytes]]:
    """Every file under ``directory``: its path relative to it (with ``/``) and its bytes."""
    files = []
    for root, _dirs, names in os.walk(directory):
        for name in sorted(names):
            full = os.path.join(root, name)
            rel = os.path.relpath(full, directory).replace(os.sep, "/")
            with open(full, "rb") as f:
                files.append((rel, f.read()))
    return sorted(files)


def play_shard(
    argv: Sequence[str],
    k: int,
    n: int,
    directory: str,
    before: Optional[ShardHook] = None,
) -> List[Tuple[str, bytes]]:
    """Plays shard ``k`` of ``n`` of the command line ``argv`` into ``directory`` in this
    process and returns its files (relative path, bytes), then removes the directory.

    A directory left by an earlier attempt that wrote its manifest is continued with
    ``--resume``; anything else there is removed first. A resume that is refused (the earlier
    attempt died before its first games were vouched for) plays the shard afresh.
    """
    shard = ["--shard", f"{k}/{n}", "--out", directory]
    resume = os.path.exists(os.path.join(directory, "manifest.json"))
    if not resume and os.path.exists(directory):
        shutil.rmtree(directory)
    if before is not None:
        before(k, n, directory)
    try:
        run_command(list(argv) + shard + (["--resume"] if resume else []))
    except ValueError:
        if not resume:
            raise
        shutil.rmtree(directory)
        run_command(list(argv) + shard)
    files = _shard_files(directory)
    shutil.rmtree(directory, ignore_errors=True)
    return files


def _shard_task(argv, k, n, run_id, scratch, before):
    """The body of one shard's Ray task: its directory is ``cowrie-<run id>/shard-K-of-N``
    under ``scratch`` (the worker's temporary directory by default), the same for every
    attempt, so a retry on the same node finds what the killed attempt wrote."""
    base = os.fspath(scratch) if scratch is not None else tempfile.gettempdir()
    directory = os.path.join(base, f"cowrie-{run_id}", f"shard-{k}-of-{n}")
    os.makedirs(os.path.dirname(directory), exist_ok=True)
    try:
        return play_shard(argv, k, n, directory, before)
    finally:
        try:
            os.rmdir(os.path.dirname(directory))  # the run's folder, once no shard is in it
        except OSError:
            pass


class _Progress:
    """One bar over all shards on stderr: tqdm's when tqdm is installed, else a counter."""

    def __init__(self, total: int, label: str, shown: Optional[bool]):
        self.total, self.done, self.label = total, 0, label
        self.shown = sys.stderr.isatty() if shown is None else shown
        self.bar = None
        if self.shown:
            try:
                from tqdm import tqdm
            except ImportError:
                self._write()
            else:
                self.bar = tqdm(total=total, desc=label, unit="shard", file=sys.stderr)

    def _write(self) -> None:
        end = "\n" if self.done == self.total else ""
        sys.stderr.write(f"\r{self.label}: {self.done}/{self.total} shards{end}")
        sys.stderr.flush()

    def step(self) -> None:
        self.done += 1
        if self.bar is not None:
            self.bar.update(1)
        elif self.shown:
            self._write()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
        elif self.shown and self.done != self.total:
            sys.stderr.write("\n")


def run_sharded(
    argv: Sequence[str],
    out: PathLike,
    shards: int,
    threads: int = 1,
    force: bool = False,
    max_retries: int = 3,
    progress: Optional[bool] = None,
    scratch: Optional[PathLike] = None,
    before_shard: Optional[ShardHook] = None,
) -> None:
    """Runs the ``cowrie match`` or ``cowrie study`` command line ``argv`` (without ``--out``
    and ``--shard``) as ``shards`` Ray tasks, shard K of N each, and joins them into ``out``
    with ``cowrie merge``.

    Each task asks Ray for ``threads`` CPUs (give ``--threads`` the same number in ``argv``),
    the tasks are spread over the cluster's nodes (Ray's ``SPREAD`` strategy), and each is
    retried up to ``max_retries`` times when its worker dies. ``scratch`` is where a worker
    plays its shard (its node's temporary directory by default); ``before_shard`` is called in
    the worker with ``(k, n, directory)`` before each attempt. ``progress``: one bar over all
    shards on stderr (by default when stderr is a terminal). A task's error (a bad argument,
    with the command line's message) is raised as it was, the other tasks cancelled. An ``out``
    that already holds a run is refused before any shard is played, unless ``force``.
    """
    if isinstance(shards, bool) or not isinstance(shards, int) or shards < 1:
        raise ValueError(f"shards {shards!r}: must be a whole number from 1")
    out = os.fspath(out)
    held = os.path.join(out, "manifest.json")
    if not force and os.path.exists(held):
        raise ValueError(
            f"--out '{out}' already holds a run ('{held}'); pass force=True to replace it, "
            "or choose another directory"
        )
    run_id = uuid.uuid4().hex
    # SPREAD: the shards go to as many nodes as have room, rather than filling the first.
    task = ray.remote(_shard_task).options(
        num_cpus=threads, max_retries=max_retries, retry_exceptions=False,
        scheduling_strategy="SPREAD",
    )
    pending = {
        task.remote(list(argv), k, shards, run_id, scratch, before_shard): k
        for k in range(1, shards + 1)
    }
    bar = _Progress(shards, f"cowrie {argv[1]} on Ray", progress)
    with tempfile.TemporaryDirectory(prefix="cowrie-shards-") as local:
        try:
            while pending:
                ready, _ = ray.wait(list(pending), num_returns=1)
                for ref in ready:
                    k = pending.pop(ref)
                    _write_shard(os.path.join(local, f"shard-{k}-of-{shards}"), _result(ref))
                    bar.step()
        except BaseException:
            for ref in pending:
                ray.cancel(ref, force=True)
            raise
        finally:
            bar.close()
        dirs = [os.path.join(local, f"shard-{k}-of-{shards}") for k in range(1, shards + 1)]
        run_command([PROGRAM, "merge", "--out", out] + (["--force"] if force else []) + dirs)


def _result(ref) -> List[Tuple[str, bytes]]:
    """A task's files, or its error as it was raised in the worker."""
    try:
        return ray.get(ref)
    except ray.exceptions.RayTaskError as e:
        cause = getattr(e, "cause", None)
        if isinstance(cause, Exception):
            raise cause from None
        raise


def _write_shard(directory: str, files: List[Tuple[str, bytes]]) -> None:
    for rel, data in files:
        path = os.path.join(directory, *rel.split("/"))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)


def run_match(
    game: str,
    p1: str,
    p2: str,
    games: int,
    out: PathLike,
    shards: int,
    variant: Optional[str] = None,
    options: Union[None, Mapping[str, OptionValue], Sequence[str]] = None,
    seed: int = 1,
    threads: int = 1,
    swap: bool = True,
    record: bool = False,
    force: bool = False,
    max_retries: int = 3,
    progress: Optional[bool] = None,
    scratch: Optional[PathLike] = None,
    before_shard: Optional[ShardHook] = None,
) -> Run:
    """Plays ``cowrie match`` with these arguments (as :func:`cowrie.play_match` takes them)
    in ``shards`` Ray tasks, joins them into ``out`` with ``cowrie merge`` and returns the run,
    read and checked (:func:`cowrie.read_run`). Its files are those of the unsharded
    ``cowrie match`` run. The other arguments are :func:`run_sharded`'s."""
    argv = match_command(game, p1, p2, games, variant, options, seed, threads, swap, record)
    run_sharded(argv, out, shards, threads, force, max_retries, progress, scratch, before_shard)
    return read_run(out)


def run_study(
    out: PathLike,
    shards: int,
    games: int = 2000,
    name: str = "default-study",
    seed: Optional[int] = None,
    threads: int = 1,
    db_dir: Optional[PathLike] = None,
    force: bool = False,
    max_retries: int = 3,
    progress: Optional[bool] = None,
    scratch: Optional[PathLike] = None,
    before_shard: Optional[ShardHook] = None,
) -> str:
    """Runs ``cowrie study`` (``games`` per variant, ``name``, ``seed``, ``db_dir`` as the
    command line's options; ``db_dir`` must be readable on every node) in ``shards`` Ray
    tasks and joins them into ``out`` with ``cowrie merge``, which writes the study's summary;
    returns ``out``. The other arguments are :func:`run_sharded`'s."""
    argv = study_command(games, name, seed, threads, db_dir)
    run_sharded(argv, out, shards, threads, force, max_retries, progress, scratch, before_shard)
    return os.fspath(out)
