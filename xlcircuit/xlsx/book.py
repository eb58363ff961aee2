"""Opening and saving workbooks safely: one clear sentence for a bad file, atomic saves,
and the mark that says which federation a workbook belongs to."""

from __future__ import annotations

import contextlib
import gc
import hashlib
import os
import posixpath
import re
import shutil
import socket
import stat
import tempfile
import time
import warnings
import zipfile
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.etree.ElementTree import Element, ParseError

import openpyxl
from defusedxml import DefusedXmlException
from defusedxml import ElementTree as SafeET
from openpyxl.packaging.custom import StringProperty
from openpyxl.utils import range_boundaries
from openpyxl.utils.exceptions import InvalidFileException
from openpyxl.workbook.workbook import Workbook

from ..rules.errors import WorkbookError

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

#: Parts and markers of what openpyxl cannot keep when it saves, with their French names.
_LOST_PARTS = {
    "xl/ctrlProps/": "contrôles de formulaire",
    "xl/activeX/": "contrôles ActiveX",
    "xl/slicers/": "segments (slicers)",
    "xl/timelines/": "chronologies",
}
CONDITIONAL_FORMAT_EXTENSIONS = "mises en forme conditionnelles propres à Excel 2010+"
#: Markers are tags (a cell's text saying "sparklineGroup" holds no "<": XML escapes it), found by a plain
#: search first (a regular expression is slow over a big sheet).
_LOST_IN_SHEETS = {
    (b"sparklineGroup", re.compile(rb"<(?:\w+:)?sparklineGroup\b")): "graphiques sparkline",
    (b"<x14:conditionalFormatting", re.compile(rb"<x14:conditionalFormatting\b")): CONDITIONAL_FORMAT_EXTENSIONS,
    (b"<x14:dataValidation", re.compile(rb"<x14:dataValidation\b")): "validations de données propres à Excel 2010+",
}
_EXTENSION_RANGES = re.compile(rb"<x14:conditionalFormatting\b.*?<xm:sqref>([^<]*)</xm:sqref>", re.S)
_DRAWING = "{http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing}"
_LOST_IN_DRAWINGS = {f"{_DRAWING}sp": "formes ou zones de texte", f"{_DRAWING}grpSp": "groupes de formes",
                     f"{_DRAWING}cxnSp": "connecteurs"}

@dataclass(frozen=True)
class Unkept:
    """Something of a workbook that openpyxl drops when it saves, and the sheet it is on (None: the workbook)."""

    what: str
    sheet: str | None = None
    ranges: tuple[str, ...] = ()  # the cells it applies to, where the file says

    def __str__(self) -> str:
        return f"{self.what} ({'classeur' if self.sheet is None else f'feuille « {self.sheet} »'})"


#: Name of the custom document property holding the federation ("Fichier > Propriétés > Personnalisé").
FEDERATION_PROPERTY = "xlcircuit"


def _stamp(path: Path) -> tuple[int, int] | None:
    try:
        status = path.stat()
    except OSError:
        return None
    return status.st_size, status.st_mtime_ns


def _being_written(path: Path, before: tuple[int, int] | None) -> bool:
    """Whether another program is writing ``path`` (it changed since ``before``, or changes in a moment)."""
    now = _stamp(path)
    if now != before:
        return True
    if now is not None and time.time() - now[1] / 1e9 < 2:  # just written: is it still being written?
        time.sleep(0.5)
        return _stamp(path) != now
    return False


def _being_written_error(name: str) -> WorkbookError:
    return WorkbookError(f"{name} est en cours d'écriture par un autre programme : attendez qu'il ait fini "
                         "(ou fermez-le), puis relancez.")


def _damaged(path: Path, before: tuple[int, int] | None, sentence: str) -> WorkbookError:
    """The error for a file that cannot be read: damaged, unless another program is rewriting it."""
    return _being_written_error(path.name) if _being_written(path, before) else WorkbookError(sentence)


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


def _find_markers(data: bytes, found: set[str]) -> None:
    """Add to ``found`` the labels of :data:`_LOST_IN_SHEETS` whose marker (a tag, whole in ``data``) it holds."""
    for (needle, marker), label in _LOST_IN_SHEETS.items():
        if label not in found and needle in data and marker.search(data):
            found.add(label)


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


def _sheet_names(name: str, archive: zipfile.ZipFile) -> dict[str, str]:
    """Part name of each worksheet -> the sheet's name."""
    try:
        book = _xml(name, archive, "xl/workbook.xml")
        rels = _xml(name, archive, "xl/_rels/workbook.xml.rels")
    except KeyError:
        return {}
    targets = {r.get("Id"): r.get("Target", "") for r in rels}
    sheets = {}
    for sheet in book.iter("{http://schemas.openxmlformats.org/spreadsheetml/2006/main}sheet"):
        rid = sheet.get("{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id")
        sheets[_part("xl", targets.get(rid, ""))] = sheet.get("name", "?")
    return sheets


def _part(folder: str, target: str) -> str:
    """The part a relationship's target names: absolute (``/xl/...``) or relative to ``folder``."""
    if target.startswith("/"):
        return target.lstrip("/")
    return posixpath.normpath(posixpath.join(folder, target))


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


def _lost_features(name: str, archive: zipfile.ZipFile, names: set[str], markers: dict[str, set[str]]) -> list[Unkept]:
    """What openpyxl would drop: parts it does not know, the sheets' ``markers`` (found by :func:`_check_counts`),
    shapes in their drawings."""
    lost = {label for prefix, label in _LOST_PARTS.items() if any(n.startswith(prefix) for n in names)}
    found = [Unkept(label) for label in sorted(lost)]
    sheets = _sheet_names(name, archive)
    for part, sheet in sheets.items():
        if part not in names:
            continue
        labels = markers.get(part)
        if labels is None:  # a sheet outside xl/worksheets/, not looked at by the count
            labels = set()
            _find_markers(archive.read(part), labels)
        for label in _LOST_IN_SHEETS.values():
            if label in labels:
                ranges = () if label != CONDITIONAL_FORMAT_EXTENSIONS else tuple(
                    r.decode() for refs in _EXTENSION_RANGES.findall(archive.read(part)) for r in refs.split())
                found.append(Unkept(label, sheet, ranges))
        rels = posixpath.join(posixpath.dirname(part), "_rels", posixpath.basename(part) + ".rels")
        if rels not in names:
            continue
        for target in _xml(name, archive, rels):
            drawing = _part(posixpath.dirname(part), target.get("Target", ""))
            if drawing.startswith("xl/drawings/") and drawing in names:
                tags = {element.tag for element in _xml(name, archive, drawing).iter()}
                shapes = sorted({label for tag, label in _LOST_IN_DRAWINGS.items() if tag in tags})
                found += [Unkept(label, sheet) for label in shapes]
    return found


def _load(path: Path, data_only: bool = False, before: tuple[int, int] | None = None) -> Workbook:
    """openpyxl's load, its errors turned into one French sentence (after :func:`inspect_file`).

    Whatever openpyxl raises on a damaged or foreign file (its readers assume well-formed parts) is a
    damaged file; a file another program rewrites meanwhile is said to be one.
    """
    name = path.name
    try:
        with warnings.catch_warnings():
            # openpyxl warns, in English, of the extensions it drops: inspect_file names them in French.
            warnings.simplefilter("ignore")
            return openpyxl.load_workbook(path, data_only=data_only, keep_vba=path.suffix.lower() == ".xlsm")
    except InvalidFileException:
        raise WorkbookError(
            f"{name} n'est pas un classeur .xlsx : ouvrez-le dans votre tableur et enregistrez-le au format .xlsx."
        ) from None
    except MemoryError:
        raise WorkbookError(f"{name} est trop gros pour la mémoire de cet ordinateur : il n'est pas lu.") from None
    except RecursionError:
        raise WorkbookError(f"{name} est endommagé (XML imbriqué à l'excès) et ne peut pas être lu.") from None
    except Exception as exc:  # openpyxl's readers raise anything on a broken part
        if _caused_by(exc, DefusedXmlException):
            raise WorkbookError(f"{name} contient des constructions XML interdites (entités) : fichier piégé "
                                "ou abîmé, il n'est pas lu.") from None
        if isinstance(exc, KeyError) and not _being_written(path, before):
            raise WorkbookError(f"{name} est une archive zip à laquelle il manque une partie du classeur "
                                f"({exc.args[0] if exc.args else '?'}) : fichier abîmé, il ne peut pas être "
                                "lu.") from None
        raise _damaged(path, before, f"{name} est endommagé et ne peut pas être lu ({_what(exc)}) : ouvrez-le "
                                     "dans votre tableur, enregistrez-le sous un autre nom, puis relancez.") from None


def _what(exc: BaseException) -> str:
    """A short, French name of what broke in a file."""
    if _caused_by(exc, ParseError):
        return "XML invalide"
    if _caused_by(exc, (zipfile.BadZipFile, zlib.error, EOFError)):
        return "compression abîmée"
    return "contenu inattendu"


def _caused_by(exc: BaseException | None, kind: type | tuple[type, ...]) -> bool:
    while exc is not None:
        if isinstance(exc, kind):
            return True
        exc = exc.__cause__ or exc.__context__
    return False


def _digest(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


#: Lock files spreadsheet programs leave beside a workbook they have open.
LOCK_FILES = ((".~lock.{}#", "LibreOffice"), ("~${}", "Excel"))


def lock_of(path: Path) -> tuple[Path, str] | None:
    """The lock file beside ``path`` that says a spreadsheet program has it open, and the program."""
    for pattern, program in LOCK_FILES:
        lock = path.with_name(pattern.format(path.name))
        if lock.exists():
            return lock, program
    return None


def _read_only(path: Path) -> bool:
    try:
        mode = path.stat().st_mode
    except OSError:
        return False
    return not mode & stat.S_IWUSR or not os.access(path, os.W_OK)


class Book:
    """A workbook opened for reading and, maybe, writing back.

    Cells holding a formula are read through their value as last calculated by the spreadsheet
    program (a second, values-only load, made only when a formula is met).
    """

    def __init__(self, path: str | os.PathLike[str]):
        self.path = Path(path)
        #: Warnings for the organiser that are not the federation's (rows taken in under a table, --force).
        self.warnings: list[str] = []
        before = _stamp(self.path)
        #: What saving would drop (openpyxl cannot keep it), in French, for a warning.
        self.unkept = inspect_file(self.path)
        from .package import declares_entities

        if declares_entities(self.path):
            raise WorkbookError(f"{self.path.name} contient des constructions XML interdites (entités) : fichier "
                                "piégé ou abîmé, il n'est pas lu.")
        #: What a fill says of the workbook besides (one sentence each, in French).
        self.notes: list[str] = []
        self._digest = _digest(self.path)
        self._before = before
        self._backup: Path | None = None
        self._wb: Workbook | None = None
        self._values: Workbook | None = None
        self._cached: dict | None = None  # formulas' last values, read by the surgical load
        self._surgery: Any = None  # the surgical writer (package.Surgery), when :meth:`own` could take that path
        self._in_memory = False  # built by :meth:`in_memory`: no file behind it

    @classmethod
    def in_memory(cls, wb: Workbook, name: str) -> Book:
        """A workbook built in memory, named ``name`` in messages (the one open in xlwings Lite): read and filled
        as a file's, its formulas already values; never saved (:meth:`save` refuses: there is no file)."""
        book = cls.__new__(cls)
        book.path, book.warnings, book.unkept, book.notes = Path(name), [], [], []
        book._digest = book._before = book._backup = book._values = book._cached = book._surgery = None
        book._wb, book._in_memory = wb, True
        return book

    @property
    def wb(self) -> Workbook:
        """openpyxl's model of the workbook: all of it, unless :meth:`own` loaded only what a fill needs."""
        if self._wb is None:
            self._wb = _load(self.path, before=self._before)
            if _stamp(self.path) != self._before:
                raise _being_written_error(self.path.name)
        return self._wb

    @property
    def surgical(self) -> bool:
        """Whether a save writes only the output sheets (every other part copied as it is), rather than the
        whole workbook through openpyxl's model."""
        return self._surgery is not None

    def own(self, owned, federation: str, ours: Callable[[Any], bool] | None = None) -> bool:
        """Open for a fill that rewrites only ``owned`` (a :class:`.package.Owned`): the organiser's sheets
        are copied as they are when saving. False when the workbook needs the full rewrite (then the model
        is loaded whole, as before). ``ours`` tells the cells an earlier fill wrote outside its tables (their
        legends) from the organiser's, which the fill says it keeps."""
        from . import package

        if self._wb is not None:
            return False
        plan = None
        try:
            plan = package.plan(package.Package(self.path), owned)
            lost = [u for u in self.unkept if u.sheet in plan.owned and not _ours(u, plan)]
            if lost:
                return False
            wb, self._cached, foreign = package.open_for_fill(plan)
            self._surgery = package.Surgery(plan, wb, FEDERATION_PROPERTY, federation)
        except (package.Unsupported, ParseError, DefusedXmlException, KeyError, ValueError, TypeError,
                IndexError, zipfile.BadZipFile):
            self._cached = self._surgery = None
            if plan is not None:
                plan.package.close()
            return False
        if _stamp(self.path) != self._before:
            raise _being_written_error(self.path.name)
        self._wb = wb
        self.unkept = []  # nothing else is rewritten: every other part is copied as it is
        mixed = [name for name, has in foreign.items() if has and any(
            cell.value is not None and not (ours and ours(cell)) for cell in wb[name]._cells.values())]
        if mixed:
            self.notes.append(f"{_sheets_phrase(mixed)} aussi des cellules à vous, hors des tables de xlcircuit : "
                              "elles sont gardées, mais réécrites (leurs formules sont recalculées à l'ouverture).")
        return True

    def value(self, cell) -> object:
        """What a cell shows: its value, or for a formula its last calculated value."""
        if cell.data_type != "f":
            return cell.value
        if self._cached is not None:
            key = (cell.parent.title, cell.row, cell.column)
            if key in self._cached:
                return self._cached[key]
        if self._values is None:
            self._values = _load(self.path, data_only=True)
        try:
            return self._values[cell.parent.title][cell.coordinate].value
        except KeyError:  # the file changed between the two loads
            raise _being_written_error(self.path.name) from None

    @property
    def federation(self) -> str | None:
        """The federation this workbook belongs to, as recorded by ``xlcircuit new``."""
        if self._wb is None:
            return _recorded_federation(self.path)
        props = self.wb.custom_doc_props
        if FEDERATION_PROPERTY not in props.names:
            return None
        value = props[FEDERATION_PROPERTY].value
        return value if isinstance(value, str) else str(value)

    @property
    def backup(self) -> Path:
        """Where the original is kept when an in-place save would drop what openpyxl cannot keep: the copy
        made by the last :meth:`save`, else the first free name ``NOM (avant xlcircuit[ N]).xlsx``."""
        return self._backup or next(self._backup_names())

    def _backup_names(self) -> Iterator[Path]:
        stem, suffix = self.path.stem, self.path.suffix
        n = 1
        while True:
            candidate = self.path.with_name(f"{stem} (avant xlcircuit{'' if n == 1 else f' {n}'}){suffix}")
            if not candidate.exists():
                yield candidate
            n += 1

    def _check_unchanged(self) -> None:
        """Refuse to replace a workbook another program saved since it was read (its save would be lost)."""
        if _digest(self.path) != self._digest:
            raise WorkbookError(f"{self.path.name} a été modifié par un autre programme pendant le travail de "
                                f"xlcircuit : rien n'a été écrit (l'autre enregistrement est intact), relancez.")

    def save(self, target: str | os.PathLike[str] | None = None, force: bool = False) -> Path:
        """Save atomically to ``target`` (default: where it was read).

        Refuses a target a spreadsheet program has open (its lock file beside it: ``force`` passes over a
        stale one, with a warning), a read-only target, and, in place, a workbook changed on disk since it
        was read. Saving in place a workbook with features openpyxl drops first copies the original to a
        new :attr:`backup` (never one overwritten).
        """
        if self._in_memory:
            raise WorkbookError(f"{self.path.name} est ouvert dans Excel : c'est Excel qui l'enregistre.")
        target = Path(target) if target else self.path
        if target.suffix.lower() != self.path.suffix.lower():
            # A macro workbook saved as .xlsx, or the reverse, is a file Excel refuses to open.
            raise WorkbookError(f"{target.name} doit garder l'extension de {self.path.name} "
                                f"({self.path.suffix}) : choisissez un nom en {self.path.suffix}.")
        in_place = _same_file(target, self.path)
        if target.exists():
            self._check_writable(target, force)
        if in_place:
            self._check_unchanged()
            if self.unkept and self._surgery is None:
                self._backup = _copy_new(self.path, self._backup_names())
        # The surgical writer when the fill could take that path: only the output sheets are written anew.
        writer = self._surgery if self._surgery is not None else self.wb
        with paused_gc():
            return save_atomic(writer, target, self._check_unchanged if in_place else None)

    def _check_writable(self, target: Path, force: bool) -> None:
        if _read_only(target):
            raise WorkbookError(f"{target.name} est en lecture seule : rien n'a été écrit (enlevez la lecture "
                                "seule dans les propriétés du fichier, ou écrivez ailleurs avec -o).")
        lock = lock_of(target)
        if lock and not force:
            raise WorkbookError(f"{target.name} est ouvert dans {lock[1]} (verrou « {lock[0].name} ») : rien n'a été "
                                "écrit ; fermez-le, puis relancez (--force si le verrou est resté après une panne).")
        if lock:
            self.warnings.append(f"--force : le verrou « {lock[0].name} » de {lock[1]} est passé outre ; si "
                                 f"{target.name} y est encore ouvert, fermez-le sans l'enregistrer, sinon cet "
                                 "enregistrement écraserait le remplissage.")


@contextlib.contextmanager
def paused_gc() -> Iterator[None]:
    """No garbage collection meanwhile: a fill or its save makes millions of lasting objects and no garbage
    cycles, and each collection would walk them all (a third to half of the time of a large season)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve() or (a.exists() and os.path.samefile(a, b))
    except OSError:
        return False


def _ours(unkept: Unkept, plan) -> bool:
    """Extended conditional formats inside the output tables: an earlier fill's data bars, rewritten anyway."""
    areas = plan.owned.get(unkept.sheet)
    if unkept.what != CONDITIONAL_FORMAT_EXTENSIONS or not unkept.ranges:
        return False
    if areas is None:
        return True
    from openpyxl.utils import range_boundaries

    def inside(ref: str) -> bool:
        b = range_boundaries(ref)
        return any(a[0] <= b[0] and b[2] <= a[2] and a[1] <= b[1] and b[3] <= a[3] for a in areas)

    return all(inside(r) for r in unkept.ranges)


def _sheets_phrase(names: list[str]) -> str:
    quoted = ", ".join(f"« {n} »" for n in names)
    return f"La feuille {quoted} contient" if len(names) == 1 else f"Les feuilles {quoted} contiennent"


def _recorded_federation(path: Path) -> str | None:
    """The federation mark read from docProps/custom.xml without loading the workbook."""
    try:
        with zipfile.ZipFile(path) as archive:
            if "docProps/custom.xml" not in archive.namelist():
                return None
            root = SafeET.fromstring(archive.read("docProps/custom.xml"))
    except (KeyError, ParseError, DefusedXmlException, zipfile.BadZipFile):
        return None
    for prop in root:
        if prop.get("name") == FEDERATION_PROPERTY:
            return next((child.text for child in prop), None)
    return None


def mark_federation(wb: Workbook, federation: str) -> None:
    """Record in the workbook which federation it belongs to, so ``fill`` needs no flag."""
    props = wb.custom_doc_props
    if FEDERATION_PROPERTY in props.names:
        props[FEDERATION_PROPERTY].value = federation
    else:
        props.append(StringProperty(name=FEDERATION_PROPERTY, value=federation))


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


# --- temporary files: named so that the next run removes a killed run's leftovers ----------------

_HOST = re.sub(r"[^A-Za-z0-9]", "", socket.gethostname())[:20] or "h"
#: ``.NAME.xlcircuit-HOST-PID-XXXX.tmp`` beside the target; ``xlcircuit-HOST-PID-XXXX`` in the system temp.
_LEFTOVER = re.compile(r"xlcircuit-(?P<host>[A-Za-z0-9]*)-(?P<pid>\d+)-")
_STALE_SECONDS = 24 * 3600  # what another computer left (a shared folder) is removed after a day


def _temp_prefix() -> str:
    return f"xlcircuit-{_HOST}-{os.getpid()}-"


def _alive(pid: int) -> bool:
    if os.name != "posix":  # os.kill would end the process on Windows
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def _stale(path: Path) -> bool:
    """Whether ``path`` was left by an xlcircuit run that is over (killed, or the computer stopped)."""
    match = _LEFTOVER.search(path.name)
    if match is None:
        return False
    pid = int(match["pid"])
    if match["host"] == _HOST and pid != os.getpid() and not _alive(pid):
        return True
    try:
        return time.time() - path.lstat().st_mtime > _STALE_SECONDS
    except OSError:
        return False


def remove_leftovers(folder: Path) -> list[Path]:
    """Remove what killed xlcircuit runs left in ``folder`` and in the system temp folder; returns it."""
    removed = []
    candidates = [*_glob(folder, ".*.xlcircuit-*.tmp"), *_glob(Path(tempfile.gettempdir()), "xlcircuit-*")]
    for path in candidates:
        if not _stale(path):
            continue
        try:
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path)
            else:
                path.unlink()
        except OSError:
            continue
        removed.append(path)
    return removed


def _glob(folder: Path, pattern: str) -> list[Path]:
    try:
        return list(folder.glob(pattern))
    except OSError:
        return []


def _temp_beside(target: Path) -> Path:
    folder = target.parent if str(target.parent) else Path(".")
    try:
        handle, name = tempfile.mkstemp(prefix=f".{target.name[:100]}.{_temp_prefix()}", suffix=".tmp", dir=folder)
    except FileNotFoundError:
        raise WorkbookError(f"Dossier introuvable : {folder}") from None
    except PermissionError:
        raise WorkbookError(f"Impossible d'écrire dans le dossier {folder} (droits insuffisants).") from None
    except OSError as exc:
        raise WorkbookError(f"Impossible d'écrire dans le dossier {folder} ({exc.strerror or exc}).") from None
    os.close(handle)
    return Path(name)


@contextlib.contextmanager
def _own_system_temp() -> Iterator[None]:
    """openpyxl writes each sheet to the system temp folder first: there, in a folder of this run's."""
    folder = tempfile.mkdtemp(prefix=_temp_prefix())
    previous = tempfile.tempdir
    tempfile.tempdir = folder
    try:
        yield
    finally:
        tempfile.tempdir = previous
        shutil.rmtree(folder, ignore_errors=True)


def _copy_new(source: Path, names: Iterator[Path]) -> Path:
    """Copy ``source`` to the first of ``names`` that is free, never replacing a file: whole or not at all."""
    tmp = _temp_beside(source)
    try:
        try:
            shutil.copy2(source, tmp)
            with tmp.open("rb+") as written:
                os.fsync(written.fileno())
        except OSError as exc:
            raise WorkbookError(f"Impossible de garder une copie de {source.name} ({exc.strerror or exc}) : rien "
                                "n'a été écrit.") from None
        for candidate in names:
            try:
                os.link(tmp, candidate)  # fails if the name is taken, instead of replacing it
            except FileExistsError:
                continue
            except OSError:  # a file system without hard links
                try:
                    os.close(os.open(candidate, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
                except FileExistsError:
                    continue
                os.replace(tmp, candidate)
            return candidate
    finally:
        tmp.unlink(missing_ok=True)
    raise AssertionError("unreachable: the names never end")


def save_atomic(wb: Workbook, target: Path, before_replace: Callable[[], None] | None = None) -> Path:
    """Write to a temporary file beside ``target``, check it is a sound zip, then replace ``target``.

    ``before_replace`` runs last, just before the replacement (it may refuse it by raising). If anything
    fails, ``target`` is left as it was. Leftovers of killed runs are removed first.
    """
    target = Path(target)
    folder = target.parent if str(target.parent) else Path(".")
    remove_leftovers(folder)
    tmp = _temp_beside(target)
    try:
        try:
            with _own_system_temp():
                wb.save(tmp)
            with tmp.open("rb+") as written:
                os.fsync(written.fileno())  # on disk before it replaces the original
        except OSError as exc:
            raise WorkbookError(f"Impossible d'enregistrer {target.name} ({exc.strerror or exc}) : "
                                "l'original n'a pas été modifié.") from None
        except (ValueError, TypeError, KeyError, AttributeError, IndexError) as exc:
            # openpyxl's writer meeting what its reader let through from a damaged file
            raise WorkbookError(f"Impossible d'enregistrer {target.name}, une partie du classeur lu est abîmée "
                                f"({type(exc).__name__}) : l'original n'a pas été modifié ; ouvrez-le dans votre "
                                "tableur, enregistrez-le sous un autre nom, puis relancez.") from None
        with zipfile.ZipFile(tmp) as archive:
            broken = archive.testzip()
        if broken is not None:
            raise WorkbookError(f"L'enregistrement de {target.name} a produit un fichier abîmé ({broken}).")
        os.chmod(tmp, target.stat().st_mode & 0o777 if target.exists() else 0o666 & ~_umask())
        if before_replace is not None:
            before_replace()
        try:
            os.replace(tmp, target)
        except PermissionError:
            raise WorkbookError(
                f"{target.name} est ouvert dans un autre programme (Excel ?) : fermez-le et relancez."
            ) from None
    finally:
        tmp.unlink(missing_ok=True)
    return target
