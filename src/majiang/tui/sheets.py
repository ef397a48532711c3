"""The score sheet of a hand, the final standings and the hints, as Rich renderables.

Everything shown comes from ``HandResult.to_json()`` (the rule set's ``detail``) and from
:func:`majiang.hints.hints`; nothing is recomputed.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ..rules.info import load
from ..rules.registry import RULE_SETS
from .glyphs import WIND_CHINESE, WIND_NAMES, long, meld, token, tokens
from .model import Json


def _seat(seat: int, names: Sequence[str], dealer: int, me: int | None = None) -> str:
    wind = (seat - dealer) % 4
    name = names[seat] if seat < len(names) else f"seat {seat}"
    you = " ★" if seat == me else ""
    return f"{WIND_NAMES[wind]} {WIND_CHINESE[wind]} ({name}){you}"


def _ledger(rules: str) -> str | None:
    """The name of the rule set's second ledger (``bullets``), if it keeps one."""
    info = RULE_SETS.resolve(rules)
    return None if info is None else info.shows.second_ledger


def _signed(value: int) -> Text:
    style = "green" if value > 0 else "red" if value < 0 else "dim"
    return Text(f"{value:+d}", style=style)


def outcome(result: Json, names: Sequence[str], dealer: int, me: int | None = None) -> Text:
    """One line: who won, how, on which tile — or the exhaustive draw."""
    winner = result.get("winner")
    if winner is None:
        return Text("荒牌 Exhaustive draw: nobody won, nothing is paid.", style="bold")
    text = Text(f"{_seat(winner, names, dealer, me)} wins ", style="bold green")
    if result.get("self_drawn"):
        text.append("self-drawn (自摸)", style="bold")
    elif result.get("discarder") is not None:
        text.append(f"on the tile of {_seat(result['discarder'], names, dealer, me)}")
    tile = result.get("winning_tile")
    if tile:
        text.append(" — winning tile ")
        text.append(long(tile), style="bold reverse")
    return text


def winning_hand(result: Json, final: Json | None) -> Text | None:
    """The winner's tiles as the hand ended: concealed tiles (the winning tile last, marked)
    and melds; None when there is no winner or the tiles are not known."""
    winner = result.get("winner")
    if winner is None or not final:
        return None
    try:
        concealed = list(final["hands"][winner])
        melds = list(final["melds"][winner])
    except (KeyError, IndexError, TypeError):
        return None
    wild = final.get("wild")
    tile = result.get("winning_tile")
    if tile in concealed:
        concealed.remove(tile)
    text = Text("Winning hand  ", style="bold")
    text.append_text(tokens(concealed, wild))
    if tile:
        text.append("  ")
        text.append_text(token(tile, wild))
        text.append(" ◀ winning tile", style="bold green")
    for m in melds:
        text.append("  │  ", style="dim")
        text.append_text(meld(m, wild))
    return text


def payments_table(
    result: Json, names: Sequence[str], dealer: int, me: int | None, rules: str
) -> Table:
    """This hand's score change of every seat (and bullets where the rules have them)."""
    table = Table(title="Payments", title_justify="left", box=None, padding=(0, 2))
    table.add_column("Seat")
    table.add_column("Points", justify="right")
    bullets = result.get("bullets")
    ledger = _ledger(rules)
    if ledger:
        table.add_column(ledger.capitalize(), justify="right")
    for seat, delta in enumerate(result["deltas"]):
        row: list[RenderableType] = [_seat(seat, names, dealer, me), _signed(delta)]
        if ledger:
            row.append(_signed(bullets[seat] if bullets else 0))
        table.add_row(*row)
    return table


def guobiao_sheet(
    result: Json, names: Sequence[str] = (), dealer: int = 0, me: int | None = None
) -> list[RenderableType]:
    """Every fan with its Chinese and English name, points and count; the total."""
    detail = result.get("detail") or {}
    fans = detail.get("fans") or []
    if not fans:
        return []
    table = Table(box=None, padding=(0, 2), show_footer=True)
    table.add_column("番 Fan", footer=Text("Total", style="bold"))
    table.add_column("", footer="")
    table.add_column("Points", justify="right")
    table.add_column("Count", justify="right")
    table.add_column("Total", justify="right", footer=Text(str(detail.get("total", "")),
                                                           style="bold"))
    for fan in fans:
        table.add_row(
            fan["name"], fan["en"], str(fan["points"]), str(fan["count"]),
            str(fan["points"] * fan["count"]),
        )
    out: list[RenderableType] = [table]
    if detail.get("flowers"):
        out.append(Text(f"Flowers: {detail['flowers']} (one fan each, not toward the 8)",
                        style="dim"))
    return out


def fan_definitions(result: Json, rules: str) -> RenderableType | None:
    """Each fan of the result with its definition in Chinese and in English, as the rule set
    gives them (:attr:`~majiang.rules.info.RuleSetDescription.fan_definitions`: Guobiao's fans,
    a Huangyan winner's doublings); None for a result without any."""
    info = RULE_SETS.resolve(rules)
    found = [] if info is None else load(info.fan_definitions)(result)
    if not found:
        return None
    parts: list[RenderableType] = [Text("番种定义 Fan definitions", style="bold")]
    for fan in found:
        parts.append(Text(f"{fan.zh} {fan.en}", style="bold"))
        parts.append(Text(f"  {fan.definition['zh']}"))
        parts.append(Text(f"  {fan.definition['en']}", style="dim"))
    return Group(*parts)


def huangyan_sheet(
    result: Json, names: Sequence[str], dealer: int, me: int | None
) -> list[RenderableType]:
    """The winner's hu items and doublings, the total, the losers' counts, the gunner and
    every payment."""
    detail = result.get("detail") or {}
    winner = detail.get("winner")
    if not winner:
        return []
    out: list[RenderableType] = []
    head = Text("Reading ", style="dim")
    head.append(str(winner.get("reading", "")), style="bold")
    head.append(f"   得 = {detail.get('wild') or winner.get('wild')}", style="black on yellow")
    out.append(head)
    items = Table(box=None, padding=(0, 2), show_footer=True)
    items.add_column("胡 Hu item", footer=Text("Hu", style="bold"))
    items.add_column("", footer="")
    items.add_column("Tiles", footer="")
    items.add_column("Hu", justify="right", footer=Text(str(winner.get("hu")), style="bold"))
    for item in winner.get("items", []):
        items.add_row(item["zh"], item["en"], item["tiles"], str(item["hu"]))
    out.append(items)
    fans = winner.get("fans") or []
    if fans:
        doublings = Table(box=None, padding=(0, 2))
        doublings.add_column("翻 Doubling")
        doublings.add_column("")
        doublings.add_column("Fan", justify="right")
        doublings.add_column("Count", justify="right")
        for fan in fans:
            doublings.add_row(fan["zh"], fan["en"], str(fan["fan"]), str(fan["count"]))
        out.append(doublings)
    total = Text(
        f"Total: (hu + base) × 2^{winner.get('fan')} = {winner.get('raw')} → ", style="bold"
    )
    total.append(str(winner.get("total")), style="bold reverse")
    if winner.get("limit"):
        total.append("  辣子 the limit", style="bold red")
    if winner.get("three_wilds"):
        total.append("  three 得", style="bold")
    out.append(total)
    losers = detail.get("losers") or {}
    if losers:
        line = Text("Losers' counts: ", style="dim")
        line.append(", ".join(
            f"{_seat(int(s), names, dealer, me)} {n}" for s, n in sorted(losers.items())
        ))
        out.append(line)
    thrown = result.get("thrown")
    if thrown and any(thrown):
        out.append(Text("Thrown bullets in force (抛弹): " + ", ".join(
            f"{_seat(s, names, dealer, me)} {n}" for s, n in enumerate(thrown) if n
        ), style="dim"))
    gunner = detail.get("gunner")
    out.append(Text(
        "Gunner (放铳): none" if gunner is None
        else f"Gunner (放铳): {_seat(gunner, names, dealer, me)} pays for everyone",
        style="bold red" if gunner is not None else "dim",
    ))
    payments = detail.get("payments") or []
    if payments:
        table = Table(title="Transfers", title_justify="left", box=None, padding=(0, 2))
        table.add_column("Payer")
        table.add_column("Payee")
        table.add_column("Amount", justify="right")
        table.add_column("Ledger")
        table.add_column("Why")
        for p in payments:
            why = p.get("reason", "")
            if p.get("for") is not None:
                why += f" (for {WIND_NAMES[(p['for'] - dealer) % 4]})"
            table.add_row(
                _seat(p["payer"], names, dealer, me), _seat(p["payee"], names, dealer, me),
                str(p["amount"]), p["ledger"], why,
            )
        out.append(table)
    return out


def score_sheet(
    result: Json,
    names: Sequence[str],
    *,
    dealer: int,
    rules: str,
    me: int | None = None,
    hand: int | None = None,
    totals: Sequence[int] | None = None,
    final: Json | None = None,
) -> RenderableType:
    """The whole sheet of a finished hand (``final``: the tiles as it ended, for the winner's
    hand)."""
    parts: list[RenderableType] = []
    title = Text(f"Hand {hand} — " if hand is not None else "", style="bold")
    title.append_text(outcome(result, names, dealer, me))
    parts.append(title)
    shown = winning_hand(result, final)
    if shown is not None:
        parts.append(shown)
    parts.append(Text())
    info = RULE_SETS.resolve(rules)
    body = guobiao_sheet if info is None else load(info.sheet)
    parts.extend(body(result, names, dealer, me))
    parts.append(Text())
    parts.append(payments_table(result, names, dealer, me, rules))
    if totals is not None:
        line = Text("Running totals: ", style="dim")
        line.append(", ".join(f"{_short_name(names, s)} {t:+d}" for s, t in enumerate(totals)))
        parts.append(Text())
        parts.append(line)
    return Group(*parts)


def _short_name(names: Sequence[str], seat: int) -> str:
    return names[seat] if seat < len(names) else f"seat {seat}"


def standings(
    totals: Sequence[int], bullets: Sequence[int], names: Sequence[str], *, rules: str,
    me: int | None = None,
) -> Table:
    """The final table: players ranked by points (then bullets)."""
    table = Table(title="Final standings", title_style="bold", padding=(0, 2))
    table.add_column("#", justify="right")
    table.add_column("Player")
    table.add_column("Points", justify="right")
    ledger = _ledger(rules)
    if ledger:
        table.add_column(ledger.capitalize(), justify="right")
    order = sorted(range(len(totals)), key=lambda s: (-totals[s], -bullets[s], s))
    for rank, seat in enumerate(order, 1):
        name = _short_name(names, seat) + (" ★" if seat == me else "")
        row: list[RenderableType] = [str(rank), name, _signed(totals[seat])]
        if ledger:
            row.append(_signed(bullets[seat]))
        table.add_row(*row)
    return table


def _shanten(value: int | None) -> str:
    if value is None:
        return "nothing to advise yet"
    if value < 0:
        return "complete: a winning shape"
    if value == 0:
        return "ready (听牌)"
    return f"{value} from ready (向听 {value})"


def _useful(entries: Sequence[Json], limit: int = 12) -> Text:
    text = Text()
    for i, u in enumerate(entries[:limit]):
        if i:
            text.append(" ")
        text.append_text(tokens([u["tile"]]))
        text.append(f"×{u['unseen']}", style="dim")
    if len(entries) > limit:
        text.append(f" +{len(entries) - limit}", style="dim")
    return text


def _waits(waits: Sequence[Json]) -> Text:
    text = Text()
    for i, w in enumerate(waits):
        if i:
            text.append("  ")
        text.append_text(tokens([w["tile"]]))
        text.append(f"×{w['unseen']}", style="dim")
        if "meets_minimum" in w:
            best = w.get("best_total")
            if w["meets_minimum"]:
                text.append(f" {best} fans ✓8", style="green")
            else:
                text.append(f" {best if best is not None else '-'} fans ✗8", style="red")
    return text


_DANGER_STYLES = ("green", "yellow", "dark_orange", "bold red")
"""How the safety hint's dangers 0-3 show."""


_DANGER_MARKS = ("safe", "low", "mid", "HIGH")
"""The safety hint's dangers 0-3 as marks under the tiles of the hand (four cells each)."""


def safety_marks(hints: Json | None, tiles: Sequence[str]) -> list[tuple[str, str]] | None:
    """The safety hint as one (mark, style) per tile of the hand, for the row under the tiles;
    None when the hints hold no safety reading. A tile the hint does not name gets no mark."""
    safety = (hints or {}).get("safety") or []
    if not safety:
        return None
    danger = {str(entry["tile"]): int(entry["danger"]) for entry in safety}
    return [
        (_DANGER_MARKS[danger[tile]], _DANGER_STYLES[danger[tile]]) if tile in danger else ("", "")
        for tile in tiles
    ]


def hints_text(hints: Json, limit: int = 4) -> Text:
    """Shanten, useful tiles with unseen counts, waits (and whether they reach 8 fans), how
    dangerous each tile is to discard (the safety hint), and the best discards."""
    text = Text("Hints ", style="bold")
    if "error" in hints:
        text.append(str(hints["error"]), style="italic")
        return text
    text.append(_shanten(hints.get("shanten")))
    if hints.get("shanten") is None:
        return text
    win = hints.get("win")
    if win:
        text.append("\n  win now: ")
        text.append_text(_waits([win]))
    if hints.get("useful") and hints.get("tiles") == 13:
        text.append(f"\n  useful ({hints.get('useful_unseen', '')} unseen): ", style="dim")
        text.append_text(_useful(hints["useful"]))
    if hints.get("waits"):
        text.append("\n  waits: ", style="dim")
        text.append_text(_waits(hints["waits"]))
    safety = hints.get("safety") or []
    if safety:
        text.append("\n  safety: ", style="dim")
        for i, entry in enumerate(safety):
            if i:
                text.append(" ")
            text.append_text(tokens([entry["tile"]]))
            text.append(f" {entry['level']}", style=_DANGER_STYLES[int(entry["danger"])])
            if entry.get("raw"):
                text.append(" 生", style="bold red")
    for option in (hints.get("discards") or [])[:limit]:
        text.append("\n  discard ")
        text.append_text(tokens([option["tile"]]))
        if option.get("wild"):
            text.append(" (得!)", style="red")
        text.append(f" → {_shanten(option['shanten'])}, {option['useful_unseen']} useful: ",
                    style="dim")
        if option.get("waits"):
            text.append_text(_waits(option["waits"]))
        else:
            text.append_text(_useful(option["useful"], 8))
    return text


__all__ = [
    "guobiao_sheet",
    "hints_text",
    "huangyan_sheet",
    "outcome",
    "payments_table",
    "score_sheet",
    "standings",
    "winning_hand",
]
