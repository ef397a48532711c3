"""Why an action is refused, in the words of the rules (the message of ``IllegalAction``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import (
    AcceptBullets,
    Action,
    AddedKong,
    Chow,
    ConcealedKong,
    Discard,
    ExposedKong,
    Pass,
    Pung,
    ThrowBullets,
    Win,
    action_to_json,
)
from .state import Phase

if TYPE_CHECKING:
    from .table import Table


def why_illegal(table: Table, seat: int, action: Action, legal: list[Action]) -> str:
    """Why ``seat`` may not play ``action`` now: who is waiting, or the rule it breaks."""
    try:
        label: object = action_to_json(action)
    except (TypeError, IndexError, KeyError):
        label = repr(action)  # not an action, or a tile that does not exist
    if table.phase is Phase.END:
        return f"{label} by seat {seat}: the hand is over"
    if not legal:
        waiting = ", ".join(str(s) for s in table.to_act()) or "nobody"
        return f"{label} by seat {seat}: it is not this seat's decision (waiting for {waiting})"
    return f"{label} by seat {seat}: {_reason(table, seat, action)}"

def _reason(table: Table, seat: int, action: Action) -> str:
    """Why a well-formed action is refused, in the words of the rules."""
    turn = table.phase is Phase.TURN
    bullets = table.phase is Phase.BULLETS
    if isinstance(action, ThrowBullets | AcceptBullets) or bullets:
        if not bullets:
            return "bullets are thrown and accepted only before the deal"
        if isinstance(action, ThrowBullets):
            if seat != table.dealer or table.responses:
                return "only the dealer throws bullets, once, before the deal"
            return f"the dealer may throw 0 to {table.rules.throw_limit} bullets"
        if isinstance(action, AcceptBullets | Pass):
            return "only the other players answer the dealer's throw"
        return "before the deal only bullets are thrown and accepted"
    if isinstance(action, Discard | ConcealedKong | AddedKong) and not turn:
        return "only the player on turn may discard or declare a kong"
    if isinstance(action, Discard):
        return "that tile is not in the concealed hand"
    if isinstance(action, ConcealedKong | AddedKong):
        if table.claimed_turn and not table.rules.kong_after_claim:
            return "after a chow or pung the player must discard (no kong until his next draw)"
        if not table._may_kong(seat):
            if table.wall.parts != 1:
                return "no kong: this player's or the next player's part of the wall is empty"
            return "no kong: the wall has no replacement tile left for it"
        if not table.rules.natural(action.tile):
            return "a wild tile may not be used in a kong"
        if isinstance(action, ConcealedKong):
            return "a concealed kong needs four copies in the concealed hand"
        return "an added kong needs an exposed pung of that tile and the fourth copy in hand"
    if isinstance(action, Chow | Pung | ExposedKong | Pass) and turn:
        return "there is no discard to claim now"
    if isinstance(action, Chow | Pung | ExposedKong) and table.final_discard:
        return "the final discard may only be claimed for a win"
    if isinstance(action, Chow | Pung | ExposedKong) and table.phase is Phase.ROB:
        return "the tile of an added kong may only be robbed for a win"
    if isinstance(action, Chow | Pung | ExposedKong) and not table.rules.natural(
        table.last_tile if table.last_tile is not None else 0
    ):
        return "a discarded wild tile is dead: it may not be claimed"
    if isinstance(action, Chow):
        if not table.rules.chow_allowed(table.current, seat):
            return "only the discarder's next player may chow"
        return "that chow cannot be made with this hand and this discard"
    if isinstance(action, Pung):
        if table.last_tile is not None and (
            table.rules.identity(table.last_tile) in table._skipped_pungs[seat]
        ):
            return "this player passed a pung of this tile and may not pung it until he draws"
        return "a pung needs two copies of the discard in the concealed hand"
    if isinstance(action, ExposedKong):
        return "a kong on a discard needs three copies in hand and a replacement tile left"
    if isinstance(action, Win):
        if seat in table.cannot_win:
            return "after a false win this player may not win again this hand"
        if table.claimed_turn:
            return "no win right after a chow or pung (only a discard)"
        if seat in table._passed_win and table.phase is not Phase.TURN:
            return "this player passed a win and may not win on a discard until he draws"
        return "the tiles do not form a winning hand that may be declared"
    return "not legal now"


__all__ = ["why_illegal"]
