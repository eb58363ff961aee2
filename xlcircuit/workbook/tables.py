"""Excel tables (ListObjects) as the batch mode reads and writes them.

Input tables are found by table name and header text, never by cell address, so an organiser
may move them, restyle them and add columns of his own. Output tables are rewritten in place
at each fill; whatever stands around them on their sheet is left alone.
"""

from __future__ import annotations

import datetime as dt
import functools
import itertools
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE, Cell
from openpyxl.formatting.rule import DataBarRule
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.styles.cell_style import StyleArray
from openpyxl.styles.fonts import DEFAULT_FONT
from openpyxl.utils import get_column_letter, range_boundaries
from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.worksheet.filters import AutoFilter
from openpyxl.worksheet.table import Table, TableColumn, TableStyleInfo
from openpyxl.worksheet.worksheet import Worksheet

from .. import limits
from ..errors import InvalidInput, Problem, WorkbookProblems
from ..text import clean, fold
from .io import CONDITIONAL_FORMAT_EXTENSIONS, Book

TABLE_STYLE = "TableStyleMedium2"
TITLE_ROWS = 2  # a published table stands two rows under its title
TITLE_FONT = Font(bold=True, size=14)
HEADER_ALIGNMENT = Alignment(wrap_text=True, vertical="center")
HEADER_HEIGHT = 32  # points: two lines of header text
DATA_BAR_COLOUR = "5B9BD5"
#: First characters that make a spreadsheet read text as a formula.
FORMULA_STARTS = ("=", "+", "-", "@")
#: Rows given a drop-down list in a fresh template.
VALIDATION_ROWS = 2000

# --- print -----------------------------------------------------------------------------------
#: Paper: A4 (openpyxl's code 9), whatever the program's default (US Letter in LibreOffice here).
PAPER_A4 = 9
#: The smallest print scale (percent): 11-point cells then print at 8.8 points, above the 8-point floor.
MIN_SCALE = 80
#: How much wider than Calibri's the substitute fonts print (DejaVu Sans where Carlito is missing: 1.34).
WIDE_FONTS = 1.35
#: Column-width units a character of text takes (text is wider than the digits a width counts).
TEXT_WIDTH = 1.1
#: Printable width of an A4 page in points, landscape and portrait, inside the default margins (0.7 in a side).
PRINTABLE = {"landscape": 842 - 2 * 0.7 * 72, "portrait": 595 - 2 * 0.7 * 72}
#: Legend lines under a published table: their look, which also tells a later fill they are ours to rewrite.
def body_font(**look) -> Font:
    """The workbook's default font (Calibri 11) with ``look`` (italic, strike, color) on top."""
    return Font(name=DEFAULT_FONT.name, sz=DEFAULT_FONT.sz, family=DEFAULT_FONT.family, scheme=DEFAULT_FONT.scheme,
                **look)


NOTE_FONT = body_font(italic=True, color="FF595959")


@functools.cache
def _mark_font(italic: bool, strike: bool, grey: bool) -> Font:
    """One font object per look: a season marks tens of thousands of cells alike."""
    return body_font(italic=italic, strike=strike, color="FF7F7F7F" if grey else None)
MAX_NOTES = 12
#: Widest a published column grows to fit its content (characters); longer text wraps.
MAX_WIDTH = 48


@dataclass(frozen=True)
class Column:
    """A column of a table: its header, whether an input table must have it, and its look."""

    header: str
    required: bool = True
    width: float = 14
    number_format: str | None = None
    choices: tuple[str, ...] = ()  # offered as a drop-down list in the template
    data_bar: bool = False  # a total: shown with data bars


@dataclass(frozen=True)
class TableSpec:
    """A table the batch mode knows: the sheet the template puts it on, its name, its columns."""

    sheet: str
    name: str
    columns: tuple[Column, ...]
    required: bool = True  # an optional table may be missing: it then reads as empty
    #: Rows typed under the table (LibreOffice does not grow tables) are taken into it. A table whose sheet
    #: has text of its own below it (the guide under the parameters) only has such rows reported.
    grows: bool = True


@dataclass
class Record:
    """One row of an input table: what each known column shows, and where it stands."""

    sheet: str
    row: int
    values: dict[str, object]
    cells: dict[str, str]

    def problem(self, header: str, message: str) -> Problem:
        return Problem(self.sheet, self.row, header, message, self.cells.get(header))


@dataclass
class Problems:
    """Problems of a workbook, gathered so that all of them are reported at once."""

    items: list[Problem] = field(default_factory=list)

    def add(self, problem: Problem) -> None:
        self.items.append(problem)

    def at(self, record: Record, header: str, message: str) -> None:
        self.add(record.problem(header, message))

    def mark(self) -> int:
        """A mark to ask :meth:`since` whether a line added problems (skip the line then)."""
        return len(self.items)

    def since(self, mark: int) -> bool:
        """Whether a problem was added since ``mark``."""
        return len(self.items) > mark

    def __bool__(self) -> bool:
        return bool(self.items)


# --- reading ---------------------------------------------------------------------------------


def find_table(wb: Workbook, name: str) -> tuple[Worksheet, Table] | None:
    """The table called ``name`` (Excel compares table names without case), wherever it is."""
    for ws in wb.worksheets:
        for table in ws.tables.values():  # ws.tables.items() gives refs, not tables
            if str(table.displayName or table.name or "").casefold() == name.casefold():
                return ws, table
    return None


def table_bounds(ws: Worksheet, name: str) -> tuple[int, int, int, int]:
    """(first column, first row, last column, last row) of a table of ``ws`` that was just written."""
    area: tuple[int, int, int, int] = range_boundaries(ws.tables[_key(ws, name)].ref)
    return area


def _key(ws: Worksheet, name: str) -> str:
    """The key in ``ws.tables`` of the table called ``name`` (as :func:`find_table` matches it: display name,
    without case; openpyxl keys tables by their other name, which a file may set apart)."""
    for key, table in dict.items(ws.tables):  # TableList.items() gives refs, not tables
        if str(table.displayName or table.name or "").casefold() == name.casefold():
            return str(key)
    return next((str(k) for k in ws.tables if str(k).casefold() == name.casefold()), name)


def bounds(table: Table) -> tuple[int, int, int, int] | None:
    """(first column, first row, last column, last row) of a table; None for a reference no sheet has."""
    try:
        area: tuple[int, int, int, int] = range_boundaries(str(table.ref))
    except (ValueError, TypeError):
        return None
    if None in area or area[2] > MAX_COLUMN or area[3] > MAX_ROW or area[0] > area[2] or area[1] > area[3]:
        return None
    return area


MAX_ROW, MAX_COLUMN = 1_048_576, 16_384


def _rows_of(ws: Worksheet, columns: range, first_row: int) -> dict[int, dict[int, Cell]]:
    """The existing cells of ``columns`` from ``first_row`` down, row by row: a table over whole columns
    (``A1:E1048576``) costs what its data costs, not a million rows."""
    rows: dict[int, dict[int, Cell]] = {}
    for (row, col), cell in ws._cells.items():
        if row >= first_row and col in columns:
            rows.setdefault(row, {})[col] = cell
    return rows


def _blank(value: object) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def read_table(book: Book, spec: TableSpec, problems: Problems) -> list[Record]:
    """The non-blank rows of an input table, with what each of the spec's columns shows.

    A missing table or required column is added to ``problems`` (and no rows are returned). Rows typed
    under the table, right under it or after blank rows, are never ignored: they are taken into the table
    (grown to hold them, with a warning in ``book.warnings`` naming them), or reported as problems.
    """
    located = _input_table(book, spec, problems)
    if located is None:
        return []
    ws, table, area = located
    columns = _header_columns(ws, table, spec, area, problems)
    if columns is None:
        return []
    min_col, min_row, max_col, _ = area
    existing = _rows_of(ws, range(min_col, max_col + 1), min_row + 1)
    last_row = _last_data_row(book, ws, table, spec, area, existing, problems)
    records = []
    letters = {header: get_column_letter(col) for header, col in columns.items()}
    for row in sorted(r for r in existing if r <= last_row):
        record = _read_row(book, ws.title, row, existing[row], columns, letters, problems)
        if record is not None:
            records.append(record)
    return records


def _input_table(book: Book, spec: TableSpec,
                 problems: Problems) -> tuple[Worksheet, Table, tuple[int, int, int, int]] | None:
    """The input table of ``spec``, its sheet and its area; None (a problem unless optional) if unreadable."""
    found = find_table(book.wb, spec.name)
    if found is None and not spec.required:
        return None
    if found is None:
        problems.add(Problem(spec.sheet, None, None, f"table « {spec.name} » introuvable dans le classeur "
                             f"(attendue sur la feuille « {spec.sheet} », avec les colonnes "
                             f"{', '.join(c.header for c in spec.columns if c.required)})"))
        return None
    ws, table = found
    area = bounds(table)
    if area is None:
        problems.add(Problem(ws.title, None, None, f"la table « {table.displayName} » a une étendue illisible "
                             f"({str(table.ref)[:40]}) : recréez-la (Insertion > Tableau)"))
        return None
    return ws, table, area


def _header_columns(ws: Worksheet, table: Table, spec: TableSpec, area: tuple[int, int, int, int],
                    problems: Problems) -> dict[str, int] | None:
    """The column of each of the spec's headers the table has; None, and a problem each, if a required one lacks."""
    min_col, min_row, max_col, _ = area
    headers: dict[str, int] = {}
    for col in range(min_col, max_col + 1):
        cell = ws._cells.get((min_row, col))
        if cell is not None and cell.value is not None:
            headers.setdefault(fold(str(cell.value)), col)
    missing = [c.header for c in spec.columns if c.required and fold(c.header) not in headers]
    for header in missing:
        found_headers = ", ".join(str(ws.cell(min_row, c).value) for c in sorted(headers.values()))
        problems.add(Problem(ws.title, min_row, header, f"colonne « {header} » absente de la table « {table.name} » "
                             f"(colonnes trouvées : {found_headers or 'aucune'})"))
    if missing:
        return None
    return {c.header: headers[fold(c.header)] for c in spec.columns if fold(c.header) in headers}


def _last_data_row(book: Book, ws: Worksheet, table: Table, spec: TableSpec, area: tuple[int, int, int, int],
                   existing: dict[int, dict[int, Cell]], problems: Problems) -> int:
    """The table's last data row, once the rows typed under it are taken into it (or reported)."""
    max_row = area[3]
    last_row = max_row - (table.totalsRowCount or 0)
    below = sorted(r for r, cells in existing.items() if r > max_row and r < _next_table(ws, table, area)
                   and any(not _blank(book.value(c)) for c in cells.values()))
    if below:
        last_row = _take_below(book, ws, table, spec, area, below, problems)
    return last_row


def _read_row(book: Book, sheet: str, row: int, cells_of_row: dict[int, Cell], columns: dict[str, int],
              letters: dict[str, str], problems: Problems) -> Record | None:
    """One row of an input table as a record of what its known columns show (``letters``: each column's
    letter); None for a blank row."""
    values: dict[str, object] = {}
    cells: dict[str, str] = {}
    blank = True
    for header, col in columns.items():
        cells[header] = f"{letters[header]}{row}"
        cell = cells_of_row.get(col)
        if cell is None:
            values[header] = None
            continue
        value = cell.value if cell.data_type != "f" else book.value(cell)
        if value is None and cell.data_type == "f":
            problems.add(Problem(sheet, row, header, "formule jamais calculée : ouvrez le classeur dans votre "
                                 "tableur, enregistrez-le, puis relancez", cell.coordinate))
        if isinstance(value, str):
            value = value.strip() or None
        values[header] = value
        blank = blank and value is None
    return None if blank else Record(sheet, row, values, cells)


def _next_table(ws: Worksheet, table: Table, area: tuple[int, int, int, int]) -> int:
    """The first row of the next table below ``table`` in its columns (rows under it stop there)."""
    tops = [other[1] for t in ws.tables.values() if t is not table and (other := bounds(t)) is not None
            and other[1] > area[3] and other[0] <= area[2] and area[0] <= other[2]]
    return min(tops, default=MAX_ROW + 1)


def row_list(rows: Sequence[int]) -> str:
    """Rows as a French list of runs: ``5``, ``5 et 7``, ``5 à 9, 12 et 14 à 20``."""
    runs: list[list[int]] = []
    for row in rows:
        if runs and row == runs[-1][1] + 1:
            runs[-1][1] = row
        else:
            runs.append([row, row])
    texts = [f"{a}" if a == b else f"{a}, {b}" if b == a + 1 else f"{a} à {b}" for a, b in runs]
    return texts[0] if len(texts) == 1 else f"{', '.join(texts[:-1])} et {texts[-1]}"


def _take_below(book: Book, ws: Worksheet, table: Table, spec: TableSpec, area: tuple[int, int, int, int],
                below: list[int], problems: Problems) -> int:
    """Rows typed under a table: grown into it (returns its new last data row), or each a problem."""
    min_col, min_row, max_col, max_row = area
    name = table.displayName
    first = get_column_letter(min_col)
    if table.totalsRowCount:
        for row in below:
            problems.add(Problem(ws.title, row, None, f"la ligne {row}, sous la ligne de total de la table « {name} », "
                                 "n'en fait pas partie : insérez-la dans la table, au-dessus du total",
                                 f"{first}{row}"))
        return max_row - int(table.totalsRowCount)
    if not spec.grows:
        for row in below:
            if row == max_row + 1 or any(not _blank(book.value(c)) for (r, col), c in ws._cells.items()
                                         if r == row and min_col < col <= max_col):
                problems.add(Problem(ws.title, row, None, f"la ligne {row}, sous la table « {name} », n'en fait pas "
                                     "partie : insérez-la dans la table (clic droit > Insérer des lignes)",
                                     f"{first}{row}"))
        return max_row
    ref = f"{first}{min_row}:{get_column_letter(max_col)}{below[-1]}"
    table.ref = ref
    if table.autoFilter is not None:
        table.autoFilter.ref = ref
    count = len(below)
    book.warnings.append(f"{ws.title} : {'la ligne' if count == 1 else 'les lignes'} {row_list(below)}, "
                         f"tapée{'s' if count > 1 else ''} sous la table « {name} », "
                         f"{'est prise' if count == 1 else 'sont prises'} dans la table (LibreOffice ne "
                         "l'agrandit pas) : vérifiez "
                         + ("qu'elle en fait" if count == 1 else "qu'elles en font") + " bien partie.")
    return below[-1]


def forget_own_formats(book: Book, specs: Sequence[TableSpec]) -> None:
    """Extended conditional formats inside output tables are the data bars of an earlier fill, as a
    spreadsheet program re-saved them: they are rewritten, so losing them is no loss to warn of."""
    tables = [(ws.title, area) for spec in specs if (found := find_table(book.wb, spec.name))
              for ws, table in [found] if (area := bounds(table)) is not None]

    def inside(ref: str, area: tuple[int, int, int, int]) -> bool:
        try:
            return _inside(range_boundaries(ref), area)
        except (ValueError, TypeError):  # a range the file garbles is no data bar of ours
            return False

    def ours(unkept) -> bool:
        return unkept.what == CONDITIONAL_FORMAT_EXTENSIONS and bool(unkept.ranges) and all(
            any(sheet == unkept.sheet and inside(r, area) for sheet, area in tables)
            for r in unkept.ranges)

    book.unkept = [u for u in book.unkept if not ours(u)]


def shown(value: object) -> str:
    """A typed value as a message quotes it: text between « », anything else as it is."""
    return f"« {value} »" if isinstance(value, str) else str(value)


def as_text(value: object) -> str | None:
    """A name as typed: spaces trimmed and collapsed, accents and case kept; a number as written."""
    if value is None:
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, (dt.datetime, dt.date)):
        value = value.strftime("%d/%m/%Y")
    return clean(str(value)) or None


def _whole(value: object) -> int | None:
    """A whole number (``3``, ``3.0`` or the text ``"3"``); None for anything else."""
    number = value
    if isinstance(value, str):
        try:
            number = float(value.replace(",", "."))
        except ValueError:
            return None
    if isinstance(number, bool) or not isinstance(number, (int, float)) or number != number \
            or not float(number).is_integer():
        return None
    return int(number)


#: The largest place, count or number a table takes (:mod:`xlcircuit.limits`).
MAX_WHOLE = limits.MAX_PLACE


#: A French ordinal as typed for a place: 1er, 1re, 1ère, 2e, 2ème, 2nd, 3eme, 7e (folded: no accents, lower case).
_ORDINAL = re.compile(r"(\d+)\s*(?:er|re|ere|e|eme|nde?)")


def _ordinal(value: object) -> int | None:
    """The number of a French ordinal typed as text (``1er``, ``2e``, ``3ème``, ``1ᵉʳ``); None for anything else."""
    if not isinstance(value, str):
        return None
    match = _ORDINAL.fullmatch(fold(value))  # fold: NFKD, so 1ᵉʳ is 1er
    if match is None:
        return None
    number, suffix = int(match.group(1)), match.group(0)[len(match.group(1)):].strip()
    if (suffix in ("er", "re", "ere") and number != 1) or (suffix.startswith("nd") and number != 2):
        return None  # "3er", "5nd": not an ordinal
    return number


def as_positive_int(value: object, what: str = "place") -> int | None:
    """A positive whole number up to MAX_WHOLE (``3``, ``3.0`` or the text ``"3"``; for a place, a French
    ordinal too: ``1er``, ``2e``, ``3ème``); None for a blank."""
    if value is None:
        return None
    number = _whole(value)
    if number is None and what == "place":
        number = _ordinal(value)
    if number is None or number < 1:
        raise InvalidInput(f"{what} attendue : un entier positif (1, 2, 3…) ; trouvé {shown(value)}")
    if number > MAX_WHOLE:
        raise InvalidInput(f"{what} attendue : un entier de 1 à {MAX_WHOLE} ; trouvé {shown(value)}")
    return number


def as_whole(value: object, what: str, low: int, high: int) -> int | None:
    """A whole number from ``low`` to ``high`` (``3``, ``3.0`` or the text ``"3"``); None for a blank."""
    if value is None:
        return None
    number = _whole(value)
    if number is None or not low <= number <= high:
        raise InvalidInput(f"{what} attendu : un entier de {low} à {high} ; trouvé {shown(value)}")
    return number


def as_number(value: object, what: str = "nombre") -> float | None:
    """A number (text with a decimal comma accepted); None for a blank."""
    if value is None:
        return None
    if isinstance(value, str):
        try:
            number = float(value.replace(",", ".").replace(" ", ""))
        except ValueError:
            pass
        else:
            if math.isfinite(number):  # "nan", "inf" and "1e400" are text, not numbers
                return number
    elif isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
        return float(value)
    raise InvalidInput(f"{what} attendu ; trouvé {shown(value)}")


_YES = {"oui", "o", "x", "vrai", "true", "yes", "1"}
_NO = {"non", "n", "faux", "false", "no", "0"}


def as_yes_no(value: object) -> bool:
    """``oui`` (or x, vrai, TRUE, 1) is True; blank or ``non`` (or faux, FALSE, 0) is False."""
    if value is None or isinstance(value, bool):
        return bool(value)
    if isinstance(value, (int, float)) and value in (0, 1):
        return bool(value)
    key = fold(str(value))
    if key in _YES:
        return True
    if key in _NO:
        return False
    raise InvalidInput(f"« oui » ou vide attendu ; trouvé {shown(value)}")


def as_date(value: object) -> dt.date | None:
    """A date cell, or a date typed as text (``13/09/2025`` or ``2025-09-13``); None for a blank."""
    if value is None:
        return None
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    if isinstance(value, str):
        for pattern in ("%d/%m/%Y", "%Y-%m-%d", "%d/%m/%y", "%d-%m-%Y", "%d.%m.%Y"):
            try:
                return dt.datetime.strptime(value.strip(), pattern).date()
            except ValueError:
                continue
    raise InvalidInput(f"date attendue (jj/mm/aaaa) ; trouvé {shown(value)}")


# --- writing ---------------------------------------------------------------------------------


def count(n: int, singular: str, plural: str | None = None) -> str:
    """``n`` and the word, in the plural from 2 on as French has it (« 1 tournoi », « 0 tournoi », « 2 tournois »)."""
    return f"{n} {singular if abs(n) < 2 else plural or singular + 's'}"


def put(cell, value: object, number_format: str | None = None) -> None:
    """Write a value; text always stays text (``=HYPERLINK(…)`` as a name is never a formula)."""
    # The format goes first: a date written into a General cell would get openpyxl's yyyy-mm-dd.
    if number_format and cell.number_format != number_format:
        cell.number_format = number_format
    if isinstance(value, str):
        text = ILLEGAL_CHARACTERS_RE.sub("", value)
        cell.value = text
        cell.data_type = "s"
        quoted = text.startswith(FORMULA_STARTS)
        if cell.quotePrefix != quoted:
            cell.quotePrefix = quoted
    else:
        cell.value = value
        if cell.quotePrefix:
            cell.quotePrefix = False


_FAST_TYPES = {str: "s", int: "n", float: "n", dt.date: "d", dt.datetime: "d"}


def _put_rows(ws: Worksheet, columns: Sequence[Column], rows: Sequence[Sequence[object]], first_row: int,
              first_col: int) -> None:
    """:func:`put` for every non-blank value of ``rows``, the first of each kind of cell of a column made by
    :func:`put` itself and the others as its copies: the same cells, many times faster (a season's tables
    have hundreds of thousands of them)."""
    cells = ws._cells
    made: dict[tuple[int, str, bool], StyleArray] = {}  # (offset, data type, quoted) -> the first such cell's style
    texts: dict[str, tuple[str, bool]] = {}  # text -> (it without illegal characters, whether it looks like a formula)
    width = len(columns)
    area = (first_col, first_row, first_col + width - 1, first_row + len(rows) - 1)
    fresh = not _cells_in(ws, area)  # no cell there yet: none to keep the look of
    new = object.__new__
    for r, values in enumerate(rows, start=first_row):
        # Blanks create no cell: a season table is mostly blank (who did not play where).
        for offset, value in enumerate(values[:width]):
            if value is None:
                continue
            col = first_col + offset
            kind = _FAST_TYPES.get(value.__class__)
            if kind is None or (not fresh and (r, col) in cells) or (kind == "d" and not columns[offset].number_format):
                put(ws.cell(r, col), value, columns[offset].number_format)
                continue
            quoted = False
            if isinstance(value, str):
                known = texts.get(value)
                if known is None:
                    known = texts[value] = _clean(value)
                value, quoted = known
            key = (offset, kind, quoted)
            if key not in made:
                cell = ws.cell(r, col)
                put(cell, value, columns[offset].number_format)
                made[key] = cell._style
                continue
            # Cell(ws, r, col, style_array=…), its attributes set here: the constructor's calls cost half.
            style = made[key]
            cell = new(Cell)
            cell.parent, cell._style, cell.row, cell.column = ws, None if style is None else StyleArray(style), r, col
            cell._value, cell.data_type, cell._hyperlink, cell._comment = value, kind, None, None
            cells[r, col] = cell


def _clean(text: str) -> tuple[str, bool]:
    """A text as a cell takes it (no character XML forbids, at most 32,767 long), and whether it starts like a
    formula (then it is written with a quote prefix: it stays text)."""
    text = ILLEGAL_CHARACTERS_RE.sub("", text)[:32767]
    return text, text.startswith(FORMULA_STARTS)


@dataclass
class Output:
    """An output table ready to be written: where, under which columns, which rows, and its look."""

    spec: TableSpec
    columns: Sequence[Column]
    rows: Sequence[Sequence[object]]
    title: str | None = None  # written two rows above the table
    highlights: dict[int, str] = field(default_factory=dict)  # row index -> fill colour (RRGGBB)
    #: (row index, column index) -> the look of one cell (a weighted or set-aside result).
    marks: dict[tuple[int, int], Mark] = field(default_factory=dict)
    notes: Sequence[str] = ()  # legend lines printed under the table
    repeat_columns: int = 0  # leading columns (rank, name) repeated on every page when columns spill over


@dataclass(frozen=True)
class Mark:
    """The look of one cell of a published table: a fill colour, italic, struck through, grey text."""

    fill: str | None = None
    italic: bool = False
    strike: bool = False
    grey: bool = False

    def font(self) -> Font:
        return _mark_font(self.italic, self.strike, self.grey)


def _place(wb: Workbook, output: Output, at: tuple[int, int] | None) -> tuple[Worksheet, Table | None, int, int]:
    """Where an output table is, or where it will be created (``at``, else A1, or A3 under a title)."""
    found = find_table(wb, output.spec.name)
    if found:
        ws, table = found
        min_col, min_row, _, _ = bounds(table) or (1, TITLE_ROWS + 1 if output.title else 1, 1, 1)
        return ws, table, min_col, min_row
    sheet = output.spec.sheet
    ws = wb[sheet] if sheet in wb.sheetnames else wb.create_sheet(sheet)
    row, col = at or (TITLE_ROWS + 1 if output.title else 1, 1)
    return ws, None, col, row


def _occupied(ws: Worksheet, area: tuple[int, int, int, int], allowed: tuple[int, int, int, int] | None) -> str | None:
    """The first non-empty cell of ``area`` outside ``allowed``, if any."""
    for cell in sorted(_cells_in(ws, area), key=lambda c: (c.row, c.column)):
        if cell.value is None:
            continue
        if allowed and allowed[0] <= cell.column <= allowed[2] and allowed[1] <= cell.row <= allowed[3]:
            continue
        return cell.coordinate
    return None


def write_table(wb: Workbook, output: Output, problems: Problems,
                at: tuple[int, int] | None = None) -> Worksheet | None:
    """Rewrite a table, growing or shrinking it in place (or creating it at ``at``); returns its sheet.

    If the table would spread over cells of the organiser's, that is a problem and nothing is written.
    """
    spec, columns, rows = output.spec, output.columns, output.rows
    ws, table, min_col, min_row = _place(wb, output, at)
    old = bounds(table) if table is not None else None
    if table is not None and old is None:
        problems.add(Problem(ws.title, None, None, f"la table « {spec.name} » a une étendue illisible "
                             f"({str(table.ref)[:40]}) : supprimez-la (xlcircuit la recrée), puis relancez"))
        return None
    max_col = min_col + len(columns) - 1
    max_row = min_row + max(len(rows), 1)  # a table keeps at least one (blank) data row
    new = (min_col, min_row, max_col, max_row)
    if not _room_for(ws, spec, table, old, new, problems):
        return None
    if old is not None:
        _clear_table(ws, old)
    for offset, column in enumerate(columns):
        put(ws.cell(min_row, min_col + offset), column.header)
    _put_rows(ws, columns, rows, min_row + 1, min_col)
    _frame_table(ws, table, spec, columns, new)
    return ws


def _room_for(ws: Worksheet, spec: TableSpec, table: Table | None, old: tuple[int, int, int, int] | None,
              new: tuple[int, int, int, int], problems: Problems) -> bool:
    """Whether a table may spread over ``new``: inside the sheet, over no organiser's cell nor other table."""
    if new[3] > MAX_ROW or new[2] > MAX_COLUMN:
        problems.add(Problem(ws.title, None, None, f"la table « {spec.name} » dépasserait le bas ou le bord droit "
                             "de la feuille : déplacez-la vers le haut à gauche, puis relancez"))
        return False
    if old is not None:
        _clear_notes(ws, old)  # an earlier legend under the table is ours: the table may grow over it
    taken = _occupied(ws, new, old)
    others = [t for t in ws.tables.values() if t is not table and (b := bounds(t)) is not None and _overlap(b, new)]
    if taken or others:
        where = taken or others[0].ref
        problems.add(Problem(ws.title, None, None, f"la table « {spec.name} » doit s'étendre sur {where}, "
                             "qui n'est pas vide : déplacez ce qui s'y trouve, puis relancez", where))
        return False
    return True


def _clear_table(ws: Worksheet, old: tuple[int, int, int, int]) -> None:
    """Empty the area a table stood on of its values, the marks of an earlier fill and its conditional formats."""
    for cell in _cells_in(ws, old):
        cell.value = None
        if cell.fill.fill_type is not None:
            cell.fill = PatternFill()
        if cell.font.i or cell.font.strike:  # a weighted or set-aside result's mark
            cell.font = DEFAULT_FONT
        if cell.alignment.wrap_text and cell.row > old[1]:
            cell.alignment = Alignment()
    _drop_rules(ws, old)


def _frame_table(ws: Worksheet, table: Table | None, spec: TableSpec, columns: Sequence[Column],
                 area: tuple[int, int, int, int]) -> None:
    """Set (or create) the table object over ``area`` with its columns, and the widths the organiser left unset."""
    min_col, min_row, max_col, max_row = area
    ref = f"{get_column_letter(min_col)}{min_row}:{get_column_letter(max_col)}{max_row}"
    if table is None:
        table = Table(displayName=spec.name, ref=ref,
                      tableStyleInfo=TableStyleInfo(name=TABLE_STYLE, showRowStripes=True))
        ws.add_table(table)
    table.ref = ref
    table.autoFilter = AutoFilter(ref=ref)
    table.sortState = None
    table.tableColumns = [TableColumn(id=i, name=c.header) for i, c in enumerate(columns, start=1)]
    for offset, column in enumerate(columns):
        letter = get_column_letter(min_col + offset)
        if letter not in ws.column_dimensions:  # a width the organiser set is kept
            ws.column_dimensions[letter].width = column.width


def style_output(ws: Worksheet, output: Output) -> None:
    """The look of a published table and its sheet: :func:`style_table`, cell marks, legend, widths that fit,
    frozen header, print setup."""
    style_table(ws, output)
    min_col, min_row, max_col, max_row = table_bounds(ws, output.spec.name)
    fills: dict[str, int] = {}  # each look added to the workbook's styles once, not once a cell
    fonts: dict[Mark, int] = {}
    for (index, offset), mark in output.marks.items():
        cell = ws.cell(min_row + 1 + index, min_col + offset)
        if mark.fill:
            if mark.fill not in fills:
                fills[mark.fill] = ws.parent._fills.add(PatternFill("solid", fgColor=mark.fill))
            restyle([cell], "fillId", fills[mark.fill])
        if mark.italic or mark.strike or mark.grey:
            if mark not in fonts:
                fonts[mark] = ws.parent._fonts.add(mark.font())
            restyle([cell], "fontId", fonts[mark])
    last_row = write_notes(ws, output.notes, min_col, max_row)
    fit_widths(ws, output, min_col, min_row)
    if ws.freeze_panes is None:
        ws.freeze_panes = ws.cell(min_row + 1, 1)
    first_row = min_row - TITLE_ROWS if output.title and min_row > TITLE_ROWS else min_row
    # The print area takes the title and the legend's lines whole (14-point bold: half as wide again).
    spill = max([len(n) for n in output.notes] + [int(len(output.title or "") * 1.5)])
    last_col = max(max_col, _columns_for(ws, min_col, spill))
    ws.print_area = f"{get_column_letter(min_col)}{first_row}:{get_column_letter(last_col)}{last_row}"
    print_readable(ws, min_row, min_col, last_col, output.repeat_columns)


def print_one_page_wide(ws: Worksheet, header_row: int) -> None:
    """Print setup of an input table: :func:`print_readable` over the sheet's used columns, header repeated."""
    print_readable(ws, header_row, 1, max(ws.max_column, 1))


def column_points(width: float | None) -> float:
    """The printed width, in points, of a column ``width`` characters wide (Excel's 7-pixel digits + padding)."""
    return ((width if width is not None else 8.43) * 7 + 5) * 0.75


def _width(ws: Worksheet, min_col: int, max_col: int) -> float:
    return sum(column_points(ws.column_dimensions[get_column_letter(c)].width) for c in range(min_col, max_col + 1))


def fits(ws: Worksheet, min_col: int, max_col: int, scale: float, orientation: str = "landscape") -> bool:
    """Whether the columns fit a page's width at ``scale`` percent, in the widest fonts."""
    return _width(ws, min_col, max_col) * WIDE_FONTS * scale / 100 <= PRINTABLE[orientation]


def print_scale(ws: Worksheet, min_col: int, max_col: int, orientation: str = "landscape") -> int:
    """The print scale (percent) that fits columns ``min_col``..``max_col`` on a page's width, in the widest
    fonts a spreadsheet program may substitute for Calibri; never under ``MIN_SCALE`` nor over 100."""
    return max(MIN_SCALE, min(100, int(100 * PRINTABLE[orientation] / (_width(ws, min_col, max_col) * WIDE_FONTS))))


def print_readable(ws: Worksheet, header_row: int, min_col: int, max_col: int, repeat_columns: int = 0,
                   orientation: str = "landscape") -> None:
    """Print setup of a table: A4, at a fixed scale that fits it on a page's width but keeps 11-point text at
    ``MIN_SCALE`` % (8.8 points) or more, never a fit-to-page that would shrink it further; columns that do
    not fit go on the next pages (read across, then down), each repeating the header row and the first
    ``repeat_columns`` columns (rank, name); page numbers in the footer."""
    ws.print_title_rows = f"{header_row}:{header_row}"
    ws.page_setup.paperSize = PAPER_A4
    ws.page_setup.orientation = orientation
    ws.page_setup.pageOrder = "overThenDown"
    ws.oddFooter.center.text = "Page &P / &N"
    ws.oddFooter.left.text = "&A"
    ws.page_setup.fitToWidth = ws.page_setup.fitToHeight = None
    ws.sheet_properties.pageSetUpPr.fitToPage = False
    ws.page_setup.scale = print_scale(ws, min_col, max_col, orientation)
    if repeat_columns and not fits(ws, min_col, max_col, ws.page_setup.scale, orientation):
        ws.print_title_cols = f"{get_column_letter(min_col)}:{get_column_letter(min_col + repeat_columns - 1)}"
    else:  # one page wide: repeated columns would only print pages of them alone
        ws.print_title_cols = None


def _columns_for(ws: Worksheet, min_col: int, characters: int) -> int:
    """The last column a text of ``characters`` written in ``min_col`` spills over to."""
    col, room = min_col, 0.0
    while True:
        room += ws.column_dimensions[get_column_letter(col)].width or 8.43
        if room >= characters * TEXT_WIDTH:
            return col
        col += 1


def write_notes(ws: Worksheet, notes: Sequence[str], min_col: int, max_row: int) -> int:
    """Write a table's legend one line a row, a blank row under the table; returns the last row printed.
    A cell of the organiser's there is kept (that line of the legend is left out)."""
    row = max_row
    for text in notes[:MAX_NOTES]:
        row += 1
        cell = ws.cell(row + 1, min_col)
        if cell.value is not None:
            continue
        put(cell, text)
        cell.font = NOTE_FONT
    return row + 1 if notes else max_row


def is_note(cell) -> bool:
    """Whether a cell is a line of the legend :func:`write_notes` put under a table."""
    return (isinstance(cell.value, str) and cell.font.i and cell.font.color is not None
            and cell.font.color.rgb == NOTE_FONT.color.rgb)


def _clear_notes(ws: Worksheet, area: tuple[int, int, int, int]) -> None:
    """Remove the legend an earlier fill wrote under a table (cells in its look only)."""
    for row in range(area[3] + 2, area[3] + 2 + MAX_NOTES):
        cell = ws._cells.get((row, area[0]))
        if cell is not None and is_note(cell):
            del ws._cells[row, area[0]]


def shown_text(value: object, number_format: str | None) -> str:
    """About what a cell shows, for its width: a number as its format rounds it, a date as dd/mm/yyyy."""
    if isinstance(value, (dt.date, dt.datetime)):
        return "00/00/0000"
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    section = (number_format or "").split(";")[0]
    decimals = len(section.split(".")[1].rstrip("%")) if "." in section else 0
    text = f"{value:.{decimals}f}" if isinstance(value, float) or decimals else str(value)
    return text + (" %" if "%" in section else "") + ("+" if section.startswith("+") else "")


def _longest_shown(values: Sequence[object], number_format: str | None) -> int:
    """The length of the longest :func:`shown_text` of ``values``: of numbers, the largest's or the smallest's
    (the shown text of a number grows with its size), without formatting a season's every number."""
    # A season's values repeat: each looked at once (but True and 1 are one for a set).
    distinct = [v for v in values if v is not None] if bool in set(map(type, values)) else set(values) - {None}
    numbers = [v for v in distinct if v.__class__ in (int, float)]
    shown = [v for v in distinct if v.__class__ not in (int, float)]
    if numbers:
        shown += [max(numbers), min(numbers)]
    return max((len(shown_text(value, number_format)) for value in shown), default=0)


def fit_widths(ws: Worksheet, output: Output, min_col: int, min_row: int) -> None:
    """Each column as wide as what it shows (up to ``MAX_WIDTH``, longer text wraps), its header on at most
    three lines; the header row as high as its longest header needs."""
    lines = 2
    by_column = list(itertools.zip_longest(*output.rows))  # the rows turned into columns at C speed
    for offset, column in enumerate(output.columns):
        content = _longest_shown(by_column[offset] if offset < len(by_column) else (), column.number_format)
        words = column.header.split()
        header = max(max((len(w) for w in words), default=1), -(-len(column.header) // 3))
        width = min(MAX_WIDTH, max(content, header, 4) + 2)
        ws.column_dimensions[get_column_letter(min_col + offset)].width = width
        lines = max(lines, _wrapped_lines(words, width - 1))
        if content > MAX_WIDTH - 2:
            long = [ws.cell(min_row + 1 + index, min_col + offset) for index, value in enumerate(by_column[offset])
                    if isinstance(value, str) and len(value) > MAX_WIDTH - 2]
            if long:
                restyle(long, "alignmentId", ws.parent._alignments.add(WRAPPED))
    ws.row_dimensions[min_row].height = max(HEADER_HEIGHT, 15 * lines + 2)


#: The look of a text longer than its column is wide: wrapped, from the top of its cell.
WRAPPED = Alignment(wrap_text=True, vertical="top")


def _wrapped_lines(words: Sequence[str], width: float) -> int:
    """Lines a header takes, wrapped at spaces in a column ``width`` characters wide."""
    lines, used = 1, 0
    for word in words:
        need = len(word) + (1 if used else 0)
        if used and used + need > width:
            lines, used = lines + 1, len(word)
        else:
            used += need
    return lines


def style_table(ws: Worksheet, output: Output) -> None:
    """The look of a published table: its title, wrapped header, highlighted rows, data bars."""
    min_col, min_row, max_col, max_row = table_bounds(ws, output.spec.name)
    if output.title and min_row > TITLE_ROWS:
        title = ws.cell(min_row - TITLE_ROWS, min_col)
        put(title, output.title)
        title.font = TITLE_FONT
    # Long headers (tournament names) wrap instead of spilling.
    restyle([ws.cell(min_row, col) for col in range(min_col, max_col + 1)], "alignmentId",
            ws.parent._alignments.add(HEADER_ALIGNMENT))
    ws.row_dimensions[min_row].height = HEADER_HEIGHT
    for index, colour in output.highlights.items():
        restyle([ws.cell(min_row + 1 + index, col) for col in range(min_col, max_col + 1)], "fillId",
                ws.parent._fills.add(PatternFill("solid", fgColor=colour)))
    bars = [offset for offset, column in enumerate(output.columns) if column.data_bar] if output.rows else []
    # After the organiser's rules, numbered from what is there (openpyxl's counter only grows).
    # dict.values: iterating the list (or its ordered dict) would re-set or hash every range's rules.
    rules = dict.values(ws.conditional_formatting._cf_rules)
    priority = max((r.priority or 0 for listed in rules for r in listed), default=0) if bars else 0
    for offset in bars:
        letter = get_column_letter(min_col + offset)
        priority += 1
        rule = DataBarRule(start_type="num", start_value=0, end_type="max", color=DATA_BAR_COLOUR)
        rule.priority = priority
        ws.conditional_formatting.add(f"{letter}{min_row + 1}:{letter}{max_row}", rule)


def restyle(cells: Iterable[Cell], key: str, index: int) -> None:
    """Set one index of the cells' style (``fillId``, ``alignmentId``…) to a look already added to the
    workbook's list of them: added once, not once a cell (each addition compares it with every other)."""
    for cell in cells:
        if not cell._style:
            cell._style = StyleArray()
        setattr(cell._style, key, index)


def write_outputs(wb: Workbook, outputs: Sequence[Output]) -> list[Worksheet]:
    """Write every output table with its look, or none: all problems are reported together."""
    problems = Problems()
    sheets = [write_table(wb, output, problems) for output in outputs]
    if problems:
        raise WorkbookProblems(problems.items)
    for ws, output in zip(sheets, outputs):
        style_output(ws, output)
    return sheets


def _drop_rules(ws: Worksheet, *areas: tuple[int, int, int, int]) -> None:
    """Remove the conditional formats a previous fill put inside output tables (each inside one of ``areas``)."""
    rules = ws.conditional_formatting._cf_rules
    # dict.items: the ordered dict's own iteration would hash each range (openpyxl hashes its text) again.
    for formatting, _ in list(dict.items(rules)):
        bounds = [range_boundaries(str(r)) for r in formatting.sqref.ranges]
        if bounds and all(any(_inside(b, area) for area in areas) for b in bounds):
            del rules[formatting]


def _inside(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return b[0] <= a[0] and a[2] <= b[2] and b[1] <= a[1] and a[3] <= b[3]


def _cells_in(ws: Worksheet, area: tuple[int, int, int, int]) -> list:
    """The cells that exist in ``area`` (iter_rows would create every cell of the rectangle), looked up one
    by one in a small area (a group table on a sheet of a hundred), else found among the sheet's cells."""
    min_col, min_row, max_col, max_row = area
    cells = ws._cells
    if (max_row - min_row + 1) * (max_col - min_col + 1) < len(cells):
        found = (cells.get((row, col)) for row in range(min_row, max_row + 1) for col in range(min_col, max_col + 1))
        return [cell for cell in found if cell is not None]
    return [cell for (row, col), cell in cells.items() if min_row <= row <= max_row and min_col <= col <= max_col]


def _overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]


def type_rows(wb: Workbook, spec: TableSpec, rows: Sequence[Sequence[object]]) -> None:
    """Type rows into an input table, as an organiser would (the example season, tests, benchmarks)."""
    problems = Problems()
    write_table(wb, Output(spec, spec.columns, rows), problems)
    if problems:
        raise WorkbookProblems(problems.items)


def add_input_table(wb: Workbook, spec: TableSpec, at: tuple[int, int] = (1, 1)) -> None:
    """Put an empty input table at ``at`` (row, column), with drop-down lists where the spec offers choices."""
    problems = Problems()
    ws = write_table(wb, Output(spec, spec.columns, []), problems, at)
    if ws is None:
        raise WorkbookProblems(problems.items)
    ws.freeze_panes = ws.cell(at[0] + 1, 1)
    print_one_page_wide(ws, at[0])
    first = at[0] + 1
    for offset, column in enumerate(spec.columns, start=at[1]):
        letter = get_column_letter(offset)
        if column.choices:
            rule = DataValidation(type="list", formula1='"' + ",".join(column.choices) + '"', allow_blank=True,
                                  showErrorMessage=False)
            rule.add(f"{letter}{first}:{letter}{first + VALIDATION_ROWS - 1}")
            ws.add_data_validation(rule)


def chart_title(chart) -> str:
    """The plain text of a chart's title ('' without one)."""
    rich = chart.title.tx.rich if chart.title is not None and chart.title.tx is not None else None
    if rich is None:
        return ""
    return "".join(run.t or "" for paragraph in rich.p for run in (paragraph.r or []))


def remove_tables(ws: Worksheet, names: Sequence[str]) -> list[tuple[int, int, int, int]]:
    """Remove published tables of ``ws`` with what :func:`write_table` and :func:`style_output` put there:
    their cells (values and looks), titles, conditional formats, header rows' heights. Returns where each
    stood. For tables laid out afresh at each fill (several stacked on a sheet, in varying number)."""
    areas = []
    for name in names:
        key = _key(ws, name)
        area = range_boundaries(ws.tables[key].ref)
        del ws.tables[key]
        for cell in _cells_in(ws, area):
            del ws._cells[cell.row, cell.column]
        if area[1] > TITLE_ROWS:
            ws._cells.pop((area[1] - TITLE_ROWS, area[0]), None)
        header = ws.row_dimensions.get(area[1])
        if header is not None and header.height == HEADER_HEIGHT:
            header.height = None
            if not dict(header):  # nothing else set on that row: as if never touched
                del ws.row_dimensions[area[1]]
        areas.append(area)
    _drop_rules(ws, *areas)
    return areas
