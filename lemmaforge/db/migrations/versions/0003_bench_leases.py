"""One writer per bench: the `bench_leases` table (`lemmaforge.db.lease`).

Two `bench --resume R` at once used to run every remaining attempt twice. A bench process now
holds a lease row on its bench (owner, heartbeat, expiry); a second one is refused while the lease
is live, and takes it over once it has expired.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "bench_leases",
        sa.Column("run_id", sa.Text(), nullable=False),
        sa.Column("owner", sa.Text(), nullable=False),
        sa.Column("acquired_at", sa.Float(), nullable=False),
        sa.Column("heartbeat_at", sa.Float(), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("run_id"),
    )


def downgrade() -> None:
    op.drop_table("bench_leases")
