"""Input tables (ListObjects) found by table name and header text, never by cell address, so that an
organiser may move them, restyle them and add columns of his own; rows typed under a table are taken in."""

from __future__ import annotations

import hashlib
import weakref
from collections.abc import Sequence
from typing import Any

from openpyxl.cell.cell import Cell
from openpyxl.utils import get_column_letter, range_boundaries
from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.table import Table
from openpyxl.worksheet.worksheet import Worksheet

from ..rules.errors import Problem
from ..rules.text import fold
from ..xlsx import CONDITIONAL_FORMAT_EXTENSIONS, Book
from .cells import error_message, error_value
from .spec import Problems, Record, TableSpec


def find_table(wb: Workbook, name: str) -> tuple[Worksheet, Table] | None:
    """The table called ``name`` (Excel compares table names without case), wherever it is."""
    for ws in wb.worksheets:
        for table in ws.tables.values():  # ws.tables.items() gives refs, not tables
            if str(table.displayName or table.name or "").casefold() == name.casefold():
                return ws, table
    return None


def table_bounds(ws: Worksheet, name: str) -> tuple[int, int, int, int]:
    """(first column, first row, last column, last row) of a table of ``ws`` that was just written."""
    area: tuple[int, int, int, int] = range_boundaries(ws.tables[table_key(ws, name)].ref)
    return area


def table_key(ws: Worksheet, name: str) -> str:
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


def is_blank(value: object) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def read_table(book: Book, spec: TableSpec, problems: Problems) -> list[Record]:
    """The non-blank rows of an input table, with what each of the spec's columns shows.

    A missing table or required column is added to ``problems`` (and no rows are returned). Rows typed
    under the table, right under it or after blank rows, are never ignored: they are taken into the table
    (grown to hold them, with a warning in ``book.warnings`` naming them), or reported as problems.
    """
    located = _input_table(book, spec, problems)
    if located is None:
        _note(book, spec, [])
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
    _note(book, spec, records)
    return records


#: What each workbook's input tables held as they were read, hashed (:func:`inputs_digest`).
_DIGESTS: weakref.WeakKeyDictionary[Book, Any] = weakref.WeakKeyDictionary()


def _note(book: Book, spec: TableSpec, records: list[Record]) -> None:
    digest = _DIGESTS.get(book)
    if digest is None:
        digest = _DIGESTS[book] = hashlib.sha256()
    digest.update(f"\x1e{spec.name.casefold()}".encode())
    for record in records:
        digest.update(repr(tuple(record.values.values())).encode("utf-8", "surrogatepass"))


def inputs_digest(book: Book) -> str:
    """A digest of what the input tables read from ``book`` so far held (their values, in their order, rows
    apart): two reads of the same tables give the same digest, any change of a value another."""
    digest = _DIGESTS.get(book)
    return (digest.copy() if digest is not None else hashlib.sha256()).hexdigest()[:12]


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
                   and any(not is_blank(book.value(c)) for c in cells.values()))
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
        error = error_value(value, cell.data_type)
        if error is not None:  # #N/A, #REF!…: no data, never a name or a number (the line stays, unread)
            problems.unreadable(Problem(sheet, row, header, error_message(error, cell.data_type == "f"),
                                        cells[header]))
            values[header] = None
            blank = False
            continue
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
            if row == max_row + 1 or any(not is_blank(book.value(c)) for (r, col), c in ws._cells.items()
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
    """Extended conditional formats on the data-bar columns of output tables are the data bars of an earlier
    fill, as a spreadsheet program re-saved them: they are rewritten, so losing them is no loss to warn of.
    Any other one (the organiser's icon set or colour scale on a published table) is still said."""
    bars = [(ws.title, area) for spec in specs if (found := find_table(book.wb, spec.name))
            for ws, table in [found] for area in _data_bar_columns(spec, table)]

    def inside_ref(ref: str, area: tuple[int, int, int, int]) -> bool:
        try:
            return inside(range_boundaries(ref), area)
        except (ValueError, TypeError):  # a range the file garbles is no data bar of ours
            return False

    def ours(unkept) -> bool:
        return unkept.what == CONDITIONAL_FORMAT_EXTENSIONS and bool(unkept.ranges) and all(
            any(sheet == unkept.sheet and inside_ref(r, area) for sheet, area in bars)
            for r in unkept.ranges)

    book.unkept = [u for u in book.unkept if not ours(u)]


def _data_bar_columns(spec: TableSpec, table: Table) -> list[tuple[int, int, int, int]]:
    """The areas of an output table's columns that a fill shows with data bars (``Column.data_bar``), found
    by their headers."""
    area = bounds(table)
    if area is None:
        return []
    barred = {fold(c.header) for c in spec.columns if c.data_bar}
    headers = [fold(str(c.name or "")) for c in table.tableColumns]
    return [(area[0] + i, area[1], area[0] + i, area[3]) for i, header in enumerate(headers) if header in barred]


def inside(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return b[0] <= a[0] and a[2] <= b[2] and b[1] <= a[1] and a[3] <= b[3]


def cells_in(ws: Worksheet, area: tuple[int, int, int, int]) -> list:
    """The cells that exist in ``area`` (iter_rows would create every cell of the rectangle), looked up one
    by one in a small area (a group table on a sheet of a hundred), else found among the sheet's cells."""
    min_col, min_row, max_col, max_row = area
    cells = ws._cells
    if (max_row - min_row + 1) * (max_col - min_col + 1) < len(cells):
        found = (cells.get((row, col)) for row in range(min_row, max_row + 1) for col in range(min_col, max_col + 1))
        return [cell for cell in found if cell is not None]
    return [cell for (row, col), cell in cells.items() if min_row <= row <= max_row and min_col <= col <= max_col]


def overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]

