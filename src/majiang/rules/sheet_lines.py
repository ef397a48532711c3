"""Settlement lines: how a rule set explains a hand's payments on a score sheet, in data.

A rule set's :attr:`~majiang.rules.info.RuleSetDescription.settlement` function turns a finished
hand's result (``HandResult.to_json()``) into::

    {"lines": [{"id", "label": {"en", "zh"}, "text": {"en", "zh"}, "seats": [..],
                "result", "note": {"en", "zh"} | None}],
     "payments": [{"ledger": {"en", "zh"}, "payer", "payee", "amount",
                   "reason": {"en", "zh"}, "for"}]}

Each line reads ``label: text → result (note)``; ``{0}``, ``{1}`` ... in a text stand for the
seats of ``seats``, which the table names as it names seats. ``payments`` lists every transfer
with its reason in both languages (empty when the rule set pays by formula alone). A table shows
these as they are: it computes nothing.

A rule set's :attr:`~majiang.rules.info.RuleSetDescription.fan_definitions` function gives the
fans a result counts with their definitions (:class:`FanDefinition`), and its
:attr:`~majiang.rules.info.RuleSetDescription.fan_tiles` function the tiles of the winner's hand
that make each fan, for a sheet that highlights them.
"""

from __future__ import annotations

from typing import Any, NamedTuple

Json = dict[str, Any]


def text(en: str, zh: str) -> dict[str, str]:
    """A text in both languages."""
    return {"en": en, "zh": zh}


def line(
    id: str, label: dict[str, str], body: dict[str, str], result: str, *,
    seats: tuple[int, ...] = (), note: dict[str, str] | None = None,
) -> Json:
    """One settlement line (see the module docstring)."""
    return {"id": id, "label": label, "text": body, "seats": list(seats), "result": result,
            "note": note}


def no_lines(result: Json, rules: Any, stake: int) -> Json:
    """A rule set that explains nothing beyond its result."""
    return {"lines": [], "payments": []}


class FanDefinition(NamedTuple):
    """One fan (or doubling) a result counts, with its definition in both languages."""

    key: str
    """The name the result gives it (Guobiao: the English name; Huangyan: the Chinese)."""
    zh: str
    en: str
    definition: dict[str, str]
    """``{"zh": ..., "en": ...}``."""


def no_definitions(result: Json) -> list[FanDefinition]:
    """A rule set without fan definitions."""
    return []


def no_fan_tiles(result: Json, view: Json) -> dict[str, list[str] | None]:
    """A rule set that highlights no tiles."""
    return {}


__all__ = ["FanDefinition", "line", "no_definitions", "no_fan_tiles", "no_lines", "text"]
