"""Opening and saving workbooks safely: one clear sentence for a bad file, atomic saves,
and the mark that says which federation a workbook belongs to."""

from __future__ import annotations

import contextlib
import gc
import os
import warnings
import zipfile
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from xml.etree.ElementTree import ParseError

import openpyxl
from defusedxml import DefusedXmlException
from defusedxml import ElementTree as SafeET
from openpyxl.packaging.custom import StringProperty
from openpyxl.utils.exceptions import InvalidFileException
from openpyxl.workbook.workbook import Workbook

from ..rules.errors import WorkbookError
from .files import (
    _being_written,
    _being_written_error,
    _copy_new,
    _damaged,
    _digest,
    _read_only,
    _same_file,
    _stamp,
    lock_of,
    save_atomic,
)
from .ooxml import Unsupported
from .package import Package
from .plan import plan as plan_of
from .reduced import open_for_fill
from .safe import declares_entities, inspect_file
from .surgery import Surgery
from .unkept import _ours

#: Name of the custom document property holding the federation ("Fichier > Propriétés > Personnalisé").
FEDERATION_PROPERTY = "xlcircuit"


def _load(path: Path, data_only: bool = False, before: tuple[int, int] | None = None,
          read_only: bool = False) -> Workbook:
    """openpyxl's load, its errors turned into one French sentence (after :func:`inspect_file`).

    Whatever openpyxl raises on a damaged or foreign file (its readers assume well-formed parts) is a
    damaged file; a file another program rewrites meanwhile is said to be one.
    """
    name = path.name
    try:
        with warnings.catch_warnings():
            # openpyxl warns, in English, of the extensions it drops: inspect_file names them in French.
            warnings.simplefilter("ignore")
            return openpyxl.load_workbook(path, data_only=data_only, read_only=read_only,
                                          keep_vba=path.suffix.lower() == ".xlsm" and not read_only)
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


def read_values(path: str | os.PathLike[str]) -> Workbook:
    """A workbook xlcircuit only reads (an import's source): its cells' values, each formula's last calculated
    value, in openpyxl's read-only mode (rows parsed as they are iterated: close it after), once
    :func:`inspect_file` and the entity check have passed. A sheet read later may still be damaged: whoever
    iterates it words what openpyxl raises (:func:`damaged_sentence`)."""
    path = Path(path)
    before = _stamp(path)
    inspect_file(path)
    if declares_entities(path):
        raise WorkbookError(f"{path.name} contient des constructions XML interdites (entités) : fichier piégé "
                            "ou abîmé, il n'est pas lu.")
    return _load(path, data_only=True, before=before, read_only=True)


def damaged_sentence(name: str, exc: BaseException) -> str:
    """What to say of a file whose reading failed on ``exc`` (a damaged part met while reading it)."""
    if isinstance(exc, MemoryError):
        return f"{name} est trop gros pour la mémoire de cet ordinateur : il n'est pas lu."
    if _caused_by(exc, DefusedXmlException):
        return f"{name} contient des constructions XML interdites (entités) : fichier piégé ou abîmé, il n'est pas lu."
    return (f"{name} est endommagé et ne peut pas être lu ({_what(exc)}) : ouvrez-le dans votre tableur, "
            "enregistrez-le sous un autre nom, puis relancez.")


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
        self._surgery: Any = None  # the surgical writer (surgery.Surgery), when :meth:`own` could take that path

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
        """Open for a fill that rewrites only ``owned`` (a :class:`.plan.Owned`): the organiser's sheets
        are copied as they are when saving. False when the workbook needs the full rewrite (then the model
        is loaded whole, as before). ``ours`` tells the cells an earlier fill wrote outside its tables (their
        legends) from the organiser's, which the fill says it keeps."""

        if self._wb is not None:
            return False
        plan = None
        try:
            plan = plan_of(Package(self.path), owned)
            lost = [u for u in self.unkept if u.sheet in plan.owned and not _ours(u, plan)]
            if lost:
                return False
            wb, self._cached, foreign = open_for_fill(plan)
            self._surgery = Surgery(plan, wb, FEDERATION_PROPERTY, federation)
        except (Unsupported, ParseError, DefusedXmlException, KeyError, ValueError, TypeError,
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

