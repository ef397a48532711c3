"""Reviews of finished hands computed in the background, one at a time, and cached.

A review (:func:`majiang.review.review_records`) is seconds to minutes of CPU: each runs in
its own child process (:mod:`majiang.review_worker`), at a lower priority, killed past the
server's time budget, so that no table waits for it. :class:`ReviewQueue` runs them one after
another from a bounded queue (a client address may have only so many waiting) and keeps every
finished one in the ``hand_reviews`` table, where asking again finds it.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections import OrderedDict, deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from .models import HandReview
from .store import Store

log = logging.getLogger(__name__)

_PACKAGE_ROOT = str(Path(__file__).resolve().parent.parent.parent)
"""The directory holding the ``majiang`` package the server runs (for the child process)."""
FAILURES_KEPT = 256
"""Failed reviews remembered (to report why) at most; the oldest are forgotten first."""


@dataclass(frozen=True, slots=True)
class ReviewSettings:
    """How much work a server gives reviews."""

    think: float | None = 0.5
    """Seconds per decision (None: no time limit; each decision still gets a few deals)."""
    samples: int = 24
    """Sampled deals per decision at most."""
    seed: int = 0
    budget_seconds: float = 900.0
    """A review still running after this long is stopped and reported as failed."""
    waiting: int = 8
    """Reviews waiting for their turn at most, in all (beyond: 503)."""
    per_address: int = 2
    """Reviews waiting or running for one client address at most (beyond: 429)."""


class QueueFull(Exception):
    """The server has as many reviews waiting as it takes."""


class TooManyReviews(Exception):
    """This address has as many reviews waiting or running as it may."""


Key = tuple[int, int]
"""(hand id, seat)."""


@dataclass(slots=True)
class Job:
    """A review asked for and not yet stored: waiting, running, or failed."""

    hand_id: int
    seat: int
    address: str
    records: list[list[dict[str, Any]]] = field(repr=False)
    status: str = "queued"
    reviewed: int = 0
    decisions: int | None = None
    error: str | None = None

    @property
    def key(self) -> Key:
        return (self.hand_id, self.seat)


def status(hand_id: int, seat: int, state: str, *, reviewed: int = 0,
           decisions: int | None = None, ahead: int | None = None,
           result: dict[str, Any] | None = None, error: str | None = None) -> dict[str, Any]:
    """The answer of the review endpoints: where a review stands, and its result once done."""
    if state == "done":
        progress = 1.0
    elif decisions:
        progress = round(reviewed / decisions, 4)
    else:
        progress = 0.0
    return {"hand": hand_id, "seat": seat, "status": state, "progress": progress,
            "reviewed": reviewed, "decisions": decisions, "ahead": ahead, "result": result,
            "error": error}


def cached(store: Store, hand_id: int, seat: int) -> dict[str, Any] | None:
    """The stored review of ``seat`` in the hand, or None."""
    with store.session() as session:
        row = session.scalars(select(HandReview).where(
            HandReview.hand_id == hand_id, HandReview.seat == seat)).one_or_none()
        return None if row is None else dict(row.result)


def done_status(hand_id: int, seat: int, result: dict[str, Any]) -> dict[str, Any]:
    """The status of a stored review."""
    decisions = result["summary"]["decisions"]
    return status(hand_id, seat, "done", reviewed=decisions, decisions=decisions, result=result)


class ReviewQueue:
    """The reviews of one server: a queue worked through by one thread, one child process at a
    time."""

    def __init__(self, store: Store, settings: ReviewSettings = ReviewSettings()) -> None:
        self.store = store
        self.settings = settings
        self._lock = threading.Condition()
        self._waiting: deque[Job] = deque()
        self._running: Job | None = None
        self._failed: OrderedDict[Key, Job] = OrderedDict()
        self._process: subprocess.Popen[str] | None = None
        self._closed = False
        self._thread = threading.Thread(target=self._work, name="majiang-reviews", daemon=True)
        self._thread.start()

    # ------------------------------------------------------------------ asking

    def find(self, hand_id: int, seat: int) -> dict[str, Any] | None:
        """The status of a review waiting, running or failed, or None."""
        key = (hand_id, seat)
        with self._lock:
            found = self._pending(key)
            failed = self._failed.get(key)
            if found is None and failed is not None:
                found = self._status(failed, None)
            return found

    def _pending(self, key: Key) -> dict[str, Any] | None:
        """The status of the review waiting or running for ``key`` (under the lock), or None."""
        if self._running is not None and self._running.key == key:
            return self._status(self._running, 0)
        for ahead, job in enumerate(self._waiting, 1 if self._running else 0):
            if job.key == key:
                return self._status(job, ahead)
        return None

    def submit(self, hand_id: int, seat: int, records: list[list[dict[str, Any]]],
               address: str) -> dict[str, Any]:
        """Queue the review (unless it is already waiting or running) and return its status.

        Raises :class:`TooManyReviews` or :class:`QueueFull` when the limits say no."""
        key = (hand_id, seat)
        with self._lock:
            found = self._pending(key)
            if found is not None:
                return found
            mine = sum(1 for j in self._jobs() if j.address == address)
            if mine >= self.settings.per_address:
                raise TooManyReviews(mine)
            if len(self._waiting) >= self.settings.waiting:
                raise QueueFull(len(self._waiting))
            self._failed.pop(key, None)  # asked again: tried again
            job = Job(hand_id, seat, address, records)
            self._waiting.append(job)
            ahead = len(self._waiting) - (0 if self._running else 1)
            self._lock.notify_all()
            return self._status(job, ahead)

    def _jobs(self) -> list[Job]:
        return [*([self._running] if self._running else []), *self._waiting]

    @staticmethod
    def _status(job: Job, ahead: int | None) -> dict[str, Any]:
        return status(job.hand_id, job.seat, job.status, reviewed=job.reviewed,
                      decisions=job.decisions, ahead=ahead, error=job.error)

    def close(self) -> None:
        """Stop: the running review's process is killed, the waiting ones dropped."""
        with self._lock:
            self._closed = True
            self._waiting.clear()
            process = self._process
            self._lock.notify_all()
        if process is not None:
            with contextlib.suppress(OSError):
                process.kill()
        self._thread.join(10)

    # ------------------------------------------------------------------ working

    def _work(self) -> None:
        while True:
            with self._lock:
                while not self._waiting and not self._closed:
                    self._lock.wait()
                if self._closed:
                    return
                job = self._running = self._waiting.popleft()
                job.status = "running"
            started = time.monotonic()
            try:
                result, error = self._review(job)
            except Exception as failure:  # never let one review stop the others
                log.exception("review of hand %s seat %s failed", job.hand_id, job.seat)
                result, error = None, f"the review failed: {type(failure).__name__}"
            seconds = time.monotonic() - started
            if result is not None:
                self._keep(job, result, seconds)
            with self._lock:
                self._running = None
                if result is None and not self._closed:
                    job.status, job.error = "failed", error
                    job.records = []
                    self._failed[job.key] = job
                    while len(self._failed) > FAILURES_KEPT:
                        self._failed.popitem(last=False)

    def _keep(self, job: Job, result: dict[str, Any], seconds: float) -> None:
        """Store a finished review (a copy already stored is kept)."""
        try:
            with self.store.session() as session:
                session.add(HandReview(hand_id=job.hand_id, seat=job.seat, result=result,
                                       seconds=seconds))
        except IntegrityError:
            pass
        except Exception:  # the server is closing, or its database failed: logged, not fatal
            log.exception("could not store the review of hand %s seat %s", job.hand_id, job.seat)

    def _review(self, job: Job) -> tuple[dict[str, Any] | None, str | None]:
        """Run one review in a child process: (its result, None) or (None, why it failed)."""
        settings = self.settings
        request = json.dumps({"records": job.records, "seat": job.seat, "think": settings.think,
                              "samples": settings.samples, "seed": settings.seed})
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(
            p for p in (_PACKAGE_ROOT, env.get("PYTHONPATH")) if p)
        with tempfile.TemporaryFile("w+", encoding="utf-8") as stderr:
            with self._lock:
                if self._closed:
                    return None, "the server is stopping"
                process = self._process = subprocess.Popen(
                    [sys.executable, "-m", "majiang.review_worker"],
                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr,
                    text=True, encoding="utf-8", env=env,
                )
            over_budget = threading.Event()

            def stop() -> None:
                over_budget.set()
                with contextlib.suppress(OSError):
                    process.kill()

            timer = threading.Timer(settings.budget_seconds, stop)
            timer.daemon = True
            timer.start()
            result: dict[str, Any] | None = None
            error: str | None = None
            try:
                assert process.stdin is not None and process.stdout is not None
                with contextlib.suppress(BrokenPipeError):
                    process.stdin.write(request)
                    process.stdin.close()
                for line in process.stdout:
                    try:
                        message = json.loads(line)
                    except ValueError:  # not one of the worker's lines: the log shows it
                        log.warning("review of hand %s seat %s printed %r", job.hand_id,
                                    job.seat, line[:200])
                        continue
                    if not isinstance(message, dict):
                        continue
                    if "progress" in message:
                        with self._lock:
                            job.reviewed, job.decisions = message["progress"]
                    elif "result" in message:
                        result = message["result"]
                    elif "error" in message:
                        error = str(message["error"])
                process.wait()
            finally:
                timer.cancel()
                if process.poll() is None:
                    process.kill()
                    process.wait()
                with self._lock:
                    self._process = None
            if result is not None:
                return result, None
            if error is not None:
                return None, error
            if over_budget.is_set():
                return None, (f"the review took longer than the server's budget of "
                              f"{settings.budget_seconds:g} s")
            if self._closed:
                return None, "the server is stopping"
            stderr.seek(0)
            tail = stderr.read()[-2000:]
            log.warning("review of hand %s seat %s: the process ended with %s: %s",
                        job.hand_id, job.seat, process.returncode, tail)
            return None, "the review failed (the server's log says why)"


__all__ = ["QueueFull", "ReviewQueue", "ReviewSettings", "TooManyReviews", "cached",
           "done_status", "status"]
