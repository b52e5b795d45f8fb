"""The REPL backend: a local pool of Lean REPL processes driven through lean-interact, one worker
per process, each keyed by the file header it has elaborated (`import Mathlib` once per worker,
every later check with that header branches from its environment).

Public names: `ReplVerifier` (the backend; `ReplVerifier.from_config`), `ReplPoolStats` (what the
pool did: requests, restarts, busy time, useful utilisation), `WorkerHandle` (what a `Goal` carries
to route tactic steps back to the worker holding its proof state) and `split_header` (a file's
leading header and its body, as the pool keys them).

Private parts: `_verifier.py` (the pool: checks, tactic steps, crashes and recycling),
`_scheduling.py` (which check or tactic step gets which worker, in the order of the one check
queue, lean/check_queue.py), `_process.py` (one worker's process, sandboxed, and the pool's
counters), `_results.py` (a REPL answer read into the verifier's result types).
"""

from lemmaforge.lean.repl._process import ReplPoolStats
from lemmaforge.lean.repl._results import WorkerHandle
from lemmaforge.lean.repl._verifier import ReplVerifier, split_header

__all__ = ["ReplPoolStats", "ReplVerifier", "WorkerHandle", "split_header"]
