"""The version of openpyxl the surgical fill was written for.

The surgical fill leans on openpyxl's private internals (a worksheet's ``_cells``, a workbook's style lists
``_cell_styles``, ``_fonts``..., its worksheet writer, read-only cells' slots) and on zipfile's (a member's
compression level, a zip's ``_didModify``). With another openpyxl, whose internals may differ, a fill takes the
full rewrite (through openpyxl's public model only), and says so."""

from __future__ import annotations

import openpyxl

#: The openpyxl the tests run on (``pyproject.toml`` pins it).
WRITTEN_FOR = "3.1.5"


def refusal() -> str | None:
    """Why the surgical fill cannot be taken with the openpyxl installed, in French (None: it can)."""
    if openpyxl.__version__ != WRITTEN_FOR:
        return (f"openpyxl {openpyxl.__version__} est installé, et l'écriture ciblée de xlcircuit est faite pour "
                f"openpyxl {WRITTEN_FOR}")
    missing = [name for name, present in _internals() if not present]
    if missing:
        return f"openpyxl {openpyxl.__version__} n'a pas les éléments internes attendus ({', '.join(missing)})"
    return None


def _internals() -> list[tuple[str, bool]]:
    from openpyxl.cell.read_only import ReadOnlyCell
    from openpyxl.worksheet._writer import WorksheetWriter

    wb = openpyxl.Workbook()
    ws = wb.active
    cell = ws["A1"]
    slots = set(getattr(ReadOnlyCell, "__slots__", ()))
    return [
        ("Worksheet._cells", isinstance(getattr(ws, "_cells", None), dict)),
        ("Worksheet._charts, _images", hasattr(ws, "_charts") and hasattr(ws, "_images")),
        ("Workbook._cell_styles", all(hasattr(wb, a) for a in ("_cell_styles", "_fonts", "_fills", "_borders",
                                                                "_number_formats", "_alignments", "_protections",
                                                                "_differential_styles", "_date_formats",
                                                                "_timedelta_formats"))),
        ("Cell._style, _value", all(hasattr(cell, a) for a in ("_style", "_value", "_hyperlink", "_comment"))),
        ("ReadOnlyCell.__slots__", {"parent", "row", "column", "_value", "data_type", "_style_id"} <= slots),
        ("WorksheetWriter.write_rows", all(hasattr(WorksheetWriter, a) for a in ("write_rows", "write", "read"))),
    ]
