"""Botzone programs as tournament entrants (``majiang tournament --bots botzone:CMD,...``)."""

from __future__ import annotations

from ..engine.match import Agent
from ..errors import UsageError
from ..rules.registry import RULE_SETS, rule_set
from .agent import DEFAULT_TIME_LIMIT, agent_from_spec, is_botzone_spec
from .tiles import BotzoneError


def check_entrant(spec: str, rules: str) -> None:
    """Raise :class:`BotzoneError` unless ``spec`` (``botzone[/json|/simple][/keep]:COMMAND``)
    names a Botzone program, and :class:`~majiang.errors.UsageError` unless the description of
    ``rules`` says Botzone's programs play it (``botzone``: Botzone's game is Guobiao)."""
    if not is_botzone_spec(spec):
        raise BotzoneError(f"{spec!r} is not a Botzone seat (botzone[/json|/simple][/keep]:CMD)")
    if not rule_set(rules).botzone:
        fit = ", ".join(f"{i.title_en} ({i.name})" for i in RULE_SETS.values() if i.botzone)
        raise UsageError(f"--bots {spec!r}: Botzone programs play {fit}, not {rules}")
    agent = agent_from_spec(spec)  # parses the options and the command line; starts nothing
    close = getattr(agent, "close", None)
    if callable(close):
        close()


def make_entrant(
    spec: str, seed: int, rules: str, time_limit: float = DEFAULT_TIME_LIMIT
) -> Agent:
    """A fresh seat for one hand played by the Botzone program of ``spec``."""
    check_entrant(spec, rules)
    return agent_from_spec(spec, time_limit=time_limit, seed=seed)


__all__ = ["check_entrant", "make_entrant"]
