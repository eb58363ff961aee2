"""Output tables rewritten in place at each fill (grown or shrunk; whatever stands around them on their
sheet is left alone), input tables typed into (the example, tests), tables laid out afresh removed."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from openpyxl.cell.cell import Cell
from openpyxl.styles import Alignment, PatternFill
from openpyxl.styles.cell_style import StyleArray
from openpyxl.styles.fonts import DEFAULT_FONT
from openpyxl.utils import get_column_letter, range_boundaries
from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.worksheet.filters import AutoFilter
from openpyxl.worksheet.table import Table, TableColumn, TableStyleInfo
from openpyxl.worksheet.worksheet import Worksheet

from ..rules.errors import Problem, WorkbookProblems
from .cells import clean_text, put
from .layout import (
    HEADER_HEIGHT,
    TITLE_ROWS,
    clear_notes,
    column_width,
    is_our_rule,
    print_one_page_wide,
    set_column_width,
    style_output,
)
from .read import MAX_COLUMN, MAX_ROW, bounds, cells_in, find_table, inside, overlap, table_key
from .spec import Column, Output, Problems, TableSpec

TABLE_STYLE = "TableStyleMedium2"


#: Rows given a drop-down list in a fresh template.
VALIDATION_ROWS = 2000


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
    fresh = not cells_in(ws, area)  # no cell there yet: none to keep the look of
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
                    known = texts[value] = clean_text(value)
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
    for cell in sorted(cells_in(ws, area), key=lambda c: (c.row, c.column)):
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
        _follow_rows(ws, old, new)
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
        clear_notes(ws, old)  # an earlier legend under the table is ours: the table may grow over it
    taken = _occupied(ws, new, old)
    others = [t for t in ws.tables.values() if t is not table and (b := bounds(t)) is not None and overlap(b, new)]
    if taken or others:
        where = taken or others[0].ref
        problems.add(Problem(ws.title, None, None, f"la table « {spec.name} » doit s'étendre sur {where}, "
                             "qui n'est pas vide : déplacez ce qui s'y trouve, puis relancez", where))
        return False
    return True


def _clear_table(ws: Worksheet, old: tuple[int, int, int, int]) -> None:
    """Empty the area a table stood on of its values, the marks of an earlier fill and its conditional formats."""
    for cell in cells_in(ws, old):
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
    table.headerRowCount, table.totalsRowCount = 1, None  # one header row, no totals row, whatever the file said
    table.autoFilter = AutoFilter(ref=ref)
    table.sortState = None
    table.tableColumns = [TableColumn(id=i, name=c.header) for i, c in enumerate(columns, start=1)]
    for offset, column in enumerate(columns):
        if column_width(ws, min_col + offset) is None:  # a width the organiser set is kept
            set_column_width(ws, min_col + offset, column.width)


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
    """Remove the conditional formats a previous fill put inside output tables (each inside one of ``areas``):
    its data bars (:func:`layout.is_our_rule`). The organiser's own rules there stay."""
    rules = ws.conditional_formatting._cf_rules
    # dict.items: the ordered dict's own iteration would hash each range (openpyxl hashes its text) again.
    for formatting, listed in list(dict.items(rules)):
        bounds = [range_boundaries(str(r)) for r in formatting.sqref.ranges]
        if not (bounds and all(any(inside(b, area) for area in areas) for b in bounds)):
            continue
        kept = [rule for rule in listed if not is_our_rule(rule)]
        if not kept:
            del rules[formatting]
        elif len(kept) < len(listed):
            rules[formatting] = kept


def _follow_rows(ws: Worksheet, old: tuple[int, int, int, int], new: tuple[int, int, int, int]) -> None:
    """The organiser's conditional formats over whole columns of a published table's rows follow its rows
    when a fill grows or shrinks it (a rule on D4:D87 becomes D4:D95)."""
    first, last = old[1] + 1, old[3]
    if last < first or new[3] == last:
        return
    rules = ws.conditional_formatting._cf_rules
    for formatting, listed in list(dict.items(rules)):
        ranges = [range_boundaries(str(r)) for r in formatting.sqref.ranges]
        moved = [(c1, r1, c2, new[3] if (r1, r2) == (first, last) and old[0] <= c1 and c2 <= old[2] else r2)
                 for c1, r1, c2, r2 in ranges]
        if moved != ranges:
            del rules[formatting]
            area = " ".join(f"{get_column_letter(c1)}{r1}:{get_column_letter(c2)}{r2}" for c1, r1, c2, r2 in moved)
            for rule in listed:
                ws.conditional_formatting.add(area, rule)


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


def remove_tables(ws: Worksheet, names: Sequence[str]) -> list[tuple[int, int, int, int]]:
    """Remove published tables of ``ws`` with what :func:`write_table` and :func:`style_output` put there:
    their cells (values and looks), titles, conditional formats, header rows' heights. Returns where each
    stood. For tables laid out afresh at each fill (several stacked on a sheet, in varying number)."""
    areas = []
    for name in names:
        key = table_key(ws, name)
        area = range_boundaries(ws.tables[key].ref)
        del ws.tables[key]
        for cell in cells_in(ws, area):
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

