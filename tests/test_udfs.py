"""The Excel functions (xlcircuit.udfs), called the way Excel calls them.

Expected values are typed by hand from docs/regles/tdf.md; nothing here asks the core.
Excel passes every number as a float, blanks as None, one cell as a scalar and, for ndim=2
arguments, every range as a list of rows.
"""

from __future__ import annotations

import importlib.util
import inspect
import sys
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from xlcircuit import udfs
from xlcircuit.excel import registry as functions
from xlcircuit.udfs import TDF_POINTS, TDF_SEASON, TDF_TOURNAMENT, TDF_WEIGHTS

FUNCTIONS = [TDF_POINTS, TDF_TOURNAMENT, TDF_SEASON, TDF_WEIGHTS]
SOURCE = Path(udfs.__file__).parent / "excel" / "udfs.py"  # the shim xlcircuit.udfs re-exports it


def shown(x):
    """Displayed the way the federation does: rounded half up to a whole number."""
    return int(Decimal(repr(x)).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def column(values):
    return [[v] for v in values]


def flat(grid):
    return [cell for row in grid for cell in row]


# --- §1 worked examples ------------------------------------------------------------------------

EXAMPLE_1 = [1021, 891, 794, 708, 631, 562, 501, 447, 398, 355, 316,
             282, 251, 224, 200, 178, 158, 141, 126, 112, 100]  # fmt: skip


def test_example_1_column_of_21_places():
    out = TDF_TOURNAMENT(column([float(p) for p in range(1, 22)]))
    assert [len(row) for row in out] == [1] * 21
    assert [shown(v) for v in flat(out)] == EXAMPLE_1
    assert flat(out)[0] == 1021.0
    assert flat(out)[-1] == 100.0  # exactly: closed form, no drift
    assert flat(out)[1] == pytest.approx(891.251, abs=1e-3)
    assert flat(out)[2] == pytest.approx(794.328, abs=1e-3)


def test_example_1_with_non_playing_organiser_and_blank():
    places = [float(p) for p in range(1, 22)] + ["Organisateur", None]
    out = flat(TDF_TOURNAMENT(column(places)))
    assert [shown(v) for v in out[:21]] == EXAMPLE_1  # the organiser does not count in x
    assert out[21] == 100.0
    assert out[22] == ""


def test_example_2_ties():
    places = [1, 1, 3, 4, 5, 6, 7, 8, 9, 9, 9, 9]
    out = flat(TDF_TOURNAMENT(column([float(p) for p in places])))
    assert [shown(v) for v in out] == [912, 912, 658, 534, 433, 351, 285, 231, 141, 141, 141, 141]
    assert out[0] == pytest.approx(911.5654, abs=1e-4)
    assert out[0] == out[1] and len(set(out[8:])) == 1


def test_points_of_one_player():
    assert TDF_POINTS(1.0, 12.0, 2.0) == pytest.approx(911.5654, abs=1e-4)
    assert TDF_POINTS(1, 12, 2) == pytest.approx(911.5654, abs=1e-4)
    assert TDF_POINTS(1.0, 21.0) == 1021.0
    assert TDF_POINTS(21.0, 21.0) == 100.0
    assert TDF_POINTS(2.0, 21.0) == pytest.approx(891.251, abs=1e-3)
    assert shown(TDF_POINTS(9.0, 12.0, 4.0)) == 141
    assert TDF_POINTS(1.0, 1.0) == 1001.0  # x = 1: 1000 + 1


def test_points_interrupted_has_no_winner_bonus():
    assert TDF_POINTS(1.0, 21.0, 1.0, True) == 1000.0
    assert TDF_POINTS(1.0, 21.0, None, True) == 1000.0  # blank tie size: 1
    assert TDF_POINTS(1.0, 12.0, 2.0, True) == pytest.approx(905.5654, abs=1e-4)
    assert TDF_POINTS(1.0, 21.0, 1.0, None) == 1021.0  # blank flag: not interrupted
    assert TDF_POINTS(1.0, 21.0, 1.0, 0.0) == 1021.0
    assert TDF_TOURNAMENT([[1.0], [2.0]], True) == [[1000.0], [100.0]]
    assert TDF_TOURNAMENT([[1.0], [2.0]], False) == [[1002.0], [100.0]]


@pytest.mark.parametrize(
    "text",
    ["organisateur", "Organisateur", " ORGANISATEUR ", "aide", "Aide"],
)
def test_role_text_gives_100(text):
    out = TDF_TOURNAMENT([[1.0], [text], [2.0]])
    assert out == [[1002.0], [100.0], [100.0]]


@pytest.mark.parametrize("text", ["annulé", "Annulé", "annule", "  ANNULE\u00a0"])
def test_cancelled_gives_100_only_in_a_cancelled_tournament(text):
    # tdf.md §1 / source: « En cas d'annulation d'un tournoi au dernier moment …, les joueurs présents sur place
    # marquent aussi 100 points »: a cancelled tournament has no places (the batch mode refuses them too).
    assert TDF_TOURNAMENT([[text], [text]]) == [[100.0], [100.0]]
    out = TDF_TOURNAMENT([[1.0], [text], [2.0]])
    assert isinstance(out, str) and out.startswith("#un tournoi annulé n'a pas de classement")


def test_vacant_place_closes_up():
    out = flat(TDF_TOURNAMENT(column([1.0, 2.0, 4.0])))
    assert out[0] == 1003.0
    assert out[1] == pytest.approx(316.2278, abs=1e-4)  # 1000 / sqrt(10)
    assert out[2] == 100.0


def test_blanks_give_blanks():
    assert TDF_TOURNAMENT([[None], [""], ["   "], [1.0]]) == [[""], [""], [""], [1001.0]]
    assert TDF_TOURNAMENT([[None]]) == [[""]]
    assert TDF_TOURNAMENT(None) == ""


# --- Input shapes Excel sends --------------------------------------------------------------------


def test_tournament_shapes():
    assert TDF_TOURNAMENT(1.0) == 1001.0  # scalar in, scalar out
    assert TDF_TOURNAMENT([[1.0]]) == [[1001.0]]
    assert TDF_TOURNAMENT([[1.0, 2.0, None]]) == [[1002.0, 100.0, ""]]  # row stays a row
    assert TDF_TOURNAMENT([[1.0], [2.0], [None]]) == [[1002.0], [100.0], [""]]  # column stays a column
    assert TDF_TOURNAMENT([1.0, 2.0, None]) == [1002.0, 100.0, ""]  # flat list (no ndim)
    block = TDF_TOURNAMENT([[1.0, 2.0], [None, 3.0], ["aide", 4.0]])
    assert [len(row) for row in block] == [2, 2, 2]
    assert block[1][0] == "" and block[2][0] == 100.0
    assert block[0][0] == 1004.0 and block[2][1] == 100.0


def test_float_and_int_places_agree():
    assert TDF_TOURNAMENT([[1.0], [1.0], [3.0]]) == TDF_TOURNAMENT([[1], [1], [3]])


def test_single_cell_ranges_are_taken_as_cells():
    assert TDF_POINTS([[1.0]], [[12.0]], [2.0]) == pytest.approx(911.5654, abs=1e-4)
    assert TDF_POINTS(1.0, 21.0, 1.0, [[True]]) == 1000.0


# --- §2 season vectors ---------------------------------------------------------------------------

SEASONS = [
    ([700, 500, 300, 200, 100, 50], [None] * 6, 1275),
    ([900, 700, 500, 300, 800], ["majeur", None, "", "normal", "en ligne"], 2320),
    ([150, 900], [None, "en ligne"], 870),
    ([150, 120, 900], ["", "", "En Ligne"], 870),
    ([1000, 600, 400, 900, 500], ["Majeur", None, None, "en ligne", "en ligne"], 2520),
]


@pytest.mark.parametrize("points, kinds, total", SEASONS)
def test_season_vectors(points, kinds, total):
    floats = [float(p) for p in points]
    assert TDF_SEASON([floats], [kinds]) == pytest.approx(total)  # a row
    assert TDF_SEASON(column(floats), column(kinds)) == pytest.approx(total)  # a column
    assert TDF_SEASON(floats, kinds) == pytest.approx(total)  # flat lists


@pytest.mark.parametrize("points, kinds, total", SEASONS)
def test_season_skips_tournaments_not_played(points, kinds, total):
    row = [None, *points[:2], None, *points[2:], ""]
    types = ["majeur", *kinds[:2], "en ligne", *kinds[2:], None]
    assert TDF_SEASON([row], [types]) == pytest.approx(total)


def test_weights_of_the_2320_case():
    points = [[900.0, 700.0, 500.0, 300.0, 800.0]]
    kinds = [["majeur", None, None, None, "en ligne"]]
    out = TDF_WEIGHTS(points, kinds)
    assert len(out) == 1
    assert out[0] == pytest.approx([1, 1, 0.8, 0, 0.4])  # the 300 is set aside
    out = TDF_WEIGHTS(column(points[0]), column(kinds[0]))
    assert [len(row) for row in out] == [1] * 5
    assert flat(out) == pytest.approx([1, 1, 0.8, 0, 0.4])


def test_weights_blank_where_not_played():
    out = TDF_WEIGHTS([[None, 150.0, "", 900.0]], [["majeur", None, None, "en ligne"]])
    assert out == [["", 1.0, "", pytest.approx(0.8)]]
    assert TDF_WEIGHTS(None, None) == ""
    assert TDF_SEASON(None, None) == 0.0


def test_season_of_one_cell():
    assert TDF_SEASON(500.0, None) == 500.0
    assert TDF_SEASON([[500.0]], [["en ligne"]]) == pytest.approx(400.0)
    assert TDF_WEIGHTS(500.0, "en ligne") == pytest.approx(0.8)


def test_majeur_en_ligne_counts_as_major():
    assert TDF_SEASON([[600.0, 500.0]], [["majeur en ligne", "Majeur en ligne"]]) == 1100.0


def test_season_and_weights_of_a_block():
    """A 2-D block is read row by row; the weights come back in the same block."""
    points = [[900.0, 700.0, 500.0], [300.0, 800.0, None]]
    kinds = [["majeur", None, ""], ["normal", "en ligne", None]]
    assert TDF_SEASON(points, kinds) == pytest.approx(2320)
    assert TDF_WEIGHTS(points, kinds) == [[1.0, 1.0, pytest.approx(0.8)], [0.0, pytest.approx(0.4), ""]]


# --- Bad input: a '#' message, never an exception --------------------------------------------------

BAD = [
    # TDF_POINTS
    (TDF_POINTS, (0.0, 21.0), "#place : entier de 1 à 21 attendu, trouvé 0"),
    (TDF_POINTS, (22.0, 21.0), "#place : entier de 1 à 21 attendu, trouvé 22"),
    (TDF_POINTS, (2.6, 21.0), "#place : entier de 1 à 21 attendu, trouvé 2,6"),
    (TDF_POINTS, (-1.0, 21.0), "#place"),
    (TDF_POINTS, ("trois", 21.0), "#place"),
    (TDF_POINTS, ("3er", 21.0), "#place : entier de 1 à 21 attendu, trouvé « 3er »"),  # « er » is the 1st's
    (TDF_POINTS, ("22e", 21.0), "#place : entier de 1 à 21 attendu, trouvé « 22e »"),
    (TDF_TOURNAMENT, ([["1er"], ["0e"]],), "#places, cellule 2 : entier ≥ 1 attendu, trouvé « 0e »"),
    (TDF_TOURNAMENT, ([["1er"], ["2nde place"]],), "#places, cellule 2 : place ou organisateur"),
    (TDF_POINTS, (None, 21.0), "#place : entier de 1 à 21 attendu, trouvé une cellule vide"),
    (TDF_POINTS, (True, 21.0), "#place"),
    (TDF_POINTS, (float("nan"), 21.0), "#place"),
    (TDF_POINTS, ([[1.0, 2.0]], 21.0), "#place : une seule cellule attendue, trouvé une plage de 2"),
    (TDF_POINTS, (1.0, 0.0), "#n"),
    (TDF_POINTS, (1.0, -3.0), "#n"),
    (TDF_POINTS, (1.0, 12.5), "#n"),
    (TDF_POINTS, (1.0, None), "#n"),
    (TDF_POINTS, (1.0, "douze"), "#n"),
    (TDF_POINTS, (1.0, float("inf")), "#n"),
    (TDF_POINTS, (1.0, 1e12), "#n"),
    (TDF_POINTS, (1.0, 12.0, 0.0), "#tied"),
    (TDF_POINTS, (1.0, 12.0, -2.0), "#tied"),
    (TDF_POINTS, (1.0, 12.0, 1.5), "#tied"),
    (TDF_POINTS, (1.0, 12.0, "deux"), "#tied"),
    (TDF_POINTS, (11.0, 12.0, 3.0), "#"),  # three tied at 11th among 12: past the last place
    (TDF_POINTS, (1.0, 12.0, 1.0, "oui"), "#interrupted"),
    (TDF_POINTS, (1.0, 12.0, 1.0, 2.0), "#interrupted"),
    # TDF_TOURNAMENT
    (TDF_TOURNAMENT, ([[1.0], [0.0]],), "#places, cellule 2 : entier ≥ 1 attendu, trouvé 0"),
    (TDF_TOURNAMENT, ([[1.0], [2.6]],), "#places, cellule 2 : entier ≥ 1 attendu, trouvé 2,6"),
    (TDF_TOURNAMENT, ([[1.0], [-1.0]],), "#places, cellule 2"),
    (TDF_TOURNAMENT, ([[1.0], ["joueur"]],), "#places, cellule 2"),
    (TDF_TOURNAMENT, ([[1.0], ["Joueur "]],), "#places, cellule 2"),
    (TDF_TOURNAMENT, ([[1.0], ["arbitre"]],), "#places, cellule 2"),
    (TDF_TOURNAMENT, ([[1.0], ["#N/A"]],), "#places, cellule 2"),  # an error cell (err_to_str)
    (TDF_TOURNAMENT, ([[1.0, 2.0], [True, 3.0]],), "#places, cellule 3"),
    (TDF_TOURNAMENT, ([[1.0], [2.0, 3.0]],), "#places"),  # ragged
    (TDF_TOURNAMENT, ([[1.0], 2.0],), "#places"),
    (TDF_TOURNAMENT, ([[1.0]], "oui"), "#interrupted"),
    # TDF_SEASON and TDF_WEIGHTS share their inputs
    (TDF_SEASON, ([[100.0, 200.0]], [["majeur"]]), "#points et kinds"),
    (TDF_SEASON, ([[100.0]], [["majeur", None]]), "#points et kinds"),
    (TDF_SEASON, ([[100.0, 200.0]], [["majeur", "mondial"]]), "#kinds, cellule 2"),
    (TDF_SEASON, ([[100.0, None]], [["majeur", "mondial"]]), "#kinds, cellule 2"),
    (TDF_SEASON, ([[100.0, "beaucoup"]], [[None, None]]), "#points, cellule 2 : nombre attendu"),
    (TDF_SEASON, ([[100.0, True]], [[None, None]]), "#points, cellule 2"),
    (TDF_SEASON, ([[100.0, float("nan")]], [[None, None]]), "#points, cellule 2"),
    (TDF_SEASON, ([[1.0], [2.0, 3.0]], [[None], [None]]), "#points"),
    (TDF_SEASON, ([[1.0], [2.0]], [[None], [None, None]]), "#kinds"),
    (TDF_WEIGHTS, ([[100.0, 200.0]], [["majeur"]]), "#points et kinds"),
    (TDF_WEIGHTS, ([[100.0, 200.0]], [["majeur", 3.0]]),
     "#kinds, cellule 2 : type normal, majeur, en ligne, majeur en ligne attendu, trouvé 3"),
    (TDF_WEIGHTS, ([[100.0, 200.0]], [["majeur", True]]), "#kinds, cellule 2"),
    (TDF_WEIGHTS, ([[100.0, "x"]], [[None, None]]), "#points, cellule 2"),
]


@pytest.mark.parametrize("function, args, start", BAD, ids=[f"{f.__name__}-{i}" for i, (f, _, _) in enumerate(BAD)])
def test_bad_input_gives_a_message(function, args, start):
    out = function(*args)
    assert isinstance(out, str)
    assert out.startswith(start)
    assert out.startswith("#") and "\n" not in out and len(out) <= 255
    assert "Traceback" not in out and "erreur interne" not in out


# --- Properties ------------------------------------------------------------------------------------

def grids(width):
    return st.lists(st.lists(place_cells, min_size=width, max_size=width), min_size=1, max_size=8)


place_cells = st.one_of(
    st.integers(1, 30).map(float),
    st.none(),
    st.just(""),
    st.sampled_from(["organisateur", "Aide"]),  # « annulé » only without places (test above)
)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 6).flatmap(lambda w: grids(w)))
def test_tournament_keeps_shape_and_blanks(grid):
    out = TDF_TOURNAMENT(grid)
    assert [len(row) for row in out] == [len(row) for row in grid]
    for cell, value in zip(flat(grid), flat(out)):
        if cell is None or cell == "":
            assert value == ""
        elif isinstance(cell, str):
            assert value == 100.0
        else:
            assert isinstance(value, float) and 100.0 <= value <= 1030.0


played = st.tuples(
    st.one_of(st.none(), st.floats(100, 1100)),
    st.sampled_from([None, "", "normal", "majeur", "en ligne", "Majeur en ligne"]),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(played, max_size=12))
def test_weights_explain_the_season_total(pairs):
    points = [[p for p, _ in pairs]]
    kinds = [[k for _, k in pairs]]
    weights = TDF_WEIGHTS(points, kinds)
    total = TDF_SEASON(points, kinds)
    assert isinstance(total, float)
    assert sum(p * w for p, w in zip(points[0], weights[0]) if p is not None) == pytest.approx(total)
    assert all((w == "") == (p is None) for p, w in zip(points[0], weights[0]))
    assert all(w == "" or 0 <= w <= 1 for w in weights[0])


#: Every registered Excel function, of every federation.
ALL_FUNCTIONS = [getattr(udfs, entry.name) for entry in functions.FUNCTIONS]

junk = st.recursive(
    st.one_of(
        st.none(), st.booleans(), st.floats(allow_nan=True, allow_infinity=True),
        st.integers(-10**6, 10**6), st.text(max_size=12),
        st.sampled_from(["organisateur", "majeur", "en ligne", "joueur", "#N/A", "Or", "1000"]),
    ),
    lambda inner: st.lists(inner, max_size=4),
    max_leaves=12,
)  # fmt: skip


@settings(max_examples=1000, deadline=None)
@given(st.sampled_from(ALL_FUNCTIONS), st.lists(junk, min_size=1, max_size=4))
def test_never_raises_whatever_the_cells(function, args):
    """Any function, any cells (blanks, errors, text, ranges): a value or a « #… » message, never an exception."""
    arity = len(inspect.signature(function).parameters)
    out = function(*(args + [None] * arity)[:arity])
    if isinstance(out, str) and out.startswith("#"):
        assert "erreur interne" not in out


# --- What xlwings needs to register the functions ------------------------------------------------


@pytest.mark.parametrize("function", FUNCTIONS, ids=lambda f: f.__name__)
def test_excel_description_and_signature(function):
    doc = function.__doc__
    assert doc == functions.function(function.__name__).description  # the function wizard's text
    assert "\n" not in doc.strip() and len(doc) <= 255
    for parameter in inspect.signature(function).parameters.values():
        assert parameter.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD  # no keyword-only, no **kwargs
    # A type hint would become an xlwings converter on Windows.
    assert not function.__annotations__


@pytest.fixture
def windows_xlwings(monkeypatch):
    """xlwings' real Windows decorators, with pywin32 stubbed, as an ``xw`` module stand-in."""
    for name in ("pythoncom", "pywintypes", "win32com", "win32com.client"):
        monkeypatch.setitem(sys.modules, name, mock.MagicMock(name=name))
    import xlwings

    monkeypatch.setattr(xlwings, "udfs", None, raising=False)
    monkeypatch.delitem(sys.modules, "xlwings.udfs", raising=False)
    try:
        import xlwings.udfs as windows
    except Exception as error:  # pragma: no cover - another xlwings version
        pytest.skip(f"xlwings.udfs not importable here: {error}")
    finally:
        sys.modules.pop("xlwings.udfs", None)
    stand_in = mock.Mock(func=windows.xlfunc, arg=windows.xlarg, ret=windows.xlret)
    monkeypatch.setitem(sys.modules, "xlwings", stand_in)
    return windows


def test_registers_with_the_windows_decorators(windows_xlwings, monkeypatch):
    spec = importlib.util.spec_from_file_location("xlcircuit.excel._udfs_on_windows", SOURCE)
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)
    spec.loader.exec_module(module)
    ranges = {"places", "points", "kinds"}  # typed here, not read from the registry
    for name in ("TDF_POINTS", "TDF_TOURNAMENT", "TDF_SEASON", "TDF_WEIGHTS"):
        info = getattr(module, name).__xlfunc__
        windows_xlwings.func_sig(getattr(module, name))  # raises on keyword-only arguments
        entry = functions.function(name)
        assert info["category"] == "xlcircuit"
        assert info["ret"]["doc"] == entry.description
        assert [arg["name"] for arg in info["args"]] == [a.name for a in entry.arguments]
        for arg, declared in zip(info["args"], entry.arguments):
            assert arg["doc"] == declared.description
            assert 0 < len(arg["doc"]) <= 255
            assert arg["options"].get("err_to_str") is True
            assert "numbers" not in arg["options"]  # would round 2.6 to 3
            assert (arg["options"].get("ndim") == 2) == (arg["name"] in ranges)
    assert module.TDF_POINTS(1.0, 12.0, 2.0) == pytest.approx(911.5654, abs=1e-4)


def test_a_huge_number_is_shown_short_in_the_message():
    message = udfs.TDF_POINTS(1e300, 10)
    assert message.startswith("#place") and "1e+300" in message and len(message) < 80


def test_a_doublon_is_typed_doublon_or_left_blank_and_the_people_behind_move_up():
    """§1 « doublon »: A 1, B 2, A 3, C 4 has three classified people; the function takes no names, so A's
    second line is typed « doublon » (or left blank): A 1000 + 3, B 1000 / 10^(1/2) = 316.228, C 100."""
    for second in ("doublon", "Doublon", None):
        out = flat(TDF_TOURNAMENT(column([1.0, 2.0, second, 4.0])))
        assert out[0] == 1003 and out[1] == pytest.approx(316.228, abs=1e-3) and out[2] == "" and out[3] == 100
    doc = functions.function("TDF_TOURNAMENT")
    assert "doublon" in doc.arguments[0].description and any("A 1003, B 316,228" in note for note in doc.notes)


# --- Places typed as a fill reads them: « 1er », « 2e », « 3ème » (rules.text.place_number) -------------

ORDINALS_1 = ["1er", "2e", "3ème", "4eme", "5e"] + [f"{p}e" for p in range(6, 22)]


def test_example_1_typed_in_ordinals():
    """tdf-reglement « Exemple 1 », its places typed as the source prints them (1er, 2e…): the same points."""
    out = flat(TDF_TOURNAMENT(column(ORDINALS_1)))
    assert [shown(v) for v in out] == EXAMPLE_1
    assert out[0] == 1021.0 and out[-1] == 100.0


@pytest.mark.parametrize("typed, place", [
    ("1er", 1), ("1re", 1), ("1ère", 1), ("1ere", 1), ("1 er", 1), ("2nd", 2), ("2nde", 2), ("2e", 2),
    ("3ème", 3), ("3EME", 3), (" 4e ", 4), ("1ᵉʳ", 1), ("3", 3), ("3,0", 3),
])
def test_a_place_typed_as_text_is_the_number_a_fill_reads(typed, place):
    from xlcircuit.workbook.cells import as_positive_int

    assert as_positive_int(typed) == place  # what a fill reads
    assert TDF_POINTS(typed, 12.0) == TDF_POINTS(float(place), 12.0)
    assert udfs.DBM_POINTS(120.0, typed, 12.0) == udfs.DBM_POINTS(120.0, float(place), 12.0)
    places = [1.0, 2.0, 3.0, 4.0]
    places[place - 1] = typed
    assert TDF_TOURNAMENT(column(places)) == TDF_TOURNAMENT(column([1.0, 2.0, 3.0, 4.0]))


def test_the_issue_s_ordinals_and_doublon():
    """Issue 23: « 1er », « 2e », « 3ème » gave #N/A and the 4th 1011 points. Example 2 of the source (12
    players, two tied 1st, four tied 9th) typed in ordinals: 912 912 658 534 433 351 285 231 141 141 141 141."""
    places = ["1er", "1er", "3ème", "4e", "5e", "6e", "7e", "8e", "9e", "9e", "9e", "9e"]
    assert [shown(v) for v in flat(TDF_TOURNAMENT(column(places)))] == [
        912, 912, 658, 534, 433, 351, 285, 231, 141, 141, 141, 141]
    # A 1er, B 2e, A 3e (doublon), C 4e: A 1000 + 3, B 1000 / 10^(1/2) = 316.228, C 100.
    out = flat(TDF_TOURNAMENT(column(["1er", "2e", "doublon", "4e"])))
    assert out[0] == 1003 and out[1] == pytest.approx(316.228, abs=1e-3) and out[2] == "" and out[3] == 100
    doc = functions.function("TDF_TOURNAMENT")
    assert not any("refusés" in note for note in doc.notes) and any("« 1er »" in note for note in doc.notes)
