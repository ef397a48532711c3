"""Hints for a seat at the table: shanten, useful tiles, waits and ranked discards.

Every table (terminal, browser through the server) asks :func:`hints` rather than working a hand
out itself. The answer is plain JSON:

- ``shanten``: 0 ready, -1 complete (for a hand on turn: the best after one discard);
- ``useful``: with 13 tiles, the faces whose draw lowers the shanten and their unseen copies;
- ``waits``: with 13 tiles and ready, each winning face, its unseen copies and, in Guobiao, its
  best total and whether it reaches the 8-fan minimum (``meets_minimum``);
- ``discards``: with 14 tiles, every distinct discard, best first, with the shanten it leaves and
  the unseen copies of the tiles that then help (``useful_unseen``) and, when it leaves the hand
  ready, its waits;
- ``shanten`` None when the seat holds no hand to advise on (before the deal).
- ``complete``: with 14 tiles, whether the hand is a winning shape as it stands.
- ``safety``: how dangerous each tile of the hand is to discard now (:func:`safety`, from
  :mod:`majiang.safety`: what each seat discarded and claimed), safest first.

Each rule set names its advisor (:attr:`~majiang.rules.info.RuleSetDescription.hints`):
:func:`fan_hints` (Guobiao) uses :func:`majiang.analysis.analyze`; :func:`wild_hints`
(Huangyan) counts the 得 tiles as jokers (:mod:`majiang.bots.wild_shanten`). "Unseen" counts
what this seat cannot see.
"""

from __future__ import annotations

from typing import Any

from .analysis import analyze
from .bots.view import hand_counts, unseen_counts
from .bots.wild_shanten import split_hand, useful_faces, wild_shanten
from .engine.state import HIDDEN, Observation
from .hand import Hand
from .rules.base import RuleSet
from .rules.info import load
from .rules.registry import description_of
from .safety import safety
from .tiles import WHITE, tile_name


def hints(obs: Observation, rules: RuleSet) -> dict[str, Any]:
    """JSON-ready hints for the seat of ``obs`` under ``rules`` (see the module docstring)."""
    size = len(obs.hand) + 3 * len(obs.melds[obs.seat])
    if size not in (13, 14):  # before the deal (bullets) or after a win: nothing to advise
        return {"rules": rules.name, "tiles": size, "shanten": None}
    out = load(description_of(rules).hints)(obs, rules)
    out["safety"] = safety(obs)
    return out


def _visible(obs: Observation) -> list[int]:
    """Tiles this seat sees outside its own hand: ponds and the other seats' shown melds."""
    seen: list[int] = [t for pond in obs.discards for t in pond]
    for seat, melds in enumerate(obs.melds):
        if seat == obs.seat:
            continue
        for meld in melds:
            if meld.tile != HIDDEN:
                seen.extend(meld.tiles)
    if obs.indicator is not None:
        seen.append(obs.indicator)
    return seen


def fan_hints(obs: Observation, rules: RuleSet) -> dict[str, Any]:
    """Hints from the fan analysis (Guobiao): scored waits, the 8-fan minimum."""
    concealed = list(obs.hand)
    win_tile = None
    if len(concealed) + 3 * len(obs.melds[obs.seat]) == 14:
        last = obs.drawn if obs.drawn is not None else concealed[-1]
        concealed.remove(last)
        win_tile = last
    hand = Hand.of(obs.melds[obs.seat], concealed, win_tile, obs.flowers[obs.seat])
    analysis = analyze(
        hand,
        _visible(obs),
        seat_wind=obs.seat_wind,
        prevalent_wind=obs.prevalent_wind,
        options=getattr(rules, "options", None),
    )
    out = analysis.to_dict()
    out.pop("hand", None)
    out["rules"] = rules.name
    for wait in out.get("waits", ()):
        _best_total(wait)
    for option in out.get("discards", ()):
        for wait in option.get("waits", ()):
            _best_total(wait)
    return out


def _best_total(wait: dict[str, Any]) -> None:
    totals = [s["total"] for s in (wait.get("discard"), wait.get("self_drawn")) if s]
    wait["best_total"] = max(totals) if totals else None


def wild_hints(obs: Observation, rules: RuleSet) -> dict[str, Any]:
    """Hints counting the wild tiles as jokers (Huangyan's 得)."""
    wild = obs.wild
    melds = len(obs.melds[obs.seat])
    unseen = unseen_counts(obs, hand_counts(obs), wild)
    stand_in = wild is not None and wild != WHITE
    counts, jokers = split_hand(obs.hand, wild)
    out: dict[str, Any] = {"rules": rules.name, "wild": tile_name(wild) if wild else None}
    if len(obs.hand) + 3 * melds == 13:
        shanten = wild_shanten(counts, jokers, melds)
        useful = useful_faces(counts, jokers, melds, wild)
        out["tiles"] = 13
        out["shanten"] = shanten
        out["useful"] = [{"tile": tile_name(f), "unseen": unseen[f]} for f in useful]
        out["useful_unseen"] = sum(unseen[f] for f in useful)
        out["waits"] = (
            [{"tile": tile_name(f), "unseen": unseen[f]} for f in useful] if shanten == 0 else []
        )
        return out
    out["tiles"] = 14
    out["shanten"] = wild_shanten(counts, jokers, melds)
    out["complete"] = out["shanten"] == -1
    options = []
    for face in sorted(set(obs.hand)):
        rest = list(obs.hand)
        rest.remove(face)
        rest_counts, rest_jokers = split_hand(rest, wild)
        left = wild_shanten(rest_counts, rest_jokers, melds)
        useful = useful_faces(rest_counts, rest_jokers, melds, wild)
        option: dict[str, Any] = {
            "tile": tile_name(face),
            "shanten": left,
            "useful": [{"tile": tile_name(f), "unseen": unseen[f]} for f in useful],
            "useful_unseen": sum(unseen[f] for f in useful),
            "wild": face == wild,
            "stand_in": stand_in and face == WHITE,
        }
        if left == 0:
            option["waits"] = option["useful"]
        options.append(option)
    options.sort(key=lambda o: (o["shanten"], -o["useful_unseen"], o["wild"]))
    out["discards"] = options
    return out


__all__ = ["fan_hints", "hints", "safety", "wild_hints"]
