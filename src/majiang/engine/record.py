"""The record of a hand: JSON lines with a format version; a replay is a fold over it.

Line 1 is the header (rules, options, seed or explicit wall, dealer, prevalent wind, stake, and
where they are not the defaults the dealer count, the thrown bullets in force and the
single-ended wall).
Then one line per accepted action: the seat, the action and the events it caused, and the result.
Replaying rebuilds the table from the header, applies every action, and checks that the events
and the result come out the same.

A record saved to a file is sealed: its header says how many lines the file has (``"lines"``)
and its last line is the SHA-256 of the lines before it (``{"sha256": ...}``), so that a record
cut short or altered is refused. Records of format 1 (before the seal) are still read, unsealed.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from ..errors import MajiangError, not_utf8
from ..rules.registry import make_rules, rules_options
from ..tiles import tile_from_name, tile_name
from .actions import Action, action_from_json, action_to_json
from .table import Table
from .wall import LAYOUTS

FORMAT = 2
"""Format 2 files are sealed (line count and checksum); format 1 files are not."""
FORMATS = (1, 2)


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
    """Write a table's record as sealed JSON lines (line count in the header, checksum last)."""
    write_record(record_of(table), path)


def write_record(lines: list[dict[str, Any]], path: str | Path) -> None:
    """Write record lines (header first) as a sealed file: line count in the header, checksum
    last."""
    header = {**lines[0], "lines": len(lines) + 1}
    texts = [json.dumps(line, ensure_ascii=False) for line in [header, *lines[1:]]]
    texts.append(json.dumps({"sha256": _checksum(texts)}))
    with open(path, "w", encoding="utf-8") as out:
        out.write("".join(text + "\n" for text in texts))


def _checksum(texts: list[str]) -> str:
    """The SHA-256 of lines (each ended by a newline), as hexadecimal."""
    return hashlib.sha256("".join(text + "\n" for text in texts).encode()).hexdigest()


@dataclass(frozen=True)
class LoadedRecord:
    """A record read from a file: its lines (header first, without the seal) and whether it was
    sealed (format 2) or an older record that cannot be checked for cuts and changes."""

    lines: list[dict[str, Any]]
    sealed: bool


def read_record(path: str | Path) -> LoadedRecord:
    """Read a JSON-lines record; raise :class:`RecordError` naming the bad line, or saying that
    a sealed record is cut short or altered."""
    try:
        data = Path(path).read_bytes()
    except IsADirectoryError:
        raise RecordError(f"{path} is a directory, not a record") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise not_utf8(str(path), error) from None
    texts = [line.rstrip("\r") for line in text.split("\n")]
    numbered = [(n, t) for n, t in enumerate(texts, 1) if t.strip()]
    lines = [_decode(path, number, line) for number, line in numbered]
    if not lines:
        raise RecordError(f"{path}: empty record")
    header = lines[0]
    fmt = header.get("format")
    if fmt not in FORMATS:
        raise RecordError(f"{path}: unsupported record format {fmt!r} (expected 1 or 2)")
    if fmt == 1:
        return LoadedRecord(lines, sealed=False)
    expected = header.get("lines")
    if not isinstance(expected, int) or isinstance(expected, bool) or expected < 2:
        raise RecordError(f"{path}: the header has no line count: the record was altered")
    if len(lines) < expected:
        raise RecordError(
            f"{path}: the record is cut short: {len(lines)} of its {expected} lines are there"
        )
    if len(lines) > expected:
        raise RecordError(
            f"{path}: the record has {len(lines)} lines, its header says {expected}: "
            "it was altered"
        )
    seal = lines[-1].get("sha256")
    if set(lines[-1]) != {"sha256"} or _checksum([t for _, t in numbered[:-1]]) != seal:
        raise RecordError(f"{path}: the record's checksum does not match: it was altered")
    body = [{k: v for k, v in header.items() if k != "lines"}, *lines[1:-1]]
    return LoadedRecord(body, sealed=True)


def _decode(path: str | Path, number: int, text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except (ValueError, RecursionError) as error:
        reason = error if isinstance(error, ValueError) else "nested too deeply"
        raise RecordError(f"{path}: line {number} is not JSON: {reason}") from None
    if not isinstance(value, dict):
        raise RecordError(f"{path}: line {number} is not a JSON object")
    return value


def load_record(path: str | Path) -> list[dict[str, Any]]:
    """The lines of the record at ``path`` (see :func:`read_record`)."""
    return read_record(path).lines


def table_from_header(header: dict[str, Any]) -> Table:
    """A fresh table as the header describes it."""
    if header.get("format") not in FORMATS:
        raise RecordError(f"unsupported record format {header.get('format')!r} (expected 1 or 2)")
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


class RecordedStep(NamedTuple):
    """One step of a replay: the deal (``seat`` and ``action`` None) or one action line."""

    number: int
    """The record's line number (the header is line 1, the deal's step); with a table given
    to :func:`replay_iter`, the action's position from 1."""
    seat: int | None
    action: Action | None
    recorded: dict[str, Any] | None
    """The action as recorded (JSON)."""
    events: list[dict[str, Any]]
    """The events it caused (the deal's events for the deal)."""


def replay_iter(
    lines: Iterable[dict[str, Any]], *, verify: bool = True, table: Table | None = None
) -> Iterator[tuple[Table, RecordedStep]]:
    """A record folded over its table: ``(table, step)`` for the deal, then after each action
    line (the table then stands just after that action). Without ``table`` the first line is
    the header; with one, every line is an action line applied to it. A result line ends the
    replay. With ``verify``, each action line's events and, once the lines are all read, the
    result are checked against the record. A line that does not replay raises RecordError."""
    rows = iter(lines)
    first = 1
    if table is None:
        table = table_from_header(next(rows, {}))
        first = 2
    yield table, RecordedStep(first - 1, None, None, None, list(table.events))
    result_line = None
    for number, line in enumerate(rows, first):
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
        yield table, RecordedStep(number, seat, action, line["action"], events)
    if (
        verify
        and result_line is not None
        and (table.result is None or table.result.to_json() != result_line)
    ):
        raise RecordError("the replay's result differs from the record's")


def replay(lines: list[dict[str, Any]], *, verify: bool = True) -> Table:
    """Rebuild a table from its record; with ``verify``, check every event and the result."""
    steps = replay_iter(lines, verify=verify)
    table, _ = next(steps)  # the deal
    for _ in steps:
        pass
    return table
