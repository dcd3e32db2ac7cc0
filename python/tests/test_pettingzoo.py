"""The PettingZoo environment passes PettingZoo's own api_test, and chance is seeded."""

import numpy as np
import pytest

pettingzoo = pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test  # noqa: E402

import cowrie  # noqa: E402
import cowrie.pettingzoo as cpz  # noqa: E402


@pytest.mark.parametrize("game", cowrie.game_names())
def test_api_test(game):
    api_test(cpz.env(game), num_cycles=1000)


def test_api_test_of_a_variant_with_options():
    api_test(cpz.env("baghchal", "parlett-1976", goats_blocked="pass"), num_cycles=500)


def trajectory(game, seed, plies=40):
    env = cpz.env(game)
    env.reset(seed=seed)
    rng = np.random.default_rng(0)
    seen = []
    for agent in env.agent_iter(max_iter=plies):
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        action = int(rng.choice(legal))
        seen.append((agent, action, str(env.unwrapped.state)))
        env.step(action)
    return seen


def test_chance_is_seeded():
    assert trajectory("frangieh", 7) == trajectory("frangieh", 7)
    assert trajectory("frangieh", 7) != trajectory("frangieh", 8)


def test_spaces_and_masks():
    env = cpz.env("baghchal")
    env.reset(seed=1)
    assert env.action_space("player_0").n == 1276
    obs = env.observe("player_0")
    state = env.unwrapped.state
    assert sorted(np.flatnonzero(obs["action_mask"]).tolist()) == sorted(state.legal_actions())
    assert obs["action_mask"].sum() == 21
    for game, n in [("frangieh", 20475), ("julbahar", 20475), ("bargese", 65536)]:
        assert cpz.env(game).action_space("player_1").n == n


def test_rewards_are_the_returns():
    env = cpz.raw_env("julbahar", target=3)
    env.reset(seed=2)
    total = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter(max_iter=100_000):
        obs, reward, term, trunc, info = env.last()
        total[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    r = env.state.returns()
    assert env.state.is_terminal() and r[0] != 0
    assert total == {"player_0": r[0], "player_1": r[1]}


def test_plays_past_the_space_are_masked_out_and_counted():
    """The truncation rule for lists longer than the space, on a space cut down to 3 ids."""
    env = cpz.raw_env("frangieh")
    env.reset(seed=4)
    env._n = 3  # as if the space had 3 ids
    legal = len(env.state.legal_actions())
    assert legal > 3
    env._select()
    mask = env.observe(env.agent_selection)["action_mask"]
    assert mask.tolist() == [1, 1, 1]
    assert env.infos[env.agent_selection]["masked_out"] == legal - 3


@pytest.mark.parametrize("game", ["frangieh", "julbahar", "bargese"])
def test_episodes_have_the_dice_of_a_self_play_run(cli, tmp_path, game):
    """Episode k after ``reset(seed=s)``, played by the random agents on the streams
    ``cowrie match`` gives game k, is game k of a ``--seed s`` self-play run."""
    from conftest import rows

    expected = rows(cli.match(tmp_path, "--game", game, "--p1", "random", "--p2", "random",
                              "--games", "3", "--seed", "5", "--threads", "1"))
    env = cpz.raw_env(game)
    for k, row in enumerate(expected):
        if k == 0:
            env.reset(seed=5)
        else:
            env.reset()
        s = cowrie.streams(k, swap=False)
        agents = [cowrie.agent("random", 5, s["seat1"]), cowrie.agent("random", 5, s["seat2"])]
        while not env.state.is_terminal():
            player = env.state.current_player()
            env.step(agents[player].choose(env.state))
        assert env.state.plies() == int(row["plies"]), k
        assert float(row["points_p1"]) == env.state.returns()[0]
