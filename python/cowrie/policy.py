"""Python policies as cowrie agents: :class:`PythonAgent`, and the process's table of them.

A policy is any callable ``choose(state)`` or ``choose(state, rng)`` answering the id of a
legal action (one of ``state.legal_actions()``); ``rng`` is a ``numpy.random.Generator`` that
cowrie seeds for each game and seat from the agent's own stream (``docs/conventions.md``), so a
policy that draws its randomness from it plays the same games with the same seed, whatever
the thread count.

Every function that takes agents (``play_match``, ``tournament``, ``ladder``, ``converge``)
takes a :class:`PythonAgent`, or any object with a ``choose`` method (and optionally ``name``,
``version`` and ``reproducible`` attributes), wherever it takes a spec. The agent is registered
in this process's table under its name and enters the run as the spec
``python:name=NAME[,version=V],reproducible=on|off``, which the run's files record; the
runner's own code path plays it, calling back into Python for each of its choices.
"""

from __future__ import annotations

import inspect
import re
import threading
from typing import Any, Callable, Dict, List, Optional, Sequence, Union

import numpy

__all__ = ["PythonAgent", "spec_of", "specs_of"]

_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]*\Z")

# The process's table: name -> the agent registered last under it.
_TABLE: Dict[str, "PythonAgent"] = {}
_LOCK = threading.Lock()


def _word(what: str, value: Any) -> str:
    if not isinstance(value, str) or not _WORD.match(value):
        raise ValueError(
            f"{what} {value!r}: must be a word of letters, digits and _ . + -, "
            "beginning with a letter or digit"
        )
    return value


def _takes_rng(choose: Callable[..., Any]) -> bool:
    """Whether ``choose`` takes a second positional argument (the game's generator)."""
    try:
        params = list(inspect.signature(choose).parameters.values())
    except (TypeError, ValueError):  # pragma: no cover - builtins without a signature
        return False
    positional = [
        p for p in params
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is p.empty
    ]
    if any(p.kind == p.VAR_POSITIONAL for p in params):
        return True
    return len(positional) >= 2


class PythonAgent:
    """A Python policy as a cowrie agent.

    ``name`` (and ``version``, if given) are words of letters, digits and ``_ . + -``; they
    name the agent in the run's files (``python:name=NAME,version=V,...``). ``choose`` is
    ``choose(state)`` or ``choose(state, rng)``, answering a legal action id;
    ``reproducible`` is the author's declaration that the same state and ``rng`` always give
    the same choice (no other source of randomness, no state kept between calls), recorded in
    the run's manifest (``reproducible`` is false for a run with any agent not declared so).
    """

    def __init__(self, name: str, choose: Callable[..., Any], version: Optional[str] = None,
                 reproducible: bool = False):
        if not callable(choose):
            raise ValueError(f"PythonAgent {name!r}: choose {choose!r} is not callable")
        self.name = _word("PythonAgent name", name)
        self.version = None if version is None else _word("PythonAgent version", str(version))
        self.reproducible = bool(reproducible)
        self._choose = choose
        self._takes_rng = _takes_rng(choose)

    @property
    def spec(self) -> str:
        """The agent's spec, as the run's files record it."""
        version = "" if self.version is None else f",version={self.version}"
        on = "on" if self.reproducible else "off"
        return f"python:name={self.name}{version},reproducible={on}"

    def choose(self, state: Any, rng: Optional[numpy.random.Generator] = None) -> Any:
        """The policy's choice at ``state`` (a fresh generator of seed 0 when ``rng`` is not
        given and the policy takes one)."""
        if self._takes_rng:
            return self._choose(state, rng if rng is not None else numpy.random.default_rng(0))
        return self._choose(state)

    def _for_game(self, seed: int) -> Callable[[Any], Any]:
        """``choose(state)`` for one game, its generator seeded with ``seed``."""
        if not self._takes_rng:
            return self._choose
        rng = numpy.random.default_rng(seed)
        choose = self._choose
        return lambda state: choose(state, rng)

    def __repr__(self) -> str:
        return f"<cowrie.PythonAgent {self.spec}>"


def _as_agent(obj: Any) -> PythonAgent:
    if isinstance(obj, PythonAgent):
        return obj
    choose = getattr(obj, "choose", None)
    if not callable(choose):
        raise ValueError(
            f"agent {obj!r}: neither a spec (a str) nor an object with a choose(state) method"
        )
    name = getattr(obj, "name", None) or type(obj).__name__
    return PythonAgent(name, choose, getattr(obj, "version", None),
                       bool(getattr(obj, "reproducible", False)))


def specs_of(agents: Sequence[Union[str, Any]]) -> List[str]:
    """The specs of ``agents`` (spec texts kept as they are), each Python agent registered in
    the process's table under its name; two different Python agents of one name are refused
    with a ``ValueError`` naming it."""
    seen: Dict[str, Any] = {}
    specs = []
    wrapped = []
    for a in agents:
        if isinstance(a, str):
            specs.append(a)
            continue
        agent = _as_agent(a)
        key = agent._choose
        if agent.name in seen and seen[agent.name] != key:
            raise ValueError(f"two different Python agents are named {agent.name!r}")
        seen[agent.name] = key
        wrapped.append(agent)
        specs.append(agent.spec)
    with _LOCK:
        for agent in wrapped:
            _TABLE[agent.name] = agent
    return specs


def spec_of(agent: Union[str, Any]) -> str:
    """The spec of one agent (see :func:`specs_of`)."""
    return specs_of([agent])[0]


def _start(name: str, version: Optional[str], reproducible: bool, seed: int):
    """One game of the agent registered as ``name``: its ``choose(state)`` (called by cowrie's
    runner at the start of each game)."""
    with _LOCK:
        agent = _TABLE.get(name)
    if agent is None:
        raise LookupError(
            f"no Python agent named '{name}' is registered in this process "
            "(pass the PythonAgent itself where the spec goes)"
        )
    if agent.version != version or agent.reproducible != reproducible:
        raise LookupError(f"the Python agent registered as '{name}' is {agent.spec}")
    return agent._for_game(seed)
