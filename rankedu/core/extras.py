"""The optional dependencies (``pyproject.toml``'s extras): import one, or say which extra
installs it, so that a missing one ends in ``pip install "rankedu[logs]"``, not a bare
``No module named 'duckdb'``."""

from __future__ import annotations

import importlib
from types import ModuleType


def require(module: str, extra: str) -> ModuleType:
    """``importlib.import_module(module)``; when it is not installed, a ModuleNotFoundError
    (an ImportError) naming the extra of rankedu that installs it."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as error:
        raise ModuleNotFoundError(
            f"{module} is not installed ({error}); it comes with rankedu's {extra!r} extra: "
            f'pip install "rankedu[{extra}]"', name=error.name) from None
