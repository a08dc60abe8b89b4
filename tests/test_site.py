"""The website as readers get it: every page of the built book, opened in headless Chromium.

Runs against a built site: ``make test`` builds the book and then runs this file with
``RANKEDU_SITE_DIR`` pointing at the HTML (see the Makefile's ``test-site``). Without that
variable, as in a plain ``pytest tests`` before any build, every test that needs the site is
skipped; only the check that each docstring links back to its chapter runs.

For each page of ``_toc.yml`` (and the landing, search and index pages) the test serves the
site on 127.0.0.1, blocks every request that leaves localhost (so "offline" is really what is
checked: MathJax, fonts and figures must come from the site itself), and asserts that

- MathJax typeset every formula: each ``.math`` element holds an ``mjx-container`` and no raw
  TeX (``$$``, ``\\(``, ``\\[``, ``\\begin{``) is left in the page's text;
- every ``<img>`` loaded (``naturalWidth > 0``);
- the browser logged no console error and no uncaught exception;
- every link into the site resolves to a file, and its ``#anchor`` exists in that file.

A full-page screenshot of each page is saved under ``_build/screenshots/`` for review.
Chromium is Debian's ``chromium`` package, driven by Playwright's bundled driver (no browser
is downloaded); ``.ci/run`` installs it when missing.
"""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import sys
import threading
import urllib.parse
from html.parser import HTMLParser
from pathlib import Path

import pytest
import yaml
from test_notebooks import toc_entries

ROOT = Path(__file__).resolve().parents[1]
# tools/sphinx_repository.py reads the repository's URL for the build; the test reads it alike.
sys.path.insert(0, str(ROOT / "tools"))
from sphinx_repository import repository_url  # noqa: E402
SITE_ENV = "RANKEDU_SITE_DIR"
SCREENSHOTS = ROOT / "_build" / "screenshots"

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
    f"needs a built site: {SITE_ENV} unset (`make test` sets it after building the book;"
    f" or run `{SITE_ENV}=_build/html pytest tests/test_site.py` after `make book`)"
)


def toc_pages() -> list[str]:
    """The site path of every page of _toc.yml, in book order (book/x -> book/x.html)."""
    # _toc.yml is parsed in one place, the notebook guard's toc_entries.
    return [f"{file.removesuffix('.ipynb').removesuffix('.md')}.html" for file in toc_entries()]


PAGES = [*toc_pages(), "genindex.html", "search.html"]


@pytest.fixture(scope="module")
def site_dir() -> Path:
    if not os.environ.get(SITE_ENV):
        pytest.skip(SKIP_REASON)
    site = Path(os.environ[SITE_ENV])
    site = site if site.is_absolute() else ROOT / site
    if not (site / "index.html").is_file():
        pytest.fail(f"{SITE_ENV}={site} holds no index.html: build the book first")
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


@pytest.mark.parametrize("path", PAGES)
def test_page_offline_typeset_loaded_and_linked(path, site_dir, base_url, visit):
    page = visit(path)
    # Pages written before a site test saw them are only useful if the reader sees them whole.
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.page.screenshot(
        path=str(SCREENSHOTS / (path.removesuffix(".html").replace("/", "_") + ".png")),
        full_page=True,
    )

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
