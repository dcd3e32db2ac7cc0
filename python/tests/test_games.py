"""Random games of every game and variant to the end through the Python API, checked against
`cowrie match` for the same seed: the same streams (docs/conventions.md) must give the same
game, so every per-game column the runner computes is recomputed here from the API."""

import pytest

import cowrie
from conftest import rows

SEED = 11
GAMES = 4  # self-play: four games, each its own pair


def variants():
    for name in cowrie.game_names():
        for v in cowrie.load_game(name).variants():
            yield name, v


def play_through_api(game: cowrie.Game, seed: int, index: int, specs):
    """Plays game `index` of a run as `cowrie match` does, one call of the API at a time, and
    returns the row fields the runner derives (docs/conventions.md)."""
    # Self-play is not seat-swapped (docs/conventions.md): each game is its own pair.
    s = cowrie.streams(index, swap=specs[0] != specs[1])
    chance = cowrie.Chance(seed, s["chance"])
    agents = [cowrie.agent(specs[0], seed, s["seat1"]), cowrie.agent(specs[1], seed, s["seat2"])]
    state = game.new_initial_state()
    first = None
    last = None
    turns = choices = branching = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert outcomes and abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
            # As OpenSpiel's: the legal actions of a chance node are its outcomes, and applying
            # one as an action applies the outcome.
            ids = [o for o, _ in outcomes]
            assert state.legal_actions() == ids == list(range(len(outcomes)))
            assert state.current_player() == cowrie.CHANCE_PLAYER_ID
            drawn = chance.sample(state)
            text = state.outcome_to_string(drawn)
            assert state.action_to_string(drawn) == text
            assert state.string_to_action(text) == drawn
            other = state.clone()
            other.apply_action(drawn)
            state.apply_outcome(drawn)
            assert str(other) == str(state)
            continue
        player = state.current_player()
        assert player in (0, 1)
        legal = state.legal_actions()
        assert legal and len(set(legal)) == len(legal)
        if game.name != "bargese":  # the tables games' bound holds for every roll (docs/python.md)
            assert len(legal) <= game.num_distinct_actions()
        chance.decision(player)
        if first is None:
            first = player
        if player != last:
            turns += 1
            last = player
        choices += len(legal) > 1
        branching += len(legal)
        action = agents[player].choose(state)
        assert action in legal
        text = state.action_to_string(action)
        assert state.string_to_action(text) == action
        if state.plies() % 7 == 0:
            # The notation reads back to the same position, and a clone is independent.
            again = cowrie.state_from_notation(game, str(state))
            assert str(again) == str(state)
            assert again.position_hash() == state.position_hash()
            copy = state.clone()
            copy.apply_action(action)
            assert str(copy) != str(state) or text == "pass"
        state.apply_action(action)
    assert state.current_player() == cowrie.TERMINAL_PLAYER_ID
    assert state.legal_actions() == [] and state.chance_outcomes() == []
    r = state.returns()
    assert r[0] == -r[1]
    return state, {"plies": state.plies(), "turns": turns, "choices": choices,
                   "branching_sum": branching, "first": first}


def fmt_points(x: float) -> str:
    return str(int(x)) if x == int(x) else str(x)


@pytest.mark.parametrize("name,variant", list(variants()))
def test_random_games_match_the_cli(cli, tmp_path, name, variant):
    csv_text = cli.match(tmp_path, "--game", name, "--variant", variant, "--p1", "random",
                         "--p2", "random", "--games", str(GAMES), "--seed", str(SEED),
                         "--threads", "2")
    expected = rows(csv_text)
    assert len(expected) == GAMES
    game = cowrie.load_game(name, variant)
    for row in expected:
        i = int(row["game_index"])
        state, got = play_through_api(game, SEED, i, ("random", "random"))
        assert got["plies"] == int(row["plies"])
        assert got["turns"] == int(row["turns"])
        assert got["choices"] == int(row["choices"])
        assert got["branching_sum"] == int(row["branching_sum"])
        assert state.end_reason() == row["end_reason"]
        r = state.returns()
        assert float(row["points_p1"]) == r[0] and float(row["points_p2"]) == r[1]
        winner = "" if r[0] == r[1] else ("1" if r[0] > r[1] else "2")
        assert row["winner_seat"] == winner
        if name != "bargese":  # Bargese's first mover is the shell throw's winner
            assert row["first_mover_seat"] == str(got["first"] + 1)


@pytest.mark.parametrize("name,specs", [
    ("frangieh", ("td:ply=0", "mcts:iterations=30")),
    ("baghchal", ("heuristic:temperature=0.5", "expectimax:depth=2")),
    ("bargese", ("heuristic", "random")),
])
def test_other_agents_match_the_cli(cli, tmp_path, name, specs):
    """Agents that search, learn or draw from their own streams choose as in `cowrie match`."""
    csv_text = cli.match(tmp_path, "--game", name, "--p1", specs[0], "--p2", specs[1],
                         "--games", "2", "--seed", "3", "--threads", "1")
    game = cowrie.load_game(name)
    for row in rows(csv_text):
        i = int(row["game_index"])
        seats = specs if i % 2 == 0 else specs[::-1]
        assert (row["agent_p1"], row["agent_p2"]) == tuple(cowrie.agent(s).spec for s in seats)
        state, got = play_through_api(game, 3, i, seats)
        assert got["plies"] == int(row["plies"])
        assert got["branching_sum"] == int(row["branching_sum"])
        assert float(row["points_p1"]) == state.returns()[0]
