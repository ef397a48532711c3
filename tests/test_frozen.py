"""The frozen dataclasses that mypyc compiles copy and pickle to equal values (``majiang.frozen``).

Run against both builds (``make test-compiled``): compiled, a frozen dataclass refuses the field
assignments ``copy`` and ``pickle`` otherwise make after creating it.
"""

from __future__ import annotations

import copy
import pickle
from typing import Any

import pytest

from majiang.bots import make_bot
from majiang.engine import Table
from majiang.engine.match import play_hand
from majiang.env.encoding import Layout
from majiang.hand import Meld, MeldKind
from majiang.rules.registry import make_rules


def _finished_table(rules: str, seed: int) -> Table:
    table = Table(make_rules(rules), seed)
    bot = "efficient" if rules == "gb" else "wild"
    play_hand(table, [make_bot(bot, seat) for seat in range(4)])
    return table


def _values() -> list[Any]:
    table = _finished_table("gb", 3)
    wild = _finished_table("huangyan", 5)
    return [
        Meld(MeldKind.CHOW, 4, 2),
        Meld(MeldKind.KONG, 30, 0),
        table.wall.dice,
        table.result,
        wild.result,
        table.observation(1),
        wild.observation(2),
        Layout(3, 30, True),
    ]


@pytest.mark.parametrize("index", range(8))
def test_copies_and_pickles_are_equal(index: int) -> None:
    value = _values()[index]
    assert value is not None
    for other in (copy.copy(value), copy.deepcopy(value), pickle.loads(pickle.dumps(value))):
        assert type(other) is type(value)
        assert other == value
