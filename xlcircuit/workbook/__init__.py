"""The workbook layer (openpyxl): season workbooks made from the templates, read and filled.

Each federation's module knows its tables; this package dispatches by the federation a
workbook records. A federation's module provides:

- ``FEDERATION`` (its code), ``TITLE`` (French name), ``TEMPLATE`` (file in ``workbooks/``),
  ``EXAMPLE`` (the file ``xlcircuit demo`` writes);
- ``INPUTS`` (the input table specs the organiser fills), ``STANDINGS`` (the main published
  standings: PDF, per-club highlight) and ``LINES`` (the per-result lines a club receives);
- ``new_workbook()``, ``put_example(wb)``;
- ``compute(book, progress) -> Summary`` (reads, checks, computes; raises ``WorkbookProblems``
  listing every problem; the summary has ``warnings`` and ``clubs``, player -> club);
- ``outputs(summary, club=None, day=None) -> list[Output]``, ``fill(book, progress) -> Summary``;
- ``report(summary) -> list[str]`` (what ``check`` and ``fill`` print, in French);
- optionally ``schedule(book, seed) -> list[str]`` (``xlcircuit schedule``: draws a calendar).

What the modules share (the front sheet of a new workbook, reading cells and the Paramètre/Valeur and
Joueur/Club tables, titles, highlights, the end of a fill and of a report) is in :mod:`.sheets`.
"""

from __future__ import annotations

from types import ModuleType

from ..errors import WorkbookError
from . import cdf, dbm, elo, share, tdf, torres
from .io import Book, save_atomic

#: Federation code -> its workbook module, in the order ``xlcircuit demo`` runs them.
FEDERATIONS: dict[str, ModuleType] = {
    tdf.FEDERATION: tdf,
    dbm.FEDERATION: dbm,
    cdf.FEDERATION: cdf,
    elo.FEDERATION: elo,
    torres.FEDERATION: torres,
}


def federation_of(book: Book, override: str | None = None) -> ModuleType:
    """The workbook module of the federation ``book`` belongs to (or the one asked for)."""
    code = override or book.federation
    if override and book.federation in FEDERATIONS and override != book.federation:
        mine, asked = FEDERATIONS[book.federation], FEDERATIONS.get(override)
        raise WorkbookError(f"{book.path.name} est un classeur « {mine.TITLE} » ({mine.FEDERATION}), pas "
                            f"« {asked.TITLE if asked else override} » ({override}) : relancez sans --federation.")
    if code is None:
        raise WorkbookError(
            f"{book.path.name} ne dit pas à quelle fédération il appartient (il n'a pas été créé par "
            f"« xlcircuit new ») : relancez avec --federation ({', '.join(FEDERATIONS)})."
        )
    if code not in FEDERATIONS:
        raise WorkbookError(f"{book.path.name} appartient à la fédération « {code} », que cette version "
                            f"de xlcircuit ne connaît pas (connues : {', '.join(FEDERATIONS)}).")
    return FEDERATIONS[code]


__all__ = ["Book", "FEDERATIONS", "federation_of", "save_atomic", "share"]
