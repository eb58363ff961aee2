"""LibreOffice's ``.ods`` read natively: the package is a zip, its cells are in ``content.xml`` (OpenDocument),
parsed with defusedxml as a stream (a row at a time), within the bounds the engine puts on an ``.xlsx``
(decompressed size, compression ratio, cells). Values only: text, numbers, dates, yes/no."""

from __future__ import annotations

import datetime as dt
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from xml.etree.ElementTree import Element, ParseError

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import iterparse

from ...rules.errors import WorkbookError
from ...xlsx import MAX_CELLS, MAX_RATIO, MAX_UNCOMPRESSED

_TABLE = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
_OFFICE = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
_TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
_STYLE = "urn:oasis:names:tc:opendocument:xmlns:style:1.0"
_SPREADSHEET = b"application/vnd.oasis.opendocument.spreadsheet"
#: The last row and column a spreadsheet has (LibreOffice's own bounds): repeats beyond are padding.
MAX_ROW, MAX_COLUMN = 1_048_576, 16_384
_RATIO_MIN_SIZE = 1 << 20

T_TABLE, T_ROW, T_CELL, T_COVERED = (f"{{{_TABLE}}}{n}" for n in ("table", "table-row", "table-cell",
                                                                   "covered-table-cell"))
_REPEAT_ROWS, _REPEAT_COLUMNS = f"{{{_TABLE}}}number-rows-repeated", f"{{{_TABLE}}}number-columns-repeated"


@dataclass
class Sheet:
    """A sheet of the file: its name, its rows (row number -> values from column A), and whether it is hidden."""

    name: str
    rows: dict[int, list[object]] = field(default_factory=dict)
    hidden: bool = False


def read(path: Path) -> list[Sheet]:
    """Every sheet of the ``.ods`` at ``path``; a file that is not one, is protected, damaged or a bomb is one
    sentence (:class:`WorkbookError`)."""
    name = path.name
    if not zipfile.is_zipfile(path):
        raise WorkbookError(f"{name} n'est pas un classeur .ods lisible (fichier tronqué, abîmé ou d'un autre format).")
    try:
        with zipfile.ZipFile(path) as archive:
            infos = {info.filename: info for info in archive.infolist()}
            _check_package(name, archive, infos)
            with archive.open("content.xml") as content:
                return _sheets(name, content)
    except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, ValueError, OSError) as exc:
        if isinstance(exc, WorkbookError):
            raise
        raise WorkbookError(f"{name} n'est pas un classeur .ods lisible (fichier tronqué ou abîmé).") from None


def _check_package(name: str, archive: zipfile.ZipFile, infos: dict[str, zipfile.ZipInfo]) -> None:
    """The engine's bounds, before anything is parsed: what the package is, its size, its compression."""
    if "content.xml" not in infos:
        raise WorkbookError(f"{name} est une archive zip qui ne contient pas de classeur .ods.")
    if "mimetype" in infos and infos["mimetype"].file_size < 200:
        kind = archive.read("mimetype").strip()
        if kind != _SPREADSHEET:
            raise WorkbookError(f"{name} n'est pas un classeur mais un autre document OpenDocument "
                                f"({kind.decode('ascii', 'replace')}).")
    if "META-INF/manifest.xml" in infos and infos["META-INF/manifest.xml"].file_size < (1 << 20) \
            and b"encryption-data" in archive.read("META-INF/manifest.xml"):
        raise WorkbookError(f"{name} est protégé par mot de passe : enregistrez-le sans mot de passe, puis relancez.")
    total = sum(info.file_size for info in infos.values())
    if total > MAX_UNCOMPRESSED:
        raise WorkbookError(f"{name} est trop gros une fois décompressé ({total >> 20} Mio, "
                            f"{MAX_UNCOMPRESSED >> 20} Mio au plus) : il n'est pas lu.")
    for info in infos.values():
        if info.file_size > _RATIO_MIN_SIZE and info.file_size > MAX_RATIO * max(info.compress_size, 1):
            raise WorkbookError(f"{name} contient une partie anormalement compressée ({info.filename} : "
                                f"{info.file_size // max(info.compress_size, 1)} fois, {MAX_RATIO} au plus) : "
                                "fichier piégé ou abîmé, il n'est pas lu.")


def _sheets(name: str, content) -> list[Sheet]:
    try:
        return list(_stream(name, content))
    except DefusedXmlException:
        raise WorkbookError(f"{name} contient des constructions XML interdites (entités) : fichier piégé ou abîmé, "
                            "il n'est pas lu.") from None
    except (ParseError, ValueError, LookupError):
        raise WorkbookError(f"{name} est endommagé et ne peut pas être lu (XML invalide dans content.xml) : ouvrez-le "
                            "dans votre tableur, enregistrez-le sous un autre nom, puis relancez.") from None
    except RecursionError:
        raise WorkbookError(f"{name} est endommagé (XML imbriqué à l'excès) et ne peut pas être lu.") from None


def _stream(name: str, content) -> Iterator[Sheet]:
    """The sheets of ``content.xml``, a row at a time: each row is read, then removed from the tree, so that
    memory holds one row however long the sheet. Rows and cells met count toward :data:`MAX_CELLS`, as do
    the filled cells a repeat stands for."""
    hidden_styles: set[str] = set()
    sheet: Sheet | None = None
    depth = 0  # tables inside a table's cells are part of that cell, not sheets
    row_number = 0
    counted = 0
    path: list[Element] = []  # the open elements, the innermost last
    for event, element in iterparse(content, events=("start", "end")):
        tag = element.tag
        if event == "start":
            path.append(element)
            if tag == T_TABLE:
                depth += 1
                if depth == 1:
                    style = element.get(f"{{{_TABLE}}}style-name", "")
                    sheet, row_number = Sheet(element.get(f"{{{_TABLE}}}name", "?"), hidden=style in hidden_styles), 0
            continue
        path.pop()
        if tag == T_TABLE:
            depth -= 1
            if depth == 0 and sheet is not None:
                _drop(element, path)
                yield sheet
                sheet = None
        elif tag == f"{{{_STYLE}}}style":
            properties = element.find(f"{{{_STYLE}}}table-properties")
            if properties is not None and properties.get(f"{{{_TABLE}}}display") == "false":
                hidden_styles.add(element.get(f"{{{_STYLE}}}name", ""))
        elif tag == T_ROW and depth == 1 and sheet is not None:
            repeat = _count(element.get(_REPEAT_ROWS))
            values = _row(element)
            counted += 1 + len(element)
            if values:
                counted += len(values) * min(repeat, MAX_ROW)
                for number in range(row_number + 1, min(row_number + repeat, MAX_ROW) + 1):
                    sheet.rows[number] = list(values)
            if counted > MAX_CELLS:
                raise WorkbookError(f"{name} a plus de {MAX_CELLS:,} cellules".replace(",", " ")
                                    + " : fichier piégé ou bien trop gros, il n'est pas lu.")
            row_number += repeat
            _drop(element, path)


def _drop(element: Element, path: list[Element]) -> None:
    """Forget an element read: emptied, and taken out of its parent."""
    element.clear()
    if path:
        path[-1].remove(element)


def _count(text: str | None) -> int:
    try:
        return max(1, int(text)) if text else 1
    except ValueError:
        return 1


def _row(row: Element) -> list[object]:
    """A row's values from column A up to its last non-blank one (repeated blank cells take no room)."""
    values: list[object] = []
    blanks = 0
    for cell in row:
        if cell.tag not in (T_CELL, T_COVERED):
            continue
        repeat = _count(cell.get(_REPEAT_COLUMNS))
        value = _cell_value(cell) if cell.tag == T_CELL else None
        if value is None:
            blanks += repeat
            continue
        if len(values) + blanks + repeat > MAX_COLUMN:
            break
        values += [None] * blanks + [value] * repeat
        blanks = 0
    return values


def _cell_value(cell: Element) -> object:
    kind = cell.get(f"{{{_OFFICE}}}value-type")
    if kind in ("float", "percentage", "currency"):
        try:
            number = float(cell.get(f"{{{_OFFICE}}}value", ""))
        except ValueError:
            return _text(cell)
        return int(number) if number.is_integer() and abs(number) < 1e15 else number
    if kind == "date":
        return _date(cell.get(f"{{{_OFFICE}}}date-value", "")) or _text(cell)
    if kind == "boolean":
        return cell.get(f"{{{_OFFICE}}}boolean-value") == "true"
    return _text(cell)


def _date(text: str) -> dt.date | dt.datetime | None:
    try:
        moment = dt.datetime.fromisoformat(text[:19])
    except ValueError:
        return None
    return moment.date() if moment.time() == dt.time() else moment


def _text(cell: Element) -> str | None:
    """A cell's text: its paragraphs, one a line, spaces and tabs as written."""
    paragraphs = ["".join(_inline(p)) for p in cell if p.tag == f"{{{_TEXT}}}p"]
    text = "\n".join(paragraphs).strip()
    return text or None


def _inline(element: Element) -> Iterator[str]:
    if element.text:
        yield element.text
    for child in element:
        tag = child.tag
        if tag == f"{{{_TEXT}}}s":
            yield " " * _count(child.get(f"{{{_TEXT}}}c"))
        elif tag == f"{{{_TEXT}}}tab":
            yield "\t"
        elif tag == f"{{{_TEXT}}}line-break":
            yield "\n"
        elif tag not in (f"{{{_OFFICE}}}annotation", f"{{{_TEXT}}}note"):  # comments are not the cell's text
            yield from _inline(child)
        if child.tail:
            yield child.tail
