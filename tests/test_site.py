"""The website as readers get it: every page of the built book, opened in headless Chromium.

Runs against the two built editions: ``make test`` builds the book and its student edition
(without the solutions) and then runs this file with ``RANKEDU_SITE_DIR`` and
``RANKEDU_STUDENTS_SITE_DIR`` pointing at their HTML (see the Makefile's ``test-site``); every
test of a site runs on each edition. Without a variable, as in a plain ``pytest tests`` before
any build, the tests of that edition are skipped; only the check that each docstring links
back to its chapter runs without a site.

For each page of ``_toc.yml`` (and the landing, search and index pages) the test serves the
site on 127.0.0.1, blocks every request that leaves localhost (so "offline" is really what is
checked: MathJax, fonts and figures must come from the site itself), and asserts that

- MathJax typeset every formula: each ``.math`` element holds an ``mjx-container`` and no raw
  TeX (``$$``, ``\\(``, ``\\[``, ``\\begin{``) is left in the page's text;
- every ``<img>`` loaded (``naturalWidth > 0``);
- the browser logged no console error and no uncaught exception;
- every link into the site resolves to a file, and its ``#anchor`` exists in that file.

Each chapter's reveal.js deck (``slides/<chapter>.slides.html``, built with the site from
``book/slides.yml``) is opened the same way: reveal.js starts, the deck has its slides, its
formulas are typeset by the site's MathJax, its figures load, nothing leaves the machine and
nothing is logged as an error; each chapter page links to its deck.

Both editions number their chapters, and each chapter's exercises within it ("Exercise 8.3");
the main edition shows every solution, the student edition none.

With ``RANKEDU_SCREENSHOTS`` set to a folder (``make screenshots`` does this), a full-page
screenshot of each page and deck of the main edition is saved there for review. ``make test``
takes none: they check nothing, they made this file take 169 s instead of 120 s on an idle
machine, and on a busy one the API page's (20 s when idle) once passed Playwright's 30 s.
Chromium is Debian's ``chromium`` package, driven by Playwright's bundled driver (no browser
is downloaded); ``.ci/run`` installs it when missing.
"""

from __future__ import annotations

import functools
import http.server
import os
import re
import shutil
import sys
import threading
import urllib.parse
from html.parser import HTMLParser
from pathlib import Path

import nbformat
import pytest
import yaml
from test_notebooks import resolve_entry, toc_entries

ROOT = Path(__file__).resolve().parents[1]
# tools/sphinx_repository.py reads the repository's URL for the build; the test reads it alike.
sys.path.insert(0, str(ROOT / "tools"))
from sphinx_repository import repository_url  # noqa: E402
SITE_ENV = "RANKEDU_SITE_DIR"
# Each edition of the book and the variable that names its built HTML.
EDITIONS = {"main": SITE_ENV, "students": "RANKEDU_STUDENTS_SITE_DIR"}
# Where screenshots go, when they are asked for (a path relative to the repository's root).
SCREENSHOTS = os.environ.get("RANKEDU_SCREENSHOTS")

# This machine's network is closed; without these, Chromium keeps trying to reach Google's
# services and logs refused connections. --headless is added by Playwright (headless=True).
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
LOCAL_HOSTS = {"127.0.0.1", "localhost"}

# Text that MathJax would have replaced, had it run (inline \( \), display \[ \] and $$).
RAW_TEX = ["$$", "\\(", "\\)", "\\[", "\\]", "\\begin{"]

SKIP_REASON = (
    "needs a built site: {env} unset (`make test` sets it after building the book;"
    " or run `{env}=_build/html pytest tests/test_site.py` after `make book`, or"
    " `{env}=_build/students/_build/html` after `make book-students`)"
)


def toc_pages() -> list[str]:
    """The site path of every page of _toc.yml, in book order (book/x -> book/x.html)."""
    # _toc.yml is parsed in one place, the notebook guard's toc_entries.
    return [f"{file.removesuffix('.ipynb').removesuffix('.md')}.html" for file in toc_entries()]


PAGES = [*toc_pages(), "genindex.html", "search.html"]


@pytest.fixture(scope="module", params=list(EDITIONS))
def edition(request) -> str:
    return request.param


@pytest.fixture(scope="module")
def site_dir(edition) -> Path:
    env = EDITIONS[edition]
    if not os.environ.get(env):
        pytest.skip(SKIP_REASON.format(env=env))
    site = Path(os.environ[env])
    site = site if site.is_absolute() else ROOT / site
    if not (site / "index.html").is_file():
        pytest.fail(f"{env}={site} holds no index.html: build the book first")
    return site


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - the base class's signature
        pass


class _QuietServer(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        # Chromium drops a connection it no longer needs (a page left before a font or image
        # arrived); the server then writes to a closed socket. That is no failure of the site.
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


@pytest.fixture(scope="module")
def base_url(site_dir):
    handler = functools.partial(_QuietHandler, directory=str(site_dir))
    server = _QuietServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()
    thread.join(timeout=10)


def _chromium() -> str:
    path = shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(path).is_file():
        pytest.fail(
            "Chromium is missing: install Debian's package with "
            "`apt-get update && apt-get install -y chromium` (.ci/run does this when it is absent)"
        )
    return path


@pytest.fixture(scope="module")
def browser(site_dir):
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=_chromium(), headless=True, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()


class Visit:
    """One page opened offline: what it logged, which requests left localhost."""

    def __init__(self, browser, url: str):
        self.context = browser.new_context(viewport={"width": 1280, "height": 900})
        # make test runs this beside other steps on two cores: a page that loads slowly there
        # (the API page takes 8 s on an idle machine) is no failure of the site.
        self.context.set_default_timeout(90_000)
        self.blocked: list[str] = []
        self.errors: list[str] = []
        self.context.route("**/*", self._route)
        self.page = self.context.new_page()
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda exc: self.errors.append(f"uncaught: {exc}"))
        self.page.goto(url, wait_until="load")
        # MathJax is loaded with `defer` and typesets asynchronously; its startup promise
        # resolves once the first typesetting pass is done.
        self.page.evaluate(
            """async () => {
                if (window.MathJax && MathJax.startup && MathJax.startup.promise) {
                    await MathJax.startup.promise;
                }
            }"""
        )

    def _route(self, route):
        host = urllib.parse.urlsplit(route.request.url).hostname
        if host in LOCAL_HOSTS or route.request.url.startswith(("data:", "blob:")):
            route.continue_()
        else:
            self.blocked.append(route.request.url)
            route.abort()

    def _console(self, message):
        if message.type == "error":
            self.errors.append(f"console: {message.text} ({message.location.get('url')})")

    def close(self):
        self.context.close()


def screenshot(page: Visit, name: str, **options) -> None:
    """A screenshot of an opened page as ``<name>.png`` in the folder ``RANKEDU_SCREENSHOTS``
    names, if it names one."""
    if SCREENSHOTS:
        folder = Path(SCREENSHOTS) if Path(SCREENSHOTS).is_absolute() else ROOT / SCREENSHOTS
        folder.mkdir(parents=True, exist_ok=True)
        page.page.screenshot(path=str(folder / f"{name}.png"), **options)


@pytest.fixture
def visit(browser, base_url):
    opened = []

    def open_page(path: str) -> Visit:
        opened.append(Visit(browser, base_url + path))
        return opened[-1]

    yield open_page
    for page in opened:
        page.close()


class _Targets(HTMLParser):
    """The ids (and old-style <a name>) a page defines, as anchors a link may point to."""

    def __init__(self):
        super().__init__()
        self.anchors: set[str] = set()

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if value and (name == "id" or (tag == "a" and name == "name")):
                self.anchors.add(value)


@functools.lru_cache(maxsize=None)
def _anchors(path: Path) -> frozenset[str]:
    parser = _Targets()
    parser.feed(path.read_text(encoding="utf-8", errors="replace"))
    return frozenset(parser.anchors)


def _broken_links(site_dir: Path, base_url: str, page_url: str, hrefs: list[str]) -> list[str]:
    """Every link into the site whose file is missing or whose #anchor is not in that file."""
    broken = []
    for href in sorted(set(hrefs)):
        parts = urllib.parse.urlsplit(urllib.parse.urljoin(page_url, href))
        if parts.scheme not in ("http", "https") or not href or href.startswith("#") and len(href) == 1:
            continue
        if f"{parts.scheme}://{parts.netloc}/" != base_url:
            continue  # outside the site (repository, Colab, Binder, DOIs): not fetched offline
        target = site_dir / urllib.parse.unquote(parts.path).lstrip("/")
        if target.is_dir():
            target = target / "index.html"
        if not target.is_file():
            broken.append(f"{href}: no file {target.relative_to(site_dir)}")
        elif parts.fragment and target.suffix == ".html":
            anchor = urllib.parse.unquote(parts.fragment)
            if anchor not in _anchors(target):
                broken.append(f"{href}: no id {anchor!r} in {target.relative_to(site_dir)}")
    return broken


MATH_REPORT = """() => {
    const skip = new Set(["SCRIPT", "STYLE", "PRE", "CODE", "TEXTAREA", "MJX-CONTAINER"]);
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT, {
        acceptNode(node) {
            for (let el = node.parentElement; el; el = el.parentElement) {
                if (skip.has(el.tagName.toUpperCase()) || el.classList.contains("highlight")) {
                    return NodeFilter.FILTER_REJECT;
                }
            }
            return NodeFilter.FILTER_ACCEPT;
        },
    });
    const texts = [];
    while (walker.nextNode()) texts.push(walker.currentNode.nodeValue);
    const math = [...document.querySelectorAll(".math")];
    return {
        texts,
        math: math.length,
        untypeset: math.filter(el => !el.querySelector("mjx-container"))
                       .map(el => el.textContent.trim().slice(0, 80)),
        containers: document.querySelectorAll("mjx-container").length,
        mathjaxScripts: [...document.scripts].map(s => s.src).filter(s => /mathjax/i.test(s)),
    };
}"""

IMAGES_REPORT = """async () => {
    const images = [...document.images];
    images.forEach(img => { img.loading = "eager"; });
    await Promise.all(images.map(img => img.complete ? null : new Promise(done => {
        img.addEventListener("load", done); img.addEventListener("error", done);
    })));
    return images.map(img => ({src: img.currentSrc || img.src, width: img.naturalWidth}));
}"""

# The code cells' inputs and their printed messages (stdout, stderr) wider than their box: the
# first 60 characters of each.
SIDEWAYS_REPORT = """() => [...document.querySelectorAll(
    'div.cell_input pre, div.cell_output div.output.stream pre, div.cell_output div.output.stderr pre')]
  .filter(pre => pre.scrollWidth > pre.clientWidth + 1)
  .map(pre => pre.textContent.trim().slice(0, 60))"""


@pytest.mark.parametrize("path", PAGES)
def test_page_offline_typeset_loaded_and_linked(path, edition, site_dir, base_url, visit):
    page = visit(path)
    # The student edition's pages are the main edition's less the solutions: no screenshots.
    if edition == "main":
        screenshot(page, path.removesuffix(".html").replace("/", "_"), full_page=True)

    assert page.blocked == [], f"{path} requested something off this machine: {page.blocked}"
    assert page.errors == [], f"{path} logged errors: {page.errors}"

    math = page.page.evaluate(MATH_REPORT)
    leftover = [t.strip()[:80] for t in math["texts"] if any(tex in t for tex in RAW_TEX)]
    assert leftover == [], f"{path} shows raw TeX that MathJax did not typeset: {leftover}"
    assert math["untypeset"] == [], f"{path}: formulas without mjx-container: {math['untypeset']}"
    if math["math"]:
        assert math["containers"] >= math["math"]
        assert math["mathjaxScripts"], f"{path} has formulas but loads no MathJax"
        assert all(src.startswith(base_url + "_static/mathjax/") for src in math["mathjaxScripts"]), (
            f"{path} loads MathJax from elsewhere than the site: {math['mathjaxScripts']}"
        )

    images = page.page.evaluate(IMAGES_REPORT)
    assert [img["src"] for img in images if img["width"] == 0] == [], f"{path}: images that did not load"

    # Code and printed messages fit the column of a 1280 px window (_static/rankedu.css):
    # nothing a reader needs hides behind a horizontal scrollbar.
    sideways = page.page.evaluate(SIDEWAYS_REPORT)
    assert sideways == [], f"{path}: code or printed output scrolls sideways: {sideways}"

    hrefs = page.page.eval_on_selector_all("a[href]", "links => links.map(a => a.href)")
    broken = _broken_links(site_dir, base_url, page.page.url, hrefs)
    assert broken == [], f"{path} has broken internal links: {broken}"


def test_pages_with_formulas_reference_no_cdn(site_dir):
    """MathJax comes from _static/mathjax; no built page names a CDN (for MathJax or thebe)."""
    offenders = {}
    for html in site_dir.rglob("*.html"):
        text = html.read_text(encoding="utf-8", errors="replace")
        found = [word for word in ("cdn.", "jsdelivr", "cdnjs", "unpkg", "mathjax@", "polyfill.io")
                 if word in text]
        if found:
            offenders[str(html.relative_to(site_dir))] = found
    assert offenders == {}
    assert (site_dir / "_static" / "mathjax" / "tex-mml-chtml.js").is_file()
    assert (site_dir / "_static" / "mathjax" / "output" / "chtml" / "fonts" / "woff-v2").is_dir()


def test_landing_page_opens_the_first_page_of_the_toc(browser, base_url):
    context = browser.new_context()
    page = context.new_page()
    page.goto(base_url, wait_until="load")
    page.wait_for_url(base_url + toc_pages()[0], timeout=10_000)
    context.close()


def test_search_finds_ndcg(visit):
    page = visit("search.html?q=ndcg")
    results = page.page.locator("#search-results li")
    results.first.wait_for(state="attached", timeout=20_000)
    titles = results.all_inner_texts()
    assert len(titles) > 0
    assert any("NDCG" in title or "ndcg" in title.lower() for title in titles), titles
    assert page.blocked == [] and page.errors == [], (page.blocked, page.errors)


# The repository's URL is one setting, the environment variable that tools/sphinx_repository.py
# reads when the site is built; this test reads the same variable, so it must be given to both
# (`RANKEDU_REPOSITORY_URL=https://github.com/owner/name make test-build test-site`). Unset, as
# by default, the site must link to no repository.
# What sphinx-book-theme writes for each kind of button (its header_buttons' labels and the
# launch providers' hosts).
REPOSITORY_MARKERS = [
    "btn-source-repository-button",
    "btn-source-issues-button",
    "btn-source-file-button",
    "launch-buttons",
    "colab.research.google.com",
    "mybinder.org",
]


def _is_notebook(path: str) -> bool:
    return (ROOT / path).with_suffix(".ipynb").is_file()


@pytest.mark.parametrize("path", toc_pages())
def test_no_repository_button_or_instruction_without_a_repository(path, site_dir):
    """By default no page links to a repository: no repository, issues, Binder or Colab button."""
    if repository_url():
        pytest.skip("RANKEDU_REPOSITORY_URL is set: the buttons' targets are checked instead")
    text = (site_dir / path).read_text(encoding="utf-8")
    assert [marker for marker in REPOSITORY_MARKERS if marker in text] == []
    assert "git+" not in text, f"{path} tells the reader to install from a repository"


@pytest.mark.parametrize("path", [p for p in toc_pages() if _is_notebook(p)])
def test_launch_buttons_open_this_notebook_in_colab_and_binder(path, site_dir):
    """With a repository, a chapter's launch buttons open its own notebook from it."""
    url = repository_url()
    if not url:
        pytest.skip("RANKEDU_REPOSITORY_URL is unset: the site has no launch buttons")
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    repo = urllib.parse.urlsplit(url).path.strip("/")
    branch = config["repository"]["branch"]
    notebook = path.removesuffix(".html") + ".ipynb"
    text = (site_dir / path).read_text(encoding="utf-8")
    colab = f"https://colab.research.google.com/github/{repo}/blob/{branch}/{notebook}"
    binder = f"https://mybinder.org/v2/gh/{repo}/{branch}?urlpath=lab/tree/{notebook}"
    assert f'href="{colab}"' in text, f"no Colab button opening {notebook} in {path}"
    assert f'href="{binder}"' in text, f"no Binder button opening {notebook} in {path}"
    assert f'href="{url}"' in text, f"no repository button in {path}"
    assert f'href="{url}/issues/new' in text, f"no issues button in {path}"


def test_the_colab_instruction_installs_from_the_repository(site_dir):
    url = repository_url()
    if not url:
        pytest.skip("RANKEDU_REPOSITORY_URL is unset: the preface has no Colab instruction")
    text = (site_dir / "book" / "preface.html").read_text(encoding="utf-8")
    assert f"git+{url}" in text


def _source_text(page: str) -> str:
    """The text of the chapter a page is built from, the notebook's JSON or the Markdown file."""
    return resolve_entry(ROOT, page.removesuffix(".html")).read_text(encoding="utf-8")


# What a built page shows: its title's number ("8. "), each exercise's label, each solution.
CHAPTER_NUMBER = re.compile(r'<h1><span class="section-number">(\d+)\. </span>')
EXERCISE_LABEL = re.compile(r'<span class="caption-number">(Exercise [^<]*?) ?</span>')
SOLUTION = re.compile(r'<div class="solution\b')


def numbered_pages() -> list[str]:
    """The site path of every chapter of the numbered parts of _toc.yml, in book order: the
    numbers count on across those parts; a part without ``numbered`` (the front matter) has
    none."""
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    return [f"{chapter['file']}.html" for part in toc["parts"] if part.get("numbered")
            for chapter in part["chapters"]]


@pytest.mark.parametrize("number, path", list(enumerate(numbered_pages(), start=1)))
def test_chapter_is_numbered_and_its_exercises_within_it(number, path, site_dir):
    """Chapter N's title reads "N." and its exercises "Exercise N.1", "Exercise N.2", … in order."""
    text = (site_dir / path).read_text(encoding="utf-8")
    assert CHAPTER_NUMBER.findall(text)[:1] == [str(number)], f"{path} is not chapter {number}"
    exercises = len(re.findall(r"[`:]{3,}\{exercise\}", _source_text(path)))
    expected = [f"Exercise {number}.{m}" for m in range(1, exercises + 1)]
    assert EXERCISE_LABEL.findall(text) == expected


def test_the_preface_and_the_front_matter_are_not_numbered(site_dir):
    unnumbered = [page for page in toc_pages() if page not in numbered_pages()]
    assert "book/preface.html" in unnumbered and "book/syllabus.html" in unnumbered
    for page in unnumbered:
        text = (site_dir / page).read_text(encoding="utf-8")
        assert CHAPTER_NUMBER.findall(text) == [], page


@pytest.mark.parametrize("path", toc_pages())
def test_the_main_edition_shows_every_solution_and_the_student_edition_none(
    path, edition, site_dir
):
    source = _source_text(path)
    solutions = len(re.findall(r"[`:]{3,}\{solution(?:-start)?\}", source))
    expected = {"main": solutions, "students": 0}[edition]
    shown = len(SOLUTION.findall((site_dir / path).read_text(encoding="utf-8")))
    assert shown == expected, f"{edition} edition: {path} shows {shown} solutions of {solutions}"


def test_the_book_has_solutions_to_hide():
    """Without any, the student edition's test above would pass on a build that hides none."""
    assert sum(
        len(re.findall(r"[`:]{3,}\{solution(?:-start)?\}", _source_text(page)))
        for page in toc_pages()
    ) > 0


def _public_functions():
    import rankedu as rk

    for name in sorted(rk.__all__):
        obj = getattr(rk, name)
        if callable(obj) and not isinstance(obj, type) and name != "explain":
            yield name


@pytest.mark.parametrize("name", list(_public_functions()))
def test_docstring_links_back_to_a_chapter_of_the_book(name):
    """Each public function names the chapter that explains it (rendered as a link in book/api)."""
    import re

    import rankedu as rk

    doc = getattr(rk, name).__doc__ or ""
    chapters = re.findall(r":doc:`/(book/\w+)`", doc)
    assert chapters, f"rk.{name}'s docstring has no :doc:`/book/<chapter>` line"
    listed = {f"{page.removesuffix('.html')}" for page in toc_pages()}
    assert set(chapters) <= listed, f"rk.{name} links to chapters not in _toc.yml: {chapters}"


SLIDES_SPEC = yaml.safe_load((ROOT / "book" / "slides.yml").read_text(encoding="utf-8"))


def _deck_cells(chapter: str) -> list:
    cells = {cell.id: cell for cell in nbformat.read(ROOT / "book" / f"{chapter}.ipynb", 4).cells}
    return [cells[entry["id"]] for entry in SLIDES_SPEC[chapter]]


def _deck_has_formulas(chapter: str) -> bool:
    """Whether a cell the deck shows, or a figure caption of it, holds TeX."""
    for cell in _deck_cells(chapter):
        caption = cell.metadata.get("mystnb", {}).get("figure", {}).get("caption", "")
        if "$" in caption or (cell.cell_type == "markdown" and "$" in cell.source):
            return True
    return False


# Every build makes the same decks from book/slides.yml (no solution is in any): they are
# opened in the main edition only (this overrides the edition fixture's two editions).
@pytest.mark.parametrize("edition", ["main"], scope="module")
@pytest.mark.parametrize("chapter", list(SLIDES_SPEC))
def test_deck_opens_offline_with_its_slides_formulas_and_figures(chapter, site_dir, base_url,
                                                                 visit):
    path = f"slides/{chapter}.slides.html"
    page = visit(path)
    page.page.wait_for_function("() => window.Reveal && Reveal.isReady()", timeout=20_000)
    screenshot(page, f"slides_{chapter}")

    assert page.blocked == [], f"{path} requested something off this machine: {page.blocked}"
    assert page.errors == [], f"{path} logged errors: {page.errors}"

    # Every slide the spec starts, and the closing one that links back to the chapter.
    starts = sum(entry.get("type") == "slide" for entry in SLIDES_SPEC[chapter])
    assert page.page.evaluate("Reveal.getTotalSlides()") == starts + 1

    math = page.page.evaluate(MATH_REPORT)
    # The decks' inline formulas are $...$ (nbconvert keeps the Markdown's delimiters).
    leftover = [t.strip()[:80] for t in math["texts"] if any(tex in t for tex in [*RAW_TEX, "$"])]
    assert leftover == [], f"{path} shows raw TeX that MathJax did not typeset: {leftover}"
    if _deck_has_formulas(chapter):
        assert math["containers"] > 0, f"{path} has formulas but MathJax typeset none"
        assert math["mathjaxScripts"] and all(
            src.startswith(base_url + "_static/mathjax/") for src in math["mathjaxScripts"]
        ), f"{path} loads MathJax from elsewhere than the site: {math['mathjaxScripts']}"

    images = page.page.evaluate(IMAGES_REPORT)
    assert [img["src"][:40] for img in images if img["width"] == 0] == [], f"{path}: images that did not load"
    figures = sum(1 for cell in _deck_cells(chapter) for output in cell.get("outputs", [])
                  if "image/png" in output.get("data", {}))
    assert len(images) == figures

    hrefs = page.page.eval_on_selector_all("a[href]", "links => links.map(a => a.href)")
    # reveal.js's own routes (#/3, the slide number's link) name slides, not element ids.
    hrefs = [href for href in hrefs if not urllib.parse.urlsplit(href).fragment.startswith("/")]
    assert _broken_links(site_dir, base_url, page.page.url, hrefs) == []
    assert base_url + f"book/{chapter}.html" in hrefs, f"{path} does not link back to its chapter"


@pytest.mark.parametrize("chapter", list(SLIDES_SPEC))
def test_chapter_page_links_to_its_deck_under_its_title(chapter, site_dir):
    # Read from the file, not in Chromium: test_page_offline_typeset_loaded_and_linked has
    # opened every chapter page already, and checked that each of its links resolves.
    html = (site_dir / "book" / f"{chapter}.html").read_text(encoding="utf-8")
    links = re.findall(r'<p class="rankedu-slides-link">.*?href="([^"]+)"', html, flags=re.DOTALL)
    assert links == [f"../slides/{chapter}.slides.html"], f"book/{chapter}.html: {links}"
    # Under the chapter's title, where a reader looks for it.
    assert re.search(r'</h1>\s*<p class="rankedu-slides-link">', html)
    assert (site_dir / "slides" / f"{chapter}.slides.html").is_file()
