"""What several use cases say alike: the summary lines, the hint for empty tables, what a full rewrite
cannot keep."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..federations import adapter_of
from ..workbook.adapter import Adapter
from ..workbook.read import read_table
from ..workbook.spec import Problems
from ..xlsx import Book


def open_book(path: Path, federation: str | None) -> tuple[Book, Adapter]:
    """The workbook at ``path`` and the adapter of its federation (or of the one asked for)."""
    book = Book(path)
    return book, adapter_of(book, federation or None)


def summary_lines(adapter: Adapter, summary: Any, title: str) -> list[str]:
    """``title : <the verdict's end>``, then the top of the standings (the federation's report)."""
    first, *rest = adapter.report(summary)
    return [f"{title} : {first}", *rest]


def empty_hint(book: Book, adapter: Adapter) -> list[str]:
    """What to do when the input tables have no row yet (a fill then publishes empty tables)."""
    empty = [spec for spec in adapter.inputs if spec.required and not read_table(book, spec, Problems())]
    if not empty:
        return []
    names = [f"« {spec.sheet} »" for spec in empty]
    which = (f"les tables {', '.join(names[:-1])} et {names[-1]} sont vides" if len(names) > 1
             else f"la table {names[0]} est vide")
    front: str = book.wb.worksheets[0].title
    return [f"Rien à classer : {which}. Ouvrez {book.path.name} dans Excel ou LibreOffice, tapez-y vos "
            f"lignes (la feuille « {front} » l'explique), enregistrez, puis relancez."]


def unkept_warnings(book: Book, target: Path | None) -> list[str]:
    """The warning for what openpyxl cannot keep, if the workbook has any (``target``: where it was saved)."""
    if not book.unkept:
        return []
    what = ", ".join(map(str, book.unkept))
    if target is None:
        fate = "un remplissage les perdrait (l'original serait gardé à part)"
    elif target.resolve() == book.path.resolve():
        fate = f"ils manquent dans le classeur rempli ; l'original est gardé dans « {book.backup.name} »"
    else:
        fate = f"ils manquent dans {target.name} ; {book.path.name} n'est pas modifié"
    return [f"ce classeur contient des éléments qu'openpyxl ne sait pas conserver : {what} ; {fate}."]


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n > 1 else ''}"
