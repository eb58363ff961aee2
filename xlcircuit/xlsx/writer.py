"""The output-sheet writer: openpyxl's worksheet writer but for the cells, written here at a few times its speed."""

from __future__ import annotations

import itertools
import re
import sys
from collections import defaultdict
from collections.abc import Iterator

from openpyxl.cell._writer import etree_write_cell
from openpyxl.cell.cell import MergedCell
from openpyxl.utils import get_column_letter
from openpyxl.utils.datetime import to_excel
from openpyxl.worksheet._writer import WorksheetWriter
from openpyxl.worksheet.worksheet import Worksheet
from openpyxl.xml.functions import Element, tostring

from .ooxml import Unsupported, escape, quoteattr


class _SheetWriter(WorksheetWriter):
    """openpyxl's worksheet writer but for the cells, written here at a few times its speed."""

    #: What openpyxl writes for the element put in the cells' place: ``<xlcircuitSheetData />`` with the
    #: standard library's ElementTree, ``<xlcircuitSheetData/>`` with lxml (which openpyxl uses when installed).
    PLACEHOLDER = re.compile(rb"<xlcircuitSheetData\s*/>")
    #: The package's plain shared strings, by text (``cells.plain_shared_strings``): a text cell among them
    #: points to it (``t="s"``, as Excel writes text), any other is written inline.
    strings: dict[str, int] = {}  # noqa: RUF012  # replaced, never changed in place

    def write_rows(self):
        self.xf.send(Element("xlcircuitSheetData"))

    def sheet_data(self) -> Iterator[bytes]:
        """The sheet's <sheetData>, encoded in chunks of a few thousand rows, each made when asked for."""
        ws = self.ws
        dims = ws.row_dimensions
        rows = self._rows()
        context = _Context(ws, self.strings)
        out = ["<sheetData>"]
        for row in sorted(rows):
            dim = dims.get(row)
            attrs = "".join(f" {k}={quoteattr(v)}" for k, v in dim) if dim is not None else ""
            out.append(f'<row r="{row}"{attrs}>')
            cells = rows[row]
            if len(cells) > 1:
                cells.sort(key=_first)
            _cells_xml(out, row, cells, context)
            out.append("</row>")
            if len(out) > 4_000:  # a season's sheet is tens of MB: never whole in memory
                yield "".join(out).encode()
                out.clear()
        out.append("</sheetData>")
        yield "".join(out).encode()

    def _rows(self) -> dict[int, list]:
        """The sheet's cells as (column, cell) by row, with every row that has dimensions (maybe no cells)."""
        ws = self.ws
        rows: dict[int, list] = defaultdict(list)
        for key, cell in ws._cells.items():
            rows[key[0]].append((key[1], cell))
        for row in ws.row_dimensions:
            rows.setdefault(row, [])
        return rows

    def serialised(self) -> Iterator[bytes]:
        """The sheet's XML in pieces: its head and tail made now, its cells as the pieces are written into
        the zip one after the other."""
        ws = self.ws
        try:
            # The tail lists the cells' links (openpyxl gathers them as it writes the cells): gathered first.
            linked = sorted((key, cell) for key, cell in ws._cells.items() if cell.hyperlink is not None)
            ws._hyperlinks = [cell.hyperlink for _, cell in linked]  # (emptied by __init__)
            self.write()
        finally:
            # Also when anything fails: the stream openpyxl opened when this writer was made would otherwise
            # write to its buffer once that is gone.
            self.close()
        xml = self.read()
        pieces = self.PLACEHOLDER.split(xml)
        if len(pieces) != 2:
            raise Unsupported(f"openpyxl a écrit la feuille « {ws.title} » d'une façon inattendue")
        head, tail = pieces
        return itertools.chain([head], self.sheet_data(), [tail])


class _Context:
    """What writing a sheet's cells needs at hand: its workbook's style list, its epoch, and the column letters
    and style attributes met so far."""

    __slots__ = ("add_style", "epoch", "letters", "strings", "styles", "texts", "ws")

    def __init__(self, ws: Worksheet, strings: dict[str, int]):
        self.ws = ws
        self.strings = strings  # the package's plain shared strings, by text
        self.texts: dict[str, str] = {}  # a text -> what follows <c r=".." s=".."> for it (names repeat)
        self.add_style = ws.parent._cell_styles.add
        self.epoch = ws.parent.epoch
        self.letters: dict[int, str] = {}
        self.styles: dict[bytes, str] = {}


def _cells_xml(out: list[str], row: int, cells: list, context: _Context) -> None:
    """The cells of a row, appended to ``out``: text and numbers, most of a season's cells, inline; anything
    else by :func:`_cell_xml`."""
    letters, texts = context.letters, context.texts
    for column, cell in cells:
        style = cell._style
        s = "" if style is None else _style_attribute(style, context.styles, context.add_style)
        value = cell._value
        if value is None and not s:
            continue
        letter = letters.get(column)
        if letter is None:
            letter = letters[column] = get_column_letter(column)
        ref = f"{letter}{row}"
        kind = value.__class__
        if cell.__class__ is MergedCell:  # covered by a merged range: its style only
            out.append(f'<c r="{ref}"{s}/>')
        elif cell._hyperlink is not None or cell._comment is not None:
            out.append(_cell_xml(context.ws, cell, ref, s, context.epoch))
        elif kind is str and cell.data_type == "s":
            tail = texts.get(value)
            if tail is None:
                tail = texts[value] = _text_tail(value, context.strings)
            out.append(f'<c r="{ref}"{s}{tail}')
        elif kind is float and cell.data_type == "n" and -1e300 < value < 1e300:
            out.append(f'<c r="{ref}"{s} t="n"><v>{value:.16g}</v></c>')
        elif kind is int and cell.data_type == "n" and -10**15 < value < 10**15:
            out.append(f'<c r="{ref}"{s} t="n"><v>{value}</v></c>')
        else:
            out.append(_cell_xml(context.ws, cell, ref, s, context.epoch))


def _first(item: tuple) -> int:
    return item[0]


def _style_attribute(style, known: dict[bytes, str], add_style) -> str:
    """A cell's ` s="…"` attribute (empty for the default style), remembered by the style's bytes."""
    key = style.tobytes()
    attribute = known.get(key)
    if attribute is None:
        attribute = known[key] = f' s="{add_style(style)}"' if any(style) else ""
    return attribute


def _cell_xml(ws: Worksheet, cell, ref: str, s: str, epoch) -> str:
    """One cell's XML: text, numbers and naive dates written here, anything else by openpyxl."""
    value = cell._value
    kind = cell.data_type
    if kind == "s" and value.__class__ is str and cell._hyperlink is None and cell._comment is None:
        return _text_cell_xml(ref, s, value)
    if kind == "n" and cell._hyperlink is None and cell._comment is None:
        return _number_cell_xml(ref, s, value)
    if kind == "d" and value is not None and getattr(value, "tzinfo", None) is None \
            and cell._hyperlink is None and cell._comment is None:
        return f'<c r="{ref}"{s} t="n"><v>{_number_text(to_excel(value, epoch))}</v></c>'
    return _openpyxl_cell(ws, cell, bool(s))


def _text_cell_xml(ref: str, s: str, value: str) -> str:
    """A text cell, written inline."""
    return f'<c r="{ref}"{s}' + _text_tail(value, {})


def _text_tail(value: str, shared: dict[str, int]) -> str:
    """What follows ``<c r=".." s=".."`` for a text cell: a pointer to the shared string of that text (``shared``:
    text -> index), else the text inline."""
    index = shared.get(value)
    if index is not None:
        return f' t="s"><v>{index}</v></c>'
    if value == "":
        return "/>"
    if "&" in value or "<" in value or ">" in value:
        value = escape(value)
    space = ' xml:space="preserve"' if value[:1].isspace() or value[-1:].isspace() else ""
    return f' t="inlineStr"><is><t{space}>{value}</t></is></c>'


def _number_cell_xml(ref: str, s: str, value) -> str:
    """A number cell (or an empty one typed as number)."""
    if value is None:
        return f'<c r="{ref}"{s} t="n"/>'
    if value.__class__ is float and -1e300 < value < 1e300:
        return f'<c r="{ref}"{s} t="n"><v>{value:.16g}</v></c>'
    if value.__class__ is int and -10**15 < value < 10**15:
        return f'<c r="{ref}"{s} t="n"><v>{value}</v></c>'
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > _LARGEST:
        return _text_cell_xml(ref, s, str(value))  # beyond any spreadsheet's numbers: kept, as its digits
    return f'<c r="{ref}"{s} t="n"><v>{_number_text(value)}</v></c>'


#: The largest number a cell holds (a double's): a whole number beyond it is written as text.
_LARGEST = sys.float_info.max


def _number_text(value) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    if value != value or value in (float("inf"), float("-inf")):
        return ""
    return f"{value:.16g}"  # as openpyxl writes numbers


class _Collect:
    def __init__(self):
        self.parts: list[bytes] = []

    def write(self, element) -> None:
        self.parts.append(tostring(element))


def _openpyxl_cell(ws: Worksheet, cell, styled: bool) -> str:
    collect = _Collect()
    etree_write_cell(collect, ws, cell, styled)
    return b"".join(collect.parts).decode()

