"""Tests of rankedu/logs/engines.py: the engine is chosen by the type of ``data``, and a log
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


# --- what the second reliability review found (D2, D4, D5, D7, D8) ------------------------------

LOG = pd.DataFrame({"u": ["a", "a", "b", "b"], "y": [1, 0, 1, 0], "s": [.9, .1, .2, .8],
                    "r": [1, 0, 2, 0]})


@pytest.mark.parametrize("call", [
    lambda: logs.gauc(LOG, group="u", label="y", score=None),
    lambda: logs.auc(LOG, label="y", score=None),
    lambda: logs.ndcg(LOG, group="u", score=None, grade="r"),
    lambda: logs.gauc(LOG, group=None, label="y", score="s"),
    lambda: logs.gauc_groups(LOG, group=None, label="y", score="s"),
    lambda: logs.gauc(LOG, group="u", label=None, score="s"),
    lambda: logs.ndcg_groups(LOG, group="u", score="s", grade=None),
])
def test_none_for_a_column_is_a_type_error_not_a_constant_column(call):
    # score=None gave a made-up AUC of 0.5 (every score tied); group=None a whole-log AUC.
    with pytest.raises(TypeError, match=r"^(group|label|score|grade) must be a column name "
                                        r"\(str\), got None"):
        call()


def test_nan_group_ids_are_an_error_in_arrow_and_parquet_as_in_rk_gauc(tmp_path):
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    table = pa.table({"u": pa.array(np.array([np.nan, np.nan, 1.0, 1.0])), "y": [1, 0, 1, 0],
                      "s": [.9, .1, .2, .8]})
    pq.write_table(table, tmp_path / "nan_group.parquet")
    for data in (table, tmp_path / "nan_group.parquet"):
        with pytest.raises(ValueError, match=r"group: column 'u' holds 2 missing values "
                                             r"\(NULL or NaN\)"):
            logs.gauc(data, group="u", label="y", score="s")


def test_mixed_kinds_of_group_ids_are_a_type_error_as_in_rk_gauc():
    # DuckDB casts the column to VARCHAR, so that 1 and "1" would be one group.
    log = LOG.assign(u=pd.Series(["a", 1, "a", 1], dtype=object))
    with pytest.raises(TypeError, match="group: column 'u' must hold ids of one type"):
        logs.gauc(log, group="u", label="y", score="s")


def test_int64_and_decimal_scores_are_compared_exactly():
    # Cast to DOUBLE, 2**53 + 1 and 2**53 tied: an AUC of 0.5 where scikit-learn says 1.0.
    log = pd.DataFrame({"y": [1, 0], "s": np.array([2**53 + 1, 2**53], dtype=np.int64)})
    assert logs.auc(log, label="y", score="s") == 1.0
    pa = pytest.importorskip("pyarrow")
    from decimal import Decimal

    scores = pa.array([Decimal("0.10000000000000000001"), Decimal("0.1")],
                      type=pa.decimal128(38, 20))
    assert logs.auc(pa.table({"y": [1, 0], "s": scores}), label="y", score="s") == 1.0
    # Near 2**60 doubles are 256 apart: cast, all four scores tie (AUC 0.5); exactly, three
    # of the four positive-negative pairs are ordered, as with the scores 1, 0, 3, 2.
    big = 2**60
    log = pd.DataFrame({"y": [1, 0, 1, 0], "s": np.array([big + 1, big, big + 3, big + 2])})
    assert logs.auc(log, label="y", score="s") == 0.75
    assert logs.auc(log.assign(s=[1, 0, 3, 2]), label="y", score="s") == 0.75


def test_a_callers_table_named_rankedu_log_is_not_read_instead_of_the_log():
    duckdb = pytest.importorskip("duckdb")
    connection = duckdb.connect()
    connection.execute("CREATE TABLE rankedu_log AS SELECT 42 AS answer")
    value = logs.gauc(connection.from_df(LOG), group="u", label="y", score="s")
    assert value == 0.5
    assert connection.execute("SELECT answer FROM rankedu_log").fetchall() == [(42,)]


def test_missing_and_corrupt_paths_are_os_and_value_errors_naming_the_path(tmp_path):
    with pytest.raises(FileNotFoundError, match="data: no file matches .*nowhere"):
        logs.auc(str(tmp_path / "nowhere" / "*.parquet"), label="y", score="s")
    corrupt = tmp_path / "corrupt.parquet"
    corrupt.write_text("not parquet at all")
    with pytest.raises(ValueError, match="data: .*corrupt.parquet' cannot be read as Parquet"):
        logs.auc(corrupt, label="y", score="s")


def test_a_frame_without_columns_or_with_a_duplicated_name_is_a_value_error():
    with pytest.raises(ValueError, match="data: the DataFrame has no column"):
        logs.auc(pd.DataFrame(), label="y", score="s")
    twice = pd.DataFrame([[1, 0.5, 1], [0, 0.2, 0]], columns=["y", "s", "y"])
    with pytest.raises(ValueError, match="label: data has 2 columns named 'y'"):
        logs.auc(twice, label="y", score="s")
