"""The chapters' reveal.js decks in every HTML build of the book, and a link to each.

Each chapter that ``book/slides.yml`` gives a deck gets, under its title, a line linking to
``slides/<chapter>.slides.html``; when the build has written its pages, the decks are built
into the same output folder by ``tools/slides.py`` (no execution: the chapters' stored cells,
in a few seconds). So a build never holds a Slides link without its deck, and a deck that
cannot be built (an id the chapter dropped, markup a slide cannot show, reveal.js not
installed) fails the build, as it fails ``make slides``.
"""

import posixpath
from pathlib import Path

from docutils import nodes

import slides  # tools/slides.py: this folder is on sys.path (_config.yml's local_extensions)


def _read_spec(app):
    app.rankedu_slides = set(slides.load_spec())


def _note_spec(app, doctree):
    # A change to the spec adds or drops a page's link: every page depends on it.
    app.env.note_dependency(str(slides.SPEC))


def _link_deck(app, doctree, docname):
    chapter = posixpath.basename(docname)
    if not docname.startswith("book/") or chapter not in app.rankedu_slides:
        return
    sections = list(doctree.findall(nodes.section))
    if not sections:
        return
    deck = posixpath.relpath(
        f"{slides.SLIDES_DIR}/{chapter}.slides.html", posixpath.dirname(docname)
    )
    link = nodes.paragraph(classes=["rankedu-slides-link"])
    link += nodes.Text("Slides: ")
    link += nodes.reference("", "this chapter as a reveal.js deck", refuri=deck)
    link += nodes.Text(", for teaching from.")
    title = sections[0].next_node(nodes.title)
    sections[0].insert(sections[0].index(title) + 1, link)


def _build_decks(app, exception):
    if exception is None and app.builder.format == "html":
        slides.build_decks(Path(app.outdir))


def setup(app):
    app.connect("builder-inited", _read_spec)
    app.connect("doctree-read", _note_spec)
    app.connect("doctree-resolved", _link_deck)
    app.connect("build-finished", _build_decks)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
