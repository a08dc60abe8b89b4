"""What the site needs to work offline and without console errors (tests/test_site.py checks it).

1. Serve MathJax from the book itself, so formulas typeset without a network.

Sphinx's MathJax extension loads MathJax from a CDN unless ``mathjax_path`` names a file
under ``_static``. This extension copies MathJax 3.2.2 (the ``es5`` build shipped by the
pinned PyPI package ``django-static-mathjax``, which has no dependencies: it only carries
MathJax's static files) into ``_static/mathjax/`` of every HTML build. ``_config.yml`` sets
``mathjax_path: mathjax/tex-mml-chtml.js``, a path relative to ``_static``, so the pages
reference only the local copy. The whole ``es5`` folder is copied, not only the entry
script, because MathJax loads its fonts and its on-demand components (menu, speech) from the
folder its own script came from.

2. Emit each inline script once per page. In this Jupyter Book 1.x stack sphinx-thebe's and
sphinx-togglebutton's inline configuration scripts are added twice to every page; thebe's
declares ``const THEBE_JS_URL``, so its second copy throws "Identifier 'THEBE_JS_URL' has
already been declared" in every reader's console. A script entry with the same file and attributes (body
included) as an earlier one is dropped.

3. Leave thebe out of pages that have no thebe button. Jupyter Book always loads sphinx-thebe,
which writes the CDN address of thebe's bundle into every page (it is fetched only when a
reader starts thebe). The book's launch buttons are Binder and Colab, not thebe, so on pages
without the button (``use_thebe`` unset by the theme) thebe's scripts are dropped, and no page
names a CDN.
"""

from pathlib import Path

import mathjax  # the django-static-mathjax distribution installs this top-level package
from sphinx.errors import ConfigError
from sphinx.util.fileutil import copy_asset

MATHJAX_ES5 = Path(mathjax.__file__).parent / "static" / "mathjax" / "es5"


def _check_mathjax_path(app, config):
    """Fail the build if mathjax_path is a URL or names a file the copy does not have."""
    path = config.mathjax_path
    if "://" in path or path.startswith("//") or not path.startswith("mathjax/"):
        raise ConfigError(
            f"mathjax_path is {path!r}; it must be 'mathjax/<entry script>', relative to "
            "_static, so that the site serves its own MathJax (tools/sphinx_offline_site.py)"
        )
    if not (MATHJAX_ES5 / path.removeprefix("mathjax/")).is_file():
        raise ConfigError(f"mathjax_path {path!r}: no such file in {MATHJAX_ES5}")


def _copy_mathjax(app, exception):
    if exception is None and app.builder.format == "html":
        copy_asset(str(MATHJAX_ES5), str(Path(app.outdir) / "_static" / "mathjax"))
        # MathJax is Apache-2.0, which asks that a copy of the licence travel with it.
        copy_asset(str(MATHJAX_ES5.parent / "LICENSE"), str(Path(app.outdir) / "_static" / "mathjax"))


def _is_thebe(script):
    return (script.filename or "").endswith("sphinx-thebe.js") or "THEBE_JS_URL" in str(
        script.attributes.get("body", "")
    )


def _tidy_scripts(app, pagename, templatename, context, doctree):
    # One copy has filename None, the other '' (an inline script either way), so Sphinx's own
    # check for duplicates does not catch them.
    seen, unique = set(), []
    for script in context.get("script_files", []):
        key = (script.filename or "", tuple(sorted(script.attributes.items())))
        if not context.get("use_thebe") and _is_thebe(script):
            continue
        if key not in seen:
            seen.add(key)
            unique.append(script)
    context["script_files"] = unique


def setup(app):
    app.connect("config-inited", _check_mathjax_path)
    app.connect("build-finished", _copy_mathjax)
    # After every other extension has added its scripts to the page.
    app.connect("html-page-context", _tidy_scripts, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
