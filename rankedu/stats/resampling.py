"""Resampling plumbing shared by :mod:`rankedu.stats.significance` and :mod:`rankedu.stats.multiple_comparisons`:
the block size resamples are drawn in, and the checked ``n_resamples`` and ``seed`` arguments."""

from __future__ import annotations

import numpy as np

from rankedu.core.validation import as_count

# Resamples are drawn in blocks, so that memory stays bounded for many queries.
_BLOCK = 1000


def _resamples(n_resamples) -> int:
    n_resamples = as_count(n_resamples, "n_resamples")
    if n_resamples < 1:
        raise ValueError(f"n_resamples must be >= 1, got {n_resamples}")
    return n_resamples


def _generator(seed) -> np.random.Generator:
    """``numpy.random.default_rng`` of a seed that is None or an int >= 0, checked by name."""
    return np.random.default_rng(None if seed is None else as_count(seed, "seed"))
