"""The relationship parts (``_rels/.rels``, ``xl/_rels/workbook.xml.rels``, a sheet's ``.rels``...): what each
part points to, by id."""

from __future__ import annotations

from collections.abc import Collection, Iterable

from ..ooxml import PACKAGE_RELS, Located, Unsupported, quoteattr

DECLARATION = b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'


def relationship(rid: str, kind: str, target: str, external: bool = False, tag: bytes = b"Relationship") -> bytes:
    return (b"<" + tag + f" Id={quoteattr(rid)} Type={quoteattr(kind)} Target={quoteattr(target)}".encode()
            + (b' TargetMode="External"' if external else b"") + b"/>")


def relationships_xml(rels: Iterable[tuple[str, str, str, bool]]) -> bytes:
    """A new relationship part: (id, type, target, external) each."""
    body = b"".join(relationship(*rel) for rel in rels)
    return DECLARATION + f'<Relationships xmlns="{PACKAGE_RELS}">'.encode() + body + b"</Relationships>"


def _root(located: Located):
    root = located.root
    if (root.uri, root.name) != (PACKAGE_RELS, "Relationships"):
        raise Unsupported(f"{located.part} n'a pas de racine Relationships")
    return root


def check(xml: bytes, part: str) -> None:
    """Refuse (:class:`Unsupported`) a relationship part the patches below cannot change."""
    _root(Located(xml, part))


def added(xml: bytes, rels: Iterable[tuple[str, str, str]], part: str) -> bytes:
    """The part with the relationships (id, type, target) appended."""
    located = Located(xml, part)
    root = _root(located)
    body = b"".join(relationship(rid, kind, target, tag=root.tag("Relationship")) for rid, kind, target in rels)
    return located.spliced(located.inserted(root, last=body)) if body else xml


def without(xml: bytes, type_suffix: str, part: str) -> bytes:
    """The part without the relationships whose type ends with ``type_suffix`` (unchanged if it has none)."""
    located = Located(xml, part)
    root = _root(located)
    edits = [(n.start, n.end, b"") for n in located.children(root, "Relationship")
             if n.attrs.get("Type", "").endswith(type_suffix)]
    return located.spliced(edits) if edits else xml


def without_ids(xml: bytes, ids: Collection[str], part: str) -> bytes:
    """The part without the relationships whose id is one of ``ids`` (the rest byte for byte)."""
    located = Located(xml, part)
    root = _root(located)
    edits = [(n.start, n.end, b"") for n in located.children(root, "Relationship") if n.attrs.get("Id", "") in ids]
    return located.spliced(edits) if edits else xml


def free_id(taken: Collection[str]) -> str:
    """The first ``rIdN`` not in ``taken``."""
    n = 1
    while f"rId{n}" in taken:
        n += 1
    return f"rId{n}"
