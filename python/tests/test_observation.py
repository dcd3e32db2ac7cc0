"""Observation tensors: shapes, dtypes, and values derived by hand for known positions."""

import numpy as np

import cowrie


def test_shapes_and_dtypes_at_every_node_kind():
    for name in cowrie.game_names():
        game = cowrie.load_game(name)
        state = game.new_initial_state()
        chance = cowrie.Chance(3)
        agent = cowrie.agent("random", 3)
        for _ in range(60):
            x = state.observation_tensor()
            assert x.dtype == np.float32 and list(x.shape) == game.observation_tensor_shape()
            assert np.all(x >= 0) and np.all(np.isfinite(x))
            if state.is_terminal():
                break
            if state.is_chance_node():
                state.apply_outcome(chance.sample(state))
            else:
                state.apply_action(agent.choose(state))


def test_baghchal_planes_at_the_start():
    x = cowrie.load_game("baghchal").new_initial_state().observation_tensor()
    assert x.shape == (5, 5, 5)
    assert x[0].sum() == 0  # no goats on the board
    tigers = np.zeros((5, 5))
    tigers[[0, 0, 4, 4], [0, 4, 0, 4]] = 1  # a1, e1, a5, e5
    assert (x[1] == tigers).all()
    assert (x[2] == 1).all()  # the goats to move
    assert (x[3] == 1).all()  # 20 of 20 goats in hand
    assert (x[4] == 0).all()  # none captured


def test_baghchal_planes_of_a_notation():
    game = cowrie.load_game("baghchal")
    # Rank 5 first: a goat on c5 and b1, tigers on a5, e5, a1 and c3; tigers to move.
    s = cowrie.state_from_notation(game, "T.G.T/...../..T../...../TG... t 16 2 8")
    x = s.observation_tensor()
    assert x[0, 4, 2] == 1 and x[0, 0, 1] == 1 and x[0].sum() == 2
    assert x[1, 4, 0] == x[1, 4, 4] == x[1, 0, 0] == x[1, 2, 2] == 1 and x[1].sum() == 4
    assert (x[2] == 0).all()
    assert np.allclose(x[3], 0.8) and np.allclose(x[4], 0.1)


def test_frangieh_is_the_td_encoding_at_the_start():
    game = cowrie.load_game("frangieh")
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_outcome(0)
    x = state.observation_tensor()
    assert x.shape == (196,)
    # The standard start from either side: 2 on the 24-point, 5 on 13, 3 on 8, 5 on 6 (Tesauro's
    # units: n >= 1, n >= 2, n >= 3, (n - 3) / 2).
    def units(n):
        return [float(n >= 1), float(n >= 2), float(n >= 3), max(0, n - 3) / 2]
    mine = {24: 2, 13: 5, 8: 3, 6: 5}
    for p in range(1, 25):
        assert list(x[4 * (p - 1): 4 * p]) == units(mine.get(p, 0)), p
        # the opponent's checkers on the viewer's point p stand on its own point 25 - p
        assert list(x[96 + 4 * (p - 1): 96 + 4 * p]) == units(mine.get(25 - p, 0)), p
    assert list(x[192:]) == [0, 0, 0, 0]


def test_julbahar_and_bargese_count_every_piece():
    j = cowrie.load_game("julbahar").new_initial_state()
    x = j.observation_tensor()
    assert x.shape == (56,)
    assert np.isclose(x[:26].sum() * 15, 15) and np.isclose(x[26:52].sum() * 15, 15)
    b = cowrie.load_game("bargese").new_initial_state()
    y = b.observation_tensor()
    assert y.shape == (179,)
    # Four pieces a side, all off the board (position code 84) before the game.
    assert y[84] == 1 and y[85 + 84] == 1 and y[:170].sum() == 2
    assert y[178] == 1  # the opening is on
