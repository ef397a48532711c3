"""hand reviews: a finished review of a seat's decisions, cached

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-02 07:30:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('hand_reviews',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('hand_id', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('result', sa.JSON(), nullable=False),
    sa.Column('seconds', sa.Double(), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['hand_id'], ['hands.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('hand_id', 'seat')
    )
    with op.batch_alter_table('hand_reviews', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_hand_reviews_hand_id'), ['hand_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('hand_reviews', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_hand_reviews_hand_id'))
    op.drop_table('hand_reviews')
