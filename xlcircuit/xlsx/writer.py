"""The output-sheet writer: openpyxl's worksheet writer but for the cells, written here at a few times its speed."""

from __future__ import annotations

import itertools
import re
from collections import defaultdict
from collections.abc import Iterator

from openpyxl.cell._writer import etree_write_cell
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

    def write_rows(self):
        self.xf.send(Element("xlcircuitSheetData"))

    def sheet_data(self) -> Iterator[bytes]:
        """The sheet's <sheetData>, encoded in chunks of a few thousand rows, each made when asked for."""
        ws = self.ws
        add_style = ws.parent._cell_styles.add
        epoch = ws.parent.epoch
        dims = ws.row_dimensions
        rows = self._rows()
        out = ["<sheetData>"]
        letters: dict[int, str] = {}
        styles: dict[bytes, str] = {}
        for row in sorted(rows):
            dim = dims.get(row)
            attrs = "".join(f" {k}={quoteattr(v)}" for k, v in dim) if dim is not None else ""
            out.append(f'<row r="{row}"{attrs}>')
            cells = rows[row]
            if len(cells) > 1:
                cells.sort(key=_first)
            for column, cell in cells:
                style = cell._style
                s = "" if style is None else _style_attribute(style, styles, add_style)
                value = cell._value
                if value is None and not s:
                    continue
                letter = letters.get(column)
                if letter is None:
                    letter = letters[column] = get_column_letter(column)
                ref = f"{letter}{row}"
                kind = value.__class__
                # Text and numbers, most of a season's cells, inline; anything else by _cell_xml.
                if cell._hyperlink is not None or cell._comment is not None:
                    out.append(_cell_xml(ws, cell, ref, s, epoch))
                elif kind is str and cell.data_type == "s" and value and "&" not in value and "<" not in value \
                        and ">" not in value and not value[0].isspace() and not value[-1].isspace():
                    out.append(f'<c r="{ref}"{s} t="inlineStr"><is><t>{value}</t></is></c>')
                elif kind is float and cell.data_type == "n" and -1e300 < value < 1e300:
                    out.append(f'<c r="{ref}"{s} t="n"><v>{value:.16g}</v></c>')
                elif kind is int and cell.data_type == "n" and -10**15 < value < 10**15:
                    out.append(f'<c r="{ref}"{s} t="n"><v>{value}</v></c>')
                else:
                    out.append(_cell_xml(ws, cell, ref, s, epoch))
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
        # The tail lists the cells' links (openpyxl gathers them as it writes the cells): gathered first.
        linked = sorted((key, cell) for key, cell in ws._cells.items() if cell._hyperlink is not None)
        ws._hyperlinks = [cell.hyperlink for _, cell in linked]  # (emptied by __init__)
        try:
            self.write()
        finally:
            self.close()  # also when interrupted: an open stream would write to its buffer once that is gone
        xml = self.read()
        pieces = self.PLACEHOLDER.split(xml)
        if len(pieces) != 2:
            raise Unsupported("écriture de la feuille")
        head, tail = pieces
        return itertools.chain([head], self.sheet_data(), [tail])


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
    if value == "":
        return f'<c r="{ref}"{s}/>'
    if "&" in value or "<" in value or ">" in value:
        value = escape(value)
    space = ' xml:space="preserve"' if value[:1].isspace() or value[-1:].isspace() else ""
    return f'<c r="{ref}"{s} t="inlineStr"><is><t{space}>{value}</t></is></c>'


def _number_cell_xml(ref: str, s: str, value) -> str:
    """A number cell (or an empty one typed as number)."""
    if value is None:
        return f'<c r="{ref}"{s} t="n"/>'
    if value.__class__ is float and -1e300 < value < 1e300:
        return f'<c r="{ref}"{s} t="n"><v>{value:.16g}</v></c>'
    if value.__class__ is int and -10**15 < value < 10**15:
        return f'<c r="{ref}"{s} t="n"><v>{value}</v></c>'
    return f'<c r="{ref}"{s} t="n"><v>{_number_text(value)}</v></c>'


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

