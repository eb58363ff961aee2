"""The DBM Excel functions (xlcircuit.udfs), called the way Excel calls them.

Expected values are the figures printed in « Championnat DBM 98/99 — La Réforme » (Philippe Lempereur) ("EXEMPLES")
or hand arithmetic; nothing here asks the core. Excel passes every number as a float, blanks as
None, one cell as a scalar and every range argument (ndim=2) as a list of rows.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from xlcircuit.rules.limits import DBM_MAX_ROUNDS
from xlcircuit.rules.mechanics import format_half_up
from xlcircuit.udfs import DBM_BEST4, DBM_CLASS_VALUE, DBM_CMM, DBM_POINTS, DBM_REFEREE, DBM_VALUE

FUNCTIONS = [DBM_CLASS_VALUE, DBM_CMM, DBM_VALUE, DBM_POINTS, DBM_REFEREE, DBM_BEST4]


def two(x):
    return format_half_up(x, 2)


def row(values):
    return [list(values)]


# --- worked examples ----------------------------------------------------------------------------------

EXAMPLE_1_RFJ = ["120.00", "95.24", "75.60", "60.00", "47.62", "37.80",
                 "30.00", "23.81", "18.90", "15.00", "11.91", "9.45"]  # fmt: skip
EXAMPLE_2_RFJ = {1: "154.00", 2: "142.58", 10: "77.00", 19: "38.50", 28: "19.25", 36: "10.40",
                 11: "71.29", 20: "35.65", 29: "17.82", 9: "83.16", 27: "20.79", 18: "41.58"}  # fmt: skip


def test_example_1_through_the_functions():
    # "EXEMPLES 1)": twelve players classed (0), four rounds: VFT 120.00, then RFJ by place.
    vft = DBM_VALUE(row(["0"] * 12), 4.0)
    assert vft == 120.0
    assert [two(DBM_POINTS(vft, float(p), 12.0)) for p in range(1, 13)] == EXAMPLE_1_RFJ


def test_example_2_through_the_functions():
    # "EXEMPLES 2)": 3 X, 8 S, 11 O, 14 F in a column, four rounds: the 24 best: VFT 154.00.
    column = [[c] for c in ["X"] * 3 + ["S"] * 8 + ["O"] * 11 + ["F"] * 14]
    vft = DBM_VALUE(column, 4.0)
    assert two(vft) == "154.00"
    assert {p: two(DBM_POINTS(vft, float(p), 36.0)) for p in EXAMPLE_2_RFJ} == EXAMPLE_2_RFJ
    assert DBM_REFEREE(vft) == 77.0  # half of 154, under the cap


def test_values_as_numbers_mixed_with_codes_and_blanks():
    # 15 (O) typed as 3, "o" or 0, one S as 4: SVB 49, MVB 3.0625, CMM 10.50, VFT 128.625 (shown 128.63).
    cells = [3.0] * 5 + ["o"] * 5 + [0.0] * 5 + [4.0, None, ""]
    vft = DBM_VALUE(row(cells), 4.0)
    assert vft == 128.625 and two(vft) == "128.63"


@pytest.mark.parametrize("mvb, coefficient", [
    (2.0, 8.0), (2.01, 8.5), (2.25, 8.5), (2.26, 9.0), (2.75, 9.5), (2.76, 10.0), (3.0, 10.0), (3.01, 10.5),
    (3.5, 11.0), (3.51, 11.5), (4.75, 13.5), (4.76, 14.0), (1.0, 8.0), (5.0, 14.0),
])  # fmt: skip
def test_cmm_boundaries(mvb, coefficient):
    assert DBM_CMM(mvb) == coefficient


@pytest.mark.parametrize("code, value", [("I", 1.0), ("i", 1.0), ("f", 2.0), ("O", 3.0), ("o", 3.0), ("0", 3.0),
                                         (0.0, 3.0), (" S ", 4.0), ("x", 5.0), (1.0, 1.0), (5.0, 5.0)])
def test_class_values(code, value):
    assert DBM_CLASS_VALUE(code) == value


def test_ties_referee_and_best_four():
    # Two tied 5th of example 1 share (120 / 2^(16/12) + 120 / 2^(20/12)) / 2 = 42.7098…
    assert DBM_POINTS(120.0, 5.0, 12.0, 2.0) == pytest.approx((47.622031559 + 37.797631497) / 2)
    assert DBM_POINTS(120.0, 5.0, 12.0, None) == DBM_POINTS(120.0, 5.0, 12.0)
    assert DBM_REFEREE(250.0) == 100.0 and DBM_REFEREE(120.0) == 60.0
    # 120 + 95.24 + 60 + 47.62, blanks ignored, the 15 not among the four best.
    assert DBM_BEST4(row([120.0, None, 47.62, 95.24, 15.0, 60.0, ""])) == pytest.approx(322.86)
    assert DBM_BEST4(row([None, None])) == 0.0
    assert DBM_BEST4([[30.0], [20.0]]) == 50.0


# --- bad input: a short French message, never an exception ------------------------------------------


@pytest.mark.parametrize("call, message", [
    (lambda: DBM_CLASS_VALUE("Z"), "#code : code de classe (I, F, O, S, X ; 0 pour O) ou valeur de 1 à 5 attendu, "
                                   "trouvé « Z »"),
    (lambda: DBM_CLASS_VALUE(None), "#code : code de classe"),
    (lambda: DBM_CLASS_VALUE(2.5), "#code : code de classe"),
    (lambda: DBM_CMM("trois"), "#mvb : nombre attendu, trouvé « trois »"),
    (lambda: DBM_CMM(6.0), "#mvb : nombre de 1 à 5 attendu, trouvé 6"),
    (lambda: DBM_VALUE(row(["O", "Q"]), 4.0), "#values, cellule 2 : code de classe"),
    (lambda: DBM_VALUE(row([None, ""]), 4.0), "#values : au moins une valeur"),
    (lambda: DBM_VALUE(row(["O"]), 0.0), f"#rounds : entier de 1 à {DBM_MAX_ROUNDS} attendu, trouvé 0"),
    (lambda: DBM_VALUE(row(["O"]), 4.5), f"#rounds : entier de 1 à {DBM_MAX_ROUNDS} attendu, trouvé 4,5"),
    # One bound for the rounds, the workbook's (xlcircuit.limits): 11 rounds is a typing mistake here too.
    (lambda: DBM_VALUE(row(["O"]), DBM_MAX_ROUNDS + 1.0),
     f"#rounds : entier de 1 à {DBM_MAX_ROUNDS} attendu, trouvé {DBM_MAX_ROUNDS + 1}"),
    (lambda: DBM_POINTS(120.0, 13.0, 12.0), "#place : entier de 1 à 12 attendu, trouvé 13"),
    (lambda: DBM_POINTS(120.0, 2.6, 12.0), "#place : entier de 1 à 12 attendu, trouvé 2,6"),
    (lambda: DBM_POINTS(120.0, 11.0, 12.0, 3.0), "#tied : entier de 1 à 2 attendu, trouvé 3"),
    (lambda: DBM_POINTS(-1.0, 1.0, 12.0), "#vft : nombre positif attendu, trouvé -1"),
    (lambda: DBM_POINTS(None, 1.0, 12.0), "#vft : nombre attendu, trouvé une cellule vide"),
    (lambda: DBM_REFEREE("#N/A"), "#vft : nombre attendu, trouvé « #N/A »"),
    (lambda: DBM_BEST4(row([10.0, "abs"])), "#results, cellule 2 : nombre attendu, trouvé « abs »"),
    (lambda: DBM_BEST4([[1.0, 2.0], [3.0]]), "#results : plage rectangulaire attendue"),
])  # fmt: skip
def test_bad_input_gives_a_message(call, message):
    out = call()
    assert isinstance(out, str) and out.startswith(message), out


@settings(max_examples=50)
@given(st.lists(st.one_of(st.none(), st.text(max_size=3), st.floats(allow_nan=True), st.booleans()), max_size=6))
def test_no_input_raises(cells):
    for function in FUNCTIONS:
        arguments = {DBM_VALUE: (row(cells), 4.0), DBM_BEST4: (row(cells),)}.get(function)
        if arguments is None:
            arguments = tuple((cells + [1.0, 1.0, 1.0])[:4]) if function is DBM_POINTS else (cells[0] if cells else None,)
        out = function(*arguments)
        assert isinstance(out, (float, str))
        if isinstance(out, str):
            assert out.startswith("#")
