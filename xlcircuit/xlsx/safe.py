"""Safe open: a file is a workbook that is safe to load (no zip bomb, no entity, no million declared cells)
before any of it is parsed."""

from __future__ import annotations

import os
import re
import zipfile
import zlib
from pathlib import Path

from openpyxl.utils import range_boundaries

from ..rules.errors import WorkbookError
from .files import _being_written, _being_written_error, _damaged, _stamp
from .unkept import Unkept, _find_markers, _lost_features

#: Largest total uncompressed size of a workbook's parts, and largest compression ratio of one
#: part, before anything is parsed: e-mailed files may be zip bombs.
MAX_UNCOMPRESSED = 1 << 30
MAX_RATIO = 500
_RATIO_MIN_SIZE = 1 << 20  # small parts may compress well; only a large one is suspect
#: Largest number of cells (and rows, shared strings, styles) a workbook declares, counted in its XML before
#: openpyxl parses it: each costs openpyxl about a kilobyte, and a tiny file may declare millions. The
#: largest season of the benchmarks (1,000 TdF tournaments, filled) declares about 1 million.
MAX_CELLS = 2_000_000
#: What each kind of part declares, by its tags (counted by plain byte counts: fast).
_COUNTED = {"xl/worksheets/": (b"c", b"row"), "xl/sharedStrings": (b"si",), "xl/styles": (b"xf", b"dxf")}
_PREFIXED = re.compile(rb"<[A-Za-z_][\w.-]*:(?:c|row|si|xf|dxf)[\s>]")
_MERGE = re.compile(rb'<(?:\w+:)?mergeCell\b[^>]*?\bref="([^"]*)"')
_CHUNK = 1 << 20
_OLE2 = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_ENCRYPTED = "EncryptedPackage".encode("utf-16-le")


def inspect_file(path: Path) -> list[Unkept]:
    """Check a file is a workbook that is safe to load, before parsing any of it.

    Returns what openpyxl would drop on saving (shapes, sparklines, form controls...), as French
    descriptions naming the sheet where possible.
    """
    name = path.name
    if not path.exists():
        raise WorkbookError(f"Fichier introuvable : {path}")
    if path.is_dir():
        raise WorkbookError(f"{path} est un dossier, pas un classeur.")
    before = _stamp(path)
    try:
        with path.open("rb") as handle:
            head = handle.read(8)
    except PermissionError:
        if not os.access(path, os.R_OK):
            raise WorkbookError(f"{name} ne peut pas être lu : vous n'avez pas le droit de le lire (demandez "
                                "ce droit, ou copiez le fichier ailleurs), puis relancez.") from None
        raise WorkbookError(f"{name} est verrouillé par un autre programme (Excel ?) : fermez-le et "
                            "relancez.") from None
    except OSError as exc:
        raise WorkbookError(f"{name} ne peut pas être lu ({exc.strerror or exc}).") from None
    if not head:
        if _being_written(path, before):
            raise _being_written_error(name)
        raise WorkbookError(f"{name} est vide (0 octet) : ce n'est pas un classeur.")
    if head == _OLE2:
        if _ENCRYPTED in path.read_bytes():
            raise WorkbookError(f"{name} est protégé par mot de passe : enregistrez-le sans mot de passe, "
                                "puis relancez.")
        raise WorkbookError(f"{name} est au format .xls (Excel 97-2003) : ouvrez-le dans votre tableur et "
                            "enregistrez-le au format .xlsx.")
    if not zipfile.is_zipfile(path):
        if path.suffix.lower() in (".csv", ".txt", ".tsv"):
            raise WorkbookError(f"{name} est un fichier texte : ouvrez-le dans votre tableur et enregistrez-le "
                                "au format .xlsx.")
        raise _damaged(path, before, f"{name} n'est pas un classeur .xlsx lisible (fichier tronqué, abîmé ou "
                                     "d'un autre format).")
    try:
        with zipfile.ZipFile(path) as archive:
            infos = archive.infolist()
            names = {i.filename for i in infos}
            if "xl/workbook.xml" not in names:
                raise WorkbookError(f"{name} est une archive zip qui ne contient pas de classeur Excel.")
            _check_sizes(name, infos)
            markers = _check_counts(name, archive, infos)
            return _lost_features(name, archive, names, markers)
    except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, ValueError, OSError):
        # A broken compressed stream, an unknown compression method, a bad header...
        raise _damaged(path, before, f"{name} n'est pas un classeur .xlsx lisible (fichier tronqué ou "
                                     "abîmé).") from None


def _check_counts(name: str, archive: zipfile.ZipFile, infos: list[zipfile.ZipInfo]) -> dict[str, set[str]]:
    """Refuse a workbook declaring more cells (rows, strings, styles, merged cells) than :data:`MAX_CELLS`,
    counted in its XML as it is decompressed, before openpyxl builds any of them. Returns, by sheet part, the
    labels of :data:`_LOST_IN_SHEETS` whose markers it holds (looked for in the same pass)."""
    total = 0
    markers: dict[str, set[str]] = {}
    for info in infos:
        tags = next((tags for prefix, tags in _COUNTED.items() if info.filename.startswith(prefix)), None)
        if tags is None or not info.filename.endswith(".xml"):
            continue
        prefixed = None
        with archive.open(info) as part:
            carry = b""
            while chunk := part.read(_CHUNK):
                data = carry + chunk
                cut = data.rfind(b"<")  # every tag counted is whole in data[:cut]
                if cut <= 0:
                    carry = data[-4096:]
                    continue
                data, carry = data[:cut], data[cut:]
                if prefixed is None:  # x:c, a namespace prefix some programs write
                    prefixed = _PREFIXED.search(data) is not None
                total += _count(data, tags, prefixed)
                if info.filename.startswith("xl/worksheets/"):
                    _find_markers(data, markers.setdefault(info.filename, set()))
                if total > MAX_CELLS:
                    raise WorkbookError(f"{name} déclare plus de {MAX_CELLS:,} cellules".replace(",", " ")
                                        + f" ({info.filename}) : fichier piégé ou bien trop gros, il n'est pas lu.")
            total += _count(carry, tags, True)
            if info.filename.startswith("xl/worksheets/"):
                _find_markers(carry, markers.setdefault(info.filename, set()))
    if total > MAX_CELLS:
        raise WorkbookError(f"{name} déclare plus de {MAX_CELLS:,} cellules".replace(",", " ")
                            + " : fichier piégé ou bien trop gros, il n'est pas lu.")
    return markers


def _count(data: bytes, tags: tuple[bytes, ...], prefixed: bool) -> int:
    """The elements ``tags`` of a piece of XML, and the cells its merged ranges cover."""
    count = 0
    for tag in tags:
        for end in (b" ", b">"):
            count += data.count(b"<" + tag + end) + (data.count(b":" + tag + end) if prefixed else 0)
    if b"mergeCell" not in data:
        return count
    for ref in _MERGE.findall(data):
        try:
            min_col, min_row, max_col, max_row = range_boundaries(ref.decode("ascii", "replace"))
        except (ValueError, TypeError):
            continue  # openpyxl will refuse it
        if None not in (min_col, min_row, max_col, max_row):
            count += (max_col - min_col + 1) * (max_row - min_row + 1)
    return count


def _check_sizes(name: str, infos: list[zipfile.ZipInfo]) -> None:
    total = sum(i.file_size for i in infos)
    if total > MAX_UNCOMPRESSED:
        raise WorkbookError(f"{name} est trop gros une fois décompressé ({total >> 20} Mio, "
                            f"{MAX_UNCOMPRESSED >> 20} Mio au plus) : il n'est pas lu.")
    for info in infos:
        if info.file_size > _RATIO_MIN_SIZE and info.file_size > MAX_RATIO * max(info.compress_size, 1):
            raise WorkbookError(f"{name} contient une partie anormalement compressée ({info.filename} : "
                                f"{info.file_size // max(info.compress_size, 1)} fois, {MAX_RATIO} au plus) : "
                                "fichier piégé ou abîmé, il n'est pas lu.")


def declares_entities(path: Path) -> bool:
    """Whether an XML part of the package has a document type declaration (where entities are declared),
    read from the parts' first bytes only: the fast reader below must never meet one."""
    with zipfile.ZipFile(path) as archive:
        for info in archive.infolist():
            if not info.filename.endswith((".xml", ".rels", ".vml")):
                continue
            with archive.open(info) as handle:
                head = handle.read(_PROLOG)
            if b"<!DOCTYPE" in head or b"<!ENTITY" in head:
                return True
            root = re.search(rb"<[A-Za-z_]", head)
            if root is None and len(head) == _PROLOG:  # a prolog longer than any real one
                return True
    return False


_PROLOG = 4096

