"""Botzone match logs replayed through the engine (``majiang botzone replay LOG``), and hands
of the engine written as such logs (``majiang botzone export RECORD``).

A match log of Chinese Standard Mahjong, as Botzone lets one download it, is a JSON object
``{"log": [...], "initdata": ...}``. Its ``log`` alternates the judge's turns and the players'
answers: ``log[2k]`` is ``{"output": {"command": "request" | "finish", "content": {"0": request,
...}, "display": {...}}, ...}`` and ``log[2k + 1]`` is ``{"0": {"verdict": "OK", "response":
"PASS", ...}, ...}``. ``initdata`` (an object, or a JSON string of one; otherwise the one the
judge's first output carries) holds ``walltiles`` and ``quan``. The judge's last output
(``"command": "finish"``) says how the game ended: ``display.action`` (``HU``, ``HUANG``, or the
verdict of a fault: ``WA``, ``WH``, ``TLE``, ``RE``...), ``display.player``, ``display.fanCnt``,
and each player's score in ``content``.

:func:`replay_log` deals the log's wall on a table of the judge's layout (the flowers as the
walltiles say) and seats four programs that give the logged answers: every request the engine's
seats send must be the one the judge sent, every answer is checked as the judge checks it, and
the end, the fans and the scores must be the judge's.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ..engine.actions import (
    Action,
    Chow,
    Discard,
    Pung,
)
from ..engine.record import record_of, table_from_header
from ..engine.state import Phase
from ..engine.table import Table
from ..rules.guobiao.ruleset import GuobiaoRules
from .agent import BotzoneAgent
from .answers import response_text
from .codec import TurnInput, TurnOutput, format_request
from .play import play_hand
from .process import BotProcess, Reply
from .tiles import BotzoneError
from .translate import RequestDeriver
from .wall import dealer_draw_flowers, from_walltiles, to_walltiles, walltiles_flowers


@dataclass(frozen=True, slots=True)
class MatchLog:
    """A Botzone match log, read: the wall, the prevalent wind, each player's requests and
    answers (with their platform verdicts), and the judge's last output."""

    walltiles: str
    quan: int
    requests: list[list[str]]
    responses: list[list[tuple[str, str]]]
    """(verdict, response) of each player's answers, turn by turn."""
    end: dict[str, Any]
    """The judge's last output (``command``, ``content``, ``display``)."""

    @property
    def end_fault(self) -> bool:
        """Whether the judge ended the game at a player's fault (neither a win nor a draw)."""
        return (self.end.get("display") or {}).get("action") not in ("HU", "HUANG")


@dataclass(slots=True)
class LogReplay:
    """What the replay found: the table, and the first divergence (None: none)."""

    table: Table
    divergence: str | None
    turns: int
    """The judge's turns of the log."""
    ending: str
    """How the judge ended the game, in words."""
    deltas: tuple[int, int, int, int] = (0, 0, 0, 0)
    faults: list[str] = field(default_factory=list)


def read_log(data: Any) -> MatchLog:
    """A :class:`MatchLog` from the parsed JSON of a log; raises :class:`BotzoneError` naming
    what is missing."""
    if not isinstance(data, dict) or not isinstance(data.get("log"), list) or not data["log"]:
        raise BotzoneError("a Botzone match log is an object with a non-empty 'log' list")
    entries = data["log"]
    outputs: list[dict[str, Any]] = []
    for entry in entries[0::2]:
        output = entry.get("output") if isinstance(entry, dict) else None
        if not isinstance(output, dict):
            raise BotzoneError("every even entry of the log is the judge's, with an 'output'")
        outputs.append(output)
    init = _initdata(data.get("initdata"), outputs[0])
    walltiles, quan = init.get("walltiles"), init.get("quan", 0)
    if not isinstance(walltiles, str) or not walltiles.strip():
        raise BotzoneError("the log's initdata has no walltiles")
    if not isinstance(quan, int) or quan not in range(4):
        raise BotzoneError(f"the log's quan is 0-3, not {quan!r}")
    requests: list[list[str]] = [[], [], [], []]
    responses: list[list[tuple[str, str]]] = [[], [], [], []]
    end: dict[str, Any] | None = None
    for k, output in enumerate(outputs):
        if output.get("command") == "finish":
            end = output
            break
        content = output.get("content")
        answers = entries[2 * k + 1] if 2 * k + 1 < len(entries) else None
        if not isinstance(content, dict) or not isinstance(answers, dict):
            raise BotzoneError(f"turn {k + 1} of the log has no requests or no answers")
        for player in range(4):
            request, answer = content.get(str(player)), answers.get(str(player))
            if not isinstance(request, str) or not isinstance(answer, dict):
                raise BotzoneError(f"turn {k + 1} of the log lacks player {player}")
            response = answer.get("response", "")
            requests[player].append(request)
            responses[player].append(
                (str(answer.get("verdict", "OK")), response if isinstance(response, str) else "")
            )
    if end is None:
        raise BotzoneError("the log does not end with the judge's finish")
    return MatchLog(walltiles.strip(), quan, requests, responses, end)


def _initdata(value: Any, first: dict[str, Any]) -> dict[str, Any]:
    if isinstance(value, str) and value.strip().startswith("{"):
        try:
            value = json.loads(value)
        except ValueError:
            raise BotzoneError("the log's initdata is not JSON") from None
    if isinstance(value, dict) and value.get("walltiles"):
        return value
    carried = first.get("initdata")
    return carried if isinstance(carried, dict) else {}


class _LoggedPlayer(BotProcess):
    """A player of a log: each turn checks that the request is the judge's and gives the
    logged answer (a platform verdict other than OK becomes that fault)."""

    def __init__(self, player: int, log: MatchLog, replay: LogReplay) -> None:
        super().__init__(["botzone-log"])
        self.player, self.log, self.replay = player, log, replay

    def turn(self, history: TurnInput, time_limit: float) -> Reply:
        k = len(history.requests) - 1
        mine = self.log.requests[self.player]
        if k >= len(mine) and self.log.end_fault:  # the judge ended the game at a fault
            words = history.requests[-1].split()
            return Reply(TurnOutput(f"PLAY {words[1]}" if words[0] == "2" else "PASS"))
        if k >= len(mine) or history.requests[-1] != mine[k]:
            if self.replay.divergence is None:
                logged = repr(mine[k]) if k < len(mine) else "none (the game was over)"
                self.replay.divergence = (
                    f"turn {k + 1}, player {self.player}: majiang's request is "
                    f"{history.requests[-1]!r}, the judge's {logged}"
                )
            return Reply(None, "crash", "the log diverged here")
        verdict, response = self.log.responses[self.player][k]
        if verdict == "TLE":
            return Reply(None, "timeout", "TLE in the log")
        if verdict != "OK":
            return Reply(None, "crash", f"{verdict} in the log")
        return Reply(TurnOutput(response))


def replay_log(log: MatchLog, layout: str = "four_part") -> LogReplay:
    """Replay a match log on a table of ``layout`` (the judge of today's ``four_part``, or the
    older judge's ``single_end``); see the module docstring."""
    rules = GuobiaoRules(
        {"botzone_scoring": True, "flowers": walltiles_flowers(log.walltiles)}
    )
    table = Table(rules, wall=from_walltiles(log.walltiles, layout=layout), dealer=0,
                  prevalent_wind=log.quan, layout=layout)
    display = log.end.get("display") or {}
    replay = LogReplay(table, None, len(log.requests[0]), _ending(display))
    agents = []
    for player in range(4):
        agent = BotzoneAgent(["botzone-log"], seat=player, name=f"player {player}")
        agent.process = _LoggedPlayer(player, log, replay)
        agents.append(agent)
    hand = play_hand(table, agents)
    replay.deltas = hand.deltas
    replay.faults = [f"player {f.seat} {f.verdict} ({f.kind}) at {f.request!r}: {f.detail}"
                     for f in hand.faults if f.charged]
    if replay.divergence is None:
        replay.divergence = _compare_end(log, table, hand.deltas, hand.faults)
    return replay


def _ending(display: dict[str, Any]) -> str:
    action = display.get("action")
    if action == "HU":
        return f"player {display.get('player')} wins, {display.get('fanCnt')} fans"
    if action == "HUANG":
        return "exhaustive draw"
    return f"player {display.get('player')} {action}"


def _compare_end(
    log: MatchLog, table: Table, deltas: tuple[int, int, int, int], faults: list[Any]
) -> str | None:
    """How majiang's end differs from the judge's (None: it does not)."""
    display = log.end.get("display") or {}
    content = log.end.get("content") or {}
    try:
        scores = tuple(int(content[str(p)]) for p in range(4))
    except (KeyError, TypeError, ValueError):
        return "the judge's finish has no scores"
    result = table.result
    assert result is not None
    action, player = display.get("action"), display.get("player")
    charged = [f for f in faults if f.charged]
    if action == "HU":
        if charged:
            return f"the judge's end is a win; majiang charged {charged[0].verdict}"
        if result.winner != player or result.points != display.get("fanCnt"):
            return (f"the judge: player {player} wins with {display.get('fanCnt')} fans; "
                    f"majiang: {_ours(result)}")
    elif action == "HUANG":
        if result.winner is not None or charged:
            return f"the judge's game is drawn; majiang: {_ours(result)}"
    else:
        if not charged or (charged[0].seat, charged[0].verdict) != (player, action):
            first = f"{charged[0].verdict} of player {charged[0].seat}" if charged else "none"
            return f"the judge: {action} of player {player}; majiang's first fault: {first}"
        return None  # the judge's game ended at the fault, majiang's went on: its scores differ
    if deltas != scores:
        return f"the judge's scores {list(scores)}, majiang's {list(deltas)}"
    return None


def _ours(result: Any) -> str:
    if result.winner is None:
        return "an exhaustive draw"
    return f"player {result.winner} wins with {result.points} fans"




def export_log(table: Table) -> dict[str, Any]:
    """A finished hand of a four-part or single-ended table as a Botzone match log (the judge's
    game with the same wall and moves: player ids counted from the dealer); the inverse of
    :func:`replay_log`. Raises :class:`BotzoneError` for a table Botzone cannot have dealt."""
    if table.layout not in ("four_part", "single_end"):
        raise BotzoneError("only a four-part or single-ended table deals Botzone's game")
    if table.result is None:
        raise BotzoneError("the hand is not finished")
    fresh = table_from_header(record_of(table)[0])
    dealer = fresh.dealer
    extra = dealer_draw_flowers(fresh.wall.tiles, fresh.layout)
    derivers = [RequestDeriver() for _ in range(4)]
    for seat, deriver in enumerate(derivers):
        deriver.reset(extra if seat == dealer else 0, fresh.dealt[seat])
    requests: list[list[str]] = [[], [], [], []]
    responses: list[list[str]] = [[], [], [], []]
    history = table.history

    pending: dict[int, tuple[int, Action, list[int]]] = {}
    """Claims of a window not yet resolved: seat -> (its answer's place, the claim, the hand
    the claim would leave)."""

    for index, (seat, action) in enumerate(history):
        sent = [format_request(r) for r in derivers[seat].requests(fresh.observation(seat))]
        player = (seat - dealer) % 4
        if sent:
            requests[player] += sent
            responses[player] += ["PASS"] * (len(sent) - 1) + [response_text(action)]
            if isinstance(action, Pung | Chow):
                left = list(fresh.observation(seat).hand)
                offered = fresh.last_tile
                assert offered is not None
                used = [offered] * 2 if isinstance(action, Pung) else [
                    t for t in (action.low, action.low + 1, action.low + 2) if t != offered
                ]
                for t in used:
                    left.remove(t)
                pending[seat] = (len(responses[player]) - 1, action, left)
        derivers[seat].note(action)
        fresh.apply(seat, action)
        if pending and fresh.phase is not Phase.CLAIM:  # the window is resolved
            for claimer, (place, claim, left) in pending.items():
                if fresh.current == claimer and fresh.claimed_turn:  # it was made
                    after = next(a for s, a in history[index + 1 :] if s == claimer)
                    assert isinstance(after, Discard)
                    tile = after.tile
                else:  # overridden: the judge only checks that it is held
                    tile = max(left)
                responses[(claimer - dealer) % 4][place] = response_text(claim, tile)
            pending = {}
    turns = max(len(r) for r in requests)
    for k in range(turns):  # the requests of players not asked to decide: answered PASS
        known = [r[k] if k < len(r) else None for r in requests]
        for player in range(4):
            if known[player] is None:
                requests[player].append(_broadcast(known, player))
                responses[player].append("PASS")
    log: list[dict[str, Any]] = []
    for k in range(turns):
        content = {str(p): requests[p][k] for p in range(4)}
        log.append({"output": {"command": "request", "content": content, "display": {}},
                    "verdict": "OK"})
        log.append({str(p): {"verdict": "OK", "response": responses[p][k]} for p in range(4)})
    result = table.result
    scores = [result.deltas[(dealer + p) % 4] for p in range(4)]
    display: dict[str, Any] = {"action": "HUANG"}
    if result.winner is not None:
        display = {"action": "HU", "player": (result.winner - dealer) % 4,
                   "fanCnt": result.points}
    log.append({"output": {"command": "finish", "display": display,
                           "content": {str(p): scores[p] for p in range(4)}}, "verdict": "OK"})
    walltiles = to_walltiles(fresh.wall.tiles, layout=fresh.layout)
    return {"log": log, "initdata": {"walltiles": walltiles, "quan": table.prevalent_wind}}


def _broadcast(known: list[str | None], player: int) -> str:
    """The request of ``player`` in a turn from the others' requests: the same line, but for
    a draw, which the drawer sees as ``2 t`` and the others as ``3 p DRAW``."""
    for other, request in enumerate(known):
        if request is None:
            continue
        if request.startswith("2 "):
            return f"3 {other} DRAW"
        if not request.endswith(" DRAW"):
            return request
    raise BotzoneError("a turn of the hand is lost: no player's request is known")


__all__ = ["LogReplay", "MatchLog", "export_log", "read_log", "replay_log"]
