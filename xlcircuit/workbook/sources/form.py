"""The one-sheet workbook a tournament's organiser fills and sends to the circuit's (``xlcircuit new
FED-tournoi FICHIER``): what is asked once (its tournament, date…) above a table of lines, every heading one
the import recognises, so that ``xlcircuit import`` takes the sheet without a question."""

from __future__ import annotations

import openpyxl
from openpyxl.styles import Alignment, Font
from openpyxl.utils import get_column_letter
from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.worksheet.table import Table, TableStyleInfo

from ..cells import put
from ..layout import PAPER_A4
from .mapping import Form

SHEET = "Résultats"
TABLE = "Envoi"
#: Empty lines of the table, ready to be typed into (more may be typed under it).
ROWS = 40
_FACTS_ROW = 4


def form_workbook(federation: str, form: Form, date_headers: tuple[str, ...] = ("Date",)) -> Workbook:
    """The submission workbook of ``form`` (``federation``: the federation's name, in its title)."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = SHEET
    put(ws["A1"], f"{federation} — {form.title}")
    ws["A1"].font = Font(bold=True, size=14)
    for row, text in enumerate(form.guide, start=2):
        put(ws.cell(row, 1), text)
        ws.cell(row, 1).font = Font(italic=True)
    first = _FACTS_ROW + max(0, len(form.guide) - 2)
    for offset, label in enumerate(form.facts):
        row = first + offset
        put(ws.cell(row, 1), label)
        ws.cell(row, 1).font = Font(bold=True)
        ws.cell(row, 2).alignment = Alignment(horizontal="left")
        if label in date_headers:
            ws.cell(row, 2).number_format = "dd/mm/yyyy"
        _choices(ws, form, label, f"B{row}")
    header = first + len(form.facts) + 1
    for col, heading in enumerate(form.columns, start=1):
        put(ws.cell(header, col), heading)
        letter = get_column_letter(col)
        ws.column_dimensions[letter].width = form.widths.get(heading, 16 if col > 1 else 18)
        _choices(ws, form, heading, f"{letter}{header + 1}:{letter}{header + ROWS}")
    last = get_column_letter(len(form.columns))
    ws.add_table(Table(displayName=TABLE, ref=f"A{header}:{last}{header + ROWS}",
                       tableStyleInfo=TableStyleInfo(name="TableStyleMedium2", showRowStripes=True)))
    ws.freeze_panes = ws.cell(header + 1, 1)
    ws.page_setup.paperSize = PAPER_A4
    ws.page_setup.orientation = "portrait"
    ws.page_setup.fitToWidth, ws.page_setup.fitToHeight = 1, 0
    ws.sheet_properties.pageSetUpPr.fitToPage = True
    ws.print_title_rows = f"{header}:{header}"
    return wb


def _choices(ws, form: Form, heading: str, where: str) -> None:
    choices = form.choices.get(heading)
    if choices:
        rule = DataValidation(type="list", formula1='"' + ",".join(choices) + '"', allow_blank=True,
                              showErrorMessage=False)
        rule.add(where)
        ws.add_data_validation(rule)
