"""``xlcircuit diff``: what changed between two filled workbooks of a season (the results added, changed or
removed per tournament, the players whose rank or total moved), as the ``Journal`` of a fill says it; shown, or
written as .xlsx, .pdf or text for the note sent to clubs."""

from __future__ import annotations

from pathlib import Path

from ..federations import adapter_of
from ..rules.errors import XlcircuitError
from ..workbook.journal import change_lines, compare, previous_rows
from ..workbook.wording import typed
from ..xlsx import Book
from .explain import write_explanation
from .outcome import Outcome, Progress, quiet

SHEET = "Changements"


def _published(book: Book, name: str, table: str, headers: tuple[str, ...]) -> list[dict[str, object]]:
    rows = previous_rows(book, table, headers)
    if not rows:
        raise XlcircuitError(f"{book.path.name} n'a pas de table « {table} » remplie : remplissez-le d'abord "
                             f"(xlcircuit fill {typed(name)}), puis relancez.")
    return rows


def diff(old: Path, new: Path, output: Path | None = None, federation: str | None = None,
         progress: Progress = quiet) -> Outcome:
    """Compare the published tables of ``old`` and ``new`` (two fills of one season); show, or write to ``output``."""
    progress("lecture")
    before, after = Book(old), Book(new)
    adapter = adapter_of(before, federation)
    other = adapter_of(after, federation)
    if other.code != adapter.code:
        raise XlcircuitError(f"{old.name} est un classeur « {adapter.title} », {new.name} un classeur "
                             f"« {other.title} » : comparez deux remplissages d'une même saison.")
    tracked = adapter.tracked
    tables = [(book, path) for book, path in ((before, old), (after, new))]
    lines_of = [_published(book, str(path), tracked.lines.name, tracked.line_headers) for book, path in tables]
    standings_of = [_published(book, str(path), tracked.standings.name, tracked.standing_headers)
                    for book, path in tables]
    changes = compare(tracked, lines_of[0], lines_of[1], standings_of[0], standings_of[1])
    lines = [f"{adapter.title} : ce qui a changé de {old.name} à {new.name}", "", *change_lines(changes)]
    if output is None:
        return Outcome(lines, result=new)
    written = write_explanation(lines, output, SHEET)
    return Outcome([f"Comparaison écrite : {written}"], result=written)
