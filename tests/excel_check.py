"""Does a workbook look like what Excel itself writes? The findings of ``openxml-audit`` (a pure-Python port
of Microsoft's Open XML SDK validator) and of structural rules Excel's repair dialog enforces, each finding
named by a *kind* that reads the same in every file, so that the kinds can be counted and compared.

Calibration: ``python tests/excel_check.py calibrate FOLDER...`` runs both on workbooks saved by real Excel
(XlsxWriter's comparison files, see ``tests/excel_made/README.md``) and writes ``tests/excel_made/
calibration.json``: the kinds those files have, and the elements each namespace holds in them. A finding
of a kind Excel-made workbooks never have is a defect (:func:`defects`). ``python tests/excel_check.py
check FILE...`` prints a workbook's findings and its defects.

openxml-audit's overall verdict line is noisy (it says "repair" for findings Excel does not repair):
the findings are read one by one here, never the verdict.
"""

from __future__ import annotations

import functools
import json
import re
import sys
import zipfile
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from defusedxml import ElementTree as SafeET

CALIBRATION = Path(__file__).resolve().parent / "excel_made" / "calibration.json"

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
OFFICE_RELS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
DRAWINGML = "http://schemas.openxmlformats.org/drawingml/2006/main"
SHEET_DRAWING = "http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing"
CHART = "http://schemas.openxmlformats.org/drawingml/2006/chart"
#: The core namespaces whose element names are checked, with the prefixes the schemas give them.
PREFIXES = {MAIN: "x", DRAWINGML: "a", SHEET_DRAWING: "xdr", CHART: "c"}

#: The children of a worksheet, a workbook and a style sheet, in the order the schema (ECMA-376, and the
#: Open XML SDK Excel is built on) requires; elements of other namespaces (extensions) are not ordered here.
WORKSHEET_ORDER = (
    "sheetPr", "dimension", "sheetViews", "sheetFormatPr", "cols", "sheetData", "sheetCalcPr", "sheetProtection",
    "protectedRanges", "scenarios", "autoFilter", "sortState", "dataConsolidate", "customSheetViews", "mergeCells",
    "phoneticPr", "conditionalFormatting", "dataValidations", "hyperlinks", "printOptions", "pageMargins",
    "pageSetup", "headerFooter", "rowBreaks", "colBreaks", "customProperties", "cellWatches", "ignoredErrors",
    "smartTags", "drawing", "legacyDrawing", "legacyDrawingHF", "drawingHF", "picture", "oleObjects", "controls",
    "webPublishItems", "tableParts", "extLst")
WORKBOOK_ORDER = (
    "fileVersion", "fileSharing", "workbookPr", "workbookProtection", "bookViews", "sheets", "functionGroups",
    "externalReferences", "definedNames", "calcPr", "oleSize", "customWorkbookViews", "pivotCaches", "smartTagPr",
    "smartTagTypes", "webPublishing", "fileRecoveryPr", "webPublishObjects", "extLst")
STYLESHEET_ORDER = ("numFmts", "fonts", "fills", "borders", "cellStyleXfs", "cellXfs", "cellStyles", "dxfs",
                    "tableStyles", "colors", "extLst")

#: What each kind of chart group and axis must hold (ECMA-376 Part 1, §21.2.2): child -> fewest, most.
CHART_REQUIRED: dict[str, dict[str, tuple[int, int]]] = {
    "barChart": {"barDir": (1, 1), "axId": (2, 2)}, "bar3DChart": {"barDir": (1, 1), "axId": (2, 3)},
    "lineChart": {"grouping": (1, 1), "axId": (2, 2)}, "line3DChart": {"grouping": (1, 1), "axId": (3, 3)},
    "areaChart": {"axId": (2, 2)}, "area3DChart": {"axId": (2, 3)},
    "scatterChart": {"scatterStyle": (1, 1), "axId": (2, 2)}, "radarChart": {"radarStyle": (1, 1), "axId": (2, 2)},
    "bubbleChart": {"axId": (2, 2)}, "stockChart": {"ser": (3, 4), "axId": (2, 2)},
    "surfaceChart": {"axId": (2, 3)}, "surface3DChart": {"axId": (3, 3)},
    "pieChart": {}, "pie3DChart": {}, "doughnutChart": {}, "ofPieChart": {"ofPieType": (1, 1)},
}
AXIS_REQUIRED = ("axId", "scaling", "axPos", "crossAx")
AXES = ("catAx", "valAx", "dateAx", "serAx")
MAX_COLUMN = 16384

_SHEET = r"(?:'(?:[^']|'')+'|[^\s'!:,()\[\]]+)"
#: Print titles as Excel writes them: the columns, then the rows (either may be absent).
_PRINT_TITLES = re.compile(rf"^(?:{_SHEET}!\$[A-Z]{{1,3}}:\$[A-Z]{{1,3}})?(?:,?{_SHEET}!\$\d+:\$\d+)?$")
_ROWS_THEN_COLUMNS = re.compile(rf"^{_SHEET}!\$\d+:\$\d+,{_SHEET}!\$[A-Z]{{1,3}}:\$[A-Z]{{1,3}}$")
_AREA = rf"{_SHEET}!(?:\$[A-Z]{{1,3}}\$\d+(?::\$[A-Z]{{1,3}}\$\d+)?|\$\d+:\$\d+|\$[A-Z]{{1,3}}:\$[A-Z]{{1,3}})"
_PRINT_AREA = re.compile(rf"^{_AREA}(?:,{_AREA})*$")
#: A sheet name that needs no quotes: letters, digits, dots and underscores, not starting with a digit, and
#: not a cell reference (A1, or R1C1) that it would be read as.
_PLAIN_SHEET = re.compile(r"^[^\W\d][\w.]*$")
_LOOKS_LIKE_REF = re.compile(r"^(?:[A-Za-z]{1,3}\d+|[Rr]\d*(?:[Cc]\d*)?|[Cc]\d*)$")
_CELL_REF = re.compile(r"^([A-Z]{1,3})(\d+)$")


@dataclass(frozen=True, order=True)
class Finding:
    """One thing a workbook has that Excel may repair: its ``kind`` reads the same in every file."""

    kind: str
    part: str
    detail: str = ""

    def __str__(self) -> str:
        return f"{self.part}: {self.kind}" + (f" ({self.detail})" if self.detail else "")


# --- openxml-audit ------------------------------------------------------------------------------


@functools.cache
def _validator():
    import openxml_audit

    return openxml_audit.OpenXmlValidator(max_errors=100_000)


def _audit_kind(error) -> str:
    """A finding's kind: its class, rule, description and place in the part, numbers and indices left out."""
    kind = getattr(error.error_type, "name", str(error.error_type)).lower()
    description = re.sub(r"\d+", "N", error.description.split(". ")[0])
    where = re.sub(r"\[\d+\]", "", error.path or "")
    return f"audit {kind}{' ' + error.id if error.id else ''}: {description}" + (f" @ {where}" if where else "")


def audited(path: Path) -> list[Finding]:
    """openxml-audit's findings, errors and warnings alike."""
    result = _validator().validate(str(path))
    return sorted(Finding(_audit_kind(e), (e.part_uri or "").lstrip("/"), e.node or "") for e in result.errors)


# --- the structural rules -----------------------------------------------------------------------


def _local(tag: str) -> tuple[str, str]:
    """(namespace, local name) of an ElementTree tag."""
    if tag[:1] == "{":
        namespace, local = tag[1:].split("}", 1)
        return namespace, local
    return "", tag


def _xml_parts(archive: zipfile.ZipFile) -> Iterator[tuple[str, bytes]]:
    for name in sorted(archive.namelist()):
        if name.endswith((".xml", ".rels")) and not name.endswith("/"):
            yield name, archive.read(name)


def _root_tag(xml: bytes) -> bytes:
    match = re.search(rb"<(?![?!])[^>]*>", xml)
    return match.group(0) if match else b""


def namespace_findings(part: str, xml: bytes, tags: set) -> list[Finding]:
    """Elements in no namespace (``tags``: the part's), and ``mc:Ignorable`` naming a prefix the part does not
    declare."""
    found = []
    bare = sorted(t for t in tags if isinstance(t, str) and not t.startswith("{"))
    if bare:
        found.append(Finding("element in no namespace", part, ", ".join(bare[:5])))
    tag = _root_tag(xml)
    ignorable = re.search(rb"""\b[\w.-]+:Ignorable\s*=\s*["']([^"']*)["']""", tag)
    if ignorable:
        declared = set(re.findall(rb"""\bxmlns:([\w.-]+)\s*=""", tag))
        missing = [p.decode() for p in ignorable.group(1).split() if p not in declared]
        if missing:
            found.append(Finding("mc:Ignorable names an undeclared prefix", part, " ".join(missing)))
    return found


@functools.cache
def schema_vocabulary() -> dict[str, frozenset[str]]:
    """The element names the schemas define in each core namespace, read from the schema data openxml-audit
    ships (the Open XML SDK's, whose vocabulary is Excel's: every element of the calibration files is in it)."""
    from importlib import resources

    names: dict[str, set[str]] = {namespace: set() for namespace in PREFIXES}
    by_prefix = {prefix: namespace for namespace, prefix in PREFIXES.items()}
    for entry in (resources.files("openxml_audit") / "data" / "openxml" / "schemas").iterdir():
        if not entry.name.endswith(".json"):
            continue
        for kind in json.loads(entry.read_text(encoding="utf-8")).get("Types", []):
            for name in [kind["Name"], *(child["Name"] for child in kind.get("Children", []))]:
                prefix, _, local = name.partition("/")[2].partition(":")
                if prefix in by_prefix and local:
                    names[by_prefix[prefix]].add(local)
    return {namespace: frozenset(found) for namespace, found in names.items()}


def vocabulary_findings(part: str, root, tags: set) -> list[Finding]:
    """Elements of a core namespace under a name its schema does not define there (DrawingML's ``avLst``
    written in the spreadsheet drawing namespace, for instance); ``tags``: the part's."""
    vocabulary = schema_vocabulary()
    unknown = sorted(t for t in tags if isinstance(t, str) and _local(t)[0] in vocabulary
                     and _local(t)[1] not in vocabulary[_local(t)[0]])
    found = []
    for tag in unknown:
        namespace, local = _local(tag)
        count = sum(1 for _ in root.iter(tag))
        found.append(Finding(f"element its namespace does not define: {PREFIXES[namespace]}:{local}", part,
                             f"{count}×"))
    return found


def order_findings(part: str, root, order: tuple[str, ...], what: str) -> list[Finding]:
    """Children of ``root`` (of the main namespace) out of the schema's order, or unknown to it."""
    rank = {name: i for i, name in enumerate(order)}
    found = []
    last = -1
    for child in root:
        if not isinstance(child.tag, str):
            continue
        namespace, local = _local(child.tag)
        if namespace != MAIN:
            continue
        if local not in rank:
            found.append(Finding(f"{what}: unknown child", part, local))
            continue
        if rank[local] < last:
            found.append(Finding(f"{what}: children out of order", part, local))
        last = max(last, rank[local])
    return found


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


def column_findings(part: str, root) -> list[Finding]:
    """``<col>`` ranges: within 1..16384, min <= max, sorted and disjoint (Excel repairs overlaps)."""
    found = []
    previous = None
    for cols in root.iter(f"{{{MAIN}}}cols"):
        for col in cols.iter(f"{{{MAIN}}}col"):
            low, high = _int(col.get("min")), _int(col.get("max"))
            if low is None or high is None or not 1 <= low <= high <= MAX_COLUMN:
                found.append(Finding("col range outside 1..16384 or reversed", part, f"{low}:{high}"))
                continue
            if previous is not None:
                if low <= previous[1] and high >= previous[0]:
                    found.append(Finding("col ranges overlap", part, f"{previous[0]}:{previous[1]} and {low}:{high}"))
                elif low < previous[0]:
                    found.append(Finding("col ranges out of order", part, f"{previous[0]}:{previous[1]} then {low}"))
            previous = (low, high)
    return found


def _column_number(letters: str) -> int:
    number = 0
    for ch in letters:
        number = number * 26 + ord(ch) - 64
    return number


def cell_findings(part: str, root) -> list[Finding]:
    """Rows in ascending order, each row's cells in ascending columns and on that row."""
    found: Counter = Counter()
    data = root.find(f"{{{MAIN}}}sheetData")
    if data is None:
        return []
    last_row = 0
    for row in data.iter(f"{{{MAIN}}}row"):
        number = _int(row.get("r"))
        if number is not None:
            if number <= last_row:
                found["rows out of order or repeated"] += 1
            last_row = number
        else:
            last_row += 1
        last_column = 0
        for cell in row.iter(f"{{{MAIN}}}c"):
            ref = cell.get("r")
            if ref is None:
                last_column += 1
                continue
            where = _CELL_REF.match(ref)
            if where is None or int(where.group(2)) != last_row:
                found["cell outside its row"] += 1
                continue
            column = _column_number(where.group(1))
            if column <= last_column or column > MAX_COLUMN:
                found["cells out of order or repeated"] += 1
            last_column = column
    return [Finding(kind, part, f"{count}×") for kind, count in sorted(found.items())]


def _sheet_name_findings(part: str, name: str, value: str) -> list[Finding]:
    found = []
    for quoted, plain in re.findall(r"(?:'((?:[^']|'')+)'|([^\s'!:,()\[\]$]+))!", value):
        if plain and (not _PLAIN_SHEET.match(plain) or _LOOKS_LIKE_REF.match(plain)):
            found.append(Finding("defined name: sheet name that needs quotes, unquoted", part, f"{name}: {plain}"))
    return found


def defined_name_findings(part: str, root) -> list[Finding]:
    """Built-in names (print titles, print area) in the forms Excel writes: scoped to a sheet, print titles
    columns first, absolute references, sheet names quoted where needed; no name defined twice."""
    found = []
    seen = set()
    for node in root.iter(f"{{{MAIN}}}definedName"):
        name, value, local = node.get("name", ""), (node.text or "").strip(), node.get("localSheetId")
        key = (name.casefold(), local)
        if key in seen:
            found.append(Finding("defined name twice in one scope", part, name))
        seen.add(key)
        if name.startswith("_xlnm.") and name != "_xlnm._FilterDatabase" and local is None:
            found.append(Finding("built-in defined name without localSheetId", part, name))
        if name == "_xlnm.Print_Titles":
            if _ROWS_THEN_COLUMNS.match(value):
                found.append(Finding("Print_Titles written rows first", part, value))
            elif not _PRINT_TITLES.match(value):
                found.append(Finding("Print_Titles not in Excel's form", part, value))
        if name == "_xlnm.Print_Area" and not _PRINT_AREA.match(value):
            found.append(Finding("Print_Area not in Excel's form", part, value))
        if name.startswith("_xlnm."):
            found += _sheet_name_findings(part, name, value)
    return found


def chart_findings(part: str, root) -> list[Finding]:
    """Chart groups and axes holding what the schema requires; every axis id a group uses defined."""
    found = []
    c = f"{{{CHART}}}"
    if root.tag != f"{c}chartSpace":
        return []
    chart = root.find(f"{c}chart")
    if chart is None:
        return [Finding("chart: chartSpace without chart", part)]
    plot = chart.find(f"{c}plotArea")
    if plot is None:
        return [Finding("chart: chart without plotArea", part)]
    axes = {}
    for axis in plot:
        namespace, local = _local(axis.tag)
        if namespace == CHART and local in AXES:
            for child in AXIS_REQUIRED:
                if axis.find(c + child) is None:
                    found.append(Finding(f"chart: {local} without {child}", part))
            axis_id = axis.find(f"{c}axId")
            if axis_id is not None:
                axes[axis_id.get("val")] = axis
    for group in plot:
        namespace, local = _local(group.tag)
        if namespace != CHART or local not in CHART_REQUIRED:
            continue
        for child, (fewest, most) in CHART_REQUIRED[local].items():
            count = len(group.findall(c + child))
            if not fewest <= count <= most:
                found.append(Finding(f"chart: {local} with {count} {child} ({fewest} to {most} required)", part))
        for axis_id in group.findall(f"{c}axId"):
            if axis_id.get("val") not in axes:
                found.append(Finding("chart: group uses an axis id no axis has", part, axis_id.get("val", "")))
        for series in group.findall(f"{c}ser"):
            for child in ("idx", "order"):
                if series.find(c + child) is None:
                    found.append(Finding(f"chart: series without {child}", part))
    for axis in axes.values():
        crosses = axis.find(f"{c}crossAx")
        if crosses is not None and crosses.get("val") not in axes:
            found.append(Finding("chart: crossAx names no axis", part, crosses.get("val", "")))
    return found


def structural(path: Path) -> list[Finding]:
    """The structural rules on every XML part of a workbook."""
    found: list[Finding] = []
    with zipfile.ZipFile(path) as archive:
        for part, xml in _xml_parts(archive):
            try:
                root = SafeET.fromstring(xml)
            except Exception as exc:  # the package validator says which part does not parse
                found.append(Finding("XML that does not parse", part, type(exc).__name__))
                continue
            tags = {element.tag for element in root.iter()}
            found += namespace_findings(part, xml, tags)
            found += vocabulary_findings(part, root, tags)
            found += _part_findings(part, root)
    return sorted(found)


def _part_findings(part: str, root) -> list[Finding]:
    """The rules of a part's kind, known by its root element."""
    if root.tag == f"{{{MAIN}}}worksheet":
        return _worksheet_findings(part, root)
    if root.tag == f"{{{MAIN}}}workbook":
        return order_findings(part, root, WORKBOOK_ORDER, "workbook") + defined_name_findings(part, root)
    if root.tag == f"{{{MAIN}}}styleSheet":
        return order_findings(part, root, STYLESHEET_ORDER, "styleSheet")
    if root.tag == f"{{{CHART}}}chartSpace":
        return chart_findings(part, root)
    return []


def _worksheet_findings(part: str, root) -> list[Finding]:
    return order_findings(part, root, WORKSHEET_ORDER, "worksheet") + column_findings(part, root) + \
        cell_findings(part, root)


# --- calibration and verdict --------------------------------------------------------------------


@functools.cache
def excel_kinds() -> frozenset[str]:
    """The finding kinds workbooks saved by Excel have (the calibration's)."""
    return frozenset(json.loads(CALIBRATION.read_text(encoding="utf-8"))["kinds"])


def findings(path: Path, audit: bool = True) -> list[Finding]:
    """Every finding: the structural rules', and openxml-audit's unless ``audit`` is false."""
    return sorted(structural(path) + (audited(path) if audit else []))


def defects(path: Path, audit: bool = True) -> list[Finding]:
    """The findings of kinds that workbooks saved by Excel never have."""
    allowed = excel_kinds()
    return [f for f in findings(path, audit) if f.kind not in allowed]


def structural_defects(path: Path) -> list[Finding]:
    """The structural rules' findings of kinds that workbooks saved by Excel never have (fast: every workbook the
    tests write goes through it)."""
    allowed = excel_kinds()
    return [f for f in structural(path) if f.kind not in allowed]


def calibrate(folders: Iterable[Path]) -> dict:
    """The findings of every workbook in ``folders`` (saved by Excel), counted by kind."""
    files = sorted(p for folder in folders for p in Path(folder).iterdir() if p.suffix in (".xlsx", ".xlsm"))
    kinds: Counter = Counter()
    files_with: Counter = Counter()
    clean = 0
    for path in files:
        found = findings(path)
        kinds.update(f.kind for f in found)
        files_with.update({f.kind for f in found})
        clean += not found
    return {"files": len(files), "files_without_finding": clean, "kinds": dict(sorted(kinds.items())),
            "files_with_kind": dict(sorted(files_with.items()))}


def main(argv: list[str]) -> int:
    if len(argv) >= 2 and argv[0] == "calibrate":
        data = calibrate(Path(a) for a in argv[1:])
        CALIBRATION.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"{data['files']} files; kinds found: {len(data['kinds'])}")
        return 0
    if len(argv) >= 2 and argv[0] == "check":
        for name in argv[1:]:
            found = findings(Path(name))
            bad = set(defects(Path(name)))
            print(f"{name}: {len(found)} findings, {len(bad)} defects")
            for kind, count in sorted(Counter(f.kind for f in found).items()):
                print(f"  {'DEFECT ' if any(b.kind == kind for b in bad) else 'excel  '}{count:5} {kind}")
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
