"""Settling a Huangyan hand (rules/huangyan.md §4.5-4.6, §5.4-5.8, §3).

Two ledgers, both zero-sum. **Hu**: each loser pays the winner the winner's total ``W``; every
two losers with different totals settle the difference (A13 a). **Bullets**: each loser pays
``B × n × z`` (A15), and thrown bullets pass between the dealer and an accepting player when one
of them wins (A16). A **gunner** (§2.9) has his own total set to 0 and pays everything owed in the
hand: all three losers' debts to the winner and every loser settlement (§5.6). An **exhaustive
draw** settles nothing (§5.7).

Seats are 0-3 in turn order; seat ``s`` has seat wind ``(s - dealer) % 4`` (0 = East).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

from ...errors import SituationError
from ...hand import Hand
from ...tiles import WIND_LETTERS
from .options import DEFAULT_OPTIONS, HuangyanOptions
from .scoring import HuangyanScore, LoserScore, score_huangyan, score_loser
from .wild import Wild

Seats = tuple[int, int, int, int]
HU = "hu"
BULLETS = "bullets"


WINNER_TOTAL = "the winner's total"
"""The reason of each loser's payment of the winner's total (§5.4 step 1)."""
LOSERS_DIFFERENCE = "losers' difference"
"""The reason of a payment between two losers (§5.4 step 2)."""
BULLETS_FORMULA = "bullets B×n×z = "
"""The start of a bullet payment's reason; the numbers follow (``2×1×1``)."""
THROWN_BULLETS = "thrown bullets"
"""The reason of a payment of thrown bullets (§3.4)."""


@dataclass(frozen=True, slots=True)
class Payment:
    """One transfer. ``on_behalf_of``: the loser whose debt a gunner pays (§5.6)."""

    ledger: str
    payer: int
    payee: int
    amount: int
    reason: str
    on_behalf_of: int | None = None


@dataclass(frozen=True, slots=True)
class Settlement:
    """The result of one hand: net hu and bullets per seat, and every transfer."""

    hu: Seats
    bullets: Seats
    payments: tuple[Payment, ...]
    winner: int | None
    gunner: int | None = None
    totals: Seats = (0, 0, 0, 0)
    """The totals settled on: ``W`` for the winner, ``I`` for each loser (0 for a gunner)."""

    def paid(self, payer: int, payee: int, ledger: str = HU) -> int:
        """What ``payer`` paid ``payee`` in one ledger, all reasons together."""
        return sum(
            p.amount
            for p in self.payments
            if p.ledger == ledger and p.payer == payer and p.payee == payee
        )

    def to_dict(self) -> dict[str, object]:
        """JSON form: net hu and bullets per seat, the gunner, the totals and every transfer."""
        return {
            "hu": list(self.hu),
            "bullets": list(self.bullets),
            "gunner": self.gunner,
            "totals": list(self.totals),
            "payments": [
                {
                    "ledger": p.ledger,
                    "payer": p.payer,
                    "payee": p.payee,
                    "amount": p.amount,
                    "reason": p.reason,
                    **({"for": p.on_behalf_of} if p.on_behalf_of is not None else {}),
                }
                for p in self.payments
            ],
        }

    def explain(self, dealer: int = 0) -> str:
        """One line per transfer, seats named by seat wind."""

        def name(seat: int) -> str:
            return WIND_LETTERS[(seat - dealer) % 4]

        if self.winner is None:
            return "exhaustive draw: no hu, no loser settlement, no bullets"
        lines = []
        for p in self.payments:
            behalf = f" for {name(p.on_behalf_of)}" if p.on_behalf_of is not None else ""
            lines.append(
                f"{name(p.payer)} pays {name(p.payee)} {p.amount} {p.ledger}{behalf} ({p.reason})"
            )
        for ledger, net in ((HU, self.hu), (BULLETS, self.bullets)):
            lines.append(
                f"net {ledger}: " + ", ".join(f"{name(s)} {net[s]:+d}" for s in range(4))
            )
        return "\n".join(lines)


def _seat(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 3:
        raise SituationError(f"{what} must be a seat 0-3, not {value!r}")
    return value


def _amount(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise SituationError(f"{what} must be a whole number of at least 0, not {value!r}")
    return value


def _stakes(thrown: Mapping[int, int] | None, dealer: int) -> list[int]:
    stakes = [0, 0, 0, 0]
    for seat, amount in (thrown or {}).items():
        s = _seat(seat, "a thrown-bullet seat")
        if s == dealer and amount:
            raise SituationError("only the other players accept the dealer's thrown bullets")
        stakes[s] = _amount(amount, "a thrown-bullet stake")
    return stakes


def settle_hand(
    winner: int,
    winner_total: int,
    loser_totals: Mapping[int, int],
    *,
    dealer: int,
    self_drawn: bool,
    gunner: int | None = None,
    dealer_count: int = 1,
    thrown: Mapping[int, int] | None = None,
    options: HuangyanOptions = DEFAULT_OPTIONS,
) -> Settlement:
    """Settle a won hand from the totals (the procedure of §5.8).

    ``loser_totals`` maps each of the three losers to his own total ``I``; ``gunner`` is the
    discarder found guilty by :func:`~majiang.rules.huangyan.phase.is_gunner`; ``dealer_count``
    is ``n`` (3.1); ``thrown`` maps non-dealers to their accepted thrown bullets (3.4).
    """
    winner = _seat(winner, "the winner")
    dealer = _seat(dealer, "the dealer")
    w_total = _amount(winner_total, "the winner's total")
    if not isinstance(self_drawn, bool):
        raise SituationError(f"self_drawn must be true or false, not {self_drawn!r}")
    losers = [s for s in range(4) if s != winner]
    if sorted(loser_totals) != losers:
        raise SituationError(
            f"loser totals must be given for seats {losers}, not {sorted(loser_totals)}"
        )
    totals = {s: _amount(loser_totals[s], f"seat {s}'s total") for s in losers}
    if gunner is not None:
        gunner = _seat(gunner, "the gunner")
        if gunner == winner:
            raise SituationError("the winner cannot be the gunner")
        if self_drawn:
            raise SituationError("a self-drawn win has no gunner (§2.9)")
        totals[gunner] = 0  # §5.6 measure 1
    if isinstance(dealer_count, bool) or not isinstance(dealer_count, int) or dealer_count < 1:
        raise SituationError(f"the dealer count must be at least 1, not {dealer_count!r}")
    stakes = _stakes(thrown, dealer)

    payments: list[Payment] = []

    def pay(ledger: str, debtor: int, payee: int, amount: int, reason: str) -> None:
        if amount:
            payer = debtor if gunner is None else gunner
            behalf = debtor if payer != debtor else None
            payments.append(Payment(ledger, payer, payee, amount, reason, behalf))

    for p in losers:  # §5.4 step 1 (§5.6 measure 2)
        pay(HU, p, winner, w_total, WINNER_TOTAL)
    for a, b in combinations(losers, 2):  # §5.4 step 2 (§5.6 measures 3 and 4)
        if totals[a] != totals[b]:
            hi, lo = (a, b) if totals[a] > totals[b] else (b, a)
            pay(HU, lo, hi, totals[hi] - totals[lo], LOSERS_DIFFERENCE)
    z = 2 if self_drawn else 1
    scope = options.dealer_count_scope
    for p in losers:  # §4.6 / §5.5
        multiplied = (
            scope == "every"
            or (scope == "dealer" and dealer in (p, winner))
            or (scope == "dealer_wins" and winner == dealer)
        )
        n = dealer_count if multiplied else 1
        reason = f"{BULLETS_FORMULA}{options.bullets}×{n}×{z}"
        pay(BULLETS, p, winner, options.bullets * n * z, reason)
        thrown_owed = 0
        if winner == dealer:
            thrown_owed = stakes[p] * z
        elif p == dealer:
            thrown_owed = stakes[winner] * z
        pay(BULLETS, p, winner, thrown_owed, THROWN_BULLETS)

    hu = [0, 0, 0, 0]
    bullets = [0, 0, 0, 0]
    for payment in payments:
        net = hu if payment.ledger == HU else bullets
        net[payment.payer] -= payment.amount
        net[payment.payee] += payment.amount
    all_totals = [0, 0, 0, 0]
    all_totals[winner] = w_total
    for s in losers:
        all_totals[s] = totals[s]
    return Settlement(
        hu=_four(hu),
        bullets=_four(bullets),
        payments=tuple(payments),
        winner=winner,
        gunner=gunner,
        totals=_four(all_totals),
    )


def _four(values: list[int]) -> Seats:
    return (values[0], values[1], values[2], values[3])


def settle_draw() -> Settlement:
    """An exhaustive draw (黄牌, §5.7): no hu, no loser settlement, no bullets."""
    return Settlement((0, 0, 0, 0), (0, 0, 0, 0), (), None)


@dataclass(frozen=True)
class SettledWin:
    """A won hand scored and settled: the winner's score, each loser's count, the settlement."""

    winner: HuangyanScore
    losers: dict[int, LoserScore]
    settlement: Settlement


def settle_win(
    hands: Sequence[Hand | str],
    winner: int,
    *,
    wild: Wild | str | int,
    dealer: int = 0,
    self_drawn: bool = False,
    kong: bool = False,
    gunner: int | None = None,
    dealer_count: int = 1,
    thrown: Mapping[int, int] | None = None,
    options: HuangyanOptions = DEFAULT_OPTIONS,
) -> SettledWin:
    """Score the four hands (seats 0-3; the winner's 14 tiles, the losers' 13) and settle."""
    if len(hands) != 4:
        raise SituationError(f"four hands are needed, not {len(hands)}")
    winner = _seat(winner, "the winner")
    dealer = _seat(dealer, "the dealer")
    w = Wild.of(wild, options.live_dragon_face)
    score = score_huangyan(
        hands[winner], wild=w, self_drawn=self_drawn, seat_wind=(winner - dealer) % 4,
        kong=kong, options=options,
    )
    losers = {
        s: score_loser(hands[s], w, seat_wind=(s - dealer) % 4, options=options)
        for s in range(4)
        if s != winner
    }
    settlement = settle_hand(
        winner,
        score.total,
        {s: r.total for s, r in losers.items()},
        dealer=dealer,
        self_drawn=self_drawn,
        gunner=gunner,
        dealer_count=dealer_count,
        thrown=thrown,
        options=options,
    )
    return SettledWin(score, losers, settlement)


@dataclass(frozen=True, slots=True)
class Dealership:
    """Who deals, the dealer count ``n`` (§3.1) and the accepted thrown bullets (§3.4)."""

    dealer: int = 0
    count: int = 1
    thrown: Seats = (0, 0, 0, 0)

    def __post_init__(self) -> None:
        _seat(self.dealer, "the dealer")
        if isinstance(self.count, bool) or not isinstance(self.count, int) or self.count < 1:
            raise SituationError(f"the dealer count must be at least 1, not {self.count!r}")
        for amount in self.thrown:
            _amount(amount, "a thrown-bullet stake")
        if self.thrown[self.dealer]:
            raise SituationError("the dealer has no thrown-bullet stake with himself")

    def seat_wind(self, seat: int) -> int:
        """0-3 for E S W N: the dealer is East, his right-hand player South, and so on."""
        return (_seat(seat, "a seat") - self.dealer) % 4

    def accept(self, seat: int, amount: int) -> Dealership:
        """``seat`` accepts ``amount`` more thrown bullets; stakes add up (§3.4)."""
        seat = _seat(seat, "a seat")
        if seat == self.dealer:
            raise SituationError("only the other players accept the dealer's thrown bullets")
        stakes = list(self.thrown)
        stakes[seat] += _amount(amount, "thrown bullets")
        return Dealership(self.dealer, self.count, _four(stakes))

    def stakes(self) -> dict[int, int]:
        """Accepted thrown bullets by seat, for :func:`settle_hand`."""
        return {s: t for s, t in enumerate(self.thrown) if t}

    def after(self, winner: int | None) -> Dealership:
        """The next hand's dealership: the dealer continues (n + 1, stakes kept) if he won;
        after a non-dealer's win or a draw the right-hand player deals, n = 1, stakes cleared."""
        if winner is not None and _seat(winner, "the winner") == self.dealer:
            return Dealership(self.dealer, self.count + 1, self.thrown)
        return Dealership((self.dealer + 1) % 4)


__all__ = [
    "BULLETS",
    "HU",
    "Dealership",
    "Payment",
    "SettledWin",
    "Settlement",
    "settle_draw",
    "settle_hand",
    "settle_win",
]
