"""Expert iteration (`lemmaforge train expert-iter`): sample proofs of the still-unsolved statements,
keep what Lean verifies, retrain, serve the new model, repeat (DeepSeek-Prover-V2 §2.3, STP,
Goedel-Prover). A round, the store layout and how each checkpoint is served are `_loop.py`'s
docstring.

Public names: `ExpertIteration` (the loop, resumable from the store), its recipe `ExpertIterConfig`
and `ExpertIterError` (a recipe or input that cannot run); `ModelServer` (one checkpoint served at a
time through the user's `serve_cmd`) and `ServeError` (it would not come up, or died).

Private parts: `_loop.py` (the rounds and their runs in the store), `_config.py` (the recipe),
`_sampling.py` (a round's sampling: proofs asked of the served checkpoint, each audited),
`_sft.py` (a round's SFT from the base model), `_serving.py` (the model server).
"""

from lemmaforge.training.expert._config import ExpertIterConfig, ExpertIterError
from lemmaforge.training.expert._loop import ExpertIteration
from lemmaforge.training.expert._serving import ModelServer, ServeError

__all__ = ["ExpertIterConfig", "ExpertIterError", "ExpertIteration", "ModelServer", "ServeError"]
