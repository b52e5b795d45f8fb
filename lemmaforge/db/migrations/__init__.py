"""Alembic migrations of the store's schema (run by `lemmaforge.db.schema`, not by hand)."""
