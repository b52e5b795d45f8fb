"""lemmaforge: recursive Lean 4 theorem proving by sketch decomposition."""

__version__ = "0.1.0"
