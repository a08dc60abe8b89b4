"""rk.trec_eval_report prints what trec_eval 10.0 prints: its own test outputs, byte for byte."""

import re

import pytest

import rankedu as rk
from conftest import TREC_EVAL_DATA

# trec_eval 10.0's expected outputs (its test/ folder; the command behind each is in
# rankedu/data/trec_eval/README.md), and the same call here.
OUTPUTS = {
    "out.test": ("qrels.test", "results.test", ["official"], {}),
    "out.comment.test": ("qrels.comment.test", "results.comment.test", ["official"], {}),
    "out.test.a": ("qrels.test", "results.test", ["all_trec"], {}),
    "out.test.aq": ("qrels.test", "results.test", ["all_trec"], {"per_query": True}),
    "out.test.aqc": ("qrels.test", "results.trunc", ["all_trec"],
                     {"per_query": True, "missing": "zero"}),
    "out.test.aqcM": ("qrels.test", "results.trunc", ["all_trec"],
                      {"per_query": True, "missing": "zero", "max_docs": 100}),
    "out.test.aql": ("qrels.rel_level", "results.test", ["all_trec", "relstring.20"],
                     {"per_query": True, "threshold": 2}),
    "out.test.aqZ": ("qrels.test", "results.test", ["all_trec"],
                     {"per_query": True, "zscores": TREC_EVAL_DATA / "zscores_file"}),
    "out.test.qrels_jg": ("qrels.123", "results.test", ["qrels_jg"],
                          {"per_query": True, "rel_format": "qrels_jg"}),
    "out.test.prefs": ("prefs.test", "prefs.results.test", ["all_prefs"],
                       {"per_query": True, "rel_format": "prefs"}),
    "out.test.qrels_prefs": ("qrels.test", "results.test", ["all_prefs"],
                             {"per_query": True, "rel_format": "qrels_prefs"}),
    "out.test.meas_params": (
        "qrels.test", "results.test",
        ["iprec_at_recall..10,.20,.25,.75,.50", "P.5,7,3", "recall.20,2000",
         "Rprec_mult.5.0,0.2,0.35", "utility.2,-1,0,0", "11pt_avg..25,.5,.75",
         "ndcg.1=3,2=9,4=4.5", "ndcg_cut.10,20,23.4", "success.2,5,20"],
        {"per_query": True}),
}


def normalised(text):
    """The lines with each run of whitespace made one space."""
    return [" ".join(line.split()) for line in text.strip().splitlines()]


@pytest.mark.filterwarnings("ignore::rankedu.TieWarning")
@pytest.mark.filterwarnings("ignore::rankedu.QueryMismatchWarning")
@pytest.mark.filterwarnings("ignore:measures. trec_eval reads the cutoff")
@pytest.mark.parametrize("output", list(OUTPUTS))
def test_reproduces_trec_eval_10s_own_test_outputs_byte_for_byte(output):
    qrels, run, measures, options = OUTPUTS[output]
    printed = rk.trec_eval_report(TREC_EVAL_DATA / qrels, TREC_EVAL_DATA / run, measures,
                                  **options)
    # Byte for byte: trec_eval's "%-22s\t%s\t%6.4f" lines, its order, its integers.
    assert printed == (TREC_EVAL_DATA / output).read_text()


def write(folder, name, lines):
    path = folder / name
    path.write_text("".join(line + "\n" for line in lines))
    return path


@pytest.fixture
def graded(tmp_path):
    qrels = write(tmp_path, "qrels", ["q 0 a -1", "q 0 b -2", "q 0 c 12", "q 0 d 3",
                                      "q 0 e 0", "q 0 f 1"])
    run = write(tmp_path, "run", [f"q Q0 {d} {i} {9 - i} first" for i, d in
                                  enumerate("abcdexf", 1)] + ["q Q0 y 8 0 last"])
    return qrels, run


def test_relstring_writes_each_grade_as_trec_eval_does(graded):
    printed = rk.trec_eval_report(*graded, ["relstring.7"], per_query=True)
    # -1 is '.', another negative grade '<', above 9 '>', a document not in the qrels '-'.
    assert normalised(printed) == ["relstring_7 q '.<>30-1'"]
    assert normalised(rk.trec_eval_report(*graded, ["relstring"], per_query=True)) == \
        ["relstring q '.<>30-1-'"]


def test_runid_is_the_tag_of_the_last_line_or_given(graded):
    assert normalised(rk.trec_eval_report(*graded, ["runid"])) == ["runid all last"]
    assert normalised(rk.trec_eval_report(*graded, ["runid"], runid="mine")) == \
        ["runid all mine"]
    frame = rk.read_run(graded[1])
    assert normalised(rk.trec_eval_report(graded[0], frame, ["runid"])) == ["runid all last"]
    with pytest.raises(ValueError, match="^runid: this run has no run id"):
        rk.trec_eval_report({"q": {"a": 1}}, {"q": {"a": 1.0}}, ["runid"])


def test_rankedus_names_keep_rankedus_layout_num_q_first(graded):
    printed = normalised(rk.trec_eval_report(*graded, ["P@2", "AP"], per_query=True))
    assert [line.split()[:2] for line in printed] == [
        ["P@2", "q"], ["AP", "q"], ["num_q", "all"], ["P@2", "all"], ["AP", "all"]]


def test_trec_eval_names_print_in_trec_evals_order_and_gm_map_only_in_the_summary(graded):
    printed = normalised(rk.trec_eval_report(*graded, ["P.2", "gm_map", "map"],
                                             per_query=True, digits=2))
    # AP = (1/3 + 2/4 + 3/7) / 3: the relevant c, d and f are at ranks 3, 4 and 7.
    assert printed == ["map q 0.42", "P_2 q 0.00", "map all 0.42", "gm_map all 0.42",
                       "P_2 all 0.00"]


def test_max_docs_evaluates_the_first_documents_of_trec_evals_ranking(graded):
    whole = rk.evaluate(*graded, ["AP", "P@3", "nDCG"])
    cut = rk.evaluate(*graded, ["AP", "P@3", "nDCG"], max_docs=3)
    assert cut.loc["q", "P@3"] == whole.loc["q", "P@3"]
    assert cut.loc["q", "AP"] < whole.loc["q", "AP"]
    assert rk.evaluate(*graded, ["AP"], max_docs=8).equals(whole[["AP"]])
    for bad in (0, -1, 2.5, "3"):
        with pytest.raises((ValueError, TypeError), match="max_docs"):
            rk.evaluate(*graded, ["AP"], max_docs=bad)


@pytest.mark.parametrize("digits", [0, 2, 6])
def test_digits_apply_to_values_not_to_counts(digits):
    printed = rk.trec_eval_report(TREC_EVAL_DATA / "qrels.test",
                                  TREC_EVAL_DATA / "results.test", ["num_rel", "map"],
                                  digits=digits)
    assert re.fullmatch(r"num_rel +\tall\t561\nmap +\tall\t[0-9]+(\.[0-9]{%d})?\n" % digits,
                        printed)


def test_zscores_must_be_a_path():
    with pytest.raises(TypeError, match="^zscores must be the path of a file, got dict"):
        rk.trec_eval_report({"q": {"a": 1}}, {"q": {"a": 1.0}}, ["map"],
                            zscores={"q": {"map": (0, 1)}})


def test_judgment_groups_take_only_their_measures_and_a_group_column(tmp_path):
    qrels = TREC_EVAL_DATA / "qrels.123"
    run = TREC_EVAL_DATA / "results.test"
    for measures in (["map"], ["qrels_jg", "AP"], ["qrels_jg", "relstring"]):
        with pytest.raises(ValueError, match="^measures: with rel_format='qrels_jg' only the "
                                             "measures averaged over judgment groups"):
            rk.trec_eval_report(qrels, run, measures, rel_format="qrels_jg")
    with pytest.raises(ValueError, match="^rel_format must be one of"):
        rk.trec_eval_report(qrels, run, ["qrels_jg"], rel_format="qrels_ranked")
    with pytest.raises(ValueError, match="^qrels must have a 'group' column"):
        rk.trec_eval_report(rk.read_qrels(TREC_EVAL_DATA / "qrels.test"), run, ["qrels_jg"],
                            rel_format="qrels_jg")
    with pytest.raises(ValueError, match="^measures: trec_eval's P_avgjg averages over "
                                         "judgment groups"):
        rk.evaluate(TREC_EVAL_DATA / "qrels.test", run, ["P_avgjg.5"])
    twice = tmp_path / "twice"
    twice.write_text("q1 A d1 1\nq1 B d1 0\n# a comment\nq1 A d1 0\n")
    with pytest.raises(ValueError, match="twice', line 4: document 'd1' is judged twice for "
                                         "query 'q1' and group 'A'"):
        rk.read_judgment_groups(twice)


@pytest.mark.filterwarnings("ignore::rankedu.TieWarning")
def test_judgment_groups_from_a_frame_equal_those_from_the_file():
    qrels, run = TREC_EVAL_DATA / "qrels.123", TREC_EVAL_DATA / "results.test"
    from_file = rk.trec_eval_report(qrels, run, ["qrels_jg"], rel_format="qrels_jg")
    from_frames = rk.trec_eval_report(rk.read_judgment_groups(qrels), rk.read_run(run),
                                      ["qrels_jg"], rel_format="qrels_jg", runid="STANDARD")
    assert from_frames == from_file


def test_preferences_take_only_their_measures_and_options(tmp_path):
    prefs, run = TREC_EVAL_DATA / "prefs.test", TREC_EVAL_DATA / "prefs.results.test"
    for measures in (["map"], ["official"], ["all_prefs", "AP"], ["prefs", "relstring"],
                     ["qrels_jg"]):
        with pytest.raises(ValueError, match=r"^measures: with rel_format='prefs' only "
                                             r"trec_eval's preference measures are computed: "
                                             r"prefs_num_prefs_poss, .* \(the sets all_prefs "
                                             r"and prefs\), and runid and num_q; got"):
            rk.trec_eval_report(prefs, run, measures, rel_format="prefs")
    for rel_format in ("qrels", "qrels_jg"):
        with pytest.raises(ValueError, match="^measures: (trec_eval's prefs_simp compares "
                                             "preferences|with rel_format='qrels_jg')"):
            rk.trec_eval_report(TREC_EVAL_DATA / "qrels.test", TREC_EVAL_DATA / "results.test",
                                ["prefs_simp"], rel_format=rel_format)
    with pytest.raises(ValueError, match="^measures: trec_eval's prefs_pair compares "
                                         "preferences: only the trec_eval layout computes it, "
                                         "from preference judgments"):
        rk.evaluate(TREC_EVAL_DATA / "qrels.test", TREC_EVAL_DATA / "results.test",
                    ["prefs_pair"])
    with pytest.raises(ValueError, match="^threshold=2: not an option of trec_eval's "
                                         "preference measures"):
        rk.trec_eval_report(prefs, run, ["all_prefs"], rel_format="prefs", threshold=2)
    with pytest.raises(ValueError, match=r"^qrels must have the columns \['qid', 'group', "
                                         r"'subgroup', 'docno', 'rel'\] with "
                                         r"rel_format='prefs'; it lacks \['subgroup'\]"):
        rk.trec_eval_report(rk.read_judgment_groups(TREC_EVAL_DATA / "qrels.123"), run,
                            ["prefs"], rel_format="prefs")


@pytest.mark.parametrize(("text", "message"), [
    ("q1 A s d1 1\n\nq1 A s d2\n", r"prefs', line 3: malformed line \(expected 5 fields, qid "
                                   r"group subgroup docno rel; got 4\): 'q1 A s d2'"),
    ("# judged\nq1 A s d1 high\n", r"prefs', line 2: malformed line \(the relevance level "
                                   r"'high' is not a number\)"),
    ("q1 A s d1 1\nq1 A s d1 2\n", r"prefs', line 2: document 'd1' is judged twice for query "
                                   r"'q1' and group 'A' and subgroup 's'"),
    ("q1 A s d1 1\nq1 A s d2 -1\n", r"prefs', line 2: the relevance level -1.0 of document "
                                    r"'d2' is not a number >= 0"),
])
def test_a_bad_prefs_line_is_named_by_file_and_line(tmp_path, text, message):
    path = tmp_path / "prefs"
    path.write_text(text)
    with pytest.raises(ValueError, match=message):
        rk.read_preferences(path)


@pytest.mark.parametrize(("lines", "message"), [
    (["q1 A s1 d1 2", "q1 A s1 d2 1", "q1 A s2 d2 2", "q1 A s2 d1 1"],
     "documents 'd1' and 'd2' are each preferred to the other"),
    (["q1 A s1 d1 2", "q1 A s1 d2 0", "q1 A s2 d2 1"],
     "document 'd2' has both level 0 and a level above 0"),
])
def test_a_group_contradicting_itself_is_refused(tmp_path, lines, message):
    # Its subgroups are parts of one order; groups may disagree, a group may not.
    path = tmp_path / "prefs"
    path.write_text("".join(line + "\n" for line in lines))
    with pytest.raises(ValueError, match=f"^qrels: query 'q1', group 'A': {message}"):
        rk.trec_eval_report(path, {"q1": {"d1": 1.0}}, ["all_prefs"], rel_format="prefs")
    path.write_text("".join(line.replace(" A s2", " B s2") + "\n" for line in lines))
    assert "prefs_simp" in rk.trec_eval_report(path, {"q1": {"d1": 1.0}}, ["all_prefs"],
                                               rel_format="prefs", runid="r")


def test_preferences_from_frames_equal_those_from_the_files():
    prefs, run = TREC_EVAL_DATA / "prefs.test", TREC_EVAL_DATA / "prefs.results.test"
    from_file = rk.trec_eval_report(prefs, run, ["all_prefs"], per_query=True,
                                    rel_format="prefs")
    assert from_file == rk.trec_eval_report(rk.read_preferences(prefs), rk.read_run(run),
                                            ["all_prefs"], per_query=True, rel_format="prefs",
                                            runid="STANDARD")
    qrels, run = TREC_EVAL_DATA / "qrels.test", TREC_EVAL_DATA / "results.test"
    assert rk.trec_eval_report(rk.read_qrels(qrels), rk.read_run(run), ["prefs"],
                               rel_format="qrels_prefs", runid="STANDARD") == \
        rk.trec_eval_report(qrels, run, ["prefs"], rel_format="qrels_prefs")
