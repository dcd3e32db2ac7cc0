"""cowrie: traditional board games for AI research, from Python.

The games (Baghchal, Frangieh, Julbahar, Bargese) behind an OpenSpiel-style API, every agent
the ``cowrie`` command line takes, matches that write exactly the command line's files, and a
PettingZoo environment (:mod:`cowrie.pettingzoo`). See ``docs/python.md``.

>>> import cowrie
>>> game = cowrie.load_game("baghchal")
>>> state = game.new_initial_state()
>>> state.current_player()
0
>>> len(state.legal_actions())
21
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import tempfile
from typing import Any, List, Mapping, Optional, Sequence, Union

from ._cowrie import (
    CHANCE_PLAYER_ID,
    TERMINAL_PLAYER_ID,
    Agent,
    Chance,
    Game,
    State,
    game_names,
    play_match_csv as _play_match_csv,
    streams,
    run_command as _run_command,
)
from .policy import PythonAgent, spec_of as _spec_of, specs_of as _specs_of

__all__ = [
    "CHANCE_PLAYER_ID",
    "TERMINAL_PLAYER_ID",
    "Agent",
    "Chance",
    "Game",
    "PythonAgent",
    "State",
    "Run",
    "Rows",
    "agent",
    "converge",
    "game_names",
    "ladder",
    "load_game",
    "play_match",
    "read_run",
    "state_from_notation",
    "streams",
    "tournament",
]

OptionValue = Union[str, int, bool, None]
# An agent: a spec as the command line writes it, a PythonAgent, or any object with a
# ``choose(state)`` method.
AgentLike = Any


def _option_text(key: str, value: OptionValue) -> str:
    """One ``key=value`` as ``--option`` takes it: ``_`` in keys read as ``-``, booleans as
    ``on``/``off``, ``None`` as ``none``."""
    if isinstance(value, bool):
        text = "on" if value else "off"
    elif value is None:
        text = "none"
    else:
        text = str(value)
    return f"{key.replace('_', '-')}={text}"


def _option_texts(options: Union[None, Mapping[str, OptionValue], Sequence[str]]) -> List[str]:
    if options is None:
        return []
    if isinstance(options, Mapping):
        return [_option_text(k, v) for k, v in options.items()]
    if isinstance(options, str):
        return [options]
    return [str(o) for o in options]


def load_game(name: str, variant: Optional[str] = None, **options: OptionValue) -> Game:
    """The game ``name`` under ``variant`` (its default when ``None``) and rule options.

    Options are keyword arguments, ``_`` standing for ``-`` in their keys
    (``goats_blocked="pass"`` is ``--option goats-blocked=pass``); ``cowrie rules --game G``
    or ``game.describe()`` lists them. A bad name, variant, option or value raises
    ``ValueError`` with the command line's message.
    """
    return Game(name, variant, [_option_text(k, v) for k, v in options.items()])


def state_from_notation(game: Game, text: str) -> State:
    """The position ``text`` (in the game's notation, as ``str(state)`` writes it) of ``game``."""
    return game.state_from_notation(text)


def agent(spec: AgentLike, seed: int = 0, stream: int = 0) -> Agent:
    """An agent from a spec as the command line writes it (``random``, ``heuristic``,
    ``mcts:iterations=200``, ``expectimax:depth=2``, ``td:ply=1``, ``external:cmd=...``,
    ``perfect:db=DIR``), on the ChaCha8 stream ``stream`` of ``seed``.

    ``choose(state)`` returns the id of the action it plays. The agent is built for the game of
    the first state it is given; ``cowrie match`` builds a fresh one for every game (see
    :func:`streams` for the streams it uses). A :class:`PythonAgent` (or an object with
    ``choose(state)``) is taken too, as its spec.
    """
    return Agent(_spec_of(spec), seed, stream)


class Rows(list):
    """The rows of a run's ``games.csv``: a list of dicts, column name to the text of the field
    exactly as the file holds it. ``csv`` is the file's text."""

    def __init__(self, text: str):
        super().__init__(csv.DictReader(io.StringIO(text, newline="")))
        self.csv = text

    def to_pandas(self) -> Any:
        """The rows as a ``pandas.DataFrame`` (columns typed by ``pandas.read_csv``); needs
        pandas (``pip install 'cowrie[pandas]'``)."""
        try:
            import pandas
        except ImportError as e:  # pragma: no cover - depends on the environment
            raise ImportError("to_pandas() needs pandas: pip install pandas") from e
        return pandas.read_csv(io.StringIO(self.csv), keep_default_na=False, na_values=[""])


def play_match(
    game: str,
    p1: AgentLike,
    p2: AgentLike,
    games: int,
    variant: Optional[str] = None,
    options: Union[None, Mapping[str, OptionValue], Sequence[str]] = None,
    seed: int = 1,
    threads: int = 2,
    swap: bool = True,
    out: Union[None, str, "os.PathLike[str]"] = None,
    record: bool = False,
    resume: bool = False,
    force: bool = False,
) -> Rows:
    """Plays ``cowrie match`` with these arguments and returns the rows of its ``games.csv``.

    The same arguments give the command line's ``games.csv`` byte for byte (``Rows.csv``), with
    any ``threads``. With ``out`` the run's files (``games.csv``, ``summary.csv``,
    ``manifest.json``, ``lengths.svg``, ``records.jsonl`` with ``record``) are written there,
    as by ``--out``; without, into a temporary directory that is removed. A finished run
    already in ``out`` is refused, as the command line refuses it, unless ``force=True``
    (``--force``) replaces it. Bad arguments raise
    ``ValueError`` with the command line's message, or one naming the value and its range.

    ``p1`` and ``p2`` are specs, :class:`PythonAgent` objects or any objects with a
    ``choose(state)`` method (:mod:`cowrie.policy`); a policy that raises an exception or
    answers an illegal action stops the run with a ``ValueError`` naming the agent and the
    value (the policy's exception as its cause), the games it was in left unwritten.

    Ctrl-C (``KeyboardInterrupt``) stops the run as SIGINT stops ``cowrie match``: the games
    being played are finished and written, the manifest says ``interrupted``, and the
    ``KeyboardInterrupt`` says how many games are in ``out``. The same call with
    ``resume=True`` (``--resume``) plays the rest, and the run's files are then those of an
    uninterrupted run.
    """
    p1, p2 = _specs_of([p1, p2])
    texts = _option_texts(options)
    if out is not None:
        return Rows(
            _play_match_csv(game, p1, p2, games, variant, texts, seed, threads, bool(swap),
                            os.fspath(out), bool(record), bool(resume), bool(force))
        )
    if resume:
        raise ValueError("resume=True needs out, the directory of the run to resume")
    with tempfile.TemporaryDirectory(prefix="cowrie-match-") as tmp:
        try:
            return Rows(
                _play_match_csv(game, p1, p2, games, variant, texts, seed, threads, bool(swap),
                                tmp, bool(record))
            )
        except KeyboardInterrupt:
            raise KeyboardInterrupt(
                "interrupted: the run was in a temporary directory, now removed "
                "(pass out=DIR for a run that can be resumed)"
            ) from None


class Run:
    """A run directory written by ``cowrie match`` (or :func:`play_match` with ``out``).

    ``manifest`` is ``manifest.json``; ``games`` the rows of ``games.csv``; ``summary`` the
    rows of ``summary.csv`` (a list of dicts); ``subgames`` those of ``subgames.csv``
    (Julbahar) or ``None``; ``records`` the games of ``records.jsonl`` or ``None``.
    """

    def __init__(self, path: str, manifest: dict, games: Rows, summary: List[dict],
                 subgames: Optional[Rows], records: Optional[List[dict]]):
        self.path = path
        self.manifest = manifest
        self.games = games
        self.summary = summary
        self.subgames = subgames
        self.records = records

    @property
    def status(self) -> str:
        """``complete`` once every game is written; ``running`` or ``interrupted`` before."""
        return self.manifest.get("status", "")

    def __repr__(self) -> str:
        return f"<cowrie.Run {self.path}: {len(self.games)} games, {self.status}>"


def _checked(path: str, name: str, manifest: dict) -> Optional[bytes]:
    """The bytes of ``name`` in ``path``, checked against the length and SHA-256 the manifest
    records; ``None`` when the run has no such file."""
    full = os.path.join(path, name)
    recorded = manifest.get("files", {}).get(name)
    if not os.path.exists(full):
        if recorded is not None:
            raise ValueError(f"'{full}': the manifest records it, but it is missing")
        return None
    with open(full, "rb") as f:
        data = f.read()
    if recorded is not None:
        size, digest = recorded["bytes"], recorded["sha256"]
        if len(data) < size:
            raise ValueError(f"'{full}': {len(data)} bytes, shorter than the {size} the manifest records")
        # The manifest vouches for the first `size` bytes (rows written after its last update,
        # in a run that was stopped, are not vouched for and are left out).
        data = data[:size]
        if hashlib.sha256(data).hexdigest() != digest:
            raise ValueError(f"'{full}': its SHA-256 differs from the one the manifest records")
    return data


def read_run(path: Union[str, "os.PathLike[str]"]) -> Run:
    """Reads a run directory: its manifest and files, each checked against the length and
    SHA-256 its manifest records (a ``ValueError`` naming a file that was edited or cut; of a
    run that was stopped, only the rows the manifest vouches for are read)."""
    path = os.fspath(path)
    manifest_path = os.path.join(path, "manifest.json")
    if not os.path.exists(manifest_path):
        raise ValueError(f"'{path}': no manifest.json (not a run directory)")
    with open(manifest_path, encoding="utf-8") as f:
        manifest = json.load(f)
    games = _checked(path, "games.csv", manifest)
    if games is None:
        raise ValueError(f"'{path}': no games.csv")
    summary = _checked(path, "summary.csv", manifest)
    subgames = _checked(path, "subgames.csv", manifest)
    records = _checked(path, "records.jsonl", manifest)
    return Run(
        path,
        manifest,
        Rows(games.decode("utf-8")),
        list(csv.DictReader(io.StringIO(summary.decode("utf-8"), newline=""))) if summary else [],
        Rows(subgames.decode("utf-8")) if subgames is not None else None,
        [json.loads(line) for line in records.decode("utf-8").splitlines() if line]
        if records is not None
        else None,
    )


def _run_with_agents(command: str, flag: str, agents: Sequence[AgentLike], counts: List[str],
                     game: str, out: Union[str, "os.PathLike[str]"], variant: Optional[str],
                     options: Union[None, Mapping[str, OptionValue], Sequence[str]], seed: int,
                     threads: int, resume: bool, force: bool) -> str:
    """Runs ``cowrie COMMAND`` with ``agents`` given by ``flag`` (Python agents registered and
    written as their specs) through the command's own code (``_cowrie.run_command``); returns
    ``out``."""
    argv = ["cowrie", command, "--game", game]
    if variant is not None:
        argv += ["--variant", variant]
    for o in _option_texts(options):
        argv += ["--option", o]
    for spec in _specs_of(agents):
        argv += [flag, spec]
    argv += [*counts, "--out", os.fspath(out), "--seed", str(seed), "--threads", str(threads),
             "--quiet"]
    argv += ["--resume"] if resume else []
    argv += ["--force"] if force else []
    _run_command(argv)
    return os.fspath(out)


Options = Union[None, Mapping[str, OptionValue], Sequence[str]]
PathLike = Union[str, "os.PathLike[str]"]


def tournament(game: str, agents: Sequence[AgentLike], out: PathLike, games_per_pair: int = 400,
               variant: Optional[str] = None, options: Options = None, seed: int = 1,
               threads: int = 2, resume: bool = False, force: bool = False) -> str:
    """Runs ``cowrie tournament`` (a round robin of ``agents``, ``games_per_pair`` games per
    pairing) into ``out`` through the command's own code, so its files are the command's for
    the same arguments; returns ``out``. ``agents`` are specs, :class:`PythonAgent` objects or
    objects with ``choose(state)``. Errors as :func:`play_match`'s."""
    return _run_with_agents("tournament", "--agent", agents,
                            ["--games-per-pair", str(games_per_pair)], game, out, variant,
                            options, seed, threads, resume, force)


def ladder(game: str, rungs: Sequence[AgentLike], out: PathLike, games_per_pair: int = 400,
           variant: Optional[str] = None, options: Options = None, seed: int = 1,
           threads: int = 2, resume: bool = False, force: bool = False) -> str:
    """Runs ``cowrie ladder`` (adjacent ``rungs``, weakest first, ``games_per_pair`` games a
    step) into ``out`` through the command's own code; returns ``out`` (its ``ladder.csv`` is
    the table). Rungs as :func:`tournament`'s agents."""
    return _run_with_agents("ladder", "--rung", rungs, ["--games-per-pair", str(games_per_pair)],
                            game, out, variant, options, seed, threads, resume, force)


def converge(game: str, agents: Sequence[AgentLike], out: PathLike, games: int = 200,
             strength_games: Optional[int] = None, variant: Optional[str] = None,
             options: Options = None, seed: int = 1, threads: int = 2, resume: bool = False,
             force: bool = False) -> str:
    """Runs ``cowrie converge`` (each of ``agents``, weakest first, in self-play for ``games``
    games; the top rung against the one below for ``strength_games``, the command's default
    when ``None``) into ``out`` through the command's own code; returns ``out`` (its
    ``converge.csv`` and ``verdict.csv`` are the tables). Agents as :func:`tournament`'s."""
    counts = ["--games", str(games)]
    if strength_games is not None:
        counts += ["--strength-games", str(strength_games)]
    return _run_with_agents("converge", "--agent", agents, counts, game, out, variant, options,
                            seed, threads, resume, force)
