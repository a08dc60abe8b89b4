"""Real judgments and runs that ship with rankedu, so that a chapter runs in an empty folder.

Three sources, each in its own folder of ``rankedu/data`` with a README that says what each file
is and the licence that travels with the files (the book's *Data* page lists them all):

- ``data/trec_eval``: trec_eval 10.0's own test data (NIST; ``LICENSE.md`` is trec_eval's
  notice).

  - ``"trec_301_303"``: TREC topics 301 to 303, binary judgments (``qrels.test``) or graded
    ones, -1 to 4 (``qrels.rel_level``), and a run of 500 documents per topic with tied scores
    (``results.test``).
  - ``"trec_rag_2024"``: the TREC 2024 RAG track, 31 topics with 5,890 graded judgments (0 to
    3) on MS MARCO v2.1 segments (``qrels.comment.test``), and a 30,100-line run
    (``results.comment.test``).

  trec_eval's own output on them (``out.*``) ships too, so that a chapter can show rankedu's
  numbers beside trec_eval's without the program.
- ``data/atlas``: the twelve tiny cases of the disagreement atlas (``"atlas/tied_cutoff"``,
  ...), written for the book, each a qrels file and a run of at most ten lines that isolates
  one convention on which evaluation tools differ.
- ``data/open_bandit``: the Open Bandit Dataset's small sample (ZOZO, Inc.), as Open Bandit
  Pipeline 0.5.7's source distribution ships it, under its Apache-2.0 licence: six logs of
  10,000 recommendations with clicks and true propensities (:func:`open_bandit`), and the
  Thompson sampling policy's prior (:func:`open_bandit_prior`).

No file is read at ``import rankedu``.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from rankedu.core.validation import as_flag, one_of
from rankedu.trec.files import read_qrels, read_run

__all__ = ["ATLAS", "ATLAS_CASES", "DATA", "DATASETS", "load", "path"]

#: The folder of trec_eval 10.0's test files.
DATA = Path(__file__).resolve().parent / "data" / "trec_eval"
#: The folder of the atlas' cases.
ATLAS = DATA.parent / "atlas"

#: The atlas' cases, each ``<case>.qrels`` and ``<case>.run`` in :data:`ATLAS`.
ATLAS_CASES = ("tied_cutoff", "constant_scorer", "duplicate_docnos", "missing_queries",
               "no_relevant", "negative_grades", "grades_above_4", "unjudged", "k_larger",
               "relevance_level", "single_precision", "no_nonrelevant")

#: Each dataset's judgments (plain and, where there are, graded) and run, by the names
#: :func:`path` takes.
DATASETS = {
    "trec_301_303": {"qrels": "qrels.test", "graded": "qrels.rel_level", "run": "results.test"},
    "trec_rag_2024": {"qrels": "qrels.comment.test", "graded": "qrels.comment.test",
                      "run": "results.comment.test"},
    **{f"atlas/{case}": {"qrels": f"atlas/{case}.qrels", "graded": f"atlas/{case}.qrels",
                         "run": f"atlas/{case}.run"} for case in ATLAS_CASES},
}


def path(name: str) -> Path:
    """The path of one shipped file (``"qrels.test"``, ``"out.test.aq"``,
    ``"atlas/tied_cutoff.run"``, ...).

    Parameters
    ----------
    name : str
        A file name of ``rankedu/data/trec_eval``, or ``"atlas/"`` and a file name of
        ``rankedu/data/atlas``.

    Returns
    -------
    pathlib.Path

    Raises
    ------
    ValueError
        Naming ``name`` when no such file ships, with the names that do.

    References
    ----------
    - ``trec_eval``: Buckley, C. trec_eval, the TREC evaluation program, version 10.0: the files
      of ``rankedu/data/trec_eval`` are its ``test/`` folder.

    Examples
    --------
    >>> from rankedu import datasets
    >>> datasets.path("qrels.test").name
    'qrels.test'
    >>> print(datasets.path("atlas/tied_cutoff.qrels").read_text(), end="")
    1 0 d1 1
    1 0 d2 1
    1 0 d3 0
    1 0 d4 0
    """
    shipped = [p.name for p in DATA.iterdir() if p.suffix != ".md"]
    shipped += [f"atlas/{p.name}" for p in ATLAS.iterdir() if p.suffix != ".md"]
    one_of(name, "name", sorted(shipped))
    return DATA.parent / name if name.startswith("atlas/") else DATA / name


def load(name: str, *, graded: bool = False):
    """The judgments and the run of a shipped dataset, read as ``rk.read_qrels`` and
    ``rk.read_run`` read files.

    Parameters
    ----------
    name : {"trec_301_303", "trec_rag_2024", "atlas/<case>"}
        The dataset: one of :data:`DATASETS`, an atlas case named as ``"atlas/tied_cutoff"``.
    graded : bool, default False
        For ``"trec_301_303"``, the graded judgments (-1 to 4, ``qrels.rel_level``) instead of
        the binary ones; the other datasets have one qrels file, read either way.

    Returns
    -------
    tuple of pandas.DataFrame
        ``(qrels, run)``: columns ``qid``, ``docno``, ``rel`` and ``qid``, ``docno``, ``score``.

    Raises
    ------
    ValueError
        Naming ``name`` for an unknown dataset.
    TypeError
        Naming ``graded`` when it is not True or False.

    References
    ----------
    - ``trec_eval``: Buckley, C. trec_eval, the TREC evaluation program, version 10.0: the files
      are its ``test/`` folder.

    Examples
    --------
    >>> from rankedu import datasets
    >>> qrels, run = datasets.load("trec_rag_2024")
    >>> qrels["qid"].nunique(), len(qrels), int(qrels["rel"].max())
    (31, 5890, 3)
    """
    files = DATASETS[one_of(name, "name", tuple(DATASETS))]
    qrels = files["graded" if as_flag(graded, "graded") else "qrels"]
    return read_qrels(path(qrels)), read_run(path(files["run"]))


# The Open Bandit Dataset's sample (its own folder, README and licence): a separate block, so
# that its names join __all__ without touching the trec_eval files' entries above.
__all__ += ["OPEN_BANDIT", "open_bandit", "open_bandit_prior"]

#: The folder of the Open Bandit Dataset's sample (``README.md`` and ``LICENSE`` inside).
OPEN_BANDIT = Path(__file__).resolve().parent / "data" / "open_bandit"


def open_bandit(policy: str = "random", campaign: str = "all"):
    """One log of the Open Bandit Dataset's sample: 10,000 impressions on ZOZOTOWN.

    The sample of Open Bandit Pipeline 0.5.7's source distribution (``rankedu/data/
    open_bandit/README.md`` says what it holds and under which licence it ships): for each of
    the three campaigns, the logs of two policies run side by side on the same items, a
    uniform-random one and a Bernoulli Thompson sampling one (``"bts"``), each choosing an
    item for each of three positions.

    Parameters
    ----------
    policy : {"random", "bts"}, default "random"
        The logging policy.
    campaign : {"all", "men", "women"}, default "all"
        The campaign: 80, 34 or 46 items.

    Returns
    -------
    pandas.DataFrame
        10,000 rows in time order: ``timestamp`` (str), ``item_id``, ``position`` (1, 2, 3),
        ``click`` (0/1) and ``propensity_score`` (the logging policy's probability of that
        item at that position).

    Raises
    ------
    ValueError
        Naming ``policy`` or ``campaign`` for an unknown one.

    References
    ----------
    - ``saito2021obd``: Saito, Y., Aihara, S., Matsutani, M. and Narita, Y. (2021). Open Bandit
      Dataset and Pipeline: Towards Realistic and Reproducible Off-Policy Evaluation.
      NeurIPS 2021 Datasets and Benchmarks.

    Examples
    --------
    >>> from rankedu import datasets
    >>> log = datasets.open_bandit("random", "men")
    >>> len(log), int(log["click"].sum()), log["item_id"].nunique()
    (10000, 46, 34)
    """
    policy = one_of(policy, "policy", ("random", "bts"))
    campaign = one_of(campaign, "campaign", ("all", "men", "women"))
    return pd.read_csv(OPEN_BANDIT / f"{policy}_{campaign}.csv.gz")


def open_bandit_prior(campaign: str = "all"):
    """The Beta prior of each item under the Open Bandit Dataset's Thompson sampling policy.

    The policy that wrote the ``"bts"`` logs draws, for every impression, a click rate from
    Beta(alpha, beta) for each item and shows the three items of highest draws, at positions
    1, 2, 3 in order (obp 0.5.7's ``BernoulliTS(is_zozotown_prior=True)``, whose prior this
    is).

    Parameters
    ----------
    campaign : {"all", "men", "women"}, default "all"

    Returns
    -------
    pandas.DataFrame
        One row per item, in ``item_id`` order: ``item_id``, ``alpha``, ``beta``.

    Raises
    ------
    ValueError
        Naming ``campaign`` for an unknown one.

    References
    ----------
    - ``saito2021obd``: Saito, Y., Aihara, S., Matsutani, M. and Narita, Y. (2021). Open Bandit
      Dataset and Pipeline: Towards Realistic and Reproducible Off-Policy Evaluation.
      NeurIPS 2021 Datasets and Benchmarks.

    Examples
    --------
    >>> from rankedu import datasets
    >>> prior = datasets.open_bandit_prior("men")
    >>> len(prior), prior.columns.tolist()
    (34, ['item_id', 'alpha', 'beta'])
    """
    campaign = one_of(campaign, "campaign", ("all", "men", "women"))
    prior = pd.read_csv(OPEN_BANDIT / "prior_bts.csv")
    return prior[prior["campaign"] == campaign].drop(columns="campaign").reset_index(drop=True)
