"""Python policies as agents: in play_match, tournament, ladder and converge, through the
commands' own code; reproducible from the agent streams; failures stopping the run."""

import json
import os

import numpy as np
import pytest

import cowrie

from conftest import rows


def first(state):
    """The first legal action."""
    return state.legal_actions()[0]


def last(state):
    """The last legal action."""
    return state.legal_actions()[-1]


def uniform(state, rng):
    """A legal action drawn uniformly from the game's generator."""
    legal = state.legal_actions()
    return legal[int(rng.integers(len(legal)))]


FIRST = cowrie.PythonAgent("first", first, version="1", reproducible=True)
LAST = cowrie.PythonAgent("last", last, reproducible=True)
UNIFORM = cowrie.PythonAgent("uniform", uniform, version="0.1", reproducible=True)


def by_hand(game, seat1, seat2):
    """Plays a game of chance-free `game` with the two policies, by the state API alone:
    (plies, winner seat or 0)."""
    state = cowrie.load_game(game).new_initial_state()
    policies = [seat1, seat2]
    while not state.is_terminal():
        state.apply_action(policies[state.current_player()](state))
    r = state.returns()
    return state.plies(), 1 if r[0] > 0 else 2 if r[1] > 0 else 0


def manifest(path):
    with open(os.path.join(path, "manifest.json"), encoding="utf-8") as f:
        return json.load(f)


def test_play_match_replays_the_policies_games_by_hand(tmp_path):
    # Baghchal has no chance: deterministic policies play the same game whenever they sit in
    # the same seats; the seat-swapped pairs alternate the two games.
    got = cowrie.play_match("baghchal", FIRST, LAST, 4, seed=3, threads=1,
                            out=tmp_path / "run")
    expected = {1: by_hand("baghchal", first, last), 2: by_hand("baghchal", last, first)}
    for r in got:
        first_seat = 1 if r["agent_p1"] == FIRST.spec else 2
        assert first_seat == (1 if int(r["game_index"]) % 2 == 0 else 2)
        plies, winner = expected[first_seat]
        assert int(r["plies"]) == plies, r
        assert int(r["winner_seat"] or 0) == winner, r
    m = manifest(tmp_path / "run")
    assert m["run"]["agents"] == [FIRST.spec, LAST.spec]
    assert FIRST.spec == "python:name=first,version=1,reproducible=on"
    assert m["reproducible"] is True and m["status"] == "complete"


@pytest.mark.parametrize("game", ["baghchal", "frangieh"])
def test_threads_1_and_2_give_the_same_bytes(game):
    one = cowrie.play_match(game, UNIFORM, "random", 8, seed=11, threads=1)
    two = cowrie.play_match(game, UNIFORM, "random", 8, seed=11, threads=2)
    assert one.csv == two.csv
    # The policy's generator is seeded per game: the games are not all one game.
    assert len({(r["plies"], r["winner_seat"]) for r in one}) > 1


def test_same_seed_same_bytes_other_seed_other_games():
    a = cowrie.play_match("baghchal", UNIFORM, FIRST, 6, seed=5, threads=2)
    b = cowrie.play_match("baghchal", UNIFORM, FIRST, 6, seed=5, threads=2)
    c = cowrie.play_match("baghchal", UNIFORM, FIRST, 6, seed=6, threads=2)
    assert a.csv == b.csv
    # FIRST is deterministic and Baghchal has no chance: only UNIFORM's draws can differ.
    assert [r["plies"] for r in a] != [r["plies"] for r in c]


def test_an_agent_not_declared_reproducible_makes_the_run_not_reproducible(tmp_path):
    plain = cowrie.PythonAgent("plain", first)
    cowrie.play_match("baghchal", plain, "random", 2, out=tmp_path / "run")
    m = manifest(tmp_path / "run")
    assert m["run"]["agents"][0] == "python:name=plain,reproducible=off"
    assert m["reproducible"] is False


def test_any_object_with_choose_is_an_agent(tmp_path):
    class Greedy:
        name = "greedy-obj"
        version = "3"

        def choose(self, state):
            return state.legal_actions()[0]

    got = cowrie.play_match("baghchal", Greedy(), LAST, 2, out=tmp_path / "run", threads=1)
    assert manifest(tmp_path / "run")["run"]["agents"][0] == (
        "python:name=greedy-obj,version=3,reproducible=off")
    assert [int(r["plies"]) for r in got] == [by_hand("baghchal", first, last)[0],
                                              by_hand("baghchal", last, first)[0]]


def test_tournament_plays_each_pairing_as_by_hand(tmp_path):
    out = cowrie.tournament("baghchal", [FIRST, LAST, "random"], tmp_path / "t",
                            games_per_pair=2, seed=2, threads=2)
    games = rows(open(os.path.join(out, "games.csv"), encoding="utf-8").read())
    # Three agents: three pairings of two games each.
    assert len(games) == 3 * 2
    m = manifest(out)
    assert m["status"] == "complete"
    assert FIRST.spec in m["run"]["agents"] and LAST.spec in m["run"]["agents"]
    both = [r for r in games
            if {r["agent_p1"], r["agent_p2"]} == {FIRST.spec, LAST.spec}]
    assert len(both) == 2
    for r in both:
        seat1 = first if r["agent_p1"] == FIRST.spec else last
        seat2 = last if seat1 is first else first
        plies, winner = by_hand("baghchal", seat1, seat2)
        assert int(r["plies"]) == plies and int(r["winner_seat"] or 0) == winner, r


def test_ladder_with_a_python_rung(tmp_path):
    out = cowrie.ladder("frangieh", ["random", UNIFORM, "heuristic"], tmp_path / "l",
                        games_per_pair=4, seed=1, threads=2)
    table = rows(open(os.path.join(out, "ladder.csv"), encoding="utf-8").read())
    assert UNIFORM.spec in {v for r in table for v in r.values()}
    games = rows(open(os.path.join(out, "games.csv"), encoding="utf-8").read())
    # Two steps of four games.
    assert len(games) == 2 * 4
    m = manifest(out)
    assert m["status"] == "complete" and m["reproducible"] is True
    # The same ladder again: the same bytes.
    again = cowrie.ladder("frangieh", ["random", UNIFORM, "heuristic"], tmp_path / "l2",
                          games_per_pair=4, seed=1, threads=1)
    for name in ("games.csv", "ladder.csv"):
        assert open(os.path.join(out, name), "rb").read() == \
            open(os.path.join(again, name), "rb").read()


def test_converge_with_a_python_rung(tmp_path):
    out = cowrie.converge("frangieh", ["random", UNIFORM], tmp_path / "c", games=4,
                          strength_games=2, seed=1, threads=2)
    m = manifest(out)
    assert m["status"] == "complete"
    table = rows(open(os.path.join(out, "converge.csv"), encoding="utf-8").read())
    assert UNIFORM.spec in {v for r in table for v in r.values()}


def boom(state):
    return 1 // 0


@pytest.mark.parametrize("threads", [1, 2])
def test_an_exception_in_the_policy_stops_the_run(tmp_path, threads):
    agent = cowrie.PythonAgent("boom", boom)
    with pytest.raises(ValueError) as e:
        cowrie.play_match("baghchal", agent, "random", 4, threads=threads, out=tmp_path / "run")
    line = str(e.value)
    assert "\n" not in line
    assert "agent 'python:name=boom,reproducible=off': choose raised ZeroDivisionError" in line
    assert isinstance(e.value.__cause__, ZeroDivisionError)
    # Nothing is passed off as complete: no game was written, the manifest is not complete.
    assert manifest(tmp_path / "run")["status"] != "complete"
    assert len(rows((tmp_path / "run" / "games.csv").read_text())) == 0


def test_a_failure_after_some_games_leaves_the_run_unfinished(tmp_path):
    games = []

    def late(state):
        # Its first move of a game: at ply 0 in seat 1, ply 1 in seat 2 (Baghchal has no chance).
        if state.plies() <= 1:
            games.append(state.plies())
        if len(games) == 6:
            raise RuntimeError("out of patience")
        return state.legal_actions()[0]

    agent = cowrie.PythonAgent("late", late)
    with pytest.raises(ValueError, match="game 5: agent 'python:name=late,reproducible=off': "
                                         "choose raised RuntimeError: out of patience"):
        cowrie.play_match("baghchal", agent, "random", 40, threads=1, out=tmp_path / "run")
    m = manifest(tmp_path / "run")
    assert m["status"] == "running"
    # What was written before the failing game's batch: the first rows of the whole run.
    partial = (tmp_path / "run" / "games.csv").read_text()
    written = len(rows(partial))
    assert written < 6
    whole = cowrie.play_match("baghchal", cowrie.PythonAgent("late", first), "random", 40,
                              threads=1)
    assert whole.csv.startswith(partial)
    # read_run reads only what the manifest vouches for, and says the run is not complete.
    run = cowrie.read_run(tmp_path / "run")
    assert run.status == "running" and len(run.games) == written
    # Resumed with a policy that plays on, the run is the whole run.
    again = cowrie.play_match("baghchal", cowrie.PythonAgent("late", first), "random", 40,
                              threads=1, out=tmp_path / "run", resume=True)
    assert again.csv == whole.csv


@pytest.mark.parametrize("answer, shown", [(99999, "99999"), (-1, "-1"), ("e3", "'e3'"),
                                           (None, "None")])
def test_an_illegal_answer_names_the_agent_and_the_value(answer, shown):
    agent = cowrie.PythonAgent("liar", lambda state: answer)
    with pytest.raises(ValueError) as e:
        cowrie.play_match("baghchal", agent, "random", 2, threads=1)
    line = str(e.value)
    assert "\n" not in line
    assert f"agent 'python:name=liar,reproducible=off': choose returned {shown} at " in line


def test_an_illegal_action_id_of_a_dice_game_is_refused():
    agent = cowrie.PythonAgent("past-end", lambda state: len(state.legal_actions()))
    with pytest.raises(ValueError, match=r"choose returned \d+ at .*: illegal action \d+: "
                                         r"the state has \d+ legal actions"):
        cowrie.play_match("frangieh", agent, "random", 2, threads=1)


def test_bad_names_and_unregistered_specs_are_refused(cli):
    with pytest.raises(ValueError, match="PythonAgent name 'two words'"):
        cowrie.PythonAgent("two words", first)
    with pytest.raises(ValueError, match="not callable"):
        cowrie.PythonAgent("x", 3)
    with pytest.raises(ValueError, match="two different Python agents are named 'dup'"):
        cowrie.play_match("baghchal", cowrie.PythonAgent("dup", first),
                          cowrie.PythonAgent("dup", last), 2)
    with pytest.raises(ValueError, match="no Python agent named 'ghost' is registered"):
        cowrie.play_match("baghchal", "python:name=ghost", "random", 2)
    # The command line has no Python policies: a one-line error, exit code 2.
    line = cli.error("match", "--game", "baghchal", "--p1", "python:name=first", "--p2",
                     "random", "--games", "2", "--out", "/nonexistent/never-written")
    assert "'first' is a Python policy: it plays only through the Python package" in line
    line = cli.error("match", "--game", "baghchal", "--p1", "python:name=a,b", "--p2",
                     "random", "--games", "2", "--out", "/nonexistent/never-written")
    assert "python" in line


def test_cowrie_agent_plays_a_registered_policy():
    cowrie.play_match("baghchal", FIRST, "random", 2)  # registers FIRST
    state = cowrie.load_game("baghchal").new_initial_state()
    assert cowrie.agent(FIRST.spec).choose(state) == state.legal_actions()[0]
    assert cowrie.agent(LAST).choose(state) == state.legal_actions()[-1]


def test_the_policy_gets_a_generator_and_a_state():
    seen = []

    def look(state, rng):
        seen.append((type(state).__name__, type(rng)))
        return state.legal_actions()[0]

    cowrie.play_match("frangieh", cowrie.PythonAgent("look", look), "random", 2, threads=1)
    assert seen and all(s == ("State", np.random.Generator) for s in seen)
