"""Open Bandit Pipeline 0.5.7 (obp), the off-policy estimators' oracle, from its source
distribution on PyPI.

pip cannot install obp 0.5.7 here: it declares ``Requires-Python <3.11`` and pins torch 1.12
and pandas 1.5.2. Its estimators are plain numpy, though, so ``sdist()`` downloads the source
distribution once (``pip download --no-deps --no-binary :all: --ignore-requires-python``) into
``_build/oracles/`` and unpacks it, and ``ope()`` imports ``obp.ope`` from there with a
stand-in for torch, which ``obp/utils.py`` and ``obp/policy/offline.py`` import at module level
but none of the estimators tested calls. Only a failed download skips (naming pip's error):
anything that goes wrong after it fails the test. The test suite runs in two processes
(pytest-xdist): they take turns through a lock file, so that one never reads the archive or the
folder while the other is still writing it.
"""

from __future__ import annotations

import fcntl
import functools
import subprocess
import sys
import tarfile
import types
import warnings
from pathlib import Path

import pytest

VERSION = "0.5.7"
CACHE = Path(__file__).resolve().parents[1] / "_build" / "oracles"
SOURCE = CACHE / f"obp-{VERSION}"


@functools.cache
def sdist() -> Path:
    """The unpacked source distribution of obp 0.5.7 (downloaded on first use)."""
    CACHE.mkdir(parents=True, exist_ok=True)
    with open(CACHE / f"obp-{VERSION}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file is closed
        return _download_and_unpack()


def _download_and_unpack() -> Path:
    archive = CACHE / f"obp-{VERSION}.tar.gz"
    if not archive.exists():
        done = subprocess.run(
            [sys.executable, "-m", "pip", "download", f"obp=={VERSION}", "--no-deps",
             "--no-binary", ":all:", "--ignore-requires-python", "--dest", str(CACHE)],
            capture_output=True, text=True)
        if done.returncode or not archive.exists():
            pytest.skip(f"could not download obp {VERSION}'s sdist from PyPI, the oracle of "
                        f"these tests: {(done.stderr or done.stdout).strip()[-500:]}")
    if not (SOURCE / "obp").is_dir():
        with tarfile.open(archive) as tar:
            tar.extractall(CACHE, filter="data")
    return SOURCE


class _Absent(types.ModuleType):
    """torch, as far as obp's imports need it: any attribute is another stand-in (a class
    for a capitalised name, so that a class statement can derive from it)."""

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return type(name, (), {}) if name[:1].isupper() else _Absent(f"{self.__name__}.{name}")


@functools.cache
def ope() -> types.ModuleType:
    """``obp.ope`` of obp 0.5.7."""
    source = str(sdist())
    stand_ins = {name: _Absent(name)
                 for name in ("torch", "torch.nn", "torch.nn.functional", "torch.optim")}
    # The stand-ins and the path serve obp's import alone; afterwards no other test can
    # import them by accident.
    sys.modules.update(stand_ins)
    sys.path.insert(0, source)
    try:
        # obp 0.5.7's docstrings hold escapes Python 3.11 warns about when it compiles them.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            import obp.ope
    finally:
        sys.path.remove(source)
        for name in stand_ins:
            del sys.modules[name]
    return obp.ope
