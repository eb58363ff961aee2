"""« Remplir » / ``xlcircuit fill``: compute, then write the published tables into the workbook."""

from __future__ import annotations

from pathlib import Path

from ..workbook.register import located
from .common import empty_hint, open_book, summary_lines, unkept_warnings
from .outcome import FULL, SURGICAL, Outcome, Progress, quiet


def fill(path: Path, federation: str | None = None, output: Path | None = None, force: bool = False,
         progress: Progress = quiet) -> Outcome:
    """Fill the workbook at ``path`` (in place, or into ``output``), whole or not at all."""
    progress("lecture")
    book, adapter = open_book(path, federation)
    summary = adapter.fill(book, progress)
    progress("enregistrement")
    target = book.save(output, force=force)
    warnings = located(unkept_warnings(book, target) + book.warnings + book.notes + summary.warnings, str(path))
    return Outcome(summary_lines(adapter, summary, f"Classeur rempli : {target}") + empty_hint(book, adapter),
                   warnings, result=target, route=SURGICAL if book.surgical else FULL)
