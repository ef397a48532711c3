"""The safety hint: for each tile in a seat's hand, how dangerous it is to discard now.

A reading of what the table shows, as club players reason (in the spirit of Japanese *genbutsu*
and *suji*), never a certainty: nothing here sees another seat's tiles. For each opponent a tile
gets a danger from 0 to 3 (``safe``, ``low``, ``medium``, ``high``) and a reason:

- **no win on it**: in Huangyan nobody may win on a discarded 得 (0);
- **honours**: a wait on an honour needs a copy of it in the waiting hand, so with none unseen
  nobody can wait on it (0); with one unseen only a single wait can (1), with two a single or
  a pair wait (1), with three a pung wait too (2);
- **in that seat's pond** (*genbutsu*): the seat let that face go, so waiting on it is unlikely
  (0; Guobiao has no furiten, so it is not proof);
- **suji**: the seat discarded the tile three ranks away on each open side (a 5 after a 2 and an
  8, a 1 after a 4), so a two-sided wait on it is unlikely (1);
- **its melds**: a seat whose two or more exposed melds are all in one suit (honours aside) is
  building a flush, the surest way for an open hand to find the fans it needs (Guobiao's 8-fan
  minimum makes an open hand of mixed chows rarely complete): tiles of the other suits are
  unlikely to be its wait (1) and tiles of that suit likely (3);
- otherwise by rank: terminals 2, the rest 3, as more waits take them.

A tile's ``danger`` is the worst over the three opponents, with the reason of the worst. In a
raw-tile phase (Huangyan) a **raw** tile (no copy of its face in any pond) is marked
(``raw``): should someone win on it, its discarder may be the gunner who pays for everyone, so
its danger is at least 2 (but a 得, which nobody may win on).

``safety(obs)`` answers, safest first (``why`` a code of :data:`REASONS`, ``text`` its words;
``seat`` the opponent the worst reading is about)::

    [{"tile": "E", "danger": 0, "level": "safe", "why": "honour_gone", "seat": 1,
      "text": "no E left unseen: nobody can wait on it", "raw": False,
      "seats": [{"seat": 1, "danger": 0, "why": "honour_gone"}, ...]}, ...]

:func:`majiang.hints.hints` includes it as ``safety``: both tables and the server's ``hint``
message show the same reading.
"""

from __future__ import annotations

from typing import Any

from .bots.danger import against
from .bots.view import hand_counts, unseen_counts
from .engine.state import Observation, extension_state
from .tiles import tile_name

LEVELS = ("safe", "low", "medium", "high")
"""The names of the dangers 0-3."""

REASONS = {
    "wild": "nobody may win on a discarded 得",
    "honour_gone": "no {tile} left unseen: nobody can wait on it",
    "honour_single": "one {tile} unseen: only a single wait on it",
    "honour_pair": "two {tile} unseen: only a single or a pair wait",
    "honour_pung": "three {tile} unseen: a pung wait is possible",
    "genbutsu": "in the pond of seat {seat}",
    "flush_elsewhere": "the melds of seat {seat} are all in another suit (a flush)",
    "suji": "suji: seat {seat} discarded the tiles three ranks away",
    "flush_here": "the melds of seat {seat} are all in this suit (a flush)",
    "terminal": "a terminal: fewer waits take it",
    "middle": "a middle tile: most waits take it",
    "raw": "raw in the raw-tile phase: a win on it may make you the gunner",
}
"""Each reason's code and its words (``{tile}``, ``{seat}`` filled in)."""


def safety(obs: Observation) -> list[dict[str, Any]]:
    """The danger of discarding each distinct tile of the seat's hand now, safest first (see the
    module docstring): ``tile``, ``danger`` 0-3, ``level``, the reason (``why``: a code of
    :data:`REASONS`, ``seat``, ``text``), ``raw``, and each opponent's ``seats`` entry."""
    wild = obs.wild
    unseen = unseen_counts(obs, hand_counts(obs), wild)
    in_ponds = {t for pond in obs.discards for t in pond}
    late = extension_state(obs)[0]
    out = []
    for tile in sorted(set(obs.hand)):
        name = tile_name(tile)
        raw = late and tile not in in_ponds
        readings: list[tuple[int, str, int]] = []
        for s in range(4):
            if s != obs.seat:
                danger, why = (0, "wild") if tile == wild else against(obs, s, tile, unseen[tile])
                readings.append((danger, why, s))
        worst = max(readings, key=lambda x: x[0])
        danger, why = worst[0], worst[1]
        seat: int | None = worst[2]
        seats = [{"seat": s, "danger": d, "why": w} for d, w, s in readings]
        if raw and danger < 2 and why != "wild":  # a discarded 得 makes no gunner
            danger, why, seat = 2, "raw", None
        out.append({
            "tile": name, "danger": danger, "level": LEVELS[danger], "why": why, "seat": seat,
            "text": REASONS[why].format(tile=name, seat=seat), "raw": raw, "seats": seats,
        })
    out.sort(key=lambda x: (x["danger"], x["tile"]))
    return out


__all__ = ["LEVELS", "REASONS", "safety"]
