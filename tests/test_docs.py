"""The documents teach by example: their Python examples run as doctests, their CLI examples
print exactly what the documents show."""

from __future__ import annotations

import doctest
import re
import shlex
from pathlib import Path

import pytest

from majiang.cli import main

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("name", ["README.md", "docs/engine.md", "docs/huangyan.md"])
def test_python_examples(name: str) -> None:
    result = doctest.testfile(
        str(ROOT / name), module_relative=False, optionflags=doctest.ELLIPSIS
    )
    assert result.failed == 0


def _cli_examples(name: str) -> list[tuple[str, str]]:
    """(command, expected output) for every ``$ majiang …`` line in a fenced block."""
    text = (ROOT / name).read_text(encoding="utf-8")
    examples = []
    for block in re.findall(r"```\n(.*?)```", text, flags=re.S):
        lines = block.splitlines()
        for i, line in enumerate(lines):
            if line.startswith("$ majiang ") and "|" not in line:
                expected = []
                for follow in lines[i + 1 :]:
                    if follow.startswith("$ "):
                        break
                    expected.append(follow)
                examples.append((line[2:], "\n".join(expected).strip()))
    return examples


README_EXAMPLES = _cli_examples("README.md")


@pytest.mark.parametrize("command,expected", README_EXAMPLES, ids=[c for c, _ in README_EXAMPLES])
def test_readme_cli_examples(
    command: str, expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    main(shlex.split(command)[1:])
    captured = capsys.readouterr()
    assert (captured.out + captured.err).strip() == expected
