"""Botzone match logs replayed through the engine (docs/botzone.md, "Match logs"): small logs
written by hand in the format the site gives for a match (initdata with walltiles, the judge's
turns, the players' answers with their verdicts, the judge's finish)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from majiang.botzone import BotzoneError, to_walltiles
from majiang.botzone.logs import export_log, read_log, replay_log
from majiang.cli import main
from majiang.engine import Table
from majiang.engine.match import play_hand as play_table
from majiang.engine.record import save_record
from majiang.rules.guobiao.ruleset import GuobiaoRules
from test_botzone_judge import BAMBOO, HONOURS, P3, READY, four_part_wall, names
from test_botzone_wall import kong_bots

DEALS = [HONOURS, READY, BAMBOO, P3]
WALLTILES = to_walltiles(four_part_wall(DEALS, ["5p", "", "", ""]))


def turn(content: list[str]) -> dict[str, Any]:
    return {"output": {"command": "request", "content": {str(p): c for p, c in enumerate(content)},
                       "display": {}}, "verdict": "OK", "time": 0, "memory": 0}


def answers(responses: list[str]) -> dict[str, Any]:
    return {str(p): {"verdict": "OK", "response": r, "time": 1, "memory": 1}
            for p, r in enumerate(responses)}


def finish(action: str, player: int | None, scores: list[int], fans: int | None = None) -> dict:
    display: dict[str, Any] = {"action": action, "player": player}
    if fans is not None:
        display["fanCnt"] = fans
    return {"output": {"command": "finish", "content": {str(p): s for p, s in enumerate(scores)},
                       "display": display}, "verdict": "OK"}


def win_on_a_discard() -> dict[str, Any]:
    """The dealer draws 5p and discards it; player 1, a pure straight waiting on it, wins
    (23 fans: 24 + 23 to him, 8 + 23 from the dealer, 8 from each other)."""
    deal = [f"1 0 0 0 0 {' '.join(names(d))}" for d in DEALS]
    log = [
        turn([f"0 {p} 0" for p in range(4)]), answers(["PASS"] * 4),
        turn(deal), answers(["PASS"] * 4),
        turn(["2 B5", "3 0 DRAW", "3 0 DRAW", "3 0 DRAW"]), answers(["PLAY B5", *["PASS"] * 3]),
        turn(["3 0 PLAY B5"] * 4), answers(["PASS", "HU", "PASS", "PASS"]),
        finish("HU", 1, [-31, 47, -8, -8], 23),
    ]
    return {"log": log, "initdata": json.dumps({"walltiles": WALLTILES, "quan": 0, "srand": 1})}


def test_a_logged_win_replays_as_the_judge_ended_it() -> None:
    log = read_log(win_on_a_discard())
    assert log.walltiles == WALLTILES and log.requests[0][2] == "2 B5"
    replay = replay_log(log)
    assert replay.divergence is None and replay.turns == 4
    assert replay.deltas == (-31, 47, -8, -8) and replay.ending == "player 1 wins, 23 fans"
    # initdata as an object, or carried by the judge's first output, reads the same
    data = win_on_a_discard()
    data["initdata"] = json.loads(data["initdata"])
    assert replay_log(read_log(data)).divergence is None
    data["log"][0]["output"]["initdata"] = data.pop("initdata")
    assert replay_log(read_log(data)).divergence is None


def test_the_first_divergence_is_reported_with_its_turn() -> None:
    data = win_on_a_discard()
    data["log"][4]["output"]["content"]["0"] = "2 B6"  # not the tile the wall gives
    replay = replay_log(read_log(data))
    assert replay.divergence is not None
    assert replay.divergence.startswith("turn 3, player 0: majiang's request is '2 B5'")
    data = win_on_a_discard()
    data["log"][-1]["output"]["display"]["fanCnt"] = 24
    divergence = replay_log(read_log(data)).divergence
    assert divergence == ("the judge: player 1 wins with 24 fans; majiang: player 1 wins with 23 "
                          "fans")
    data = win_on_a_discard()
    data["log"][-1]["output"]["content"]["2"] = -9
    assert "scores [-31, 47, -9, -8]" in str(replay_log(read_log(data)).divergence)


def test_a_logged_fault_is_the_judges_verdict() -> None:
    data = win_on_a_discard()
    data["log"][7] = answers(["PASS", "PASS", "CHI B5 W1", "PASS"])  # a chow from across
    data["log"][8] = finish("WA", 2, [10, 10, -30, 10])
    replay = replay_log(read_log(data))
    assert replay.divergence is None and replay.ending == "player 2 WA"
    assert replay.faults == ["player 2 WA (illegal) at '3 0 PLAY B5': not a claim of this discard"]
    data["log"][8] = finish("WA", 1, [10, -30, 10, 10])  # the judge blames someone else
    assert "majiang's first fault: WA of player 2" in str(replay_log(read_log(data)).divergence)


@pytest.mark.parametrize(
    ("data", "match"),
    [({}, "non-empty 'log'"), ({"log": [{"x": 1}]}, "'output'"),
     ({"log": [turn(["0 0 0"] * 4)], "initdata": "{}"}, "walltiles")],
)
def test_bad_logs(data: Any, match: str) -> None:
    with pytest.raises(BotzoneError, match=match):
        read_log(data)
    truncated = copy.deepcopy(win_on_a_discard())
    truncated["log"] = truncated["log"][:-1]
    with pytest.raises(BotzoneError, match="finish"):
        read_log(truncated)


def test_cli_replay(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    path.write_text(json.dumps(win_on_a_discard()))
    assert main(["botzone", "replay", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [f"{path}: 4 turns; the judge: player 1 wins, 23 fans",
                   "majiang agrees: every request, every answer, the end and the scores"]
    data = win_on_a_discard()
    data["log"][4]["output"]["content"]["0"] = "2 B6"
    path.write_text(json.dumps(data))
    assert main(["botzone", "replay", str(path)]) == 1
    assert capsys.readouterr().out.splitlines()[1].startswith("diverges at turn 3, player 0")
    path.write_text("{not json")
    assert main(["botzone", "replay", str(path)]) == 1
    assert "is not JSON" in capsys.readouterr().err


@pytest.mark.parametrize(("layout", "flowers"), [("four_part", False), ("four_part", True),
                                                 ("single_end", True)])
def test_exported_hands_replay_as_botzone_logs(layout: str, flowers: bool) -> None:
    """A hand of kong-happy bots written as a match log replays without a divergence: the
    same requests to every player, turn by turn, and the same end and scores."""
    kongs = 0
    for seed in range(12):
        rules = GuobiaoRules({"botzone_scoring": True, "flowers": flowers})
        table = Table(rules, seed, dealer=seed % 4, prevalent_wind=seed % 3, layout=layout)
        play_table(table, kong_bots(seed))
        data = json.loads(json.dumps(export_log(table)))
        assert data["initdata"]["walltiles"] == to_walltiles(table.wall.tiles, layout=layout)
        replay = replay_log(read_log(data), layout)
        assert replay.divergence is None, (seed, replay.divergence)
        dealer = table.dealer
        assert replay.deltas == tuple(table.result.deltas[(dealer + p) % 4] for p in range(4))
        kongs += any("kong" in e["type"] for e in table.events)
    assert kongs >= 3


def test_cli_export(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    args = ["botzone", "play", "--seat", "fan", "--seed", "4", "--records", str(tmp_path)]
    assert main(args) == 0
    capsys.readouterr()
    record = tmp_path / "hand-0001.jsonl"
    assert main(["botzone", "export", str(record)]) == 0
    (tmp_path / "match.json").write_text(capsys.readouterr().out)
    assert main(["botzone", "replay", str(tmp_path / "match.json")]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("majiang agrees")
    two_ended = Table(GuobiaoRules(), 3)
    play_table(two_ended, kong_bots(3))
    save_record(two_ended, tmp_path / "plain.jsonl")
    assert main(["botzone", "export", str(tmp_path / "plain.jsonl")]) == 1
    assert "four-part or single-ended" in capsys.readouterr().err
