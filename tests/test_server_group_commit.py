"""The group commit: actions accepted within GROUP_TURNS turns of the event loop share one
transaction; a later one gets its own."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from majiang.server import store as store_module
from majiang.server.store import GROUP_TURNS, Store


def test_actions_within_the_group_turns_share_one_commit(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'db.sqlite'}")
    batches: list[list[int]] = []

    def add(rows: list[tuple[Any, ...]]) -> None:
        batches.append([row[1] for row in rows])

    store._actions.add = add  # type: ignore[method-assign]

    async def accepted_after(turns: int) -> None:
        for _ in range(turns):
            await asyncio.sleep(0)
        await store.commit_action(1, turns, 0, {"type": "pass"})

    async def scenario() -> None:
        late = GROUP_TURNS + 2
        await asyncio.gather(*(accepted_after(n) for n in [*range(GROUP_TURNS), late]))

    try:
        asyncio.run(scenario())
    finally:
        store.close()
    assert GROUP_TURNS > 1
    assert batches == [list(range(GROUP_TURNS)), [GROUP_TURNS + 2]]


def test_after_turns_counts_the_turns() -> None:
    seen: list[str] = []

    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        store_module._after_turns(loop, 3, lambda: seen.append("callback"))
        for turn in range(1, 5):
            await asyncio.sleep(0)
            seen.append(f"turn {turn}")

    asyncio.run(scenario())
    assert seen.index("callback") < seen.index("turn 4")
    assert seen.index("callback") > seen.index("turn 1")
