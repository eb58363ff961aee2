"""The Excel functions' starter workbook (``xlcircuit excel init``): a macro-enabled workbook built from
xlwings' own quickstart template (Windows Excel with the xlwings add-in), one example sheet per federation,
made from the registry (:mod:`xlcircuit.excel.registry`). Sheets and texts are in French."""

from __future__ import annotations

from pathlib import Path

from openpyxl import load_workbook
from openpyxl.formula.translate import Translator
from openpyxl.styles import Font, PatternFill
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.formula import ArrayFormula

from ..rules.errors import XlcircuitError
from .registry import FEDERATIONS, Cell, Federation, Function, modules, of_federation

STARTER = "xlcircuit.xlsm"
#: xlwings reads its settings from a sheet of this name (the template's "_xlwings.conf" is inactive).
CONF_SHEET = "xlwings.conf"
UDF_MODULES = "UDF Modules"
#: Results and expected values alike: the registry's examples have at most 3 decimals.
NUMBER_FORMAT = "0.000"
_BOLD = Font(bold=True)
_EXPECTED = PatternFill("solid", fgColor="F2F2F2")



def _quickstart_template() -> Path:
    try:
        import xlwings
    except ImportError:
        raise XlcircuitError(
            "xlwings n'est pas installé : lancez pip install \"xlcircuit[excel]\", puis recommencez."
        ) from None
    template = Path(xlwings.__file__).parent / "quickstart.xlsm"
    if not template.is_file():
        raise XlcircuitError(f"Le modèle de xlwings est introuvable ({template}) : réinstallez xlwings.")
    return template


def _text(cell, value: str) -> None:
    """Text shown as typed, even one starting with '=' (a formula shown, not computed)."""
    cell.value = value
    cell.data_type = "s"
    cell.quotePrefix = True


def _put(cell, value: Cell) -> None:
    if isinstance(value, str):
        _text(cell, value)
    else:
        cell.value = value


def _put_example(ws, entry: Function, top: int) -> int:
    """One function's example from row ``top``: its cells, the formula as text, the formula
    beside the expected result. Returns the next free row."""
    example = entry.example
    ws.cell(top, 1, entry.name).font = _BOLD
    _text(ws.cell(top, 2), entry.description)
    for r, row in enumerate(example.cells, start=top + 1):
        for c, value in enumerate(row, start=1):
            _put(ws.cell(r, c), value)
    # The registry's call refers to cells from A1, here moved down under the title.
    english = Translator("=" + example.call.replace(";", ","), origin="A1").translate_formula(
        f"A{top + 1}"
    )
    line = top + 1 + len(example.cells)
    ws.cell(line, 1, "Formule").font = _BOLD
    _text(ws.cell(line, 2), english.replace(",", ";"))

    result = example.result if isinstance(example.result, tuple) else ((example.result,),)  # as rows
    rows, columns = len(result), len(result[0])
    header, first = line + 1, line + 2
    ws.cell(header, 2, "Résultat").font = _BOLD
    ws.cell(header, 2 + columns, "Attendu").font = _BOLD
    if rows * columns == 1:
        ws.cell(first, 2, english)
    else:  # a legacy array formula over the result's cells: spills in every Excel version
        corner = f"{get_column_letter(1 + columns)}{first + rows - 1}"
        ws.cell(first, 2).value = ArrayFormula(f"B{first}:{corner}", english)
    for r, row in enumerate(result):
        for c, value in enumerate(row):
            ws.cell(first + r, 2 + c).number_format = NUMBER_FORMAT
            expected = ws.cell(first + r, 2 + columns + c)
            _put(expected, value)
            expected.number_format = NUMBER_FORMAT
            expected.fill = _EXPECTED
    return first + rows + 1


def _put_federation(ws, federation: Federation) -> None:
    ws.title = federation.sheet
    ws["A1"] = f"Fonctions xlcircuit : {federation.name}"
    ws["A1"].font = Font(bold=True, size=14)
    ws["A2"] = ("Pour chaque fonction : ses données, sa formule en texte, puis « Résultat » (la formule "
                "elle-même) à côté de « Attendu » (ce qu'elle doit afficher).")
    ws["A3"] = ("#NOM? dans « Résultat » : onglet xlwings, Import Functions, puis Ctrl+Alt+F9 (recalcul complet ; "
                "ou Alt+F8, macro SampleCall) ; voir le README, « Dans Excel (Windows) ».")
    row = 5
    for entry in of_federation(federation.code):
        row = _put_example(ws, entry, row)
    ws.column_dimensions["A"].width = 16
    for column in range(2, 13):
        ws.column_dimensions[get_column_letter(column)].width = 13


def starter_workbook():
    """xlwings' quickstart workbook (its VBA project kept) with its settings sheet switched on,
    saying where the functions are, and one example sheet per federation."""
    wb = load_workbook(_quickstart_template(), keep_vba=True)
    conf = wb["_xlwings.conf"]
    conf.title = CONF_SHEET
    setting = next(row for row in conf.iter_rows(max_col=2) if row[0].value == UDF_MODULES)
    setting[1].value = ";".join(modules())
    first = wb.worksheets[0]  # the template's own sheet: its VBA document module stays in use
    for i, federation in enumerate(FEDERATIONS):
        ws = first if i == 0 else wb.create_sheet(index=wb.sheetnames.index(CONF_SHEET))
        _put_federation(ws, federation)
    wb.active = 0
    return wb
