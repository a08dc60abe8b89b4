"""The bibliography: labels in the author-year form the text cites them in, and the
References of rankedu's docstrings linked to it.

1. Labels.

The chapters cite with sphinxcontrib-bibtex's ``author_year`` referencing style ("Järvelin and
Kekäläinen, 2002"), but the bibliography page labels its entries with the formatting style's
label style, pybtex's ``alpha`` by default ("[JK02]"; and "[JarvelinKekalainen02]" where braced
accents defeat its abbreviation). A reader who sees "(Sakai, 2016)" in a chapter should find
"[Sakai, 2016]" on the bibliography page.

This extension registers the pybtex formatting style ``rankedu_author_year`` (``_config.yml``
sets it as ``bibtex_default_style``): pybtex's ``alpha`` style (entries sorted by author, year
and title) with labels built by the same template as the text's parenthetical citations,
author (else editor, else title) and year (else "n.d."), without brackets. Two entries that
would get the same label are an error, since the text could not tell them apart either; such
entries get years with a letter, as natbib's labels do (references.bib: Sakai 2007a and 2007b).

2. Docstring references. rankedu's numpydoc docstrings name their sources in a References
section, one entry a line, each opening with its key in book/references.bib::

    - ``holm1979``: Holm, S. (1979). A simple sequentially rejective multiple test procedure.

``help()`` shows that line as written. On the API page (autodoc) the key becomes a citation,
``:cite:p:`holm1979```, a link to the entry on the bibliography page; an unknown key is then a
warning, so the ``-W -n`` build fails on it.
"""

import re
from collections import Counter

from pybtex.plugin import register_plugin
from pybtex.style.formatting.alpha import Style as AlphaStyle
from pybtex.style.labels import BaseLabelStyle
from sphinxcontrib.bibtex.style.referencing.author_year import AuthorYearReferenceStyle
from sphinxcontrib.bibtex.style.template import join, year

NAME = "rankedu_author_year"


def author_year(entry) -> str:
    """The text of a parenthetical citation of ``entry``, brackets left out."""
    # The template of sphinxcontrib-bibtex's parenthetical author-year citation (see its
    # BasicAuthorYearParentheticalReferenceStyle.inner), with the referencing style's defaults,
    # which _config.yml does not change: so a label cannot drift from what the text shows.
    style = AuthorYearReferenceStyle()
    return join(sep=style.author_year_sep)[authors(entry), year].format_data(
        {"entry": entry, "style": style}).render_as("text")


def authors(entry, render: bool = False):
    """The author part of that template (its text when ``render``): what a textual citation
    shows before the year in brackets."""
    style = AuthorYearReferenceStyle()
    part = style.person.author_or_editor_or_title(full=False)
    return part.format_data({"entry": entry, "style": style}).render_as("text") if render \
        else part


class AuthorYearLabelStyle(BaseLabelStyle):
    def format_labels(self, sorted_entries):
        entries = list(sorted_entries)
        labels = [author_year(entry) for entry in entries]
        clashes = sorted(label for label, count in Counter(labels).items() if count > 1)
        if clashes:
            keys = [e.key for e, label in zip(entries, labels) if label in clashes]
            raise ValueError(
                f"references.bib: entries {keys} share the author-year label(s) {clashes}"
            )
        return iter(labels)


class AuthorYearStyle(AlphaStyle):
    default_label_style = NAME


# A References entry as tests/test_docstrings.py requires it: "- ``key``: text".
REFERENCE = re.compile(r"^(\s*)- ``([^`\s]+)``:")
SECTION = re.compile(r"^\s*-{3,}\s*$")


def cite_references(app, what, name, obj, options, lines):
    """Rewrite each References entry's key into a citation, in place (before napoleon)."""
    in_references = False
    for i, line in enumerate(lines):
        # A numpydoc section is a title line underlined by dashes.
        if i + 1 < len(lines) and SECTION.match(lines[i + 1]) and line.strip():
            in_references = line.strip() == "References"
        elif in_references:
            lines[i] = REFERENCE.sub(r"\1- :cite:p:`\2`:", line)


def setup(app):
    # Napoleon turns numpydoc sections into reST at the default priority, 500; this runs first.
    app.connect("autodoc-process-docstring", cite_references, priority=400)
    register_plugin("pybtex.style.labels", NAME, AuthorYearLabelStyle)
    register_plugin("pybtex.style.formatting", NAME, AuthorYearStyle)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
