"""``xl/calcChain.xml``: the order in which Excel last calculated the formula cells, sheet by sheet (ECMA-376
§18.6). A fill rewrites its sheets' cells: their entries go (Excel rebuilds the chain as it recalculates);
every other entry stays, byte for byte."""

from __future__ import annotations

from collections.abc import Collection

from ..ooxml import MAIN, Located, Unsupported

PART = "xl/calcChain.xml"


def without_sheets(xml: bytes, sheet_ids: Collection[int], part: str = PART) -> bytes | None:
    """The chain without the cells of the sheets ``sheet_ids`` (by their ``sheetId``): the same bytes when it
    has none of them, None when none is left (the part then goes, with its relationship and content type).

    A cell's ``i`` (its sheet's id) may be left out: it is then the previous cell's (0 for the first). Since
    only whole sheets go, a kept cell without ``i`` follows a kept cell of its sheet: no ``i`` needs writing."""
    located = Located(xml, part)
    root = located.root
    if (root.uri, root.name) != (MAIN, "calcChain"):
        raise Unsupported(f"{part} n'a pas de racine calcChain")
    current = 0
    edits = []
    kept = 0
    for cell in located.children(root, "c"):
        given = cell.attrs.get("i", "").strip()
        if given:
            try:
                current = int(given)
            except ValueError:
                raise Unsupported(f"{part} : numéro de feuille « {given} »") from None
        if current in sheet_ids:
            edits.append((cell.start, cell.end, b""))
        else:
            kept += 1
    if not edits:
        return xml
    return located.spliced(edits) if kept else None
