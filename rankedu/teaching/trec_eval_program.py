"""trec_eval 10.0's own program, built from the C source that ships inside rankedu.

The source is trec_eval 10.0's, unchanged, in ``rankedu/data/trec_eval_source`` with NIST's
notice (``LICENSE.md``) and a note on where it comes from (``README.rankedu.md``). It ships as
package data so that the disagreement atlas (``rankedu.teaching.atlas``) and the tests can run
the program itself as an oracle from an installed rankedu, without a clone of the repository.

:func:`binary` copies the source into a cache folder (the installed package may be read-only),
runs the release's own Makefile there (it rebuilds only when a source file is newer than the
program) and returns the program's path. Processes that call it at once (the test suite runs
in two) take turns, through a lock file beside the folder: none copies or compiles over a
program that another is running. It needs ``make`` and a C compiler, ``gcc``; without
them it raises, naming what is missing, so that nothing passes by skipping the program.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from pathlib import Path

try:
    import fcntl
except ImportError:  # not on Windows, where the build needs make and gcc from elsewhere anyway
    fcntl = None

#: The vendored C source of trec_eval 10.0.
SOURCE = Path(__file__).resolve().parents[1] / "data" / "trec_eval_source"


def cache_folder() -> Path:
    """Where the program is built: ``$XDG_CACHE_HOME/rankedu/trec_eval-10.0``, by default
    under ``~/.cache``."""
    root = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(root) / "rankedu" / "trec_eval-10.0"


@functools.cache
def binary() -> Path:
    """The path of trec_eval 10.0's program, built first if needed (about 3 s with gcc).

    Raises
    ------
    RuntimeError
        Naming ``make`` or ``gcc`` when one is missing.
    subprocess.CalledProcessError
        When the build fails; its ``stderr`` holds the compiler's messages.
    """
    missing = [tool for tool in ("make", "gcc") if shutil.which(tool) is None]
    if missing:
        raise RuntimeError(f"building trec_eval 10.0 needs {' and '.join(missing)} "
                           "(on Debian or Ubuntu: apt-get install gcc libc6-dev make)")
    folder = cache_folder()
    folder.parent.mkdir(parents=True, exist_ok=True)
    with open(folder.parent / f"{folder.name}.lock", "w") as lock:
        if fcntl is not None:
            fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file is closed
        # copy2 keeps each file's modification time, so make rebuilds only after a source
        # changed.
        shutil.copytree(SOURCE, folder, copy_function=shutil.copy2, dirs_exist_ok=True)
        subprocess.run(["make", "-s", "-C", str(folder), "trec_eval"], check=True,
                       capture_output=True, text=True)
    return folder / "trec_eval"


def run(*arguments) -> subprocess.CompletedProcess:
    """trec_eval with ``arguments`` (paths become strings): its output and exit status."""
    return subprocess.run([str(binary()), *map(str, arguments)], capture_output=True,
                          text=True)
