"""What openpyxl drops when it saves a workbook (shapes, sparklines, form controls...), found before loading."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .package import Package

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
_EXTENSION_BLOCKS = re.compile(rb"<x14:conditionalFormatting\b(.*?)</x14:conditionalFormatting>", re.S)
_SQREF = re.compile(rb"<xm:sqref>([^<]*)</xm:sqref>")
_RULE_TYPES = re.compile(rb"<x14:cfRule\b[^>]*?\btype=[\"']([^\"']*)[\"']")
_DRAWING = "{http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing}"
_LOST_IN_DRAWINGS = {f"{_DRAWING}sp": "formes ou zones de texte", f"{_DRAWING}grpSp": "groupes de formes",
                     f"{_DRAWING}cxnSp": "connecteurs"}


@dataclass(frozen=True)
class Unkept:
    """Something of a workbook that openpyxl drops when it saves, and the sheet it is on (None: the workbook)."""

    what: str
    sheet: str | None = None
    ranges: tuple[str, ...] = ()  # the cells it applies to, where the file says
    bars: tuple[str, ...] = ()  # of those, the ranges of formats that are data bars only (as a fill draws them)

    def __str__(self) -> str:
        return f"{self.what} ({'classeur' if self.sheet is None else f'feuille « {self.sheet} »'})"


def _find_markers(data: bytes, found: set[str]) -> None:
    """Add to ``found`` the labels of :data:`_LOST_IN_SHEETS` whose marker (a tag, whole in ``data``) it holds."""
    for (needle, marker), label in _LOST_IN_SHEETS.items():
        if label not in found and needle in data and marker.search(data):
            found.add(label)


def _formats(xml: bytes) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The ranges of a sheet's Excel 2010 conditional formats, and those of the ones that are data bars only."""
    ranges: list[str] = []
    bars: list[str] = []
    for block in _EXTENSION_BLOCKS.findall(xml):
        refs = [r.decode() for refs in _SQREF.findall(block) for r in refs.split()]
        ranges += refs
        kinds = set(_RULE_TYPES.findall(block))
        if kinds == {b"dataBar"}:
            bars += refs
    return tuple(ranges), tuple(bars)


def lost_features(package: Package, markers: dict[str, set[str]]) -> list[Unkept]:
    """What openpyxl would drop: parts it does not know, the sheets' ``markers`` (found as the file was checked),
    shapes in their drawings."""
    names = package.names
    lost = {label for prefix, label in _LOST_PARTS.items() if any(n.startswith(prefix) for n in names)}
    found = [Unkept(label) for label in sorted(lost)]
    for sheet in package.sheets:
        if sheet.part not in names:
            continue
        labels = markers.get(sheet.part, set())
        for label in _LOST_IN_SHEETS.values():
            if label in labels:
                ranges, bars = ((), ()) if label != CONDITIONAL_FORMAT_EXTENSIONS else _formats(package.read(sheet.part))
                found.append(Unkept(label, sheet.name, ranges, bars))
        for rel in package.rels(sheet.part):
            if rel.type.endswith("/drawing") and rel.part in names:
                tags = {element.tag for element in package.xml(rel.part).iter()}
                shapes = sorted({label for tag, label in _LOST_IN_DRAWINGS.items() if tag in tags})
                found += [Unkept(label, sheet.name) for label in shapes]
    return found


def _ours(unkept: Unkept, plan) -> bool:
    """Extended conditional formats inside the output tables that are data bars only: an earlier fill's data bars
    as a spreadsheet program re-saved them, rewritten anyway (an icon set the organiser added is not)."""
    areas = plan.owned.get(unkept.sheet)
    if unkept.what != CONDITIONAL_FORMAT_EXTENSIONS or not unkept.ranges or set(unkept.ranges) != set(unkept.bars):
        return False
    if areas is None:
        return True
    from openpyxl.utils import range_boundaries

    def inside(ref: str) -> bool:
        b = range_boundaries(ref)
        return any(a[0] <= b[0] and b[2] <= a[2] and a[1] <= b[1] and b[3] <= a[3] for a in areas)

    return all(inside(r) for r in unkept.ranges)

