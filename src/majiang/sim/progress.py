"""A small progress bar on a terminal stream (no dependency): done/total, rate and time left."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class ProgressBar:
    """``[#########.........]  450/1000 hands  152.3 hands/s  ETA 4s``, redrawn in place.

    Redraws at most ten times a second; :meth:`close` ends the line. Use as the ``progress``
    callback of :func:`majiang.sim.simulate` or :func:`majiang.tournament.run_tournament`. The
    first call's ``done`` is the baseline of the rate (work resumed from an earlier run is not
    counted as done in no time).
    """

    def __init__(self, stream: TextIO | None = None, unit: str = "hands", width: int = 30) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.unit = unit
        self.width = width
        self.start = time.perf_counter()
        self.last_draw = 0.0
        self.drawn = False
        self.baseline: int | None = None

    def __call__(self, done: int, total: int) -> None:
        now = time.perf_counter()
        if self.baseline is None:
            self.baseline = done
        if done < total and now - self.last_draw < 0.1:
            return
        self.last_draw = now
        elapsed = now - self.start
        rate = (done - self.baseline) / elapsed if elapsed > 0 else 0.0
        filled = self.width * done // total if total else self.width
        bar = "#" * filled + "." * (self.width - filled)
        eta = f"ETA {(total - done) / rate:.0f}s" if rate > 0 and done < total else ""
        if done >= total:
            eta = f"{elapsed:.1f}s"
        count = f"{done:>{len(str(total))}}/{total} {self.unit}"
        line = f"\r[{bar}] {count}  {rate:,.1f} {self.unit}/s  {eta}"
        self.stream.write(line.ljust(len(line) + 2))
        self.stream.flush()
        self.drawn = True

    def close(self) -> None:
        """End the bar's line (if anything was drawn)."""
        if self.drawn:
            self.stream.write("\n")
            self.stream.flush()
            self.drawn = False


__all__ = ["ProgressBar"]
