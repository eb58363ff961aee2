"""``xlcircuit schedule``: draw TORRES' calendar into the workbook."""

from __future__ import annotations

from pathlib import Path

from .common import open_book, unkept_warnings
from .outcome import Outcome, Progress, quiet


def schedule(path: Path, seed: int | None = None, federation: str | None = None, output: Path | None = None,
             force: bool = False, progress: Progress = quiet) -> Outcome:
    """Draw every group's matches into the ``Calendrier`` sheet (``seed``: the season's by default)."""
    progress("lecture")
    book, adapter = open_book(path, federation)
    lines = adapter.schedule(book, seed)  # refuses, in one sentence, a federation without a calendar
    progress("enregistrement")
    target = book.save(output, force=force)
    return Outcome([f"Calendrier écrit : {target}", *lines], unkept_warnings(book, target) + book.warnings,
                   result=target)
