"""Hands pasted from other tools, rewritten in the project's notation (``docs/rules/guobiao.md``
§1.2) before they are read.

- **Botzone / PyMahjongGB tile names**: ``W1``-``W9`` characters, ``T1``-``T9`` bamboo,
  ``B1``-``B9`` dots, ``F1``-``F4`` the winds E S W N, ``J1``-``J3`` the dragons red, green,
  white (中 发 白), ``H1``-``H8`` the flowers; separated by spaces or commas, the last tile the
  winning tile: ``W1 W2 W3 T5 T5 ... J3``.
- **Tenhou / mjai suit form**: ``1z``-``7z`` are the honours in Tenhou's order, East South West
  North, then white, green, red (白 发 中: ``5z`` is ``P``, ``6z`` ``F``, ``7z`` ``C``); ``0`` in a
  suit is Tenhou's red five, a plain five here: ``123m406p789s11122z``.
- **Upper-case suit letters**: ``123M456P789S11SEEE`` (a letter after digits is their suit, so
  ``S`` after digits is bamboo, elsewhere South).

:func:`to_project` detects the notation when none is named and returns the text unchanged when
it is already the project's. Nothing here reads a hand: the rule set's parser does that next.
"""

from __future__ import annotations

import re

from .errors import NotationError
from .notation import format_tiles
from .tiles import EAST, FLOWER_LETTERS, RED

NOTATIONS = ("auto", "majiang", "botzone", "tenhou", "upper")
"""The values of ``--notation``: ``auto`` detects, the others name one notation."""

NAMES = {
    "majiang": "majiang's notation",
    "botzone": "Botzone tile names",
    "tenhou": "Tenhou's 1-7z honours",
    "upper": "upper-case suit letters",
}

ACCEPTED = (
    "majiang's notation (123m456p789s11sEEE), Botzone tile names (W1 B5 T9 F1 J3 H1), "
    "Tenhou's 1-7z honours (111z) or upper-case suits (123M)"
)
"""The notations a hand may be written in, with an example of each, for error messages."""

_BOTZONE_TILE = re.compile(r"([WTBFJH])([1-9])")
_BOTZONE = re.compile(r"\s*[WTBFJH][1-9](?:[\s,]+[WTBFJH][1-9])*\s*")
_BOTZONE_LIMITS = {"W": 9, "T": 9, "B": 9, "F": 4, "J": 3, "H": 8}
_TENHOU_GROUP = re.compile(r"([0-9]+)([zmspZMSP])")
_TENHOU = re.compile(r"[0-9]+[zZ]")
_UPPER = re.compile(r"[0-9]([MSP])")
_HONOURS_TENHOU = "ESWNPFC"
"""Tenhou's 1z-7z: the winds, then white (P), green (F), red (C)."""


def detect(text: str) -> str:
    """The notation ``text`` is written in: ``botzone``, ``tenhou``, ``upper`` or ``majiang``."""
    if _BOTZONE.fullmatch(text):
        return "botzone"
    if _TENHOU.search(text):
        return "tenhou"
    if _UPPER.search(text):
        return "upper"
    return "majiang"


def to_project(text: str, notation: str = "auto") -> tuple[str, str]:
    """``text`` in the project's notation, and the notation it was read as (see the module's
    docstring); a :class:`NotationError` if it is not in the ``notation`` named."""
    if notation not in NOTATIONS:
        raise NotationError(f"--notation is one of {', '.join(NOTATIONS)}, not {notation!r}")
    found = detect(text) if notation == "auto" else notation
    if found == "botzone":
        return _from_botzone(text), found
    if found == "tenhou":
        return _from_tenhou(text), found
    if found == "upper":
        return _from_upper(text), found
    return text, found


def _from_botzone(text: str) -> str:
    if not _BOTZONE.fullmatch(text):
        raise NotationError(f"not Botzone tile names (e.g. W1 T5 B9 F1 J3 H1): {text!r}")
    flowers: list[str] = []
    tiles: list[int] = []
    for found in _BOTZONE_TILE.finditer(text):
        letter, rank = found.group(1), int(found.group(2))
        last = _BOTZONE_LIMITS[letter]
        if rank > last:
            raise NotationError(
                f"Botzone has no tile {found.group(0)} ({letter}1-{letter}{last})",
                text,
                found.start(),
            )
        if letter == "H":
            flowers.append(FLOWER_LETTERS[rank - 1])
        elif letter == "F":
            tiles.append(EAST + rank - 1)
        elif letter == "J":
            tiles.append(RED + rank - 1)
        else:
            tiles.append("WTB".index(letter) * 9 + rank - 1)
    return "".join(flowers) + format_tiles(tiles)


def _from_tenhou(text: str) -> str:
    def group(found: re.Match[str]) -> str:
        digits, suit = found.group(1), found.group(2).lower()
        if suit != "z":
            return digits.replace("0", "5") + suit
        bad = next((d for d in digits if not "1" <= d <= "7"), None)
        if bad is not None:
            raise NotationError(
                f"{bad}z is no tile (Tenhou's honours are 1z-7z: E S W N, white, green, red)",
                text,
                found.start() + digits.index(bad),
            )
        return "".join(_HONOURS_TENHOU[int(d) - 1] for d in digits)

    return _TENHOU_GROUP.sub(group, text)


def _from_upper(text: str) -> str:
    return re.sub(r"([0-9])([MSP])", lambda m: m.group(1) + m.group(2).lower(), text)


__all__ = ["ACCEPTED", "NAMES", "NOTATIONS", "detect", "to_project"]
