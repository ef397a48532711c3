"""Every worked example of rules/guobiao.md §7 is a test vector: fans, counts, total, legality."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from majiang import score
from majiang.rules.guobiao.payments import win_payments

EXAMPLES = json.loads((Path(__file__).parent / "data" / "guobiao_examples.json").read_text())


def _score(example: dict, **options: bool):  # type: ignore[no-untyped-def]
    return score(
        example["hand"],
        self_drawn=example["self_drawn"],
        seat_wind=example["seat_wind"],
        prevalent_wind=example["prevalent_wind"],
        fourth_tile=example["fourth_tile"],
        kong=example["kong"],
        last_tile=example["last_tile"],
        options=options or None,
    )


def test_all_65_examples_are_loaded() -> None:
    assert len(EXAMPLES) == 65
    assert [e["id"] for e in EXAMPLES] == [f"E{i}" for i in range(1, 66)]


@pytest.mark.parametrize("example", EXAMPLES, ids=[e["id"] for e in EXAMPLES])
def test_worked_example(example: dict) -> None:
    result = _score(example)
    got = {fc.fan.zh: fc.count for fc in result.fans}
    want = {fan["name"]: fan["count"] for fan in example["fans"]}
    assert got == want
    for fc in result.fans:
        expected_points = next(f["points"] for f in example["fans"] if f["name"] == fc.fan.zh)
        assert fc.points == expected_points
    assert result.total == example["total"]
    assert result.meets_minimum == example["meets_minimum"]


@pytest.mark.parametrize("example", EXAMPLES, ids=[e["id"] for e in EXAMPLES])
def test_reference_column_with_its_kong_rule(example: dict) -> None:
    """With the reference's combined kong fan (D1) every example gives the reference's total."""
    assert _score(example, mixed_kong_pair_5=True).total == example["reference_total"]


def _example(eid: str) -> dict:
    return next(e for e in EXAMPLES if e["id"] == eid)


@pytest.mark.parametrize(
    ("eid", "self_drawn", "discarder", "each_other", "winner"),
    [
        ("E1", True, None, 106, 318),
        ("E13", True, None, 99, 297),
        ("E36", False, 53, 8, 69),
        ("E50", False, 19, 8, 35),
        ("E52", False, 27, 8, 43),
    ],
)
def test_worked_payments(
    eid: str, self_drawn: bool, discarder: int | None, each_other: int, winner: int
) -> None:
    """The payment table of §4.1."""
    result = _score(_example(eid))
    pay = result.payments(self_drawn)
    assert (pay.discarder, pay.each_other, pay.winner) == (discarder, each_other, winner)
    tripled = result.payments(self_drawn, stake=3)
    assert tripled.winner == 3 * winner
    assert win_payments(result.total, self_drawn).winner == winner
