"""``majiang.sim`` and ``majiang simulate``: tallies, determinism across jobs, the CLI."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from majiang.cli import main
from majiang.engine.table import HandResult
from majiang.errors import MajiangError
from majiang.sim import ProgressBar, SimConfig, Tally, derive_seed, simulate

FAST = ("efficient", "efficient", "random", "random")


def _stable(document: dict[str, object]) -> dict[str, object]:
    """A result without the fields that depend on time or on the number of processes."""
    return {k: v for k, v in document.items() if k not in ("elapsed_s", "hands_per_s", "jobs")}


# --------------------------------------------------------------------------- the library


def test_derive_seed_is_stable() -> None:
    assert derive_seed(7, "hand", 3) == derive_seed(7, "hand", 3)
    assert derive_seed(7, "hand", 3) != derive_seed(7, "hand", 4)
    assert derive_seed(7, "hand", 3) != derive_seed(8, "hand", 3)
    assert 0 <= derive_seed(0) < 2**63
    assert derive_seed(1, "bot", 0, 2) == 2504714420870195233  # the same on every machine


def test_tally_counts_a_hand() -> None:
    tally = Tally()
    win = HandResult(winner=1, discarder=2, self_drawn=False, points=12,
                     deltas=(-8, 36, -20, -8))
    tally.add_hand(win, [], [0, 1, 2, 3])
    draw = HandResult(winner=None, discarder=None, self_drawn=False, points=0,
                      deltas=(10, -30, 10, 10))
    tally.add_hand(draw, [1], [0, 1, 2, 3])
    assert (tally.hands, tally.draws) == (2, 1)
    p = tally.players
    assert (p[1].wins, p[1].fans, p[1].points, p[1].false_wins) == (1, 12, 6, 1)
    assert (p[2].deal_ins, p[2].points) == (1, -10)
    assert sum(x.points for x in p) == 0


def test_simulate_hands() -> None:
    result = simulate(SimConfig(bots=FAST, games=24, seed=3))
    data = result.to_json()
    assert data["hands"] == 24 and data["mode"] == "hands" and data["matches"] == 0
    players = data["players"]
    assert [p["bot"] for p in players] == list(FAST)
    assert sum(p["points"] for p in players) == 0
    assert sum(p["wins"] for p in players) + data["draws"] == 24
    assert data["by_bot"]["efficient"]["players"] == 2
    assert data["by_bot"]["efficient"]["wins"] == players[0]["wins"] + players[1]["wins"]


def test_simulate_matches() -> None:
    result = simulate(SimConfig(bots=FAST, games=1, seed=2, matches=True, hands_per_match=4))
    data = result.to_json()
    assert (data["hands"], data["matches"], data["mode"]) == (4, 1, "matches")
    assert sum(p["first_places"] for p in data["players"]) >= 1


def test_jobs_do_not_change_results() -> None:
    config = SimConfig(bots=("fan", "efficient", "random", "efficient"), games=10, seed=5)
    one = simulate(config, jobs=1).to_json()
    two = simulate(config, jobs=2).to_json()
    assert _stable(one) == _stable(two)
    assert two["jobs"] == 2


def test_same_seed_same_result_other_seed_differs() -> None:
    config = SimConfig(bots=FAST, games=16, seed=9)
    assert _stable(simulate(config).to_json()) == _stable(simulate(config).to_json())
    other = SimConfig(bots=FAST, games=16, seed=10)
    assert _stable(simulate(config).to_json()) != _stable(simulate(other).to_json())


def test_progress_callback_and_bar() -> None:
    seen: list[tuple[int, int]] = []
    simulate(SimConfig(bots=FAST, games=5, seed=1), progress=lambda d, t: seen.append((d, t)))
    assert seen[0] == (0, 5) and seen[-1] == (5, 5)
    stream = io.StringIO()
    bar = ProgressBar(stream)
    bar(0, 10)
    bar(10, 10)
    bar.close()
    text = stream.getvalue()
    assert "10/10 hands" in text and text.endswith("\n") and "[" + "#" * 30 + "]" in text


@pytest.mark.parametrize(
    ("config", "message"),
    [
        (SimConfig(bots=("efficient",) * 3), "4 names"),
        (SimConfig(bots=("efficient",) * 3 + ("bogus",)), "unknown bot 'bogus'"),
        (SimConfig(bots=FAST, games=0), "at least 1"),
        (SimConfig(bots=FAST, seed=-1), "--seed"),
        (SimConfig(bots=FAST, rules="xx"), "unknown rule set"),
        (SimConfig(bots=FAST, options={"nonsense": 1}), "nonsense"),
    ],
)
def test_invalid_configs(config: SimConfig, message: str) -> None:
    with pytest.raises(MajiangError, match=message):
        simulate(config)


def test_records(tmp_path: Path) -> None:
    simulate(SimConfig(bots=FAST, games=2, seed=4, records=str(tmp_path / "logs")))
    files = sorted((tmp_path / "logs").iterdir())
    assert [f.name for f in files] == ["hand-000000.jsonl", "hand-000001.jsonl"]
    lines = [json.loads(line) for line in files[0].read_text().splitlines()]
    assert lines[0]["format"] == 2 and lines[0]["lines"] == len(lines)
    assert "result" in lines[-2] and set(lines[-1]) == {"sha256"}


# --------------------------------------------------------------------------- the command


def test_cli_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--games", "8", "--seed", "1", "--bots", ",".join(FAST)]) == 0
    out = capsys.readouterr()
    assert out.err == ""  # no bar unless stderr is a terminal
    lines = out.out.splitlines()
    assert lines[0] == "8 hands, rules gb, seed 1, 1 job"
    assert lines[1].startswith("draws ")
    assert "hands/s" in lines[1]
    assert lines[3].split() == ["player", "bot", "win", "rate", "self-drawn", "deal-in", "mean",
                                "fans", "points", "per", "hand"]
    assert [line.split()[1] for line in lines[4:8]] == list(FAST)
    assert lines[9].split()[:2] == ["x2", "efficient"]


def test_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "--games", "6", "--seed", "2", "--bots", "random", "--json"]
    assert main(args) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {
        "rules", "options", "mode", "games", "hands", "matches", "seed", "jobs", "bots",
        "draws", "draw_rate", "elapsed_s", "hands_per_s", "players", "by_bot",
    }
    assert data["bots"] == ["random"] * 4 and data["hands"] == 6
    assert set(data["players"][0]) == {
        "player", "bot", "wins", "win_rate", "self_drawn", "deal_ins", "deal_in_rate",
        "mean_fans", "points", "mean_points", "false_wins", "bullets", "gunner",
    }
    assert data["options"]["false_win"] is False


def test_cli_jobs_identical(capsys: pytest.CaptureFixture[str]) -> None:
    outs = []
    for jobs in ("1", "2"):
        args = ["simulate", "--games", "12", "--seed", "8", "--bots", ",".join(FAST),
                "--jobs", jobs, "--json"]
        assert main(args) == 0
        outs.append(_stable(json.loads(capsys.readouterr().out)))
    assert outs[0] == outs[1]


def test_cli_matches_and_options(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    args = ["simulate", "--matches", "--games", "1", "--bots", "random", "--option",
            "false_win=on", "--records", str(tmp_path), "--no-progress", "--json"]
    assert main(args) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["mode"] == "matches" and data["hands"] == 16 and data["matches"] == 1
    assert data["options"]["false_win"] is True
    assert len(list(tmp_path.iterdir())) == 16


def test_cli_progress_bar(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--games", "3", "--bots", "random", "--progress"]) == 0
    assert "3/3 hands" in capsys.readouterr().err


@pytest.mark.parametrize(
    "args",
    [
        ["--games", "many"],
        ["--jobs", "two"],
        ["--rules", "riichi"],
        ["--seed"],
        ["--frobnicate"],
    ],
)
def test_cli_usage_errors(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["simulate", *args])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "usage error" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--games", "0"], "--games must be at least 1"),
        (["--jobs", "0"], "--jobs must be at least 1"),
        (["--bots", "efficient,fan"], "--bots needs 4 names"),
        (["--bots", "efficient,fan,random,alphago"], "unknown bot 'alphago'"),
        (["--bots", "efficient,,random,fan"], "empty bot name"),
        (["--option", "no_such_option=1"], "no_such_option"),
        (["--seed", "-3"], "--seed must be 0 or more"),
    ],
)
def test_cli_invalid_values(args: list[str], message: str,
                            capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", *args]) == 1
    err = capsys.readouterr().err
    assert err.startswith("majiang: error: ") and message in err
    assert len(err.strip().splitlines()) == 1


def test_fan_bot_outplays_efficient_bots() -> None:
    """A small fixed sample (the benchmark plays 2,000 hands): the fan-aware bot wins more hands
    than any of three efficiency bots and takes points from them."""
    data = simulate(SimConfig(bots=("fan", "efficient", "efficient", "efficient"), games=32,
                              seed=21)).to_json()
    fan, *others = data["players"]
    assert fan["wins"] > max(p["wins"] for p in others)
    assert fan["points"] > 0


# --------------------------------------------------------------------------- backends, --out


def test_cli_out_chunk_lines(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "chunks.jsonl"
    args = ["simulate", "--games", "6", "--seed", "2", "--bots", ",".join(FAST), "--json"]
    assert main([*args, "--backend", "local", "--jobs", "2", "--out", str(out)]) == 0
    data = json.loads(capsys.readouterr().out)
    chunks = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(c["start"], c["stop"]) for c in chunks] == [(i, i + 1) for i in range(6)]
    assert sum(c["hands"] for c in chunks) == 6
    assert sum(c["draws"] for c in chunks) == data["draws"]
    for p in range(4):
        assert sum(c["players"][p]["points"] for c in chunks) == data["players"][p]["points"]


def test_cli_backend_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--games", "2", "--address", "auto"]) == 1
    err = capsys.readouterr().err
    assert err.strip() == "majiang: error: --address needs --backend ray"
    with pytest.raises(SystemExit) as exit_info:
        main(["simulate", "--backend", "spark"])
    assert exit_info.value.code == 2
    assert "usage error" in capsys.readouterr().err
