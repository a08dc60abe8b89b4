"""Relevance judgments as data to be judged: how far assessors agree, and how far two rankings do.

``agreement`` holds the chance-corrected agreement coefficients of two or more raters (Cohen's
kappa, weighted or not, Scott's pi, Gwet's AC1, Fleiss' kappa, Krippendorff's alpha);
``ranking_agreement`` compares two rankings (tau_AP, rank-biased overlap), as one compares the
orderings of systems under two sets of judgments; ``qrels`` compares two sets of TREC
judgments query by query. A module's ``__all__`` is what ``rankedu`` exports and
``rankedu.explain`` explains. Modules here import ``rankedu.core``, ``rankedu.metrics`` and the
TREC path (``rankedu.trec``, to read judgments), never ``rankedu.logs`` or the public API; a
new measure of judges or of their effect on evaluation (an LLM judge's bias, say) goes here.
"""
