"""No length limits on text: every VARCHAR(n) column becomes TEXT (the sha256 columns stay 64).

Before this, Postgres refused a problem name over 255 characters or a dataset file name over 64
("value too long for type character varying") and the bench crashed. SQLite never enforced the
lengths (VARCHAR(n) has TEXT affinity), so nothing changes there: rebuilding every table to rename a
type would only risk the data. On Postgres, VARCHAR -> TEXT is binary-coercible: no table rewrite,
indexes and constraints are kept.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

#: (table, column, old length, nullable)
COLUMNS: list[tuple[str, str, int, bool]] = [
    ("llm_calls", "call_id", 128, False),
    ("llm_calls", "run_id", 128, True),
    ("llm_calls", "role", 64, False),
    ("llm_calls", "endpoint", 512, False),
    ("llm_calls", "model", 255, False),
    ("problems", "problem_id", 255, False),
    ("problems", "dataset", 64, False),
    ("problems", "name", 255, False),
    ("problems", "split", 64, True),
    ("runs", "id", 128, False),
    ("runs", "kind", 64, False),
    ("runs", "parent_run_id", 128, True),
    ("runs", "problem_id", 255, True),
    ("runs", "status", 64, False),
    ("nodes", "run_id", 128, False),
    ("nodes", "node_id", 128, False),
    ("nodes", "kind", 16, False),
    ("nodes", "parent_id", 128, True),
    ("nodes", "status", 64, False),
    ("nodes", "strategy", 64, True),
    ("proofs", "proof_id", 128, False),
    ("proofs", "run_id", 128, False),
    ("proofs", "kind", 16, False),
    ("proofs", "problem_id", 255, True),
    ("proofs", "node_id", 128, True),
    ("proofs", "strategy", 64, True),
    ("attempts", "run_id", 128, False),
    ("attempts", "attempt_id", 128, False),
    ("attempts", "node_id", 128, False),
    ("attempts", "strategy", 64, False),
    ("attempts", "verdict", 64, False),
    ("attempts", "llm_call_id", 128, True),
    ("node_status_changes", "run_id", 128, False),
    ("node_status_changes", "node_id", 128, False),
    ("node_status_changes", "status", 64, False),
    ("node_status_changes", "strategy", 64, True),
]


def upgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        return
    for table, column, length, nullable in COLUMNS:
        op.alter_column(
            table, column, type_=sa.Text(), existing_type=sa.String(length), existing_nullable=nullable
        )


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        return
    # fails (and rolls back) if a longer value was stored meanwhile: nothing is truncated silently
    for table, column, length, nullable in COLUMNS:
        op.alter_column(
            table, column, type_=sa.String(length), existing_type=sa.Text(), existing_nullable=nullable
        )
