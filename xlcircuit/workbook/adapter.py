"""The base class of a federation's workbook adapter: what every federation declares, and default hooks
for what only some have (TORRES' group tables and calendar).

A federation's module (``xlcircuit.federations.<code>``) declares its tables and its three steps of the
shared procedure (:class:`.procedure.Steps`), then ends with its adapter: a subclass of :class:`Adapter`
naming them and overriding only the hooks it needs, and ``ADAPTER``, its one instance.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from openpyxl.workbook.workbook import Workbook

from ..rules.errors import WorkbookProblems, XlcircuitError
from ..xlsx import Book
from .journal import Tracked
from .procedure import Progress, Steps, quiet
from .register import Register, read_register
from .seasons import Carry, Honours, next_workbook
from .sources.mapping import Importer
from .spec import Output, Problems, TableSpec

if TYPE_CHECKING:  # the record of a federation, named for the type checker only (the framework knows none)
    from ..federations import Federation


class Adapter:
    """A federation's workbook: its tables, its steps, and the hooks the use cases call."""

    info: ClassVar[Federation]  # code, French title, template, example file
    inputs: ClassVar[tuple[TableSpec, ...]]  # the tables the organiser fills in (named by ``xlcircuit new``)
    standings: ClassVar[TableSpec]  # the main standings: PDF, per-club highlight
    lines: ClassVar[TableSpec]  # the per-result lines a club receives
    steps: ClassVar[Steps[Any, Any]]  # read, summarise, outputs (and decorate) of the shared procedure
    players: ClassVar[TableSpec]  # its ``Joueurs`` table: the register of players
    parameters: ClassVar[TableSpec]  # its Paramètre/Valeur table, on the first sheet
    #: What a ``Joueurs`` line needs besides a name (a line ``xlcircuit fusion`` adds has nothing else).
    player_needs: ClassVar[tuple[str, ...]] = ()
    #: What an imported line maps to (``xlcircuit import``); None: the federation imports nothing.
    importer: ClassVar[Importer | None] = None

    @property
    def code(self) -> str:
        return self.info.code

    @property
    def title(self) -> str:
        return self.info.name

    @property
    def template(self) -> str:
        """The file name of its template, in ``workbooks/``."""
        return self.info.template

    @property
    def example(self) -> str:
        """The file name ``xlcircuit demo`` writes."""
        return self.info.example

    # --- what every federation writes itself -----------------------------------------------------------

    def new_workbook(self) -> Workbook:
        """A fresh, empty season workbook (the template)."""
        raise NotImplementedError

    def put_example(self, wb: Workbook) -> None:
        """Type the bundled example into the input tables of a fresh workbook."""
        raise NotImplementedError

    def report(self, summary: Any) -> list[str]:
        """What ``check`` and ``fill`` print (French): the verdict's end, then the top of the standings."""
        raise NotImplementedError

    def explain(self, summary: Any, wanted: str) -> list[str]:
        """``xlcircuit explain``: a player's points, result by result, up to his total (French)."""
        raise NotImplementedError

    @property
    def tracked(self) -> Tracked:
        """What the journal and ``xlcircuit diff`` compare (its result lines and its standings)."""
        if self.steps.journal is None:
            raise XlcircuitError(f"« {self.title} » ne compare pas deux remplissages.")
        return self.steps.journal.tracked

    def honours(self, summary: Any) -> Honours:
        """The season's line of the palmarès: its name, its podium, the federation's other titles."""
        raise NotImplementedError

    def carry(self, summary: Any, register: Register) -> Carry:
        """What next season's workbook takes from this season: its parameters and ``Joueurs`` rows."""
        raise NotImplementedError

    # --- season after season ---------------------------------------------------------------------------------

    def next_workbook(self, book: Book, summary: Any) -> tuple[Workbook, list[str]]:
        """Next season's workbook, from ``book`` (this season's, computed as ``summary``): the federation's
        template with the register, the palmarès and what the federation carries over typed in; and what was
        carried, in French."""
        problems = Problems()
        register = read_register(book, self.players, problems)
        if problems:
            raise WorkbookProblems(problems.items)
        return next_workbook(self.new_workbook(), book, self.parameters, self.players, self.carry(summary, register),
                             self.honours(summary))

    # --- the shared procedure ----------------------------------------------------------------------------

    def compute(self, book: Book, progress: Progress = quiet) -> Any:
        """Read, check, compute: a summary (``warnings``, ``clubs`` and the federation's results);
        :class:`~xlcircuit.rules.errors.WorkbookProblems` lists every problem."""
        return self.steps.compute(book, progress)

    def fill(self, book: Book, progress: Progress = quiet) -> Any:
        """Compute, then rewrite the published tables (in memory; ``book.save`` writes them)."""
        return self.steps.fill(book, progress)

    def outputs(self, summary: Any, club: str | None = None, day: dt.date | None = None) -> list[Output]:
        """The published tables of a summary: the podium highlighted, or a club's players."""
        return self.steps.outputs(summary, club, day)

    # --- hooks only some federations have ---------------------------------------------------------------

    def group_outputs(self, summary: Any, club: str | None = None, day: dt.date | None = None) -> list[Output]:
        """Tables laid out apart from the published ones (TORRES' group tables): none by default."""
        return []

    def write_groups(self, wb: Workbook, groups: Sequence[Output], problems: Problems) -> None:
        """Lay out :meth:`group_outputs` in ``wb`` (a club's workbook, a PDF's copy)."""

    #: Whether ``xlcircuit schedule`` draws a calendar for this federation.
    schedules: ClassVar[bool] = False

    def schedule(self, book: Book, seed: int | None = None) -> list[str]:
        """``xlcircuit schedule``: draw the calendar into the workbook; returns the French report lines."""
        raise XlcircuitError(f"{book.path.name} est un classeur « {self.title} » : il n'a pas de calendrier "
                             "à tirer (seul le championnat TORRES en a un).")
