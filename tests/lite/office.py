"""A small model of Excel for the xlwings Lite script tests: the book JSON its add-in sends a script, and the
actions a script returns applied to the workbook's values, as Excel applies them.

Written for xlcircuit's tests from what xlwings' Office Scripts client (BSD, ``xlwings/js/xlwings.ts``) sends and
does, and from xlwings Lite's documented behaviour; nothing of xlwings Server is copied. The payload: ``client``,
``version``, ``book`` (name, active sheet, selection), ``names``, and per sheet its ``values`` from A1 to the last
used cell (an empty cell ``""``, a date cell an ISO text ending in ``Z``, an error its text), its ``tables`` (name
and addresses) and ``pictures``. The actions: each ``{func, args, values, sheet_position, start_row, start_column,
row_count, column_count}``, 0-based, run in order.

Excel takes a value written by a script as if it were typed: a text after an apostrophe stays that text (the
apostrophe is Excel's "this is text" mark, not part of the value), a text starting with ``=`` becomes a formula
(kept here as :class:`Formula`, which no test expects), an ISO date a date, a number typed as text a number.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field

import openpyxl
from openpyxl.utils import get_column_letter, range_boundaries

ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}( \d{2}:\d{2}:\d{2})?")
NUMBER = re.compile(r"[+-]?(\d+([.,]\d*)?|[.,]\d+)([eE][+-]?\d+)?")


@dataclass(frozen=True)
class Formula:
    """What Excel makes of a text starting with ``=``: a formula (xlcircuit never writes one)."""

    text: str


def typed(value: object) -> object:
    """What Excel stores when a script writes ``value`` into a cell."""
    if not isinstance(value, str):
        return value
    if value == "":
        return None
    if value.startswith("'"):
        return value[1:]
    if value.startswith("="):
        return Formula(value)
    if ISO_DATE.fullmatch(value):
        return dt.datetime.fromisoformat(value)
    if NUMBER.fullmatch(value):
        number = float(value.replace(",", "."))
        return int(number) if number.is_integer() else number
    if value.upper() in ("TRUE", "FALSE", "VRAI", "FAUX"):
        return value.upper() in ("TRUE", "VRAI")
    return value


@dataclass
class Sheet:
    """One sheet of the model: values, tables (in Excel's order), and the look of cells."""

    name: str
    values: dict[tuple[int, int], object] = field(default_factory=dict)
    tables: list[list[str]] = field(default_factory=list)  # [name, ref]
    formats: dict[tuple[int, int], str] = field(default_factory=dict)
    fills: dict[tuple[int, int], str] = field(default_factory=dict)  # "#RRGGBB"
    fonts: dict[tuple[int, int], dict[str, object]] = field(default_factory=dict)
    widths: dict[int, float] = field(default_factory=dict)

    def table(self, name: str) -> str | None:
        return next((ref for n, ref in self.tables if n.casefold() == name.casefold()), None)


@dataclass
class Workbook:
    """Excel's side of a workbook, as far as the scripts read and write it."""

    name: str
    sheets: list[Sheet]
    log: list[str] = field(default_factory=list)  # the actions run, by name

    def copy(self) -> Workbook:
        """A copy to apply actions to (the values themselves are never changed in place)."""
        sheets = [Sheet(s.name, dict(s.values), [list(t) for t in s.tables], dict(s.formats), dict(s.fills),
                        {k: dict(v) for k, v in s.fonts.items()}, dict(s.widths)) for s in self.sheets]
        return Workbook(self.name, sheets)

    def __getitem__(self, name: str) -> Sheet:
        return next(s for s in self.sheets if s.name == name)

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.sheets]


def _cell_value(cell) -> object:
    return None if cell.value == "" else cell.value


def _rgb(color) -> str | None:
    if color is None or color.type != "rgb" or not isinstance(color.rgb, str):
        return None
    return f"#{color.rgb[-6:]}".upper()


def _look(sheet: Sheet, key: tuple[int, int], cell) -> None:
    """A cell's number format, fill colour and font, where they are not a plain cell's."""
    if not cell.has_style:
        return
    if cell.number_format != "General":
        sheet.formats[key] = cell.number_format
    if cell.fill.fill_type == "solid" and _rgb(cell.fill.fgColor):
        sheet.fills[key] = _rgb(cell.fill.fgColor)
    font = {"bold": True} if cell.font.b else {}
    font.update({"italic": True} if cell.font.i else {})
    if font:
        sheet.fonts[key] = font


def load(path, name: str | None = None) -> Workbook:
    """The model of an .xlsx as Excel shows it (formulas as their last values), with its cells' looks."""
    wb = openpyxl.load_workbook(path, data_only=True)
    sheets = []
    for ws in wb.worksheets:
        sheet = Sheet(ws.title)
        for (row, col), cell in ws._cells.items():
            value = _cell_value(cell)
            if value is not None:
                sheet.values[row, col] = value
            _look(sheet, (row, col), cell)
        sheet.tables = [[str(t.displayName), str(t.ref)] for t in ws.tables.values()]
        sheets.append(sheet)
    return Workbook(name or str(path).rsplit("/", 1)[-1], sheets)


def _sent(value: object) -> object:
    """A cell's value as the add-in sends it."""
    if value is None:
        return ""
    if isinstance(value, dt.datetime):
        return value.strftime("%Y-%m-%dT%H:%M:%S.000Z")
    if isinstance(value, dt.date):
        return value.strftime("%Y-%m-%dT00:00:00.000Z")
    if isinstance(value, Formula):
        raise AssertionError(f"a formula in the workbook: {value}")
    return value


def _ranges(ref: str, totals: bool = False) -> dict:
    min_col, min_row, max_col, max_row = range_boundaries(ref)
    letters = get_column_letter(min_col), get_column_letter(max_col)
    body_end = max_row - 1 if totals else max_row
    return {
        "range_address": ref,
        "header_row_range_address": f"{letters[0]}{min_row}:{letters[1]}{min_row}",
        "data_body_range_address": f"{letters[0]}{min_row + 1}:{letters[1]}{max(body_end, min_row + 1)}",
        "total_row_range_address": f"{letters[0]}{max_row}:{letters[1]}{max_row}" if totals else None,
    }


def payload(book: Workbook, version: str = "0.37.8") -> dict:
    """The JSON xlwings Lite's add-in sends a script for this workbook."""
    sheets = []
    for sheet in book.sheets:
        rows = max((r for r, _ in sheet.values), default=0)
        cols = max((c for _, c in sheet.values), default=0)
        values = [[_sent(sheet.values.get((r, c))) for c in range(1, cols + 1)] for r in range(1, rows + 1)]
        tables = [{"name": name, **_ranges(ref), "show_headers": True, "show_totals": False,
                   "table_style": "TableStyleMedium2", "show_autofilter": True} for name, ref in sheet.tables]
        sheets.append({"name": sheet.name, "values": values or [[]], "pictures": [], "tables": tables})
    return {"client": "Office.js", "version": version,
            "book": {"name": book.name, "active_sheet_index": 0, "selection": "A1"}, "names": [], "sheets": sheets}


def _area(action: dict) -> list[tuple[int, int]]:
    r0, c0 = action["start_row"] + 1, action["start_column"] + 1
    return [(r, c) for r in range(r0, r0 + action["row_count"]) for c in range(c0, c0 + action["column_count"])]


def _set_values(sheet: Sheet, action: dict) -> None:
    r0, c0 = action["start_row"] + 1, action["start_column"] + 1
    rows = action["values"]
    assert len(rows) == action["row_count"] and all(len(row) == action["column_count"] for row in rows), action
    for i, row in enumerate(rows):
        for j, value in enumerate(row):
            stored = typed(value)
            if stored is None:
                sheet.values.pop((r0 + i, c0 + j), None)
            else:
                sheet.values[r0 + i, c0 + j] = stored


def _clear(sheet: Sheet, action: dict, contents: bool, formats: bool) -> None:
    for key in _area(action):
        if contents:
            sheet.values.pop(key, None)
        if formats:
            for looks in (sheet.formats, sheet.fills, sheet.fonts):
                looks.pop(key, None)


def _font(sheet: Sheet, action: dict) -> None:
    attribute, value = action["args"]
    assert attribute in ("bold", "italic", "size", "color", "name"), attribute
    for key in _area(action):
        sheet.fonts.setdefault(key, {})[attribute] = value


def _colours(sheet: Sheet, action: dict) -> None:
    """A fill colour a cell (``keep``: as it is; None: none), xlwings 0.37.5's ``Range.set_colors``."""
    (matrix,) = action["args"]
    r0, c0 = action["start_row"] + 1, action["start_column"] + 1
    assert len(matrix) == action["row_count"] and all(len(row) == action["column_count"] for row in matrix), action
    for i, row in enumerate(matrix):
        for j, colour in enumerate(row):
            if colour == "keep":
                continue
            if colour is None:
                sheet.fills.pop((r0 + i, c0 + j), None)
            else:
                sheet.fills[r0 + i, c0 + j] = colour.upper()


def _add_table(sheet: Sheet, action: dict) -> None:
    ref, has_headers, _style, name = action["args"]
    ref = ref.replace("$", "")
    assert has_headers is True and name, action
    assert sheet.table(name) is None, f"table {name} added twice"
    area = range_boundaries(ref)
    for other, other_ref in sheet.tables:
        b = range_boundaries(other_ref)
        assert area[2] < b[0] or b[2] < area[0] or area[3] < b[1] or b[3] < area[1], f"{name} overlaps {other}"
    headers = [sheet.values.get((area[1], c)) for c in range(area[0], area[2] + 1)]
    assert all(isinstance(h, str) and h for h in headers), f"table {name}: headers {headers}"
    sheet.tables.append([name, ref])


def _resize_table(sheet: Sheet, action: dict) -> None:
    index, ref = action["args"]
    ref = ref.replace("$", "")
    old = range_boundaries(sheet.tables[index][1])
    new = range_boundaries(ref)
    assert old[:2] == new[:2], f"a table keeps its top left cell: {sheet.tables[index]} -> {ref}"
    sheet.tables[index][1] = ref


def apply(book: Workbook, actions: list[dict]) -> Workbook:
    """Run a script's actions on ``book`` (in place), as Excel does; an action the model does not know fails."""
    for action in actions:
        func = action["func"]
        book.log.append(func)
        if func == "addSheet":
            position, name = action["args"]
            assert name not in book.names, f"sheet {name} exists"
            book.sheets.insert(position, Sheet(name))
            continue
        sheet = book.sheets[action["sheet_position"]]
        if func == "setValues":
            _set_values(sheet, action)
        elif func in ("rangeClearContents", "rangeClearFormats", "rangeClear"):
            _clear(sheet, action, func != "rangeClearFormats", func != "rangeClearContents")
        elif func == "sheetClear":
            book.sheets[action["sheet_position"]] = Sheet(sheet.name, tables=sheet.tables)
        elif func == "sheetDelete":
            book.sheets.remove(sheet)
        elif func == "setNumberFormat":
            sheet.formats.update(dict.fromkeys(_area(action), action["args"][0]))
        elif func == "setRangeColor":
            sheet.fills.update(dict.fromkeys(_area(action), action["args"][0].upper()))
        elif func == "setRangeColors":
            _colours(sheet, action)
        elif func == "setFontProperty":
            _font(sheet, action)
        elif func == "addTable":
            _add_table(sheet, action)
        elif func == "resizeTable":
            _resize_table(sheet, action)
        elif func == "setColumnWidth":
            sheet.widths.update(dict.fromkeys({c for _, c in _area(action)}, action["args"][0]))
        elif func in ("setAutofit", "setWrapText", "setRowHeight"):
            pass  # the look of rows and columns: no value
        else:
            raise AssertionError(f"an action the model of Excel does not know: {func}")
    return book
