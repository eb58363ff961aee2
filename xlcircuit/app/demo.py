"""``xlcircuit demo``: every federation's bundled example, written and filled, to try everything on."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from ..federations import ADAPTERS
from ..rules.errors import XlcircuitError
from ..workbook.journal import JOURNAL
from ..xlsx import Book, save_atomic
from .common import summary_lines
from .outcome import Outcome, Progress, quiet


def _typed_sheets(path: Path, output_sheets: set[str]) -> tuple[list[str], list[tuple[Any, ...]]]:
    """What an organiser may have changed in a workbook: its sheet names and every value of the sheets
    a fill does not rewrite."""
    wb = Book(path).wb
    values = [tuple(ws.iter_rows(values_only=True)) for ws in wb.worksheets if ws.title not in output_sheets]
    return wb.sheetnames, values


def _edited(target: Path, fresh: Path, output_sheets: set[str]) -> bool:
    """Whether ``target`` differs from the freshly made example ``fresh`` elsewhere than in what a fill writes."""
    try:
        return _typed_sheets(target, output_sheets) != _typed_sheets(fresh, output_sheets)
    except XlcircuitError:  # not a workbook any more: something else took its name
        return True


def demo(folder: Path, force: bool = False, progress: Progress = quiet) -> Outcome:
    """Write and fill each federation's example in ``folder``; an example the organiser edited is replaced only
    with ``force`` (otherwise nothing is written)."""
    folder.mkdir(parents=True, exist_ok=True)
    outcome = Outcome(result=folder)
    with tempfile.TemporaryDirectory(prefix=".xlcircuit-demo-", dir=folder) as scratch:
        made = []
        for adapter in ADAPTERS.values():
            progress(adapter.code)
            fresh = Path(scratch) / adapter.example
            wb = adapter.new_workbook()
            adapter.put_example(wb)
            save_atomic(wb, fresh)
            book = Book(fresh)
            summary = adapter.fill(book)
            book.save()
            made.append((adapter, summary, fresh, folder / adapter.example))
        edited = [target for adapter, summary, fresh, target in made if target.exists()
                  and _edited(target, fresh, {output.spec.sheet for output in adapter.outputs(summary)} | {JOURNAL.sheet})]
        if edited and not force:
            names = ", ".join(str(target) for target in edited)
            raise XlcircuitError(f"{names} : modifié depuis la démonstration ; rien n'a été écrit. Ajoutez --force "
                                 "pour l'écraser, ou donnez un autre dossier (xlcircuit demo AUTRE_DOSSIER).")
        for adapter, summary, fresh, target in made:
            os.replace(fresh, target)
            outcome.lines += summary_lines(adapter, summary, f"{adapter.title}, exemple rempli : {target}") + [""]
            outcome.warnings += [f"{adapter.title} : {warning}" for warning in summary.warnings]
    return outcome
