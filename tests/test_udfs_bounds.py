"""Every Excel function, on any input Excel (or xlwings Lite) can pass, gives a value or a '#' message: never
a raised error, inf, nan or a long computation (issue 14). Hypothesis draws the cells: numbers of any size
(inf, nan, 1e308 included), texts, TRUE/FALSE, blanks as None, empty text or Pyodide's JsNull, in single
cells and in ranges up to the size limit; whole columns are refused at once.
"""

from __future__ import annotations

import importlib
import inspect
import math
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from xlcircuit.excel import udfs
from xlcircuit.excel.registry import FUNCTIONS


class JsNull:
    """What Pyodide >= 0.28 gives for JavaScript's null (xlwings Lite before xlwings 0.36.7): only its name counts."""

    def __repr__(self):
        return "jsnull"


FUNCTION = {entry.name: getattr(importlib.import_module(entry.module), entry.name) for entry in FUNCTIONS}
numbers = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.0, 1.0, 2.0, 3.0, 4.0, 7.0, 12.0, 100.0, 1e12, 1e15, 1e300, 1.7e308, -1e308, 2.5]),
    st.integers(-10**6, 10**6).map(float),
)
cells = st.one_of(numbers, st.sampled_from([None, "", "  ", JsNull(), True, False, "O", "S", "majeur", "en ligne",
                                            "organisateur", "x", "#N/A", "1"]), st.text(max_size=5))
ranges = st.one_of(
    st.lists(st.lists(cells, min_size=1, max_size=8).map(tuple), min_size=1, max_size=8).map(
        lambda rows: [list(r) + [None] * (max(map(len, rows)) - len(r)) for r in rows]),
    st.lists(cells, min_size=1, max_size=30).map(lambda column: [[c] for c in column]),
)
arguments = st.one_of(cells, ranges)


def finite_or_message(out) -> bool:
    if isinstance(out, str):
        return True  # a value (a tier) or a '#' message
    if isinstance(out, bool):
        return False
    if isinstance(out, (int, float)):
        return math.isfinite(out)
    if isinstance(out, list):
        return all(finite_or_message(v) for v in (out if not out or not isinstance(out[0], list)
                                                   else [c for row in out for c in row]))
    return False


@pytest.mark.parametrize("name", sorted(FUNCTION))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_input_gives_a_finite_value_or_a_message(name, data):
    function = FUNCTION[name]
    count = len(inspect.signature(function).parameters)
    required = sum(1 for p in inspect.signature(function).parameters.values() if p.default is inspect.Parameter.empty)
    args = data.draw(st.lists(arguments, min_size=required, max_size=count))
    started = time.perf_counter()
    out = function(*args)
    assert time.perf_counter() - started < 1.0, (name, args)
    assert finite_or_message(out), (name, args, out)
    if isinstance(out, str) and out.startswith("#"):
        assert "Traceback" not in out and "erreur interne" not in out, (name, args, out)


HUGE = [
    ("DBM_BEST4", [[[1e308] * 5]]),
    ("CDF_QUALIF", [[[1.7e308, 1.7e308, 1.7e308]]]),
    ("CDF_FINAL", [[[1.7e308, 1.7e308, 1.7e308, 1.7e308]], True, 1.7e308]),
    ("CDF_SIMUL", [1.7e308, 1.7e308]),
    ("TDF_SEASON", [[[1.7e308] * 6], [[None] * 6]]),
    ("ELO_EXPECTED", [1e308, -1e308]),
    ("DBM_REFEREE", [1e308]),
    ("DBM_POINTS", [1e308, 1.0, 2.0]),
]


@pytest.mark.parametrize("name, args", HUGE, ids=[h[0] for h in HUGE])
def test_huge_numbers_give_a_message(name, args):
    out = FUNCTION[name](*args)
    assert isinstance(out, str) and out.startswith("#") and "10^12" in out, out


@pytest.mark.parametrize("name", ["TDF_TOURNAMENT", "DBM_VALUE", "DBM_BEST4", "TDF_SEASON"])
def test_a_whole_column_is_refused_at_once(name):
    column = [[None]] * 1_048_576  # =F(B:B): every row of a sheet
    started = time.perf_counter()
    out = FUNCTION[name](*([column] * len(inspect.signature(FUNCTION[name]).parameters)))[:200]
    assert time.perf_counter() - started < 0.1
    assert out.startswith("#") and "100 000 cellules au plus" in out and "1 048 576" in out, out


def test_lite_shows_a_refused_input_as_an_excel_error(monkeypatch):
    """In xlwings Lite the reason is raised: Lite shows #VALUE! (#VALEUR!) with it as the cell's tip."""
    monkeypatch.setattr(udfs, "ERRORS", "error")
    with pytest.raises(udfs.CellError, match=r"^place : entier de 1 à 12 attendu, trouvé 0$"):
        FUNCTION["TDF_POINTS"](0.0, 12.0)
    assert FUNCTION["TDF_POINTS"](1.0, 21.0) == 1021.0  # good input: a value, as always
    monkeypatch.setattr(udfs, "ERRORS", "text")
    assert FUNCTION["TDF_POINTS"](0.0, 12.0) == "#place : entier de 1 à 12 attendu, trouvé 0"


@pytest.mark.parametrize("blank", [None, "", JsNull(), [[None]], [[JsNull()]], [[""]], [JsNull()]])
def test_a_blank_optional_argument_is_its_default(blank):
    assert FUNCTION["TDF_POINTS"](1.0, 21.0, blank, blank) == 1021.0
    assert FUNCTION["TORRES_VP"]([[115.0], [130.0], [123.0], [110.0]], blank) == [[2.0], [8.0], [4.0], [1.0]]
    assert FUNCTION["CDF_FINAL"]([[67.0, 30.0, 50.0, 20.0]], blank, blank) == pytest.approx(149.0)
    assert FUNCTION["TDF_TOURNAMENT"]([[1.0], [blank if not isinstance(blank, list) else None], [2.0]]) == \
        [[1002.0], [""], [100.0]]
