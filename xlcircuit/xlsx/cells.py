"""The fast cell reader: the cells of a sheet's XML in given areas, read as openpyxl reads them, at C speed."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

from openpyxl.utils.datetime import from_excel, from_ISO8601
from openpyxl.workbook.workbook import Workbook

from .ooxml import _ATTR, _P, Unsupported, _column
from .package import Package

_SHEET_DATA = re.compile(rb"<" + _P + rb"sheetData\b[^>]*?(?:/>|>(.*?)</" + _P + rb"sheetData>)", re.S)
_CELL = re.compile(rb"<" + _P + rb"c\b([^>]*?)(?:/>|>(.*?)</" + _P + rb"c>)", re.S)
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


def _unprefixed(xml: bytes, root: bytes) -> bool:
    """Whether the part's root element is ``root`` in the default namespace (what the fast paths read)."""
    return re.match(rb"(?:\s|<\?xml[^>]*\?>|<!--.*?-->)*<" + root + rb"\b", xml, re.S) is not None


def _in(areas: list[tuple[int, int, int, int]], column: int, row: int) -> bool:
    return any(a[0] <= column <= a[2] and a[1] <= row <= a[3] for a in areas)

