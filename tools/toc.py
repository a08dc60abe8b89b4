"""The notebook chapters of the book's table of contents, for the tools that walk them
(tools/slides.py, tools/reading_time.py). The tests read _toc.yml through the notebook guard's
own walk (tests/test_notebooks.py), which knows every kind of entry."""

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
TOC = ROOT / "_toc.yml"


def notebook_chapters() -> list[str]:
    """The chapters of _toc.yml's parts that are notebooks, in book order, as book/<name>."""
    toc = yaml.safe_load(TOC.read_text(encoding="utf-8"))
    files = [entry["file"] for part in toc.get("parts", []) for entry in part.get("chapters", [])]
    return [file for file in files if (ROOT / f"{file}.ipynb").is_file()]
