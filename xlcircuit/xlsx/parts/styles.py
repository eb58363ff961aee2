"""``xl/styles.xml``: the workbook's lists of number formats, fonts, fills, borders, cell formats (``xf``) and
differential formats, which cells point into by index. A fill appends what its tables use; every index the
organiser's cells use stays valid."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from ..ooxml import MAIN, Located, Node, Unsupported

#: The children of a styleSheet in their order (ECMA-376 §18.8.39, CT_Stylesheet).
ORDER = ("numFmts", "fonts", "fills", "borders", "cellStyleXfs", "cellXfs", "cellStyles", "dxfs", "tableStyles",
         "colors", "extLst")
#: The element each list holds.
ITEMS = {"numFmts": "numFmt", "fonts": "font", "fills": "fill", "borders": "border", "cellStyleXfs": "xf",
         "cellXfs": "xf", "dxfs": "dxf"}
_UNPREFIXED_TAG = re.compile(rb"<(/?)(?=[A-Za-z_][\w.-]*[\s/>])")


@dataclass(frozen=True)
class Counts:
    """How many items each list of a styles part holds, and its number formats (code -> id)."""

    lists: dict[str, int]
    formats: dict[str, int]


def _styles(xml: bytes, part: str) -> tuple[Located, Node]:
    located = Located(xml, part)
    root = located.root
    if (root.uri, root.name) != (MAIN, "styleSheet"):
        raise Unsupported(f"{part} n'a pas de racine styleSheet")
    return located, root


def counts(xml: bytes, part: str = "xl/styles.xml") -> Counts:
    located, root = _styles(xml, part)
    lists = dict.fromkeys(ITEMS, 0)
    formats: dict[str, int] = {}
    for node in located.children(root):
        if node.uri != MAIN or node.name not in ITEMS:
            continue
        items = list(located.children(node, ITEMS[node.name]))
        lists[node.name] = len(items)
        if node.name == "numFmts":
            for item in items:
                try:
                    formats[item.attrs.get("formatCode", "")] = int(item.attrs.get("numFmtId", ""))
                except ValueError:
                    raise Unsupported(f"{part} : format de nombre n° « {item.attrs.get('numFmtId')} »") from None
    return Counts(lists, formats)


def appended(xml: bytes, items: Mapping[str, list[bytes]], part: str = "xl/styles.xml") -> bytes:
    """The styles with ``items`` (list name -> elements, as XML without namespace prefixes) appended to their
    lists, each list's ``count`` updated; a list the part lacks is created where the schema puts it."""
    located, root = _styles(xml, part)
    edits: list[tuple[int, int, bytes]] = []
    present = {n.name: n for n in located.children(root) if n.uri == MAIN}
    for name, added in items.items():
        if not added:
            continue
        node = present.get(name)
        prefix = (root if node is None else node).prefix.encode()
        body = b"".join(_UNPREFIXED_TAG.sub(rb"<\1" + prefix + b":", item) if prefix else item for item in added)
        if node is None:
            tag = root.tag(name)
            text = b"<" + tag + b' count="%d">' % len(added) + body + b"</" + tag + b">"
            edits += located.before(root, ORDER[ORDER.index(name) + 1:], text)
            continue
        before = len(list(located.children(node, ITEMS[name])))
        opening = located.tag_with(node, "count", str(before + len(added)))
        if node.empty:  # <dxfs count="0"/>
            edits.append((node.start, node.end, opening[:-2].rstrip() + b">" + body + b"</" + node.qname + b">"))
        else:
            edits += [(node.start, node.body, opening), (node.close, node.close, body)]
    return located.spliced(edits) if edits else xml

