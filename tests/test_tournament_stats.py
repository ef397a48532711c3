"""Tournament statistics on synthetic results with known answers: means over deals, Student-t
intervals and their coverage, the Elo-style fit, independence of the input order."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from majiang.tournament import (
    bradley_terry,
    elo_ratings,
    mean_ci,
    orders,
    pairwise_scores,
    seats_of,
    summarize,
    t_quantile,
)
from majiang.tournament.elo import half_points

LABELS = ["a", "b", "c", "d"]


def _zero_sum(rng: random.Random, scale: float) -> list[int]:
    first = [round(rng.gauss(0, scale)) for _ in range(3)]
    return [*first, -sum(first)]


def synthetic(
    deals: int,
    skill: list[int],
    seed: int = 0,
    luck: float = 20.0,
    noise: float = 0.0,
    permutations: bool = False,
) -> list[dict[str, Any]]:
    """Hands of a duplicate tournament: entrant e scores ``skill[e]`` plus the luck of the seat
    it sits at in that deal (the same for every order of the deal: the wall's luck) plus, if
    asked, independent zero-sum noise per hand. ``skill`` sums to zero."""
    rng = random.Random(seed)
    records = []
    for deal in range(deals):
        seat_luck = _zero_sum(rng, luck)
        for k, order in enumerate(orders(permutations)):
            seat = seats_of(order)
            extra = _zero_sum(rng, noise) if noise else [0, 0, 0, 0]
            points = [skill[e] + seat_luck[seat[e]] + extra[e] for e in range(4)]
            records.append({
                "deal": deal, "order": k, "seats": list(order), "winner": None,
                "discarder": None, "self_drawn": False, "fans": 0, "points": points,
            })
    return records


# --------------------------------------------------------------------------- t and intervals


@pytest.mark.parametrize(
    ("df", "expected"),
    [(1, 12.7062), (2, 4.3027), (3, 3.1824), (5, 2.5706), (10, 2.2281), (30, 2.0423),
     (60, 2.0003), (61, 1.9996), (120, 1.9799), (10_000, 1.9602)],
)
def test_t_quantile_matches_tables(df: int, expected: float) -> None:
    assert t_quantile(0.975, df) == pytest.approx(expected, abs=1e-4)


def test_t_quantile_other_levels_and_limits() -> None:
    assert t_quantile(0.95, 4) == pytest.approx(2.1318, abs=1e-4)
    assert t_quantile(0.995, 7) == pytest.approx(3.4995, abs=1e-4)
    with pytest.raises(ValueError):
        t_quantile(0.4, 3)


def test_mean_ci_small_cases() -> None:
    one = mean_ci([5.0])
    assert (one.mean, one.sd, one.low, one.high, one.n) == (5.0, None, None, None, 1)
    ci = mean_ci([1.0, 2.0, 3.0, 4.0])
    sd = math.sqrt(5 / 3)
    half = 3.182446 * sd / 2
    assert ci.mean == 2.5 and ci.sd == pytest.approx(sd)
    assert (ci.low, ci.high) == (pytest.approx(2.5 - half), pytest.approx(2.5 + half))
    flat = mean_ci([3.0] * 10)
    assert (flat.low, flat.high) == (3.0, 3.0)


# --------------------------------------------------------------------------- the duplicate unit


def test_duplicate_cancels_the_luck_of_the_deal() -> None:
    """Every entrant plays every seat once per deal: the seats' luck cancels in each deal, so
    the mean is exactly the skill and the interval has no width."""
    skill = [9, -3, -3, -3]
    data = summarize(synthetic(20, skill, seed=1, luck=50), LABELS, LABELS)
    for e, entrant in enumerate(data["entrants"]):
        assert entrant["mean_points"] == skill[e]
        assert entrant["ci95"] == [skill[e], skill[e]]
        assert entrant["points"] == skill[e] * 80
    assert (data["deals"], data["hands"]) == (20, 80)


def test_permutations_cancel_too() -> None:
    skill = [6, 2, -4, -4]
    data = summarize(synthetic(5, skill, seed=2, permutations=True), LABELS, LABELS)
    assert [e["mean_points"] for e in data["entrants"]] == skill
    assert data["hands"] == 5 * 24


def test_interval_is_over_deals_not_hands() -> None:
    """With per-hand noise, the interval is computed from the deal means (n = deals)."""
    records = synthetic(12, [4, 0, -2, -2], seed=3, noise=30)
    data = summarize(records, LABELS, LABELS)
    by_deal: dict[int, list[int]] = {}
    for r in records:
        by_deal.setdefault(r["deal"], []).append(r["points"][0])
    ci = mean_ci([sum(v) / len(v) for _, v in sorted(by_deal.items())])
    first = data["entrants"][0]
    assert first["ci95"] == [round(ci.low, 6), round(ci.high, 6)]  # type: ignore[arg-type]
    assert first["sd_per_deal"] == round(ci.sd, 6)  # type: ignore[arg-type]


def test_interval_coverage() -> None:
    """Over 400 synthetic tournaments of 10 deals with noisy hands, the 95% interval of an
    entrant that gains exactly +3 per hand covers +3 about 95% of the time."""
    covered = 0
    trials = 400
    for trial in range(trials):
        data = summarize(synthetic(10, [3, -1, -1, -1], seed=100 + trial, noise=25),
                         LABELS, LABELS)
        low, high = data["entrants"][0]["ci95"]
        covered += low <= 3 <= high
    assert 0.92 <= covered / trials <= 0.98


# --------------------------------------------------------------------------- rates


def test_rates_from_records() -> None:
    records = [
        {"deal": 0, "order": 0, "winner": 0, "discarder": 1, "self_drawn": False, "fans": 10,
         "points": [34, -18, -8, -8]},
        {"deal": 0, "order": 1, "winner": 2, "discarder": None, "self_drawn": True, "fans": 8,
         "points": [-16, -16, 48, -16], "false_wins": [0, 1, 0, 0]},
        {"deal": 0, "order": 2, "winner": None, "discarder": None, "self_drawn": False,
         "fans": 0, "points": [0, 0, 0, 0]},
        {"deal": 0, "order": 3, "winner": 0, "discarder": 3, "self_drawn": False, "fans": 20,
         "points": [44, -8, -8, -28], "gunner": 3, "bullets": [2, 0, 0, -2]},
    ]
    data = summarize(records, LABELS, LABELS)
    a, b, c, d = data["entrants"]
    assert (data["draws"], data["draw_rate"]) == (1, 0.25)
    assert (a["wins"], a["win_rate"], a["mean_fans"], a["points"]) == (2, 0.5, 15.0, 62)
    assert (c["self_drawn"], c["self_draw_rate"]) == (1, 0.25)
    assert (b["deal_ins"], d["deal_ins"], d["deal_in_rate"]) == (1, 1, 0.25)
    assert (b["false_wins"], d["gunner"], a["bullets"]) == (1, 1, 2)
    assert b["mean_fans"] is None and a["ci95"] is None  # one deal: no interval
    assert a["mean_points"] == 15.5


# --------------------------------------------------------------------------- Elo


def test_elo_of_two_entrants_is_the_odds() -> None:
    """Two entrants: the strength ratio is exactly (wins + prior) / (losses + prior)."""
    records = [{"points": [1, -1]}] * 30 + [{"points": [-1, 1]}] * 10
    strengths = bradley_terry(half_points(records, 2))
    assert strengths[0] / strengths[1] == pytest.approx(30.5 / 10.5)
    ratings = elo_ratings(records, 2)
    assert ratings[0] - ratings[1] == pytest.approx(400 * math.log10(30.5 / 10.5))
    assert sum(ratings) / 2 == pytest.approx(1500)


def test_elo_orders_by_skill_and_ties_are_equal() -> None:
    data = summarize(synthetic(30, [9, 3, -3, -9], seed=5, noise=10), LABELS, LABELS)
    elo = [e["elo"] for e in data["entrants"]]
    assert elo == sorted(elo, reverse=True) and elo[0] > elo[3]
    even = elo_ratings([{"points": [0, 0, 0, 0]}] * 10)
    assert even == pytest.approx([1500.0] * 4)
    never_loses = elo_ratings([{"points": [3, -1, -1, -1]}] * 50)
    assert math.isfinite(never_loses[0]) and never_loses[0] > 1500 > never_loses[1]


def test_pairwise_scores() -> None:
    scores = pairwise_scores([{"points": [3, -1, -1, -1]}, {"points": [0, 0, 0, 0]}])
    assert scores[0] == [0.5, 0.75, 0.75, 0.75]
    assert scores[1] == [0.25, 0.5, 0.5, 0.5]


# --------------------------------------------------------------------------- properties

points_of_hand = st.lists(st.integers(-60, 60), min_size=3, max_size=3).map(
    lambda xs: [*xs, -sum(xs)]
)


@st.composite
def tournaments(draw: st.DrawFn) -> list[dict[str, Any]]:
    deals = draw(st.integers(1, 6))
    records = []
    for deal in range(deals):
        for k, order in enumerate(orders()):
            records.append({"deal": deal, "order": k, "seats": list(order),
                            "winner": None, "discarder": None, "self_drawn": False,
                            "fans": 0, "points": draw(points_of_hand)})
    return records


@settings(max_examples=40, deadline=None)
@given(tournaments(), st.randoms(use_true_random=False))
def test_input_order_never_matters(records: list[dict[str, Any]], rng: random.Random) -> None:
    shuffled = list(records)
    rng.shuffle(shuffled)
    assert summarize(shuffled, LABELS, LABELS) == summarize(records, LABELS, LABELS)


@settings(max_examples=40, deadline=None)
@given(tournaments(), st.permutations(range(4)))
def test_relabelling_entrants_permutes_everything(
    records: list[dict[str, Any]], relabel: list[int]
) -> None:
    """Entrant e becomes entrant relabel[e]: its mean, interval and rating move with it."""
    moved = []
    for r in records:
        points = [0, 0, 0, 0]
        for e in range(4):
            points[relabel[e]] = r["points"][e]
        moved.append({**r, "points": points})
    before = summarize(records, LABELS, LABELS)["entrants"]
    after = summarize(moved, LABELS, LABELS)["entrants"]
    ratings_before, ratings_after = elo_ratings(records), elo_ratings(moved)
    for e in range(4):
        assert after[relabel[e]]["mean_points"] == before[e]["mean_points"]
        assert after[relabel[e]]["ci95"] == before[e]["ci95"]
        assert ratings_after[relabel[e]] == pytest.approx(ratings_before[e], abs=1e-6)
    assert sum(ratings_before) / 4 == pytest.approx(1500)
    assert abs(sum(e["mean_points"] for e in before)) < 1e-5  # zero-sum hands
