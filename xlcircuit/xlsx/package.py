"""The surgical fill: read only what a fill needs, rewrite only the sheets xlcircuit owns, copy the rest.

A workbook is a zip of XML parts. A fill reads the input tables and rewrites the output sheets; every
other part (the organiser's sheets, their drawings, images, comments, sparklines, the cached values of
his formulas...) is copied byte for byte, compressed bytes included. openpyxl still builds the output
sheets (their tables, styles, charts, print setup): :func:`open_for_fill` gives it a reduced copy of the
package where the organiser's sheets are empty stubs holding only their tables, and fills the input
tables' cells from a fast reader of the sheets' XML; :class:`Surgery` then writes the new package.

:func:`package_problems` checks what Excel's repair dialog checks (it is used by the tests on every
workbook they write).
"""

from __future__ import annotations

import bisect
import functools
import html
import io
import itertools
import posixpath
import re
import struct
import zipfile
from collections import defaultdict
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from xml.etree.ElementTree import ParseError

import openpyxl
from defusedxml import DefusedXmlException
from defusedxml import ElementTree as SafeET
from openpyxl.cell._writer import etree_write_cell
from openpyxl.cell.read_only import ReadOnlyCell
from openpyxl.drawing.spreadsheet_drawing import SpreadsheetDrawing
from openpyxl.packaging.relationship import Relationship
from openpyxl.utils import get_column_letter, range_boundaries
from openpyxl.utils.datetime import from_excel, from_ISO8601, to_excel
from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet._writer import WorksheetWriter
from openpyxl.worksheet.worksheet import Worksheet
from openpyxl.xml.functions import Element, tostring

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
OFFICE_RELS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PACKAGE_RELS = "http://schemas.openxmlformats.org/package/2006/relationships"
CONTENT_TYPES = "http://schemas.openxmlformats.org/package/2006/content-types"
WORKSHEET_TYPE = OFFICE_RELS + "/worksheet"
_SHEET_KINDS = ("/worksheet", "/chartsheet", "/dialogsheet", "/xlMacrosheet", "/macrosheet")
#: What a sheet xlcircuit rewrites may point to: what openpyxl reads and writes back whole.
_OWNABLE = ("/table", "/drawing", "/hyperlink", "/printerSettings")
_TYPES = {
    "worksheet": "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml",
    "table": "application/vnd.openxmlformats-officedocument.spreadsheetml.table+xml",
    "drawing": "application/vnd.openxmlformats-officedocument.drawing+xml",
    "chart": "application/vnd.openxmlformats-officedocument.drawingml.chart+xml",
    "custom": "application/vnd.openxmlformats-officedocument.custom-properties+xml",
}
_IMAGE_TYPES = {"png": "image/png", "jpeg": "image/jpeg", "jpg": "image/jpeg", "gif": "image/gif", "bmp": "image/bmp",
                "tiff": "image/tiff", "emf": "image/x-emf", "wmf": "image/x-wmf"}
#: Zip entries written anew carry this time, so that a refill writes the same bytes.
_ZIP_TIME = (1980, 1, 1, 0, 0, 0)
_COMPRESS_LEVEL = 1  # the output sheets are large and rewritten at each fill: fast deflate


class Unsupported(Exception):
    """The workbook holds something the surgical writer cannot place: the fill takes the full-rewrite path."""


# --- the package -----------------------------------------------------------------------------


@dataclass
class Rel:
    id: str
    type: str
    target: str
    external: bool
    part: str  # the part it points to (resolved), '' for an external target


@dataclass
class SheetInfo:
    name: str
    sheet_id: int
    rid: str
    part: str
    kind: str  # worksheet, chartsheet...
    index: int


@dataclass
class TableInfo:
    name: str  # displayName
    ref: str
    id: int
    part: str
    sheet: str

    @property
    def bounds(self) -> tuple[int, int, int, int]:
        return range_boundaries(self.ref)


def rels_part(part: str) -> str:
    folder, name = posixpath.split(part)
    return posixpath.join(folder, "_rels", name + ".rels")


def resolve(source: str, target: str) -> str:
    """The part a relationship of ``source`` names (``/xl/...`` absolute, or relative to its folder)."""
    if target.startswith("/"):
        return target.lstrip("/")
    return posixpath.normpath(posixpath.join(posixpath.dirname(source), target)).lstrip("/")


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


class Package:
    """The parts of a workbook as its zip holds them, and the map of its sheets and tables."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self.zip = zipfile.ZipFile(self.path)
        self.infos = self.zip.infolist()
        self.names = {info.filename for info in self.infos}
        self._rels: dict[str, list[Rel]] = {}
        roots = [r for r in self.rels("") if r.type.endswith("/officeDocument")]
        self.workbook = roots[0].part if roots else "xl/workbook.xml"
        self.sheets = self._sheets()
        self.tables: dict[str, list[TableInfo]] = {s.name: self._tables(s) for s in self.sheets}

    def close(self) -> None:
        self.zip.close()

    def read(self, part: str) -> bytes:
        return self.zip.read(part)

    def rels(self, part: str) -> list[Rel]:
        """The relationships of ``part`` ('' for the package's own)."""
        if part not in self._rels:
            name = "_rels/.rels" if part == "" else rels_part(part)
            rels = []
            if name in self.names:
                for node in SafeET.fromstring(self.read(name)):
                    external = node.get("TargetMode") == "External"
                    target = node.get("Target", "")
                    rels.append(Rel(node.get("Id", ""), node.get("Type", ""), target, external,
                                    "" if external else resolve(part or "/", target)))
            self._rels[part] = rels
        return self._rels[part]

    def _sheets(self) -> list[SheetInfo]:
        book = SafeET.fromstring(self.read(self.workbook))
        by_id = {r.id: r for r in self.rels(self.workbook)}
        sheets = []
        for index, node in enumerate(book.iter(f"{{{MAIN}}}sheet")):
            rid = node.get(f"{{{OFFICE_RELS}}}id", "")
            rel = by_id.get(rid)
            if rel is None:
                raise Unsupported(f"feuille « {node.get('name')} » sans partie")
            kind = next((k.strip("/") for k in _SHEET_KINDS if rel.type.endswith(k)), "other")
            sheets.append(SheetInfo(node.get("name", ""), int(node.get("sheetId", "0")), rid, rel.part, kind, index))
        return sheets

    def _tables(self, sheet: SheetInfo) -> list[TableInfo]:
        tables = []
        for rel in self.rels(sheet.part):
            if rel.type.endswith("/table") and rel.part in self.names:
                node = SafeET.fromstring(self.read(rel.part))
                tables.append(TableInfo(node.get("displayName") or node.get("name", ""), node.get("ref", ""),
                                        int(node.get("id", "0")), rel.part, sheet.name))
        return tables

    def table(self, name: str) -> TableInfo | None:
        key = name.casefold()
        return next((t for ts in self.tables.values() for t in ts if t.name.casefold() == key), None)

    def reachable(self, roots: Iterable[str], skip: Collection[str] = ()) -> set[str]:
        """Every part reachable from ``roots`` through relationships (not following those of ``skip``)."""
        seen: set[str] = set()
        todo = list(roots)
        while todo:
            part = todo.pop()
            if part in seen or part not in self.names:
                continue
            seen.add(part)
            if rels_part(part) in self.names:
                seen.add(rels_part(part))
            if part in skip:
                continue
            todo += [r.part for r in self.rels(part) if not r.external]
        return seen


def declares_entities(path: Path) -> bool:
    """Whether an XML part of the package has a document type declaration (where entities are declared),
    read from the parts' first bytes only: the fast reader below must never meet one."""
    with zipfile.ZipFile(path) as archive:
        for info in archive.infolist():
            if not info.filename.endswith((".xml", ".rels", ".vml")):
                continue
            with archive.open(info) as handle:
                head = handle.read(_PROLOG)
            if b"<!DOCTYPE" in head or b"<!ENTITY" in head:
                return True
            root = re.search(rb"<[A-Za-z_]", head)
            if root is None and len(head) == _PROLOG:  # a prolog longer than any real one
                return True
    return False


_PROLOG = 4096


def table_refs(path: Path) -> dict[str, list[tuple[str, str]]]:
    """Sheet name -> (name, range) of each of its tables (Excel's ListObjects), from the package's parts; empty
    for a package whose map cannot be read (its sheets are then read as plain ranges)."""
    try:
        package = Package(path)
    except (Unsupported, ParseError, DefusedXmlException, KeyError, ValueError, zipfile.BadZipFile, OSError):
        return {}
    try:
        return {sheet: [(t.name, t.ref) for t in tables] for sheet, tables in package.tables.items() if tables}
    finally:
        package.close()


# --- reading the input sheets fast --------------------------------------------------------------

_P = rb"(?:[A-Za-z_][\w.-]*:)?"  # an optional namespace prefix
_SHEET_DATA = re.compile(rb"<" + _P + rb"sheetData\b[^>]*?(?:/>|>(.*?)</" + _P + rb"sheetData>)", re.S)
_CELL = re.compile(rb"<" + _P + rb"c\b([^>]*?)(?:/>|>(.*?)</" + _P + rb"c>)", re.S)
_ATTR = re.compile(rb"""([\w:]+)\s*=\s*(?:"([^"]*)"|'([^']*)')""")
_VALUE = re.compile(rb"<" + _P + rb"v\b[^>]*?(?:/>|>(.*?)</" + _P + rb"v>)", re.S)
_FORMULA = re.compile(rb"<" + _P + rb"f\b[^>]*?(?:/>|>(.*?)</" + _P + rb"f>)", re.S)
_TEXT = re.compile(rb"<" + _P + rb"t\b[^>]*?(?:/>|>(.*?)</" + _P + rb"t>)", re.S)
_PHONETIC = re.compile(rb"<" + _P + rb"rPh\b.*?</" + _P + rb"rPh>", re.S)
_STRING_ITEM = re.compile(rb"<" + _P + rb"si\b[^>]*?(?:/>|>(.*?)</" + _P + rb"si>)", re.S)
_REF = re.compile(r"([A-Z]{1,3})(\d+)$")


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
        raise Unsupported("sheetData")
    return opening + 1, end
_COLUMNS: dict[str, int] = {}


def _column(letters: str) -> int:
    number = _COLUMNS.get(letters)
    if number is None:
        number = 0
        for ch in letters:
            number = number * 26 + ord(ch) - 64
        _COLUMNS[letters] = number
    return number


def escape(text: str) -> str:
    """``&``, ``<`` and ``>`` escaped, as XML text needs: xml.sax.saxutils' ``escape``, without the import of
    that module (it imports urllib and http.client, a tenth of a small fill's time)."""
    return text.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")


def quoteattr(text: str) -> str:
    """An attribute's value escaped and quoted, as xml.sax.saxutils' ``quoteattr`` writes it."""
    text = escape(text).replace("\n", "&#10;").replace("\r", "&#13;").replace("\t", "&#9;")
    if '"' not in text:
        return f'"{text}"'
    return f"'{text}'" if "'" not in text else '"' + text.replace('"', "&quot;") + '"'


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


def _number(text: str) -> int | float:
    if "." in text or "E" in text or "e" in text:
        return float(text)
    try:
        return int(text)
    except ValueError:
        return float(text)


@dataclass(slots=True)
class ReadCell:
    row: int
    column: int
    value: object
    data_type: str
    cached: object = None  # a formula's value as last calculated


_FAST_CELL = re.compile(
    rb'<c r="([A-Z]{1,3})(\d+)"(?: s="(\d+)")?(?: t="(\w+)")?(?: s="(\d+)")?\s*(?:/>|>(?:<v>([^<]*)</v>'
    rb'|<is><t>([^<]*)</t></is>|<is><t xml:space="preserve">([^<]*)</t></is>|(.*?))</c>)', re.S)
_LETTERS: dict[bytes, int] = {}


def read_cells(xml: bytes, areas: list[tuple[int, int, int, int]], strings: list[str], wb: Workbook) -> list[ReadCell]:
    """The cells of a sheet's XML that fall in ``areas``, read as openpyxl reads them (dates, numbers, text);
    blank cells left out."""
    if not _unprefixed(xml, b"worksheet"):
        raise Unsupported("préfixes XML")
    span = _sheet_data(xml)
    if span is None or span[0] == span[1]:
        return []
    start, end = span  # read in place: a season's sheet is tens of MB, not copied
    context = (strings, wb._date_formats, wb._timedelta_formats, wb.epoch)
    dates = wb._date_formats
    found: list[ReadCell] = []
    expected = xml.count(b"<c ", start, end) + xml.count(b"<c>", start, end) + xml.count(b"<c/", start, end)
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
    if matched != expected:
        return _read_cells_slowly(xml[start:end], areas, context)  # attributes in another order, or others
    return found


def _matched_cell(row: int, column: int, style: bytes | None, t: bytes | None, v: bytes | None,
                  text: bytes | None, inner: bytes | None, context) -> ReadCell | None:
    """The cell one match of the fast pattern found: its inner XML read in full, else its inline text or value."""
    if inner:
        return _read_cell(row, column, int(style or 0), (t or b"n").decode(), inner, context)
    if text:
        return ReadCell(row, column, _text(text), "s")
    if v:
        value, data_type = _value((t or b"n").decode(), v, int(style or 0), *context)
        if value is not None:
            return ReadCell(row, column, value, data_type)
    return None


def _read_cells_slowly(data: bytes, areas, context) -> list[ReadCell]:
    found = []
    for attrs, inner in _CELL.findall(data):
        ref = t = s = None
        for key, v1, v2 in _ATTR.findall(attrs):
            value = v1 or v2
            if key == b"r":
                ref = value
            elif key == b"t":
                t = value
            elif key == b"s":
                s = value
        if ref is None:
            raise Unsupported("cellule sans référence")
        where = _REF.match(ref.decode())
        if where is None:
            raise Unsupported(f"référence de cellule {ref!r}")
        row, column = int(where.group(2)), _column(where.group(1))
        if not _in(areas, column, row):
            continue
        cell = _read_cell(row, column, int(s) if s else 0, (t or b"n").decode(), inner, context)
        if cell is not None:
            found.append(cell)
    return found


def _read_cell(row: int, column: int, style: int, kind: str, inner: bytes, context) -> ReadCell | None:
    if inner and _FORMULA.search(inner):
        raw = _VALUE.search(inner)
        cached = _value(kind, raw.group(1) if raw else None, style, *context)[0]
        formula = _FORMULA.search(inner)
        return ReadCell(row, column, "=" + _text(formula.group(1) if formula else b""), "f", cached)
    if kind == "inlineStr":
        return ReadCell(row, column, _rich(inner), "s") if inner else None
    raw = _VALUE.search(inner) if inner else None
    value, data_type = _value(kind, raw.group(1) if raw else None, style, *context)
    return None if value is None else ReadCell(row, column, value, data_type)


def _value(kind: str, raw: bytes | None, style: int, strings, date_styles, delta_styles,
           epoch) -> tuple[object, str]:
    text = _text(raw) if raw else ""
    if not text:
        return None, "s" if kind in ("s", "str") else kind
    if kind == "n":
        number = _number(text)
        if style in date_styles:
            try:
                return from_excel(number, epoch, timedelta=style in delta_styles), "d"
            except (OverflowError, ValueError):
                return "#VALUE!", "e"
        return number, "n"
    if kind == "s":
        return strings[int(text)], "s"
    if kind == "b":
        return bool(int(text)), "b"
    if kind == "str":
        return text, "s"
    if kind == "d":
        return from_ISO8601(text), "d"
    return text, kind


# --- the reduced copy openpyxl loads -----------------------------------------------------------

_STUB = (f'<worksheet xmlns="{MAIN}" xmlns:r="{OFFICE_RELS}"><sheetData/>{{tables}}</worksheet>')
_WORKBOOK_DROPS = [re.compile(rb"<" + _P + name + rb"\b[^>]*?(?:/>|>.*?</" + _P + name + rb">)", re.S)
                   for name in (rb"externalReferences", rb"pivotCaches")]


def _in(areas: list[tuple[int, int, int, int]], column: int, row: int) -> bool:
    return any(a[0] <= column <= a[2] and a[1] <= row <= a[3] for a in areas)


_ROW = re.compile(rb"<row\b([^>]*?)(?:/>|>(.*?)</row>)", re.S)
_ROW_NUMBER = re.compile(rb"""\br\s*=\s*["'](\d+)["']""")
_CELL_COLUMN = re.compile(rb"""<c\b[^>]*?\br\s*=\s*["']([A-Z]+)\d+["']""")


def _has_content(cells: bytes) -> bool:
    return b"<v" in cells or b"<is" in cells or b"<f" in cells


def _unprefixed(xml: bytes, root: bytes) -> bool:
    """Whether the part's root element is ``root`` in the default namespace (what the fast paths read)."""
    return re.match(rb"(?:\s|<\?xml[^>]*\?>|<!--.*?-->)*<" + root + rb"\b", xml, re.S) is not None


_ROW_START = re.compile(rb'<row r="(\d+)"')
_ROW_TAG = re.compile(rb"<row\b[^>]*>")


@functools.lru_cache(maxsize=64)
def _outside_columns(first: int, last: int) -> re.Pattern:
    """A cell reference (``<c r="…``) whose column is not in ``first``..``last``: one scan of a sheet, no list."""
    return re.compile(rb'<c r="(?!(?:' + _letters_between(first, last).encode() + rb')\d)')


def _letters_between(first: int, last: int) -> str:
    """A regular expression of the column letters ``first``..``last`` (1 is A), one alternative per length."""
    alternatives = []
    for low, high in ((1, 26), (27, 702), (703, 18278)):  # A-Z, AA-ZZ, AAA-ZZZ
        if first <= high and last >= low:
            alternatives.append(_between(get_column_letter(max(first, low)), get_column_letter(min(last, high))))
    return "|".join(alternatives)


def _between(low: str, high: str) -> str:
    """The strings of A-Z letters of one length from ``low`` to ``high``, as a regular expression."""
    if len(low) == 1:
        return f"[{low}-{high}]"
    if low[0] == high[0]:
        return low[0] + "(?:" + _between(low[1:], high[1:]) + ")"
    rest = len(low) - 1
    parts = [low[0] + "(?:" + _between(low[1:], "Z" * rest) + ")"]
    if ord(high[0]) - ord(low[0]) > 1:
        parts.append(f"[{chr(ord(low[0]) + 1)}-{chr(ord(high[0]) - 1)}][A-Z]{{{rest}}}")
    parts.append(high[0] + "(?:" + _between("A" * rest, high[1:]) + ")")
    return "|".join(parts)


_BARE_ROW = re.compile(rb'<row r="\d+"(?: spans="[\d:]+")?\s*/?>')


def _emptied_rows(rows: bytes) -> bytes:
    """Rows of a sheet with their attributes (heights) but no cells, ``<row …></row>`` each; rows with no
    attribute but their number (and the spans hint) are left out, as openpyxl would make nothing of them."""
    return b"".join(tag[:-2] + b"></row>" if tag.endswith(b"/>") else tag + b"</row>"
                    for tag in _ROW_TAG.findall(rows) if not _BARE_ROW.fullmatch(tag))


def _strip_cells(xml: bytes, areas: list[tuple[int, int, int, int]] | None) -> tuple[bytes, bool]:
    """The sheet without its cells in ``areas`` (None: without any cell), and whether others remain.

    Rows keep their attributes (heights). A block of rows holding only cells of one area loses them at
    C speed; the rest is looked at row by row."""
    if not _unprefixed(xml, b"worksheet"):
        raise Unsupported("préfixes XML")
    span = _sheet_data(xml)
    if span is None or span[0] == span[1]:
        return xml, False
    data = xml[span[0]:span[1]]
    if data.count(b"<c") != data.count(b'<c r="'):  # no other element of sheetData starts with c
        raise Unsupported("cellule sans référence en tête")
    if areas is None:
        return xml[:span[0]] + _emptied_rows(data) + xml[span[1]:], False
    if data.count(b"<row") != data.count(b'<row r="'):
        raise Unsupported("ligne sans numéro en tête")
    rows = _RowFinder(data)
    pieces, cursor, others = [], 0, False
    for area in sorted(areas, key=lambda a: a[1]):
        begin, end = rows.first(area[1]), rows.after(area[3])
        if begin >= end:
            continue
        if begin < cursor:
            raise Unsupported("tables sur les mêmes lignes")
        outside = data[cursor:begin]
        others = others or _has_content(outside)
        pieces.append(outside)
        block = data[begin:end]
        if _outside_columns(area[0], area[2]).search(block) is None:
            pieces.append(_emptied_rows(block))
        else:
            block, more = _strip_rows(block, area)
            pieces.append(block)
            others = others or more
        cursor = end
    others = others or _has_content(data[cursor:])
    pieces.append(data[cursor:])
    return xml[:span[0]] + b"".join(pieces) + xml[span[1]:], others


class _RowFinder:
    """Where rows start in a sheet's ``<sheetData>`` (rows are in ascending order): found by their number
    at C speed, every row's start listed only when a row looked for does not exist."""

    def __init__(self, data: bytes):
        self.data = data
        self._starts: list[tuple[int, int]] | None = None
        self._from = 0  # rows are looked for in ascending order: each search starts where the last one ended

    def _find(self, number: int) -> int:
        needle = b'<row r="%d"' % number
        at = self.data.find(needle, self._from)
        if at < 0 and self._from:
            at = self.data.find(needle)
        if at >= 0:
            self._from = at
        return at

    def first(self, number: int) -> int:
        """The offset of the first row numbered ``number`` or more (the end of the data: none)."""
        at = self._find(number)
        return at if at >= 0 else self._bisect(number)

    def after(self, number: int) -> int:
        """The offset of the first row numbered more than ``number``."""
        at = self._find(number)
        if at < 0:
            return self._bisect(number + 1)
        following = self.data.find(b"<row", at + 1)
        return following if following >= 0 else len(self.data)

    def _bisect(self, number: int) -> int:
        if self._starts is None:
            self._starts = [(int(m.group(1)), m.start()) for m in _ROW_START.finditer(self.data)]
        index = bisect.bisect_left(self._starts, (number, -1))
        return self._starts[index][1] if index < len(self._starts) else len(self.data)


def _strip_rows(block: bytes, area: tuple[int, int, int, int]) -> tuple[bytes, bool]:
    """Rows of a sheet without their cells in ``area``, looked at one by one; and whether others remain."""
    kept_any = False

    def row(found: re.Match) -> bytes:
        nonlocal kept_any
        inner = found.group(2)
        if not inner:
            return found.group(0)
        kept = []
        for cell in _CELL.finditer(inner):
            where = _CELL_COLUMN.match(cell.group(0))
            if where is None or not area[0] <= _column(where.group(1).decode()) <= area[2]:
                kept.append(cell.group(0))
        kept_any = kept_any or _has_content(b"".join(kept))
        return b"<row" + found.group(1) + b">" + b"".join(kept) + b"</row>"

    return _ROW.sub(row, block), kept_any


@dataclass
class Owned:
    """What a fill owns: its output tables (by name) and the sheets it rewrites whole (by name)."""

    tables: dict[str, str]  # table name -> the sheet that takes it when the workbook does not have it yet
    sheets: tuple[str, ...] = ()  # sheets rewritten whole (charts only, for instance)
    pattern: re.Pattern | None = None  # more output tables: those whose name matches
    pattern_sheet: str | None = None  # where they go when the workbook has none

    @classmethod
    def of(cls, specs: Iterable, sheets: Iterable[str] = (), pattern: re.Pattern | None = None,
           pattern_sheet: str | None = None) -> Owned:
        """What a fill owns, from its output tables' specs (each with its ``name`` and ``sheet``)."""
        return cls({spec.name: spec.sheet for spec in specs}, tuple(sheets), pattern, pattern_sheet)


@dataclass
class Plan:
    """Which sheets a fill rewrites and what it must clear on them, for a given workbook."""

    package: Package
    owned: dict[str, list[tuple[int, int, int, int]] | None]  # sheet name -> the areas it owns (None: all)

    @property
    def sheets(self) -> list[SheetInfo]:
        return [s for s in self.package.sheets if s.name in self.owned]


def plan(package: Package, owned: Owned) -> Plan:
    """The sheets the fill will rewrite: those holding an output table, else those it puts them on."""
    names = {s.name for s in package.sheets}
    areas: dict[str, list[tuple[int, int, int, int]] | None] = {}

    def own(sheet: str, table: TableInfo | None) -> None:
        current = areas.get(sheet, [])
        if sheet not in names or current is None:
            return
        area = areas[sheet] = current
        if table is not None:
            b = table.bounds
            area.append(b)
            if b[1] > 2:
                area.append((b[0], b[1] - 2, b[0], b[1] - 2))  # the title two rows above

    for name, sheet in owned.tables.items():
        table = package.table(name)
        own(table.sheet if table else sheet, table)
    if owned.pattern is not None:
        matched = [t for ts in package.tables.values() for t in ts if owned.pattern.fullmatch(t.name)]
        for table in matched:
            own(table.sheet, table)
        if not matched and owned.pattern_sheet:
            own(owned.pattern_sheet, None)
    for sheet in owned.sheets:
        if sheet in names:
            areas[sheet] = None
    return Plan(package, areas)


def _check_ownable(package: Package, the_plan: Plan) -> None:
    for sheet in the_plan.sheets:
        if sheet.kind != "worksheet":
            raise Unsupported(f"« {sheet.name} » n'est pas une feuille de calcul")
        for rel in package.rels(sheet.part):
            if not rel.type.endswith(_OWNABLE):
                raise Unsupported(f"« {sheet.name} » contient des {rel.type.rsplit('/', 1)[-1]}")


def reduced_copy(the_plan: Plan) -> tuple[bytes, dict[str, bool]]:
    """A copy of the package for openpyxl: the owned sheets as they are but for their owned cells, every other
    sheet an empty stub holding only its tables. Also, for each owned sheet, whether the organiser's cells remain."""
    package = the_plan.package
    _check_ownable(package, the_plan)
    out = io.BytesIO()
    foreign: dict[str, bool] = {}
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as reduced:
        written: set[str] = set()

        def put(name: str, data: bytes) -> None:
            if name not in written:
                written.add(name)
                reduced.writestr(name, data)

        _reduced_book(package, put)
        for sheet in package.sheets:
            if sheet.name in the_plan.owned:
                foreign[sheet.name] = _reduced_owned_sheet(package, sheet, the_plan.owned[sheet.name], put)
            else:
                _reduced_stub_sheet(package, sheet, put)
    return out.getvalue(), foreign


def _reduced_book(package: Package, put) -> None:
    """Into the reduced copy: root parts, the workbook bare of links and pivot caches, its sheets and styles."""
    keep_types = ("/styles", "/theme", "/sharedStrings")
    for name in ("[Content_Types].xml", "_rels/.rels", "docProps/core.xml", "docProps/app.xml",
                 "docProps/custom.xml"):
        if name in package.names:
            put(name, package.read(name))
    book = package.read(package.workbook)
    for pattern in _WORKBOOK_DROPS:
        book = pattern.sub(b"", book)
    put(package.workbook, book)
    rels = []
    for rel in package.rels(package.workbook):
        if rel.type.endswith(_SHEET_KINDS):
            rels.append(Relationship(Id=rel.id, Type=WORKSHEET_TYPE, Target="/" + rel.part))
        elif rel.type.endswith(keep_types) and rel.part in package.names:
            rels.append(Relationship(Id=rel.id, Type=rel.type, Target="/" + rel.part))
            put(rel.part, package.read(rel.part))
    put(rels_part(package.workbook), _rels_xml(rels))


def _reduced_owned_sheet(package: Package, sheet: SheetInfo, areas: list[tuple[int, int, int, int]] | None,
                         put) -> bool:
    """Into the reduced copy: an owned sheet bare of its owned cells; whether the organiser's cells remain."""
    whole = areas is None
    xml, others = _strip_cells(package.read(sheet.part), areas)
    rels = package.rels(sheet.part)
    if whole and any(r.type.endswith("/drawing") and _only_charts(package, r.part) for r in rels):
        # A sheet rewritten whole loses its charts at each fill: openpyxl need not read them.
        rels = [r for r in rels if not r.type.endswith("/drawing")]
        xml = re.sub(rb"<drawing\b[^>]*?/>", b"", xml)
        put(rels_part(sheet.part), _rels_xml([Relationship(Id=r.id, Type=r.type, Target=r.target,
                                                           TargetMode="External" if r.external else None)
                                              for r in rels]))
    put(sheet.part, xml)
    for part in sorted(package.reachable([r.part for r in rels if not r.external])):
        put(part, package.read(part))
    if rels_part(sheet.part) in package.names:
        put(rels_part(sheet.part), package.read(rels_part(sheet.part)))
    return others


def _reduced_stub_sheet(package: Package, sheet: SheetInfo, put) -> None:
    """Into the reduced copy: a sheet not owned, as an empty stub holding only its tables."""
    tables = [r for r in package.rels(sheet.part) if r.type.endswith("/table") and r.part in package.names]
    parts = "".join(f'<tablePart r:id="{escape(r.id)}"/>' for r in tables)
    put(sheet.part, _STUB.format(tables=f'<tableParts count="{len(tables)}">{parts}</tableParts>'
                                 if tables else "").encode())
    if tables:
        put(rels_part(sheet.part), _rels_xml([Relationship(Id=r.id, Type=r.type, Target="/" + r.part)
                                              for r in tables]))
        for r in tables:
            put(r.part, package.read(r.part))


def _only_charts(package: Package, drawing: str) -> bool:
    """Whether a drawing holds charts and nothing else (no picture, shape or group)."""
    if drawing not in package.names:
        return False
    tags = {_local(e.tag) for e in SafeET.fromstring(package.read(drawing)).iter()}
    return not tags & {"pic", "sp", "grpSp", "cxnSp", "contentPart"}


def _rels_xml(rels: list[Relationship]) -> bytes:
    body = "".join(f'<Relationship Id={quoteattr(r.Id)} Type={quoteattr(r.Type)} Target={quoteattr(r.Target)}'
                   + (' TargetMode="External"' if r.TargetMode == "External" else "") + "/>" for r in rels)
    return (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
            f'<Relationships xmlns="{PACKAGE_RELS}">{body}</Relationships>').encode()


def fill_inputs(the_plan: Plan, wb: Workbook) -> dict[tuple[str, int, int], object]:
    """Put into the stub sheets of ``wb`` the cells of their tables (and the row under each); returns
    the last calculated value of each formula cell, by (sheet, row, column)."""
    package = the_plan.package
    strings: list[str] | None = None
    cached: dict[tuple[str, int, int], object] = {}
    for sheet in package.sheets:
        tables = package.tables[sheet.name]
        if sheet.name in the_plan.owned or not tables or sheet.name not in wb.sheetnames:
            continue
        xml = package.read(sheet.part)
        if strings is None and (b't="s"' in xml or b"t='s'" in xml):
            strings = shared_strings(package)
        # A table's columns down to the sheet's end: rows typed under it are taken in, or said (tables.read_table).
        areas = [(b[0], b[1], b[2], 1 << 20) for b in (t.bounds for t in tables)]
        ws = wb[sheet.name]
        cells = ws._cells
        new = object.__new__
        for found in read_cells(xml, areas, strings or [], wb):
            # Read-only cells (the stub sheets are read, never written back), their slots set here: the
            # constructor's calls cost as much as the reading.
            cell = cells[found.row, found.column] = new(ReadOnlyCell)
            cell.parent, cell.row, cell.column, cell._style_id = ws, found.row, found.column, 0
            cell._value, cell.data_type = found.value, found.data_type
            if found.data_type == "f":
                cached[sheet.name, found.row, found.column] = found.cached
    return cached


def open_for_fill(the_plan: Plan) -> tuple[Workbook, dict, dict[str, bool]]:
    """openpyxl's model of what a fill needs: the owned sheets, the stubs with their tables and input cells."""
    data, foreign = reduced_copy(the_plan)
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        wb = openpyxl.load_workbook(io.BytesIO(data))
    return wb, fill_inputs(the_plan, wb), foreign


# --- writing the new package ----------------------------------------------------------------------


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


class Names:
    """Part names and ids of a package, to give new parts ones no kept part has."""

    def __init__(self, taken: Iterable[str]):
        self.taken = set(taken)

    def free(self, pattern: str, also: Collection[int] = ()) -> int:
        number = 1
        while pattern.format(number) in self.taken or number in also:
            number += 1
        self.taken.add(pattern.format(number))
        return number


_CALC_PR = re.compile(rb"<(" + _P + rb")calcPr\b([^>]*?)(/?)>")
_AFTER_CALC = [rb"oleSize", rb"customWorkbookViews", rb"pivotCaches", rb"smartTagPr", rb"smartTagTypes",
               rb"webPublishing", rb"fileRecoveryPr", rb"webPublishObjects", rb"extLst"]
_DEFINED_NAME = re.compile(rb"<" + _P + rb"definedName\b([^>]*)>(.*?)</" + _P + rb"definedName>", re.S)
_OVERRIDE = re.compile(rb"<" + _P + rb"Override\b[^>]*?PartName\s*=\s*[\"']([^\"']+)[\"'][^>]*?/>")


def _insert_before_any(xml: bytes, names: list[bytes], fallback: bytes, text: bytes) -> bytes:
    """``text`` put before the first of the elements ``names`` found in ``xml``, else before ``fallback``."""
    best = None
    for name in names:
        match = re.search(rb"<" + _P + name + rb"\b", xml)
        if match and (best is None or match.start() < best):
            best = match.start()
    if best is None:
        best = xml.rindex(fallback)
    return xml[:best] + text + xml[best:]


#: The lists of a workbook's parts in docProps/app.xml (sheet names, with their headings).
_SHEET_LISTS = re.compile(rb"<(\w+:)?(HeadingPairs|TitlesOfParts)\b[^>]*?(?:/>|>.*?</(?:\1)?\2>)", re.S)


class Surgery:
    """The filled workbook: the owned sheets of ``wb`` written anew into a copy of the original package."""

    def __init__(self, the_plan: Plan, wb: Workbook, federation_property: str, federation: str):
        self.plan = the_plan
        self.wb = wb
        self.property = (federation_property, federation)
        self.counts = _style_counts(the_plan.package)
        # Every relationship the save follows is read now: a broken one sends the fill down the full path.
        package = the_plan.package
        original = {s.name: s for s in package.sheets}
        self.owned_parts = {original[name].part for name in the_plan.owned if name in original}
        self.kept = package.reachable([r.part for r in package.rels("")], skip=self.owned_parts)
        self.old = set().union(*(package.reachable([p]) for p in self.owned_parts))

    def save(self, target) -> None:
        """Write the new package to ``target`` (a path): kept parts as raw compressed bytes, the rest anew.

        Kept parts go first, then each output sheet as soon as it is serialised (one at a time in memory),
        then the entries that depend on them (styles, workbook, content types), copied raw when unchanged."""
        package = self.plan.package
        original = {s.name: s for s in package.sheets}
        owned = [ws for ws in self.wb.worksheets if ws.title in self.plan.owned or ws.title not in original]
        owned_parts = self.owned_parts
        kept, old = self.kept, self.old
        dropped = (old - kept) | {rels_part(p) for p in owned_parts if rels_part(p) in package.names}
        names = Names(package.names - dropped)
        kept_table_ids = {t.id for ts in package.tables.values() for t in ts if t.part not in dropped}
        later = {self.counts["part"], package.workbook, rels_part(package.workbook), "_rels/.rels",
                 "[Content_Types].xml", "docProps/custom.xml"}
        if any(ws.title not in original for ws in owned):  # new sheets: the list of sheets in app.xml changes
            later |= {r.part for r in package.rels("") if r.type.endswith("/extended-properties")}
        later |= {r.part for r in package.rels(package.workbook) if r.type.endswith("/calcChain")}
        grown = self._grown_tables(owned)  # input tables a fill grew over rows typed under them
        later |= set(grown)
        types: dict[str, str] = {}  # new part -> content type
        added_sheets: list[tuple[str, str]] = []  # (name, part) of sheets the fill created
        written: list[str] = []
        with open(package.path, "rb") as source, zipfile.ZipFile(Path(target), "w", zipfile.ZIP_DEFLATED,
                                                                 compresslevel=_COMPRESS_LEVEL) as out:

            def emit(name: str, data: bytes | Iterable[bytes]) -> None:
                _write_new(out, name, data)
                written.append(name)

            for info in package.infos:
                if info.filename not in dropped and info.filename not in owned_parts and info.filename not in later:
                    _copy_raw(source, info, out)
            for ws in owned:
                if ws.title in original:
                    part = original[ws.title].part
                else:
                    part = f"xl/worksheets/sheet{names.free('xl/worksheets/sheet{}.xml')}.xml"
                    added_sheets.append((ws.title, part))
                    types[part] = _TYPES["worksheet"]
                self._write_sheet(ws, part, names, kept_table_ids, types, emit)
            changed = self._changed(owned, original, added_sheets, types, dropped)
            changed.update(grown)
            changed["[Content_Types].xml"] = self._content_types(types, dropped, written)
            _write_later(source, out, package.infos, later, dropped, changed)

    def _changed(self, owned: list[Worksheet], original: dict[str, SheetInfo], added_sheets: list[tuple[str, str]],
                 types: dict[str, str], dropped: set[str]) -> dict[str, bytes]:
        """The parts the output sheets change (styles, calc chain, workbook, custom); an emptied chain is dropped."""
        package = self.plan.package
        changed: dict[str, bytes] = {}
        styles = self._styles()
        if styles is not None:
            changed[styles[0]] = styles[1]
        calc_chain = self._calc_chain([original[ws.title].sheet_id for ws in owned if ws.title in original])
        if calc_chain is not None:
            if calc_chain[1] is None:
                dropped.add(calc_chain[0])
            else:
                changed[calc_chain[0]] = calc_chain[1]
        drop_chain = calc_chain is not None and calc_chain[1] is None
        book_rels, book_xml = self._workbook(owned, added_sheets, drop_chain)
        changed.update(book_rels)
        changed[package.workbook] = book_xml
        changed.update(self._custom(types))
        changed.update(self._app(added_sheets))
        return changed

    def _write_sheet(self, ws: Worksheet, part: str, names: Names, table_ids: set[int], types: dict[str, str],
                     emit) -> None:
        """An output sheet with its tables, drawing, charts and images, each part given a free name."""
        writer = _SheetWriter(ws, io.BytesIO())
        xml = writer.serialised()
        rels = writer._rels
        for table in ws.tables.values():
            table.id = names.free("xl/tables/table{}.xml", table_ids)
            table_ids.add(table.id)
            rels.get(table._rel_id).Target = table.path
            emit(table.path[1:], tostring(table.to_tree()))
            types[table.path[1:]] = _TYPES["table"]
        if ws._charts or ws._images:
            drawing = SpreadsheetDrawing()
            drawing.charts, drawing.images = ws._charts, ws._images
            drawing._id = names.free("xl/drawings/drawing{}.xml")
            for chart in drawing.charts:
                chart._id = names.free("xl/charts/chart{}.xml")
            for image in drawing.images:
                image._id = names.free("xl/media/image{}." + image.format)
            for rel in rels:
                if rel.Type.endswith("/drawing"):
                    rel.Target = drawing.path
            emit(drawing.path[1:], tostring(drawing._write()))
            emit(rels_part(drawing.path[1:]), tostring(drawing._write_rels()))
            types[drawing.path[1:]] = _TYPES["drawing"]
            for chart in drawing.charts:
                emit(chart.path[1:], tostring(chart._write()))
                types[chart.path[1:]] = _TYPES["chart"]
            for image in drawing.images:
                emit(image.path[1:], image._data())
        emit(part, xml)
        if len(rels):
            emit(rels_part(part), tostring(rels.to_tree()))

    # -- the entries that must change --

    def _grown_tables(self, owned: list[Worksheet]) -> dict[str, bytes]:
        """The table parts of the organiser's sheets whose range the fill changed (rows typed under a table,
        taken in), with their new range; the rest of each part as it was."""
        package = self.plan.package
        titles = {ws.title for ws in owned}
        grown = {}
        for sheet in package.sheets:
            if sheet.name in titles or sheet.name not in self.wb.sheetnames:
                continue
            models = {t.displayName.casefold(): t for t in self.wb[sheet.name].tables.values()}
            for info in package.tables[sheet.name]:
                model = models.get(info.name.casefold())
                if model is None or model.ref == info.ref:
                    continue
                xml = package.read(info.part)
                grown[info.part] = xml.replace(f'ref="{info.ref}"'.encode(), f'ref="{model.ref}"'.encode())
        return grown

    def _styles(self) -> tuple[str, bytes] | None:
        """styles.xml with what the owned sheets added to openpyxl's lists appended (None: nothing added)."""
        wb, counts = self.wb, self.counts
        part, xml = counts["part"], counts["xml"]
        lists = {"fonts": wb._fonts, "fills": wb._fills, "borders": wb._borders, "dxfs": wb._differential_styles.dxf,
                 "cellXfs": wb._cell_styles}
        if all(len(lists[k]) == counts[k] for k in lists):
            return None
        if any(len(lists[k]) < counts[k] for k in lists):
            raise Unsupported("styles")
        formats = dict(counts["numFmts"])  # format code -> its id in the file
        next_id = max([163, *formats.values()]) + 1
        added_formats = []

        def format_id(internal: int) -> int:
            nonlocal next_id
            if internal < 164:
                return internal
            code = wb._number_formats[internal - 164]
            if code not in formats:
                formats[code] = next_id
                added_formats.append((next_id, code))
                next_id += 1
            return formats[code]

        from openpyxl.styles.cell_style import CellStyle

        xfs = []
        for style in wb._cell_styles[counts["cellXfs"]:]:
            xf = CellStyle.from_array(style)
            xf.numFmtId = format_id(style.numFmtId)
            if style.alignmentId:
                xf.alignment = wb._alignments[style.alignmentId]
            if style.protectionId:
                xf.protection = wb._protections[style.protectionId]
            xfs.append(tostring(xf.to_tree()))
        for name, items in (("fonts", [tostring(f.to_tree()) for f in wb._fonts[counts["fonts"]:]]),
                            ("fills", [tostring(f.to_tree()) for f in wb._fills[counts["fills"]:]]),
                            ("borders", [tostring(b.to_tree()) for b in wb._borders[counts["borders"]:]]),
                            ("cellXfs", xfs),
                            ("dxfs", [tostring(d.to_tree("dxf"))
                                      for d in wb._differential_styles.dxf[counts["dxfs"]:]])):
            if items:
                xml = _append_children(xml, name.encode(), items, counts[name])
        if added_formats:
            items = [f'<numFmt numFmtId="{i}" formatCode={quoteattr(code)}/>'.encode() for i, code in added_formats]
            xml = _append_children(xml, b"numFmts", items, len(counts["numFmts"]))
        return part, xml

    def _calc_chain(self, sheet_ids: list[int]) -> tuple[str, bytes | None] | None:
        """calcChain.xml without the owned sheets' cells (None as bytes: nothing left, drop it)."""
        package = self.plan.package
        parts = [r.part for r in package.rels(package.workbook) if r.type.endswith("/calcChain")]
        if not parts or parts[0] not in package.names:
            return None
        root = SafeET.fromstring(package.read(parts[0]))
        current, kept, dropped = 0, [], False
        for cell in root:
            current = int(cell.get("i", current))
            if current in sheet_ids:
                dropped = True
                continue
            kept.append((current, cell))
        if not dropped:
            return None
        if not kept:
            return parts[0], None
        body = "".join("<c" + "".join(f" {k}={quoteattr(v)}" for k, v in {**c.attrib, "i": str(i)}.items()) + "/>"
                       for i, c in kept)
        return parts[0], (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
                          f'<calcChain xmlns="{MAIN}">{body}</calcChain>').encode()

    def _workbook(self, owned: list[Worksheet], added: list[tuple[str, str]],
                  drop_calc_chain: bool) -> tuple[dict[str, bytes], bytes]:
        package = self.plan.package
        xml = package.read(package.workbook)
        original = xml
        # Recalculate on opening: the organiser's formulas that read the outputs see the new values.
        calc = _CALC_PR.search(xml)
        if calc is None:
            xml = _insert_before_any(xml, _AFTER_CALC, b"</", b'<calcPr fullCalcOnLoad="1"/>')
        elif not re.search(rb'fullCalcOnLoad\s*=\s*["\'](1|true)["\']', calc.group(2)):
            attrs = re.sub(rb'\s*fullCalcOnLoad\s*=\s*["\'][^"\']*["\']', b"", calc.group(2))
            xml = xml[:calc.start()] + b"<" + calc.group(1) + b"calcPr" + attrs + b' fullCalcOnLoad="1"' + \
                calc.group(3) + b">" + xml[calc.end():]
        rels_changes: dict[str, bytes] = {}
        rels = package.rels(package.workbook)
        if added:
            prefix = re.search(rb'xmlns:(\w+)\s*=\s*["\']' + re.escape(OFFICE_RELS.encode()), xml)
            r = prefix.group(1).decode() if prefix else None
            if r is None:
                raise Unsupported("workbook.xml")
            ids = {rel.id for rel in rels}
            next_sheet = max([s.sheet_id for s in package.sheets] + [0]) + 1
            entries, new_rels = [], []
            for name, part in added:
                n = 1
                while f"rId{n}" in ids:
                    n += 1
                ids.add(f"rId{n}")
                entries.append(f'<sheet name={quoteattr(name)} sheetId="{next_sheet}" {r}:id="rId{n}"/>')
                new_rels.append(f'<Relationship Id="rId{n}" Type="{WORKSHEET_TYPE}" Target="/{part}"/>')
                next_sheet += 1
            end = re.search(rb"</" + _P + rb"sheets>", xml)
            if end is None:
                raise Unsupported("workbook.xml")
            xml = xml[:end.start()] + "".join(entries).encode() + xml[end.start():]
            rels_changes[rels_part(package.workbook)] = self._rels_with(new_rels, drop_calc_chain)
        elif drop_calc_chain:
            rels_changes[rels_part(package.workbook)] = self._rels_with([], True)
        xml = self._names(xml, owned)
        return rels_changes, xml if xml != original else original

    def _rels_with(self, added: list[str], drop_calc_chain: bool) -> bytes:
        package = self.plan.package
        xml = package.read(rels_part(package.workbook))
        if drop_calc_chain:
            xml = re.sub(rb"<" + _P + rb"Relationship\b[^>]*?/calcChain[\"'][^>]*?/>", b"", xml)
        end = xml.rindex(b"</")
        return xml[:end] + "".join(added).encode() + xml[end:]

    def _names(self, xml: bytes, owned: list[Worksheet]) -> bytes:
        """The print titles and print areas of the owned sheets, as openpyxl's model now says."""
        index = {ws.title: i for i, ws in enumerate(self.wb.worksheets)}
        wanted: list[bytes] = []
        ours = set()
        for ws in owned:
            i = index[ws.title]
            ours.add(i)
            for name, value in (("_xlnm.Print_Titles", ws.print_titles), ("_xlnm.Print_Area", ws.print_area)):
                if value:
                    wanted.append(f'<definedName name="{name}" localSheetId="{i}">{escape(value)}'
                                  '</definedName>'.encode())

        def mine(match: re.Match) -> bool:
            attrs = {k: v1 or v2 for k, v1, v2 in _ATTR.findall(match.group(1))}
            local = attrs.get(b"localSheetId")
            return attrs.get(b"name") in (b"_xlnm.Print_Titles", b"_xlnm.Print_Area") and local is not None \
                and int(local) in ours

        found = [m for m in _DEFINED_NAME.finditer(xml) if mine(m)]
        if [m.group(0) for m in found] == wanted:
            return xml
        for match in reversed(found):
            xml = xml[:match.start()] + xml[match.end():]
        if not wanted:
            return xml
        block = re.search(rb"<(" + _P + rb")definedNames\b[^>]*?(/?)>", xml)
        if block is None:
            text = b"<definedNames>" + b"".join(wanted) + b"</definedNames>"
            return _insert_before_any(xml, [rb"calcPr", *_AFTER_CALC], b"</", text)
        prefix = block.group(1)
        if block.group(2):  # <definedNames/>
            return xml[:block.start()] + b"<" + prefix + b"definedNames>" + b"".join(wanted) + \
                b"</" + prefix + b"definedNames>" + xml[block.end():]
        if prefix:
            wanted = [w.replace(b"<definedName", b"<" + prefix + b"definedName").replace(
                b"</definedName", b"</" + prefix + b"definedName") for w in wanted]
        end = xml.index(b"</" + prefix + b"definedNames>")
        return xml[:end] + b"".join(wanted) + xml[end:]

    def _app(self, added_sheets: list[tuple[str, str]]) -> dict[str, bytes]:
        """The extended properties (docProps/app.xml) without their list of sheets when the fill added sheets:
        the list, which Excel writes and reads for information only, would leave them out. Both elements are
        optional; Excel writes them afresh at its next save."""
        part = next((r.part for r in self.plan.package.rels("") if r.type.endswith("/extended-properties")), None)
        if not added_sheets or part is None or part not in self.plan.package.names:
            return {}
        xml = self.plan.package.read(part)
        stripped = _SHEET_LISTS.sub(b"", xml)
        return {part: stripped} if stripped != xml else {}

    def _custom(self, types: dict[str, str]) -> dict[str, bytes]:
        """docProps/custom.xml, when the federation's mark is not already there as it should be."""
        package = self.plan.package
        name, value = self.property
        props = self.wb.custom_doc_props
        part = next((r.part for r in package.rels("") if r.type.endswith("/custom-properties")), None)
        if part is not None and part in package.names:
            node = SafeET.fromstring(package.read(part))
            for prop in node:
                if prop.get("name") == name and [c.text for c in prop] == [value]:
                    return {}
        xml = tostring(props.to_tree())
        if part is None:
            part = "docProps/custom.xml"
            types[part] = _TYPES["custom"]
            rels = package.read("_rels/.rels")
            end = rels.rindex(b"</")
            ids = {r.id for r in package.rels("")}
            n = 1
            while f"rId{n}" in ids:
                n += 1
            rel = (f'<Relationship Id="rId{n}" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
                   f'relationships/custom-properties" Target="docProps/custom.xml"/>').encode()
            return {part: xml, "_rels/.rels": rels[:end] + rel + rels[end:]}
        return {part: xml}

    def _content_types(self, types: dict[str, str], dropped: set[str], new: list[str]) -> bytes:
        package = self.plan.package
        xml = package.read("[Content_Types].xml")
        gone = {"/" + p for p in dropped}
        xml = _OVERRIDE.sub(lambda m: b"" if m.group(1).decode() in gone else m.group(0), xml)
        present = {m.group(1).decode() for m in _OVERRIDE.finditer(xml)}
        defaults = {m.group(1).decode().lower() for m in re.finditer(
            rb"<" + _P + rb"Default\b[^>]*?Extension\s*=\s*[\"']([^\"']+)[\"']", xml)}
        added = []
        for part, kind in types.items():
            if "/" + part not in present:
                added.append(f'<Override PartName="/{part}" ContentType="{kind}"/>')
        for part in new:
            ext = part.rsplit(".", 1)[-1].lower()
            if part.startswith("xl/media/") and ext not in defaults:
                defaults.add(ext)
                kind = _IMAGE_TYPES.get(ext, "application/octet-stream")
                added.append(f'<Default Extension="{ext}" ContentType="{kind}"/>')
        if added:
            # Defaults first: they must precede the Overrides
            first = [a for a in added if a.startswith("<Default")]
            rest = [a for a in added if not a.startswith("<Default")]
            if first:
                types_tag = re.search(rb"<" + _P + rb"Types\b[^>]*>", xml)
                if types_tag is None:
                    raise Unsupported("[Content_Types].xml")
                start = types_tag.end()
                xml = xml[:start] + "".join(first).encode() + xml[start:]
            end = xml.rindex(b"</")
            xml = xml[:end] + "".join(rest).encode() + xml[end:]
        return xml


def _write_later(source, out: zipfile.ZipFile, infos: list[zipfile.ZipInfo], later: set[str], dropped: set[str],
                 changed: dict[str, bytes]) -> None:
    """The entries written last, in the package's order: new when changed, else copied raw; then new parts."""
    for info in infos:
        name = info.filename
        if name in later and name not in dropped:
            if name in changed:
                _write_new(out, name, changed.pop(name))
            else:
                _copy_raw(source, info, out)
    for name, data in changed.items():
        _write_new(out, name, data)


def _write_new(out: zipfile.ZipFile, name: str, data: bytes | Iterable[bytes]) -> None:
    info = zipfile.ZipInfo(name, date_time=_ZIP_TIME)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o600 << 16
    if isinstance(data, bytes):
        out.writestr(info, data, compresslevel=_COMPRESS_LEVEL)
        return
    info._compresslevel = _COMPRESS_LEVEL  # type: ignore[attr-defined]  # what ZipFile.open(info, "w") reads
    with out.open(info, "w") as handle:
        for piece in data:
            handle.write(piece)


def _copy_raw(source, info: zipfile.ZipInfo, out: zipfile.ZipFile) -> None:
    """Copy a member's compressed bytes as they are: no inflating, no deflating."""
    source.seek(info.header_offset)
    header = source.read(30)
    if header[:4] != b"PK\x03\x04":
        raise Unsupported("zip")
    name_length, extra_length = struct.unpack("<HH", header[26:30])
    source.seek(info.header_offset + 30 + name_length + extra_length)
    data = source.read(info.compress_size)
    copy = zipfile.ZipInfo(info.filename, date_time=info.date_time)
    copy.compress_type = info.compress_type
    copy.CRC, copy.compress_size, copy.file_size = info.CRC, info.compress_size, info.file_size
    copy.external_attr, copy.create_system = info.external_attr, info.create_system
    copy.flag_bits = info.flag_bits & ~0x08 & 0x800  # sizes in the header, no data descriptor; keep UTF-8 names
    copy.extra = b""
    fp = out.fp
    assert fp is not None
    copy.header_offset = fp.tell()
    zip64 = copy.file_size > zipfile.ZIP64_LIMIT or copy.compress_size > zipfile.ZIP64_LIMIT
    fp.write(copy.FileHeader(zip64))
    fp.write(data)
    out.filelist.append(copy)
    out.NameToInfo[copy.filename] = copy
    out.start_dir = fp.tell()
    out._didModify = True  # type: ignore[attr-defined]  # so that closing writes the central directory


# --- styles ------------------------------------------------------------------------------------


def _style_counts(package: Package) -> dict:
    parts = [r.part for r in package.rels(package.workbook) if r.type.endswith("/styles")]
    if not parts or parts[0] not in package.names:
        raise Unsupported("pas de styles")
    xml = package.read(parts[0])
    if not re.match(rb"(?:<\?xml[^>]*\?>\s*)?<styleSheet\b", xml.lstrip()):
        raise Unsupported("styles.xml")
    root = SafeET.fromstring(xml)
    counts: dict = {"part": parts[0], "xml": xml}
    for name in ("fonts", "fills", "borders", "cellXfs", "dxfs"):
        node = root.find(f"{{{MAIN}}}{name}")
        counts[name] = 0 if node is None else len(node)
    formats = root.find(f"{{{MAIN}}}numFmts")
    counts["numFmts"] = [] if formats is None else [(f.get("formatCode", ""), int(f.get("numFmtId", "0")))
                                                      for f in formats]
    return counts


_STYLE_ORDER = [b"numFmts", b"fonts", b"fills", b"borders", b"cellStyleXfs", b"cellXfs", b"cellStyles", b"dxfs",
                b"tableStyles", b"colors", b"extLst"]


def _append_children(xml: bytes, name: bytes, items: list[bytes], before: int) -> bytes:
    """``items`` appended to the element ``name`` of styles.xml, its count updated (created where it belongs)."""
    count = before + len(items)
    element = re.search(rb"<" + name + rb"\b([^>]*?)(/?)>", xml)
    body = b"".join(items)
    if element is None:
        later = _STYLE_ORDER[_STYLE_ORDER.index(name) + 1:]
        text = b"<" + name + b' count="%d">' % count + body + b"</" + name + b">"
        return _insert_before_any(xml, later, b"</styleSheet>", text)
    attrs = re.sub(rb'\s*count\s*=\s*["\'][^"\']*["\']', b"", element.group(1))
    opening = b"<" + name + attrs + b' count="%d">' % count
    if element.group(2):  # <dxfs count="0"/>
        return xml[:element.start()] + opening + body + b"</" + name + b">" + xml[element.end():]
    end = xml.index(b"</" + name + b">", element.end())
    return xml[:element.start()] + opening + xml[element.end():end] + body + xml[end:]


# --- the validator -----------------------------------------------------------------------------


_SML = "application/vnd.openxmlformats-officedocument.spreadsheetml."
#: The content type Excel wants for the target of each kind of relationship.
_PART_TYPES = {
    "worksheet": _SML + "worksheet+xml", "table": _SML + "table+xml", "styles": _SML + "styles+xml",
    "sharedStrings": _SML + "sharedStrings+xml", "comments": _SML + "comments+xml", "calcChain": _SML + "calcChain+xml",
    "chartsheet": _SML + "chartsheet+xml", "drawing": "application/vnd.openxmlformats-officedocument.drawing+xml",
    "chart": "application/vnd.openxmlformats-officedocument.drawingml.chart+xml",
    "theme": "application/vnd.openxmlformats-officedocument.theme+xml",
    "custom-properties": "application/vnd.openxmlformats-officedocument.custom-properties+xml",
}


def package_problems(path: Path) -> list[str]:
    """What Excel would repair in a workbook: dangling relationships, untyped parts, duplicate sheet, table or
    drawing ids and names, style indices past their lists, shared string counts, names of missing sheets."""
    problems: list[str] = []
    with zipfile.ZipFile(path) as archive:
        names = set(archive.namelist())
        if len(names) != len(archive.namelist()):
            problems.append("entrées du zip en double")
        types = SafeET.fromstring(archive.read("[Content_Types].xml"))
        problems += _content_type_problems(types, names)
        typed = {n.get("PartName", "").lstrip("/"): n.get("ContentType", "") for n in types
                 if _local(n.tag) == "Override"}
        by_extension = {n.get("Extension", "").lower(): n.get("ContentType", "") for n in types
                        if _local(n.tag) == "Default"}
        problems += _xml_problems(archive, names)
        for rels in sorted(n for n in names if n.endswith(".rels")):
            problems += _relationship_problems(archive, names, rels, typed, by_extension)
        problems += _workbook_problems(archive, names)
    return problems


def _content_type_problems(types, names: set[str]) -> list[str]:
    """Overrides naming absent parts, and parts neither overridden nor typed by their extension."""
    problems = []
    defaults = {n.get("Extension", "").lower() for n in types if _local(n.tag) == "Default"}
    overrides = {n.get("PartName", "").lstrip("/") for n in types if _local(n.tag) == "Override"}
    for part in sorted(overrides - names):
        problems.append(f"[Content_Types] nomme une partie absente : {part}")
    for part in sorted(names):
        if part.endswith("/") or part == "[Content_Types].xml":
            continue
        if part not in overrides and part.rsplit(".", 1)[-1].lower() not in defaults:
            problems.append(f"partie sans type : {part}")
    return problems


def _xml_problems(archive: zipfile.ZipFile, names: set[str]) -> list[str]:
    """XML and relationship parts that do not parse."""
    problems = []
    for part in sorted(n for n in names if n.endswith(".xml") or n.endswith(".rels")):
        try:
            SafeET.fromstring(archive.read(part))
        except Exception as exc:
            problems.append(f"XML illisible : {part} ({exc})")
    return problems


def _relationship_problems(archive: zipfile.ZipFile, names: set[str], rels: str, typed: dict[str, str],
                           by_extension: dict[str, str]) -> list[str]:
    """One relationship part: its source present, its ids unique, its internal targets present and rightly typed."""
    problems = []
    source = posixpath.join(posixpath.dirname(posixpath.dirname(rels)), posixpath.basename(rels)[:-5])
    if rels == "_rels/.rels":
        source = ""
    elif source not in names:
        problems.append(f"relations d'une partie absente : {rels}")
    ids = set()
    for node in SafeET.fromstring(archive.read(rels)):
        rid = node.get("Id")
        if rid in ids:
            problems.append(f"{rels} : identifiant {rid} en double")
        ids.add(rid)
        if node.get("TargetMode") != "External":
            target = resolve(source or "/", node.get("Target", ""))
            if target not in names:
                problems.append(f"{rels} : cible absente {target}")
                continue
            problems += _target_type_problems(node, target, typed, by_extension)
    return problems


def _target_type_problems(node, target: str, typed: dict[str, str], by_extension: dict[str, str]) -> list[str]:
    """A relationship target whose content type is not the one its relationship type calls for."""
    kind = node.get("Type", "").rsplit("/", 1)[-1]
    wanted = _PART_TYPES.get(kind)
    found = typed.get(target) or by_extension.get(target.rsplit(".", 1)[-1].lower(), "")
    if wanted and found != wanted:
        return [f"{target} : type « {found} », attendu « {wanted} »"]
    return []


def _workbook_problems(archive: zipfile.ZipFile, names: set[str]) -> list[str]:
    """The workbook's own rules: sheets, defined names, styles, shared strings, and each sheet's cells and parts."""
    root_rels = SafeET.fromstring(archive.read("_rels/.rels"))
    book_part = next((resolve("/", n.get("Target", "")) for n in root_rels
                      if n.get("Type", "").endswith("/officeDocument")), "xl/workbook.xml")
    book = SafeET.fromstring(archive.read(book_part))
    book_rels_part = rels_part(book_part)
    rels = {n.get("Id"): n for n in SafeET.fromstring(archive.read(book_rels_part))} if book_rels_part in names else {}
    sheets: list[tuple[str, str, str]] = []
    seen_names: set[str] = set()
    problems = _sheet_list_problems(book, book_part, rels, sheets, seen_names)
    problems += _defined_name_problems(book, len(sheets), seen_names)
    xf_count, dxf_count = None, None
    styles_part = _book_target(book_part, rels, "/styles")
    if styles_part and styles_part in names:
        styles_problems, xf_count, dxf_count = _styles_problems(SafeET.fromstring(archive.read(styles_part)))
        problems += styles_problems
    sst_count = None
    sst_part = _book_target(book_part, rels, "/sharedStrings")
    if sst_part and sst_part in names:
        sst_problems, sst_count = _shared_strings_problems(SafeET.fromstring(archive.read(sst_part)))
        problems += sst_problems
    seen = _SeenParts()
    for name, part, kind in sheets:
        if part not in names:
            continue
        if not kind.endswith("/worksheet"):
            continue
        problems += _cell_problems(name, archive.read(part), xf_count, sst_count, dxf_count)
        sheet_rels = rels_part(part)
        if sheet_rels not in names:
            continue
        problems += _sheet_part_problems(archive, names, part, sheet_rels, seen)
    return problems


def _book_target(book_part: str, rels: dict, kind: str) -> str | None:
    """The part the workbook relates to by the first relationship of type ending in ``kind``, if any."""
    return next((resolve(book_part, n.get("Target", "")) for n in rels.values()
                 if n.get("Type", "").endswith(kind)), None)


def _sheet_list_problems(book, book_part: str, rels: dict, sheets: list[tuple[str, str, str]],
                         seen_names: set[str]) -> list[str]:
    """Sheet names and ids unique, names valid, each sheet related; fills ``sheets`` and ``seen_names``."""
    problems = []
    seen_ids = set()
    for node in book.iter(f"{{{MAIN}}}sheet"):
        name, sheet_id = node.get("name", ""), node.get("sheetId")
        if name.casefold() in seen_names:
            problems.append(f"feuille « {name} » en double")
        if sheet_id in seen_ids:
            problems.append(f"sheetId {sheet_id} en double")
        if not name or len(name) > 31 or any(c in name for c in "[]:*?/\\"):
            problems.append(f"nom de feuille invalide : « {name} »")
        seen_names.add(name.casefold())
        seen_ids.add(sheet_id)
        rel = rels.get(node.get(f"{{{OFFICE_RELS}}}id"))
        if rel is None:
            problems.append(f"feuille « {name} » sans relation")
            continue
        sheets.append((name, resolve(book_part, rel.get("Target", "")), rel.get("Type", "")))
    return problems


def _defined_name_problems(book, sheet_count: int, seen_names: set[str]) -> list[str]:
    """Defined names scoped to, or referring to, sheets that do not exist."""
    problems = []
    for node in book.iter(f"{{{MAIN}}}definedName"):
        local = node.get("localSheetId")
        if local is not None and not 0 <= int(local) < sheet_count:
            problems.append(f"nom défini {node.get('name')} : feuille n° {local} absente")
        for quoted, plain in re.findall(r"(?:'((?:[^']|'')+)'|([^\s'!,()=+\-*/&^<>\[\]]+))!", node.text or ""):
            sheet = (quoted.replace("''", "'") if quoted else plain)
            if sheet.casefold() not in seen_names and not sheet.startswith("["):
                problems.append(f"nom défini {node.get('name')} : feuille « {sheet} » absente")
    return problems


def _styles_problems(styles) -> tuple[list[str], int, int]:
    """Style list counts and the indices of each xf; also the number of cellXfs and of dxfs."""
    problems = []
    lists = {}
    for name in ("numFmts", "fonts", "fills", "borders", "cellStyleXfs", "cellXfs", "cellStyles", "dxfs"):
        node = styles.find(f"{{{MAIN}}}{name}")
        if node is None:
            continue
        lists[name] = len(node)
        if node.get("count") is not None and int(node.get("count")) != len(node):
            problems.append(f"styles : {name} count={node.get('count')} pour {len(node)} éléments")
    formats = {int(f.get("numFmtId", "0")) for f in styles.iterfind(f"{{{MAIN}}}numFmts/{{{MAIN}}}numFmt")}
    for group in ("cellXfs", "cellStyleXfs"):
        for i, xf in enumerate(styles.iterfind(f"{{{MAIN}}}{group}/{{{MAIN}}}xf")):
            problems += _xf_problems(group, i, xf, lists, formats)
    return problems, lists.get("cellXfs", 0), lists.get("dxfs", 0)


def _xf_problems(group: str, i: int, xf, lists: dict[str, int], formats: set[int]) -> list[str]:
    """One xf: its font, fill, border, number format and (for cellXfs) cell style xf defined."""
    problems = []
    for attr, target in (("fontId", "fonts"), ("fillId", "fills"), ("borderId", "borders")):
        if int(xf.get(attr, "0")) >= lists.get(target, 0):
            problems.append(f"styles : {group}[{i}] {attr}={xf.get(attr)} hors de {target}")
    number = int(xf.get("numFmtId", "0"))
    if number >= 164 and number not in formats:
        problems.append(f"styles : {group}[{i}] numFmtId={number} non défini")
    if group == "cellXfs" and int(xf.get("xfId", "0")) >= lists.get("cellStyleXfs", 1):
        problems.append(f"styles : cellXfs[{i}] xfId={xf.get('xfId')} hors de cellStyleXfs")
    return problems


def _shared_strings_problems(sst) -> tuple[list[str], int]:
    """The shared strings' uniqueCount against their number; also that number."""
    sst_count = len(sst)
    unique = sst.get("uniqueCount")
    if unique is not None and int(unique) != sst_count:
        return [f"sharedStrings : uniqueCount={unique} pour {sst_count} chaînes"], sst_count
    return [], sst_count


def _cell_problems(name: str, xml: bytes, xf_count: int | None, sst_count: int | None,
                   dxf_count: int | None) -> list[str]:
    """A worksheet's style, shared string and differential format indices past their lists."""
    problems = []
    data = _SHEET_DATA.search(xml)
    cells = data.group(1) or b"" if data else b""
    for attrs in re.findall(rb"<(?:\w+:)?c\b([^>]*?)(?:/>|>)", cells):
        values = {k: v1 or v2 for k, v1, v2 in _ATTR.findall(attrs)}
        if xf_count is not None and b"s" in values and int(values[b"s"]) >= xf_count:
            problems.append(f"« {name} » : style {values[b's'].decode()} hors de cellXfs ({xf_count})")
            break
    if sst_count is not None and b't="s"' in cells:
        for index in re.findall(rb'<(?:\w+:)?c\b[^>]*\bt="s"[^>]*>\s*<(?:\w+:)?v>(\d+)<', cells):
            if int(index) >= sst_count:
                problems.append(f"« {name} » : chaîne partagée {index.decode()} hors de sharedStrings")
                break
    if dxf_count is not None:
        for dxf in re.findall(rb'\bdxfId="(\d+)"', xml[data.end():] if data else xml):
            if int(dxf) >= dxf_count:
                problems.append(f"« {name} » : dxfId {dxf.decode()} hors de dxfs ({dxf_count})")
    return problems


@dataclass
class _SeenParts:
    """The table ids, table names and drawings met so far across the workbook's sheets."""

    table_ids: set = field(default_factory=set)
    table_names: set[str] = field(default_factory=set)
    drawings: set[str] = field(default_factory=set)


def _sheet_part_problems(archive: zipfile.ZipFile, names: set[str], part: str, sheet_rels: str,
                         seen: _SeenParts) -> list[str]:
    """The tables and drawings a worksheet relates to."""
    problems = []
    for rel in SafeET.fromstring(archive.read(sheet_rels)):
        target = resolve(part, rel.get("Target", ""))
        if rel.get("Type", "").endswith("/table") and target in names:
            problems += _table_problems(SafeET.fromstring(archive.read(target)), target, seen)
        if rel.get("Type", "").endswith("/drawing") and target in names:
            problems += _drawing_problems(archive, target, seen)
    return problems


def _table_problems(table, target: str, seen: _SeenParts) -> list[str]:
    """A table's id and name unique in the workbook, its columns matching its range and uniquely named."""
    problems = []
    tid, tname = table.get("id"), (table.get("displayName") or "").casefold()
    if tid in seen.table_ids:
        problems.append(f"table id {tid} en double ({target})")
    if tname in seen.table_names:
        problems.append(f"table « {table.get('displayName')} » en double")
    seen.table_ids.add(tid)
    seen.table_names.add(tname)
    columns = table.find(f"{{{MAIN}}}tableColumns")
    lo_col, _, hi_col, _ = range_boundaries(table.get("ref"))
    headers = [c.get("name", "") for c in (columns if columns is not None else [])]
    if len(headers) != hi_col - lo_col + 1:
        problems.append(f"table « {table.get('displayName')} » : {len(headers)} colonnes pour "
                        f"{table.get('ref')}")
    if len({h.casefold() for h in headers}) != len(headers):
        problems.append(f"table « {table.get('displayName')} » : noms de colonnes en double")
    return problems


def _drawing_problems(archive: zipfile.ZipFile, target: str, seen: _SeenParts) -> list[str]:
    """A drawing used by one sheet only, its objects' ids unique."""
    problems = []
    if target in seen.drawings:
        problems.append(f"dessin {target} partagé par deux feuilles")
    seen.drawings.add(target)
    ids = re.findall(rb'<(?:\w+:)?cNvPr\b[^>]*?\bid="(\d+)"', archive.read(target))
    if len(set(ids)) != len(ids):
        problems.append(f"dessin {target} : identifiants d'objets en double")
    return problems
