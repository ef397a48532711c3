"""Schema migrations: every revision upgrades an existing database without losing rows, and
downgrades cleanly; the latest revision is exactly the models' schema."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from sqlalchemy import create_engine, inspect, text

from majiang.server.schema import metadata
from majiang.server.store import migrate

MIGRATIONS = Path(__file__).parent.parent / "src/majiang/server/migrations"


def config(url: str) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", url)
    return cfg


def test_upgrade_keeps_rows_and_downgrade_reverts(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'm.db'}"
    command.upgrade(config(url), "0001")
    engine = create_engine(url)
    with engine.begin() as db:
        db.execute(text(
            "INSERT INTO rooms (code, rules, options, stake, hands, turn_seconds, grace_seconds,"
            " spectator_delay, seed, status, created_at) VALUES ('ABC234', 'gb', '{}', 1, 16,"
            " 30, 20, 0, 5, 'waiting', '2026-01-01')"
        ))
    assert "rounds" not in {c["name"] for c in inspect(engine).get_columns("rooms")}
    command.upgrade(config(url), "head")
    engine = create_engine(url)
    assert "rounds" in {c["name"] for c in inspect(engine).get_columns("rooms")}
    with engine.begin() as db:
        assert db.execute(text("SELECT code, rounds FROM rooms")).all() == [("ABC234", None)]
    command.downgrade(config(url), "0001")
    engine = create_engine(url)
    assert "rounds" not in {c["name"] for c in inspect(engine).get_columns("rooms")}
    with engine.begin() as db:
        assert db.execute(text("SELECT code FROM rooms")).all() == [("ABC234",)]


def test_the_latest_revision_is_the_models_schema(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'n.db'}"
    migrate(url)
    with create_engine(url).connect() as connection:
        diff = compare_metadata(MigrationContext.configure(connection), metadata)
    assert diff == []
