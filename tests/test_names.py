"""The names people type: ir_measures' aliases, trec_eval's names and sets, suggestions."""

import pytest

import rankedu as rk
from conftest import TREC_EVAL_DATA
from rankedu.trec.measures import parse
from rankedu.trec.names import FAMILIES, SETS, trec_eval_spellings

QRELS, RUN = TREC_EVAL_DATA / "qrels.test", TREC_EVAL_DATA / "results.test"


def columns(measures):
    return [(spec.name, spec.measure.name, spec.k) for spec in parse(measures)]


@pytest.mark.parametrize(("alias", "name"), [("MAP", "AP"), ("MRR", "RR"), ("NDCG@10", "nDCG@10"),
                                             ("BPref", "Bpref"), ("RPrec", "Rprec"),
                                             ("Precision@5", "P@5"), ("Recall@5", "R@5")])
def test_ir_measures_aliases_are_rankedus_measures_under_the_name_written(alias, name):
    ours, theirs = parse([name])[0], parse([alias])[0]
    assert theirs.name == alias
    assert (theirs.measure, theirs.k, theirs.params) == (ours.measure, ours.k, ours.params)


@pytest.mark.parametrize(
    ("written", "expected"),
    [(["map"], [("map", "AP", None)]),
     (["P_10"], [("P_10", "P", 10)]),
     (["P.10,5"], [("P_5", "P", 5), ("P_10", "P", 10)]),
     (["ndcg_cut_10", "recip_rank"], [("recip_rank", "RR", None), ("ndcg_cut_10", "nDCG", 10)]),
     (["success_5"], [("success_5", "Success", 5)]),
     (["success"], [("success_1", "Success", 1), ("success_5", "Success", 5),
                    ("success_10", "Success", 10)]),
     (["P"], [(f"P_{k}", "P", k) for k in (5, 10, 15, 20, 30, 100, 200, 500, 1000)]),
     (["AP", "map", "P@5", "P.5"], [("AP", "AP", None), ("map", "AP", None),
                                    ("P_5", "P", 5), ("P@5", "P", 5)]),
     (["P.5", "P.10"], [("P_5", "P", 5), ("P_10", "P", 10)])],
)
def test_trec_eval_names_give_trec_eval_columns_in_its_order(written, expected):
    assert sorted(columns(written)) == sorted(expected)
    trec_eval = [name for name, _, _ in columns(written) if "@" not in name and name != "AP"]
    assert trec_eval == [name for name, _, _ in expected if "@" not in name and name != "AP"]


def test_trec_eval_values_agree_with_rankedus_spelling():
    trec_eval = rk.evaluate(QRELS, RUN, ["map", "P.5,10", "ndcg_cut.10", "recip_rank"])
    ours = rk.evaluate(QRELS, RUN, ["AP", "RR", "P@5", "P@10", "nDCG@10"])
    assert trec_eval.to_numpy().tolist() == ours.to_numpy().tolist()
    assert list(trec_eval.columns) == ["map", "recip_rank", "P_5", "P_10", "ndcg_cut_10"]


def test_a_set_names_every_family_and_a_family_given_again_replaces_its_defaults():
    every = trec_eval_spellings(["all_trec"])
    assert {s.family for s in every} == set(SETS["all_trec"])
    assert [s.column for s in every if s.family == "relstring"] == ["relstring"]
    again = trec_eval_spellings(["all_trec", "relstring.20"])
    assert [s.column for s in again if s.family == "relstring"] == ["relstring_20"]
    assert trec_eval_spellings(["official", "P.7"])[-1].column == "P_7"
    order = list(FAMILIES)
    assert [s.family for s in every] == sorted((s.family for s in every), key=order.index)


@pytest.mark.parametrize(
    ("written", "columns_"),
    [("iprec_at_recall..10,.20,.25,.75,.50", ["iprec_at_recall_0.10", "iprec_at_recall_0.20",
                                              "iprec_at_recall_0.25", "iprec_at_recall_0.50",
                                              "iprec_at_recall_0.75"]),
     ("P.5,7,3", ["P_3", "P_5", "P_7"]),
     ("Rprec_mult.5.0,0.2,0.35", ["Rprec_mult_0.20", "Rprec_mult_0.35", "Rprec_mult_5.00"]),
     ("utility.2,-1,0,0", ["utility_2,-1,0,0"]),
     ("11pt_avg..25,.5,.75", ["11pt_avg_.25,.5,.75"]),
     ("ndcg.1=3,2=9,4=4.5", ["ndcg_1=3,2=9,4=4.5"]),
     ("rbp.p=0.5", ["rbp_p=0.5"]),
     ("set_F.0.25", ["set_F_0.25"]),
     ("success.2,5,20", ["success_2", "success_5", "success_20"])],
)
def test_trec_eval_parameters_print_as_trec_eval_prints_them(written, columns_):
    assert [s.column for s in trec_eval_spellings([written])] == columns_


def test_a_fractional_cutoff_is_read_as_trec_eval_reads_it_with_one_warning():
    with pytest.warns(UserWarning, match="reads the cutoff '23.4' of 'ndcg_cut.10,23.4' as 23"
                      ) as caught:
        assert columns(["ndcg_cut.10,23.4"])[-1] == ("ndcg_cut_23", "nDCG", 23)
    assert len(caught) == 1  # (the name was read twice, and warned twice)


@pytest.mark.parametrize(
    ("written", "message"),
    [("P.0", "the cutoffs of 'P.0' must be >= 1"),
     ("P.5,5", "'P.5,5' gives a value twice"),
     ("P_x", "a parameter of trec_eval's P must be a number, got 'x'"),
     ("map.5", "trec_eval's map takes no parameters"),
     ("utility.1,2", "trec_eval's utility takes 4 numbers"),
     ("ndcg.1", "trec_eval's ndcg takes name=value pairs"),
     ("rbp.q=0.5", "trec_eval's rbp takes p=value"),
     ("relstring", "relstring is not a number per query"),
     ("runid", "runid is not a number per query"),
     ("ndcg@10", "did you mean 'nDCG@10'?"), ("NDCG@10(judged_only=True)", "parameters go before"),
     ("Map", "did you mean 'AP'?"), ("recip_rnk", "did you mean 'recip_rank'?")],
)
def test_bad_trec_eval_names_say_what_is_wrong(written, message):
    with pytest.raises(ValueError, match="^measures") as error:
        parse([written])
    assert message in str(error.value)


def test_trec_eval_gains_and_persistence_are_rankedus_parameters():
    (ndcg,) = parse(["ndcg.1=3,2=9,4=4.5"])
    assert (ndcg.name, ndcg.measure.name, ndcg.params["gains"]) == (
        "ndcg_1=3,2=9,4=4.5", "nDCG", {1: 3.0, 2: 9.0, 4: 4.5})
    (rbp,) = parse(["rbp.p=0.5"])
    assert (rbp.name, rbp.measure.name, rbp.params) == ("rbp_p=0.5", "RBPtrec", {"p": 0.5})
    # A name as trec_eval prints it is read back as the same measure.
    assert parse(["ndcg_1=3,2=9,4=4.5"])[0].params == ndcg.params
    for printed, name in [("rbp_resid_p=0.8", "RBPtrecResid"), ("rbp_p=0.8", "RBPtrec"),
                          ("ndcg_rel_2=0,3=7", "nDCGRel"), ("set_F_0.25", "SetF")]:
        assert parse([printed])[0].measure.name == name, printed


def test_trec_evals_set_f_parameter_is_beta_squared():
    # m_set_F.c: (1 + x) P R / (x P + R) with x its parameter, which is beta^2.
    (f,) = parse(["set_F.0.25"])
    assert (f.name, f.measure.name, f.params["beta"]) == ("set_F_0.25", "SetF", 0.5)
