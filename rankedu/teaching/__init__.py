"""Helpers the chapters teach with, kept out of ``import rankedu``.

``symbolic`` and ``symbolic_auc`` compute the book's formulas exactly with sympy, ``plotting``
draws its figures with matplotlib, ``atlas`` runs other evaluation tools on the disagreement
atlas's cases and explains where they differ, and ``trec_eval_program`` builds and runs
trec_eval 10.0's program from the C source rankedu ships. Nothing in the package imports this
one (the extras ``rankedu[symbolic]``, ``rankedu[plot]`` and ``rankedu[book]`` install what it
needs); it may import anything below, through the public API ``rankedu`` where it can.
"""
