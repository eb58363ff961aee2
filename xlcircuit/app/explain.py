"""A player's points explained, in French: each result, the rule applied and the sum, ending on the total the
standings show (``xlcircuit explain FICHIER "Nom"``); as text, or as a one-page workbook or PDF a player can be
sent. An adapter: the rules' numbers come from the computed season; this module only words them."""

from __future__ import annotations

import tempfile
from pathlib import Path

import openpyxl
from openpyxl.styles import Alignment, Font
from openpyxl.workbook.workbook import Workbook

from ..rules.errors import XlcircuitError
from ..workbook.cells import put
from ..workbook.layout import PAPER_A4
from ..xlsx import libreoffice, save_atomic
from .common import open_book
from .files import copy_whole, write_text_whole
from .outcome import Outcome, Progress, quiet, visible

SHEET = "Explication"
#: The sheet's one column: as wide as an A4 portrait page takes at 100 % in the widest fonts, and the
#: characters a wrapped line holds there.
WIDTH, LINE = 68, 58












def explanation_workbook(lines: list[str], sheet: str = SHEET) -> Workbook:
    """The explanation as a one-sheet workbook a player can be sent: A4 portrait, one page wide, wrapped lines."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = sheet
    ws.column_dimensions["A"].width = WIDTH
    for row, text in enumerate(lines, start=1):
        if text:
            cell = ws.cell(row, 1)
            indented = text.startswith("  ")
            put(cell, text.strip() if indented else text)
            cell.alignment = Alignment(wrap_text=True, vertical="top", indent=2 if indented else 0)
            # Rows as high as their wrapped lines (no program sizes them on opening), in the widest fonts.
            ws.row_dimensions[row].height = 15 * -(-len(text) // LINE) + 2
    ws["A1"].font = Font(bold=True, size=14)
    ws.row_dimensions[1].height = 20 * -(-len(lines[0]) // (LINE * 11 // 14)) + 2
    ws.cell(len(lines), 1).font = Font(bold=True)
    ws.page_setup.paperSize = PAPER_A4
    ws.page_setup.orientation = "portrait"
    ws.page_setup.scale = 100
    ws.sheet_properties.pageSetUpPr.fitToPage = False
    ws.oddFooter.center.text = "Page &P / &N"
    return wb


#: What ``explain -o`` writes, by the output's extension: never a format under another's name.
WRITTEN = {".txt": "texte", ".xlsx": "une feuille", ".pdf": "par LibreOffice"}


def unwritable(target: Path) -> str | None:
    """Why ``explain`` cannot write ``target`` (an extension it does not write), or None."""
    if target.suffix.lower() in WRITTEN:
        return None
    kinds = ", ".join(f"{suffix} ({what})" for suffix, what in list(WRITTEN.items())[:-1])
    last, what = list(WRITTEN.items())[-1]
    found = f"a l'extension « {target.suffix} »" if target.suffix else "n'a pas d'extension"
    return (f"explain écrit un fichier {kinds} ou {last} ({what}) ; {target.name} {found} : choisissez par "
            f"exemple {target.stem}.txt ou {target.stem}.pdf.")


def write_explanation(lines: list[str], target: Path, sheet: str = SHEET) -> Path:
    """Write the explanation (or any text of lines) to ``target``, whole or not at all: ``.xlsx`` (a sheet),
    ``.pdf`` (printed by LibreOffice), ``.txt`` (text, control characters shown as escapes, as on screen: the file
    may be shown by ``cat``); any other extension is refused (text under a .docx name would not open)."""
    refused = unwritable(target)
    if refused is not None:
        raise XlcircuitError(refused)
    suffix = target.suffix.lower()
    if suffix == ".xlsx":
        return save_atomic(explanation_workbook(lines, sheet), target)
    if suffix == ".pdf":
        libreoffice.require()
        with tempfile.TemporaryDirectory() as work:
            source = save_atomic(explanation_workbook(lines, sheet), Path(work) / f"{target.stem}.xlsx")
            made = libreoffice.convert(source, Path(work) / "pdf", "pdf")[0]
            return copy_whole(made, target)
    return write_text_whole(target, "\n".join(visible(line) for line in lines) + "\n")


def explain(path: Path, player: str, federation: str | None = None, output: Path | None = None,
            progress: Progress = quiet) -> Outcome:
    """``xlcircuit explain``: ``player``'s points in French, each result with the rule applied, ending on the
    total the standings show (each federation words its own); shown, or written to ``output``."""
    if output is not None and (refused := unwritable(output)) is not None:
        raise XlcircuitError(refused)  # before any work
    progress("lecture")
    book, adapter = open_book(path, federation)
    lines = adapter.explain(adapter.compute(book, progress), player)
    if output is None:
        return Outcome(lines, result=book.path)
    written = write_explanation(lines, output)
    return Outcome([f"Explication écrite : {written}"], result=written)
