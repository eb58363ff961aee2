"""The workbook open in Excel, as xlwings Lite's scripts receive it, checked and filled by the batch mode's own
code, and what the fill changed written back through xlwings' object model.

xlwings Lite hands a script the open workbook as xlwings' remote book: the JSON its add-in sends (every sheet's
values, formulas as their last calculated values, dates as dates; every table's name and range), wrapped in the
object model, where every write is recorded as an action that Lite runs in Excel once the script returns. Here:

- :func:`read` turns that book into an openpyxl workbook in memory (:meth:`xlcircuit.xlsx.Book.in_memory`),
  so that a federation's adapter reads it exactly as it reads a file (tables by name and header, rows typed
  under a table, ordinals, blanks) and fills it through the shared procedure;
- :func:`adapter_of` finds the federation from its tables: the remote book carries no document properties, where
  the batch mode reads the federation ``xlcircuit new`` records;
- :func:`write_fill` compares the filled sheets with what Excel showed and writes, through the object model, what
  the fill changed on its own sheets (values, tables, number formats, fills and fonts): every other sheet, and
  every cell of the organiser's on xlcircuit's sheets, is left as it is;
- :func:`write_report` rewrites the « À vérifier » sheet with the verdict, the problems and what to look at.

Excel takes each value as if it were typed: a text is written after an apostrophe (Excel's mark for "this is
text"), so that a name like ``=HYPERLINK(…)``, ``1/2`` or ``mars 2025`` stays the text the fill wrote.
"""

from __future__ import annotations

import datetime as dt
import itertools
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import openpyxl
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE, Cell
from openpyxl.utils import get_column_letter, range_boundaries
from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.table import Table
from openpyxl.worksheet.worksheet import Worksheet

from ..app.common import plural, summary_lines
from ..app.outcome import problems_sentence
from ..federations import ADAPTERS
from ..rules.errors import WorkbookError, WorkbookProblems, XlcircuitError
from ..rules.mechanics import round_half_up
from ..rules.text import fold
from ..workbook.adapter import Adapter
from ..workbook.layout import MAX_NOTE_ROWS, NOTE_FONT, column_points, is_note
from ..workbook.read import bounds, find_table, read_table
from ..workbook.spec import Problems
from ..xlsx import Book

#: The sheet the scripts write their report on (rewritten at each run).
REPORT_SHEET = "À vérifier"
#: Excel's default font, as openpyxl writes it: a look is what differs from it.
DEFAULT_SIZE = 11.0

Area = tuple[int, int, int, int]  # first column, first row, last column, last row (1-based)
Grid = dict[tuple[int, int], object]  # (row, column) -> a value that is not blank
T = TypeVar("T")


# --- reading -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TableAt:
    """A table of the open workbook: its name, its sheet, its range (``A1:E20``)."""

    name: str
    sheet: str
    ref: str
    totals: bool = False

    @property
    def area(self) -> Area:
        area: Area = range_boundaries(self.ref)
        return area


@dataclass
class Opened:
    """What the workbook open in Excel showed when the script started."""

    name: str
    sheets: list[str]
    tables: list[TableAt]
    values: dict[str, Grid] = field(default_factory=dict)  # sheet -> its cells, for the sheets read

    def table(self, name: str) -> TableAt | None:
        """The table called ``name`` (Excel compares table names without case)."""
        return next((t for t in self.tables if t.name.casefold() == name.casefold()), None)


def read(xlbook: Any) -> tuple[Book, Opened]:
    """The open workbook (an ``xlwings.Book`` given to a Lite script) as a :class:`~xlcircuit.xlsx.Book` in
    memory, and what it showed. Only the sheets a fill reads or writes are read cell by cell: those holding a
    table (every input table is on one) and those a federation puts its output tables on (a fill must see what
    stands there); the organiser's other sheets are none of its business."""
    opened = Opened(str(xlbook.name), [], [])
    sheets = {}
    for sheet in xlbook.sheets:
        opened.sheets.append(sheet.name)
        sheets[sheet.name] = sheet
        opened.tables += [TableAt(str(t.name), sheet.name, str(t.range.address).replace("$", ""),
                                  bool(t.show_totals)) for t in sheet.tables]
    outputs = _output_sheets()
    for name in dict.fromkeys([t.sheet for t in opened.tables] + [s for s in opened.sheets if s in outputs]):
        opened.values[name] = _values(sheets[name])
    return Book.in_memory(_workbook(opened), opened.name), opened


def _output_sheets() -> set[str]:
    """The sheets any federation puts its output tables on when a workbook does not have them yet."""
    names = set()
    for adapter in ADAPTERS.values():
        rewritten = adapter.steps.ownership
        names |= set(rewritten.tables.values()) | set(rewritten.sheets) | {rewritten.pattern_sheet or ""}
    return names - {""}


def _values(sheet: Any) -> Grid:
    """A sheet's cells as Excel shows them: formulas as their values, errors as their text (``#N/A``), dates as
    dates, empty cells left out."""
    sent = sheet.api.get("values") or []  # the remote book's own JSON: the values the add-in sent, from A1
    rows, columns = len(sent), max((len(row) for row in sent), default=0)
    if not rows or not columns:
        return {}
    values = sheet.range((1, 1), (rows, columns)).options(ndim=2, err_to_str=True).value
    return {(r, c): v for r, row in enumerate(values, start=1) for c, v in enumerate(row, start=1) if v is not None}


def _workbook(opened: Opened) -> Workbook:
    """An openpyxl workbook holding what Excel showed: the sheets in order, their values, their tables."""
    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    for name in opened.sheets:
        ws = wb.create_sheet(name)
        cells = ws._cells
        for (row, col), value in opened.values.get(name, {}).items():
            if isinstance(value, str):  # what a cell of a file cannot hold (XML forbids it) is left out, as there
                value = ILLEGAL_CHARACTERS_RE.sub("", value)
            cell = Cell(ws, row=row, column=col, value=value)
            if cell.data_type == "f":  # a text starting with "=" is what Excel showed, not a formula
                cell.data_type = "s"
            cells[row, col] = cell
    for found in opened.tables:
        table = Table(displayName=found.name, ref=found.ref)
        if found.totals:
            table.totalsRowCount = 1
        wb[found.sheet].tables.add(table)  # not add_table, which makes a cell of every cell of the range
    return wb


# --- which federation ----------------------------------------------------------------------------------


def _headers(wb: Workbook, name: str) -> set[str] | None:
    """The folded header texts of the table called ``name``; None if the workbook has no such table."""
    found = find_table(wb, name)
    area = bounds(found[1]) if found else None
    if found is None or area is None:
        return None
    ws = found[0]
    return {fold(str(cell.value)) for col in range(area[0], area[2] + 1)
            if (cell := ws._cells.get((area[1], col))) is not None and cell.value is not None}


def _score(wb: Workbook, adapter: Adapter) -> tuple[bool, float, int]:
    """How well the workbook's tables fit a federation: (all its required input tables there with their required
    columns, the share of its input tables' columns found under their names, how many of its tables are there)."""
    whole, found, columns = True, 0, 0
    for spec in adapter.inputs:
        headers = _headers(wb, spec.name) or set()
        whole = whole and (not spec.required or all(fold(c.header) in headers for c in spec.columns if c.required))
        found += sum(fold(c.header) in headers for c in spec.columns)
        columns += len(spec.columns)
    names = [spec.name for spec in adapter.inputs] + list(adapter.steps.rewritten.tables)
    return whole, found / columns, sum(find_table(wb, name) is not None for name in names)


def adapter_of(book: Book) -> Adapter:
    """The federation whose tables the workbook has: its input tables, found by name and header as a fill finds
    them (what distinguishes the five templates); when none has them all, the closest, whose check then names
    what is missing. One sentence when no federation's table is there, or when two fit alike."""
    scores = {code: _score(book.wb, adapter) for code, adapter in ADAPTERS.items()}
    best = max(scores.values())
    if not best[2]:
        raise WorkbookError(f"{book.path.name} n'a aucune table d'un classeur xlcircuit (Tournois, Résultats, "
                            "Parties, Matchs…) : partez d'un classeur fait par « xlcircuit new » (ou de l'exemple de "
                            "votre fédération), qui a ses tables de saisie.")
    tied = [code for code, score in scores.items() if score == best]
    if len(tied) > 1:
        names = " et ".join(f"« {ADAPTERS[code].title} »" for code in tied)
        raise WorkbookError(f"{book.path.name} a les tables de plusieurs fédérations ({names}) : gardez celles "
                            "de la vôtre seulement, puis relancez.")
    return ADAPTERS[tied[0]]


# --- writing: the look of a cell, and what Excel is told ------------------------------------------------

#: The most areas of one kind of look (a fill colour, a font) written one by one: Excel runs each as a round trip,
#: and a season marks thousands of scattered cells. Beyond, that look is left to the desktop tool (and said).
MAX_AREAS = 200
#: The most cells xlwings' ``Range.set_colors`` takes at once (xlwings 0.37.5 and later: a table's fills in a few
#: actions, however scattered).
MAX_COLOURED = 10_000


@dataclass(frozen=True)
class Font:
    """A cell's font where it differs from a plain one."""

    bold: bool = False
    italic: bool = False
    size: float | None = None
    color: str | None = None  # "#RRGGBB"


PLAIN = Font()


def _rgb(color: Any) -> str | None:
    """``#RRGGBB`` of an openpyxl colour given as RGB (a theme colour is the default look: None)."""
    if color is None or getattr(color, "type", None) != "rgb" or not isinstance(color.rgb, str):
        return None
    return f"#{color.rgb[-6:]}"


class Looks:
    """The looks the fill gave cells (fill colour, font, number format), each style of the workbook worked out
    once: a season's tables have tens of thousands of cells and a handful of styles."""

    def __init__(self) -> None:
        self._fills: dict[int, str | None] = {}
        self._fonts: dict[int, tuple[Font, bool]] = {}
        self._formats: dict[int, str] = {}

    def fill(self, cell: Cell) -> str | None:
        """The fill colour (the podium, a mark), ``#RRGGBB``."""
        if not cell.has_style:
            return None
        key = cell._style.fillId
        if key not in self._fills:
            self._fills[key] = _rgb(cell.fill.fgColor) if cell.fill.fill_type == "solid" else None
        return self._fills[key]

    def font(self, cell: Cell) -> tuple[Font, bool]:
        """The font (titles, legends, marks), and whether its text is struck through."""
        if not cell.has_style:
            return PLAIN, False
        key = cell._style.fontId
        if key not in self._fonts:
            font = cell.font
            size = float(font.sz) if font.sz is not None and float(font.sz) != DEFAULT_SIZE else None
            self._fonts[key] = Font(bool(font.b), bool(font.i), size, _rgb(font.color)), bool(font.strike)
        return self._fonts[key]

    def number_format(self, cell: Cell) -> str:
        if not cell.has_style:
            return "General"
        key = cell._style.numFmtId
        if key not in self._formats:
            self._formats[key] = cell.number_format
        return self._formats[key]


def typed(value: object) -> object:
    """A value as Excel must be given it, as xlwings' converters give it: a blank as ``""``, a date as its ISO text
    (``2025-10-04``, or ``2025-10-04 18:30:00`` with a time), which Excel reads as a date; and a text after an
    apostrophe, so that it stays that very text (``=HYPERLINK(…)``, ``1/2``, ``mars 2025``)."""
    if value is None:
        return ""
    if isinstance(value, str):
        return "'" + value
    if isinstance(value, dt.datetime):
        return value.date().isoformat() if value.time() == dt.time() else value.replace(tzinfo=None).isoformat(" ")[:19]
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, dt.time):
        return value.isoformat()
    return value


def _same(a: object, b: object) -> bool:
    """Whether Excel would show the same thing (1 and 1.0 alike; a text never equals a number, nor True 1)."""
    return (type(a) is type(b) and a == b) or (type(a) in (int, float) and type(b) in (int, float) and a == b)


def address(area: Area) -> str:
    first = f"{get_column_letter(area[0])}{area[1]}"
    return first if area[:2] == area[2:] else f"{first}:{get_column_letter(area[2])}{area[3]}"


def runs(cells: Iterable[tuple[int, int]]) -> list[Area]:
    """Cells as areas: each row's runs of adjacent columns, merged with the same run on the rows below."""
    by_row: dict[int, list[int]] = {}
    for row, col in sorted(cells):
        by_row.setdefault(row, []).append(col)
    done: list[Area] = []
    growing: dict[tuple[int, int], Area] = {}  # (first column, last column) -> the area growing down
    for row, cols in by_row.items():
        for _, group in itertools.groupby(enumerate(cols), key=lambda pair: pair[1] - pair[0]):
            columns = [col for _, col in group]
            first, last = columns[0], columns[-1]
            grown = growing.get((first, last))
            if grown is not None and grown[3] == row - 1:
                growing[first, last] = (first, grown[1], last, row)
                continue
            if grown is not None:
                done.append(grown)
            growing[first, last] = (first, row, last, row)
    return done + list(growing.values())


def column_runs(values: Sequence[T]) -> Iterator[tuple[int, int, T]]:
    """(first offset, last offset, value) of each run of equal values."""
    start = 0
    for offset in range(1, len(values) + 1):
        if offset == len(values) or values[offset] != values[start]:
            yield start, offset - 1, values[start]
            start = offset


def _can_set(rng: Any, name: str) -> bool:
    """Whether this xlwings' remote range sets ``name`` (``column_width`` came with xlwings 0.36): an older one
    inherits xlwings' abstract property, which refuses."""
    for kind in type(getattr(rng, "impl", None)).__mro__:
        attribute = vars(kind).get(name)
        if attribute is not None:
            return kind.__module__ != "xlwings.base_classes" and isinstance(attribute, property) \
                and attribute.fset is not None
    return False


class Excel:
    """The open workbook, written through xlwings' object model. A sheet is looked up by name at each use: the
    object model numbers sheets when it makes them, and adding or removing one renumbers the others."""

    def __init__(self, xlbook: Any):
        self.book = xlbook

    def has(self, sheet: str) -> bool:
        return sheet in [s.name for s in self.book.sheets]

    def range(self, sheet: str, area: Area) -> Any:
        return self.book.sheets[sheet].range(address(area))

    def add_sheet(self, name: str, after: str | None) -> None:
        """A new sheet ``name``, after the sheet ``after`` (at the end if None)."""
        sheets = self.book.sheets
        if after is not None and self.has(after):
            sheets.add(name, after=sheets[after])
        else:
            sheets.add(name, after=sheets[len(sheets) - 1] if len(sheets) else None)

    def delete_sheet(self, name: str) -> None:
        self.book.sheets[name].delete()

    def put(self, sheet: str, area: Area, grid: Grid) -> None:
        """Write ``area`` from ``grid`` (a blank where it has nothing), each value as Excel must be given it
        (:func:`typed`), straight to the engine: xlwings' converters would cost a season's fill a second."""
        get, plain = grid.get, (int, float, bool)
        rows = [[value if (value := get((r, c))).__class__ in plain else typed(value) for c in range(area[0], area[2] + 1)]
                for r in range(area[1], area[3] + 1)]
        self.range(sheet, area).raw_value = rows

    def table(self, sheet: str, name: str) -> Any:
        return next((t for t in self.book.sheets[sheet].tables if str(t.name).casefold() == name.casefold()), None)

    def frame(self, sheet: str, name: str, area: Area) -> None:
        """Make the table ``name`` span ``area``: resized if the sheet has it, else created over it."""
        table = self.table(sheet, name)
        rng = self.range(sheet, area)
        if table is None:
            self.book.sheets[sheet].tables.add(source=rng, name=name, has_headers=True,
                                                 table_style_name="TableStyleMedium2")
        elif str(table.range.address).replace("$", "") != address(area):
            table.resize(rng)

    def can_colour(self, sheet: str) -> bool:
        """Whether xlwings sets many cells' fills in one action (``Range.set_colors``, xlwings 0.37.5)."""
        return hasattr(self.range(sheet, (1, 1, 1, 1)), "set_colors")

    def colours(self, sheet: str, area: Area, fills: Mapping[tuple[int, int], str]) -> None:
        """Each cell of ``area`` its fill (none where ``fills`` has none), a block of rows at a time."""
        width = area[2] - area[0] + 1
        step = max(1, MAX_COLOURED // width)
        for top in range(area[1], area[3] + 1, step):
            bottom = min(area[3], top + step - 1)
            matrix = [[fills.get((r, c)) for c in range(area[0], area[2] + 1)] for r in range(top, bottom + 1)]
            self.range(sheet, (area[0], top, area[2], bottom)).set_colors(matrix)

    def fill(self, sheet: str, area: Area, colour: str) -> None:
        self.range(sheet, area).color = colour

    def font(self, sheet: str, area: Area, font: Font) -> None:
        target = self.range(sheet, area).font
        if font.bold:
            target.bold = True
        if font.italic:
            target.italic = True
        if font.size:
            target.size = font.size
        if font.color:
            target.color = font.color

    def widths(self, sheet: str, first_col: int, widths: Sequence[float | None], header_row: int,
               header_height: float | None) -> None:
        """Column widths as the fill set them (xlwings 0.36 and later; Excel's unit there is the point), adjacent
        equal ones at once; else Excel fits the columns itself. The header row wraps at the fill's height."""
        last = first_col + len(widths) - 1
        header = self.range(sheet, (first_col, header_row, last, header_row))
        if not _can_set(header, "column_width"):
            header.columns.autofit()
            return
        for start, end, width in column_runs(widths):
            if width:
                rng = self.range(sheet, (first_col + start, header_row, first_col + end, header_row))
                rng.column_width = round_half_up(column_points(width), 2)  # a width in points, as Excel rounds it
        if _can_set(header, "wrap_text"):
            header.wrap_text = True
        if header_height and _can_set(header, "row_height"):
            header.row_height = header_height


# --- writing the fill ----------------------------------------------------------------------------------


@dataclass
class Placed:
    """An output table after the fill: where it stands, and the sheet it is on."""

    name: str
    ws: Worksheet
    area: Area


@dataclass
class Written:
    """What writing the fill tells the organiser: sheets made anew, and what the desktop tool still does."""

    notes: list[str] = field(default_factory=list)
    left: list[str] = field(default_factory=list)  # the looks Lite could not write, in French


def _grid(ws: Worksheet) -> Grid:
    return {key: cell.value for key, cell in ws._cells.items() if cell.value is not None}


def _placed(book: Book, adapter: Adapter) -> list[Placed]:
    """Every output table the fill wrote, where it wrote it."""
    placed = []
    for spec in adapter.steps.owned(book.wb):
        found = find_table(book.wb, spec.name)
        area = bounds(found[1]) if found else None
        if found is not None and area is not None:
            placed.append(Placed(str(found[1].displayName), found[0], area))
    return placed


def _ours(opened: Opened, adapter: Adapter) -> list[TableAt]:
    """The output tables Excel had before the fill (an earlier fill's)."""
    rewritten = adapter.steps.ownership
    names = {name.casefold() for name in rewritten.tables}
    return [t for t in opened.tables if t.name.casefold() in names
            or (rewritten.pattern is not None and rewritten.pattern.fullmatch(t.name))]


def _recreated(placed: list[Placed], before: list[TableAt]) -> set[str]:
    """Sheets whose tables a fill lays out afresh (TORRES' groups) and that changed: gone, or moved. The object
    model cannot remove a table: the sheet is made anew."""
    now = {p.name.casefold(): p for p in placed}
    changed = set()
    for table in before:
        after = now.get(table.name.casefold())
        if after is None or after.ws.title != table.sheet or after.area[:2] != table.area[:2]:
            changed.add(table.sheet)
    return changed


def _legend_column(ws: Worksheet, area: tuple[int, int, int, int]) -> int | None:
    """The column of a legend under a table (a fill writes it in the first column page 1 prints whole, after the
    columns repeated on every page): the first of the table's columns with a text on the legend's first row."""
    min_col, _, max_col, max_row = area
    return next((col for col in range(min_col, max_col + 1)
                 if isinstance(getattr(ws._cells.get((max_row + 2, col)), "value", None), str)), None)


def _mark_legends(book: Book, opened: Opened, adapter: Adapter) -> dict[str, dict[tuple[int, int], str]]:
    """Give the look of a legend to the texts where an earlier fill put its legend under an output table, so
    that the fill rewrites them as its own (the JSON Excel sends has no fonts, which tell a legend from the
    organiser's text). Returns them, by table, for :func:`_check_legends`."""
    marked: dict[str, dict[tuple[int, int], str]] = {}
    fixed = {name.casefold() for name in adapter.steps.rewritten.tables}  # tables laid out afresh have none
    for table in _ours(opened, adapter):
        if table.name.casefold() not in fixed:
            continue
        ws = book.wb[table.sheet]
        col = _legend_column(ws, table.area)
        if col is None:
            continue
        max_row = table.area[3]
        for row in range(max_row + 2, max_row + 2 + MAX_NOTE_ROWS):  # the legend's lines follow one another
            cell = ws._cells.get((row, col))
            if cell is None or not isinstance(cell.value, str):
                break
            cell.font = NOTE_FONT
            marked.setdefault(table.name.casefold(), {})[row, col] = cell.value
    return marked


def _check_legends(book: Book, adapter: Adapter, marked: dict[str, dict[tuple[int, int], str]]) -> None:
    """Every text taken for an earlier legend is a line of the legend the fill wrote under that table: else it
    was the organiser's, which the fill must not drop (said before anything is written)."""
    for table in _placed(book, adapter):
        min_col, _, max_col, max_row = table.area
        ws = table.ws
        written = {cell.value for row in range(max_row + 2, max_row + 2 + MAX_NOTE_ROWS)
                   for col in range(min_col, max_col + 1)
                   if (cell := ws._cells.get((row, col))) is not None and is_note(cell)}
        for (row, col), text in marked.pop(table.name.casefold(), {}).items():
            if text not in written:
                raise WorkbookError(f"{ws.title}!{get_column_letter(col)}{row}, sous la table « {table.name} », là où "
                                    f"xlcircuit écrit sa légende, porte un texte à vous (« {text[:40]} ») : "
                                    "déplacez-le ailleurs, puis relancez.")


def write_fill(xlbook: Any, book: Book, opened: Opened, adapter: Adapter) -> Written:
    """Write into the open workbook what the fill changed (``book`` is filled in memory)."""
    excel = Excel(xlbook)
    placed = _placed(book, adapter)
    before = _ours(opened, adapter)
    recreate = _recreated(placed, before)
    foreign = [t for t in opened.tables if t.sheet in recreate and t not in before]
    if foreign:  # said before anything is written
        raise WorkbookError(f"La feuille « {foreign[0].sheet} » doit être refaite (ses tables de xlcircuit ont "
                            f"changé), mais elle a aussi la table « {foreign[0].name} » : déplacez-la sur une autre "
                            "feuille, puis relancez.")
    written = Written()
    sheets = _make_sheets(excel, book, placed, recreate, written)
    _resize_inputs(excel, book, opened, adapter)
    left: dict[str, int] = {}
    for sheet in sheets:
        old = {} if sheet in recreate else opened.values.get(sheet, {})
        old_tables = [] if sheet in recreate else [t for t in before if t.sheet == sheet]
        for what, count in _write_sheet(excel, book.wb[sheet], old, old_tables,
                                        [p for p in placed if p.ws.title == sheet]).items():
            left[what] = left.get(what, 0) + count
    written.left = [what.format(plural(count, "cellule")) for what, count in left.items()]
    return written


def _make_sheets(excel: Excel, book: Book, placed: list[Placed], recreate: set[str], written: Written) -> list[str]:
    """The sheets to make anew removed, and every sheet of the output tables that Excel lacks made, in the
    fill's order, before anything is written (adding a sheet renumbers those after it). Returns them all."""
    for sheet in sorted(recreate):
        excel.delete_sheet(sheet)
        written.notes.append(f"La feuille « {sheet} » est refaite (ses tables ont changé) : ce qui y était tapé hors "
                             "des tables de xlcircuit y est remis en valeurs.")
    order = [ws.title for ws in book.wb.worksheets]
    sheets = list(dict.fromkeys(p.ws.title for p in placed))
    for sheet in sheets:
        if not excel.has(sheet):
            previous = order[: order.index(sheet)]
            excel.add_sheet(sheet, next((s for s in reversed(previous) if excel.has(s)), None))
    return sheets


def _resize_inputs(excel: Excel, book: Book, opened: Opened, adapter: Adapter) -> None:
    """Input tables the fill grew over rows typed under them (LibreOffice does not grow tables): grown in Excel too."""
    for spec in adapter.inputs:
        found, was = find_table(book.wb, spec.name), opened.table(spec.name)
        if found is not None and was is not None and str(found[1].ref) != was.ref:
            table = excel.table(was.sheet, was.name)
            if table is not None:
                table.resize(excel.range(was.sheet, range_boundaries(str(found[1].ref))))


def _write_sheet(excel: Excel, ws: Worksheet, old: Grid, old_tables: list[TableAt],
                 placed: list[Placed]) -> dict[str, int]:
    """One of the fill's sheets: the old tables' marks cleared, the tables and every changed cell written, the
    tables framed, their number formats, looks and widths. Returns the looks left out (French, with a count)."""
    sheet, looks = ws.title, Looks()
    for area in [t.area for t in old_tables] + [p.area for p in placed]:
        if area[3] > area[1]:  # the data rows: an earlier fill's marks go (the header keeps its look)
            excel.range(sheet, (area[0], area[1] + 1, area[2], area[3])).clear_formats()
    others = _write_values(excel, ws, old, placed)
    for table in placed:
        excel.frame(sheet, table.name, table.area)
        _number_formats(excel, ws, table.area, looks)
    left = _looks(excel, ws, placed, others, looks)
    for table in placed:
        min_col, min_row, max_col, _ = table.area
        widths = [ws.column_dimensions[get_column_letter(c)].width for c in range(min_col, max_col + 1)]
        excel.widths(sheet, min_col, widths, min_row, ws.row_dimensions[min_row].height)
    return left


def _write_values(excel: Excel, ws: Worksheet, old: Grid, placed: list[Placed]) -> list[tuple[int, int]]:
    """Each output table's area written whole; every other cell the fill changed (titles, legends, what an
    earlier fill left) written or cleared. Returns the cells written outside the tables."""
    sheet, new = ws.title, _grid(ws)
    for table in placed:
        excel.put(sheet, table.area, new)
    inside = {(r, c) for p in placed for r in range(p.area[1], p.area[3] + 1) for c in range(p.area[0], p.area[2] + 1)}
    changed = {key for key in set(old) | set(new) if key not in inside and not _same(old.get(key), new.get(key))}
    for area in runs(changed):
        cleared = all(new.get((r, c)) is None for r in range(area[1], area[3] + 1) for c in range(area[0], area[2] + 1))
        if cleared:
            excel.range(sheet, area).clear()  # an earlier title or legend line: its look goes too
        else:
            excel.put(sheet, area, new)
    return [key for key in changed if key in new]


def _number_formats(excel: Excel, ws: Worksheet, area: Area, looks: Looks) -> None:
    """Each column's number format over the table's data rows, as the fill put it on the cells it wrote; adjacent
    columns of one format at once."""
    min_col, min_row, max_col, max_row = area
    if max_row <= min_row:
        return
    uniform: list[str | None] = []
    for col in range(min_col, max_col + 1):
        formats = {(row, col): looks.number_format(cell) for row in range(min_row + 1, max_row + 1)
                   if (cell := ws._cells.get((row, col))) is not None and cell.value is not None}
        kinds = set(formats.values()) - {"General"}
        uniform.append(kinds.pop() if len(kinds) == 1 and len(set(formats.values())) == 1 else None)
        if len(set(formats.values())) > 1:  # several formats in one column: each run of cells alike
            for number_format in kinds:
                for run in runs(key for key, value in formats.items() if value == number_format):
                    excel.range(ws.title, run).number_format = number_format
    for start, end, shared in column_runs(uniform):
        if shared is not None:
            excel.range(ws.title, (min_col + start, min_row + 1, min_col + end, max_row)).number_format = shared


def _looks(excel: Excel, ws: Worksheet, placed: list[Placed], others: list[tuple[int, int]],
           looks: Looks) -> dict[str, int]:
    """The fills and fonts of the tables' cells and of ``others`` (titles, legends): a table's fills in a few
    actions where xlwings can, else each colour's areas; each font's areas. A look needing more than
    :data:`MAX_AREAS` actions is left out; returns those left out (French, with a count of cells)."""
    sheet = ws.title
    fills, fonts, left = _styles(ws, placed, others, looks)
    if fills and excel.can_colour(sheet):
        for table in placed:
            excel.colours(sheet, table.area, fills)
        fills = {key: fills[key] for key in others if key in fills}
    by_colour: dict[str, list[tuple[int, int]]] = {}
    for key, colour in fills.items():
        by_colour.setdefault(colour, []).append(key)
    for colour, keys in by_colour.items():
        for area in _few_areas(keys, left, "les couleurs de fond de {} (xlwings 0.37.5 ou plus récent les écrit)"):
            excel.fill(sheet, area, colour)
    for font, keys in fonts.items():
        for area in _few_areas(keys, left, "l'italique de {}" if font.italic else "la police de {}"):
            excel.font(sheet, area, font)
    return left


def _few_areas(cells: list[tuple[int, int]], left: dict[str, int], what: str) -> list[Area]:
    """The areas of ``cells``; none if they make more than :data:`MAX_AREAS`, counted in ``left`` under ``what``."""
    areas = runs(cells)
    if len(areas) <= MAX_AREAS:
        return areas
    left[what] = left.get(what, 0) + len(cells)
    return []


def _styles(ws: Worksheet, placed: list[Placed], others: list[tuple[int, int]], looks: Looks) \
        -> tuple[dict[tuple[int, int], str], dict[Font, list[tuple[int, int]]], dict[str, int]]:
    """The fill colour of each cell of the tables and of ``others`` that has one, the cells of each font, and
    the struck-through text (which xlwings cannot write: left out, with its count)."""
    cells = ws._cells
    in_tables = ((r, c) for p in placed for r in range(p.area[1], p.area[3] + 1) for c in range(p.area[0], p.area[2] + 1))
    by_style: dict[tuple[int, int], list[tuple[int, int]]] = {}  # cells alike: one style, looked at once
    for key in itertools.chain(in_tables, others):
        cell = cells.get(key)
        if cell is not None and cell.has_style:
            by_style.setdefault((cell._style.fillId, cell._style.fontId), []).append(key)
    fills: dict[tuple[int, int], str] = {}
    fonts: dict[Font, list[tuple[int, int]]] = {}
    struck = 0
    for keys in by_style.values():
        fill, (font, strike) = looks.fill(cells[keys[0]]), looks.font(cells[keys[0]])
        if fill is not None:
            fills.update(dict.fromkeys(keys, fill))
        if font != PLAIN:
            fonts.setdefault(font, []).extend(keys)
        struck += len(keys) if strike else 0
    return fills, fonts, ({"le texte barré de {}": struck} if struck else {})


def missing_in_lite(book: Book, written: Written) -> list[str]:
    """What the fill made that xlwings Lite cannot: charts, data bars, the page setup (hence the PDF), the looks
    left out."""
    charts = [ws.title for ws in book.wb.worksheets if ws._charts]
    bars = any(rule.type == "dataBar" for ws in book.wb.worksheets
               for rules in dict.values(ws.conditional_formatting._cf_rules) for rule in rules)
    what = []
    if charts:
        what.append(f"les graphiques ({', '.join(f'« {s} »' for s in charts)})")
    if bars:
        what.append("les barres de données")
    return what + written.left + ["la mise en page A4 et le PDF"]


# --- the report sheet ----------------------------------------------------------------------------------


@dataclass
class Report:
    """What a script tells the organiser: on the « À vérifier » sheet and in Lite's output pane."""

    title: str
    lines: list[str]  # the verdict, the top of the standings, what Lite cannot do
    problems: list[tuple[str, str]] = field(default_factory=list)  # (where, what)
    warnings: list[str] = field(default_factory=list)

    def text(self) -> list[str]:
        """As printed in the output pane."""
        out = [self.title, *self.lines]
        out += [f"  - {where} : {what}" for where, what in self.problems]
        if self.warnings:
            out.append(f"À vérifier ({len(self.warnings)}) :")
            out += [f"  - {warning}" for warning in self.warnings]
        return out


def write_report(xlbook: Any, report: Report) -> None:
    """Rewrite the « À vérifier » sheet (made at the end of the workbook the first time): the title, the
    verdict, then one line a problem (where, what) and one a point to look at."""
    excel = Excel(xlbook)
    if excel.has(REPORT_SHEET):
        xlbook.sheets[REPORT_SHEET].clear()
    else:
        excel.add_sheet(REPORT_SHEET, None)
    rows: list[tuple[object, ...]] = [(report.title,), ()]
    rows += [(line,) for line in report.lines]
    header_row = None
    if report.problems or report.warnings:
        rows.append(())
        header_row = len(rows) + 1
        rows.append(("Où", "Quoi"))
        rows += report.problems
        rows += [("À vérifier", warning) for warning in report.warnings]
    grid = {(r, c): v for r, row in enumerate(rows, start=1) for c, v in enumerate(row, start=1)}
    excel.put(REPORT_SHEET, (1, 1, 2, len(rows)), grid)
    excel.font(REPORT_SHEET, (1, 1, 1, 1), Font(bold=True, size=14))
    if header_row is not None:
        excel.font(REPORT_SHEET, (1, header_row, 2, header_row), Font(bold=True))
        excel.range(REPORT_SHEET, (1, header_row, 2, len(rows))).columns.autofit()


def located(problem: Any) -> tuple[str, str]:
    """A located problem as (where, what): ``Résultats!C3`` or ``Résultats, ligne 5``, and the message."""
    where = problem.sheet + (f"!{problem.cell}" if problem.cell else
                             f", ligne {problem.row}" if problem.row is not None else "")
    what = (f"colonne « {problem.column} » : " if problem.column else "") + problem.message
    return where, what


# --- the two scripts' work -----------------------------------------------------------------------------


def _empty_hint(book: Book, adapter: Adapter) -> list[str]:
    """What to do when the input tables have no row yet."""
    empty = [spec for spec in adapter.inputs if spec.required and not read_table(book, spec, Problems())]
    if not empty:
        return []
    names = [f"« {spec.sheet} »" for spec in empty]
    which = (f"les tables {', '.join(names[:-1])} et {names[-1]} sont vides" if len(names) > 1
             else f"la table {names[0]} est vide")
    return [f"Rien à classer : {which}. Tapez-y vos lignes (la feuille « {book.wb.worksheets[0].title} » "
            "l'explique), puis relancez."]


def _failed(title: str, error: XlcircuitError) -> Report:
    """A report of what stopped the script: every located problem, or one sentence."""
    if isinstance(error, WorkbookProblems):
        count = len(error.problems)
        verdict = (f"{problems_sentence(count)} : rien n'a été écrit dans les tables ; corrigez "
                   f"{'ces points' if count > 1 else 'ce point'}, puis relancez.")
        return Report(title, [verdict], [located(p) for p in error.problems])
    return Report(title, [f"{error} Rien n'a été écrit dans les tables."])


def verify(xlbook: Any) -> Report:
    """« Vérifier »: every problem of the open workbook with its cell, or the standings a fill would publish;
    nothing but the report is written."""
    title = f"Vérifier : {xlbook.name}"
    try:
        book, _ = read(xlbook)
        adapter = adapter_of(book)
        title = f"Vérifier : {xlbook.name} ({adapter.title})"
        summary = adapter.compute(book)
    except XlcircuitError as error:
        return _failed(title, error)
    warnings = book.warnings + summary.warnings
    verdict = (f"{xlbook.name} est correct, avec {plural(len(warnings), 'point')} à vérifier (ci-dessous)"
               if warnings else f"{xlbook.name} est correct")
    return Report(title, summary_lines(adapter, summary, verdict) + _empty_hint(book, adapter), warnings=warnings)


def fill(xlbook: Any) -> Report:
    """« Remplir »: the fill of the batch mode, its changes written into the open workbook; or, on a problem,
    every one of them and nothing written but the report."""
    title = f"Remplir : {xlbook.name}"
    try:
        book, opened = read(xlbook)
        adapter = adapter_of(book)
        title = f"Remplir : {xlbook.name} ({adapter.title})"
        legends = _mark_legends(book, opened, adapter)
        summary = adapter.fill(book)
        _check_legends(book, adapter, legends)
        warnings = book.warnings + summary.warnings
        hint = _empty_hint(book, adapter)
        written = write_fill(xlbook, book, opened, adapter)
    except XlcircuitError as error:
        return _failed(title, error)
    name = xlbook.name
    desktop = (f"Pas dans xlwings Lite : {', '.join(missing_in_lite(book, written))} ; sur un ordinateur où "
               f"xlcircuit est installé, « xlcircuit fill {name} » y ajoute tout cela au classeur enregistré, et "
               f"« xlcircuit share {name} --pdf pdf » en fait le PDF.")
    lines = summary_lines(adapter, summary, "Classeur rempli") + hint + written.notes + [desktop]
    return Report(title, lines, warnings=warnings)
