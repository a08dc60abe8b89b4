"""Which modules make up the public API: the one list ``rankedu``, ``rankedu.explain``, the API
page and the tests read.

Every module of the packages below that declares ``__all__`` is public: its names are
``rk.<name>``, each one with a ``_<name>_steps`` function is ``rk.explain.<name>``, and the API
page (``book/api.md``) lists them. So a function added to a module's ``__all__`` needs no other
edit; a new module needs one ``from ... import *`` line in ``rankedu/__init__.py`` (a test says
so when it is missing), and a public module outside these packages its name in :data:`MODULES`.
"""

from __future__ import annotations

import functools
import pkgutil
from importlib import import_module
from types import ModuleType

#: The packages whose modules are public, in the order of the book, and the public modules
#: outside them.
PACKAGES = ("rankedu.metrics", "rankedu.stats", "rankedu.judgments", "rankedu.offpolicy",
            "rankedu.recommenders", "rankedu.online")
MODULES = ("rankedu.trec.evaluate", "rankedu.trec.diversity", "rankedu.trec.report",
           "rankedu.comparison")


@functools.cache
def public_modules() -> tuple[ModuleType, ...]:
    """Every public module: those of :data:`PACKAGES` that declare ``__all__``, then
    :data:`MODULES` (found once: ``rankedu`` and ``rankedu.explain`` both ask at import)."""
    found = []
    for package in PACKAGES:
        for info in pkgutil.iter_modules(import_module(package).__path__, f"{package}."):
            module = import_module(info.name)
            if hasattr(module, "__all__"):
                found.append(module)
    return (*found, *(import_module(name) for name in MODULES))
