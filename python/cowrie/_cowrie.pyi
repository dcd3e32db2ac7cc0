"""Type stubs of cowrie's native module (``python/src/lib.rs``)."""

from typing import Dict, List, Optional, Tuple

import numpy as np
import numpy.typing as npt

CHANCE_PLAYER_ID: int
"""``current_player()`` at a chance node (-1, as OpenSpiel's ``kChancePlayerId``)."""
TERMINAL_PLAYER_ID: int
"""``current_player()`` once the game is over (-4, as OpenSpiel's ``kTerminalPlayerId``)."""

class Game:
    """A game under a resolved rule set (OpenSpiel's ``Game``)."""

    def __init__(self, name: str, variant: Optional[str] = None, options: List[str] = ...) -> None:
        """``options`` are ``key=value`` texts as ``--option`` takes them; a ``ValueError``
        with the command line's message for a bad name, variant, option or value."""
    @property
    def name(self) -> str:
        """The game's name (``baghchal``)."""
    @property
    def variant(self) -> str:
        """The named variant the rules start from."""
    @property
    def overrides(self) -> List[str]:
        """The ``key=value`` overrides applied after the variant."""
    def variants(self) -> List[str]:
        """The named variants, the default first."""
    def options(self) -> Dict[str, str]:
        """Every rule option's resolved value, in the game's order."""
    def describe(self) -> str:
        """The variants and options in words, with sources and defaults (``cowrie rules``)."""
    def new_initial_state(self) -> "State":
        """The start position."""
    def state_from_notation(self, text: str) -> "State":
        """A position in the game's notation (``ValueError`` naming a malformed text)."""
    def num_players(self) -> int:
        """2."""
    def num_distinct_actions(self) -> int:
        """Baghchal: 1276 (its fixed encoding); dice games: the longest legal list the
        PettingZoo environment offers in full (Frangieh, Julbahar 20475; Bargese 65536)."""
    def action_ids_fixed(self) -> bool:
        """True where action ids are a fixed encoding (Baghchal), False where they index the
        state's legal list (the dice games)."""
    def max_game_length(self) -> Optional[int]:
        """The rules' ply cap, or None."""
    def max_utility(self) -> int:
        """The largest number of points one game can win."""
    def has_chance(self) -> bool:
        """Whether the game has chance nodes."""
    def observation_tensor_shape(self) -> List[int]:
        """The shape of ``State.observation_tensor()``."""
    def side_names(self) -> List[str]:
        """The players' side names, player 0 first."""

class State:
    """A state of a game (OpenSpiel's ``State``)."""

    def get_game(self) -> Game:
        """The game this state belongs to."""
    def current_player(self) -> int:
        """0 or 1 at a decision node, ``CHANCE_PLAYER_ID`` at a chance node,
        ``TERMINAL_PLAYER_ID`` at the end."""
    def is_chance_node(self) -> bool:
        """Whether nature acts here."""
    def is_terminal(self) -> bool:
        """Whether the game is over (a win, a draw or the ply cap)."""
    def end_reason(self) -> Optional[str]:
        """``win``, ``draw`` or ``truncated`` at the end, else None."""
    def legal_actions(self) -> List[int]:
        """The legal action ids in the game's fixed order; at a chance node the outcome ids
        (as OpenSpiel's, those of ``chance_outcomes()``); empty at the end."""
    def action_to_string(self, action: int) -> str:
        """The action in the game's notation (at a chance node, the outcome's text)."""
    def string_to_action(self, text: str) -> int:
        """The id of the legal action written ``text`` (``ValueError`` if malformed or illegal;
        Baghchal returns the fixed id of any well-formed action; at a chance node, the id of
        the outcome written ``text``)."""
    def apply_action(self, action: int) -> None:
        """Plays a legal action, or applies the chance outcome ``action`` at a chance node (as
        OpenSpiel's); ``ValueError`` naming the action when it is not legal here."""
    def chance_outcomes(self) -> List[Tuple[int, float]]:
        """``(outcome id, probability)`` at a chance node, summing to 1; empty elsewhere."""
    def outcome_to_string(self, outcome: int) -> str:
        """The chance outcome as the game writes it."""
    def apply_outcome(self, outcome: int) -> None:
        """Applies a chance outcome (``ValueError`` if not a chance node or not an outcome)."""
    def plies(self) -> int:
        """Decision plies played (forced passes included)."""
    def returns(self) -> List[float]:
        """Points per player at the end, zero-sum; zeros before the end."""
    def position_hash(self) -> int:
        """The position's 64-bit Zobrist hash."""
    def observation_player(self) -> int:
        """The player whose view ``observation_tensor()`` takes."""
    def observation_tensor(self) -> npt.NDArray[np.float32]:
        """The observation as a float32 array (encodings: docs/python.md)."""
    def clone(self) -> "State":
        """An independent copy."""
    def __copy__(self) -> "State": ...
    def __deepcopy__(self, memo: object) -> "State": ...

class Agent:
    """An agent of any spec the command line takes, on its own random stream."""

    def __init__(self, spec: str, seed: int = 0, stream: int = 0) -> None:
        """``ValueError`` with the command line's message for a bad spec, or naming a seed or
        stream outside 0 to 2^64 - 1."""
    @property
    def spec(self) -> str:
        """The spec in the command line's form."""
    def choose(self, state: State) -> int:
        """The id of the action the agent plays at a decision node."""

class Chance:
    """Draws chance outcomes as ``cowrie match`` does: each from its own place in a ChaCha8
    stream, keyed by the game within the unit of play, whose throw it is, that player's turn and
    the throw's index within the turn. Call ``decision`` at every decision node, as the runner
    notes each one, so that the turns are counted as the runner counts them."""

    def __init__(self, seed: int = 0, stream: int = 0) -> None:
        """``ValueError`` naming a seed or stream outside 0 to 2^64 - 1."""
    def sample(self, state: State) -> int:
        """The id of an outcome of chance node ``state``."""
    def decision(self, player: int) -> None:
        """Notes a decision of ``player`` (0 or 1)."""

def state_from_notation(game: Game, text: str) -> State:
    """A position of ``game`` in its notation."""

def game_names() -> List[str]:
    """The games, in the command line's order."""

def streams(game_index: int, swap: bool = True) -> Dict[str, int]:
    """The ChaCha8 stream numbers ``cowrie match`` gives game ``game_index`` (0 to 2^40 - 1)
    of a run: ``chance``, ``seat1`` and ``seat2``."""

def play_match_csv(
    game: str,
    p1: str,
    p2: str,
    games: int,
    variant: Optional[str],
    options: List[str],
    seed: int,
    threads: int,
    swap: bool,
    out: str,
    record: bool,
    resume: bool = False,
    force: bool = False,
) -> str:
    """Runs ``cowrie match`` into ``out`` and returns its ``games.csv``; a signal handler's
    exception (Ctrl-C) stops it at its next write of finished games, resumable with
    ``resume``; a finished run in ``out`` is refused unless ``force`` replaces it."""

def run_command(argv: List[str]) -> None:
    """Runs one ``cowrie match``, ``study``, ``merge``, ``tournament``, ``ladder`` or ``converge`` command line (the
    program's name first) in this process through the command line's own parser and command
    functions; bad arguments or a failed run raise ``ValueError`` with its one-line message."""
