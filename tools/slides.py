"""Build one reveal.js deck per chapter from the chapter's stored cells: ``make slides``.

A deck holds a chapter's key definitions, one worked example and its figures, not the whole
chapter. Which cells, in which order and how they split into slides is written down in
``book/slides.yml``, outside the notebooks, by the cells' ids (nbformat 4.5 ids are stable
across edits and re-execution)::

    ndcg:
      - {id: 2a4e0c9f, type: slide}           # a new slide starts with this cell
      - {id: 7b1c3b99}                        # on the same slide ("-")
      - {id: 1ac4494f, type: slide, input: false}  # a figure without the code that drew it

``type`` is nbconvert's slide type (``slide``, ``subslide``, ``fragment``, ``-``, ``notes``);
``input: false`` shows a code cell's outputs only. An id the chapter no longer has is an
error, so an edit that drops a cell breaks ``make slides`` (and the book's build, which builds
the decks too: see ``sphinx_slides.py``) instead of leaving a deck with a hole.

Nothing is executed: the deck shows the outputs stored in the chapter, which nbval checks.
The deck's cells are copies of the chapter's, with ``slideshow`` metadata added, rendered by
nbconvert's ``SlidesExporter`` through ``tools/slides/templates/rankedu_reveal``, nbconvert's
reveal template without its CDN scripts (see that template). The decks go to ``slides/`` of a
built site, beside a copy of the pinned reveal.js (``tools/slides/package.json``, installed by
``npm ci``), and typeset formulas with the site's own MathJax (``_static/mathjax``, copied
there by ``sphinx_offline_site.py``), so they work offline, served or opened as files.

MyST markup that nbconvert does not know is rewritten for the slide: ``{doc}`` becomes a link
to the chapter's page, ``{cite:p}`` and ``{cite:t}`` the author-year citation read from
``book/references.bib``, ``{ref}`` with an explicit text that text, ``{numref}`` of a figure
of the same deck "the figure", a target line ``(label)=`` and an equation label after ``$$``
go. Any other role or directive in a chosen cell is an error: choose another cell.

Usage: ``python tools/slides.py [SITE]`` writes ``SITE/slides/`` (default ``_build/html``).
"""

from __future__ import annotations

import argparse
import copy
import re
import shutil
import sys
from pathlib import Path

import nbformat
import yaml
from nbconvert.exporters import SlidesExporter
from nbconvert.preprocessors import TagRemovePreprocessor
from pybtex.database import parse_file
from sphinx_bibliography import author_year, authors
from toc import notebook_chapters

ROOT = Path(__file__).resolve().parents[1]
SPEC = ROOT / "book" / "slides.yml"
BIBLIOGRAPHY = ROOT / "book" / "references.bib"
REVEAL = ROOT / "tools" / "slides" / "node_modules" / "reveal.js"
TEMPLATES = ROOT / "tools" / "slides" / "templates"

# Where the decks live in a site, and what they load, relative to the deck.
SLIDES_DIR = "slides"
REVEAL_PREFIX = "reveal.js"
MATHJAX_URL = "../_static/mathjax/tex-mml-chtml.js"
# reveal.js 5's own layout, as nbconvert's reveal template expects it: dist/reveal.css,
# dist/theme/<theme>.css, dist/reveal.js and plugin/notes/notes.js; its demo, sources and
# other plugins are left out.
REVEAL_PARTS = ["dist", "plugin/notes", "LICENSE"]
# reveal.js's "white" theme loads its font from dist/theme/fonts; nbconvert's default,
# "simple", imports two fonts from fonts.googleapis.com.
REVEAL_THEME = "white"

SLIDE_TYPES = {"slide", "subslide", "fragment", "-", "notes"}
ENTRY_KEYS = {"id", "type", "input"}
HIDE_INPUT = "rankedu-slides-hide-input"


class SlideSpecError(Exception):
    """book/slides.yml asks for something the chapter cannot give."""


def toc_chapters() -> list[str]:
    """The notebook chapters of _toc.yml, in book order, by file stem (``book/ndcg``: ``ndcg``)."""
    return [Path(file).name for file in notebook_chapters()]


def load_spec(path: Path | None = None) -> dict[str, list[dict]]:
    """The deck of each chapter: a list of {id, type, input}, checked for shape, not for ids."""
    path = SPEC if path is None else path
    spec = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    if not isinstance(spec, dict):
        raise SlideSpecError(f"{path.name}: expected chapter: [cells], got {type(spec).__name__}")
    for chapter, entries in spec.items():
        if not isinstance(entries, list) or not entries:
            raise SlideSpecError(f"{path.name}: {chapter}: expected a non-empty list of cells")
        for entry in entries:
            if not isinstance(entry, dict) or "id" not in entry or set(entry) - ENTRY_KEYS:
                raise SlideSpecError(
                    f"{path.name}: {chapter}: {entry!r} is not {{id: ..., type: ..., input: ...}}"
                )
            if entry.get("type", "-") not in SLIDE_TYPES:
                raise SlideSpecError(
                    f"{path.name}: {chapter}: cell {entry['id']}: type {entry['type']!r} is "
                    f"not one of {sorted(SLIDE_TYPES)}"
                )
    return spec


def _page_title(name: str) -> str:
    """The first heading of book/<name>.ipynb or .md: the title its page and links show."""
    notebook = ROOT / "book" / f"{name}.ipynb"
    if notebook.is_file():
        text = "\n".join(
            cell.source for cell in nbformat.read(notebook, as_version=4).cells
            if cell.cell_type == "markdown"
        )
    else:
        text = (ROOT / "book" / f"{name}.md").read_text(encoding="utf-8")
    heading = re.search(r"^# (.+)$", text, flags=re.MULTILINE)
    if heading is None:
        raise SlideSpecError(f"book/{name} has no '# ' heading to name it by")
    return heading.group(1).strip()


class _Targets:
    """What MyST roles point to: the entries of book/references.bib and the labelled sections."""

    def __init__(self, path: Path = BIBLIOGRAPHY):
        self.entries = parse_file(str(path), bib_format="bibtex").entries
        self.sections = _section_targets()

    def _entry(self, key: str):
        if key not in self.entries:
            raise SlideSpecError(f"citation {key!r} is not in {BIBLIOGRAPHY.name}")
        return self.entries[key]

    def parenthetical(self, keys: list[str]) -> str:
        """Author-year text, from the template of the site's own citations
        (tools/sphinx_bibliography.py)."""
        return "(" + "; ".join(author_year(self._entry(k)) for k in keys) + ")"

    def textual(self, keys: list[str]) -> str:
        return "; ".join(
            f"{authors(self._entry(k), render=True)} ({self._entry(k).fields['year']})"
            for k in keys)


ROLE = re.compile(r"\{(?P<role>[\w:-]+)\}`(?P<body>[^`]*)`")
EXPLICIT = re.compile(r"^(?P<text>.*?)\s*<(?P<target>[^<>]+)>$", flags=re.DOTALL)
DIRECTIVE = re.compile(r"^\s*(```+|:::+)\s*\{", flags=re.MULTILINE)
TARGET_LINE = re.compile(r"^\([\w-]+\)=[ \t]*\n?", flags=re.MULTILINE)
SECTION_TARGET = re.compile(r"^\(([\w-]+)\)=[ \t]*\n#+ (.+)$", flags=re.MULTILINE)
EQUATION_LABEL = re.compile(r"\$\$[ \t]*\([\w-]+\)[ \t]*$", flags=re.MULTILINE)


def _chapter_link(target: str, text: str | None) -> str:
    name = target.removeprefix("/").removeprefix("book/")
    if not any((ROOT / "book" / f"{name}{suffix}").is_file() for suffix in (".ipynb", ".md")):
        raise SlideSpecError(f"{{doc}}`{target}` names no page of book/")
    return f"[{text or _page_title(name)}](../book/{name}.html)"


def _section_targets() -> dict[str, tuple[str, str]]:
    """Each ``(label)=`` line right above a heading in book/: label -> (page, heading)."""
    targets = {}
    for notebook in sorted((ROOT / "book").glob("*.ipynb")):
        for cell in nbformat.read(notebook, as_version=4).cells:
            if cell.cell_type == "markdown":
                for label, heading in SECTION_TARGET.findall(cell.source):
                    targets[label] = (notebook.stem, heading.strip())
    return targets


def plain_markdown(source: str, where: str, figures: set[str], targets: _Targets) -> str:
    """``source`` with its MyST roles, targets and equation labels made plain Markdown."""
    if DIRECTIVE.search(source):
        raise SlideSpecError(
            f"{where}: a directive (```{{...}} or :::{{...}}) cannot go on a slide"
        )

    def replace(match: re.Match) -> str:
        role, body = match["role"], match["body"]
        explicit = EXPLICIT.match(body)
        text, target = (explicit["text"], explicit["target"]) if explicit else (None, body)
        if role == "doc":
            return _chapter_link(target, text)
        if role in ("cite:p", "cite:t"):
            keys = [key.strip() for key in body.split(",")]
            return targets.parenthetical(keys) if role == "cite:p" else targets.textual(keys)
        if role == "ref" and text:
            return text
        if role == "ref" and target in targets.sections:
            page, heading = targets.sections[target]
            return f"[{heading}](../book/{page}.html#{target})"
        if role == "numref" and not text and target in figures:
            return "the figure"
        raise SlideSpecError(
            f"{where}: {match[0]} has no plain form on a slide ({{ref}} needs an explicit "
            "text or a section label, {numref} a figure of the same deck): choose another cell"
        )

    source = ROLE.sub(replace, source)
    source = TARGET_LINE.sub("", source)
    return EQUATION_LABEL.sub("$$", source)


def _figure(cell) -> dict:
    return cell.metadata.get("mystnb", {}).get("figure", {})


def deck_notebook(chapter: str, entries: list[dict], targets: _Targets):
    """The deck of one chapter: copies of the chosen cells, with slide types and captions."""
    chapter_nb = nbformat.read(ROOT / "book" / f"{chapter}.ipynb", as_version=4)
    cells = {cell.id: cell for cell in chapter_nb.cells}
    absent = [entry["id"] for entry in entries if entry["id"] not in cells]
    if absent:
        raise SlideSpecError(
            f"{SPEC.name}: {chapter}: book/{chapter}.ipynb has no cell {', '.join(absent)}"
        )
    figures = {_figure(cells[entry["id"]]).get("name") for entry in entries} - {None}
    deck = nbformat.v4.new_notebook(metadata={
        key: chapter_nb.metadata[key] for key in ("kernelspec", "language_info")
        if key in chapter_nb.metadata
    })
    deck.metadata["title"] = _page_title(chapter)
    for entry in entries:
        source_cell = cells[entry["id"]]
        where = f"book/{chapter}.ipynb cell {entry['id']}"
        cell = copy.deepcopy(source_cell)
        cell.metadata = {"slideshow": {"slide_type": entry.get("type", "-")}}
        if not entry.get("input", True):
            if cell.cell_type != "code":
                raise SlideSpecError(f"{SPEC.name}: {where}: input: false is for code cells")
            cell.metadata["tags"] = [HIDE_INPUT]
        if cell.cell_type == "markdown":
            cell.source = plain_markdown(cell.source, where, figures, targets)
        deck.cells.append(cell)
        caption = _figure(source_cell).get("caption")
        for output in cell.get("outputs", []):
            if "image/png" in output.get("data", {}):
                alt = caption or f"A figure of the chapter {deck.metadata['title']}"
                output.setdefault("metadata", {}).setdefault("image/png", {})["alt"] = alt
        if caption:
            # The added cells get ids of their own, derived, so the deck's bytes stay the same
            # from one build to the next (nbformat would draw random ones).
            deck.cells.append(nbformat.v4.new_markdown_cell(
                f'<div class="rankedu-caption">\n\n'
                f"{plain_markdown(caption, where + ' (caption)', figures, targets)}\n\n</div>",
                metadata={"slideshow": {"slide_type": "-"}}, id=f"{entry['id']}-caption",
            ))
    deck.cells.append(nbformat.v4.new_markdown_cell(
        f"The whole chapter: [{deck.metadata['title']}](../book/{chapter}.html)",
        metadata={"slideshow": {"slide_type": "slide"}}, id="slides-chapter-link",
    ))
    return deck


def _exporter() -> SlidesExporter:
    exporter = SlidesExporter(
        extra_template_basedirs=[str(TEMPLATES)],
        template_name="rankedu_reveal",
        reveal_url_prefix=REVEAL_PREFIX,
        reveal_theme=REVEAL_THEME,
        reveal_number="c/t",
        mathjax_url=MATHJAX_URL,
        # "In [17]:" numbers the chapter's execution, which a deck of a few cells does not show.
        exclude_input_prompt=True,
        exclude_output_prompt=True,
        # The theme hides the headings' anchor links, and nbconvert spells their targets
        # differently from the headings' ids when a heading holds TeX or non-ASCII letters.
        exclude_anchor_links=True,
    )
    exporter.register_preprocessor(
        TagRemovePreprocessor(remove_input_tags={HIDE_INPUT}, enabled=True), enabled=True
    )
    return exporter


def copy_reveal(slides_dir: Path) -> None:
    """The parts of the pinned reveal.js a deck loads, beside the decks."""
    if not (REVEAL / "dist" / "reveal.js").is_file():
        raise SlideSpecError(
            f"no reveal.js in {REVEAL.parent}: run `make slides` (or `npm ci --prefix "
            "tools/slides`), which installs the pinned reveal.js"
        )
    for part in REVEAL_PARTS:
        source, target = REVEAL / part, slides_dir / REVEAL_PREFIX / part
        if source.is_dir():
            shutil.copytree(source, target, dirs_exist_ok=True)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)


def build_decks(site: Path, spec: dict[str, list[dict]] | None = None) -> list[Path]:
    """Write SITE/slides/<chapter>.slides.html for every chapter of the spec, and reveal.js."""
    spec = load_spec() if spec is None else spec
    unknown = sorted(set(spec) - set(toc_chapters()))
    if unknown:
        raise SlideSpecError(f"{SPEC.name} has decks for chapters not in _toc.yml: {unknown}")
    slides_dir = site / SLIDES_DIR
    slides_dir.mkdir(parents=True, exist_ok=True)
    copy_reveal(slides_dir)
    targets, exporter, written = _Targets(), _exporter(), []
    for chapter, entries in spec.items():
        body, _ = exporter.from_notebook_node(
            deck_notebook(chapter, entries, targets), resources={"metadata": {"name": chapter}}
        )
        path = slides_dir / f"{chapter}.slides.html"
        path.write_text(body, encoding="utf-8")
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", nargs="?", default=str(ROOT / "_build" / "html"),
                        help="the built site; the decks go to its slides/ folder")
    args = parser.parse_args(argv)
    try:
        written = build_decks(Path(args.site))
    except SlideSpecError as error:
        print(f"make slides: {error}", file=sys.stderr)
        return 1
    print(f"{len(written)} decks in {Path(args.site) / SLIDES_DIR}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
