"""The student edition: sphinx-exercise's ``hide_solutions`` for gated solutions too.

``make book-students`` builds the book with sphinx-exercise's own option ``hide_solutions``.
sphinx-exercise 1.2.1 honours it for a ``{solution}`` directive, which then produces nothing,
but of a gated solution (``{solution-start}`` … ``{solution-end}``, the form the chapters use,
since a solution holds code cells) it drops only the start: the solution's cells stay on the
page, unlabelled, and the HTML writer fails on the end marker ("unknown node type:
solution_end_node"). Under ``hide_solutions``, this extension's ``solution-start`` leaves a
marker instead, and a transform removes everything from the marker to the matching
``{solution-end}``, before sphinx-exercise would merge the gated nodes. Without
``hide_solutions`` it changes nothing.
"""

from __future__ import annotations

from docutils import nodes
from sphinx.errors import ExtensionError
from sphinx.transforms import SphinxTransform
from sphinx_exercise.directive import SolutionStartDirective
from sphinx_exercise.nodes import solution_end_node
from sphinx_exercise.transforms import MergeGatedSolutions


class hidden_solution_start(nodes.Element):  # noqa: N801 - docutils names nodes in lowercase
    """Where a gated solution began, in an edition that hides the solutions."""


class StudentSolutionStart(SolutionStartDirective):
    def run(self):
        # The parent registers the start, so sphinx-exercise still checks that every start
        # has its end; under hide_solutions it returns no node, and the marker takes its place.
        result = super().run()
        if self.config.hide_solutions:
            return [hidden_solution_start()]
        return result


class RemoveHiddenSolutions(SphinxTransform):
    # Before sphinx-exercise's MergeGatedSolutions, which would otherwise see a lone end node.
    default_priority = MergeGatedSolutions.default_priority - 1

    def apply(self):
        for start in list(self.document.findall(hidden_solution_start)):
            parent = start.parent
            first = parent.index(start)
            for last in range(first, len(parent.children)):
                if isinstance(parent[last], solution_end_node):
                    break
            else:
                raise ExtensionError(
                    f"{self.env.docname}: a solution-start without its solution-end at the "
                    "same level"
                )
            del parent[first : last + 1]


def setup(app):
    app.setup_extension("sphinx_exercise")
    app.add_node(hidden_solution_start)
    app.add_directive("solution-start", StudentSolutionStart, override=True)
    app.add_transform(RemoveHiddenSolutions)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
