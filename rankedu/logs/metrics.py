"""AUC, GAUC and nDCG over interaction logs too large for Python lists, on DuckDB or Spark.

A log is a table with one row per impression: a group column (user, session, request), a 0/1
label (click) or a relevance grade, and the model's score. Each metric is written once, as SQL
text, and the same text runs on one of two engines:

- **DuckDB** (embedded, nothing to start; the default) for a pandas DataFrame, a pyarrow
  Table, a DuckDB relation, or a path (``str`` or ``os.PathLike``) to Parquet or CSV files,
  globs allowed (``"clicks/*.parquet"``);
- **Spark SQL** for a ``pyspark.sql.DataFrame``: the query runs on the cluster and only its
  result (one row, or one row per group) comes back to the driver.

Conventions, the same as :func:`rankedu.roc_auc`, :func:`rankedu.gauc` and scikit-learn's
``ndcg_score``:

- AUC is U/(n+ n-), counted by the rank sum, never by listing pairs. Within a group sorted by
  score, the rows of one tie (equal scores) hold the ranks from RANK(), the tie's first, to
  the number of rows up to and including the tie, its last; the two add up to twice the tie's
  midrank, an integer. 2U = 2R+ - n+(n+ + 1), R+ being the positives' sum of midranks, so a
  tie between a positive and a negative counts one half. Both ranks come from one window
  function over each group sorted by score: groups never meet, which is why the work spreads
  over threads and machines.
- GAUC is the mean of the per-group AUCs weighted by impressions (rows), clicks (positives)
  or uniformly (``weight="uniform"``, the plain mean, sometimes called uAUC). A group with a
  single class has no AUC: it is left out, and a warning counts the groups left out.
- nDCG of a group ranks its rows by score, highest first. Rows with tied scores share their
  positions: each gets the mean grade of its tie times the discounts of the positions the tie
  occupies, which is the average over every order of the tie (scikit-learn's ``ndcg_score``
  with ``ignore_ties=False``). Gain is the grade itself (linear), the discount of position i
  is log2(i + 1), positions past k count nothing, and the ideal DCG ranks the group's own
  grades. A group with no positive grade has no nDCG: it is left out (scikit-learn counts it
  as 0), and a warning counts it. The result is the plain mean over the other groups.
- Labels are 0 or 1 (booleans allowed); scores and grades are finite numbers; grades are
  >= 0. A missing value (NULL, or NaN, which DuckDB reads from pandas as NULL) in any column
  used, the group column included, is an error naming the column: nothing is dropped. Scores
  are compared in their own type (int64 beyond 2**53 and DECIMAL exactly); labels and grades
  are read as doubles. Group ids of mixed kinds in a pandas column (``"a"`` and ``1``) are an
  error, as in :func:`rankedu.gauc`; so is a column name that ``data`` holds twice.

:func:`gauc_groups` and :func:`ndcg_groups` return the per-group numbers as a pandas
DataFrame, one row per group (the groups left out included, with a missing value and weight
0), computed by the same SQL as :func:`gauc` and :func:`ndcg`.

``import rankedu`` does not import this module's engines: DuckDB is imported at the first
call on a non-Spark input, and Spark is never imported here (a Spark DataFrame brings its own
session). Install them with ``pip install rankedu[logs]`` (DuckDB and pyarrow) and
``pip install rankedu[spark]``, plus a Java 17 runtime for Spark.

The chapter "Metrics over logs at scale" (``book/logs_at_scale.ipynb``) derives and times them.
"""

from __future__ import annotations

import pandas as pd

from rankedu.core.validation import MAX_CUTOFF, as_cutoff, one_of
from rankedu.logs.engines import _left_out, _run
from rankedu.metrics.auc import WEIGHTS

__all__ = ["auc", "gauc", "gauc_groups", "ndcg", "ndcg_groups", "sql"]

# --- The definitions: one SQL text per metric, run as is by DuckDB and by Spark SQL. --------
# {log} is the log, already renamed to the columns g (group), y (label), s (score), r (grade).

# Per group: impressions n, clicks n+, and twice the Mann-Whitney count, 2U = 2R+ - n+(n+ + 1).
# Within a group sorted by score, RANK() is the first rank of a row's tie and COUNT(*) over the
# default frame (every row up to the current one and its peers, in both engines) is the last;
# their sum is twice the tie's midrank, an integer. Both use one window, so one sort.
_AUC_GROUPS = """
ranked AS (
    SELECT g, y,
           RANK() OVER (PARTITION BY g ORDER BY s)
           + COUNT(*) OVER (PARTITION BY g ORDER BY s) AS twice_midrank
    FROM {log}
),
sums AS (
    SELECT g, CAST(COUNT(*) AS BIGINT) AS impressions,
           CAST(SUM(CASE WHEN y = 1 THEN 1 ELSE 0 END) AS BIGINT) AS clicks,
           CAST(SUM(CASE WHEN y = 1 THEN twice_midrank ELSE 0 END) AS BIGINT) AS twice_rank_sum
    FROM ranked
    GROUP BY g
),
per_group AS (
    SELECT g, impressions, clicks, twice_rank_sum - clicks * (clicks + 1) AS twice_u,
           CASE WHEN clicks > 0 AND clicks < impressions
                THEN CAST(twice_rank_sum - clicks * (clicks + 1) AS DOUBLE)
                     / CAST(2 * clicks * (impressions - clicks) AS DOUBLE)
           END AS auc
    FROM sums
)"""

# Every weighting's numerator and denominator at once, so that one query serves all three.
_AUC_SUMMARY = "WITH" + _AUC_GROUPS + """
SELECT COUNT(*) AS n_groups,
       SUM(CASE WHEN auc IS NULL THEN 0 ELSE 1 END) AS n_used,
       SUM(impressions) AS n_rows, SUM(clicks) AS n_clicks,
       MIN(twice_u) AS twice_u,  -- the log's 2U when it is one group (auc)
       SUM(CASE WHEN auc IS NULL THEN 0 ELSE impressions * auc END) AS impressions_auc,
       SUM(CASE WHEN auc IS NULL THEN 0 ELSE impressions END) AS impressions_used,
       SUM(CASE WHEN auc IS NULL THEN 0 ELSE clicks * auc END) AS clicks_auc,
       SUM(CASE WHEN auc IS NULL THEN 0 ELSE clicks END) AS clicks_used,
       SUM(CASE WHEN auc IS NULL THEN 0 ELSE auc END) AS uniform_auc
FROM per_group"""

_AUC_TABLE = "WITH" + _AUC_GROUPS + """
SELECT g, impressions, clicks, auc FROM per_group ORDER BY g"""

# Per group: DCG with tied scores sharing the discounts of the positions they occupy (the
# positions i of a tie, numbered in any order, are exactly the ones it spans), and the ideal
# DCG from the group's own grades in descending order (positions j). {k} is the cutoff.
# The grades are summed divided by a power of two near the group's top grade (the first in
# the window of j, so no other sort): dividing by a power of two is exact, so every value is
# the unscaled one, but a tie of grades near 1e308 no longer overflows to inf; the table's
# DCG and IDCG are multiplied back.
_NDCG_GROUPS = """
ranked AS (
    SELECT g, s, r,
           ROW_NUMBER() OVER (PARTITION BY g ORDER BY s DESC) AS i,
           ROW_NUMBER() OVER (PARTITION BY g ORDER BY r DESC) AS j,
           FIRST_VALUE(r) OVER (PARTITION BY g ORDER BY r DESC) AS top
    FROM {log}
),
scaled AS (
    SELECT g, s, r, i, j,
           CASE WHEN top > 0 THEN POWER(2.0, FLOOR(LOG2(top))) ELSE 1.0 END AS scale
    FROM ranked
),
blocks AS (
    SELECT g, COUNT(*) AS n, SUM(CASE WHEN r > 0 THEN 1 ELSE 0 END) AS relevant,
           MIN(scale) AS scale,
           SUM(r / scale) / COUNT(*)
           * SUM(CASE WHEN i <= {k} THEN 1 / LOG2(i + 1) ELSE 0 END) AS dcg,
           SUM(CASE WHEN j <= {k} THEN r / scale / LOG2(j + 1) ELSE 0 END) AS idcg
    FROM scaled
    GROUP BY g, s
),
per_group AS (
    SELECT g, CAST(SUM(n) AS BIGINT) AS n, CAST(SUM(relevant) AS BIGINT) AS relevant,
           SUM(dcg) * MIN(scale) AS dcg, SUM(idcg) * MIN(scale) AS idcg,
           CASE WHEN SUM(relevant) > 0 THEN SUM(dcg) / SUM(idcg) END AS ndcg
    FROM blocks
    GROUP BY g
)"""

_NDCG_SUMMARY = "WITH" + _NDCG_GROUPS + """
SELECT COUNT(*) AS n_groups, SUM(CASE WHEN ndcg IS NULL THEN 0 ELSE 1 END) AS n_used,
       SUM(CASE WHEN ndcg IS NULL THEN 0 ELSE ndcg END) AS ndcg_sum
FROM per_group"""

_NDCG_TABLE = "WITH" + _NDCG_GROUPS + """
SELECT g, n, relevant, dcg, idcg, ndcg FROM per_group ORDER BY g"""


#: The SQL text behind each public function, by the function's name.
_TEXTS = {"auc": _AUC_SUMMARY, "gauc": _AUC_SUMMARY, "gauc_groups": _AUC_TABLE,
          "ndcg": _NDCG_SUMMARY, "ndcg_groups": _NDCG_TABLE}


def sql(metric: str, *, k: int | None = None) -> str:
    """The SQL text a function of this module runs: each function runs ``sql(its name)``.

    ``{log}`` stands for the log, its columns already renamed to the roles ``g`` (group),
    ``y`` (label), ``s`` (score) and ``r`` (grade); ``auc`` runs the ``gauc`` text with the
    whole log as one group. The text is standard SQL with window functions: DuckDB and Spark SQL
    run it unchanged, and so can another engine.

    Parameters
    ----------
    metric : {"auc", "gauc", "gauc_groups", "ndcg", "ndcg_groups"}
        The function whose text to return.
    k : int or None, default None
        nDCG's cutoff, written into the text (None: every row of a group).

    Returns
    -------
    str

    Raises
    ------
    ValueError
        Naming ``metric`` when it is not one of the functions, or ``k`` when it is < 1 or
        given for a text without a cutoff.
    TypeError
        Naming ``k`` when it is not an int.

    Notes
    -----
    The chapter :doc:`/book/logs_at_scale` explains the texts.

    References
    ----------
    - ``mann1947``: Mann, H. B., and Whitney, D. R. (1947). On a test of whether one of two
      random variables is stochastically larger than the other. *Annals of Mathematical
      Statistics*, 18(1), 50-60.

    Examples
    --------
    >>> from rankedu import logs
    >>> print(logs.sql("gauc_groups").splitlines()[-1])
    SELECT g, impressions, clicks, auc FROM per_group ORDER BY g
    """
    text = _TEXTS[one_of(metric, "metric", tuple(_TEXTS))]
    if not metric.startswith("ndcg"):
        if k is not None:
            raise ValueError(f"k: only nDCG's texts take a cutoff, got k={k!r} for {metric!r}")
        return text
    k = as_cutoff(k)  # None: every row of a group
    return text.replace("{k}", str(MAX_CUTOFF if k is None else k))


# --- The public functions. -------------------------------------------------------------------


def auc(data, *, label: str, score: str) -> float:
    r"""ROC AUC of a whole log: U/(n+ n-) by the rank sum, on DuckDB or Spark.

    .. math:: AUC = \frac{U}{n_+ n_-}, \qquad U = R_+ - \frac{n_+ (n_+ + 1)}{2}

    R+ is the sum of the positives' midranks (scores ranked from the lowest, tied scores
    sharing the mean of their ranks), so a tie between a positive and a negative counts one
    half. Equal to :func:`rankedu.roc_auc` of the two columns: 2U is counted as an integer and
    divided once.

    Parameters
    ----------
    data : pandas.DataFrame, pyarrow.Table, duckdb.DuckDBPyRelation, str, os.PathLike or pyspark.sql.DataFrame
        The log, one row per impression; a path names Parquet or CSV files (globs allowed).
        A Spark DataFrame runs on its own session; every other input on DuckDB.
    label : str
        The column of 0/1 labels (1 = positive, clicked).
    score : str
        The column of scores, higher meaning more likely positive.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        When a column is missing or named twice, a label is not 0 or 1, a label or score is
        missing (NULL, NaN) or a score infinite, the log is empty, or it holds a single class;
        when a path cannot be read as Parquet or CSV (naming the path).
    TypeError
        When ``data`` is of no supported type, a column argument is not a str (``None``
        included), or a column does not hold numbers.
    FileNotFoundError
        When a path (or glob) matches no file.

    See Also
    --------
    rankedu.roc_auc, gauc

    Notes
    -----
    The chapter :doc:`/book/logs_at_scale` explains it.

    References
    ----------
    - ``mann1947``: Mann, H. B., and Whitney, D. R. (1947). On a test of whether one of two
      random variables is stochastically larger than the other. *Annals of Mathematical
      Statistics*, 18(1), 50-60.
    - ``raasveldt2019``: Raasveldt, M., and Mühleisen, H. (2019). DuckDB: an embeddable
      analytical database. *SIGMOD 2019*, 1981-1984.
    - ``armbrust2015``: Armbrust, M., Xin, R. S., Lian, C., Huai, Y., Liu, D., Bradley, J. K.,
      Meng, X., Kaftan, T., Franklin, M. J., Ghodsi, A., and Zaharia, M. (2015). Spark SQL:
      relational data processing in Spark. *SIGMOD 2015*, 1383-1394.

    Examples
    --------
    >>> import pandas as pd
    >>> from rankedu import logs
    >>> log = pd.DataFrame({"clicked": [1, 0, 1, 0], "score": [0.9, 0.5, 0.5, 0.1]})
    >>> logs.auc(log, label="clicked", score="score")  # (1 + 1 + 1/2 + 1) / 4
    0.875
    """
    row = _run(data, sql("auc"), {"y": label, "s": score})  # no group: one, the log
    n_rows, n_clicks, twice_u = row["n_rows"], row["n_clicks"], row["twice_u"]
    if row["n_used"] == 0:
        raise ValueError(f"label: column {label!r} must hold both classes for AUC, got "
                         f"{n_clicks} positive and {n_rows - n_clicks} negative")
    return int(twice_u) / (2 * int(n_clicks) * (int(n_rows) - int(n_clicks)))


def gauc(data, *, group: str, label: str, score: str, weight: str = "impressions") -> float:
    r"""Group AUC of a log: the weighted mean of the per-group AUCs, on DuckDB or Spark.

    .. math:: GAUC = \frac{\sum_u w_u\, AUC_u}{\sum_u w_u}

    over the groups u that hold both classes, each AUC_u the exact U_u/(n+_u n-_u) of
    :func:`auc`, computed for every group at once by one grouping and one window (never by
    listing pairs). Equal to :func:`rankedu.gauc` of the three columns. Implementations
    differ in w_u: Zhou et al. (2018) weight each user by impressions, RecBole's GAUC by
    positives (``"clicks"``), and DIN's published code takes the plain mean
    (``"uniform"``, sometimes called uAUC; DeepInterestNetwork issue #71).

    Parameters
    ----------
    data : pandas.DataFrame, pyarrow.Table, duckdb.DuckDBPyRelation, str, os.PathLike or pyspark.sql.DataFrame
        The log (see :func:`auc`).
    group : str
        The column of group ids (user, session, request); any type, never NULL.
    label : str
        The column of 0/1 labels.
    score : str
        The column of scores.
    weight : {"impressions", "clicks", "uniform"}, default "impressions"
        w_u is the group's rows, its positives, or 1.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        As :func:`auc`, for a missing group id (NULL, or NaN in a floating-point column) or an
        unknown ``weight``, and when no group holds both classes.
    TypeError
        As :func:`auc`, and for group ids of mixed kinds in a pandas column.
    FileNotFoundError
        As :func:`auc`.

    Warns
    -----
    UserWarning
        When groups hold a single class: it counts them (they are left out).

    See Also
    --------
    rankedu.gauc, gauc_groups

    Notes
    -----
    The chapter :doc:`/book/logs_at_scale` explains it.

    References
    ----------
    - ``zhou2018``: Zhou, G., Zhu, X., Song, C., Fan, Y., Zhu, H., Ma, X., Yan, Y., Jin, J.,
      Li, H., and Gai, K. (2018). Deep interest network for click-through rate prediction.
      *KDD 2018*, 1059-1068.
    - ``mann1947``: Mann, H. B., and Whitney, D. R. (1947). On a test of whether one of two
      random variables is stochastically larger than the other. *Annals of Mathematical
      Statistics*, 18(1), 50-60.

    Examples
    --------
    >>> import pandas as pd
    >>> from rankedu import logs
    >>> log = pd.DataFrame({"user": ["u1", "u1", "u1", "u2", "u2", "u3"],
    ...                     "clicked": [1, 0, 0, 1, 0, 1],
    ...                     "score": [0.9, 0.5, 0.7, 0.2, 0.4, 0.3]})
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     logs.gauc(log, group="user", label="clicked", score="score")  # (3·1 + 2·0) / 5
    0.6
    >>> print(caught[0].message)
    gauc: 1 of 3 groups hold a single class and are left out
    """
    weight = one_of(weight, "weight", WEIGHTS)
    row = _run(data, sql("gauc"), {"g": group, "y": label, "s": score})
    n_groups, n_used = row["n_groups"], row["n_used"]
    if not n_used:
        raise ValueError("groups: no group holds both classes, so no group has an AUC")
    _left_out("gauc", n_groups - n_used, n_groups, "hold a single class")
    numerator, denominator = {"impressions": (row["impressions_auc"], row["impressions_used"]),
                              "clicks": (row["clicks_auc"], row["clicks_used"]),
                              "uniform": (row["uniform_auc"], n_used)}[weight]
    return float(numerator) / float(denominator)


def gauc_groups(data, *, group: str, label: str, score: str,
                weight: str = "impressions") -> pd.DataFrame:
    """The per-group numbers behind :func:`gauc`, one row per group, sorted by group.

    Columns: the group column (named as in ``data``), ``impressions`` (rows), ``clicks``
    (positives), ``AUC`` (missing, NaN, for a group with a single class) and ``weight`` (the
    group's w_u under ``weight``; 0 for a group left out). ``(AUC * weight).sum() /
    weight.sum()`` is :func:`gauc` up to the order of summation. Every group comes back to the
    caller, so on a log of millions of groups this is a table of millions of rows.

    Parameters
    ----------
    data, group, label, score, weight
        As :func:`gauc`.

    Returns
    -------
    pandas.DataFrame

    Raises
    ------
    ValueError, TypeError, FileNotFoundError
        As :func:`gauc`, except that a log in which no group holds both classes is a table of
        NaN AUCs rather than an error.

    Notes
    -----
    The chapter :doc:`/book/logs_at_scale` uses it for the per-group AUCs.

    References
    ----------
    - ``zhou2018``: Zhou, G., Zhu, X., Song, C., Fan, Y., Zhu, H., Ma, X., Yan, Y., Jin, J.,
      Li, H., and Gai, K. (2018). Deep interest network for click-through rate prediction.
      *KDD 2018*, 1059-1068.

    Examples
    --------
    >>> import pandas as pd
    >>> from rankedu import logs
    >>> log = pd.DataFrame({"user": ["u1", "u1", "u1", "u2", "u2", "u3"],
    ...                     "clicked": [1, 0, 0, 1, 0, 1],
    ...                     "score": [0.9, 0.5, 0.7, 0.2, 0.4, 0.3]})
    >>> logs.gauc_groups(log, group="user", label="clicked", score="score", weight="clicks")
      user  impressions  clicks  AUC  weight
    0   u1            3       1  1.0     1.0
    1   u2            2       1  0.0     1.0
    2   u3            1       1  NaN     0.0
    """
    weight = one_of(weight, "weight", WEIGHTS)
    table = _run(data, sql("gauc_groups"), {"g": group, "y": label, "s": score}, frame=True)
    table = table.rename(columns={"g": group, "auc": "AUC"}).astype(
        {"impressions": "int64", "clicks": "int64", "AUC": "float64"})
    used = table["AUC"].notna()
    table["weight"] = {"impressions": table["impressions"], "clicks": table["clicks"],
                       "uniform": 1}[weight] * used.astype(float)
    return table


def ndcg(data, *, group: str, score: str, grade: str, k: int | None = None) -> float:
    r"""Mean nDCG@k over the groups of a log, tied scores averaged, on DuckDB or Spark.

    .. math:: nDCG_u@k = \frac{DCG_u@k}{IDCG_u@k}, \qquad
              DCG_u@k = \sum_{t} \bar{g}_t \sum_{i \in t,\, i \le k} \frac{1}{\log_2(i + 1)}

    Each group's rows are ranked by score, highest first; a tie t of rows with equal scores
    spans a run of positions i, and each of its rows counts the tie's mean grade
    :math:`\bar{g}_t`: the mean DCG over every order of the tie, as scikit-learn's
    ``ndcg_score`` (``ignore_ties=False``) computes it. Gain is the grade (linear). The ideal
    DCG ranks the group's own grades from the highest, cut at k. The result is the plain mean
    over the groups with a positive grade; a group without one is left out (scikit-learn
    counts it as 0), and a warning counts those.

    Parameters
    ----------
    data : pandas.DataFrame, pyarrow.Table, duckdb.DuckDBPyRelation, str, os.PathLike or pyspark.sql.DataFrame
        The log (see :func:`auc`).
    group : str
        The column of group ids (query, request, user); never NULL.
    score : str
        The column of scores.
    grade : str
        The column of relevance grades, finite numbers >= 0 (a click is grade 1).
    k : int or None, default None
        The cutoff; None ranks every row of a group.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        When a column is missing or named twice, a score or grade is missing (NULL, NaN) or
        infinite, a grade is negative, a group id is missing (NULL, or NaN in a floating-point
        column), the log is empty, k < 1, or no group has a positive grade; when a path cannot
        be read (naming the path).
    TypeError
        When ``data`` is of no supported type, a column argument is not a str, a column does
        not hold numbers, group ids of a pandas column are of mixed kinds, or k is not an int.
    FileNotFoundError
        When a path (or glob) matches no file.

    Warns
    -----
    UserWarning
        When groups have no positive grade: it counts them (they are left out).

    See Also
    --------
    rankedu.ndcg, ndcg_groups

    Notes
    -----
    The chapter :doc:`/book/logs_at_scale` explains it.

    References
    ----------
    - ``jarvelin2002``: Järvelin, K., and Kekäläinen, J. (2002). Cumulated gain-based
      evaluation of IR techniques. *ACM Transactions on Information Systems*, 20(4), 422-446.
    - ``mcsherry2008``: McSherry, F., and Najork, M. (2008). Computing information retrieval
      performance measures efficiently in the presence of tied scores. *ECIR 2008*, 414-421.

    Examples
    --------
    >>> import pandas as pd
    >>> from rankedu import logs
    >>> log = pd.DataFrame({"query": ["q1", "q1", "q1", "q2", "q2"],
    ...                     "score": [0.9, 0.5, 0.5, 0.3, 0.3],
    ...                     "grade": [0, 2, 1, 1, 0]})
    >>> round(logs.ndcg(log, group="query", score="score", grade="grade"), 4)
    0.7301

    At k = 1, q1's top row has grade 0 and q2's tie of grades 1 and 0 counts 1/2:

    >>> logs.ndcg(log, group="query", score="score", grade="grade", k=1)  # (0/2 + 0.5/1) / 2
    0.25
    """
    row = _run(data, sql("ndcg", k=k), {"g": group, "s": score, "r": grade})
    n_groups, n_used = row["n_groups"], row["n_used"]
    if not n_used:
        raise ValueError(f"grade: no group has a positive grade in column {grade!r}, so no "
                         f"group has an nDCG")
    _left_out("ndcg", n_groups - n_used, n_groups, "have no positive grade")
    return float(row["ndcg_sum"]) / n_used


def ndcg_groups(data, *, group: str, score: str, grade: str,
                k: int | None = None) -> pd.DataFrame:
    """The per-group numbers behind :func:`ndcg`, one row per group, sorted by group.

    Columns: the group column (named as in ``data``), ``rows``, ``relevant`` (rows with a
    positive grade), ``DCG``, ``IDCG``, ``nDCG`` (NaN for a group without a positive grade)
    and ``weight`` (1, or 0 for a group left out); the mean of ``nDCG`` over the rows of
    weight 1 is :func:`ndcg` up to the order of summation.

    Parameters
    ----------
    data, group, score, grade, k
        As :func:`ndcg`.

    Returns
    -------
    pandas.DataFrame

    Raises
    ------
    ValueError, TypeError, FileNotFoundError
        As :func:`ndcg`, except that a log without a positive grade is a table of NaN rather
        than an error.

    Notes
    -----
    The chapter :doc:`/book/logs_at_scale` explains it.

    References
    ----------
    - ``jarvelin2002``: Järvelin, K., and Kekäläinen, J. (2002). Cumulated gain-based
      evaluation of IR techniques. *ACM Transactions on Information Systems*, 20(4), 422-446.

    Examples
    --------
    >>> import pandas as pd
    >>> from rankedu import logs
    >>> log = pd.DataFrame({"query": ["q1", "q1", "q1", "q2", "q2"],
    ...                     "score": [0.9, 0.5, 0.5, 0.3, 0.3],
    ...                     "grade": [0, 2, 1, 1, 0]})
    >>> logs.ndcg_groups(log, group="query", score="score", grade="grade").round(4)
    ... # q1: 0 + (2 + 1)/2 * (1/log2(3) + 1/log2(4)); ideal 2 + 1/log2(3)
      query  rows  relevant     DCG    IDCG    nDCG  weight
    0    q1     3         2  1.6964  2.6309  0.6448     1.0
    1    q2     2         1  0.8155  1.0000  0.8155     1.0
    """
    table = _run(data, sql("ndcg_groups", k=k), {"g": group, "s": score, "r": grade},
                 frame=True)
    table = table.rename(columns={"g": group, "n": "rows", "dcg": "DCG", "idcg": "IDCG",
                                  "ndcg": "nDCG"}).astype(
        {"rows": "int64", "relevant": "int64", "DCG": "float64", "IDCG": "float64",
         "nDCG": "float64"})
    table["weight"] = table["nDCG"].notna().astype(float)
    return table
