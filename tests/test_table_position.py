"""``Table.at_position``: a table built in the middle of a hand plays on exactly as the real one."""

from __future__ import annotations

import random

import pytest

from majiang.engine import Phase, Table
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
