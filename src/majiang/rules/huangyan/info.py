"""The Huangyan rule set as the front ends know it: its
:class:`~majiang.rules.info.RuleSetDescription`."""

from __future__ import annotations

from ..info import LazyClass, RuleSetDescription, SearchPlan, TableShows
from .options import HuangyanOptions

DESCRIPTION = RuleSetDescription(
    name="huangyan",
    aliases=("hy",),
    title_zh="黄岩麻将",
    title_en="Huangyan",
    short_zh="黄岩",
    short_en="Huangyan",
    make=LazyClass("majiang.rules.huangyan.ruleset:HuangyanRules"),
    options_class=HuangyanOptions,
    bots=("random", "wild"),
    heavy_bots=("search",),
    search=SearchPlan("majiang.bots.wild_aware:WildBot", "majiang.bots.wild_aware:WildBot",
                      every_discard=False),
    default_bot="wild",
    practice_bot="wild",
    points_unit="hu",
    shows=TableShows(prevalent_wind=False, dealer_count=True, wild=True,
                     second_ledger="bullets", gunner=True),
    hints="majiang.hints:wild_hints",
    scorer="majiang.cli.score_huangyan:run",
    sheet="majiang.tui.sheets:huangyan_sheet",
    settlement="majiang.rules.huangyan.sheet:settlement_lines",
    fan_definitions="majiang.rules.huangyan.doubling_definitions:result_definitions",
    match_length="rounds",
    options_doc="docs/rules/huangyan.md §0.4",
)
"""Huangyan: hu points and doublings, the 得 wild tile, bullets, no prevalent wind (A22)."""
