"""Fixtures for the training tests: real problems (miniF2F statements paired with DeepSeek-Prover-V2
reference proofs, tests/fakes/real_problems.py) and the tiny random model; the scripted verifier is
`tests.fakes.scripted.ScriptedVerifier`."""

from tests.fakes.real_problems import lean_texts, problems, tiny_model, tiny_tokenizer  # noqa: F401 (fixtures)
