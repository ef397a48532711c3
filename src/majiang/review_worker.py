"""The child process in which the game server computes one review (:mod:`majiang.review`):
``python -m majiang.review_worker``, light to start (it imports no server module).

It reads one job, a JSON object (``records``, ``seat``, ``think``, ``samples``, ``seed``), on
its standard input and writes JSON lines on its standard output: ``{"progress": [done,
total]}`` after each decision, then ``{"result": ...}`` (the review, as ``majiang review
--json`` prints it) or ``{"error": "..."}``. It runs at a lower priority than the server and
with a bounded address space, so that a review never takes a table's CPU or the machine's
memory; the server kills it past the review's time budget.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from typing import Any

from .errors import MajiangError
from .review import review_records

NICENESS = 10
"""How much lower than the server's the review's CPU priority is."""
MEMORY_BYTES = 1 << 30
"""The review's address space at most (the search itself stays under 64 MB)."""


def _limit() -> None:
    with contextlib.suppress(OSError, AttributeError):
        os.nice(NICENESS)
    with contextlib.suppress(ImportError, OSError, ValueError):
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))


def _say(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message, ensure_ascii=False) + "\n")
    sys.stdout.flush()


def main() -> int:
    """Run the job read on standard input; 0 when the review was written, 1 otherwise."""
    _limit()
    try:
        job = json.loads(sys.stdin.read())
        review = review_records(
            job["records"], int(job["seat"]), think=job["think"], samples=int(job["samples"]),
            seed=int(job["seed"]), progress=lambda done, total: _say({"progress": [done, total]}),
        )
    except MajiangError as error:
        _say({"error": str(error)})
        return 1
    except MemoryError:
        _say({"error": f"the review needed more than {MEMORY_BYTES >> 20} MB"})
        return 1
    _say({"result": review.to_json()})
    return 0


if __name__ == "__main__":
    sys.exit(main())
