"""The registry of the Excel functions (xlcircuit.functions) against the code that implements them.

The examples' results are typed by hand in the registry; here they are checked against the
functions, called the way Excel calls them.
"""

from __future__ import annotations

import importlib
import inspect
import re
from decimal import Decimal

import pytest
from openpyxl.utils.cell import range_boundaries

from xlcircuit import udfs
from xlcircuit.excel import registry as functions
from xlcircuit.excel.registry import FEDERATIONS, FUNCTIONS

IDS = [entry.name for entry in FUNCTIONS]
#: Built-in Excel functions, in English and in a French Excel: an add-in function of the same name would
#: hide them or be hidden (a short list of common ones; POINTS, PASTIS or TDF_… are none of them).
EXCEL_BUILT_INS = {
    "SUM", "SOMME", "AVERAGE", "MOYENNE", "COUNT", "NB", "MIN", "MAX", "IF", "SI", "ROUND", "ARRONDI", "RANK",
    "RANG", "RANK.EQ", "EQUATION.RANG", "LARGE", "GRANDE.VALEUR", "SMALL", "PETITE.VALEUR", "SUMPRODUCT",
    "SOMMEPROD", "VLOOKUP", "RECHERCHEV", "INDEX", "MATCH", "EQUIV", "SORT", "TRIER", "FILTER", "FILTRE", "POWER",
    "PUISSANCE", "LOG", "LOG10", "EXP", "ABS", "INT", "ENT", "MOD", "SQRT", "RACINE", "TEXT", "TEXTE", "VALUE",
    "CNUM", "LEN", "NBCAR", "DATE", "TODAY", "AUJOURDHUI", "AND", "ET", "OR", "OU", "NOT", "NON", "TRUE", "VRAI",
    "FALSE", "FAUX", "SUMIF", "SOMME.SI", "COUNTIF", "NB.SI", "MEDIAN", "MEDIANE", "MODE", "PRODUCT", "PRODUIT",
    "CHOOSE", "CHOISIR", "N", "T", "TYPE",
}
REF = re.compile(r"[A-Z]{1,3}[0-9]+(:[A-Z]{1,3}[0-9]+)?")


def as_excel_passes(formula: str, separator: str, read) -> tuple[functions.Function, list]:
    """The registry entry and the arguments of ``=NAME(a; b)`` as xlwings passes them: numbers as
    floats, blanks as None, a range argument as a list of rows, a one-cell argument as its value.
    ``read(ref)`` gives a reference's cells as rows."""
    name, inner = formula.removeprefix("=").removesuffix(")").split("(", 1)
    entry = functions.function(name)
    arguments = []
    for text, argument in zip(inner.split(separator), entry.arguments):
        text = text.strip()
        if REF.fullmatch(text):
            rows = [[float(v) if type(v) is int else v for v in row] for row in read(text)]
            arguments.append(rows if argument.range else rows[0][0])
        else:
            arguments.append(float(text))
    return entry, arguments


def grid_reader(cells):
    """``read`` for an example's cells, laid from A1."""

    def cell(r: int, c: int):
        row = cells[r - 1] if r <= len(cells) else ()
        return row[c - 1] if c <= len(row) else None

    def read(ref: str) -> list[list]:
        first_column, first_row, last_column, last_row = range_boundaries(ref)
        return [[cell(r, c) for c in range(first_column, last_column + 1)] for r in range(first_row, last_row + 1)]

    return read


def example_arguments(entry: functions.Function) -> list:
    """The arguments of an entry's example, as Excel would pass them to the function."""
    parsed, arguments = as_excel_passes(entry.example.call, ";", grid_reader(entry.example.cells))
    assert parsed is entry
    return arguments


def rows_of(result) -> tuple[tuple, ...]:
    """An example's result as rows of cells (a single value is one row of one cell)."""
    return result if isinstance(result, tuple) else ((result,),)


def agrees(out, expected) -> bool:
    """A function's output against a hand-typed result (at most 3 decimals, so within 0.0005)."""
    if isinstance(expected, tuple):
        return (
            isinstance(out, list)
            and len(out) == len(expected)
            and all(isinstance(o, list) and len(o) == len(e) and all(map(agrees, o, e)) for o, e in zip(out, expected))
        )
    if isinstance(expected, (int, float)) and not isinstance(expected, bool):
        return isinstance(out, float) and out == pytest.approx(expected, abs=0.0005)
    return out == ("" if expected is None else expected)


# --- The registry itself --------------------------------------------------------------------------


def test_names_and_federations():
    names = [entry.name for entry in FUNCTIONS]
    assert len(set(names)) == len(names)
    codes = [federation.code for federation in FEDERATIONS]
    assert len(set(codes)) == len(codes)
    for entry in FUNCTIONS:
        assert entry.federation in codes, entry.name
        federation = next(f for f in FEDERATIONS if f.code == entry.federation)
        # the federation's prefix, or the name of one of its own scoring systems (cdf: PASTIS)
        assert re.fullmatch(rf"{entry.federation.upper()}_[A-Z0-9_]+", entry.name) or entry.name in \
            federation.own_names, entry.name
        assert entry.name not in EXCEL_BUILT_INS, entry.name  # it would clash with Excel's own function
        assert re.fullmatch(r"xlcircuit(\.\w+)*\.\w*udfs\w*", entry.module)  # only udfs modules import xlwings
    for federation in FEDERATIONS:
        assert functions.of_federation(federation.code), federation.code
        for name in federation.own_names:  # an own name is a function of the federation, in capitals
            assert re.fullmatch(r"[A-Z][A-Z0-9_]*", name) and name not in EXCEL_BUILT_INS, name
            assert functions.function(name).federation == federation.code, name
        assert 0 < len(federation.sheet) <= 31 and not set(federation.sheet) & set("[]:*?/\\")
    assert functions.modules() == ["xlcircuit.udfs"]
    with pytest.raises(KeyError):
        functions.function("SOMME")


@pytest.mark.parametrize("entry", FUNCTIONS, ids=IDS)
def test_descriptions_fit_the_function_wizard(entry):
    texts = [entry.description] + [argument.description for argument in entry.arguments]
    for text in texts:
        assert 0 < len(text) <= 255  # Excel's function wizard cuts there
        assert "\n" not in text and "|" not in text  # one line, and safe in a Markdown table
    for argument in entry.arguments:
        assert argument.description.startswith("Facultatif") == argument.optional


@pytest.mark.parametrize("entry", FUNCTIONS, ids=IDS)
def test_the_function_has_the_registry_arguments(entry):
    module = importlib.import_module(entry.module)
    assert entry.name in module.__all__
    parameters = list(inspect.signature(getattr(module, entry.name)).parameters.values())
    assert [p.name for p in parameters] == [a.name for a in entry.arguments]
    for parameter, argument in zip(parameters, entry.arguments):
        assert parameter.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD  # xlwings refuses keyword-only
        assert (parameter.default is not inspect.Parameter.empty) == argument.optional


def test_every_excel_function_is_registered():
    assert set(udfs.__all__) == {entry.name for entry in FUNCTIONS if entry.module == "xlcircuit.udfs"}


@pytest.mark.parametrize("entry", FUNCTIONS, ids=IDS)
def test_the_example_is_well_formed(entry):
    example = entry.example
    assert example.call.startswith(entry.name + "(") and example.call.endswith(")")
    assert "," not in example.call and '"' not in example.call  # becomes an English formula by ';' -> ','
    given = len(example.call.split(";"))
    assert sum(not a.optional for a in entry.arguments) <= given <= len(entry.arguments)
    results = rows_of(example.result)
    assert len({len(row) for row in results}) == 1
    for value in [v for row in results for v in row] + [v for row in example.cells for v in row]:
        if isinstance(value, float):
            assert Decimal(repr(value)).as_tuple().exponent >= -3  # as typed: 3 decimals at most
        if isinstance(value, str):
            assert not value.startswith("=")


@pytest.mark.parametrize("entry", FUNCTIONS, ids=IDS)
def test_the_example_computes_its_result(entry):
    function = getattr(importlib.import_module(entry.module), entry.name)
    out = function(*example_arguments(entry))
    assert agrees(out, entry.example.result), (out, entry.example.result)


def test_the_reader_passes_what_excel_passes():
    entry, arguments = as_excel_passes(
        "=TDF_SEASON(B1:F1, B2:F2)", ",", grid_reader((("points", 900, 700, None), ("types", "majeur")))
    )
    assert entry.name == "TDF_SEASON"
    assert arguments == [[[900.0, 700.0, None, None, None]], [["majeur", None, None, None, None]]]
    assert as_excel_passes("=TDF_POINTS(1; 12; 2)", ";", None)[1] == [1.0, 12.0, 2.0]
    assert not agrees(911.6, 911.565) and not agrees([[1.0]], ((1, 2),)) and agrees([[1.0, ""]], ((1, None),))
