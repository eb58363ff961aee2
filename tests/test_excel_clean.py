"""Every workbook xlcircuit writes looks like what Excel writes: no finding of ``excel_check`` (openxml-audit and
the structural rules) of a kind that workbooks saved by Excel never have, on every path that writes one, from
workbooks xlcircuit made, LibreOffice saved and Excel saved (``tests/excel_made/``), filled, saved again by
another program and filled again.
"""

from __future__ import annotations

import openpyxl
from excel_check import column_findings
from hypothesis import given, settings
from hypothesis import strategies as st
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.dimensions import ColumnDimension

from xlcircuit.workbook.layout import column_width, print_readable, set_column_width

# --- column widths over the ranges Excel and LibreOffice write --------------------------------------


@st.composite
def column_ranges(draw) -> list[tuple[int, int, float]]:
    """Sorted, disjoint column ranges (first, last, width), as a spreadsheet program saves them."""
    bounds = sorted(draw(st.sets(st.integers(1, 40), min_size=0, max_size=12)))
    pairs = [(bounds[i], bounds[i + 1]) for i in range(0, len(bounds) - 1, 2)]
    return [(low, high, draw(st.sampled_from([5.0, 9.5, 20.0]))) for low, high in pairs]


def sheet_with(ranges: list[tuple[int, int, float]]):
    wb = openpyxl.Workbook()
    ws = wb.active
    for low, high, width in ranges:
        letter = get_column_letter(low)
        ws.column_dimensions[letter] = ColumnDimension(ws, index=letter, width=width, min=low, max=high, hidden=False)
        ws.column_dimensions[letter]._style = openpyxl.styles.cell_style.StyleArray([0, 1, 0, 0, 0, 0, 0, 0, 0])
    return ws


def written_cols(ws) -> list[tuple[int, int, float, int]]:
    """The ``<col>`` elements openpyxl writes for the sheet: (min, max, width, font id of the style)."""
    tree = ws.column_dimensions.to_tree()
    if tree is None:
        return []
    return [(int(c.get("min")), int(c.get("max")), float(c.get("width")), int(c.get("style", "0"))) for c in tree]


@settings(max_examples=60, deadline=None)
@given(column_ranges(), st.dictionaries(st.integers(1, 45), st.sampled_from([7.0, 12.0, 33.0]), max_size=8))
def test_a_width_set_inside_a_range_splits_it_and_the_ranges_stay_sorted_and_disjoint(ranges, widths):
    ws = sheet_with(ranges)
    before = {col: (width, 1) for low, high, width in ranges for col in range(low, high + 1)}
    for col, width in widths.items():
        set_column_width(ws, col, width)
    cols = written_cols(ws)
    assert all(low <= high for low, high, _, _ in cols)
    assert all(a[1] < b[0] for a, b in zip(cols, cols[1:])), cols  # sorted, no overlap
    after = {col: (width, style) for low, high, width, style in cols for col in range(low, high + 1)}
    for col in range(1, 46):
        if col in widths:
            assert after[col][0] == widths[col] and column_width(ws, col) == widths[col]
        elif col in before:
            assert after[col] == before[col]  # the rest of a split range keeps its width and look
        else:
            assert col not in after
    # A range no width touched is left whole, as the organiser's program wrote it.
    for low, high, width in ranges:
        if not any(low <= col <= high for col in widths):
            assert (low, high, width, 1) in cols


def test_reading_a_width_inside_a_range_adds_no_column():
    ws = sheet_with([(5, 9, 9.5)])
    assert column_width(ws, 7) == 9.5 and column_width(ws, 12) is None
    assert written_cols(ws) == [(5, 9, 9.5, 1)]


def test_the_check_finds_overlapping_column_ranges():
    ws = sheet_with([(5, 9, 9.5)])
    ws.column_dimensions["F"].width = 20  # what openpyxl does by itself: a second <col> inside the range
    root = openpyxl.xml.functions.Element("{http://schemas.openxmlformats.org/spreadsheetml/2006/main}worksheet")
    cols = ws.column_dimensions.to_tree()
    cols.tag = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}cols"
    for col in cols:
        col.tag = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}col"
    root.append(cols)
    assert [f.kind for f in column_findings("sheet1.xml", root)] == ["col ranges overlap"]


def test_columns_repeated_by_an_earlier_fill_go_when_the_table_fits_one_page():
    ws = openpyxl.Workbook().active
    for col in range(1, 30):
        set_column_width(ws, col, 20)
    print_readable(ws, 3, 1, 29, repeat_columns=2)
    assert ws.print_title_cols == "$A:$B"
    print_readable(ws, 3, 1, 3, repeat_columns=2)
    assert ws.print_title_cols is None and ws.print_titles.endswith("$3:$3")
