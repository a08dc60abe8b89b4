"""Tests of rankedu/datasets.py: the shipped trec_eval test data, and rankedu on TREC 2024 RAG
against trec_eval 10.0's own output for it (``out.comment.test``)."""

import re
import shutil
import subprocess
import sys
import tomllib
import warnings
import zipfile
from pathlib import Path

import pytest

import rankedu as rk
from rankedu import datasets

# trec_eval's default measures in out.comment.test that rankedu computes, by rankedu's name.
DEFAULT_MEASURES = {"map": "AP", "Rprec": "Rprec", "bpref": "Bpref", "recip_rank": "RR",
                    **{f"P_{k}": f"P@{k}" for k in (5, 10, 15, 20, 30, 100, 200, 500, 1000)}}


def test_the_rag_judgments_and_run_are_what_the_readme_says():
    qrels, run = datasets.load("trec_rag_2024")
    assert (qrels["qid"].nunique(), len(qrels)) == (31, 5890)
    assert sorted(qrels["rel"].unique()) == [0, 1, 2, 3]
    assert len(run) == 30100
    assert set(qrels["qid"]) <= set(run["qid"])


def test_trec_301_303_binary_and_graded():
    binary, run = datasets.load("trec_301_303")
    graded, same_run = datasets.load("trec_301_303", graded=True)
    assert sorted(binary["rel"].unique()) == [0, 1]
    assert sorted(graded["rel"].unique()) == [-1, 0, 1, 2, 3, 4]
    assert run.equals(same_run) and len(run) == 1500


def test_rankedu_gives_trec_eval_10s_means_on_the_rag_run():
    expected = {}
    for line in datasets.path("out.comment.test").read_text().splitlines():
        measure, _, value = line.split()
        expected[measure] = value
    qrels, run = datasets.load("trec_rag_2024")
    with warnings.catch_warnings():
        # 270 queries of the run are not judged (trec_eval skips them silently); ties decide
        # one AP only beyond the fourth decimal.
        warnings.simplefilter("ignore", rk.QueryMismatchWarning)
        warnings.simplefilter("ignore", rk.TieWarning)
        result = rk.evaluate(qrels, run, list(DEFAULT_MEASURES.values()))
    assert f"{len(result)}" == expected["num_q"]
    for trec_name, ours in DEFAULT_MEASURES.items():
        assert f"{result[ours].mean():.4f}" == expected[trec_name], trec_name


def test_an_atlas_case_loads_by_its_name_and_its_files_by_path():
    qrels, run = datasets.load("atlas/missing_queries")
    # The case: query 2 judged but not run, 3 and 4 run but not judged.
    assert (sorted(set(qrels["qid"])), sorted(set(run["qid"]))) == (["1", "2"], ["1", "3", "4"])
    assert datasets.path("atlas/missing_queries.run").parent == datasets.ATLAS
    assert len(datasets.ATLAS_CASES) == 12
    assert {f"atlas/{case}" for case in datasets.ATLAS_CASES} <= set(datasets.DATASETS)


def test_unknown_names_and_a_non_bool_graded_are_refused_naming_the_argument():
    with pytest.raises(ValueError, match="^name must be one of 'trec_301_303', 'trec_rag_2024'"):
        datasets.load("trec_2025")
    with pytest.raises(TypeError, match="^graded must be True or False"):
        datasets.load("trec_301_303", graded="yes")
    with pytest.raises(ValueError, match="^name must be one of .*'qrels.test'"):
        datasets.path("../../setup.py")
    with pytest.raises(ValueError, match="^name must be one of"):
        datasets.path("atlas/../trec_eval/qrels.test")


ROOT = Path(__file__).resolve().parents[1]


def _pins(lines):
    """``{normalised name: version}`` of the ``name==version`` lines."""
    pins = {}
    for line in lines:
        match = re.match(r"^\s*([A-Za-z0-9_.-]+)==([^\s#;]+)", line)
        if match:
            pins[re.sub(r"[-_.]+", "-", match.group(1)).lower()] = match.group(2)
    return pins


def test_the_book_extra_pins_what_requirements_txt_pins():
    # The stored outputs were computed with requirements.txt's versions: rankedu[book], which
    # a reader installs to run a chapter in an empty folder, must name the same ones.
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]
    book = _pins(extras["book"])
    required = _pins((ROOT / "requirements.txt").read_text().splitlines())
    assert len(book) == len(extras["book"]) > 0
    assert {name: required.get(name) for name in book} == book
    # rankedu[all] is every other extra, so that it runs every chapter.
    others = [name for name in extras if name != "all"]
    assert extras["all"] == [f"rankedu[{','.join(others)}]"]


def test_a_built_wheel_holds_every_shipped_file(tmp_path):
    # Build the wheel from a copy, so that the build leaves nothing in the clone.
    source = tmp_path / "source"
    shutil.copytree(ROOT / "rankedu", source / "rankedu",
                    ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, source / name)
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(source), "--no-deps",
                    "--no-build-isolation", "--quiet", "-w", str(tmp_path / "wheel")],
                   check=True, capture_output=True)
    (wheel,) = (tmp_path / "wheel").glob("rankedu-*.whl")
    packed = set(zipfile.ZipFile(wheel).namelist())
    shipped = {p.relative_to(ROOT).as_posix() for p in (ROOT / "rankedu" / "data").rglob("*")
               if p.is_file()}
    assert shipped - packed == set()
    # Each folder says where its files come from; NIST's notice travels with NIST's files (the
    # atlas's cases are rankedu's own, under its licence).
    for readme in ("trec_eval/README.md", "atlas/README.md", "trec_eval_source/README.rankedu.md"):
        assert f"rankedu/data/{readme}" in packed, readme
    for folder in ("trec_eval", "trec_eval_source"):
        assert f"rankedu/data/{folder}/LICENSE.md" in packed, folder
    assert "rankedu/teaching/atlas.py" in packed
