"""The measure of the search's choices (tools/search_regret.py): its deals of the true hidden
hands rebuild the real table, and a measured decision's gains are read on the same deals."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

from majiang.bots import make_bot
from majiang.bots.sampler import actions_match, hand_rules, table_at
from majiang.bots.search import SearchBot
from majiang.engine.state import Phase
from majiang.engine.table import Table
from majiang.rules.registry import make_rules

TOOL = Path(__file__).resolve().parents[1] / "tools" / "search_regret.py"


def load_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("search_regret", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("search_regret", module)
    spec.loader.exec_module(module)
    return module


def positions(count: int) -> list[tuple[Table, int]]:
    """Tables stopped at decisions of seat 0 with a choice, with the hand's seed."""
    base = make_rules("gb")
    found: list[tuple[Table, int]] = []
    seed = 0
    while len(found) < count:
        seed += 1
        table = Table(base, seed)
        bots = [make_bot("fan", seed * 4 + s) for s in range(4)]
        stop = seed % 7 + 3
        while not table.is_over:
            acting = table.to_act()
            obs = table.observation(0)
            if 0 in acting and len(obs.legal_actions) > 1 and obs.phase in (Phase.TURN,
                                                                             Phase.CLAIM):
                stop -= 1
                if stop == 0:
                    found.append((table, seed))
                    break
            for s in acting:
                table.apply(s, bots[s](table.observation(s)))
    return found


def test_true_deals_rebuild_the_real_hands() -> None:
    tool = load_tool()
    base = make_rules("gb")
    for table, seed in positions(6):
        obs = table.observation(0)
        truth = [table.observation(s) for s in range(4)]
        deal = tool.true_deal(obs, truth, hand_rules(obs, base), random.Random(seed))
        rebuilt = table_at(obs, base, deal)
        for s in range(4):
            assert sorted(rebuilt.observation(s).hand) == sorted(truth[s].hand)
        assert len(deal.wall) == obs.wall_remaining
        assert actions_match(rebuilt, obs)
        again = tool.true_deal(obs, truth, hand_rules(obs, base), random.Random(seed))
        assert again == deal


def test_a_measured_decision_reads_every_choice_on_the_same_deals() -> None:
    tool = load_tool()
    base = make_rules("gb")
    table, seed = positions(1)[0]
    obs = table.observation(0)
    search = SearchBot(seed, think=None, samples=2).evaluate(obs)
    kind, gain, knowing, bound = tool._measure(obs, table, base, search, (2,), 4, seed)
    assert kind == ("claims" if obs.phase is Phase.CLAIM else "discards")
    assert len(knowing) == 1
    assert bound >= max(gain, knowing[0])
    assert bound >= 0.0  # the fast policy's own choice is among the candidates
