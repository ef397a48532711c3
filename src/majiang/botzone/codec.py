"""Botzone's Chinese Standard Mahjong requests and responses, and the two ways a turn's input
and output are written (JSON and simple I/O), as the Botzone wiki documents them.

Requests (judge -> bot), one line each: ``0 id quan``; ``1 h0 h1 h2 h3 t1 .. t13 f..`` (the
flower counts of players 0-3, the 13 tiles, then every player's flowers in player order);
``2 t`` (the bot draws t); ``3 p BUHUA f``, ``3 p DRAW``, ``3 p PLAY t``, ``3 p PENG t``,
``3 p CHI mid t``, ``3 p GANG``, ``3 p BUGANG t``. Responses (bot -> judge): ``PASS``,
``PLAY t``, ``GANG t`` (concealed, on one's draw), ``BUGANG t``, ``PENG t``, ``CHI mid t``,
``GANG`` (exposed, on a discard), ``HU``. The tile after ``PENG`` and ``CHI`` is the tile
discarded after the claim.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .tiles import BotzoneError, botzone_name, botzone_tile

KEEP_RUNNING = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
"""The line a bot prints after its output to stay alive for the next turn (long-running)."""

ACTIONS = ("BUHUA", "DRAW", "PLAY", "PENG", "CHI", "GANG", "BUGANG")
"""The words of ``3 p WORD ...`` requests."""


@dataclass(frozen=True, slots=True)
class Request:
    """One request. ``kind`` is ``"0"``, ``"1"``, ``"2"`` or one of :data:`ACTIONS`."""

    kind: str
    player: int = -1
    """``0``: this bot's id; ``3 p ...``: the player acting."""
    tile: int | None = None
    """The tile drawn (``2``), the flower (``BUHUA``), the discard (``PLAY``/``PENG``/``CHI``),
    the tile added (``BUGANG``)."""
    mid: int | None = None
    """``CHI``: the middle tile of the chow."""
    quan: int = 0
    """``0``: the prevalent wind (0-3, East-North)."""
    hand: tuple[int, ...] = ()
    """``1``: the 13 tiles dealt."""
    flowers: tuple[tuple[int, ...], ...] = ()
    """``1``: each player's flowers at the deal."""

    def __str__(self) -> str:
        return format_request(self)


@dataclass(frozen=True, slots=True)
class Response:
    """One response. ``kind`` is PASS, PLAY, GANG, BUGANG, PENG, CHI or HU; ``tile`` the tile
    played, konged or discarded after the claim (None for PASS, HU and the exposed ``GANG``)."""

    kind: str
    tile: int | None = None
    mid: int | None = None

    def __str__(self) -> str:
        return format_response(self)


def _int(text: str, low: int, high: int, what: str) -> int:
    if not text.isdigit() or not low <= int(text) <= high:
        raise BotzoneError(f"bad {what} {text!r} in a request")
    return int(text)


def parse_request(line: str) -> Request:
    """A request line; raises :class:`BotzoneError` naming what is wrong."""
    words = line.split()
    if not words:
        raise BotzoneError("an empty request")
    head = words[0]
    try:
        if head == "0" and len(words) == 3:
            return Request("0", _int(words[1], 0, 3, "player"), quan=_int(words[2], 0, 3, "quan"))
        if head == "1" and len(words) >= 18:
            counts = [_int(w, 0, 8, "flower count") for w in words[1:5]]
            hand = tuple(botzone_tile(w) for w in words[5:18])
            rest = [botzone_tile(w) for w in words[18:]]
            if len(rest) != sum(counts) or any(t < 34 for t in rest) or any(t >= 34 for t in hand):
                raise BotzoneError(f"bad deal request {line!r}")
            flowers, start = [], 0
            for n in counts:
                flowers.append(tuple(rest[start : start + n]))
                start += n
            return Request("1", hand=hand, flowers=tuple(flowers))
        if head == "2" and len(words) == 2:
            return Request("2", tile=botzone_tile(words[1]))
        if head == "3" and len(words) >= 3 and words[2] in ACTIONS:
            player, word, args = _int(words[1], 0, 3, "player"), words[2], words[3:]
            if word in ("DRAW", "GANG") and not args:
                return Request(word, player)
            if word in ("BUHUA", "PLAY", "PENG", "BUGANG") and len(args) == 1:
                return Request(word, player, botzone_tile(args[0]))
            if word == "CHI" and len(args) == 2:
                return Request(word, player, botzone_tile(args[1]), mid=botzone_tile(args[0]))
    except BotzoneError as error:
        raise BotzoneError(f"bad request {line!r}: {error}") from None
    raise BotzoneError(f"not a Chinese Standard Mahjong request: {line!r}")


def format_request(request: Request) -> str:
    """The line of a request (the inverse of :func:`parse_request`)."""
    kind = request.kind
    if kind == "0":
        return f"0 {request.player} {request.quan}"
    if kind == "1":
        counts = " ".join(str(len(f)) for f in request.flowers)
        tiles = [botzone_name(t) for t in request.hand]
        tiles += [botzone_name(t) for f in request.flowers for t in f]
        return f"1 {counts} {' '.join(tiles)}"
    if kind == "2":
        assert request.tile is not None
        return f"2 {botzone_name(request.tile)}"
    words = ["3", str(request.player), kind]
    if kind == "CHI":
        assert request.mid is not None
        words.append(botzone_name(request.mid))
    if request.tile is not None:
        words.append(botzone_name(request.tile))
    return " ".join(words)


_RESPONSE_TILES = {"PASS": 0, "HU": 0, "PLAY": 1, "BUGANG": 1, "PENG": 1, "CHI": 2}


def parse_response(text: str) -> Response:
    """A response as Botzone's judge reads it: words separated by single spaces, nothing else
    (a trailing line end is ignored). Raises :class:`BotzoneError` for anything else."""
    words = text.rstrip("\r\n").split(" ")
    kind, args = words[0], words[1:]
    expected = _RESPONSE_TILES.get(kind)
    if kind == "GANG" and len(args) <= 1:
        expected = len(args)
    if expected is None or len(args) != expected:
        raise BotzoneError(f"not a Chinese Standard Mahjong response: {text!r}")
    tiles = [botzone_tile(a) for a in args]
    if any(t >= 34 for t in tiles):
        raise BotzoneError(f"a flower in a response: {text!r}")
    if kind == "CHI":
        return Response(kind, tiles[1], mid=tiles[0])
    return Response(kind, tiles[0] if tiles else None)


def format_response(response: Response) -> str:
    """The text of a response (the inverse of :func:`parse_response`)."""
    words = [response.kind]
    if response.mid is not None:
        words.append(botzone_name(response.mid))
    if response.tile is not None:
        words.append(botzone_name(response.tile))
    return " ".join(words)


# ---------------------------------------------------------------------- a turn's input and output


@dataclass(slots=True)
class TurnInput:
    """What a bot receives in one turn: every request so far (the last is this turn's), its
    own earlier responses, and the data it saved last turn and the global data."""

    requests: list[str]
    responses: list[str]
    data: str = ""
    globaldata: str = ""


@dataclass(slots=True)
class TurnOutput:
    """What a bot prints in one turn."""

    response: str
    debug: str = ""
    data: Any = ""
    globaldata: Any = ""


def json_input(turn: TurnInput, time_limit: float | None = None) -> str:
    """The one-line JSON input of a turn (``requests``, ``responses``, ``data``, ``globaldata``,
    and ``time_limit`` in seconds and ``memory_limit`` in MB)."""
    data: dict[str, Any] = {
        "requests": turn.requests,
        "responses": turn.responses,
        "data": turn.data,
        "globaldata": turn.globaldata,
    }
    if time_limit is not None:
        data["time_limit"] = time_limit
        data["memory_limit"] = 256
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def simple_input(turn: TurnInput) -> str:
    """The simple input of a turn: the turn number ``n``, the ``2n - 1`` requests and responses
    alternating, then the data line and the global data line."""
    lines = [str(len(turn.requests))]
    for i, request in enumerate(turn.requests):
        lines.append(request)
        if i < len(turn.responses):
            lines.append(turn.responses[i])
    lines += [_one_line(turn.data), _one_line(turn.globaldata)]
    return "\n".join(lines) + "\n"


def _one_line(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text.replace("\n", " ")


def parse_json_input(line: str) -> TurnInput:
    """A bot's side of :func:`json_input`; raises :class:`BotzoneError`."""
    try:
        data = json.loads(line)
    except (ValueError, RecursionError):
        raise BotzoneError(f"the input is not JSON: {line[:80]!r}") from None
    if not isinstance(data, dict):
        raise BotzoneError("the JSON input is not an object")
    requests, responses = data.get("requests"), data.get("responses", [])
    if (
        not isinstance(requests, list)
        or not isinstance(responses, list)
        or not all(isinstance(r, str) for r in [*requests, *responses])
        or len(responses) != len(requests) - 1
    ):
        raise BotzoneError("the JSON input needs n request strings and n - 1 response strings")
    data_, global_ = data.get("data", ""), data.get("globaldata", "")
    return TurnInput(list(requests), list(responses), _one_line(data_), _one_line(global_))


def read_simple_input(readline: Callable[[], str]) -> TurnInput:
    """A bot's side of :func:`simple_input`, read line by line (``readline`` returns ``""`` at
    the end): exactly the lines of one turn, so that a long-running bot can go on reading."""
    first = readline()
    if not first.strip().isdigit() or int(first) < 1:
        raise BotzoneError(f"the simple input starts with the turn number, not {first!r}")
    n = int(first)
    lines = [readline().rstrip("\r\n") for _ in range(2 * n - 1)]
    data, globaldata = readline().rstrip("\r\n"), readline().rstrip("\r\n")
    return TurnInput(lines[0::2], lines[1::2], data, globaldata)


def json_output(output: TurnOutput) -> str:
    """A bot's one-line JSON output."""
    data: dict[str, Any] = {"response": output.response}
    for name in ("debug", "data", "globaldata"):
        value = getattr(output, name)
        if value:
            data[name] = value
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def parse_json_output(lines: Sequence[str]) -> TurnOutput:
    """The judge's side of :func:`json_output`: the whole output of the turn is read as one
    JSON object, which may run over several lines (the styled JSON that jsoncpp writes, as the
    official sample bot prints it) or be one compact line; text after the object is ignored, as
    jsoncpp's reader ignores it."""
    text = "\n".join(lines).strip()
    try:
        data, _ = _DECODER.raw_decode(text)
    except (ValueError, RecursionError):
        shown = " ".join(text.split())
        raise BotzoneError(f"the output is not JSON: {shown[:80]!r}") from None
    if not isinstance(data, dict) or not isinstance(data.get("response"), str):
        shown = " ".join(text.split())
        raise BotzoneError(f"the JSON output has no 'response' string: {shown[:80]!r}")
    return TurnOutput(
        data["response"], str(data.get("debug", "")), data.get("data", ""),
        data.get("globaldata", ""),
    )


_DECODER = json.JSONDecoder()


def parse_simple_output(lines: Sequence[str]) -> TurnOutput:
    """The judge's side of simple output: the response, then optional debug, data and global
    data lines."""
    if not lines:
        raise BotzoneError("the bot printed nothing")
    rest = list(lines[1:])
    return TurnOutput(
        lines[0].rstrip("\r\n"),
        rest[0] if rest else "",
        rest[1] if len(rest) > 1 else "",
        "\n".join(rest[2:]),
    )


__all__ = [
    "ACTIONS",
    "KEEP_RUNNING",
    "Request",
    "Response",
    "TurnInput",
    "TurnOutput",
    "format_request",
    "format_response",
    "json_input",
    "json_output",
    "parse_json_input",
    "parse_json_output",
    "parse_request",
    "parse_response",
    "parse_simple_output",
    "read_simple_input",
    "simple_input",
]
