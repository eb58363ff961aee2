"""The Elo Excel functions (xlcircuit.udfs), called the way Excel calls them.

Expected values are typed by hand from docs/regles/elo.md and its source
(the page of the « note de classé » scale); nothing here asks the core. Excel passes every number
as a float, blanks as None, one cell as a scalar and, for ranges (ndim=2), a list of rows.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from xlcircuit.excel import registry as functions
from xlcircuit.udfs import ELO_CHANGE, ELO_EXPECTED, ELO_K, ELO_NEW, ELO_TIER

FUNCTIONS = [ELO_EXPECTED, ELO_K, ELO_CHANGE, ELO_NEW, ELO_TIER]


def column(values):
    return [[None if v is None else float(v)] for v in values]


# --- Worked examples (elo.md "Worked examples from the source") ------------------------------------


@pytest.mark.parametrize("gap, value", [(0, 0.5), (50, 0.5715), (100, 0.6401), (150, 0.7034), (200, 0.7597),
                                        (400, 0.9091), (600, 0.9693)])
def test_expected(gap, value):
    assert ELO_EXPECTED(1000.0 + gap, 1000.0) == pytest.approx(value, abs=5e-5)
    assert ELO_EXPECTED(1000.0, 1000.0 + gap) == pytest.approx(1 - value, abs=5e-5)


def test_k():
    # "48 pour les parties 1 à 5, 28 de la sixième à la trentième, puis 16 à partir de la trente et unième"
    assert [ELO_K(float(g)) for g in (1, 5, 6, 30, 31, 1000)] == [48.0, 48.0, 28.0, 28.0, 16.0, 16.0]


def test_change_of_the_source_totals_with_ties():
    # 47, 61, 61, 78, 92, 104 at equal ratings, K 16: 16 × (5, 3.5, 3.5, 2, 1, 0 - 2.5) / 5
    out = ELO_CHANGE(column([1000] * 6), column([47, 61, 61, 78, 92, 104]), column([40] * 6))
    assert out == [[8.0], [3.0], [3.0], [-2.0], [-5.0], [-8.0]]


def test_change_and_new_of_the_table_of_six():
    # The source's table: you at 1000 finish 3rd (+2: 16 × 0.5 / 5 = 1.6); in rating order, K 16.
    ratings = column([1200, 1100, 1000, 1000, 900, 800])
    totals = column([40, 50, 60, 70, 80, 90])
    assert ELO_CHANGE(ratings, totals, column([31] * 6)) == [[3.0], [2.0], [2.0], [-2.0], [-2.0], [-3.0]]
    assert ELO_NEW(ratings, totals, [[31.0]]) == [[1203.0], [1102.0], [1002.0], [998.0], [898.0], [797.0]]


def test_equal_tables_of_six_and_eight():
    assert ELO_CHANGE(column([1000] * 6), column(range(6)), [[40.0]]) == column([8, 5, 2, -2, -5, -8])
    assert ELO_CHANGE(column([1000] * 8), column(range(8)), [[40.0]]) == column([8, 6, 3, 1, -1, -3, -6, -8])


def test_three_equal_first_two_tied():
    assert ELO_CHANGE(column([1000] * 3), column([5, 5, 9]), [[40.0]]) == column([4, 4, -8])


def test_upsets_and_the_minimum_point():
    # 400 above beaten: 16 × 0.9091 = 14.5 -> 15; lost: 16 × 0.0909 = 1.45 -> 1
    assert ELO_CHANGE(column([1000, 1400]), column([1, 2]), [[40.0]]) == column([15, -15])
    assert ELO_CHANGE(column([1000, 1400]), column([2, 1]), [[40.0]]) == column([-1, 1])
    # gap 600: 16 × 0.0307 = 0.49 -> 0, raised to +1 (and -1 for the last)
    assert ELO_CHANGE(column([1600, 1000]), column([1, 2]), [[40.0]]) == column([1, -1])


def test_placement_k_and_own_k():
    assert ELO_CHANGE(column([1000, 1000]), column([1, 2]), column([1, 1])) == column([24, -24])
    assert ELO_CHANGE(column([1000, 1000]), column([1, 2]), column([6, 6])) == column([14, -14])
    assert ELO_CHANGE(column([1000, 1000]), column([1, 2]), column([1, 40])) == column([24, -8])


def test_highest_wins_and_default():
    ratings, totals = column([1000, 1000]), column([10, 20])
    assert ELO_CHANGE(ratings, totals, [[40.0]]) == column([8, -8])  # default: the lowest total wins
    assert ELO_CHANGE(ratings, totals, [[40.0]], True) == column([8, -8])
    assert ELO_CHANGE(ratings, totals, [[40.0]], None) == column([8, -8])  # a blank cell keeps the default
    assert ELO_CHANGE(ratings, totals, [[40.0]], False) == column([-8, 8])
    assert ELO_CHANGE(ratings, totals, [[40.0]], 0.0) == column([-8, 8])


def test_floor_is_included():
    # 104 loses 8 -> 100: a change of -4
    assert ELO_CHANGE(column([104, 104]), column([1, 2]), [[40.0]]) == column([8, -4])
    assert ELO_NEW(column([104, 104]), column([1, 2]), [[40.0]]) == column([112, 100])


def test_tiers():
    assert [ELO_TIER(float(r), 5.0) for r in (100, 899, 900, 1050, 1200, 1350, 1500, 3000)] == [
        "Bronze", "Bronze", "Argent", "Or", "Platine", "Diamant", "Maître", "Maître"]
    assert [ELO_TIER(1500.0, float(g)) for g in (0, 4, 5)] == ["Placement", "Placement", "Maître"]


# --- Shapes ----------------------------------------------------------------------------------------


def test_blank_rows_give_blanks_and_a_row_stays_a_row():
    out = ELO_CHANGE(column([1000, None, 1000, None]), column([1, None, 2, None]), [[40.0]])
    assert out == [[8.0], [""], [-8.0], [""]]
    out = ELO_CHANGE(column([1000, None, 1000]), column([1, None, 2]), column([40, None, 40]))
    assert out == [[8.0], [""], [-8.0]]
    assert ELO_CHANGE([[1000.0, 1000.0]], [[1.0, 2.0]], [[40.0, 40.0]]) == [[8.0, -8.0]]
    assert ELO_NEW([1000.0, 1000.0], [1.0, 2.0], 40.0) == [1008.0, 992.0]  # flat lists, one games cell


def test_single_cell_ranges_are_cells():
    assert ELO_EXPECTED([[1100.0]], [1000.0]) == pytest.approx(0.6401, abs=5e-5)
    assert ELO_K([[6.0]]) == 28.0
    assert ELO_TIER([[1050.0]], [[12.0]]) == "Or"


# --- Bad input: a '#' message, never an exception ---------------------------------------------------

BAD = [
    (ELO_EXPECTED, ("mille", 1000.0), "#rating : nombre attendu, trouvé « mille »"),
    (ELO_EXPECTED, (1000.0, None), "#opponent_rating : nombre attendu, trouvé une cellule vide"),
    (ELO_EXPECTED, (True, 1000.0), "#rating"),
    (ELO_K, (0.0,), "#games_played : entier ≥ 1 attendu, trouvé 0"),
    (ELO_K, (2.5,), "#games_played : entier ≥ 1 attendu, trouvé 2,5"),
    (ELO_K, (None,), "#games_played"),
    (ELO_TIER, (1000.0, -1.0), "#games_played : entier ≥ 0 attendu, trouvé -1"),
    (ELO_TIER, (1000.0, "cinq"), "#games_played"),
    (ELO_TIER, ("Or", 5.0), "#rating"),
    (ELO_TIER, (95.0, 5.0), "#rating : entier ≥ 100 attendu, trouvé 95"),  # under the floor (§5)
    (ELO_TIER, (1050.5, 5.0), "#rating : entier ≥ 100 attendu, trouvé 1050,5"),  # ratings are whole
    (ELO_CHANGE, (column([1000]), column([1]), [[1.0]]), "#ratings : de 2 à 8 joueurs attendus, trouvé 1"),
    (ELO_CHANGE, (column([1000] * 9), column(range(9)), [[1.0]]), "#ratings : de 2 à 8 joueurs attendus, trouvé 9"),
    (ELO_CHANGE, (column([1000, 99]), column([1, 2]), [[1.0]]),
     "#ratings, cellule 2 : entier ≥ 100 attendu, trouvé 99"),
    (ELO_CHANGE, (column([1000, 1000.5]), column([1, 2]), [[1.0]]), "#ratings, cellule 2"),
    (ELO_CHANGE, (column([1000, None]), column([1, 2]), [[1.0]]), "#ratings, cellule 2"),
    (ELO_CHANGE, (column([1000, 1000]), [[1.0], ["dix"]], [[1.0]]), "#totals, cellule 2 : nombre attendu"),
    (ELO_CHANGE, (column([1000, 1000]), column([1, 2]), column([1, 0])),
     "#games_played, cellule 2 : entier ≥ 1 attendu, trouvé 0"),
    (ELO_CHANGE, (column([1000, 1000]), column([1, 2, 3]), [[1.0]]), "#ratings et totals"),
    (ELO_CHANGE, (column([1000, 1000, 1000]), column([1, 2, 3]), column([1, 1])), "#ratings et games_played"),
    (ELO_CHANGE, (column([1000, 1000]), column([1, 2]), [[1.0]], "oui"), "#lowest_wins"),
    (ELO_CHANGE, ([[1000.0], [1000.0, 1.0]], column([1, 2]), [[1.0]]), "#ratings"),  # ragged
    (ELO_CHANGE, (column([1000, 1000]), [["#N/A"], [2.0]], [[1.0]]), "#totals, cellule 1"),  # an error cell
    (ELO_NEW, (column([1000, 1000]), column([1, 2]), [[None]]), "#games_played, cellule 1"),
    # totals are ranked to 9 decimals: a huge one used to escape as decimal.InvalidOperation
    (ELO_CHANGE, (column([1000, 1000]), column([1e308, -1e308]), [[40.0]]), "#totals, cellule 1"),
    (ELO_NEW, (column([1000, 1000]), column([1, 1e20]), [[40.0]]), "#totals, cellule 2"),
]


@pytest.mark.parametrize("function, args, start", BAD, ids=[f"{f.__name__}-{i}" for i, (f, _, _) in enumerate(BAD)])
def test_bad_input_gives_a_message(function, args, start):
    out = function(*args)
    assert isinstance(out, str)
    assert out.startswith(start), out
    assert "\n" not in out and len(out) <= 255
    assert "Traceback" not in out and "erreur interne" not in out


# --- Properties --------------------------------------------------------------------------------------

# Junk in any cell never raises: tests/test_udfs.py checks it for every registered function.


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 8).flatmap(lambda n: st.tuples(
    st.lists(st.integers(100, 3000), min_size=n, max_size=n),
    st.lists(st.integers(0, 5), min_size=n, max_size=n),
    st.lists(st.integers(1, 40), min_size=n, max_size=n),
)))
def test_new_is_rating_plus_change(game):
    ratings, totals, played = (column(values) for values in game)
    changes, new = ELO_CHANGE(ratings, totals, played), ELO_NEW(ratings, totals, played)
    for (r,), (c,), (after,) in zip(ratings, changes, new):
        assert after == r + c and after >= 100 and float(c).is_integer()


def test_descriptions_are_the_registry_ones():
    for function in FUNCTIONS:
        assert function.__doc__ == functions.function(function.__name__).description
