"""Shared test fixtures: where the real data lives, and switches for tests that need Lean."""

from __future__ import annotations

import atexit
import gc
import os
import shutil
import socket
import sys
import tempfile
from pathlib import Path

import pytest

# The suite keeps compiled modules (__pycache__, git-ignored) even where the shell sets
# PYTHONDONTWRITEBYTECODE (common in container images): otherwise every run, every xdist worker and
# every CLI subprocess a test starts recompiles the package, its tests and the libraries' sources —
# collecting the fast subset took 18 s instead of 8 s on the 2-core build machine
# (docs/development.md#where-the-time-goes). Set here, before the tests' own modules are imported.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
# The collector's thresholds: the suite builds large, long-lived object graphs (Lean files lexed and
# parsed, pydantic models, ASTs of the whole package), and CPython's default (a young collection every
# 700 allocations, a full one every 100 of those) walks them again and again. Fewer young
# collections, and the objects alive after collection frozen out of every later one
# (pytest_collection_finish), took the fast subset's CPU from 215 s to 171 s on the 2-core build
# machine (docs/development.md#where-the-time-goes). Nothing here relies on a collection's timing:
# what a test needs closed it closes.
gc.set_threshold(50_000, 20, 20)

from tests.fakes.lean_versions import DEFAULT as FAKE_LEAN_DEFAULT  # noqa: E402
from tests.fakes.lean_versions import VERSIONS as FAKE_LEAN_VERSIONS  # noqa: E402

# Every test — and every CLI subprocess a test starts, which inherits the environment — gets its own
# store and dataset cache instead of the user's ~/.lemmaforge: a test must not read a store that an
# earlier run (or the user) left behind, nor write into it. Set before lemmaforge.config is imported,
# which reads it once. A test of LEMMAFORGE_HOME itself monkeypatches it.
os.environ["LEMMAFORGE_HOME"] = tempfile.mkdtemp(prefix="lemmaforge-test-home-")
atexit.register(shutil.rmtree, os.environ["LEMMAFORGE_HOME"], ignore_errors=True)
# A terminal's size is each CLI invocation's own (`CliRunner.invoke(…, env={"COLUMNS": …})`): Rich
# freezes a Console's width when COLUMNS is set as it is made (lemmaforge.cli.common makes its
# consoles at import), and pytest-xdist's workers inherit COLUMNS=80, LINES=24 from execnet; so a
# width the launcher exported is not kept for the whole run.
for _size in ("COLUMNS", "LINES"):
    os.environ.pop(_size, None)


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """Under `-m "not slow"` a test module marked slow as a whole (`pytestmark = pytest.mark.slow`
    on a line of its own) is not imported at all: its tests would all be deselected, and importing
    it can cost seconds (tests/agent/test_transformers_llm.py imports torch and transformers)."""
    if collection_path.suffix != ".py" or not collection_path.name.startswith("test_"):
        return None
    if config.getoption("markexpr", "").replace(" ", "") != "notslow":
        return None
    try:
        text = collection_path.read_text(encoding="utf-8")
    except OSError:
        return None
    return True if "\npytestmark = pytest.mark.slow\n" in text else None


# --- costs the suite pays once, not once per test ---------------------------------------------------
# Measured on the fast subset (issue 48, point 3; docs/development.md#where-the-time-goes):
#
# * typer builds the CLI's click command from every command's signature (typing.get_type_hints,
#   inspect.signature: ~85 ms of CPU) on each `CliRunner.invoke(app, …)`, which the tests do about
#   a thousand times. The command is built once per Typer app and reused; click commands are made
#   to be invoked again (each invocation has its own Context). A test that registers commands on a
#   Typer app of its own does so before invoking it, and gets a command of its own.
# * httpx makes a new TLS context for each client (loading certifi's CA bundle: 30–50 ms), and the
#   product's clients (Kimina, OpenAI-compatible) are made anew in every CLI run. No test speaks TLS
#   (every server is a fake on 127.0.0.1 over http), so the default context (verify=True, no client
#   certificate) is made once and shared; any other request still gets a context of its own.


def _build_commands_once() -> None:
    import typer.main
    import typer.testing

    if getattr(typer.testing, "_get_command", None) is not typer.main.get_command:
        return  # typer changed how its runner builds the command: build it each time, as it does
    built: dict[int, tuple[object, object]] = {}  # id(app) -> (app, command): the app is held, its id stays its own

    def get_command(app):  # type: ignore[no-untyped-def]
        if id(app) not in built:
            built[id(app)] = (app, typer.main.get_command(app))
        return built[id(app)][1]

    typer.testing._get_command = get_command  # type: ignore[attr-defined]


def _share_the_default_tls_context() -> None:
    import functools

    import httpx._transports.default as transports

    make = getattr(transports, "create_ssl_context", None)
    if make is None:
        return
    default = functools.cache(lambda trust_env: make(verify=True, cert=None, trust_env=trust_env))

    def create_ssl_context(verify=True, cert=None, trust_env=True):  # type: ignore[no-untyped-def]
        if verify is True and cert is None:
            return default(trust_env)
        return make(verify=verify, cert=cert, trust_env=trust_env)

    transports.create_ssl_context = create_ssl_context  # type: ignore[assignment]


_build_commands_once()
_share_the_default_tls_context()

REPO_ROOT = Path(__file__).resolve().parents[1]
# CI clones the repo with a copy of shared/ beside it; sessions work in /work/main beside /work/shared.
SHARED = Path(os.environ.get("LEMMAFORGE_SHARED", REPO_ROOT.parent / "shared")).resolve()
DATA = SHARED / "data"
BENCHMARKS = DATA / "benchmarks"
REFERENCE_PROOFS = DATA / "reference_proofs" / "deepseek_prover_v2_minif2f"
REPL_TRANSCRIPTS = DATA / "repl_transcripts"


def reference_proof_files() -> list[Path]:
    return sorted(REFERENCE_PROOFS.glob("*/*.lean"))


#: A sweep over real data (the 438 reference proofs, the committed Lean files, …) reads every
#: `every`-th item: an evenly spaced, fixed sample in the fast subset (`pytest -m "not slow"`), all of
#: them in the full suite. Use as a decorator; the test takes `every` and slices its items with it.
sweep = pytest.mark.parametrize(
    "every", [pytest.param(25, id="sample"), pytest.param(1, id="all", marks=pytest.mark.slow)]
)


#: The Lean releases the fakes answer as (tests/fakes/lean_versions.py), as pytest params: the
#: product's default release and the newest (old and new code generator, `#print axioms` by
#: `ofName` and by `ofConstName`) in the fast subset, all of them in the full suite. Use in
#: `pytest.mark.parametrize("lean_version", LEAN_RELEASES)` or a fixture's `params`, or take the
#: `lean_version` fixture; pass the value to `ScriptedLean(lean_version=…)`,
#: `make_fake_repl_config(…, lean_version=…)` or the stand-in's `--lean-version`.
LEAN_RELEASES = [pytest.param(v, marks=[] if v in (FAKE_LEAN_DEFAULT, FAKE_LEAN_VERSIONS[-1]) else [pytest.mark.slow])
                 for v in FAKE_LEAN_VERSIONS]

#: The same, with only the product's default release in the fast subset: for a test of a transport
#: or a command (the REPL, lake) whose release-dependent answers a quicker test already covers on
#: the default and the newest release (through Kimina, in-process).
DEFAULT_RELEASE_FAST = [pytest.param(v, marks=[] if v == FAKE_LEAN_DEFAULT else [pytest.mark.slow])
                        for v in FAKE_LEAN_VERSIONS]


@pytest.fixture(params=LEAN_RELEASES)
def lean_version(request: pytest.FixtureRequest) -> str:
    """One Lean release the fakes answer as (see `LEAN_RELEASES`)."""
    return str(request.param)


@pytest.fixture(scope="session")
def shared_data() -> Path:
    if not DATA.is_dir():
        pytest.fail(f"shared data not found at {DATA}; set LEMMAFORGE_SHARED")
    return DATA


LEAN_PROJECT = os.environ.get("LEMMAFORGE_LEAN_PROJECT")
requires_lean = pytest.mark.skipif(
    not LEAN_PROJECT, reason="needs a real Lean + Mathlib project: set LEMMAFORGE_LEAN_PROJECT to its directory"
)


def closed_port() -> int:
    """A local TCP port nothing listens on (bound, then released): connecting is refused at once."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


# --- PostgreSQL ------------------------------------------------------------------------------------
# The store's tests run on SQLite and on a real PostgreSQL: the one `.ci/run` starts
# (LEMMAFORGE_TEST_PG_URL), else a throw-away cluster started here when `initdb` is installed;
# skipped, with the reason, only where no server can start.


@pytest.fixture(scope="session")
def pg_server():
    from tests.pg_cluster import ClusterUnavailable, server

    try:
        import psycopg  # noqa: F401
    except ImportError:
        pytest.skip("PostgreSQL tests need psycopg 3: pip install -e '.[postgres]'")
    try:
        cluster = server()
    except ClusterUnavailable as exc:
        pytest.skip(f"PostgreSQL unavailable: {exc}")
    yield cluster
    cluster.stop()


@pytest.fixture
def pg_url(pg_server):
    """A URL of an empty PostgreSQL database (a fresh schema of the test server), dropped afterwards."""
    from tests.pg_cluster import drop_schema, fresh_schema_url

    url, schema = fresh_schema_url(pg_server.url)
    yield url
    drop_schema(pg_server.url, schema)


@pytest.fixture(params=["sqlite", "postgresql"])
def any_db_url(request, tmp_path: Path) -> str:
    """An empty store URL, once per backend: SQLite (a file) and PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'store' / 'lemmaforge.db'}"
    return request.getfixturevalue("pg_url")


# What every run says on stderr at start (which prover preset it uses, that it has no planner, that
# the toolchain has no passing `doctor --selftest` on record): tests that want a command's one
# error line read stderr without these.
START_NOTES = ("prover preset:", "no planner:", "note: no passing `lemmaforge doctor --selftest`")


def error_lines(stderr: str) -> list[str]:
    """stderr's non-empty lines, less the start-of-run notes."""
    return [ln for ln in stderr.strip().splitlines() if ln.strip() and not ln.startswith(START_NOTES)]


def pytest_collection_finish(session: pytest.Session) -> None:
    """What collection built (modules, the package's data, thousands of test items) lives to the end:
    kept out of the collector's later passes (see gc.set_threshold above)."""
    gc.freeze()
