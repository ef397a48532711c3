"""A majiang seat played by a Botzone program: :class:`BotzoneAgent` and :func:`agent_from_spec`.

The agent is an ordinary :data:`~majiang.engine.match.Agent`: given the seat's observation it
returns one of ``obs.legal_actions``. In between it turns what the seat has seen into Botzone
requests (:mod:`.translate`), gives each to the program as one Botzone turn (every request is a
turn, and the program must answer ``PASS`` where it has nothing to decide), and maps the answer
to the decision to a legal action. Botzone's PENG and CHI name the discard that follows the
claim: the agent plays that discard itself when the engine asks for it.

A fault ends the program's game, as on Botzone: a timeout, a crash, garbage, a move Botzone's
judge rejects (or anything but PASS where PASS is due), or a HU that is no legal win. It is
recorded as a :class:`Fault` with the judge's verdict (WA, WH, TLE, RE; the first of the hand
is charged -30, +10 to each other player, under the ``botzone_scoring`` option), the program is
stopped, and the seat plays on for the rest of the hand by passing every claim and discarding
the tile it drew. A move refused for the wall alone (a claim of the final discard other than a
win, a kong on the last turn) is the judge's WA under ``botzone_scoring`` (``strict``);
otherwise it becomes a pass, or the discard of the drawn tile, without a fault.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..engine.actions import Action, Discard
from ..engine.match import Agent
from ..engine.state import Observation
from .answers import Misplay, answer_move, fallback
from .codec import TurnInput, format_request
from .process import BotProcess
from .tiles import BotzoneError
from .translate import RequestDeriver

DEFAULT_TIME_LIMIT = 1.0
"""Seconds per turn: Botzone's limit for Chinese Standard Mahjong (the first turn of a game gets
twice as long, as on Botzone)."""


@dataclass(frozen=True, slots=True)
class Fault:
    """A Botzone program's fault in one hand (see the module docstring)."""

    seat: int
    kind: str
    """``timeout``, ``crash``, ``garbage``, ``illegal`` (a move the judge rejects),
    ``not_pass`` (anything but PASS where PASS is due) or ``false_win``."""
    request: str
    response: str | None
    detail: str
    charged: bool
    """The first fault of its seat in the hand: the one Botzone scores (-30 / +10)."""

    @property
    def verdict(self) -> str:
        """The judge's name for it: ``TLE`` (timeout), ``RE`` (crash), ``WH`` (a false win)
        or ``WA`` (any other response it cannot accept)."""
        return VERDICTS[self.kind]

    def to_json(self) -> dict[str, Any]:
        """Stable JSON fields."""
        return {
            "seat": self.seat, "verdict": self.verdict, "kind": self.kind,
            "request": self.request, "response": self.response, "detail": self.detail,
            "charged": self.charged,
        }


VERDICTS = {
    "timeout": "TLE", "crash": "RE", "false_win": "WH", "garbage": "WA", "illegal": "WA",
    "not_pass": "WA",
}
"""The judge's verdict of each fault kind."""


class BotzoneAgent:
    """A seat played by a Botzone program run as a subprocess (see the module docstring).

    ``command``: the program and its arguments; ``io``: ``json`` or ``simple``;
    ``keep_running``: the program may stay alive between turns (long-running mode);
    ``time_limit``: seconds per turn (twice that for a game's first turn).
    """

    def __init__(
        self,
        command: Sequence[str],
        *,
        io: str = "json",
        keep_running: bool = False,
        time_limit: float = DEFAULT_TIME_LIMIT,
        seat: int | None = None,
        name: str | None = None,
        cwd: str | None = None,
        env: dict[str, str] | None = None,
    ) -> None:
        if time_limit <= 0:
            raise BotzoneError(f"the time limit must be positive, not {time_limit}")
        self.process = BotProcess(command, io=io, keep_running=keep_running, cwd=cwd, env=env)
        self.time_limit = time_limit
        self.seat = seat
        self.name = name or "botzone:" + shlex.join(command)
        self.faults: list[Fault] = []
        """Every fault, all hands."""
        self.hand_faults: list[Fault] = []
        """The faults of the current (or last) hand."""
        self.adjusted: list[str] = []
        """Moves of the current hand that Botzone allows but majiang does not offer, replaced
        without a fault."""
        self.requests: list[str] = []
        self.responses: list[str] = []
        self.strict = False
        """Charge moves refused for the wall alone (a kong on the last turn, a claim of the
        final discard) as the judge's WA instead of replacing them: set by ``play_hand`` under
        Botzone's scoring."""
        self._deriver = RequestDeriver()
        self._data: Any = ""
        self._globaldata: Any = ""
        self._out = False
        self._discard: int | None = None

    # ------------------------------------------------------------------ the agent

    def __call__(self, obs: Observation) -> Action:
        if self.seat is not None and obs.seat != self.seat:
            raise BotzoneError(f"{self.name} sits at seat {self.seat}, not {obs.seat}")
        if self._deriver.prev is not None and self._deriver.is_new_hand(obs):
            self.new_hand()
        requests = [format_request(r) for r in self._deriver.requests(obs)]
        action = self._decide(obs, requests)
        self._deriver.note(action)
        return action

    def _decide(self, obs: Observation, requests: list[str]) -> Action:
        if not requests:  # the discard named with the PENG or CHI
            tile, self._discard = self._discard, None
            if tile is not None and Discard(tile) in obs.legal_actions:
                return Discard(tile)
            return fallback(obs)
        if self._out:
            self.requests += requests
            return fallback(obs)
        try:
            for request in requests[:-1]:
                if self._turn(request) != "PASS":
                    raise Misplay("not_pass", "only PASS may answer this request")
            move = answer_move(obs, self._turn(requests[-1]), strict=self.strict)
        except Misplay as fault:
            self._fault(obs.seat, fault)
            return fallback(obs)
        if move.adjusted:
            self.adjusted.append(move.adjusted)
        self._discard = move.discard
        return move.action

    def _turn(self, request: str) -> str:
        self.requests.append(request)
        history = TurnInput(self.requests, self.responses, self._data, self._globaldata)
        limit = self.time_limit * (2 if len(self.requests) == 1 else 1)
        reply = self.process.turn(history, limit)
        if reply.output is None:
            self.responses.append("")
            raise Misplay(reply.fault or "crash", reply.detail)
        self.responses.append(reply.output.response)
        self._data = reply.output.data
        self._globaldata = reply.output.globaldata or self._globaldata
        return reply.output.response

    def _fault(self, seat: int, fault: Misplay) -> None:
        """Record a fault; the program's game is over (it is stopped, the seat plays on)."""
        record = Fault(
            seat, fault.kind, self.requests[-1] if self.requests else "",
            self.responses[-1] if self.responses and self.responses[-1] else None,
            fault.detail, charged=not self.hand_faults,
        )
        self.hand_faults.append(record)
        self.faults.append(record)
        self._out = True
        self.process.close()

    # ------------------------------------------------------------------ hands and the program

    def new_hand(self, dealer_draw_flowers: int = 0, dealt: Sequence[int] = ()) -> None:
        """Start a new Botzone game (the agent notices new hands by itself; a driver that
        plays the same position twice in a row may call this in between).

        ``dealer_draw_flowers``: for a single-ended table, how many of the dealer's flowers
        came with his 14th tile (``wall.dealer_draw_flowers``): Botzone announces them as
        ``BUHUA`` after the deal request, and so does the agent. ``dealt``: the seat's tiles
        in the order dealt (``Table.dealt``), which the deal request keeps, as Botzone's."""
        self.process.close()
        self._deriver.reset(dealer_draw_flowers, dealt)
        self.requests, self.responses = [], []
        self.hand_faults, self.adjusted = [], []
        self._data, self._out, self._discard = "", False, None

    def end_hand(self) -> None:
        """The hand is over: stop the program (its game has ended)."""
        self.process.close()

    def close(self) -> None:
        """Stop the program."""
        self.process.close()

    def __enter__(self) -> BotzoneAgent:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


BOTZONE_PREFIX = "botzone"


def is_botzone_spec(spec: str) -> bool:
    """Whether a seat spec names a Botzone program (``botzone:COMMAND``)."""
    head = spec.split(":", 1)[0]
    return ":" in spec and head.split("/")[0] == BOTZONE_PREFIX


def agent_from_spec(
    spec: str,
    seat: int | None = None,
    time_limit: float = DEFAULT_TIME_LIMIT,
    *,
    seed: int = 0,
    io: str = "json",
    keep_running: bool = False,
    cwd: str | None = None,
) -> Agent:
    """The agent of a seat spec: ``botzone[/json|/simple][/keep]:COMMAND`` seats a Botzone
    program (``COMMAND`` split like a shell line; ``/simple`` simple I/O, ``/keep``
    long-running, otherwise ``io`` and ``keep_running``), any other spec is a majiang bot by
    name (``fan``, ``efficient``, ``random``) seeded with ``seed``."""
    if not is_botzone_spec(spec):
        from ..bots import check_bot, make_bot
        from ..rules.registry import botzone_rules

        check_bot(spec, botzone_rules(), heavy=True)
        return make_bot(spec, seed)
    head, command_line = spec.split(":", 1)
    for word in head.split("/")[1:]:
        if word in ("json", "simple"):
            io = word
        elif word == "keep":
            keep_running = True
        elif word == "once":
            keep_running = False
        else:
            raise BotzoneError(f"unknown Botzone seat option {word!r} in {spec!r}")
    try:
        command = shlex.split(command_line)
    except ValueError as error:
        raise BotzoneError(f"bad command in {spec!r}: {error}") from None
    if not command:
        raise BotzoneError(f"no command in {spec!r}")
    return BotzoneAgent(
        command, io=io, keep_running=keep_running, time_limit=time_limit, seat=seat,
        name=spec, cwd=cwd,
    )


__all__ = [
    "DEFAULT_TIME_LIMIT",
    "VERDICTS",
    "BotzoneAgent",
    "Fault",
    "agent_from_spec",
    "is_botzone_spec",
]
