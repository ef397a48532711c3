"""Why an action is refused, in the words of the rules (the message of ``IllegalAction``)."""

from __future__ import annotations

from typing import NamedTuple

from ..rules.base import RuleSet
from . import actions
from .actions import Action, action_to_json
from .legality import (
    claimable_for_sets,
    kong_allowed_this_turn,
    may_win_on_offer,
    may_win_on_turn,
)
from .state import Phase

_BULLETS = actions.ThrowBullets | actions.AcceptBullets
_KONGS = actions.ConcealedKong | actions.AddedKong
_CLAIMS = actions.Chow | actions.Pung | actions.ExposedKong
"""The claims of a discard for a set (a win aside)."""


class Situation(NamedTuple):
    """What a refusal's reason reads of a table, for the seat refused (built only then)."""

    phase: Phase
    waiting: tuple[int, ...]
    """The seats that must decide now (``to_act``)."""
    rules: RuleSet
    current: int
    """The seat on turn, or whose tile is on offer."""
    claimed_turn: bool
    kong_left: bool
    """This seat's kong on its turn would have its replacement draw."""
    four_part_wall: bool
    final_discard: bool
    offered: int | None
    """The tile on offer."""
    skipped_pung: bool
    """This seat passed a pung of the tile on offer's identity since it last took a tile."""
    false_won: bool
    passed_win: bool
    opening_refusal: str
    """The rule set's reason in its opening phase (``BULLETS``), for a seat of the round."""


def why_illegal(situation: Situation, seat: int, action: Action, legal: list[Action]) -> str:
    """Why ``seat`` may not play ``action`` now: who is waiting, or the rule it breaks."""
    try:
        label: object = action_to_json(action)
    except (TypeError, IndexError, KeyError):
        label = repr(action)  # not an action, or a tile that does not exist
    if situation.phase is Phase.END:
        return f"{label} by seat {seat}: the hand is over"
    if not legal:
        waiting = ", ".join(str(s) for s in situation.waiting) or "nobody"
        return f"{label} by seat {seat}: it is not this seat's decision (waiting for {waiting})"
    return f"{label} by seat {seat}: {_reason(situation, seat, action)}"


def _reason(table: Situation, seat: int, action: Action) -> str:
    """Why a well-formed action is refused, in the words of the rules (each condition the one
    :mod:`majiang.engine.legality` applies)."""
    turn = table.phase is Phase.TURN
    rules = table.rules
    if table.phase is Phase.BULLETS:
        return table.opening_refusal
    if isinstance(action, _BULLETS):
        return "bullets are thrown and accepted only before the deal"
    if isinstance(action, actions.Discard | _KONGS) and not turn:
        return "only the player on turn may discard or declare a kong"
    if isinstance(action, actions.Discard):
        return "that tile is not in the concealed hand"
    if isinstance(action, _KONGS):
        if not kong_allowed_this_turn(table.claimed_turn, rules):
            return "after a chow or pung the player must discard (no kong until his next draw)"
        if not table.kong_left:
            if table.four_part_wall:
                return "no kong: this player's or the next player's part of the wall is empty"
            return "no kong: the wall has no replacement tile left for it"
        if not rules.natural(action.tile):
            return "a wild tile may not be used in a kong"
        if isinstance(action, actions.ConcealedKong):
            return "a concealed kong needs four copies in the concealed hand"
        return "an added kong needs an exposed pung of that tile and the fourth copy in hand"
    if isinstance(action, _CLAIMS | actions.Pass) and turn:
        return "there is no discard to claim now"
    offered = table.offered if table.offered is not None else 0
    robbing = table.phase is Phase.ROB
    if isinstance(action, _CLAIMS) and not claimable_for_sets(
        robbing, table.final_discard, rules.natural(offered)
    ):
        if table.final_discard:
            return "the final discard may only be claimed for a win"
        if robbing:
            return "the tile of an added kong may only be robbed for a win"
        return "a discarded wild tile is dead: it may not be claimed"
    if isinstance(action, actions.Chow):
        if not rules.chow_allowed(table.current, seat):
            return "only the discarder's next player may chow"
        return "that chow cannot be made with this hand and this discard"
    if isinstance(action, actions.Pung):
        if table.skipped_pung:
            return "this player passed a pung of this tile and may not pung it until he draws"
        return "a pung needs two copies of the discard in the concealed hand"
    if isinstance(action, actions.ExposedKong):
        return "a kong on a discard needs three copies in hand and a replacement tile left"
    if isinstance(action, actions.Win):
        if table.false_won:
            return "after a false win this player may not win again this hand"
        if not may_win_on_turn(table.claimed_turn, False):
            return "no win right after a chow or pung (only a discard)"
        if not turn and not may_win_on_offer(False, table.passed_win):
            return "this player passed a win and may not win on a discard until he draws"
        return "the tiles do not form a winning hand that may be declared"
    return "not legal now"


__all__ = ["Situation", "why_illegal"]
