"""`python -m lemmaforge.db upgrade URL` / `current URL`: migrate a store, or show its schema revision.

Any `Store` opened for writing migrates its database by itself; this is for a database that is
only ever read (a report over a read-only copy) or to migrate at a time of your choosing.
Exit 0, or 2 with one line on stderr.
"""

from __future__ import annotations

import sys

from .errors import StoreError


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2 or args[0] not in ("upgrade", "current"):
        print("usage: python -m lemmaforge.db {upgrade|current} DATABASE_URL", file=sys.stderr)
        return 2
    from .models import SCHEMA_VERSION
    from .store import Store

    action, url = args
    try:
        store = Store(url, read_only=action == "current")
    except StoreError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    state = store.schema
    if state.created:
        print(f"{store.url}: created at schema revision {SCHEMA_VERSION}")
    elif state.migrated_from is not None:
        print(f"{store.url}: upgraded from schema revision {state.migrated_from} to {SCHEMA_VERSION}")
    else:
        print(f"{store.url}: at schema revision {SCHEMA_VERSION} (current)")
    store.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
