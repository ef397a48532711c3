"""Huangyan hands in writing: the project notation with stand-ins, and the spec's reading notation.

**Project notation** (rules/guobiao.md §1.2, as rules/huangyan.md §0.2 asks): ``[...]`` is a
declared set with an optional ``,N`` source digit, a kong without a digit is concealed, the last
concealed tile is the winning (or drawn) tile, and the wild face is given beside the hand. One
extension: inside a declared set a white dragon ``P`` is the stand-in for the wild face ``F``
(§1.7), so the chow ``[56p P]`` of the spec's Example 6 (``F`` = 7p) is written ``[56pP,3]``;
``[PPP]`` is a pung of ``F``. A face ``F`` in a set is read the same way (a 得 never enters a set,
A20, so such a tile can only be a stand-in). Outside sets tiles are written by their face: ``P``
is a stand-in, ``F`` a 得. There are no flowers.

**Reading notation** (the examples of rules/huangyan.md §0.2): groups separated by spaces,
``[...]`` an exposed chow, pung or kong (a kong in brackets is exposed), ``{....}`` a concealed
kong, ``*`` after a tile ignored, and the winning tile given separately.

Both return a :class:`~majiang.hand.Hand` whose sets hold identities (a stand-in is ``F``) and whose
concealed tiles hold faces.
"""

from __future__ import annotations

from ...errors import InvalidHandError, NotationError
from ...hand import CONCEALED_KONG, Hand, Meld, MeldKind
from ...notation import format_tiles, make_meld
from ...tiles import HONOR_LETTERS, NUM_KINDS, SUITS, WHITE, tile_name
from .wild import Wild

MAX_COPIES = 4


def _lex_tiles(text: str, start: int, end: int, *, stars: bool) -> list[int]:
    """Tiles of ``text[start:end]`` (digits take the next suit letter); positions are absolute."""
    tiles: list[int] = []
    pending: list[int] = []
    first = -1
    for pos in range(start, end):
        ch = text[pos]
        if ch.isspace():
            continue
        if ch == "*" and stars:
            continue
        if "1" <= ch <= "9":
            if not pending:
                first = pos
            pending.append(int(ch))
        elif ch in SUITS:
            if not pending:
                raise NotationError(f"suit letter {ch!r} without digits", text, pos)
            base = SUITS.index(ch) * 9
            tiles.extend(base + r - 1 for r in pending)
            pending.clear()
        elif ch in HONOR_LETTERS:
            if pending:
                raise NotationError("digits without a suit letter", text, first)
            tiles.append(27 + HONOR_LETTERS.index(ch))
        elif ch in "abcdefgh":
            raise NotationError("Huangyan has no flowers", text, pos)
        elif ch == "0":
            raise NotationError("0 is not a tile rank", text, pos)
        else:
            raise NotationError(f"unexpected character {ch!r}", text, pos)
    if pending:
        raise NotationError("digits without a suit letter", text, first)
    return tiles


def _meld(
    tiles: list[int], source: int | None, wild: Wild, text: str, pos: int, *, reading: bool
) -> Meld:
    """A declared set from its written faces: stand-ins (and ``F``) become identity ``F``."""
    ids: list[int] = []
    for t in tiles:
        if wild.stand_in is None and t == wild.face:
            raise InvalidHandError(
                f"a 得 ({tile_name(t)}) cannot be part of a declared set (A20) in {text!r}"
            )
        ids.append(wild.identity(t))
    return make_meld(ids, source, text, pos, unmarked_kong=1 if reading else CONCEALED_KONG)


def _scan(
    text: str, wild: Wild, *, reading: bool
) -> tuple[list[Meld], list[int]]:
    """Sets and concealed tiles (in written order) of a hand string."""
    if not isinstance(text, str):
        raise NotationError(f"a hand must be a string, not {type(text).__name__}")
    melds: list[Meld] = []
    concealed: list[int] = []
    pos = 0
    closers = {"[": "]", "{": "}"} if reading else {"[": "]"}
    while pos < len(text):
        ch = text[pos]
        if ch in closers:
            end = text.find(closers[ch], pos + 1)
            if end < 0:
                raise NotationError(f"{ch!r} is never closed", text, pos)
            body_end = end
            source: int | None = None
            comma = text.find(",", pos + 1, end)
            if comma >= 0 and not reading:
                digits = text[comma + 1 : end].strip()
                if len(digits) != 1 or not digits.isdigit():
                    raise NotationError("',' must be followed by one source digit", text, comma)
                source = int(digits)
                body_end = comma
            elif not reading:  # the older form without the comma: [567m2]
                body = text[pos + 1 : end].rstrip()
                if len(body) >= 2 and body[-1].isdigit() and not body[-2].isdigit():
                    source = int(body[-1])
                    body_end = pos + 1 + len(body) - 1
            tiles = _lex_tiles(text, pos + 1, body_end, stars=reading)
            if reading and ch == "{":
                if len(tiles) != 4 or len(set(tiles)) != 1:
                    raise NotationError("braces hold a concealed kong of four tiles", text, pos)
                melds.append(_meld(tiles, None, wild, text, pos, reading=False))
            else:
                melds.append(_meld(tiles, source, wild, text, pos, reading=reading))
            if len(melds) > 4:
                raise NotationError("more than 4 declared sets", text, pos)
            pos = end + 1
            continue
        if ch in "]}":
            raise NotationError(f"{ch!r} without its opening bracket", text, pos)
        if ch == "{":
            raise NotationError(
                "braces belong to the reading notation; a concealed kong is [1111m]", text, pos
            )
        nxt = pos
        while nxt < len(text) and text[nxt] not in "[]{}":
            nxt += 1
        concealed.extend(_lex_tiles(text, pos, nxt, stars=reading))
        pos = nxt
    return melds, concealed


def _build(
    melds: list[Meld], concealed: list[int], win: int | None, text: str, wild: Wild,
    allowed_counts: tuple[int, ...],
) -> Hand:
    hand = Hand(tuple(melds), tuple(sorted(concealed)), win)
    check_tiles(hand, wild, text)
    if hand.tile_count not in allowed_counts:
        wanted = " or ".join(str(n) for n in allowed_counts)
        raise InvalidHandError(
            f"{hand.tile_count} tiles in {text!r} (a declared set counts 3), expected {wanted}"
        )
    return hand


def parse_huangyan_hand(
    text: str, wild: Wild | str | int, *, allowed_counts: tuple[int, ...] = (13, 14)
) -> Hand:
    """Parse the project notation (see the module docstring) with wild face ``wild``.

    With a complete count (14, 11, ...) the last concealed tile is the winning tile.
    """
    w = Wild.of(wild)
    melds, concealed = _scan(text, w, reading=False)
    win: int | None = None
    if (3 * len(melds) + len(concealed)) % 3 == 2 and concealed:
        win = concealed.pop()
    return _build(melds, concealed, win, text, w, allowed_counts)


def parse_reading(
    text: str,
    wild: Wild | str | int,
    *,
    win: str | None = None,
    allowed_counts: tuple[int, ...] = (13, 14),
) -> Hand:
    """Parse the reading notation of the spec's examples, the winning tile given apart.

    ``parse_reading("[56p P] P P 7p* 11m 2s 4s 678m", "7p", win="3s")`` is Example 6's winner.
    """
    w = Wild.of(wild)
    melds, concealed = _scan(text, w, reading=True)
    win_tile: int | None = None
    if win is not None:
        tiles = _lex_tiles(win, 0, len(win), stars=True) if isinstance(win, str) else []
        if len(tiles) != 1:
            raise NotationError(f"the winning tile must be one tile, not {win!r}")
        win_tile = tiles[0]
    return _build(melds, concealed, win_tile, text, w, allowed_counts)


def physical_counts(hand: Hand, wild: Wild) -> list[int]:
    """Faces of the hand, tile by tile: a set's ``F`` tiles are stand-ins (white dragons)."""
    counts = [0] * NUM_KINDS
    for meld in hand.melds:
        for t in meld.tiles:
            counts[wild.physical(wild.identity(t))] += 1
    for t in hand.concealed_with_win:
        counts[t] += 1
    return counts


def check_tiles(hand: Hand, wild: Wild, text: str = "") -> None:
    """Raise :class:`InvalidHandError` for tiles the Huangyan set cannot hold.

    At most four of a face, at most three 得 (the indicator is out of play, A1), no 得 in a
    declared set (A20), no flowers.
    """
    where = f" in {text!r}" if text else ""
    if hand.flowers:
        raise InvalidHandError(f"Huangyan has no flowers{where}")
    for meld in hand.melds:
        if wild.stand_in is None and wild.face in meld.tiles:
            raise InvalidHandError(f"a 得 cannot be part of a declared set (A20){where}")
    counts = physical_counts(hand, wild)
    for face, n in enumerate(counts):
        if n > MAX_COPIES:
            raise InvalidHandError(f"{n} copies of {tile_name(face)}{where} (at most 4)")
    if counts[wild.face] > MAX_COPIES - 1:
        raise InvalidHandError(
            f"{counts[wild.face]} tiles of the wild face {tile_name(wild.face)}{where}: one is "
            "the indicator, so at most 3 得 are in play"
        )


def format_meld(meld: Meld, wild: Wild) -> str:
    """A set in the project notation, stand-ins as ``P``: ``[56pP,3]``, ``[PPP]``, ``[SSSS,1]``."""
    faces = [wild.physical(wild.identity(t)) for t in meld.tiles]
    suited = sorted(t for t in faces if t != WHITE)
    body = format_tiles(suited) + "P" * (len(faces) - len(suited))
    if meld.kind is MeldKind.KONG:
        return f"[{body}]" if meld.source == CONCEALED_KONG else f"[{body},{meld.source}]"
    return f"[{body}]" if meld.source == 1 else f"[{body},{meld.source}]"


def format_huangyan_hand(hand: Hand, wild: Wild | str | int) -> str:
    """The project notation of a hand: sets, sorted concealed faces, then the winning tile."""
    w = Wild.of(wild)
    parts = [format_meld(m, w) for m in hand.melds]
    parts.append(format_tiles(sorted(hand.concealed)))
    if hand.win_tile is not None:
        parts.append(format_tiles([hand.win_tile]))
    return "".join(parts)


__all__ = [
    "check_tiles",
    "format_huangyan_hand",
    "format_meld",
    "parse_huangyan_hand",
    "parse_reading",
    "physical_counts",
]
