"""JSON-lines batches, shared by the sub-commands: one line out per line in, in order; a bad
line becomes ``{"error": ...}`` and the batch goes on."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any

from ..errors import MajiangError, SituationError, UsageError

Handler = Callable[[Any], dict[str, Any]]


def check_hand_or_batch(hand: str | None, batch: str | None, verb: str) -> None:
    """A command reads either its HAND argument or ``--batch FILE``: exactly one."""
    if batch is not None and hand is not None:
        raise UsageError("give either a HAND or --batch FILE, not both")
    if batch is None and hand is None:
        raise UsageError(f"give a HAND to {verb} (or --batch FILE)")


def echo_id(record: Any) -> dict[str, Any]:
    """The start of a record's answer: its ``id`` echoed back, if it has one."""
    if isinstance(record, dict) and "id" in record:
        return {"id": record["id"]}
    return {}


def record_answer(record: Any, answer: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """A batch record's answer: its ``id`` echoed, then the fields ``answer()`` gives, or
    ``{"error": ...}`` where it raises a :class:`~majiang.errors.MajiangError`."""
    out = echo_id(record)
    try:
        fields = answer()
    except MajiangError as error:
        out["error"] = str(error)
        return out
    out.update(fields)
    return out


def check_record(record: Any, fields: frozenset[str]) -> str:
    """Check a decoded record: an object with known fields and a string ``hand``; return it."""
    if not isinstance(record, dict):
        raise SituationError("each line must be a JSON object")
    unknown = set(record) - fields
    if unknown:
        raise SituationError(f"unknown field {sorted(unknown)[0]!r}")
    hand = record.get("hand")
    if not isinstance(hand, str):
        raise SituationError("field 'hand' (a string) is required")
    return hand


def _dumps(value: dict[str, Any]) -> str:
    return json.dumps(value, ensure_ascii=False)


def process_lines(
    lines: Iterable[str],
    handle: Handler,
    start: int = 1,
    encode: Callable[[dict[str, Any]], str] = _dumps,
) -> Iterator[str]:
    """One output line per input line (``start`` numbers the first line in messages)."""
    for number, line in enumerate(lines, start):
        try:
            record = json.loads(line)
        except ValueError as error:
            message = f"line {number} is not JSON: {error}" if line.strip() else "empty line"
            yield _dumps({"error": message})
            continue
        except RecursionError:
            yield _dumps({"error": f"line {number} is not JSON: nested too deeply"})
            continue
        yield encode(handle(record))


def write_lines(outputs: Iterable[str], sink: IO[str], block: int = 1000) -> None:
    """Write output lines in blocks, then flush."""
    pending: list[str] = []
    for out in outputs:
        pending.append(out)
        if len(pending) >= block:
            sink.write("\n".join(pending) + "\n")
            pending.clear()
    if pending:
        sink.write("\n".join(pending) + "\n")
    sink.flush()
