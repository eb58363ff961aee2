"""The cell reader of the input tables: the cells of a sheet's XML in given areas, read as openpyxl reads them.

Two readers, one result: the fast one reads, at the speed of a regular expression, the cells as openpyxl, Excel
and LibreOffice write them (``<c r="A1" s="1" t="s"><v>0</v></c>``); a sheet written any other way (namespace
prefixes, attributes in another order or quoted otherwise, CDATA...) is read by the exact one, an XML parser
(expat). A value no spreadsheet writes (a shared string that does not exist, a number that is none) is a
:class:`BadCell`, which the caller reports as a damaged file."""

from __future__ import annotations

import html
import re
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from xml.parsers import expat

from openpyxl.utils import get_column_letter
from openpyxl.utils.datetime import from_excel, from_ISO8601
from openpyxl.workbook.workbook import Workbook

from .ooxml import _P, MAIN, _column
from .package import Package

_SHEET_DATA = re.compile(rb"<" + _P + rb"sheetData\b[^>]*?(?:/>|>(.*?)</" + _P + rb"sheetData>)", re.S)
_CELL = re.compile(rb"<" + _P + rb"c\b([^>]*?)(?:/>|>(.*?)</" + _P + rb"c>)", re.S)
_VALUE = re.compile(rb"<" + _P + rb"v\b[^>]*?(?:/>|>(.*?)</" + _P + rb"v>)", re.S)
_FORMULA = re.compile(rb"<" + _P + rb"f\b[^>]*?(?:/>|>(.*?)</" + _P + rb"f>)", re.S)
_TEXT = re.compile(rb"<" + _P + rb"t\b[^>]*?(?:/>|>(.*?)</" + _P + rb"t>)", re.S)
_PHONETIC = re.compile(rb"<" + _P + rb"rPh\b.*?</" + _P + rb"rPh>", re.S)
_STRING_ITEM = re.compile(rb"<" + _P + rb"si\b[^>]*?(?:/>|>(.*?)</" + _P + rb"si>)", re.S)
_REF = re.compile(r"\$?([A-Z]{1,3})\$?(\d+)$")


class BadCell(ValueError):
    """A cell no spreadsheet writes; its message says which and why, in French."""


def _sheet_data(xml: bytes) -> tuple[int, int] | None:
    """Where the content of ``<sheetData>`` is in a sheet's XML (found at C speed: sheets are large)."""
    start = xml.find(b"<sheetData")
    if start < 0:
        return None
    opening = xml.index(b">", start)
    if xml[opening - 1:opening] == b"/":
        return opening + 1, opening + 1
    end = xml.rfind(b"</sheetData>")
    if end < opening:
        return None
    return opening + 1, end


def _text(raw: bytes | None) -> str:
    if not raw:
        return ""
    text = raw.decode("utf-8")
    if "\r" in text:  # an XML parser normalises line ends
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return html.unescape(text) if "&" in text else text


def _rich(raw: bytes | None) -> str:
    """The text of an ``<is>`` or ``<si>``: its ``<t>`` runs, phonetic guides left out (as openpyxl reads it)."""
    if not raw:
        return ""
    if b"rPh" in raw:
        raw = _PHONETIC.sub(b"", raw)
    return "".join(_text(t) for t in _TEXT.findall(raw))


def shared_strings(package: Package) -> list[str]:
    parts = [r.part for r in package.rels(package.workbook) if r.type.endswith("/sharedStrings")]
    if not parts or parts[0] not in package.names:
        return []
    return [_rich(item) for item in _STRING_ITEM.findall(package.read(parts[0]))]


_PLAIN_ITEM = re.compile(rb'<t(?: xml:space="preserve")?>([^<]*)</t>')


def plain_shared_strings(package: Package) -> dict[str, int]:
    """The shared strings that are plain text (one run, no format, no phonetic guide), by text: a cell of that
    text can point to one instead of holding its own copy, as Excel writes it, the part left as it is."""
    parts = [r.part for r in package.rels(package.workbook) if r.type.endswith("/sharedStrings")]
    if not parts or parts[0] not in package.names:
        return {}
    found: dict[str, int] = {}
    for index, item in enumerate(_STRING_ITEM.findall(package.read(parts[0]))):
        plain = _PLAIN_ITEM.fullmatch(item) if item else None
        if plain is not None and plain.group(1):
            found.setdefault(_text(plain.group(1)), index)
    return found


def _number(text: str) -> int | float:
    try:
        if "." in text or "E" in text or "e" in text:
            return float(text)
        try:
            return int(text)
        except ValueError:
            return float(text)
    except ValueError:
        raise BadCell(f"« {text[:40]} » n'est pas un nombre") from None


@dataclass(slots=True)
class ReadCell:
    row: int
    column: int
    value: object
    data_type: str
    cached: object = None  # a formula's value as last calculated


@dataclass(frozen=True)
class _Context:
    """What reading values needs: the shared strings, the workbook's date and duration styles, its epoch."""

    strings: list[str]
    dates: set
    durations: set
    epoch: object

    @classmethod
    def of(cls, strings: list[str], wb: Workbook) -> _Context:
        return cls(strings, wb._date_formats, wb._timedelta_formats, wb.epoch)


_FAST_CELL = re.compile(
    rb'<c r="([A-Z]{1,3})(\d+)"(?: s="(\d+)")?(?: t="(\w+)")?(?: s="(\d+)")?\s*(?:/>|>(?:<v>([^<]*)</v>'
    rb'|<is><t>([^<]*)</t></is>|<is><t xml:space="preserve">([^<]*)</t></is>|(.*?))</c>)', re.S)
_LETTERS: dict[bytes, int] = {}


def read_cells(xml: bytes, areas: list[tuple[int, int, int, int]], strings: list[str], wb: Workbook) -> list[ReadCell]:
    """The cells of a sheet's XML that fall in ``areas``, read as openpyxl reads them (dates, numbers, text);
    blank cells left out. :class:`BadCell` for a cell no spreadsheet writes."""
    context = _Context.of(strings, wb)
    span = _sheet_data(xml) if _unprefixed(xml, b"worksheet") else None
    if span is not None:
        if span[0] == span[1]:
            return []
        start, end = span  # read in place: a season's sheet is tens of MB, not copied
        expected = xml.count(b"<c", start, end)  # every cell, and nothing else of sheetData, starts so
        found, matched = _read_fast(xml, start, end, areas, context)
        if matched == expected:
            return found
    return _read_exactly(xml, areas, context)  # prefixes, attributes in another order, or others


def _read_fast(xml: bytes, start: int, end: int, areas: list[tuple[int, int, int, int]],
               context: _Context) -> tuple[list[ReadCell], int]:
    """The cells the fast pattern reads between ``start`` and ``end``, and how many it matched."""
    dates = context.dates
    found: list[ReadCell] = []
    matched = 0
    letters_of = _LETTERS
    for match in _FAST_CELL.finditer(xml, start, end):
        matched += 1
        letters, row, s1, t, s2, v, text, spaced, inner = match.groups()
        column = letters_of.get(letters)
        if column is None:
            column = letters_of[letters] = _column(letters.decode())
        r = int(row)
        for a in areas:
            if a[0] <= column <= a[2] and a[1] <= r <= a[3]:
                break
        else:
            continue
        # Most of a season's cells, read here: a plain inline text, a number that is not a date.
        if text and b"&" not in text and b"\r" not in text:
            found.append(ReadCell(r, column, text.decode("utf-8"), "s"))
        elif v and (t is None or t == b"n") and not inner and int(s1 or s2 or 0) not in dates:
            found.append(ReadCell(r, column, _number(v.decode()), "n"))
        elif (cell := _matched_cell(r, column, s1 or s2, t, v, text or spaced, inner, context)) is not None:
            found.append(cell)
    return found, matched


def _matched_cell(row: int, column: int, style: bytes | None, t: bytes | None, v: bytes | None,
                  text: bytes | None, inner: bytes | None, context: _Context) -> ReadCell | None:
    """The cell one match of the fast pattern found: its inner XML read in full, else its inline text or value."""
    kind = (t or b"n").decode()
    if inner:
        raw = _VALUE.search(inner)
        formula = _FORMULA.search(inner)
        return _cell(row, column, int(style or 0), kind, _text(raw.group(1) if raw else None),
                     None if formula is None else _text(formula.group(1)), _rich(inner), context)
    if text:
        return ReadCell(row, column, _text(text), "s")
    return _cell(row, column, int(style or 0), kind, _text(v), None, None, context)


def _cell(row: int, column: int, style: int, kind: str, text: str, formula: str | None, inline: str | None,
          context: _Context) -> ReadCell | None:
    """A cell read: its value from ``text`` (a ``<v>``), its formula's (``None``: none) or its inline text
    (``None``: no ``<is>``)."""
    if formula is not None:
        return ReadCell(row, column, "=" + formula, "f", _value(kind, text, style, context)[0])
    if kind == "inlineStr":
        return None if inline is None else ReadCell(row, column, inline, "s")
    value, data_type = _value(kind, text, style, context)
    return None if value is None else ReadCell(row, column, value, data_type)


def _value(kind: str, text: str, style: int, context: _Context) -> tuple[object, str]:
    if not text:
        return None, "s" if kind in ("s", "str") else kind
    if kind == "n":
        number = _number(text)
        if style in context.dates:
            try:
                return from_excel(number, context.epoch, timedelta=style in context.durations), "d"
            except (OverflowError, ValueError):
                return "#VALUE!", "e"
        return number, "n"
    if kind == "s":
        index = _number(text)
        if not isinstance(index, int) or not 0 <= index < len(context.strings):
            raise BadCell(f"la chaîne partagée n° {text[:40]} n'existe pas")
        return context.strings[index], "s"
    if kind == "b":
        number = _number(text)
        if not isinstance(number, int):
            raise BadCell(f"« {text[:40]} » n'est pas une valeur logique")
        return bool(number), "b"
    if kind == "str":
        return text, "s"
    if kind == "d":
        try:
            return from_ISO8601(text), "d"
        except (ValueError, OverflowError):
            raise BadCell(f"« {text[:40]} » n'est pas une date") from None
    return text, kind


def _unprefixed(xml: bytes, root: bytes) -> bool:
    """Whether the part's root element is ``root`` in the default namespace (what the fast paths read)."""
    return re.match(rb"(?:\s|<\?xml[^>]*\?>|<!--.*?-->)*<" + root + rb"\b", xml, re.S) is not None


def _in(areas: list[tuple[int, int, int, int]], column: int, row: int) -> bool:
    return any(a[0] <= column <= a[2] and a[1] <= row <= a[3] for a in areas)


# --- the exact reader ------------------------------------------------------------------------------------


def _read_exactly(xml: bytes, areas: list[tuple[int, int, int, int]], context: _Context) -> list[ReadCell]:
    """The cells in ``areas``, read by an XML parser: any prefix, attribute order or quoting, CDATA, entities."""
    reader = _Exact(areas, context)
    parser = expat.ParserCreate(namespace_separator=" ")
    parser.buffer_text = True
    parser.StartElementHandler = reader.start
    parser.EndElementHandler = reader.end
    parser.CharacterDataHandler = reader.text
    try:
        parser.Parse(xml, True)
    except expat.ExpatError as exc:  # checked whole when opened (safe._Scanner): only a part read without it
        raise BadCell(f"XML invalide, ligne {exc.lineno}") from None
    return reader.found


class _Exact:
    """expat's handlers gathering the cells of a sheet: each ``<c>`` with its ``<v>``, ``<f>`` and inline
    text (phonetic guides left out)."""

    def __init__(self, areas: list[tuple[int, int, int, int]], context: _Context):
        self.areas, self.context = areas, context
        self.found: list[ReadCell] = []
        self.cell: tuple[int, int, int, str] | None = None  # row, column, style, type of the cell being read
        self.value: list[str] = []
        self.formula: list[str] | None = None  # None: no <f>
        self.inline: list[str] | None = None  # None: no <is>
        self.capture: list[str] | None = None
        self.phonetic = 0
        self.row = self.column = 0  # where a cell without reference goes

    def start(self, name: str, attrs: dict[str, str]) -> None:
        uri, _, local = name.rpartition(" ")
        if uri != MAIN:
            return
        if local == "c":
            self._open_cell(attrs)
        elif local == "row":
            self._open_row(attrs)
        elif self.cell is None:
            return
        elif local == "rPh":
            self.phonetic += 1
        elif local == "v":
            self.capture = self.value
        elif local == "f":
            self.capture = self.formula = []
        elif local == "is":
            self.inline = []
        elif local == "t" and not self.phonetic and self.inline is not None:
            self.capture = self.inline

    def _open_row(self, attrs: dict[str, str]) -> None:
        """A row: its number, or the one after the previous row's (as openpyxl numbers rows without one)."""
        number = attrs.get("r")
        if number is None:
            self.row += 1
        else:
            try:
                value = float(number)
            except ValueError:
                raise BadCell(f"une ligne a pour numéro « {number[:20]} »") from None
            if not value.is_integer():
                raise BadCell(f"une ligne a pour numéro « {number[:20]} »")
            self.row = int(value)
        self.column = 0

    def _open_cell(self, attrs: dict[str, str]) -> None:
        ref = attrs.get("r")
        if not ref:  # placed after the previous cell of its row, as openpyxl places it
            self.column += 1
            row, column = self.row, self.column
        else:
            where = _REF.match(ref)
            if where is None:
                raise BadCell(f"une cellule a pour référence « {ref[:20]} »")
            row, column = int(where.group(2)), _column(where.group(1))
            self.column = column
        style = attrs.get("s", "0").strip() or "0"
        if not style.isdigit():
            raise BadCell(f"une cellule (ligne {row}) a pour style « {style[:20]} »")
        self.cell = (row, column, int(style), attrs.get("t", "n"))
        self.value, self.formula, self.inline, self.capture, self.phonetic = [], None, None, None, 0

    def text(self, data: str) -> None:
        if self.capture is not None:
            self.capture.append(data)

    def end(self, name: str) -> None:
        uri, _, local = name.rpartition(" ")
        if uri != MAIN or self.cell is None:
            return
        if local == "rPh":
            self.phonetic -= 1
        elif local in ("v", "f", "t"):
            self.capture = None
        elif local == "c":
            self._close_cell()

    def _close_cell(self) -> None:
        assert self.cell is not None
        row, column, style, kind = self.cell
        self.cell = None
        if not _in(self.areas, column, row):
            return
        formula = None if self.formula is None else "".join(self.formula)
        inline = None if self.inline is None else "".join(self.inline)
        cell = _cell(row, column, style, kind, "".join(self.value), formula, inline, self.context)
        if cell is not None:
            self.found.append(cell)


# --- a table's columns, read alone -----------------------------------------------------------------------

def table_values(path: Path, name: str, headers: Collection[str] | None = None) -> list[list[object]] | None:
    """The cells of the table called ``name`` (any case) as the file at ``path`` holds them, row by row, its
    header first (a formula by its last calculated value, dates as dates); None when it has no such table.
    With ``headers``, only those columns are read (the others are None): a published table of a large season
    is read in a fraction of the time. Read from the sheet's XML, without openpyxl's model of the workbook;
    raises :class:`Unsupported` (or what a damaged part raises) when the table cannot be read so."""
    from openpyxl.styles.stylesheet import apply_stylesheet

    package = Package(path)
    try:
        table = package.table(name)
        if table is None:
            return None
        sheet = next(s for s in package.sheets if s.name == table.sheet)
        styles = Workbook()
        apply_stylesheet(package.source_file.zip, styles)  # which number formats are dates
        xml = package.read(sheet.part)
        strings = shared_strings(package) if b't="s"' in xml or b"t='s'" in xml else []
        min_col, min_row, max_col, max_row = table.bounds
        grid: list[list[object]] = [[None] * (max_col - min_col + 1) for _ in range(max_row - min_row + 1)]
        columns = _table_columns(package, table.part)
        wanted = None
        if headers is not None and len(columns) == max_col - min_col + 1:
            keys = {h.casefold() for h in headers}
            wanted = [min_col + i for i, header in enumerate(columns) if header.casefold() in keys]
            grid[0] = list(columns)
        cells = _columns_cells(xml, wanted, table.bounds, strings, styles) if wanted else None
        if cells is None:
            cells = read_cells(xml, [table.bounds], strings, styles)
        for cell in cells:
            grid[cell.row - min_row][cell.column - min_col] = cell.cached if cell.data_type == "f" else cell.value
        return grid
    finally:
        package.close()


def _table_columns(package: Package, part: str) -> list[str]:
    """The column names a table part declares, in order."""
    from defusedxml import ElementTree as SafeET

    node = SafeET.fromstring(package.read(part))
    return [column.get("name", "") for column in node.iter() if column.tag.rsplit("}", 1)[-1] == "tableColumn"]


def _columns_cells(xml: bytes, columns: list[int], area: tuple[int, int, int, int], strings: list[str],
                   wb: Workbook) -> list[ReadCell] | None:
    """The cells of ``columns`` in ``area``, found by a pattern that skips the other columns' cells at C speed;
    None when the sheet is not written as that pattern reads it (then read it all)."""
    span = _sheet_data(xml)
    if not _unprefixed(xml, b"worksheet") or span is None:
        return None
    start, end = span
    letters = b"|".join(get_column_letter(c).encode() for c in columns)
    pattern = re.compile(_FAST_CELL.pattern.replace(rb"([A-Z]{1,3})", b"(" + letters + b")", 1), re.S)
    every = re.compile(rb"<c\b[^>]*?\br=\"(?:" + letters + rb")\d")
    context = _Context.of(strings, wb)
    found: list[ReadCell] = []
    matched = 0
    for match in pattern.finditer(xml, start, end):
        matched += 1
        letters_found, row, s1, t, s2, v, text, spaced, inner = match.groups()
        r = int(row)
        if not area[1] <= r <= area[3]:
            continue
        cell = _matched_cell(r, _column(letters_found.decode()), s1 or s2, t, v, text or spaced, inner, context)
        if cell is not None:
            found.append(cell)
    if matched != len(every.findall(xml, start, end)):
        return None  # attributes in another order somewhere
    return found
