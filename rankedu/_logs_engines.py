"""How :mod:`rankedu.logs` runs its SQL texts: the engines and the checks of the log.

Each engine (DuckDB for DataFrames, Arrow tables, relations and Parquet/CSV paths; Spark SQL for
a Spark DataFrame) renames the caller's columns to the roles g (group), y (label), s (score)
and r (grade) the SQL texts of :mod:`rankedu.logs` read, checks every column in one pass
before the metric runs, and returns the result. Neither engine is imported before a call.
"""

from __future__ import annotations

import itertools
import os
import sys
import warnings

import pandas as pd

SUPPORTED = ("a pandas DataFrame, a pyarrow Table, a DuckDB relation, a path (str or "
             "os.PathLike) to Parquet or CSV files, or a pyspark.sql.DataFrame")

# The checks of each column the metric reads, counted in one pass before it runs.
_INFINITY = "CAST('Infinity' AS DOUBLE)"
_CHECKS = {
    "g": [("missing values (NULL)", "g IS NULL")],
    "y": [("missing values (NULL or NaN)", "y IS NULL OR isnan(y)"),
          ("values other than 0 and 1", "y NOT IN (0, 1)")],
    "s": [("missing values (NULL or NaN)", "s IS NULL OR isnan(s)"),
          ("infinite values", f"abs(s) = {_INFINITY}")],
    "r": [("missing values (NULL or NaN)", "r IS NULL OR isnan(r)"),
          ("infinite values", f"abs(r) = {_INFINITY}"),
          ("negative values", "r < 0")],
}

_NUMERIC_TYPES = {"tinyint", "smallint", "int", "integer", "bigint", "hugeint", "utinyint",
                  "usmallint", "uinteger", "ubigint", "uhugeint", "float", "real", "double",
                  "decimal", "boolean"}

# --- The engines: each renames the caller's columns and runs the SQL text. ------------------


class _DuckDB:
    """A log read by DuckDB: a relation of the caller's, or one on a fresh in-memory database."""

    def __init__(self, data):
        import duckdb

        self.connection, self.log = None, None
        if isinstance(data, duckdb.DuckDBPyRelation):
            self.relation = data
            return
        self.connection = duckdb.connect()
        if isinstance(data, pd.DataFrame):
            self.relation = self.connection.from_df(data)
        elif isinstance(data, (str, os.PathLike)):
            path = os.fspath(data)
            name = path.lower()
            if name.endswith((".parquet", ".parq")):
                self.relation = self.connection.read_parquet(path)
            elif name.endswith((".csv", ".csv.gz", ".tsv", ".tsv.gz")):
                self.relation = self.connection.read_csv(path)
            else:
                raise ValueError(f"data: a path must name Parquet (.parquet) or CSV (.csv, "
                                 f".tsv, optionally .gz) files, got {path!r}")
        else:
            self.relation = self.connection.from_arrow(data)

    def columns(self) -> dict[str, str]:
        return dict(zip(self.relation.columns, map(str, self.relation.types)))

    def use(self, expressions: dict[str, str]) -> None:
        quoted = {role: '"' + column.replace('"', '""') + '"' if column else "0"
                  for role, column in expressions.items()}
        self.log = self.relation.project(", ".join(
            f"{value} AS {role}" if role == "g" else f"CAST({value} AS DOUBLE) AS {role}"
            for role, value in quoted.items()))

    def rows(self, sql: str) -> list[tuple]:
        return self.log.query("rankedu_log", sql.format(log="rankedu_log")).fetchall()

    def frame(self, sql: str) -> pd.DataFrame:
        return self.log.query("rankedu_log", sql.format(log="rankedu_log")).df()

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()


class _Spark:
    """A log in a Spark DataFrame, registered as a temporary view of its own session."""

    _numbers = itertools.count()

    def __init__(self, data):
        self.data = data
        self.session = data.sparkSession
        self.view = None

    def columns(self) -> dict[str, str]:
        return dict(self.data.dtypes)

    def use(self, expressions: dict[str, str]) -> None:
        from pyspark.sql import functions

        columns = []
        for role, column in expressions.items():
            value = functions.col("`" + column.replace("`", "``") + "`") if column \
                else functions.lit(0)
            columns.append((value if role == "g" else value.cast("double")).alias(role))
        self.view = f"rankedu_log_{os.getpid()}_{next(self._numbers)}"
        self.data.select(*columns).createOrReplaceTempView(self.view)

    def rows(self, sql: str) -> list[tuple]:
        return [tuple(row) for row in self.session.sql(sql.format(log=self.view)).collect()]

    def frame(self, sql: str) -> pd.DataFrame:
        # One row per group, built here rather than by toPandas, which needs pyarrow's or
        # pandas' versions to match Spark's and warns about pandas 3.
        result = self.session.sql(sql.format(log=self.view))
        return pd.DataFrame.from_records([tuple(row) for row in result.collect()],
                                         columns=result.columns)

    def close(self) -> None:
        if self.view is not None:
            self.session.catalog.dropTempView(self.view)


def _engine(data):
    """The engine for ``data``, or TypeError listing the inputs this module reads."""
    kind = type(data)
    if kind.__module__.startswith("pyspark.sql") and kind.__name__ == "DataFrame":
        return _Spark(data)
    duckdb, pyarrow = sys.modules.get("duckdb"), sys.modules.get("pyarrow")
    if (isinstance(data, (pd.DataFrame, str, os.PathLike))
            or (duckdb is not None and isinstance(data, duckdb.DuckDBPyRelation))
            or (pyarrow is not None and isinstance(data, pyarrow.Table))):
        return _DuckDB(data)
    raise TypeError(f"data must be {SUPPORTED}; got {kind.__module__}.{kind.__name__}")


# The argument that names each role's column, for error messages.
_ARGUMENT = {"g": "group", "y": "label", "s": "score", "r": "grade"}


def _open(data, **columns):
    """The engine, with ``data``'s columns renamed to the roles of the SQL text and checked.

    ``columns`` maps each role (g, y, s, r) to the caller's column name; a group of ``None``
    makes the whole log one group."""
    for role, column in columns.items():
        if column is not None and not isinstance(column, str):
            raise TypeError(f"{_ARGUMENT[role]} must be a column name (str), got "
                            f"{column!r} ({type(column).__name__})")
    engine = _engine(data)
    try:
        types = engine.columns()
        for role, column in columns.items():
            if column is None:
                continue
            if column not in types:
                raise ValueError(f"{_ARGUMENT[role]}: no column {column!r} in data; its "
                                 f"columns are {', '.join(map(repr, types))}")
            if role != "g" and types[column].lower().split("(")[0] not in _NUMERIC_TYPES:
                raise TypeError(f"{_ARGUMENT[role]}: column {column!r} must hold numbers, "
                                f"got {types[column]}")
        engine.use(columns)
        _check(engine, columns)
    except BaseException:
        engine.close()
        raise
    return engine


def _check(engine, columns) -> None:
    """Raise ValueError naming the column when a column holds a value the metric cannot read."""
    checks = [(role, problem, condition) for role in columns if columns[role] is not None
              for problem, condition in _CHECKS[role]]
    sql = "SELECT COUNT(*), " + ", ".join(
        f"SUM(CASE WHEN {condition} THEN 1 ELSE 0 END)" for _, _, condition in checks
    ) + " FROM {log}"
    total, *counts = engine.rows(sql)[0]
    if total == 0:
        raise ValueError("data: the log is empty (no row)")
    for (role, problem, _), count in zip(checks, counts):
        if count:
            raise ValueError(f"{_ARGUMENT[role]}: column {columns[role]!r} holds {count} "
                             f"{problem} in {total} rows")


def _run(data, sql, columns, frame=False):
    engine = _open(data, **columns)
    try:
        return engine.frame(sql) if frame else engine.rows(sql)[0]
    finally:
        engine.close()


def _left_out(metric: str, left_out: int, total: int, why: str) -> None:
    if left_out:
        warnings.warn(f"{metric}: {left_out} of {total} groups {why} and are left out",
                      UserWarning, stacklevel=3)
