"""The package's fan definitions (majiang.rules.guobiao.fan_definitions) say what the rules
reference says: each fan's English definition is the first paragraph of its section in
docs/rules/guobiao-fans.md, as plain text, so that the two cannot drift apart."""

from __future__ import annotations

import re
from pathlib import Path

from majiang.rules.guobiao.fan_definitions import DEFINITIONS, definitions_by_name
from majiang.rules.guobiao.fans import FANS

PAGE = Path(__file__).resolve().parent.parent / "docs" / "rules" / "guobiao-fans.md"
SECTION = re.compile(r"^### (\d+)\. (\S+) (.+?) \(\d+\)\n\n(.*?)\n\n", re.M | re.S)
PINYIN = re.compile(r"^\*[^*]+\*(?: \([^)]*\))?\. ")


def plain(markdown: str) -> str:
    """Markdown as the score sheet shows it: links as their text, no code or emphasis marks."""
    text = re.sub(r"\[([^\]]+)\]\([^)]+\)", r"\1", markdown)
    return " ".join(text.replace("`", "").replace("*", "").split())


def page_definitions() -> dict[int, tuple[str, str, str]]:
    return {
        int(m.group(1)): (m.group(2), m.group(3), plain(PINYIN.sub("", m.group(4))))
        for m in SECTION.finditer(PAGE.read_text(encoding="utf-8"))
    }


def test_every_fan_has_the_pages_english_definition() -> None:
    page = page_definitions()
    assert sorted(page) == list(range(1, 82))
    assert sorted(DEFINITIONS) == list(range(1, 82))
    for fan, (zh_name, en_name, english) in page.items():
        assert (FANS[fan].zh, FANS[fan].en) == (zh_name, en_name)
        assert DEFINITIONS[fan][1] == english, f"fan {fan} {zh_name}: package and page differ"


def test_every_chinese_definition_is_chinese_and_short() -> None:
    for fan, (chinese, _) in DEFINITIONS.items():
        assert re.search(r"[\u4e00-\u9fff]", chinese), fan
        assert chinese.endswith("。") and len(chinese) <= 80, (fan, chinese)


def test_definitions_by_name_keys_the_result_names() -> None:
    chosen = definitions_by_name(["Pure Straight", "Self-Drawn", "No Such Fan"])
    assert chosen == {
        "Pure Straight": {"zh": DEFINITIONS[28][0], "en": DEFINITIONS[28][1]},
        "Self-Drawn": {"zh": DEFINITIONS[80][0], "en": DEFINITIONS[80][1]},
    }
    assert len(definitions_by_name()) == 81


HUANGYAN = PAGE.parent / "huangyan.md"
DOUBLING = re.compile(r"^\| [^|(]*\(([^)|]+)\) \| [^|]+ \| ([^|]+) \|$", re.M)


def test_every_huangyan_doubling_has_the_pages_definition() -> None:
    """Each row of the doublings table (huangyan.md §4.3) that the scorer names has the package's
    definition; the name is the row's Chinese (its first spelling, without the 、)."""
    from majiang.rules.huangyan.doubling_definitions import DEFINITIONS as DOUBLINGS

    text = HUANGYAN.read_text(encoding="utf-8")
    table = text[text.index("### 4.3"):text.index("### 4.4")]
    rows = {m.group(1).split(",")[0].replace("、", ""): plain(m.group(2))
            for m in DOUBLING.finditer(table)}
    assert set(DOUBLINGS) == set(rows) - {"三得"}  # the limit is no doubling of its own
    for name, (chinese, english) in DOUBLINGS.items():
        assert english == rows[name], name
        assert re.search(r"[\u4e00-\u9fff]", chinese) and chinese.endswith("。"), name
