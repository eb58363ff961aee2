"""The values of a workbook xlcircuit only reads (an import's source): each sheet's cells as values (a formula by
its last calculated value), whether it is hidden, and its tables, from a file opened by the guarded reader."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from ..rules.errors import WorkbookError
from .ooxml import Unsupported
from .package import Package
from .safe import Opened, load_workbook


@dataclass
class SheetValues:
    """A sheet of a source workbook: its name, whether it is hidden, its non-empty rows by number (values from
    column A), and its tables as (name, range)."""

    name: str
    hidden: bool
    rows: dict[int, list[object]] = field(default_factory=dict)
    tables: list[tuple[str, str]] = field(default_factory=list)


def sheet_values(path: str | os.PathLike[str]) -> list[SheetValues]:
    """Every worksheet of the workbook at ``path``, in order, read safely (bombs, entities and damaged parts are
    one French sentence, a :class:`~xlcircuit.rules.errors.WorkbookError`)."""
    opened = Opened(path)
    try:
        tables = _tables(opened)
        wb = load_workbook(opened, data_only=True)
    finally:
        opened.close()
    sheets = []
    for ws in wb.worksheets:
        rows: dict[int, list[object]] = {}
        for number, row in enumerate(ws.iter_rows(values_only=True), start=1):
            if any(value is not None for value in row):
                rows[number] = list(row)
        sheets.append(SheetValues(ws.title, ws.sheet_state != "visible", rows, tables.get(ws.title, [])))
    return sheets


def _tables(opened: Opened) -> dict[str, list[tuple[str, str]]]:
    """Sheet name -> (name, range) of each of its tables; empty when the package's map of them cannot be read
    (its sheets are then read as plain ranges)."""
    try:
        return {sheet: [(t.name, t.ref) for t in found] for sheet, found in Package(opened).tables.items()}
    except (Unsupported, WorkbookError):
        return {}
