"""The LLM error kinds (one home; their bases are the tree in `lemmaforge.errors`) and `one_line`,
the one-line message every model error carries.

| kind                    | what the caller does                                               |
|-------------------------|--------------------------------------------------------------------|
| `LLMMisconfiguredError` | fatal at once: a wrong key, model, URL or response shape, a backend not installed |
| `LLMUnavailableError`   | fatal once the backend's retries are spent                          |
| `LLMRequestError`       | a failed attempt: this request's content was refused               |
"""

from __future__ import annotations

from lemmaforge.errors import AttemptFailed, BackendMisconfigured, BackendUnavailable, LemmaforgeError


class LLMError(LemmaforgeError):
    """A model call failed. The message is one line that names the endpoint and the model.
    Never raised itself: one of the three kinds below says what the caller should do."""


class LLMMisconfiguredError(LLMError, BackendMisconfigured):
    """Retrying cannot help and it is not the model's fault: a wrong API key (401/403), an unknown
    model or URL (404, "model does not exist"), a response that is not the OpenAI shape (garbage
    or truncated JSON, missing fields, empty `choices`), a backend that is not installed or not
    configured. Fatal at once."""


class LLMUnavailableError(LLMError, BackendUnavailable):
    """The endpoint cannot serve right now: unreachable, timing out, overloaded (429) or failing
    (5xx) after every retry within the retry deadline. Fatal once the retries are spent."""


class LLMRequestError(LLMError, AttemptFailed):
    """The endpoint refused this one request for a reason of its content (a 400/413/422 such as a
    prompt longer than the context): a failed attempt, counted; the next request may pass."""

    def __init__(self, message: str, status_code: int | None = None) -> None:
        super().__init__(message)
        self.status_code = status_code


def one_line(exc: BaseException | str, limit: int = 400) -> str:
    """`TypeName: message` on one line, with the cause of a bare connection error appended."""
    if isinstance(exc, str):
        text = exc
    else:
        text = f"{type(exc).__name__}: {exc}".rstrip(": ")
        cause = exc.__cause__ or exc.__context__
        # a bare "Connection error." says little: name what failed underneath (not for HTTP statuses,
        # whose message already has the server's answer)
        if (
            getattr(exc, "status_code", None) is None
            and cause is not None
            and str(cause)
            and str(cause) not in text
        ):
            text += f" ({type(cause).__name__}: {cause})"
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"



__all__ = ["LLMError", "LLMMisconfiguredError", "LLMRequestError", "LLMUnavailableError", "one_line"]
