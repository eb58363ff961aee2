"""What the table framework knows of a table: its spec (sheet, name, columns), a row read from it
(:class:`Record`), the problems found (:class:`Problems`), and a table ready to be written (:class:`Output`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..rules.errors import Problem


@dataclass(frozen=True)
class Column:
    """A column of a table: its header, whether an input table must have it, and its look."""

    header: str
    required: bool = True
    width: float = 14
    number_format: str | None = None
    choices: tuple[str, ...] = ()  # offered as a drop-down list in the template
    data_bar: bool = False  # a total: shown with data bars


@dataclass(frozen=True)
class TableSpec:
    """A table the batch mode knows: the sheet the template puts it on, its name, its columns."""

    sheet: str
    name: str
    columns: tuple[Column, ...]
    required: bool = True  # an optional table may be missing: it then reads as empty
    #: Rows typed under the table (LibreOffice does not grow tables) are taken into it. A table whose sheet
    #: has text of its own below it (the guide under the parameters) only has such rows reported.
    grows: bool = True


@dataclass
class Record:
    """One row of an input table: what each known column shows, and where it stands."""

    sheet: str
    row: int
    values: dict[str, object]
    cells: dict[str, str]

    def problem(self, header: str, message: str) -> Problem:
        return Problem(self.sheet, self.row, header, message, self.cells.get(header))


@dataclass
class Problems:
    """Problems of a workbook, gathered so that all of them are reported at once."""

    items: list[Problem] = field(default_factory=list)
    #: Cells (sheet, cell) said unreadable (an error value): what a parser says of them after is left out,
    #: since the organiser has one thing to fix there.
    _unreadable: set[tuple[str, str]] = field(default_factory=set, repr=False)
    _added: int = field(default=0, repr=False)  # every problem added, those left out included

    def add(self, problem: Problem) -> None:
        self._added += 1
        if problem.cell is None or (problem.sheet, problem.cell) not in self._unreadable:
            self.items.append(problem)

    def unreadable(self, problem: Problem) -> None:
        """A cell that holds no data (an error value): this problem, and no other at the same cell."""
        self.add(problem)
        if problem.cell is not None:
            self._unreadable.add((problem.sheet, problem.cell))

    def at(self, record: Record, header: str, message: str) -> None:
        self.add(record.problem(header, message))

    def mark(self) -> int:
        """A mark to ask :meth:`since` whether a line added problems (skip the line then)."""
        return self._added

    def since(self, mark: int) -> bool:
        """Whether a problem was added since ``mark`` (one left out at an unreadable cell counts)."""
        return self._added > mark

    def __bool__(self) -> bool:
        return bool(self.items)


@dataclass
class Output:
    """An output table ready to be written: where, under which columns, which rows, and its look."""

    spec: TableSpec
    columns: Sequence[Column]
    rows: Sequence[Sequence[object]]
    title: str | None = None  # written two rows above the table
    highlights: dict[int, str] = field(default_factory=dict)  # row index -> fill colour (RRGGBB)
    #: (row index, column index) -> the look of one cell (a weighted or set-aside result).
    marks: dict[tuple[int, int], Mark] = field(default_factory=dict)
    notes: Sequence[str] = ()  # legend lines printed under the table
    repeat_columns: int = 0  # leading columns (rank, name) repeated on every page when columns spill over


@dataclass(frozen=True)
class Mark:
    """The look of one cell of a published table: a fill colour, italic, struck through, grey text."""

    fill: str | None = None
    italic: bool = False
    strike: bool = False
    grey: bool = False

