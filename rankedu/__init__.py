"""rankedu: step-by-step reference implementations of search and recommendation metrics.

Every metric is a plain function returning a built-in ``float``; ``rankedu.explain`` offers the
same functions returning the tables they were computed from. The book that derives each one is
at https://github.com/rankedu/rankedu.

>>> import rankedu as rk
>>> round(rk.ndcg([3, 2, 3, 0, 1, 2], 6, pool=[3, 2, 3, 0, 1, 2, 3, 0]), 4)
0.8184
"""

from rankedu import datasets, explain
from rankedu.auc import gauc, roc_auc, roc_curve
from rankedu.auc_uncertainty import (
    DeLongResult,
    auc_standard_error,
    delong_standard_error,
    delong_test,
)
from rankedu.average_precision import (
    average_precision,
    eleven_point_average_precision,
    interpolated_precision,
    mean_average_precision,
    mean_precision_at_ranks,
)
from rankedu.cascade import cascade_metric, click_probabilities, err, simulate_cascade
from rankedu.classification import (
    ConfusionMatrix,
    accuracy,
    confusion_matrix,
    f_beta,
    false_positive_rate,
    precision,
    recall,
    true_positive_rate,
)
from rankedu.cutoff import (
    f_at_k,
    precision_at_k,
    precision_recall_curve,
    r_precision,
    recall_at_k,
)
from rankedu.dcg import cumulative_gain, dcg, idcg, ndcg
from rankedu.explain import Explanation
from rankedu.incomplete import bpref, condensed_list, judged_at_k
from rankedu.multiple_comparisons import holm, randomized_tukey_hsd
from rankedu.pair_ratio import goodman_kruskal_gamma, kendall_tau, pair_ratio
from rankedu.reciprocal_rank import mean_reciprocal_rank, reciprocal_rank
from rankedu.significance import bootstrap_ci, paired_randomization_test, paired_t_test
from rankedu.ties import TieWarning
from rankedu.trec import (
    QueryMismatchWarning,
    TieInterval,
    evaluate,
    ranked_list,
    read_qrels,
    read_run,
    tie_interval,
)
from rankedu.user_models import inst, rbp

__version__ = "0.1.0"

__all__ = [
    "ConfusionMatrix",
    "DeLongResult",
    "Explanation",
    "QueryMismatchWarning",
    "TieInterval",
    "TieWarning",
    "accuracy",
    "auc_standard_error",
    "average_precision",
    "bootstrap_ci",
    "bpref",
    "cascade_metric",
    "click_probabilities",
    "condensed_list",
    "confusion_matrix",
    "cumulative_gain",
    "datasets",
    "dcg",
    "delong_standard_error",
    "delong_test",
    "eleven_point_average_precision",
    "err",
    "evaluate",
    "explain",
    "f_at_k",
    "f_beta",
    "false_positive_rate",
    "gauc",
    "goodman_kruskal_gamma",
    "holm",
    "idcg",
    "inst",
    "interpolated_precision",
    "judged_at_k",
    "kendall_tau",
    "mean_average_precision",
    "mean_precision_at_ranks",
    "mean_reciprocal_rank",
    "ndcg",
    "pair_ratio",
    "paired_randomization_test",
    "paired_t_test",
    "precision",
    "precision_at_k",
    "precision_recall_curve",
    "r_precision",
    "randomized_tukey_hsd",
    "ranked_list",
    "rbp",
    "read_qrels",
    "read_run",
    "recall",
    "recall_at_k",
    "reciprocal_rank",
    "roc_auc",
    "roc_curve",
    "simulate_cascade",
    "tie_interval",
    "true_positive_rate",
]
