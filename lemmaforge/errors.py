"""The one exception tree of lemmaforge: every error says what the caller should do with it.

Like httpx's single exceptions module, callers decide by class, never by message text:

    LemmaforgeError                 base; the message is one line (whitespace collapsed)
    ├── InputError                  the user must fix their input (file, flag, dataset row): exit 2
    ├── BackendError                an LLM endpoint, a verifier or the store cannot be used;
    │   │                           never the model's fault, never counted as a failed attempt
    │   ├── BackendMisconfigured    fatal at once: 401/403/404, unknown model, a response of the
    │   │                           wrong shape, empty `choices`, a verifier that is not installed
    │   └── BackendUnavailable      transient: retried with backoff, fatal once retries are spent
    ├── AttemptFailed               the model's fault (unusable output, a refused sample): counts
    └── InternalError               a bug caught at a process boundary (a Ray task): exit 70

Where each product error sits (the classes live next to the code that raises them):

    InputError            BadInput (CLI), ConfigError, DatasetError, ProblemError, BenchError,
                          StatementInvalid, TrainingDataError, ExportError, ExpertIterError
    BackendMisconfigured  LLMMisconfiguredError, VerifierMisconfigured, ProofStatesUnsupported
    BackendUnavailable    LLMUnavailableError, VerifierUnavailable
    BackendError          VerifierError (either kind), StoreError, FatalBenchError, SetupError,
                          ServeError
    AttemptFailed         LLMRequestError (the server refused this one request: prompt too long)

Library exceptions (openai, httpx, lean-interact, SQLAlchemy) are mapped to these at the boundary
where they are raised; anything else is a bug and propagates (exit code `ExitCode.INTERNAL`).
"""

from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    """Process exit codes of every command, defined once."""

    OK = 0
    NOT_PROVED = 1  # the model failed: a number, not an error
    BAD_INPUT = 2  # bad input or a fatal backend error: one line on stderr says what to fix
    INTERNAL = 70  # a bug (EX_SOFTWARE): distinct from "not proved" so it is never read as a result
    INTERRUPTED = 130  # Ctrl-C


def one_line(text: object) -> str:
    """`text` with all whitespace runs collapsed to one space: errors are printed on one line."""
    return " ".join(str(text).split())


class LemmaforgeError(Exception):
    """Base of every error lemmaforge raises on purpose. `str(err)` is one line."""

    exit_code: ExitCode = ExitCode.BAD_INPUT

    def __init__(self, message: object = "") -> None:
        super().__init__(one_line(message))


class InputError(LemmaforgeError):
    """Input the user must fix: a file, a flag, a config value, a dataset row."""


class BackendError(LemmaforgeError):
    """A backend (LLM endpoint, verifier, store) cannot be used. Fatal to the run: the attempts it
    hit are not finished and a resumed run redoes them.

    `backend` names which one (e.g. ``"LLM endpoint http://host:8000/v1 (model prover)"``) and
    `fix` says what the user should do; both are part of the one-line message.
    """

    def __init__(self, message: object, *, backend: str = "", fix: str = "") -> None:
        self.backend = one_line(backend)
        self.fix = one_line(fix)
        self.detail = one_line(message)
        parts = [f"{self.backend}: {self.detail}" if self.backend else self.detail]
        if self.fix:
            parts.append(f"({self.fix})")
        super().__init__(" ".join(parts))


class BackendMisconfigured(BackendError):
    """Retrying cannot help: wrong key, unknown model or URL, a response of the wrong shape."""


class BackendUnavailable(BackendError):
    """The backend may come back (connection refused, timeout, 5xx, 429): retry with backoff, then
    give up as fatal."""


class AttemptFailed(LemmaforgeError):
    """One attempt failed for a reason that is the model's (or the proof's) fault: it counts."""

    exit_code = ExitCode.NOT_PROVED


class InternalError(LemmaforgeError):
    """A bug reported across a process boundary (a Ray task that raised something that is not a
    LemmaforgeError). In-process bugs are not wrapped: they propagate as themselves."""

    exit_code = ExitCode.INTERNAL


class StatementInvalid(InputError):
    """The theorem to prove does not elaborate (preflight): no budget is spent on it. In a bench
    the problem is recorded as invalid and reported apart from the unsolved ones."""

    def __init__(self, detail: object, *, problem: str = "") -> None:
        self.problem = one_line(problem)
        self.detail = one_line(detail)
        where = f"{self.problem}: " if self.problem else ""
        super().__init__(f"{where}statement does not compile: {self.detail}")


def is_fatal(exc: BaseException) -> bool:
    """The one place that decides whether an error stops a run (`prove`, every `bench` executor,
    training loops): a backend that cannot be used. Attempts it hits are not finished, so a
    resumed bench redoes them. Model failures (`AttemptFailed`) are counted by the caller; any
    other exception is a bug and propagates."""
    return isinstance(exc, BackendError)


def exit_code_of(exc: BaseException) -> ExitCode:
    """The process exit code for an error that reached the top of a command."""
    if isinstance(exc, LemmaforgeError):
        return exc.exit_code
    if isinstance(exc, KeyboardInterrupt):
        return ExitCode.INTERRUPTED
    return ExitCode.INTERNAL
