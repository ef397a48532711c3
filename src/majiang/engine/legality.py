"""Legality in one place: the actions a seat may take, the situation of its win, and the rules
behind a refusal.

Pure functions of plain facts (concealed counts, melds, what the wall holds, the rule set's
answers): they change nothing and keep nothing. The table asks them with its own state, Botzone's
tracker (one player's view rebuilt from its requests) with what that player knows, and the
refusal messages (:mod:`majiang.engine.reasons`) with the same predicates, so that each rule is
written once. Actions are the shared instances of :mod:`majiang.engine.actions`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from ..hand import Hand, Meld, MeldKind, WinContext
from ..rules.base import RuleSet, WinCheck
from .actions import (
    ADDED_KONGS,
    CHOWS,
    CONCEALED_KONGS,
    DISCARDS,
    EXPOSED_KONG_ACTION,
    PASS_ACTION,
    PUNG_ACTION,
    WIN_ACTION,
    Action,
)

_PUNG_MELD: Final = MeldKind.PUNG

# ------------------------------------------------------------------ the wall


def kong_replacement_left(remaining: int, reserve_after: int) -> bool:
    """A kong needs its replacement draw: one tile above the reserve after one more replacement
    (``reserve_after``; Guobiao: any tile left; Huangyan: R - 1 >= T(k + 1))."""
    return remaining - 1 >= reserve_after


def kong_in_parts(own_left: int, next_left: int, exposed: bool) -> bool:
    """A kong on a wall of four parts (one per player): on one's turn it needs a tile in one's
    own part and the next player's (it may not be made on the last turn); a kong of a discard,
    any discard that may be claimed (its declarer's draw ends the hand if his part is empty)."""
    return exposed or (own_left > 0 and next_left > 0)


def kong_allowed_this_turn(claimed: bool, rules: RuleSet) -> bool:
    """Whether the player on turn may declare a kong at all: not right after a chow or pung,
    unless the rule set allows it (``kong_after_claim``)."""
    return not claimed or rules.kong_after_claim


# ------------------------------------------------------------------ winning


def may_win_on_turn(claimed: bool, false_won: bool) -> bool:
    """A self-drawn win: never right after a chow or pung, nor after a false win."""
    return not claimed and not false_won


def may_win_on_offer(false_won: bool, passed_win: bool) -> bool:
    """A win on a discard (or a robbed kong): not after a false win, nor after passing a win in
    rule sets that restrict it until the next draw (``passed_win``)."""
    return not false_won and not passed_win


def offers_win(check: WinCheck | None, rules: RuleSet) -> bool:
    """Whether a ``Win`` is offered for a verdict: a winning shape the rule set lets be declared."""
    return check is not None and rules.may_declare(check)


def fourth_tile(visible: int, held: int, offered: bool = False) -> bool:
    """和绝张: the other three copies are face up (``visible``: copies of the winning tile in
    the ponds and exposed melds, the tile on offer among them when ``offered``) and the hand
    holds none besides the winning one (``held``)."""
    if held:
        return False
    return (visible - 1 if offered else visible) == 3


def self_drawn_context(
    seat_wind: int,
    prevalent_wind: int,
    source: str,
    last_turn: bool,
    fourth: bool,
    has_melds: bool,
) -> WinContext:
    """The situation of a win on one's own tile: ``source`` of the tile (``initial``, ``wall``,
    ``flower``, ``kong``); ``last_turn``: nothing may be drawn after this turn (妙手回春, never
    on the dealer's initial tiles); ``fourth``: :func:`fourth_tile`."""
    initial = source == "initial"
    return WinContext(
        self_drawn=True,
        seat_wind=seat_wind,
        prevalent_wind=prevalent_wind,
        last_tile=last_turn and not initial,
        kong=source == "kong",
        fourth_tile=fourth,
        initial_hand=initial and not has_melds,
    )


def offered_context(
    seat_wind: int, prevalent_wind: int, final_discard: bool, robbing: bool, fourth: bool
) -> WinContext:
    """The situation of a win on a discard (海底捞月 when it is the final one) or on the tile of
    an added kong (``robbing``: 抢杠和, never the last tile nor 和绝张)."""
    return WinContext(
        self_drawn=False,
        seat_wind=seat_wind,
        prevalent_wind=prevalent_wind,
        last_tile=final_discard and not robbing,
        kong=robbing,
        fourth_tile=not robbing and fourth,
    )


def check_win(
    rules: RuleSet,
    counts: list[int],
    melds: list[Meld],
    flowers: list[int],
    win: int,
    in_hand: bool,
    context: Callable[[], WinContext],
) -> WinCheck | None:
    """The rule set's verdict on winning with ``win`` (None: no winning shape): ``counts`` are
    the concealed tiles, ``win`` among them when ``in_hand``, else the tile on offer (counted
    for the test and taken out again: ``counts`` is left as it was). The rule set's cheap shape
    test runs first; the context is built only when it passes."""
    if not in_hand:
        counts[win] = counts[win] + 1
    try:
        if not rules.could_win(counts, len(melds)):
            return None
        concealed = [t for t in range(34) for _ in range(counts[t])]
    finally:
        if not in_hand:
            counts[win] = counts[win] - 1
    concealed.remove(win)
    hand = Hand(tuple(melds), tuple(concealed), win, tuple(flowers))
    return rules.check_win(hand, context())


# ------------------------------------------------------------------ actions


def turn_actions(
    counts: list[int],
    melds: list[Meld],
    win: bool,
    kong_allowed: bool,
    kong_left: Callable[[], bool],
    natural: tuple[bool, ...],
    physical: tuple[int, ...],
) -> list[Action]:
    """The actions of the player on turn: ``Win`` (when ``win``), then concealed kongs (four
    natural copies), added kongs (the fourth copy of an exposed pung), then a discard of every
    kind held, each in tile order. Kongs need ``kong_allowed`` (:func:`kong_allowed_this_turn`)
    and ``kong_left()`` (a replacement tile; asked only when some kong could be made)."""
    actions: list[Action] = []
    if win:
        actions.append(WIN_ACTION)
    discard_of = DISCARDS
    discards: list[Action] = []  # a discard of every kind held, in order
    four = False
    for t in range(34):  # one pass, not `4 in counts` and compress(): a native loop compiled
        n = counts[t]
        if n:
            discards.append(discard_of[t])
            if n == 4:
                four = True
    if (melds or four) and kong_allowed and kong_left():
        if four:
            for t in range(34):
                if counts[t] == 4 and natural[t]:
                    actions.append(CONCEALED_KONGS[t])
        for m in melds:
            if m.kind is _PUNG_MELD and counts[physical[m.tile]]:
                actions.append(ADDED_KONGS[physical[m.tile]])
    actions.extend(discards)
    return actions


def claimable_for_sets(robbing: bool, final_discard: bool, natural: bool) -> bool:
    """Whether the tile on offer may be claimed for a set at all: not the tile of an added kong
    (it may only be robbed), not the final discard (only a win), not a dead wild tile."""
    return not robbing and not final_discard and natural


def claim_actions(
    counts: list[int],
    tile: int,
    ident: int,
    win: bool,
    claimable: bool,
    pung_allowed: bool,
    kong_left: Callable[[], bool],
    may_chow: bool,
    physical: tuple[int, ...],
    always_answer: bool,
) -> list[Action]:
    """One seat's answers to a tile on offer (``tile``, of identity ``ident``): ``Win`` (when
    ``win``), then, when ``claimable`` (:func:`claimable_for_sets`), a pung (two copies held,
    unless not ``pung_allowed``), an exposed kong (three copies and ``kong_left()``), the chows
    it completes (when ``may_chow``: the rule set lets this seat chow this discarder's suited
    tiles), then ``Pass``: empty when there is nothing to claim, unless ``always_answer``."""
    options: list[Action] = []
    if win:
        options.append(WIN_ACTION)
    if claimable:
        held = counts[tile]
        if held >= 2:
            if pung_allowed:
                options.append(PUNG_ACTION)
            if held >= 3 and kong_left():
                options.append(EXPOSED_KONG_ACTION)
        if may_chow:
            add_chows(counts, ident, physical, options)
    if options or always_answer:
        options.append(PASS_ACTION)
    return options


def may_chow(ident: int, allowed: bool) -> bool:
    """A chow needs a suited tile and a claimer the rule set lets chow (``chow_allowed``)."""
    return allowed and ident < 27


def add_chows(
    counts: list[int], ident: int, physical: tuple[int, ...], options: list[Action]
) -> None:
    """Append the chows that the suited tile of identity ``ident`` completes with the concealed
    ``counts``, lowest first (the other two tiles by their physical faces)."""
    rank = ident % 9
    below2 = rank >= 2 and counts[physical[ident - 2]]
    below1 = rank >= 1 and counts[physical[ident - 1]]
    above1 = rank <= 7 and counts[physical[ident + 1]]
    above2 = rank <= 6 and counts[physical[ident + 2]]
    if below2 and below1:
        options.append(CHOWS[ident - 2])
    if below1 and above1:
        options.append(CHOWS[ident - 1])
    if above1 and above2:
        options.append(CHOWS[ident])


__all__ = [
    "add_chows",
    "check_win",
    "claim_actions",
    "claimable_for_sets",
    "fourth_tile",
    "kong_allowed_this_turn",
    "kong_in_parts",
    "kong_replacement_left",
    "may_chow",
    "may_win_on_offer",
    "may_win_on_turn",
    "offered_context",
    "offers_win",
    "self_drawn_context",
    "turn_actions",
]
