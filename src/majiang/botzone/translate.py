"""The Botzone requests of one seat, derived from its majiang observations alone.

An agent sees an :class:`~majiang.engine.Observation` at each of its decisions, and nothing in
between. With ``every_seat_answers`` (the table's default) a seat decides at every discard and
every added kong of another seat and on each of its own turns, so between two decisions there is
the outcome of its last decision and at most one turn of one other player: who claimed what is
read from the new sets, the draws and flowers from the flower areas and the wall count. That is
exactly Botzone's sequence of requests, which :class:`RequestDeriver` writes out (Botzone's
player ids count from the dealer: id = (seat - dealer) mod 4).

Two things an observation does not tell, decided here: another player's flowers drawn in the
same turn as a concealed kong are all announced before his first draw of that turn; and which
of the dealer's flowers came with his 14th tile. A two-ended table replaces them all at the
deal, so they are all in the deal request ``1``; for a single-ended table (Botzone's deal) the
driver says how many came with the 14th tile (``reset(dealer_draw_flowers=n)``), and those are
announced as ``BUHUA`` before the dealer's first draw, as Botzone's judge does.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine.actions import Action, AddedKong, ConcealedKong, Discard, Win
from ..engine.state import HIDDEN, Observation, Phase
from ..hand import Meld, MeldKind
from .codec import Request
from .tiles import BotzoneError


def _claims(melds: tuple[Meld, ...]) -> int:
    return sum(1 for m in melds if not m.is_concealed_kong)


def _made(obs: Observation) -> int:
    """Discards made so far: the ponds plus the discards claimed into sets."""
    return sum(len(p) for p in obs.discards) + sum(_claims(m) for m in obs.melds)


def _first_call(obs: Observation) -> bool:
    """Whether ``obs`` can be a seat's first decision of a hand."""
    if _made(obs) > 1:
        return False
    if obs.phase is Phase.TURN:
        return obs.seat == obs.dealer and _made(obs) == 0 and obs.drawn is not None
    return obs.phase is Phase.CLAIM and obs.current == obs.dealer and _made(obs) == 1


class RequestDeriver:
    """Turns one seat's successive observations (and its answers) into Botzone requests."""

    def __init__(self) -> None:
        self.prev: Observation | None = None
        self.answer: Action | None = None
        self.dealer_draw_flowers = 0
        """The last flowers of the dealer that came with his 14th tile (Botzone's BUHUA)."""
        self.dealt: tuple[int, ...] = ()
        """The seat's dealt tiles in the order it took them (``Table.dealt``), if known: the
        deal request lists them so, as the judge does; otherwise sorted."""

    def reset(self, dealer_draw_flowers: int = 0, dealt: Sequence[int] = ()) -> None:
        """Forget the hand (the next observation starts a new game); ``dealer_draw_flowers``:
        how many of the dealer's flowers in that game he drew with his 14th tile, after the
        deal (a single-ended table's deal; 0 for a two-ended table); ``dealt``: the seat's
        tiles in the order dealt."""
        self.prev, self.answer = None, None
        self.dealer_draw_flowers = dealer_draw_flowers
        self.dealt = tuple(dealt)

    def note(self, action: Action) -> None:
        """The seat's answer to the last observation."""
        self.answer = action

    def is_new_hand(self, obs: Observation) -> bool:
        """Whether ``obs`` belongs to a hand after the one seen so far."""
        prev = self.prev
        if prev is None or isinstance(self.answer, Win):
            return True
        if (obs.dealer, obs.prevalent_wind, obs.seat) != (
            prev.dealer, prev.prevalent_wind, prev.seat
        ):
            return True
        konged = len(obs.melds[obs.seat]) > len(prev.melds[prev.seat])  # the dealer's first turn
        return _first_call(obs) and (
            obs.wall_remaining > prev.wall_remaining
            or (_made(obs) <= _made(prev) and not konged)
        )

    def requests(self, obs: Observation) -> list[Request]:
        """The requests between the last observation and ``obs``; the last one asks for the
        decision of ``obs``, except after a claimed chow or pung, whose discard Botzone took
        with the claim (then the list is empty)."""
        if self.prev is not None and self.is_new_hand(obs):
            self.reset()
        out = self._first(obs) if self.prev is None else self._next(self.prev, obs)
        self.prev, self.answer = obs, None
        return out

    # ------------------------------------------------------------------ the derivation

    def _id(self, obs: Observation, seat: int) -> int:
        return (seat - obs.dealer) % 4

    def _first(self, obs: Observation) -> list[Request]:
        if not _first_call(obs):
            raise BotzoneError(_LOST)
        me = self._id(obs, obs.seat)
        hand = _in_dealt_order(obs, self.dealt)
        dealer = obs.dealer
        dealt = len(obs.flowers[dealer]) - self.dealer_draw_flowers
        if dealt < 0:
            raise BotzoneError(_LOST)
        flowers = tuple(obs.flowers[(dealer + i) % 4] for i in range(4))
        flowers = (flowers[0][:dealt], *flowers[1:])
        out = [
            Request("0", me, quan=obs.prevalent_wind),
            Request("1", hand=tuple(hand), flowers=flowers),
        ]
        if obs.phase is Phase.TURN:
            out += [Request("BUHUA", 0, f) for f in obs.flowers[dealer][dealt:]]
            out.append(Request("2", tile=obs.drawn))
        else:
            out += self._turn(obs, dealer, None, 0, dealt)
        return out

    def _next(self, prev: Observation, obs: Observation) -> list[Request]:
        seat, out = prev.seat, []
        me = self._id(prev, seat)
        answer = self.answer
        claim: Meld | None = None
        if prev.phase is Phase.TURN:
            if isinstance(answer, Discard):
                if prev.drawn is None:  # a claimed turn: Botzone's PENG / CHI carries the discard
                    out.append(_combined(me, prev.melds[seat][-1], answer.tile))
                else:
                    out.append(Request("PLAY", me, answer.tile))
                actor, claim = self._after_discard(prev, obs, seat)
            elif isinstance(answer, ConcealedKong):
                out.append(Request("GANG", me))
                actor = seat
            elif isinstance(answer, AddedKong):
                out.append(Request("BUGANG", me, answer.tile))
                actor = seat
            else:
                raise BotzoneError(_LOST)
        elif prev.phase is Phase.CLAIM:
            actor, claim = self._after_discard(prev, obs, prev.current)
        else:  # nobody robbed the kong: its declarer draws again
            actor = prev.current
        out += self._turn(obs, actor, claim, len(prev.melds[actor]), len(prev.flowers[actor]))
        drawn = sum(r.kind in ("DRAW", "2", "BUHUA") for r in out)
        if prev.wall_remaining - obs.wall_remaining != drawn:
            raise BotzoneError(_LOST)
        return out

    def _after_discard(
        self, prev: Observation, obs: Observation, discarder: int
    ) -> tuple[int, Meld | None]:
        """Who acts after a discard, and the set he claimed it into (None: the next draws)."""
        for step in (1, 2, 3):
            q = (discarder + step) % 4
            new = obs.melds[q][len(prev.melds[q]) :]
            if new and not new[0].is_concealed_kong:
                return q, new[0]
        return (discarder + 1) % 4, None

    def _turn(
        self, obs: Observation, actor: int, claim: Meld | None, melds: int, flowers: int
    ) -> list[Request]:
        """The requests of ``actor``'s turn up to the decision of ``obs`` (``melds`` and
        ``flowers``: how many ``actor`` had before)."""
        pid = self._id(obs, actor)
        out: list[Request] = []
        claimed_chow_pung = claim is not None and claim.kind is not MeldKind.KONG
        if claim is not None and claim.kind is MeldKind.KONG:
            out.append(Request("GANG", pid))
        new_flowers = obs.flowers[actor][flowers:]
        if actor == obs.seat:
            if obs.phase is not Phase.TURN or obs.current != actor:
                raise BotzoneError(_LOST)
            if not claimed_chow_pung:
                out += [Request("BUHUA", pid, f) for f in new_flowers]
                out.append(Request("2", tile=obs.drawn))
            return out
        if obs.phase not in (Phase.CLAIM, Phase.ROB) or obs.current != actor:
            raise BotzoneError(_LOST)
        tile = obs.last_discard
        if claimed_chow_pung:
            assert claim is not None
            if obs.phase is not Phase.CLAIM:
                raise BotzoneError(_LOST)
            return [*out, _combined(pid, claim, tile)]
        out += [Request("BUHUA", pid, f) for f in new_flowers]
        out.append(Request("DRAW", pid))
        start = melds + (claim is not None)
        hidden = sum(1 for m in obs.melds[actor][start:] if m.tile == HIDDEN)
        out += [Request(kind, pid) for _ in range(hidden) for kind in ("GANG", "DRAW")]
        kind = "PLAY" if obs.phase is Phase.CLAIM else "BUGANG"
        out.append(Request(kind, pid, tile))
        return out


def _in_dealt_order(obs: Observation, dealt: Sequence[int]) -> list[int]:
    """The 13 tiles of the deal request: in the order dealt when ``dealt`` holds them (the
    dealer's first draw, his last tile taken, left out), otherwise sorted."""
    hand = list(obs.hand)
    if obs.phase is Phase.TURN:
        assert obs.drawn is not None
        hand.remove(obs.drawn)
    order = list(dealt)
    if obs.phase is Phase.TURN and obs.drawn in order:
        del order[len(order) - 1 - order[::-1].index(obs.drawn)]
    return order if sorted(order) == hand else hand


def _combined(pid: int, meld: Meld, tile: int | None) -> Request:
    """``3 p PENG t`` or ``3 p CHI mid t``: the claim and the discard that followed it."""
    if meld.kind is MeldKind.PUNG:
        return Request("PENG", pid, tile)
    return Request("CHI", pid, tile, mid=meld.tile + 1)


_LOST = (
    "cannot follow the hand from this seat's observations (a Botzone seat needs a table that "
    "asks every seat at every claim window: every_seat_answers=True)"
)

__all__ = ["RequestDeriver"]
