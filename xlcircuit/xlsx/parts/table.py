"""``xl/tables/tableN.xml``: one table (a ListObject), its range and its filter's."""

from __future__ import annotations

from ..ooxml import MAIN, Located, Unsupported


def with_ref(xml: bytes, ref: str, part: str) -> bytes:
    """The table over the range ``ref``, and its filter with it; everything else kept as it is."""
    located = Located(xml, part)
    root = located.root
    if (root.uri, root.name) != (MAIN, "table"):
        raise Unsupported(f"{part} n'a pas de racine table")
    edits = [located.with_attribute(root, "ref", ref)]
    edits += [located.with_attribute(f, "ref", ref) for f in located.children(root, "autoFilter")]
    return located.spliced(edits)
