"""Where openpyxl 3.1 writes a part unlike Excel, corrected once, when the engine is imported: every workbook
xlcircuit writes goes through openpyxl's serialisers (the whole workbook on the full rewrite, the output sheets
on a surgical fill), and each of these made a finding that workbooks saved by Excel never have
(``tests/excel_check.py``, calibrated on workbooks saved by Excel).

- Print titles: openpyxl writes the rows, then the columns (``'S'!$3:$3,'S'!$A:$B``); Excel writes the
  columns first (``'S'!$A:$B,'S'!$3:$3``).
- Pictures: a picture's shape guides (``<a:avLst/>``, ``<a:gd>``) read from a file are written back in the
  spreadsheet drawing's namespace instead of DrawingML's, which the schema does not allow there.
- Fonts: openpyxl writes a font's children name first; Excel (and the schema's order the Open XML SDK checks)
  writes them ``b``, ``i``, ``strike``… ``sz``, ``color``, ``name``, ``family``, ``charset``, ``scheme``.

Each is a class attribute of openpyxl's, the same for every workbook: reading is unchanged (openpyxl reads
children in any order and either form of print titles).
"""

from __future__ import annotations

from openpyxl.drawing import geometry
from openpyxl.styles.fonts import Font
from openpyxl.worksheet.print_settings import PrintTitles, quote_sheetname
from openpyxl.xml.constants import DRAWING_NS

#: A font's children in the order Excel writes them (ECMA-376 as the Open XML SDK orders CT_Font).
FONT_ORDER = ("b", "i", "strike", "condense", "extend", "outline", "shadow", "u", "vertAlign", "sz", "color",
              "name", "family", "charset", "scheme")


def _print_titles(self: PrintTitles) -> str:
    """Print titles as Excel writes them: the columns, then the rows."""
    title = quote_sheetname(self.title)
    return ",".join(f"{title}!{value}" for value in (self.cols, self.rows) if value)


def apply() -> None:
    """Set openpyxl's serialisers to Excel's forms (idempotent)."""
    PrintTitles.__str__ = _print_titles
    geometry.GeomGuideList.namespace = DRAWING_NS
    geometry.GeomGuide.namespace = DRAWING_NS
    if sorted(Font.__elements__) == sorted(FONT_ORDER):  # a later openpyxl with other children: left as it is
        Font.__elements__ = FONT_ORDER


apply()
