"""``xl/workbook.xml``: the list of sheets, the defined names (print titles and areas) and the calculation
properties."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ..ooxml import MAIN, OFFICE_RELS, Located, Node, Unsupported, escape, quoteattr

#: The elements of a workbook that come after ``calcPr`` (ECMA-376 §18.2.27, CT_Workbook), and after
#: ``definedNames``.
AFTER_CALC = ("oleSize", "customWorkbookViews", "pivotCaches", "smartTagPr", "smartTagTypes", "webPublishing",
              "fileRecoveryPr", "webPublishObjects", "extLst")
AFTER_NAMES = ("calcPr", *AFTER_CALC)
#: The defined names a fill writes for its sheets.
PRINT_NAMES = ("_xlnm.Print_Titles", "_xlnm.Print_Area")


def _workbook(xml: bytes, part: str) -> tuple[Located, Node]:
    located = Located(xml, part)
    root = located.root
    if (root.uri, root.name) != (MAIN, "workbook"):
        raise Unsupported(f"{part} n'a pas de racine workbook")
    return located, root


def check(xml: bytes, part: str = "xl/workbook.xml") -> None:
    """Refuse (:class:`Unsupported`) a workbook part the patches below cannot change."""
    located, root = _workbook(xml, part)
    if located.child(root, "sheets") is None:
        raise Unsupported(f"{part} n'a pas de liste de feuilles")


def recalculated(xml: bytes, part: str = "xl/workbook.xml") -> bytes:
    """The workbook recalculated in full when it is opened (``<calcPr fullCalcOnLoad="1"/>``), so that the
    organiser's formulas reading a fill's tables show their new values; unchanged if it already says so."""
    located, root = _workbook(xml, part)
    calc = located.child(root, "calcPr")
    if calc is None:
        text = b"<" + root.tag("calcPr") + b' fullCalcOnLoad="1"/>'
        return located.spliced(located.before(root, AFTER_CALC, text))
    if calc.attrs.get("fullCalcOnLoad") in ("1", "true"):
        return xml
    return located.spliced([located.with_attribute(calc, "fullCalcOnLoad", "1")])


def with_sheets(xml: bytes, sheets: Iterable[tuple[str, int, str]], part: str = "xl/workbook.xml") -> bytes:
    """The workbook with the sheets (name, sheetId, relationship id) added at the end of its list."""
    located, root = _workbook(xml, part)
    listed = located.child(root, "sheets")
    if listed is None:
        raise Unsupported(f"{part} n'a pas de liste de feuilles")
    prefix = located.prefix_of(OFFICE_RELS, (listed, root))
    declare = "" if prefix else f' xmlns:r="{OFFICE_RELS}"'  # declared where used: always in scope
    r = prefix or "r"
    body = b"".join(b"<" + listed.tag("sheet") + f"{declare} name={quoteattr(name)} sheetId=\"{sheet_id}\" "
                    f"{r}:id={quoteattr(rid)}/>".encode() for name, sheet_id, rid in sheets)
    return located.spliced(located.inserted(listed, last=body)) if body else xml


def with_print_names(xml: bytes, names: Mapping[int, list[tuple[str, str]]], part: str = "xl/workbook.xml") -> bytes:
    """The workbook whose print titles and print areas of the sheets ``names`` (by position: its
    ``localSheetId``) are those given, (name, value) each, in that order; every other defined name kept.
    Unchanged when they already are."""
    located, root = _workbook(xml, part)
    block = located.child(root, "definedNames")
    found = [] if block is None else [
        n for n in located.children(block, "definedName")
        if n.attrs.get("name") in PRINT_NAMES and _local_id(n) in names]
    wanted = [(name, local, value) for local, pairs in names.items() for name, value in pairs]
    if [(n.attrs.get("name"), _local_id(n), located.text(n)) for n in found] == wanted:
        return xml
    edits = [(n.start, n.end, b"") for n in found]
    if wanted:
        tag = root.tag("definedName") if block is None else block.tag("definedName")
        body = b"".join(b"<" + tag + f' name="{name}" localSheetId="{local}">{escape(value)}'.encode()
                        + b"</" + tag + b">" for name, local, value in wanted)
        if block is None:
            wrapper = root.tag("definedNames")
            edits += located.before(root, AFTER_NAMES, b"<" + wrapper + b">" + body + b"</" + wrapper + b">")
        else:
            edits += located.inserted(block, last=body)
    return located.spliced(edits)


def _local_id(node: Node) -> int | None:
    value = node.attrs.get("localSheetId")
    return int(value) if value is not None and value.strip().isdigit() else None


def sheet_ids(xml: bytes, part: str = "xl/workbook.xml") -> list[tuple[str, int]]:
    """The sheets listed, (name, sheetId) each, in order."""
    located, root = _workbook(xml, part)
    listed = located.child(root, "sheets")
    if listed is None:
        return []
    return [(n.attrs.get("name", ""), int(n.attrs.get("sheetId", "0") or 0))
            for n in located.children(listed, "sheet")]
