"""How :mod:`rankedu.logs` runs its SQL texts: the engines and the checks of the log.

Each engine (DuckDB for DataFrames, Arrow tables, relations and Parquet/CSV paths; Spark SQL for
a Spark DataFrame) renames the caller's columns to the roles g (group), y (label), s (score)
and r (grade) the SQL texts of :mod:`rankedu.logs` read, checks every column in one pass
before the metric runs, and returns the result. Neither engine is imported before a call.

Labels and grades are read as DOUBLE; scores keep their own numeric type, so that int64 scores
above 2**53 and DECIMAL scores are compared exactly (a cast to DOUBLE would tie them). A group
id keeps its type too; NaN in a floating-point group column, like NULL, is an error, and so are
ids of mixed kinds in a pandas object column, as :func:`rankedu.gauc` has them. A log's view is
registered under a name of its own (``rankedu_log_<pid>_<n>``), so that a table of the caller's
named ``rankedu_log`` is never read instead.
"""

from __future__ import annotations

import itertools
import os
import sys
import warnings

import pandas as pd

from rankedu.core.extras import require
from rankedu.core.validation import GROUP_ID_KINDS

SUPPORTED = ("a pandas DataFrame, a pyarrow Table, a DuckDB relation, a path (str or "
             "os.PathLike) to Parquet or CSV files, or a pyspark.sql.DataFrame")

# The checks of each column the metric reads, counted in one pass before it runs.
_INFINITY = "CAST('Infinity' AS DOUBLE)"
_CHECKS = {
    "g": [("missing values (NULL)", "g IS NULL")],
    "g float": [("missing values (NULL or NaN)", "g IS NULL OR isnan(g)")],
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
                  "decimal", "boolean", "long", "short", "byte"}
# The types whose values can be NaN (DuckDB's and Spark's names).
_FLOAT_TYPES = {"float", "real", "double"}

_views = itertools.count()


def _view_name() -> str:
    """A name no table of the caller's has: the log's view is registered under it."""
    return f"rankedu_log_{os.getpid()}_{next(_views)}"


def _base_type(type_name: str) -> str:
    """``decimal`` for ``DECIMAL(38,20)``, ``double`` for ``DOUBLE``."""
    return type_name.lower().split("(")[0]


def _as_double(role: str, type_name: str) -> bool:
    """Whether a role's column is cast to DOUBLE. Labels and grades are; group ids and scores
    keep their type (scores compare exactly), booleans excepted, which SQL cannot test for NaN
    or infinity."""
    return role not in ("g", "s") or _base_type(type_name) == "boolean"

# --- The engines: each renames the caller's columns and runs the SQL text. ------------------


class _DuckDB:
    """A log read by DuckDB: a relation of the caller's, or one on a fresh in-memory database."""

    def __init__(self, data):
        duckdb = require("duckdb", "logs")

        self.connection, self.log, self.path = None, None, None
        if isinstance(data, pd.DataFrame) and not len(data.columns):
            raise ValueError("data: the DataFrame has no column")
        if isinstance(data, duckdb.DuckDBPyRelation):
            self.relation = data
        else:
            self.connection = duckdb.connect()
            if isinstance(data, pd.DataFrame):
                self.relation = self.connection.from_df(data)
            elif isinstance(data, (str, os.PathLike)):
                self.path = os.fspath(data)
                self.relation = self._read(self.path)
            else:
                self.relation = self.connection.from_arrow(data)
        # The source's own column names, duplicates included: DuckDB renames a frame's or an
        # Arrow table's second "y" to "y_1", which would hide that the name is ambiguous.
        if isinstance(data, pd.DataFrame):
            self.names = list(data.columns)
        elif hasattr(data, "column_names"):  # a pyarrow Table
            self.names = list(data.column_names)
        else:
            self.names = list(self.relation.columns)

    def _read(self, path: str):
        """The relation of a Parquet or CSV path; OSError or ValueError naming the path."""
        duckdb = require("duckdb", "logs")

        name = path.lower()
        if name.endswith((".parquet", ".parq")):
            read, kind = self.connection.read_parquet, "Parquet"
        elif name.endswith((".csv", ".csv.gz", ".tsv", ".tsv.gz")):
            read, kind = self.connection.read_csv, "CSV"
        else:
            raise ValueError(f"data: a path must name Parquet (.parquet) or CSV (.csv, "
                             f".tsv, optionally .gz) files, got {path!r}")
        try:
            return read(path)
        except duckdb.Error as error:
            self.connection.close()  # the engine is not returned: nothing else would close it
            if isinstance(error, duckdb.IOException):
                raise FileNotFoundError(f"data: no file matches {path!r} ({error})") from None
            raise ValueError(f"data: {path!r} cannot be read as {kind}: {error}") from None

    def columns(self) -> dict[str, str]:
        return dict(zip(self.relation.columns, map(str, self.relation.types)))

    def use(self, expressions: dict[str, str]) -> None:
        types = self.columns()
        selected = [] if "g" in expressions else ["0 AS g"]  # no group: the log is one
        for role, column in expressions.items():
            quoted = '"' + column.replace('"', '""') + '"'
            selected.append(f"CAST({quoted} AS DOUBLE) AS {role}"
                            if _as_double(role, types[column]) else f"{quoted} AS {role}")
        self.log = self.relation.project(", ".join(selected))
        self.view = _view_name()

    def _query(self, sql: str):
        duckdb = require("duckdb", "logs")

        try:
            return self.log.query(self.view, sql.format(log=self.view))
        except duckdb.Error as error:
            if self.path is None:  # a relation or frame of the caller's: its own error
                raise
            raise ValueError(f"data: reading {self.path!r} failed: {error}") from None

    def rows(self, sql: str) -> list[tuple]:
        return self._query(sql).fetchall()

    def record(self, sql: str) -> dict:
        """The first row of the result, by column name."""
        result = self._query(sql)
        return dict(zip(result.columns, result.fetchall()[0]))

    def frame(self, sql: str) -> pd.DataFrame:
        return self._query(sql).df()

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()


class _Spark:
    """A log in a Spark DataFrame, registered as a temporary view of its own session."""

    def __init__(self, data):
        self.data = data
        self.session = data.sparkSession
        self.view = None
        self.names = list(data.columns)

    def columns(self) -> dict[str, str]:
        return dict(self.data.dtypes)

    def use(self, expressions: dict[str, str]) -> None:
        from pyspark.sql import functions

        types = self.columns()
        columns = [] if "g" in expressions else [functions.lit(0).alias("g")]
        for role, column in expressions.items():
            value = functions.col("`" + column.replace("`", "``") + "`")
            if _as_double(role, types[column]):
                value = value.cast("double")
            columns.append(value.alias(role))
        self.view = _view_name()
        self.data.select(*columns).createOrReplaceTempView(self.view)

    def rows(self, sql: str) -> list[tuple]:
        return [tuple(row) for row in self.session.sql(sql.format(log=self.view)).collect()]

    def record(self, sql: str) -> dict:
        """The first row of the result, by column name."""
        return self.session.sql(sql.format(log=self.view)).first().asDict()

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

    ``columns`` maps each role (g, y, s, r) to the caller's column name, each a ``str``; a
    call without ``g`` (the whole log's AUC) makes the whole log one group."""
    for role, column in columns.items():
        if not isinstance(column, str):
            raise TypeError(f"{_ARGUMENT[role]} must be a column name (str), got "
                            f"{column!r} ({type(column).__name__})")
    engine = _engine(data)
    try:
        types = engine.columns()
        for role, column in columns.items():
            if column not in types:
                raise ValueError(f"{_ARGUMENT[role]}: no column {column!r} in data; its "
                                 f"columns are {', '.join(map(repr, types))}")
            if engine.names.count(column) > 1:
                raise ValueError(f"{_ARGUMENT[role]}: data has {engine.names.count(column)} "
                                 f"columns named {column!r}; which one is meant is ambiguous")
            if role != "g" and _base_type(types[column]) not in _NUMERIC_TYPES:
                raise TypeError(f"{_ARGUMENT[role]}: column {column!r} must hold numbers, "
                                f"got {types[column]}")
        if "g" in columns and isinstance(data, pd.DataFrame):
            _one_kind_of_id(data[columns["g"]], columns["g"])
        engine.use(columns)
        _check(engine, columns, types)
    except BaseException:
        engine.close()
        raise
    return engine


def _one_kind_of_id(ids: pd.Series, column: str) -> None:
    """A pandas object column of group ids must hold one kind (strings, or numbers): DuckDB
    would turn ``"1"`` and ``1`` into one VARCHAR group. TypeError naming the column, as
    :func:`rankedu.gauc` has it."""
    if ids.dtype == object:
        kind = pd.api.types.infer_dtype(ids, skipna=True)
        if kind not in GROUP_ID_KINDS:
            raise TypeError(f"group: column {column!r} must hold ids of one type (all strings "
                            f"or all numbers), got {kind} values")


def _check(engine, columns, types) -> None:
    """Raise ValueError naming the column when a column holds a value the metric cannot read."""
    def checks_of(role):
        floating = role == "g" and _base_type(types[columns[role]]) in _FLOAT_TYPES
        return _CHECKS["g float" if floating else role]

    checks = [(role, problem, condition) for role in columns
              for problem, condition in checks_of(role)]
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
    """The result of ``sql`` on ``data``: a frame, or (``frame=False``) its one row as a dict
    keyed by the names of the SELECT, so that no caller depends on the order of its columns."""
    engine = _open(data, **columns)
    try:
        return engine.frame(sql) if frame else engine.record(sql)
    finally:
        engine.close()


def _left_out(metric: str, left_out: int, total: int, why: str) -> None:
    if left_out:
        warnings.warn(f"{metric}: {left_out} of {total} groups {why} and are left out",
                      UserWarning, stacklevel=3)
