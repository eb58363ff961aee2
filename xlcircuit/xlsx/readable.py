"""What openpyxl reads back. A fill copies the organiser's sheets as they are and rewrites its own through
openpyxl: the filled workbook must open again (in openpyxl, as in Excel), so what openpyxl reads strictly is
checked before anything is written, and a sheet that would not open again is one sentence.

- A sheet copied as it is (:func:`copied_sheet_problem`): its rows and cells by byte searches (sheets are large),
  a row number, a cell reference, a style index, a type, a number, a shared string each as openpyxl reads them;
  everything else in the sheet (columns, sheet format, views, merged cells, conditional formats...) and the
  distinct row tags by openpyxl's own sheet reader.
- A sheet rewritten (:func:`rewritten_sheet_problem`): no number openpyxl reads but writes back empty (infinite,
  not a number: ``defaultRowHeight="1e400"``).
"""

from __future__ import annotations

import io
import math
import re
import warnings

from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet._reader import WorksheetReader
from openpyxl.worksheet.worksheet import Worksheet

_P = rb"(?:[\w.-]+:)?"  # an optional namespace prefix
_SHEET_DATA = re.compile(rb"<(" + _P + rb")sheetData\b[^>]*?(/?)>")
_ROW_R = re.compile(rb"(<" + _P + rb"row\b[^>]*?)\sr\s*=\s*([\"'])[^\"']*\2")
_ROW_TAG = re.compile(rb"<" + _P + rb"row\b[^>]*?(?<!/)>|<" + _P + rb"row\b[^>]*?/>")
_CELL_ATTR = rb"<" + _P + rb"c(?=\s)[^>]*?\s%s\s*=\s*([\"'])"
#: A cell attribute openpyxl would not read: each pattern finds the first, at C speed.
_BAD = {
    "une ligne a pour numéro": re.compile(rb"<" + _P + rb"row(?=\s)[^>]*?\sr\s*=\s*([\"'])(?!\s*\d{1,7}\s*\1)"),
    "une cellule a pour référence": re.compile(_CELL_ATTR % rb"r" + rb"(?!\$?[A-Za-z]{1,3}\$?\d{1,7}\1)"),
    "une cellule a pour style": re.compile(_CELL_ATTR % rb"s" + rb"(?!\s*\d{1,9}\s*\1)"),
    "une cellule a pour type": re.compile(_CELL_ATTR % rb"t" + rb"(?!(?:n|s|b|e|str|inlineStr|d)\1)"),
    "un nombre vaut": re.compile(rb"<" + _P + rb"c(?=[\s>])(?:(?!\st\s*=)[^>])*?(?<!/)>\s*<" + _P + rb"v>"
                                 rb"(?!\s*[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?\s*<)"),
    "une valeur logique vaut": re.compile(_CELL_ATTR % rb"t" + rb"b\1[^>]*?(?<!/)>\s*<" + _P + rb"v>"
                                          rb"(?!\s*[-+]?\d+\s*<)"),
    "une chaîne partagée a pour numéro": re.compile(_CELL_ATTR % rb"t" + rb"s\1[^>]*?(?<!/)>\s*<" + _P + rb"v>"
                                                    rb"(?!\s*\d{1,9}\s*<)"),
}
_STYLE = re.compile(_CELL_ATTR % rb"s" + rb"\s*(\d+)")
_SHARED = re.compile(_CELL_ATTR % rb"t" + rb"s\1[^>]*?(?<!/)>\s*<" + _P + rb"v>\s*(\d+)")
_DATE = re.compile(_CELL_ATTR % rb"t" + rb"d\1[^>]*?(?<!/)>\s*<" + _P + rb"v>([^<]*)<")


def copied_sheet_problem(xml: bytes, wb: Workbook, strings: int) -> str | None:
    """What in a sheet copied as it is openpyxl would not read back (in French), or None. ``wb`` is the model
    loaded for the fill (its styles), ``strings`` the count of shared strings."""
    start = _SHEET_DATA.search(xml)
    if start is None or start.group(2):
        data, head, tail = b"", xml, b""
    else:
        end = xml.find(b"</" + start.group(1) + b"sheetData", start.end())
        if end < 0:
            return "la feuille n'a pas de fin"
        data, head, tail = xml[start.end():end], xml[:start.end()], xml[end:]
    for what, pattern in _BAD.items():
        found = pattern.search(data)
        if found is not None:
            return f"{what} « {_shown(data, found.end())} »"
    styles = {int(s) for _, s in _STYLE.findall(data)}
    if styles and max(styles) >= len(wb._cell_styles):
        return f"une cellule a pour style n° {max(styles)}, absent des styles"
    shared = {int(s) for _, s in _SHARED.findall(data)}
    if shared and max(shared) >= strings:
        return f"une cellule renvoie à la chaîne partagée n° {max(shared)}, qui n'existe pas"
    rows = set(_ROW_TAG.findall(_ROW_R.sub(rb"\1", data)))
    dates = {value for _, value in _DATE.findall(data)}
    sample = b"".join(tag if tag.endswith(b"/>") else tag[:-1] + b"/>" for tag in sorted(rows))
    sample += b"".join(b'<row><c t="d"><v>' + value + b"</v></c></row>" for value in sorted(dates))
    return _read_by_openpyxl(head + sample + tail if start is not None and not start.group(2) else xml, wb)


def _read_by_openpyxl(xml: bytes, wb: Workbook) -> str | None:
    """openpyxl's sheet reader over ``xml`` (the sheet without its cells), into a sheet of ``wb`` not added."""
    ws = Worksheet(wb)
    reader = WorksheetReader(ws, io.BytesIO(xml), [], False, False)
    try:
        with warnings.catch_warnings():  # openpyxl warns, in English, of what it drops: the sheet is copied as it is
            warnings.simplefilter("ignore")
            reader.bind_cells()
            reader.bind_merged_cells()
            reader.bind_formatting()
            reader.bind_col_dimensions()
            reader.bind_row_dimensions()
            reader.bind_properties()
    except Exception as exc:  # openpyxl's readers raise anything on a value they do not expect
        return f"valeur illisible : {str(exc)[:60] or type(exc).__name__}"
    return rewritten_sheet_problem(ws)


def rewritten_sheet_problem(ws: Worksheet) -> str | None:
    """A number in a sheet openpyxl writes as nothing (infinite, not a number), in French, or None."""
    for name, owner in (("sheetFormatPr", ws.sheet_format), ("sheetPr", ws.sheet_properties),
                        ("pageMargins", ws.page_margins), ("pageSetup", ws.page_setup), ("sheetView", ws.views),
                        ("col", list(ws.column_dimensions.values())), ("row", list(ws.row_dimensions.values()))):
        attribute = _non_finite(owner, 0)
        if attribute is not None:
            return f"nombre hors limites dans {name} ({attribute})"
    for cell in ws._cells.values():
        value = cell._value
        if isinstance(value, float) and not math.isfinite(value):
            return f"nombre hors limites en {cell.coordinate}"
    return None


def _non_finite(obj: object, depth: int) -> str | None:
    """The name of an attribute of ``obj`` (openpyxl's model, walked a few levels) holding an infinite number."""
    if isinstance(obj, (list, tuple)):
        return next((found for item in obj if (found := _non_finite(item, depth)) is not None), None)
    if depth > 4:
        return None
    names = [*getattr(obj, "__attrs__", ()), *getattr(obj, "__elements__", ()), *getattr(obj, "__fields__", ())]
    for name in dict.fromkeys(names):
        value = getattr(obj, name, None)
        if isinstance(value, float):
            if not math.isfinite(value):
                return name
        elif value is not None and not isinstance(value, (str, int, bool)):
            found = _non_finite(value, depth + 1)
            if found is not None:
                return found
    return None


def _shown(data: bytes, at: int) -> str:
    """The value a pattern stopped at, as the organiser would read it."""
    return data[at:at + 20].split(b"<")[0].split(b'"')[0].split(b"'")[0].decode("utf-8", "replace")
