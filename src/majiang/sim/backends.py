"""Where the work runs: one interface over local processes and a Ray cluster.

A :class:`Backend` maps a picklable function over a list of work items (chunks of games or
deals) and yields ``(index, result)`` pairs as they complete, so that a caller can draw progress
and write results as they come; :func:`run_ordered` puts them back in input order, so that every
reduce (merging tallies, writing result lines) happens in the same order on every backend.

Ray is imported only when the ``ray`` backend is built: the command line starts without it.
"""

from __future__ import annotations

import logging
import multiprocessing
import socket
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from types import TracebackType
from typing import Any, TypeVar

from ..errors import MajiangError, OptionError
from ..extras import require_extra

T = TypeVar("T")
R = TypeVar("R")

BACKENDS = ("local", "ray")
"""The backends :func:`make_backend` builds."""


class BackendError(MajiangError):
    """A backend that cannot run: Ray missing, or no cluster at the address given."""


class Backend(ABC):
    """Runs a function over work items; ``jobs`` is how many run at once (for chunk sizes)."""

    name: str = ""
    jobs: int = 1

    @abstractmethod
    def map_unordered(self, fn: Callable[[T], R], items: Sequence[T]) -> Iterator[tuple[int, R]]:
        """``(i, fn(items[i]))`` for every item, in the order they complete."""

    def close(self) -> None:  # noqa: B027 - most backends hold nothing
        """Release what the backend holds (processes, a Ray connection)."""

    def __enter__(self) -> Backend:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


def _call_indexed(job: tuple[Callable[[Any], Any], int, Any]) -> tuple[int, Any]:
    fn, index, item = job
    return index, fn(item)


class LocalBackend(Backend):
    """``jobs`` local processes (``multiprocessing``, fork where available); 1: this process."""

    name = "local"

    def __init__(self, jobs: int = 1) -> None:
        if jobs < 1:
            raise OptionError(f"--jobs must be at least 1, not {jobs}")
        self.jobs = jobs

    def map_unordered(self, fn: Callable[[T], R], items: Sequence[T]) -> Iterator[tuple[int, R]]:
        """In this process one by one, or in a pool of ``min(jobs, len(items))`` processes."""
        workers = min(self.jobs, len(items))
        if workers <= 1:
            for index, item in enumerate(items):
                yield index, fn(item)
            return
        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("fork" if "fork" in methods else None)
        work = [(fn, index, item) for index, item in enumerate(items)]
        pool = context.Pool(workers)
        try:
            yield from pool.imap_unordered(_call_indexed, work)
            pool.close()  # let the workers end by themselves (no SIGTERM when all went well)
        except BaseException:
            pool.terminate()
            raise
        finally:
            pool.join()


def _apply(fn: Callable[[Any], Any], item: Any) -> Any:
    return fn(item)


def _reachable(address: str, timeout: float = 5.0) -> bool:
    """Whether a ``host:port`` address answers a TCP connection (Ray itself would retry an
    unreachable address for minutes, printing warnings); other forms are left to Ray."""
    host, sep, port = address.rpartition(":")
    if not sep or not host or "/" in address or not port.isdigit():
        return True
    try:
        with socket.create_connection((host, int(port)), timeout=timeout):
            return True
    except OSError:
        return False


def _import_ray() -> Any:
    require_extra("ray", "the ray backend")
    import ray

    return ray


class RayBackend(Backend):
    """Tasks on a Ray cluster: ``address`` (e.g. ``"auto"``) joins a running one; without an
    address a local Ray instance with ``jobs`` CPUs is started (and stopped by :meth:`close`).
    An instance this process already started (``ray.is_initialized()``) is used as it is.

    The workers import ``majiang`` themselves: on a cluster it must be installed on every node.
    """

    name = "ray"

    def __init__(self, jobs: int = 1, address: str | None = None) -> None:
        if jobs < 1:
            raise OptionError(f"--jobs must be at least 1, not {jobs}")
        ray = self._ray = _import_ray()
        self._owned = False
        if not ray.is_initialized():
            if address is not None and not _reachable(address):
                raise BackendError(f"cannot reach a Ray cluster at {address!r}")
            try:
                if address is None:
                    ray.init(num_cpus=jobs, include_dashboard=False,
                             logging_level=logging.ERROR)
                else:
                    ray.init(address=address, logging_level=logging.ERROR)
            except (ConnectionError, RuntimeError, ValueError) as error:
                where = f"at {address!r}" if address is not None else "locally"
                first = str(error).strip().splitlines()[0] if str(error).strip() else ""
                raise BackendError(f"cannot start Ray {where}: {first}".rstrip(": ")) from None
            self._owned = True
        cpus = int(ray.cluster_resources().get("CPU", jobs))
        self.jobs = max(1, cpus)
        self._remote = ray.remote(_apply)

    def map_unordered(self, fn: Callable[[T], R], items: Sequence[T]) -> Iterator[tuple[int, R]]:
        """Submit the items as tasks (at most ``4 × jobs`` in flight) and yield as they end."""
        ray = self._ray
        limit = max(8, 4 * self.jobs)
        pending: dict[Any, int] = {}
        following = iter(enumerate(items))
        try:
            while True:
                while len(pending) < limit:
                    step = next(following, None)
                    if step is None:
                        break
                    index, item = step
                    pending[self._remote.remote(fn, item)] = index
                if not pending:
                    return
                ready, _ = ray.wait(list(pending), num_returns=1)
                for ref in ready:
                    index = pending.pop(ref)
                    try:
                        result = ray.get(ref)
                    except ray.exceptions.RayTaskError as error:
                        cause = getattr(error, "cause", None)
                        if isinstance(cause, Exception):
                            raise cause from None
                        raise
                    yield index, result
        finally:
            for ref in pending:
                ray.cancel(ref)

    def close(self) -> None:
        """Disconnect (and stop the local instance) if this backend started Ray."""
        if self._owned:
            self._ray.shutdown()
            self._owned = False


def make_backend(name: str = "local", jobs: int = 1, address: str | None = None) -> Backend:
    """The backend called ``name`` (``local`` or ``ray``); ``address`` is Ray's only."""
    if name == "local":
        if address is not None:
            raise OptionError("--address needs --backend ray")
        return LocalBackend(jobs)
    if name == "ray":
        return RayBackend(jobs, address)
    raise OptionError(f"unknown backend {name!r}; known: {', '.join(BACKENDS)}")


def run_ordered(
    backend: Backend,
    fn: Callable[[T], R],
    items: Sequence[T],
    done: Callable[[int, R], None] | None = None,
) -> Iterator[R]:
    """``fn`` over ``items`` on ``backend``: the results yielded in input order as soon as
    every earlier one is in, and ``done(i, result)`` called as each completes (for progress;
    after the results it made ready have been handed over)."""
    waiting: dict[int, R] = {}
    following = 0
    for index, result in backend.map_unordered(fn, items):
        waiting[index] = result
        while following in waiting:
            yield waiting.pop(following)
            following += 1
        if done is not None:
            done(index, result)


__all__ = [
    "BACKENDS",
    "Backend",
    "BackendError",
    "LocalBackend",
    "RayBackend",
    "make_backend",
    "run_ordered",
]
