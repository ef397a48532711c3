"""``majiang replay``: replay a hand record and verify it

Rebuild a hand from its JSON-lines record, check every event and the result, and print the hand. A
record that is cut short or altered (its line count or checksum does not match) is refused.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .command import add_command

_WINDS = "ESWN"


def add_parser(commands: Any) -> None:
    """Register ``replay``."""
    p = add_command(commands, "replay", run, __doc__)
    p.add_argument("log", help="a record written by `majiang simulate --records DIR`")
    p.add_argument("--quiet", action="store_true", help="print only the verdict")


def run(args: argparse.Namespace) -> int:
    """Run ``majiang replay``."""
    from ..engine.record import read_record, replay

    record = read_record(args.log)
    if not record.sealed:
        print(
            f"majiang: notice: {args.log} is a format 1 record, without line count or checksum: "
            "a cut or a change cannot be detected",
            file=sys.stderr,
        )
    lines = record.lines
    table = replay(lines)
    header = lines[0]
    if not args.quiet:
        print(
            f"Rules {header['rules']}, seed {header.get('seed')}, dealer seat {header['dealer']}, "
            f"prevalent wind {_WINDS[header['prevalent_wind']]}"
        )
        for line in lines[1:]:
            for event in line.get("events", []):
                print("  " + _describe(event))
    result = table.result
    actions = len(table.history)
    if result is None:
        print(f"Replayed {actions} actions: the hand is not finished.")
    elif result.is_draw:
        print(
            f"Replayed {actions} actions: exhaustive draw; deltas {list(result.deltas)}. Verified."
        )
    else:
        how = "self-drawn" if result.self_drawn else f"on seat {result.discarder}'s tile"
        bullets = "".join(f", {name} {list(paid)}" for name, paid in result.ledgers.items())
        print(
            f"Replayed {actions} actions: seat {result.winner} won {how} with {result.points} "
            f"points; deltas {list(result.deltas)}{bullets}. Verified."
        )
    return 0


def _describe(event: dict[str, Any]) -> str:
    fields = {k: v for k, v in event.items() if k not in ("type", "private")}
    return f"{event['type']}: " + json.dumps(fields, ensure_ascii=False)
