"""trec_eval 10.0's own program, built from the vendored source (``tools/trec_eval``).

``tests/test_trec_eval_binary.py`` and the disagreement atlas (``tests/atlas_tools.py``) run it
as an oracle. ``binary()`` runs the release's Makefile once per process (it rebuilds only when
a source file changed) and returns the program's path; it fails, naming what is missing, when
there is no C compiler: the tests that need it must not pass by skipping.
"""

from __future__ import annotations

import functools
import shutil
import subprocess
from pathlib import Path

SOURCE = Path(__file__).resolve().parents[1] / "tools" / "trec_eval"


@functools.cache
def binary() -> Path:
    """The path of trec_eval 10.0's program, built first if needed."""
    missing = [tool for tool in ("make", "gcc") if shutil.which(tool) is None]
    if missing:
        raise RuntimeError(f"building trec_eval 10.0 needs {' and '.join(missing)} "
                           f"(.ci/run installs them from Debian)")
    subprocess.run(["make", "-s", "-C", str(SOURCE), "trec_eval"], check=True,
                   capture_output=True, text=True)
    return SOURCE / "trec_eval"


def run(*arguments) -> subprocess.CompletedProcess:
    """trec_eval with ``arguments`` (paths become strings); its output and exit status."""
    return subprocess.run([str(binary()), *map(str, arguments)], capture_output=True,
                          text=True)
