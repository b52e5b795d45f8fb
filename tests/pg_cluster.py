"""A throw-away PostgreSQL cluster for tests: `initdb` into a temporary directory, `pg_ctl start` on
127.0.0.1 at a free port, trust authentication, fsync off; stopped and deleted at the end.

PostgreSQL refuses to run as root: as root the cluster runs as the `postgres` system user (created
by the Debian package) through `runuser`. `.ci/run` starts its cluster the same way and exports
`LEMMAFORGE_TEST_PG_URL`, which the fixtures use instead of starting their own.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import URL, create_engine, make_url, text

ENV_URL = "LEMMAFORGE_TEST_PG_URL"


class ClusterUnavailable(RuntimeError):
    """No PostgreSQL server can be started here (the reason is the message)."""


def find_bin(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), key=lambda p: int(p.split("/")[4]))
    return candidates[-1] if candidates else None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Cluster:
    url: str
    directory: Path | None = None  # None: a server we did not start (LEMMAFORGE_TEST_PG_URL)
    run_as: tuple[str, ...] = ()

    def stop(self) -> None:
        if self.directory is None:
            return
        pg_ctl = find_bin("pg_ctl")
        if pg_ctl:
            subprocess.run([*self.run_as, pg_ctl, "-D", str(self.directory / "data"), "-m", "immediate", "stop"],
                           capture_output=True, timeout=60)
        shutil.rmtree(self.directory, ignore_errors=True)


def start_cluster() -> Cluster:
    """Starts a cluster, or raises ClusterUnavailable saying why it cannot."""
    initdb, pg_ctl = find_bin("initdb"), find_bin("pg_ctl")
    if not initdb or not pg_ctl:
        raise ClusterUnavailable(f"no PostgreSQL server binaries (initdb, pg_ctl); install postgresql or set {ENV_URL}")
    run_as: tuple[str, ...] = ()
    directory = Path(tempfile.mkdtemp(prefix="lemmaforge-pg-"))
    if os.geteuid() == 0:
        try:
            user = pwd.getpwnam("postgres")
        except KeyError:
            shutil.rmtree(directory, ignore_errors=True)
            raise ClusterUnavailable("running as root and there is no 'postgres' user to run the server") from None
        runuser = shutil.which("runuser")
        if not runuser:
            shutil.rmtree(directory, ignore_errors=True)
            raise ClusterUnavailable("running as root and there is no runuser to drop privileges") from None
        os.chown(directory, user.pw_uid, user.pw_gid)
        run_as = (runuser, "-u", "postgres", "--")
    port = _free_port()
    try:
        subprocess.run([*run_as, initdb, "-D", str(directory / "data"), "-U", "lemmaforge", "--auth=trust",
                        "-E", "UTF8", "--locale=C", "--no-sync"], check=True, capture_output=True, timeout=180)
        options = f"-k {directory} -h 127.0.0.1 -p {port} -F -c max_connections=300"
        subprocess.run([*run_as, pg_ctl, "-D", str(directory / "data"), "-o", options,
                        "-l", str(directory / "server.log"), "-w", "-t", "120", "start"],
                       check=True, capture_output=True, timeout=180)
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError) as exc:
        detail = getattr(exc, "stderr", b"") or b""
        log = directory / "server.log"
        tail = log.read_text(errors="replace")[-500:] if log.exists() else ""
        shutil.rmtree(directory, ignore_errors=True)
        raise ClusterUnavailable(
            f"PostgreSQL did not start: {exc}: {detail.decode(errors='replace')[-300:]} {tail}".strip()
        ) from None
    return Cluster(f"postgresql+psycopg://lemmaforge@127.0.0.1:{port}/postgres", directory, run_as)


def server() -> Cluster:
    """The server given by LEMMAFORGE_TEST_PG_URL, else a cluster started here."""
    given = os.environ.get(ENV_URL)
    if given:
        return Cluster(given)
    return start_cluster()


def fresh_schema_url(base: str) -> tuple[str, str]:
    """(url, schema): `base` with its own new, empty schema first on the search path, so that every
    test gets an empty database without the cost of CREATE DATABASE."""
    schema = f"t_{uuid.uuid4().hex[:12]}"
    engine = create_engine(base, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    finally:
        engine.dispose()
    u: URL = make_url(base).update_query_dict({"options": f"-csearch_path={schema}"})
    return u.render_as_string(hide_password=False), schema


def drop_schema(base: str, schema: str) -> None:
    engine = create_engine(base, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
    finally:
        engine.dispose()
