"""The ground floor: what every metric, test and reader of a TREC file stands on.

``validation`` holds every input check (a metric never writes its own), ``steps`` the
:class:`~rankedu.core.steps.Steps` object both views of a metric are built from (the plain
function's value and ``rankedu.explain``'s tables), ``common`` the building blocks several
metric families compute with, and ``ranked`` the :class:`~rankedu.core.ranked.RankedRun` (a run
joined with its judgments, as flat arrays grouped by query) that every by-query kernel reads
and the TREC path builds; ``extras`` imports an optional dependency or says which extra of
rankedu installs it. Nothing here is public API; it imports only numpy and pandas (and
``rankedu.core``), so that every other package may import it. A new file goes here only when
two packages above need it.
"""
