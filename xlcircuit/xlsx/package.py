"""The package reader: the parts of a workbook as its zip holds them, and the map of its sheets and tables."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, BinaryIO
from xml.etree.ElementTree import Element, ParseError

from defusedxml import DefusedXmlException
from defusedxml import ElementTree as SafeET
from openpyxl.utils import range_boundaries

from ..rules.errors import WorkbookError
from .ooxml import _SHEET_KINDS, CONTENT_TYPES, MAIN, OFFICE_RELS, PACKAGE_RELS, rels_part, resolve

if TYPE_CHECKING:
    from .safe import Opened


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
    """The parts of a workbook as its zip holds them, and the map of its sheets and tables.

    It reads through the guarded reader (:class:`.safe.Opened`), which checked every part first; a map that does
    not hold (a sheet without its part, an id or a range that is no number or no range) is a damaged file: one
    sentence (:class:`WorkbookError`)."""

    def __init__(self, source: Opened | str | os.PathLike[str]):
        if not hasattr(source, "handle"):
            from .safe import Opened  # a path: opened (and checked) here

            source = Opened(source)
        self.source_file: Opened = source  # type: ignore[assignment]
        self.path = self.source_file.path
        self.infos = self.source_file.infos
        self.names = self.source_file.names
        self._rels: dict[str, list[Rel]] = {}
        self._check_roots()
        roots = [r for r in self.rels("") if r.type.endswith("/officeDocument")]
        self.workbook = roots[0].part if roots else "xl/workbook.xml"
        if self.workbook not in self.names:
            raise self.damaged(f"il manque sa partie principale {self.workbook}")
        self.sheets = self._sheets()
        self.tables: dict[str, list[TableInfo]] = {s.name: self._tables(s) for s in self.sheets}

    def damaged(self, what: str) -> WorkbookError:
        return WorkbookError(f"{self.source_file.name} est endommagé et ne peut pas être lu ({what}) : ouvrez-le "
                             "dans votre tableur, enregistrez-le sous un autre nom, puis relancez.")

    def close(self) -> None:
        self.source_file.close()

    @contextlib.contextmanager
    def source(self) -> Iterator[BinaryIO]:
        """The package's file as it was read, to copy members' raw bytes from."""
        yield self.source_file.handle

    def read(self, part: str) -> bytes:
        return self.source_file.read(part)

    def xml(self, part: str) -> Element:
        """A part parsed (safely: the guarded reader refused document types already); one that is not
        well-formed XML is a damaged file."""
        try:
            root: Element = SafeET.fromstring(self.read(part))
        except (ParseError, DefusedXmlException):
            raise self.damaged(f"XML invalide dans {part}") from None
        return root

    def _check_roots(self) -> None:
        """The package's own parts (its content types, every relationship part) are what their names say, in their
        namespace: Excel reads no package whose parts are typed or linked otherwise, and a fill patches them."""
        expected = [("[Content_Types].xml", CONTENT_TYPES, "Types")] if "[Content_Types].xml" in self.names else []
        expected += [(name, PACKAGE_RELS, "Relationships") for name in sorted(self.names) if name.endswith(".rels")]
        for part, uri, name in expected:
            tag = self.xml(part).tag
            found_uri, _, found = tag[1:].rpartition("}") if tag.startswith("{") else ("", "", tag)
            if (found_uri, found) != (uri, name):
                raise self.damaged(f"la racine de {part} est « {found} » de l'espace de noms « {found_uri} », "
                                   f"attendu « {name} » de l'espace de noms « {uri} »")

    def rels(self, part: str) -> list[Rel]:
        """The relationships of ``part`` ('' for the package's own)."""
        if part not in self._rels:
            name = "_rels/.rels" if part == "" else rels_part(part)
            rels = []
            if name in self.names:
                outside = {rid for rid, _ in self.source_file.outside_relations.get(name, ())}
                for node in self.xml(name):
                    if node.get("Id", "") in outside and node.get("TargetMode") != "External":
                        continue  # named outside the package: left out (a warning says so)
                    external = node.get("TargetMode") == "External"
                    target = node.get("Target", "")
                    rels.append(Rel(node.get("Id", ""), node.get("Type", ""), target, external,
                                    "" if external else resolve(part or "/", target)))
            self._rels[part] = rels
        return self._rels[part]

    def _sheets(self) -> list[SheetInfo]:
        by_id = {r.id: r for r in self.rels(self.workbook)}
        sheets = []
        for index, node in enumerate(self.xml(self.workbook).iter(f"{{{MAIN}}}sheet")):
            name = node.get("name", "")
            rel = by_id.get(node.get(f"{{{OFFICE_RELS}}}id", ""))
            if rel is None or rel.part not in self.names:
                raise self.damaged(f"la feuille « {name} » n'a pas de partie")
            kind = next((k.strip("/") for k in _SHEET_KINDS if rel.type.endswith(k)), "other")
            sheet_id = _number(node.get("sheetId"))
            if sheet_id is None:
                raise self.damaged(f"la feuille « {name} » a pour numéro « {node.get('sheetId')} »")
            sheets.append(SheetInfo(name, sheet_id, rel.id, rel.part, kind, index))
        return sheets

    def _tables(self, sheet: SheetInfo) -> list[TableInfo]:
        tables = []
        for rel in self.rels(sheet.part):
            if rel.type.endswith("/table") and rel.part in self.names:
                node = self.xml(rel.part)
                name, ref = node.get("displayName") or node.get("name") or "", node.get("ref", "")
                table_id = _number(node.get("id"))
                if table_id is None:
                    raise self.damaged(f"la table « {name} » ({rel.part}) a pour numéro « {node.get('id')} »")
                if not _is_range(ref):
                    raise self.damaged(f"la table « {name} » ({rel.part}) a pour plage « {ref} », qui n'en est pas une")
                tables.append(TableInfo(name, ref, table_id, rel.part, sheet.name))
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



def _number(text: str | None) -> int | None:
    """An id as the file writes it (digits), else None."""
    text = (text or "").strip()
    return int(text) if text.isdigit() and len(text) <= 10 else None


def _is_range(ref: str) -> bool:
    """Whether ``ref`` is a range of cells within a sheet's bounds (A1 to XFD1048576)."""
    try:
        min_col, min_row, max_col, max_row = range_boundaries(ref)
    except (ValueError, TypeError):
        return False
    return None not in (min_col, min_row, max_col, max_row) and 1 <= min_col <= max_col <= 16384 \
        and 1 <= min_row <= max_row <= 1048576
