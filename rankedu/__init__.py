"""rankedu: step-by-step reference implementations of search and recommendation metrics.

Every metric is a plain function returning a built-in ``float``; ``rankedu.explain`` offers the
same functions returning the tables they were computed from. The book that derives each one,
*rankedu: evaluating search and recommendation*, is built from the same repository.

>>> import rankedu as rk
>>> round(rk.ndcg([3, 2, 3, 0, 1, 2], 6, pool=[3, 2, 3, 0, 1, 2, 3, 0]), 4)
0.8184
"""

# The public API is every name in the ``__all__`` of these modules (a function added to one of
# them is exported, explained by ``rankedu.explain`` and listed on the API page, book/api.md,
# without another edit); see CONTRIBUTING.md for the layout.
from rankedu import datasets, explain
from rankedu._public import public_modules as _public_modules
from rankedu.comparison import *  # noqa: F403
from rankedu.explain import Explanation
from rankedu.judgments.agreement import *  # noqa: F403
from rankedu.judgments.qrels import *  # noqa: F403
from rankedu.judgments.ranking_agreement import *  # noqa: F403
from rankedu.metrics.auc import *  # noqa: F403
from rankedu.metrics.auc_uncertainty import *  # noqa: F403
from rankedu.metrics.average_precision import *  # noqa: F403
from rankedu.metrics.cascade import *  # noqa: F403
from rankedu.metrics.classification import *  # noqa: F403
from rankedu.metrics.cutoff import *  # noqa: F403
from rankedu.metrics.dcg import *  # noqa: F403
from rankedu.metrics.diversity import *  # noqa: F403
from rankedu.metrics.incomplete import *  # noqa: F403
from rankedu.metrics.pair_ratio import *  # noqa: F403
from rankedu.metrics.reciprocal_rank import *  # noqa: F403
from rankedu.metrics.set_based import *  # noqa: F403
from rankedu.metrics.user_models import *  # noqa: F403
from rankedu.offpolicy.clicks import *  # noqa: F403
from rankedu.offpolicy.estimators import *  # noqa: F403
from rankedu.online.ab_testing import *  # noqa: F403
from rankedu.online.interleaving import *  # noqa: F403
from rankedu.recommenders.beyond_accuracy import *  # noqa: F403
from rankedu.recommenders.protocol import *  # noqa: F403
from rankedu.stats.multiple_comparisons import *  # noqa: F403
from rankedu.stats.significance import *  # noqa: F403
from rankedu.trec.diversity import *  # noqa: F403
from rankedu.trec.evaluate import *  # noqa: F403
from rankedu.trec.report import *  # noqa: F403
from rankedu.trec.ties import TieWarning

__version__ = "0.1.0"

__all__ = sorted({
    "Explanation", "TieWarning", "datasets", "explain",
    *(name for module in _public_modules() for name in module.__all__),
})
