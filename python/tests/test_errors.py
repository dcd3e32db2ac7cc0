"""Bad input raises ValueError with the command line's message; nothing panics."""

import random

import pytest

import cowrie


def test_unknown_game_variant_and_option_have_the_cli_messages(cli):
    cases = [
        (("chess",), {}, ["--game", "chess"]),
        (("baghchal", "nepal-1900"), {}, ["--game", "baghchal", "--variant", "nepal-1900"]),
        (("baghchal",), {"colour": "red"}, ["--game", "baghchal", "--option", "colour=red"]),
        (("frangieh",), {"ply_cap": "-3"}, ["--game", "frangieh", "--option", "ply-cap=-3"]),
    ]
    for args, options, cli_args in cases:
        with pytest.raises(ValueError) as e:
            cowrie.load_game(*args, **options)
        expected = cli.error("match", *cli_args, "--p1", "random", "--p2", "random",
                             "--games", "2", "--out", "/nonexistent/never-written")
        assert str(e.value) == expected


def test_bad_agent_spec_has_the_cli_message(cli):
    for spec in ["alphazero", "mcts:iterations=0", "expectimax:depth=2,speed=9"]:
        with pytest.raises(ValueError) as e:
            cowrie.agent(spec)
        line = cli.error("match", "--game", "baghchal", "--p1", spec, "--p2", "random",
                         "--games", "2", "--out", "/nonexistent/never-written")
        # clap prefixes the argument it could not read; the reason is the agent's.
        assert line.endswith(str(e.value)), (line, str(e.value))


def test_bad_match_arguments_have_the_cli_messages(cli, tmp_path):
    # Seat-swapped pairs need an even number of games (self-play is not swapped).
    with pytest.raises(ValueError) as e:
        cowrie.play_match("baghchal", "random", "heuristic", 3)
    line = cli.error("match", "--game", "baghchal", "--p1", "random", "--p2", "heuristic",
                     "--games", "3", "--out", str(tmp_path / "x"))
    assert str(e.value) == line
    with pytest.raises(ValueError, match="unknown game 'go'"):
        cowrie.play_match("go", "random", "random", 2)
    with pytest.raises(ValueError, match="resume=True needs out"):
        cowrie.play_match("baghchal", "random", "random", 2, resume=True)
    with pytest.raises(ValueError, match="holds no run"):
        cowrie.play_match("baghchal", "random", "random", 2, out=tmp_path / "none", resume=True)


def test_whole_number_arguments_outside_their_range_are_named():
    """Each message names the argument, the value and the range the value must be in
    (--games: 1 to 2^40, as the command line's; seeds and streams: 64-bit; --threads: 1 to
    the command line's bound)."""
    top = 2**64 - 1
    cases = [
        (lambda: cowrie.play_match("baghchal", "random", "random", -1),
         "--games -1: must be a whole number from 1 to 1099511627776"),
        (lambda: cowrie.play_match("baghchal", "random", "random", 0),
         "--games 0: must be a whole number from 1 to 1099511627776"),
        (lambda: cowrie.play_match("baghchal", "random", "random", 2**40 + 2),
         "--games 1099511627778: must be a whole number from 1 to 1099511627776"),
        (lambda: cowrie.play_match("baghchal", "random", "random", 2.0),
         "--games 2.0: must be a whole number from 1 to 1099511627776"),
        (lambda: cowrie.play_match("baghchal", "random", "random", True),
         "--games True: must be a whole number from 1 to 1099511627776"),
        (lambda: cowrie.play_match("baghchal", "random", "random", 2, seed=-1),
         f"--seed -1: must be a whole number from 0 to {top}"),
        (lambda: cowrie.play_match("baghchal", "random", "random", 2, seed=2**64),
         f"--seed {2**64}: must be a whole number from 0 to {top}"),
        (lambda: cowrie.play_match("baghchal", "random", "random", 2, threads=-1),
         "--threads -1: must be a whole number from 1 to "),
        (lambda: cowrie.play_match("baghchal", "random", "random", 2, threads=0),
         "--threads 0: must be a whole number from 1 to "),
        (lambda: cowrie.streams(-1), "game_index -1: must be a whole number from 0 to 1099511627775"),
        (lambda: cowrie.streams(2**40), "game_index 1099511627776: must be a whole number from 0 to 1099511627775"),
        (lambda: cowrie.streams("3"), "game_index '3': must be a whole number from 0 to 1099511627775"),
        (lambda: cowrie.agent("random", seed=-5), f"seed -5: must be a whole number from 0 to {top}"),
        (lambda: cowrie.agent("random", stream=2**64), f"stream {2**64}: must be a whole number from 0 to {top}"),
        (lambda: cowrie.Chance(-1), f"seed -1: must be a whole number from 0 to {top}"),
        (lambda: cowrie.Chance(0, -2), f"stream -2: must be a whole number from 0 to {top}"),
    ]
    for call, message in cases:
        with pytest.raises(ValueError) as e:
            call()
        assert str(e.value).startswith(message), (str(e.value), message)
    # The bounds themselves are taken, and a numpy integer is a whole number.
    np = pytest.importorskip("numpy")
    assert cowrie.streams(2**40 - 1, swap=False)["chance"] == 4 * (2**40 - 1)
    assert cowrie.Chance(top, top) is not None
    assert cowrie.agent("random", seed=np.int64(3), stream=np.uint64(4)).spec == "random"
    assert cowrie.streams(np.int32(5)) == cowrie.streams(5)


def test_negative_ids_are_named():
    state = cowrie.load_game("baghchal").new_initial_state()
    for call in (state.apply_action, state.action_to_string):
        with pytest.raises(ValueError, match=r"^illegal action -1: ids are whole numbers from 0$"):
            call(-1)
    dice = cowrie.load_game("frangieh").new_initial_state()
    for call in (dice.apply_outcome, dice.outcome_to_string):
        with pytest.raises(ValueError, match=r"^invalid chance outcome -3: ids are whole numbers from 0$"):
            call(-3)
    with pytest.raises(ValueError, match=f"invalid chance outcome {2**64}: ids are whole numbers"):
        dice.apply_outcome(2**64)


def test_illegal_actions_are_named():
    game = cowrie.load_game("baghchal")
    state = game.new_initial_state()
    # a1 holds a tiger: placing a goat there is well-formed and illegal.
    a1 = state.string_to_action("a1")
    assert a1 not in state.legal_actions()
    with pytest.raises(ValueError, match=r"illegal action 'a1' \(action 0\)"):
        state.apply_action(a1)
    with pytest.raises(ValueError, match="illegal action 'a1-a2'"):
        state.apply_action(state.string_to_action("a1-a2"))
    with pytest.raises(ValueError, match="illegal action 5000: not an action id"):
        state.apply_action(5000)
    with pytest.raises(ValueError, match="malformed action 'z9'"):
        state.string_to_action("z9")
    with pytest.raises(ValueError, match="not a chance node"):
        state.apply_outcome(0)

    dice = cowrie.load_game("frangieh").new_initial_state()
    assert dice.is_chance_node()
    n = len(dice.chance_outcomes())
    for call in (dice.apply_outcome, dice.apply_action, dice.action_to_string):
        with pytest.raises(ValueError, match=f"invalid chance outcome {n}: the state has {n} outcomes"):
            call(n)
    with pytest.raises(ValueError, match="invalid chance outcome '7-7': not an outcome of this chance node"):
        dice.string_to_action("7-7")
    dice.apply_outcome(0)
    while dice.is_chance_node():
        dice.apply_outcome(0)
    legal = dice.legal_actions()
    assert legal == list(range(len(legal)))
    with pytest.raises(ValueError, match=f"illegal action {len(legal)}: the state has {len(legal)} legal"):
        dice.apply_action(len(legal))
    with pytest.raises(ValueError, match="not a decision node"):
        cowrie.agent("random").choose(cowrie.load_game("bargese").new_initial_state())


def test_malformed_positions_are_named():
    for name in cowrie.game_names():
        game = cowrie.load_game(name)
        with pytest.raises(ValueError, match="malformed position 'no such position'"):
            cowrie.state_from_notation(game, "no such position")


def test_an_agent_keeps_to_its_game():
    a = cowrie.agent("heuristic", seed=1)
    s = cowrie.load_game("baghchal").new_initial_state()
    a.choose(s)
    other = cowrie.load_game("julbahar").new_initial_state()
    while other.is_chance_node():
        other.apply_outcome(0)
    with pytest.raises(ValueError, match="this agent plays baghchal, not julbahar"):
        a.choose(other)


def test_garbage_never_panics():
    """Random ids, texts and notations at random states: every refusal is a ValueError."""
    rng = random.Random(5)
    texts = ["", "pass", "a1", "x", "1,2,3,4", "24/18 13/11", "\n", "é" * 100, "0" * 90, "-1"]
    for name in cowrie.game_names():
        game = cowrie.load_game(name)
        state = game.new_initial_state()
        for _ in range(300):
            if state.is_terminal():
                state = game.new_initial_state()
            probe = state.clone()
            for call in (probe.apply_action, probe.apply_outcome, probe.action_to_string,
                         probe.outcome_to_string):
                try:
                    call(rng.choice([0, 1, 7, 999, 1275, 65535, 2**40, 2**63, -1, 2**64]))
                except ValueError:
                    pass
            for t in texts:
                for call in (probe.string_to_action, lambda t: cowrie.state_from_notation(game, t)):
                    try:
                        call(t)
                    except ValueError:
                        pass
            if state.is_chance_node():
                state.apply_outcome(rng.randrange(len(state.chance_outcomes())))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
