"""`lemmaforge demo`: the product working end to end without Lean, a GPU or a model.

Simulators that ship with the package (standard library only, so that the demo runs on a fresh
install with no extras), each documented in its module:

* `lean_sim.py`: a simulated Lean answering a whole file as the Lean REPL does, with a
  deterministic world deciding which proofs close which goals;
* `lean_answers.py`: the one module that knows the product's probe commands (`#print axioms`,
  `#check @NAME`, the declaration listing, `#eval Lean.versionString`) and Lean's answer formats;
* `model_sim.py`: a simulated planner (sketches) and prover (tactic proofs);
* `servers.py`: a Kimina Lean Server and an OpenAI-compatible server around them, in-process on
  127.0.0.1;
* `run.py`: the demo itself: the real commands, run as a person would, and where their pages are.

Nothing here is used by a real run; test doubles stay in `tests/fakes/`.
"""

from lemmaforge.demo.lean_sim import SimulatedLean
from lemmaforge.demo.model_sim import SimulatedModels
from lemmaforge.demo.run import DemoError, DemoFailed, DemoResult, run_demo
from lemmaforge.demo.servers import SimulatedKimina, SimulatedOpenAI

__all__ = ["DemoError", "DemoFailed", "DemoResult", "SimulatedKimina", "SimulatedLean", "SimulatedModels", "SimulatedOpenAI",
           "run_demo"]
