"""Temporary re-export of `lemmaforge.services` for the CLI modules (`lemmaforge/cli*.py`), which
were being restructured while the services moved. The lead removes this module after the merge,
once the CLI imports `lemmaforge.services` directly. Nothing else may import it.
"""

from lemmaforge.services import (
    MINIF2F_HEADER,
    ProblemError,
    check_statement,
    check_verifier,
    open_recorder,
    open_services,
    preflight_endpoints,
    problem_from_code,
    prove_problem,
    versions,
)

__all__ = [
    "MINIF2F_HEADER",
    "ProblemError",
    "check_statement",
    "check_verifier",
    "open_recorder",
    "open_services",
    "preflight_endpoints",
    "problem_from_code",
    "prove_problem",
    "versions",
]
