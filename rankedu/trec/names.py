"""The names people type for a measure, read as rankedu's own.

rankedu's names are ir_measures' (``AP``, ``P@10``, ``nDCG(judged_only=True)@10``): the
registry, :data:`rankedu.trec.measures.MEASURES`, declares them. This module reads the others,
so that a trec_eval or ir_measures user can type what they know:

- **ir_measures' aliases**: ``MAP``, ``MRR``, ``NDCG``, ``BPref``, ``RPrec``, ``Precision``,
  ``Recall``, ``NumQ``, ``SetRelP`` (e.g. ``NDCG@10`` is ``nDCG@10``).
- **trec_eval's names** (trec_eval 10.0's ``-m``): a family with its parameters after a dot,
  as trec_eval writes them (``P.5,10``, ``ndcg_cut.10``, ``iprec_at_recall.0.1``,
  ``Rprec_mult.0.2,2.0``, ``utility.2,-1,0,0``, ``ndcg.1=3,2=9``); a family alone, with
  trec_eval's default parameters (``map``, ``P`` for P_5 ... P_1000, ``success``); one name as
  trec_eval prints it (``P_10``, ``ndcg_cut_10``, ``recip_rank``, ``iprec_at_recall_0.10``);
  and trec_eval's sets (``official``, trec_eval's default, ``all_trec`` and ``set``; the
  trec_eval layout's ``qrels_jg``, ``all_prefs`` and ``prefs``, whose measures need trec_eval's
  ``-R qrels_jg`` or ``-R prefs``: :func:`rankedu.trec_eval_report`'s ``rel_format``).

A name written trec_eval's way gives columns named as trec_eval prints them (``P.5,10`` gives
``P_5`` and ``P_10``); a family named again with parameters replaces the default parameters a
set gave it (``-m all_trec -m relstring.20`` prints ``relstring_20`` alone, as trec_eval does),
while two parameter lists of one family add up (``-m P.5 -m P.10`` gives both; trec_eval keeps
only the first list it finds). Cutoffs are sorted and read as trec_eval reads them, with C's
``atol``: ``ndcg_cut.23.4`` is ``ndcg_cut_23`` (a warning says so).

``runid``, ``num_q`` and ``relstring`` are not numbers per query: the command's trec_eval layout
prints them (:mod:`rankedu.trec.report`); :func:`rankedu.evaluate` leaves them out of
``all_trec`` and refuses them by name.

Private: ``rankedu.trec.measures.parse`` and the command read it.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from rankedu.core.warn import warn_at_caller

#: ir_measures' other names for its measures (ir_measures 0.4's ``measures/__init__.py``).
ALIASES = {"MAP": "AP", "MRR": "RR", "NDCG": "nDCG", "BPref": "Bpref", "RPrec": "Rprec",
           "Precision": "P", "Recall": "R"}

_CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
_LEVELS = tuple(round(0.1 * i, 1) for i in range(11))


@dataclass(frozen=True)
class Family:
    """One of trec_eval's measures (``m_<name>.c``) and how rankedu writes it.

    ``kind`` says how trec_eval reads the parameters written after the family's dot:
    ``"cutoffs"`` (integers, a value each, printed ``name_10``), ``"levels"`` (numbers, a
    value each, printed ``name_0.20``), ``"values"`` (one setting made of the whole list,
    printed ``name`` by default and ``name_<list>`` when given) or ``"none"``. ``rankedu`` is
    rankedu's spelling, ``{}`` standing for the value of a cutoff or a level; for a
    ``"values"`` family it is the default setting's, and ``given`` spells a setting from
    trec_eval's list. None for what only the trec_eval layout prints (runid, num_q,
    relstring, and the preference measures, which ``rel_format`` says need ``-R prefs``).
    """

    name: str
    rankedu: str | None
    kind: str = "none"
    defaults: tuple = ()
    given: object = None  # "values" families: trec_eval's list -> rankedu's spelling
    # trec_eval's ``-R`` that the family needs: "qrels_jg" (averaged over judgment groups;
    # ``rankedu`` spells the measure each group's judgments give) or "prefs" (preference
    # judgments, ``-R prefs`` or ``-R qrels_prefs``; computed by rankedu.trec.preferences)
    rel_format: str = "qrels"

    def spell(self, value, default: bool) -> str | None:
        """rankedu's spelling of one value (``P@10``; ``Utility(a=2.0,b=-1.0,c=0.0,d=0.0)``)."""
        if self.rankedu is None:
            return None
        if self.kind in ("cutoffs", "levels"):
            return self.rankedu.format(value)
        if self.kind == "values" and not default:
            return self.given(value, self.name)
        return self.rankedu

    def printed(self, value, default: bool) -> str:
        """The name trec_eval prints for one value (``P_10``, ``Rprec_mult_0.20``)."""
        if self.kind == "cutoffs":
            return f"{self.name}_{value}"
        if self.kind == "levels":
            return f"{self.name}_{value:3.2f}"
        if self.kind == "values" and not default:
            return f"{self.name}_{value}"
        return self.name


def _numbers(text: str, family: str, count: int | None = None) -> list[float]:
    """trec_eval's comma-separated list of numbers (its atof, but whole fields only)."""
    values = [_atof(part, family) for part in text.split(",")]
    if count is not None and len(values) != count:
        raise ValueError(f"measures: trec_eval's {family} takes {count} numbers, got {text!r}")
    return values


def _atof(text: str, family: str) -> float:
    if not _NUMBER.fullmatch(text):
        raise ValueError(f"measures: a parameter of trec_eval's {family} must be a number, "
                         f"got {text!r}")
    return float(text)


#: A number as a name writes it: ASCII digits only (Python's float() also reads "１０", "٣",
#: "1_000", "nan" and "inf", which no other tool's names accept).
NUMBER = r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
_NUMBER = re.compile(NUMBER)


def _f_beta(text: str, family: str) -> str:
    """trec_eval's set_F parameter is beta squared (m_set_F.c); rankedu's SetF takes beta."""
    (beta_squared,) = _numbers(text, family, 1)
    return f"SetF(beta={beta_squared ** 0.5!r})"


def _utility(text: str, family: str) -> str:
    a, b, c, d = _numbers(text, family, 4)
    return f"Utility(a={a!r},b={b!r},c={c!r},d={d!r})"


def _pairs(text: str, family: str) -> list[tuple[str, float]]:
    """trec_eval's ``name=value,...`` parameters (``get_param_pairs`` in meas_init.c)."""
    pairs = []
    for part in text.split(","):
        name, equals, value = part.partition("=")
        if not equals or not name:
            raise ValueError(f"measures: trec_eval's {family} takes name=value pairs, got "
                             f"{text!r}")
        pairs.append((name, _atof(value, family)))
    return pairs


def _gains(spelling: str):
    """``1=3,2=9`` (trec_eval's gain of each grade) as ``NAME(gains={1:3.0,2:9.0})``."""
    def given(text: str, family: str) -> str:
        gains = ",".join(f"{_atof(grade, family):g}:{gain!r}"
                         for grade, gain in _pairs(text, family))
        return f"{spelling}(gains={{{gains}}})"
    return given


def _persistence(spelling: str):
    """``p=0.5`` (trec_eval's rbp parameter) as ``NAME(p=0.5)``."""
    def given(text: str, family: str) -> str:
        pairs = _pairs(text, family)
        if [name for name, _ in pairs] != ["p"]:
            raise ValueError(f"measures: trec_eval's {family} takes p=value, got {text!r}")
        return f"{spelling}(p={pairs[0][1]!r})"
    return given


def _points(text: str, family: str) -> str:
    return "IPrecAvg(points=" + ";".join(map(repr, _numbers(text, family))) + ")"


#: trec_eval's preference measures (``m_prefs_*.c``), in the order of its table; the first
#: three are counts.
PREFERENCE_FAMILIES = (
    "prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret", "prefs_simp",
    "prefs_pair", "prefs_avgjg", "prefs_avgjg_Rnonrel", "prefs_simp_ret", "prefs_pair_ret",
    "prefs_avgjg_ret", "prefs_avgjg_Rnonrel_ret", "prefs_simp_imp", "prefs_pair_imp",
    "prefs_avgjg_imp")

# trec_eval 10.0's measures in the order of its table (measures.c, te_trec_measures), which is
# the order it prints them in.
FAMILIES = {family.name: family for family in [
    Family("runid", None),
    Family("num_q", None),
    Family("num_ret", "NumRet"),
    Family("num_rel", "NumRel"),
    Family("num_rel_ret", "NumRelRet"),
    Family("map", "AP"),
    Family("gm_map", "GMAP"),
    Family("Rprec", "Rprec"),
    Family("bpref", "Bpref"),
    Family("recip_rank", "RR"),
    Family("iprec_at_recall", "IPrec@{}", "levels", _LEVELS),
    Family("P", "P@{}", "cutoffs", _CUTOFFS),
    Family("relstring", None, "values", (10,)),
    Family("recall", "R@{}", "cutoffs", _CUTOFFS),
    Family("infAP", "infAP"),
    Family("gm_bpref", "GMBpref"),
    Family("Rprec_mult", "RprecMult(mult={})", "levels",
           tuple(round(0.2 * i, 1) for i in range(1, 11))),
    Family("utility", "Utility", "values", (None,), _utility),
    Family("11pt_avg", "IPrecAvg", "values", (None,), _points),
    Family("binG", "BinG"),
    Family("G", "G", "values", (None,), _gains("G")),
    Family("ndcg", "nDCG", "values", (None,), _gains("nDCG")),
    Family("ndcg_rel", "nDCGRel", "values", (None,), _gains("nDCGRel")),
    Family("Rndcg", "RnDCG", "values", (None,), _gains("RnDCG")),
    Family("ndcg_cut", "nDCG@{}", "cutoffs", _CUTOFFS),
    Family("map_cut", "AP@{}", "cutoffs", _CUTOFFS),
    Family("relative_P", "RelP@{}", "cutoffs", _CUTOFFS),
    Family("success", "Success@{}", "cutoffs", (1, 5, 10)),
    Family("set_P", "SetP"),
    Family("set_relative_P", "SetRelP"),
    Family("set_recall", "SetR"),
    Family("set_map", "SetAP"),
    Family("set_F", "SetF", "values", (None,), _f_beta),
    Family("num_nonrel_judged_ret", "NumNonRelJudgedRet"),
    *(Family(name, None, rel_format="prefs") for name in PREFERENCE_FAMILIES),
    Family("map_avgjg", "AP", rel_format="qrels_jg"),
    Family("P_avgjg", "P@{}", "cutoffs", _CUTOFFS, rel_format="qrels_jg"),
    Family("Rprec_mult_avgjg", "RprecMult(mult={})", "levels",
           tuple(round(0.2 * i, 1) for i in range(1, 11)), rel_format="qrels_jg"),
    Family("rbp", "RBPtrec", "values", (None,), _persistence("RBPtrec")),
    Family("rbp_resid", "RBPtrecResid", "values", (None,), _persistence("RBPtrecResid")),
    Family("unj", "Unjudged@{}", "cutoffs", (5, 10, 20)),
]}

#: trec_eval's names for sets of measures (``measures.c``): ``official`` is what trec_eval
#: computes without ``-m``.
SETS = {
    "official": ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map",
                 "Rprec", "bpref", "recip_rank", "iprec_at_recall", "P"),
    "all_trec": ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map",
                 "Rprec", "bpref", "recip_rank", "iprec_at_recall", "P", "relstring",
                 "recall", "unj", "rbp", "rbp_resid", "infAP", "gm_bpref", "utility",
                 "11pt_avg", "ndcg", "relative_P", "Rprec_mult", "success", "map_cut",
                 "ndcg_cut", "ndcg_rel", "Rndcg", "binG", "G", "set_P", "set_recall",
                 "set_relative_P", "set_map", "set_F", "num_nonrel_judged_ret"),
    "set": ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "utility", "set_P",
            "set_recall", "set_relative_P", "set_map", "set_F"),
    "all_prefs": ("runid", "num_q", *PREFERENCE_FAMILIES),
    "prefs": ("runid", "num_q", *PREFERENCE_FAMILIES[:6]),
    "qrels_jg": ("runid", "num_q", "map_avgjg", "P_avgjg", "Rprec_mult_avgjg"),
}

_ORDER = {name: i for i, name in enumerate(FAMILIES)}


@dataclass(frozen=True)
class Spelled:
    """One value of a trec_eval family: the column (trec_eval's printed name), rankedu's
    spelling (None: printed by the trec_eval layout only), the family and the value (for the
    layout: relstring's length)."""

    column: str
    rankedu: str | None
    family: str
    value: object = None


def _values(family: Family, text: str | None, written: str, warn: bool) -> tuple[list, bool]:
    """The parameter values of ``family`` as written after its dot, and whether they are its
    defaults (``text`` None); ``warn``: about a cutoff read as C's atol reads it."""
    if text is None:
        return list(family.defaults), True
    if family.kind == "none":
        raise ValueError(f"measures: trec_eval's {family.name} takes no parameters, got "
                         f"{written!r}")
    if family.kind == "values":
        return [text], False
    values = []
    for part in text.split(","):
        number = _atof(part, family.name)
        value = number
        if family.kind == "cutoffs":
            value = int(number)
            if value != number and warn:
                warn_at_caller(f"measures: trec_eval reads the cutoff {part!r} of {written!r} "
                               f"as {value} (C's atol), and so does rankedu", UserWarning)
            if value < 1:
                raise ValueError(f"measures: the cutoffs of {written!r} must be >= 1")
        values.append(value)
    if len(set(values)) != len(values):
        raise ValueError(f"measures: {written!r} gives a value twice (trec_eval refuses "
                         f"duplicate cutoffs)")
    return sorted(values), False


def _one_family(written: str, warn: bool) -> tuple[Family, list, bool] | None:
    """(family, its values, whether they are the defaults) for a trec_eval spelling, or None."""
    name, dot, text = written.partition(".")
    if name in FAMILIES:
        return FAMILIES[name], *_values(FAMILIES[name], text if dot else None, written, warn)
    # A name as trec_eval prints it: P_10, iprec_at_recall_0.10, utility_2,-1,0,0.
    name, _, text = written.rpartition("_")
    family = FAMILIES.get(name)
    if family is not None and family.kind in ("cutoffs", "levels") and text:
        return family, *_values(family, text, written, warn)
    given = [family for family in FAMILIES.values()
             if family.kind == "values" and written.startswith(family.name + "_")]
    if given:  # the longest name that fits: rbp_resid_p=0.8 is rbp_resid's, not rbp's
        family = max(given, key=lambda family: len(family.name))
        return family, *_values(family, written[len(family.name) + 1:], written, warn)
    return None


def trec_eval_spellings(measures: list[str], *, warn: bool = True) -> list[Spelled] | None:
    """Read ``measures`` as trec_eval names; None when one of them is not one. ``warn``: about
    a cutoff that trec_eval reads as C's atol does (``P.1.5`` is ``P.1``).

    Each name is a family, ``family.params``, a printed name or a set. The result is in
    trec_eval's printing order, each value once; a family named with parameters replaces the
    defaults a set gave it, and parameter lists of one family add up.
    """
    chosen: dict[str, tuple[list, bool]] = {}
    for written in measures:
        if written in SETS:
            for name in SETS[written]:
                chosen.setdefault(name, (list(FAMILIES[name].defaults), True))
            continue
        found = _one_family(written, warn)
        if found is None:
            return None
        family, values, default = found
        before, before_default = chosen.get(family.name, ([], True))
        if not before_default and family.kind in ("cutoffs", "levels"):
            values = sorted(set(before) | set(values))
        chosen[family.name] = (values, default)
    spelled = []
    for name in sorted(chosen, key=_ORDER.get):
        family = FAMILIES[name]
        values, default = chosen[name]
        for value in values or [None]:
            spelled.append(Spelled(family.printed(value, default), family.spell(value, default),
                                   family.name, value))
    return spelled


def canonical(written: str) -> str:
    """``written`` with an ir_measures alias replaced by rankedu's name (``NDCG@10`` is
    ``nDCG@10``); other names unchanged."""
    match = re.match(r"[A-Za-z][A-Za-z0-9_]*", written)
    if match and match.group() in ALIASES:
        return ALIASES[match.group()] + written[match.end():]
    return written


def suggestion(written: str, known: list[str]) -> str:
    """"; did you mean 'nDCG@10'?" for a name close to a known one, else "".

    ``known`` are rankedu's names; a name that differs from one only in case is that one, and
    trec_eval's names are suggested only for a name without ``@``.
    """
    head = re.match(r"[A-Za-z0-9_]*", written).group()
    rest = written[len(head):]
    trec_eval = [] if "@" in rest or "(" in rest else [*FAMILIES, *SETS]
    names = {name.lower(): name for name in [*trec_eval, *ALIASES, *known]}
    key = head.lower()
    if key not in names:
        key = next(iter(difflib.get_close_matches(key, list(names), n=1, cutoff=0.6)), None)
    if key is None:
        return ""
    return f"; did you mean {canonical(names[key] + rest)!r}?"
