"""Huangyan's settlement lines (:mod:`majiang.rules.sheet_lines`): the winner's arithmetic,
(hu + 底和) × 2^fan = raw → total (capped by the limit), and every transfer with its reason in
both languages."""

from __future__ import annotations

from typing import Any

from ..sheet_lines import Json, line, text
from .settlement import (
    BULLETS,
    BULLETS_FORMULA,
    HU,
    LOSERS_DIFFERENCE,
    THROWN_BULLETS,
    WINNER_TOTAL,
)

_REASONS = {
    WINNER_TOTAL: text(WINNER_TOTAL, "赢家总分"),
    LOSERS_DIFFERENCE: text(LOSERS_DIFFERENCE, "输家之间的差额"),
    THROWN_BULLETS: text(THROWN_BULLETS, "抛弹"),
}
_LEDGERS = {HU: text("hu", "和数"), BULLETS: text("bullets", "子弹")}


def reason(written: str) -> dict[str, str]:
    """A payment's reason, as the settlement writes it, in both languages."""
    if written.startswith(BULLETS_FORMULA):
        numbers = written[len(BULLETS_FORMULA):]
        return text(written, f"子弹 B×庄数×自摸倍数 = {numbers}")
    return _REASONS.get(written, text(written, written))


def settlement_lines(result: Json, rules: Any, stake: int) -> Json:
    """The winner's arithmetic and every transfer of a won hand (nothing for a draw)."""
    detail = result.get("detail") or {}
    winner = detail.get("winner")
    if result.get("winner") is None or not isinstance(winner, dict):
        return {"lines": [], "payments": []}
    base = getattr(rules.options, "base_reward", None)
    hu, fan = winner.get("hu", 0), winner.get("fan", 0)
    summed = f"({hu} + {base})" if base is not None else f"({hu} + …)"
    arithmetic = f"{summed} × 2^{fan} = {winner.get('raw')}"
    lines = [line("arithmetic", text("Total", "计算"), text(arithmetic, arithmetic),
                  str(winner.get("total")),
                  note=text("limit (辣子)", "辣子封顶") if winner.get("limit") else None)]
    payments = [
        {"ledger": _LEDGERS.get(p["ledger"], text(p["ledger"], p["ledger"])),
         "payer": p["payer"], "payee": p["payee"], "amount": p["amount"],
         "reason": reason(str(p.get("reason", ""))), "for": p.get("for")}
        for p in detail.get("payments") or []
    ]
    return {"lines": lines, "payments": payments}


__all__ = ["reason", "settlement_lines"]
