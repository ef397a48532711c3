"""The browser's labels (``server/web/static/labels.json``): every label the pages ask for is
there in both languages with the same placeholders, and everything the server names to the
browser (bots, rule options, safety reasons) has a label."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from majiang.bots import BOTS
from majiang.rules.registry import RULE_SETS
from majiang.safety import REASONS

STATIC = Path(__file__).resolve().parent.parent / "src" / "majiang" / "server" / "web" / "static"
LABELS = json.loads((STATIC / "labels.json").read_text(encoding="utf-8"))
SCRIPTS = {path.name: path.read_text(encoding="utf-8") for path in STATIC.glob("*.js")}


def pairs() -> list[tuple[str, str, list[str]]]:
    """Every (section, key, [English, Chinese]) of the file."""
    return [(section, key, pair) for section, table in LABELS.items() if isinstance(table, dict)
            for key, pair in table.items()]


def used_keys(function: str) -> set[str]:
    """The literal keys the scripts pass to ``function`` (``t`` or ``ot``)."""
    found: set[str] = set()
    for text in SCRIPTS.values():
        found.update(re.findall(rf"(?<![\w.]){function}\(\s*\"([^\"]+)\"", text))
    return found


def test_every_label_is_a_pair_of_texts() -> None:
    for section, key, pair in pairs():
        assert isinstance(pair, list) and len(pair) == 2, (section, key)
        assert all(isinstance(text, str) and text for text in pair), (section, key)


@pytest.mark.parametrize("section, key, pair", pairs(),
                         ids=lambda v: v if isinstance(v, str) else "")
def test_both_languages_have_the_same_placeholders(section: str, key: str, pair: list[str]) -> None:
    english, chinese = (sorted(re.findall(r"\{\d\}", text)) for text in pair)
    assert english == chinese


def test_every_key_the_table_asks_for_exists() -> None:
    keys = used_keys("t")
    assert len(keys) > 100
    assert sorted(keys - set(LABELS["labels"])) == []


def test_every_key_the_organiser_asks_for_exists() -> None:
    keys = used_keys("ot")
    assert len(keys) > 50
    assert sorted(keys - set(LABELS["organiser"]) - set(LABELS["labels"])) == []


def test_every_bot_has_a_name() -> None:
    assert sorted(set(BOTS) - set(LABELS["bots"])) == []


def test_every_rule_option_has_a_label() -> None:
    names = {name for info in RULE_SETS.values() for name in info.options_class.names()}
    assert sorted(names - set(LABELS["options"])) == []


def test_every_safety_reason_has_words() -> None:
    assert sorted(set(REASONS) - set(LABELS["safety"])) == []


def test_the_pages_read_labels_only_from_the_file() -> None:
    """No script holds an [English, Chinese] pair of its own."""
    for name, text in SCRIPTS.items():
        assert not re.search(r"\[\"[^\"]*\", \"[^\"]*[\u4e00-\u9fff][^\"]*\"\]", text), name
