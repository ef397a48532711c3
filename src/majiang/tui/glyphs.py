"""Tiles as text: Chinese names beside the notation, suit colours, the wild tile marked.

Tiles arrive as notation names (``"5m"``, ``"E"``, ``"a"``), the form of observations in JSON.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.cells import cell_len
from rich.text import Text

from ..tiles import suit_of, tile_chinese, tile_from_name, tile_name

WIND_NAMES = ("East", "South", "West", "North")
WIND_CHINESE = ("东", "南", "西", "北")
_SUIT_STYLES = ("red3", "green4", "blue", "bold", "magenta")
_DRAGON_STYLES = {"C": "bold red", "F": "bold green", "P": "bold"}
WILD_STYLE = "black on yellow"
"""The 得 (Huangyan's wild tiles) and the white dragons standing in for its face."""


def chinese(name: str) -> str:
    """``"五万"``, ``"东"``, ``"春"``."""
    return tile_chinese(tile_from_name(name))


def suit_index(name: str) -> int:
    """0 characters, 1 bamboo, 2 dots, 3 honours, 4 flowers."""
    return suit_of(tile_from_name(name))


def tile_style(name: str, wild: str | None = None) -> str:
    """The colour of a tile's suit; the wild face (得) highlighted."""
    if wild is not None and name == wild:
        return WILD_STYLE
    if name in _DRAGON_STYLES:
        return _DRAGON_STYLES[name]
    return _SUIT_STYLES[suit_index(name)]


def short(name: str) -> str:
    """A two-cell token: the notation of a suited tile, the Chinese character of an honour or a
    flower (``"5m"``, ``"东"``, ``"春"``)."""
    tile = tile_from_name(name)
    return name if suit_of(tile) < 3 else tile_chinese(tile)


def long(name: str) -> str:
    """Both names: ``"五万 5m"``, ``"东 E"``."""
    return f"{chinese(name)} {name}"


def token(name: str, wild: str | None = None) -> Text:
    """One tile as a coloured two-cell token."""
    return Text(short(name), style=tile_style(name, wild))


def tokens(names: Sequence[str], wild: str | None = None) -> Text:
    """Tiles as tokens separated by spaces."""
    text = Text()
    for i, name in enumerate(names):
        if i:
            text.append(" ")
        text.append_text(token(name, wild))
    return text


def _pad(text: str, width: int) -> str:
    return text + " " * max(0, width - cell_len(text))


CARD_WIDTH = 5
"""Cells per tile in the hand (a Chinese name is four cells wide)."""


def cards(
    names: Sequence[str],
    labels: Sequence[str],
    *,
    gaps: Sequence[int] = (),
    cursor: int | None = None,
    wild: str | None = None,
    stand_in: str | None = None,
    marks: Sequence[tuple[str, str]] | None = None,
) -> Text:
    """The hand as three rows: the key of each tile, its Chinese name, its notation. ``gaps``
    are positions before which a wider space separates groups; ``cursor`` shows a tile in
    reverse; ``stand_in`` is the face a white dragon plays as (shown under it); ``marks``, one
    (text, style) per tile, make a fourth row under the tiles."""
    rows = [Text(), Text(), Text()] + ([Text()] if marks is not None else [])
    for i, name in enumerate(names):
        sep = "   " if i in gaps else " "
        for row in rows:
            row.append(sep if i else "")
        style = tile_style(name, wild)
        if i == cursor:
            style += " reverse"
        label = labels[i] if i < len(labels) else ""
        rows[0].append(_pad(f" {label}", CARD_WIDTH - 1), style="dim" if i != cursor else "bold")
        rows[1].append(_pad(chinese(name), CARD_WIDTH - 1), style=style)
        below = name
        if wild is not None and name == wild:
            below = f"{name}*"
        elif stand_in is not None and name == "P":
            below = f"P={stand_in}"
        rows[2].append(_pad(below, CARD_WIDTH - 1), style=style)
        if marks is not None:
            mark, mark_style = marks[i] if i < len(marks) else ("", "")
            rows[3].append(_pad(mark, CARD_WIDTH - 1), style=mark_style)
    out = Text()
    for i, row in enumerate(rows):
        if i:
            out.append("\n")
        out.append_text(row)
    return out


_MELD_CHINESE = {"chow": "吃", "pung": "碰", "kong": "杠"}


def meld_tiles(meld: dict[str, Any]) -> list[str] | None:
    """The tiles of a meld in JSON (``None`` for a face-down kong)."""
    tile = meld["tile"]
    if tile is None:
        return None
    if meld["kind"] == "chow":
        first = tile_from_name(tile)
        return [tile, tile_name(first + 1), tile_name(first + 2)]
    return [tile] * (4 if meld["kind"] == "kong" else 3)


def meld(meld: dict[str, Any], wild: str | None = None) -> Text:
    """``碰 5m 5m 5m``; a concealed kong ``暗杠 E E E E`` (face down: ``暗杠 ▮▮▮▮``)."""
    tiles = meld_tiles(meld)
    concealed = meld["kind"] == "kong" and meld["source"] == 0
    label = ("暗" if concealed else "") + _MELD_CHINESE.get(meld["kind"], meld["kind"])
    text = Text(f"{label} ", style="dim")
    if tiles is None:
        text.append("▮▮ ▮▮ ▮▮ ▮▮", style="dim")
        return text
    # a meld never holds a 得 (A20): its tiles are identities, shown plainly
    text.append_text(tokens(tiles))
    return text


__all__ = [
    "CARD_WIDTH",
    "WIND_CHINESE",
    "WIND_NAMES",
    "cards",
    "chinese",
    "long",
    "meld",
    "meld_tiles",
    "short",
    "suit_index",
    "tile_style",
    "token",
    "tokens",
]
