"""A Botzone program's answer to a decision, checked as Botzone's judge checks it, as a legal
majiang action (:func:`answer_move`), and what a seat plays when its program cannot
(:func:`fallback`)."""

from __future__ import annotations

from dataclasses import dataclass

from ..engine import actions
from ..engine.actions import Action
from ..engine.state import Observation, Phase
from ..hand import MeldKind
from .codec import Response, parse_response
from .tiles import BotzoneError, botzone_name


class Misplay(BotzoneError):
    """A turn Botzone's judge rejects: ``kind`` as in :attr:`Fault.kind`."""

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(detail)
        self.kind, self.detail = kind, detail


@dataclass(frozen=True, slots=True)
class Move:
    """The action of a response to a decision (and the discard named with a chow or pung)."""

    action: Action
    discard: int | None = None
    adjusted: str = ""
    """Set when the response is a move Botzone allows and majiang does not offer (a claim of
    the final discard other than a win, a kong with the wall empty): ``action`` replaces it."""


def answer_move(obs: Observation, text: str, *, strict: bool = False) -> Move:
    """The move of a program's response to the decision ``obs``, checked as Botzone's judge
    checks it; raises :class:`Misplay` for a response the judge rejects.

    ``strict`` (Botzone's scoring): a move the judge rejects for want of tiles in the wall
    (a kong on the last turn, a chow, pung or kong of the final discard) is a fault, as the
    judge's WA; otherwise it is replaced by what the engine offers (``Move.adjusted``)."""
    try:
        response = parse_response(text)
    except BotzoneError as error:
        raise Misplay("garbage", str(error)) from None
    if response.kind == "HU":
        if actions.Win() in obs.legal_actions and obs.win_reaches_minimum:
            return Move(actions.Win())
        raise Misplay("false_win", "HU without a winning hand of 8 fans")
    if obs.phase is Phase.TURN:
        return _turn_move(obs, response, strict)
    if response.kind == "PASS":
        return Move(actions.Pass())
    if obs.phase is Phase.ROB:
        raise Misplay("illegal", "only PASS or HU may answer an added kong")
    return _claim_move(obs, response, strict)


def _turn_move(obs: Observation, response: Response, strict: bool) -> Move:
    kind, tile = response.kind, response.tile
    hand = list(obs.hand)
    if kind == "PLAY" and tile is not None and tile in hand:
        return Move(actions.Discard(tile))
    if kind == "GANG" and tile is not None and hand.count(tile) == 4:
        return _offered(obs, actions.ConcealedKong(tile), response, strict)
    if kind == "BUGANG" and tile is not None and tile in hand and any(
        m.kind is MeldKind.PUNG and m.tile == tile for m in obs.melds[obs.seat]
    ):
        return _offered(obs, actions.AddedKong(tile), response, strict)
    raise Misplay("illegal", "not a move of this turn")


def _claim_move(obs: Observation, response: Response, strict: bool) -> Move:
    offer, kind = obs.last_discard, response.kind
    assert offer is not None
    rest = list(obs.hand)
    if kind == "GANG" and response.tile is None and rest.count(offer) >= 3:
        return _offered(obs, actions.ExposedKong(), response, strict)
    action: Action
    if kind == "PENG" and rest.count(offer) >= 2:
        rest.remove(offer)
        rest.remove(offer)
        action = actions.Pung()
    elif kind == "CHI" and _chow_tiles(obs, response, rest):
        assert response.mid is not None
        action = actions.Chow(response.mid - 1)
    else:
        raise Misplay("illegal", "not a claim of this discard")
    if response.tile not in rest:
        raise Misplay("illegal", "the discard after the claim is not in the hand")
    move = _offered(obs, action, response, strict)
    return move if move.adjusted else Move(action, response.tile)


def _chow_tiles(obs: Observation, response: Response, rest: list[int]) -> bool:
    """Botzone's chow check: the next player, a suited middle tile next to the discard, and
    the two other tiles in the hand (removed from ``rest``)."""
    offer, mid = obs.last_discard, response.mid
    if offer is None or mid is None or obs.seat != (obs.current + 1) % 4:
        return False
    if mid >= 27 or offer >= 27 or mid // 9 != offer // 9 or abs(mid - offer) > 1:
        return False
    if mid % 9 in (0, 8):
        return False
    for t in (mid - 1, mid, mid + 1):
        if t == offer:
            continue
        if t not in rest:
            return False
        rest.remove(t)
    return True


def _offered(obs: Observation, action: Action, response: Response, strict: bool) -> Move:
    """``action`` if the engine offers it. Otherwise the move has the tiles it needs and is
    refused for the wall alone (a claim of the final discard, a kong on the last turn): a
    fault when ``strict``, as the judge's WA; else replaced by what the engine offers."""
    if action in obs.legal_actions:
        return Move(action)
    if strict:
        what = "a kong on the last turn" if obs.phase is Phase.TURN else (
            "a claim of the final discard other than HU"
        )
        raise Misplay("illegal", f"{what}: the wall has no tile left for it")
    return Move(fallback(obs), adjusted=f"{response} (not offered by majiang: replaced)")


def fallback(obs: Observation) -> Action:
    """What a seat plays when its program cannot: pass a claim, discard the drawn tile."""
    if obs.phase is not Phase.TURN:
        return actions.Pass()
    if obs.drawn is not None and actions.Discard(obs.drawn) in obs.legal_actions:
        return actions.Discard(obs.drawn)
    return [a for a in obs.legal_actions if isinstance(a, actions.Discard)][-1]


def response_text(action: Action, discard: int | None = None) -> str:
    """The Botzone response that plays ``action``; a chow or pung names the tile ``discard``ed
    after it (without ``discard``: its first words only)."""
    if isinstance(action, actions.Win):
        return "HU"
    if isinstance(action, actions.Pass):
        return "PASS"
    if isinstance(action, actions.Discard):
        return f"PLAY {botzone_name(action.tile)}"
    if isinstance(action, actions.ConcealedKong):
        return f"GANG {botzone_name(action.tile)}"
    if isinstance(action, actions.AddedKong):
        return f"BUGANG {botzone_name(action.tile)}"
    if isinstance(action, actions.ExposedKong):
        return "GANG"
    if isinstance(action, actions.Pung):
        return "PENG" if discard is None else f"PENG {botzone_name(discard)}"
    if isinstance(action, actions.Chow):
        if discard is None:
            return "CHI"
        return f"CHI {botzone_name(action.low + 1)} {botzone_name(discard)}"
    raise BotzoneError(f"the bot chose {action}, which Botzone cannot express")


__all__ = ["Misplay", "Move", "answer_move", "fallback", "response_text"]
