"""Tests of rankedu/_logs_engines.py: the engine is chosen by the type of ``data``, and a log
the SQL cannot read (a column missing, missing or infinite values, labels other than 0 and 1,
negative grades, strings, no row) is an error naming the argument, before the metric runs; each
through the public functions of ``rankedu.logs``. Spark's errors are tested in test_logs.py,
beside its shared session."""

import numpy as np
import pandas as pd
import pytest

from conftest import SMALL_LOG
from rankedu import logs


@pytest.mark.parametrize("argument, column", [("group", "uid"), ("label", "click"),
                                              ("score", "pred")])
def test_a_missing_column_is_a_value_error_naming_it(argument, column):
    names = {"group": "user", "label": "clicked", "score": "score", argument: column}
    with pytest.raises(ValueError, match=f"{argument}: no column '{column}'"):
        logs.gauc(SMALL_LOG, **names)


@pytest.mark.parametrize("column, values, problem", [
    ("clicked", [1, 0, 2, 0], "values other than 0 and 1"),
    ("clicked", [1.0, 0.0, np.nan, 0.0], "missing values"),
    ("clicked", pd.array([1, 0, None, 0], dtype="Int64"), "missing values"),
    ("score", [0.3, np.nan, 0.2, 0.4], "missing values"),
    ("score", [0.3, np.inf, 0.2, 0.4], "infinite values"),
    ("user", [1, None, 2, 2], "missing values"),
])
def test_bad_values_are_a_value_error_naming_the_column(column, values, problem):
    log = SMALL_LOG.assign(**{column: values})
    with pytest.raises(ValueError, match=f"column '{column}' holds 1 {problem}"):
        logs.gauc(log, group="user", label="clicked", score="score")


@pytest.mark.parametrize("values, problem", [([2, 0, -1, 0], "negative values"),
                                             ([2, 0, np.nan, 0], "missing values")])
def test_bad_grades_are_a_value_error_naming_the_column(values, problem):
    with pytest.raises(ValueError, match=f"grade: column 'grade' holds 1 {problem}"):
        logs.ndcg(SMALL_LOG.assign(grade=values), group="user", score="score", grade="grade")


def test_a_column_of_strings_is_a_type_error_naming_it():
    with pytest.raises(TypeError, match="label: column 'clicked' must hold numbers"):
        logs.auc(SMALL_LOG.assign(clicked=["1", "0", "1", "0"]), label="clicked", score="score")


def test_empty_data_is_a_value_error():
    with pytest.raises(ValueError, match="data: the log is empty"):
        logs.auc(SMALL_LOG.iloc[:0], label="clicked", score="score")


@pytest.mark.parametrize("data", [[1, 0], {"clicked": [1, 0]}, np.zeros((2, 2)), None])
def test_an_unsupported_data_type_is_a_type_error_listing_the_supported_ones(data):
    with pytest.raises(TypeError, match="pandas DataFrame, a pyarrow Table, a DuckDB relation"):
        logs.auc(data, label="clicked", score="score")


def test_a_path_of_another_format_is_a_value_error(tmp_path):
    with pytest.raises(ValueError, match="data: a path must name Parquet"):
        logs.auc(tmp_path / "log.json", label="clicked", score="score")
