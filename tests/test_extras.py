"""Tests of rankedu/core/extras.py: a missing optional dependency says which extra installs it,
in rankedu.logs (DuckDB), rankedu.teaching.plotting (matplotlib) and rankedu.teaching.symbolic
(sympy). The import is made to fail with ``sys.modules[name] = None``."""

import importlib
import sys
import tomllib
from pathlib import Path

import pandas as pd
import pytest

from rankedu import logs


def test_logs_without_duckdb_says_pip_install_rankedu_logs(monkeypatch):
    monkeypatch.setitem(sys.modules, "duckdb", None)
    log = pd.DataFrame({"user": ["a", "a"], "clicked": [1, 0], "score": [0.9, 0.1]})
    with pytest.raises(ImportError, match=r'pip install "rankedu\[logs\]"'):
        logs.gauc(log, group="user", label="clicked", score="score")


def test_plotting_without_matplotlib_says_pip_install_rankedu_plot(monkeypatch):
    from rankedu.teaching import plotting

    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    with pytest.raises(ImportError, match=r'pip install "rankedu\[plot\]"'):
        plotting.plot_discounts(5)


@pytest.mark.parametrize("module", ["rankedu.teaching.symbolic", "rankedu.teaching.symbolic_auc"])
def test_symbolic_without_sympy_says_pip_install_rankedu_symbolic(monkeypatch, module):
    monkeypatch.setitem(sys.modules, "sympy", None)
    for name in ("rankedu.teaching.symbolic", "rankedu.teaching.symbolic_auc"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    with pytest.raises(ModuleNotFoundError, match=r'pip install "rankedu\[symbolic\]"') as error:
        importlib.import_module(module)
    assert error.value.name == "sympy"


def test_every_extra_named_is_one_that_pyproject_declares():
    extras = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text())
    declared = extras["project"]["optional-dependencies"]
    assert {"logs", "plot", "symbolic"} <= declared.keys()
