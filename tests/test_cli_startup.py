"""Running one command imports only what it needs; its help is the full parser's."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from majiang.cli import COMMANDS, build_parser

SRC = str(Path(__file__).resolve().parents[1] / "src")
HEAVY = ("majiang.bots.search", "majiang.review", "majiang.server", "majiang.sim")


def _imported_after(args: list[str]) -> set[str]:
    """Run ``majiang ARGS`` in a fresh interpreter; the modules it imported."""
    script = (
        "import contextlib, io, json, sys\n"
        "from majiang.cli import main\n"
        "try:\n"
        "    with contextlib.redirect_stdout(io.StringIO()):\n"
        "        status = main(sys.argv[1:])\n"
        "except SystemExit as exit:\n"
        "    status = exit.code\n"
        "print(json.dumps([status, sorted(sys.modules)]))\n"
    )
    env = {**os.environ, "PYTHONPATH": SRC}
    done = subprocess.run([sys.executable, "-c", script, *args], capture_output=True,
                          text=True, env=env, check=True)
    status, modules = json.loads(done.stdout)
    assert status == 0
    return set(modules)


def test_score_imports_no_bot_review_server_or_simulation() -> None:
    modules = _imported_after(["score", "123m456p789s11sEEE"])
    assert "majiang.cli.score" in modules
    assert not {m for m in modules if m.startswith(HEAVY)}
    assert not {f"majiang.cli.{c}" for c in COMMANDS if c != "score"} & modules


def test_the_probe_sees_a_heavy_command() -> None:  # the check above can fail
    modules = _imported_after(["simulate", "--games", "1", "--json"])
    assert "majiang.sim" in modules and "majiang.bots.efficient" in modules


def test_every_parser_together_loads_no_bot_or_review() -> None:
    modules = _imported_after(["--help"])
    assert {f"majiang.cli.{c}" for c in COMMANDS} <= modules
    assert not {m for m in modules if m.startswith(("majiang.bots.", "majiang.review"))}


@pytest.mark.parametrize("command", COMMANDS)
def test_one_command_alone_has_the_full_parsers_help(command: str) -> None:
    def help_of(parser: argparse.ArgumentParser) -> str:
        commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        return str(commands.choices[command].format_help())

    assert help_of(build_parser(command)) == help_of(build_parser())
