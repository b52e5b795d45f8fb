"""Memos of pure functions of a text, bounded by bytes rather than by entry count.

A count bound is wrong for Lean texts: 64 whole files and 64 one-line statements are very
different amounts of memory, and a count small enough for files evicts the short texts that the
search asks about again and again (a goal's lemma is lexed for every candidate filled into it).
`ByteBoundedMemo` keeps the most recently used results up to `max_bytes`, measuring each entry
with `size_of(key, value)` (an estimate: tokens and analyses are several times their text).
Thread-safe: lexing happens on worker threads too.

`keep(text)` holds one text's value for the length of a `with` block whatever its size: a whole
proof assembled from a big tree is too large for any byte budget, yet one audit reads it five
times in a row (its commands, its declarations, its preamble, its statement); kept, it is read
once. Kept values are outside the budget and dropped when the last block holding them ends.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Generic, TypeVar

V = TypeVar("V")


class ByteBoundedMemo(Generic[V]):
    def __init__(
        self, fn: Callable[[str], V], max_bytes: int, size_of: Callable[[str, V], int] | None = None
    ) -> None:
        self.fn = fn
        self.max_bytes = max_bytes
        self.size_of = size_of or _text_size
        self.bytes = 0
        self.hits = 0
        self.misses = 0
        self._items: OrderedDict[str, tuple[V, int]] = OrderedDict()
        self._lock = threading.Lock()
        # The last text asked about, and its value: the search asks about the same text object
        # several times in a row (a goal's lemma for each candidate filled into it), and this
        # answers those without the lock and the LRU bookkeeping. One tuple, swapped whole, so a
        # reader on another thread sees a matching pair.
        self._last: tuple[str, V] | None = None
        self._holders: dict[str, int] = {}  # text → how many `keep` blocks hold it
        self._kept: dict[str, V] = {}  # the held texts' values, outside the byte budget

    @contextmanager
    def keep(self, key: str) -> Iterator[None]:
        """Within the block, `key`'s value is computed at most once, whatever its size."""
        with self._lock:
            self._holders[key] = self._holders.get(key, 0) + 1
        try:
            yield
        finally:
            with self._lock:
                left = self._holders.pop(key) - 1
                if left:
                    self._holders[key] = left
                else:
                    self._kept.pop(key, None)

    def __call__(self, key: str) -> V:
        last = self._last
        if last is not None and last[0] is key:
            self.hits += 1
            return last[1]
        value = self._lookup(key)
        self._last = (key, value)
        return value

    def _lookup(self, key: str) -> V:
        with self._lock:
            entry = self._items.get(key)
            if entry is not None:
                self._items.move_to_end(key)
                self.hits += 1
                return entry[0]
            if self._kept and key in self._kept:
                self.hits += 1
                return self._kept[key]
        value = self.fn(key)  # outside the lock: two threads may compute the same value once each
        size = self.size_of(key, value)
        with self._lock:
            self.misses += 1
            if key in self._holders:
                self._kept[key] = value
            if size > self.max_bytes or key in self._items:
                return value
            self._items[key] = (value, size)
            self.bytes += size
            while self.bytes > self.max_bytes:
                _, (_, old_size) = self._items.popitem(last=False)
                self.bytes -= old_size
        return value

    def cache_clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._kept.clear()
            self.bytes = 0
            self._last = None

    def __len__(self) -> int:
        return len(self._items)


def _text_size(key: str, value: object) -> int:
    return 2 * len(key) + (len(value) if isinstance(value, str) else 64)
