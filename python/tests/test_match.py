"""play_match gives `cowrie match`'s games.csv byte for byte; read_run reads and checks a run."""

import json

import pytest

import cowrie


@pytest.mark.parametrize(
    "args",
    [
        dict(game="baghchal", variant="averbakh-1995", p1="heuristic", p2="random", games=6, seed=4),
        dict(game="frangieh", variant="modern", p1="expectimax:depth=1", p2="heuristic", games=4, seed=2),
        dict(game="julbahar", p1="random", p2="heuristic", games=2, seed=9),
        dict(game="bargese", p1="heuristic", p2="random", games=4, seed=1, options=["ply-cap=300"]),
    ],
)
def test_play_match_is_the_cli_run(cli, tmp_path, args):
    cli_args = ["--game", args["game"], "--p1", args["p1"], "--p2", args["p2"],
                "--games", str(args["games"]), "--seed", str(args["seed"]), "--threads", "1"]
    if "variant" in args:
        cli_args += ["--variant", args["variant"]]
    for o in args.get("options", []):
        cli_args += ["--option", o]
    expected = cli.match(tmp_path / "cli", *cli_args)
    for threads in (1, 2):
        got = cowrie.play_match(**args, threads=threads)
        assert got.csv == expected
        assert len(got) == args["games"]
        assert list(got[0].keys()) == expected.splitlines()[0].split(",")
        assert got[0]["game"] == args["game"]


def test_rows_to_pandas_and_read_run(tmp_path):
    pandas = pytest.importorskip("pandas")
    out = tmp_path / "run"
    got = cowrie.play_match("julbahar", "heuristic", "random", 2, seed=5, out=out, record=True)
    frame = got.to_pandas()
    assert isinstance(frame, pandas.DataFrame)
    assert list(frame["game_index"]) == [0, 1]
    assert frame["points_p1"].sum() == sum(float(r["points_p1"]) for r in got)
    run = cowrie.read_run(out)
    assert run.status == "complete"
    assert run.games.csv == got.csv
    assert run.manifest["run"]["game"] == "julbahar"
    assert run.manifest["command_line"][:2] == ["cowrie", "match"]
    assert len(run.records) == 2 and run.subgames is not None and len(run.subgames) >= 2
    agents = [r["label"] for r in run.summary if r["group"] == "agent"]
    assert agents == ["p1:heuristic:temperature=0", "p2:random"]
    # An edited file is refused, naming it.
    games = out / "games.csv"
    games.write_text(games.read_text().replace(",win,", ",draw,", 1))
    with pytest.raises(ValueError, match="games.csv"):
        cowrie.read_run(out)
    with pytest.raises(ValueError, match="no manifest.json"):
        cowrie.read_run(tmp_path)


def test_read_run_of_a_cli_run(cli, tmp_path):
    text = cli.match(tmp_path, "--game", "baghchal", "--p1", "random", "--p2", "heuristic",
                     "--games", "2", "--seed", "8")
    run = cowrie.read_run(tmp_path)
    assert run.games.csv == text
    assert json.loads((tmp_path / "manifest.json").read_text()) == run.manifest


def test_a_finished_run_in_out_is_replaced_only_with_force(cli, tmp_path):
    out = tmp_path / "run"
    first = cowrie.play_match("baghchal", "heuristic", "random", 2, seed=4, out=out)
    kept = (out / "games.csv").read_bytes()
    # The command line refuses the same directory with the same message.
    refused = cli.error("match", "--game", "baghchal", "--p1", "random", "--p2", "random",
                        "--games", "2", "--seed", "5", "--out", str(out))
    assert "already holds a run" in refused
    with pytest.raises(ValueError) as e:
        cowrie.play_match("baghchal", "random", "random", 2, seed=5, out=out)
    assert str(e.value) == refused
    assert (out / "games.csv").read_bytes() == kept
    replaced = cowrie.play_match("baghchal", "random", "random", 2, seed=5, out=out, force=True)
    assert [r["seed"] for r in replaced] == ["5", "5"] != [r["seed"] for r in first]
    assert "--force" in cowrie.read_run(out).manifest["command_line"]
