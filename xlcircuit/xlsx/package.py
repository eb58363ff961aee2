"""The package reader: the parts of a workbook as its zip holds them, and the map of its sheets and tables."""

from __future__ import annotations

import contextlib
import zipfile
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO
from xml.etree.ElementTree import ParseError

from defusedxml import DefusedXmlException
from defusedxml import ElementTree as SafeET
from openpyxl.utils import range_boundaries

from .ooxml import _SHEET_KINDS, MAIN, OFFICE_RELS, Unsupported, rels_part, resolve


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

    @contextlib.contextmanager
    def source(self) -> Iterator[BinaryIO]:
        """The package's file, to copy members' raw bytes from."""
        with open(self.path, "rb") as handle:
            yield handle

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
