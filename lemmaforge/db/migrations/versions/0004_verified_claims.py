"""What `lemmaforge verify` decided: the `verified_claims` table (`lemmaforge.db.claims`).

A verify of a released solution set or a bundle re-checks every claim with the whole audit; a
verify that stopped (killed, a backend down) is resumed from what this table holds: one row per
claim decided, keyed by the sha256 of the proof, the problem and the audit policy.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

JSON_TYPE = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "verified_claims",
        sa.Column("claim_key", sa.String(length=64), nullable=False),
        sa.Column("problem", sa.Text(), nullable=False),
        sa.Column("dataset", sa.Text(), nullable=True),
        sa.Column("verdict", sa.Text(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=True),
        sa.Column("report", JSON_TYPE, nullable=False),
        sa.Column("verified_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("claim_key"),
    )


def downgrade() -> None:
    op.drop_table("verified_claims")
