"""The vocabulary of Office Open XML the engine shares: namespaces, part names, escaping, a safe parse."""

from __future__ import annotations

import posixpath
import re
import zipfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from xml.etree.ElementTree import Element, ParseError
from xml.parsers import expat

from defusedxml import DefusedXmlException
from defusedxml import ElementTree as SafeET

from ..rules.errors import WorkbookError

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
OFFICE_RELS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PACKAGE_RELS = "http://schemas.openxmlformats.org/package/2006/relationships"
CONTENT_TYPES = "http://schemas.openxmlformats.org/package/2006/content-types"
WORKSHEET_TYPE = OFFICE_RELS + "/worksheet"
_SHEET_KINDS = ("/worksheet", "/chartsheet", "/dialogsheet", "/xlMacrosheet", "/macrosheet")


class Unsupported(Exception):
    """The workbook holds something the surgical writer cannot place: the fill takes the full-rewrite path."""


def rels_part(part: str) -> str:
    folder, name = posixpath.split(part)
    return posixpath.join(folder, "_rels", name + ".rels")


def resolve(source: str, target: str) -> str:
    """The part a relationship of ``source`` names (``/xl/...`` absolute, or relative to its folder)."""
    if target.startswith("/"):
        return target.lstrip("/")
    return posixpath.normpath(posixpath.join(posixpath.dirname(source), target)).lstrip("/")


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


_P = rb"(?:[A-Za-z_][\w.-]*:)?"  # an optional namespace prefix
_ATTR = re.compile(rb"""([\w:]+)\s*=\s*(?:"([^"]*)"|'([^']*)')""")
_COLUMNS: dict[str, int] = {}


def _column(letters: str) -> int:
    number = _COLUMNS.get(letters)
    if number is None:
        number = 0
        for ch in letters:
            number = number * 26 + ord(ch) - 64
        _COLUMNS[letters] = number
    return number


def escape(text: str) -> str:
    """``&``, ``<`` and ``>`` escaped, as XML text needs: xml.sax.saxutils' ``escape``, without the import of
    that module (it imports urllib and http.client, a tenth of a small fill's time)."""
    return text.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")


def quoteattr(text: str) -> str:
    """An attribute's value escaped and quoted, as xml.sax.saxutils' ``quoteattr`` writes it."""
    text = escape(text).replace("\n", "&#10;").replace("\r", "&#13;").replace("\t", "&#9;")
    if '"' not in text:
        return f'"{text}"'
    return f"'{text}'" if "'" not in text else '"' + text.replace('"', "&quot;") + '"'


def _insert_before_any(xml: bytes, names: list[bytes], fallback: bytes, text: bytes) -> bytes:
    """``text`` put before the first of the elements ``names`` found in ``xml``, else before ``fallback``."""
    best = None
    for name in names:
        match = re.search(rb"<" + _P + name + rb"\b", xml)
        if match and (best is None or match.start() < best):
            best = match.start()
    if best is None:
        best = xml.rindex(fallback)
    return xml[:best] + text + xml[best:]


def _xml(name: str, archive: zipfile.ZipFile, part: str) -> Element:
    """A part of the package parsed safely; a damaged or hostile one is one sentence."""
    try:
        root: Element = SafeET.fromstring(archive.read(part))
        return root
    except DefusedXmlException:
        raise WorkbookError(f"{name} contient des constructions XML interdites (entités) : fichier piégé "
                            "ou abîmé, il n'est pas lu.") from None
    except (ParseError, ValueError, LookupError):
        raise WorkbookError(f"{name} est endommagé et ne peut pas être lu (XML invalide dans {part}) : ouvrez-le "
                            "dans votre tableur, enregistrez-le sous un autre nom, puis relancez.") from None



# --- small parts located by a real XML parser --------------------------------------------------------


@dataclass(slots=True)
class Node:
    """One element of a part, and where its bytes are: the parts the surgical fill patches are changed in
    place, every byte it does not change kept as it was."""

    uri: str  # its namespace ('' for none)
    name: str  # its local name
    prefix: str  # its namespace prefix ('' for the default namespace)
    attrs: dict[str, str]  # its attributes: unqualified names as written, qualified ones as '{uri}name'
    start: int  # its start tag's '<'
    body: int  # just after its start tag
    close: int  # its end tag's '<' (``body`` for an empty element, ``<a/>``)
    end: int  # just after its end tag
    depth: int  # 0 for the root
    declares: dict[str, str] = field(default_factory=dict)  # the namespaces it declares: prefix -> uri

    @property
    def qname(self) -> bytes:
        """Its name as written (with its prefix): the name new elements of its namespace take inside it."""
        return (f"{self.prefix}:{self.name}" if self.prefix else self.name).encode()

    @property
    def empty(self) -> bool:
        return self.close == self.body

    def tag(self, name: str) -> bytes:
        """The name a new element ``name`` of this element's namespace is written with inside it."""
        return (f"{self.prefix}:{name}" if self.prefix else name).encode()


class Located:
    """The elements of a part in document order, found by expat (so that comments, CDATA, quoting, prefixes
    and empty elements are read as any XML reader reads them), for patches that splice bytes."""

    def __init__(self, xml: bytes, part: str):
        self.xml = xml
        self.part = part
        self.nodes = _locate(xml, part)
        if not self.nodes:
            raise Unsupported(f"{part} n'a pas d'élément racine")

    @property
    def root(self) -> Node:
        return self.nodes[0]

    def children(self, parent: Node, name: str | None = None) -> Iterator[Node]:
        """The child elements of ``parent`` (named ``name``, of its namespace, if given)."""
        for node in self.nodes:
            if node.depth == parent.depth + 1 and parent.start < node.start < parent.end and (
                    name is None or (node.name == name and node.uri == parent.uri)):
                yield node

    def child(self, parent: Node, name: str) -> Node | None:
        return next(self.children(parent, name), None)

    def prefix_of(self, uri: str, scope: Iterable[Node]) -> str | None:
        """A prefix bound to ``uri`` by one of the elements of ``scope`` (the ancestors of where it is needed)."""
        for node in scope:
            for prefix, bound in node.declares.items():
                if bound == uri and prefix:
                    return prefix
        return None

    def spliced(self, edits: Iterable[tuple[int, int, bytes]]) -> bytes:
        """The part with each (start, end, bytes) edit made: the bytes between start and end replaced."""
        xml = self.xml
        for start, end, text in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
            xml = xml[:start] + text + xml[end:]
        return xml

    def inserted(self, node: Node, first: bytes = b"", last: bytes = b"") -> list[tuple[int, int, bytes]]:
        """Edits putting ``first`` before the children of ``node`` and ``last`` after them (an empty element
        ``<a/>`` becomes ``<a>…</a>``)."""
        if not first and not last:
            return []
        if node.empty:
            opening = self.xml[node.start:node.body].rstrip(b"/>").rstrip() + b">"
            return [(node.start, node.end, opening + first + last + b"</" + node.qname + b">")]
        return [(node.body, node.body, first), (node.close, node.close, last)]

    def before(self, parent: Node, names: Iterable[str], text: bytes) -> list[tuple[int, int, bytes]]:
        """Edits putting ``text`` inside ``parent``, before its first child named one of ``names`` (else last)."""
        wanted = set(names)
        following = next((n for n in self.children(parent) if n.name in wanted and n.uri == parent.uri), None)
        if following is None:
            return self.inserted(parent, last=text)
        return [(following.start, following.start, text)]

    def with_attribute(self, node: Node, name: str, value: str) -> tuple[int, int, bytes]:
        """The edit setting the unqualified attribute ``name`` of ``node`` to ``value`` (added last if absent)."""
        return node.start, node.body, self.tag_with(node, name, value)

    def tag_with(self, node: Node, name: str, value: str) -> bytes:
        """The start tag of ``node`` with its attribute ``name`` set to ``value``."""
        tag = self.xml[node.start:node.body]
        attribute = name.encode() + b"=" + quoteattr(value).encode()
        found = re.search(rb"(?<=\s)" + re.escape(name.encode()) + rb"""\s*=\s*(?:"[^"]*"|'[^']*')""", tag)
        if found:
            return tag[:found.start()] + attribute + tag[found.end():]
        cut = len(tag) - (2 if tag.endswith(b"/>") else 1)
        return tag[:cut].rstrip() + b" " + attribute + tag[cut:]

    def text(self, node: Node) -> str:
        """The text inside ``node`` (its children's markup left out): for elements holding text only."""
        inner = self.xml[node.body:node.close]
        parser = expat.ParserCreate()
        pieces: list[str] = []
        parser.CharacterDataHandler = pieces.append
        parser.Parse(b"<t>" + inner + b"</t>", True)  # its entities are XML's own: the part was parsed already
        return "".join(pieces)


def _tag_end(xml: bytes, at: int) -> int:
    """Just after the start tag beginning at ``at``: its first '>' outside a quoted attribute value."""
    i = at
    while True:
        close = xml.index(b">", i)
        quote = re.compile(rb"[\"']").search(xml, i, close)
        if quote is None:
            return close + 1
        i = xml.index(xml[quote.start():quote.start() + 1], quote.start() + 1) + 1


def _split(name: str) -> tuple[str, str, str]:
    """expat's 'uri local prefix' name: (uri, local name, prefix)."""
    parts = name.split(" ")
    if len(parts) == 1:
        return "", parts[0], ""
    return parts[0], parts[1], parts[2] if len(parts) > 2 else ""


def _qualified(name: str) -> str:
    uri, local, _ = _split(name)
    return f"{{{uri}}}{local}" if uri else local


def _locate(xml: bytes, part: str) -> list[Node]:
    parser = expat.ParserCreate(namespace_separator=" ")
    parser.namespace_prefixes = True
    parser.ordered_attributes = True
    nodes: list[Node] = []
    stack: list[Node] = []
    pending: dict[str, str] = {}

    def declaration(version, encoding, standalone) -> None:
        if encoding is not None and encoding.lower().replace("_", "-") not in ("utf-8", "utf8"):
            raise Unsupported(f"{part} est en {encoding}, pas en UTF-8")

    def doctype(*args) -> None:
        raise Unsupported(f"{part} déclare un type de document")

    def namespace(prefix, uri) -> None:
        pending[prefix or ""] = uri

    def start(name, attributes) -> None:
        at = parser.CurrentByteIndex
        body = _tag_end(xml, at)
        uri, local, prefix = _split(name)
        attrs = {_qualified(attributes[i]): attributes[i + 1] for i in range(0, len(attributes), 2)}
        node = Node(uri, local, prefix, attrs, at, body, body, body, len(stack), dict(pending))
        pending.clear()
        nodes.append(node)
        stack.append(node)

    def end(name) -> None:
        node = stack.pop()
        if xml[node.body - 2:node.body] != b"/>":
            node.close = parser.CurrentByteIndex
            node.end = xml.index(b">", node.close) + 1

    parser.XmlDeclHandler = declaration
    parser.StartDoctypeDeclHandler = doctype
    parser.StartNamespaceDeclHandler = namespace
    parser.StartElementHandler = start
    parser.EndElementHandler = end
    if xml.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise Unsupported(f"{part} est en UTF-16, pas en UTF-8")
    try:
        parser.Parse(xml, True)
    except expat.ExpatError as exc:
        raise Unsupported(f"{part} est illisible ({expat.errors.messages[exc.code]})") from None
    return nodes
