"""The vocabulary of Office Open XML the engine shares: namespaces, part names, escaping, a safe parse."""

from __future__ import annotations

import posixpath
import re
import zipfile
from xml.etree.ElementTree import Element, ParseError

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

