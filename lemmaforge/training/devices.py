"""Where in-process training and generation run, and giving memory back between phases."""

from __future__ import annotations

import gc


def default_device() -> str:
    """"cuda" when torch sees a GPU, else "cpu"."""
    try:
        import torch

        return "cuda" if torch.cuda.is_available() else "cpu"
    except ImportError:  # pragma: no cover - the train extra brings torch
        return "cpu"


def free_memory() -> None:
    """Collect garbage and empty torch's CUDA cache: an in-process model is gone with its loop."""
    gc.collect()
    try:
        import torch

        if torch.cuda.is_available():
            torch.cuda.empty_cache()
    except ImportError:  # pragma: no cover
        pass


__all__ = ["default_device", "free_memory"]
