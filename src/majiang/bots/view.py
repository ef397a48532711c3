"""What bots read from an :class:`~majiang.engine.Observation`: counts, melds, unseen tiles.

In the modules the compiled build covers, a list item is raised with ``a[i] = a[i] + n``:
mypyc compiles ``a[i] += n`` into a generic (boxed) in-place add, the explicit form into a
native one.
"""

from __future__ import annotations

from typing import Final

from ..engine.actions import Action, Win
from ..engine.state import count_seen, count_visible
from ..engine.table import Observation, Phase
from ..errors import MajiangError
from ..hand import Meld
from ..tiles import unseen_copies


def hand_counts(obs: Observation) -> list[int]:
    """The seat's concealed tiles as 34 counts."""
    counts = [0] * 34
    for t in obs.hand:
        counts[t] = counts[t] + 1
    return counts


def own_melds(obs: Observation) -> tuple[Meld, ...]:
    """The seat's declared sets."""
    return obs.melds[obs.seat]


def is_concealed(melds: tuple[Meld, ...]) -> bool:
    """No set breaks concealment (concealed kongs do not)."""
    return all(m.is_concealed_kong for m in melds)


def unseen_counts(obs: Observation, counts: list[int], wild: int | None = None) -> list[int]:
    """Copies of each face this seat cannot see (:func:`~majiang.tiles.unseen_copies`): 4 -
    held - in ponds - in every meld shown - the indicator.

    Other seats' concealed kongs are face down and count as unseen; the tile being added to a
    kong (robbing window) is visible. With a ``wild`` face, melds hold identities: identity
    ``wild`` in a meld is a white dragon (the stand-in), unless the wild face is white itself.
    Without one, the count of the tiles face up (``obs.visible``, kept by the table) gives them.
    """
    if wild is None:
        visible = obs.visible
        if visible is None:  # an observation from a source that does not keep it
            visible = count_visible(obs.melds, obs.discards)
        unseen = unseen_copies(counts, visible)
        for m in obs.melds[obs.seat]:
            if m.is_concealed_kong:
                unseen[m.tile] = 0  # all four are this seat's
    else:
        unseen = unseen_copies(count_seen(list(counts), obs.melds, obs.discards, wild, True))
    if obs.indicator is not None and unseen[obs.indicator]:
        unseen[obs.indicator] = unseen[obs.indicator] - 1
    if obs.phase is Phase.ROB and obs.last_discard is not None and unseen[obs.last_discard]:
        unseen[obs.last_discard] = unseen[obs.last_discard] - 1
    return unseen


_WIN: Final = Win
"""Classes used in the hot paths are ``Final`` aliases: compiled, an imported name is looked up
in the module's dict at each use, a ``Final`` one is a C static."""


def require_guobiao(obs: Observation, bot: str) -> None:
    """Raise :class:`~majiang.errors.MajiangError` if ``obs`` is of a hand with a wild tile or
    bullets (Huangyan), which the Guobiao-only bot ``bot`` cannot read."""
    if obs.wild is not None or obs.phase is Phase.BULLETS:
        raise MajiangError(f"the {bot} bot plays Guobiao only (for Huangyan: the wild bot)")


def find_win(obs: Observation) -> Action | None:
    """The Win action if offered and a legal win (never a false win in a 错和 room)."""
    if obs.win_reaches_minimum is False:
        return None
    for a in obs.legal_actions:
        if type(a) is _WIN:
            return a
    return None


__all__ = ["find_win", "hand_counts", "is_concealed", "own_melds", "unseen_counts"]
