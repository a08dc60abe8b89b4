"""Recommenders: what a recommender's lists do besides being accurate, and the offline protocol.

``beyond_accuracy`` holds the measures of a set of recommendation lists that need no relevance
judgment: catalogue coverage, exposure and its concentration (Gini, Shannon entropy), average
recommendation popularity, long-tail share, novelty and intra-list diversity. ``protocol``
holds the offline protocol: the expected hit rate under sampled negatives and the train/test
splits with their leakage report. Modules here import ``rankedu.core`` only; a new measure of
recommendation lists goes into ``beyond_accuracy.py``, a new protocol tool into
``protocol.py``. The chapter "Recommenders: beyond accuracy and the offline protocol"
(``book/recommenders.ipynb``) derives them.
"""
