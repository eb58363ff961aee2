"""Shared fixtures: season workbooks written the way an organiser would have them."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from xlcircuit.workbook import tdf as tdf_book
from xlcircuit.workbook.io import save_atomic
from xlcircuit.workbook.tables import Problems, write_table


def write_season(path: Path, tournois, resultats) -> Path:
    """A TdF season workbook from the template with these rows typed into its input tables."""
    wb = tdf_book.new_workbook()
    problems = Problems()
    write_table(wb, tdf_book.TOURNOIS, tdf_book.TOURNOIS.columns, tournois, problems)
    write_table(wb, tdf_book.RESULTATS, tdf_book.RESULTATS.columns, resultats, problems)
    assert not problems
    save_atomic(wb, path)
    return path


def table_rows(ws, name: str) -> list[list[object]]:
    """The rows of a table (header first), as values."""
    ref = ws.tables[name].ref
    return [[c.value for c in row] for row in ws[ref]]


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
