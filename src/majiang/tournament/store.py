"""The tournament's directory: ``hands.jsonl`` written as deals finish, ``results.json`` at the
end, and the resume that reads what an earlier run left.

``hands.jsonl`` begins with a header line ``{"format": 1, "tournament": {...}}`` (rules,
resolved options, seed, bots, permutations) and then holds one line per played hand. A rerun
with the same settings keeps every deal whose hands are all there, ignores a truncated last
line (a crash in the middle of a write) and a deal with hands missing, rewrites the file without
them if needed, and plays only the rest.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, TextIO

from ..errors import MajiangError, OptionError, not_utf8

FORMAT = 1
HANDS = "hands.jsonl"
RESULTS = "results.json"
PLOT = "ratings.png"


class StoreError(MajiangError):
    """A tournament directory that cannot be resumed (other settings, a corrupt line)."""


def _is_record(record: Any) -> bool:
    return (
        isinstance(record, dict)
        and isinstance(record.get("deal"), int)
        and isinstance(record.get("order"), int)
        and isinstance(record.get("points"), list)
        and len(record["points"]) == 4
    )


class HandStore:
    """``DIR/hands.jsonl`` of one tournament: :meth:`load` what is there, :meth:`append` more."""

    def __init__(self, directory: str | Path, header: dict[str, Any]) -> None:
        self.directory = Path(directory)
        self.header: dict[str, Any] = {"format": FORMAT, "tournament": header}
        self.path = self.directory / HANDS
        self._file: TextIO | None = None

    def load(self, orders: int) -> dict[int, list[dict[str, Any]]]:
        """The complete deals already played (deal -> records in order); repairs the file."""
        if self.directory.exists() and not self.directory.is_dir():
            raise OptionError(f"--out {self.directory} is not a directory")
        self.directory.mkdir(parents=True, exist_ok=True)
        if not self.path.exists():
            self._rewrite([])
            return {}
        try:
            text = self.path.read_text(encoding="utf-8")
        except UnicodeDecodeError as error:
            raise not_utf8(str(self.path), error) from None
        lines = text.split("\n")
        complete = lines[:-1]  # the last piece has no newline: empty, or cut off by a crash
        if not complete:
            self._rewrite([])
            return {}
        self._check_header(complete[0])
        parsed: list[tuple[str, dict[str, Any]]] = []
        for number, line in enumerate(complete[1:], start=2):
            try:
                record = json.loads(line)
            except (ValueError, RecursionError):
                record = None
            if not _is_record(record):
                if number == len(complete):  # the last line, spoilt inside a write
                    break
                raise StoreError(f"{self.path}:{number}: not a hand record")
            parsed.append((line, record))
        by_deal: dict[int, dict[int, tuple[str, dict[str, Any]]]] = {}
        for line, record in parsed:
            by_deal.setdefault(record["deal"], {}).setdefault(record["order"], (line, record))
        done = {deal: hands for deal, hands in by_deal.items() if set(hands) == set(range(orders))}
        kept = [line for deal in sorted(done) for _, (line, _r) in sorted(done[deal].items())]
        if len(kept) != len(lines) - 2 or lines[-1]:
            self._rewrite(kept)
        return {deal: [done[deal][k][1] for k in range(orders)] for deal in sorted(done)}

    def _check_header(self, line: str) -> None:
        try:
            found = json.loads(line)
        except (ValueError, RecursionError):
            found = None
        if not isinstance(found, dict) or "tournament" not in found:
            raise StoreError(f"{self.path} is not a tournament's hands file")
        if found != self.header:
            theirs = found["tournament"] if isinstance(found["tournament"], dict) else {}
            ours: dict[str, Any] = self.header["tournament"]
            differ = sorted(k for k in set(theirs) | set(ours) if theirs.get(k) != ours.get(k))
            raise StoreError(
                f"{self.path} holds a tournament with other settings "
                f"({', '.join(differ) or 'format'}); use another --out"
            )

    def _rewrite(self, lines: list[str]) -> None:
        temporary = self.path.with_name(self.path.name + ".tmp")
        body = "".join(line + "\n" for line in [json.dumps(self.header), *lines])
        temporary.write_text(body, encoding="utf-8")
        os.replace(temporary, self.path)

    def append(self, records: list[dict[str, Any]]) -> None:
        """Add hand lines (one write, flushed: a crash cuts at most the last line)."""
        if self._file is None:
            self._file = open(self.path, "a", encoding="utf-8")  # noqa: SIM115 - kept open
        self._file.write("".join(json.dumps(r) + "\n" for r in records))
        self._file.flush()

    def close(self) -> None:
        """Close the hands file."""
        if self._file is not None:
            self._file.close()
            self._file = None

    def write_results(self, document: dict[str, Any]) -> Path:
        """Write ``results.json`` (atomically); its path."""
        path = self.directory / RESULTS
        temporary = path.with_name(RESULTS + ".tmp")
        temporary.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n",
                             encoding="utf-8")
        os.replace(temporary, path)
        return path


__all__ = ["FORMAT", "HANDS", "PLOT", "RESULTS", "HandStore", "StoreError"]
