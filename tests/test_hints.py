"""Hints for a seat (majiang.hints): what every table shows when a player asks for help."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from majiang.bots import make_bot
from majiang.engine.match import Match
from majiang.engine.state import HIDDEN, Observation, Phase, extension_state
from majiang.hints import hints
from majiang.notation import parse_tiles
from majiang.rules.base import RuleSet
from majiang.rules.huangyan.scoring import is_winning_shape
from majiang.rules.huangyan.wild import Wild
from majiang.rules.registry import make_rules
from majiang.tiles import tile_name


def observations(rules_name: str, bot: str, seed: int, hands: int) -> Iterator[
    tuple[RuleSet, Observation]
]:
    """Every observation of every seat asked to act, over a short match of bots."""
    match = Match(make_rules(rules_name), seed, hands=hands)
    agents = [make_bot(bot, seat) for seat in range(4)]
    for spec in match.specs():
        table = match.table(spec)
        while not table.is_over:
            for seat in table.to_act():
                obs = table.observation(seat)
                yield table.rules, obs
            seat = table.to_act()[0]
            table.apply(seat, agents[seat](table.observation(seat)))
        match.record(table.result)


def own_unseen(obs: Observation) -> list[int]:
    """4 - copies this seat can see anywhere (hand, own melds, ponds, shown melds, indicator)."""
    seen = [0] * 34
    for t in obs.hand:
        seen[t] += 1
    for pond in obs.discards:
        for t in pond:
            seen[t] += 1
    for melds in obs.melds:
        for meld in melds:
            if meld.tile != HIDDEN:
                for t in meld.tiles:
                    seen[t] += 1
    if obs.indicator is not None:
        seen[obs.indicator] += 1
    return [max(0, 4 - n) for n in seen]


def test_a_ready_guobiao_hand_lists_each_wait_with_its_unseen_copies_and_the_minimum() -> None:
    _, obs = next(observations("gb", "efficient", 1, 1))
    empty = ((), (), (), ())
    obs = obs._replace(
        hand=tuple(sorted(parse_tiles("345s1122234789p"))),
        drawn=None,
        melds=empty,
        flowers=empty,
        discards=empty,
        seat_wind=0,
        prevalent_wind=0,
    )
    got = hints(obs, make_rules("gb"))
    assert got["rules"] == "gb" and got["tiles"] == 13 and got["shanten"] == 0
    assert [(w["tile"], w["unseen"], w["meets_minimum"]) for w in got["waits"]] == [
        ("1p", 2, False),
        ("2p", 1, True),
        ("5p", 4, False),
    ]
    assert all(w["best_total"] is not None for w in got["waits"])
    # a tile in a pond is no longer unseen
    seen = obs._replace(discards=((parse_tiles("5p")[0],), (), (), ()))
    assert [w["unseen"] for w in hints(seen, make_rules("gb"))["waits"]] == [2, 1, 3]


@pytest.mark.parametrize("seed", [1, 2])
def test_guobiao_hints_agree_with_the_observation(seed: int) -> None:
    checked = 0
    for rules, obs in observations("gb", "efficient", seed, 2):
        got = hints(obs, rules)
        size = len(obs.hand) + 3 * len(obs.melds[obs.seat])
        assert got["tiles"] == size
        unseen = own_unseen(obs)
        if size == 13:
            for useful in got["useful"]:
                tile = parse_tiles(useful["tile"])[0]
                assert useful["unseen"] == unseen[tile]
            assert (got["shanten"] == 0) == bool(got["waits"]) or all(
                w["unseen"] == 0 for w in got["waits"]
            )
        else:
            names = {tile_name(t) for t in obs.hand}
            assert {d["tile"] for d in got["discards"]} == names
            assert got["shanten"] == min(d["shanten"] for d in got["discards"]) or got["complete"]
        checked += 1
    assert checked > 100


def test_huangyan_waits_are_exactly_the_faces_that_complete_the_hand() -> None:
    ready = 0
    for rules, obs in observations("huangyan", "wild", 5, 3):
        got = hints(obs, rules)
        size = len(obs.hand) + 3 * len(obs.melds[obs.seat])
        if obs.phase is Phase.BULLETS or size not in (13, 14):
            assert got["shanten"] is None
            continue
        assert got["rules"] == "huangyan"
        assert obs.wild is not None and got["wild"] == tile_name(obs.wild)
        if size != 13 or got["shanten"] != 0:
            continue
        wild = Wild.of(obs.wild)
        counts = [0] * 34
        for t in obs.hand:
            counts[t] += 1
        completing = set()
        for face in range(34):
            counts[face] += 1
            if counts[face] <= 4 and is_winning_shape(counts, len(obs.melds[obs.seat]), wild):
                completing.add(tile_name(face))
            counts[face] -= 1
        assert {w["tile"] for w in got["waits"]} <= completing
        assert {w["tile"] for w in got["waits"]} == {
            name for name in completing if own_count(obs, name) < 4
        }
        ready += 1
    assert ready > 0


def own_count(obs: Observation, name: str) -> int:
    """Copies of a face in the seat's own hand."""
    return obs.hand.count(parse_tiles(name)[0])


def test_no_hand_no_advice() -> None:
    rules, obs = next(observations("gb", "efficient", 1, 1))
    empty = obs._replace(hand=(), drawn=None)
    assert hints(empty, rules) == {"rules": "gb", "tiles": 0, "shanten": None}


def test_the_safety_hint_reads_ponds_melds_and_unseen_copies() -> None:
    """Each tile's danger: an honour nobody can wait on, a tile every opponent discarded, suji,
    a flush read from a seat's melds, terminals and middle tiles; safest first, in hints()."""
    from majiang.hand import Meld, MeldKind
    from majiang.safety import REASONS, safety

    rules, obs = next(observations("gb", "efficient", 1, 1))
    t = {name: parse_tiles(name)[0] for name in ("1m", "2m", "5m", "9s", "3s", "5p", "E", "C")}
    obs = obs._replace(
        seat=0,
        hand=tuple(sorted(parse_tiles("125m39s5789pECCC"))),
        drawn=None,
        melds=((), (), (Meld(MeldKind.PUNG, parse_tiles("1s")[0], 1),
                        Meld(MeldKind.PUNG, parse_tiles("7s")[0], 1)), ()),
        flowers=((), (), (), ()),
        discards=((), (t["5m"], t["E"]), (t["5m"], t["E"]), (t["5m"], t["E"])),
        visible=None,
    )
    got = {x["tile"]: x for x in safety(obs)}
    assert got["E"]["danger"] == 0 and got["E"]["why"] == "honour_gone"  # three shown, one held
    assert got["5m"]["danger"] == 0 and got["5m"]["why"] == "genbutsu"
    assert got["2m"]["danger"] == 1 and got["2m"]["why"] == "suji"  # 5m gone on every side
    assert got["1m"]["why"] == "terminal" and got["1m"]["danger"] == 2
    assert got["5p"]["danger"] == 3 and got["5p"]["why"] == "middle"
    # seat 2 shows two bamboo pungs: a flush; bamboo is the danger against it
    three_s = {s["seat"]: s for s in got["3s"]["seats"]}
    assert got["3s"]["danger"] == 3 and three_s[2] == {"seat": 2, "danger": 3, "why": "flush_here"}
    five_p = {s["seat"]: s for s in got["5p"]["seats"]}
    assert five_p[2]["why"] == "flush_elsewhere" and five_p[2]["danger"] == 1
    assert got["C"]["why"] == "honour_single"  # three held: one left for a single wait
    order = [x["danger"] for x in safety(obs)]
    assert order == sorted(order)
    assert all(x["text"] == REASONS[x["why"]].format(tile=x["tile"], seat=x["seat"])
               for x in got.values())
    assert "raw" not in {x["why"] for x in got.values()}
    assert hints(obs, rules)["safety"] == safety(obs)


def test_huangyan_safety_knows_the_wild_tile_and_raw_tiles() -> None:
    """A discarded 得 cannot be won on; in the raw-tile phase a raw tile is marked and at least
    medium."""
    from majiang.safety import safety

    for rules, obs in observations("huangyan", "random", 1, 2):
        if obs.wild is None or obs.wild not in obs.hand or not extension_state(obs)[0]:
            continue
        got = {x["tile"]: x for x in safety(obs)}
        assert (got[tile_name(obs.wild)]["why"], got[tile_name(obs.wild)]["danger"]) == ("wild", 0)
        assert all(s["why"] == "wild" for s in got[tile_name(obs.wild)]["seats"])
        in_ponds = {tile_name(t) for pond in obs.discards for t in pond}
        for name, x in got.items():
            assert x["raw"] == (name not in in_ponds)
            if x["raw"] and name != tile_name(obs.wild):
                assert x["danger"] >= 2
        assert hints(obs, rules)["safety"] == safety(obs)
        return
    raise AssertionError("no raw-tile phase with the 得 in hand: choose another seed")
