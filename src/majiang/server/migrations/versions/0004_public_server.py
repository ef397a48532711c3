"""room timers, chosen seeds and the creator's token

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02 04:30:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('rooms', schema=None) as batch_op:
        batch_op.add_column(sa.Column('bot_seconds', sa.Double(), nullable=False,
                                      server_default='0'))
        batch_op.add_column(sa.Column('next_seconds', sa.Double(), nullable=False,
                                      server_default='0'))
        batch_op.add_column(sa.Column('ready_seconds', sa.Double(), nullable=False,
                                      server_default='300'))
        batch_op.add_column(sa.Column('seed_chosen', sa.Boolean(), nullable=False,
                                      server_default=sa.false()))
        batch_op.add_column(sa.Column('creator_token_hash', sa.String(length=64),
                                      nullable=True))
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.add_column(sa.Column('seated_at', sa.DateTime(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.drop_column('seated_at')
    with op.batch_alter_table('rooms', schema=None) as batch_op:
        batch_op.drop_column('creator_token_hash')
        batch_op.drop_column('seed_chosen')
        batch_op.drop_column('ready_seconds')
        batch_op.drop_column('next_seconds')
        batch_op.drop_column('bot_seconds')
