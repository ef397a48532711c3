"""Alembic environment: migrations run online against the URL the store passes."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from majiang.server.schema import metadata

config = context.config
url = config.get_main_option("sqlalchemy.url")
assert url is not None
engine = create_engine(url)
with engine.connect() as connection:
    context.configure(
        connection=connection,
        target_metadata=metadata,
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()
engine.dispose()
