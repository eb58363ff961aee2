"""The reduced copy openpyxl loads for a fill: the owned sheets bare of their owned cells, every other sheet
an empty stub holding only its tables, whose input cells the fast reader then puts in."""

from __future__ import annotations

import bisect
import functools
import io
import re
import zipfile

from defusedxml import ElementTree as SafeET
from openpyxl.cell.read_only import ReadOnlyCell
from openpyxl.utils import get_column_letter
from openpyxl.workbook.workbook import Workbook

from .cells import _CELL, BadCell, _sheet_data, _unprefixed, read_cells, shared_strings
from .ooxml import (
    _P,
    _SHEET_KINDS,
    MAIN,
    OFFICE_RELS,
    WORKSHEET_TYPE,
    Unsupported,
    _column,
    _local,
    escape,
    rels_part,
)
from .package import Package, SheetInfo
from .parts.relationships import relationships_xml
from .plan import Plan, _check_ownable
from .readable import copied_sheet_problem, rewritten_sheet_problem
from .safe import load_workbook

_STUB = (f'<worksheet xmlns="{MAIN}" xmlns:r="{OFFICE_RELS}"><sheetData/>{{tables}}</worksheet>')
_WORKBOOK_DROPS = [re.compile(rb"<" + _P + name + rb"\b[^>]*?(?:/>|>.*?</" + _P + name + rb">)", re.S)
                   for name in (rb"externalReferences", rb"pivotCaches")]
_ROW = re.compile(rb"<row\b([^>]*?)(?:/>|>(.*?)</row>)", re.S)
_ROW_NUMBER = re.compile(rb"""\br\s*=\s*["'](\d+)["']""")
_CELL_COLUMN = re.compile(rb"""<c\b[^>]*?\br\s*=\s*["']([A-Z]+)\d+["']""")


def _has_content(cells: bytes) -> bool:
    return b"<v" in cells or b"<is" in cells or b"<f" in cells


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
        raise Unsupported("ses cellules sont écrites avec des préfixes XML")
    span = _sheet_data(xml)
    if span is None or span[0] == span[1]:
        return xml, False
    data = xml[span[0]:span[1]]
    if data.count(b"<c") != data.count(b'<c r="'):  # no other element of sheetData starts with c
        raise Unsupported("une de ses cellules n'a pas sa référence en tête")
    if areas is None:
        return xml[:span[0]] + _emptied_rows(data) + xml[span[1]:], False
    if data.count(b"<row") != data.count(b'<row r="'):
        raise Unsupported("une de ses lignes n'a pas son numéro en tête")
    rows = _RowFinder(data)
    pieces, cursor, others = [], 0, False
    for area in sorted(areas, key=lambda a: a[1]):
        begin, end = rows.first(area[1]), rows.after(area[3])
        if begin >= end:
            continue
        if begin < cursor:
            raise Unsupported("deux tables y partagent des lignes")
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
            try:
                if sheet.name in the_plan.owned:
                    foreign[sheet.name] = _reduced_owned_sheet(package, sheet, the_plan.owned[sheet.name], put)
                else:
                    _reduced_stub_sheet(package, sheet, put)
            except Unsupported as exc:
                raise Unsupported(f"la feuille « {sheet.name} » : {exc}") from None
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
    rels: list[tuple[str, str, str, bool]] = []
    for rel in package.rels(package.workbook):
        if rel.type.endswith(_SHEET_KINDS):
            rels.append((rel.id, WORKSHEET_TYPE, "/" + rel.part, False))
        elif rel.type.endswith(keep_types) and rel.part in package.names:
            rels.append((rel.id, rel.type, "/" + rel.part, False))
            put(rel.part, package.read(rel.part))
    put(rels_part(package.workbook), relationships_xml(rels))


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
        put(rels_part(sheet.part), relationships_xml([(r.id, r.type, r.target, r.external) for r in rels]))
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
        put(rels_part(sheet.part), relationships_xml([(r.id, r.type, "/" + r.part, False) for r in tables]))
        for r in tables:
            put(r.part, package.read(r.part))


def _only_charts(package: Package, drawing: str) -> bool:
    """Whether a drawing holds charts and nothing else (no picture, shape or group)."""
    if drawing not in package.names:
        return False
    tags = {_local(e.tag) for e in SafeET.fromstring(package.read(drawing)).iter()}
    return not tags & {"pic", "sp", "grpSp", "cxnSp", "contentPart"}


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
        try:
            found_cells = read_cells(xml, areas, strings or [], wb)
        except BadCell as exc:
            raise package.damaged(f"feuille « {sheet.name} » : {exc}") from None
        for found in found_cells:
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
    wb = load_workbook(the_plan.package.source_file, io.BytesIO(data))
    cached = fill_inputs(the_plan, wb)  # a cell of an input table said with its place first
    check_readable(the_plan, wb)
    return wb, cached, foreign


def check_readable(the_plan: Plan, wb: Workbook) -> None:
    """Refuse (one sentence) a workbook whose filled copy would not open again: a sheet copied as it is holding
    what openpyxl does not read, a sheet rewritten holding a number openpyxl writes as nothing."""
    package = the_plan.package
    strings: int | None = None
    for sheet in package.sheets:
        if sheet.kind != "worksheet" or sheet.name not in wb.sheetnames:
            continue
        if sheet.name in the_plan.owned:
            problem = rewritten_sheet_problem(wb[sheet.name])
        else:
            xml = package.read(sheet.part)
            if strings is None and (b't="s"' in xml or b"t='s'" in xml):
                strings = len(shared_strings(package))
            problem = copied_sheet_problem(xml, wb, strings or 0)
        if problem is not None:
            raise package.damaged(f"feuille « {sheet.name} » : {problem}")

