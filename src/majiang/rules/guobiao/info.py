"""The Guobiao rule set as the front ends know it: its
:class:`~majiang.rules.info.RuleSetDescription`."""

from __future__ import annotations

from ..info import LazyClass, RuleSetDescription, SearchPlan, TableShows
from .options import GuobiaoOptions

DESCRIPTION = RuleSetDescription(
    name="gb",
    aliases=("guobiao",),
    title_zh="国标麻将",
    title_en="Guobiao (MCR)",
    short_zh="国标",
    short_en="GB",
    make=LazyClass("majiang.rules.guobiao.ruleset:GuobiaoRules"),
    options_class=GuobiaoOptions,
    bots=("random", "efficient", "fan", "guarded"),
    heavy_bots=("search",),
    search=SearchPlan("majiang.bots.defence:GuardedFanBot", "majiang.bots.fan_aware:FanBot"),
    default_bot="efficient",
    practice_bot="fan",
    points_unit="fans",
    shows=TableShows(prevalent_wind=True),
    hints="majiang.hints:fan_hints",
    scorer="majiang.cli.score:run_guobiao",
    sheet="majiang.tui.sheets:guobiao_sheet",
    settlement="majiang.rules.guobiao.sheet:settlement_lines",
    fan_definitions="majiang.rules.guobiao.fan_definitions:result_definitions",
    fan_tiles="majiang.rules.guobiao.fan_tiles:result_fan_tiles",
    botzone=True,
    options_doc="docs/rules/guobiao.md §6",
)
"""Guobiao: fans, the 8-fan minimum, the prevalent wind; Botzone's game."""
