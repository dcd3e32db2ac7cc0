"""A PettingZoo AEC environment for every cowrie game: ``cowrie.pettingzoo.env(game, variant)``.

Needs the optional extra ``pettingzoo`` (``pip install './python[pettingzoo]'``). Agents are
``player_0`` and ``player_1`` (seat 1 and seat 2 of the command line). An observation is a dict:
``observation``, the state's :meth:`cowrie.State.observation_tensor` (``docs/python.md``), and
``action_mask``, an ``int8`` vector over the action space with a 1 at every legal action id.

Action spaces (``docs/python.md`` says why):

- Baghchal: ``Discrete(1276)``, the game's fixed action encoding (placements, steps, jumps,
  the pass), the same ids in every position;
- Frangieh and Julbahar: ``Discrete(20475)``, an index into the state's ordered legal list of
  whole-turn plays; no roll has more distinct plays than that, so no play is ever masked out;
- Bargese: ``Discrete(65536)``, an index into the ordered legal list of whole-turn plays; the
  plays of a turn past the first 65,536 in the game's order are masked out
  (``infos[agent]["masked_out"]`` counts them; the most plays in the first 100 random games of
  the bench is 8,911).

Chance (dice, cowries, opening throws) is resolved inside :meth:`CowrieEnv.reset` and
:meth:`CowrieEnv.step` from a ChaCha8 generator seeded by ``reset(seed=...)`` (by fresh entropy
when no seed was ever given), drawing exactly as ``cowrie match`` draws: episode ``k`` after
``reset(seed=s)`` has the dice of game ``k`` of a ``cowrie match --seed s`` self-play run (no
seat swap, so each game is its own pair).

Rewards are the game's returns at its end (points won or lost, zero-sum: more than 1 for a
Frangieh gammon or a Julbahar match); a game cut by the rules' ply cap ends with
``truncations`` set and no reward.
"""

from __future__ import annotations

import os
from typing import Any, Dict, Optional

import numpy as np

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as e:  # pragma: no cover - depends on the environment
    raise ImportError(
        "cowrie.pettingzoo needs pettingzoo and gymnasium: pip install pettingzoo gymnasium"
    ) from e

import cowrie

__all__ = ["CowrieEnv", "env", "raw_env"]


def env(game: str, variant: Optional[str] = None, render_mode: Optional[str] = None,
        **options: Any) -> AECEnv:
    """The environment of ``game`` under ``variant`` and rule ``options`` (as
    :func:`cowrie.load_game` takes them), wrapped as PettingZoo's own classic environments are:
    actions outside the space are refused, and calls out of order are errors."""
    e = raw_env(game, variant, render_mode=render_mode, **options)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


def raw_env(game: str, variant: Optional[str] = None, render_mode: Optional[str] = None,
            **options: Any) -> "CowrieEnv":
    """The environment without PettingZoo's wrappers."""
    return CowrieEnv(game, variant, render_mode=render_mode, **options)


class CowrieEnv(AECEnv):
    """The AEC environment of one cowrie game (see the module's documentation)."""

    metadata = {"render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(self, game: str, variant: Optional[str] = None,
                 render_mode: Optional[str] = None, **options: Any):
        super().__init__()
        self.game = cowrie.load_game(game, variant, **options)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode '{render_mode}': one of {', '.join(self.metadata['render_modes'])}"
            )
        self.render_mode = render_mode
        self.metadata = dict(self.metadata, name=f"cowrie_{self.game.name}_v0")
        self.possible_agents = ["player_0", "player_1"]
        n = self.game.num_distinct_actions()
        shape = tuple(self.game.observation_tensor_shape())
        self._n = n
        self._action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self._observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, np.inf, shape=shape, dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, shape=(n,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self._chance: Optional[cowrie.Chance] = None
        self._seed: Optional[int] = None
        self._episode = 0
        self.state: Optional[cowrie.State] = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_spaces[agent]

    def _resolve_chance(self) -> None:
        assert self.state is not None and self._chance is not None
        while self.state.is_chance_node():
            self.state.apply_outcome(self._chance.sample(self.state))

    def _mask(self) -> np.ndarray:
        mask = np.zeros(self._n, dtype=np.int8)
        if self.state is not None and not self.state.is_terminal():
            legal = np.asarray(self.state.legal_actions(), dtype=np.int64)
            mask[legal[legal < self._n]] = 1
        return mask

    def observe(self, agent: str) -> Dict[str, np.ndarray]:
        assert self.state is not None, "reset() first"
        mask = self._mask() if agent == self.agent_selection else np.zeros(self._n, dtype=np.int8)
        return {"observation": self.state.observation_tensor(), "action_mask": mask}

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        if seed is not None or self._seed is None:
            if seed is None:
                seed = int.from_bytes(os.urandom(8), "little")
            self._seed, self._episode = seed, 0
        # Episode k after a seeded reset has the dice of pair k of a `cowrie match` run with
        # that seed and no seat swap (its chance stream, 4 k).
        self._chance = cowrie.Chance(self._seed, 4 * self._episode)
        self._episode += 1
        self.state = self.game.new_initial_state()
        self._resolve_chance()
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        assert self.state is not None
        player = self.state.current_player()
        if player >= 0:
            self.agent_selection = self.possible_agents[player]
            legal = len(self.state.legal_actions())
            self.infos[self.agent_selection]["masked_out"] = max(0, legal - self._n)
        # At the end the selection stays with the agent that moved last; PettingZoo then
        # steps every agent out with `None`.

    def step(self, action: Optional[int]) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.state is not None
        self._cumulative_rewards[agent] = 0.0
        assert self._chance is not None
        self._chance.decision(self.state.current_player())
        self.state.apply_action(int(action))
        self._resolve_chance()
        if self.state.is_terminal():
            returns = self.state.returns()
            truncated = self.state.end_reason() == "truncated"
            for i, a in enumerate(self.possible_agents):
                self.rewards[a] = float(returns[i])
                self.terminations[a] = not truncated
                self.truncations[a] = truncated
        else:
            for a in self.possible_agents:
                self.rewards[a] = 0.0
            self._select()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> Optional[str]:
        if self.render_mode is None:
            return None
        text = str(self.state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass
