"""« Remplir » / ``xlcircuit fill``: compute, then write the published tables into the workbook."""

from __future__ import annotations

from pathlib import Path

from ..workbook.register import located
from ..xlsx import lock_of
from .common import empty_hint, open_book, summary_lines, unkept_warnings
from .outcome import FULL, SURGICAL, Outcome, Progress, quiet


def locked(target: Path) -> Outcome | None:
    """The outcome of a fill the lock file of a spreadsheet program stops, before any work: what the lock
    means and both ways on (close the program; or, after a crash, go on anyway)."""
    found = lock_of(target) if target.exists() else None
    if found is None:
        return None
    lock, program = found
    return Outcome(error=f"{target.name} est ouvert dans {program} : son fichier verrou « {lock.name} » (un fichier "
                         f"caché, à côté du classeur) le dit ; rien n'a été écrit. Fermez {target.name} dans "
                         f"{program}, puis relancez : sinon, votre prochain enregistrement dans {program} effacerait "
                         f"le remplissage. Si {program} s'est fermé sur une panne, le verrou est resté alors que le "
                         "classeur n'est plus ouvert : passez outre (« Remplir quand même » dans la fenêtre, "
                         "--force en ligne de commande).", status=1, lock=lock)


def fill(path: Path, federation: str | None = None, output: Path | None = None, force: bool = False,
         progress: Progress = quiet) -> Outcome:
    """Fill the workbook at ``path`` (in place, or into ``output``), whole or not at all; a workbook a
    spreadsheet program has open (its lock file) only with ``force``."""
    stopped = None if force else locked(output or path)
    if stopped is not None:
        return stopped
    progress("lecture")
    book, adapter = open_book(path, federation)
    summary = adapter.fill(book, progress)
    progress("enregistrement")
    target = book.save(output, force=force)
    # The full rewrite, when taken, is said in one line: why, and what it cannot keep.
    route = [line] if (line := book.route_warning()) else []
    warnings = route + located(unkept_warnings(book, target) + book.warnings + book.notes + summary.warnings, str(path))
    return Outcome(summary_lines(adapter, summary, f"Classeur rempli : {target}") + empty_hint(book, adapter),
                   warnings, result=target, route=SURGICAL if book.surgical else FULL)
