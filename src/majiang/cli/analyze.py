"""``majiang analyze``: shanten, useful tiles, scored waits and discard advice

Analyse a 13- or 14-tile hand written in the notation of docs/rules/guobiao.md §1.2. 13 tiles:
shanten, useful tiles and, when ready, every wait scored on a discard and self-drawn (and whether
it reaches 8 fans). 14 tiles (the last concealed tile just drawn): every discard ranked by shanten,
then by unseen useful tiles. With --batch, read JSON lines.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from typing import IO, Any

from ..analysis import Analysis, DiscardOption, UsefulTile, Wait, analyze
from ..errors import NotationError, SituationError
from ..notation import format_hand, format_tiles, parse_hand
from ..rules.guobiao.options import GuobiaoOptions
from ..rules.guobiao.scoring import Score
from ..shanten import SHAPES
from .batch import check_hand_or_batch, check_record, process_lines, record_answer, write_lines
from .command import add_command, add_notation_argument, add_output_arguments, add_wind_arguments
from .inputs import explain_notation, open_text, pasted_hand
from .score import parse_options

SHAPE_LABELS = {
    "regular": "regular",
    "seven_pairs": "seven pairs",
    "thirteen_orphans": "thirteen orphans",
    "honors_knitted": "honours-and-knitted",
    "knitted_straight": "knitted straight",
}


def add_parser(commands: Any) -> None:
    """Register ``analyze`` on the sub-command parser."""
    p = add_command(commands, "analyze", run, __doc__)
    p.add_argument("hand", nargs="?", help='e.g. "[WWWW,1][444s]45m678pFF"')
    p.add_argument(
        "--visible",
        default="",
        metavar="TILES",
        help="tiles seen outside the hand (discards, others' melds), e.g. 3m3m6mEE",
    )
    add_wind_arguments(p)
    add_notation_argument(p)
    add_output_arguments(
        p, "analyse", f"rule option, repeatable: {', '.join(GuobiaoOptions.names())}")


def run(args: argparse.Namespace) -> int:
    """Run ``majiang analyze``."""
    options = parse_options(args.option)
    check_hand_or_batch(args.hand, args.batch, "analyse")
    if args.batch is not None:
        with open_text(args.batch) as source:
            run_batch(source, sys.stdout, options)
        return 0
    text, read_from = pasted_hand(args.hand, args.notation)
    try:
        hand = parse_hand(text)
    except NotationError as error:
        raise explain_notation(error) from None
    result = analyze(
        hand,
        args.visible,
        seat_wind=args.seat_wind,
        prevalent_wind=args.prevalent_wind,
        options=options,
    )
    if args.json:
        print(json.dumps(result.to_dict(), ensure_ascii=False, indent=2))
    else:
        print(render(result, read_from))
    return 0


# --------------------------------------------------------------------------- text


def _shanten_word(n: int, tiles: int) -> str:
    if n == -1:
        return "-1 (complete)"
    if n == 0:
        return "0 (ready)" if tiles == 13 else "0 (ready after the discard)"
    return str(n)


def _by_shape(result: Analysis) -> str:
    return ", ".join(
        f"{SHAPE_LABELS[s]} {result.by_shape[s]}" for s in SHAPES if s in result.by_shape
    )


def _tiles(useful: Iterable[UsefulTile]) -> str:
    return " ".join(f"{u.name}({u.unseen})" for u in useful) or "-"


def _total(score: Score | None) -> str:
    """A total without flowers (as the 8-fan minimum counts), marked when it stays below 8."""
    if score is None:
        return "-"
    if score.meets_minimum:
        return str(score.total_without_flowers)
    return f"{score.total_without_flowers} below 8"


def _wait_note(wait: Wait) -> str:
    if wait.discard is None:
        return "dead: all four copies are in the hand"
    if not wait.meets_minimum:
        return "cannot reach 8 fans"
    if not wait.discard.meets_minimum:
        return "8 fans only self-drawn"
    if wait.unseen == 0:
        return "no copy left unseen"
    return ""


def _wait_table(waits: Iterable[Wait], indent: str = "  ") -> list[str]:
    lines = [f"{indent}{'Wait':<6}{'Unseen':>6}  {'Discard':<12}{'Self-drawn':<12}Note"]
    for w in waits:
        lines.append(
            f"{indent}{w.name:<6}{w.unseen:>6}  {_total(w.discard):<12}{_total(w.self_drawn):<12}"
            f"{_wait_note(w)}".rstrip()
        )
    return lines


def _discard_line(option: DiscardOption) -> str:
    return (
        f"  {option.name:<8}{option.shanten:>7}{option.useful_unseen:>8}{len(option.useful):>7}"
        f"  {_tiles(option.useful)}"
    )


def render(result: Analysis, read_from: str = "") -> str:
    """The readable report of ``majiang analyze`` (``read_from``: the note of a pasted hand)."""
    lines = [f"Hand     {format_hand(result.hand)}{read_from}"]
    if result.visible:
        lines.append(f"Visible  {format_tiles(sorted(result.visible))}")
    lines.append(f"Shanten  {_shanten_word(result.shanten, result.tiles)}")
    lines.append(f"Shapes   {_by_shape(result)}")
    flowers = len(result.hand.flowers)
    if flowers and (result.waits or result.win or any(d.waits for d in result.discards)):
        lines.append(
            f"Flowers  {flowers}: the totals below leave them out, as the 8-fan minimum does; "
            "each adds 1 fan to a legal win"
        )
    if result.tiles == 13:
        if result.shanten == 0:
            waits = result.waits
            unseen = sum(w.unseen for w in waits)
            lines.append(
                f"Waits    {len(waits)} kinds, {unseen} tiles unseen, "
                f"{result.winning_unseen} of them reach 8 fans"
            )
            lines.extend(_wait_table(waits))
            reach = [w for w in waits if w.meets_minimum]
            if not reach:
                lines.append("No wait reaches 8 fans: this hand cannot win as it stands.")
            elif len(reach) < len(waits):
                lines.append(
                    f"Only {' '.join(w.name for w in reach)} can win "
                    "(the other waits stay below 8 fans)."
                )
        else:
            lines.append(
                f"Useful   {len(result.useful)} kinds, {result.useful_unseen} tiles unseen: "
                f"{_tiles(result.useful)}"
            )
        return "\n".join(lines)
    if result.win is not None:
        win = result.win
        lines.append(
            f"Complete on {win.name}: {_total(win.discard)} on a discard, "
            f"{_total(win.self_drawn)} self-drawn (see majiang score for the fans)"
        )
    lines.append("")
    lines.append(f"  {'Discard':<8}{'Shanten':>7}{'Unseen':>8}{'Kinds':>7}  Useful tiles (unseen)")
    for option in result.discards:
        lines.append(_discard_line(option))
        if option.shanten == 0 and option.waits:
            lines.extend(_wait_table(option.waits, indent="      "))
    return "\n".join(lines)


# --------------------------------------------------------------------------- batch

_FIELDS = frozenset({"hand", "visible", "seat_wind", "prevalent_wind", "id"})


def analyze_record(record: Any, options: GuobiaoOptions) -> dict[str, Any]:
    """Analyse one batch record (a decoded JSON object); bad records give ``{"error": ...}``."""

    def analysis() -> dict[str, Any]:
        hand = check_record(record, _FIELDS)
        visible = record.get("visible", "")
        if not isinstance(visible, str):
            raise SituationError("field 'visible' must be a string of tiles, e.g. \"3m3mE\"")
        return analyze(
            hand,
            visible,
            seat_wind=record.get("seat_wind", "E"),
            prevalent_wind=record.get("prevalent_wind", "E"),
            options=options,
        ).to_dict()

    return record_answer(record, analysis)


def run_batch(source: IO[str], sink: IO[str], options: GuobiaoOptions) -> None:
    """Analyse a JSON-lines stream into another, in order."""
    write_lines(process_lines(source, lambda record: analyze_record(record, options)), sink)
