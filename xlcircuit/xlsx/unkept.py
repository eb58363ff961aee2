"""What openpyxl drops when it saves a workbook (shapes, sparklines, form controls...), found before loading."""

from __future__ import annotations

import posixpath
import re
import zipfile
from dataclasses import dataclass

from .ooxml import _xml

#: Parts and markers of what openpyxl cannot keep when it saves, with their French names.
_LOST_PARTS = {
    "xl/ctrlProps/": "contrôles de formulaire",
    "xl/activeX/": "contrôles ActiveX",
    "xl/slicers/": "segments (slicers)",
    "xl/timelines/": "chronologies",
}
CONDITIONAL_FORMAT_EXTENSIONS = "mises en forme conditionnelles propres à Excel 2010+"
#: Markers are tags (a cell's text saying "sparklineGroup" holds no "<": XML escapes it), found by a plain
#: search first (a regular expression is slow over a big sheet).
_LOST_IN_SHEETS = {
    (b"sparklineGroup", re.compile(rb"<(?:\w+:)?sparklineGroup\b")): "graphiques sparkline",
    (b"<x14:conditionalFormatting", re.compile(rb"<x14:conditionalFormatting\b")): CONDITIONAL_FORMAT_EXTENSIONS,
    (b"<x14:dataValidation", re.compile(rb"<x14:dataValidation\b")): "validations de données propres à Excel 2010+",
}
_EXTENSION_RANGES = re.compile(rb"<x14:conditionalFormatting\b.*?<xm:sqref>([^<]*)</xm:sqref>", re.S)
_DRAWING = "{http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing}"
_LOST_IN_DRAWINGS = {f"{_DRAWING}sp": "formes ou zones de texte", f"{_DRAWING}grpSp": "groupes de formes",
                     f"{_DRAWING}cxnSp": "connecteurs"}


@dataclass(frozen=True)
class Unkept:
    """Something of a workbook that openpyxl drops when it saves, and the sheet it is on (None: the workbook)."""

    what: str
    sheet: str | None = None
    ranges: tuple[str, ...] = ()  # the cells it applies to, where the file says

    def __str__(self) -> str:
        return f"{self.what} ({'classeur' if self.sheet is None else f'feuille « {self.sheet} »'})"


def _find_markers(data: bytes, found: set[str]) -> None:
    """Add to ``found`` the labels of :data:`_LOST_IN_SHEETS` whose marker (a tag, whole in ``data``) it holds."""
    for (needle, marker), label in _LOST_IN_SHEETS.items():
        if label not in found and needle in data and marker.search(data):
            found.add(label)


def _sheet_names(name: str, archive: zipfile.ZipFile) -> dict[str, str]:
    """Part name of each worksheet -> the sheet's name."""
    try:
        book = _xml(name, archive, "xl/workbook.xml")
        rels = _xml(name, archive, "xl/_rels/workbook.xml.rels")
    except KeyError:
        return {}
    targets = {r.get("Id"): r.get("Target", "") for r in rels}
    sheets = {}
    for sheet in book.iter("{http://schemas.openxmlformats.org/spreadsheetml/2006/main}sheet"):
        rid = sheet.get("{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id")
        sheets[_part("xl", targets.get(rid, ""))] = sheet.get("name", "?")
    return sheets


def _part(folder: str, target: str) -> str:
    """The part a relationship's target names: absolute (``/xl/...``) or relative to ``folder``."""
    if target.startswith("/"):
        return target.lstrip("/")
    return posixpath.normpath(posixpath.join(folder, target))


def _lost_features(name: str, archive: zipfile.ZipFile, names: set[str], markers: dict[str, set[str]]) -> list[Unkept]:
    """What openpyxl would drop: parts it does not know, the sheets' ``markers`` (found by :func:`_check_counts`),
    shapes in their drawings."""
    lost = {label for prefix, label in _LOST_PARTS.items() if any(n.startswith(prefix) for n in names)}
    found = [Unkept(label) for label in sorted(lost)]
    sheets = _sheet_names(name, archive)
    for part, sheet in sheets.items():
        if part not in names:
            continue
        labels = markers.get(part)
        if labels is None:  # a sheet outside xl/worksheets/, not looked at by the count
            labels = set()
            _find_markers(archive.read(part), labels)
        for label in _LOST_IN_SHEETS.values():
            if label in labels:
                ranges = () if label != CONDITIONAL_FORMAT_EXTENSIONS else tuple(
                    r.decode() for refs in _EXTENSION_RANGES.findall(archive.read(part)) for r in refs.split())
                found.append(Unkept(label, sheet, ranges))
        rels = posixpath.join(posixpath.dirname(part), "_rels", posixpath.basename(part) + ".rels")
        if rels not in names:
            continue
        for target in _xml(name, archive, rels):
            drawing = _part(posixpath.dirname(part), target.get("Target", ""))
            if drawing.startswith("xl/drawings/") and drawing in names:
                tags = {element.tag for element in _xml(name, archive, drawing).iter()}
                shapes = sorted({label for tag, label in _LOST_IN_DRAWINGS.items() if tag in tags})
                found += [Unkept(label, sheet) for label in shapes]
    return found


def _ours(unkept: Unkept, plan) -> bool:
    """Extended conditional formats inside the output tables: an earlier fill's data bars, rewritten anyway."""
    areas = plan.owned.get(unkept.sheet)
    if unkept.what != CONDITIONAL_FORMAT_EXTENSIONS or not unkept.ranges:
        return False
    if areas is None:
        return True
    from openpyxl.utils import range_boundaries

    def inside(ref: str) -> bool:
        b = range_boundaries(ref)
        return any(a[0] <= b[0] and b[2] <= a[2] and a[1] <= b[1] and b[3] <= a[3] for a in areas)

    return all(inside(r) for r in unkept.ranges)

