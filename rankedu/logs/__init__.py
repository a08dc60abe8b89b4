"""AUC, GAUC and nDCG over logs too large for lists, written once as SQL.

``metrics`` holds one SQL text per metric and the public functions that run it
(``rankedu.logs.auc``, ``gauc``, ``ndcg``, ``sql``, and the per-group tables); ``engines`` runs
those texts on DuckDB (DataFrames, Arrow tables, Parquet/CSV paths) or Spark SQL, checking the
log's columns in one pass, and imports neither engine until called. Modules here import
``rankedu.core`` and ``rankedu.metrics`` (for shared definitions such as GAUC's weights).
"""

from rankedu.logs.metrics import *  # noqa: F403
from rankedu.logs.metrics import __all__  # noqa: F401
