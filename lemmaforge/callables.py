"""What a duck-typed collaborator's method accepts (a prover, a model written before a keyword
existed keeps working: it is simply not given that keyword)."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from functools import lru_cache
from typing import Any


def takes_keyword(method: Callable[..., Any], name: str) -> bool:
    """Whether `method` has a parameter `name` that can be passed by keyword."""
    function = getattr(method, "__func__", method)
    try:
        return _cached(function, name)
    except TypeError:  # an unhashable callable object
        return _takes(function, name)


def _takes(function: Callable[..., Any], name: str) -> bool:
    try:
        parameters = inspect.signature(function).parameters
    except (TypeError, ValueError):  # a callable without an introspectable signature
        return False
    param = parameters.get(name)
    return param is not None and param.kind in (param.KEYWORD_ONLY, param.POSITIONAL_OR_KEYWORD)


# by function: asked once per model request, answered once per method
_cached = lru_cache(maxsize=512)(_takes)
