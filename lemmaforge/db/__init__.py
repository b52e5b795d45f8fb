"""The store: SQLAlchemy 2 models and one `Store` (SQLite in WAL mode by default, any SQLAlchemy URL),
plus `SqlRecorder`, the non-blocking `Recorder` that the search engine writes through.

    store = Store("sqlite:///runs/lemmaforge.db")
    with SqlRecorder(store) as rec:       # rec.emit(record) from the search; close() flushes
        ...
    store.tree(run_id)                    # networkx.DiGraph of the run's AND/OR tree
    Store(url, read_only=True)            # reports: never writes (SQLite mode=ro, Postgres read-only)

Opening a store creates or migrates its schema (Alembic, `lemmaforge.db.schema`); every failure is a
`StoreError` of the `lemmaforge.errors` tree (`lemmaforge.db.errors`), never a SQLAlchemy exception.
`python -m lemmaforge.db upgrade|current URL` migrates a database or shows its revision.
"""

from .errors import (
    RunIdError,
    StoreError,
    StoreMisconfigured,
    StoreRecordError,
    StoreUnavailable,
    StoreURLError,
)
from .mapping import text_hash
from .models import SCHEMA_VERSION, Base
from .recorder import SqlRecorder
from .store import Store
from .store_reads import DONE_STATUSES, NodeInfo, RunInfo

__all__ = [
    "DONE_STATUSES",
    "SCHEMA_VERSION",
    "Base",
    "NodeInfo",
    "RunIdError",
    "RunInfo",
    "SqlRecorder",
    "Store",
    "StoreError",
    "StoreMisconfigured",
    "StoreRecordError",
    "StoreURLError",
    "StoreUnavailable",
    "text_hash",
]
