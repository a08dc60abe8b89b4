"""Every docstring example runs and prints what it says, and every public function has one.

STYLE.md: "Docstrings state the formula, every convention, the value at 0/0, and a small example
whose output is checked by the tests." This file is that check: doctest over every module of
rankedu, one case per module.
"""

import doctest
import importlib
import inspect
import os
import pkgutil

import pytest

import rankedu

# The plotting module's examples draw figures; never open a window.
os.environ.setdefault("MPLBACKEND", "Agg")

MODULES = sorted(
    ["rankedu", *(f"rankedu.{info.name}" for info in pkgutil.iter_modules(rankedu.__path__))]
)
# Private modules (_validation, _steps) are no one's API; their examples are run, not required.
PUBLIC_MODULES = [name for name in MODULES if not name.rsplit(".", 1)[-1].startswith("_")]
FLAGS = doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS


def public_functions(module):
    """Functions a module defines and offers: its __all__, or its names without a leading _."""
    names = getattr(module, "__all__", None)
    if names is None:
        names = [name for name in vars(module) if not name.startswith("_")]
    functions = {}
    for name in names:
        obj = getattr(module, name)
        if inspect.isfunction(obj) and obj.__module__ == module.__name__:
            functions[name] = obj
    return functions


@pytest.mark.parametrize("name", MODULES)
def test_module_doctests_pass(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=FLAGS, verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples of {name} failed"


@pytest.mark.parametrize("name", PUBLIC_MODULES)
def test_every_public_function_has_an_examples_section_that_doctest_runs(name):
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner(optionflags=FLAGS, verbose=False)
    missing, unrun, failing = [], [], []
    for function_name, function in public_functions(module).items():
        if "Examples" not in (function.__doc__ or ""):
            missing.append(function_name)
            continue
        attempted = failed = 0
        for test in finder.find(function, f"{name}.{function_name}", module=module,
                                globs=dict(vars(module))):
            outcome = runner.run(test, out=lambda _: None)
            attempted += outcome.attempted
            failed += outcome.failed
        if attempted == 0:
            unrun.append(function_name)
        if failed:
            failing.append(function_name)
    assert not missing, f"{name}: no Examples section in {missing}"
    assert not unrun, f"{name}: Examples section runs no example in {unrun}"
    assert not failing, f"{name}: failing examples in {failing}"
