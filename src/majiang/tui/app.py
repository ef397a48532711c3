"""The Textual app: the table, keys for the legal actions, score sheets, standings.

The app knows nothing of the rules: it shows what the driver reports and sends back one of the
seat's legal actions (engine JSON). Claim windows whose only choice is to pass are passed at
once, so that the player is asked only when there is something to decide.
"""

from __future__ import annotations

import math
import time
from typing import ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.events import Key
from textual.message import Message
from textual.screen import Screen
from textual.widgets import RichLog, Static

from ..errors import MajiangError
from . import model
from .driver import Driver
from .glyphs import cards
from .model import TILE_KEYS, Choices, HandLayout, Json, hand_layout
from .render import HELP, event_line, header, last_discarder, prompt, seat_panel, wild_line
from .screens import ChoiceScreen, HelpScreen, QuitScreen, ScoreScreen, StandingsScreen
from .sheets import fan_definitions, hints_text, safety_marks, score_sheet, standings

PLACES = ("me", "right", "opposite", "left")
"""Panel ids by where a seat sits from the player."""


_SHOWN_ACTIONS = (
    ("enter", "discard"), ("w", "win"), ("p", "pung"), ("c", "chow"), ("k", "kong"),
    ("space", "pass"), ("h", "hints"), ("question_mark", "help"),
)
"""The keys in the footer whose action names itself, by key."""


class DriverMessage(Message):
    """An event from the driver, handled in the app's message loop."""

    def __init__(self, event: model.DriverEvent) -> None:
        super().__init__()
        self.event = event


class TableScreen(Screen[None]):
    """The table: the other seats in turn order, the player's seat and hand, what to do."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "cursor(-1)", "←", show=False),
        Binding("right", "cursor(1)", "→", show=False),
        Binding("home", "cursor_to(0)", "first", show=False),
        Binding("end", "cursor_to(-1)", "last", show=False),
        *(Binding(key, action, action) for key, action in _SHOWN_ACTIONS),
        Binding("full_stop", "pass", "pass", show=False),
        Binding("y", "accept", "accept", show=False),
        Binding("n", "decline", "decline", show=False),
        Binding("q", "quit_match", "quit"),
    ]
    DEFAULT_CSS = """
    TableScreen { layout: vertical; }
    #header { height: auto; background: $primary-background; padding: 0 1; }
    #wild { height: auto; padding: 0 1; }
    .seat { height: auto; padding: 0 1; margin-top: 1; border-left: outer $panel-lighten-2; }
    .seat.to-play { border-left: outer $success; }
    #me { border-left: outer $accent; }
    #hand { height: auto; padding: 0 1; margin-top: 1; }
    #prompt { height: auto; min-height: 1; padding: 0 1; margin-top: 1;
        background: $boost; }
    #bottom { height: 1fr; min-height: 3; margin-top: 1; }
    #log { width: 1fr; padding: 0 1; background: $surface; overflow-x: hidden; }
    #hints { width: 1fr; padding: 0 1; display: none; background: $surface; }
    #hints.shown { display: block; }
    #help { height: auto; padding: 0 1; color: $text-muted; }
    TableScreen.-short .seat, TableScreen.-short #hand, TableScreen.-short #prompt,
    TableScreen.-short #bottom { margin-top: 0; }
    """
    VERTICAL_BREAKPOINTS = [(0, "-short"), (36, "-tall")]  # noqa: RUF012 (typed by Textual)
    """A terminal under 36 lines drops the blank lines between panels."""

    def compose(self) -> ComposeResult:
        """The panels, top to bottom."""
        yield Static(id="header")
        yield Static(id="wild")
        for place in PLACES[1:]:
            yield Static(id=place, classes="seat")
        yield Static(id="me", classes="seat")
        yield Static(id="hand")
        yield Static(id="prompt")
        with Horizontal(id="bottom"):
            log = RichLog(id="log", wrap=True, max_lines=300)
            log.can_focus = False
            yield log
            yield Static(id="hints")
        yield Static(HELP, id="help")

    def __init__(self) -> None:
        super().__init__()
        self._shown: dict[str, Text] = {}

    def on_mount(self) -> None:
        """Draw the empty table and start the driver; the countdown ticks."""
        self.show()
        self.game.start()
        self.set_interval(0.25, self._tick)

    def _tick(self) -> None:
        if self.game.snapshot is not None and self.game.snapshot.deadline is not None:
            self._put("#prompt", self.game.prompt_text())

    @property
    def game(self) -> MajiangApp:
        """The app (typed)."""
        assert isinstance(self.app, MajiangApp)
        return self.app

    def _put(self, selector: str, content: Text) -> None:
        """Update a panel only when its text changed (each update costs a layout)."""
        if self._shown.get(selector) != content:
            self._shown[selector] = content
            self.query_one(selector, Static).update(content)

    def shown(self, selector: str) -> Text:
        """The text a panel shows now (``"#hints"``, ``"#wild"``, ``"#prompt"``, ...)."""
        return self._shown.get(selector, Text())

    def show(self) -> None:
        """Draw the table from the app's state."""
        game = self.game
        snap = game.snapshot
        if snap is None:
            self._put("#prompt", Text("Connecting…", style="italic"))
            return
        self._put("#header", header(snap))
        wild = wild_line(snap)
        self.query_one("#wild", Static).display = wild is not None
        if wild is not None:
            self._put("#wild", wild)
        obs = snap.observation
        for offset, place in enumerate(PLACES):
            seat = (snap.seat + offset) % 4
            self._put(f"#{place}", seat_panel(snap, seat, last_discard=game.last_discard == seat))
            self.query_one(f"#{place}", Static).set_class(
                obs is not None and obs["phase"] != "end" and obs["current"] == seat, "to-play"
            )
        self._put("#hand", game.hand_text())
        self._put("#prompt", game.prompt_text())
        hints = self.query_one("#hints", Static)
        hints.set_class(game.show_hints, "shown")
        if game.show_hints:
            self._put(
                "#hints",
                hints_text(game.hints) if game.hints is not None
                else Text("Hints: asking…", style="dim"),
            )

    def write_log(self, lines: list[Text], clear: bool = False) -> None:
        """Add lines to the event log (a new hand starts it again)."""
        log = self.query_one("#log", RichLog)
        if clear:
            log.clear()
        for line in lines:
            log.write(line)

    async def on_key(self, event: Key) -> None:
        """Tile keys select (and, pressed again, discard); digits throw bullets."""
        char = event.character
        if not char:
            return
        game = self.game
        if game.choices.throws and char.isdigit():
            event.stop()
            await game.throw(int(char))
        elif char in TILE_KEYS:
            event.stop()
            await game.pick(TILE_KEYS.index(char))

    def action_cursor(self, delta: int) -> None:
        """Move the selection along the hand."""
        self.game.move_cursor(delta)

    def action_cursor_to(self, index: int) -> None:
        """Select the first or last tile."""
        self.game.move_cursor(0, to=index)

    async def action_discard(self) -> None:
        """Discard the selected tile."""
        await self.game.discard()

    async def action_win(self) -> None:
        """Declare a win."""
        await self.game.play(self.game.choices.win, "no win to declare now")

    async def action_pung(self) -> None:
        """Pung the discard."""
        await self.game.play(self.game.choices.pung, "no pung now")

    async def action_chow(self) -> None:
        """Chow the discard (a choice when several chows are possible)."""
        await self.game.choose(list(self.game.choices.chows), "Which chow?", "no chow now")

    async def action_kong(self) -> None:
        """Declare a kong (a choice when several are possible)."""
        await self.game.choose(list(self.game.choices.kongs), "Which kong?", "no kong now")

    async def action_pass(self) -> None:
        """Let the discard (or the bullets) go."""
        await self.game.play(self.game.choices.pass_, "nothing to pass now")

    async def action_accept(self) -> None:
        """Accept the dealer's bullets."""
        await self.game.play(self.game.choices.accept, "no bullets to accept now")

    async def action_decline(self) -> None:
        """Decline the dealer's bullets."""
        if self.game.choices.accept:
            await self.game.play(self.game.choices.pass_, "")

    async def action_hints(self) -> None:
        """Show or hide the hints."""
        await self.game.toggle_hints()

    def action_help(self) -> None:
        """The keys."""
        self.app.push_screen(HelpScreen())

    def action_quit_match(self) -> None:
        """Leave, after asking."""

        def answer(yes: bool | None) -> None:
            if yes:
                self.app.exit(0)

        self.app.push_screen(QuitScreen(), answer)


class MajiangApp(App[int]):
    """The terminal table for one seat, whatever the driver."""

    TITLE = "majiang"
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, driver: Driver) -> None:
        super().__init__()
        self.driver = driver
        self.snapshot: model.Snapshot | None = None
        self.choices = Choices()
        self.layout = HandLayout()
        self.cursor = 0
        self.armed: int | None = None
        """The tile whose key was just pressed (pressed again, it is discarded)."""
        self.hints: Json | None = None
        self.show_hints = False
        self.message: str | None = None
        self.offer: int | None = None
        self.answered: tuple[int | None, int] | None = None
        """The decision (hand, step) an action has been sent for."""
        self.log_lines: list[Text] = []
        self.last_discard: int | None = None
        """The seat whose pond ends with the table's last discard."""
        self.failure: str | None = None
        """Why the table could not go on (the command's error line)."""
        self.result_open = False
        self.pending_standings: model.MatchEnded | None = None
        self.match_over = False
        """The match has ended (the standings are shown, or will be after the sheet)."""
        self._hinted: tuple[int | None, int] | None = None
        self._redraw_pending = False

    # ------------------------------------------------------------------ running

    def get_default_screen(self) -> TableScreen:
        """The table."""
        return TableScreen()

    @property
    def table_screen(self) -> TableScreen:
        """The table screen (under any dialog)."""
        screen = self.screen_stack[0]
        assert isinstance(screen, TableScreen)
        return screen

    def start(self) -> None:
        """Start the driver (once the table is on screen)."""
        self.run_worker(self._drive(), name="driver", group="driver")

    async def _drive(self) -> None:
        def sink(event: model.DriverEvent) -> None:
            self.post_message(DriverMessage(event))

        try:
            await self.driver.run(sink)
        except MajiangError as error:
            self.post_message(DriverMessage(model.Problem(str(error), fatal=True)))

    async def on_unmount(self) -> None:
        """Let go of the connection."""
        await self.driver.close()

    def redraw(self) -> None:
        """Draw the table once the messages waiting now are handled (a burst of updates from
        a server is drawn once)."""
        if not self._redraw_pending:
            self._redraw_pending = True
            self.call_later(self._redraw)

    def _redraw(self) -> None:
        self._redraw_pending = False
        if self._screen_stack:
            self.table_screen.show()

    # ------------------------------------------------------------------ driver events

    async def on_driver_message(self, message: DriverMessage) -> None:
        """Apply one driver event to the view (none once the app is closing: the last events
        of a connection can arrive after the table screen has been taken down)."""
        if not self._screen_stack:
            return
        event = message.event
        if isinstance(event, model.TableChanged):
            await self._table_changed(event)
        elif isinstance(event, model.HandEnded):
            self._hand_ended(event)
        elif isinstance(event, model.MatchEnded):
            self.match_over = True
            if self.result_open:
                self.pending_standings = event
            else:
                self._show_standings(event)
        elif isinstance(event, model.HintsReady):
            self.hints = event.hints
            self.redraw()
        elif isinstance(event, model.Problem):
            if event.fatal:
                self.failure = event.message
                self.exit(1, return_code=1)
                return
            self.message = event.message
            self.answered = None  # refused: the decision is open again
            self.redraw()

    async def _table_changed(self, event: model.TableChanged) -> None:
        snap = event.snapshot
        lines = [line for e in event.events if (line := event_line(e, snap)) is not None]
        for e in event.events:
            if e["type"] == "throw_bullets":
                self.offer = int(e.get("count", 0))
        self.last_discard = last_discarder(event.events, None if event.fresh else self.last_discard)
        if event.fresh:
            self.log_lines = lines
            self.hints = None
            self.answered = None
            if isinstance(self.screen, ScoreScreen) and event.snapshot.hand != self.screen.hand:
                self.screen.dismiss(None)  # the next hand is dealt (the pause ran out)
        else:
            self.log_lines.extend(lines)
        before = self.snapshot
        self.snapshot = snap
        self.choices = Choices.of(snap.legal)
        self.layout = hand_layout(snap.observation)
        key = self.decision
        if (
            before is not None and not event.fresh and not event.events
            and before.hand == snap.hand and before.legal == snap.legal
            and self.answered == (before.hand, before.step)
        ):
            # the same question still (other seats passed meanwhile): already answered
            self.answered = key
        if before is None or (before.hand, before.step) != key:
            self.armed = None
            if self.layout.drawn is not None:
                self.cursor = self.layout.drawn
            self.hints = None if self.choices.any else self.hints
        self.cursor = max(0, min(self.cursor, len(self.layout.tiles) - 1))
        self.table_screen.write_log(lines, clear=event.fresh)
        if self.choices.only_pass and self.answered != key:
            self.answered = key  # nothing to decide: pass at once, draw with the next change
            await self.driver.act(self.choices.pass_ or {"type": "pass"})
            return
        if self.show_hints and self.choices.any and self._hinted != key:
            self._hinted = key
            await self.driver.request_hints()
        self.redraw()

    def _hand_ended(self, event: model.HandEnded) -> None:
        snap = self.snapshot
        rules = snap.rules if snap else self.driver.rules
        sheet = score_sheet(
            event.result, event.names, dealer=event.dealer, rules=rules,
            me=snap.seat if snap else None, hand=event.hand, totals=event.totals,
            final=event.final,
        )
        self.result_open = True
        last = snap is not None and snap.hands is not None and event.hand == snap.hands

        def closed(_: None) -> None:
            self.result_open = False
            self.run_worker(self.driver.next_hand())
            if self.pending_standings is not None:
                self._show_standings(self.pending_standings)

        self.push_screen(ScoreScreen(sheet, last, event.hand, self.pause_text,
                                     fan_definitions(event.result, rules)), closed)

    def _show_standings(self, event: model.MatchEnded) -> None:
        rules = self.snapshot.rules if self.snapshot else self.driver.rules
        me = self.snapshot.seat if self.snapshot else None
        self.pending_standings = None
        table = standings(event.totals, event.bullets, event.names, rules=rules, me=me)
        self.push_screen(StandingsScreen(table), lambda _: self.exit(0))

    # ------------------------------------------------------------------ state for the view

    @property
    def decision(self) -> tuple[int | None, int]:
        """The decision now: (hand, step)."""
        snap = self.snapshot
        return (None, 0) if snap is None else (snap.hand, snap.step)

    @property
    def waiting_for_player(self) -> bool:
        """Whether the game waits for the player: a decision, a sheet or the standings."""
        if self.failure is not None or isinstance(self.screen, ScoreScreen | StandingsScreen):
            return True
        return self.choices.any and not self.choices.only_pass and self.answered != self.decision

    def pause_text(self) -> str:
        """Between hands in a server room: when the next hand is dealt anyway, and who has not
        read the sheet yet ("" when the server does not wait)."""
        deadline = getattr(self.driver, "next_deadline", None)
        if deadline is None:
            return ""
        left = math.ceil(max(0.0, deadline - time.monotonic()))
        snap = self.snapshot
        waiting = [s for s in getattr(self.driver, "next_waiting", ()) if snap and s != snap.seat]
        names = ", ".join(snap.names[s] for s in waiting) if snap else ""
        return f"next hand in {left} s" + (f" · waiting for {names}" if names else "")

    def seconds_left(self) -> float | None:
        """Seconds before the server plays the seat's default action, if the decision now is
        timed (a server room; a local table waits)."""
        snap = self.snapshot
        if snap is None or snap.deadline is None:
            return None
        return max(0.0, snap.deadline - time.monotonic())

    def hand_text(self) -> Text:
        """The player's hand as cards."""
        snap = self.snapshot
        obs = snap.observation if snap else None
        if obs is None or not self.layout.tiles:
            return Text("(no tiles yet)", style="dim")
        wild = obs.get("wild")
        stand_in = wild if wild is not None and wild != "P" else None
        can_discard = bool(self.choices.discards) and self.answered != self.decision
        # on the player's turn to discard, with the hints shown: each tile's danger under it
        marks = safety_marks(self.hints, self.layout.tiles) if (
            can_discard and self.show_hints) else None
        return cards(
            self.layout.tiles, TILE_KEYS, gaps=self.layout.gaps,
            cursor=self.cursor if can_discard else None, wild=wild, stand_in=stand_in,
            marks=marks,
        )

    def prompt_text(self) -> Text:
        """What to do now, with any refusal or problem in red."""
        snap = self.snapshot
        assert snap is not None
        chosen = self.layout.tiles[self.cursor] if self.layout.tiles else None
        choices = self.choices if self.answered != self.decision else Choices()
        text = prompt(snap, choices, chosen=chosen, offer=self.offer)
        left = self.seconds_left()
        if left is not None and choices.any:
            text.append(f"   ⏱ {math.ceil(left)} s", style="bold red" if left < 5 else "bold")
        if self.message:
            text.append(f"\n{self.message}", style="bold red")
        return text

    # ------------------------------------------------------------------ the player's moves

    async def send(self, action: Json | None) -> None:
        """Play an action for the decision now (once)."""
        if action is None or self.answered == self.decision:
            return
        self.answered = self.decision
        self.message = None
        await self.driver.act(action)
        self.redraw()

    async def play(self, action: Json | None, refusal: str) -> None:
        """Play ``action`` if the player may; otherwise say why not."""
        if action is None:
            if refusal:
                self.message = refusal
                self.redraw()
            return
        await self.send(action)

    async def choose(self, options: list[Json], title: str, refusal: str) -> None:
        """Play the only option, or ask which one."""
        if len(options) <= 1:
            await self.play(options[0] if options else None, refusal)
            return
        decision = self.decision

        async def chosen(action: Json | None) -> None:
            if action is not None and self.decision == decision:
                await self.send(action)

        self.push_screen(ChoiceScreen(title, options), chosen)

    def move_cursor(self, delta: int, to: int | None = None) -> None:
        """Move the selection."""
        size = len(self.layout.tiles)
        if not size:
            return
        self.cursor = (to % size) if to is not None else (self.cursor + delta) % size
        self.armed = None
        self.redraw()

    async def pick(self, index: int) -> None:
        """A tile key: select that tile; the same key again discards it."""
        if index >= len(self.layout.tiles):
            return
        if index == self.armed and index == self.cursor and self.choices.discards:
            await self.discard()
            return
        self.cursor = index
        self.armed = index
        self.redraw()

    async def discard(self) -> None:
        """Discard the selected tile, if that is legal now."""
        if not self.choices.discards or not self.layout.tiles:
            return
        tile = self.layout.tiles[self.cursor]
        if tile not in self.choices.discards:
            self.message = f"{tile} cannot be discarded now"
            self.redraw()
            return
        await self.send({"type": "discard", "tile": tile})

    async def throw(self, count: int) -> None:
        """The dealer throws ``count`` bullets."""
        action = next((a for a in self.choices.throws if a["count"] == count), None)
        await self.play(action, f"you may throw {self.choices.throws[0]['count']}-"
                        f"{self.choices.throws[-1]['count']} bullets")

    async def toggle_hints(self) -> None:
        """Show (and ask for) or hide the hints."""
        self.show_hints = not self.show_hints
        if self.show_hints:
            self._hinted = self.decision
            await self.driver.request_hints()
        self.redraw()


__all__ = ["DriverMessage", "MajiangApp", "TableScreen"]
