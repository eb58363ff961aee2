"""``docProps/custom.xml``: the custom document properties (Excel: Fichier > Propriétés > Personnalisé), where
xlcircuit records the federation a workbook belongs to."""

from __future__ import annotations

from ..ooxml import Located, Unsupported, escape, quoteattr
from .relationships import DECLARATION

PART = "docProps/custom.xml"
CUSTOM = "http://schemas.openxmlformats.org/officeDocument/2006/custom-properties"
VTYPES = "http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes"
#: The format id every custom property of a workbook carries (ECMA-376 Part 1, §22.3.2.2).
FMTID = "{D5CDD505-2E9C-101B-9397-08002B2CF9AE}"
RELATIONSHIP = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/custom-properties"


def _properties(xml: bytes, part: str) -> Located:
    located = Located(xml, part)
    if (located.root.uri, located.root.name) != (CUSTOM, "Properties"):
        raise Unsupported(f"{part} n'a pas de racine Properties")
    return located


def value(xml: bytes, name: str, part: str = PART) -> str | None:
    """The text value of the property ``name`` (None: no such property)."""
    located = _properties(xml, part)
    for prop in located.children(located.root, "property"):
        if prop.attrs.get("name") == name:
            return "".join(located.text(v) for v in located.children(prop))
    return None


def new(name: str, text: str) -> bytes:
    """A custom properties part holding the one text property ``name``."""
    return (DECLARATION + f'<Properties xmlns="{CUSTOM}" xmlns:vt="{VTYPES}"><property fmtid="{FMTID}" pid="2" '
            f'name={quoteattr(name)}><vt:lpwstr>{escape(text)}</vt:lpwstr></property></Properties>'.encode())


def with_value(xml: bytes, name: str, text: str, part: str = PART) -> bytes:
    """The properties with ``name`` holding the text ``text`` (its value replaced, or the property added with
    the next free ``pid``); every other property kept as it is. Unchanged when it already holds it."""
    located = _properties(xml, part)
    root = located.root
    props = list(located.children(root, "property"))
    found = next((p for p in props if p.attrs.get("name") == name), None)
    vt = located.prefix_of(VTYPES, [*([found] if found else []), root])
    declare = "" if vt else f' xmlns:vt="{VTYPES}"'
    vt = vt or "vt"
    element = f"<{vt}:lpwstr{declare}>{escape(text)}</{vt}:lpwstr>".encode()
    if found is not None:
        values = list(located.children(found))
        if len(values) == 1 and values[0].name == "lpwstr" and located.text(values[0]) == text:
            return xml
        return located.spliced([(found.body, found.close, element)] if not found.empty else
                               located.inserted(found, last=element))
    pids = [int(p.attrs["pid"]) for p in props if p.attrs.get("pid", "").isdigit()]
    pid = max([1, *pids]) + 1  # 0 and 1 are reserved
    tag = root.tag("property")
    prop = (b"<" + tag + f' fmtid="{FMTID}" pid="{pid}" name={quoteattr(name)}>'.encode() + element
            + b"</" + tag + b">")
    return located.spliced(located.inserted(root, last=prop))
