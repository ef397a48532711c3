"""Running a Botzone program: one turn at a time, within a time limit, as Botzone runs it.

A turn starts the program and writes the whole history (JSON or simple input). A program that
prints ``>>>BOTZONE_REQUEST_KEEP_RUNNING<<<`` after its output is kept alive and later turns
write it only the new request line (Botzone's long-running mode); one that exits is started
again, with the whole history, at its next turn. The clock runs from writing the input to the
end of the output (the marker, or the program's exit). Too late is a timeout, an exit status
other than 0 or no output a crash, output that is not in the turn format garbage: Botzone's
TLE, RE and WA verdicts.
"""

from __future__ import annotations

import contextlib
import os
import queue
import signal
import subprocess
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import IO, Any

from .codec import (
    KEEP_RUNNING,
    TurnInput,
    TurnOutput,
    json_input,
    parse_json_output,
    parse_simple_output,
    simple_input,
)
from .tiles import BotzoneError

IO_MODES = ("json", "simple")


@dataclass(frozen=True, slots=True)
class Reply:
    """One turn of a program: its output, or the fault (``timeout``, ``crash``, ``garbage``)."""

    output: TurnOutput | None
    fault: str | None = None
    detail: str = ""
    seconds: float = 0.0


class BotProcess:
    """A Botzone program run turn by turn (see the module docstring)."""

    def __init__(
        self,
        command: Sequence[str],
        *,
        io: str = "json",
        keep_running: bool = False,
        cwd: str | None = None,
        env: dict[str, str] | None = None,
    ) -> None:
        if io not in IO_MODES:
            raise BotzoneError(f"Botzone I/O is json or simple, not {io!r}")
        if not command:
            raise BotzoneError("a Botzone program needs a command")
        self.command = list(command)
        self.io = io
        self.keep_running = keep_running
        """Keep the program's input open after a turn, so that it may keep running (a program
        run once per turn is given an input that ends, for programs that read to its end)."""
        self.cwd, self.env = cwd, env
        self._proc: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._stderr: deque[str] = deque(maxlen=20)

    @property
    def running(self) -> bool:
        """Whether a program kept running from an earlier turn is waiting for input."""
        return self._proc is not None and self._proc.poll() is None

    def turn(self, history: TurnInput, time_limit: float) -> Reply:
        """Play one turn: ``history`` holds every request so far (the last is this turn's)."""
        start = time.monotonic()
        if self.running:
            text = history.requests[-1] + "\n"
        else:
            self.close()
            self._start()
            if self.io == "json":
                text = json_input(history, time_limit) + "\n"
            else:
                text = simple_input(history)
        assert self._proc is not None and self._proc.stdin is not None
        stdin, close = self._proc.stdin, not self.keep_running
        threading.Thread(target=_feed, args=(stdin, text, close), daemon=True).start()
        lines, ended = self._read(start + time_limit)
        seconds = time.monotonic() - start
        if ended is None:
            self.close()
            return Reply(None, "timeout", f"no answer within {time_limit:g} s", seconds)
        if ended:
            status = self._finish()
            if status != 0:
                return Reply(None, "crash", self._why(f"exit status {status}"), seconds)
        if not lines:
            return Reply(None, "crash", self._why("no output"), seconds)
        try:
            parse = parse_json_output if self.io == "json" else parse_simple_output
            return Reply(parse(lines), seconds=seconds)
        except BotzoneError as error:
            return Reply(None, "garbage", str(error), seconds)

    def _start(self) -> None:
        try:
            self._proc = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                encoding="utf-8",
                errors="replace",
                bufsize=1,
                cwd=self.cwd,
                env=self.env,
                start_new_session=True,
            )
        except OSError as error:
            raise BotzoneError(
                f"cannot run Botzone program {self.command[0]!r}: {error.strerror or error}"
            ) from None
        self._lines = queue.Queue()
        self._stderr = deque(maxlen=20)
        proc, lines, errors = self._proc, self._lines, self._stderr
        threading.Thread(target=_pump, args=(proc.stdout, lines.put, True), daemon=True).start()
        threading.Thread(target=_pump, args=(proc.stderr, errors.append), daemon=True).start()

    def _read(self, deadline: float) -> tuple[list[str], bool | None]:
        """Output lines up to the keep-running marker (False) or the program's exit (True);
        None for the ending when the deadline passed first."""
        lines: list[str] = []
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return lines, None
            try:
                line = self._lines.get(timeout=left)
            except queue.Empty:
                return lines, None
            if line is None:
                return lines, True
            line = line.rstrip("\r\n")
            if line == KEEP_RUNNING and self.keep_running:
                return lines, False
            if line != KEEP_RUNNING:
                lines.append(line)

    def _finish(self) -> int:
        assert self._proc is not None
        try:
            status = self._proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            status = -1
        self.close()
        return status

    def _why(self, what: str) -> str:
        tail = " | ".join(line.strip() for line in self._stderr if line.strip())[-300:]
        return f"{what}{': ' + tail if tail else ''}"

    def close(self) -> None:
        """Stop the program (and its process group) if it runs."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        if proc.poll() is None:
            with contextlib.suppress(OSError):
                os.killpg(proc.pid, signal.SIGKILL)
            with contextlib.suppress(OSError):
                proc.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=5)
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self.close()


def _feed(stdin: IO[str], text: str, close: bool) -> None:
    """Write a turn's input (in a thread: a program that does not read cannot block the
    clock), closing the input after it when the program is not to keep running."""
    with contextlib.suppress(OSError, ValueError):  # it died already: its exit shows
        stdin.write(text)
        stdin.flush()
        if close:
            stdin.close()


def _pump(stream: IO[str] | None, put: Callable[[Any], None], end: bool = False) -> None:
    """Copy a stream's lines to ``put`` until it closes (then ``None`` if ``end``)."""
    if stream is not None:
        with contextlib.suppress(OSError, ValueError):
            for line in stream:
                put(line)
    if end:
        put(None)


__all__ = ["IO_MODES", "BotProcess", "Reply"]
