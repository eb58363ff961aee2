"""Shared mechanics (the conventions every federation's rules share):
half-up display rounding, places with ties and vacancies, tie sharing, weighted best-N and
competition ranks.

Expected values are typed by hand (plain literals), never produced by xlcircuit.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from xlcircuit.rules.mechanics import (
    competition_ranks,
    competition_ranks_by,
    effective_places,
    format_half_up,
    round_half_up,
    share_ties,
    shared_value,
    tie_sizes,
    weighted_best,
    weights_from,
)

# --- Rounding: for display only, half up (Excel's ROUND), never Python's round-half-even -------


@pytest.mark.parametrize(
    "value, digits, expected",
    [
        (911.5, 0, 912.0),  # tdf example 2, first place (1012 + 811) / 2
        (140.5, 0, 141.0),  # tdf example 2, ninth place (187 + 152 + 123 + 100) / 4
        (2.5, 0, 3.0),  # Python's round gives 2
        (0.5, 0, 1.0),  # Python's round gives 0
        (3.5, 0, 4.0),
        (911.4999, 0, 911.0),
        (128.625, 2, 128.63),
        (0.125, 2, 0.13),  # Python's round gives 0.12
        (2.675, 2, 2.68),  # as typed (Excel gives 2.68; the binary double is 2.67499...)
        (1.005, 2, 1.01),
        (-2.5, 0, -3.0),  # halves away from zero
        (-0.125, 2, -0.13),
        (-911.5, 0, -912.0),
        (100.0, 0, 100.0),
        (100.00000000000001, 0, 100.0),
        (1250.0, -2, 1300.0),  # negative digits: to the hundred
    ],
)
def test_round_half_up(value, digits, expected):
    assert round_half_up(value, digits) == expected


@pytest.mark.parametrize(
    "value, digits, expected",
    [
        (911.5, 0, "912"),
        (140.5, 0, "141"),
        (2.5, 0, "3"),
        (-2.5, 0, "-3"),
        (128.625, 2, "128.63"),
        (0.125, 2, "0.13"),
        (891.2509381337456, 3, "891.251"),  # tdf example 1 details
        (100.0, 0, "100"),
        (7.0, 2, "7.00"),  # trailing zeros kept at the requested digits
    ],
)
def test_format_half_up(value, digits, expected):
    assert format_half_up(value, digits) == expected


@pytest.mark.parametrize("value, digits, expected", [(-0.4, 0, "0"), (-0.001, 2, "0.00")])
def test_format_half_up_has_no_negative_zero(value, digits, expected):
    assert format_half_up(value, digits) == expected


# --- Places: 1 + number of people strictly ahead (tdf.md §1 "Vacant place or duplicate") -------


@pytest.mark.parametrize(
    "official, expected",
    [
        ([1, 2, 3], [1, 2, 3]),
        ([1, 1, 3], [1, 1, 3]),  # tie
        ([1, 1, 2], [1, 1, 3]),  # tie typed in dense style: still 2 people ahead
        ([1, 2, 4], [1, 2, 3]),  # vacancy closes up
        ([1, 3, 3, 7], [1, 2, 2, 4]),  # vacancy then tie then vacancies
        ([4, 1, 2], [3, 1, 2]),  # unsorted input, order kept
        ([3, 1, 3, 1], [3, 1, 3, 1]),
        ([5], [1]),
        ([], []),
    ],
)
def test_effective_places(official, expected):
    assert effective_places(official) == expected


@pytest.mark.parametrize(
    "official, expected",
    [
        ([1, 2, 3], [1, 1, 1]),
        ([1, 1, 3], [2, 2, 1]),
        ([2, 1, 2, 2], [3, 1, 3, 3]),
        ([1, 9, 9, 9, 9], [1, 4, 4, 4, 4]),
        ([], []),
    ],
)
def test_tie_sizes(official, expected):
    assert tie_sizes(official) == expected


# --- Tie sharing: the mean of the places the tied people occupy -------------------------------

TEN_TIMES = {1: 10.0, 2: 20.0, 3: 30.0, 4: 40.0, 5: 50.0}.__getitem__  # KeyError past place 5


@pytest.mark.parametrize(
    "place, tied, expected",
    [
        (1, 1, 10.0),
        (1, 2, 15.0),  # (10 + 20) / 2
        (2, 3, 30.0),  # (20 + 30 + 40) / 3
        (4, 2, 45.0),  # (40 + 50) / 2
        (1, 5, 30.0),  # (10 + 20 + 30 + 40 + 50) / 5
    ],
)
def test_shared_value(place, tied, expected):
    assert shared_value(place, tied, TEN_TIMES) == expected


@pytest.mark.parametrize(
    "official, expected",
    [
        ([1, 2, 3], [10.0, 20.0, 30.0]),
        ([1, 1, 3], [15.0, 15.0, 30.0]),
        ([3, 1, 1], [30.0, 15.0, 15.0]),  # unsorted
        ([1, 2, 4], [10.0, 20.0, 30.0]),  # vacancy: never asks for place 4 of 3
        ([1, 2, 2, 2, 5], [10.0, 30.0, 30.0, 30.0, 50.0]),  # three tied at 2 share 2, 3, 4
        ([1, 1, 1, 1, 1], [30.0] * 5),
        ([], []),
    ],
)
def test_share_ties(official, expected):
    assert share_ties(official, TEN_TIMES) == expected


# --- Weighted best-N ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "weights, tail, start, count, expected",
    [
        ((1.0, 0.8, 0.4, 0.2), 0.1, 0, 6, [1.0, 0.8, 0.4, 0.2, 0.1, 0.1]),
        ((1.0, 0.8, 0.4, 0.2), 0.1, 1, 3, [0.8, 0.4, 0.2]),
        ((1.0, 0.8, 0.4, 0.2), 0.1, 2, 3, [0.4, 0.2, 0.1]),
        ((1.0, 0.8, 0.4, 0.2), 0.1, 5, 2, [0.1, 0.1]),  # start past the table: tail only
        ((1.0, 0.8, 0.4, 0.2), 0.1, 0, 0, []),
        ((1.0, 1.0), 0.0, 0, 4, [1.0, 1.0, 0.0, 0.0]),  # best-2
    ],
)
def test_weights_from(weights, tail, start, count, expected):
    assert weights_from(weights, tail, start, count) == expected


@pytest.mark.parametrize(
    "values, weights, tail, expected",
    [
        ([3.0, 1.0, 2.0], (1.0, 1.0), 0.0, 5.0),  # best 2 of 3: 3 + 2
        ([3.0, 1.0, 2.0], (1.0, 1.0, 1.0, 1.0), 0.0, 6.0),  # fewer values than weights
        ([1.0, 5.0, 3.0], (1.0, 0.5), 0.1, 6.6),  # 5 + 1.5 + 0.1
        ([700, 500, 300, 200, 100, 50], (1.0, 0.8, 0.4, 0.2), 0.1, 1275.0),  # tdf.md §2 vector 1
        ([], (1.0, 0.8), 0.1, 0.0),
    ],
)
def test_weighted_best(values, weights, tail, expected):
    assert weighted_best(values, weights, tail) == pytest.approx(expected, rel=1e-12)


# --- Competition ranks (1, 2, 2, 4) -------------------------------------------------------------


@pytest.mark.parametrize(
    "totals, higher_is_better, expected",
    [
        ([10.0, 8.0, 8.0, 5.0], True, [1, 2, 2, 4]),
        ([5.0, 8.0, 10.0, 8.0], True, [4, 2, 1, 2]),  # unsorted, order kept
        ([142.89999999999998, 142.9], True, [1, 1]),  # float noise shares a rank
        ([150.0, 142.9, 142.89999999999998, 100.0], True, [1, 2, 2, 4]),
        ([0.1 + 0.2, 0.3, 0.2], True, [1, 1, 3]),
        ([3.0, 1.0, 1.0, 2.0], False, [4, 1, 1, 3]),  # lower is better
        ([7.0, 7.0, 7.0], True, [1, 1, 1]),
        ([], True, []),
    ],
)
def test_competition_ranks(totals, higher_is_better, expected):
    assert competition_ranks(totals, higher_is_better=higher_is_better) == expected


# --- Properties ---------------------------------------------------------------------------------


@given(st.lists(st.integers(min_value=1, max_value=40), max_size=40))
def test_effective_places_are_between_1_and_n_and_ties_share(official):
    places = effective_places(official)
    n = len(official)
    assert len(places) == n
    assert all(1 <= p <= n for p in places)
    for a, pa in zip(official, places):
        for b, pb in zip(official, places):
            if a == b:
                assert pa == pb
            elif a < b:
                assert pa < pb


@st.composite
def classifications(draw):
    """Official places of a valid classification: groups of tied people, each group at
    1 + the number of people before it, plus optional vacant places; in any order."""
    sizes = draw(st.lists(st.integers(min_value=1, max_value=5), max_size=12))
    official, place = [], 1
    for size in sizes:
        place += draw(st.integers(min_value=0, max_value=2))  # vacant places before the group
        official += [place] * size
        place += size
    return draw(st.permutations(official))


@given(
    classifications(),
    st.lists(st.floats(min_value=0, max_value=5000, allow_nan=False), min_size=60, max_size=60),
)
def test_share_ties_preserves_the_sum(official, per_place):
    values = share_ties(official, lambda p: per_place[p - 1])
    n = len(official)
    assert sum(values) == pytest.approx(sum(per_place[:n]), rel=1e-9, abs=1e-9)


@given(st.lists(st.floats(min_value=-1e6, max_value=1e6, allow_nan=False)))
def test_competition_ranks_of_a_descending_list(totals):
    totals = sorted(totals, reverse=True)
    ranks = competition_ranks(totals)
    if totals:
        assert ranks[0] == 1
    assert all(a <= b for a, b in zip(ranks, ranks[1:]))
    assert all(1 <= r <= i + 1 for i, r in enumerate(ranks))


@pytest.mark.parametrize(
    "keys, expected",
    [
        ([(-10, 0), (-10, 1), (-12, 5)], [2, 3, 1]),  # a tie-breaker separates equal totals
        ([(-10, 1), (-10, 1), (-9, 0)], [1, 1, 3]),  # equal on every key: shared rank
        ([], []),
    ],
)
def test_competition_ranks_by_keys(keys, expected):
    assert competition_ranks_by(keys) == expected


@pytest.mark.parametrize("x", [1e19, -1e19, 1e300, 123456789012345678901.0])
def test_huge_numbers_round_and_rank_without_error(x):
    assert round_half_up(x) == x and round_half_up(x, 9) == x
    assert competition_ranks([x, 0.0]) == ([1, 2] if x > 0 else [2, 1])


def test_infinities_pass_through_rounding():
    assert round_half_up(float("inf")) == float("inf")
    assert round_half_up(float("-inf"), 2) == float("-inf")
