"""``majiang score``: score a Guobiao or Huangyan winning hand

Score a winning hand by the Guobiao (--rules gb, the default) or the Huangyan (--rules huangyan
--wild FACE) rules. The hand is written in the notation of docs/rules/guobiao.md §1.2, the last
concealed tile the winning tile; Botzone tile names, Tenhou's 1-7z honours and upper-case suit
letters are read too. With --batch, read JSON lines.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Iterator
from typing import IO, Any

from ..api import make_context
from ..errors import NotationError, OptionError, SituationError
from ..notation import parse_hand
from ..rules.guobiao.fast_batch import score_line
from ..rules.guobiao.options import GuobiaoOptions
from ..rules.guobiao.scoring import MIN_FANS, Score, score_hand
from ..rules.info import load
from ..rules.registry import DEFAULT_RULES, RULE_SETS, rule_set
from .batch import check_hand_or_batch, check_record, process_lines, record_answer, write_lines
from .command import (
    add_command,
    add_notation_argument,
    add_output_arguments,
    add_wind_arguments,
    arguments_for,
)
from .inputs import explain_notation, open_text, pasted_hand
from .options import option_values


def add_parser(commands: Any) -> None:
    """Register ``score`` on the sub-command parser."""
    p = add_command(commands, "score", run, __doc__, epilog=_options_epilog())
    p.add_argument("hand", nargs="?", help='e.g. "[WWWW,1][444s]45m678pFF6m"')
    p.add_argument(
        "--rules",
        default=DEFAULT_RULES,
        choices=list(RULE_SETS),
        help=f"rule set: {_rule_sets_help()}",
    )
    p.add_argument("--wild", metavar="FACE", help="Huangyan: the face of the 得 indicator, e.g. 7p")
    p.add_argument("--self-drawn", action="store_true", help="won by self-draw (default: discard)")
    add_wind_arguments(p)
    p.add_argument("--flowers", type=int, default=0, metavar="N", help="flowers not in the hand")
    p.add_argument("--last-tile", action="store_true", help="last wall tile / final discard")
    p.add_argument(
        "--kong", action="store_true", help="kong replacement (self-drawn) / robbing a kong"
    )
    p.add_argument("--fourth-tile", action="store_true", help="the other 3 copies are visible")
    p.add_argument("--stake", type=int, default=1, metavar="N", help="stake multiplier (1)")
    add_notation_argument(p)
    add_output_arguments(p, "score", "rule option of the --rules in force, repeatable (below)")
    p.add_argument(
        "--explain",
        action="store_true",
        help="show the reading and every implied fan that was not counted, and why",
    )
    p.add_argument("--jobs", type=int, default=1, metavar="N", help="processes for --batch (1)")


def _rule_sets_help() -> str:
    """``gb (Guobiao (MCR), default), huangyan (Huangyan)``."""
    return ", ".join(
        f"{name} ({info.title_en}{', default' if name == DEFAULT_RULES else ''})"
        for name, info in RULE_SETS.items()
    )


def _options_epilog() -> str:
    """Each rule set's options and their defaults, for ``majiang score --help``."""
    listed = "; ".join(
        f"{info.title_en}: "
        + ", ".join(f"{o.name}={_shown(o.default)}" for o in info.options())
        for info in RULE_SETS.values()
    )
    where = ", ".join(info.options_doc for info in RULE_SETS.values() if info.options_doc)
    return (
        f"Options of each rule set (--option NAME=VALUE): {listed}. Each is explained, with its "
        f"reason, in {where}."
    )


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(getattr(value, "value", value))


def parse_options(pairs: Iterable[str]) -> GuobiaoOptions:
    """``NAME=VALUE`` strings to Guobiao options."""
    return GuobiaoOptions.from_mapping(option_values(pairs))


def run(args: argparse.Namespace) -> int:
    """Run ``majiang score`` with the scorer of the rule set chosen."""
    args.read_from = ""
    if args.hand is not None:
        args.hand, args.read_from = pasted_hand(args.hand, args.notation)
    code: int = load(rule_set(args.rules).scorer)(args)
    return code


def run_guobiao(args: argparse.Namespace) -> int:
    """``majiang score`` under Guobiao (the rule set's scorer)."""
    if args.wild is not None:
        raise OptionError("--wild is a Huangyan option (add --rules huangyan)")
    options = parse_options(args.option)
    if args.stake < 1:
        raise SituationError("--stake must be at least 1")
    check_hand_or_batch(args.hand, args.batch, "score")
    if args.batch is not None:
        if args.jobs < 1:
            raise OptionError("--jobs must be at least 1")
        with open_text(args.batch) as source:
            run_batch(source, sys.stdout, options, args.jobs)
        return 0
    try:
        hand = parse_hand(args.hand, allowed_counts=(14,))
    except NotationError as error:
        raise explain_notation(error) from None
    context = make_context(**arguments_for(make_context, args))
    result = score_hand(hand, context, options, explain=args.explain)
    if args.json:
        print(
            json.dumps(
                score_json(result, args.self_drawn, args.stake, args.explain),
                ensure_ascii=False,
                indent=2,
            )
        )
    else:
        print(
            render(
                result,
                f"{hand}{args.read_from}",
                context.describe(),
                args.self_drawn,
                args.stake,
                args.explain,
            )
        )
    return 0


def score_json(result: Score, self_drawn: bool, stake: int, explain: bool) -> dict[str, Any]:
    """The JSON document of ``majiang score --json``."""
    out = result.to_dict()
    pay = result.payments(self_drawn, stake)
    out["flowers"] = result.flowers
    out["payments"] = (
        {
            "stake": stake,
            "discarder": pay.discarder,
            "each_other": pay.each_other,
            "winner": pay.winner,
        }
        if result.meets_minimum
        else None
    )
    if explain:
        out["reading"] = {
            "shape": result.reading.shape,
            "sets": list(result.reading.sets),
            "pair": result.reading.pair,
        }
        out["not_counted"] = [
            {
                "name": e.fan.zh,
                "en": e.fan.en,
                "count": e.count,
                "by": e.by.zh if e.by else None,
                "principle": e.principle,
                "detail": e.detail,
            }
            for e in result.excluded
        ]
        out["other_readings"] = [
            {"reading": str(a.reading), "total": a.total} for a in result.alternatives
        ]
    return out


def render(
    result: Score,
    hand: str,
    situation: str,
    self_drawn: bool,
    stake: int,
    explain: bool,
    penalty: int = 10,
) -> str:
    """The readable table of ``majiang score``."""
    lines = [f"Hand     {hand}", f"Context  {situation}"]
    if explain:
        lines.append(f"Reading  {result.reading}")
    lines.append("")
    name_width = max(len(fc.fan.en) for fc in result.fans) + 1
    lines.append(f"{'Fan':<{5 + name_width}}{'Points':>7}{'Count':>7}{'Total':>7}")
    for fc in result.fans:
        label = f"{_pad(fc.fan.zh, 5)}{fc.fan.en:<{name_width}}"
        lines.append(f"{label}{fc.points:>7}{fc.count:>7}{fc.total:>7}")
    lines.append(f"{'Total':<{5 + name_width}}{'':>14}{result.total:>7}")
    base = result.total_without_flowers
    if result.meets_minimum:
        lines.append(f"Meets the 8-fan minimum ({base} without flowers).")
    else:
        lines.append(
            f"Below the 8-fan minimum: {base} without flowers (needs {MIN_FANS}): "
            "not a legal win (a false win where 错和 applies)."
        )
    pay = result.payments(self_drawn, stake)
    stake_note = f" (stake {stake})" if stake != 1 else ""
    if not result.meets_minimum:
        lines.append(
            f"Payments{stake_note}: none. Where false wins (错和) are played, declaring it costs "
            f"{penalty * stake} to each other player."
        )
    elif pay.discarder is None:
        lines.append(
            f"Payments{stake_note}: each other player pays {pay.each_other}; winner +{pay.winner}."
        )
    else:
        lines.append(
            f"Payments{stake_note}: discarder pays {pay.discarder}, the other two "
            f"{pay.each_other} each; winner +{pay.winner}."
        )
    if explain:
        lines.append("")
        if result.excluded:
            lines.append("Not counted:")
            for e in result.excluded:
                what = f"{e.fan.zh} {e.fan.en}"
                if e.count > 1:
                    what += f" x{e.count}"
                if e.detail:
                    what += f" ({e.detail})"
                by = f"{e.by.zh} {e.by.en}" if e.by else "the other chows"
                if e.by is not None and e.by.id == e.fan.id:
                    lines.append(f"  {e.fan.zh} {e.fan.en}: {e.detail} - {e.principle}")
                else:
                    lines.append(f"  {what}: implied by {by} - {e.principle}")
        else:
            lines.append("Not counted: nothing (no fan was implied by another).")
        for alt in result.alternatives:
            lines.append(f"Other reading: {alt.reading} = {alt.total} (take the highest)")
    return "\n".join(lines)


def _pad(text: str, width: int) -> str:
    """Pad a Chinese name to a display width (CJK characters are two columns wide)."""
    shown = sum(2 if ord(ch) > 0x2E80 else 1 for ch in text)
    return text + " " * max(1, width * 2 - shown + 1)


# --------------------------------------------------------------------------- batch

_FIELDS = frozenset(
    {"hand", "win", "seat_wind", "prevalent_wind", "flowers", "last_tile", "kong", "fourth_tile"}
    | {"id"}
)


def score_record(record: Any, options: GuobiaoOptions) -> dict[str, Any]:
    """Score one batch record (a decoded JSON object); bad records give ``{"error": ...}``."""

    def score() -> dict[str, Any]:
        hand_text = check_record(record, _FIELDS)
        win = record.get("win", "discard")
        if win not in ("discard", "self_drawn"):
            raise SituationError(f"win must be 'discard' or 'self_drawn', not {win!r}")
        context = make_context(
            self_drawn=win == "self_drawn",
            seat_wind=record.get("seat_wind", "E"),
            prevalent_wind=record.get("prevalent_wind", "E"),
            flowers=record.get("flowers", 0),
            last_tile=record.get("last_tile", False),
            kong=record.get("kong", False),
            fourth_tile=record.get("fourth_tile", False),
        )
        return score_hand(parse_hand(hand_text, allowed_counts=(14,)), context, options).to_dict()

    return record_answer(record, score)


def score_lines(lines: Iterable[str], options: GuobiaoOptions, start: int = 1) -> Iterator[str]:
    """One JSON output line per input line, in order (``start`` numbers the first line).

    Lines of the common form take the compiled fast path; the others (and every error) the
    general one."""
    for number, line in enumerate(lines, start):
        out = score_line(line, options)
        if out is None:
            (out,) = process_lines((line,), lambda record: score_record(record, options), number)
        yield out


def _score_block(job: tuple[list[str], dict[str, Any], int]) -> list[str]:
    lines, option_values, first = job
    return list(score_lines(lines, GuobiaoOptions(**option_values), first))


def run_batch(source: IO[str], sink: IO[str], options: GuobiaoOptions, jobs: int = 1) -> None:
    """Score a JSON-lines stream into another, in order; ``jobs`` > 1 uses that many processes."""
    if jobs <= 1:
        write_lines(score_lines(source, options), sink)
        return
    import multiprocessing

    values = {name: getattr(options, name) for name in GuobiaoOptions.names()}

    def blocks() -> Iterator[tuple[list[str], dict[str, Any], int]]:
        block: list[str] = []
        first = 1
        for line in source:
            block.append(line)
            if len(block) >= 2000:
                yield block, values, first
                first += len(block)
                block = []
        if block:
            yield block, values, first

    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        write_lines((out for outs in pool.imap(_score_block, blocks()) for out in outs), sink)
