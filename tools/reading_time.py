"""Reading time of each chapter, as book/syllabus.md states it.

The method, stated on the syllabus page: the words of a chapter's markdown cells (split at
white space, formulas, exercises and solutions included) read at 200 words a minute, plus one
minute for each code cell (reading it and its output, or running it), rounded to the nearest
5 minutes. tests/test_front_matter.py recomputes every row of the syllabus's table with this
module, so the table cannot go stale; after a chapter changes, print the new table with

    .venv/bin/python tools/reading_time.py

and paste it into book/syllabus.md.
"""

import re
from pathlib import Path

import nbformat

from toc import notebook_chapters

ROOT = Path(__file__).resolve().parents[1]
WORDS_PER_MINUTE = 200
MINUTES_PER_CODE_CELL = 1
ROUND_TO = 5


def reading_minutes(chapter: str) -> int:
    """Minutes to read ``chapter`` (book/<name>), by the method of the module's docstring."""
    notebook = nbformat.read(ROOT / f"{chapter}.ipynb", as_version=4)
    words = sum(
        len(re.findall(r"\S+", cell.source)) for cell in notebook.cells
        if cell.cell_type == "markdown"
    )
    code_cells = sum(cell.cell_type == "code" for cell in notebook.cells)
    minutes = words / WORDS_PER_MINUTE + code_cells * MINUTES_PER_CODE_CELL
    return max(ROUND_TO, ROUND_TO * round(minutes / ROUND_TO))


def table() -> str:
    """The syllabus's table of reading times, as markdown."""
    rows = ["| chapter | reading time |", "| --- | ---: |"]
    rows += [
        f"| {{doc}}`{chapter.removeprefix('book/')}` | {reading_minutes(chapter)} min |"
        for chapter in notebook_chapters()
    ]
    return "\n".join(rows)


if __name__ == "__main__":
    print(table())
