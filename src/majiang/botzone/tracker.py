"""What one Botzone player knows, rebuilt from its requests: a seat-local table.

:class:`RequestTracker` folds the requests of one game (and the player's own responses, which alone
name the tile of its concealed kongs) into the state that player may see, and hands out the
majiang :class:`~majiang.engine.Observation` of each decision with the legal actions the
engine would offer. It holds no scoring of its own: wins are judged by the Guobiao rule set
(``check_win`` / ``may_declare``), exactly as the table asks them.

Seats are Botzone's player ids; Botzone's dealer is always player 0 (East).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence

from ..engine.actions import (
    Action,
    Chow,
    Pung,
    Win,
)
from ..engine.legality import (
    check_win,
    claim_actions,
    claimable_for_sets,
    fourth_tile,
    kong_allowed_this_turn,
    kong_replacement_left,
    may_chow,
    offered_context,
    offers_win,
    self_drawn_context,
    turn_actions,
)
from ..engine.state import HIDDEN, Observation, Phase, count_visible
from ..hand import ADDED_KONG_OFFSET, CONCEALED_KONG, Meld, MeldKind, WinContext
from ..rules.base import WinCheck
from ..rules.guobiao.ruleset import GuobiaoRules
from .codec import Request, parse_request
from .tiles import BotzoneError, botzone_name, botzone_tile

TILES = 144
"""Botzone's classic wall: 136 tiles and 8 flowers."""


class RequestTracker:
    """One player's view of a Botzone game, request by request (see the module docstring)."""

    def __init__(self, rules: GuobiaoRules | None = None) -> None:
        self.rules = rules or GuobiaoRules()
        self.seat = -1
        self.quan = 0
        self.counts = [0] * 34
        self.melds: list[list[Meld]] = [[] for _ in range(4)]
        self.flowers: list[list[int]] = [[] for _ in range(4)]
        self.ponds: list[list[int]] = [[] for _ in range(4)]
        self.hand_sizes = [0, 0, 0, 0]
        self.wall = TILES
        self.phase: Phase | None = None
        """The decision this player faces now (None: it need only pass)."""
        self.current = 0
        """The player on turn, or whose discard or added kong is on offer."""
        self.offer: int | None = None
        """The tile on offer (a discard or the tile added to a pung)."""
        self.final = False
        """The tile on offer was discarded when the wall was empty: only a win may claim it."""
        self.drawn: int | None = None
        self.draw_source = "initial"
        self._next_source = ["initial", "wall", "wall", "wall"]
        self._drew = [False] * 4
        """Whether each player's last tile came from the wall (so that GANG is concealed)."""
        self._adding: tuple[int, int] | None = None
        """(player, tile) of an added kong waiting for its robbing window to close."""
        self._last_response = ""
        self._natural = tuple(self.rules.natural(t) for t in range(34))
        self._physical = tuple(self.rules.physical(t) for t in range(34))

    # ------------------------------------------------------------------ folding requests

    def apply(self, line: str | Request, response: str | None = None) -> None:
        """Fold one request (and this player's response to it, when known) into the view."""
        request = line if isinstance(line, Request) else parse_request(line)
        self._fold(request)
        if response is not None:
            self.note(response)

    def note(self, response: str) -> None:
        """This player's response to the last request."""
        self._last_response = response

    def _fold(self, request: Request) -> None:
        kind, p, tile = request.kind, request.player, request.tile
        if self._adding is not None:  # nobody robbed the kong: the next request goes on
            self._complete_added_kong()
        self.phase = None
        if kind == "0":
            self.seat, self.quan = p, request.quan
        elif kind == "1":
            for t in request.hand:
                self.counts[t] += 1
            self.flowers = [list(f) for f in request.flowers]
            self.hand_sizes = [13, 13, 13, 13]
            self.wall = TILES - 52 - sum(len(f) for f in request.flowers)
        elif kind == "2":
            assert tile is not None
            self._draw(self.seat)
            self.counts[tile] += 1
            self.drawn = tile
            self.phase = Phase.TURN
        elif kind == "BUHUA":
            assert tile is not None
            self._take(1)
            self.flowers[p].append(tile)
            if self._next_source[p] != "initial":
                self._next_source[p] = "flower"
        elif kind == "DRAW":
            self._draw(p)
        elif kind in ("PLAY", "PENG", "CHI"):
            if kind != "PLAY":
                self._claim(p, kind, request.mid)
            assert tile is not None
            self._discard(p, tile)
        elif kind == "GANG":
            self._kong(p)
        elif kind == "BUGANG":
            assert tile is not None
            self._add_kong(p, tile)

    def _take(self, n: int) -> None:
        self.wall -= n
        if self.wall < 0:
            raise BotzoneError("more tiles drawn than the wall holds")

    def _draw(self, p: int) -> None:
        self._take(1)
        self.hand_sizes[p] += 1
        self.current = p
        self._drew[p] = True
        self.draw_source = self._next_source[p]
        self._next_source[p] = "wall"
        self.drawn = None

    def _remove(self, tile: int, n: int = 1) -> None:
        if self.counts[tile] < n:
            raise BotzoneError(f"player {self.seat} does not hold {botzone_name(tile)}")
        self.counts[tile] -= n

    def _discard(self, p: int, tile: int) -> None:
        if p == self.seat:
            self._remove(tile)
        self.hand_sizes[p] -= 1
        self.ponds[p].append(tile)
        self.current, self.offer, self.final = p, tile, self.wall == 0
        self.drawn = None
        self._drew[p] = False
        if p != self.seat:
            self.phase = Phase.CLAIM

    def _claimed(self, p: int) -> tuple[int, int]:
        """Take the tile on offer out of its discarder's pond for ``p``: (tile, discarder)."""
        d, tile = self.current, self.offer
        if tile is None or not self.ponds[d] or self.ponds[d][-1] != tile or d == p:
            raise BotzoneError(f"player {p} claims, but no discard is on offer")
        self.ponds[d].pop()
        return tile, d

    def _claim(self, p: int, kind: str, mid: int | None) -> None:
        tile, d = self._claimed(p)
        if kind == "PENG":
            meld = Meld(MeldKind.PUNG, tile, (p - d) % 4)
            used = [tile, tile]
        else:
            if mid is None or tile >= 27 or mid // 9 != tile // 9 or abs(mid - tile) > 1:
                raise BotzoneError("a chow that does not hold the discard")
            low = mid - 1
            if low % 9 > 6 or low // 9 != mid // 9:
                raise BotzoneError("a chow out of its suit")
            meld = Meld(MeldKind.CHOW, low, tile - low + 1)
            used = [t for t in (low, low + 1, low + 2) if t != tile]
        if p == self.seat:
            for t in used:
                self._remove(t)
        self.hand_sizes[p] -= len(used)
        self.melds[p].append(meld)

    def _kong(self, p: int) -> None:
        if self._drew[p] and self.current == p:
            if p == self.seat:
                words = self._last_response.split()
                if len(words) != 2 or words[0] != "GANG":
                    raise BotzoneError("my concealed kong, but my response did not name it")
                tile = botzone_tile(words[1])
                self._remove(tile, 4)
                meld = Meld(MeldKind.KONG, tile, CONCEALED_KONG)
            else:
                meld = Meld(MeldKind.KONG, HIDDEN, 0)
            self.hand_sizes[p] -= 4
        else:
            tile, d = self._claimed(p)
            if p == self.seat:
                self._remove(tile, 3)
            self.hand_sizes[p] -= 3
            meld = Meld(MeldKind.KONG, tile, (p - d) % 4)
        self.melds[p].append(meld)
        self.current = p
        self._drew[p] = False
        self._next_source[p] = "kong"

    def _add_kong(self, p: int, tile: int) -> None:
        if not any(m.kind is MeldKind.PUNG and m.tile == tile for m in self.melds[p]):
            raise BotzoneError(f"player {p} adds {botzone_name(tile)} to no pung")
        if p == self.seat:
            self._remove(tile)
        self.hand_sizes[p] -= 1
        self.current, self.offer, self.final = p, tile, False
        self._drew[p] = False
        self._adding = (p, tile)
        self._next_source[p] = "kong"
        if p != self.seat:
            self.phase = Phase.ROB

    def _complete_added_kong(self) -> None:
        assert self._adding is not None
        p, tile = self._adding
        self._adding = None
        melds = self.melds[p]
        for i, m in enumerate(melds):
            if m.kind is MeldKind.PUNG and m.tile == tile:
                melds[i] = Meld(MeldKind.KONG, tile, m.source + ADDED_KONG_OFFSET)
                break

    # ------------------------------------------------------------------ the decision

    def observation(self) -> Observation:
        """The majiang observation of the decision this player faces now."""
        if self.phase is None:
            raise BotzoneError("this request asks for no decision")
        return self._observation(self.phase, self._legal())

    def after_claim(self, action: Action) -> Observation:
        """The observation of the discard that follows a chow or pung (Botzone asks for the
        claim and the discard in one response)."""
        view = copy.deepcopy(self)
        view._adding = None
        kind = "PENG" if isinstance(action, Pung) else "CHI"
        mid = action.low + 1 if isinstance(action, Chow) else None
        view._claim(self.seat, kind, mid)
        view.phase, view.current, view.drawn, view.offer = Phase.TURN, self.seat, None, None
        return view._observation(Phase.TURN, view._turn_actions(claimed=True), claimed=True)

    def _observation(self, phase: Phase, legal: list[Action], claimed: bool = False) -> Observation:
        seat = self.seat
        hand = tuple(t for t in range(34) for _ in range(self.counts[t]))
        win = self._win_check() if Win() in legal else None
        return Observation(
            seat=seat,
            dealer=0,
            prevalent_wind=self.quan,
            seat_wind=seat,
            phase=phase,
            current=self.current,
            hand=hand,
            drawn=self.drawn if phase is Phase.TURN and not claimed else None,
            melds=tuple(tuple(m) for m in self.melds),
            flowers=tuple(tuple(f) for f in self.flowers),
            discards=tuple(tuple(p) for p in self.ponds),
            hand_sizes=tuple(self.hand_sizes),
            wall_remaining=self.wall,
            last_discard=self.offer if phase is not Phase.TURN else None,
            legal_actions=tuple(legal),
            deltas=(0, 0, 0, 0),
            may_win=True,
            win_reaches_minimum=win.legal if win is not None else None,
            drawable=self.wall,
        )

    def _legal(self) -> list[Action]:
        if self.phase is Phase.TURN:
            return self._turn_actions(claimed=False)
        assert self.offer is not None
        return self._claim_actions(self.offer, robbing=self.phase is Phase.ROB)

    def _turn_actions(self, claimed: bool) -> list[Action]:
        rules = self.rules
        win = not claimed and offers_win(self._win_check(), rules)
        return turn_actions(
            self.counts,
            self.melds[self.seat],
            win,
            kong_allowed_this_turn(claimed, rules),
            self._kong_left,
            self._natural,
            self._physical,
        )

    def _claim_actions(self, tile: int, robbing: bool) -> list[Action]:
        rules = self.rules
        ident = rules.identity(tile)
        return claim_actions(
            self.counts,
            tile,
            ident,
            offers_win(self._win_check(), rules),
            claimable_for_sets(robbing, self.final, rules.natural(tile)),
            True,
            self._kong_left,
            may_chow(ident, rules.chow_allowed(self.current, self.seat)),
            self._physical,
            True,
        )

    def _kong_left(self) -> bool:
        """A kong's replacement tile is left (the reserve counted as before any replacement:
        Guobiao's is always 0)."""
        return kong_replacement_left(self.wall, self.rules.reserve(0))

    def _win_check(self) -> WinCheck | None:
        """The rule set's verdict on winning now (as the table builds it), or None."""
        seat, counts = self.seat, self.counts
        melds = self.melds[seat]
        if self.phase is Phase.TURN:
            drawn = self.drawn
            if drawn is None:
                return None
            win = drawn

            def context() -> WinContext:
                return self_drawn_context(
                    seat,
                    self.quan,
                    self.draw_source,
                    self.wall <= 0,
                    fourth_tile(self._visible(win), counts[win] - 1),
                    bool(melds),
                )

            in_hand = True
        else:
            assert self.offer is not None
            win = self.offer
            robbing = self.phase is Phase.ROB

            def context() -> WinContext:
                return offered_context(
                    seat,
                    self.quan,
                    self.final,
                    robbing,
                    fourth_tile(self._visible(win), 0, offered=True),
                )

            in_hand = False
        return check_win(self.rules, counts, melds, self.flowers[seat], win, in_hand, context)

    def _visible(self, tile: int) -> int:
        """Copies of ``tile`` face up in the ponds and exposed melds."""
        melds = tuple(tuple(m) for m in self.melds)
        return count_visible(melds, tuple(tuple(p) for p in self.ponds))[tile]


def replay(requests: Sequence[str], responses: Sequence[str]) -> RequestTracker:
    """The view after every request (each with the response given to it, if any)."""
    view = RequestTracker()
    for i, request in enumerate(requests):
        view.apply(request, responses[i] if i < len(responses) else None)
    return view


__all__ = ["TILES", "RequestTracker", "replay"]
