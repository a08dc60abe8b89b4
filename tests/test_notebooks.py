"""The notebook guard: every chapter in _toc.yml is committed executed, in order, and clean.

nbval (``make test``) re-executes the chapters and compares their outputs; this guard checks
what nbval does not: that the *stored* notebook is what a reader gets when running it top to
bottom (execution counts 1, 2, 3, … with no gaps), that no stored output is an error or
depends on the run (a memory address, a numpy scalar repr), and that no notebook under book/
is left out of the table of contents, where neither the build nor nbval would see it.

Run as a script, it prints the notebooks of the table of contents, one per line, for the
Makefile (``make test`` and ``make execute`` take their list from here, not from a glob).
"""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
TOC = ROOT / "_toc.yml"
BOOK = ROOT / "book"

# A repr that embeds an id() changes on every run: "<object at 0x7f...>".
MEMORY_ADDRESS = re.compile(r"\b0x[0-9a-fA-F]{6,}\b")
# numpy >= 2 shows scalars as np.float64(0.5) or np.True_; the book prints plain Python values.
NUMPY_SCALAR_REPR = re.compile(r"\bnp\.(?:(?:float|int|uint|bool|complex|str)\w*\(|True_|False_)")


def toc_entries(toc_path=TOC):
    """Every ``file:`` of a jb-book/jb-article table of contents, root first, in book order."""
    toc = yaml.safe_load(Path(toc_path).read_text(encoding="utf-8"))
    entries = [toc["root"]]

    def walk(node):
        if isinstance(node, dict):
            if "file" in node:
                entries.append(node["file"])
            for key in ("parts", "chapters", "sections"):
                for child in node.get(key) or []:
                    walk(child)

    walk(toc)
    return entries


def resolve_entry(root, entry):
    """The file a toc entry names (entries may omit the suffix), or None when none exists."""
    path = Path(root) / entry
    if path.suffix in (".ipynb", ".md") and path.is_file():
        return path
    for suffix in (".ipynb", ".md"):
        candidate = path.with_name(path.name + suffix)
        if candidate.is_file():
            return candidate
    return None


def toc_notebooks(root=ROOT, toc_path=TOC):
    """The notebooks the table of contents lists, as paths relative to ``root``, in book order."""
    notebooks = []
    for entry in toc_entries(toc_path):
        path = resolve_entry(root, entry)
        if path is not None and path.suffix == ".ipynb":
            notebooks.append(path.relative_to(root))
    return notebooks


def _output_texts(output):
    """Every piece of text an output stores, as (what, text) pairs."""
    if output.get("output_type") == "stream":
        yield "stream", "".join(output.get("text", ""))
    for mime, value in (output.get("data") or {}).items():
        if mime.startswith("text/") or mime.endswith("json"):
            yield mime, value if isinstance(value, str) else "".join(value)


def notebook_problems(path):
    """Everything wrong with one stored notebook, each as a message naming it and the cell."""
    nb = json.loads(Path(path).read_text(encoding="utf-8"))
    name = Path(path).name
    problems = []
    expected_count = 1
    for index, cell in enumerate(nb.get("cells", [])):
        if cell.get("cell_type") != "code":
            continue
        source = "".join(cell.get("source", "")).strip()
        if not source:
            continue
        where = f"{name}, cell {index} ({source.splitlines()[0][:60]!r})"
        count = cell.get("execution_count")
        if count is None:
            problems.append(f"{where}: not executed (no execution_count)")
        elif count != expected_count:
            problems.append(
                f"{where}: execution_count is {count}, expected {expected_count} "
                "(run the notebook top to bottom in a fresh kernel: make execute)"
            )
        if count is not None:
            expected_count = count + 1
        if "execution" in cell.get("metadata", {}):
            problems.append(
                f"{where}: metadata stores the run's timestamps (metadata.execution); "
                "re-execute with make execute, which records none"
            )
        outputs = cell.get("outputs", [])
        if any(_stream(a) and _stream(a) == _stream(b) for a, b in zip(outputs, outputs[1:])):
            problems.append(
                f"{where}: two outputs of one stream in a row (a kernel splits a stream where "
                "it flushes, differently each run): make execute stores each stream whole"
            )
        for output in outputs:
            if output.get("output_type") == "error":
                problems.append(
                    f"{where}: stored output is an error: "
                    f"{output.get('ename', '?')}: {output.get('evalue', '')}"
                )
            for what, text in _output_texts(output):
                match = MEMORY_ADDRESS.search(text)
                if match:
                    problems.append(f"{where}: {what} output shows a memory address {match.group()!r}")
                match = NUMPY_SCALAR_REPR.search(text)
                if match:
                    problems.append(
                        f"{where}: {what} output shows a numpy scalar repr {match.group()!r}"
                        " (print float(x) instead)"
                    )
    return problems


def _stream(output) -> str | None:
    """The stream an output prints to (stdout, stderr), None for any other output."""
    return output.get("name") if output.get("output_type") == "stream" else None


def untracked_notebooks(root=ROOT, toc_path=TOC):
    """Notebooks under book/ that the table of contents does not list."""
    listed = {Path(root) / nb for nb in toc_notebooks(root, toc_path)}
    return sorted(
        p.relative_to(root)
        for p in (Path(root) / "book").rglob("*.ipynb")
        if ".ipynb_checkpoints" not in p.parts and p not in listed
    )


def missing_entries(root=ROOT, toc_path=TOC):
    """Entries of the table of contents that name no file."""
    return [entry for entry in toc_entries(toc_path) if resolve_entry(root, entry) is None]


# --- the guard on the book ---------------------------------------------------------------

NOTEBOOKS = toc_notebooks()


def test_every_toc_entry_names_an_existing_file():
    assert missing_entries() == [], f"_toc.yml lists files that do not exist: {missing_entries()}"


def test_every_notebook_under_book_is_in_the_toc():
    assert untracked_notebooks() == [], (
        f"notebooks under book/ that _toc.yml does not list (so neither the build nor nbval "
        f"sees them): {[str(p) for p in untracked_notebooks()]}"
    )


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=[str(nb) for nb in NOTEBOOKS])
def test_chapter_is_stored_executed_in_order_and_clean(notebook):
    problems = notebook_problems(ROOT / notebook)
    assert problems == [], "\n".join(problems)


# --- the guard on itself: synthetic notebooks it must pass or fail -----------------------


def _code(source, count, outputs=()):
    return {
        "cell_type": "code",
        "execution_count": count,
        "metadata": {},
        "source": source,
        "outputs": list(outputs),
    }


def _result(text, count):
    return {
        "output_type": "execute_result",
        "execution_count": count,
        "metadata": {},
        "data": {"text/plain": text},
    }


def _write(tmp_path, name, cells):
    nb = {
        "cells": [{"cell_type": "markdown", "metadata": {}, "source": "# A chapter"}, *cells],
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    path = tmp_path / name
    path.write_text(json.dumps(nb), encoding="utf-8")
    return path


def test_guard_passes_a_notebook_executed_in_order(tmp_path):
    path = _write(
        tmp_path,
        "good.ipynb",
        [
            _code("import rankedu as rk", 1),
            _code("", None),  # an empty cell is never executed, and is fine
            _code("rk.dcg([3, 2])", 2, [_result("4.26", 2)]),
            _code("print(0.5)", 3, [{"output_type": "stream", "name": "stdout", "text": "0.5\n"}]),
        ],
    )
    assert notebook_problems(path) == []


def test_guard_fails_an_unexecuted_cell_and_names_notebook_and_cell(tmp_path):
    path = _write(tmp_path, "unexecuted.ipynb", [_code("x = 1", 1), _code("x + 1", None)])
    problems = notebook_problems(path)
    assert len(problems) == 1
    assert "unexecuted.ipynb, cell 2" in problems[0] and "not executed" in problems[0]


def test_guard_fails_cells_executed_out_of_order(tmp_path):
    path = _write(tmp_path, "shuffled.ipynb", [_code("x = 1", 2), _code("y = 2", 1)])
    problems = notebook_problems(path)
    assert any("shuffled.ipynb, cell 1" in p and "expected 1" in p for p in problems)
    assert any("shuffled.ipynb, cell 2" in p and "expected 3" in p for p in problems)


def test_guard_fails_a_gap_in_the_execution_counts(tmp_path):
    path = _write(tmp_path, "gap.ipynb", [_code("x = 1", 1), _code("y = 2", 3)])
    assert len(notebook_problems(path)) == 1


def test_guard_fails_a_stored_error(tmp_path):
    error = {"output_type": "error", "ename": "ZeroDivisionError", "evalue": "division by zero", "traceback": []}
    path = _write(tmp_path, "error.ipynb", [_code("1 / 0", 1, [error])])
    problems = notebook_problems(path)
    assert len(problems) == 1 and "ZeroDivisionError" in problems[0] and "error.ipynb, cell 1" in problems[0]


def test_guard_fails_a_memory_address_and_a_numpy_scalar_repr(tmp_path):
    path = _write(
        tmp_path,
        "reprs.ipynb",
        [
            _code("plt.plot([1])", 1, [_result("[<matplotlib.lines.Line2D at 0x7f3a2c1b9d50>]", 1)]),
            _code("np.mean([1, 2])", 2, [_result("np.float64(1.5)", 2)]),
            _code("np.array([1]) == 1", 3, [{"output_type": "stream", "name": "stdout", "text": "[np.True_]\n"}]),
        ],
    )
    problems = notebook_problems(path)
    assert len(problems) == 3
    assert "cell 1" in problems[0] and "memory address" in problems[0]
    assert "cell 2" in problems[1] and "numpy scalar" in problems[1]
    assert "cell 3" in problems[2] and "numpy scalar" in problems[2]


def test_guard_fails_a_stream_stored_in_pieces(tmp_path):
    def stream(name, text):
        return {"output_type": "stream", "name": name, "text": text}

    whole = _code("print(1)", 1, [stream("stdout", "a\n"), stream("stderr", "w\n"),
                                  stream("stdout", "b\n")])
    pieces = _code("print(2)", 2, [stream("stdout", "a"), stream("stdout", "\n")])
    problems = notebook_problems(_write(tmp_path, "pieces.ipynb", [whole, pieces]))
    assert len(problems) == 1 and "cell 2" in problems[0] and "one stream" in problems[0]


def test_guard_fails_stored_execution_timestamps(tmp_path):
    cell = _code("1 + 1", 1, [_result("2", 1)])
    cell["metadata"] = {"execution": {"iopub.execute_input": "2026-11-22T19:50:00.000Z"}}
    problems = notebook_problems(_write(tmp_path, "timed.ipynb", [cell]))
    assert len(problems) == 1 and "timestamps" in problems[0]


def test_guard_lists_toc_notebooks_in_order_and_finds_the_unlisted_ones(tmp_path):
    (tmp_path / "book").mkdir()
    for name in ("preface.md", "ndcg.ipynb", "cutoff.ipynb", "stray.ipynb"):
        (tmp_path / "book" / name).write_text("{}", encoding="utf-8")
    toc = tmp_path / "_toc.yml"
    toc.write_text(
        "format: jb-book\nroot: book/preface\nparts:\n"
        "  - caption: A\n    chapters:\n      - file: book/ndcg\n"
        "  - caption: B\n    chapters:\n      - file: book/cutoff.ipynb\n      - file: book/missing\n",
        encoding="utf-8",
    )
    assert toc_notebooks(tmp_path, toc) == [Path("book/ndcg.ipynb"), Path("book/cutoff.ipynb")]
    assert untracked_notebooks(tmp_path, toc) == [Path("book/stray.ipynb")]
    assert missing_entries(tmp_path, toc) == ["book/missing"]


# --- make test-notebooks runs the chapters where a reader does: in an empty folder ----------


def _make_test_notebooks(notebook):
    """``make test-notebooks`` on one notebook, with this interpreter's environment."""
    return subprocess.run(
        ["make", "-s", "-C", str(ROOT), "test-notebooks", f"NOTEBOOKS={notebook}",
         f"BIN={Path(sys.executable).parent}", "STAMP="],
        capture_output=True, text=True)


def test_make_test_notebooks_fails_a_chapter_that_reads_a_file_of_the_repository(tmp_path):
    # The same chapter passes beside the file it reads, and fails in make test-notebooks's
    # empty folder: that is what a reader who downloads it gets.
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "cases.txt").write_text("3 cases\n")
    (tmp_path / "book").mkdir()
    reads = _write(tmp_path / "book", "reads_tests.ipynb", [_code(
        'print(open("../tests/cases.txt").read(), end="")', 1,
        [{"output_type": "stream", "name": "stdout", "text": "3 cases\n"}])])
    alone = _write(tmp_path / "book", "alone.ipynb", [_code(
        'print(sum([1, 2]))', 1, [{"output_type": "stream", "name": "stdout", "text": "3\n"}])])
    in_place = subprocess.run(
        [sys.executable, "-m", "pytest", "--nbval", "--nbval-current-env", "-q",
         "-p", "no:cacheprovider", "--rootdir", str(tmp_path / "book"), str(reads)],
        capture_output=True, text=True, cwd=tmp_path / "book")
    assert in_place.returncode == 0, in_place.stdout
    copied = _make_test_notebooks(reads)
    assert copied.returncode != 0 and "FileNotFoundError" in copied.stdout, copied.stdout
    passed = _make_test_notebooks(alone)
    assert passed.returncode == 0 and "1 passed" in passed.stdout, passed.stdout + passed.stderr


if __name__ == "__main__":
    # The Makefile's list of chapters: one notebook per line, in book order.
    sys.stdout.write("".join(f"{nb.as_posix()}\n" for nb in toc_notebooks()))
