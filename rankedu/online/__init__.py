"""Online evaluation: experiments on live users, A/B tests and interleaving.

``ab_testing`` analyses an A/B test whose units (users) were randomised between a control and
a treatment: Welch's test of a difference in means, the delta method for a ratio metric,
CUPED, the sample-ratio-mismatch check and the minimum detectable effect. ``interleaving``
merges two rankings into one list, credits the clicks on it to one ranking or the other, and
computes a method's preference exactly by enumerating its randomisations and every click
pattern. A module's ``__all__`` is what ``rankedu`` exports. Modules here import
``rankedu.core`` and ``rankedu.stats`` (the t distribution is computed there, once); a new
kind of online experiment (multileaving, say) is a new module here.
"""
