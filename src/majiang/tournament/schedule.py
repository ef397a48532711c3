"""Who sits where: every deal is played once in each order of the entrants over the seats.

An *order* is a tuple ``order[seat] = entrant``. The four cyclic rotations (rotation ``r`` seats
entrant ``e`` at seat ``(e + r) mod 4``) put every entrant at every seat exactly once per deal;
``permutations=True`` plays all 24 orders instead (every entrant at every seat six times, and
every arrangement of the other three around it).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import permutations as all_permutations

Order = tuple[int, int, int, int]
"""``order[seat]`` is the entrant (0-3) sitting at that seat."""


def rotations() -> list[Order]:
    """The four cyclic rotations, the identity first."""
    return [(-r % 4, (1 - r) % 4, (2 - r) % 4, (3 - r) % 4) for r in range(4)]


def orders(permutations: bool = False) -> list[Order]:
    """The orders each deal is played in: the rotations, or all 24 permutations."""
    if permutations:
        return [(a, b, c, d) for a, b, c, d in all_permutations(range(4))]
    return rotations()


def seats_of(order: Order) -> Order:
    """The inverse of an order: ``seats_of(order)[entrant]`` is that entrant's seat."""
    inverse = [0, 0, 0, 0]
    for seat, entrant in enumerate(order):
        inverse[entrant] = seat
    return (inverse[0], inverse[1], inverse[2], inverse[3])


def deal_setup(deal: int) -> tuple[int, int]:
    """The dealer's seat and the prevalent wind of a deal (like ``majiang simulate``'s hands):
    fixed for the deal whoever sits where."""
    return deal % 4, deal // 4 % 4


@dataclass(frozen=True, slots=True)
class Game:
    """One hand to play: a deal in one order (``order_index`` into :func:`orders`)."""

    deal: int
    order_index: int
    order: Order


def schedule(deals: Iterable[int], permutations: bool = False) -> list[Game]:
    """Every hand of the given deals, deal by deal, each in every order."""
    table = orders(permutations)
    return [Game(deal, k, order) for deal in deals for k, order in enumerate(table)]


__all__ = ["Game", "Order", "deal_setup", "orders", "rotations", "schedule", "seats_of"]
