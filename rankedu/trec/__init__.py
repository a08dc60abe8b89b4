"""The TREC path: from two files to a table of measures, the way trec_eval computes them.

Read top-down from :func:`rankedu.evaluate` (``evaluate``): ``measures`` is the registry, one
declaration per measure (name, parameters, chapter, per-list reference, vectorised kernel);
``load`` turns any accepted input into tables with one vocabulary of query ids, reading files
through ``files``/``lines`` (the format's rules) or ``fast_read`` (pyarrow); ``link`` finds
which run line each judgment belongs to; ``join`` ranks the run as trec_eval does and joins it
with its judgments into a :class:`~rankedu.core.ranked.RankedRun`; ``ties`` offers tied scores
as a choice. Modules here import ``rankedu.core`` and ``rankedu.metrics`` (whose kernels the
registry names), never ``rankedu.explain`` or the command line.
"""
