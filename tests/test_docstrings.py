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
import re
from pathlib import Path

import pytest

import rankedu

# The plotting module's examples draw figures; never open a window.
os.environ.setdefault("MPLBACKEND", "Agg")

MODULES = sorted(
    ["rankedu", *(info.name for info in pkgutil.walk_packages(rankedu.__path__, "rankedu."))]
)
# A module is public when it declares __all__ (CONTRIBUTING.md, "Layout"); the others
# (rankedu.core.validation, rankedu.trec.load...) are no one's API: their examples are run,
# not required.
PUBLIC_MODULES = [name for name in MODULES if hasattr(importlib.import_module(name), "__all__")]
FLAGS = doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS


def public_functions(module):
    """Functions a public module defines and offers in its __all__."""
    functions = {}
    for name in module.__all__:
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


# Public modules whose functions need not name sources of their own, and why.
UNREFERENCED_MODULES = {
    "rankedu.cli": "main is the command line; what it computes cites its sources where defined",
    "rankedu.explain": "each explanation shows a metric whose function cites the sources",
}
# Every other public module that defines public functions names their sources (issue 11): each
# function has a numpydoc References section whose entries start with the key of an entry of
# book/references.bib. A new module is in this list from its first function.
REFERENCED_MODULES = [
    name for name in PUBLIC_MODULES
    if name not in UNREFERENCED_MODULES and public_functions(importlib.import_module(name))
]
BIB = Path(__file__).resolve().parents[1] / "book" / "references.bib"


def bibliography_keys():
    return set(re.findall(r"^@\w+\{([^,\s]+),", BIB.read_text(encoding="utf-8"), re.M))


@pytest.mark.parametrize("name", REFERENCED_MODULES)
def test_every_public_function_has_references_keyed_to_the_books_bibliography(name):
    module = importlib.import_module(name)
    keys = bibliography_keys()
    missing, unknown = [], {}
    for function_name, function in public_functions(module).items():
        doc = inspect.getdoc(function) or ""
        section = re.search(r"^References\n-{10}\n(.*?)(?:\n\n[A-Z][a-z]+\n-{3,}\n|\Z)", doc, re.S | re.M)
        cited = re.findall(r"^- ``([^`]+)``:", section.group(1), re.M) if section else []
        if not cited:
            missing.append(function_name)
        if set(cited) - keys:
            unknown[function_name] = sorted(set(cited) - keys)
    assert not missing, f"{name}: no References section citing a bibliography key in {missing}"
    assert not unknown, f"{name}: keys not in book/references.bib: {unknown}"


def test_no_help_text_of_the_metrics_speaks_of_the_seeds():
    # Readers of help() have not read the blog posts the book starts from.
    for name in REFERENCED_MODULES + ["rankedu.explain"]:
        module = importlib.import_module(name)
        texts = [module.__doc__ or ""] + [f.__doc__ or "" for f in public_functions(module).values()]
        # "seed 003", "the seeds' ranking" (a random seed, as simulate_cascade's, is fine).
        assert not any(re.search(r"\bseed \d{3}\b|\bseeds\b|\bseeds'", text) for text in texts), name
