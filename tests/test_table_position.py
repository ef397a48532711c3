"""``Table.at_position``: a table built in the middle of a hand plays on exactly as the real one."""

from __future__ import annotations

import inspect
import random

import pytest

from majiang.engine import Phase, Table
from majiang.engine.state import Observation
from majiang.errors import MajiangError
from majiang.hand import Meld, MeldKind
from majiang.notation import parse_tiles
from majiang.rules.registry import make_rules


def position_of(table: Table) -> Table:
    """A table at ``table``'s position, from what lies on it (the hidden tiles included)."""
    return Table.at_position(
        table.base_rules,
        phase=table.phase,
        current=table.current,
        tile=table.last_tile if table.last_tile is not None else -1,
        hands=[[t for t in range(34) for _ in range(table.concealed[s][t])] for s in range(4)],
        melds=table.melds,
        flowers=table.flowers,
        ponds=table.ponds,
        wall=table.wall.undrawn(),
        source=table.draw_source,
        dealer=table.dealer,
        prevalent_wind=table.prevalent_wind,
        indicators=table.indicators,
        deltas=table.deltas,
        late=table.late,
        cannot_win=sorted(table.cannot_win),
        every_seat_answers=True,
    )


@pytest.mark.parametrize(("rules", "options"), [("gb", {}), ("huangyan", {"throw_limit": 0})])
def test_a_table_at_a_position_plays_on_as_the_real_one(rules: str, options: dict) -> None:
    for seed in range(40):
        table = Table(make_rules(rules, options), seed, dealer=seed % 4)
        rng = random.Random(seed)
        steps = rng.randrange(1, 80)
        while not table.is_over and (steps > 0 or table.responses):  # a decision's start
            seat = table.to_act()[0]
            table.apply(seat, rng.choice(table.legal_actions(seat)))
            steps -= 1
        if table.is_over:
            continue
        copy = position_of(table)
        assert copy.to_act() == table.to_act()
        for seat in range(4):
            assert copy.observation(seat) == table.observation(seat)
        real_events: list[dict] = []
        copy_events: list[dict] = []
        while not table.is_over:  # the same actions from here: the same events, the same end
            seat = table.to_act()[0]
            action = rng.choice(table.legal_actions(seat))
            real_events += table.apply(seat, action)
            copy_events += copy.apply(seat, action)
        assert copy_events == real_events
        assert copy.result == table.result


MINE = "123456789m11222s"
OTHERS = ["1112345678999p", "EEESSSWWWNNNC", "CCFFFPPP23456s"]


def test_a_position_offers_what_its_tiles_allow() -> None:
    def at(hand: str, melds: list[Meld], source: str) -> Table:
        return Table.at_position(
            make_rules("gb"),
            phase=Phase.TURN,
            current=0,
            tile=parse_tiles(hand)[-1],
            hands=[parse_tiles(hand), *(parse_tiles(h) for h in OTHERS)],
            melds=[melds, [], [], []],
            flowers=[[], [], [], []],
            ponds=[[], [], [], [0] if melds else []],
            wall=parse_tiles("5678p"),
            source=source,
            dealer=3,
        )

    drawn = at(MINE, [], "wall")
    assert type(drawn.legal_actions(0)[0]).__name__ == "Win"
    check = drawn.win_check(0)
    assert check is not None and check.legal
    assert drawn.observation(0).wall_remaining == 4 and drawn.dealer == 3
    # after a claim the same tiles offer no self-drawn win, and the table's verdict says so
    claimed = at(MINE[3:], [Meld(MeldKind.CHOW, 0, 1)], "claim")
    assert all(type(a).__name__ == "Discard" for a in claimed.legal_actions(0))
    assert claimed.win_check(0) is None


def test_no_table_is_built_outside_a_decision() -> None:
    with pytest.raises(MajiangError, match="no table can be built in the end phase"):
        Table.at_position(
            make_rules("gb"), phase=Phase.END, current=0, tile=0, hands=[[]] * 4,
            melds=[[]] * 4, flowers=[[]] * 4, ponds=[[]] * 4, wall=[],
        )  # fmt: skip


def dealt_then_overwritten(rules: object, **position: object) -> Table:
    """A position built the long way, as ``at_position`` once did: a table of seed 0 shuffled
    and dealt (or at its bullets), then every part of its state overwritten by the position."""
    p: dict = position
    phase, current, tile = p["phase"], p["current"], p["tile"]
    table = Table(
        rules, 0, dealer=p["dealer"], prevalent_wind=p["prevalent_wind"],
        dealer_count=p["dealer_count"], thrown=tuple(p["thrown"]), every_seat_answers=False,
    )  # fmt: skip
    table._place(
        p["indicators"], p["hands"], p["melds"], p["flowers"], p["ponds"], p["wall"],
        p["deltas"], p["thrown"], p["late"], p["cannot_win"],
    )  # fmt: skip
    if phase is Phase.TURN:
        table._begin_turn(current, p["source"], tile)
        table._draw_may_win = True
        return table
    table._begin_turn(current, "wall", tile)
    table._add(current, tile)
    table.every_seat_answers = True
    if phase is Phase.CLAIM:
        table.ponds[current].pop()
        table._seen(tile, -1)
        table._discard(current, tile)
    else:
        table.offer_note = table.rules.note_offer(table, current, tile)
        table._add(current, tile, -1)
        table.last_tile = tile
        table._open_window(Phase.ROB, current, tile)
    table.every_seat_answers = False
    return table


def fields(table: object) -> dict:
    """Every attribute of ``table`` (compiled classes list theirs in ``__mypyc_attrs__``), an
    object with attributes of its own (a wall, a bound rule set) as the type and its fields."""
    names = getattr(type(table), "__mypyc_attrs__", None) or list(vars(table))
    found = {}
    for name in names:
        if not hasattr(table, name):
            continue
        value = getattr(table, name)
        if inspect.ismethod(value):  # a bound rule set's method: the same method of equal rules
            value = (value.__func__, fields(value.__self__))
        elif type(value).__module__.startswith("majiang.") and (
            hasattr(value, "__dict__") or hasattr(type(value), "__mypyc_attrs__")
        ):
            value = (type(value), fields(value))
        found[name] = value
    return found


def sampled_positions(rules_name: str, hands: int) -> list[tuple[Observation, Table]]:
    """Decisions of seat 0 with its hidden tiles sampled, from hands of random play."""
    from majiang.bots.sampler import hand_rules, sample_deal, table_at

    rules = make_rules(rules_name)
    found = []
    for seed in range(hands):
        table = Table(rules, seed, dealer=seed % 4)
        rng = random.Random(seed)
        while not table.is_over:
            for seat in table.to_act():
                obs = table.observation(seat)
                if obs.phase in (Phase.TURN, Phase.CLAIM, Phase.ROB) and rng.random() < 0.1:
                    deal = sample_deal(obs, hand_rules(obs, rules), rng)
                    found.append((obs, table_at(obs, rules, deal)))
                table.apply(seat, rng.choice(table.legal_actions(seat)))
    return found


@pytest.mark.parametrize("rules_name", ["gb", "huangyan"])
def test_a_position_is_the_table_dealt_then_overwritten(rules_name: str) -> None:
    positions = sampled_positions(rules_name, 25)
    phases = {obs.phase for obs, _ in positions}
    assert len(positions) > 100 and {Phase.TURN, Phase.CLAIM} <= phases
    for _, built in positions:
        hands = [[t for t in range(34) for _ in range(built.concealed[s][t])] for s in range(4)]
        rob = built.phase is Phase.ROB
        tile = built.last_tile
        assert tile is not None
        if rob:  # the tile being added sits in no hand; the position has it back in
            hands[built.current].append(tile)
        position = dict(
            phase=built.phase, current=built.current, tile=tile, hands=hands,
            melds=built.melds, flowers=built.flowers, ponds=built.ponds,
            wall=built.wall.undrawn(), source=built.draw_source, dealer=built.dealer,
            prevalent_wind=built.prevalent_wind, indicators=built.indicators,
            deltas=built.deltas, dealer_count=built.dealer_count, thrown=built.thrown,
            late=built.late, cannot_win=sorted(built.cannot_win),
        )  # fmt: skip
        direct = Table.at_position(built.base_rules, **position)  # type: ignore[arg-type]
        old = fields(dealt_then_overwritten(built.base_rules, **position))
        new = fields(direct)
        # the only difference: the old path left the seed-0 deal's order in ``dealt``
        assert new.pop("dealt") == [[], [], [], []]
        old.pop("dealt")
        assert new == old
