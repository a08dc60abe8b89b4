"""Input checks shared by every metric.

Every public function validates its arguments here, so that a bad argument fails the same way
everywhere: a ``TypeError`` when the argument is of the wrong kind, a ``ValueError`` when its
value is wrong, and in both cases a message that starts with the argument's name. Nothing is
silently dropped, clipped or turned into NaN.
"""

from __future__ import annotations

import numbers
from fractions import Fraction

import numpy as np
import pandas as pd


class NonIntegerCutoffError(ValueError, TypeError):
    """A cutoff ``k`` that is not an integer.

    It is both a ``ValueError`` and a ``TypeError`` (as scikit-learn's ``InvalidParameterError``
    is), because a cutoff of ``2.5`` is a wrong value and a wrong type at once; callers may catch
    either.
    """


def as_numbers(values, name: str) -> np.ndarray:
    """Return ``values`` as a 1-D float array of finite numbers, or raise naming ``name``."""
    if isinstance(values, (str, bytes)) or not hasattr(values, "__len__"):
        raise TypeError(
            f"{name} must be a list, tuple or 1-D numpy array of numbers, "
            f"got {type(values).__name__}"
        )
    try:
        array = np.asarray(values)
    except ValueError:
        # numpy's own message ("inhomogeneous shape after 1 dimensions") names no argument.
        raise ValueError(
            f"{name} must be one-dimensional, got a nested sequence of unequal lengths"
        ) from None
    if array.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got an array of shape {array.shape}")
    # Complex values are numbers too, but casting them to float would drop the imaginary part.
    if array.size and not (
        np.issubdtype(array.dtype, np.integer)
        or np.issubdtype(array.dtype, np.floating)
        or np.issubdtype(array.dtype, np.bool_)
    ):
        # numpy keeps Python ints beyond 64 bits as objects: a wrong value, not a wrong type.
        huge = next((i for i, x in enumerate(array) if isinstance(x, numbers.Integral)
                     and not -2**63 <= x < 2**64), None) if array.dtype == object else None
        if huge is not None:
            raise ValueError(f"{name} must hold numbers that fit in 64 bits, got "
                             f"{array[huge]} at position {huge}")
        raise TypeError(f"{name} must hold real numbers, got values of type {array.dtype}")
    array = array.astype(float)
    bad = ~np.isfinite(array)
    if bad.any():
        position = int(np.flatnonzero(bad)[0])
        raise ValueError(
            f"{name} must hold finite numbers, got {array[position]} at position {position}"
        )
    return array


def as_labels(values, name: str) -> np.ndarray:
    """Return 0/1 labels (or booleans) as an int array, or raise naming ``name``."""
    array = as_numbers(values, name)
    if not np.isin(array, (0.0, 1.0)).all():
        other = array[~np.isin(array, (0.0, 1.0))][0]
        raise ValueError(f"{name} must hold only 0 and 1, got {other:g}")
    return array.astype(int)


def as_probabilities(values, name: str, *, what: str = "probabilities",
                     why: str = "") -> np.ndarray:
    """Return ``values`` as a 1-D float array of numbers in [0, 1], or raise naming ``name``.

    ``what`` names the numbers in the message (``"gains"``), ``why`` adds a reason to it.
    """
    array = as_numbers(values, name)
    outside = (array < 0) | (array > 1)
    if outside.any():
        position = int(np.flatnonzero(outside)[0])
        raise ValueError(
            f"{name} must hold {what} in [0, 1]{why}, "
            f"got {array[position]:g} at position {position}"
        )
    return array


def as_propensities(values, name: str) -> np.ndarray:
    """Return logging probabilities in (0, 1] as a float array, or raise naming ``name``: an
    importance weight divides by them, so a zero (an action the log could not have shown) or a
    negative one is an error, not an infinite weight."""
    array = as_numbers(values, name)
    outside = (array <= 0) | (array > 1)
    if outside.any():
        position = int(np.flatnonzero(outside)[0])
        raise ValueError(
            f"{name} must hold probabilities in (0, 1] (the logging policy's probability of "
            f"the logged action), got {array[position]:g} at position {position}"
        )
    return array


def as_positions(values, name: str) -> np.ndarray:
    """Return ranks 1, 2, ... as an int array, or raise naming ``name``."""
    array = as_numbers(values, name)
    wrong = (array < 1) | (array != np.floor(array))
    if wrong.any():
        position = int(np.flatnonzero(wrong)[0])
        raise ValueError(
            f"{name} must hold positions 1, 2, ..., got {array[position]:g} at position {position}"
        )
    return array.astype(int)


def as_gains(values, name: str) -> np.ndarray:
    """Gains in [0, 1] as C/W/L metrics (RBP, INST) read them, or raise naming ``name``."""
    return as_probabilities(values, name, what="gains", why=(
        " (as cwl-eval reads them: 1 relevant, 0 not; divide a graded scale by its top grade)"))


def as_open_probability(value, name: str, why: str = "") -> float:
    """Return a probability strictly between 0 and 1 as ``float``, or raise naming ``name``."""
    value = as_number(value, name)
    if not 0 < value < 1:
        raise ValueError(f"{name} must lie in (0, 1){why}, got {value:g}")
    return value


# The kinds of group id pandas.api.types.infer_dtype reports that sort and compare within one kind.
GROUP_ID_KINDS = ("string", "bytes", "integer", "floating", "mixed-integer-float", "boolean",
                  "datetime64", "datetime", "date", "timedelta64", "timedelta", "empty")


def as_group_ids(values, name: str) -> np.ndarray:
    """Return group ids as a 1-D array of one kind (strings, numbers...), or raise naming ``name``.

    A missing id (None, NaN, ``pd.NA``, NaT) is a ``ValueError``: its rows belong to no known
    group, and dropping or pooling them would be silent. Ids of mixed kinds (``"a"`` and ``1``)
    are a ``TypeError``.
    """
    if isinstance(values, (str, bytes)) or not hasattr(values, "__len__"):
        raise TypeError(f"{name} must be a sequence of group ids, got {type(values).__name__}")
    # A list keeps its items' own types (numpy would turn ["a", 1] into the strings "a", "1").
    array = np.asarray(values) if hasattr(values, "dtype") else np.array(list(values), dtype=object)
    if array.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got an array of shape {array.shape}")
    missing = pd.isna(array)
    if missing.any():
        position = int(np.flatnonzero(missing)[0])
        raise ValueError(f"{name} must not hold missing ids, got {array[position]!r} at position {position}")
    kind = pd.api.types.infer_dtype(array, skipna=False)
    if kind not in GROUP_ID_KINDS:
        raise TypeError(f"{name} must hold ids of one type (all strings or all numbers), got {kind} values")
    return array


def same_length(**arrays: np.ndarray) -> None:
    """Raise if the named arrays differ in length, naming all of them."""
    lengths = {name: len(array) for name, array in arrays.items()}
    if len(set(lengths.values())) > 1:
        described = ", ".join(f"{name} has {n}" for name, n in lengths.items())
        raise ValueError(f"{' and '.join(lengths)} must have the same length: {described}")


#: The largest cutoff accepted: numpy's int64 holds every rank up to it. A cutoff past the end
#: of a list costs nothing (the metrics never pad a list physically), so this is the only bound.
MAX_CUTOFF = 2**63 - 1


def as_cutoff(k, name: str = "k", *, allow_none: bool = True, most: int = MAX_CUTOFF,
              why: str = "a rank numpy can hold") -> int | None:
    """Return ``k`` as an ``int`` in [1, most], or ``None`` (the whole list) if allowed.

    ``most`` is MAX_CUTOFF unless the caller bounds ``k`` lower; ``why`` says why, in the message.
    """
    wanted = "an int >= 1 or None" if allow_none else "an int >= 1"
    if k is None and allow_none:
        return None
    if isinstance(k, (bool, np.bool_)) or not isinstance(k, numbers.Integral):
        raise NonIntegerCutoffError(f"{name} must be {wanted}, got {k!r} ({type(k).__name__})")
    if k < 1:
        raise ValueError(f"{name} must be {wanted}, got {k}")
    if k > most:
        shown = "2**63 - 1" if most == MAX_CUTOFF else f"{most:,}"
        raise ValueError(f"{name} must be at most {shown} ({why}), got {k}")
    return int(k)


def as_number(value, name: str) -> float:
    """Return a finite real number as ``float``, or raise naming ``name``."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {value!r} ({type(value).__name__})")
    value = float(value)
    if not np.isfinite(value):
        raise ValueError(f"{name} must be finite, got {value}")
    return value


def as_above(value, name: str, bound: float) -> float:
    """Return a finite real number greater than ``bound`` as ``float``, or raise naming ``name``."""
    value = as_number(value, name)
    if not value > bound:
        raise ValueError(f"{name} must be > {bound:g}, got {value:g}")
    return value


def as_threshold(threshold, name: str = "threshold") -> float:
    """The relevance threshold: a document is relevant when its grade is ``>= threshold``.

    It must be > 0 (as ``evaluate`` requires), so that a grade of 0 — an unjudged or
    non-relevant document — is never relevant: with a threshold of 0 or below, ``[0, 0]``
    would have AP 1.0.
    """
    return as_above(threshold, name, 0)


def as_max_grade(value, name: str = "max_grade") -> float:
    """ERR's top grade g_max: a finite number >= 0, or raise naming ``name``."""
    value = as_number(value, name)
    if value < 0:
        raise ValueError(f"{name} must be >= 0, got {value:g}")
    return value


def as_count(value, name: str) -> int:
    """Return an ``int`` in [0, MAX_CUTOFF] (a count numpy's int64 holds), or raise naming
    ``name``."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an int >= 0, got {value!r} ({type(value).__name__})")
    if value < 0:
        raise ValueError(f"{name} must be an int >= 0, got {value}")
    if value > MAX_CUTOFF:
        raise ValueError(f"{name} must be at most 2**63 - 1 (a count numpy can hold), got {value}")
    return int(value)


def as_flag(value, name: str) -> bool:
    """Return ``True`` or ``False`` as ``bool`` (numpy's too), or raise naming ``name``: a
    string such as ``"yes"``, ``None`` or ``2`` is no truth value."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {value!r} ({type(value).__name__})")
    return bool(value)


def two_classes(labels, **scores) -> tuple[np.ndarray, list[np.ndarray], int, int]:
    """Validate 0/1 ``labels`` and the named score arrays for AUC, which needs both classes.

    Returns the labels, the score arrays in the order given, and the class counts n+ and n-.
    """
    labels = as_labels(labels, "labels")
    arrays = {name: as_numbers(values, name) for name, values in scores.items()}
    same_length(labels=labels, **arrays)
    positives = int(labels.sum())
    negatives = len(labels) - positives
    if positives == 0 or negatives == 0:
        raise ValueError(
            f"labels must hold both classes for AUC, got {positives} positive and "
            f"{negatives} negative"
        )
    return labels, list(arrays.values()), positives, negatives


def one_of(value, name: str, choices) -> str:
    """Return ``value`` if it is one of ``choices``, or raise naming ``name``."""
    if value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, choices))}; got {value!r}")
    return value


def relevant_count(relevant: np.ndarray, n_relevant, name: str = "n_relevant",
                   what: str = "relevant documents") -> int:
    """The denominator R of recall and AP.

    ``None`` means the relevant documents in the list itself. A given ``n_relevant`` must be at
    least the relevant documents the list already holds, or recall and AP could exceed 1.
    (bpref counts its judged non-relevant documents N the same way: ``what`` names them.)
    """
    retrieved = int(relevant.sum())
    if n_relevant is None:
        return retrieved
    n_relevant = as_count(n_relevant, name)
    if n_relevant < retrieved:
        raise ValueError(f"{name} ({n_relevant}) is smaller than the {retrieved} {what} in rels")
    return n_relevant


def as_judged(judged, grades: np.ndarray) -> np.ndarray:
    """Which documents of ``grades`` (the validated ``rels``) were judged, as a bool array.

    ``None`` means every one. An unjudged document has no grade: ``rels`` must hold 0 for it
    (as everywhere in rankedu), so that a mask that does not line up with ``rels`` is caught
    instead of dropping or keeping a relevant document.
    """
    if judged is None:
        return np.ones(len(grades), dtype=bool)
    judged = as_labels(judged, "judged").astype(bool)
    same_length(rels=grades, judged=judged)
    graded = np.flatnonzero(~judged & (grades != 0))
    if len(graded):
        position = int(graded[0])
        raise ValueError(
            f"judged is False at position {position}, where rels holds the grade "
            f"{grades[position]:g}: an unjudged document must have grade 0 in rels"
        )
    return judged


def sequence_of(values, name: str) -> list:
    """Return a non-empty list of per-query inputs, or raise naming ``name``."""
    if isinstance(values, (str, bytes)) or not hasattr(values, "__len__"):
        raise TypeError(f"{name} must be a list with one entry per query, got {type(values).__name__}")
    values = list(values)
    if not values:
        raise ValueError(f"{name} must hold at least one query")
    return values


def as_label_pair(a, b) -> tuple[np.ndarray, np.ndarray]:
    """Two raters' labels of the same items: equal-length, non-empty 1-D arrays of finite
    numbers, or raise naming ``a`` or ``b`` (a missing label is NaN, which two-rater
    coefficients cannot take: Krippendorff's alpha can)."""
    a, b = as_numbers(a, "a"), as_numbers(b, "b")
    same_length(a=a, b=b)
    if not len(a):
        raise ValueError("a and b must hold at least one label each, got none")
    return a, b


def as_count_table(counts, name: str) -> np.ndarray:
    """Items x categories counts as a 2-D int array of numbers >= 0, or raise naming ``name``."""
    if isinstance(counts, (str, bytes)) or not hasattr(counts, "__len__"):
        raise TypeError(f"{name} must be a 2-D table of counts (items x categories), "
                        f"got {type(counts).__name__}")
    rows = [as_numbers(row, f"{name} row {i}") for i, row in enumerate(counts)]
    same_length(**{f"{name} row {i}": row for i, row in enumerate(rows)})
    if not rows or not len(rows[0]):
        raise ValueError(f"{name} must hold at least one item and one category")
    table = np.vstack(rows)
    if (table < 0).any() or (table != np.round(table)).any():
        bad = table[(table < 0) | (table != np.round(table))][0]
        raise ValueError(f"{name} must hold counts (integers >= 0), got {bad:g}")
    return table.astype(np.int64)


def as_rating_matrix(data, name: str) -> np.ndarray:
    """Raters x items labels as a 2-D float array, NaN where a rater gave no label, or raise
    naming ``name`` (an infinite label, strings, a ragged or a 1-D input)."""
    if isinstance(data, (str, bytes)) or not hasattr(data, "__len__"):
        raise TypeError(f"{name} must be a 2-D table of labels (raters x items), "
                        f"got {type(data).__name__}")
    try:
        array = np.asarray(data, dtype=float)
    except ValueError:
        raise ValueError(f"{name} must be a 2-D table of numbers (raters x items, NaN for a "
                         f"missing label), with rows of one length") from None
    except TypeError:
        raise TypeError(f"{name} must hold real numbers (NaN for a missing label)") from None
    if array.ndim != 2:
        raise ValueError(f"{name} must be two-dimensional (raters x items), got an array of "
                         f"shape {array.shape}")
    if np.isinf(array).any():
        raise ValueError(f"{name} must hold finite labels or NaN (missing), got an infinite one")
    return array


def as_ranked_ids(values, name: str) -> list:
    """A ranked list of ids, best first: a non-empty sequence of distinct, hashable ids with no
    missing one (None, NaN), or raise naming ``name``."""
    if isinstance(values, (str, bytes)) or not hasattr(values, "__len__"):
        raise TypeError(f"{name} must be a list of ids, best first, got {type(values).__name__}")
    ids = list(values.tolist() if isinstance(values, np.ndarray) else values)
    if not ids:
        raise ValueError(f"{name} must hold at least one id")
    seen = {}
    for position, item in enumerate(ids):
        try:
            missing = bool(pd.isna(item))
        except (TypeError, ValueError):
            missing = False
        if missing:
            raise ValueError(f"{name} must not hold a missing id, got {item!r} at position "
                             f"{position}")
        try:
            first = seen.setdefault(item, position)
        except TypeError:
            raise TypeError(f"{name} must hold hashable ids (str, int...), got "
                            f"{type(item).__name__} at position {position}") from None
        if first != position:
            raise ValueError(f"{name} lists {item!r} twice, at positions {first} and "
                             f"{position}: a ranking names each id once")
    return ids


def as_exact_probabilities(values, name: str) -> tuple[list, bool]:
    """Probabilities in [0, 1] kept exact: ``(list of fractions.Fraction, exact)``, or raise
    naming ``name``.

    Ints and ``Fraction`` objects are exact; a float is converted to the fraction it stores
    (exactly), and ``exact`` is then False, so that a caller can return floats for float input
    and fractions for exact input.
    """
    if isinstance(values, (str, bytes)) or not hasattr(values, "__len__"):
        raise TypeError(f"{name} must be a list of probabilities, got {type(values).__name__}")
    values = list(values.tolist() if isinstance(values, np.ndarray) else values)
    exact, fractions = True, []
    for position, value in enumerate(values):
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
            raise TypeError(f"{name} must hold real numbers, got {value!r} at position {position}")
        if not isinstance(value, numbers.Rational):
            if not np.isfinite(float(value)):
                raise ValueError(f"{name} must hold finite numbers, got {value} at position "
                                 f"{position}")
            exact = False
        fraction = Fraction(value) if isinstance(value, numbers.Rational) else Fraction(float(value))
        if not 0 <= fraction <= 1:
            raise ValueError(f"{name} must hold probabilities in [0, 1], got {value} at "
                             f"position {position}")
        fractions.append(fraction)
    return fractions, exact


def as_arm_values(values, name: str) -> np.ndarray:
    """One number per unit of one arm of an experiment, at least two of them (a variance needs
    two), as a float array, or raise naming ``name``."""
    array = as_numbers(values, name)
    if len(array) < 2:
        raise ValueError(f"{name} must hold at least 2 units, got {len(array)}")
    return array


def as_intent_grades(subtopics, name: str, *, intents=None,
                     binary: bool = True) -> tuple[np.ndarray, list]:
    """Per rank, each intent's grade: a (documents x intents) float matrix and the intents.

    ``subtopics`` is either a 2-D numpy array (documents x intents; the intents are its
    columns 0, 1, ...), or a sequence with one entry per document: a collection of the intent
    labels it is relevant to (a set, list or tuple; grade 1 each) or a mapping from intent
    label to grade. ``intents`` lists the query's intents (labels, or for a matrix the number
    of columns it must have); by default they are the labels that occur, in order of first
    occurrence. ``binary`` requires grades 0 or 1. A bad entry raises naming ``name``.
    """
    if isinstance(subtopics, np.ndarray):
        if subtopics.ndim != 2:
            raise ValueError(f"{name} as an array must be 2-D (documents x intents), got "
                             f"{subtopics.ndim}-D")
        matrix = np.array(subtopics, dtype=float)
        labels = list(range(matrix.shape[1]))
        if intents is not None and list(intents) != labels:
            raise ValueError(f"intents must be None or {labels} for a {name} matrix of "
                             f"{matrix.shape[1]} columns, got {list(intents)!r}")
    else:
        if isinstance(subtopics, (str, bytes)) or not hasattr(subtopics, "__iter__"):
            raise TypeError(f"{name} must be a sequence of sets of intents or a 2-D array, "
                            f"got {type(subtopics).__name__}")
        entries = []
        for position, entry in enumerate(subtopics):
            if isinstance(entry, dict):
                entries.append(dict(entry))
            elif isinstance(entry, (set, frozenset, list, tuple)):
                entries.append(dict.fromkeys(entry, 1.0))
            else:
                raise TypeError(f"{name}[{position}] must be a set of intent labels or a dict "
                                f"from intent to grade, got {type(entry).__name__}")
        labels = list(dict.fromkeys(label for entry in entries for label in entry))
        if intents is not None:
            given = list(intents)
            if len(set(given)) != len(given):
                raise ValueError(f"intents must not repeat a label, got {given!r}")
            unknown = [label for label in labels if label not in given]
            if unknown:
                raise ValueError(f"{name} names intents not in intents: {unknown!r}")
            labels = given
        column = {label: j for j, label in enumerate(labels)}
        matrix = np.zeros((len(entries), len(labels)))
        for i, entry in enumerate(entries):
            for label, grade in entry.items():
                matrix[i, column[label]] = as_number(grade, f"{name}[{i}][{label!r}]")
    if not np.isfinite(matrix).all():
        raise ValueError(f"{name} must hold finite grades")
    if (matrix < 0).any():
        raise ValueError(f"{name} must hold grades >= 0, got {matrix.min():g}")
    if binary and not np.isin(matrix, (0.0, 1.0)).all():
        raise ValueError(f"{name} must hold 0 or 1 per intent (relevant or not); binarise "
                         f"graded subtopic judgments first, as ndeval does with grade >= 1")
    return matrix, labels


def as_intent_weights(weights, labels: list, name: str = "weights") -> np.ndarray:
    """The intents' probabilities P(t|q) in the order of ``labels``: uniform when ``weights``
    is None; else a mapping from label to probability (every intent named) or, for intents
    numbered 0, 1, ..., a sequence. They must lie in [0, 1] and sum to 1."""
    if weights is None:
        return np.full(len(labels), 1.0 / len(labels)) if labels else np.zeros(0)
    if isinstance(weights, dict):
        missing = [label for label in labels if label not in weights]
        extra = [label for label in weights if label not in labels]
        if missing or extra:
            raise ValueError(f"{name} must give one probability per intent; missing "
                             f"{missing!r}, unknown {extra!r}")
        weights = [weights[label] for label in labels]
    array = as_probabilities(weights, name)
    if len(array) != len(labels):
        raise ValueError(f"{name} must have one probability per intent ({len(labels)}), "
                         f"got {len(array)}")
    if len(array) and abs(array.sum() - 1.0) > 1e-9:
        raise ValueError(f"{name} must sum to 1 (they are P(t|q)), got {array.sum():g}")
    return array


def as_nonnegative(values, name: str) -> np.ndarray:
    """Return ``values`` as a non-empty 1-D float array of finite numbers >= 0 (exposures,
    counts, popularities), or raise naming ``name``."""
    array = as_numbers(values, name)
    if not len(array):
        raise ValueError(f"{name} must hold at least one value")
    if (array < 0).any():
        position = int(np.flatnonzero(array < 0)[0])
        raise ValueError(f"{name} must hold numbers >= 0, got {array[position]:g} at position "
                         f"{position}")
    return array


def as_recommendations(recommendations, name: str = "recommendations") -> dict:
    """Recommendation lists as ``{user: (items, ranks)}``, or raise naming ``name``.

    Two forms are accepted: a mapping of user to a ranked sequence of item ids, best first
    (ranks 1, 2, ...), or a DataFrame with columns ``user`` and ``item`` and optionally
    ``rank`` (ints >= 1; without it, the row order within a user is the rank order). A user's
    list is non-empty and names each item once; ranks within a user are distinct.
    """
    if isinstance(recommendations, pd.DataFrame):
        missing = {"user", "item"} - set(recommendations.columns)
        if missing:
            raise ValueError(f"{name} must have columns 'user' and 'item' (and optionally "
                             f"'rank'), missing {sorted(missing)}")
        if not len(recommendations):
            raise ValueError(f"{name} must hold at least one recommendation")
        frame = recommendations
        if "rank" in frame.columns:
            ranks = as_positions(frame["rank"].to_numpy(), f"{name}['rank']")
            frame = frame.assign(rank=ranks).sort_values(["rank"], kind="stable")
        lists = {}
        for user, group in frame.groupby("user", sort=False):
            items = as_ranked_ids(group["item"].to_numpy(), f"{name} of user {user!r}")
            ranks = (group["rank"].to_numpy() if "rank" in group.columns
                     else np.arange(1, len(items) + 1))
            if len(set(ranks.tolist())) != len(ranks):
                raise ValueError(f"{name} of user {user!r} gives one rank to two items")
            lists[user] = (items, ranks.astype(int))
        return lists
    if not hasattr(recommendations, "items") or isinstance(recommendations, pd.Series):
        raise TypeError(f"{name} must be a mapping of user to a ranked list of items or a "
                        f"DataFrame with columns user and item, got "
                        f"{type(recommendations).__name__}")
    if not len(recommendations):
        raise ValueError(f"{name} must hold at least one user")
    lists = {}
    for user, values in recommendations.items():
        items = as_ranked_ids(values, f"{name} of user {user!r}")
        lists[user] = (items, np.arange(1, len(items) + 1))
    return lists


def as_catalog(catalog, name: str = "catalog") -> list:
    """The item ids of a catalogue: a non-empty sequence of distinct hashable ids, or raise
    naming ``name``."""
    return as_ranked_ids(catalog, name)


def as_popularity(popularity, name: str = "popularity") -> dict:
    """Item popularities (interaction counts or shares) as ``{item: float >= 0}``: a mapping
    or a pandas Series indexed by item, or raise naming ``name``."""
    if not hasattr(popularity, "items") or isinstance(popularity, pd.DataFrame):
        raise TypeError(f"{name} must be a mapping or a Series of item to popularity, got "
                        f"{type(popularity).__name__}")
    items = list(popularity.keys())
    values = as_nonnegative([popularity[item] for item in items], name)
    return dict(zip(items, values.tolist()))


def popularity_of(items, popularity: dict, name: str = "popularity") -> np.ndarray:
    """The popularity of each of ``items``, or raise naming ``name`` for one it lacks."""
    try:
        return np.array([popularity[item] for item in items], dtype=float)
    except KeyError as missing:
        raise ValueError(f"{name} has no value for the recommended item {missing.args[0]!r}"
                         ) from None


def as_id_set(values, name: str) -> set:
    """A collection of hashable ids (possibly empty) as a set, or raise naming ``name``."""
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise TypeError(f"{name} must be a collection of item ids, got {type(values).__name__}")
    try:
        return set(values)
    except TypeError:
        raise TypeError(f"{name} must hold hashable ids (str, int...)") from None


def as_function(value, name: str, what: str):
    """Return ``value`` if it is callable, or raise naming ``name`` and saying ``what`` it
    should be."""
    if not callable(value):
        raise TypeError(f"{name} must be {what}, got {type(value).__name__}")
    return value


def as_log_base(value, name: str = "base") -> float:
    """A logarithm's base: a finite number > 0 other than 1, or raise naming ``name``."""
    value = as_above(value, name, 0)
    if value == 1:
        raise ValueError(f"{name} must not be 1 (log base 1 is undefined)")
    return value


def as_frame_with(frame, name: str, columns) -> pd.DataFrame:
    """A non-empty DataFrame holding ``columns``, or raise naming ``name``."""
    if not isinstance(frame, pd.DataFrame):
        raise TypeError(f"{name} must be a pandas DataFrame, got {type(frame).__name__}")
    missing = [column for column in columns if column not in frame.columns]
    if missing:
        raise ValueError(f"{name} must have the columns {list(columns)}, missing {missing}")
    if not len(frame):
        raise ValueError(f"{name} must hold at least one row")
    return frame


def within(values: np.ndarray, items, name: str, low: float, high: float, why: str) -> None:
    """Raise naming ``name`` and the first of ``items`` whose value is outside (low, high]."""
    outside = (values <= low) | (values > high)
    if outside.any():
        item = items[int(np.flatnonzero(outside)[0])]
        raise ValueError(f"{name} of {item!r} must be in ({low:g}, {high:g}]: {why}")
