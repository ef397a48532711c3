"""Each doubling (番) of a Huangyan winner defined in Chinese and English, for the score sheets.

Keyed by the name the scorer gives the doubling (``FanItem.zh``). The English is the "When" of
the doublings table in the rules reference (docs/rules/huangyan.md §4.3) as plain text;
``tests/test_fan_definitions.py`` keeps the two equal."""

from __future__ import annotations

from typing import Any, Final

from ..sheet_lines import FanDefinition

DEFINITIONS: Final[dict[str, tuple[str, str]]] = {
    "门风刻杠": (
        "和牌者门风的每副刻子或杠（明、暗均可）加一番；得可补成暗刻。",
        "each pung or kong, exposed or concealed, of the winner's seat wind; a 得 may complete a "
        "concealed one",
    ),
    "字牌刻杠": (
        "每副非死牌面的箭牌刻子或杠加一番；得可补成暗刻。",
        "each pung or kong of a dragon that is not a dead face; a 得 may complete a concealed one",
    ),
    "清一色": (
        "全部为同一花色的序数牌，无字牌（不计作得用的得及死牌面），加三番。",
        "every tile of one suit, no honour (wild 得 and dead-face tiles ignored)",
    ),
    "混一色": (
        "一种花色加至少一张字牌（同上不计），加一番；不与清一色同计。",
        "one suit and at least one honour (the same exclusions); not with a full flush",
    ),
    "无得": (
        "和牌中没有得（先前打出的得不论），加一番。",
        "the winning hand holds no 得 (得 tiles discarded earlier do not matter, A9)",
    ),
    "得还原": (
        "每张作为本身牌面使用的得加一番。",
        "each 得 used as its own face F [A8]",
    ),
}
"""The scorer's name of a doubling to its definition: (Chinese, English)."""


def definitions_by_name(names: list[str]) -> dict[str, dict[str, str]]:
    """The definitions of the doublings named (the scorer's Chinese names), each as
    ``{"zh": ..., "en": ...}``; unknown names are left out."""
    return {name: {"zh": DEFINITIONS[name][0], "en": DEFINITIONS[name][1]}
            for name in names if name in DEFINITIONS}


def result_definitions(result: dict[str, Any]) -> list[FanDefinition]:
    """Each doubling of a won hand's winner (``HandResult.to_json()``), in its order, with its
    definition; none for a draw."""
    detail = result.get("detail") or {}
    doublings = ((detail.get("winner") or {}).get("fans") or []
                 if result.get("winner") is not None else [])
    known = definitions_by_name([str(fan["zh"]) for fan in doublings])
    return [FanDefinition(str(fan["zh"]), str(fan["zh"]), str(fan["en"]), known[fan["zh"]])
            for fan in doublings if fan["zh"] in known]


__all__ = ["DEFINITIONS", "definitions_by_name", "result_definitions"]
