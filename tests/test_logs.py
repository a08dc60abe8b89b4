"""Tests of rankedu/logs/metrics.py: AUC, GAUC and nDCG over logs, on DuckDB and on Spark (local[2]).

Both engines run the same SQL text; each is compared with the per-list functions
(rk.roc_auc, rk.gauc, rk.ndcg) and with scikit-learn on generated logs full of tied scores,
groups of a single class and groups of one row. Spark starts once for the module (a few
seconds) and its tests share one log, to keep the suite short.
"""

import subprocess
import sys
import warnings

import duckdb
import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import ndcg_score, roc_auc_score

import rankedu as rk
from conftest import SMALL_LOG
from rankedu import logs


def generated_log(seed, n_rows=400, n_groups=60, n_scores=4, one_class_groups=5):
    """A log with few distinct scores (many ties), one-class groups and one-row groups."""
    rng = np.random.default_rng(seed)
    user = rng.integers(0, n_groups, n_rows)
    clicked = rng.integers(0, 2, n_rows)
    # The first groups hold a single class: all clicked or none.
    clicked[user < one_class_groups] = (user[user < one_class_groups] % 2)
    return pd.DataFrame({
        "user": np.r_[user, n_groups, n_groups + 1],           # two groups of one row
        "clicked": np.r_[clicked, 1, 0],
        "score": np.r_[rng.integers(0, n_scores, n_rows) / n_scores, 0.5, 0.5],
        "grade": np.r_[rng.integers(0, 4, n_rows) * (rng.random(n_rows) < 0.5), 2, 0],
    })


def sklearn_gauc(log, weight):
    """GAUC as pandas groupby + scikit-learn's roc_auc_score, the groups of one class left out."""
    sums = []
    for _, rows in log.groupby("user"):
        if rows["clicked"].nunique() == 2:
            w = {"impressions": len(rows), "clicks": rows["clicked"].sum(), "uniform": 1}[weight]
            sums.append((w * roc_auc_score(rows["clicked"], rows["score"]), w))
    numerators, denominators = zip(*sums)
    return sum(numerators) / sum(denominators)


def reference_ndcg(log, k):
    """Per group: scikit-learn's tie-averaged ndcg_score (rk.ndcg for a group of one row, which
    ndcg_score refuses), the groups without a positive grade left out."""
    values = {}
    for user, rows in log.groupby("user"):
        grades, scores = rows["grade"].to_numpy(float), rows["score"].to_numpy(float)
        if grades.max() <= 0:
            continue
        if len(rows) == 1:
            values[user] = rk.ndcg(grades, k, pool=grades)
        else:
            values[user] = ndcg_score([grades], [scores], k=k)
    return values


def left_out_count(caught, metric):
    messages = [str(w.message) for w in caught if str(w.message).startswith(metric)]
    assert len(messages) <= 1
    return int(messages[0].split()[1]) if messages else 0


def call(function, *args, **kwargs):
    """The function's value and the warnings it gave."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = function(*args, **kwargs)
    return value, caught


# --- DuckDB against the references ----------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n_rows=st.integers(2, 300),
       n_groups=st.integers(1, 40), n_scores=st.integers(1, 6),
       weight=st.sampled_from(["impressions", "clicks", "uniform"]))
def test_duckdb_gauc_equals_rk_gauc_on_logs_with_ties_and_one_class_groups(
        seed, n_rows, n_groups, n_scores, weight):
    log = generated_log(seed, n_rows, n_groups, n_scores, one_class_groups=2)
    arguments = {"group": "user", "label": "clicked", "score": "score", "weight": weight}
    try:
        expected = rk.gauc(log.user, log.clicked, log.score, weight=weight)
    except ValueError:
        with pytest.raises(ValueError, match="no group holds both classes"):
            call(logs.gauc, log, **arguments)
        return
    value, caught = call(logs.gauc, log, **arguments)
    assert value == pytest.approx(expected, abs=1e-12)
    skipped = rk.explain.gauc(log.user, log.clicked, log.score).tables["skipped"]
    assert left_out_count(caught, "gauc") == len(skipped) > 0


@pytest.mark.parametrize("weight", ["impressions", "clicks", "uniform"])
def test_duckdb_gauc_equals_pandas_groupby_with_sklearn_roc_auc_score(weight):
    log = generated_log(1)
    value, _ = call(logs.gauc, log, group="user", label="clicked", score="score", weight=weight)
    assert value == pytest.approx(sklearn_gauc(log, weight), abs=1e-12)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n_rows=st.integers(2, 300), n_scores=st.integers(1, 6))
def test_duckdb_auc_equals_rk_roc_auc_exactly(seed, n_rows, n_scores):
    log = generated_log(seed, n_rows, 10, n_scores)
    # rk.roc_auc rounds the exact 2U/(2 n+ n-) once; so does the SQL.
    assert logs.auc(log, label="clicked", score="score") == rk.roc_auc(log.clicked, log.score)
    one_class = log[log.clicked == 1]
    with pytest.raises(ValueError, match="must hold both classes"):
        rk.roc_auc(one_class.clicked, one_class.score)
    with pytest.raises(ValueError, match="must hold both classes"):
        logs.auc(one_class, label="clicked", score="score")


def test_auc_counts_a_tie_between_positive_and_negative_as_one_half_and_zeros_of_both_signs_tie():
    log = pd.DataFrame({"clicked": [1, 0, 1, 0], "score": [0.0, -0.0, 1.0, 1.0]})
    assert logs.auc(log, label="clicked", score="score") == 0.5 == rk.roc_auc(
        log.clicked, log.score)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n_rows=st.integers(2, 300),
       n_groups=st.integers(1, 40), n_scores=st.integers(1, 6),
       k=st.one_of(st.none(), st.integers(1, 12)))
def test_duckdb_ndcg_equals_sklearn_ndcg_score_per_group_with_tied_scores(
        seed, n_rows, n_groups, n_scores, k):
    log = generated_log(seed, n_rows, n_groups, n_scores)
    reference = reference_ndcg(log, k)
    table = logs.ndcg_groups(log, group="user", score="score", grade="grade", k=k)
    used = table[table["weight"] == 1]
    assert list(used["user"]) == sorted(reference)
    assert np.allclose(used["nDCG"], [reference[u] for u in used["user"]], rtol=0, atol=1e-12)
    if reference:
        value, caught = call(logs.ndcg, log, group="user", score="score", grade="grade", k=k)
        assert value == pytest.approx(np.mean(list(reference.values())), abs=1e-12)
        assert left_out_count(caught, "ndcg") == len(table) - len(reference)


def test_ndcg_of_groups_without_ties_equals_rk_ndcg_of_the_group_in_score_order():
    rng = np.random.default_rng(7)
    log = pd.DataFrame({"query": rng.integers(0, 20, 300), "score": rng.permutation(300),
                        "grade": rng.integers(0, 4, 300)})
    table = logs.ndcg_groups(log, group="query", score="score", grade="grade", k=5)
    for _, row in table[table["weight"] == 1].iterrows():
        rows = log[log["query"] == row["query"]].sort_values("score", ascending=False)
        assert row["nDCG"] == pytest.approx(rk.ndcg(rows.grade, 5, pool=rows.grade), abs=1e-12)


def test_gauc_groups_table_matches_rk_explain_gauc_row_for_row():
    log = generated_log(3)
    table = logs.gauc_groups(log, group="user", label="clicked", score="score", weight="clicks")
    explained = rk.explain.gauc(log.user, log.clicked, log.score, weight="clicks")
    groups = explained.tables["groups"]
    used = table[table["AUC"].notna()].reset_index(drop=True)
    assert list(used["user"]) == list(groups["group"])
    assert list(used["AUC"]) == list(groups["AUC"])
    assert list(used["weight"]) == list(groups["weight"])
    assert list(table.loc[table["AUC"].isna(), "user"]) == list(explained.tables["skipped"]["group"])
    assert (table.loc[table["AUC"].isna(), "weight"] == 0).all()


# --- Every input DuckDB reads gives the same numbers ------------------------------------------


def test_every_duckdb_input_gives_the_same_gauc(tmp_path):
    log = generated_log(5)
    log.iloc[:200].to_parquet(tmp_path / "part-0.parquet")
    log.iloc[200:].to_parquet(tmp_path / "part-1.parquet")
    log.to_csv(tmp_path / "log.csv", index=False)
    connection = duckdb.connect()
    inputs = [log, pa.Table.from_pandas(log), connection.from_df(log),
              str(tmp_path / "*.parquet"), tmp_path / "log.csv"]
    expected = rk.gauc(log.user, log.clicked, log.score)
    for data in inputs:
        value, _ = call(logs.gauc, data, group="user", label="clicked", score="score")
        assert value == pytest.approx(expected, abs=1e-12), type(data)


# --- Bad input ------------------------------------------------------------------------------


def test_a_single_class_and_no_two_class_group_are_value_errors():
    with pytest.raises(ValueError, match="label: column 'clicked' must hold both classes"):
        logs.auc(SMALL_LOG.assign(clicked=1), label="clicked", score="score")
    with pytest.raises(ValueError, match="no group holds both classes"):
        logs.gauc(SMALL_LOG.assign(clicked=[1, 1, 0, 0]), group="user", label="clicked",
                  score="score")
    with pytest.raises(ValueError, match="grade: no group has a positive grade"):
        logs.ndcg(SMALL_LOG.assign(grade=0), group="user", score="score", grade="grade")


def test_bad_weight_and_cutoff_are_errors_naming_them():
    with pytest.raises(ValueError, match="weight must be one of"):
        logs.gauc(SMALL_LOG, group="user", label="clicked", score="score", weight="users")
    with pytest.raises(ValueError, match="k must be an int >= 1"):
        logs.ndcg(SMALL_LOG, group="user", score="score", grade="grade", k=0)
    with pytest.raises(TypeError, match="k must be an int >= 1"):
        logs.ndcg(SMALL_LOG, group="user", score="score", grade="grade", k=2.5)
    with pytest.raises(TypeError, match="score must be a column name"):
        logs.auc(SMALL_LOG, label="clicked", score=2)


def test_import_rankedu_imports_neither_duckdb_nor_pyspark():
    code = ("import sys, rankedu; from rankedu import logs; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('duckdb', 'pyspark')))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True)
    assert result.stdout.strip() == "[]"


# --- Spark (local[2]): the same SQL, the same numbers -------------------------------------------

# make test runs the package tests in two processes (pytest-xdist, --dist loadfile): this
# file's tests stay in one, so that one JVM is started, once.


@pytest.fixture(scope="module")
def spark():
    from pyspark.sql import SparkSession

    session = (SparkSession.builder.master("local[2]").appName("rankedu-tests")
               .config("spark.sql.shuffle.partitions", "4")
               .config("spark.ui.enabled", "false")
               .config("spark.ui.showConsoleProgress", "false")
               .getOrCreate())
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


@pytest.fixture(scope="module")
def spark_log(spark):
    log = generated_log(11, n_rows=600, n_groups=50, n_scores=3)
    return log, spark.createDataFrame(
        [(int(user), int(clicked), float(score), float(grade))
         for user, clicked, score, grade in log.itertuples(index=False)],
        schema="user long, clicked long, score double, grade double")


def test_spark_gauc_and_auc_equal_the_references_and_duckdb(spark_log):
    log, frame = spark_log
    # "clicks" is checked group by group by the per-group tables below.
    for weight in ["impressions", "uniform"]:
        value, caught = call(logs.gauc, frame, group="user", label="clicked", score="score",
                             weight=weight)
        assert value == pytest.approx(rk.gauc(log.user, log.clicked, log.score, weight=weight),
                                      abs=1e-12)
        assert left_out_count(caught, "gauc") == len(
            rk.explain.gauc(log.user, log.clicked, log.score).tables["skipped"])
    assert logs.auc(frame, label="clicked", score="score") == rk.roc_auc(log.clicked, log.score)


def test_spark_ndcg_equals_sklearn_per_group(spark_log):
    log, frame = spark_log
    for k in [None, 3]:
        reference = reference_ndcg(log, k)
        value, caught = call(logs.ndcg, frame, group="user", score="score", grade="grade", k=k)
        assert value == pytest.approx(np.mean(list(reference.values())), abs=1e-12)
        assert left_out_count(caught, "ndcg") == log.user.nunique() - len(reference)


def test_spark_per_group_tables_equal_duckdb_tables(spark_log):
    log, frame = spark_log
    arguments = {"group": "user", "label": "clicked", "score": "score", "weight": "clicks"}
    pd.testing.assert_frame_equal(logs.gauc_groups(frame, **arguments),
                                  logs.gauc_groups(log, **arguments), rtol=0, atol=1e-12,
                                  check_dtype=False)
    arguments = {"group": "user", "score": "score", "grade": "grade", "k": 4}
    pd.testing.assert_frame_equal(logs.ndcg_groups(frame, **arguments),
                                  logs.ndcg_groups(log, **arguments), rtol=0, atol=1e-12,
                                  check_dtype=False)


def test_spark_bad_input_is_the_same_error(spark, spark_log):
    _, frame = spark_log
    with pytest.raises(ValueError, match="label: no column 'click'"):
        logs.auc(frame, label="click", score="score")
    bad = spark.createDataFrame([(1, 1, 0.5), (1, None, 0.2)],
                                schema="user long, clicked long, score double")
    with pytest.raises(ValueError, match="column 'clicked' holds 1 missing values"):
        logs.gauc(bad, group="user", label="clicked", score="score")
    with pytest.raises(TypeError, match="label: column 'user' must hold numbers"):
        logs.auc(bad.selectExpr("CAST(user AS STRING) AS user", "score"), label="user",
                 score="score")


def test_huge_grades_inside_a_tie_do_not_overflow():
    # SUM(r) of a tie of two grades of 1e308 was inf; the grades are divided by a power of two.
    log = pd.DataFrame({"u": ["a"] * 3, "s": [1, 1, .5], "r": [1e308, 1e308, 0]})
    assert logs.ndcg(log, group="u", score="s", grade="r") == rk.ndcg([1e308, 1e308]) == 1.0
    table = logs.ndcg_groups(log, group="u", score="s", grade="r")
    assert table["DCG"].iloc[0] == table["IDCG"].iloc[0] == pytest.approx(1e308 * (1 + 1 / np.log2(3)))


def test_spark_refuses_none_columns_nan_groups_duplicates_and_reads_int64_scores(spark):
    frame = spark.createDataFrame([("a", 1, 0.9), ("a", 0, 0.1), ("b", 1, 0.2), ("b", 0, 0.8)],
                                  schema="u string, y long, s double")
    with pytest.raises(TypeError, match=r"^score must be a column name \(str\), got None"):
        logs.gauc(frame, group="u", label="y", score=None)
    nan_groups = spark.createDataFrame([(float("nan"), 1, 0.9), (float("nan"), 0, 0.1),
                                        (1.0, 1, 0.2), (1.0, 0, 0.8)],
                                       schema="u double, y long, s double")
    with pytest.raises(ValueError, match="group: column 'u' holds 2 missing values"):
        logs.gauc(nan_groups, group="u", label="y", score="s")
    twice = frame.select("u", "y", "s", frame["y"])
    with pytest.raises(ValueError, match="label: data has 2 columns named 'y'"):
        logs.auc(twice, label="y", score="s")
    exact = spark.createDataFrame([(1, 2**53 + 1), (0, 2**53)], schema="y long, s long")
    assert logs.auc(exact, label="y", score="s") == 1.0


def test_sql_returns_the_text_the_functions_run_and_it_runs_on_duckdb_as_is():
    duckdb = pytest.importorskip("duckdb")
    log = generated_log(3, n_rows=200, n_groups=15)
    renamed = log.rename(columns={"user": "g", "clicked": "y", "score": "s", "grade": "r"})
    connection = duckdb.connect()
    connection.register("my_log", renamed)
    table = connection.execute(logs.sql("gauc_groups").format(log="my_log")).df()
    expected = logs.gauc_groups(log, group="user", label="clicked", score="score")
    assert table["auc"].tolist() == pytest.approx(expected["AUC"].tolist(), nan_ok=True)
    row = connection.execute(logs.sql("ndcg", k=5).format(log="my_log")).fetchall()[0]
    n_groups, n_used, ndcg_sum = row
    with pytest.warns(UserWarning):
        value = logs.ndcg(log, group="user", score="score", grade="grade", k=5)
    # DuckDB sums doubles in threads, so the last bits can differ from run to run.
    assert ndcg_sum / n_used == pytest.approx(value, rel=1e-12)
    with pytest.raises(ValueError, match="^metric must be one of 'auc', 'gauc'"):
        logs.sql("map")
    with pytest.raises(ValueError, match="^k must be an int >= 1"):
        logs.sql("ndcg", k=0)
    with pytest.raises(ValueError, match="^k: only nDCG's texts take a cutoff"):
        logs.sql("gauc", k=10)
