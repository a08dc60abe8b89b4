"""Tests of rankedu/cli.py (the ``rankedu`` command) and rankedu/__main__.py."""

import gzip
import io
import re
import subprocess
import sys
from pathlib import Path

import pytest

import rankedu as rk
from rankedu.cli import main
from rankedu.trec.measures import MEASURES

QRELS = "q1 0 a 2\nq1 0 b 0\nq1 0 c 1\nq2 0 a 1\nq3 0 z 1\n"
RUN = (
    "q1 Q0 b 1 3.0 sys\nq1 Q0 a 2 2.0 sys\nq1 Q0 x 3 1.0 sys\n"
    "q2 Q0 b 1 1.0 sys\nq2 Q0 a 2 1.0 sys\n"
)


@pytest.fixture
def files(tmp_path):
    qrels, run = tmp_path / "qrels.txt", tmp_path / "run.txt"
    qrels.write_text(QRELS)
    run.write_text(RUN)
    return str(qrels), str(run)


def table(text):
    """{(measure, qid): value} from trec_eval-style lines."""
    rows = [line.split("\t") for line in text.splitlines() if "\t" in line]
    return {(m.strip(), q): v for m, q, v in rows}


def test_evaluate_prints_the_mean_of_each_measure_like_trec_eval(files, capsys):
    assert main(["evaluate", *files, "-m", "AP", "nDCG@2"]) == 0
    out = table(capsys.readouterr().out)
    with pytest.warns(rk.QueryMismatchWarning):  # q3 is not in the run
        expected = rk.evaluate(*files, ["AP", "nDCG@2"])
    assert out["num_q", "all"] == "2"
    assert out["AP", "all"] == f"{expected['AP'].mean():.4f}"
    assert out["nDCG@2", "all"] == f"{expected['nDCG@2'].mean():.4f}"
    assert ("AP", "q1") not in out


def test_evaluate_q_prints_every_query_before_the_mean(files, capsys):
    assert main(["evaluate", *files, "-m", "RR", "P@2", "-q", "--digits", "6"]) == 0
    captured = capsys.readouterr()
    out = table(captured.out)
    # q2: a and b tie at 1.0; b > a as docno, so b (non-relevant) comes first.
    assert out["RR", "q1"] == "0.500000" and out["RR", "q2"] == "0.500000"
    assert out["P@2", "q1"] == "0.500000"
    lines = captured.out.splitlines()
    assert lines[-1].startswith("P@2") and "\tall\t" in lines[-1]
    # q3 is judged but not in the run: skipped and reported on stderr.
    assert ("RR", "q3") not in out
    assert "warning" in captured.err and "'q3'" in captured.err


def test_a_repeated_m_adds_measures_as_trec_eval_does(files, capsys):
    assert main(["evaluate", *files, "-m", "AP", "-m", "P@1", "RR", "-q"]) == 0
    out = table(capsys.readouterr().out)
    assert {measure for measure, _ in out} == {"AP", "P@1", "RR", "num_q"}
    assert out["AP", "q1"] == "0.2500" and out["P@1", "q1"] == "0.0000"


@pytest.mark.parametrize("before", [
    ["-m", "AP", "RR"], ["-q", "-m", "AP", "RR"], ["-m", "AP", "-m", "RR"],
    ["--measures", "AP", "RR", "--digits", "4", "-m"],
], ids=["m-first", "q-then-m", "m-twice", "m-last-empty"])
def test_m_before_the_file_names_leaves_them_to_qrels_and_run(files, capsys, before):
    # argparse gives -m every value up to the next option; the files are not measure names.
    if before[-1] == "-m":  # "-m QRELS RUN": -m keeps one value, so RUN is all it gives back
        with pytest.raises(SystemExit) as stop:
            main(["evaluate", *before, *files])
        assert stop.value.code == 2 and "required: RUN" in capsys.readouterr().err
        return
    assert main(["evaluate", *before, *files, "-q"]) == 0
    after = capsys.readouterr().out
    assert main(["evaluate", *files, *before, "-q"]) == 0
    assert after == capsys.readouterr().out and "RR" in after and "AP" in after


def test_m_before_one_file_name_says_which_is_missing(files, capsys):
    with pytest.raises(SystemExit) as stop:
        main(["evaluate", "-m", "AP", "RR", files[0]])
    assert stop.value.code == 2
    err = capsys.readouterr().err.splitlines()
    assert err == ["rankedu evaluate: error: the following arguments are required: RUN "
                   "(see 'rankedu evaluate --help')"]


def test_explain_takes_its_query_after_m_and_the_files(files, capsys):
    assert main(["explain", "-m", "RR", "P@1", *files, "q1"]) == 0
    assert "query q1" in capsys.readouterr().out


def test_an_unknown_measure_after_the_files_is_still_named(files, capsys):
    assert main(["evaluate", *files, "-m", "AP", "Foo"]) == 2
    assert "unknown measure 'Foo'" in capsys.readouterr().err


def test_missing_error_stops_like_trec_eval_10_and_c_is_missing_zero(files, capsys):
    assert main(["evaluate", *files, "-m", "AP", "--missing", "error"]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 and "'q3'" in lines[0] and "trec_eval 10.0" in lines[0]
    assert main(["evaluate", *files, "-m", "RR", "-q", "--missing", "zero"]) == 0
    zero = capsys.readouterr().out
    assert main(["evaluate", *files, "-m", "RR", "-q", "-c"]) == 0
    assert capsys.readouterr().out == zero and "q3\t0.0000" in zero


def test_evaluate_c_scores_missing_queries_zero_like_trec_eval_c(files, capsys):
    assert main(["evaluate", *files, "-m", "RR", "-q", "-c"]) == 0
    captured = capsys.readouterr()
    out = table(captured.out)
    assert out["RR", "q3"] == "0.0000"
    assert out["num_q", "all"] == "3"
    # No query is reported missing; the one warning says q2's tie decides its RR.
    assert captured.err.splitlines() == [line for line in captured.err.splitlines()
                                         if "warning: --ties:" in line and "'q2'" in line]
    assert len(captured.err.splitlines()) == 1


def test_threshold_option_is_passed_on_like_trec_eval_l(files, capsys):
    assert main(["evaluate", *files, "-m", "RR", "-q", "-l", "2"]) == 0
    out = table(capsys.readouterr().out)
    assert out["RR", "q1"] == "0.5000"  # only a (grade 2) is relevant: rank 2
    assert out["RR", "q2"] == "0.0000"


def test_explain_prints_the_steps_ending_in_the_value_evaluate_gives(files, capsys):
    assert main(["explain", *files, "q1", "-m", "nDCG@3", "AP"]) == 0
    out = capsys.readouterr().out
    with pytest.warns(rk.QueryMismatchWarning):  # q3 is not in the run
        expected = rk.evaluate(*files, ["nDCG@3", "AP"])
    assert "query q1: 3 documents retrieved, 3 judged" in out
    assert "ideal DCG" in out
    shown = dict(re.findall(r"^(\S+) of query q1 = (\S+)$", out, flags=re.M))
    assert float(shown["nDCG@3"]) == expected.loc["q1", "nDCG@3"]
    assert float(shown["AP"]) == expected.loc["q1", "AP"]
    # The step table's running result ends in the same value.
    last_share = re.search(r"^ *3 .* (\S+)\n\nideal DCG", out, flags=re.M)
    assert last_share and float(last_share.group(1)) == pytest.approx(
        expected.loc["q1", "nDCG@3"], abs=1e-6)


def test_explain_uses_evaluates_conventions_err_max_grade_4_and_r_from_the_qrels(files, capsys):
    # q1 judges a (2) and c (1); the run retrieves b, a, x. R = 2 comes from the qrels, g_max = 4
    # from evaluate's default: the CLI re-derives neither.
    assert main(["explain", *files, "q1", "-m", "ERR@3", "R@3"]) == 0
    out = capsys.readouterr().out
    shown = dict(re.findall(r"^(\S+) of query q1 = (\S+)$", out, flags=re.M))
    assert float(shown["ERR@3"]) == rk.err([0, 2, 0], 3, max_grade=4)
    assert float(shown["R@3"]) == 0.5


def test_explain_of_a_query_not_in_the_run_exits_2(files, capsys):
    assert main(["explain", *files, "q3", "-m", "AP"]) == 2
    assert "query 'q3' is not in the run" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["-m", "MAPP"], "unknown measure 'MAPP'; did you mean 'AP'?"),
        (["-m", "R"], "R needs a cutoff"),
        (["-m", "AP", "-l", "0"], "-l must be > 0"),
    ],
)
def test_bad_measures_or_options_exit_2_with_the_reason(files, capsys, argv, message):
    assert main(["evaluate", *files, *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("rankedu evaluate: error:") and message in err


def test_missing_and_malformed_files_exit_2_naming_the_file(tmp_path, files, capsys):
    assert main(["evaluate", files[0], str(tmp_path / "nope.txt"), "-m", "AP"]) == 2
    assert "nope.txt" in capsys.readouterr().err
    bad = tmp_path / "bad.txt"
    bad.write_text("q1 Q0 a 1 1.0 sys\nq1 Q0 b 2\n")
    assert main(["evaluate", files[0], str(bad), "-m", "AP"]) == 2
    assert "bad.txt', line 2" in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv",
    [["evaluate", "-m", "AP", "-q", "--digits", "-1"], ["explain", "q1", "-m", "AP", "--top", "-1"],
     ["evaluate", "-m", "AP", "--digits", "two"]],
)
def test_negative_digits_or_top_are_rejected_before_anything_is_printed(files, capsys, argv):
    command, *rest = argv
    with pytest.raises(SystemExit) as exit_info:
        main([command, *files, *rest])
    assert exit_info.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert len(captured.err.splitlines()) == 1
    assert "must be an integer >= 0" in captured.err


def test_too_many_digits_are_refused_naming_the_option(files, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["evaluate", *files, "-m", "AP", "--digits", "99999999999"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("rankedu evaluate: error: argument --digits: must be at most 17")
    assert main(["evaluate", *files, "-m", "AP", "--digits", "17"]) == 0


def test_explain_top_0_lists_no_document_and_top_n_lists_n(files, capsys):
    assert main(["explain", *files, "q1", "-m", "AP", "--top", "2"]) == 0
    out = capsys.readouterr().out
    assert " b " in out and " a " in out and " x " not in out


@pytest.mark.parametrize("run_text", ["", "z9 Q0 a 1 1.0 sys\n"])
def test_nothing_to_evaluate_exits_2_with_one_line_on_stderr(tmp_path, files, capsys, run_text):
    run = tmp_path / "other.run"
    run.write_text(run_text)
    assert main(["evaluate", files[0], str(run), "-m", "AP"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1 and "nothing was evaluated" in lines[0]


@pytest.mark.parametrize(
    ("argv", "message"),
    [(["explain", "FILES", "q1"], "rankedu explain: error: the following arguments are required: "
      "-m/--measures"),
     (["frobnicate"], "rankedu: error: argument COMMAND: invalid choice: 'frobnicate'"),
     (["evaluate", "FILES", "-m", "AP", "--ties", "bogus"], "argument --ties: invalid choice"),
     (["evaluate", "FILES", "-m", "AP", "-l", "abc"], "argument -l/--threshold: invalid float"),
     (["evaluate", "FILES", "-m", "AP", "-c", "--missing", "skip"],
      "argument --missing: not allowed with argument -c/--complete")],
)
def test_usage_errors_exit_2_with_one_line_on_stderr(files, capsys, argv, message):
    # The module docstring promises one line on standard error for every bad input.
    at = argv.index("FILES") if "FILES" in argv else len(argv)
    with pytest.raises(SystemExit) as exit_info:
        main([*argv[:at], *(files if "FILES" in argv else []), *argv[at + 1:]])
    assert exit_info.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == "" and len(captured.err.splitlines()) == 1
    assert captured.err.startswith("rankedu") and message in captured.err


def test_help_lists_the_commands_and_the_measures(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    assert "evaluate" in out and "explain" in out
    # Every declared measure, with its description, from the one table.
    text = " ".join(out.split()).replace("- ", "-")  # argparse wraps lines after hyphens
    for measure in MEASURES.values():
        assert measure.usage.replace("- ", "-") in text
        assert measure.description.replace("- ", "-") in text


def test_python_dash_m_rankedu_runs_the_same_command(files):
    done = subprocess.run(
        [sys.executable, "-m", "rankedu", "evaluate", *files, "-m", "AP"],
        capture_output=True, text=True, check=False,
    )
    assert done.returncode == 0
    assert table(done.stdout)["num_q", "all"] == "2"
    bad = subprocess.run(
        [sys.executable, "-m", "rankedu", "evaluate", *files, "-m", "nope"],
        capture_output=True, text=True, check=False,
    )
    assert bad.returncode == 2 and "unknown measure" in bad.stderr



def test_a_reader_that_stops_early_gets_no_error_message(tmp_path):
    # `rankedu evaluate ... -q | head -1`: the pipe closes while the table is still being
    # written. 20,000 queries make a table far larger than a pipe's buffer.
    qrels, run = tmp_path / "qrels.txt", tmp_path / "run.txt"
    qrels.write_text("".join(f"q{i} 0 d 1\n" for i in range(20_000)))
    run.write_text("".join(f"q{i} Q0 d 1 1.0 sys\n" for i in range(20_000)))
    done = subprocess.run(
        f"{sys.executable} -m rankedu evaluate {qrels} {run} -m AP P@1 RR nDCG -q | head -1",
        shell=True, capture_output=True, text=True, check=False,
    )
    assert done.stdout.startswith("AP")
    assert "error" not in done.stderr and "Traceback" not in done.stderr


def test_warnings_reach_stderr_even_when_the_output_pipe_breaks(tmp_path):
    qrels, run = tmp_path / "qrels.txt", tmp_path / "run.txt"
    qrels.write_text("".join(f"q{i} 0 d 1\n" for i in range(20_001)))  # q20000: not in the run
    run.write_text("".join(f"q{i} Q0 d 1 1.0 sys\n" for i in range(20_000)))
    done = subprocess.run(
        f"{sys.executable} -m rankedu evaluate {qrels} {run} -m AP P@1 RR nDCG -q | head -1",
        shell=True, capture_output=True, text=True, check=False,
    )
    assert done.stdout.startswith("AP")
    assert "warning" in done.stderr and "'q20000'" in done.stderr
    assert "Traceback" not in done.stderr


# --- trec_eval's own outputs, through the command ---------------------------------------------

TREC_EVAL_DATA = Path(rk.__file__).parent / "data" / "trec_eval"


@pytest.mark.parametrize(
    ("options", "qrels", "run", "expected"),
    [([], "qrels.test", "results.test", "out.test"),
     (["-m", "all_trec", "-q"], "qrels.test", "results.test", "out.test.aq"),
     (["-q", "-c", "-M100", "-m", "all_trec"], "qrels.test", "results.trunc", "out.test.aqcM"),
     (["-q", "-m", "all_trec", "-Z", str(TREC_EVAL_DATA / "zscores_file")], "qrels.test",
      "results.test", "out.test.aqZ"),
     (["-m", "qrels_jg", "-q", "-R", "qrels_jg"], "qrels.123", "results.test",
      "out.test.qrels_jg"),
     (["-m", "all_prefs", "-q", "-R", "prefs"], "prefs.test", "prefs.results.test",
      "out.test.prefs"),
     (["-m", "all_prefs", "-q", "-R", "qrels_prefs"], "qrels.test", "results.test",
      "out.test.qrels_prefs")],
)
def test_evaluate_prints_what_trec_eval_10_prints(capsys, options, qrels, run, expected):
    # Without -m, trec_eval's default measures; -M, -c and -R as trec_eval reads them.
    assert main(["evaluate", str(TREC_EVAL_DATA / qrels), str(TREC_EVAL_DATA / run),
                 *options]) == 0
    printed = capsys.readouterr().out
    assert [line.split() for line in printed.splitlines()] == \
        [line.split() for line in (TREC_EVAL_DATA / expected).read_text().splitlines()]


def test_zscores_are_refused_outside_the_trec_eval_layout_and_a_bad_file_named(
        capsys, tmp_path):
    qrels, run = str(TREC_EVAL_DATA / "qrels.test"), str(TREC_EVAL_DATA / "results.test")
    zscores = tmp_path / "z"
    zscores.write_text("301 map 0.2 0.1\n")
    assert main(["evaluate", qrels, run, "-m", "map", "-Z", str(zscores), "--format",
                 "csv"]) == 2
    assert "--zscores: only the trec_eval format prints z-scores" in capsys.readouterr().err
    for text, problem in [("301 map 0.2\n", "line 1: expected 'qid measure mean stddev'"),
                          ("\n301 map 0.2 x\n", "line 2: expected"),
                          ("301 map 0.2 0.1\n301 map 0.3 0.1\n",
                           "line 2: query '301' and measure 'map' are listed twice")]:
        zscores.write_text(text)
        assert main(["evaluate", qrels, run, "-m", "map", "-Z", str(zscores)]) == 2
        assert f"zscores file '{zscores}', {problem}" in capsys.readouterr().err


def test_the_run_id_of_standard_input_is_its_last_lines_tag(capsys, monkeypatch):
    data = (TREC_EVAL_DATA / "results.test").read_bytes()
    for stream in (data, gzip.compress(data)):
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(stream)))
        assert main(["evaluate", str(TREC_EVAL_DATA / "qrels.test"), "-", "-m", "runid",
                     "map"]) == 0
        assert capsys.readouterr().out.split() == ["runid", "all", "STANDARD", "map", "all",
                                                   "0.1785"]


def test_max_docs_must_be_at_least_one(capsys):
    with pytest.raises(SystemExit):
        main(["evaluate", str(TREC_EVAL_DATA / "qrels.test"),
              str(TREC_EVAL_DATA / "results.test"), "-M", "0"])
    assert "argument -M/--max-docs: must be an integer >= 1, got 0" in capsys.readouterr().err
