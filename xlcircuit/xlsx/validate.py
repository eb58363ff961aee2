"""The package validator: what Excel's repair dialog would repair in a workbook (the tests run it on every
workbook they write)."""

from __future__ import annotations

import posixpath
import re
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from defusedxml import ElementTree as SafeET
from openpyxl.utils import range_boundaries

from .cells import _SHEET_DATA
from .ooxml import _ATTR, MAIN, OFFICE_RELS, _local, rels_part, resolve

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

