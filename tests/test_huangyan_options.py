"""Huangyan's neighbours: the options where Taizhou-area sources and clubs disagree with the seed
(docs/huangyan.md, "Neighbouring readings"), one test per value, and each option taken by the
lobby, the CLI and the environment as Guobiao's options are.

Table tests use the rigged walls of ``test_table_huangyan`` (seat 0 is the dealer).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from majiang.cli import main
from majiang.engine import ConcealedKong, Discard, Win
from majiang.errors import NotWinningError, OptionError
from majiang.hand import WinContext
from majiang.rules.huangyan import HuangyanOptions, check_win, score_huangyan, score_loser
from majiang.rules.huangyan.notation import parse_huangyan_hand
from majiang.rules.huangyan.phase import draw_threshold, in_raw_tile_phase, may_draw, may_kong
from majiang.rules.huangyan.ruleset import HuangyanRules
from test_table import act, discard_drawn_until, drawn, settle
from test_table_huangyan import (
    GUNNER_HANDS,
    answer,
    assert_hu_settlement,
    discard,
    finished,
    gunner_table,
    raw_events,
    table,
    tile,
)


def rules(**options: Any) -> HuangyanRules:
    return HuangyanRules({"throw_limit": 0, **options})


# --------------------------------------------------------------------------- the 得 on a discard

# Example 9's winner: S wins on 5m with 2s* standing for 5p (a wild 得 completes the pair).
EX9 = "[SSSS,1][9999p]34m678s5p2s5m"
# A 得 restored as its own face 2s completes 234s.
RESTORED = "123m456p789s11s2s34s"


def test_a_wild_de_completes_a_win_on_a_discard_by_default() -> None:
    assert score_huangyan(EX9, wild="2s", seat_wind="S").total == 170


def test_wild_self_draw_only_refuses_a_discard_win_that_needs_a_wild_de() -> None:
    on = {"wild_self_draw_only": True}
    with pytest.raises(NotWinningError, match="wild_self_draw_only"):
        score_huangyan(EX9, wild="2s", seat_wind="S", options=on)
    hand = parse_huangyan_hand(EX9, "2s")
    assert check_win(hand, WinContext(seat_wind=1), "2s", HuangyanOptions(**on)) is None
    # self-drawn, the same tiles win: (64 + 2 + 20) x 2 = 172 -> 180
    assert score_huangyan(EX9, wild="2s", seat_wind="S", self_drawn=True, options=on).total == 180


def test_wild_self_draw_only_keeps_discard_wins_whose_de_are_all_restored() -> None:
    on = {"wild_self_draw_only": True}
    score = score_huangyan(RESTORED, wild="2s", options=on)
    assert (score.total, score.restored) == (40, 1)  # 20 x 2^1 (得还原)
    assert score.total == score_huangyan(RESTORED, wild="2s").total


# seat 2 holds a 得 (N, the wild face) and waits on 1s-5s only with it; the dealer offers 4s
WILD_READY = ["4s", "", "123m456m789m22s3s N", ""]


@pytest.mark.parametrize("only_self_drawn", [False, True])
def test_the_table_offers_a_discard_win_with_a_wild_de_unless_self_draw_only(
    only_self_drawn: bool,
) -> None:
    t = table(WILD_READY, "N", rules=rules(wild_self_draw_only=only_self_drawn))
    discard(t, 0, "4s")
    assert (Win() in t.legal_actions(2)) is not only_self_drawn


def test_with_self_draw_only_the_same_wait_wins_when_drawn() -> None:
    t = table(["", "", "123m456m789m22s3s N", ""], "N", draws="9p 4s",
              rules=rules(wild_self_draw_only=True))
    discard(t, 0, "E")
    settle(t)
    act(t, 1, Discard(drawn(t)))
    settle(t)
    assert t.current == 2 and drawn(t) == tile("4s")
    act(t, 2, Win())
    result = finished(t)
    assert result.winner == 2 and result.self_drawn


# --------------------------------------------------------------------------- the wall's end


@pytest.mark.parametrize("reserve", [14, 16])
def test_the_exhaustive_draw_comes_at_the_reserve(reserve: int) -> None:
    t = table(["", "", "", ""], rules=rules(draw_reserve=reserve))
    discard_drawn_until(t, reserve + 1)
    act(t, t.current, Discard(drawn(t)))
    settle(t)
    assert t.wall.remaining == reserve and not t.is_over
    assert t.observation(t.current).drawable == 0
    act(t, t.current, Discard(drawn(t)))
    settle(t)
    result = finished(t)
    assert result.is_draw and t.wall.remaining == reserve


@pytest.mark.parametrize(("reserve", "remaining", "kong"),
                         [(14, 16, True), (16, 16, False), (16, 20, True)])
def test_a_kong_needs_a_replacement_above_the_reserve(
    reserve: int, remaining: int, kong: bool
) -> None:
    """R - 1 >= T(k + 1): with 8 stacks kept, a kong at 16 tiles left is refused (15 < 17)."""
    t = table(["", "", "5s5s5s5s", ""], rules=rules(draw_reserve=reserve))
    discard_drawn_until(t, remaining)
    assert t.current == 2
    assert (ConcealedKong(tile("5s")) in t.legal_actions(2)) is kong
    assert may_kong(remaining, 0, reserve) is kong


def test_thresholds_follow_the_options() -> None:
    assert (draw_threshold(0, 16), draw_threshold(1, 16)) == (16, 17)
    assert may_draw(17, 0, 16) and not may_draw(16, 0, 16)
    assert in_raw_tile_phase(40, 0, 40) and not in_raw_tile_phase(41, 0, 40)
    assert in_raw_tile_phase(41, 1, 40)
    assert not any(in_raw_tile_phase(r, k, 0) for r in range(83) for k in (0, 1))


@pytest.mark.parametrize(("start", "at"), [(30, 30), (40, 40), (0, None)])
def test_the_raw_tile_phase_starts_where_the_option_says(start: int, at: int | None) -> None:
    t = table(["", "", "", ""], rules=rules(raw_phase_tiles=start))
    discard_drawn_until(t, 15)
    expected = [] if at is None else [{"type": "raw_tile_phase", "remaining": at}]
    assert raw_events(t) == expected
    assert t.late is (at is not None)


@pytest.mark.parametrize(("start", "gunner"), [(30, 1), (0, None)])
def test_without_a_raw_tile_phase_there_is_no_gunner(start: int, gunner: int | None) -> None:
    """The raw tile 4s won on at 29 tiles left: the gunner pays for everyone (§5.6); with no
    raw-tile phase the hand is settled as usual."""
    t = table(GUNNER_HANDS, ending="4s4s4s 1s", at={53: "7p"},
              rules=rules(raw_phase_tiles=start))
    discard(t, 0, "C")
    discard_drawn_until(t, 29)
    discard(t, 1, "4s")
    answer(t, {2: Win()})
    result = finished(t)
    assert result.detail["gunner"] == gunner
    assert_hu_settlement(result)


@pytest.mark.parametrize(
    "values",
    [{"draw_reserve": 15}, {"draw_reserve": 82}, {"raw_phase_tiles": 31},
     {"raw_phase_tiles": 14}, {"draw_reserve": 16, "raw_phase_tiles": 16},
     {"raw_phase_tiles": 84}, {"draw_reserve": -2}],
)
def test_wall_end_options_are_checked(values: dict[str, int]) -> None:
    with pytest.raises(OptionError):
        HuangyanOptions.from_mapping(values)


# --------------------------------------------------------------------------- the cap

# raw (32 + 20) x 2^... : 111s234s567s7s9s99s8s self-drawn by South, N wild: raw 512 (520)
UNCAPPED = "111s234s567s7s9s99s8s"


@pytest.mark.parametrize(("limit", "total"), [(300, 300), (60, 60), (80, 80), (100, 100),
                                              (0, 520)])
def test_the_cap_of_the_winner_and_of_a_loser(limit: int, total: int) -> None:
    options = {"limit": limit}
    score = score_huangyan(UNCAPPED, wild="N", seat_wind="S", self_drawn=True, options=options)
    assert (score.raw, score.total, score.limit) == (512, total, limit > 0)
    # a loser's concealed kong-sized count: [NNNN] 32 x 2 (seat wind) = 64 -> 70, or capped
    loser = score_loser("[NNNN]123m456p789s1s", "5s", seat_wind="N",
                        options=HuangyanOptions(limit=limit))
    assert loser.total == (min(70, limit) if limit else 70)


# --------------------------------------------------------------------------- the gunner (P1 / P3)


@pytest.mark.parametrize(("test", "known", "gunner"),
                         [("P1", False, 1), ("P1", True, None), ("P3", False, 1),
                          ("P3", True, 1)])
def test_who_pays_for_a_discard_won_on_in_the_raw_phase(
    test: str, known: bool, gunner: int | None
) -> None:
    """P1 punishes a raw tile; P3, the seed's first sentence read literally, any tile won on
    from a hand that is not all raw. The gunner pays everything (§5.6)."""
    result = finished(gunner_table(29, known, rules=rules(gunner_test=test)))
    assert result.detail["gunner"] == gunner
    if gunner is not None:
        assert all(p["payer"] == gunner for p in result.detail["payments"])
    assert_hu_settlement(result)


# --------------------------------------------------------------------------- restored 得, 杠上花


@pytest.mark.parametrize(("per_hand", "fan"), [(False, 2), (True, 1)])
def test_restored_de_count_once_per_tile_or_once_per_hand(per_hand: bool, fan: int) -> None:
    score = score_huangyan("123m456p789s78mP6m6m", wild="6m", self_drawn=True,
                           options={"restored_fan_per_hand": per_hand})
    assert score.restored == 2 and score.fan == fan and score.raw == (2 + 20) * 2**fan


@pytest.mark.parametrize(("bonus", "total"), [(0, 80), (4, 90)])
def test_a_win_on_a_kong_replacement_worth_extra_hu_or_not(bonus: int, total: int) -> None:
    t = table(["5s5s5s5s 123m456m789m 2p", "", "", ""], back="2p",
              rules=rules(kong_bloom_bonus=bonus))
    act(t, 0, ConcealedKong(tile("5s")))
    act(t, 0, Win())
    winner = finished(t).detail["winner"]
    assert winner["total"] == total
    assert ({i["zh"]: i["hu"] for i in winner["items"]}.get("杠上花", 0)) == bonus


# --------------------------------------------------------------------------- lobby, CLI, env

NEIGHBOURS = {
    "wild_self_draw_only": True,
    "draw_reserve": 16,
    "raw_phase_tiles": 0,
    "limit": 100,
    "gunner_test": "P3",
    "restored_fan_per_hand": True,
    "kong_bloom_bonus": 4,
}


def test_the_lobby_lists_the_neighbours_with_docs_and_takes_them(tmp_path: Path) -> None:
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from majiang.server import create_app
    from server_helpers import no_rate_limit

    with no_rate_limit(), TestClient(create_app(f"sqlite:///{tmp_path / 'l.db'}")) as client:
        (huangyan,) = [r for r in client.get("/rules").json() if r["name"] == "huangyan"]
        listed = {o["name"]: o for o in huangyan["options"]}
        for name, value in NEIGHBOURS.items():
            option = listed[name]
            assert option["doc"], name
            assert option["default"] == getattr(HuangyanOptions(), name)
            assert option["type"] == {bool: "bool", int: "int", str: "choice"}[type(value)]
        assert listed["gunner_test"]["choices"] == ["P1", "P2", "P3"]
        response = client.post("/rooms", json={"rules": "huangyan", "options": NEIGHBOURS})
        assert response.status_code == 201, response.text
        code = response.json()["code"]
        runtime = client.app.state.rooms.live[code]  # type: ignore[attr-defined]
        assert runtime.rules.options == HuangyanOptions(**NEIGHBOURS)
        bad = client.post("/rooms", json={"rules": "huangyan", "options": {"draw_reserve": 15}})
        assert bad.status_code in (400, 422)


def test_the_cli_takes_the_neighbours(capsys: pytest.CaptureFixture[str]) -> None:
    base = ["score", "--rules", "huangyan", EX9, "--wild", "2s", "--seat", "S"]
    assert main(base) == 0 and "→ 170" in capsys.readouterr().out
    assert main([*base, "--option", "wild_self_draw_only=on"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("majiang: error:") and "wild_self_draw_only" in err
    assert main([*base, "--option", "limit=100", "--option", "kong_bloom_bonus=4"]) == 0
    assert main([*base, "--option", "draw_reserve=15"]) == 1
    assert "draw_reserve" in capsys.readouterr().err


def test_the_environment_takes_the_neighbours() -> None:
    pytest.importorskip("pettingzoo")
    from majiang.env import env

    e = env(rules="huangyan", **NEIGHBOURS)
    e.reset(seed=3)
    assert e.table is not None
    options = e.table.rules.options
    assert {name: getattr(options, name) for name in NEIGHBOURS} == NEIGHBOURS
    assert e.table.rules.reserve(0) == 16 and not e.table.rules.late_phase(0, 0)
    with pytest.raises(OptionError):
        env(rules="huangyan", draw_reserve=15)
