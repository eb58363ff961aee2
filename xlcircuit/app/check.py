"""« Vérifier » / ``xlcircuit check``: read and check everything a fill would read, write nothing."""

from __future__ import annotations

from pathlib import Path

from ..workbook.register import located
from .common import empty_hint, open_book, plural, summary_lines, unkept_warnings
from .outcome import Outcome, Progress, quiet


def check(path: Path, federation: str | None = None, progress: Progress = quiet) -> Outcome:
    """Every problem of the workbook with its cell, or the standings it would publish; nothing is written."""
    progress("lecture")
    book, adapter = open_book(path, federation)
    summary = adapter.compute(book, progress)
    warnings = located(unkept_warnings(book, None) + book.warnings + summary.warnings, str(path))
    verdict = (f"{book.path.name} est correct, avec {plural(len(warnings), 'point')} à vérifier (ci-dessous)"
               if warnings else f"{book.path.name} est correct")
    return Outcome(summary_lines(adapter, summary, verdict) + empty_hint(book, adapter), warnings,
                   result=book.path)
