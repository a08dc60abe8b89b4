"""Off-policy evaluation: a new policy's value estimated from the logs of an old one.

``estimators`` holds the estimators (IPS, clipped IPS, SNIPS, the direct method, doubly
robust, Switch-DR), the effective sample size of importance weights and their confidence
intervals; ``clicks`` the click models that turn relevance grades into simulated clicks (PBM,
the cascade, DBN) and the estimate of position bias from randomised rankings. Modules here
import ``rankedu.core``, ``rankedu.metrics`` (the cascade model) and ``rankedu.stats`` (the
seeded resampling plumbing), never the TREC path; a new estimator goes into ``estimators.py``
and a new click model into ``clicks.py``. The chapter "Evaluating a new policy from logs"
(``book/off_policy.ipynb``) derives them.
"""
