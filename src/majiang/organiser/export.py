"""A score sheet as CSV (one row per entry, for spreadsheets) and as JSON (everything, to keep)."""

from __future__ import annotations

import csv
import io
from typing import Any

from ..tiles import WIND_LETTERS
from .entries import Entry
from .sheet import Line, SheetState
from .summary import summaries

FORMAT = 1


def _fans(line: Line) -> str:
    fans = line.detail.get("fans") or []
    return "; ".join(
        f"{f['name']} {f['points']}" + (f" x{f['count']}" if f.get("count", 1) > 1 else "")
        for f in fans
    )


def sheet_csv(state: SheetState) -> str:
    """One row per entry: the hand, who won how, the count, each seat's payment and total."""
    names = state.settings.names
    bullets = any(any(x.bullets) for x in state.lines)
    head = ["entry", "hand", "prevalent", "dealer", "result", "winner", "discarder", "points",
            "flowers", "counted_by", "tiles", "fans", "note"]
    head += [f"{n} +/-" for n in names] + [f"{n} total" for n in names]
    if bullets:
        head += [f"{n} bullets" for n in names]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(head)
    for line in state.lines:
        entry = line.entry
        row: list[Any] = [
            line.index + 1,
            line.hand.number,
            WIND_LETTERS[line.hand.prevalent_wind],
            names[line.hand.dealer],
            line.kind,
            names[line.winner] if line.winner is not None else "",
            names[line.discarder] if line.discarder is not None else
            ("self-drawn" if line.self_drawn else ""),
            line.points if line.kind == "win" else "",
            entry.flowers or "",
            entry.counted_by if entry.kind == "win" else "",
            entry.tiles or "",
            _fans(line),
            entry.note,
        ]
        row += list(line.deltas) + list(line.totals)
        if bullets:
            row += list(line.bullet_totals)
        writer.writerow(row)
    return out.getvalue()


def sheet_json(state: SheetState, entries: list[Entry], code: str | None = None) -> dict[str, Any]:
    """The whole sheet: settings, entries as entered, every settled line, totals, summaries."""
    return {
        "format": FORMAT,
        **({"code": code} if code else {}),
        "settings": state.settings.to_json(),
        "entries": [e.to_json() for e in entries],
        "lines": [line.to_json() for line in state.lines],
        "totals": list(state.totals),
        "bullets": list(state.bullets),
        "finished": state.finished,
        "summaries": [s.to_json() for s in summaries(state)],
    }


__all__ = ["sheet_csv", "sheet_json"]
