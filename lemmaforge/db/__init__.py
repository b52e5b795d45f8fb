"""The store: SQLAlchemy 2 models and one `Store` (SQLite in WAL mode by default, any SQLAlchemy URL),
plus `SqlRecorder`, the non-blocking `Recorder` that the search engine writes through.

    store = Store("sqlite:///runs/lemmaforge.db")
    with SqlRecorder(store) as rec:       # rec.emit(record) from the search; close() flushes
        ...
    store.tree(run_id)                    # networkx.DiGraph of the run's AND/OR tree
"""

from .errors import StoreError, StoreMisconfigured, StoreRecordError, StoreUnavailable, StoreURLError
from .models import SCHEMA_VERSION, Base
from .recorder import SqlRecorder
from .store import DONE_STATUSES, NodeInfo, RunInfo, Store, text_hash

__all__ = [
    "DONE_STATUSES",
    "SCHEMA_VERSION",
    "Base",
    "NodeInfo",
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
