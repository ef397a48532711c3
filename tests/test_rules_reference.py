"""Every hand in the rules reference (docs/rules/) is scored as the page says.

The convention of the pages (docs/rules/README.md, "Examples"): an example is a line holding
a command in backquotes, an arrow and the result.

- Guobiao: ```majiang score ARGS``` → ``N fans: NAME POINTS, NAME POINTS×COUNT, ...``, or
  ``N fans, below 8: ...`` for a hand that may not be declared, optionally followed by
  ``; pays each P, winner +W`` (self-drawn) or ``; pays discarder D, others O, winner +W``. The
  fans are compared by their Chinese name, points and count, in any order; the total, the 8-fan
  verdict and the payments too.
- Huangyan, the winner: ```majiang score --rules huangyan ARGS``` → ``TOTAL (hu H, fan F)``.
- Huangyan, a whole hand: ```{"hands": [...], "winner": ..., ...}``` (a line of
  ``majiang score --rules huangyan --batch``) → ``winner W; losers E I, S I, ...; hu E +n, ...;
  bullets E +n, ...`` (any of the four parts, separated by ``;``).

A result may end a table's cell (a trailing ``|``). Each command runs through the real command
line (``majiang.cli.main``) in this process. On the fans page every fan's section must hold an
example whose counted fans include that fan, and its "Not counted" line must name every fan that
fan's definition implies (the scorer's table).
"""

from __future__ import annotations

import json
import re
import shlex
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from majiang.cli import main
from majiang.rules.guobiao.exclusions import IMPLIES
from majiang.rules.guobiao.fans import FANS

RULES = Path(__file__).resolve().parent.parent / "docs" / "rules"
PAGES = sorted(p.name for p in RULES.glob("*.md"))
SEATS = "ESWN"

EXAMPLE = re.compile(r"`(majiang score [^`]+|\{\"hands\"[^`]+)` → ([^`\n|]+?)\s*\|?\s*$", re.M)
GUOBIAO = re.compile(r"^(\d+) fans?(, below 8)?: (.+)$")
FAN = re.compile(r"^(\S+) (\d+)(?:×(\d+))?$")
HUANGYAN = re.compile(r"^(\d+) \(hu (\d+), fan (\d+)\)$")
SIGNED = re.compile(r"^([ESWN]) ([+\-−]?\d+)$")


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> Any:
    capsys.readouterr()
    assert main(args) == 0
    return json.loads(capsys.readouterr().out)


def guobiao_result(data: dict[str, Any]) -> tuple[int, bool, Counter[tuple[str, int, int]], str]:
    fans = Counter((f["name"], f["points"], f["count"]) for f in data["fans"])
    pay = data["payments"]
    if pay is None:
        pays = ""
    elif pay["discarder"] is None:
        pays = f"each {pay['each_other']}, winner +{pay['winner']}"
    else:
        pays = f"discarder {pay['discarder']}, others {pay['each_other']}, winner +{pay['winner']}"
    return data["total"], not data["meets_minimum"], fans, pays


def parse_guobiao(text: str) -> tuple[int, bool, Counter[tuple[str, int, int]], str | None]:
    text, _, pays = text.partition("; pays ")
    match = GUOBIAO.match(text)
    assert match, f"not a Guobiao result: {text!r}"
    fans: Counter[tuple[str, int, int]] = Counter()
    for item in match.group(3).split(", "):
        fan = FAN.match(item.strip())
        assert fan, f"not a fan: {item!r} in {text!r}"
        fans[(fan.group(1), int(fan.group(2)), int(fan.group(3) or 1))] += 1
    return int(match.group(1)), bool(match.group(2)), fans, pays or None


def seat_values(text: str) -> dict[int, int]:
    values = {}
    for item in text.split(", "):
        match = SIGNED.match(item.strip())
        assert match, f"not 'SEAT VALUE': {item!r}"
        values[SEATS.index(match.group(1))] = int(match.group(2).replace("−", "-"))
    return values


def settlement_parts(text: str) -> dict[str, Any]:
    parts: dict[str, Any] = {}
    for part in text.split("; "):
        name, _, rest = part.strip().partition(" ")
        assert name in ("winner", "losers", "hu", "bullets"), f"unknown part {part!r}"
        parts[name] = int(rest) if name == "winner" else seat_values(rest)
    return parts


def outcome(command: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> Any:
    """What majiang answers for one example's command, in the form the page's text parses to."""
    if command.startswith("{"):
        line = tmp_path / "hand.jsonl"
        line.write_text(command + "\n", encoding="utf-8")
        capsys.readouterr()
        assert main(["score", "--rules", "huangyan", "--batch", str(line)]) == 0
        data = json.loads(capsys.readouterr().out)
        assert "error" not in data, data["error"]
        winner = data["winner"]["seat"]
        return {
            "winner": data["winner"]["total"],
            "losers": {s: t for s, t in enumerate(data["totals"]) if s != winner},
            "hu": dict(enumerate(data["hu"])),
            "bullets": dict(enumerate(data["bullets"])),
        }
    args = shlex.split(command)[1:]
    data = run([*args, "--json"], capsys)
    if "--rules" in args and args[args.index("--rules") + 1] == "huangyan":
        return data["total"], data["hu"], data["fan"]
    return guobiao_result(data)


def examples(page: str) -> list[tuple[int, str, str]]:
    """(line, command, result text) of every example on the page."""
    text = (RULES / page).read_text(encoding="utf-8")
    return [(text[: m.start()].count("\n") + 1, m.group(1), m.group(2))
            for m in EXAMPLE.finditer(text)]


ALL = [(page, *example) for page in PAGES for example in examples(page)]


def test_the_pages_hold_examples() -> None:
    assert {"guobiao.md", "guobiao-fans.md", "huangyan.md"} <= set(PAGES)
    assert len(ALL) > 150


@pytest.mark.parametrize(("page", "line", "command", "result"), ALL,
                         ids=[f"{p}:{n}" for p, n, _, _ in ALL])
def test_example(page: str, line: int, command: str, result: str,
                 capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    got = outcome(command, capsys, tmp_path)
    if command.startswith("{"):
        want = settlement_parts(result)
        assert {k: got[k] for k in want} == want
    elif isinstance(got, tuple) and len(got) == 4:
        total, below, fans, pays = parse_guobiao(result)
        assert got[:3] == (total, below, fans)
        if pays is not None:
            assert got[3] == pays
    else:
        match = HUANGYAN.match(result)
        assert match, f"not a Huangyan result: {result!r}"
        assert got == tuple(int(g) for g in match.groups())


def fan_sections() -> list[tuple[int, str]]:
    """(fan id, section text) for every ``### N. 中文 English (P)`` of the fans page."""
    text = (RULES / "guobiao-fans.md").read_text(encoding="utf-8")
    parts = re.split(r"^### (\d+)\. ", text, flags=re.M)
    return [(int(parts[i]), parts[i + 1]) for i in range(1, len(parts), 2)]


def test_every_fan_has_its_section_in_order() -> None:
    sections = fan_sections()
    assert [fan for fan, _ in sections] == list(range(1, 82))
    for fan, text in sections:
        info = FANS[fan]
        heading = text.splitlines()[0]
        assert heading == f"{info.zh} {info.en} ({info.points})", heading


@pytest.mark.parametrize("fan", range(1, 82))
def test_each_fans_example_counts_it(fan: int, capsys: pytest.CaptureFixture[str],
                                     tmp_path: Path) -> None:
    text = dict(fan_sections())[fan]
    commands = [m.group(1) for m in EXAMPLE.finditer(text)]
    assert commands, f"fan {fan} has no example"
    counted = set()
    for command in commands:
        _, _, fans, _ = outcome(command, capsys, tmp_path)
        counted |= {name for name, _, _ in fans}
    assert FANS[fan].zh in counted, (fan, commands)


@pytest.mark.parametrize("fan", range(1, 82))
def test_not_counted_names_what_the_fan_implies(fan: int) -> None:
    text = dict(fan_sections())[fan]
    line = next((ln for ln in text.splitlines() if ln.startswith("**Not counted")), "")
    for implied in IMPLIES.get(fan, ()):
        assert FANS[implied].zh in line, (FANS[fan].zh, FANS[implied].zh, line)
