"""``majiang score --rules huangyan``: a Huangyan winning hand, or a batch of them."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..errors import MajiangError, OptionError, SituationError
from ..rules.huangyan import score_huangyan
from ..rules.huangyan.options import HuangyanOptions
from .batch import check_record, echo_id, process_lines, write_lines

_GUOBIAO_ONLY = ("prevalent", "flowers", "last_tile", "fourth_tile")
_FIELDS = frozenset({"hand", "wild", "win", "seat_wind", "kong", "id"})


def run(args: argparse.Namespace) -> int:
    """Score Huangyan hands from the ``score`` sub-command's arguments."""
    from .score import option_values

    for name in _GUOBIAO_ONLY:
        default = "E" if name == "prevalent" else 0 if name == "flowers" else False
        if getattr(args, name) != default:
            flag = "--" + name.replace("_", "-")
            raise OptionError(f"{flag} is a Guobiao flag; Huangyan has no such situation")
    if args.stake != 1:
        raise OptionError("--stake is a Guobiao flag (Huangyan pays hu and bullets)")
    options = HuangyanOptions.from_mapping(option_values(args.option))
    if args.batch is not None:
        if args.hand is not None:
            raise OptionError("give either a HAND or --batch FILE, not both")
        handle = _handler(options, args.wild)
        if args.batch == "-":
            write_lines(process_lines(sys.stdin, handle), sys.stdout)
        else:
            with open(args.batch, encoding="utf-8") as source:
                write_lines(process_lines(source, handle), sys.stdout)
        return 0
    if args.hand is None:
        raise OptionError("give a HAND to score (or --batch FILE)")
    if args.wild is None:
        raise OptionError("Huangyan needs --wild FACE: the face of the 得 indicator, e.g. 7p")
    result = score_huangyan(
        args.hand,
        wild=args.wild,
        self_drawn=args.self_drawn,
        seat_wind=args.seat,
        kong=args.kong,
        options=options,
        explain=True,
    )
    if args.json:
        print(json.dumps(result.to_dict(), ensure_ascii=False, indent=2))
    else:
        print(f"Hand     {args.hand}")
        print(result.explain())
    return 0


def _handler(options: HuangyanOptions, default_wild: str | None) -> Any:
    def handle(record: Any) -> dict[str, Any]:
        out = echo_id(record)
        try:
            hand = check_record(record, _FIELDS)
            wild = record.get("wild", default_wild)
            if not isinstance(wild, str):
                raise SituationError("field 'wild' (the 得 face, e.g. \"7p\") is required")
            win = record.get("win", "discard")
            if win not in ("discard", "self_drawn"):
                raise SituationError(f"win must be 'discard' or 'self_drawn', not {win!r}")
            kong = record.get("kong", False)
            if not isinstance(kong, bool):
                raise SituationError(f"kong must be true or false, not {kong!r}")
            result = score_huangyan(
                hand,
                wild=wild,
                self_drawn=win == "self_drawn",
                seat_wind=record.get("seat_wind", "E"),
                kong=kong,
                options=options,
            )
        except MajiangError as error:
            out["error"] = str(error)
            return out
        out.update(result.to_dict())
        return out

    return handle
