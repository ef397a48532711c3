"""Wall layouts are subclasses of ``engine.wall.Wall`` that a rule set (or the caller) passes to
the table: the layouts defined here play whole hands, and the built-in names map to theirs."""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence

import pytest

from majiang.engine.actions import Action, Win
from majiang.engine.table import Table
from majiang.engine.wall import LAYOUTS, Dealer, FourPart, SingleEnd, TwoEnded, Wall
from majiang.errors import MajiangError
from majiang.rules.guobiao.ruleset import GuobiaoRules

RULES = GuobiaoRules()
PLAIN = GuobiaoRules({"flowers": False})


class BackFirst(TwoEnded):
    """The two-ended wall turned round: live draws from the back, replacements from the front
    (the two-ended deal, drawing through ``draw``)."""

    name = "back_first"

    def draw(self, part: int = 0) -> int:
        if self.front >= self.back:
            raise IndexError("the wall is empty")
        self.back -= 1
        return self.tiles[self.back]

    def draw_back(self, part: int = 0) -> int:
        return Wall.draw(self, part)

    def undrawn(self) -> list[int]:
        return self.tiles[self.front : self.back][::-1]


class RoundRobin(Wall):
    """One end, dealt a tile at a time round the table (13 rounds, then the dealer's 14th)."""

    name = "round_robin"

    def deal(self, table: Dealer) -> None:
        for _ in range(13):
            for i in range(4):
                if table.deal_drawing((table.dealer + i) % 4) is None:
                    return
        first = table.deal_drawing(table.dealer)
        if first is None:
            return
        table.deal_first(first)
        table.deal_done()


class LayoutRules(GuobiaoRules):
    """Guobiao on a wall layout of its own."""

    def __init__(self, layout: type[Wall], options: dict[str, object] | None = None) -> None:
        super().__init__(options)
        self.layout = layout

    @property
    def wall_layout(self) -> type[Wall]:
        return self.layout


def choice(rng: random.Random, legal: Sequence[Action]) -> Action:
    """A win when there is one, else any legal action."""
    wins = [a for a in legal if isinstance(a, Win)]
    return wins[0] if wins else rng.choice(list(legal))


def play(table: Table, seed: int) -> None:
    rng = random.Random(seed)
    while not table.is_over:
        seat = rng.choice(table.to_act())
        table.apply(seat, choice(rng, table.legal_actions(seat)))


def test_a_rule_sets_own_layout_plays_the_turned_wall_as_the_two_ended_one() -> None:
    """Turned round, the same tiles play the same hand: every draw, replacement and deal step
    goes through the layout, and the table reads nothing else of it."""
    hands_with_replacements = 0
    for seed in range(12):
        two_ended = Table(RULES, seed, dealer=seed % 4)
        turned = Table(
            LayoutRules(BackFirst), wall=two_ended.wall.tiles[::-1], dealer=seed % 4
        )
        assert turned.layout == "back_first" and isinstance(turned.wall, BackFirst)
        assert turned.dealt == two_ended.dealt and turned.flowers == two_ended.flowers
        rng = random.Random(seed)
        while not two_ended.is_over:
            assert turned.to_act() == two_ended.to_act()
            assert turned.drawable == two_ended.drawable
            assert turned.wall.undrawn() == two_ended.wall.undrawn()
            seat = rng.choice(two_ended.to_act())
            action = choice(rng, two_ended.legal_actions(seat))
            assert turned.legal_actions(seat) == two_ended.legal_actions(seat)
            assert turned.apply(seat, action) == two_ended.apply(seat, action)
        assert turned.is_over and turned.result == two_ended.result
        assert turned.tile_census() == two_ended.tile_census()
        hands_with_replacements += two_ended.replacements > 0
    assert hands_with_replacements >= 6


def test_a_layouts_own_deal_deals_the_hand() -> None:
    """RoundRobin's deal: seat ``i`` from the dealer takes every fourth tile from the front."""
    for seed in range(6):
        dealer = seed % 4
        table = Table(LayoutRules(RoundRobin, {"flowers": False}), seed, dealer=dealer)
        tiles = table.wall.tiles
        for i in range(4):
            seat = (dealer + i) % 4
            expected = tiles[i : 52 : 4] + ([tiles[52]] if i == 0 else [])
            assert table.dealt[seat] == expected
        play(table, seed)
        assert table.result is not None and sum(table.tile_census()) == 136
        assert table.wall.undrawn() == tiles[table.wall.front :]


def test_flowers_on_a_layouts_own_deal_are_replaced_at_once() -> None:
    table = Table(LayoutRules(RoundRobin), 3)
    assert sum(len(f) for f in table.flowers) > 0
    assert all(len(table.dealt[s]) == (14 if s == table.dealer else 13) for s in range(4))
    assert table.replacements == sum(len(f) for f in table.flowers)
    play(table, 3)
    assert table.is_over and sum(table.tile_census()) == 144


def test_a_layout_passed_or_named_plays_alike() -> None:
    """The names users type map to the layouts; a rule set's own layout answers to its name."""
    assert {"two_ended": TwoEnded, "single_end": SingleEnd, "four_part": FourPart} == LAYOUTS
    for name, layout in LAYOUTS.items():
        by_name, passed = Table(RULES, 5, layout=name), Table(RULES, 5, layout=layout)
        assert type(by_name.wall) is type(passed.wall) is layout and passed.layout == name
        play(by_name, 5)
        play(passed, 5)
        assert by_name.events == passed.events
    rules = LayoutRules(RoundRobin)
    assert type(Table(rules, 1, layout="round_robin").wall) is RoundRobin
    assert type(Table(rules, 1, layout="two_ended").wall) is TwoEnded


def test_a_renamed_layout_plays_by_its_behaviour_not_its_name() -> None:
    class Renamed(SingleEnd):
        name = "two_ended_in_name_only"

    renamed = Table(RULES, 8, layout=Renamed)
    single = Table(RULES, 8, layout=SingleEnd)
    play(renamed, 8)
    play(single, 8)
    assert renamed.events == single.events and renamed.single_end


@pytest.mark.parametrize(
    ("layout", "single_end", "message"),
    [
        ("three_part", False, "a wall layout is one of two_ended, single_end, four_part"),
        (int, False, "a wall layout is a subclass"),
        ("round_robin", False, "not 'round_robin'"),
        (FourPart, True, "single_end contradicts"),
        ("two_ended", True, "single_end contradicts the wall layout 'two_ended'"),
    ],
)
def test_bad_layouts_are_refused(layout: object, single_end: bool, message: str) -> None:
    with pytest.raises(MajiangError, match=message):
        Table(RULES, 1, layout=layout, single_end=single_end)  # type: ignore[arg-type]


def test_without_mypy_extensions_the_class_options_change_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A pure-Python install need not have mypy_extensions: ``mypyc_attr`` is then a no-op."""
    import importlib

    import majiang.mypyc_options as options

    monkeypatch.setitem(sys.modules, "mypy_extensions", None)  # importing it fails
    fallback = importlib.reload(options)
    try:
        assert fallback.mypyc_attr.__module__ == "majiang.mypyc_options"
        assert fallback.mypyc_attr(allow_interpreted_subclasses=True)(RoundRobin) is RoundRobin
    finally:
        monkeypatch.undo()
        importlib.reload(options)
