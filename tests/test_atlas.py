"""The disagreement atlas (book/atlas.ipynb): every difference between the tools is explained.

The matrix is computed afresh by each run (the installed tools, the case files of
rankedu/data/atlas): a new version of a tool that changes a number either still matches one of
its known conventions, or fails ``test_every_difference_in_the_matrix_has_a_classification``.
"""

import json
import math
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import rankedu as rk
from rankedu import datasets
from rankedu.teaching import atlas

# make test runs the package tests in two processes (pytest-xdist, --dist loadfile): this
# file's tests stay in one, so that the matrix (about 12 s) is computed once.

BOOK = Path(__file__).resolve().parent.parent / "book"
PYTREC_EVAL = "trec_eval 9.0.8 (pytrec_eval)"


@pytest.fixture(scope="module")
def cells():
    return atlas.matrix()


@pytest.fixture(scope="module")
def differences(cells):
    return atlas.classify(cells)


def test_every_difference_in_the_matrix_has_a_classification(differences):
    unexplained = differences[differences["convention"].isna()]
    assert unexplained.empty, (
        "differences no known convention reproduces (a tool changed, or a convention is "
        f"missing from atlas.TOOL_CONVENTIONS):\n{unexplained.to_string()}"
    )


def test_the_atlas_finds_differences_of_every_kind_it_explains(differences):
    # No dead convention: each one reproduces at least one cell of the matrix.
    used = {key for found in differences["convention"].dropna() for key in found.split(" + ")}
    assert used == {c.key for c in atlas.CONVENTIONS}


def test_a_changed_tool_value_is_an_unexplained_difference(cells):
    changed = cells.copy()
    changed.loc[("tied_cutoff", "P@k"), PYTREC_EVAL] = 0.625
    changed.loc[("k_larger", "AP"), "scikit-learn"] = 0.5
    changed.loc[("unjudged", "RBP"), atlas.TREC_EVAL_10] = 0.2
    found = atlas.classify(changed).set_index(["case", "measure", "tool"])["convention"]
    assert pd.isna(found.loc[("tied_cutoff", "P@k", PYTREC_EVAL)])
    assert pd.isna(found.loc[("unjudged", "RBP", atlas.TREC_EVAL_10)])
    assert pd.isna(found.loc[("k_larger", "AP", "scikit-learn")])


def test_the_emulator_without_a_change_is_evaluate(cells):
    # emulate() builds each number from the per-list functions and its own reading of the
    # files; with no convention changed it must be rk.evaluate's number, cell by cell.
    for case in atlas.CASES:
        for measure in atlas.MEASURES:
            ours = cells.loc[(case.name, measure), atlas.REFERENCE]
            assert atlas._same(atlas.emulate(case, measure), ours), (case.name, measure)


def test_trec_eval_agrees_with_evaluate_wherever_scores_are_exact_in_float32(cells):
    # pytrec_eval is trec_eval 9, scores in float32: only the single-precision case may differ.
    for case, measure in cells.index:
        theirs = cells.at[(case, measure), PYTREC_EVAL]
        if atlas.offered(theirs) and case != "single_precision":
            assert atlas._same(theirs, cells.at[(case, measure), atlas.REFERENCE]), (
                case, measure)


def test_trec_eval_10s_program_departs_from_evaluate_only_on_missing_queries_and_rbp(cells):
    # In double precision, at its 4 printed decimals: it stops on a judged query the run
    # lacks, and its RBP rescales grades above 1 where rk.evaluate refuses them.
    column = cells[atlas.TREC_EVAL_10]
    for case, measure in cells.index:
        theirs = column[(case, measure)]
        if not atlas.offered(theirs) or case == "missing_queries" or measure == "RBP":
            continue
        assert atlas._same(theirs, cells.at[(case, measure), atlas.REFERENCE], 0.5e-4), (
            case, measure)
    stopped = column.loc["missing_queries"]
    assert set(stopped.dropna()) == {
        "error: exit status 4: trec_eval: result qid '2' not found in qrels"}
    assert column[("unjudged", "RBP")] == 0.1824  # grades 1 and 2 read as 1/2 and 1


def test_every_case_is_a_tiny_pair_of_files_shipped_with_rankedu():
    for case in atlas.CASES:
        for path in (case.qrels, case.run):
            lines = path.read_text().splitlines()
            assert 0 < len(lines) <= 10, path
    files = {p.name for p in atlas.DATA.iterdir()}
    assert files == {"README.md"} | {f"{case.name}.{kind}" for case in atlas.CASES
                                     for kind in ("qrels", "run")}
    # rankedu.datasets names the same cases, in the atlas' order.
    assert datasets.ATLAS_CASES == tuple(case.name for case in atlas.CASES)


def _headings_and_labels():
    headings, labels = {}, set()
    for notebook in BOOK.glob("*.ipynb"):
        cells = json.loads(notebook.read_text())["cells"]
        text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
        headings[notebook.stem] = set(re.findall(r"^#+ (.+?)\s*$", text, re.M))
        labels |= set(re.findall(r"^\(([\w-]+)\)=\s*$", text, re.M))
    return headings, labels


def test_every_convention_links_to_a_section_that_exists():
    headings, labels = _headings_and_labels()
    for convention in atlas.CONVENTIONS:
        links = re.findall(r"\{doc\}`(\w+)`, \*(.+?)\*", convention.section)
        refs = re.findall(r"\{ref\}`([\w-]+)`", convention.section)
        assert links or refs, convention.key
        for chapter, heading in links:
            assert heading in headings.get(chapter, set()), (convention.key, chapter, heading)
        for label in refs:
            assert label in labels, (convention.key, label)


def test_the_atlas_chapter_lists_every_convention_with_its_section():
    cells = json.loads((BOOK / "atlas.ipynb").read_text())["cells"]
    text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    for convention in atlas.CONVENTIONS:
        row = (f"| `{convention.key}` | {convention.name} | {convention.ours} | "
               f"{convention.theirs} | {convention.section} |")
        assert row in text, convention.key


def test_cwl_eval_command_line_reads_file_order_and_refuses_gains_outside_0_1():
    # The constant scorer lists d2, its relevant document, third: RR 1/3 in file order
    # where trec_eval's docno order ranks it 4th (0.25).
    by_case = {case.name: atlas.cwl_eval_command_line(case) for case in atlas.CASES}
    assert by_case["constant_scorer"]["RR"] == pytest.approx(1 / 3, abs=5e-5)  # 4 decimals
    assert by_case["missing_queries"]["queries"] == "1 3 4"
    for name in ["negative_grades", "grades_above_4", "unjudged", "k_larger", "relevance_level"]:
        assert str(by_case[name]["AP"]).startswith("error: ValueError: Detected a gain"), name
    refused = {name for name, cells in by_case.items() if str(cells["AP"]).startswith("error")}
    assert len(refused) == 5


def test_recommender_conventions_agree_where_the_sources_agree_and_differ_where_not():
    table = atlas.recommender_conventions().set_index(["measure", "tool"])["value"]
    for measure in ("nDCG@k", "HR@k", "Gini"):
        assert table[measure].nunique() == 1, measure
    assert table["coverage", "rankedu"] == table["coverage", "RecBole ItemCoverage"]
    # Where a convention differs, the case is built so that the numbers do.
    assert table["MAP@k", "RecBole MAP"] > table["MAP@k", "rankedu, trec_eval"]
    assert table["coverage", "MSR catalog_coverage"] != table["coverage", "rankedu"]
    assert table["entropy", "RecBole ShannonEntropy"] < table["entropy", "rankedu, base e"]


@pytest.mark.parametrize("seed", range(5))
def test_recbole_s_conventions_are_rankedu_s_functions_with_their_denominators(seed):
    rng = np.random.default_rng(seed)
    hits = rng.integers(0, 2, 10).tolist()
    n_relevant = sum(hits) + int(rng.integers(0, 6))
    for k in (1, 3, 10):
        if n_relevant:
            assert atlas._recbole_map(hits, n_relevant, k) == pytest.approx(
                rk.average_precision(hits[:k], n_relevant=min(n_relevant, k)))
    counts = rng.integers(1, 20, 6).tolist()
    assert atlas._recbole_gini(counts, 9) == pytest.approx(rk.gini(counts + [0, 0, 0]))
    assert atlas._recbole_entropy(counts) == pytest.approx(
        rk.entropy(counts, base=math.e) / len(counts))


def test_ndeval_rows_agree_with_pyndeval_and_ir_measures_and_part_from_the_textbook():
    table = atlas.diversity_conventions().set_index("convention")
    for convention, row in table.iterrows():
        ours, theirs = row["rankedu (ndeval)"], [row["pyndeval"], row["ir_measures"]]
        for cell in theirs:
            assert atlas._same(cell, ours, 1e-12), (convention, cell, ours)
    textbook = table["rankedu (textbook)"]
    differs = {c for c in table.index if not atlas._same(textbook[c], table.at[c, "pyndeval"])}
    assert differs == {"tie order", "cutoff above 20", "ERR-IA normalisation",
                       "ERR-IA at k = 1"}
    # ndeval's ERR-IA@5 is the textbook's over α Σ_{i<=5} (1-α)^(i-1)/i (α = 0.5), and at
    # k = 1 the textbook's times S / α for the worked example's S = 3 intents.
    bound = sum(0.5 * 0.5 ** i / (i + 1) for i in range(5))
    assert table.at["ERR-IA normalisation", "pyndeval"] == pytest.approx(
        textbook["ERR-IA normalisation"] / bound, abs=1e-12)
    assert table.at["ERR-IA at k = 1", "pyndeval"] == pytest.approx(
        textbook["ERR-IA at k = 1"] * 3 / 0.5, abs=1e-12)
    assert str(table.at["cutoff above 20", "pyndeval"]).startswith("error")
