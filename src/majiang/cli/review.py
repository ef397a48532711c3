"""``majiang review``: rank every decision of a seat in a recorded hand or match

Replay a finished hand (a record file) or match (a directory of hand records, in name order) and,
at every decision of the seat, rank the candidate actions by expected points from what the seat
could see then (Monte Carlo rollouts over sampled deals). The biggest mistakes come first.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .command import add_command

if TYPE_CHECKING:
    from ..engine.actions import Action
    from ..review import Decision, Review

SHOWN = 4
"""Candidates shown per decision in the text and the page."""


def add_parser(commands: Any) -> None:
    """Register ``review``."""
    p = add_command(commands, "review", run, __doc__)
    p.add_argument("record", help="a hand record (JSON lines) or a directory of them")
    p.add_argument("--seat", type=_seat, required=True, metavar="N", help="the seat, 0-3")
    p.add_argument("--think", type=think_seconds, default=1.0, metavar="SECONDS",
                   help="time per decision (1; 0: no time limit, up to --samples deals, "
                   "the same output on every machine)")
    p.add_argument("--samples", type=positive, default=200, metavar="N",
                   help="sampled deals per decision at most (200)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="the review's seed (0)")
    p.add_argument("--step", type=positive, action="append", metavar="N",
                   help="review only the decision at action N of each hand (repeatable)")
    output = p.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print JSON")
    output.add_argument("--html", metavar="FILE", help="write an HTML page to FILE")


def _seat(text: str) -> int:
    try:
        seat = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a seat number (0-3)") from None
    if seat not in range(4):
        raise argparse.ArgumentTypeError(f"seat {seat} is out of range: seats are 0-3")
    return seat


def think_seconds(text: str) -> float | None:
    """A time per decision: 0-600 seconds, 0 meaning no time limit (None)."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value <= 600:
        raise argparse.ArgumentTypeError(f"{text!r}: seconds between 0 and 600")
    return value or None


def positive(text: str) -> int:
    """A whole number, 1 or more."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive number")
    return value


def load_records(path: str) -> list[list[dict[str, Any]]]:
    """One record, or every ``*.jsonl`` record of a directory in name order."""
    from ..engine.record import RecordError, load_record

    source = Path(path)
    if source.is_dir():
        files = sorted(source.glob("*.jsonl"))
        if not files:
            raise RecordError(f"{path}: no *.jsonl hand records in this directory")
        return [load_record(f) for f in files]
    return [load_record(source)]


def run(args: argparse.Namespace) -> int:
    """Run ``majiang review``."""
    from ..review import review_records

    records = load_records(args.record)
    review = review_records(
        records, args.seat, think=args.think, samples=args.samples, seed=args.seed,
        steps=args.step, progress=_progress if sys.stderr.isatty() else None,
    )
    if sys.stderr.isatty():
        print(file=sys.stderr)
    if args.json:
        print(json.dumps(review.to_json(), ensure_ascii=False, indent=2))
    elif args.html:
        Path(args.html).write_text(page(review, args.record), encoding="utf-8")
        print(f"{summary(review)}\nWrote {args.html}.")
    else:
        print(text(review))
    return 0


def _progress(done: int, total: int) -> None:
    print(f"\rreviewing: {done}/{total} decisions", end="", file=sys.stderr, flush=True)


def summary(review: Review) -> str:
    """Two lines: what was reviewed, the total loss and the share matched."""
    n = len(review.decisions)
    budget = f"{review.think:g} s" if review.think is not None else "no time limit"
    share = f"{review.matched / n:.0%}" if n else "-"
    hands = "1 hand" if review.hands == 1 else f"{review.hands} hands"
    return (
        f"Seat {review.seat}, {hands}: {n} decisions reviewed ({budget} and at most "
        f"{review.samples} deals each, seed {review.seed}).\n"
        f"Expected loss {review.total_loss:.1f} points; the top choice taken in "
        f"{review.matched} of {n} ({share})."
    )


def _where(d: Decision, hands: int) -> str:
    hand = f"hand {d.hand}, " if hands > 1 else ""
    offer = f", {d.offer} on offer" if d.offer else ""
    drawn = f", drew {d.drawn}" if d.drawn else ""
    return f"{hand}step {d.step} ({d.phase}, wall {d.wall}): {d.tiles}{drawn}{offer}"


def _interval(half: float) -> str:
    return f"±{half:.1f}" if half != float("inf") else "±?"


def text(review: Review) -> str:
    """The review as text: the summary, then every decision that lost points, worst first."""
    out = [summary(review)]
    mistakes = [d for d in review.worst_first() if d.loss > 0.005]
    if not mistakes:
        out.append("No decision lost points against the top choice.")
        return "\n".join(out)
    out.append("")
    out.append("Decisions that lost points, the biggest first:")
    for i, d in enumerate(mistakes, 1):
        out.append(f"{i:>3}. {_where(d, review.hands)}")
        out.append(f"     took {d.taken_label():<12} loss {d.loss:.1f}")
        for c in d.choices[:SHOWN]:
            mark = "*" if c.action == d.taken else " "
            out.append(f"     {mark} {_label(c.action):<12} {c.mean:+7.1f} "
                       f"{_interval(c.half_width):>7}  ({c.rollouts} rollouts)")
    return "\n".join(out)


def _label(action: Action) -> str:
    from ..engine.actions import describe

    return describe(action)


def page(review: Review, source: str) -> str:
    """The review as a self-contained HTML page."""
    import html

    esc = html.escape
    rows = []
    for d in review.worst_first():
        choices = "".join(
            f"<li{' class=taken' if c.action == d.taken else ''}>{esc(_label(c.action))} "
            f"<b>{c.mean:+.1f}</b> {esc(_interval(c.half_width))}</li>"
            for c in d.choices[:SHOWN]
        )
        rows.append(
            f"<tr{' class=lost' if d.loss > 0.005 else ''}><td>{d.hand}</td><td>{d.step}</td>"
            f"<td>{esc(d.phase)}</td><td>{d.wall}</td><td class=tiles>{esc(d.tiles)}"
            f"{' ← ' + esc(d.offer) if d.offer else ''}"
            f"{' (drew ' + esc(d.drawn) + ')' if d.drawn else ''}</td>"
            f"<td>{esc(d.taken_label())}</td><td>{d.loss:.1f}</td><td><ol>{choices}</ol></td></tr>"
        )
    lines = "<br>".join(esc(line) for line in summary(review).splitlines())
    return f"""<!doctype html>
<html lang=en><head><meta charset=utf-8><title>majiang review: {esc(source)}</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 2em; }}
table {{ border-collapse: collapse; }}
td, th {{ border-bottom: 1px solid #ccc; padding: .3em .6em; vertical-align: top; }}
tr.lost td {{ background: #fff4f0; }}
li.taken {{ font-weight: bold; color: #a33; }}
td.tiles {{ font-family: monospace; }}
ol {{ margin: 0; padding-left: 1.4em; }}
</style></head><body>
<h1>Review of seat {review.seat}</h1>
<p>{esc(source)}</p>
<p>{lines}</p>
<table><thead><tr><th>Hand</th><th>Step</th><th>Phase</th><th>Wall</th><th>Tiles</th>
<th>Taken</th><th>Loss</th><th>Candidates (expected points, 95% interval)</th></tr></thead>
<tbody>
{chr(10).join(rows)}
</tbody></table></body></html>
"""
