"""Tests of rankedu/cli.py's newer surface: ``evaluate --format``, ``compare``, ``--version``,
``explain --top`` on every table, gzip and binary input, and messages that name the command's
options instead of Python keywords. Every number is parsed back and compared exactly with the
API (rk.evaluate, rk.summary, rk.compare) or an independent computation (scipy, itertools)."""

import csv
import gzip
import importlib.metadata
import io
import json
import re

import numpy as np
import pytest
from scipy import stats
from test_comparison import enumerated_randomization_p, make_case, per_query

import rankedu as rk
from rankedu.cli import FLAGS, main

QRELS = "q1 0 a 2\nq1 0 b 0\nq1 0 c 1\nq2 0 a 1\nq2 0 b 1\nq3 0 z 1\n"
RUN = ("q1 Q0 b 1 3.0 sys\nq1 Q0 a 2 2.5 sys\nq1 Q0 x 3 1.0 sys\n"
       "q2 Q0 b 1 1.5 sys\nq2 Q0 a 2 1.0 sys\nq3 Q0 z 1 0.3 sys\n")
MEASURES = ["AP", "nDCG@2", "P@1", "RR"]


def written(folder, **texts) -> list[str]:
    """Each text written to a file of its name in ``folder``; the paths, in order."""
    for name, text in texts.items():
        (folder / name).write_text(text)
    return [str(folder / name) for name in texts]


@pytest.fixture
def files(tmp_path):
    return written(tmp_path, qrels=QRELS, run=RUN)


def expected(files):
    result = rk.evaluate(*files, MEASURES)
    return result, rk.summary(result)


# --- evaluate --format ------------------------------------------------------------------------

@pytest.mark.parametrize("form, delimiter", [("csv", ","), ("tsv", "\t")])
def test_csv_and_tsv_hold_every_query_then_all_at_full_precision(files, capsys, form,
                                                                  delimiter):
    assert main(["evaluate", *files, "-m", *MEASURES, "-q", "--format", form]) == 0
    rows = list(csv.reader(io.StringIO(capsys.readouterr().out), delimiter=delimiter))
    result, summary = expected(files)
    assert rows[0] == ["qid", *MEASURES]
    assert [row[0] for row in rows[1:]] == [*result.index, "all"]
    for row in rows[1:-1]:
        assert [float(v) for v in row[1:]] == result.loc[row[0]].tolist()
    assert [float(v) for v in rows[-1][1:]] == summary.tolist()


def test_without_q_the_machine_formats_hold_only_the_all_row(files, capsys):
    assert main(["evaluate", *files, "-m", *MEASURES, "--format", "csv"]) == 0
    rows = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    assert [row[0] for row in rows] == ["qid", "all"]


def test_json_is_one_object_of_measures_queries_and_all(files, capsys):
    assert main(["evaluate", *files, "-m", *MEASURES, "-q", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    result, summary = expected(files)
    assert data["measures"] == MEASURES and data["num_q"] == len(result)
    assert data["queries"] == {qid: row.to_dict() for qid, row in result.iterrows()}
    assert data["all"] == summary.to_dict()
    assert main(["evaluate", *files, "-m", *MEASURES, "--format", "json"]) == 0
    assert "queries" not in json.loads(capsys.readouterr().out)


def test_jsonl_is_one_object_per_row_with_its_qid(files, capsys):
    assert main(["evaluate", *files, "-m", *MEASURES, "-q", "--format", "jsonl"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    result, summary = expected(files)
    assert rows[:-1] == [{"qid": qid, **row.to_dict()} for qid, row in result.iterrows()]
    assert rows[-1] == {"qid": "all", **summary.to_dict()}


def test_the_trec_eval_layout_stays_the_default(files, capsys):
    assert main(["evaluate", *files, "-m", "AP", "-q"]) == 0
    default = capsys.readouterr().out
    assert main(["evaluate", *files, "-m", "AP", "-q", "--format", "trec_eval"]) == 0
    assert capsys.readouterr().out == default and "AP                    \tq1\t" in default


# --- --version ---------------------------------------------------------------------------------

def test_version_prints_the_installed_version(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out == f"rankedu {importlib.metadata.version('rankedu')}\n"


# --- gzip and binary input ----------------------------------------------------------------------

def test_gzip_files_are_read_whatever_their_names(files, tmp_path, capsys):
    assert main(["evaluate", *files, "-m", *MEASURES, "-q"]) == 0
    plain = capsys.readouterr().out
    qrels, run = tmp_path / "judgments", tmp_path / "run.gz"
    qrels.write_bytes(gzip.compress(QRELS.encode()))
    run.write_bytes(gzip.compress(RUN.encode()))
    assert main(["evaluate", str(qrels), str(run), "-m", *MEASURES, "-q"]) == 0
    assert capsys.readouterr().out == plain
    assert rk.read_run(run).equals(rk.read_run(files[1]))


def test_a_gzip_run_on_standard_input_is_read(files, capsys, monkeypatch):
    assert main(["evaluate", *files, "-m", "AP", "-q"]) == 0
    plain = capsys.readouterr().out
    stdin = io.TextIOWrapper(io.BytesIO(gzip.compress(RUN.encode())))
    monkeypatch.setattr("sys.stdin", stdin)
    assert main(["evaluate", files[0], "-", "-m", "AP", "-q"]) == 0
    assert capsys.readouterr().out == plain


@pytest.mark.parametrize("content, says", [
    (bytes(range(256)) * 8, "holds a NUL byte (byte 1)"),
    (b"q1 Q0 d\xe9 1 1.0 s\n" + b"\x80" * 4000, "is not UTF-8 text: its first line holds "
     "byte 0xe9 at position 8"),
    # mtime=0: the header's time would make the test's id differ between the two processes
    # of make test (pytest-xdist refuses to run a suite whose processes collected different ids).
    (gzip.compress(RUN.encode(), mtime=0)[:30], "is gzip-compressed but does not decompress"),
    (b"BZh91AY&SY" + b"\x00" * 3000, "looks like bzip2-compressed data"),
])
def test_binary_input_is_one_short_line_naming_the_file(files, tmp_path, capsys, content, says):
    bad = tmp_path / "bad.bin"
    bad.write_bytes(content)
    assert main(["evaluate", files[0], str(bad), "-m", "AP"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "'" + str(bad) + "'" in err[0] and says in err[0]
    assert len(err[0]) < 300


def test_binary_standard_input_is_named_too(files, capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"\x00\x01\x02" * 1000)))
    assert main(["evaluate", files[0], "-", "-m", "AP"]) == 2
    err = capsys.readouterr().err
    assert "run file '-' (standard input) holds a NUL byte" in err and len(err) < 300


# --- explain --top -------------------------------------------------------------------------------

def test_explain_top_cuts_every_table_and_says_how_many_ranks_are_left(tmp_path, capsys):
    qrels, run = written(tmp_path, qrels="".join(f"q1 0 d{i} {i % 2}\n" for i in range(30)),
                         run="".join(f"q1 Q0 d{i} {i} {100 - i} s\n" for i in range(30)))
    assert main(["explain", qrels, run, "q1", "-m", "AP", "RR", "nDCG@20", "--top", "3"]) == 0
    out = capsys.readouterr().out
    # The ranking, AP and RR (30 ranks), DCG and ideal DCG (20): each its first 3, then the rest.
    assert out.count("… 27 more ranks") == 3 and out.count("… 17 more ranks") == 2
    assert not re.search(r"^ +4 ", out, flags=re.M)
    assert "AP of query q1 = " in out and "RR of query q1 = 0.5" in out


# --- messages in the command's words ---------------------------------------------------------------

TIED = "q1 Q0 a 1 1.0 s\nq1 Q0 b 2 1.0 s\nq2 Q0 a 1 1.0 s\nq3 Q0 z 1 1.0 s\n"
NO_Q3 = "q1 Q0 a 1 1.0 s\nq2 Q0 a 1 1.0 s\n"


@pytest.mark.parametrize("run_text, argv, shown, hidden", [
    (NO_Q3, ["-m", "AP", "--missing", "error"], "--missing error stops here", "missing='"),
    (NO_Q3, ["-m", "AP"], "--missing zero scores them 0, as trec_eval -c does", "missing='"),
    (TIED, ["-m", "AP"], "--ties optimistic", "ties='"),
    (RUN, ["-m", "ERR@2", "--max-grade", "1"], "--max-grade 1 is below the largest grade in "
     "the qrels (2); pass --max-grade the top", "max_grade"),
    (RUN, ["-m", "ERR@2", "--max-grade", "-1"], "--max-grade must be >= 0", "max_grade"),
    (RUN, ["-m", "AP", "-l", "0"], "-l must be > 0", "threshold"),
    (RUN, ["-m", "AP", "Foo"], "-m: unknown measure 'Foo'", "measures:"),
    (RUN, ["q1", "-m", "AP", "--ties", "average"], "--ties: rankedu explain shows one order",
     "explain.query"),
])
def test_messages_name_the_commands_options_not_python_keywords(files, tmp_path, capsys,
                                                                 run_text, argv, shown, hidden):
    (run,) = written(tmp_path, **{"this.run": run_text})
    command = "explain" if argv[0] == "q1" else "evaluate"
    main([command, files[0], run, *argv])
    err = capsys.readouterr().err
    assert shown in err and hidden not in err and "rk." not in err


def test_the_flag_table_names_only_options_the_commands_have(capsys):
    with pytest.raises(SystemExit):
        main(["compare", "--help"])
    compare_help = capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["evaluate", "--help"])
    evaluate_help = capsys.readouterr().out
    for flag in FLAGS.values():
        assert flag.startswith("rankedu ") or flag in evaluate_help + compare_help


# --- compare ---------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def three_runs(tmp_path_factory):
    """Three generated runs and their judgments as files, with their per-query AP."""
    folder = tmp_path_factory.mktemp("compare")
    qrels, runs = make_case(seed=3, n_queries=12, skills=(0.0, 0.15, 0.4))
    (folder / "qrels").write_text("".join(f"{q} 0 {d} {g}\n" for q, judged in qrels.items()
                                          for d, g in judged.items()))
    paths = []
    for name, run in runs.items():
        path = folder / f"{name}.run"
        path.write_text("".join(f"{q} Q0 {d} 0 {s!r} {name}\n" for q, ranked in run.items()
                                for d, s in ranked.items()))
        paths.append(str(path))
    return str(folder / "qrels"), paths, per_query(qrels, runs, "AP")


def compared(capsys, qrels, paths, *options):
    assert main(["compare", qrels, *paths, "-m", "AP", *options]) == 0
    return capsys.readouterr().out


def test_compare_csv_t_test_p_values_equal_scipys_ttest_rel(three_runs, capsys):
    qrels, paths, ap = three_runs
    out = compared(capsys, qrels, paths, "--baseline", "base.run", "--correction", "none",
                   "--format", "csv")
    rows = {row["run"]: row for row in csv.DictReader(io.StringIO(out))}
    assert rows["base.run"]["AP p"] == ""
    for name in ("mid", "best"):
        p = stats.ttest_rel(ap[name], ap["base"]).pvalue
        assert float(rows[f"{name}.run"]["AP p"]) == pytest.approx(p, rel=1e-9)
        assert float(rows[f"{name}.run"]["AP"]) == ap[name].mean()


def test_compare_json_randomization_p_values_equal_an_enumeration(three_runs, capsys):
    qrels, paths, ap = three_runs
    out = compared(capsys, qrels, paths, "--test", "randomization", "--correction", "none",
                   "--format", "json")
    data = json.loads(out)
    assert data["test"] == "randomization" and data["queries"] == 12
    runs = data["runs"]
    assert [runs[f"{n}.run"]["letter"] for n in ("base", "mid", "best")] == ["a", "b", "c"]
    for a, b in [("base", "mid"), ("base", "best"), ("mid", "best")]:
        p = enumerated_randomization_p(ap[a], ap[b])
        assert runs[f"{a}.run"][f"AP p vs {b}.run"] == pytest.approx(p, abs=1e-12)
    assert runs["base.run"]["AP p vs base.run"] is None


def test_compare_bootstrap_p_values_equal_an_independent_resampling(three_runs, capsys):
    qrels, paths, ap = three_runs
    out = compared(capsys, qrels, paths, "--baseline", "base.run", "--test", "bootstrap",
                   "--correction", "none", "--seed", "7", "--format", "json")
    runs = json.loads(out)["runs"]
    for name in ("mid", "best"):
        d = ap[name] - ap["base"]
        picks = np.random.default_rng(7).integers(0, len(d), size=(10_000, len(d)))
        null = (d - d.mean())[picks].mean(axis=1)
        p = (1 + np.sum(np.abs(null) >= abs(d.mean()) - 1e-12)) / 10_001
        assert runs[f"{name}.run"]["AP p"] == pytest.approx(p, abs=1e-12)
    assert compared(capsys, qrels, paths, "--baseline", "base.run", "--test", "bootstrap",
                    "--correction", "none", "--seed", "7", "--format", "json") == out


@pytest.mark.parametrize("form", ["text", "markdown", "latex"])
def test_tables_to_read_show_markers_and_name_the_test_and_correction(three_runs, capsys,
                                                                       form):
    qrels, paths, _ = three_runs
    table = rk.compare(qrels, {p.rsplit("/", 1)[1]: p for p in paths}, ["AP"])
    out = compared(capsys, qrels, paths, "--format", form)
    assert "paired t-test, Holm-corrected over 3 comparisons per measure" in out
    assert "Letters: the runs a run is better than" in out
    marker = table.loc["best.run", "AP sig"]
    assert marker  # the best run beats at least one other
    shown = {"text": f" {marker}", "markdown": f"<sup>{marker}</sup>",
             "latex": f"$^{{{marker}}}$"}[form]
    assert f"{table.loc['best.run', 'AP']:.4f}{shown}" in out


def test_compare_with_a_baseline_shows_p_values_and_effect_sizes(three_runs, capsys):
    qrels, paths, _ = three_runs
    out = compared(capsys, qrels, paths, "--baseline", paths[0])  # the path names it too
    assert "AP p" in out and "AP d" in out and "Cohen's d_z" in out
    assert "against the baseline 'base.run'" in out


def test_runs_of_one_name_are_an_error_naming_both(three_runs, capsys, tmp_path):
    qrels, paths, _ = three_runs
    copy = tmp_path / "base.run"
    copy.write_text(open(paths[0]).read())
    assert main(["compare", qrels, paths[0], str(copy), "-m", "AP"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and paths[0] in err[0] and str(copy) in err[0]


def test_compare_takes_m_before_any_number_of_runs(three_runs, capsys):
    qrels, paths, _ = three_runs
    after = compared(capsys, qrels, paths)
    assert main(["compare", "-m", "AP", qrels, *paths]) == 0
    assert capsys.readouterr().out == after


def test_compare_passes_the_tie_warning_on_naming_the_run(tmp_path, capsys):
    paths = written(tmp_path, qrels="q1 0 a 1\nq1 0 b 0\nq2 0 c 1\n",
                    **{"tied.run": "q1 Q0 a 1 1.0 s\nq1 Q0 b 2 1.0 s\nq2 Q0 c 1 1.0 s\n",
                       "plain.run": "q1 Q0 a 1 2.0 s\nq1 Q0 b 2 1.0 s\nq2 Q0 c 1 1.0 s\n"})
    assert main(["compare", *paths, "-m", "P@1"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1
    assert err[0].startswith("rankedu compare: warning: run 'tied.run': --ties: tied scores")
    assert "--ties optimistic" in err[0]
