"""Guobiao's settlement lines (:mod:`majiang.rules.sheet_lines`): the payment formula in
numbers, (8 + fans) × stake from the discarder (from each loser when self-drawn) and 8 × stake
from the others, shown when it is what the hand paid."""

from __future__ import annotations

from typing import Any

from ..sheet_lines import Json, line, text
from .payments import BASE_POINTS, seat_deltas


def settlement_lines(result: Json, rules: Any, stake: int) -> Json:
    """The payment formula of a won hand, or no line (a draw, a false win, Botzone's faults)."""
    winner, total = result.get("winner"), (result.get("detail") or {}).get("total")
    if winner is None or not isinstance(total, int) or stake < 1:
        return {"lines": [], "payments": []}
    discarder = None if result.get("self_drawn") else result.get("discarder")
    if list(seat_deltas(winner, discarder, total, stake)) != list(result.get("deltas") or []):
        return {"lines": [], "payments": []}
    full, base = (BASE_POINTS + total) * stake, BASE_POINTS * stake
    arithmetic = f"({BASE_POINTS} + {total}) × {stake} = {full}"
    if discarder is None:
        body = text(f"each loser pays {arithmetic}", f"三家各付 {arithmetic}")
        seats: tuple[int, ...] = ()
    else:
        others = f"{BASE_POINTS} × {stake} = {base}"
        body = text(f"{{0}} pays {arithmetic} · the others {others} each",
                    f"{{0}} 付 {arithmetic} · 另两家各付 {others}")
        seats = (discarder,)
    paid = 3 * full if discarder is None else full + 2 * base
    return {"lines": [line("payment-formula", text("Payment", "收付"), body, f"+{paid}",
                           seats=seats)],
            "payments": []}


__all__ = ["settlement_lines"]
