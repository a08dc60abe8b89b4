"""The one object both views of a metric are built from.

A metric computes its per-step quantities once, as named numpy arrays (the columns of the
book's table, ending in the running result), and its final value. The plain function returns
``steps.value``; ``rankedu.explain`` turns ``steps.tables`` into DataFrames. So the formula is
written once, and the number a reader sees in a table is the number the function returns.
"""

from __future__ import annotations

import inspect
import sys
from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True)
class Steps:
    """The result of a metric and the per-step arrays it was computed from.

    ``tables`` maps a table's title to its columns (an ordered mapping of column name to a 1-D
    array, all of one length); the first table is the main one.
    """

    value: float | np.ndarray
    tables: dict[str, dict[str, np.ndarray]] = field(default_factory=dict)

    def __post_init__(self):
        # A metric returns a built-in float, never a numpy scalar; a per-rank quantity (the
        # cascade's click probabilities) stays an array.
        if np.ndim(self.value) == 0:
            object.__setattr__(self, "value", float(self.value))


def steps_of(function, *args, **kwargs) -> Steps:
    """The steps of ``function(*args, **kwargs)``: its module's ``_<name>_steps`` called with the
    same arguments, bound by name with the public function's defaults (a reordering of either
    signature fails loudly instead of passing ``k`` where ``threshold`` is expected)."""
    bound = inspect.signature(function).bind(*args, **kwargs)
    bound.apply_defaults()
    steps = getattr(sys.modules[function.__module__], f"_{function.__name__}_steps")
    return steps(**bound.arguments)


def mean_over_queries(per_query: list[Steps], name: str) -> Steps:
    """Average per-query results into one table: query, value, running mean."""
    values = np.array([steps.value for steps in per_query])
    count = np.arange(1, len(values) + 1)
    summary = {"query": count, name: values, f"mean {name}": np.cumsum(values) / count}
    tables = {f"M{name}": summary}
    for query, steps in zip(count, per_query):
        tables[f"query {query}"] = next(iter(steps.tables.values()))
    return Steps(float(np.mean(values)), tables)
