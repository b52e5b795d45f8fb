"""The library's face: one `prove` that does what `lemmaforge prove FILE` does, minus the terminal.

    from lemmaforge import prove, load_config
    result = prove(open("t.lean").read(), load_config(None, {"prover": {"url": "http://…/v1"}}))
    print(result.proved, result.proof, result.stats.llm_calls)

Same path as the CLI, not a second one: the target theorem is chosen as the CLI chooses it
(`targets.choose_target`), then `services.preflight` (dataset gate, endpoints, statement check,
charged to the run's Lean budget), then `services.prove_problem` (the search, whose proof counts
only after the whole-file check and the audit). Errors are the CLI's exceptions (`errors.py`):
`InputError` for a file or statement to fix, backend errors for an endpoint or verifier to fix.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace

from lemmaforge.config import Settings, load_config
from lemmaforge.search.interfaces import SearchResult
from lemmaforge.services import (
    open_recorder,
    open_services,
    open_store_after_preflight,
    preflight,
    problem_from_code,
    prove_problem,
)
from lemmaforge.targets import choose_target

ProofResult = SearchResult  # proved, proof (the audited file), stats (sent and used), tree, audit, …


async def prove_async(code: str, settings: Settings | None = None, *, theorem: str | None = None,
                      informal: str | None = None) -> ProofResult:
    """`prove` inside a running event loop."""
    settings = settings if settings is not None else load_config()
    target = choose_target(code, theorem)
    problem = problem_from_code(target.code)
    if informal:
        problem = replace(problem, informal=informal)
    recorder, close = open_recorder(settings.db_url, deferred=True)  # opened once the preflight passed
    try:
        async with open_services(settings, recorder=recorder) as services:
            settings, sent = await preflight(services, settings, problem)
            await open_store_after_preflight(recorder)
            return await prove_problem(services, settings, problem, preflight_checks=sent)
    finally:
        close()


def prove(code: str, settings: Settings | None = None, *, theorem: str | None = None,
          informal: str | None = None) -> ProofResult:
    """Prove the theorem of `code` (a whole Lean file: header, then the theorem with its `sorry`;
    `theorem` names it when the file has several) under `settings` (None: `load_config()`, the
    config file and environment the CLI reads). Runs its own event loop; `prove_async` inside one."""
    return asyncio.run(prove_async(code, settings, theorem=theorem, informal=informal))
