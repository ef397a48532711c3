"""``majiang score --rules huangyan``: a Huangyan winning hand, or a batch of them."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..errors import NotationError, OptionError, SituationError
from ..rules.huangyan import score_huangyan, settle_win
from ..rules.huangyan.options import HuangyanOptions
from .batch import check_hand_or_batch, check_record, process_lines, record_answer, write_lines
from .inputs import explain_notation, open_text
from .options import option_values

_GUOBIAO_ONLY: dict[str, tuple[str, object]] = {
    "prevalent_wind": ("--prevalent", "E"),
    "flowers": ("--flowers", 0),
    "last_tile": ("--last-tile", False),
    "fourth_tile": ("--fourth-tile", False),
}
"""The Guobiao flags (by the name they are parsed as) with their defaults."""
_FIELDS = frozenset({"hand", "wild", "win", "seat_wind", "kong", "id"})
_HAND_FIELDS = frozenset(
    {"hands", "winner", "dealer", "wild", "win", "kong", "gunner", "dealer_count", "thrown", "id"}
)


def run(args: argparse.Namespace) -> int:
    """Score Huangyan hands from the ``score`` sub-command's arguments."""
    for name, (flag, default) in _GUOBIAO_ONLY.items():
        if getattr(args, name) != default:
            raise OptionError(f"{flag} is a Guobiao flag; Huangyan has no such situation")
    if args.stake != 1:
        raise OptionError("--stake is a Guobiao flag (Huangyan pays hu and bullets)")
    options = HuangyanOptions.from_mapping(option_values(args.option))
    check_hand_or_batch(args.hand, args.batch, "score")
    if args.batch is not None:
        handle = _handler(options, args.wild)
        with open_text(args.batch) as source:
            write_lines(process_lines(source, handle), sys.stdout)
        return 0
    if args.wild is None:
        raise OptionError("Huangyan needs --wild FACE: the face of the 得 indicator, e.g. 7p")
    try:
        result = score_huangyan(
            args.hand,
            wild=args.wild,
            self_drawn=args.self_drawn,
            seat_wind=args.seat_wind,
            kong=args.kong,
            options=options,
            explain=True,
        )
    except NotationError as error:
        raise explain_notation(error) from None
    if args.json:
        print(json.dumps(result.to_dict(), ensure_ascii=False, indent=2))
    else:
        print(f"Hand     {args.hand}{args.read_from}")
        print(result.explain())
    return 0


def _handler(options: HuangyanOptions, default_wild: str | None) -> Any:
    def handle(record: Any) -> dict[str, Any]:
        if isinstance(record, dict) and "hands" in record:
            return record_answer(record, lambda: _settled(record, options, default_wild))

        def score() -> dict[str, Any]:
            hand = check_record(record, _FIELDS)
            wild, self_drawn, kong = _situation(record, default_wild)
            return score_huangyan(
                hand,
                wild=wild,
                self_drawn=self_drawn,
                seat_wind=record.get("seat_wind", "E"),
                kong=kong,
                options=options,
            ).to_dict()

        return record_answer(record, score)

    return handle


def _situation(record: dict[str, Any], default_wild: str | None) -> tuple[str, bool, bool]:
    """The wild face, self-drawn and kong flags of a batch line."""
    wild = record.get("wild", default_wild)
    if not isinstance(wild, str):
        raise SituationError("field 'wild' (the 得 face, e.g. \"7p\") is required")
    win = record.get("win", "discard")
    if win not in ("discard", "self_drawn"):
        raise SituationError(f"win must be 'discard' or 'self_drawn', not {win!r}")
    kong = record.get("kong", False)
    if not isinstance(kong, bool):
        raise SituationError(f"kong must be true or false, not {kong!r}")
    return wild, win == "self_drawn", kong


def _seat_field(record: dict[str, Any], name: str, default: int | None) -> int | None:
    value = record.get(name, default)
    if value is None and default is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 3:
        raise SituationError(f"field {name!r} must be a seat 0-3, not {value!r}")
    return value


def _settled(
    record: dict[str, Any], options: HuangyanOptions, default_wild: str | None
) -> dict[str, Any]:
    """A whole hand: the four hands (seats 0-3, the winner's 14 tiles), the winner, the dealer,
    the gunner, the dealer count and thrown bullets; the answer: every count and both ledgers."""
    unknown = set(record) - _HAND_FIELDS
    if unknown:
        raise SituationError(f"unknown field {sorted(unknown)[0]!r}")
    hands = record["hands"]
    if not isinstance(hands, list) or len(hands) != 4 or not all(
        isinstance(h, str) for h in hands
    ):
        raise SituationError("field 'hands' must be a list of 4 hands (seats 0-3)")
    if "winner" not in record:
        raise SituationError("field 'winner' (the winning seat 0-3) is required")
    winner = _seat_field(record, "winner", 0)
    dealer = _seat_field(record, "dealer", 0)
    gunner = _seat_field(record, "gunner", None)
    thrown = record.get("thrown", [0, 0, 0, 0])
    if not isinstance(thrown, list) or len(thrown) != 4:
        raise SituationError("field 'thrown' must be a list of 4 accepted thrown bullets")
    wild, self_drawn, kong = _situation(record, default_wild)
    assert winner is not None and dealer is not None
    result = settle_win(
        hands,
        winner,
        wild=wild,
        dealer=dealer,
        self_drawn=self_drawn,
        kong=kong,
        gunner=gunner,
        dealer_count=record.get("dealer_count", 1),
        thrown={s: n for s, n in enumerate(thrown) if n != 0},
        options=options,
    )
    return {
        "winner": {"seat": winner, **result.winner.to_dict()},
        "losers": {str(s): r.to_dict() for s, r in result.losers.items()},
        **result.settlement.to_dict(),
    }
