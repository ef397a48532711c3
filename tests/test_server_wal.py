"""SQLite's write-ahead log stays bounded while the server plays: the store checkpoints it in the
background (SQLite's own checkpoints are off), and past ``WAL_BYTES`` starts it over, so
a match of bots at full speed, thousands of commits, never grows the log past what a checkpoint
period writes (without that, a steady stream of commits grows it without end: 200 MB in the 4 s
of this test)."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from majiang.server import create_app, store
from majiang.server.limits import Limits
from server_helpers import seated_and_gone

PAGE = 4096
"""SQLite's page: every commit writes at least one to the log."""
MB = 2**20


def test_the_write_ahead_log_stays_bounded_while_bots_play(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store, "WAL_BYTES", 1 * MB)
    db, wal = tmp_path / "wal.db", tmp_path / "wal.db-wal"
    limits = Limits(min_turn_seconds=0.1, unwatched_seconds=600, room_rate=1e9, room_burst=1e9,
                    seat_rate=1e9, seat_burst=1e9)
    largest = 0
    with TestClient(create_app(f"sqlite:///{db}", limits=limits)) as client:
        # one table, its person gone, its bots at full speed: one commit per action
        seated_and_gone(client, hands=64, turn_seconds=0.1, grace_seconds=0, bot_seconds=0)
        deadline = time.monotonic() + 4
        while time.monotonic() < deadline:
            if wal.exists():
                largest = max(largest, wal.stat().st_size)
            time.sleep(0.01)
    with sqlite3.connect(db) as connection:
        actions = connection.execute("SELECT count(*) FROM actions").fetchone()[0]
    assert actions * PAGE > 32 * MB, actions  # the log would have grown past that
    assert largest < 8 * MB, largest
