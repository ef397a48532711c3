"""The plain-text game records of the public Chinese Standard Mahjong contest dataset, replayed
through the engine (``majiang botzone dataset FILE``).

A game (as the dataset's README documents it): ``Match <ID>``; ``Wind <0-3>`` (the prevalent
wind, read as the judge's ``quan``); ``Player <N> Deal`` and 13 tiles for each player 0-3 (the
dealer first, in turn order); then one line per action, ``Player <N> Draw|Play|Chi|Peng|Gang|
AnGang|BuGang|Hu <tile>`` (``Chi`` names the middle tile of the chow), a claim line possibly
followed by ``Ignore Player <M> Chi|Peng|Gang|Hu <tile>`` for the claims it overrode; and the end,
``Fan <F> <description>`` and ``Score <s0> <s1> <s2> <s3>`` after a win, ``Huang`` and
``Score 0 0 0 0`` after an exhaustive draw. The games are played without flowers.

The records do not hold the wall; each player's tiles are (the judge's four-part wall): his
part is his deal and then his draws in order, the tiles nobody drew fill the rest.
:func:`replay_game` deals that wall and plays every action, the overridden claims included (the
engine must resolve them the same way), and checks the fans and the scores.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from ..engine import actions
from ..engine.actions import Action
from ..engine.state import IllegalAction, Phase
from ..engine.table import Table
from ..rules.guobiao.ruleset import GuobiaoRules
from .tiles import BotzoneError, botzone_tile

_CLAIMS = {"CHI", "PENG", "GANG", "HU"}


@dataclass(frozen=True, slots=True)
class DatasetGame:
    """One game of the dataset: its match id and its lines (with their line numbers)."""

    match: str
    lines: list[tuple[int, str]]


def read_dataset(text: str) -> Iterator[DatasetGame]:
    """The games of a dataset file, each from its ``Match`` line to the next."""
    match: str | None = None
    lines: list[tuple[int, str]] = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line:
            continue
        if line.startswith("Match"):
            if match is not None:
                yield DatasetGame(match, lines)
            match, lines = line[5:].strip(), []
        elif match is None:
            raise BotzoneError(f"line {number}: a game starts with 'Match <ID>', not {line!r}")
        else:
            lines.append((number, line))
    if match is not None:
        yield DatasetGame(match, lines)


def replay_game(game: DatasetGame) -> str | None:
    """Replay one game; None if every action was legal and the fans and scores match, else
    the first line that does not, and why."""
    try:
        return _replay(game)
    except BotzoneError as error:
        return str(error)


def _replay(game: DatasetGame) -> str | None:
    lines = list(game.lines)
    if len(lines) < 5 or not lines[0][1].startswith("Wind "):
        raise BotzoneError(f"game {game.match}: no Wind line and four Deal lines")
    wind = _number(lines[0], lines[0][1].split()[1], 3)
    deals: list[list[int]] = []
    for p, (number, line) in enumerate(lines[1:5]):
        words = line.split()
        if words[:3] != ["Player", str(p), "Deal"] or len(words) != 16:
            raise BotzoneError(f"line {number}: player {p}'s deal of 13 tiles expected")
        deals.append([_tile((number, line), w) for w in words[3:]])
    steps = lines[5:]
    draws: list[list[int]] = [[], [], [], []]
    for number, line in steps:
        words = line.split()
        if len(words) >= 4 and words[0] == "Player" and words[2] == "Draw":
            draws[_number((number, line), words[1], 3)].append(_tile((number, line), words[3]))
    rules = GuobiaoRules({"flowers": False, "botzone_scoring": True})
    table = Table(rules, wall=_wall(deals, draws, game.match), dealer=0, prevalent_wind=wind,
                  layout="four_part", every_seat_answers=False)
    fan: int | None = None
    for number, line in steps:
        words = line.split()
        where = f"line {number} ({line!r})"
        if words[0] == "Fan":
            fan = _number((number, line), words[1], 1000)
            continue
        if words[0] == "Huang":
            if not table.is_over or table.result is None or table.result.winner is not None:
                return f"{where}: the hand is not an exhaustive draw here"
            continue
        if words[0] == "Score":
            return _check_end(table, fan, words, where)
        if len(words) < 4 or words[0] != "Player":
            return f"{where}: not an action"
        seat, kind, tile = _number((number, line), words[1], 3), words[2].upper(), words[3]
        claims = [(seat, kind, tile)]
        rest = words[4:]
        while len(rest) >= 5 and rest[0] == "Ignore" and rest[1] == "Player":
            claims.append((_number((number, line), rest[2], 3), rest[3].upper(), rest[4]))
            rest = rest[5:]
        if table.phase in (Phase.CLAIM, Phase.ROB):
            if kind in _CLAIMS:
                problem = _answer_window(table, claims, (number, line))
                if problem:
                    return f"{where}: {problem}"
                continue
            _pass_window(table)
        if table.is_over:
            return f"{where}: the hand is already over"
        problem = _turn(table, seat, kind, _tile((number, line), tile))
        if problem:
            return f"{where}: {problem}"
    return f"game {game.match}: no Score line"


def _turn(table: Table, seat: int, kind: str, tile: int) -> str | None:
    if table.phase is not Phase.TURN or table.current != seat:
        return f"it is not player {seat}'s turn"
    if kind == "DRAW":
        drawn = table.observation(seat).drawn
        return None if drawn == tile else "the wall gives another tile"
    action: Action
    if kind == "PLAY":
        action = actions.Discard(tile)
    elif kind == "HU":
        action = actions.Win()
    elif kind == "ANGANG":
        action = actions.ConcealedKong(tile)
    elif kind == "BUGANG":
        action = actions.AddedKong(tile)
    else:
        return f"{kind} is not a move of one's turn"
    return _apply(table, seat, action)


def _answer_window(
    table: Table, claims: list[tuple[int, str, str]], line: tuple[int, str]
) -> str | None:
    """Apply the claims of a line (the one made and those it overrode), passes elsewhere."""
    answers: dict[int, Action] = {}
    for seat, kind, name in claims:
        tile = _tile(line, name)
        if kind == "CHI":
            answers[seat] = actions.Chow(tile - 1)
        elif kind == "PENG":
            answers[seat] = actions.Pung()
        elif kind == "GANG":
            answers[seat] = actions.ExposedKong()
        else:
            answers[seat] = actions.Win()
    made = claims[0][0]
    for seat in list(table.to_act()):
        problem = _apply(table, seat, answers.pop(seat, actions.Pass()))
        if problem:
            return problem
    if answers:
        return f"player {next(iter(answers))} may not claim this tile"
    if table.is_over:
        winner = table.result.winner if table.result is not None else None
        return None if winner == made else f"the engine gives the win to player {winner}"
    if table.current != made:
        return f"the engine gives the tile to player {table.current}"
    return None


def _pass_window(table: Table) -> None:
    for seat in list(table.to_act()):
        table.apply(seat, actions.Pass())


def _apply(table: Table, seat: int, action: Action) -> str | None:
    try:
        table.apply(seat, action)
    except IllegalAction as error:
        return f"illegal: {error}"
    return None


def _check_end(table: Table, fan: int | None, words: list[str], where: str) -> str | None:
    result = table.result
    if result is None:
        return f"{where}: the hand is not over here"
    try:
        scores = tuple(int(w) for w in words[1:5])
    except ValueError:
        return f"{where}: the scores are not numbers"
    if result.winner is not None and fan is not None and result.points != fan:
        return f"{where}: {fan} fans, majiang counts {result.points}"
    if scores != result.deltas:
        return f"{where}: majiang's scores are {' '.join(map(str, result.deltas))}"
    return None


def _wall(deals: list[list[int]], draws: list[list[int]], match: str) -> list[int]:
    rest = Counter(t for t in range(34) for _ in range(4))
    rest.subtract(t for part in deals + draws for t in part)
    if min(rest.values()) < 0:
        raise BotzoneError(f"game {match}: more than four copies of a tile are dealt and drawn")
    filler = sorted(rest.elements())
    wall: list[int] = []
    for p in range(4):
        part = deals[p] + draws[p]
        if len(part) > 34:
            raise BotzoneError(f"game {match}: player {p} draws more than his part of the wall")
        take = 34 - len(part)
        wall += part + filler[:take]
        filler = filler[take:]
    return wall


def _tile(line: tuple[int, str], name: str) -> int:
    try:
        tile = botzone_tile(name)
    except BotzoneError:
        raise BotzoneError(f"line {line[0]}: not a tile: {name!r}") from None
    if tile >= 34:
        raise BotzoneError(f"line {line[0]}: a flower in a game without flowers")
    return tile


def _number(line: tuple[int, str], text: str, high: int) -> int:
    if not text.lstrip("-").isdigit() or not 0 <= int(text) <= high:
        raise BotzoneError(f"line {line[0]}: {text!r} is not a number from 0 to {high}")
    return int(text)


__all__ = ["DatasetGame", "read_dataset", "replay_game"]
