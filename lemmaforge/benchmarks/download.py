"""Published dataset files that are not packaged: fetched once from their pinned URL, checked
against the sha256 recorded in the registry, kept under `<lemmaforge home>/datasets/`.

The cache is the only copy we trust: a file whose digest differs from the pin is never kept
(a moved tag, a proxy's error page, a truncated transfer). Offline, a missing file is one line
naming the URL and where to put the file by hand.
"""

from __future__ import annotations

import hashlib
import os
import sys
import tempfile
from pathlib import Path

import httpx

from lemmaforge.benchmarks.registry import DatasetError, DatasetInfo

CACHE_ENV = "LEMMAFORGE_DATASETS_CACHE"  # a folder to use instead of <home>/datasets
_TIMEOUT = httpx.Timeout(60.0, connect=10.0)
_MAX_BYTES = 256 * 1024 * 1024  # no benchmark file is near this; a bigger answer is not one


def cache_dir() -> Path:
    """Where downloaded dataset files live: $LEMMAFORGE_DATASETS_CACHE, else <home>/datasets
    (home: $LEMMAFORGE_HOME, else ~/.lemmaforge), read at call time so tests and users can move it."""
    env = os.environ.get(CACHE_ENV)
    if env:
        return Path(env).expanduser()
    home = os.environ.get("LEMMAFORGE_HOME")
    return (Path(home).expanduser() if home else Path.home() / ".lemmaforge") / "datasets"


def cached_path(info: DatasetInfo) -> Path:
    return cache_dir() / info.filename


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def is_cached(info: DatasetInfo) -> bool:
    path = cached_path(info)
    return path.is_file() and _digest_ok(info, path)


def _digest_ok(info: DatasetInfo, path: Path) -> bool:
    assert info.remote is not None
    return info.remote.sha256 is None or sha256_of(path) == info.remote.sha256


def ensure(info: DatasetInfo, *, warn: bool = True) -> Path:
    """The local copy of `info`'s remote file, downloaded and checked first when needed.
    Raises DatasetError (one line) when it cannot be had."""
    remote = info.remote
    if remote is None:
        raise DatasetError(f"{info.name} is packaged, not downloaded")
    path = cached_path(info)
    if path.is_file():
        if _digest_ok(info, path):
            return path
        raise DatasetError(
            f"{info.name}: the cached {path} does not have the pinned sha256 {remote.sha256}; delete it to download again"
        )
    data = _fetch(info)
    got = hashlib.sha256(data).hexdigest()
    if remote.sha256 is not None and got != remote.sha256:
        raise DatasetError(
            f"{info.name}: {remote.url} sent a file with sha256 {got}, not the pinned {remote.sha256}; "
            "nothing was cached (the source changed, or a proxy answered)"
        )
    path.parent.mkdir(parents=True, exist_ok=True)
    # write beside the target, then rename: a killed download leaves no half file in the cache
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{info.filename}.", suffix=".part")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    if warn:
        note = "checked against the pinned sha256" if remote.sha256 else f"NOT pinned (no sha256 recorded): got {got}"
        print(f"{info.name}: downloaded {remote.url} → {path} ({note})", file=sys.stderr)
    return path


def _fetch(info: DatasetInfo) -> bytes:
    assert info.remote is not None
    url = info.remote.url
    hint = f"download it by hand to {cached_path(info)} (or set {CACHE_ENV} to the folder holding {info.filename})"
    try:
        with httpx.Client(timeout=_TIMEOUT, follow_redirects=True) as client:
            with client.stream("GET", url) as response:
                if response.status_code != 200:
                    raise DatasetError(f"{info.name}: GET {url} answered HTTP {response.status_code}; {hint}")
                chunks: list[bytes] = []
                size = 0
                for chunk in response.iter_bytes():
                    size += len(chunk)
                    if size > _MAX_BYTES:
                        raise DatasetError(f"{info.name}: {url} sent more than {_MAX_BYTES} bytes; not a dataset file")
                    chunks.append(chunk)
                return b"".join(chunks)
    except httpx.HTTPError as exc:
        reason = str(exc).strip().splitlines()[0][:160] if str(exc).strip() else type(exc).__name__
        raise DatasetError(f"{info.name}: cannot download {url} (offline? {reason}); {hint}") from None
