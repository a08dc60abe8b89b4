"""The common test of every measure ``rk.evaluate`` knows, parametrised over the registry
(``rankedu.trec.measures.MEASURES``) and not over a hand-written list: a measure added to the
registry is under every test here at once.

For every measure, written with and without its cutoff and with a non-default value of each
parameter, on generated runs (tied scores, short lists, unjudged and negatively graded documents,
judged documents never retrieved, queries with nothing relevant):

- the vectorised kernel (``rk.evaluate``) equals the per-list reference its declaration names,
  query by query;
- ``rk.explain.query`` gives ``evaluate``'s value, and its table ends in it;
- a badly written parameter or cutoff is a ``ValueError`` naming it.
"""

import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rankedu as rk
from rankedu.trec.join import _one_query
from conftest import EXAMPLES, spellings
from rankedu.trec.measures import MEASURES, parse
from rankedu.trec.names import FAMILIES

# A wrongly typed value for each parameter type.
BAD = {bool: "yes", float: "x", int: "1.5", dict: "{1:x}", tuple: "0.2:0.5"}
# Bad cutoffs of each cutoff type: a rank (P@k), a recall level (IPrec@0.1).
BAD_CUTOFFS = {int: ("0", "x", "-1", str(2**63)), float: ("x", "-1", "1.5", "-0.1", "nan")}


SPELLINGS = [written for measure in MEASURES.values() for written in spellings(measure)]

documents = st.sampled_from([f"d{i}" for i in range(12)])


@st.composite
def collections(draw, top_grade):
    """Small qrels and runs: tied scores, grades -1..top_grade, unjudged documents retrieved,
    judged ones not retrieved, and now and then a query with nothing relevant."""
    qrels, run = {}, {}
    for q in range(draw(st.integers(1, 4))):
        qrels[f"q{q}"] = draw(st.dictionaries(documents, st.integers(-1, top_grade),
                                              min_size=1, max_size=8))
        run[f"q{q}"] = draw(st.dictionaries(documents, st.sampled_from([0.0, 0.5, 1.0, 2.5]),
                                            min_size=1, max_size=10))
    return qrels, run


def evaluated(qrels, run, written):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", (rk.TieWarning, rk.QueryMismatchWarning))
        return rk.evaluate(qrels, run, [written])[written]


def per_list(qrels, run, qid, spec):
    """The per-list reference's value for one query, on the lists ``evaluate``'s join gives."""
    _, lists, _ = _one_query(qrels, run, qid, specs=[spec])
    return spec.reference(lists)


@pytest.mark.parametrize("written", SPELLINGS)
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_the_kernel_equals_the_per_list_reference_on_generated_runs(written, data):
    (spec,) = parse([written])
    # RBP and INST read grades as gains in [0, 1]; the others see grades up to 3.
    qrels, run = data.draw(collections(1 if spec.measure.unit_gains else 3))
    values = evaluated(qrels, run, written)
    for qid in values.index:
        assert values[qid] == pytest.approx(per_list(qrels, run, qid, spec), abs=1e-12), qid


@pytest.mark.parametrize("written", SPELLINGS)
def test_the_kernel_equals_the_per_list_reference_on_the_trec_case(written, trec_case):
    (spec,) = parse([written])
    qrels = trec_case.qrels
    if spec.measure.unit_gains:  # the same judgments, binary
        qrels = {q: {d: int(g > 0) for d, g in docs.items()} for q, docs in qrels.items()}
    values = evaluated(qrels, trec_case.run, written)
    for qid in values.index[:60]:
        assert values[qid] == pytest.approx(per_list(qrels, trec_case.run, qid, spec),
                                            abs=1e-12), qid


@pytest.mark.parametrize("unit_gains", [False, True], ids=["graded", "gains in [0, 1]"])
def test_explain_query_gives_evaluates_value_and_its_table_ends_in_it(
        unit_gains, trec_case, running_result):
    # Every spelling at once: the list form reads and ranks the run once per query, and gives
    # each measure the explanation a call of its own gives.
    spellings = [w for w in SPELLINGS if parse([w])[0].measure.unit_gains == unit_gains]
    qrels = trec_case.qrels
    if unit_gains:  # the same judgments, binary
        qrels = {q: {d: int(g > 0) for d, g in docs.items()} for q, docs in qrels.items()}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", rk.TieWarning)
        values = rk.evaluate(qrels, trec_case.run, spellings)
    for position, qid in enumerate(list(trec_case.run)[:25]):
        explanations = rk.explain.query(qrels, trec_case.run, qid, spellings)
        assert list(explanations) == spellings
        for written, explanation in explanations.items():
            assert explanation.value == values.loc[qid, written], (qid, written)
            # A table with no step (Rprec when R = 0) stands for 0.0.
            last = running_result(explanation.table) if len(explanation.table) else 0.0
            assert last == pytest.approx(explanation.value, abs=1e-12), (qid, written)
            # A call per spelling reads the run again: on the first 5 queries only (it was
            # most of make test's slowest test, 26 s, on 25).
            if position >= 5:
                continue
            alone = rk.explain.query(qrels, trec_case.run, qid, written)
            assert list(alone.tables) == list(explanation.tables)
            assert all(table.equals(alone.tables[title])
                       for title, table in explanation.tables.items()), (qid, written)


@pytest.mark.parametrize("measure", MEASURES.values(), ids=list(MEASURES))
def test_a_badly_written_parameter_or_cutoff_is_an_error_naming_it(measure):
    at = "" if measure.cutoff == "none" else "@3"
    for parameter in measure.parameters:
        written = f"{measure.name}({parameter.name}={BAD[parameter.type]}){at}"
        with pytest.raises(ValueError, match=rf"^measures: {parameter.name} of "):
            parse([written])
        with pytest.raises(ValueError, match=rf"has no parameter 'nope=1'"):
            parse([f"{measure.name}(nope=1){at}"])
    if measure.cutoff == "none":
        with pytest.raises(ValueError, match=f"{measure.name} takes no cutoff"):
            parse([f"{measure.name}@3"])
    else:
        for cutoff in BAD_CUTOFFS[measure.cutoff_type]:
            with pytest.raises(ValueError, match=f"the cutoff of '{measure.name}@"):
                parse([f"{measure.name}@{cutoff}"])
    if measure.cutoff == "required" and measure.name in FAMILIES:
        # The bare name is trec_eval's family (P): its default cutoffs.
        assert [spec.k for spec in parse([measure.name])] == list(
            FAMILIES[measure.name].defaults)
    elif measure.cutoff == "required":
        with pytest.raises(ValueError, match=f"{measure.name} needs a cutoff"):
            parse([measure.name])


def test_every_declared_parameter_has_an_example_and_every_type_a_bad_value():
    declared = {p.name: p.type for m in MEASURES.values() for p in m.parameters}
    assert set(declared) <= set(EXAMPLES), set(declared) - set(EXAMPLES)
    assert set(declared.values()) <= set(BAD)


def test_the_spellings_cover_every_measure_and_parameter():
    parsed = [parse([w])[0] for w in SPELLINGS]
    assert {spec.measure.name for spec in parsed} == set(MEASURES)
    set_parameters = {(spec.measure.name, name) for spec in parsed for name, value in
                      spec.params.items()
                      if value != {p.name: p.default for p in spec.measure.parameters}[name]}
    assert set_parameters == {(m.name, p.name) for m in MEASURES.values() for p in m.parameters}
