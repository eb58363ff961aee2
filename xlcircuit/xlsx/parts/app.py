"""``docProps/app.xml``: the extended properties (the program that saved, the company...), with the list of
the workbook's sheets Excel writes for information (``HeadingPairs`` and ``TitlesOfParts``)."""

from __future__ import annotations

from ..ooxml import Located

PART = "docProps/app.xml"
EXTENDED = "http://schemas.openxmlformats.org/officeDocument/2006/extended-properties"


def without_sheet_lists(xml: bytes, part: str = PART) -> bytes:
    """The properties without their list of sheets (both elements are optional; Excel writes them afresh at its
    next save): when a fill adds a sheet the list would leave it out. Unchanged when there is none."""
    located = Located(xml, part)
    root = located.root
    edits = [(n.start, n.end, b"") for n in located.children(root)
             if n.uri == EXTENDED and n.name in ("HeadingPairs", "TitlesOfParts")]
    return located.spliced(edits) if edits else xml
