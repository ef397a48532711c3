"""A room at run time: its match and table, who sits where, connections, bots and timers.

Every change goes through :meth:`RoomRuntime.act`: the engine validates the action, the action
is committed to the database, and only then is anyone told (each seat its own observation and
the events as it may see them; spectators the public view, delayed if the room says so). Bots
play their seats and, after a grace period, the seats of disconnected players; a seat that does
not answer within the turn timer gets the default action (pass, or discard the drawn tile).
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from ..bots import make_bot
from ..engine.actions import Action, action_from_json, action_to_json
from ..engine.match import Agent, HandSpec, Match, agent_turn
from ..engine.serialize import observation_to_json, public_view_to_json
from ..engine.state import Observation, PublicView
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
from .protocol import build_frame, error_frame, settlement_of
from .store import Store, seed_hash

log = logging.getLogger("majiang.server")
RETRY_SECONDS = 1.0
"""A bot move that could not be committed is tried again after this long."""


class RoomError(MajiangError):
    """A request the room refuses (the message names why); nothing changed."""


class RoomGone(RoomError):
    """The room was dropped from memory meanwhile: ask the server's rooms for it again."""


class RoomRuntime:
    """One room's live state; all changes under ``lock``."""

    def __init__(self, store: Store, room: Room, *, unwatched_seconds: float = 60.0) -> None:
        self.store = store
        self.unwatched_seconds = unwatched_seconds
        """A match nobody is connected to goes on this long, then pauses (see :meth:`pause`)."""
        self.unwatched_since: float | None = None
        """Since when nobody has been connected (``time.monotonic``), while nobody is."""
        self.paused = False
        """Nobody connected for ``unwatched_seconds``: no bot moves and no timer runs until
        someone connects."""
        self.used = time.monotonic()
        """When someone last asked for the room or left it (``time.monotonic``)."""
        self.evicted = False
        """Dropped from memory (see :meth:`evict`): a newer runtime of the room may be live."""
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
        self.bot_seconds = room.bot_seconds
        self.next_seconds = room.next_seconds
        self.ready_seconds = room.ready_seconds
        self.creator_token_hash = room.creator_token_hash
        self.seed = room.seed
        self.seed_chosen = room.seed_chosen
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
                seated_at=_epoch(row.seated_at) if row.player_id is not None else None,
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
        self._timer_at: float | None = None
        """When the armed timer fires (``time.monotonic``)."""
        self._timeout_task: asyncio.Task[None] | None = None
        """The task playing the default actions once the timer has fired (kept referenced)."""
        self._deadlines: dict[int, tuple[tuple[int | None, int], float]] = {}
        """For each person asked to act: the question (hand, step since which it stands) and
        when its time is up (``time.monotonic``). The same question keeps its deadline: a
        reconnection or another seat's answer in a claim window does not buy time."""
        self.pause_until: float | None = None
        """Between hands: when the next hand is dealt (``time.monotonic``) unless every
        connected person has said ``next`` before."""
        self._next_said: set[int] = set()
        self._pause_timer: asyncio.TimerHandle | None = None
        self._pause_task: asyncio.Task[None] | None = None
        self._beat: asyncio.Task[None] | None = None
        """The task that plays the next bot move after ``bot_seconds``."""
        self._grace: dict[int, asyncio.Task[None]] = {}
        self._deferred: asyncio.Task[None] | None = None
        self._asked: tuple[Table | None, int, dict[int, tuple[int, list[Action]]]] = (None, 0, {})
        """The table and step they were computed at and, for each seat asked to act then, the
        step since which its choice has stood unchanged and that choice (see
        :meth:`_asked_since`; computed once a step)."""
        self.last_result: dict[str, Any] | None = None
        self._observed: dict[int, tuple[Observation | PublicView, str]] = {}
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
            "bot_seconds": self.bot_seconds,
            "next_seconds": self.next_seconds,
            "ready_seconds": self.ready_seconds,
            "status": self.status,
            "chosen_seed": self.seed_chosen,
            "seed_hash": seed_hash(self.seed),
            "seed": self.seed if self.status == "finished" else None,
            "paused": self.paused and self.status == "playing",
            "seats": [
                {
                    "seat": s,
                    "player": st.name,
                    "player_id": st.player_id,
                    "bot": st.bot,
                    "ready": st.ready,
                    "connected": bool(st.clients),
                    "away": st.taken_over,
                    "ready_by": self._ready_by(st),
                }
                for s, st in enumerate(self.seats)
            ],
            "hand": self.spec.number if self.spec else None,
            "totals": list(self.match.totals) if self.match else None,
        }

    def _ready_by(self, state: SeatState) -> float | None:
        """When a seated person who is not ready loses the seat (before the match)."""
        if self.status != "waiting" or state.player_id is None or state.ready:
            return None
        seated = state.seated_at if state.seated_at is not None else time.time()
        return round(seated + self.ready_seconds, 3)

    def _frame(self, kind: str, **fields: Any) -> dict[str, Any]:
        return build_frame(kind, room=self.code, **fields)

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
        base = self._frame("state", status=self.status, view=self.view(), seat=_seat_or_none(seat),
                           **self.clock())
        table = self.table if seat != SPECTATOR else self._spectator_table()
        if table is None or self.spec is None:
            return {**base, "hand": None, "observation": None, "events": []}
        return {
            **base,
            "hand": self.spec.number,
            "seed_hash": seed_hash(self.spec.seed),
            "step": len(table.history),
            "observation": self._view_json(self._view(table, seat)),
            "events": events_for(table.events, seat),
            "result": self.last_result if table.is_over else None,
            "settlement": settlement_of(table) if table.is_over else None,
        }

    def clock(self) -> dict[str, Any]:
        """The waits now, for frames: ``deadlines`` (per seat, when its time to act is up, or
        None), ``next_deadline`` (between hands: when the next hand is dealt) and ``now``, the
        server's clock (seconds since the epoch, like the deadlines)."""
        now, wall = time.monotonic(), time.time()
        deadlines: list[float | None] = [None] * 4
        for seat, until in self._waits().items():
            deadlines[seat] = round(wall + until - now, 3)
        pause = self.pause_until
        return {
            "deadlines": deadlines,
            "next_deadline": None if pause is None else round(wall + pause - now, 3),
            "now": round(wall, 3),
        }

    def pause_frame(self) -> dict[str, Any]:
        """The ``pause`` frame: between hands, who is still to say ``next``, and when the next
        hand is dealt anyway."""
        return self._frame("pause", waiting=sorted(self._next_waiting()), **self.clock())

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
    def _view(table: Table, seat: int) -> Observation | PublicView:
        return table.public_view() if seat == SPECTATOR else table.observation(seat)

    @staticmethod
    def _view_json(view: Observation | PublicView) -> dict[str, Any]:
        if isinstance(view, PublicView):
            return public_view_to_json(view)
        return observation_to_json(view)

    def _observation_text(self, table: Table, seat: int) -> str:
        """The encoded observation for a seat (or the spectators): the last one again when the
        view has not changed (a claim window while the other seats answer)."""
        obs = self._view(table, seat)
        known = self._observed.get(seat)
        if known is not None and known[0] == obs:
            return known[1]
        text = encode(self._view_json(obs))
        if known is not None and known[1] == text:
            text = known[1]  # the same view (a spectator's, from another seat's changed one)
        self._observed[seat] = (obs, text)
        return text

    # ------------------------------------------------------------------ connections

    async def connect(self, client: Client) -> None:
        """A websocket client joins: a seat gets its seat back from a bot; full state sent."""
        async with self.lock:
            if self.evicted:
                raise RoomGone(f"room {self.code} was dropped from memory")
            self.unwatched_since = None
            resumed = self.paused
            if resumed:  # the people asked to act get their whole time again
                self.paused = False
                self._deadlines.clear()
            if client.seat == SPECTATOR:
                self.spectators.append(client)
            else:
                state = self.seats[client.seat]
                state.clients.append(client)
                state.away_since = None
                grace = self._grace.pop(client.seat, None)
                if grace is not None:
                    grace.cancel()
                back = state.taken_over or len(state.clients) == 1
                state.taken_over = False
            client.send(self._frame("welcome", seat=_seat_or_none(client.seat), resumed=resumed))
            client.seen = None
            client.send(self.state_frame(client.seat))
            if client.seat != SPECTATOR and back:  # the others see him connected again
                self._broadcast_view(but=client)
            if self.pause_until is not None and client.seat != SPECTATOR:
                client.send(self.pause_frame())
            self._arm_timer()
            if resumed:
                self._defer_bots()

    async def disconnect(self, client: Client) -> None:
        """A client left; a seat left with no connection is played by a bot after the grace."""
        async with self.lock:
            if client.seat == SPECTATOR:
                if client in self.spectators:
                    self.spectators.remove(client)
                self._note_unwatched()
                return
            state = self.seats[client.seat]
            if client not in state.clients:  # its seat was freed meanwhile
                return
            state.clients.remove(client)
            self._note_unwatched()
            if not state.clients and state.bot is None and state.player_id is not None:
                state.away_since = time.monotonic()
                self._grace[client.seat] = asyncio.create_task(self._take_over(client.seat))
                self._broadcast_view()
                await self._pause_over_if_all_said()

    def watched(self) -> bool:
        """Whether anyone (a player or a spectator) is connected."""
        return bool(self.spectators) or any(state.clients for state in self.seats)

    def _note_unwatched(self) -> None:
        self.used = time.monotonic()
        if self.unwatched_since is None and not self.watched():
            self.unwatched_since = self.used

    def evictable(self) -> bool:
        """Whether the room may be dropped from memory now: nobody connected, nothing under
        way, no seat waiting to be freed, and a match only when paused."""
        return (not self.watched() and not self.lock.locked() and not self.overdue(math.inf)
                and (self.status != "playing" or self.paused))

    def evict(self) -> None:
        """Drop the room's timers and tasks (its state is in the database: it is read again
        when asked for); called on the event loop, with :meth:`evictable` true."""
        self.evicted = True
        for handle in (self._timer, self._pause_timer):
            if handle is not None:
                handle.cancel()
        tasks = [self._beat, self._deferred, self._timeout_task, self._pause_task,
                 *self._grace.values()]
        for task in tasks:
            if task is not None:
                task.cancel()
        self._grace.clear()

    def should_pause(self, now: float) -> bool:
        """Whether the match has gone on unwatched for ``unwatched_seconds`` (at ``now``,
        ``time.monotonic``): checked without the lock."""
        since = self.unwatched_since
        return (not self.paused and self.status == "playing" and since is not None
                and now - since >= self.unwatched_seconds)

    async def pause(self) -> None:
        """Nobody is there: the bots stop and no timer runs (a person asked to act gets his
        whole time again when someone connects, and the bots go on)."""
        async with self.lock:
            if self.watched() or self.status != "playing":
                return
            self.paused = True
            if self._timer is not None:
                self._timer.cancel()
                self._timer, self._timer_at = None, None
            if self._beat is not None:
                self._beat.cancel()
                self._beat = None

    async def _take_over(self, seat: int) -> None:
        await asyncio.sleep(self.grace_seconds)
        async with self.lock:
            state = self.seats[seat]
            if state.clients:
                return
            state.taken_over = True
            self._grace.pop(seat, None)
            self._deadlines.pop(seat, None)
            self._broadcast_view()
            await self._bots_quietly()

    # ------------------------------------------------------------------ the match

    async def ready(self, seat: int, client: Client | None = None) -> None:
        """The ready check: the match starts when every seated player is ready. ``client``:
        the connection that said so, refused if its seat was freed since it connected."""
        async with self.lock:
            if self.status != "waiting":
                raise RoomError("the match has already started")
            if client is not None and client not in self.seats[seat].clients:
                raise RoomError("your seat was freed: take a seat again")
            self.seats[seat].ready = True
            with self.store.session() as session:
                room = session.get(Room, self.room_id)
                assert room is not None
                room.seats[seat].ready = True
            await self._start_if_all_ready()

    def seat_taken(self, seat: int, player_id: int, name: str, token_hash: str,
                   seated_at: float) -> None:
        """A person took an empty seat (committed by the caller, under the lock): the others
        are told; the ready timeout counts from ``seated_at``."""
        self.seats[seat] = SeatState(player_id, name, token_hash, seated_at=seated_at)
        self._broadcast_view()

    def overdue(self, now: float) -> bool:
        """Whether a seat is held past its ready timeout (checked without the lock)."""
        return self.status == "waiting" and any(
            (by := self._ready_by(state)) is not None and by <= now for state in self.seats
        )

    async def free_overdue(self, now: float) -> list[int]:
        """Free every seat whose person was not ready within ``ready_seconds`` of sitting
        down; returns the seats freed."""
        async with self.lock:
            if self.evicted:  # dropped meanwhile: the room read back frees them
                return []
            late = [seat for seat, state in enumerate(self.seats)
                    if (by := self._ready_by(state)) is not None and by <= now]
            for seat in late:
                await self._free_seat(seat, f"not ready within {self.ready_seconds:g} s")
            return late

    async def free_seat(self, seat: int) -> None:
        """The creator frees a person's seat before the match; :class:`RoomError` once the
        match has started or for a seat no person holds; :class:`RoomGone` if the room was
        dropped from memory meanwhile (nothing changed: free it in the room read back)."""
        async with self.lock:
            if self.evicted:
                raise RoomGone(f"room {self.code} was dropped from memory")
            if self.status != "waiting":
                raise RoomError("the match has started: seats can no longer be freed")
            if self.seats[seat].player_id is None:
                raise RoomError(f"no person sits at seat {seat}")
            await self._free_seat(seat, "freed by the room's creator")

    async def _free_seat(self, seat: int, why: str) -> None:
        """Empty a person's seat (its token no longer works): committed, its connections
        closed with 4401 and the reason, everyone else told; the match starts if every
        person still seated is ready."""
        with self.store.session() as session:
            room = session.get(Room, self.room_id)
            assert room is not None
            row = room.seats[seat]
            row.player_id = row.token_hash = row.seated_at = None
            row.ready = False
        old, self.seats[seat] = self.seats[seat], SeatState()
        grace = self._grace.pop(seat, None)
        if grace is not None:
            grace.cancel()
        reason = f"seat {seat} was freed: {why}"
        for client in old.clients:
            client.send(error_frame(reason))
            client.close(4401, reason)
        await self._start_if_all_ready()

    async def _start_if_all_ready(self) -> None:
        """Start the match if there are players and all are ready; else tell everyone the
        seats now."""
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
            settlement=settlement_of(table),
            totals=list(match.totals),
            bullets=list(match.bullets),
        )
        self._send_all(lambda seat: frame)
        await self._pause_between_hands()

    def _next_waiting(self) -> set[int]:
        """The connected people (not played by a bot) who have not said ``next`` yet."""
        return {
            seat for seat, state in enumerate(self.seats)
            if state.clients and not self._bot_seat(seat) and seat not in self._next_said
        }

    async def _pause_between_hands(self) -> None:
        """After a hand: the next one is dealt when every connected person has said ``next``,
        or after ``next_seconds`` (at once with nobody connected to read the score sheet)."""
        if self._next_spec() is None or not self.next_seconds or not self._next_waiting():
            await self._next_hand()
            return
        self._next_said = set()
        self.pause_until = time.monotonic() + self.next_seconds
        hand_id = self.hand_id

        def fired() -> None:
            self._pause_task = asyncio.create_task(self._end_pause(hand_id))

        self._pause_timer = asyncio.get_running_loop().call_later(self.next_seconds, fired)
        frame = self.pause_frame()
        self._send_all(lambda seat: frame)

    async def _end_pause(self, hand_id: int | None) -> None:
        async with self.lock:
            if self.pause_until is not None and self.hand_id == hand_id:
                await self._deal_after_pause()

    async def _deal_after_pause(self) -> None:
        self.pause_until = None
        if self._pause_timer is not None:
            self._pause_timer.cancel()
            self._pause_timer = None
        await self._next_hand()

    async def _pause_over_if_all_said(self) -> None:
        if self.pause_until is not None and not self._next_waiting():
            await self._deal_after_pause()

    async def next_hand(self, seat: int) -> None:
        """A person has read the score sheet (the ``next`` message)."""
        async with self.lock:
            if self.pause_until is None:
                raise RoomError("no hand is over: nothing to go on to")
            self._next_said.add(seat)
            if self._next_waiting():
                frame = self.pause_frame()
                self._send_all(lambda seat: frame)
            else:
                await self._deal_after_pause()

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
            self._timer = None
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
            action = action_from_json(data)
            encoded = action_to_json(action)
            unknown = data.keys() - encoded.keys()
            if unknown:
                raise RoomError(f"unknown key in action: {', '.join(map(str, sorted(unknown)))}")
            await self._act(seat, action, encoded)
            # the seat's own action is committed: a bot's failing after it is not its error
            await self._bots_quietly()

    def _asked_since(self, seat: int) -> int:
        """The step since which ``seat`` has been asked the same question (its legal actions
        unchanged, as in a claim window while the other seats answer): an answer to any frame
        since then is still an answer to it. Past steps only ever count for the same choice,
        so a late or repeated message still cannot play twice."""
        table = self.table
        if table is None:
            return 0
        step = len(table.history)
        known, known_step, asked = self._asked
        if known is table and known_step == step:
            return asked[seat][0] if seat in asked else step
        if known is not table:
            asked = {}
        last = table.history[-1][0] if table.history else None
        now: dict[int, tuple[int, list[Action]]] = {}
        for s in table.to_act():
            legal = table.legal_actions(s)
            before = asked.get(s)
            keep = before is not None and s != last and before[1] == legal
            now[s] = before if keep and before is not None else (step, legal)
        self._asked = (table, step, now)
        return now[seat][0] if seat in now else step

    async def _act(self, seat: int, action: Action, encoded: dict[str, Any] | None = None) -> None:
        """Apply, commit (``encoded``: the action's JSON, if the caller has it) and broadcast."""
        table = self.table
        if table is None or table.is_over or self.status != "playing":
            raise RoomError("no hand is being played")
        before = len(table.events)
        table.apply(seat, action)  # raises IllegalAction; the table is unchanged then
        assert self.hand_id is not None
        try:
            await self.store.commit_action(
                self.hand_id, len(table.history) - 1, seat,
                action_to_json(action) if encoded is None else encoded,
            )
        except Exception as error:  # said out loud, without the statement's parameters
            log.error("room %s: hand %s, step %d (seat %d): the action could not be committed: "
                      "%s", self.code, self.spec.number if self.spec else None,
                      len(table.history) - 1, seat, type(error).__name__)
            self._rebuild_table()  # not committed: forget it
            raise RoomError("the action could not be saved; it was not played") from None
        self._asked_since(seat)
        self._broadcast_update(before)
        if table.is_over:
            await self._finish_hand()
        # the turn timer is armed by the bots' turn that follows every action (_run_bots)

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
        """Let bots play every decision that is theirs, until a person must act (whose turn
        timer is then armed). With ``bot_seconds``, one move at a time, each that long after
        the last (see :meth:`_bot_beat`). A bot standing in for an absent player makes one
        move per turn of the lock, so that the player (or anyone) waiting for the lock gets in
        between: otherwise, with nobody else to wait for, the rest of the match would be played
        in one go before he could take his seat back."""
        stood_in = False
        try:
            while (turn := self._bot_turn()) is not None:
                if self.bot_seconds:
                    self._schedule_beat()
                    break
                if self.seats[turn[0]].taken_over:
                    if stood_in:
                        self._defer_bots()
                        break
                    stood_in = True
                await self._bot_move(*turn)
                await asyncio.sleep(0)
        finally:
            self._arm_timer()

    async def _bots_quietly(self) -> None:
        """The bots' moves, where nobody asked for them: a move that could not be committed is
        logged (by :meth:`_act`) and tried again at the next beat, the timer, or a message."""
        try:
            await self._run_bots()
        except RoomError:
            self._schedule_beat(RETRY_SECONDS)
            self._arm_timer()

    def _bot_turn(self) -> tuple[int, Agent] | None:
        """The bot to move now and its agent, by the engine's rule (:func:`agent_turn`, every
        seat :meth:`_bot_seat` played by its bot): none while no hand is being played, the
        match is paused, or only people must act."""
        table = self.table
        if table is None or self.status != "playing" or self.paused:
            return None
        return agent_turn(table, [self._agent(s) if self._bot_seat(s) else None for s in range(4)])

    def _agent(self, seat: int) -> Agent:
        agent = self.agents.get(seat)
        if agent is None:
            agent = self.agents[seat] = make_bot(default_bot(self.rules_name), seat)
        return agent

    async def _bot_move(self, seat: int, agent: Agent) -> None:
        table = self.table
        assert table is not None
        await self._act(seat, agent(table.observation(seat)))

    def _schedule_beat(self, delay: float | None = None) -> None:
        if self._beat is None or self._beat.done():
            self._beat = asyncio.create_task(
                self._bot_beat(self.bot_seconds if delay is None else delay)
            )

    async def _bot_beat(self, delay: float) -> None:
        """One bot move ``delay`` (``bot_seconds``) after the last move, then the next beat if
        another bot is to move (the lock is free in between: people act while the bots think)."""
        await asyncio.sleep(delay)
        async with self.lock:
            self._beat = None
            table = self.table
            if table is None or table.is_over or self.status != "playing" or self.paused:
                return
            turn = self._bot_turn()
            try:
                if turn is not None:
                    await self._bot_move(*turn)
            except RoomError:
                self._beat = None
                self._schedule_beat(RETRY_SECONDS)  # logged; tried again in a while
                return
            await self._bots_quietly()

    def _defer_bots(self) -> None:
        """Go on with the bots' moves in a new task, once the lock is free again."""
        if self._deferred is not None and not self._deferred.done():
            return

        async def later() -> None:
            await asyncio.sleep(0)
            async with self.lock:
                self._deferred = None
                await self._bots_quietly()

        self._deferred = asyncio.create_task(later())

    def _waits(self) -> dict[int, float]:
        """Each person asked to act now, and when their time is up (``time.monotonic``)."""
        table = self.table
        if table is None or table.is_over or self.status != "playing":
            self._deadlines.clear()
            return {}
        now = time.monotonic()
        waits = {}
        deadlines = {}
        for seat in table.to_act():
            if self._bot_seat(seat):
                continue
            question = (self.hand_id, self._asked_since(seat))
            known = self._deadlines.get(seat)
            until = known[1] if known is not None and known[0] == question else (
                now + self.turn_seconds
            )
            deadlines[seat] = (question, until)
            waits[seat] = until
        self._deadlines = deadlines
        return waits

    def _arm_timer(self) -> None:
        """Arm the turn timer for the first deadline of a person asked to act (none if nobody
        is). A timer handle, not a task: re-armed after every action, it must cost next to
        nothing; a timer that stands already for that time is kept."""
        waits = {} if self.paused else self._waits()
        at = min(waits.values()) if waits else None
        if at == self._timer_at and self._timer is not None:
            return
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._timer_at = at
        if at is not None:
            self._timer = asyncio.get_running_loop().call_later(
                max(0.0, at - time.monotonic()), self._timer_fired
            )

    def _timer_fired(self) -> None:
        self._timer = None
        self._timer_at = None
        self._timeout_task = asyncio.create_task(self._time_out())

    async def _time_out(self) -> None:
        """The default action for every person whose time is up, then the bots."""
        async with self.lock:
            table = self.table
            while (table is not None and self.table is table and not table.is_over
                   and not self.paused):
                now = time.monotonic()
                late = [s for s, until in self._waits().items() if until <= now + 0.001]
                if not late:
                    break
                try:
                    await self._act(late[0], default_action(table.observation(late[0])))
                except RoomError:  # logged; the timer tries again
                    break
            await self._bots_quietly()

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

    def _broadcast_view(self, but: Client | None = None) -> None:
        text = encode(self._frame("room", view=self.view()))
        for _, clients in self._listeners():
            for client in clients:
                if client is not but:
                    client.push(text)

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
        clock = self.clock()
        listeners = self._listeners()
        for seat, clients in listeners:
            if not clients:
                continue
            shown = table
            if seat == SPECTATOR:
                shown = self._spectator_table() or table
            if shown is table:
                events = events_for(new, seat)
                head = self._frame("update", hand=hand, step=len(table.history), events=events,
                                   **clock)
            else:  # the spectators' delayed view
                events = []
                head = self._frame("update", hand=hand, events=events, delayed=True,
                                   step=len(shown.history), **clock)
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

    async def continue_after_resume(self, *, paused: bool = False) -> None:
        """Go on where the log stopped: a finished hand's successor, or the bots' turn
        (``paused``: only once someone connects)."""
        async with self.lock:
            if self.status != "playing":
                return
            self._note_unwatched()
            self.paused = paused and not self.watched()
            for seat, state in enumerate(self.seats):  # nobody is connected yet: the grace runs
                if state.player_id is not None and state.bot is None and seat not in self._grace:
                    state.away_since = time.monotonic()
                    self._grace[seat] = asyncio.create_task(self._take_over(seat))
            if self.table is None or self.table.is_over:
                await self._pause_between_hands()
            else:
                await self._run_bots()


def _with_observation(head: str, observation: str) -> str:
    """An encoded frame object with the encoded observation added as its last field."""
    return f'{head[:-1]},"observation":{observation}}}'


def _epoch(moment: datetime | None) -> float | None:
    """A stored time as seconds since the epoch (stored without a zone: UTC)."""
    if moment is None:
        return None
    return (moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)).timestamp()


def _seat_or_none(seat: int) -> int | None:
    return None if seat == SPECTATOR else seat


__all__ = ["RoomError", "RoomGone", "RoomRuntime"]
