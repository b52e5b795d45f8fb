"""Result bundles: one zip that holds everything a reader needs to re-check a bench's claim
(`lemmaforge bundle BENCH_ID -o PATH`; `lemmaforge verify PATH` re-checks it).

Layout of the archive (every path below is listed in `manifest.json` with its sha256):

    bench.json          the experiment and its numbers: bench id and status, lemmaforge version,
                        dataset (name, file sha256, source, pinned Lean), selection (split, limit,
                        attempts…), protocol, prover / planner models and presets, sampling,
                        budgets, the Lean toolchain and Mathlib versions, costs, time, results
    dataset/rows.jsonl  the dataset rows the bench used, as it used them (header, statement…)
    proofs/NAME.lean    every claimed proof: the whole audited Lean file of the problem's first
                        proving attempt
    verdicts.jsonl      one line per problem: solved / unsolved / invalid, its proof file, its
                        counted attempts (status, calls, checks, tokens, seconds) and the audit
    manifest.json       {"format": "lemmaforge-bundle", "version": 1, "files": {path: sha256}}

`read_bundle` refuses an archive whose files do not match its manifest (a file changed, added or
missing): `BundleError`, an InputError (exit 2), before anything is checked.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lemmaforge.benchmarks.spec import BENCH_KIND, BenchError
from lemmaforge.errors import InputError
from lemmaforge.versions import __version__

BUNDLE_FORMAT = "lemmaforge-bundle"
BUNDLE_VERSION = 1
MANIFEST = "manifest.json"
BENCH_FILE = "bench.json"
ROWS_FILE = "dataset/rows.jsonl"
VERDICTS_FILE = "verdicts.jsonl"
PROOFS_DIR = "proofs/"
MAX_BYTES = 512 * 1024 * 1024  # no bundle of a benchmark is near this; a bigger archive is not one
MAX_MEMBERS = 200_000

_UNSAFE = re.compile(r"[^A-Za-z0-9_.\-]+")


class BundleError(InputError, ValueError):
    """An archive that is not a readable bundle, or whose files do not match its manifest: one
    line, exit 2, and nothing in it is checked."""


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# --------------------------------------------------------------------------------------------------
# writing


def _dataset_file(name: str | None) -> dict[str, Any]:
    """The dataset's file and its sha256, where the file is here (a registered dataset's packaged
    or downloaded copy, or a JSONL path); never downloads."""
    from lemmaforge.benchmarks import download
    from lemmaforge.benchmarks.registry import DatasetError, data_dir, registered

    out: dict[str, Any] = {"name": name, "file": None, "sha256": None, "source": None, "lean_version": None}
    if not name:
        return out
    info = registered(name)
    path: Path | None = None
    if info is not None:
        out.update(source=info.source, lean_version=info.lean_version)
        if info.remote is not None:
            out["published_sha256"] = info.remote.sha256
            out["url"] = info.remote.url
        try:
            packaged = data_dir() / info.filename
        except DatasetError:
            packaged = None
        if packaged is not None and packaged.is_file() and (info.remote is None or info.packaged):
            path = packaged
        elif info.remote is not None and download.is_cached(info):
            path = download.cached_path(info)
    elif Path(name).is_file():
        path = Path(name)
    if path is not None:
        out["file"] = path.name
        out["sha256"] = download.sha256_of(path)
    return out


def _file_name(name: str, used: set[str]) -> str:
    stem = _UNSAFE.sub("_", name).strip("._") or "problem"
    candidate, i = stem, 1
    while candidate.lower() in used:
        i += 1
        candidate = f"{stem}_{i}"
    used.add(candidate.lower())
    return candidate


def bundle_contents(store: Any, run_id: str) -> dict[str, bytes]:
    """Every file of the bundle of bench `run_id` (manifest included), path -> bytes. BenchError
    for an unknown run or one that is not a bench."""
    from lemmaforge.benchmarks import report as rp

    data = rp.load_run(store, run_id)
    if data.kind != BENCH_KIND:
        raise BenchError(f"run {data.run_id} is a single {data.kind} run, not a bench: nothing to bundle")
    rep = rp.summarize(store, data, with_strategies=False, with_results=False)
    bench = data.config.get("bench") or {}
    settings = data.config.get("settings") or {}
    prover = settings.get("prover") or {}
    files: dict[str, bytes] = {}

    rows = []
    records = {}
    for item in data.config.get("problems") or []:
        p = store.problem(item["problem_id"])
        if p is None:
            continue
        records[p.problem_id] = p
        rows.append({"problem_id": p.problem_id, "name": p.name, "split": p.split, "header": p.header,
                     "formal_statement": p.statement, "informal_statement": p.informal,
                     "digest": item.get("digest")})
    files[ROWS_FILE] = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows).encode("utf-8")

    used: set[str] = set()
    verdicts = []
    claimed = 0
    for pr in data.problems:
        entry: dict[str, Any] = {"problem_id": pr.problem_id, "name": pr.name, "split": pr.split,
                                 "verdict": "solved" if pr.solved else "unsolved", "proof": None,
                                 "attempts": [a.to_json() for a in pr.attempts], "audit": None}
        first = pr.first_proof()
        if first is not None:
            proofs = store.proofs(run_id=first.run_id, kind="whole")
            if proofs:
                proof = proofs[0]
                path = f"{PROOFS_DIR}{_file_name(pr.name, used)}.lean"
                text = proof.proof if proof.proof.endswith("\n") else proof.proof + "\n"
                files[path] = text.encode("utf-8")
                entry.update(proof=path, proof_run_id=first.run_id, proof_attempt=first.attempt,
                             audit=proof.audit or None, strategy=proof.strategy)
                claimed += 1
            else:  # counted as proved, but no audited file stored: the claim cannot be re-checked
                entry["verdict"] = "solved (no proof stored)"
        verdicts.append(entry)
    for pr, error in data.invalid:
        verdicts.append({"problem_id": pr.problem_id, "name": pr.name, "split": pr.split, "verdict": "invalid",
                         "error": error, "proof": None, "attempts": [], "audit": None})
    files[VERDICTS_FILE] = "".join(json.dumps(v, ensure_ascii=False) + "\n" for v in verdicts).encode("utf-8")

    versions = dict(data.versions or {})
    manifest_of_bench = {
        "format": BUNDLE_FORMAT,
        "version": BUNDLE_VERSION,
        "bench_run_id": data.run_id,
        "status": data.status,
        "created_at": time.time(),
        "lemmaforge": {"bench": versions.get("lemmaforge"), "bundle": __version__},
        "dataset": _dataset_file(str(bench.get("dataset")) if bench.get("dataset") else None),
        "selection": {k: bench.get(k) for k in ("dataset", "split", "limit", "names", "shard", "attempts",
                                                "answers", "tactic", "shared_cache")},
        "protocol": rep.get("protocol"),
        "preset": prover.get("preset"),
        "cot": data.config.get("cot"),
        "models": {"prover": prover.get("model") or versions.get("prover_model"),
                   "planner": (settings.get("planner") or {}).get("model") or versions.get("planner_model")},
        "sampling": {role: {k: (settings.get(role) or {}).get(k) for k in ("temperature", "top_p", "max_tokens")}
                     for role in ("prover", "planner")},
        "budgets": settings.get("budget"),
        "toolchain": {"lean": versions.get("lean"), "mathlib": versions.get("mathlib"),
                      "verifier": (settings.get("verifier") or {}).get("backend")},
        "versions": versions,
        "costs": rep.get("cost"),
        "time": rep.get("time"),
        "recipe": data.config.get("recipe"),
        "results": {k: rep.get(k) for k in ("problems", "tried", "solved", "rate", "attempts", "attempts_done",
                                            "complete", "pass_at_k")} | {"claimed_proofs": claimed},
        "settings": settings,
    }
    files[BENCH_FILE] = (json.dumps(manifest_of_bench, ensure_ascii=False, indent=2, default=str) + "\n").encode()
    manifest = {"format": BUNDLE_FORMAT, "version": BUNDLE_VERSION,
                "files": {path: sha256_hex(body) for path, body in sorted(files.items())}}
    files[MANIFEST] = (json.dumps(manifest, indent=2) + "\n").encode()
    return files


def write_bundle(store: Any, run_id: str, out: Path) -> dict[str, Any]:
    """Write bench `run_id`'s bundle to `out` (a zip, replaced whole: written beside it, then
    renamed). Returns {"path", "files", "proofs", "sha256"}."""
    files = bundle_contents(store, run_id)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for path in sorted(files):
            info = zipfile.ZipInfo(path, date_time=(1980, 1, 1, 0, 0, 0))  # the same bench, the same bytes
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, files[path])
    body = buf.getvalue()
    tmp = out.with_name(f".{out.name}.part")
    tmp.write_bytes(body)
    tmp.replace(out)
    return {"path": str(out), "files": len(files), "proofs": sum(p.startswith(PROOFS_DIR) for p in files),
            "sha256": sha256_hex(body)}


# --------------------------------------------------------------------------------------------------
# reading


@dataclass(slots=True)
class Bundle:
    path: str
    bench: dict[str, Any]
    rows: list[dict[str, Any]]
    verdicts: list[dict[str, Any]]
    proofs: dict[str, str] = field(default_factory=dict)  # path in the archive -> Lean text


def read_members(zf: zipfile.ZipFile, where: str) -> dict[str, bytes]:
    """Every regular member of an archive, path -> bytes (nothing is extracted to disk), within
    the size limits. BundleError on a corrupt or oversized archive."""
    infos = [i for i in zf.infolist() if not i.is_dir()]
    if len(infos) > MAX_MEMBERS:
        raise BundleError(f"{where}: {len(infos)} files in the archive (at most {MAX_MEMBERS})")
    if sum(i.file_size for i in infos) > MAX_BYTES:
        raise BundleError(f"{where}: the archive unpacks to more than {MAX_BYTES} bytes")
    out: dict[str, bytes] = {}
    for info in infos:
        if info.filename in out:
            raise BundleError(f"{where}: the archive holds {info.filename!r} twice")
        try:
            out[info.filename] = zf.read(info)
        except (zipfile.BadZipFile, OSError, RuntimeError, ValueError, EOFError) as exc:  # CRC error, encrypted…
            raise BundleError(f"{where}: cannot read {info.filename!r} from the archive ({exc})") from None
    return out


def is_bundle(members: dict[str, bytes]) -> bool:
    raw = members.get(MANIFEST)
    if raw is None:
        return False
    try:
        manifest = json.loads(raw)
    except ValueError:
        return False
    return isinstance(manifest, dict) and manifest.get("format") == BUNDLE_FORMAT


def check_manifest(members: dict[str, bytes], where: str) -> dict[str, Any]:
    """The manifest, once every file of the archive has the sha256 it lists and nothing is
    missing or added. BundleError naming the first file that differs."""
    try:
        manifest = json.loads(members[MANIFEST])
    except (KeyError, ValueError):
        raise BundleError(f"{where}: no readable {MANIFEST}: not a lemmaforge bundle") from None
    listed = manifest.get("files") if isinstance(manifest, dict) else None
    if not isinstance(listed, dict) or manifest.get("format") != BUNDLE_FORMAT:
        raise BundleError(f"{where}: {MANIFEST} is not a lemmaforge bundle manifest")
    if manifest.get("version") != BUNDLE_VERSION:
        raise BundleError(f"{where}: bundle format version {manifest.get('version')!r}; this lemmaforge reads "
                          f"version {BUNDLE_VERSION}")
    for path, digest in sorted(listed.items()):
        if path not in members:
            raise BundleError(f"{where}: manifest hash mismatch: {path} is listed in {MANIFEST} but missing; "
                              "the bundle was changed after it was written")
        got = sha256_hex(members[path])
        if got != digest:
            raise BundleError(f"{where}: manifest hash mismatch: {path} has sha256 {got}, the manifest says "
                              f"{digest}; the bundle was changed after it was written")
    extra = sorted(set(members) - set(listed) - {MANIFEST})
    if extra:
        raise BundleError(f"{where}: manifest hash mismatch: {extra[0]} is in the archive but not in {MANIFEST}; "
                          "the bundle was changed after it was written")
    return manifest


def _jsonl(members: dict[str, bytes], path: str, where: str) -> list[dict[str, Any]]:
    try:
        text = members[path].decode("utf-8")
        rows = [json.loads(line) for line in text.splitlines() if line.strip()]
    except (KeyError, UnicodeDecodeError, ValueError):
        raise BundleError(f"{where}: {path} is missing or not JSON lines") from None
    if not all(isinstance(r, dict) for r in rows):
        raise BundleError(f"{where}: {path} holds a line that is not a JSON object")
    return rows


def bundle_from_members(members: dict[str, bytes], where: str) -> Bundle:
    """A bundle whose manifest checked out (`check_manifest` first: BundleError otherwise)."""
    check_manifest(members, where)
    try:
        bench = json.loads(members[BENCH_FILE])
    except (KeyError, ValueError):
        raise BundleError(f"{where}: {BENCH_FILE} is missing or not JSON") from None
    if not isinstance(bench, dict):
        raise BundleError(f"{where}: {BENCH_FILE} is not a JSON object")
    rows = _jsonl(members, ROWS_FILE, where)
    verdicts = _jsonl(members, VERDICTS_FILE, where)
    proofs: dict[str, str] = {}
    for path, body in members.items():
        if path.startswith(PROOFS_DIR) and path.endswith(".lean"):
            try:
                proofs[path] = body.decode("utf-8")
            except UnicodeDecodeError:
                raise BundleError(f"{where}: {path} is not UTF-8 text") from None
    return Bundle(where, bench, rows, verdicts, proofs)


def read_bundle(path: Path) -> Bundle:
    """The bundle at `path`, its manifest checked. BundleError (exit 2) otherwise."""
    try:
        with zipfile.ZipFile(path) as zf:
            members = read_members(zf, str(path))
    except (zipfile.BadZipFile, OSError) as exc:
        raise BundleError(f"{path}: not a readable zip archive ({exc})") from None
    return bundle_from_members(members, str(path))
