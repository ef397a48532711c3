"""What the environments share: the rule set and table settings, the table of a reset, the seeds."""

from __future__ import annotations

import random
from typing import Any

from ..engine.table import Table
from ..errors import MajiangError
from ..rules.base import RuleSet
from ..rules.registry import DEFAULT_RULES, make_rules
from .encoding import ActionCodec, Layout


def make_table_rules(rules: str | RuleSet, options: dict[str, Any]) -> RuleSet:
    """A rule set by name (with options) or as given."""
    if isinstance(rules, str):
        return make_rules(rules, options)
    if options:
        raise MajiangError("rule options go with a rule set name, not a RuleSet object")
    return rules


def reset_table(
    rules: RuleSet,
    seed: int,
    options: dict[str, Any],
    *,
    dealer: int,
    prevalent_wind: int,
    every_seat_answers: bool,
) -> Table:
    """The table of ``reset(seed, options)``: ``options`` may override the dealer and the
    prevalent wind and give an explicit ``wall`` and Huangyan's ``dealer_count`` and ``thrown``."""
    return Table(
        rules,
        seed,
        dealer=options.get("dealer", dealer),
        prevalent_wind=options.get("prevalent_wind", prevalent_wind),
        wall=options.get("wall"),
        every_seat_answers=every_seat_answers,
        dealer_count=options.get("dealer_count", 1),
        thrown=options.get("thrown", (0, 0, 0, 0)),
    )


def next_seed(seeds: random.Random, seed: int | None) -> int:
    """The table seed of a reset: ``seed`` itself (which also reseeds ``seeds``), else the next
    one drawn from ``seeds``."""
    if seed is None:
        return seeds.getrandbits(62)
    seeds.seed(seed)
    return seed


class SelfPlaySettings:
    """The settings every environment shares (the AEC, batched and single-agent ones): the rule
    set (a name with its options, or a ``RuleSet``), its layout and action codec, and how tables
    are dealt."""

    def __init__(
        self,
        rules: str | RuleSet = DEFAULT_RULES,
        *,
        oracle: bool = False,
        every_seat_answers: bool = True,
        dealer: int = 0,
        prevalent_wind: int = 0,
        bullet_value: float = 0.0,
        max_pond: int = 40,
        **options: Any,
    ) -> None:
        self.rule_set = make_table_rules(rules, options)
        self.layout = Layout(self.rule_set.throw_limit, max_pond, oracle)
        self.codec = ActionCodec(self.layout.throw_limit)
        self.every_seat_answers = every_seat_answers
        self.dealer = dealer
        self.prevalent_wind = prevalent_wind
        self.bullet_value = bullet_value


__all__ = ["SelfPlaySettings", "make_table_rules", "next_seed", "reset_table"]
