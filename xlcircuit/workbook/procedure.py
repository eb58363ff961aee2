"""The procedure every federation's fill shares, written once: read the input tables collecting every
located problem, compute with the core, write the published tables, report.

A federation's module declares its tables and gives :class:`Steps` its own three steps: ``read`` (the
input tables into typed rows, each problem added where it was found), ``summarise`` (the core's
computation on what was read) and ``outputs`` (the published tables of a summary), plus optionally
``decorate`` (charts, extra tables laid out beside the published ones). Its ``compute`` and ``fill``
are then :meth:`Steps.compute` and :meth:`Steps.fill`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.worksheet import Worksheet

from ..rules.errors import WorkbookProblems
from ..xlsx import Book, Owned, mark_federation, paused_gc
from .journal import JOURNAL, Journal
from .layout import is_note
from .read import forget_own_formats
from .spec import Output, Problems, TableSpec
from .write import write_outputs

R = TypeVar("R")  # what a federation's ``read`` gives
S = TypeVar("S")  # its summary
S_in = TypeVar("S_in", contravariant=True)

Progress = Callable[[str], None]


def quiet(step: str) -> None:
    """The progress callback of a fill nobody watches: says nothing."""


class Outputs(Protocol[S_in]):
    """A federation's published tables of a summary: the podium highlighted, or a club's players."""

    def __call__(self, summary: S_in, club: str | None = ..., day: dt.date | None = ...) -> list[Output]: ...


class Run(Protocol):
    """A federation's ``compute`` or ``fill``."""

    def __call__(self, book: Book, progress: Progress = ...) -> Any: ...


#: Charts or tables a federation lays out after its published tables: (book, summary, each published
#: table with the sheet it was written on (none when they could not be written), problems to add to).
Decorate = Callable[[Book, S, list[tuple[Output, Worksheet]], Problems], None]


@dataclass(frozen=True)
class Steps(Generic[R, S]):
    """A federation's own steps of the shared procedure."""

    federation: str  # its code, recorded in the workbook it fills
    #: What a fill rewrites (its output tables and sheets), known before anything is read: saving copies
    #: every other part as it is.
    rewritten: Owned
    read: Callable[[Book, Problems], R]
    summarise: Callable[[R], S]  # may raise WorkbookProblems for what only the core can see
    outputs: Outputs[S]
    decorate: Decorate[S] | None = None
    #: The ``Journal`` table each fill appends to (what changed), when the federation keeps one.
    journal: Journal | None = None

    @property
    def ownership(self) -> Owned:
        """What a fill rewrites: the federation's tables and sheets, and its ``Journal`` table."""
        if self.journal is None:
            return self.rewritten
        owned = self.rewritten
        return Owned({**owned.tables, JOURNAL.name: JOURNAL.sheet}, owned.sheets, owned.pattern, owned.pattern_sheet)

    def owned(self, wb: Workbook) -> list[TableSpec]:
        """The output tables of ``wb``: those the federation names, and those of an earlier fill that match
        its pattern (TORRES' group tables)."""
        specs = [TableSpec(sheet, name, ()) for name, sheet in self.ownership.tables.items()]
        if self.rewritten.pattern is not None:
            specs += [TableSpec(ws.title, name, ()) for ws in wb.worksheets for name in ws.tables
                      if self.rewritten.pattern.fullmatch(name)]
        return specs

    def compute(self, book: Book, progress: Progress = quiet) -> S:
        """Read and check the input tables, then compute; every problem is reported at once. Only what a fill
        needs is loaded (the input tables; the organiser's other sheets are left unread) where the workbook
        allows it."""
        with paused_gc():
            return self._compute(book, progress)

    def _compute(self, book: Book, progress: Progress) -> S:
        book.own(self.ownership, self.federation, ours=is_note)
        progress("lecture")
        # Data bars an earlier fill put in the published tables are rewritten: not a loss to warn of.
        forget_own_formats(book, self.owned(book.wb))
        problems = Problems()
        typed = self.read(book, problems)
        if problems:
            raise WorkbookProblems(problems.items)
        progress("calcul")
        return self.summarise(typed)

    def fill(self, book: Book, progress: Progress = quiet) -> S:
        """Compute, then rewrite the published tables (in memory); every problem of the writing at once."""
        with paused_gc():
            return self._fill(book, progress)

    def _fill(self, book: Book, progress: Progress) -> S:
        summary = self._compute(book, progress)  # loaded for the surgical fill, where the workbook allows it
        progress("écriture")
        published = self.outputs(summary, day=dt.date.today())
        tables = list(published)
        if self.journal is not None:  # before any table is rewritten: it compares with what they held
            tables.append(self.journal.output(book, summary, published,
                                               [*book.warnings, *getattr(summary, "warnings", [])]))
        problems = Problems()
        written: list[tuple[Output, Worksheet]] = []
        try:
            written = list(zip(published, write_outputs(book.wb, tables)))  # the journal is no decorate's business
        except WorkbookProblems as exc:
            problems.items += exc.problems
        if self.decorate is not None:  # even when the published tables failed: every problem at once
            self.decorate(book, summary, written, problems)
        if problems:
            raise WorkbookProblems(problems.items)
        mark_federation(book.wb, self.federation)
        return summary
