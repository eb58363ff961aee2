"""What every federation's workbook module promises (``xlcircuit/workbook/__init__.py``): the
committed template is what ``new`` writes, the bundled example fills, and LibreOffice shows the
published standings exactly as written."""

from __future__ import annotations

import datetime as dt
import random
import zipfile
from pathlib import Path

import openpyxl
import pytest
from conftest import example, sheets_as_csv, table_rows

from xlcircuit.federations import ADAPTERS as FEDERATIONS
from xlcircuit.rules.errors import WorkbookProblems
from xlcircuit.workbook import layout
from xlcircuit.workbook.read import find_table
from xlcircuit.workbook.spec import Output, TableSpec
from xlcircuit.xlsx import Book, save_atomic

WORKBOOKS = Path(__file__).parent.parent / "workbooks"
MODULES = [pytest.param(module, id=code) for code, module in FEDERATIONS.items()]


@pytest.fixture(params=MODULES)
def module(request):
    return request.param


def test_the_module_provides_the_whole_interface(module):
    for name in ("code", "title", "template", "example"):
        assert isinstance(getattr(module, name), str) and getattr(module, name)
    assert FEDERATIONS[module.code] is module
    assert module.inputs and all(isinstance(spec, TableSpec) for spec in module.inputs)
    assert isinstance(module.standings, TableSpec) and isinstance(module.lines, TableSpec)
    for name in ("new_workbook", "put_example", "compute", "outputs", "fill", "report"):
        assert callable(getattr(module, name))


def test_a_federation_loads_only_its_own_module():
    import json
    import subprocess
    import sys

    code = ("import json, sys; from xlcircuit.federations import ADAPTERS; ADAPTERS['elo']; "
            "print(json.dumps(sorted(m for m in sys.modules if m.startswith('xlcircuit.federations.'))))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    federations = [m for m in json.loads(loaded) if m.rsplit(".", 1)[1] in FEDERATIONS]
    assert federations == ["xlcircuit.federations.elo"]


def test_the_committed_template_is_the_one_new_writes(module):
    template = WORKBOOKS / module.template
    wb = openpyxl.load_workbook(template)
    fresh = module.new_workbook()
    assert wb.sheetnames == fresh.sheetnames
    for ws in fresh.worksheets:
        assert sorted(wb[ws.title].tables) == sorted(ws.tables)
        for name in ws.tables:
            assert table_rows(wb[ws.title], name) == table_rows(ws, name)
    assert Book(template).federation == module.code


def test_the_example_fills_and_publishes_every_output(module, tmp_path):
    book = Book(example(module, tmp_path))
    summary = module.fill(book)
    book.save()
    lines = module.report(summary)
    assert lines and all(isinstance(line, str) for line in lines)
    published = module.outputs(summary, day=dt.date(2026, 6, 30))
    assert all(isinstance(output, Output) for output in published)
    specs = [output.spec for output in published]
    assert module.standings in specs and module.lines in specs
    wb = openpyxl.load_workbook(book.path)
    for output in published:
        rows = table_rows(wb[output.spec.sheet], output.spec.name)
        assert rows[0] == [column.header for column in output.columns]
    standings = next(output for output in published if output.spec == module.standings)
    assert standings.rows, "the example's standings are empty"


def _parts(path: Path) -> dict[str, bytes]:
    """The parts of a saved workbook, but its save time (``docProps/core.xml``)."""
    with zipfile.ZipFile(path) as archive:
        return {name: archive.read(name) for name in archive.namelist() if name != "docProps/core.xml"}


def test_refilling_changes_nothing(module, tmp_path):
    """A fill of a fresh template, then a refill: the same bytes (save time aside)."""
    path = example(module, tmp_path)
    fills = []
    for _ in range(2):
        book = Book(path)
        module.fill(book)
        book.save()
        fills.append(_parts(path))
    assert fills[0].keys() == fills[1].keys()
    assert [name for name in fills[0] if fills[0][name] != fills[1][name]] == []


def _shown(value: object) -> object:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, (int, float)):
        return pytest.approx(float(value), abs=1e-6)
    if isinstance(value, (dt.date, dt.datetime)):
        return value
    return str(value)


def _read(text: str, expected: object) -> object:
    if isinstance(expected, (dt.date, dt.datetime)):
        return expected  # dates are exported in the locale's format; their presence is enough here
    if not isinstance(expected, str) and expected != "":
        return float(text)
    return text


def test_libreoffice_shows_the_same_standings(module, tmp_path):
    path = example(module, tmp_path)
    book = Book(path)
    module.fill(book)
    book.save()
    ws = openpyxl.load_workbook(path)[module.standings.sheet]
    rows = table_rows(ws, module.standings.name)
    top = openpyxl.utils.cell.range_boundaries(ws.tables[module.standings.name].ref)
    first_col, first_row = top[0] - 1, top[1] - 1
    grid = sheets_as_csv(path, tmp_path / "csv")[module.standings.sheet]
    for i, row in enumerate(rows):
        shown = grid[first_row + i][first_col: first_col + len(row)]
        expected = [_shown(v) for v in row]
        assert [_read(text, e) for text, e in zip(shown, expected)] == expected, f"row {i + 1}"


def test_every_table_sheet_prints_readable_on_a4_with_its_header(module):
    """A4, at a fixed scale of at least MIN_SCALE % (a fit-to-page would shrink wide tables' text under 8
    points; tests/test_pdf.py measures the printed text), the header row repeated on every page."""
    wb = module.new_workbook()
    for ws in wb.worksheets:
        if ws.tables:
            assert int(ws.page_setup.paperSize) == layout.PAPER_A4, ws.title
            assert not ws.sheet_properties.pageSetUpPr.fitToPage, ws.title
            assert layout.MIN_SCALE <= int(ws.page_setup.scale) <= 100, ws.title
            assert ws.print_title_rows, ws.title


#: What organisers type where it does not belong: blanks, words, signs, decimals, huge numbers, dates, formulas.
JUNK = (None, " ", "zzz", -1, 0, 2.5, 1e300, "1e400", "nan", True, dt.datetime(2020, 1, 1), "=1+1", "#N/A",
        99_999, "oui", "O", "   Alice  ")


@pytest.mark.parametrize("seed", range(6))
def test_junk_typed_anywhere_ends_filled_or_in_located_problems(module, seed, tmp_path):
    """The example with a few input cells overwritten by junk: a fill, or problems each naming its cell."""
    rng = random.Random(f"{module.code}:{seed}")
    wb = module.new_workbook()
    module.put_example(wb)
    for _ in range(rng.randint(1, 6)):
        ws, table = find_table(wb, rng.choice(module.inputs).name)
        first_col, first_row, last_col, last_row = openpyxl.utils.cell.range_boundaries(table.ref)
        ws.cell(rng.randint(first_row + 1, last_row), rng.randint(first_col, last_col)).value = rng.choice(JUNK)
    path = save_atomic(wb, tmp_path / "junk.xlsx")
    try:
        module.compute(Book(path))
    except WorkbookProblems as problems:
        assert problems.problems and all(p.sheet and p.cell for p in problems.problems), str(problems)
