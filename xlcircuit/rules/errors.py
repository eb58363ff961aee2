"""The package's exceptions: one root, a few clear kinds.

Messages are shown to organisers, so they are in French and say what was
expected, what was found, and where.
"""

from __future__ import annotations

from dataclasses import dataclass


class XlcircuitError(Exception):
    """Root of every error xlcircuit raises on purpose."""


class InvalidInput(XlcircuitError, ValueError):
    """A value the rules cannot take (place 0, a place after the last, an unknown kind)."""


class WorkbookError(XlcircuitError):
    """A file that cannot be read or written as a workbook (missing, locked, not an .xlsx)."""


@dataclass(frozen=True)
class Violation:
    """A rule broken by one record of the input a core check was given: the record's position in the
    sequence checked, the field (the core's attribute name, e.g. ``"choice"``), and the French message.

    An adapter maps ``index`` to its table row and ``field`` to its column, and reports the message
    as it is (a ``Problem``), without checking the rule again.
    """

    index: int
    field: str
    message: str


def raise_first(violations: list[Violation]) -> None:
    """For a core entry point given plain data: the first violation as an ``InvalidInput``."""
    if violations:
        raise InvalidInput(violations[0].message)


@dataclass(frozen=True)
class Problem:
    """One located problem of a workbook: sheet, row and column, and what is wrong."""

    sheet: str
    row: int | None
    column: str | None
    message: str
    cell: str | None = None

    def __str__(self) -> str:
        where = self.sheet
        if self.cell:
            where += f"!{self.cell}"
        elif self.row is not None:
            where += f", ligne {self.row}"
        if self.column:
            where += f" (colonne « {self.column} »)"
        return f"{where} : {self.message}"


class WorkbookProblems(XlcircuitError):
    """Every problem found in a workbook's tables, reported together."""

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        count = len(self.problems)
        lines = "\n".join(f"  - {p}" for p in self.problems)
        super().__init__(f"{count} problème{'s' if count > 1 else ''} dans le classeur :\n{lines}")
