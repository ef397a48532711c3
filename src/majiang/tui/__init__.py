"""The terminal table: ``majiang play`` in a Textual app.

One UI, two seat drivers: :class:`~majiang.tui.local.LocalDriver` plays a match in-process
against bots; :class:`~majiang.tui.remote.RemoteDriver` plays a seat of a game-server room over
its websocket. Both turn what happens into the same events (:mod:`majiang.tui.model`), which the
app (:mod:`majiang.tui.app`) renders (:mod:`majiang.tui.render`, :mod:`majiang.tui.sheets`).
The rules are never worked out here: choices come from the engine's legal actions, hints from
:func:`majiang.hints.hints`, scores from the hand result.
"""

from __future__ import annotations

from ..extras import require_extra

require_extra("play", "majiang.tui")
