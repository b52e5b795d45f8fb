"""The schema version of a store, kept by Alembic, and what opening a database does with it.

    no lemmaforge tables           create them from the models, stamp the head revision
    tables, no `alembic_version`   a database from before migrations (commit 7dda6a9): it has the
                                   baseline schema; stamp `BASELINE`, then upgrade
    an older revision              upgrade to the head in one transaction (Postgres: transactional
                                   DDL, so a failed migration changes nothing)
    the head revision              nothing to do
    a revision this code does not  refused: the database was written by a newer lemmaforge
    know

A read-only store never writes: an older revision is refused with the command that upgrades it.
On Postgres the whole step runs under a transaction-scoped advisory lock, so processes that open
the same database at once (Ray workers) create or migrate it once; on SQLite the schema
transaction takes the write lock up front (`BEGIN IMMEDIATE`) for the same effect.

Adding a revision: change `models.py`, add `migrations/versions/NNNN_what.py` (Alembic's
autogenerate against a database at the previous head writes a draft: `alembic.autogenerate.
produce_migrations`), review it, and set `models.SCHEMA_VERSION` to it; `tests/db/test_migrations.py`
checks that migrating the previous schema gives exactly the models' schema.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Connection, inspect

from .errors import StoreMisconfigured
from .models import SCHEMA_VERSION, Base

MIGRATIONS = Path(__file__).with_name("migrations")
BASELINE = "0001"  # the schema of databases created before migrations existed
_PG_LOCK_KEY = 0x6C656D6D61  # "lemma": the advisory lock that serializes schema changes
VERSION_TABLE = "alembic_version"

if TYPE_CHECKING:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

# Alembic is imported only where a database is created or migrated: opening a database that is
# already at the head revision (every open but the first) reads one row and costs no import.


def alembic_config(connection: Connection | None = None) -> Config:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


def script_directory() -> ScriptDirectory:
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config())


@dataclass(frozen=True, slots=True)
class SchemaState:
    created: bool = False  # the tables were created just now
    migrated_from: str | None = None  # the revision the database was upgraded from


def current_revision(conn: Connection) -> str | None:
    """The stored revision; BASELINE for a pre-migration lemmaforge database; None when empty."""
    heads = _stored_heads(conn)
    if heads:
        if len(heads) > 1:
            raise StoreMisconfigured(f"the database records several schema revisions ({', '.join(heads)})")
        return heads[0]
    tables = set(inspect(conn).get_table_names())
    if tables & set(Base.metadata.tables):
        return BASELINE
    return None


def _stored_heads(conn: Connection) -> list[str]:
    if not inspect(conn).has_table(VERSION_TABLE):
        return []
    return [str(v) for (v,) in conn.exec_driver_sql(f"SELECT version_num FROM {VERSION_TABLE}")]


def ensure_schema(conn: Connection, where: str, *, read_only: bool) -> SchemaState:
    """Brings the database on `conn` (inside a transaction) to the head revision, or raises
    `StoreMisconfigured` saying why it cannot."""
    if conn.dialect.name == "postgresql" and not read_only:
        conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({_PG_LOCK_KEY})")
    revision = current_revision(conn)
    head = SCHEMA_VERSION
    if revision == head:
        return SchemaState()
    from alembic import command
    from alembic.migration import MigrationContext

    if revision is None:
        if read_only:
            raise StoreMisconfigured("no lemmaforge database here (it has no lemmaforge tables)", backend=where)
        Base.metadata.create_all(conn)
        MigrationContext.configure(conn).stamp(script_directory(), head)
        return SchemaState(created=True)
    scripts = script_directory()
    known = {s.revision for s in scripts.walk_revisions()}
    if revision not in known:
        raise StoreMisconfigured(
            f"the database has schema revision {revision}, newer than this lemmaforge knows (up to {head})",
            backend=where,
            fix="upgrade lemmaforge, or give another --db",
        )
    if read_only:
        raise StoreMisconfigured(
            f"the database has schema revision {revision}, older than this lemmaforge's {head}, and is opened "
            "read-only",
            backend=where,
            fix=f"upgrade it first: python -m lemmaforge.db upgrade '{where.rsplit('database ', 1)[-1]}'",
        )
    if not _stored_heads(conn):  # pre-migration database
        MigrationContext.configure(conn).stamp(scripts, BASELINE)
    command.upgrade(alembic_config(conn), head)
    return SchemaState(migrated_from=revision)
