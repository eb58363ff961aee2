"""The workbook layer (openpyxl): season workbooks made from the templates, read and filled.

Each federation's module (``tdf``, ``dbm``, ``cdf``, ``elo``, ``torres``) declares its tables and its
own steps, and is a :class:`FederationWorkbook`; the procedure every fill shares (read with located
problems, compute with the core, write the published tables) is written once, in :mod:`.procedure`.
What the modules share besides (the front sheet of a new workbook, the Paramètre/Valeur and
Joueur/Club tables, titles, highlights, report lines) is in :mod:`.sheets`; tables in and out, typed
cells and the published look in :mod:`.tables`; files in :mod:`.io`.
"""

from __future__ import annotations

import datetime as dt
import importlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Protocol

from openpyxl.workbook.workbook import Workbook

from ..errors import WorkbookError
from ..federations import CODES, Federation, federation
from . import share
from .io import Book, save_atomic
from .procedure import Outputs, Run
from .tables import Output, Problems, TableSpec


class Summary(Protocol):
    """What every federation's ``compute`` gives, besides its own results."""

    warnings: list[str]  # for the organiser, in French
    clubs: dict[str, str]  # player -> club, from the Joueurs table


class FederationWorkbook(Protocol):
    """The interface of a federation's workbook module (each of ``tdf``, ``dbm``… is one)."""

    INFO: Federation  # code, French title, template, example file
    FEDERATION: str
    TITLE: str
    TEMPLATE: str  # in ``workbooks/``
    EXAMPLE: str  # written by ``xlcircuit demo``
    INPUTS: tuple[TableSpec, ...]  # the tables the organiser fills in
    STANDINGS: TableSpec  # the main standings: PDF, per-club highlight
    LINES: TableSpec  # the per-result lines a club receives

    def new_workbook(self) -> Workbook: ...
    def put_example(self, wb: Workbook) -> None: ...
    compute: Run  # read, check, compute: a Summary; WorkbookProblems lists every problem
    fill: Run  # compute, then rewrite the published tables (in memory)
    def outputs(self, summary: Any, club: str | None = None, day: dt.date | None = None) -> list[Output]: ...
    def report(self, summary: Any) -> list[str]: ...  # what check and fill print (French)
    def explain(self, summary: Any, wanted: str) -> list[str]: ...  # ``xlcircuit explain``: a player's points
    schedule: Callable[[Book, int | None], list[str]] | None  # ``xlcircuit schedule``, for TORRES only
    # Tables laid out apart from the published ones, and how (TORRES' group tables), or None:
    group_outputs: Outputs[Any] | None
    write_groups: Callable[[Workbook, Sequence[Output], Problems], Any] | None


class _Modules(Mapping[str, "FederationWorkbook"]):
    """Federation code -> its workbook module, imported when first asked for (a fill loads only its own)."""

    def __getitem__(self, code: str) -> FederationWorkbook:
        if code not in CODES:
            raise KeyError(code)
        module: FederationWorkbook = importlib.import_module(f"{__name__}.{code}")
        return module

    def __iter__(self) -> Iterator[str]:
        return iter(CODES)

    def __len__(self) -> int:
        return len(CODES)


#: Federation code -> its workbook module, in the order of :data:`xlcircuit.federations.FEDERATIONS`.
FEDERATIONS: Mapping[str, FederationWorkbook] = _Modules()


def federation_of(book: Book, override: str | None = None) -> FederationWorkbook:
    """The workbook module of the federation ``book`` belongs to (or the one asked for, in any case)."""
    recorded = book.federation
    code = override or recorded
    if override and recorded is not None and recorded in FEDERATIONS and override != recorded:
        mine, asked = FEDERATIONS[recorded], FEDERATIONS.get(override)
        raise WorkbookError(f"{book.path.name} est un classeur « {mine.TITLE} » ({mine.FEDERATION}), pas "
                            f"« {asked.TITLE if asked else override} » ({override}) : relancez sans --federation.")
    if code is None:
        raise WorkbookError(
            f"{book.path.name} ne dit pas à quelle fédération il appartient (il n'a pas été créé par "
            f"« xlcircuit new ») : relancez avec --federation ({', '.join(FEDERATIONS)})."
        )
    try:
        return FEDERATIONS[federation(code).code]
    except KeyError:
        raise WorkbookError(f"{book.path.name} appartient à la fédération « {code} », que cette version "
                            f"de xlcircuit ne connaît pas (connues : {', '.join(FEDERATIONS)}).") from None


__all__ = ["FEDERATIONS", "Book", "FederationWorkbook", "Summary", "federation_of", "save_atomic", "share"]
