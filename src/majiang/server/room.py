"""A room at run time: its match and table, who sits where, connections, bots and timers.

Every change goes through :meth:`RoomRuntime.act`: the engine validates the action, the action
is committed to the database, and only then is anyone told (each seat its own observation and
the events as it may see them; spectators the public view, delayed if the room says so). Bots
play their seats and, after a grace period, the seats of disconnected players; a seat that does
not answer within the turn timer gets the default action (pass, or discard the drawn tile).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from ..bots import make_bot
from ..engine.actions import Action, action_from_json, action_to_json
from ..engine.match import Agent, HandSpec, Match
from ..engine.serialize import observation_to_json, spectator_json
from ..engine.state import Observation
from ..engine.table import Table, events_for
from ..errors import MajiangError
from ..hints import hints
from ..rules.registry import make_rules
from ..sim.runner import derive_seed
from .clients import (
    SPECTATOR,
    Client,
    SeatState,
    default_action,
    default_bot,
    encode,
)
from .models import HandRow, MatchRow, Room
from .protocol import VERSION
from .store import Store


class RoomError(MajiangError):
    """A request the room refuses (the message names why); nothing changed."""


class RoomRuntime:
    """One room's live state; all changes under ``lock``."""

    def __init__(self, store: Store, room: Room) -> None:
        self.store = store
        self.room_id = room.id
        self.code = room.code
        self.rules_name = room.rules
        self.rules = make_rules(room.rules, room.options)
        self.options = dict(room.options)
        self.stake = room.stake
        self.hands = room.hands
        self.rounds = room.rounds
        self.turn_seconds = room.turn_seconds
        self.grace_seconds = room.grace_seconds
        self.spectator_delay = room.spectator_delay
        self.seed = room.seed
        self.fill_bot = room.fill_bot
        self.status = room.status
        self.seats = [SeatState() for _ in range(4)]
        for row in room.seats:
            self.seats[row.seat] = SeatState(
                row.player_id,
                row.player.name if row.player is not None else None,
                row.token_hash,
                row.bot,
                row.ready,
            )
        self.spectators: list[Client] = []
        self.lock = asyncio.Lock()
        self.match: Match | None = None
        self.match_id: int | None = None
        self.table: Table | None = None
        self._lagging: Table | None = None
        """The spectators' delayed copy of the hand (see ``_spectator_table``)."""
        self.hand_id: int | None = None
        self.spec: HandSpec | None = None
        self.agents: dict[int, Agent] = {}
        self._timer: asyncio.TimerHandle | None = None
        self._timeout_task: asyncio.Task[None] | None = None
        """The task playing the default actions once the timer has fired (kept referenced)."""
        self._armed = 0
        """How many times the timer was (re)armed: a fired timer acts only if it is the last."""
        self._grace: dict[int, asyncio.Task[None]] = {}
        self._deferred: asyncio.Task[None] | None = None
        self._asked: tuple[Table | None, dict[int, tuple[int, list[Action]]]] = (None, {})
        """For each seat asked to act now: the step since which its choice has stood unchanged,
        and that choice (see :meth:`_asked_since`)."""
        self.last_result: dict[str, Any] | None = None
        self._observed: dict[int, tuple[Observation, str]] = {}
        """The last observation encoded for each seat (``SPECTATOR`` too) and its text."""
        self._hints: tuple[tuple[int | None, int, int], dict[str, Any]] | None = None
        """The last hints computed (hand, step, seat) and their answer, asked again on a
        double click or by a second connection of the same seat."""

    # ------------------------------------------------------------------ views

    def seat_of_token(self, token: str) -> int | None:
        """The seat whose token this is (every seat compared, in constant time each)."""
        from .store import token_matches

        found = None
        for seat, state in enumerate(self.seats):
            if token_matches(token, state.token_hash):
                found = seat
        return found

    def view(self) -> dict[str, Any]:
        """The room as everyone may see it (``RoomView``)."""
        return {
            "code": self.code,
            "rules": self.rules_name,
            "options": self.options,
            "stake": self.stake,
            "hands": self.hands,
            "rounds": self.rounds,
            "turn_seconds": self.turn_seconds,
            "grace_seconds": self.grace_seconds,
            "spectator_delay": self.spectator_delay,
            "status": self.status,
            "seats": [
                {
                    "seat": s,
                    "player": st.name,
                    "player_id": st.player_id,
                    "bot": st.bot,
                    "ready": st.ready,
                    "connected": bool(st.clients),
                }
                for s, st in enumerate(self.seats)
            ],
            "hand": self.spec.number if self.spec else None,
            "totals": list(self.match.totals) if self.match else None,
        }

    def _frame(self, kind: str, **fields: Any) -> dict[str, Any]:
        return {"v": VERSION, "type": kind, "room": self.code, **fields}

    def _spectator_table(self) -> Table | None:
        """The table as spectators may see it: ``spectator_delay`` actions behind while the hand
        is being played (a second table of the same hand, kept that far behind)."""
        table = self.table
        if table is None or not self.spectator_delay or table.is_over:
            return table
        keep = max(0, len(table.history) - self.spectator_delay)
        if keep == len(table.history):
            return table
        lagging = self._lagging
        if lagging is None or lagging.seed != table.seed or len(lagging.history) > keep:
            assert self.match is not None and self.spec is not None
            lagging = self._lagging = self.match.table(self.spec)
        for seat, action in table.history[len(lagging.history):keep]:
            lagging.apply(seat, action)
        return lagging

    def state_frame(self, seat: int) -> dict[str, Any]:
        """The whole state for one client (a seat, or ``SPECTATOR``)."""
        base = self._frame("state", status=self.status, view=self.view(), seat=_seat_or_none(seat))
        table = self.table if seat != SPECTATOR else self._spectator_table()
        if table is None or self.spec is None:
            return {**base, "hand": None, "observation": None, "events": []}
        return {
            **base,
            "hand": self.spec.number,
            "step": len(table.history),
            "observation": self._observation(table, seat),
            "events": events_for(table.events, seat),
            "result": self.last_result if table.is_over else None,
        }

    def hint_frame(self, seat: int) -> dict[str, Any]:
        """The ``hint`` frame for a seat: :func:`majiang.hints.hints` on its observation now.
        Raises :class:`RoomError` for a spectator, or when the seat holds no tiles (no hand
        being played, or before the deal)."""
        table = self.table
        if seat == SPECTATOR:
            raise RoomError("spectators get no hints")
        if table is None or table.is_over or self.status != "playing":
            raise RoomError("no hand is being played")
        key = (self.hand_id, len(table.history), seat)
        if self._hints is None or self._hints[0] != key:
            obs = table.observation(seat)
            if not obs.hand:
                raise RoomError("no tiles in hand yet: nothing to advise on")
            self._hints = (key, hints(obs, table.rules))
        return self._frame("hint", hints=self._hints[1])

    @staticmethod
    def _observation(table: Table, seat: int) -> dict[str, Any]:
        if seat == SPECTATOR:
            return spectator_json(table.observation(0))
        return observation_to_json(table.observation(seat))

    def _observation_text(self, table: Table, seat: int) -> str:
        """The encoded observation for a seat (or the spectators): the last one again when the
        view has not changed (a claim window while the other seats answer)."""
        obs = table.observation(0 if seat == SPECTATOR else seat)
        known = self._observed.get(seat)
        if known is not None and known[0] == obs:
            return known[1]
        text = encode(spectator_json(obs) if seat == SPECTATOR else observation_to_json(obs))
        if known is not None and known[1] == text:
            text = known[1]  # the same view (a spectator's, from another seat's changed one)
        self._observed[seat] = (obs, text)
        return text

    # ------------------------------------------------------------------ connections

    async def connect(self, client: Client) -> None:
        """A websocket client joins: a seat gets its seat back from a bot; full state sent."""
        async with self.lock:
            if client.seat == SPECTATOR:
                self.spectators.append(client)
            else:
                state = self.seats[client.seat]
                state.clients.append(client)
                state.away_since = None
                grace = self._grace.pop(client.seat, None)
                if grace is not None:
                    grace.cancel()
                state.taken_over = False
            client.send(self._frame("welcome", seat=_seat_or_none(client.seat)))
            client.seen = None
            client.send(self.state_frame(client.seat))
            self._arm_timer()

    async def disconnect(self, client: Client) -> None:
        """A client left; a seat left with no connection is played by a bot after the grace."""
        async with self.lock:
            if client.seat == SPECTATOR:
                if client in self.spectators:
                    self.spectators.remove(client)
                return
            state = self.seats[client.seat]
            if client in state.clients:
                state.clients.remove(client)
            if not state.clients and state.bot is None and state.player_id is not None:
                state.away_since = time.monotonic()
                self._grace[client.seat] = asyncio.create_task(self._take_over(client.seat))

    async def _take_over(self, seat: int) -> None:
        await asyncio.sleep(self.grace_seconds)
        async with self.lock:
            state = self.seats[seat]
            if state.clients:
                return
            state.taken_over = True
            self._grace.pop(seat, None)
            self._broadcast_view()
            await self._run_bots()

    # ------------------------------------------------------------------ the match

    async def ready(self, seat: int) -> None:
        """The ready check: the match starts when every seated player is ready."""
        async with self.lock:
            if self.status != "waiting":
                raise RoomError("the match has already started")
            self.seats[seat].ready = True
            with self.store.session() as session:
                room = session.get(Room, self.room_id)
                assert room is not None
                room.seats[seat].ready = True
            players = [s for s in self.seats if s.player_id is not None]
            if players and all(s.ready for s in players):
                await self._start_match()
            else:
                self._broadcast_view()

    async def _start_match(self) -> None:
        bot = self.options_bot()
        with self.store.session() as session:
            room = session.get(Room, self.room_id)
            assert room is not None
            for row in room.seats:
                if row.player_id is None and row.bot is None:
                    row.bot = bot
                    self.seats[row.seat].bot = bot
            room.status = "playing"
            match_row = MatchRow(room_id=self.room_id, seed=self.seed, totals=[0] * 4,
                                 bullets=[0] * 4)
            session.add(match_row)
            session.flush()
            self.match_id = match_row.id
        self.status = "playing"
        self.match = self._new_match()
        self._make_agents()
        await self._next_hand()

    def options_bot(self) -> str:
        """The bot for empty seats."""
        return self.fill_bot or default_bot(self.rules_name)

    def _new_match(self) -> Match:
        if self.rounds is not None:
            return Match(self.rules, self.seed, rounds=self.rounds, stake=self.stake)
        return Match(self.rules, self.seed, hands=self.hands, stake=self.stake)

    def _make_agents(self) -> None:
        for seat, state in enumerate(self.seats):
            name = state.bot or default_bot(self.rules_name)
            self.agents[seat] = make_bot(name, derive_seed(self.seed, "seat", seat))

    def _next_spec(self) -> HandSpec | None:
        assert self.match is not None
        number = len(self.match.results) + 1
        for spec in self.match.specs():
            if spec.number == number:
                return spec
        return None

    async def _next_hand(self) -> None:
        spec = self._next_spec()
        if spec is None:
            await self._finish_match()
            return
        assert self.match is not None and self.match_id is not None
        with self.store.session() as session:
            row = HandRow(
                match_id=self.match_id,
                number=spec.number,
                seed=spec.seed,
                dealer=spec.dealer,
                prevalent_wind=spec.prevalent_wind,
                dealer_count=spec.dealer_count,
                thrown=list(spec.thrown),
                players=[s.player_id for s in self.seats],
            )
            session.add(row)
            session.flush()
            self.hand_id = row.id
        self.spec = spec
        self.table = self.match.table(spec)
        self.last_result = None
        self._broadcast_state()
        await self._run_bots()

    async def _finish_hand(self) -> None:
        table, match = self.table, self.match
        assert table is not None and table.result is not None and match is not None
        match.record(table.result)
        self.last_result = table.result.to_json()
        with self.store.session() as session:
            hand = session.get(HandRow, self.hand_id)
            match_row = session.get(MatchRow, self.match_id)
            assert hand is not None and match_row is not None
            hand.result = self.last_result
            match_row.totals = list(match.totals)
            match_row.bullets = list(match.bullets)
        frame = self._frame(
            "hand_end",
            hand=self.spec.number if self.spec else None,
            result=self.last_result,
            totals=list(match.totals),
            bullets=list(match.bullets),
        )
        self._send_all(lambda seat: frame)
        await self._next_hand()

    async def _finish_match(self) -> None:
        assert self.match is not None
        with self.store.session() as session:
            room = session.get(Room, self.room_id)
            match_row = session.get(MatchRow, self.match_id)
            assert room is not None and match_row is not None
            room.status = "finished"
            match_row.status = "finished"
        self.status = "finished"
        if self._timer is not None:
            self._timer.cancel()
        frame = self._frame(
            "match_end", totals=list(self.match.totals), bullets=list(self.match.bullets)
        )
        self._send_all(lambda seat: frame)

    # ------------------------------------------------------------------ actions

    async def act(self, seat: int, data: Any, step: int | None = None) -> None:
        """A seat's action from a client: validated, committed, then broadcast. With ``step``,
        refused unless the table is still at that step."""
        async with self.lock:
            table = self.table
            if (
                step is not None
                and table is not None
                and step != len(table.history)
                and not self._asked_since(seat) <= step < len(table.history)
            ):
                raise RoomError(
                    f"stale action for step {step}: the table is at step {len(table.history)}"
                )
            await self._act(seat, action_from_json(data))
            await self._run_bots()

    def _asked_since(self, seat: int) -> int:
        """The step since which ``seat`` has been asked the same question (its legal actions
        unchanged, as in a claim window while the other seats answer): an answer to any frame
        since then is still an answer to it. Past steps only ever count for the same choice,
        so a late or repeated message still cannot play twice."""
        table = self.table
        if table is None:
            return 0
        step = len(table.history)
        known, asked = self._asked
        if known is not table:
            asked = {}
        last = table.history[-1][0] if table.history else None
        now: dict[int, tuple[int, list[Action]]] = {}
        for s in table.to_act():
            legal = table.legal_actions(s)
            before = asked.get(s)
            keep = before is not None and s != last and before[1] == legal
            now[s] = before if keep and before is not None else (step, legal)
        self._asked = (table, now)
        return now[seat][0] if seat in now else step

    async def _act(self, seat: int, action: Action) -> None:
        table = self.table
        if table is None or table.is_over or self.status != "playing":
            raise RoomError("no hand is being played")
        before = len(table.events)
        table.apply(seat, action)  # raises IllegalAction; the table is unchanged then
        assert self.hand_id is not None
        try:
            await self.store.commit_action(
                self.hand_id, len(table.history) - 1, seat, action_to_json(action)
            )
        except Exception:
            self._rebuild_table()  # not committed: forget it
            raise RoomError("the action could not be saved; it was not played") from None
        self._asked_since(seat)
        self._broadcast_update(before)
        if table.is_over:
            await self._finish_hand()
        else:
            self._arm_timer()

    def _rebuild_table(self) -> None:
        """The current hand again from its committed actions."""
        assert self.match is not None and self.spec is not None and self.hand_id is not None
        table = self.match.table(self.spec)
        with self.store.session() as session:
            self.store.replay_actions(session, self.hand_id, table)
        self.table = table

    def _bot_seat(self, seat: int) -> bool:
        state = self.seats[seat]
        return state.bot is not None or state.taken_over or state.player_id is None

    async def _run_bots(self) -> None:
        """Let bots play every decision that is theirs, until a person must act. A bot standing
        in for an absent player makes one move per turn of the lock, so that the player (or
        anyone) waiting for the lock gets in between: otherwise, with nobody else to wait for,
        the rest of the match would be played in one go before he could take his seat back."""
        stood_in = False
        while self.table is not None and not self.table.is_over and self.status == "playing":
            table = self.table
            seats = [s for s in table.to_act() if self._bot_seat(s)]
            if not seats:
                return
            seat = seats[0]
            if self.seats[seat].taken_over:
                if stood_in:
                    self._defer_bots()
                    return
                stood_in = True
            agent = self.agents.get(seat)
            if agent is None:
                agent = self.agents[seat] = make_bot(default_bot(self.rules_name), seat)
            await self._act(seat, agent(table.observation(seat)))
            await asyncio.sleep(0)

    def _defer_bots(self) -> None:
        """Go on with the bots' moves in a new task, once the lock is free again."""
        if self._deferred is not None and not self._deferred.done():
            return

        async def later() -> None:
            await asyncio.sleep(0)
            async with self.lock:
                self._deferred = None
                await self._run_bots()
                self._arm_timer()

        self._deferred = asyncio.create_task(later())

    def _arm_timer(self) -> None:
        """(Re)start the turn timer if a person must decide now. A timer handle, not a task:
        re-armed after every action, it must cost next to nothing."""
        self._armed += 1  # a timer that fired before this and waits for the lock stands down
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        table = self.table
        if table is None or table.is_over or self.status != "playing":
            return
        if any(not self._bot_seat(s) for s in table.to_act()):
            self._timer = asyncio.get_running_loop().call_later(
                self.turn_seconds, self._timer_fired, self._armed, len(table.history),
                self.hand_id,
            )

    def _timer_fired(self, armed: int, step: int, hand_id: int | None) -> None:
        self._timer = None
        self._timeout_task = asyncio.create_task(self._time_out(armed, step, hand_id))

    async def _time_out(self, armed: int, step: int, hand_id: int | None) -> None:
        async with self.lock:
            table = self.table
            if (
                table is None
                or armed != self._armed
                or len(table.history) != step
                or self.hand_id != hand_id
            ):
                return
            for seat in list(table.to_act()):
                if table.is_over or self.table is not table:
                    break
                if not self._bot_seat(seat) and seat in table.to_act():
                    await self._act(seat, default_action(table.observation(seat)))
            await self._run_bots()

    # ------------------------------------------------------------------ broadcasting

    def _listeners(self) -> list[tuple[int, list[Client]]]:
        """Each seat's connected clients, then the spectators' (``SPECTATOR``), as lists that
        stay the same while the frames are sent (a client may leave during an ``await``)."""
        listeners = [(seat, list(state.clients)) for seat, state in enumerate(self.seats)]
        listeners.append((SPECTATOR, list(self.spectators)))
        return listeners

    def _send_all(self, frame_for: Callable[[int], dict[str, Any]]) -> None:
        """One frame per seat (and one for all spectators), built and encoded only if someone
        listens, and encoded once when it is the same frame for everyone."""
        listeners = self._listeners()
        last: dict[str, Any] | None = None
        text = ""
        for seat, clients in listeners:
            if clients:
                frame = frame_for(seat)
                if frame is not last:
                    last, text = frame, encode(frame)
                for client in clients:
                    client.push(text)

    def _broadcast_state(self) -> None:
        for state in self.seats:
            for client in state.clients:
                client.seen = None
        for client in self.spectators:
            client.seen = None
        self._send_all(self.state_frame)

    def _broadcast_view(self) -> None:
        frame = self._frame("room", view=self.view())
        self._send_all(lambda seat: frame)

    def _broadcast_update(self, before: int) -> None:
        """The ``update`` after an accepted action, to every client; a client that asked for
        changes only (``updates=changed``) is not sent one that would tell it nothing new: no
        event for it, its observation as in the last frame it was sent, and not its own action.
        The observation, the bulk of a frame, is encoded apart, once per seat, and only when
        it changed."""
        table = self.table
        assert table is not None
        new = table.events[before:]
        hand = self.spec.number if self.spec else None
        actor = table.history[-1][0]
        listeners = self._listeners()
        for seat, clients in listeners:
            if not clients:
                continue
            shown = table
            if seat == SPECTATOR:
                shown = self._spectator_table() or table
            if shown is table:
                events = events_for(new, seat)
                head = self._frame("update", hand=hand, step=len(table.history), events=events)
            else:  # the spectators' delayed view
                events = []
                head = self._frame("update", hand=hand, events=events, delayed=True,
                                   step=len(shown.history))
            observation = self._observation_text(shown, seat)
            quiet = not events and seat != actor
            text = None
            for client in clients:
                if quiet and client.changes_only and client.seen is observation:
                    continue
                if text is None:
                    text = _with_observation(encode(head), observation)
                client.seen = observation
                client.push(text)

    # ------------------------------------------------------------------ resuming

    def resume(self) -> None:
        """Rebuild the match and the current hand from the database after a restart."""
        with self.store.session() as session:
            match_row = self.store.match_of(session, self.room_id)
            if match_row is None:
                return
            self.match_id = match_row.id
            self.match = self._new_match()
            self._make_agents()
            for hand in self.store.hands_of(session, match_row.id):
                spec = self._next_spec()
                if spec is None or spec.seed != hand.seed:
                    raise RoomError(f"room {self.code}: hand {hand.number} does not match its seed")
                table = self.match.table(spec)
                self.store.replay_actions(session, hand.id, table)
                self.spec, self.table, self.hand_id = spec, table, hand.id
                if table.is_over:
                    assert table.result is not None
                    self.match.record(table.result)
                    self.last_result = table.result.to_json()
                    if hand.result is None:
                        hand.result = self.last_result  # the crash came before it was written

    async def continue_after_resume(self) -> None:
        """Go on where the log stopped: a finished hand's successor, or the bots' turn."""
        async with self.lock:
            if self.status != "playing":
                return
            if self.table is None or self.table.is_over:
                await self._next_hand()
            else:
                await self._run_bots()
                self._arm_timer()


def _with_observation(head: str, observation: str) -> str:
    """An encoded frame object with the encoded observation added as its last field."""
    return f'{head[:-1]},"observation":{observation}}}'


def _seat_or_none(seat: int) -> int | None:
    return None if seat == SPECTATOR else seat


__all__ = ["RoomError", "RoomRuntime"]
