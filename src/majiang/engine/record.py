"""The record of a hand: JSON lines with a format version; a replay is a fold over it.

Line 1 is the header (rules, options, seed or explicit wall, dealer, prevalent wind, stake, and
where they are not the defaults the dealer count, the thrown bullets in force and the
single-ended wall).
Then one line per accepted action: the seat, the action and the events it caused. The last line
is the result. Replaying rebuilds the table from the header, applies every action, and checks
that the events and the result come out the same.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..errors import MajiangError
from ..rules.registry import make_rules, rules_options
from ..tiles import tile_from_name, tile_name
from .actions import action_from_json, action_to_json
from .table import Table
from .wall import LAYOUTS

FORMAT = 1


class RecordError(MajiangError):
    """A record that cannot be read, or whose replay does not reproduce it."""


def record_of(table: Table) -> list[dict[str, Any]]:
    """The record of a table (finished or not) as a list of JSON objects."""
    header: dict[str, Any] = {
        "format": FORMAT,
        "rules": table.rules.name,
        "options": rules_options(table.rules),
        "seed": table.seed,
        "dealer": table.dealer,
        "prevalent_wind": table.prevalent_wind,
        "stake": table.stake,
        "every_seat_answers": table.every_seat_answers,
    }
    if table.dealer_count != 1:
        header["dealer_count"] = table.dealer_count
    if any(table.initial_thrown):
        header["thrown"] = list(table.initial_thrown)
    if table.layout != "two_ended":
        header["wall_layout"] = table.layout
    if table.layout == "single_end":
        header["single_end"] = True  # as records of single-ended tables have always said
    if table.explicit_wall is not None:
        header["wall"] = " ".join(tile_name(t) for t in table.explicit_wall)  # flowers as a-h
    if table.explicit_dice is not None:
        header["dice"] = [list(pair) for pair in table.explicit_dice]
    lines = [header]
    marks = [*table.event_marks, len(table.events)]
    for i, (seat, action) in enumerate(table.history):
        lines.append(
            {
                "seat": seat,
                "action": action_to_json(action),
                "events": table.events[marks[i] : marks[i + 1]],
            }
        )
    if table.result is not None:
        lines.append({"result": table.result.to_json()})
    return lines


def save_record(table: Table, path: str | Path) -> None:
    """Write a table's record as JSON lines."""
    with open(path, "w", encoding="utf-8") as out:
        for line in record_of(table):
            out.write(json.dumps(line, ensure_ascii=False) + "\n")


def load_record(path: str | Path) -> list[dict[str, Any]]:
    """Read a JSON-lines record; raise :class:`RecordError` naming the bad line."""
    lines: list[dict[str, Any]] = []
    with open(path, encoding="utf-8") as source:
        for number, text in enumerate(source, 1):
            if not text.strip():
                continue
            try:
                value = json.loads(text)
            except ValueError as error:
                raise RecordError(f"{path}: line {number} is not JSON: {error}") from None
            if not isinstance(value, dict):
                raise RecordError(f"{path}: line {number} is not a JSON object")
            lines.append(value)
    if not lines:
        raise RecordError(f"{path}: empty record")
    return lines


def table_from_header(header: dict[str, Any]) -> Table:
    """A fresh table as the header describes it."""
    if header.get("format") != FORMAT:
        raise RecordError(f"unsupported record format {header.get('format')!r} (expected 1)")
    try:
        rules = make_rules(header["rules"], header.get("options") or None)
        wall = header.get("wall")
        return Table(
            rules,
            int(header.get("seed", 0)),
            dealer=int(header["dealer"]),
            prevalent_wind=int(header["prevalent_wind"]),
            stake=int(header.get("stake", 1)),
            wall=[tile_from_name(name) for name in wall.split()] if isinstance(wall, str) else None,
            every_seat_answers=bool(header.get("every_seat_answers", True)),
            dealer_count=int(header.get("dealer_count", 1)),
            thrown=[int(n) for n in header.get("thrown", (0, 0, 0, 0))],
            layout=_layout(header),
            dice=_dice(header),
        )
    except (KeyError, TypeError, ValueError) as error:
        if isinstance(error, MajiangError):
            raise
        raise RecordError(f"bad record header: {error!r}") from None


def _layout(header: dict[str, Any]) -> str:
    """The header's wall layout: ``wall_layout``, or ``"single_end": true`` (older records);
    neither: two ends."""
    value = header.get("single_end", False)
    if not isinstance(value, bool):
        raise RecordError(f"bad record header: single_end must be true or false, not {value!r}")
    layout = header.get("wall_layout", "single_end" if value else "two_ended")
    if layout not in LAYOUTS or (value and layout != "single_end"):
        raise RecordError(f"bad record header: wall_layout {layout!r}")
    return str(layout)


def _dice(header: dict[str, Any]) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """The header's dice of an explicit wall, ``[[a, b], [c, d]]``, or None."""
    dice = header.get("dice")
    if dice is None:
        return None
    try:
        (a, b), (c, d) = dice
        return (int(a), int(b)), (int(c), int(d))
    except (TypeError, ValueError):
        raise RecordError(f"bad record header: dice are [[a, b], [c, d]], not {dice!r}") from None


def replay(lines: list[dict[str, Any]], *, verify: bool = True) -> Table:
    """Rebuild a table from its record; with ``verify``, check every event and the result."""
    table = table_from_header(lines[0])
    result_line = None
    for number, line in enumerate(lines[1:], 2):
        if "result" in line:
            result_line = line["result"]
            break
        try:
            seat = int(line["seat"])
            action = action_from_json(line["action"])
        except (KeyError, TypeError, ValueError) as error:
            if isinstance(error, MajiangError):
                raise RecordError(f"line {number}: {error}") from None
            raise RecordError(f"line {number}: bad action line {line!r}") from None
        try:
            events = table.apply(seat, action)
        except MajiangError as error:
            raise RecordError(f"line {number}: {error}") from None
        if verify and "events" in line and events != line["events"]:
            raise RecordError(f"line {number}: the replay's events differ from the record's")
    if (
        verify
        and result_line is not None
        and (table.result is None or table.result.to_json() != result_line)
    ):
        raise RecordError("the replay's result differs from the record's")
    return table
