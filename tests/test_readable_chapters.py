"""Every chapter reads without a sideways scrollbar: its code, its plain-text results, its tables.

The book's column shows 88 characters of code; a longer line scrolls. So in every chapter of
_toc.yml:

- no line of a code cell is longer than 88 characters, and the code cells are as ruff formats
  them at that width (``make format``; the width is pyproject.toml's ``[tool.ruff]``);
- a chapter that sets pandas' ``display.width`` sets it to 88 or less;
- a result shown as plain text (a Series, a list, a dict: an output with no HTML or image
  form) has no line longer than 88 characters;
- no table shows pandas' 0-based row numbers beside a rank column: the book counts ranks from 1,
  and a 0 beside rank 1 reads as an off-by-one.

Printed prose and warnings (stream outputs) are not checked here.
"""

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from test_notebooks import NOTEBOOKS, ROOT

WIDTH = 88

DISPLAY_WIDTH = re.compile(
    r"""(?:set_option\(\s*["']display\.width["']\s*,\s*|display\.width\s*=\s*)(\d+)"""
)
# A table's header cells, and the first row's index cell, in pandas' HTML.
HEADER_CELL = re.compile(r"<th[^>]*>([^<]*)</th>")
FIRST_ROW_INDEX = re.compile(r"<tbody>\s*<tr>\s*<th[^>]*>([^<]*)</th>")
RANK = re.compile(r"\brank\b", re.IGNORECASE)


def _text(value):
    return value if isinstance(value, str) else "".join(value)


def readability_problems(path):
    """Everything in one stored notebook that a reader would have to scroll sideways to see."""
    nb = json.loads(Path(path).read_text(encoding="utf-8"))
    name = Path(path).name
    problems = []
    for index, cell in enumerate(nb.get("cells", [])):
        if cell.get("cell_type") != "code":
            continue
        source = _text(cell.get("source", ""))
        where = f"{name}, cell {index}"
        for number, line in enumerate(source.splitlines(), start=1):
            if len(line) > WIDTH:
                problems.append(f"{where}, line {number}: code of {len(line)} characters")
        for width in DISPLAY_WIDTH.findall(source):
            if int(width) > WIDTH:
                problems.append(f"{where}: pandas display.width set to {width}")
        for output in cell.get("outputs", []):
            data = output.get("data") or {}
            plain_only = "text/plain" in data and not any(
                mime.startswith("image/") or mime == "text/html" for mime in data
            )
            if plain_only:
                for line in _text(data["text/plain"]).splitlines():
                    if len(line) > WIDTH:
                        problems.append(
                            f"{where}: a plain-text result of {len(line)} characters: "
                            f"{line[:60]!r}"
                        )
            for table in re.findall(r"<table.*?</table>", _text(data.get("text/html", "")), re.S):
                head, _, _ = table.partition("<tbody>")
                first = FIRST_ROW_INDEX.search(table)
                ranks = [h for h in HEADER_CELL.findall(head) if RANK.search(h)]
                if ranks and first and first.group(1) == "0":
                    problems.append(
                        f"{where}: a table shows row numbers from 0 beside {ranks[0]!r}"
                        " (set the index to the rank, or to another column)"
                    )
    return problems


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=[str(nb) for nb in NOTEBOOKS])
def test_chapter_reads_without_scrolling_sideways(notebook):
    problems = readability_problems(ROOT / notebook)
    assert problems == [], "\n".join(problems)


def _ruff():
    # The venv's own ruff (requirements.txt pins it), else one on PATH.
    beside = Path(sys.executable).with_name("ruff")
    found = str(beside) if beside.is_file() else shutil.which("ruff")
    if found is None:
        pytest.fail("ruff is missing: pip install -r requirements.txt (make sets up .venv)")
    return found


def test_chapters_code_is_formatted_by_ruff():
    result = subprocess.run(
        [_ruff(), "format", "--check", *map(str, NOTEBOOKS)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, (
        "chapters whose code cells ruff would reformat (run make format, re-execute, commit):\n"
        + result.stdout
        + result.stderr
    )


# --- the check on itself: synthetic notebooks it must pass or fail ------------------------


def _notebook(tmp_path, source, outputs=()):
    cell = {
        "cell_type": "code",
        "execution_count": 1,
        "metadata": {},
        "source": source,
        "outputs": list(outputs),
    }
    path = tmp_path / "chapter.ipynb"
    path.write_text(
        json.dumps({"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}),
        encoding="utf-8",
    )
    return path


def _result(data):
    return {"output_type": "execute_result", "execution_count": 1, "metadata": {}, "data": data}


def _frame_html(index):
    rows = "".join(f"<tr><th>{i}</th><td>{i + 1}</td><td>d{i}</td></tr>" for i in index)
    return (
        '<table border="1" class="dataframe"><thead><tr style="text-align: right;">'
        f"<th></th><th>rank</th><th>docno</th></tr></thead><tbody>{rows}</tbody></table>"
    )


def test_check_passes_code_of_88_characters_and_fails_89(tmp_path):
    assert readability_problems(_notebook(tmp_path, "x = 1" + " " * 78 + "# end")) == []
    assert readability_problems(_notebook(tmp_path, "x = 1\ny = 2" + " " * 79 + "# end")) == [
        "chapter.ipynb, cell 0, line 2: code of 89 characters"
    ]


def test_check_fails_a_wide_pandas_display(tmp_path):
    for source in ('pd.set_option("display.width", 120)', "pd.options.display.width = 200"):
        assert len(readability_problems(_notebook(tmp_path, source))) == 1, source
    assert readability_problems(_notebook(tmp_path, 'pd.set_option("display.width", 88)')) == []


def test_check_fails_a_wide_plain_text_result_but_not_one_with_html(tmp_path):
    wide = "a" * 89
    assert len(readability_problems(_notebook(tmp_path, "s", [_result({"text/plain": wide})]))) == 1
    shown_as_html = _result({"text/plain": wide, "text/html": "<p>a</p>"})
    assert readability_problems(_notebook(tmp_path, "s", [shown_as_html])) == []


def test_check_fails_row_numbers_from_0_beside_a_rank_column(tmp_path):
    from_zero = _result({"text/plain": "", "text/html": _frame_html(range(3))})
    assert len(readability_problems(_notebook(tmp_path, "df", [from_zero]))) == 1
    by_rank = _result({"text/plain": "", "text/html": _frame_html(range(1, 4))})
    assert readability_problems(_notebook(tmp_path, "df", [by_rank])) == []
