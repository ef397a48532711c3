"""The remote driver: one seat of a game-server room (``majiang serve``).

:func:`join_room` takes the seat over HTTP (``POST /rooms/{code}/seats/{seat}``) and returns its
token; :class:`RemoteDriver` plays it over the websocket ``/ws/{code}?token=...`` (the protocol of
``docs/server.md``), turning ``state``/``update``/``hand_end``/``match_end`` frames into the
events of :mod:`majiang.tui.model`. Hints are asked of the server (``{"type": "hint"}``).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from ..errors import MajiangError
from . import model
from .driver import Driver, Sink
from .model import Json, unique_names


class PlayError(MajiangError):
    """A room that cannot be joined: no server there, no such room, the seat taken."""


@dataclass(frozen=True)
class SeatGrant:
    """A seat taken in a room: where, which, its secret token and the room's rule set."""

    url: str
    code: str
    seat: int
    token: str
    rules: str
    hands: int | None = None


def base_url(url: str) -> str:
    """``http://host:port`` from what the user typed (``host:port`` means http)."""
    text = url.strip().rstrip("/")
    if "://" not in text:
        text = f"http://{text}"
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise PlayError(f"--server needs an http(s) URL like http://127.0.0.1:8000, not {url!r}")
    return text


def _detail(response: Any) -> str:
    try:
        detail = response.json().get("detail")
    except ValueError:
        detail = None
    if isinstance(detail, list) and detail:  # a validation error
        detail = detail[0].get("msg")
    return str(detail or response.reason_phrase or response.status_code)


def join_room(
    url: str,
    code: str,
    seat: int | None = None,
    name: str = "player",
    timeout: float = 10.0,
    token: str | None = None,
) -> SeatGrant:
    """Take ``seat`` (or the first free one) in room ``code``; with ``token`` (the secret a
    seat was given when taken) sit down again at ``seat``, even mid-match. Raises
    :class:`PlayError` with one line saying what went wrong."""
    import httpx

    base = base_url(url)
    code = code.strip().upper()
    if not code.isalnum():
        raise PlayError(f"--room needs a room code like ZPJ4PR, not {code!r}")
    try:
        with httpx.Client(base_url=base, timeout=timeout) as http:
            response = http.get(f"/rooms/{code}")
            if response.status_code == 404:
                raise PlayError(f"no room {code} on {base}")
            if response.status_code != 200:
                raise PlayError(f"{base} answered {response.status_code}: {_detail(response)}")
            room = response.json()
            if token is not None:  # back to a seat already held: the server checks the token
                if seat is None:
                    raise PlayError("--token needs --seat: the seat the token was given for")
                if room["status"] == "finished":
                    raise PlayError(f"room {code} has finished its match")
                return SeatGrant(base, code, seat, token, str(room["rules"]), room.get("hands"))
            if room["status"] != "waiting":
                raise PlayError(f"room {code} has started its match: seats are closed")
            if seat is None:
                free = [s["seat"] for s in room["seats"]
                        if s["player_id"] is None and s["bot"] is None]
                if not free:
                    raise PlayError(f"room {code} has no free seat")
                seat = int(free[0])
            response = http.post(f"/rooms/{code}/seats/{seat}", json={"name": name})
            if response.status_code != 201:
                raise PlayError(f"room {code}: {_detail(response)}")
            grant = response.json()
            return SeatGrant(base, code, int(grant["seat"]), str(grant["token"]),
                             str(room["rules"]), room.get("hands"))
    except PlayError:
        raise
    except httpx.HTTPError as error:
        raise PlayError(f"cannot reach the server at {base}: {error or type(error).__name__}") \
            from None
    except (ValueError, KeyError, TypeError, AttributeError):
        raise PlayError(f"{base} does not answer like a majiang server") from None


def websocket_url(grant: SeatGrant) -> str:
    """``ws://host:port/ws/CODE?token=...``."""
    parts = urlsplit(grant.url)
    scheme = "wss" if parts.scheme == "https" else "ws"
    return f"{scheme}://{parts.netloc}{parts.path}/ws/{grant.code}?token={grant.token}"


def until(deadline: object, frame: Json) -> float | None:
    """Seconds from the frame's ``now`` (the server's clock, epoch seconds: the two machines'
    clocks need not agree) to ``deadline``; None when there is none."""
    if not isinstance(deadline, int | float):
        return None
    now = frame.get("now")
    base = float(now) if isinstance(now, int | float) else time.time()
    return max(0.0, float(deadline) - base)


def seconds_left(frame: Json, seat: int | None = None) -> float | None:
    """How long ``seat`` has left to decide, from a frame that says so: ``deadlines`` (one per
    seat, epoch seconds when its timer fires) or a single ``deadline``."""
    deadlines = frame.get("deadlines")
    if isinstance(deadlines, list):
        return until(deadlines[seat], frame) if seat is not None and seat < len(deadlines) else None
    return until(frame.get("deadline"), frame)


class RemoteDriver(Driver):
    """Plays the seat of ``grant`` over the server's websocket."""

    def __init__(self, grant: SeatGrant) -> None:
        self.grant = grant
        self.rules = grant.rules
        self.seat = grant.seat
        self._ws: Any = None
        self._view: Json | None = None
        self._hand: int | None = None
        self._step = 0
        self._seen = 0
        """Events of the hand received so far."""
        self._observation: Json | None = None
        self._totals: tuple[int, ...] = (0, 0, 0, 0)
        self._bullets: tuple[int, ...] = (0, 0, 0, 0)
        self._readied = False
        self._hint_asked = False
        self._asked: tuple[int | None, int] | None = None
        """The decision (hand, step) the countdown runs for."""
        self._deadline: float | None = None
        self.pauses = False
        """The server holds the next hand until every connected person says ``next``."""
        self.next_deadline: float | None = None
        """When the server deals the next hand anyway (``time.monotonic()``)."""
        self.next_waiting: tuple[int, ...] = ()
        """The seats still to say ``next``."""
        self._said_next: int | None = None
        self.finished = False

    # ------------------------------------------------------------------ the connection

    async def run(self, sink: Sink) -> None:
        """Connect, say ready, and follow the room until its match ends."""
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed, WebSocketException

        where = self.grant.url
        try:
            async with connect(websocket_url(self.grant), open_timeout=10,
                               max_size=None) as ws:
                self._ws = ws
                async for message in ws:
                    await self._take(json.loads(message), sink)
                    if self.finished:
                        break
        except ConnectionClosed as closed:
            reason = closed.rcvd.reason if closed.rcvd is not None else ""
            sink(model.Problem(f"the server closed the connection: {reason or closed}", fatal=True))
            return
        except (OSError, TimeoutError, WebSocketException) as error:
            sink(model.Problem(f"cannot reach the server at {where}: {error}", fatal=True))
            return
        finally:
            self._ws = None
        if not self.finished:
            sink(model.Problem(f"the server at {where} closed the connection", fatal=True))

    async def _send(self, message: Json) -> None:
        if self._ws is not None:
            await self._ws.send(json.dumps(message))

    async def act(self, action: Json) -> None:
        """Send the action, for the step of the latest frame."""
        await self._send({"type": "act", "action": action, "step": self._step})

    async def request_hints(self) -> None:
        """Ask the server for hints (``{"type": "hint"}``)."""
        self._hint_asked = True
        await self._send({"type": "hint"})

    async def close(self) -> None:
        """Close the websocket."""
        if self._ws is not None:
            await self._ws.close()

    # ------------------------------------------------------------------ frames

    def _names(self) -> tuple[str, ...]:
        if self._view is None:
            return ("", "", "", "")
        names = []
        for seat in self._view["seats"]:
            if seat.get("player"):
                names.append(str(seat["player"]))
            elif seat.get("bot"):
                names.append(f"{seat['bot']} bot")
            else:
                names.append("empty")
        return unique_names(names)

    def _note(self) -> str:
        view = self._view
        if view is None or view["status"] != "waiting":
            return ""
        players = [s for s in view["seats"] if s["player_id"] is not None]
        ready = sum(1 for s in players if s["ready"])
        return (
            f"Room {view['code']}: waiting for the players ({ready}/{len(players)} ready; "
            "empty seats get bots when the match starts)"
        )

    def _away(self) -> tuple[bool, ...]:
        """Seats whose player is away: not connected (a bot plays for them meanwhile)."""
        seats = (self._view or {}).get("seats") or []
        away = [bool(s.get("player_id") is not None
                     and (s["away"] if s.get("away") is not None else not s.get("connected")))
                for s in seats[:4]]
        return tuple(away + [False] * (4 - len(away)))

    def _time_decision(self, frame: Json) -> None:
        """Start (or continue) the countdown when the frame asks the seat to decide."""
        obs = self._observation
        if obs is None or not obs.get("legal_actions") or frame.get("status") == "waiting":
            self._asked = self._deadline = None
            return
        left = seconds_left(frame, self.seat)
        key = (self._hand, self._step)
        if left is not None:
            self._deadline = time.monotonic() + left
        elif key != self._asked:  # a server that does not say: the room's whole turn
            turn = (self._view or {}).get("turn_seconds")
            self._deadline = time.monotonic() + float(turn) if turn else None
        self._asked = key

    def _snapshot(self) -> model.Snapshot:
        view = self._view or {}
        return model.Snapshot(
            rules=self.rules,
            seat=self.seat,
            observation=self._observation,
            hand=self._hand,
            hands=view.get("hands") or self.grant.hands,
            step=self._step,
            names=self._names(),
            totals=self._totals,
            bullets=self._bullets,
            note=self._note(),
            deadline=self._deadline,
            away=self._away(),
        )

    async def _final_view(self, hand: int | None) -> Json | None:
        """The tiles every seat held as the hand ended: the last step of the finished hand's
        replay (public once it is over). None if the server cannot say."""
        import httpx

        try:
            async with httpx.AsyncClient(base_url=self.grant.url, timeout=5) as http:
                listing = (await http.get(f"/rooms/{self.grant.code}/hands")).json()
                found = next(h for h in listing if h["number"] == hand and h["finished"])
                replay = (await http.get(f"/hands/{found['id']}/replay",
                                         params={"last": "true"})).json()
                view: Json = replay["steps"][0]["view"]
                return view
        except (httpx.HTTPError, ValueError, KeyError, TypeError, StopIteration, IndexError):
            return None

    async def next_hand(self) -> None:
        """The score sheet is read: say ``next`` (to a server that waits for it), once a hand."""
        if (self.pauses and self.next_deadline is not None and not self.finished
                and self._said_next != self._hand):
            self._said_next = self._hand
            await self._send({"type": "next"})

    async def _take(self, frame: Json, sink: Sink) -> None:
        kind = frame.get("type")
        if "next_deadline" in frame:
            self.pauses = True
            left = until(frame["next_deadline"], frame)
            self.next_deadline = None if left is None else time.monotonic() + left
        if kind == "pause":
            self.next_waiting = tuple(int(s) for s in frame.get("waiting") or ())
        if kind == "welcome":
            if frame.get("seat") is not None:
                self.seat = int(frame["seat"])
        elif kind == "state":
            self._view = frame["view"]
            self.rules = self._view["rules"]
            if self._view.get("totals") is not None:
                self._totals = tuple(self._view["totals"])
            events = list(frame.get("events") or [])
            same_hand = frame.get("hand") == self._hand and self._hand is not None
            self._hand = frame.get("hand")
            self._step = int(frame.get("step") or 0)
            self._observation = frame.get("observation")
            self._time_decision(frame)
            if same_hand and len(events) >= self._seen:  # a resync: only what is new
                sink(model.TableChanged(self._snapshot(), events[self._seen:]))
            else:
                sink(model.TableChanged(self._snapshot(), events, fresh=True))
            self._seen = len(events)
            if frame.get("status") == "waiting" and not self._readied:
                self._readied = True
                await self._send({"type": "ready"})
            if frame.get("status") == "finished":
                self.finished = True
                sink(model.MatchEnded(self._totals, self._bullets, self._names()))
        elif kind == "room":
            self._view = frame["view"]
            sink(model.TableChanged(self._snapshot()))
        elif kind == "update":
            self._hand = frame.get("hand", self._hand)
            self._step = int(frame.get("step", self._step))
            if frame.get("observation") is not None:
                self._observation = frame["observation"]
            self._time_decision(frame)
            events = list(frame.get("events") or [])
            self._seen += len(events)
            sink(model.TableChanged(self._snapshot(), events))
        elif kind == "hand_end":
            self._totals = tuple(frame["totals"])
            self._bullets = tuple(frame.get("bullets") or self._bullets)
            dealer = self._observation["dealer"] if self._observation else 0
            self._asked = self._deadline = None
            hand = frame.get("hand", self._hand)
            final = await self._final_view(hand) if frame["result"].get("winner") is not None \
                else None
            sink(model.HandEnded(frame["result"], self._totals, self._bullets, self._names(),
                           int(dealer), hand, final))
        elif kind == "match_end":
            self._totals = tuple(frame["totals"])
            self._bullets = tuple(frame.get("bullets") or self._bullets)
            self.finished = True
            sink(model.MatchEnded(self._totals, self._bullets, self._names()))
        elif kind == "hint":
            self._hint_asked = False
            sink(model.HintsReady(frame.get("hints") or {}))
        elif kind == "error":
            message = str(frame.get("message", "refused"))
            if self._hint_asked:  # no hints now (or a server without the hint message)
                self._hint_asked = False
                sink(model.HintsReady({"error": f"the server gives no hints: {message}"}))
                return
            sink(model.Problem(message))
            await self._send({"type": "resync"})


__all__ = [
    "PlayError",
    "RemoteDriver",
    "SeatGrant",
    "base_url",
    "join_room",
    "seconds_left",
    "until",
    "websocket_url",
]
