"""The screens over the table: the score sheet, the final standings, a choice among options
(chows, kongs, bullets), the help, and the question before quitting."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from rich.console import RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.events import Key
from textual.screen import ModalScreen
from textual.widgets import Static

from .glyphs import meld_tiles, tokens
from .model import Json


class ScoreScreen(ModalScreen[None]):
    """A finished hand's score sheet; enter goes on to the next hand, d shows or hides the
    definitions of its fans."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "close", "next hand"),
        Binding("d", "definitions", "fan definitions", show=False),
        Binding("space,escape", "close", "next hand", show=False),
    ]
    DEFAULT_CSS = """
    ScoreScreen { align: center middle; }
    ScoreScreen > Vertical { width: 96%; height: auto; max-height: 96%;
        border: thick $accent; background: $surface; padding: 0 1; }
    ScoreScreen VerticalScroll { height: auto; max-height: 1fr; }
    ScoreScreen .keys { color: $text-muted; margin-top: 1; }
    ScoreScreen #definitions { display: none; margin-top: 1; }
    ScoreScreen #definitions.shown { display: block; }
    """

    def __init__(
        self, sheet: RenderableType, last: bool, hand: int | None = None,
        pause: Callable[[], str] | None = None, definitions: RenderableType | None = None,
    ) -> None:
        super().__init__()
        self.sheet = sheet
        self.definitions = definitions
        """The fans' definitions (d shows them), or None."""
        self.last = last
        self.hand = hand
        """The hand the sheet is of."""
        self.pause = pause
        """Says when the next hand is dealt anyway (a server room), or ""."""

    def compose(self) -> ComposeResult:
        """The sheet and the key to go on."""
        with Vertical():
            with VerticalScroll():
                yield Static(self.sheet, id="sheet")
                if self.definitions is not None:
                    yield Static(self.definitions, id="definitions")
            yield Static(self._keys(), classes="keys", id="sheet-keys")

    def _keys(self) -> str:
        what = "the final standings" if self.last else "the next hand"
        pause = self.pause() if self.pause is not None and not self.last else ""
        fans = " · d: fan definitions" if self.definitions is not None else ""
        return f"enter: {what} · ↑↓ scroll{fans}" + (f" · {pause}" if pause else "")

    def on_mount(self) -> None:
        """The pause's countdown ticks."""
        if self.pause is not None:
            self.set_interval(0.5, self._tick)

    def _tick(self) -> None:
        self.query_one("#sheet-keys", Static).update(self._keys())

    def action_definitions(self) -> None:
        """Show the fans' definitions under the sheet, or hide them."""
        if self.definitions is None:
            return
        shown = self.query_one("#definitions", Static)
        shown.toggle_class("shown")
        if shown.has_class("shown"):
            shown.scroll_visible()

    def action_close(self) -> None:
        """Back to the table."""
        self.dismiss(None)


class StandingsScreen(ModalScreen[None]):
    """The final standings; enter or q leaves."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "close", "quit"),
        Binding("q,escape", "close", "quit", show=False),
    ]
    DEFAULT_CSS = """
    StandingsScreen { align: center middle; }
    StandingsScreen > Vertical { width: auto; min-width: 50; height: auto;
        border: thick $success; background: $surface; padding: 1 2; }
    StandingsScreen .keys { color: $text-muted; margin-top: 1; }
    """

    def __init__(self, table: RenderableType) -> None:
        super().__init__()
        self.table = table

    def compose(self) -> ComposeResult:
        """The standings and the key to leave."""
        with Vertical():
            yield Static(self.table, id="standings")
            yield Static("The match is over. enter: quit", classes="keys")

    def action_close(self) -> None:
        """Leave."""
        self.dismiss(None)


def describe(action: Json) -> Text:
    """An option in words: ``吃 3m 4m 5m``, ``暗杠 E E E E``, ``throw 2 bullets``."""
    kind = action["type"]
    if kind == "chow":
        text = Text("吃 chow ")
        text.append_text(tokens(meld_tiles({"kind": "chow", "tile": action["tile"]}) or []))
        return text
    if kind == "exposed_kong":
        return Text("明杠 kong the discard")
    if kind == "concealed_kong":
        text = Text("暗杠 concealed kong ")
        text.append_text(tokens([action["tile"]] * 4))
        return text
    if kind == "added_kong":
        text = Text("加杠 add to your pung ")
        text.append_text(tokens([action["tile"]]))
        return text
    if kind == "throw_bullets":
        return Text(f"throw {action['count']} bullets")
    return Text(kind.replace("_", " "))


class ChoiceScreen(ModalScreen[Json | None]):
    """Choose one of several actions: a number key, or ↑↓ and enter; escape cancels."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,left", "move(-1)", "up", show=False),
        Binding("down,right", "move(1)", "down", show=False),
        Binding("enter", "choose", "choose"),
        Binding("escape", "cancel", "cancel"),
    ]
    DEFAULT_CSS = """
    ChoiceScreen { align: center middle; }
    ChoiceScreen > Static { width: auto; min-width: 40; height: auto;
        border: thick $warning; background: $surface; padding: 1 2; }
    """

    def __init__(self, title: str, options: list[Json]) -> None:
        super().__init__()
        self.title_text = title
        self.options = options
        self.index = 0

    def compose(self) -> ComposeResult:
        """The list of options."""
        yield Static(self._render_options(), id="choices")

    def _render_options(self) -> Text:
        text = Text(self.title_text + "\n", style="bold")
        for i, option in enumerate(self.options):
            marker = "▶ " if i == self.index else "  "
            line = Text(f"{marker}{i + 1}  ", style="bold" if i == self.index else "")
            line.append_text(describe(option))
            if i == self.index:
                line.stylize("reverse", 2)
            text.append("\n")
            text.append_text(line)
        text.append("\n\n1-9 or ↑↓ enter: choose · escape: cancel", style="dim")
        return text

    def _refresh(self) -> None:
        self.query_one("#choices", Static).update(self._render_options())

    def action_move(self, delta: int) -> None:
        """Move the highlight."""
        self.index = (self.index + delta) % len(self.options)
        self._refresh()

    def action_choose(self) -> None:
        """Take the highlighted option."""
        self.dismiss(self.options[self.index])

    def action_cancel(self) -> None:
        """Take none."""
        self.dismiss(None)

    def on_key(self, event: Key) -> None:
        """A digit chooses that option."""
        if event.character and event.character.isdigit():
            index = int(event.character) - 1
            if 0 <= index < len(self.options):
                event.stop()
                self.dismiss(self.options[index])


HELP_TEXT = """[b]Keys[/b]

[b]←/→[/b], [b]home/end[/b]  move along your hand      [b]enter[/b]  discard the selected tile
[b]1-9 0 a s d f[/b]  select a tile by the key above it (press it again to discard)
[b]w[/b]  win (self-drawn, on a discard, or robbing a kong)
[b]p[/b]  pung (碰)      [b]c[/b]  chow (吃; a list when there are several)
[b]k[/b]  kong (杠: on a discard, concealed or added; a list when there are several)
[b]space[/b] or [b].[/b]  pass (let the discard go)
Huangyan bullets (抛弹): the dealer presses [b]0-5[/b]; the others [b]y[/b] accept, [b]n[/b] decline
[b]h[/b]  hints: shanten, useful tiles (unseen copies), waits and whether they reach 8 fans
[b]?[/b]  this help      [b]q[/b]  quit

Claim windows you cannot use are passed for you. Tiles: 万 m characters, 条 s bamboo,
饼 p dots, 东南西北 E S W N, 中发白 C F P; a yellow tile is Huangyan's wild 得.
"""


class HelpScreen(ModalScreen[None]):
    """The keys; any key closes it."""

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > Static { width: auto; height: auto; border: thick $primary;
        background: $surface; padding: 1 2; }
    """

    def compose(self) -> ComposeResult:
        """The help text."""
        yield Static(HELP_TEXT + "\n[dim]any key: back[/dim]")

    def on_key(self, event: Key) -> None:
        """Close on any key."""
        event.stop()
        self.dismiss(None)


class QuitScreen(ModalScreen[bool]):
    """Quit the match? y / n."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "yes"),
        Binding("q", "answer(True)", "yes", show=False),
        Binding("n", "answer(False)", "no"),
        Binding("escape", "answer(False)", "no", show=False),
    ]
    DEFAULT_CSS = """
    QuitScreen { align: center middle; }
    QuitScreen > Static { width: auto; height: auto; border: thick $error;
        background: $surface; padding: 1 2; }
    """

    def compose(self) -> ComposeResult:
        """The question."""
        yield Static("Leave the match? [b]y[/b] yes · [b]n[/b] no")

    def action_answer(self, yes: bool) -> None:
        """Answer."""
        self.dismiss(yes)


__all__ = [
    "HELP_TEXT",
    "ChoiceScreen",
    "HelpScreen",
    "QuitScreen",
    "ScoreScreen",
    "StandingsScreen",
    "describe",
]
