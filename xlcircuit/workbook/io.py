"""Opening and saving workbooks safely: one clear sentence for a bad file, atomic saves,
and the mark that says which federation a workbook belongs to."""

from __future__ import annotations

import os
import posixpath
import re
import shutil
import tempfile
import warnings
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.etree.ElementTree import ParseError

import openpyxl
from defusedxml import DefusedXmlException
from defusedxml import ElementTree as SafeET
from openpyxl.packaging.custom import StringProperty
from openpyxl.utils.exceptions import InvalidFileException
from openpyxl.workbook.workbook import Workbook

from ..errors import WorkbookError

#: Largest total uncompressed size of a workbook's parts, and largest compression ratio of one
#: part, before anything is parsed: e-mailed files may be zip bombs.
MAX_UNCOMPRESSED = 1 << 30
MAX_RATIO = 500
_RATIO_MIN_SIZE = 1 << 20  # small parts may compress well; only a large one is suspect
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
_LOST_IN_SHEETS = {
    b"sparklineGroup": "graphiques sparkline",
    b"x14:conditionalFormatting": CONDITIONAL_FORMAT_EXTENSIONS,
    b"x14:dataValidation": "validations de données propres à Excel 2010+",
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
    try:
        with path.open("rb") as handle:
            head = handle.read(8)
    except PermissionError:
        raise WorkbookError(f"{name} est verrouillé : fermez-le dans Excel (ou l'autre programme) et relancez.") from None
    if not head:
        raise WorkbookError(f"{name} est vide (0 octet) : ce n'est pas un classeur.")
    if head == _OLE2:
        if _ENCRYPTED in path.read_bytes():
            raise WorkbookError(f"{name} est protégé par mot de passe : enregistrez-le sans mot de passe, puis relancez.")
        raise WorkbookError(f"{name} est au format .xls (Excel 97-2003) : ouvrez-le dans votre tableur et "
                            "enregistrez-le au format .xlsx.")
    if not zipfile.is_zipfile(path):
        if path.suffix.lower() in (".csv", ".txt", ".tsv"):
            raise WorkbookError(f"{name} est un fichier texte : ouvrez-le dans votre tableur et enregistrez-le "
                                "au format .xlsx.")
        raise WorkbookError(f"{name} n'est pas un classeur .xlsx lisible (fichier tronqué, abîmé ou d'un autre format).")
    try:
        with zipfile.ZipFile(path) as archive:
            infos = archive.infolist()
            names = {i.filename for i in infos}
            if "xl/workbook.xml" not in names:
                raise WorkbookError(f"{name} est une archive zip qui ne contient pas de classeur Excel.")
            _check_sizes(name, infos)
            return _lost_features(archive, names)
    except zipfile.BadZipFile:
        raise WorkbookError(f"{name} n'est pas un classeur .xlsx lisible (fichier tronqué ou abîmé).") from None


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


def _sheet_names(archive: zipfile.ZipFile) -> dict[str, str]:
    """Part name of each worksheet -> the sheet's name."""
    try:
        book = SafeET.fromstring(archive.read("xl/workbook.xml"))
        rels = SafeET.fromstring(archive.read("xl/_rels/workbook.xml.rels"))
    except (KeyError, ParseError, DefusedXmlException):
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


def _lost_features(archive: zipfile.ZipFile, names: set[str]) -> list[Unkept]:
    lost = {label for prefix, label in _LOST_PARTS.items() if any(n.startswith(prefix) for n in names)}
    found = [Unkept(label) for label in sorted(lost)]
    sheets = _sheet_names(archive)
    for part, sheet in sheets.items():
        if part not in names:
            continue
        xml = archive.read(part)
        for marker, label in _LOST_IN_SHEETS.items():
            if marker in xml:
                ranges = () if label != CONDITIONAL_FORMAT_EXTENSIONS else tuple(
                    r.decode() for refs in _EXTENSION_RANGES.findall(xml) for r in refs.split())
                found.append(Unkept(label, sheet, ranges))
        rels = posixpath.join(posixpath.dirname(part), "_rels", posixpath.basename(part) + ".rels")
        if rels not in names:
            continue
        for target in SafeET.fromstring(archive.read(rels)):
            drawing = _part(posixpath.dirname(part), target.get("Target", ""))
            if drawing.startswith("xl/drawings/") and drawing in names:
                tags = {element.tag for element in SafeET.fromstring(archive.read(drawing)).iter()}
                labels = sorted({label for tag, label in _LOST_IN_DRAWINGS.items() if tag in tags})
                found += [Unkept(label, sheet) for label in labels]
    return found


def _load(path: Path, data_only: bool = False) -> Workbook:
    """openpyxl's load, its errors turned into one French sentence (after :func:`inspect_file`)."""
    name = path.name
    try:
        with warnings.catch_warnings():
            # openpyxl warns, in English, of the extensions it drops: inspect_file names them in French.
            warnings.simplefilter("ignore", UserWarning)
            return openpyxl.load_workbook(path, data_only=data_only, keep_vba=path.suffix.lower() == ".xlsm")
    except InvalidFileException:
        raise WorkbookError(
            f"{name} n'est pas un classeur .xlsx : ouvrez-le dans votre tableur et enregistrez-le au format .xlsx."
        ) from None
    except zipfile.BadZipFile:
        raise WorkbookError(
            f"{name} n'est pas un classeur .xlsx lisible (fichier vide, tronqué, protégé par mot de passe ou d'un autre format)."
        ) from None
    except KeyError:
        raise WorkbookError(f"{name} est une archive zip qui ne contient pas de classeur Excel.") from None
    except (DefusedXmlException, ParseError, ValueError, TypeError, OSError) as exc:
        if _caused_by(exc, DefusedXmlException):
            raise WorkbookError(f"{name} contient des constructions XML interdites (entités) : fichier piégé "
                                "ou abîmé, il n'est pas lu.") from None
        raise WorkbookError(f"{name} est endommagé (XML invalide) et ne peut pas être lu.") from None


def _caused_by(exc: BaseException | None, kind: type) -> bool:
    while exc is not None:
        if isinstance(exc, kind):
            return True
        exc = exc.__cause__ or exc.__context__
    return False


class Book:
    """A workbook opened for reading and, maybe, writing back.

    Cells holding a formula are read through their value as last calculated by the spreadsheet
    program (a second, values-only load, made only when a formula is met).
    """

    def __init__(self, path: str | os.PathLike[str]):
        self.path = Path(path)
        #: What saving would drop (openpyxl cannot keep it), in French, for a warning.
        self.unkept = inspect_file(self.path)
        from .package import declares_entities

        if declares_entities(self.path):
            raise WorkbookError(f"{self.path.name} contient des constructions XML interdites (entités) : fichier "
                                "piégé ou abîmé, il n'est pas lu.")
        #: What a fill says of the workbook besides (one sentence each, in French).
        self.notes: list[str] = []
        self._wb: Workbook | None = None
        self._values: Workbook | None = None
        self._cached: dict | None = None  # formulas' last values, read by the surgical load
        self._surgery: Any = None  # the surgical writer (package.Surgery), when :meth:`own` could take that path

    @property
    def wb(self) -> Workbook:
        """openpyxl's model of the workbook: all of it, unless :meth:`own` loaded only what a fill needs."""
        if self._wb is None:
            self._wb = _load(self.path)
        return self._wb

    def own(self, owned, federation: str) -> bool:
        """Open for a fill that rewrites only ``owned`` (a :class:`.package.Owned`): the organiser's sheets
        are copied as they are when saving. False when the workbook needs the full rewrite (then the model
        is loaded whole, as before)."""
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
        self._wb = wb
        self.unkept = []  # nothing else is rewritten: every other part is copied as it is
        mixed = [name for name, has in foreign.items() if has]
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
        return self._values[cell.parent.title][cell.coordinate].value

    @property
    def federation(self) -> str | None:
        """The federation this workbook belongs to, as recorded by ``xlcircuit new``."""
        if self._wb is None:
            return _recorded_federation(self.path)
        props = self.wb.custom_doc_props
        return props[FEDERATION_PROPERTY].value if FEDERATION_PROPERTY in props.names else None

    @property
    def backup(self) -> Path:
        """Where the original is kept when an in-place save would drop what openpyxl cannot keep."""
        return self.path.with_name(f"{self.path.stem} (avant xlcircuit){self.path.suffix}")

    def save(self, target: str | os.PathLike[str] | None = None) -> Path:
        """Save atomically to ``target`` (default: where it was read).

        Saving in place a workbook with features openpyxl drops first copies the original to ``backup``.
        """
        target = Path(target) if target else self.path
        if target.suffix.lower() != self.path.suffix.lower():
            # A macro workbook saved as .xlsx, or the reverse, is a file Excel refuses to open.
            raise WorkbookError(f"{target.name} doit garder l'extension de {self.path.name} "
                                f"({self.path.suffix}) : choisissez un nom en {self.path.suffix}.")
        if self._surgery is not None:
            return save_atomic(self._surgery, target)
        if self.unkept and target.resolve() == self.path.resolve():
            shutil.copy2(self.path, self.backup)
        return save_atomic(self.wb, target)


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


def save_atomic(wb: Workbook, target: Path) -> Path:
    """Write to a temporary file beside ``target``, check it is a sound zip, then replace ``target``.

    If anything fails, ``target`` is left as it was.
    """
    target = Path(target)
    folder = target.parent if str(target.parent) else Path(".")
    try:
        handle, tmp_name = tempfile.mkstemp(prefix=f".{target.stem}-", suffix=".tmp", dir=folder)
    except FileNotFoundError:
        raise WorkbookError(f"Dossier introuvable : {folder}") from None
    except PermissionError:
        raise WorkbookError(f"Impossible d'écrire dans le dossier {folder} (droits insuffisants).") from None
    os.close(handle)
    tmp = Path(tmp_name)
    try:
        try:
            wb.save(tmp)
            with tmp.open("rb+") as written:
                os.fsync(written.fileno())  # on disk before it replaces the original
        except OSError as exc:
            raise WorkbookError(f"Impossible d'enregistrer {target.name} ({exc.strerror or exc}) : "
                                "l'original n'a pas été modifié.") from None
        with zipfile.ZipFile(tmp) as archive:
            broken = archive.testzip()
        if broken is not None:
            raise WorkbookError(f"L'enregistrement de {target.name} a produit un fichier abîmé ({broken}).")
        os.chmod(tmp, target.stat().st_mode & 0o777 if target.exists() else 0o666 & ~_umask())
        try:
            os.replace(tmp, target)
        except PermissionError:
            raise WorkbookError(
                f"{target.name} est ouvert dans un autre programme (Excel ?) : fermez-le et relancez."
            ) from None
    finally:
        tmp.unlink(missing_ok=True)
    return target
