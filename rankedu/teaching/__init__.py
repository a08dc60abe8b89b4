"""Helpers the chapters teach with, kept out of ``import rankedu``.

``symbolic`` and ``symbolic_auc`` compute the book's formulas exactly with sympy, ``plotting``
draws its figures with matplotlib. Nothing in the package imports this one (the extras
``rankedu[symbolic]`` and ``rankedu[plot]`` install what it needs); it may import anything
below, through the public API ``rankedu`` where it can.
"""
