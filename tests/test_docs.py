"""Every example in README.md and docs/*.md runs and prints what the page shows.

Python examples: every ``>>>`` line of a page is a doctest (ELLIPSIS on: ``...`` in the
expected output matches anything).

Shell examples, the convention every page follows:

- In a fenced block (```` ``` ```` with no language, or ``console``, ``sh``, ``shell``,
  ``bash``), a line that starts with ``$ `` is a command; a command line ending in ``\\``
  goes on on the next line. The lines after it, up to the next ``$ `` line or the end of the
  block, are its expected output: standard output and standard error together, in the order
  printed. A block with no ``$`` line is not an example (a usage synopsis, a file's content).
- The commands of one page run in order, each in ``bash -c``, in one scratch directory for the
  page that holds the repository's ``docs``, ``tests``, ``examples`` and ``benchmarks``
  (so ``docs/examples/...`` is found and a file one example writes is there for the next);
  ``majiang`` and ``python`` are this checkout's, ``.venv/bin/`` names the same virtualenv, and
  ``$?`` is the previous command's exit status (``$ echo $?``).
- ``$ majiang serve ...`` starts the server in the background (on a free port, which replaces
  the page's port in every later command and output) and waits for its first line, which is
  compared; it is stopped at the end of the page. A room code the server answers with
  (``"code":"ZPJ4PR"``) replaces the page's code in later commands, as a reader would.
- Masked before comparing, in both texts: ``...`` in the page matches any text (several lines
  too); durations and speeds (``19.4 s``, ``220 ms``, ``20.6 hands/s``, ``3.06 deals/s``,
  ``"elapsed_s": 5.0``); a seat's or a room creator's token (``"token":"..."``,
  ``"creator_token":"..."``). Trailing spaces and blank lines at
  either end do not count. Add a mask to ``MASKS`` for any other part that varies from run to
  run, and say so here.
- A block that must not be run says so on the line just above its fence:
  ``<!-- not run: REASON -->`` (an interactive program, a server left running, a cluster, or
  minutes of work). Everything else is run: keep a page's examples to seconds.
"""

from __future__ import annotations

import doctest
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = ["README.md", *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").rglob("*.md"))]
SHELL_LANGUAGES = {"", "console", "sh", "shell", "bash"}
NOT_RUN = re.compile(r"<!--\s*not run:\s*(.+?)\s*-->")
TIMEOUT = 120

MASKS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"\b\d+(?:\.\d+)? ?(?:ms|s|hands/s|deals/s|games/s|actions/s)\b"), "<time>"),
    (re.compile(r'"(elapsed_s|deals_per_s|hands_per_s)": [0-9.]+'), r'"\1": <time>'),
    (re.compile(r'"(token|creator_token)": ?"[A-Za-z0-9_-]+"'), r'"\1":"<token>"'),
]
ROOM_CODE = re.compile(r'"code": ?"([A-Z0-9]{6})"')


@dataclass
class Example:
    page: str
    line: int
    command: str
    expected: str


@dataclass
class Block:
    line: int
    examples: list[Example]
    not_run: str | None


def shell_blocks(page: str) -> list[Block]:
    """The page's fenced shell blocks that hold ``$`` commands, with their examples."""
    lines = (ROOT / page).read_text(encoding="utf-8").splitlines()
    blocks: list[Block] = []
    i = 0
    while i < len(lines):
        fence = re.match(r"^(\s*)```(\w*)\s*$", lines[i])
        if not fence:
            i += 1
            continue
        indent, language = fence.groups()
        start = i
        i += 1
        body: list[str] = []
        while i < len(lines) and lines[i].strip() != "```":
            body.append(lines[i][len(indent):] if lines[i].startswith(indent) else lines[i])
            i += 1
        i += 1
        if language not in SHELL_LANGUAGES or not any(b.startswith("$ ") for b in body):
            continue
        marker = NOT_RUN.search(lines[start - 1]) if start else None
        blocks.append(Block(start + 1, _examples(page, start + 2, body),
                            marker.group(1) if marker else None))
    return blocks


def _examples(page: str, first_line: int, body: list[str]) -> list[Example]:
    examples: list[Example] = []
    j = 0
    while j < len(body):
        if not body[j].startswith("$ "):
            j += 1
            continue
        line = first_line + j
        command = body[j][2:]
        while command.endswith("\\") and j + 1 < len(body):
            j += 1
            command = command + "\n" + body[j]
        j += 1
        output: list[str] = []
        while j < len(body) and not body[j].startswith("$ "):
            output.append(body[j])
            j += 1
        examples.append(Example(page, line, command, "\n".join(output)))
    return examples


def normalise(text: str) -> str:
    text = "\n".join(line.rstrip() for line in text.strip("\n").splitlines()).strip("\n")
    for pattern, replacement in MASKS:
        text = pattern.sub(replacement, text)
    return text


def matches(expected: str, actual: str) -> bool:
    want, got = normalise(expected), normalise(actual)
    pattern = ".*?".join(re.escape(part) for part in want.split("..."))
    return re.fullmatch(pattern, got, flags=re.S) is not None


@dataclass
class Session:
    """One page's scratch directory, environment, server and substitutions."""

    directory: Path
    env: dict[str, str]
    status: int = 0
    substitutions: dict[str, str] = field(default_factory=dict)
    """page text -> this run's text (port, room codes), applied to later commands."""
    servers: list[subprocess.Popen[str]] = field(default_factory=list)

    def command(self, text: str) -> str:
        for page_text, actual in self.substitutions.items():
            text = text.replace(page_text, actual)
        return text.replace(".venv/bin/", str(Path(sys.executable).parent) + "/")

    def back_to_page(self, output: str) -> str:
        for page_text, actual in self.substitutions.items():
            output = output.replace(actual, page_text)
        return output

    def run(self, example: Example) -> str:
        if re.match(r"majiang serve\b", example.command):
            return self.serve(example)
        completed = subprocess.run(
            ["bash", "-c", f"(exit {self.status}); {self.command(example.command)}"],
            cwd=self.directory, env=self.env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True, timeout=TIMEOUT,
        )
        self.status = completed.returncode
        self.learn_room_codes(example.expected, completed.stdout)
        return self.back_to_page(completed.stdout)

    def serve(self, example: Example) -> str:
        command = self.command(example.command).rstrip("& ")
        page_port = re.search(r"--port (\d+)", command)
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = str(probe.getsockname()[1])
        if page_port:
            self.substitutions[page_port.group(1)] = port
            command = command.replace(f"--port {page_port.group(1)}", f"--port {port}")
        else:
            self.substitutions["8000"] = port
            command += f" --port {port}"
        server = subprocess.Popen(
            ["bash", "-c", f"exec {command}"], cwd=self.directory, env=self.env,
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            text=True, start_new_session=True,
        )
        self.servers.append(server)
        assert server.stdout is not None
        first = server.stdout.readline()
        threading.Thread(target=server.stdout.read, daemon=True).start()  # never let it block
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", int(port))) == 0:
                    break
            time.sleep(0.1)
        return self.back_to_page(first)

    def learn_room_codes(self, expected: str, actual: str) -> None:
        page_code, actual_code = ROOM_CODE.search(expected), ROOM_CODE.search(actual)
        if page_code and actual_code and page_code.group(1) not in self.substitutions:
            self.substitutions[page_code.group(1)] = actual_code.group(1)

    def close(self) -> None:
        for server in self.servers:
            os.killpg(server.pid, signal.SIGINT)
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)
                server.wait()


def new_session(directory: Path) -> Session:
    for name in ("docs", "tests", "examples", "benchmarks", "src"):
        (directory / name).symlink_to(ROOT / name)
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONPATH"] = os.pathsep.join(
        [str(ROOT / "src"), *filter(None, [env.get("PYTHONPATH")])]
    )
    env["PYTHONUNBUFFERED"] = "1"
    env["COLUMNS"] = "80"
    env.pop("CI", None)
    return Session(directory, env)


SHELL_PAGES = [page for page in PAGES if shell_blocks(page)]


@pytest.mark.parametrize("page", SHELL_PAGES)
def test_shell_examples(page: str, tmp_path: Path) -> None:
    """Every ``$`` command of the page prints what the page shows after it."""
    session = new_session(tmp_path)
    failures: list[str] = []
    try:
        for block in shell_blocks(page):
            if block.not_run:
                continue
            for example in block.examples:
                actual = session.run(example)
                if not matches(example.expected, actual):
                    failures.append(
                        f"{page}:{example.line}: $ {example.command}\n"
                        f"--- the page shows\n{example.expected}\n--- it printed\n{actual}"
                    )
    finally:
        session.close()
    assert not failures, "\n\n".join(failures)


def test_every_example_is_run_or_says_why_not() -> None:
    """A page's shell block is run unless it says why not, so none is skipped silently."""
    for page in SHELL_PAGES:
        for block in shell_blocks(page):
            assert block.not_run is None or len(block.not_run) > 5, (page, block.line)


DOCTEST_PAGES = [
    page for page in PAGES if re.search(r"^\s*>>> ", (ROOT / page).read_text("utf-8"), re.M)
]


@pytest.mark.parametrize("page", DOCTEST_PAGES)
def test_python_examples(page: str) -> None:
    """The page's ``>>>`` examples, as ``python -m doctest PAGE`` runs them."""
    result = doctest.testfile(
        str(ROOT / page), module_relative=False, optionflags=doctest.ELLIPSIS
    )
    assert result.failed == 0


def anchors(page: Path) -> set[str]:
    """The anchors of a page's headings, as GitHub makes them (with -1, -2 for repeats)."""
    seen: dict[str, int] = {}
    found = set()
    in_fence = False
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.lstrip().startswith("```"):
            in_fence = not in_fence
        heading = re.match(r"^#{1,6} (.+)$", line)
        if in_fence or not heading:
            continue
        slug = re.sub(r"[^\w\- ]", "", heading.group(1).strip().lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        found.add(slug if count == 0 else f"{slug}-{count}")
    return found


@pytest.mark.parametrize("page", PAGES)
def test_links_stay_in_the_repository_and_resolve(page: str) -> None:
    """Every relative link names a file of the repository (and a heading of it, after ``#``);
    nothing points outside the repository."""
    text = (ROOT / page).read_text(encoding="utf-8")
    assert "../shared" not in text
    prose = re.sub(r"`[^`\n]*`", "", re.sub(r"^\s*```.*?^\s*```", "", text, flags=re.S | re.M))
    broken = []
    for target in re.findall(r"\]\(([^)\s]+)\)", prose):
        if re.match(r"[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        file = (ROOT / page).parent / path if path else ROOT / page
        missing = not file.resolve().is_relative_to(ROOT) or not file.exists()
        if missing or (anchor and file.suffix == ".md" and anchor not in anchors(file)):
            broken.append(target)
    assert not broken, broken


def test_masks_and_ellipsis() -> None:
    """The comparison's own rules: what is masked and what ``...`` matches."""
    assert matches("draws 27 (6.8%), 19.4 s, 20.6 hands/s", "draws 27 (6.8%), 3.0 s, 201.3 hands/s")
    assert not matches("draws 27 (6.8%), 19.4 s", "draws 28 (7.0%), 19.4 s")
    assert matches('{"code":"AB","token":"xyz-1"}', '{"code":"AB","token":"Qq_9"}')
    assert matches("first\n...\nlast", "first\nsecond\nthird\nlast")
    assert not matches("first\nlast", "first\nsecond\nlast")
    assert matches("a  \n\n", "\na")
