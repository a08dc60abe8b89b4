"""The API page's lists, read from the package instead of written by hand.

``book/api.md`` uses two directives:

- ``.. rankedu-names:: rankedu.metrics.dcg`` declares the module and documents every name of
  its ``__all__`` as ``rankedu.<name>`` (classes with their members), in the module's order, so that a function
  added to a module's ``__all__`` appears on the page without an edit to it;
  ``.. rankedu-names:: rankedu.explain`` documents every explainer as
  ``rankedu.explain.<name>``.
- ``.. rankedu-measures::`` is the table of ``rankedu.trec.measures.MEASURES``: how each
  measure is written, what it is, whether ``ties="average"`` supports it and its chapter.
"""

from __future__ import annotations

import importlib
import inspect
import re

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.util.docutils import SphinxDirective


class _RstDirective(SphinxDirective):
    """A directive that writes reStructuredText lines and has them parsed in place."""

    def parse(self, lines):
        container = nodes.section()
        container.document = self.state.document
        self.state.nested_parse(StringList(lines, source=self.get_source_info()[0]),
                                self.content_offset, container)
        return container.children


class RankeduNames(_RstDirective):
    required_arguments = 1

    def run(self):
        module = importlib.import_module(self.arguments[0])
        prefix = "rankedu.explain" if module.__name__ == "rankedu.explain" else "rankedu"
        # The module itself is a target too (``:mod:`rankedu.metrics.dcg```); the names are
        # documented where users call them.
        lines = [f".. py:module:: {module.__name__}", ""]
        for name in module.__all__:
            obj = getattr(module, name)
            if module.__name__ == "rankedu.explain" and name in {"Explanation", "query"}:
                continue  # documented where the page introduces them
            kind = "autoclass" if inspect.isclass(obj) else "autofunction"
            lines += [f".. {kind}:: {prefix}.{name}"]
            if kind == "autoclass":
                lines += ["   :members:"]
            lines += [""]
        return self.parse(lines)


class RankeduMeasures(_RstDirective):

    def run(self):
        from rankedu.trec.measures import MEASURES

        lines = [".. list-table::", "   :header-rows: 1", "", "   * - written",
                 "     - what it is", "     - ties=\"average\"", "     - chapter"]
        for measure in MEASURES.values():
            # Plain text: escaped, so that "P@rank" is not read as an e-mail address.
            description = re.sub(r"([^\w\s])", r"\\\1", measure.description)
            lines += [f"   * - ``{measure.usage}``", f"     - {description}",
                      f"     - {'yes' if measure.average else 'no'}",
                      f"     - :doc:`{measure.chapter}`"]
        return self.parse(lines)


def setup(app):
    app.add_directive("rankedu-names", RankeduNames)
    app.add_directive("rankedu-measures", RankeduMeasures)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
