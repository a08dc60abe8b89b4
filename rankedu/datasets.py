"""Real judgments and runs that ship with rankedu, so that a chapter runs in an empty folder.

The files are trec_eval 10.0's own test data (NIST; ``rankedu/data/trec_eval/README.md`` says
what each is and ``LICENSE.md`` beside it is trec_eval's notice, which travels with them):

- ``"trec_301_303"``: TREC topics 301 to 303, binary judgments (``qrels.test``) or graded ones,
  -1 to 4 (``qrels.rel_level``), and a run of 500 documents per topic with tied scores
  (``results.test``).
- ``"trec_rag_2024"``: the TREC 2024 RAG track, 31 topics with 5,890 graded judgments (0 to 3)
  on MS MARCO v2.1 segments (``qrels.comment.test``), and a 30,100-line run
  (``results.comment.test``).

trec_eval's own output on them (``out.*``) ships too, so that a chapter can show rankedu's
numbers beside trec_eval's without the binary. No file is read at ``import rankedu``.
"""

from __future__ import annotations

from pathlib import Path

from rankedu.core.validation import as_flag, one_of
from rankedu.trec.files import read_qrels, read_run

__all__ = ["DATA", "DATASETS", "load", "path"]

#: The folder of the shipped files.
DATA = Path(__file__).resolve().parent / "data" / "trec_eval"

#: Each dataset's judgments (plain and, where there are, graded) and run, by file name.
DATASETS = {
    "trec_301_303": {"qrels": "qrels.test", "graded": "qrels.rel_level", "run": "results.test"},
    "trec_rag_2024": {"qrels": "qrels.comment.test", "graded": "qrels.comment.test",
                      "run": "results.comment.test"},
}


def path(name: str) -> Path:
    """The path of one shipped file (``"qrels.test"``, ``"out.test.aq"``, ...).

    Parameters
    ----------
    name : str
        A file name of ``rankedu/data/trec_eval``.

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
      are its ``test/`` folder.

    Examples
    --------
    >>> from rankedu import datasets
    >>> datasets.path("qrels.test").name
    'qrels.test'
    """
    shipped = sorted(p.name for p in DATA.iterdir() if p.suffix != ".md")
    one_of(name, "name", shipped)
    return DATA / name


def load(name: str, *, graded: bool = False):
    """The judgments and the run of a shipped dataset, read as ``rk.read_qrels`` and
    ``rk.read_run`` read files.

    Parameters
    ----------
    name : {"trec_301_303", "trec_rag_2024"}
        The dataset.
    graded : bool, default False
        For ``"trec_301_303"``, the graded judgments (-1 to 4, ``qrels.rel_level``) instead of
        the binary ones; the RAG judgments are graded either way.

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
    return read_qrels(DATA / qrels), read_run(DATA / files["run"])
