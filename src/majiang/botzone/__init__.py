"""Botzone compatibility: Chinese Standard Mahjong bots from the Botzone platform at majiang
tables, majiang bots as Botzone programs, Botzone's one-hand scoring and its ``walltiles``.

* :func:`agent_from_spec` (``"botzone:python3 mybot.py"``, or a majiang bot name) and
  :class:`BotzoneAgent`: a seat played by a Botzone program run as a subprocess;
* :class:`BotzoneBot` and :func:`run`: a majiang bot answering Botzone requests
  (``majiang botzone bot``);
* :func:`play_hand` / :func:`hand_deltas`: hands with Botzone seats, their faults and scores;
* :func:`make_entrant` / :func:`check_entrant`: Botzone programs in ``majiang tournament``;
* :func:`to_walltiles` / :func:`from_walltiles`: the same hand here and on Botzone (a
  four-part table, ``Table(..., layout="four_part")``, plays the judge's wall);
* :mod:`.logs`: Botzone match logs replayed through the engine, and hands written as such;
* the codec (:mod:`.codec`) and the tile names (:mod:`.tiles`).

The protocol as implemented, and every decision taken where Botzone's documents are silent, are
in ``docs/botzone.md``.
"""

from .agent import DEFAULT_TIME_LIMIT, BotzoneAgent, Fault, agent_from_spec, is_botzone_spec
from .answers import fallback
from .bot import BotzoneBot, run
from .codec import (
    KEEP_RUNNING,
    Request,
    Response,
    format_request,
    format_response,
    parse_request,
    parse_response,
)
from .entrant import check_entrant, make_entrant
from .play import BotzoneHand, botzone_scoring, hand_deltas, play_hand
from .tiles import BotzoneError, botzone_name, botzone_tile
from .tracker import RequestTracker
from .translate import RequestDeriver
from .wall import (
    botzone_deal,
    dealer_draw_flowers,
    from_walltiles,
    seeded_wall,
    to_walltiles,
    walltiles_flowers,
)

__all__ = [
    "DEFAULT_TIME_LIMIT",
    "KEEP_RUNNING",
    "BotzoneAgent",
    "BotzoneBot",
    "BotzoneError",
    "BotzoneHand",
    "Fault",
    "Request",
    "RequestDeriver",
    "RequestTracker",
    "Response",
    "agent_from_spec",
    "botzone_deal",
    "botzone_name",
    "botzone_scoring",
    "botzone_tile",
    "check_entrant",
    "dealer_draw_flowers",
    "fallback",
    "format_request",
    "format_response",
    "from_walltiles",
    "hand_deltas",
    "is_botzone_spec",
    "make_entrant",
    "parse_request",
    "parse_response",
    "play_hand",
    "run",
    "seeded_wall",
    "to_walltiles",
    "walltiles_flowers",
]
