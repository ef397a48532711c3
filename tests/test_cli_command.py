"""A sub-command's help and description come from its module's docstring."""

from __future__ import annotations

import argparse

import pytest

from majiang.cli import build_parser, main
from majiang.cli.command import add_command


def _run(args: argparse.Namespace) -> int:
    return 0


def test_the_docstring_gives_the_help_the_description_and_run() -> None:
    commands = argparse.ArgumentParser(prog="majiang").add_subparsers()
    doc = "``majiang demo``: do a\nthing\n\nThe description,\nrefilled.\n\nFor readers only.\n"
    parser = add_command(commands, "demo", _run, doc)
    assert parser.description == "The description,\nrefilled."
    assert commands.choices["demo"] is parser
    assert [a.help for a in commands._choices_actions] == ["do a thing"]
    assert parser.parse_args([]).run is _run


def test_no_docstring_no_help() -> None:  # python -OO strips docstrings
    commands = argparse.ArgumentParser(prog="majiang").add_subparsers()
    parser = add_command(commands, "demo", _run, None)
    assert parser.description is None
    assert [a.help for a in commands._choices_actions] == [None]


def test_the_commands_help(capsys: pytest.CaptureFixture[str]) -> None:
    build_parser().print_help()
    assert "replay a hand record and verify it" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["replay", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "Rebuild a hand from its JSON-lines record, check every event" in out


@pytest.mark.parametrize(
    ("command", "verb"),
    [(["analyze"], "analyse"), (["score"], "score"), (["score", "--rules", "huangyan"], "score")],
)
def test_a_hand_or_a_batch_exactly(
    command: list[str], verb: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*command, "123m456p789s11zEEE", "--batch", "-"]) == 2
    assert "give either a HAND or --batch FILE, not both" in capsys.readouterr().err
    assert main(command) == 2
    assert f"give a HAND to {verb} (or --batch FILE)" in capsys.readouterr().err


def test_an_action_s_help_is_its_run_s_docstring(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["botzone", "--help"])
    assert "run a majiang bot as a Botzone program (stdin -> stdout)" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["botzone", "bot", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "Reads one Botzone turn on stdin (JSON or simple I/O) and prints the response" in out
    assert "``" not in out
