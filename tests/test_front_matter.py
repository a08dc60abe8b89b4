"""The book's front and back matter: licence, citation, seed posts, glossary, bibliography, syllabus.

What a course adopting the book relies on, checked against the files it is stated in, so that
a statement in one place cannot drift from another: the licences that pyproject.toml, the
preface and the licence files give; CITATION.cff against the preface's BibTeX entry and the
package's version; every mention of a seed post linked to its entry; every glossary term
defined and linked to the section that defines it; every docstring reference keyed to the
bibliography; the syllabus's reading times recomputed.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import nbformat
import pytest
import yaml
from pybtex.database import parse_file, parse_string

ROOT = Path(__file__).resolve().parents[1]
BOOK = ROOT / "book"
sys.path.insert(0, str(ROOT / "tools"))
from reading_time import reading_minutes  # noqa: E402
from toc import notebook_chapters  # noqa: E402
from sphinx_bibliography import author_year  # noqa: E402

PREFACE = (BOOK / "preface.md").read_text(encoding="utf-8")
BIB = parse_file(BOOK / "references.bib")
SEEDS = ["000", "001", "002", "003", "004"]


def _section(markdown: str, title: str) -> str:
    """The text of the ``## title`` section of a markdown page, up to the next ``## ``."""
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", markdown, re.S | re.M)
    assert match, f"no section '## {title}'"
    return match.group(1)


def _markdown_texts():
    """(where, text) of every markdown page of book/ and every markdown cell of a chapter."""
    for path in sorted(BOOK.glob("*.md")):
        yield path.name, path.read_text(encoding="utf-8")
    for path in sorted(BOOK.glob("*.ipynb")):
        for cell in nbformat.read(path, as_version=4).cells:
            if cell.cell_type == "markdown":
                yield f"{path.name} cell {cell.get('id')}", cell.source


# --- Licence ---------------------------------------------------------------------------------

def test_code_is_mit_and_text_is_cc_by_4():
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License\n")
    text = (ROOT / "LICENSE-TEXT.md").read_text(encoding="utf-8")
    assert "Creative Commons Attribution 4.0 International Public License" in text
    assert "Section 8 -- Interpretation." in text, "the legal code is not complete"


def test_pyproject_declares_the_licences_of_what_the_wheel_ships():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    # MIT for the code, NIST's notice for trec_eval's files under rankedu/data/trec_eval and
    # rankedu/data/trec_eval_source, Apache-2.0 for the Open Bandit sample.
    assert project["license"] == "MIT AND NIST-Software AND Apache-2.0"
    for path in project["license-files"]:
        assert (ROOT / path).is_file(), path
    # Every licence the wheel carries beside its data is declared.
    shipped = {p.relative_to(ROOT).as_posix() for p in (ROOT / "rankedu").rglob("LICENSE*")}
    assert shipped <= set(project["license-files"])
    assert not [c for c in project.get("classifiers", []) if c.startswith("License ::")], (
        "PEP 639: no License classifier beside a license expression"
    )


def test_every_licence_file_in_the_repository_is_listed_in_the_preface():
    licence = _section(PREFACE, "Licence")
    # The repository's own files, not what a build or an install leaves beside them.
    tracked = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    files = [ROOT / path for path in tracked if re.match(r"LICEN[SC]E", Path(path).name) and "/" in path]
    assert files, "expected the vendored trec_eval's licence files"
    unlisted = [
        str(path.relative_to(ROOT)) for path in files
        if f"`{path.parent.relative_to(ROOT).as_posix()}/`" not in licence
    ]
    assert unlisted == [], f"vendored licences the preface's Licence section does not list: {unlisted}"


def test_the_footer_states_both_licences():
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    footer = config["html"]["extra_footer"]
    assert "https://creativecommons.org/licenses/by/4.0/" in footer and "MIT" in footer


# --- How to cite -----------------------------------------------------------------------------

def _citation_cff() -> dict:
    return yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))


def test_citation_cff_has_what_cff_1_2_0_requires():
    cff = _citation_cff()
    assert cff["cff-version"] == "1.2.0"
    assert isinstance(cff["message"], str) and cff["message"]
    assert isinstance(cff["title"], str) and cff["title"]
    assert cff["authors"] and all(a.get("name") or a.get("family-names") for a in cff["authors"])
    assert cff.get("type", "software") in {"software", "dataset"}
    preferred = cff["preferred-citation"]
    for key in ("type", "title", "authors"):
        assert preferred[key], key
    assert isinstance(preferred["year"], int)
    assert set(cff["license"]) == {"CC-BY-4.0", "MIT"}


def _preface_bibtex():
    block = re.search(r"```bibtex\n(.*?)```", _section(PREFACE, "How to cite"), re.S)
    assert block, "the preface's How to cite has no BibTeX entry"
    (entry,) = parse_string(block.group(1), "bibtex").entries.values()
    return entry


def test_preface_bibtex_agrees_with_citation_cff_and_the_package_version():
    cff, entry = _citation_cff(), _preface_bibtex()
    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    assert entry.fields["title"] == cff["title"] == cff["preferred-citation"]["title"]
    assert entry.fields["version"] == str(cff["version"]) == version
    assert str(cff["preferred-citation"]["version"]) == version
    assert int(entry.fields["year"]) == cff["preferred-citation"]["year"]


# --- Seed posts ------------------------------------------------------------------------------

# A linked mention: {ref}`seed 003 <seed-003>`, or {ref}`004 <seed-004>` in "seeds 000 and 004".
SEED_LINK = re.compile(r"\{ref\}`([^`<]*?) <seed-(00[0-4])>`")


@pytest.mark.parametrize("seed", SEEDS)
def test_each_seed_post_is_in_the_bibliography_and_listed_in_the_preface(seed):
    entry = BIB.entries[f"seed{seed}"]
    assert entry.fields["title"]
    listing = re.search(rf"^\(seed-{seed}\)=\n\*\*Seed {seed}\.\*\* (.*?)\n\n", PREFACE, re.S | re.M)
    assert listing, f"no (seed-{seed})= entry in the preface"
    assert f"{{cite:p}}`seed{seed}`" in listing.group(1)


def test_every_mention_of_a_seed_post_links_to_its_entry():
    bare = []
    for where, text in _markdown_texts():
        for link in SEED_LINK.finditer(text):
            assert link.group(1).endswith(link.group(2)), f"{where}: {link.group(0)} links elsewhere"
        unlinked = SEED_LINK.sub("", text)
        # The preface's own entries are the targets, not mentions.
        unlinked = re.sub(r"\*\*Seed 00[0-4]\.\*\*|seed-00[0-4]|`seed00[0-4]`", "", unlinked)
        bare += [f"{where}: {m.group(0)!r}" for m in re.finditer(r"\b[Ss]eeds?(?: posts?)? 00[0-4]\b", unlinked)]
    assert bare == [], f"seed posts named by number alone: {bare}"


# --- Bibliography ----------------------------------------------------------------------------

def test_bibliography_labels_are_unique_author_year():
    labels = {key: author_year(entry) for key, entry in BIB.entries.items()}
    assert labels["jarvelin2002"] == "Järvelin and Kekäläinen, 2002"
    duplicated = {label for label in labels.values() if list(labels.values()).count(label) > 1}
    assert duplicated == set()


def _docstrings():
    """(name, docstring) of every module, class, function and method of the rankedu package."""
    import rankedu

    for info in pkgutil.walk_packages(rankedu.__path__, "rankedu."):
        try:
            module = importlib.import_module(info.name)
        except ImportError:  # a module of an optional extra (rankedu.logs without duckdb)
            continue
        yield info.name, module.__doc__ or ""
        for name, obj in vars(module).items():
            if getattr(obj, "__module__", None) != info.name:
                continue
            if inspect.isfunction(obj) or inspect.isclass(obj):
                yield f"{info.name}.{name}", obj.__doc__ or ""
            if inspect.isclass(obj):
                for attr, member in vars(obj).items():
                    if inspect.isfunction(member):
                        yield f"{info.name}.{name}.{attr}", member.__doc__ or ""


def test_every_docstring_reference_names_an_entry_of_the_bibliography():
    """tools/sphinx_bibliography.py links each ``key`` of a References section on the API page."""
    unknown, unlinkable, sections = {}, {}, 0
    for name, doc in _docstrings():
        doc = inspect.cleandoc(doc)
        section = re.search(r"^References\n-{3,}\n(.*?)(?=\n\S[^\n]*\n-{3,}\n|\Z)", doc, re.S | re.M)
        if not section:
            continue
        sections += 1
        entries = [line for line in section.group(1).splitlines() if line.startswith("- ")]
        bad = [line for line in entries if not re.match(r"- ``[^`\s]+``:", line)]
        keys = re.findall(r"^- ``([^`\s]+)``:", section.group(1), re.M)
        if bad or not keys:
            unlinkable[name] = bad or ["(no entry)"]
        if set(keys) - set(BIB.entries):
            unknown[name] = sorted(set(keys) - set(BIB.entries))
    assert sections > 50, f"only {sections} References sections found: is the parsing right?"
    assert unlinkable == {}, f"References entries not of the form '- ``key``: ...': {unlinkable}"
    assert unknown == {}, f"keys not in book/references.bib: {unknown}"


# --- Glossary --------------------------------------------------------------------------------

def _labels() -> dict[str, str]:
    """Every MyST target (label)= of the book, with where it is."""
    found = {}
    for where, text in _markdown_texts():
        for label in re.findall(r"^\(([\w-]+)\)=$", text, re.M):
            found[label] = where
    return found


def _glossary_terms():
    """(term, definition) of each entry of the glossary's definition lists."""
    text = (BOOK / "glossary.md").read_text(encoding="utf-8")
    return re.findall(r"^([^\s:#|][^\n]*)\n: ([^\n]*)\n", text, re.M)


def test_every_glossary_term_has_a_one_line_definition_and_a_link_to_its_section():
    terms = _glossary_terms()
    assert len(terms) >= 60, f"only {len(terms)} glossary terms parsed"
    labels = _labels()
    problems = []
    for term, definition in terms:
        links = re.findall(r"Defined in \{ref\}`(?:[^`<]*<)?([\w-]+)>?`\.$", definition)
        text = definition.split(" Defined in ")[0]
        if len(text.split()) < 4:
            problems.append(f"{term}: no definition")
        if not links:
            problems.append(f"{term}: no 'Defined in {{ref}}`label`' link")
        elif ".ipynb" not in labels.get(links[0], ""):
            problems.append(f"{term}: label {links[0]} is not a target in a chapter")
    assert problems == []


# --- Launch buttons --------------------------------------------------------------------------

def test_the_repository_only_code_block_is_used_only_inside_only_repository():
    """tools/sphinx_repository.py's directive gives nothing without a URL: it must sit in
    an ``{only} repository`` block, or the text around it would speak of a missing block."""
    for where, text in _markdown_texts():
        for match in re.finditer(r"```\{rankedu-repository-code\}", text):
            before = text[: match.start()]
            opened = before.rfind(":::{only} repository")
            assert opened >= 0 and ":::\n" not in before[opened:].replace(":::{only} repository", ""), where


# --- Syllabus --------------------------------------------------------------------------------

def test_syllabus_reading_times_are_the_ones_the_stated_method_gives():
    text = (BOOK / "syllabus.md").read_text(encoding="utf-8")
    stated = dict(re.findall(r"^\| \{doc\}`(\w+)` \| (\d+) min \|$", text, re.M))
    computed = {chapter.removeprefix("book/"): str(reading_minutes(chapter)) for chapter in notebook_chapters()}
    assert stated == computed, "run `python tools/reading_time.py` and paste its table"
