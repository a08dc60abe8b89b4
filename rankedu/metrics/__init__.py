"""The per-list metrics, one module per family in the book's words.

Each module holds, for each public metric, the ``_<name>_steps`` function that computes it once
(the book's table, ending in the value), the public function that returns that value, and,
for a measure ``rk.evaluate`` knows, its vectorised ``_<name>_by_query`` kernel over a
:class:`~rankedu.core.ranked.RankedRun`. A module's ``__all__`` is what ``rankedu`` exports and
``rankedu.explain`` explains. Modules here import ``rankedu.core`` only, never each other (a
helper two families share moves to ``rankedu.core.common``) and never the TREC path, which
imports them. A new metric family (diversity, say) is a new module here.
"""
