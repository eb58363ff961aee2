"""The published look: titles, headers, marks, legends, widths that fit, and print setup (A4, text at
8 points or more, columns that do not fit on the next pages)."""

from __future__ import annotations

import datetime as dt
import functools
import itertools
from collections.abc import Iterable, Sequence
from copy import copy

from openpyxl.cell.cell import Cell
from openpyxl.formatting.rule import DataBarRule
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.styles.cell_style import StyleArray
from openpyxl.styles.fonts import DEFAULT_FONT
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.dimensions import ColumnDimension
from openpyxl.worksheet.worksheet import Worksheet

from .cells import put
from .read import table_bounds
from .spec import Mark, Output

TITLE_ROWS = 2  # a published table stands two rows under its title


TITLE_FONT = Font(bold=True, size=14)


HEADER_ALIGNMENT = Alignment(wrap_text=True, vertical="center")


HEADER_HEIGHT = 32  # points: two lines of header text


DATA_BAR_COLOUR = "5B9BD5"


def is_our_rule(rule) -> bool:
    """Whether a conditional format is one :func:`style_table` puts on a published table (its data bars, in
    our colour): rewritten at each fill. Every other rule is the organiser's, and stays."""
    bar = getattr(rule, "dataBar", None)
    colour = getattr(getattr(bar, "color", None), "rgb", None)
    return rule.type == "dataBar" and isinstance(colour, str) and colour.upper().endswith(DATA_BAR_COLOUR)


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
def mark_font(italic: bool, strike: bool, grey: bool) -> Font:
    """One font object per look: a season marks tens of thousands of cells alike."""
    return body_font(italic=italic, strike=strike, color="FF7F7F7F" if grey else None)


MAX_NOTES = 12
#: Rows a legend may take once its lines are wrapped to the printed page: what a later fill clears.
MAX_NOTE_ROWS = 40


#: Widest a published column grows to fit its content (characters); longer text wraps.
MAX_WIDTH = 48


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
                fonts[mark] = ws.parent._fonts.add(mark_font(mark.italic, mark.strike, mark.grey))
            restyle([cell], "fontId", fonts[mark])
    fit_widths(ws, output, min_col, min_row)
    if ws.freeze_panes is None:
        ws.freeze_panes = ws.cell(min_row + 1, 1)
    print_readable(ws, min_row, min_col, max_col, output.repeat_columns)
    # Nothing printed is cut at a page's edge. The legend goes where page 1 prints it whole: wrapped to the
    # columns page 1 holds, after the columns repeated on every page when the table spills over (a line typed
    # in a repeated column would be printed cut on each continuation page).
    spills = ws.print_title_cols is not None
    first, last = min_col + (output.repeat_columns if spills else 0), _page_end(ws, min_col)
    last_row = write_notes(ws, wrap_notes(output.notes, _characters(ws, first, last)), first, max_row)
    # The title (14-point bold: half as wide again) likewise: in the sheet if page 1 prints it whole and nothing
    # repeats it cut; else at the top of every printed page, as the page header.
    in_sheet = not spills and len(output.title or "") * 1.5 <= _characters(ws, min_col, last)
    first_row = min_row - TITLE_ROWS if output.title and in_sheet and min_row > TITLE_ROWS else min_row
    header = ws.oddHeader.center
    header.text, header.size, header.font = (None, None, None) if in_sheet else (output.title, 14, "Calibri,Bold")
    last_col = max(max_col, last) if output.notes else max_col
    ws.print_area = f"{get_column_letter(min_col)}{first_row}:{get_column_letter(last_col)}{last_row}"


def print_one_page_wide(ws: Worksheet, header_row: int) -> None:
    """Print setup of an input table: :func:`print_readable` over the sheet's used columns, header repeated."""
    print_readable(ws, header_row, 1, max(ws.max_column, 1))


def column_points(width: float | None) -> float:
    """The printed width, in points, of a column ``width`` characters wide (Excel's 7-pixel digits + padding)."""
    return ((width if width is not None else 8.43) * 7 + 5) * 0.75


def _width(ws: Worksheet, min_col: int, max_col: int) -> float:
    return sum(column_points(column_width(ws, c)) for c in range(min_col, max_col + 1))


# --- column widths: Excel and LibreOffice save identical adjacent columns as one <col min max> range ---


def _covering(ws: Worksheet, col: int) -> ColumnDimension | None:
    """The column dimension that covers column ``col``: its own, or a range's (None: the sheet's default)."""
    dims = ws.column_dimensions
    own = dict.get(dims, get_column_letter(col))  # dict.get: the mapping's [] would create one
    if own is not None and (own.min is None or own.max is None or own.min <= col <= own.max):
        return own
    return next((d for d in dict.values(dims) if d.min is not None and d.max is not None and d.min <= col <= d.max),
                None)


def column_width(ws: Worksheet, col: int) -> float | None:
    """The width the sheet gives column ``col`` (None: the default), read without adding a dimension."""
    dim = _covering(ws, col)
    return dim.width if dim is not None and dim.customWidth else None


def set_column_width(ws: Worksheet, col: int, width: float) -> None:
    """Give column ``col`` its own width. A range of columns it belongs to is split around it (its other
    columns keep their look), never overlapped by a second ``<col>``: Excel repairs overlapping ranges."""
    dim = _covering(ws, col)
    if dim is None or dim.min is None or dim.max is None or dim.min == dim.max:
        (dim if dim is not None else ws.column_dimensions[get_column_letter(col)]).width = width
        return
    low, high = dim.min, dim.max
    if col < high:
        _column_piece(ws, dim, col + 1, high)
    if col > low:
        dim.max = col - 1
        dim = _column_piece(ws, dim, col, col)
    else:
        dim.max = col
    dim.width = width


def _column_piece(ws: Worksheet, dim: ColumnDimension, low: int, high: int) -> ColumnDimension:
    """A new dimension over columns ``low``..``high`` with the look of ``dim``."""
    letter = get_column_letter(low)
    piece = ColumnDimension(ws, index=letter, width=dim.width, bestFit=dim.bestFit, hidden=dim.hidden,
                            outlineLevel=dim.outlineLevel, collapsed=dim.collapsed, min=low, max=high)
    piece._style = copy(dim._style)
    ws.column_dimensions[letter] = piece
    return piece


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
    else:  # one page wide: repeated columns would only print pages of them alone (an earlier fill's go)
        ws._print_cols = None  # openpyxl's setter ignores None


def _page_end(ws: Worksheet, min_col: int) -> int:
    """The last column the first printed page holds, from ``min_col``, at the sheet's print scale: where
    the columns that do not fit start their own pages (a little room kept for the program's own rounding)."""
    room = PRINTABLE[ws.page_setup.orientation or "landscape"] * 100 / (ws.page_setup.scale or 100) * 0.97
    col, used = min_col, column_points(column_width(ws, min_col))
    while used + column_points(column_width(ws, col + 1)) <= room:
        col += 1
        used += column_points(column_width(ws, col))
    return col


def _characters(ws: Worksheet, first: int, last: int) -> int:
    """The characters of 11-point text a line holds over columns ``first``..``last``, in the widest fonts."""
    width = sum(column_width(ws, c) or 8.43 for c in range(first, last + 1))
    return max(20, int(width / (TEXT_WIDTH * WIDE_FONTS)))


def wrap_notes(notes: Sequence[str], characters: int) -> list[str]:
    """A legend's lines cut at spaces into lines of at most ``characters`` (a longer word keeps its line)."""
    lines: list[str] = []
    for note in notes[:MAX_NOTES]:
        words = note.split(" ")
        line = words[0]
        for word in words[1:]:
            if len(line) + 1 + len(word) <= characters:
                line += " " + word
            else:
                lines.append(line)
                line = word
        lines.append(line)
    return lines[:MAX_NOTE_ROWS]


def write_notes(ws: Worksheet, notes: Sequence[str], min_col: int, max_row: int) -> int:
    """Write a table's legend one line a row, a blank row under the table; returns the last row printed.
    A cell of the organiser's there is kept (that line of the legend is left out)."""
    row = max_row
    for text in notes[:MAX_NOTE_ROWS]:
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


def clear_notes(ws: Worksheet, area: tuple[int, int, int, int]) -> None:
    """Remove the legend an earlier fill wrote under a table (cells in its look only, in the table's columns)."""
    for row in range(area[3] + 2, area[3] + 2 + MAX_NOTE_ROWS):
        for col in range(area[0], area[2] + 1):
            cell = ws._cells.get((row, col))
            if cell is not None and is_note(cell):
                del ws._cells[row, col]


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
        set_column_width(ws, min_col + offset, width)
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


def chart_title(chart) -> str:
    """The plain text of a chart's title ('' without one)."""
    rich = chart.title.tx.rich if chart.title is not None and chart.title.tx is not None else None
    if rich is None:
        return ""
    return "".join(run.t or "" for paragraph in rich.p for run in (paragraph.r or []))

