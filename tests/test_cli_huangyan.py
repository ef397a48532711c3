"""``majiang score --rules huangyan``: one hand, JSON, batches and bad input."""

from __future__ import annotations

import io
import json

import pytest

from majiang.cli import main

HAND = "SS5s123m789m34p66p2p"  # rules/huangyan.md Example 13: 80 for the self-drawn South


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_one_hand_explained(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        ["score", "--rules", "huangyan", HAND, "--wild", "5s", "--seat", "S", "--self-drawn"],
        capsys,
    )
    assert code == 0
    assert "total = (18 + 20) × 2^1 = 76 → 80" in out
    assert "门风暗刻" in out


def test_one_hand_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        [
            "score",
            "--rules",
            "huangyan",
            HAND,
            "--wild",
            "5s",
            "--seat",
            "S",
            "--self-drawn",
            "--json",
        ],
        capsys,
    )
    data = json.loads(out)
    assert code == 0 and (data["total"], data["hu"], data["fan"]) == (80, 18, 1)


def test_batch_lines_in_order_with_errors(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = [
        json.dumps({"hand": HAND, "wild": "5s", "win": "self_drawn", "seat_wind": "S", "id": 1}),
        json.dumps({"hand": HAND}),
        "not json",
        json.dumps({"hand": HAND, "wild": "5s", "win": "sometimes"}),
    ]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines) + "\n"))
    code, out, _ = run(["score", "--rules", "huangyan", "--batch", "-"], capsys)
    answers = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(answers) == 4
    assert answers[0]["id"] == 1 and answers[0]["total"] == 80
    assert "wild" in answers[1]["error"]
    assert "not JSON" in answers[2]["error"]
    assert "win must be" in answers[3]["error"]


def test_batch_wild_from_the_command_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    line = json.dumps({"hand": HAND, "win": "self_drawn", "seat_wind": "S"})
    monkeypatch.setattr("sys.stdin", io.StringIO(line + "\n"))
    code, out, _ = run(["score", "--rules", "huangyan", "--wild", "5s", "--batch", "-"], capsys)
    assert code == 0 and json.loads(out)["total"] == 80


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["score", "--rules", "huangyan", HAND], "needs --wild"),
        (["score", "--rules", "huangyan", HAND, "--wild", "5s", "--fourth-tile"], "Guobiao flag"),
        (["score", "--rules", "huangyan", HAND, "--wild", "5s", "--stake", "2"], "Guobiao flag"),
        (["score", "--rules", "huangyan", HAND, "--wild", "5q"], "5q"),
        (["score", "--rules", "huangyan", HAND, "--wild", "5s", "--option", "nope=1"], "nope"),
        (["score", HAND, "--wild", "5s"], "Huangyan option"),
    ],
)
def test_bad_input_is_one_line_and_exit_1(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(args, capsys)
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and message in err


def test_batch_whole_hand_settlement_example_12(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A line with all four hands settles the hand: spec Example 12, N the gunner."""
    lines = [
        {
            "id": "ex12",
            "hands": [
                "CCC999s345m22s1mE",
                "[SSS]666m123s88pF4s",
                "[WWW]123p456p89s55m7s",
                "[FFF]222m456s78m3pE",
            ],
            "winner": 2,
            "dealer": 0,
            "wild": "9p",
            "gunner": 3,
        },
        {"hands": ["CCC"], "winner": 2, "wild": "9p"},
        {"hands": ["CCC999s345m22s1mE"] * 4, "wild": "9p"},
        {"hands": [], "winner": 2, "wild": "9p", "stake": 2},
    ]
    text = "\n".join(json.dumps(line) for line in lines) + "\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    code, out, _ = run(["score", "--rules", "huangyan", "--batch", "-"], capsys)
    assert code == 0
    first, *errors = [json.loads(line) for line in out.splitlines()]
    assert first["id"] == "ex12" and first["gunner"] == 3
    assert first["winner"]["seat"] == 2 and first["winner"]["total"] == 120
    assert {s: loser["total"] for s, loser in first["losers"].items()} == {
        "0": 40, "1": 20, "3": 20,
    }
    assert first["totals"] == [40, 20, 120, 0]  # the gunner's own total is set to 0
    assert first["hu"] == [60, 20, 360, -440] and first["bullets"] == [0, 0, 6, -6]
    assert sum(p["amount"] for p in first["payments"] if p["payer"] != 3) == 0
    assert [e["error"] for e in errors] == [
        "field 'hands' must be a list of 4 hands (seats 0-3)",
        "field 'winner' (the winning seat 0-3) is required",
        "unknown field 'stake'",
    ]
