"""The chapters' decks (tools/slides.py, book/slides.yml): every chapter has one, every cell
it names exists, a dropped cell fails loudly, and a built deck loads nothing from the network.

tests/test_site.py opens every deck of the built site in Chromium; these tests need no site.
"""

import json
import re
import sys

import nbformat
import pytest
import yaml
from test_notebooks import ROOT, toc_notebooks

sys.path.insert(0, str(ROOT / "tools"))
import slides  # noqa: E402 - tools/slides.py, not a package

SPEC = yaml.safe_load((ROOT / "book" / "slides.yml").read_text(encoding="utf-8"))


def _cells(chapter):
    return {cell.id: cell for cell in nbformat.read(ROOT / "book" / f"{chapter}.ipynb", 4).cells}


def test_every_notebook_chapter_of_the_toc_has_a_deck_and_no_deck_lacks_its_chapter():
    chapters = [path.stem for path in toc_notebooks()]
    assert sorted(SPEC) == sorted(chapters)


@pytest.mark.parametrize("chapter", sorted(SPEC))
def test_every_cell_a_deck_names_exists_in_its_chapter(chapter):
    held = _cells(chapter)
    assert [entry["id"] for entry in SPEC[chapter] if entry["id"] not in held] == []


@pytest.mark.parametrize("chapter", sorted(SPEC))
def test_each_deck_holds_a_definition_and_starts_a_new_slide_more_than_once(chapter):
    """A deck is a handful of slides with the chapter's bold-faced definitions, not one cell."""
    cells = _cells(chapter)
    types = [entry.get("type", "-") for entry in SPEC[chapter]]
    assert types[0] == "slide" and types.count("slide") >= 3
    assert any("**" in cells[entry["id"]].source for entry in SPEC[chapter]
               if cells[entry["id"]].cell_type == "markdown")


def test_a_cell_the_chapter_dropped_fails_the_deck_naming_the_cell(tmp_path):
    spec = {"ndcg": [{"id": SPEC["ndcg"][0]["id"], "type": "slide"}, {"id": "no-such-cell"}]}
    with pytest.raises(slides.SlideSpecError, match="book/ndcg.ipynb has no cell no-such-cell"):
        slides.build_decks(tmp_path, spec)
    assert not (tmp_path / "slides" / "ndcg.slides.html").exists()


def test_a_deck_for_a_page_not_in_the_toc_is_refused(tmp_path):
    with pytest.raises(slides.SlideSpecError, match="not in _toc.yml"):
        slides.build_decks(tmp_path, {"preface": [{"id": "x"}]})


def test_a_malformed_entry_or_an_unknown_slide_type_is_refused(tmp_path):
    bad_type = tmp_path / "type.yml"
    bad_type.write_text("ndcg:\n  - {id: 5c687fc8, type: title}\n", encoding="utf-8")
    with pytest.raises(slides.SlideSpecError, match="type 'title' is not one of"):
        slides.load_spec(bad_type)
    bad_key = tmp_path / "key.yml"
    bad_key.write_text("ndcg:\n  - {id: 5c687fc8, kind: slide}\n", encoding="utf-8")
    with pytest.raises(slides.SlideSpecError, match=r"'kind': 'slide'\} is not \{id:"):
        slides.load_spec(bad_key)


def test_make_slides_reports_a_dropped_cell_and_exits_non_zero(tmp_path, monkeypatch, capsys):
    spec = tmp_path / "slides.yml"
    spec.write_text("ndcg:\n  - {id: gone-cell, type: slide}\n", encoding="utf-8")
    monkeypatch.setattr(slides, "SPEC", spec)
    assert slides.main([str(tmp_path / "site")]) == 1
    assert "no cell gone-cell" in capsys.readouterr().err


@pytest.fixture(scope="module")
def targets():
    return slides._Targets()


def test_myst_roles_become_links_citations_and_plain_text(targets):
    source = (
        "(sec-x)=\n## Title\n\nSee {doc}`roc_auc`, {doc}`the cutoff chapter <cutoff>`, "
        "{cite:p}`jarvelin2002`, {cite:t}`burges2005`, {ref}`the names <pair-ratio-names>` "
        "and {ref}`sec-ndcg-limits`.\n\n$$\nx = 1\n$$ (eq-x)\n"
    )
    text = slides.plain_markdown(source, "test", set(), targets)
    assert "[ROC curves and AUC](../book/roc_auc.html)" in text
    assert "[the cutoff chapter](../book/cutoff.html)" in text
    # As the site prints them (tools/sphinx_bibliography.py's template): comma, particles.
    assert "(Järvelin and Kekäläinen, 2002)" in text
    assert "Burges et al. (2005)" in text
    assert slides.plain_markdown("{cite:p}`vanrijsbergen1979`", "test", set(), targets) == \
        "(van Rijsbergen, 1979)"
    # An entry without an author (a seed post) is cited by its title, as on the site.
    assert slides.plain_markdown("{cite:p}`seed000`", "test", set(), targets) == \
        "(LTR信息检索评价指标, 2019)"
    assert "the names" in text and "pair-ratio-names" not in text
    page, heading = targets.sections["sec-ndcg-limits"]
    assert f"[{heading}](../book/{page}.html#sec-ndcg-limits)" in text
    assert "(sec-x)=" not in text and "(eq-x)" not in text and "$$\nx = 1\n$$" in text


@pytest.mark.parametrize("source", [
    "An exercise:\n\n```{exercise}\nDo it.\n```\n",
    "See {ref}`cutoff-ex-4`.",
    "As {numref}`fig-cm-matrix` shows.",
    "{eq}`eq-x` holds.",
])
def test_markup_a_slide_cannot_show_is_an_error_not_raw_text(source, targets):
    with pytest.raises(slides.SlideSpecError):
        slides.plain_markdown(source, "test", set(), targets)


def test_a_numref_to_a_figure_of_the_same_deck_reads_the_figure(targets):
    source = "As {numref}`fig-cm-matrix` shows."
    text = slides.plain_markdown(source, "t", {"fig-cm-matrix"}, targets)
    assert text == "As the figure shows."


def test_the_deck_copies_the_chosen_cells_with_slide_types_captions_and_hidden_code(targets):
    chapter = "confusion_matrix"
    entries = [{"id": "cm-000", "type": "slide"}, {"id": "cm-005"},
               {"id": "cm-matrix-fig", "type": "slide", "input": False}]
    deck = slides.deck_notebook(chapter, entries, targets)
    cells = _cells(chapter)
    assert [cell.id for cell in deck.cells] == [
        "cm-000", "cm-005", "cm-matrix-fig", "cm-matrix-fig-caption", "slides-chapter-link"
    ]
    assert deck.cells[1].outputs == cells["cm-005"].outputs
    assert [cell.metadata["slideshow"]["slide_type"] for cell in deck.cells] == [
        "slide", "-", "slide", "-", "slide"
    ]
    assert deck.cells[2].metadata["tags"] == [slides.HIDE_INPUT]
    caption = cells["cm-matrix-fig"].metadata["mystnb"]["figure"]["caption"]
    assert caption[:60] in deck.cells[3].source
    assert "../book/confusion_matrix.html" in deck.cells[4].source


def test_input_false_on_a_markdown_cell_is_refused(targets):
    with pytest.raises(slides.SlideSpecError, match="input: false is for code cells"):
        slides.deck_notebook("ndcg", [{"id": "5c687fc8", "input": False}], targets)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    site = tmp_path_factory.mktemp("site")
    return site, slides.build_decks(site, {"ndcg": SPEC["ndcg"]})


def test_a_built_deck_loads_reveal_and_mathjax_from_beside_it_and_nothing_else(built):
    site, written = built
    assert written == [site / "slides" / "ndcg.slides.html"]
    html = written[0].read_text(encoding="utf-8")
    sources = re.findall(r'<script[^>]*\ssrc="([^"]+)"', html)
    links = re.findall(r'<link[^>]*\shref="([^"]+)"', html)
    assert sources == ["../_static/mathjax/tex-mml-chtml.js", "reveal.js/dist/reveal.js",
                       "reveal.js/plugin/notes/notes.js"]
    # data:, is the empty favicon, which keeps the browser from asking for /favicon.ico.
    assert links == ["reveal.js/dist/reveal.css", "data:,", "reveal.js/dist/theme/white.css"]
    for path in [*sources[1:], links[0], links[2]]:
        assert (site / "slides" / path).is_file(), path
    for cdn in ("cdnjs", "unpkg", "jsdelivr", "googleapis", "require.js", "jquery", "MathJax.Hub"):
        assert cdn not in html
    # The theme's font is reveal.js's own copy, not a font service.
    theme = (site / "slides" / "reveal.js" / "dist" / "theme" / "white.css").read_text()
    assert "http" not in "".join(re.findall(r"@import[^;]*;", theme))


def test_a_built_deck_has_one_section_per_slide_and_the_figures_inline(built):
    _, written = built
    html = written[0].read_text(encoding="utf-8")
    slides_in_spec = sum(entry.get("type") == "slide" for entry in SPEC["ndcg"])
    # nbconvert nests a <section> (a subslide) in each slide's <section>; one more slide holds
    # the closing link to the chapter.
    assert html.count("<section") == 2 * (slides_in_spec + 1)
    cells = _cells("ndcg")
    figures = sum(1 for entry in SPEC["ndcg"] for output in cells[entry["id"]].get("outputs", [])
                  if "image/png" in output.get("data", {}))
    assert figures > 0 and html.count('src="data:image/png;base64,') == figures
    # nbconvert's heading anchors are off: their targets did not match the headings' ids.
    assert 'class="anchor-link"' not in html


def test_reveal_js_is_pinned_to_one_version_in_package_json_and_its_lock():
    package = json.loads((ROOT / "tools" / "slides" / "package.json").read_text())
    lock = json.loads((ROOT / "tools" / "slides" / "package-lock.json").read_text())
    pin = package["dependencies"]["reveal.js"]
    assert re.fullmatch(r"\d+\.\d+\.\d+", pin), f"reveal.js is not pinned exactly: {pin}"
    assert lock["packages"]["node_modules/reveal.js"]["version"] == pin
    installed = ROOT / "tools" / "slides" / "node_modules" / "reveal.js" / "package.json"
    assert json.loads(installed.read_text())["version"] == pin, "run npm ci --prefix tools/slides"

