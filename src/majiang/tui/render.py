"""The table as text: the header, each seat's panel, the prompt and the event log.

Pure functions from the view model (:mod:`majiang.tui.model`) to Rich text; no rule is worked
out here, only what the observation and the legal actions say is shown.
"""

from __future__ import annotations

from rich.text import Text

from ..rules.info import TableShows
from ..rules.registry import RULE_SETS
from .glyphs import WIND_CHINESE, WIND_NAMES, chinese, long, meld, token, tokens
from .model import TILE_KEYS, Choices, Json, Snapshot, relative


def rules_title(rules: str) -> str:
    """A rule set's short title in both languages (``国标 GB``); the name if unknown here."""
    info = RULE_SETS.resolve(rules)
    return rules if info is None else info.label


def shows(rules: str) -> TableShows:
    """What a table of rule set ``rules`` shows (every rule set's fields if unknown here)."""
    info = RULE_SETS.resolve(rules)
    return TableShows() if info is None else info.shows


def seat_wind(obs: Json, seat: int) -> int:
    """A seat's wind (0 East ... 3 North): the dealer is East."""
    return int((seat - obs["dealer"]) % 4)


def seat_label(snap: Snapshot, seat: int) -> str:
    """``"South 南 (fan bot)"`` — the seat wind and the player's name."""
    obs = snap.observation
    name = snap.names[seat] if seat < len(snap.names) else f"seat {seat}"
    if obs is None:
        return f"seat {seat} ({name})"
    wind = seat_wind(obs, seat)
    return f"{WIND_NAMES[wind]} {WIND_CHINESE[wind]} ({name})"


def who(snap: Snapshot, seat: int) -> str:
    """A seat in a sentence: ``You`` or its wind and name."""
    return "You" if seat == snap.seat else seat_label(snap, seat)


def whose(snap: Snapshot, seat: int) -> str:
    """A seat as an owner: ``your`` or ``East 东 (Bo)'s``."""
    return "your" if seat == snap.seat else f"{seat_label(snap, seat)}'s"


def last_discarder(events: list[Json], before: int | None = None) -> int | None:
    """The seat whose discard is the table's last still in its pond, after ``events`` (the
    seat known ``before`` them, if any): a claim takes the tile out of the pond."""
    seat = before
    for event in events:
        if event["type"] == "discard":
            seat = event.get("seat")
        elif event["type"] in ("chow", "pung", "exposed_kong", "deal"):
            seat = None
    return seat


def header(snap: Snapshot) -> Text:
    """The match line: rules, hand number, prevalent wind, dealer, wall count."""
    text = Text()
    text.append("majiang ", style="bold")
    text.append(rules_title(snap.rules))
    if snap.hand is not None:
        text.append(f" · hand {snap.hand}" + (f"/{snap.hands}" if snap.hands else ""))
    obs = snap.observation
    if obs is None:
        return text
    if shows(snap.rules).prevalent_wind:
        wind = obs["prevalent_wind"]
        text.append(f" · prevalent {WIND_CHINESE[wind]}风 {WIND_NAMES[wind]}")
    text.append(" · dealer ")
    text.append(who(snap, obs["dealer"]), style="bold")
    text.append(" · wall ")
    text.append(str(obs["drawable"]), style="bold")
    return text


def wild_line(snap: Snapshot) -> Text | None:
    """The wild tile's line (Huangyan): the indicator, the 得, the raw-tile phase, the dealer
    count and the thrown bullets; None for rules without a wild tile."""
    obs = snap.observation
    if obs is None or not shows(snap.rules).wild:
        return None
    text = Text()
    wild = obs.get("wild")
    if obs.get("indicator") is not None:
        text.append("indicator ")
        text.append_text(token(obs["indicator"]))
        text.append(" → 得 ")
    if wild is not None:
        text.append(f" {long(wild)} ", style="black on yellow")
        if wild != "P":
            text.append(f" · 白 plays as {wild}")
    else:
        text.append("得 not yet turned up")
    if shows(snap.rules).dealer_count:
        text.append(f" · 庄数 dealer count {obs['dealer_count']}")
    thrown = obs.get("thrown") or [0, 0, 0, 0]
    if any(thrown):
        parts = [f"{WIND_NAMES[seat_wind(obs, s)]} {n}" for s, n in enumerate(thrown) if n]
        text.append(" · thrown bullets " + ", ".join(parts))
    if obs.get("raw_phase"):
        text.append(" · ")
        text.append(" 生牌阶段 raw-tile phase ", style="bold white on red")
    return text


def seat_panel(snap: Snapshot, seat: int, *, last_discard: bool = False) -> Text:
    """One seat: wind, name, dealer, score, tiles in hand, flowers, melds, pond
    (``last_discard``: the pond's last tile is the table's last discard, marked)."""
    obs = snap.observation
    text = Text()
    mine = seat == snap.seat
    text.append(seat_label(snap, seat), style="bold cyan" if mine else "bold")
    text.append(f" · {relative(seat, snap.seat)}", style="dim")
    if obs is None:
        return text
    if snap.away[seat]:
        text.append(" · away (a bot plays)", style="bold red")
    if seat == obs["dealer"]:
        text.append(" · ● dealer", style="yellow")
    if obs["phase"] in ("claim", "rob") and seat == obs["current"]:
        text.append(" · ◀ discarded" if obs["phase"] == "claim" else " · ◀ adds a kong",
                    style="bold green")
    elif obs["phase"] not in ("end", "bullets") and seat == obs["current"]:
        text.append(" · ◀ to play", style="bold green")
    score = snap.totals[seat] + obs["deltas"][seat]
    text.append(f" · score {score:+d}")
    ledger = shows(snap.rules).second_ledger
    if ledger:
        text.append(f" · {ledger} {snap.bullets[seat]:+d}")
    if not mine:
        text.append(f" · {obs['hand_sizes'][seat]} in hand")
    flowers = obs["flowers"][seat]
    if flowers:
        text.append(" · flowers ")
        text.append_text(tokens(flowers))
    wild = obs.get("wild")
    melds = obs["melds"][seat]
    if melds:
        text.append("\n  melds ", style="dim")
        for i, m in enumerate(melds):
            if i:
                text.append("  │  ", style="dim")
            text.append_text(meld(m, wild))
    text.append("\n  pond  ", style="dim")
    pond = obs["discards"][seat]
    if pond:
        text.append_text(tokens(pond[:-1], wild))
        if len(pond) > 1:
            text.append(" ")
        if last_discard:
            text.append("▶", style="bold red")
            text.append_text(tokens(pond[-1:], wild))
            text.append("◀ last", style="bold red")
        else:
            text.append_text(tokens(pond[-1:], wild))
    else:
        text.append("—", style="dim")
    return text


def prompt(
    snap: Snapshot, choices: Choices, *, chosen: str | None = None, offer: int | None = None
) -> Text:
    """What the seat may do now and which keys do it; ``chosen`` is the selected tile,
    ``offer`` the bullets the dealer has just thrown (from the ``throw_bullets`` event)."""
    obs = snap.observation
    text = Text()
    if obs is None:
        text.append(snap.note or "Waiting for the match to start…", style="italic")
        return text
    phase = obs["phase"]
    if phase == "end":
        text.append("The hand is over.", style="bold")
        return text
    if not choices.any:
        text.append(f"Waiting for {who(snap, obs['current'])}…", style="dim italic")
        return text
    keys: list[tuple[str, str]] = []
    if phase == "bullets":
        if choices.throws:
            counts = [a["count"] for a in choices.throws]
            text.append("You deal: throw bullets (抛弹)? ", style="bold")
            keys.append((f"{counts[0]}-{counts[-1]}", "throw that many (0: none)"))
        else:
            count = "some" if offer is None else str(offer)
            text.append(f"{who(snap, obs['dealer'])} throws {count} bullets. ", style="bold")
            keys.append(("y", "accept"))
            keys.append(("n/space", "decline"))
    elif phase in ("claim", "rob"):
        tile = obs["last_discard"]
        verb = "discards" if phase == "claim" else "adds to a kong"
        text.append(f"{who(snap, obs['current'])} {verb} ", style="bold")
        text.append(f" {long(tile)} ", style="reverse")
        text.append(" ")
    else:
        text.append("Your turn: ", style="bold")
        if choices.discards:
            keys.append(("←→ enter", "discard"))
            keys.append((f"{TILE_KEYS[0]}…", "pick a tile"))
    if choices.win:
        label = "rob the kong (抢杠和)" if phase == "rob" else "win (和)"
        if obs.get("win_reaches_minimum") is False:
            label = "FALSE win (错和: under 8 fans, penalty)"
        keys.append(("w", label))
    if choices.pung:
        keys.append(("p", "pung (碰)"))
    if choices.chows:
        keys.append(("c", "chow (吃)" + (f" ×{len(choices.chows)}" if len(choices.chows) > 1
                                         else "")))
    if choices.kongs:
        keys.append(("k", "kong (杠)" + (f" ×{len(choices.kongs)}" if len(choices.kongs) > 1
                                         else "")))
    if choices.pass_ and phase != "bullets":
        keys.append(("space", "pass"))
    for i, (key, what) in enumerate(keys):
        if i:
            text.append(" · ", style="dim")
        text.append(key, style="bold reverse")
        text.append(f" {what}")
    if chosen is not None and choices.discards and phase == "turn":
        text.append("   selected ", style="dim")
        text.append(long(chosen), style="bold")
    return text


HELP = (
    "←→ select · enter discard · 1-9 0 a s d f pick tile · w win · p pung · c chow · k kong · "
    "space/. pass · y/n bullets · h hints · ? help · q quit"
)
"""The help line of keys."""


def event_line(event: Json, snap: Snapshot) -> Text | None:
    """One event of the hand in words, or None for those not worth a line (draws)."""
    kind = event["type"]
    seat = event.get("seat")
    me = seat == snap.seat
    name = who(snap, seat) if isinstance(seat, int) else ""

    def actor(verb: str) -> str:
        """``You discard`` / ``East 东 (fan bot 1) discards``."""
        if me:
            return f"{name} {verb}"
        third = verb[:-1] + "ies" if verb.endswith("y") and verb[-2] not in "aeiou" else (
            verb + ("es" if verb.endswith(("s", "sh", "ch", "x")) else "s")
        )
        return f"{name} {third}"

    tile = event.get("tile")
    text = Text()
    if kind == "discard":
        text.append(actor("discard") + " ")
        text.append_text(_tile(tile))
    elif kind in ("chow", "pung", "exposed_kong"):
        verb = {"chow": "chow", "pung": "pung", "exposed_kong": "kong"}[kind]
        text.append(actor(verb) + " ", style="bold")
        text.append_text(_tile(tile))
        source = event.get("source")
        if isinstance(source, int):
            text.append(f" from {who(snap, source)}")
    elif kind == "concealed_kong":
        text.append(actor("declare") + " a concealed kong (暗杠)", style="bold")
    elif kind == "added_kong":
        text.append(actor("add") + " ", style="bold")
        text.append_text(_tile(tile))
        text.append(" to a pung (加杠)", style="bold")
    elif kind == "flower":
        text.append(actor("show") + " a flower ")
        text.append_text(_tile(tile))
    elif kind == "draw":
        if tile is None or event.get("source") == "wall":
            return None
        text.append(actor("draw") + " a replacement ")
        text.append_text(_tile(tile))
    elif kind == "indicator":
        text.append("Indicator ")
        text.append_text(tokens(event.get("tiles") or []))
        if event.get("wild"):
            text.append(f": the wild tile (得) is {long(event['wild'])}", style="bold")
    elif kind == "raw_tile_phase":
        text.append(f"生牌阶段: the raw-tile phase begins ({event.get('remaining')} left)",
                    style="bold red")
    elif kind == "throw_bullets":
        text.append(actor("throw") + f" {event.get('count', 0)} bullets (抛弹)")
    elif kind == "accept_bullets":
        text.append(actor("accept") + f" {event.get('count', 0)} bullets")
    elif kind == "false_win":
        text.append(actor("declare") + " a false win (错和) and pay the penalty"
                    if me else actor("declare") + " a false win (错和) and pays the penalty",
                    style="bold red")
    elif kind == "win":
        how = "self-drawn" if event.get("discarder") is None else (
            f"on {whose(snap, event['discarder'])} tile"
        )
        text.append(actor("win") + f" {how} ({event.get('points')})", style="bold green")
    elif kind == "exhaustive_draw":
        text.append("荒牌 Exhaustive draw: the wall is spent", style="bold")
    elif kind == "deal":
        dealer = event.get("dealer", 0)
        deals = "deal" if dealer == snap.seat else "deals"
        text.append(f"New hand: {who(snap, dealer)} {deals}", style="dim")
    else:
        return None
    return text


def _tile(name: object) -> Text:
    if not isinstance(name, str):
        return Text("?")
    return Text(f"{chinese(name)} {name}", style="bold")


__all__ = [
    "HELP",
    "event_line",
    "header",
    "last_discarder",
    "prompt",
    "rules_title",
    "seat_label",
    "seat_panel",
    "seat_wind",
    "shows",
    "who",
    "whose",
    "wild_line",
]
