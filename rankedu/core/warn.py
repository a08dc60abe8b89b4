"""Warnings that point at the user's line, however deep inside rankedu they are raised.

A fixed ``stacklevel`` counts the frames between ``warnings.warn`` and the user, and it goes
stale when a call path gains a frame: ``rk.evaluate`` and ``rk.trec_eval_report`` reach the
same warning at different depths. Python 3.12's ``skip_file_prefixes`` says instead which
files to skip; this is that for Python 3.10 and 3.11.

Private: no one's API.
"""

from __future__ import annotations

import os
import sys
import warnings

_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def warn_at_caller(message: str, category: type[Warning]) -> None:
    """``warnings.warn(message, category)`` at the first frame outside the rankedu package."""
    level, frame = 2, sys._getframe(1)  # level 2 is this function's caller
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(_PACKAGE):
        frame, level = frame.f_back, level + 1
    warnings.warn(message, category, stacklevel=level)
