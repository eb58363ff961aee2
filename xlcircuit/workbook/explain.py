"""A player's points explained, in French: each result, the rule applied and the sum, ending on the total the
standings show (``xlcircuit explain FICHIER "Nom"``); as text, or as a one-page workbook or PDF a player can be
sent. An adapter: the rules' numbers come from the computed season; this module only words them."""

from __future__ import annotations

import datetime as dt
import difflib
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

import openpyxl
from openpyxl.styles import Alignment, Font
from openpyxl.workbook.workbook import Workbook

from ..errors import XlcircuitError
from ..text import fold
from . import libreoffice
from .io import save_atomic
from .sheets import decimal_comma
from .tables import PAPER_A4, put

if TYPE_CHECKING:  # the package imports this module: the interface is only named here
    from . import FederationWorkbook

SHEET = "Explication"
#: The sheet's one column: as wide as an A4 portrait page takes at 100 % in the widest fonts, and the
#: characters a wrapped line holds there.
WIDTH, LINE = 68, 58


def signed(x: float, digits: int = 0) -> str:
    text = decimal_comma(x, digits)
    return text if text.startswith("-") or text.strip("0,") == "" else "+" + text


def nth(n: int | None) -> str:
    return "?" if n is None else "1er" if n == 1 else f"{n}e"


def when(day: dt.date | None) -> str:
    return f"{day:%d/%m/%Y}" if day else "sans date"


def summed(values: Iterable[float], digits: int, total: str) -> str:
    """``a + b - c = total``, each term as published (the total as the standings print it)."""
    values = list(values)
    if len(values) < 2:
        return total
    text = decimal_comma(values[0], digits)
    for v in values[1:]:
        shown = decimal_comma(v, digits)
        text += f" - {decimal_comma(-v, digits)}" if shown.startswith("-") else f" + {shown}"
    return f"{text} = {total}"


def find_player(wanted: str, names: Iterable[str]) -> str:
    """The name of the standings ``wanted`` designates: exactly, else the one name equal but for case, accents
    and spaces; a clear error otherwise, with the names that come close."""
    names = list(dict.fromkeys(names))
    if wanted in names:
        return wanted
    same = [n for n in names if fold(n) == fold(wanted)]
    if len(same) == 1:
        return same[0]
    close = same or difflib.get_close_matches(wanted, names, n=5, cutoff=0.6) or [
        n for n in names if fold(wanted) in fold(n)][:5]
    hint = f" Noms proches : {', '.join(f'« {n} »' for n in close)}." if close else ""
    raise XlcircuitError(f"« {wanted} » n'est pas dans ce classeur (le nom s'écrit comme dans les résultats)."
                         + hint)


def explain(module: FederationWorkbook, summary: object, player: str) -> list[str]:
    """The lines explaining ``player``'s points, in French, the last one ending on his published total (each
    federation's module words its own: its ``explain``)."""
    return module.explain(summary, player)


def explanation_workbook(lines: list[str]) -> Workbook:
    """The explanation as a one-sheet workbook a player can be sent: A4 portrait, one page wide, wrapped lines."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = SHEET
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


def write_explanation(lines: list[str], target: Path) -> Path:
    """Write the explanation to ``target``: ``.xlsx`` (a sheet), ``.pdf`` (printed by LibreOffice), else text."""
    suffix = target.suffix.lower()
    if suffix == ".xlsx":
        return save_atomic(explanation_workbook(lines), target)
    if suffix == ".pdf":
        libreoffice.require()
        with tempfile.TemporaryDirectory() as work:
            source = save_atomic(explanation_workbook(lines), Path(work) / f"{target.stem}.xlsx")
            made = libreoffice.convert(source, Path(work) / "pdf", "pdf")[0]
            target.parent.mkdir(parents=True, exist_ok=True)
            made.replace(target)
            return target
    target.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return target
