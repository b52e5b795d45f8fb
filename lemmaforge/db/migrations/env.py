"""Alembic environment: migrations run on the connection `lemmaforge.db.schema` hands over, inside
its transaction (so a failed migration leaves the database as it was, where the dialect has
transactional DDL). Run from the `alembic` command line instead, it migrates `sqlalchemy.url`."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, create_engine

from lemmaforge.db.models import Base


def _run(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=Base.metadata, compare_type=True)
    with context.begin_transaction():
        context.run_migrations()


def main() -> None:
    connection = context.config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    engine = create_engine(context.config.get_main_option("sqlalchemy.url") or "")
    with engine.begin() as conn:
        _run(conn)


if context.is_offline_mode():
    raise SystemExit("lemmaforge migrations run online only (open the database with lemmaforge.db.Store)")
main()
