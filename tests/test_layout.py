"""The package's layout by area (CONTRIBUTING.md, "Layout"): which package may import which.

Each package's ``__init__`` docstring says what lives there and what it may import; this file
checks the imports of every module against that table, so that a new import that runs from a
lower level to a higher one (a metric importing the TREC path, the ground importing a metric)
fails here instead of becoming a cycle later.
"""

import ast
import importlib
import importlib.util
import pkgutil
import re
from pathlib import Path

import pytest

import rankedu

PACKAGE = Path(rankedu.__file__).parent

# Where each module lives ("room"), and the rooms each room may import besides itself.
# "top" holds the modules at the package's root that the public API is built from.
MAY_IMPORT = {
    "core": set(),
    "metrics": {"core"},
    "stats": {"core"},
    "trec": {"core", "metrics"},
    "online": {"core", "stats"},
    "logs": {"core", "metrics"},
    "judgments": {"core", "metrics", "trec"},
    "offpolicy": {"core", "metrics", "stats"},
    "recommenders": {"core"},
    "top": {"core", "metrics", "stats", "trec", "judgments", "offpolicy", "recommenders"},
    "api": {"core", "metrics", "stats", "online", "trec", "logs", "judgments", "offpolicy",
            "recommenders", "top"},
    "teaching": {"core", "metrics", "stats", "online", "trec", "judgments", "offpolicy",
                 "recommenders", "top", "api"},
}
# rankedu/__init__.py, the command line and python -m rankedu sit above everything.
API_MODULES = {"rankedu", "rankedu.cli", "rankedu.__main__"}


def room(module: str) -> str:
    if module in API_MODULES:
        return "api"
    parts = module.split(".")
    if len(parts) > 2 or (len(parts) == 2 and parts[1] in MAY_IMPORT):
        return parts[1]
    return "top"


def modules():
    names = ["rankedu", *(info.name for info in pkgutil.walk_packages([str(PACKAGE)], "rankedu."))]
    return sorted(names)


def source_of(module: str) -> Path:
    relative = Path(*module.split(".")[1:])
    path = PACKAGE / relative / "__init__.py"
    return path if path.exists() else PACKAGE / relative.with_suffix(".py")


def imported(module: str) -> set[str]:
    """The rankedu modules ``module`` imports (a name imported from a package counts as that
    package's submodule when there is one)."""
    found = set()
    for node in ast.walk(ast.parse(source_of(module).read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                candidate = f"{node.module}.{alias.name}"
                found.add(candidate if _is_module(candidate) else node.module)
    return {name for name in found if name.split(".")[0] == "rankedu" and name != module}


def _is_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:
        return False


@pytest.mark.parametrize("module", modules())
def test_every_import_runs_down_the_layout(module):
    here = room(module)
    allowed = MAY_IMPORT[here] | {here}
    wrong = sorted(name for name in imported(module)
                   if room(name) not in allowed and name != "rankedu")
    # Only the teaching helpers import the public API as a whole (import rankedu as rk).
    if "rankedu" in imported(module) and here not in {"teaching", "api"}:
        wrong.append("rankedu")
    assert not wrong, f"{module} ({here}) imports {wrong}, outside {sorted(allowed)}"


@pytest.mark.parametrize("package", sorted(MAY_IMPORT.keys() - {"top", "api"}))
def test_every_package_says_what_lives_there_and_what_it_may_import(package):
    doc = importlib.import_module(f"rankedu.{package}").__doc__ or ""
    assert len(doc.split()) >= 40 and "import" in doc, f"rankedu.{package} needs its docstring"


def test_a_public_module_is_a_module_and_never_shadowed_by_a_function():
    # rk.dcg is the function; the module is rankedu.metrics.dcg, and rankedu.dcg is no module.
    for module in rankedu._public.public_modules():
        package, name = module.__name__.rsplit(".", 1)
        assert getattr(importlib.import_module(package), name) is module
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("rankedu.dcg")
    assert callable(rankedu.dcg)


def test_every_public_module_is_exported_by_rankedu():
    # A new module of rankedu.metrics or rankedu.stats needs its star import in __init__.py.
    for module in rankedu._public.public_modules():
        for name in module.__all__:
            assert getattr(rankedu, name, None) is getattr(module, name), (
                f"rankedu.{name} is not {module.__name__}.{name}: add "
                f"'from {module.__name__} import *' to rankedu/__init__.py")


def test_every_public_name_is_on_the_api_page():
    # A public module whose names the API page does not document leaves the references to
    # them unresolved, and the build (-W -n) fails on them: set_based did, once.
    page = (Path(__file__).resolve().parents[1] / "book" / "api.md").read_text()
    documented = set(re.findall(r"^\.\. rankedu-names:: (\S+)$", page, re.M))
    named = {line.split("::")[1].strip().rsplit(".", 1)[-1]
             for line in re.findall(r"^ *\.\. (?:autofunction|autoclass|py:class|py:data)::.*$",
                                    page, re.M)}
    for module in rankedu._public.public_modules():
        if module.__name__ not in documented:
            missing = sorted(set(module.__all__) - named)
            assert not missing, f"book/api.md documents neither {module.__name__} nor {missing}"
