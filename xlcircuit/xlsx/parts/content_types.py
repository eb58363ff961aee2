"""``[Content_Types].xml``: the content type of each part, by its extension (``Default``) or by its name
(``Override``)."""

from __future__ import annotations

from collections.abc import Collection, Mapping

from ..ooxml import CONTENT_TYPES, Located, Unsupported, quoteattr

PART = "[Content_Types].xml"
SML = "application/vnd.openxmlformats-officedocument.spreadsheetml."
#: The content types of the parts a fill writes.
TYPES = {
    "worksheet": SML + "worksheet+xml",
    "table": SML + "table+xml",
    "drawing": "application/vnd.openxmlformats-officedocument.drawing+xml",
    "chart": "application/vnd.openxmlformats-officedocument.drawingml.chart+xml",
    "custom": "application/vnd.openxmlformats-officedocument.custom-properties+xml",
    "rels": "application/vnd.openxmlformats-package.relationships+xml",
}
IMAGE_TYPES = {"png": "image/png", "jpeg": "image/jpeg", "jpg": "image/jpeg", "gif": "image/gif", "bmp": "image/bmp",
               "tiff": "image/tiff", "emf": "image/x-emf", "wmf": "image/x-wmf"}


def patched(xml: bytes, overrides: Mapping[str, str], gone: Collection[str] = (),
            defaults: Mapping[str, str] | None = None) -> bytes:
    """The content types without the overrides of the parts ``gone``, with an override for each part of
    ``overrides`` (part -> type) not typed by name yet, and a default for each extension of ``defaults``
    (extension -> type) not typed yet. Part names and extensions compare as OPC says: case-insensitively.
    Defaults go first, overrides last; the bytes are unchanged when nothing changes."""
    located = Located(xml, PART)
    root = located.root
    if (root.uri, root.name) != (CONTENT_TYPES, "Types"):
        raise Unsupported(f"{PART} n'a pas de racine Types")
    gone_names = {("/" + part.lstrip("/")).casefold() for part in gone}
    edits: list[tuple[int, int, bytes]] = []
    named, extensions = set(), set()
    for node in located.children(root, "Override"):
        part = node.attrs.get("PartName", "").casefold()
        if part in gone_names:
            edits.append((node.start, node.end, b""))
        else:
            named.add(part)
    for node in located.children(root, "Default"):
        extensions.add(node.attrs.get("Extension", "").casefold())
    first = b"".join(b"<" + root.tag("Default") + f" Extension={quoteattr(ext)} ContentType={quoteattr(kind)}/>"
                     .encode() for ext, kind in (defaults or {}).items() if ext.casefold() not in extensions)
    last = b"".join(b"<" + root.tag("Override") + f" PartName={quoteattr('/' + part.lstrip('/'))} "
                    f"ContentType={quoteattr(kind)}/>".encode()
                    for part, kind in overrides.items() if ("/" + part.lstrip("/")).casefold() not in named)
    edits += located.inserted(root, first, last)
    return located.spliced(edits) if edits else xml


def typed(xml: bytes) -> tuple[set[str], dict[str, str]]:
    """The extensions typed by default (case-folded) and the parts typed by name (name without its leading
    '/', case-folded -> type)."""
    located = Located(xml, PART)
    root = located.root
    extensions = {n.attrs.get("Extension", "").casefold() for n in located.children(root, "Default")}
    names = {n.attrs.get("PartName", "").lstrip("/").casefold(): n.attrs.get("ContentType", "")
             for n in located.children(root, "Override")}
    return extensions, names
