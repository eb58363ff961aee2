"""A workbook opened for a use (check, fill, share...): read once through the guarded reader, filled on the path
decided before anything is written, saved atomically; and the mark that says which federation it belongs to."""

from __future__ import annotations

import contextlib
import gc
import os
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from openpyxl.packaging.custom import StringProperty
from openpyxl.workbook.workbook import Workbook

from ..rules.errors import WorkbookError
from . import compat
from .files import _being_written_error, _copy_new, _read_only, _same_file, _stamp, file_digest, lock_of, save_atomic
from .files import changed_meanwhile as _changed_meanwhile
from .ooxml import Unsupported
from .parts import custom
from .plan import Plan
from .plan import plan as plan_of
from .readable import rewritten_sheet_problem
from .reduced import open_for_fill
from .route import FULL, SURGICAL, Route
from .safe import Opened, load_workbook
from .surgery import Surgery
from .unkept import _ours
from .validate import structure_problems

#: Name of the custom document property holding the federation ("Fichier > Propriétés > Personnalisé").
FEDERATION_PROPERTY = "xlcircuit"


class Book:
    """A workbook opened for reading and, maybe, writing back.

    Cells holding a formula are read through their value as last calculated by the spreadsheet
    program (a second, values-only load, made only when a formula is met).
    """

    def __init__(self, path: str | os.PathLike[str]):
        self.path = Path(path)
        #: Warnings for the organiser that are not the federation's (rows taken in under a table, --force).
        self.warnings: list[str] = []
        #: What a fill says of the workbook besides (one sentence each, in French).
        self.notes: list[str] = []
        self._file = Opened(self.path)
        #: What saving would drop (openpyxl cannot keep it), in French, for a warning.
        self.unkept = self._file.unkept
        if self._file.outside:
            names = ", ".join(f"« {name} »" for name in self._file.outside[:3])
            self.warnings.append(f"{len(self._file.outside)} partie(s) du fichier portent un nom qui sort du classeur "
                                 f"({names}) : elles ne sont pas recopiées dans le classeur écrit.")
        outside = [target for rels in self._file.outside_relations.values() for _, target in rels]
        if outside:
            names = ", ".join(f"« {name} »" for name in outside[:3])
            self.warnings.append(f"{len(outside)} relation(s) du fichier pointent hors du classeur ({names}) : elles "
                                 "ne sont pas recopiées dans le classeur écrit.")
        self._digest = self._file.digest
        self._before = self._file.stamp
        self._backup: Path | None = None
        self._wb: Workbook | None = None
        self._values: Workbook | None = None
        self._cached: dict | None = None  # formulas' last values, read by the surgical load
        self._surgery: Surgery | None = None  # the surgical writer, when :meth:`own` could take that path
        #: The fill's path (surgical, or full with its reason), decided by :meth:`own` before anything is written.
        self.route = Route(FULL, "le classeur est lu en entier")
        self._in_memory = False  # built by :meth:`in_memory`: no file behind it

    @classmethod
    def in_memory(cls, wb: Workbook, name: str) -> Book:
        """A workbook built in memory, named ``name`` in messages (the one open in xlwings Lite): read and filled
        as a file's, its formulas already values; never saved (:meth:`save` refuses: there is no file)."""
        book = cls.__new__(cls)
        book.path, book.warnings, book.unkept, book.notes = Path(name), [], [], []
        book._file = None  # type: ignore[assignment]
        book._digest, book._before = "", (0, 0)  # no file: nothing to compare a save with (it is refused)
        book._backup = book._values = book._cached = book._surgery = None
        book.route = Route(FULL, "le classeur ouvert dans Excel est lu en entier")
        book._wb, book._in_memory = wb, True
        return book

    @property
    def on_disk(self) -> bool:
        """Whether a file is behind this workbook (not one built in memory, as in xlwings Lite)."""
        return not self._in_memory

    def close(self) -> None:
        """Close the file read (a save needs it no more)."""
        if self._file is not None:
            self._file.close()

    @property
    def wb(self) -> Workbook:
        """openpyxl's model of the workbook: all of it, unless :meth:`own` loaded only what a fill needs."""
        if self._wb is None:
            self._wb = load_workbook(self._file)
            if _stamp(self.path) != self._before:
                raise _being_written_error(self.path.name)
            for ws in self._wb.worksheets:  # rewritten whole: a number openpyxl writes as nothing is refused
                problem = rewritten_sheet_problem(ws)
                if problem is not None:
                    raise self._file.package.damaged(f"feuille « {ws.title} » : {problem}")
        return self._wb

    @property
    def surgical(self) -> bool:
        """Whether a save writes only the output sheets (every other part copied as it is), rather than the
        whole workbook through openpyxl's model."""
        return self.route.kind == SURGICAL

    def own(self, owned, federation: str, ours: Callable[[Any], bool] | None = None) -> bool:
        """Open for a fill that rewrites only ``owned`` (a :class:`.plan.Owned`): the organiser's sheets
        are copied as they are when saving. False when the workbook needs the full rewrite (then the model
        is loaded whole, as before), :attr:`route` saying why. ``ours`` tells the cells an earlier fill wrote
        outside its tables (their legends) from the organiser's, which the fill says it keeps."""
        if self._wb is not None:
            self.route = Route(FULL, "le classeur entier était déjà lu")
            return False
        try:
            wb, cached, foreign, surgery = self._surgical(owned, federation)
        except Unsupported as exc:
            self.route = Route(FULL, str(exc))
            return False
        if _stamp(self.path) != self._before:
            raise _being_written_error(self.path.name)
        self._wb, self._cached, self._surgery = wb, cached, surgery
        self.route = Route(SURGICAL)
        self.unkept = []  # nothing else is rewritten: every other part is copied as it is
        mixed = [name for name, has in foreign.items() if has and any(
            cell.value is not None and not (ours and ours(cell)) for cell in wb[name]._cells.values())]
        if mixed:
            self.notes.append(f"{_sheets_phrase(mixed)} aussi des cellules à vous, hors des tables de xlcircuit : "
                              "elles sont gardées, mais réécrites (leurs formules sont recalculées à l'ouverture).")
        return True

    def _surgical(self, owned, federation: str) -> tuple[Workbook, dict, dict[str, bool], Surgery]:
        """What the surgical fill needs, every check made (:class:`Unsupported` and its reason when it cannot be
        taken; a damaged file is one sentence, as on the full path)."""
        reason = compat.refusal()
        if reason is not None:
            raise Unsupported(reason)
        the_plan = plan_of(self._file.package, owned)
        lost = [u for u in self.unkept if u.sheet in the_plan.owned and not _ours(u, the_plan)]
        if lost:
            raise Unsupported(f"la feuille « {lost[0].sheet} », réécrite par le remplissage, contient des "
                              f"{lost[0].what}")
        _check_encodings(self._file, the_plan)
        wb, cached, foreign = open_for_fill(the_plan)
        return wb, cached, foreign, Surgery(the_plan, wb, FEDERATION_PROPERTY, federation)

    def route_warning(self) -> str | None:
        """The line telling the organiser a fill took the full rewrite, why, and what it cannot keep."""
        return self.route.warning(self.unkept)

    def value(self, cell) -> object:
        """What a cell shows: its value, or for a formula its last calculated value."""
        if cell.data_type != "f":
            return cell.value
        if self._cached is not None:
            key = (cell.parent.title, cell.row, cell.column)
            if key in self._cached:
                return self._cached[key]
        if self._values is None:
            self._values = load_workbook(self._file, data_only=True)
        try:
            return self._values[cell.parent.title][cell.coordinate].value
        except KeyError:  # the file changed between the two loads
            raise _being_written_error(self.path.name) from None

    @property
    def federation(self) -> str | None:
        """The federation this workbook belongs to, as recorded by ``xlcircuit new``."""
        if self._wb is None:
            return _recorded_federation(self._file)
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
        if file_digest(self.path) != self._digest:
            raise _changed_meanwhile(self.path.name)

    def save(self, target: str | os.PathLike[str] | None = None, force: bool = False) -> Path:
        """Save atomically to ``target`` (default: where it was read; through a link, the file it points to).

        Refuses a target a spreadsheet program has open (its lock file beside it: ``force`` passes over a
        stale one, with a warning; one appearing during the save is honoured), a read-only target, and, in place,
        a workbook changed on disk since it was read (also at the very moment of the replacement: another
        program's save is put back). Saving in place a workbook with features openpyxl drops first copies the
        original to a new :attr:`backup` (never one overwritten).
        """
        if self._in_memory:
            raise WorkbookError(f"{self.path.name} est ouvert dans Excel : c'est Excel qui l'enregistre.")
        target = Path(target) if target else self.path
        if target.suffix.lower() != self.path.suffix.lower():
            # A macro workbook saved as .xlsx, or the reverse, is a file Excel refuses to open.
            raise WorkbookError(f"{target.name} doit garder l'extension de {self.path.name} "
                                f"({self.path.suffix}) : choisissez un nom en {self.path.suffix}.")
        in_place = _same_file(target, self.path)
        passed = self._check_writable(target, force) if target.exists() else set()
        if in_place:
            self._check_unchanged()
            if self.unkept and self._surgery is None:
                self._backup = _copy_new(self.path, self._backup_names())
        # The surgical writer when the fill could take that path: only the output sheets are written anew.
        writer = self._surgery if self._surgery is not None else self.wb

        def last_checks() -> None:  # the new workbook is written: just before it takes the target's place
            self._check_no_new_lock(target, passed)
            if in_place:
                self._check_unchanged()
            if os.name == "nt":  # Windows replaces no file another handle holds open
                self.close()

        with paused_gc():
            return save_atomic(writer, target, last_checks, self._digest if in_place else None,
                               lambda written: self._no_more_damaged(written, target.name))

    def _no_more_damaged(self, written: Path, name: str) -> None:
        """Refuse a written workbook Excel would repair where it would not repair the one read (a part without
        its content type, a relationship to a part that is not there...): never an output more damaged than
        its input."""
        with zipfile.ZipFile(written) as archive:
            new = structure_problems(archive) - structure_problems(self._file.zip)
        if new:
            raise WorkbookError(f"L'enregistrement de {name} aurait abîmé le classeur ({sorted(new)[0]}) : rien n'a "
                                "été écrit, l'original n'a pas été modifié.")

    def _check_writable(self, target: Path, force: bool) -> set[Path]:
        """Refuse a read-only target or one a spreadsheet program has open; the stale locks ``force`` passed."""
        if _read_only(target):
            raise WorkbookError(f"{target.name} est en lecture seule : rien n'a été écrit (enlevez la lecture "
                                "seule dans les propriétés du fichier, ou écrivez ailleurs avec -o).")
        lock = _lock(target)
        if lock and not force:
            raise _opened_in(target, lock)
        if lock:
            self.warnings.append(f"--force : le verrou « {lock[0].name} » de {lock[1]} est passé outre ; si "
                                 f"{target.name} y est encore ouvert, fermez-le sans l'enregistrer, sinon cet "
                                 "enregistrement écraserait le remplissage.")
            return {lock[0]}
        return set()

    def _check_no_new_lock(self, target: Path, passed: set[Path]) -> None:
        """Refuse the replacement when a spreadsheet program opened the target during the save."""
        lock = _lock(target)
        if lock and lock[0] not in passed:
            raise _opened_in(target, lock)


def _lock(target: Path) -> tuple[Path, str] | None:
    """The lock beside ``target``, or beside the file a link ``target`` points to."""
    return lock_of(target) or lock_of(Path(os.path.realpath(target)))


def _opened_in(target: Path, lock: tuple[Path, str]) -> WorkbookError:
    return WorkbookError(f"{target.name} est ouvert dans {lock[1]} (verrou « {lock[0].name} ») : rien n'a été écrit ; "
                         "fermez-le, puis relancez (--force si le verrou est resté après une panne).")


def _check_encodings(opened: Opened, the_plan: Plan) -> None:
    """The engine's byte-level readers and patches read UTF-8: a part in another encoding takes openpyxl."""
    if opened.encodings:
        part, encoding = next(iter(opened.encodings.items()))
        raise Unsupported(f"la partie {part} est en {encoding}, pas en UTF-8")


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


def _recorded_federation(opened: Opened) -> str | None:
    """The federation mark read from the custom properties without loading the workbook."""
    package = opened.package
    part = next((r.part for r in package.rels("") if r.type.endswith("/custom-properties") and not r.external), None)
    if part is None or part not in package.names:
        return None
    try:
        return custom.value(package.read(part), FEDERATION_PROPERTY, part)
    except Unsupported:
        return None


def mark_federation(wb: Workbook, federation: str) -> None:
    """Record in the workbook which federation it belongs to, so ``fill`` needs no flag."""
    props = wb.custom_doc_props
    if FEDERATION_PROPERTY in props.names:
        props[FEDERATION_PROPERTY].value = federation
    else:
        props.append(StringProperty(name=FEDERATION_PROPERTY, value=federation))
