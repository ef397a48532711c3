"""Any majiang bot as a Botzone program: requests in, responses out.

:class:`BotzoneBot` folds a game's requests into the player's view
(:class:`~majiang.botzone.tracker.RequestTracker`), asks the majiang bot at each decision with the
observation the engine would have given it, and writes its choice as Botzone's response. A chow
or pung is one response on Botzone (``PENG t``, ``CHI mid t``): the bot is asked for the claim,
then for the discard from the position after the claim, exactly the two questions the engine
asks. :func:`run` speaks the turn protocol on a pair of streams, once or long-running.
"""

from __future__ import annotations

import json
from typing import TextIO

from ..engine.actions import (
    Action,
    Chow,
    Discard,
    Pung,
)
from ..engine.match import Agent
from ..engine.state import Observation
from .answers import response_text
from .codec import KEEP_RUNNING, TurnOutput, json_output, parse_json_input, read_simple_input
from .process import IO_MODES
from .tiles import BotzoneError
from .tracker import RequestTracker


class BotzoneBot:
    """A majiang agent answering the requests of Botzone games (see the module docstring)."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self.view = RequestTracker()

    def replay(self, requests: list[str], responses: list[str]) -> str:
        """One-shot: rebuild the game from its history and answer the last request."""
        self.view = RequestTracker()
        for request, response in zip(requests[:-1], responses, strict=False):
            self.view.apply(request, response)
        return self.answer(requests[-1])

    def answer(self, request: str) -> str:
        """Fold the next request in and give the response."""
        if request.split()[:1] == ["0"]:
            self.view = RequestTracker()  # a new game
        self.view.apply(request)
        response = self._respond() if self.view.phase is not None else "PASS"
        self.view.note(response)
        return response

    def _ask(self, obs: Observation) -> Action:
        action = self.agent(obs)
        if action not in obs.legal_actions:
            raise BotzoneError(f"the bot chose {action}, which is not legal here")
        return action

    def _respond(self) -> str:
        obs = self.view.observation()
        action = self._ask(obs)
        if isinstance(action, Pung | Chow):
            then = self._ask(self.view.after_claim(action))
            assert isinstance(then, Discard)
            return response_text(action, then.tile)
        return response_text(action)


def _request_line(line: str) -> str:
    """A later turn's request in long-running mode: the request line itself (also accepted: the
    request as a JSON string, or a JSON input whose last request is this turn's)."""
    text = line.strip()
    if text.startswith(("{", '"')):
        try:
            value = json.loads(text)
        except (ValueError, RecursionError):
            return text
        if isinstance(value, str):
            return value
        if isinstance(value, dict) and isinstance(value.get("requests"), list):
            return str(value["requests"][-1])
    return text


def run(bot: BotzoneBot, stdin: TextIO, stdout: TextIO, io: str, keep_running: bool) -> None:
    """Speak Botzone's turn protocol: one turn, or (``keep_running``) every turn of a game."""
    if io not in IO_MODES:
        raise BotzoneError(f"Botzone I/O is json or simple, not {io!r}")
    turn = parse_json_input(stdin.readline()) if io == "json" else read_simple_input(stdin.readline)
    _write(stdout, io, bot.replay(turn.requests, turn.responses), keep_running)
    while keep_running:
        line = stdin.readline()
        if not line:
            return
        if line.strip():
            _write(stdout, io, bot.answer(_request_line(line)), keep_running)


def _write(stdout: TextIO, io: str, response: str, keep_running: bool) -> None:
    stdout.write((json_output(TurnOutput(response)) if io == "json" else response) + "\n")
    if keep_running:
        stdout.write(KEEP_RUNNING + "\n")
    stdout.flush()


__all__ = ["BotzoneBot", "run"]
