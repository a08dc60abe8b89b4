"""Comparing systems: significance tests, multiple comparisons and the resampling they share.

``significance`` compares two systems on the same queries (paired t, randomisation, bootstrap),
``multiple_comparisons`` several at once (Holm, randomised Tukey HSD), ``resampling`` holds the
seeded plumbing both use. A module's ``__all__`` is what ``rankedu`` exports. Modules here
import ``rankedu.core`` only; an analysis of runs that needs ``evaluate`` belongs one level up.
"""
