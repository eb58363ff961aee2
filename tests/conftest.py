"""Shared fixtures: season workbooks written the way an organiser would have them."""

from __future__ import annotations

import csv
import datetime as dt
import os
import sys
from pathlib import Path

import openpyxl
import pytest

from xlcircuit.federations import tdf as tdf_book
from xlcircuit.workbook.write import type_rows
from xlcircuit.xlsx import Book, libreoffice, save_atomic

# The benchmarks' season generators (benchmarks/generate.py) serve a few stress tests too.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))


def write_season(path: Path, tournois, resultats) -> Path:
    """A TdF season workbook from the template with these rows typed into its input tables."""
    wb = tdf_book.new_workbook()
    type_rows(wb, tdf_book.TOURNOIS, tournois)
    type_rows(wb, tdf_book.RESULTATS, resultats)
    save_atomic(wb, path)
    return path


def example(module, folder: Path) -> Path:
    """A federation's bundled example, typed into a fresh template and saved (not filled) in ``folder``."""
    wb = module.new_workbook()
    module.put_example(wb)
    return save_atomic(wb, folder / module.example)


def filled_example(module, folder: Path) -> Path:
    """The bundled example of a federation, filled and saved in ``folder``, as ``xlcircuit demo`` leaves it."""
    book = Book(example(module, folder))
    module.fill(book)
    book.save()
    return book.path


def table_rows(ws, name: str) -> list[list[object]]:
    """The rows of a table (header first), as values."""
    ref = ws.tables[name].ref
    return [[c.value for c in row] for row in ws[ref]]


def table_dicts(ws, name: str) -> list[dict[str, object]]:
    """The data rows of a table, each as {header: value}."""
    header, *rows = table_rows(ws, name)
    return [dict(zip(header, row)) for row in rows]


def leader(path: Path) -> str:
    """The first player of a filled workbook's standings."""
    return table_dicts(openpyxl.load_workbook(path)["Classement"], "Classement")[0]["Joueur"]


def need_libreoffice() -> None:
    """Skip a test without LibreOffice, with the reason; under CI, fail instead (CI installs it)."""
    if libreoffice.find() is None:
        if os.environ.get("CI"):
            pytest.fail("LibreOffice is required in CI: .ci/run must install libreoffice-calc-nogui")
        pytest.skip("LibreOffice is not installed (apt-get install libreoffice-calc-nogui)")


def sheets_as_csv(workbook: Path, folder: Path) -> dict[str, list[list[str]]]:
    """Every sheet of a workbook, as LibreOffice reads and exports it."""
    need_libreoffice()
    sheets = {}
    for path in libreoffice.convert(workbook, folder, libreoffice.CSV_ALL_SHEETS):
        with path.open(encoding="utf-8", newline="") as handle:
            sheets[path.stem.removeprefix(f"{workbook.stem}-")] = list(csv.reader(handle))
    return sheets


@pytest.fixture
def demo_path(tmp_path: Path) -> Path:
    """The bundled example season, typed in but not filled."""
    wb = tdf_book.new_workbook()
    tdf_book.put_example(wb)
    return save_atomic(wb, tmp_path / "saison.xlsx")


@pytest.fixture
def small_season(tmp_path: Path) -> Path:
    """Two small tournaments: a tie, an organiser, a major."""
    return write_season(
        tmp_path / "petite.xlsx",
        [("Open A", dt.date(2025, 10, 1), "normal", None), ("France", dt.date(2026, 5, 1), "majeur", None)],
        [
            ("Open A", "Alice", 1, None, None),
            ("Open A", "Bruno", 2, None, None),
            ("Open A", "Chloé", 2, None, None),
            ("Open A", "Denis", None, "organisateur", None),
            ("France", "Bruno", 1, None, None),
            ("France", "Alice", 2, None, None),
            ("France", "Chloé", 3, None, None),
        ],
    )


@pytest.fixture(autouse=True)
def every_written_workbook_is_valid_for_excel(request):
    """After each test, every workbook it saved (put in place by ``os.replace``, as every atomic save does)
    passes the checks of Excel's repair dialog (:func:`xlcircuit.xlsx.validate.package_problems`); files
    xlcircuit refuses to read are left out (the tests of refused files make them on purpose)."""
    folder = request.getfixturevalue("tmp_path") if "tmp_path" in request.fixturenames else None
    if request.module.__name__.endswith("test_fuzz_files"):
        folder = None  # its mutants are broken on purpose, and their fills copy what is broken as it is
    written: list[Path] = []  # what was put in place by os.replace: xlcircuit's atomic saves, not damaged inputs
    real_replace = os.replace

    def replace(source, target, *args, **kwargs):
        real_replace(source, target, *args, **kwargs)
        written.append(Path(target))

    os.replace = replace
    try:
        yield
    finally:
        os.replace = real_replace
    if folder is None:
        return
    from xlcircuit.rules.errors import WorkbookError
    from xlcircuit.xlsx.safe import declares_entities, inspect_file
    from xlcircuit.xlsx.validate import package_problems

    for path in sorted({p for p in written if p.suffix in (".xlsx", ".xlsm") and p.exists()}):
        try:
            inspect_file(path)
            if declares_entities(path):
                continue
        except (WorkbookError, OSError):
            continue
        problems = package_problems(path)
        assert problems == [], f"{path.name}: {problems}"
