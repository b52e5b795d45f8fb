"""Statement identity decided by Lean: the external SafeVerify checker, where Lean is local.

Text comparison of statements (lean/syntax/_compare.py) is a cheap first filter; it cannot see what
the text MEANS in the candidate's environment. Where the backend has Lean locally (REPL, lake),
the audit also asks Lean: both files are compiled to `.olean`s and SafeVerify
(github.com/GasStationManager/SafeVerify, built by `lemmaforge setup --safeverify`) replays each
file's constants through the kernel (`Environment.replay`, so nothing a file did to its
environment survives) and checks that every declaration of the reference (the problem, its
theorem ending in `sorry`) exists in the submission with the same name, kind and TYPE (definition
bodies too, unless the reference's depends on `sorry`: PutnamBench answer slots), and that the
submission uses only the standard axioms.

Protocol (SafeVerify's `Main.lean`): `lake env <safe_verify> target.olean submission.olean`, run in
the Lean project. Replay or axiom failures are uncaught `IO.userError`s (stderr
`uncaught exception: …`, exit status 1); a declaration that does not match is reported on stderr
as `Found a problem in <file> with declaration <name>` (older versions still exit 0); success
ends with `Finished.` on stdout.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import os
import re
import resource
import signal
import subprocess
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path

from lemmaforge import sending
from lemmaforge.lean.sandbox import DATA_DIR, TMP, Sandbox, read_memfd, seal_data
from lemmaforge.lean.verifier import StatementVerdict, VerifierError

SAFE_VERIFY_REPO = "https://github.com/GasStationManager/SafeVerify"
_PROBLEM_RE = re.compile(r"Found a problem in (?P<file>\S+) with declaration (?P<name>\S+)")
_AXIOMS_RE = re.compile(r"uncaught exception: (?P<name>\S+) used disallowed axioms\. #\[(?P<axioms>[^\]]*)\]")
_EXCEPTION_RE = re.compile(r"uncaught exception: (?P<what>[^\n]*)")
_TAIL = 300


def parse_safe_verify(returncode: int | None, stdout: str, stderr: str, allowed_axioms: set[str]) -> StatementVerdict:
    """SafeVerify's output → a verdict (see the module docstring for the protocol)."""
    problems = [m.group("name") for m in _PROBLEM_RE.finditer(stderr + "\n" + stdout)]
    if problems:
        return StatementVerdict(False, "Lean (SafeVerify): declaration(s) differ from the original: "
                                + ", ".join(sorted(set(problems))))
    axioms = _AXIOMS_RE.search(stderr)
    if axioms:
        used = {a.strip().lstrip("`") for a in axioms.group("axioms").split(",") if a.strip()}
        extra = sorted(used - allowed_axioms - {"propext", "Quot.sound", "Classical.choice"})
        if extra:
            return StatementVerdict(False, f"Lean (SafeVerify): {axioms.group('name')} uses axioms {', '.join(extra)}")
        # Axioms our policy allows (native_decide, the problem's own) stop SafeVerify before it
        # compares: the statement check falls back to the text comparison for this proof.
        return StatementVerdict(None, "SafeVerify stopped on axioms the policy allows: "
                                + ", ".join(sorted(used)), skipped=True)
    exception = _EXCEPTION_RE.search(stderr)
    if exception:
        what = exception.group("what")
        if "unsafe constant" in what or "partial constant" in what:
            return StatementVerdict(False, f"Lean (SafeVerify): {what[:_TAIL]}")
        return StatementVerdict(None, f"SafeVerify failed: {what[:_TAIL]}")
    if returncode == 0 and "Finished" in stdout:
        return StatementVerdict(True, "Lean (SafeVerify): same declarations, kernel replay passed")
    tail = (stderr.strip() or stdout.strip())[-_TAIL:]
    return StatementVerdict(None, f"SafeVerify exited with {returncode}: {tail}")


class SafeVerifyChecker:
    """Runs SafeVerify in a Lean project (`lake env …`). One comparison at a time per process
    slot; each compiles two files, so it is kept for the final audit, not the search's checks.

    Sandboxed (`sandbox`, lean/sandbox.py: what the REPL and lake backends run under), each step is
    a sandbox of its own: the original compiles, its `.olean` comes back on stdout (Lean writes it
    in the sandbox's private /tmp) and is kept in a sealed memory file with its sha256; the
    candidate compiles in another sandbox, whose only writable place is its own /tmp and where the
    target is nowhere; the target's hash is checked again, then SafeVerify compares the two
    `.olean`s, both copied in read-only. Unsandboxed (`--no-sandbox`), the steps share one host
    folder and the hash check catches a candidate that rewrote the target."""

    name = "safe_verify"

    def __init__(self, executable: Path | str, project: Path | str, *, lake: str = "lake",
                 timeout: float = 600.0, workers: int = 1, sandbox: Sandbox | None = None,
                 memory_limit_mb: int | None = None) -> None:
        self.executable = Path(executable)
        # Compiling the candidate runs its code: under the backends' sandbox (lean/sandbox.py)
        self.sandbox = sandbox
        self.memory_limit_mb = memory_limit_mb  # RLIMIT_AS of every step (the sandbox's own when sandboxed)
        self.project = Path(project)
        self.lake = lake
        self.timeout = timeout
        self._slots = asyncio.Semaphore(max(1, workers))
        if not self.executable.is_file():
            raise VerifierError(
                f"SafeVerify not found at {self.executable}: build it with `lemmaforge setup --safeverify` "
                "or unset verifier.safe_verify"
            )

    async def compare(self, original: str, candidate: str, *, allowed_axioms: set[str],
                      timeout: float | None = None) -> StatementVerdict:
        limit = timeout or self.timeout
        async with self._slots:
            if self.sandbox is not None:
                return await self._compare_sandboxed(original, candidate, allowed_axioms, limit)
            return await self._compare_on_host(original, candidate, allowed_axioms, limit)

    async def _compare_sandboxed(self, original: str, candidate: str, allowed_axioms: set[str],
                                 limit: float) -> StatementVerdict:
        target, failed = await self._compile_sandboxed("Target", original, limit)
        if target is None:
            return failed
        digest = hashlib.sha256(target).hexdigest()
        sealed = seal_data(target)  # from here on nothing can change these bytes
        try:
            submission, failed = await self._compile_sandboxed("Submission", candidate, limit)
            if submission is None:
                return failed
            if hashlib.sha256(read_memfd(sealed)).hexdigest() != digest:
                return StatementVerdict(None, TARGET_CHANGED)
            inside = f"{DATA_DIR}/Target.olean", f"{DATA_DIR}/Submission.olean"
            code, out, err = await self._run([self.lake, "env", str(self.executable), *inside], limit,
                                             files={inside[1]: submission}, sealed={inside[0]: sealed})
        finally:
            os.close(sealed)
        return parse_safe_verify(code, out.decode(errors="replace"), err, allowed_axioms)

    async def _compile_sandboxed(self, name: str, text: str, limit: float) -> tuple[bytes | None, StatementVerdict]:
        """(the `.olean` of `text` compiled in a sandbox of its own, or None and why not)."""
        source, olean = f"{DATA_DIR}/{name}.lean", f"{TMP}/{name}.olean"
        code, out, err = await self._run(["/bin/sh", "-c", _COMPILE_AND_SEND, "sh", olean, self.lake, "env", "lean",
                                          "-o", olean, source], limit, files={source: text.encode("utf-8")})
        if code != 0:
            return None, StatementVerdict(None, f"compiling {name}.lean for SafeVerify failed ({code}): "
                                          f"{err.strip()[-_TAIL:]}")
        return out, StatementVerdict(None, "")

    async def _compare_on_host(self, original: str, candidate: str, allowed_axioms: set[str],
                               limit: float) -> StatementVerdict:
        with tempfile.TemporaryDirectory(prefix="lemmaforge-safeverify-") as tmp:
            target, submission = Path(tmp) / "Target.lean", Path(tmp) / "Submission.lean"
            target.write_text(original, encoding="utf-8")
            submission.write_text(candidate, encoding="utf-8")
            digest = ""
            for src in (target, submission):
                code, out, err = await self._run([self.lake, "env", "lean", "-o", str(src.with_suffix(".olean")),
                                                  str(src)], limit)
                if code != 0:
                    tail = (err.strip() or out.decode(errors="replace").strip())[-_TAIL:]
                    return StatementVerdict(None, f"compiling {src.name} for SafeVerify failed ({code}): {tail}")
                if src is target:
                    digest = _sha256(target.with_suffix(".olean"))
            if _sha256(target.with_suffix(".olean")) != digest:
                return StatementVerdict(None, TARGET_CHANGED)
            code, out, err = await self._run(
                [self.lake, "env", str(self.executable), str(target.with_suffix(".olean")),
                 str(submission.with_suffix(".olean"))], limit)
            return parse_safe_verify(code, out.decode(errors="replace"), err, allowed_axioms)

    async def _run(self, argv: list[str], limit: float, *, files: Mapping[str, bytes] | None = None,
                   sealed: Mapping[str, int] | None = None) -> tuple[int | None, bytes, str]:
        launch = None
        try:
            if self.sandbox is not None:
                launch = self.sandbox.prepare(argv, cwd=self.project, files=files, sealed=sealed)
                process = await launch.start(stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
                                             stderr=asyncio.subprocess.PIPE)
            else:
                process = await asyncio.create_subprocess_exec(
                    *argv, cwd=self.project, stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
                    stderr=asyncio.subprocess.PIPE, start_new_session=True, preexec_fn=self._limit_memory,
                )
        except OSError as exc:
            raise VerifierError(f"cannot run '{argv[0]}' in {self.project}: {exc.strerror or exc}") from None
        try:
            try:
                out, err = await asyncio.wait_for(process.communicate(), limit)
            except (TimeoutError, asyncio.CancelledError) as exc:
                # the whole group (start_new_session): lake, the lean it started, and bwrap, whose
                # pid namespace dies with it (--die-with-parent); killing one process leaves the rest
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(process.pid, signal.SIGKILL)
                await process.wait()
                if isinstance(exc, asyncio.CancelledError):
                    raise
                return None, b"", f"timed out after {limit:g}s"
        finally:
            if launch is not None:
                launch.finished()
        return process.returncode, out, err.decode(errors="replace")

    def _limit_memory(self) -> None:  # between fork and exec
        if self.memory_limit_mb:
            limit = self.memory_limit_mb * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


# In a compile's sandbox: Lean writes the .olean in the sandbox's /tmp, its messages go to stderr,
# and the .olean comes out on stdout (nothing of the sandbox is on the host to read it from).
_COMPILE_AND_SEND = 'out="$1"; shift; "$@" >&2 || exit; exec cat "$out"'
TARGET_CHANGED = "SafeVerify's target .olean changed after it was compiled (its sha256 differs): not compared"


def _sha256(path: Path) -> str:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return "unreadable"


class SafeVerifyMissing:
    """Where Lean is local but SafeVerify is not built: every comparison says so (a skipped
    verdict the audit reports in `statement_check`), instead of silently not running."""

    name = "safe_verify"

    def __init__(self, expected: Path) -> None:
        self.expected = expected

    async def compare(self, original: str, candidate: str, *, allowed_axioms: set[str],
                      timeout: float | None = None) -> StatementVerdict:
        sending.not_sent()  # nothing runs: a run's budget gives the comparison's unit back
        return StatementVerdict(None, f"SafeVerify is not installed (expected at {self.expected}; build it with "
                                "`lemmaforge setup --safeverify`): no kernel replay", skipped=True)


def default_location(project: Path) -> Path:
    """Where `lemmaforge setup --safeverify` builds the executable for `project`."""
    return project / ".lemmaforge" / "SafeVerify" / ".lake" / "build" / "bin" / "safe_verify"


def build_safe_verify(
    project: Path, *, lake: str, git: str = "git", log: Callable[[str], None] = lambda _m: None,
    repo: str = SAFE_VERIFY_REPO,
) -> Path:
    """Clone SafeVerify next to `project` and build it with the project's Lean toolchain (oleans
    are only readable by the Lean version that wrote them). Returns the executable. Raises
    VerifierError naming the step that failed."""
    dest = project / ".lemmaforge" / "SafeVerify"
    if not (dest / "lakefile.lean").exists() and not (dest / "lakefile.toml").exists():
        dest.parent.mkdir(parents=True, exist_ok=True)
        log(f"cloning {repo} into {dest}…")
        _step([git, "clone", "--depth", "1", repo, str(dest)], cwd=dest.parent, what="cloning SafeVerify")
    toolchain = project / "lean-toolchain"
    if toolchain.is_file():
        (dest / "lean-toolchain").write_text(toolchain.read_text(encoding="utf-8"), encoding="utf-8")
    log("building SafeVerify (lake build)…")
    _step([lake, "build"], cwd=dest, what="building SafeVerify")
    exe = default_location(project)
    if not exe.is_file():
        raise VerifierError(f"building SafeVerify did not produce {exe}")
    return exe


def _step(argv: list[str], *, cwd: Path, what: str) -> None:
    try:
        done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, check=False)
    except OSError as exc:
        raise VerifierError(f"{what} failed: cannot run '{argv[0]}': {exc.strerror or exc}") from None
    if done.returncode != 0:
        tail = (done.stderr.strip() or done.stdout.strip()).splitlines()
        raise VerifierError(f"{what} failed ({done.returncode}): {tail[-1][:200] if tail else 'no output'}")
