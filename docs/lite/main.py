# xlcircuit 0.1.0 pour xlwings Lite (écrit par « xlcircuit excel lite ») : les fonctions Excel, et
# les scripts « Vérifier » et « Remplir » du menu Exécuter (Run) de xlwings Lite.
# Ce fichier contient tout le code de xlcircuit qu'ils utilisent ; l'onglet requirements.txt nomme le reste
# (xlwings, openpyxl, defusedxml). Ne le modifiez pas ; pour changer de version,
# remplacez tout son contenu par celui d'une autre version.

XLCIRCUIT_VERSION = "0.1.0"

#: module -> (is a package, its source), as in xlcircuit's source tree (each source after a newline).
_SOURCES = {}

# --- xlcircuit/__init__.py ---------------------------------------------------------------------------
_SOURCES['xlcircuit'] = True, r'''
"""xlcircuit: French game federations' tournament circuits, computed from Excel workbooks.

The pure core (one module per federation, plus :mod:`xlcircuit.mechanics`) uses the standard
library only; :mod:`xlcircuit.workbook` (openpyxl), :mod:`xlcircuit.udfs` (xlwings) and
:mod:`xlcircuit.cli` are thin adapters around it.
"""

__version__ = "0.1.0"  # the one version source (pyproject.toml reads it)


def main() -> None:
    """The starter workbook's SampleCall macro runs this (``import xlcircuit; xlcircuit.main()``): every formula
    is recalculated, so that the functions just imported replace their #NOM? (:mod:`xlcircuit.excel.macros`)."""
    from .excel.macros import recalculate

    recalculate()
'''

# --- xlcircuit/app/__init__.py -----------------------------------------------------------------------
_SOURCES['xlcircuit.app'] = True, r'''
"""The use cases, each written once for the command line and the window alike.

Each takes plain arguments (paths, a federation code, options) and a ``progress`` callback, and returns an
:class:`~.outcome.Outcome`: the lines to show, the warnings (« À vérifier »), the located problems, the
files written, and for a fill the path taken. ``cli.py`` prints it, ``gui.py`` draws it; :func:`.outcome.run`
turns every error xlcircuit raises on purpose into an outcome too, so neither face words an error itself.

- :mod:`.new`: a fresh season workbook from a federation's template;
- :mod:`.check` and :mod:`.fill`: read and check every input table; compute and write the published tables;
- :mod:`.share`: one workbook per club, the standings as PDF, every published table as CSV;
- :mod:`.explain`: a player's points, result by result, as text, a workbook or a PDF;
- :mod:`.schedule`: TORRES' calendar;
- :mod:`.demo`: every federation's example, written and filled.
"""

from .outcome import Outcome, Progress, quiet, run, visible

__all__ = ["Outcome", "Progress", "quiet", "run", "visible"]
'''

# --- xlcircuit/app/common.py -------------------------------------------------------------------------
_SOURCES['xlcircuit.app.common'] = False, r'''
"""What several use cases say alike: the summary lines, the hint for empty tables, what a full rewrite
cannot keep."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..federations import adapter_of
from ..workbook.adapter import Adapter
from ..workbook.read import read_table
from ..workbook.spec import Problems
from ..xlsx import Book


def open_book(path: Path, federation: str | None) -> tuple[Book, Adapter]:
    """The workbook at ``path`` and the adapter of its federation (or of the one asked for)."""
    book = Book(path)
    return book, adapter_of(book, federation or None)


def summary_lines(adapter: Adapter, summary: Any, title: str) -> list[str]:
    """``title : <the verdict's end>``, then the top of the standings (the federation's report)."""
    first, *rest = adapter.report(summary)
    return [f"{title} : {first}", *rest]


def empty_hint(book: Book, adapter: Adapter) -> list[str]:
    """What to do when the input tables have no row yet (a fill then publishes empty tables)."""
    empty = [spec for spec in adapter.inputs if spec.required and not read_table(book, spec, Problems())]
    if not empty:
        return []
    names = [f"« {spec.sheet} »" for spec in empty]
    which = (f"les tables {', '.join(names[:-1])} et {names[-1]} sont vides" if len(names) > 1
             else f"la table {names[0]} est vide")
    front: str = book.wb.worksheets[0].title
    return [f"Rien à classer : {which}. Ouvrez {book.path.name} dans Excel ou LibreOffice, tapez-y vos "
            f"lignes (la feuille « {front} » l'explique), enregistrez, puis relancez."]


def unkept_warnings(book: Book, target: Path | None) -> list[str]:
    """The warning for what openpyxl cannot keep, if the workbook has any (``target``: where it was saved)."""
    if not book.unkept:
        return []
    what = ", ".join(map(str, book.unkept))
    if target is None:
        fate = "un remplissage les perdrait (l'original serait gardé à part)"
    elif target.resolve() == book.path.resolve():
        fate = f"ils manquent dans le classeur rempli ; l'original est gardé dans « {book.backup.name} »"
    else:
        fate = f"ils manquent dans {target.name} ; {book.path.name} n'est pas modifié"
    return [f"ce classeur contient des éléments qu'openpyxl ne sait pas conserver : {what} ; {fate}."]


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n > 1 else ''}"
'''

# --- xlcircuit/app/files.py --------------------------------------------------------------------------
_SOURCES['xlcircuit.app.files'] = False, r'''
"""Files the use cases write besides workbooks (CSV, PDF, text), each whole or not at all, with names every file
system takes; and why one could not be written, in French.

A file is written into a temporary file beside it, flushed to disk, then put in its place by one rename, as the
workbook engine saves workbooks (``xlsx.save_atomic``): a full disk, a Ctrl-C or a crash leaves the file as it
was, never cut short. Temporary files are named as the engine names its own (``.NAME.xlcircuit-HOST-PID-XXXX.tmp``),
so that the next run removes what a killed one left.
"""

from __future__ import annotations

import errno
import os
import re
import secrets
import shutil
import socket
import stat
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import IO

_HOST = re.sub(r"[^A-Za-z0-9]", "", socket.gethostname())[:20] or "h"


def _short(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` bytes of UTF-8, at a character's boundary."""
    return text.encode("utf-8")[:limit].decode("utf-8", "ignore")


def write_whole(target: Path, write: Callable[[IO[bytes]], None]) -> Path:
    """Write ``target`` whole or not at all: ``write`` fills a temporary file beside it, which then replaces it.

    On any failure (a full disk, a Ctrl-C), ``target`` is as it was and the temporary file is gone."""
    folder = target.parent if str(target.parent) else Path(".")
    folder.mkdir(parents=True, exist_ok=True)
    temporary = folder / f".{_short(target.name, 60)}.xlcircuit-{_HOST}-{os.getpid()}-{secrets.token_hex(4)}.tmp"
    try:
        with open(temporary, "xb") as stream:  # created with the user's usual permissions (umask)
            write(stream)
            stream.flush()
            os.fsync(stream.fileno())
        if target.exists():
            os.chmod(temporary, stat.S_IMODE(target.stat().st_mode))
        os.replace(temporary, target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return target


def write_text_whole(target: Path, text: str, encoding: str = "utf-8") -> Path:
    """Write ``text`` into ``target``, whole or not at all."""
    data = text.encode(encoding)

    def put(stream: IO[bytes]) -> None:
        stream.write(data)

    return write_whole(target, put)


def copy_whole(source: Path, target: Path) -> Path:
    """Copy ``source`` (a file made elsewhere: a PDF in a temporary folder) to ``target``, whole or not at all."""
    def copy(stream: IO[bytes]) -> None:
        with open(source, "rb") as read:
            shutil.copyfileobj(read, stream)

    return write_whole(target, copy)


#: Characters no file system takes in a name: those Windows refuses, and control characters.
_UNSAFE = re.compile(r'[<>:"/\\|?*\x00-\x1f\x7f-\x9f]+')
#: Names Windows reserves, whatever their extension.
_RESERVED = {"con", "prn", "aux", "nul"} | {f"{p}{i}" for p in ("com", "lpt") for i in range(1, 10)}
#: The longest name made here, in bytes of UTF-8: file systems take 255, and the temporary file beside it and a
#: « (2) » need room (an accented or Asian name takes two to four bytes a character).
MAX_NAME_BYTES = 120


def safe_filename(name: str, limit: int = 80, fallback: str = "club") -> str:
    """A file name every file system takes, that still reads like ``name`` (``A/B: "C"`` -> ``A_B_ _C_``): control
    characters and those Windows refuses replaced, invisible formatting characters (a right-to-left override
    that would show ``exe.txt`` as ``txt.exe``) dropped, at most ``limit`` characters and
    :data:`MAX_NAME_BYTES` bytes, never a name Windows reserves."""
    text = "".join(c for c in name if unicodedata.category(c) not in ("Cf", "Zl", "Zp"))
    text = _UNSAFE.sub("_", text).strip().rstrip(". ")[:limit]
    text = _short(text, MAX_NAME_BYTES).rstrip(". ")
    if not text or text.strip("_ ") == "":
        text = fallback
    if text.split(".")[0].strip().lower() in _RESERVED:
        text = f"_{text}"
    return text


#: Why a file could not be written, by the system's error number, in French.
_WHY = {
    errno.ENOSPC: "disque plein", getattr(errno, "EDQUOT", -1): "quota du disque dépassé",
    errno.EACCES: "droits insuffisants", errno.EPERM: "droits insuffisants", errno.EROFS: "disque en lecture seule",
    errno.ENAMETOOLONG: "nom trop long", errno.EIO: "erreur du disque", errno.ENOENT: "dossier introuvable",
    errno.ENOTDIR: "dossier introuvable", errno.EISDIR: "un dossier porte déjà ce nom",
}


def why(error: BaseException) -> str:
    """Why a file could not be written, in a few French words."""
    if isinstance(error, OSError):
        return _WHY.get(error.errno or 0, error.strerror or str(error))
    return str(error).rstrip(".")
'''

# --- xlcircuit/app/outcome.py ------------------------------------------------------------------------
_SOURCES['xlcircuit.app.outcome'] = False, r'''
"""What a use case ends with (:class:`Outcome`), and :func:`run`, which turns the errors xlcircuit raises
on purpose into an outcome as well: one French sentence, never a traceback."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..rules.errors import Problem, WorkbookProblems, XlcircuitError

#: Told the name of each step as the work reaches it (``lecture``, ``calcul``, ``écriture``…).
Progress = Callable[[str], None]


def quiet(step: str) -> None:
    """The progress of work nobody watches."""


#: The fill's two paths: only xlcircuit's sheets rewritten, every other part copied byte for byte; or the
#: whole workbook rewritten through openpyxl's model (when an output sheet holds what the first cannot place).
SURGICAL, FULL = "surgical", "full"


#: What a terminal obeys or a text display reorders rather than shows: control characters (but line feed and
#: tab), bidirectional overrides and isolates, line and paragraph separators. A name from a workbook holding
#: them could retitle the terminal, erase a line or reverse what follows; each is shown as its escape instead
#: (``\x1b``, ``\u202e``), in ASCII, which every code page prints.
_INVISIBLE = {code: f"\\x{code:02x}" for code in (*range(0x20), 0x7F, *range(0x80, 0xA0))
              if chr(code) not in "\n\t"}
_INVISIBLE |= {code: f"\\u{code:04x}"
               for code in (0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x2028, 0x2029)}


def visible(text: str) -> str:
    """``text`` safe to print or show: every character of :data:`_INVISIBLE` written as its escape."""
    return text.translate(_INVISIBLE)


@dataclass
class Outcome:
    """What a use case ends with, for the organiser."""

    lines: list[str] = field(default_factory=list)  # the summary, the files written, a hint
    warnings: list[str] = field(default_factory=list)  # « À vérifier »: after the summary
    problems: list[Problem] = field(default_factory=list)  # located problems: nothing was written
    error: str | None = None  # why nothing (or not everything) was done, in one sentence or a few lines
    result: Path | None = None  # what « Ouvrir le résultat » opens: the workbook filled, the folder shared
    route: str | None = None  # a fill's path: SURGICAL or FULL
    status: int = 0  # the command line's exit status: 0 done, 1 a problem (reported)
    #: The lock file that stopped a fill (a spreadsheet program has the workbook open, or had it when it
    #: crashed): the window then offers to go on anyway, as ``--force`` does.
    lock: Path | None = None

    @property
    def failed(self) -> bool:
        return self.status != 0

    def visible(self) -> Outcome:
        """This outcome with every text safe to print or show (:func:`visible`): what the faces display."""
        return replace(
            self, lines=[visible(line) for line in self.lines], warnings=[visible(w) for w in self.warnings],
            error=None if self.error is None else visible(self.error),
            problems=[replace(p, sheet=visible(p.sheet), column=None if p.column is None else visible(p.column),
                              message=visible(p.message), cell=None if p.cell is None else visible(p.cell))
                      for p in self.problems])


def problems_sentence(count: int) -> str:
    """The first line of a list of located problems."""
    return f"{count} problème{'s' if count > 1 else ''} dans le classeur"


def run(action: Callable[[], Outcome]) -> Outcome:
    """``action()``, its deliberate errors turned into an outcome with status 1 (problems, or one sentence).
    Anything else is a bug and propagates: each face reports it its own way."""
    try:
        return action()
    except WorkbookProblems as exc:
        return Outcome(problems=exc.problems, error=problems_sentence(len(exc.problems)), status=1)
    except XlcircuitError as exc:
        return Outcome(error=str(exc), status=1)
    except OSError as exc:  # a folder that is a file, a full disk...: one sentence, not a traceback
        from .files import why

        return Outcome(error=f"Impossible de lire ou d'écrire {exc.filename or ''} ({why(exc)}).", status=1)
'''

# --- xlcircuit/excel/__init__.py ---------------------------------------------------------------------
_SOURCES['xlcircuit.excel'] = True, r'''
"""The Excel functions: their registry (:mod:`.registry`, pure data), their xlwings declarations
(:mod:`.udfs`, the only importer of xlwings) and the texts made from the registry (:mod:`.reference`:
xlwings Lite's files, ``docs/fonctions.md``). The starter workbook is in :mod:`xlcircuit.workbook.starter`."""
'''

# --- xlcircuit/excel/macros.py -----------------------------------------------------------------------
_SOURCES['xlcircuit.excel.macros'] = False, r'''
"""The starter workbook's macro. xlwings' quickstart template, which the starter workbook keeps (its VBA project
holds the reference to the xlwings add-in that the imported functions need), has one macro, ``SampleCall``: it
runs ``import NAME; NAME.main()`` with NAME the workbook's name, ``xlcircuit`` (``xlcircuit.xlsm``). So
``xlcircuit.main()`` is this module's :func:`recalculate`: after Import Functions, it recomputes every formula
(what Ctrl+Alt+F9 does), so that no cell stays #NOM?."""

from __future__ import annotations


def recalculate() -> None:
    """Recalculate every formula of every open workbook, from scratch (Excel's CalculateFull, Ctrl+Alt+F9)."""
    import xlwings as xw

    xw.Book.caller().app.api.CalculateFull()
'''

# --- xlcircuit/excel/openbook.py ---------------------------------------------------------------------
_SOURCES['xlcircuit.excel.openbook'] = False, r'''
"""The workbook open in Excel, as xlwings Lite's scripts receive it, checked and filled by the batch mode's own
code, and what the fill changed written back through xlwings' object model.

xlwings Lite hands a script the open workbook as xlwings' remote book: the JSON its add-in sends (every sheet's
values, formulas as their last calculated values, dates as dates; every table's name and range), wrapped in the
object model, where every write is recorded as an action that Lite runs in Excel once the script returns. Here:

- :func:`read` turns that book into an openpyxl workbook in memory (:meth:`xlcircuit.xlsx.Book.in_memory`),
  so that a federation's adapter reads it exactly as it reads a file (tables by name and header, rows typed
  under a table, ordinals, blanks) and fills it through the shared procedure;
- :func:`adapter_of` finds the federation from its tables: the remote book carries no document properties, where
  the batch mode reads the federation ``xlcircuit new`` records;
- :func:`write_fill` compares the filled sheets with what Excel showed and writes, through the object model, what
  the fill changed on its own sheets (values, tables, number formats, fills and fonts): every other sheet, and
  every cell of the organiser's on xlcircuit's sheets, is left as it is;
- :func:`write_report` rewrites the « À vérifier » sheet with the verdict, the problems and what to look at.

Excel takes each value as if it were typed: a text is written after an apostrophe (Excel's mark for "this is
text"), so that a name like ``=HYPERLINK(…)``, ``1/2`` or ``mars 2025`` stays the text the fill wrote.
"""

from __future__ import annotations

import datetime as dt
import itertools
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import openpyxl
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE, Cell
from openpyxl.utils import get_column_letter, range_boundaries
from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.table import Table
from openpyxl.worksheet.worksheet import Worksheet

from ..app.common import plural, summary_lines
from ..app.outcome import problems_sentence
from ..federations import ADAPTERS
from ..rules.errors import WorkbookError, WorkbookProblems, XlcircuitError
from ..rules.mechanics import round_half_up
from ..rules.text import fold
from ..workbook.adapter import Adapter
from ..workbook.layout import MAX_NOTE_ROWS, NOTE_FONT, column_points, is_note
from ..workbook.read import bounds, find_table, read_table
from ..workbook.spec import Problems
from ..xlsx import Book

#: The sheet the scripts write their report on (rewritten at each run).
REPORT_SHEET = "À vérifier"
#: Excel's default font, as openpyxl writes it: a look is what differs from it.
DEFAULT_SIZE = 11.0

Area = tuple[int, int, int, int]  # first column, first row, last column, last row (1-based)
Grid = dict[tuple[int, int], object]  # (row, column) -> a value that is not blank
T = TypeVar("T")


# --- reading -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TableAt:
    """A table of the open workbook: its name, its sheet, its range (``A1:E20``)."""

    name: str
    sheet: str
    ref: str
    totals: bool = False

    @property
    def area(self) -> Area:
        area: Area = range_boundaries(self.ref)
        return area


@dataclass
class Opened:
    """What the workbook open in Excel showed when the script started."""

    name: str
    sheets: list[str]
    tables: list[TableAt]
    values: dict[str, Grid] = field(default_factory=dict)  # sheet -> its cells, for the sheets read

    def table(self, name: str) -> TableAt | None:
        """The table called ``name`` (Excel compares table names without case)."""
        return next((t for t in self.tables if t.name.casefold() == name.casefold()), None)


def read(xlbook: Any) -> tuple[Book, Opened]:
    """The open workbook (an ``xlwings.Book`` given to a Lite script) as a :class:`~xlcircuit.xlsx.Book` in
    memory, and what it showed. Only the sheets a fill reads or writes are read cell by cell: those holding a
    table (every input table is on one) and those a federation puts its output tables on (a fill must see what
    stands there); the organiser's other sheets are none of its business."""
    opened = Opened(str(xlbook.name), [], [])
    sheets = {}
    for sheet in xlbook.sheets:
        opened.sheets.append(sheet.name)
        sheets[sheet.name] = sheet
        opened.tables += [TableAt(str(t.name), sheet.name, str(t.range.address).replace("$", ""),
                                  bool(t.show_totals)) for t in sheet.tables]
    outputs = _output_sheets()
    for name in dict.fromkeys([t.sheet for t in opened.tables] + [s for s in opened.sheets if s in outputs]):
        opened.values[name] = _values(sheets[name])
    return Book.in_memory(_workbook(opened), opened.name), opened


def _output_sheets() -> set[str]:
    """The sheets any federation puts its output tables on when a workbook does not have them yet."""
    names = set()
    for adapter in ADAPTERS.values():
        rewritten = adapter.steps.ownership
        names |= set(rewritten.tables.values()) | set(rewritten.sheets) | {rewritten.pattern_sheet or ""}
    return names - {""}


def _values(sheet: Any) -> Grid:
    """A sheet's cells as Excel shows them: formulas as their values, errors as their text (``#N/A``), dates as
    dates, empty cells left out."""
    sent = sheet.api.get("values") or []  # the remote book's own JSON: the values the add-in sent, from A1
    rows, columns = len(sent), max((len(row) for row in sent), default=0)
    if not rows or not columns:
        return {}
    values = sheet.range((1, 1), (rows, columns)).options(ndim=2, err_to_str=True).value
    return {(r, c): v for r, row in enumerate(values, start=1) for c, v in enumerate(row, start=1) if v is not None}


def _workbook(opened: Opened) -> Workbook:
    """An openpyxl workbook holding what Excel showed: the sheets in order, their values, their tables."""
    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    for name in opened.sheets:
        ws = wb.create_sheet(name)
        cells = ws._cells
        for (row, col), value in opened.values.get(name, {}).items():
            if isinstance(value, str):  # what a cell of a file cannot hold (XML forbids it) is left out, as there
                value = ILLEGAL_CHARACTERS_RE.sub("", value)
            cell = Cell(ws, row=row, column=col, value=value)
            if cell.data_type == "f":  # a text starting with "=" is what Excel showed, not a formula
                cell.data_type = "s"
            cells[row, col] = cell
    for found in opened.tables:
        table = Table(displayName=found.name, ref=found.ref)
        if found.totals:
            table.totalsRowCount = 1
        wb[found.sheet].tables.add(table)  # not add_table, which makes a cell of every cell of the range
    return wb


# --- which federation ----------------------------------------------------------------------------------


def _headers(wb: Workbook, name: str) -> set[str] | None:
    """The folded header texts of the table called ``name``; None if the workbook has no such table."""
    found = find_table(wb, name)
    area = bounds(found[1]) if found else None
    if found is None or area is None:
        return None
    ws = found[0]
    return {fold(str(cell.value)) for col in range(area[0], area[2] + 1)
            if (cell := ws._cells.get((area[1], col))) is not None and cell.value is not None}


def _score(wb: Workbook, adapter: Adapter) -> tuple[bool, float, int]:
    """How well the workbook's tables fit a federation: (all its required input tables there with their required
    columns, the share of its input tables' columns found under their names, how many of its tables are there)."""
    whole, found, columns = True, 0, 0
    for spec in adapter.inputs:
        headers = _headers(wb, spec.name) or set()
        whole = whole and (not spec.required or all(fold(c.header) in headers for c in spec.columns if c.required))
        found += sum(fold(c.header) in headers for c in spec.columns)
        columns += len(spec.columns)
    names = [spec.name for spec in adapter.inputs] + list(adapter.steps.rewritten.tables)
    return whole, found / columns, sum(find_table(wb, name) is not None for name in names)


def adapter_of(book: Book) -> Adapter:
    """The federation whose tables the workbook has: its input tables, found by name and header as a fill finds
    them (what distinguishes the five templates); when none has them all, the closest, whose check then names
    what is missing. One sentence when no federation's table is there, or when two fit alike."""
    scores = {code: _score(book.wb, adapter) for code, adapter in ADAPTERS.items()}
    best = max(scores.values())
    if not best[2]:
        raise WorkbookError(f"{book.path.name} n'a aucune table d'un classeur xlcircuit (Tournois, Résultats, "
                            "Parties, Matchs…) : partez d'un classeur fait par « xlcircuit new » (ou de l'exemple de "
                            "votre fédération), qui a ses tables de saisie.")
    tied = [code for code, score in scores.items() if score == best]
    if len(tied) > 1:
        names = " et ".join(f"« {ADAPTERS[code].title} »" for code in tied)
        raise WorkbookError(f"{book.path.name} a les tables de plusieurs fédérations ({names}) : gardez celles "
                            "de la vôtre seulement, puis relancez.")
    return ADAPTERS[tied[0]]


# --- writing: the look of a cell, and what Excel is told ------------------------------------------------

#: The most areas of one kind of look (a fill colour, a font) written one by one: Excel runs each as a round trip,
#: and a season marks thousands of scattered cells. Beyond, that look is left to the desktop tool (and said).
MAX_AREAS = 200
#: The most cells xlwings' ``Range.set_colors`` takes at once (xlwings 0.37.5 and later: a table's fills in a few
#: actions, however scattered).
MAX_COLOURED = 10_000


@dataclass(frozen=True)
class Font:
    """A cell's font where it differs from a plain one."""

    bold: bool = False
    italic: bool = False
    size: float | None = None
    color: str | None = None  # "#RRGGBB"


PLAIN = Font()


def _rgb(color: Any) -> str | None:
    """``#RRGGBB`` of an openpyxl colour given as RGB (a theme colour is the default look: None)."""
    if color is None or getattr(color, "type", None) != "rgb" or not isinstance(color.rgb, str):
        return None
    return f"#{color.rgb[-6:]}"


class Looks:
    """The looks the fill gave cells (fill colour, font, number format), each style of the workbook worked out
    once: a season's tables have tens of thousands of cells and a handful of styles."""

    def __init__(self) -> None:
        self._fills: dict[int, str | None] = {}
        self._fonts: dict[int, tuple[Font, bool]] = {}
        self._formats: dict[int, str] = {}

    def fill(self, cell: Cell) -> str | None:
        """The fill colour (the podium, a mark), ``#RRGGBB``."""
        if not cell.has_style:
            return None
        key = cell._style.fillId
        if key not in self._fills:
            self._fills[key] = _rgb(cell.fill.fgColor) if cell.fill.fill_type == "solid" else None
        return self._fills[key]

    def font(self, cell: Cell) -> tuple[Font, bool]:
        """The font (titles, legends, marks), and whether its text is struck through."""
        if not cell.has_style:
            return PLAIN, False
        key = cell._style.fontId
        if key not in self._fonts:
            font = cell.font
            size = float(font.sz) if font.sz is not None and float(font.sz) != DEFAULT_SIZE else None
            self._fonts[key] = Font(bool(font.b), bool(font.i), size, _rgb(font.color)), bool(font.strike)
        return self._fonts[key]

    def number_format(self, cell: Cell) -> str:
        if not cell.has_style:
            return "General"
        key = cell._style.numFmtId
        if key not in self._formats:
            self._formats[key] = cell.number_format
        return self._formats[key]


def typed(value: object) -> object:
    """A value as Excel must be given it, as xlwings' converters give it: a blank as ``""``, a date as its ISO text
    (``2025-10-04``, or ``2025-10-04 18:30:00`` with a time), which Excel reads as a date; and a text after an
    apostrophe, so that it stays that very text (``=HYPERLINK(…)``, ``1/2``, ``mars 2025``)."""
    if value is None:
        return ""
    if isinstance(value, str):
        return "'" + value
    if isinstance(value, dt.datetime):
        return value.date().isoformat() if value.time() == dt.time() else value.replace(tzinfo=None).isoformat(" ")[:19]
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, dt.time):
        return value.isoformat()
    return value


def _same(a: object, b: object) -> bool:
    """Whether Excel would show the same thing (1 and 1.0 alike; a text never equals a number, nor True 1)."""
    return (type(a) is type(b) and a == b) or (type(a) in (int, float) and type(b) in (int, float) and a == b)


def address(area: Area) -> str:
    first = f"{get_column_letter(area[0])}{area[1]}"
    return first if area[:2] == area[2:] else f"{first}:{get_column_letter(area[2])}{area[3]}"


def runs(cells: Iterable[tuple[int, int]]) -> list[Area]:
    """Cells as areas: each row's runs of adjacent columns, merged with the same run on the rows below."""
    by_row: dict[int, list[int]] = {}
    for row, col in sorted(cells):
        by_row.setdefault(row, []).append(col)
    done: list[Area] = []
    growing: dict[tuple[int, int], Area] = {}  # (first column, last column) -> the area growing down
    for row, cols in by_row.items():
        for _, group in itertools.groupby(enumerate(cols), key=lambda pair: pair[1] - pair[0]):
            columns = [col for _, col in group]
            first, last = columns[0], columns[-1]
            grown = growing.get((first, last))
            if grown is not None and grown[3] == row - 1:
                growing[first, last] = (first, grown[1], last, row)
                continue
            if grown is not None:
                done.append(grown)
            growing[first, last] = (first, row, last, row)
    return done + list(growing.values())


def column_runs(values: Sequence[T]) -> Iterator[tuple[int, int, T]]:
    """(first offset, last offset, value) of each run of equal values."""
    start = 0
    for offset in range(1, len(values) + 1):
        if offset == len(values) or values[offset] != values[start]:
            yield start, offset - 1, values[start]
            start = offset


def _can_set(rng: Any, name: str) -> bool:
    """Whether this xlwings' remote range sets ``name`` (``column_width`` came with xlwings 0.36): an older one
    inherits xlwings' abstract property, which refuses."""
    for kind in type(getattr(rng, "impl", None)).__mro__:
        attribute = vars(kind).get(name)
        if attribute is not None:
            return kind.__module__ != "xlwings.base_classes" and isinstance(attribute, property) \
                and attribute.fset is not None
    return False


class Excel:
    """The open workbook, written through xlwings' object model. A sheet is looked up by name at each use: the
    object model numbers sheets when it makes them, and adding or removing one renumbers the others."""

    def __init__(self, xlbook: Any):
        self.book = xlbook

    def has(self, sheet: str) -> bool:
        return sheet in [s.name for s in self.book.sheets]

    def range(self, sheet: str, area: Area) -> Any:
        return self.book.sheets[sheet].range(address(area))

    def add_sheet(self, name: str, after: str | None) -> None:
        """A new sheet ``name``, after the sheet ``after`` (at the end if None)."""
        sheets = self.book.sheets
        if after is not None and self.has(after):
            sheets.add(name, after=sheets[after])
        else:
            sheets.add(name, after=sheets[len(sheets) - 1] if len(sheets) else None)

    def delete_sheet(self, name: str) -> None:
        self.book.sheets[name].delete()

    def put(self, sheet: str, area: Area, grid: Grid) -> None:
        """Write ``area`` from ``grid`` (a blank where it has nothing), each value as Excel must be given it
        (:func:`typed`), straight to the engine: xlwings' converters would cost a season's fill a second."""
        get, plain = grid.get, (int, float, bool)
        rows = [[value if (value := get((r, c))).__class__ in plain else typed(value) for c in range(area[0], area[2] + 1)]
                for r in range(area[1], area[3] + 1)]
        self.range(sheet, area).raw_value = rows

    def table(self, sheet: str, name: str) -> Any:
        return next((t for t in self.book.sheets[sheet].tables if str(t.name).casefold() == name.casefold()), None)

    def frame(self, sheet: str, name: str, area: Area) -> None:
        """Make the table ``name`` span ``area``: resized if the sheet has it, else created over it."""
        table = self.table(sheet, name)
        rng = self.range(sheet, area)
        if table is None:
            self.book.sheets[sheet].tables.add(source=rng, name=name, has_headers=True,
                                                 table_style_name="TableStyleMedium2")
        elif str(table.range.address).replace("$", "") != address(area):
            table.resize(rng)

    def can_colour(self, sheet: str) -> bool:
        """Whether xlwings sets many cells' fills in one action (``Range.set_colors``, xlwings 0.37.5)."""
        return hasattr(self.range(sheet, (1, 1, 1, 1)), "set_colors")

    def colours(self, sheet: str, area: Area, fills: Mapping[tuple[int, int], str]) -> None:
        """Each cell of ``area`` its fill (none where ``fills`` has none), a block of rows at a time."""
        width = area[2] - area[0] + 1
        step = max(1, MAX_COLOURED // width)
        for top in range(area[1], area[3] + 1, step):
            bottom = min(area[3], top + step - 1)
            matrix = [[fills.get((r, c)) for c in range(area[0], area[2] + 1)] for r in range(top, bottom + 1)]
            self.range(sheet, (area[0], top, area[2], bottom)).set_colors(matrix)

    def fill(self, sheet: str, area: Area, colour: str) -> None:
        self.range(sheet, area).color = colour

    def font(self, sheet: str, area: Area, font: Font) -> None:
        target = self.range(sheet, area).font
        if font.bold:
            target.bold = True
        if font.italic:
            target.italic = True
        if font.size:
            target.size = font.size
        if font.color:
            target.color = font.color

    def widths(self, sheet: str, first_col: int, widths: Sequence[float | None], header_row: int,
               header_height: float | None) -> None:
        """Column widths as the fill set them (xlwings 0.36 and later; Excel's unit there is the point), adjacent
        equal ones at once; else Excel fits the columns itself. The header row wraps at the fill's height."""
        last = first_col + len(widths) - 1
        header = self.range(sheet, (first_col, header_row, last, header_row))
        if not _can_set(header, "column_width"):
            header.columns.autofit()
            return
        for start, end, width in column_runs(widths):
            if width:
                rng = self.range(sheet, (first_col + start, header_row, first_col + end, header_row))
                rng.column_width = round_half_up(column_points(width), 2)  # a width in points, as Excel rounds it
        if _can_set(header, "wrap_text"):
            header.wrap_text = True
        if header_height and _can_set(header, "row_height"):
            header.row_height = header_height


# --- writing the fill ----------------------------------------------------------------------------------


@dataclass
class Placed:
    """An output table after the fill: where it stands, and the sheet it is on."""

    name: str
    ws: Worksheet
    area: Area


@dataclass
class Written:
    """What writing the fill tells the organiser: sheets made anew, and what the desktop tool still does."""

    notes: list[str] = field(default_factory=list)
    left: list[str] = field(default_factory=list)  # the looks Lite could not write, in French


def _grid(ws: Worksheet) -> Grid:
    return {key: cell.value for key, cell in ws._cells.items() if cell.value is not None}


def _placed(book: Book, adapter: Adapter) -> list[Placed]:
    """Every output table the fill wrote, where it wrote it."""
    placed = []
    for spec in adapter.steps.owned(book.wb):
        found = find_table(book.wb, spec.name)
        area = bounds(found[1]) if found else None
        if found is not None and area is not None:
            placed.append(Placed(str(found[1].displayName), found[0], area))
    return placed


def _ours(opened: Opened, adapter: Adapter) -> list[TableAt]:
    """The output tables Excel had before the fill (an earlier fill's)."""
    rewritten = adapter.steps.ownership
    names = {name.casefold() for name in rewritten.tables}
    return [t for t in opened.tables if t.name.casefold() in names
            or (rewritten.pattern is not None and rewritten.pattern.fullmatch(t.name))]


def _recreated(placed: list[Placed], before: list[TableAt]) -> set[str]:
    """Sheets whose tables a fill lays out afresh (TORRES' groups) and that changed: gone, or moved. The object
    model cannot remove a table: the sheet is made anew."""
    now = {p.name.casefold(): p for p in placed}
    changed = set()
    for table in before:
        after = now.get(table.name.casefold())
        if after is None or after.ws.title != table.sheet or after.area[:2] != table.area[:2]:
            changed.add(table.sheet)
    return changed


def _legend_column(ws: Worksheet, area: tuple[int, int, int, int]) -> int | None:
    """The column of a legend under a table (a fill writes it in the first column page 1 prints whole, after the
    columns repeated on every page): the first of the table's columns with a text on the legend's first row."""
    min_col, _, max_col, max_row = area
    return next((col for col in range(min_col, max_col + 1)
                 if isinstance(getattr(ws._cells.get((max_row + 2, col)), "value", None), str)), None)


def _mark_legends(book: Book, opened: Opened, adapter: Adapter) -> dict[str, dict[tuple[int, int], str]]:
    """Give the look of a legend to the texts where an earlier fill put its legend under an output table, so
    that the fill rewrites them as its own (the JSON Excel sends has no fonts, which tell a legend from the
    organiser's text). Returns them, by table, for :func:`_check_legends`."""
    marked: dict[str, dict[tuple[int, int], str]] = {}
    fixed = {name.casefold() for name in adapter.steps.rewritten.tables}  # tables laid out afresh have none
    for table in _ours(opened, adapter):
        if table.name.casefold() not in fixed:
            continue
        ws = book.wb[table.sheet]
        col = _legend_column(ws, table.area)
        if col is None:
            continue
        max_row = table.area[3]
        for row in range(max_row + 2, max_row + 2 + MAX_NOTE_ROWS):  # the legend's lines follow one another
            cell = ws._cells.get((row, col))
            if cell is None or not isinstance(cell.value, str):
                break
            cell.font = NOTE_FONT
            marked.setdefault(table.name.casefold(), {})[row, col] = cell.value
    return marked


def _check_legends(book: Book, adapter: Adapter, marked: dict[str, dict[tuple[int, int], str]]) -> None:
    """Every text taken for an earlier legend is a line of the legend the fill wrote under that table: else it
    was the organiser's, which the fill must not drop (said before anything is written)."""
    for table in _placed(book, adapter):
        min_col, _, max_col, max_row = table.area
        ws = table.ws
        written = {cell.value for row in range(max_row + 2, max_row + 2 + MAX_NOTE_ROWS)
                   for col in range(min_col, max_col + 1)
                   if (cell := ws._cells.get((row, col))) is not None and is_note(cell)}
        for (row, col), text in marked.pop(table.name.casefold(), {}).items():
            if text not in written:
                raise WorkbookError(f"{ws.title}!{get_column_letter(col)}{row}, sous la table « {table.name} », là où "
                                    f"xlcircuit écrit sa légende, porte un texte à vous (« {text[:40]} ») : "
                                    "déplacez-le ailleurs, puis relancez.")


def write_fill(xlbook: Any, book: Book, opened: Opened, adapter: Adapter) -> Written:
    """Write into the open workbook what the fill changed (``book`` is filled in memory)."""
    excel = Excel(xlbook)
    placed = _placed(book, adapter)
    before = _ours(opened, adapter)
    recreate = _recreated(placed, before)
    foreign = [t for t in opened.tables if t.sheet in recreate and t not in before]
    if foreign:  # said before anything is written
        raise WorkbookError(f"La feuille « {foreign[0].sheet} » doit être refaite (ses tables de xlcircuit ont "
                            f"changé), mais elle a aussi la table « {foreign[0].name} » : déplacez-la sur une autre "
                            "feuille, puis relancez.")
    written = Written()
    sheets = _make_sheets(excel, book, placed, recreate, written)
    _resize_inputs(excel, book, opened, adapter)
    left: dict[str, int] = {}
    for sheet in sheets:
        old = {} if sheet in recreate else opened.values.get(sheet, {})
        old_tables = [] if sheet in recreate else [t for t in before if t.sheet == sheet]
        for what, count in _write_sheet(excel, book.wb[sheet], old, old_tables,
                                        [p for p in placed if p.ws.title == sheet]).items():
            left[what] = left.get(what, 0) + count
    written.left = [what.format(plural(count, "cellule")) for what, count in left.items()]
    return written


def _make_sheets(excel: Excel, book: Book, placed: list[Placed], recreate: set[str], written: Written) -> list[str]:
    """The sheets to make anew removed, and every sheet of the output tables that Excel lacks made, in the
    fill's order, before anything is written (adding a sheet renumbers those after it). Returns them all."""
    for sheet in sorted(recreate):
        excel.delete_sheet(sheet)
        written.notes.append(f"La feuille « {sheet} » est refaite (ses tables ont changé) : ce qui y était tapé hors "
                             "des tables de xlcircuit y est remis en valeurs.")
    order = [ws.title for ws in book.wb.worksheets]
    sheets = list(dict.fromkeys(p.ws.title for p in placed))
    for sheet in sheets:
        if not excel.has(sheet):
            previous = order[: order.index(sheet)]
            excel.add_sheet(sheet, next((s for s in reversed(previous) if excel.has(s)), None))
    return sheets


def _resize_inputs(excel: Excel, book: Book, opened: Opened, adapter: Adapter) -> None:
    """Input tables the fill grew over rows typed under them (LibreOffice does not grow tables): grown in Excel too."""
    for spec in adapter.inputs:
        found, was = find_table(book.wb, spec.name), opened.table(spec.name)
        if found is not None and was is not None and str(found[1].ref) != was.ref:
            table = excel.table(was.sheet, was.name)
            if table is not None:
                table.resize(excel.range(was.sheet, range_boundaries(str(found[1].ref))))


def _write_sheet(excel: Excel, ws: Worksheet, old: Grid, old_tables: list[TableAt],
                 placed: list[Placed]) -> dict[str, int]:
    """One of the fill's sheets: the old tables' marks cleared, the tables and every changed cell written, the
    tables framed, their number formats, looks and widths. Returns the looks left out (French, with a count)."""
    sheet, looks = ws.title, Looks()
    for area in [t.area for t in old_tables] + [p.area for p in placed]:
        if area[3] > area[1]:  # the data rows: an earlier fill's marks go (the header keeps its look)
            excel.range(sheet, (area[0], area[1] + 1, area[2], area[3])).clear_formats()
    others = _write_values(excel, ws, old, placed)
    for table in placed:
        excel.frame(sheet, table.name, table.area)
        _number_formats(excel, ws, table.area, looks)
    left = _looks(excel, ws, placed, others, looks)
    for table in placed:
        min_col, min_row, max_col, _ = table.area
        widths = [ws.column_dimensions[get_column_letter(c)].width for c in range(min_col, max_col + 1)]
        excel.widths(sheet, min_col, widths, min_row, ws.row_dimensions[min_row].height)
    return left


def _write_values(excel: Excel, ws: Worksheet, old: Grid, placed: list[Placed]) -> list[tuple[int, int]]:
    """Each output table's area written whole; every other cell the fill changed (titles, legends, what an
    earlier fill left) written or cleared. Returns the cells written outside the tables."""
    sheet, new = ws.title, _grid(ws)
    for table in placed:
        excel.put(sheet, table.area, new)
    inside = {(r, c) for p in placed for r in range(p.area[1], p.area[3] + 1) for c in range(p.area[0], p.area[2] + 1)}
    changed = {key for key in set(old) | set(new) if key not in inside and not _same(old.get(key), new.get(key))}
    for area in runs(changed):
        cleared = all(new.get((r, c)) is None for r in range(area[1], area[3] + 1) for c in range(area[0], area[2] + 1))
        if cleared:
            excel.range(sheet, area).clear()  # an earlier title or legend line: its look goes too
        else:
            excel.put(sheet, area, new)
    return [key for key in changed if key in new]


def _number_formats(excel: Excel, ws: Worksheet, area: Area, looks: Looks) -> None:
    """Each column's number format over the table's data rows, as the fill put it on the cells it wrote; adjacent
    columns of one format at once."""
    min_col, min_row, max_col, max_row = area
    if max_row <= min_row:
        return
    uniform: list[str | None] = []
    for col in range(min_col, max_col + 1):
        formats = {(row, col): looks.number_format(cell) for row in range(min_row + 1, max_row + 1)
                   if (cell := ws._cells.get((row, col))) is not None and cell.value is not None}
        kinds = set(formats.values()) - {"General"}
        uniform.append(kinds.pop() if len(kinds) == 1 and len(set(formats.values())) == 1 else None)
        if len(set(formats.values())) > 1:  # several formats in one column: each run of cells alike
            for number_format in kinds:
                for run in runs(key for key, value in formats.items() if value == number_format):
                    excel.range(ws.title, run).number_format = number_format
    for start, end, shared in column_runs(uniform):
        if shared is not None:
            excel.range(ws.title, (min_col + start, min_row + 1, min_col + end, max_row)).number_format = shared


def _looks(excel: Excel, ws: Worksheet, placed: list[Placed], others: list[tuple[int, int]],
           looks: Looks) -> dict[str, int]:
    """The fills and fonts of the tables' cells and of ``others`` (titles, legends): a table's fills in a few
    actions where xlwings can, else each colour's areas; each font's areas. A look needing more than
    :data:`MAX_AREAS` actions is left out; returns those left out (French, with a count of cells)."""
    sheet = ws.title
    fills, fonts, left = _styles(ws, placed, others, looks)
    if fills and excel.can_colour(sheet):
        for table in placed:
            excel.colours(sheet, table.area, fills)
        fills = {key: fills[key] for key in others if key in fills}
    by_colour: dict[str, list[tuple[int, int]]] = {}
    for key, colour in fills.items():
        by_colour.setdefault(colour, []).append(key)
    for colour, keys in by_colour.items():
        for area in _few_areas(keys, left, "les couleurs de fond de {} (xlwings 0.37.5 ou plus récent les écrit)"):
            excel.fill(sheet, area, colour)
    for font, keys in fonts.items():
        for area in _few_areas(keys, left, "l'italique de {}" if font.italic else "la police de {}"):
            excel.font(sheet, area, font)
    return left


def _few_areas(cells: list[tuple[int, int]], left: dict[str, int], what: str) -> list[Area]:
    """The areas of ``cells``; none if they make more than :data:`MAX_AREAS`, counted in ``left`` under ``what``."""
    areas = runs(cells)
    if len(areas) <= MAX_AREAS:
        return areas
    left[what] = left.get(what, 0) + len(cells)
    return []


def _styles(ws: Worksheet, placed: list[Placed], others: list[tuple[int, int]], looks: Looks) \
        -> tuple[dict[tuple[int, int], str], dict[Font, list[tuple[int, int]]], dict[str, int]]:
    """The fill colour of each cell of the tables and of ``others`` that has one, the cells of each font, and
    the struck-through text (which xlwings cannot write: left out, with its count)."""
    cells = ws._cells
    in_tables = ((r, c) for p in placed for r in range(p.area[1], p.area[3] + 1) for c in range(p.area[0], p.area[2] + 1))
    by_style: dict[tuple[int, int], list[tuple[int, int]]] = {}  # cells alike: one style, looked at once
    for key in itertools.chain(in_tables, others):
        cell = cells.get(key)
        if cell is not None and cell.has_style:
            by_style.setdefault((cell._style.fillId, cell._style.fontId), []).append(key)
    fills: dict[tuple[int, int], str] = {}
    fonts: dict[Font, list[tuple[int, int]]] = {}
    struck = 0
    for keys in by_style.values():
        fill, (font, strike) = looks.fill(cells[keys[0]]), looks.font(cells[keys[0]])
        if fill is not None:
            fills.update(dict.fromkeys(keys, fill))
        if font != PLAIN:
            fonts.setdefault(font, []).extend(keys)
        struck += len(keys) if strike else 0
    return fills, fonts, ({"le texte barré de {}": struck} if struck else {})


def missing_in_lite(book: Book, written: Written) -> list[str]:
    """What the fill made that xlwings Lite cannot: charts, data bars, the page setup (hence the PDF), the looks
    left out."""
    charts = [ws.title for ws in book.wb.worksheets if ws._charts]
    bars = any(rule.type == "dataBar" for ws in book.wb.worksheets
               for rules in dict.values(ws.conditional_formatting._cf_rules) for rule in rules)
    what = []
    if charts:
        what.append(f"les graphiques ({', '.join(f'« {s} »' for s in charts)})")
    if bars:
        what.append("les barres de données")
    return what + written.left + ["la mise en page A4 et le PDF"]


# --- the report sheet ----------------------------------------------------------------------------------


@dataclass
class Report:
    """What a script tells the organiser: on the « À vérifier » sheet and in Lite's output pane."""

    title: str
    lines: list[str]  # the verdict, the top of the standings, what Lite cannot do
    problems: list[tuple[str, str]] = field(default_factory=list)  # (where, what)
    warnings: list[str] = field(default_factory=list)

    def text(self) -> list[str]:
        """As printed in the output pane."""
        out = [self.title, *self.lines]
        out += [f"  - {where} : {what}" for where, what in self.problems]
        if self.warnings:
            out.append(f"À vérifier ({len(self.warnings)}) :")
            out += [f"  - {warning}" for warning in self.warnings]
        return out


def write_report(xlbook: Any, report: Report) -> None:
    """Rewrite the « À vérifier » sheet (made at the end of the workbook the first time): the title, the
    verdict, then one line a problem (where, what) and one a point to look at."""
    excel = Excel(xlbook)
    if excel.has(REPORT_SHEET):
        xlbook.sheets[REPORT_SHEET].clear()
    else:
        excel.add_sheet(REPORT_SHEET, None)
    rows: list[tuple[object, ...]] = [(report.title,), ()]
    rows += [(line,) for line in report.lines]
    header_row = None
    if report.problems or report.warnings:
        rows.append(())
        header_row = len(rows) + 1
        rows.append(("Où", "Quoi"))
        rows += report.problems
        rows += [("À vérifier", warning) for warning in report.warnings]
    grid = {(r, c): v for r, row in enumerate(rows, start=1) for c, v in enumerate(row, start=1)}
    excel.put(REPORT_SHEET, (1, 1, 2, len(rows)), grid)
    excel.font(REPORT_SHEET, (1, 1, 1, 1), Font(bold=True, size=14))
    if header_row is not None:
        excel.font(REPORT_SHEET, (1, header_row, 2, header_row), Font(bold=True))
        excel.range(REPORT_SHEET, (1, header_row, 2, len(rows))).columns.autofit()


def located(problem: Any) -> tuple[str, str]:
    """A located problem as (where, what): ``Résultats!C3`` or ``Résultats, ligne 5``, and the message."""
    where = problem.sheet + (f"!{problem.cell}" if problem.cell else
                             f", ligne {problem.row}" if problem.row is not None else "")
    what = (f"colonne « {problem.column} » : " if problem.column else "") + problem.message
    return where, what


# --- the two scripts' work -----------------------------------------------------------------------------


def _empty_hint(book: Book, adapter: Adapter) -> list[str]:
    """What to do when the input tables have no row yet."""
    empty = [spec for spec in adapter.inputs if spec.required and not read_table(book, spec, Problems())]
    if not empty:
        return []
    names = [f"« {spec.sheet} »" for spec in empty]
    which = (f"les tables {', '.join(names[:-1])} et {names[-1]} sont vides" if len(names) > 1
             else f"la table {names[0]} est vide")
    return [f"Rien à classer : {which}. Tapez-y vos lignes (la feuille « {book.wb.worksheets[0].title} » "
            "l'explique), puis relancez."]


def _failed(title: str, error: XlcircuitError) -> Report:
    """A report of what stopped the script: every located problem, or one sentence."""
    if isinstance(error, WorkbookProblems):
        count = len(error.problems)
        verdict = (f"{problems_sentence(count)} : rien n'a été écrit dans les tables ; corrigez "
                   f"{'ces points' if count > 1 else 'ce point'}, puis relancez.")
        return Report(title, [verdict], [located(p) for p in error.problems])
    return Report(title, [f"{error} Rien n'a été écrit dans les tables."])


def verify(xlbook: Any) -> Report:
    """« Vérifier »: every problem of the open workbook with its cell, or the standings a fill would publish;
    nothing but the report is written."""
    title = f"Vérifier : {xlbook.name}"
    try:
        book, _ = read(xlbook)
        adapter = adapter_of(book)
        title = f"Vérifier : {xlbook.name} ({adapter.title})"
        summary = adapter.compute(book)
    except XlcircuitError as error:
        return _failed(title, error)
    warnings = book.warnings + summary.warnings
    verdict = (f"{xlbook.name} est correct, avec {plural(len(warnings), 'point')} à vérifier (ci-dessous)"
               if warnings else f"{xlbook.name} est correct")
    return Report(title, summary_lines(adapter, summary, verdict) + _empty_hint(book, adapter), warnings=warnings)


def fill(xlbook: Any) -> Report:
    """« Remplir »: the fill of the batch mode, its changes written into the open workbook; or, on a problem,
    every one of them and nothing written but the report."""
    title = f"Remplir : {xlbook.name}"
    try:
        book, opened = read(xlbook)
        adapter = adapter_of(book)
        title = f"Remplir : {xlbook.name} ({adapter.title})"
        legends = _mark_legends(book, opened, adapter)
        summary = adapter.fill(book)
        _check_legends(book, adapter, legends)
        warnings = book.warnings + summary.warnings
        hint = _empty_hint(book, adapter)
        written = write_fill(xlbook, book, opened, adapter)
    except XlcircuitError as error:
        return _failed(title, error)
    name = xlbook.name
    desktop = (f"Pas dans xlwings Lite : {', '.join(missing_in_lite(book, written))} ; sur un ordinateur où "
               f"xlcircuit est installé, « xlcircuit fill {name} » y ajoute tout cela au classeur enregistré, et "
               f"« xlcircuit share {name} --pdf pdf » en fait le PDF.")
    lines = summary_lines(adapter, summary, "Classeur rempli") + hint + written.notes + [desktop]
    return Report(title, lines, warnings=warnings)
'''

# --- xlcircuit/excel/registry.py ---------------------------------------------------------------------
_SOURCES['xlcircuit.excel.registry'] = False, r'''
"""The registry of the Excel functions: names, arguments, French descriptions and a worked example.

One entry per function. Everything else is made from it: the xlwings declarations
(``xlcircuit.excel.udfs``), xlwings Lite's ``main.py`` and ``docs/fonctions.md`` (``xlcircuit.excel.reference``),
the starter workbook's example sheets (``xlcircuit.workbook.starter``). A new federation's functions are added here and
implemented in a ``udfs`` module. Pure data, standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..federations import FEDERATIONS, Federation

#: What a cell holds: text, a number, TRUE/FALSE, or None for a blank cell.
Cell = str | float | int | bool | None


@dataclass(frozen=True)
class Argument:
    """One argument of an Excel function, described for Excel's function wizard."""

    name: str  # the Python parameter's name
    description: str  # French; Excel's function wizard cuts it after 255 characters
    range: bool = False  # a range (passed as a list of rows) rather than one cell
    optional: bool = False  # has a default in Python; shown in brackets


@dataclass(frozen=True)
class Example:
    """A worked example: input cells from A1, the formula, and its hand-computed result."""

    cells: tuple[tuple[Cell, ...], ...]  # rows of cells from A1; () when the call needs none
    call: str  # as typed in a French Excel, without '=': arguments separated by ';', no text literals
    result: Cell | tuple[tuple[Cell, ...], ...]  # at most 3 decimals; rows of cells when it spills


@dataclass(frozen=True)
class Function:
    """An Excel function: what the organiser sees and where its Python code lives."""

    name: str
    federation: str  # a federation's code (``xlcircuit.federations``)
    description: str  # French; Excel's function wizard cuts it after 255 characters
    arguments: tuple[Argument, ...]
    example: Example
    module: str = "xlcircuit.udfs"  # the module defining it (xlwings' "UDF Modules")
    notes: tuple[str, ...] = ()  # French paragraphs for the reference only (no 255-character limit there)


# --- Tour de France de Diplomatie (docs/regles/tdf.md) ----------------------------------------

_INTERRUPTED = Argument(
    "interrupted",
    "Facultatif : VRAI si le tournoi a été interrompu sans vainqueur officiel (pas de bonus du "
    "vainqueur). FAUX par défaut.",
    optional=True,
)
_POINTS = Argument(
    "points", "Ligne (ou colonne) des points du joueur à chaque tournoi ; vide s'il n'a pas joué.", range=True
)
_KINDS = Argument(
    "kinds",
    "Ligne (ou colonne) des types de tournoi, dans le même ordre : majeur, en ligne, majeur en ligne, "
    "ou vide (normal).",
    range=True,
)
#: One player's season: a major, three normal tournaments and an online one (§2: the 300 is set aside).
_SEASON_CELLS = (
    ("points", 900, 700, 500, 300, 800),
    ("types", "majeur", "normal", "normal", "normal", "en ligne"),
)

TDF_FUNCTIONS: tuple[Function, ...] = (
    Function(
        "TDF_POINTS",
        "tdf",
        "Points TdF d'un joueur classé à une place parmi n classés : moyenne des places partagées par "
        "les ex aequo, sans bonus du vainqueur si le tournoi est interrompu. Non arrondi.",
        (
            Argument("place", "Place effective du joueur : 1 + nombre de classés devant lui (de 1 à n ; 3 ou 3e)."),
            Argument(
                "n",
                "Nombre de joueurs classés du tournoi (personnes distinctes ; organisateurs et aides "
                "non joueurs exclus).",
            ),
            Argument(
                "tied",
                "Facultatif : nombre de joueurs ex aequo à cette place, lui compris (1 par défaut).",
                optional=True,
            ),
            _INTERRUPTED,
        ),
        # Two tied first among 12: (1000 + 12 + 1000 / 10^(1/11)) / 2 = 911.5654...
        Example((), "TDF_POINTS(1; 12; 2)", 911.565),
    ),
    Function(
        "TDF_TOURNAMENT",
        "tdf",
        "Points TdF de chaque ligne d'un classement (ex aequo et places vacantes compris ; organisateur, "
        "aide, annulé : 100) ; vide si non classé. Plage de même forme, non arrondie. Un tournoi annulé n'a "
        "pas de places.",
        (
            Argument(
                "places",
                "Plage des places officielles (1, 2, 2, 4… ou 1er, 2e…) ; organisateur, aide ou annulé pour une "
                "personne non classée à 100 points (annulé : tournoi annulé, sans aucune place) ; vide si non "
                "classée ; doublon (2e ligne d'un joueur) : vide ou doublon.",
                range=True,
            ),
            _INTERRUPTED,
        ),
        # 4 classified: 1000 + 4; the two 2nd share (1000 / 10^(1/3) + 1000 / 10^(2/3)) / 2; last 100.
        Example(
            (("places", 1), (None, 2), (None, 2), (None, 4), (None, "organisateur")),
            "TDF_TOURNAMENT(B1:B5)",
            ((1004,), (339.801,), (339.801,), (100,), (100,)),
        ),
        notes=(
            "La fonction ne reçoit que les places, pas les noms : elle ne peut pas voir qu'une personne a deux "
            "lignes. Un **doublon** (une personne qui a joué sur deux tables : le classement officiel lui donne "
            "deux places) se tape ainsi : sa meilleure place sur sa ligne, et sur l'autre ligne `doublon` (ou une "
            "cellule vide). Les classés derrière le doublon remontent alors d'une place (règlement, §1), et le "
            "doublon ne compte pas dans le nombre de classés. Par exemple, A 1er, B 2e, A 3e, C 4e se tape 1, 2, "
            "`doublon`, 4 : A 1003, B 316,228 (2e sur 3), C 100.",
            "Les places s'écrivent en nombres (`1`, `2`) ou en ordinaux, comme au remplissage d'un classeur : "
            "« 1er », « 1re », « 2e », « 2nd », « 3ème » (les fonctions TDF_POINTS et DBM_POINTS aussi).",
        ),
    ),
    Function(
        "TDF_SEASON",
        "tdf",
        "Total de saison TdF d'un joueur : majeurs à 100 %, autres à 100/80/40/20/10 %, en ligne après "
        "eux et au plus à 80 %, sans jamais perdre de points à jouer un tournoi de plus. Non arrondi.",
        (_POINTS, _KINDS),
        # 900 + 700 + 0.8 × 500 + 0.4 × 800, the 300 set aside (keeping it would give 2280).
        Example(_SEASON_CELLS, "TDF_SEASON(B1:F1; B2:F2)", 2320),
    ),
    Function(
        "TDF_WEIGHTS",
        "tdf",
        "Coefficient appliqué à chaque tournoi du joueur dans son total de saison TdF (1 ; 0,8 ; 0,4… ; 0 "
        "si mis de côté pour ne pas perdre de points) ; vide s'il n'a pas joué. Même forme que les points.",
        (_POINTS, _KINDS),
        Example(_SEASON_CELLS, "TDF_WEIGHTS(B1:F1; B2:F2)", ((1, 1, 0.8, 0, 0.4),)),
    ),
)

# --- DBM (docs/regles/dbm.md) -------------------------------------------------------------------

_VFT = Argument("vft", "Valeur finale du tournoi (VFT), par exemple le résultat de DBM_VALUE.")

DBM_FUNCTIONS: tuple[Function, ...] = (
    Function(
        "DBM_CLASS_VALUE",
        "dbm",
        "Valeur DBM d'une classe de joueur : I = 1, F = 2, O = 3, S = 4, X = 5 (0 se lit O, 1 se lit I, "
        "majuscules ou minuscules).",
        (Argument("code", "Classe du joueur : I, F, O, S ou X (0 pour O), ou sa valeur de 1 à 5."),),
        # VBJ: (S) valeur 4.
        Example((("classe", "S"),), "DBM_CLASS_VALUE(B1)", 4),
    ),
    Function(
        "DBM_CMM",
        "dbm",
        "Coefficient de modulation de moyenne (CMM) d'une moyenne des valeurs (MVB) : 8,00 jusqu'à 2,00, puis "
        "0,50 de plus par tranche de 0,25 (strictement au-dessus de chaque seuil), 14,00 au-delà de 4,75.",
        (Argument("mvb", "Moyenne des valeurs de base retenues (MVB), de 1 à 5."),),
        # Worked example 2: MVB 3.50 is not above 3.50, so CMM 11.00.
        Example((("MVB", 3.5),), "DBM_CMM(B1)", 11),
    ),
    Function(
        "DBM_VALUE",
        "dbm",
        "Valeur finale d'une poule (VFT = MVB × CMM × NRJ) : les valeurs des joueurs (ou des équipes en double) ; "
        "au-delà de 24, les 6 × NRJ meilleures (24 en 4 rondes, 30 en 5). Non arrondie.",
        (
            Argument(
                "values",
                "Plage des valeurs actualisées des joueurs (ou équipes), une cellule chacun : classe I, F, O, S, X "
                "(0 pour O) ou valeur de 1 à 5 ; cellules vides ignorées.",
                range=True,
            ),
            Argument("rounds", "Nombre de rondes jouées (NRJ), généralement 4, parfois 5."),
        ),
        # Worked example 1: twelve (O) players, four rounds: SVB 36, MVB 3.00, CMM 10.00, VFT 3 × 10 × 4 = 120.
        Example((("valeurs",) + ("O",) * 12,), "DBM_VALUE(B1:M1; 4)", 120),
    ),
    Function(
        "DBM_POINTS",
        "dbm",
        "Résultat d'un joueur (RFJ = VFT / 2^(4 × (place − 1) / NJT)) ; des ex aequo se partagent la moyenne des "
        "résultats des places qu'ils occupent. Non arrondi.",
        (
            _VFT,
            Argument("place", "Place finale du joueur (ou de l'équipe) : 1 + nombre de joueurs devant lui (3 ou 3e)."),
            Argument("n", "Nombre de joueurs du tournoi (NJT), ou d'équipes en double."),
            Argument(
                "tied",
                "Facultatif : nombre de joueurs ex aequo à cette place, lui compris (1 par défaut).",
                optional=True,
            ),
        ),
        # Worked example 1 (VFT 120, 12 players), two tied 5th: (120 / 2^(16/12) + 120 / 2^(20/12)) / 2
        # = (47.622 + 37.798) / 2 = 42.710.
        Example((), "DBM_POINTS(120; 5; 12; 2)", 42.71),
    ),
    Function(
        "DBM_REFEREE",
        "dbm",
        "Prime d'arbitrage d'un arbitre qui ne joue pas son tournoi : la moitié de la valeur du tournoi (VFT), "
        "100 points au plus.",
        (_VFT,),
        # Worked example 2's tournament: VFT 154, half is 77 (under the cap of 100).
        Example((), "DBM_REFEREE(154)", 77),
    ),
    Function(
        "DBM_BEST4",
        "dbm",
        "Somme des quatre meilleurs résultats d'un joueur (critère du tableau 1) ; cellules vides ignorées.",
        (Argument("results", "Ligne (ou colonne) des résultats du joueur ; vide s'il n'a pas joué.", range=True),),
        # 120 + 95.24 + 60 + 47.62 = 322.86; the 15 is a fifth result, not counted.
        Example((("résultats", 120, None, 47.62, 95.24, 15, 60),), "DBM_BEST4(B1:G1)", 322.86),
    ),
)

# --- Championnat de France de Diplomatie (docs/regles/cdf.md) -----------------------------------

_ROUND_SCORES = "Ligne (ou colonne) des scores de ronde du joueur, dans l'ordre des rondes ; vide s'il n'a pas joué"

CDF_FUNCTIONS: tuple[Function, ...] = (
    Function(
        "PASTIS",
        "cdf",
        "Scores Super Pastis d'une partie : solo (18 centres) 102 ; sinon 2 par centre, 10 pour un survivant ou 1 "
        "par année de survie, bonus du premier (51 moins celui du poursuivant, ou 48/x ex aequo) et des suivants.",
        (
            Argument(
                "centres",
                "Colonne des centres de chaque joueur à la fin de la partie (7 cellules ; une cellule vide pour "
                "un pays sans joueur), de 0 à 34, 34 en tout au plus.",
                range=True,
            ),
            Argument(
                "years_survived",
                "Facultatif : colonne, de même taille, du nombre d'années survécues par chaque joueur éliminé "
                "(0 centre) ; vide pour un joueur qui a encore des centres.",
                range=True,
                optional=True,
            ),
            Argument(
                "years_played",
                "Facultatif : nombre d'années jouées, moins de 7 si la partie s'est arrêtée par un vote (7 par "
                "défaut).",
                optional=True,
            ),
        ),
        # cdf.md, hand-checked game: 9 -> 18 + 10 + (51 - 12) = 67; 8 -> 16 + 10 + 12 = 38;
        # 7 -> 14 + 10 + 6 = 30; 5 -> 10 + 10 = 20; 3 -> 16; 2 -> 14; 0 eliminated after 5 years -> 5.
        Example(
            (("joueur", "centres", "éliminé après"), ("A", 9), ("B", 8), ("C", 7), ("D", 5), ("E", 3), ("F", 2),
             ("G", 0, 5)),
            "PASTIS(B2:B8; C2:C8)",
            ((67,), (38,), (30,), (20,), (16,), (14,), (5,)),
        ),
    ),
    Function(
        "CDF_SIMUL",
        "cdf",
        "Score de ronde d'un joueur qui a joué deux parties simultanées : la meilleure à 80 % et l'autre à 40 %, "
        "ou la meilleure à 100 % si c'est plus. Non arrondi.",
        (
            Argument("score1", "Score Super Pastis de l'une des deux parties."),
            Argument("score2", "Score Super Pastis de l'autre partie."),
        ),
        # 0.8 × 50 + 0.4 × 40 = 40 + 16 = 56, more than 50.
        Example((("scores", 50, 40),), "CDF_SIMUL(B1; C1)", 56),
    ),
    Function(
        "CDF_QUALIF",
        "cdf",
        "Score qualificatif après les rondes 1 à 3 : la somme des rondes jouées, ou la meilleure à 100 %, la "
        "deuxième à 80 % et la troisième à 40 % s'il a joué les trois. Non arrondi.",
        (Argument("round_scores", _ROUND_SCORES + " (3 cellules au plus).", range=True),),
        # Best first: 67 + 0.8 × 50 + 0.4 × 30 = 67 + 40 + 12 = 119.
        Example((("rondes", 67, 30, 50),), "CDF_QUALIF(B1:D1)", 119),
    ),
    Function(
        "CDF_FINAL",
        "cdf",
        "Score final : somme de moins de trois rondes ; trois rondes à 100/100/80 % ; quatre à 100/100/80/40 % "
        "(la meilleure d'abord) ; +15 % pour la table finale, puis les autres bonus. Non arrondi.",
        (
            Argument("round_scores", _ROUND_SCORES + " (4 cellules au plus).", range=True),
            Argument(
                "top_board",
                "Facultatif : VRAI si le joueur a joué la table finale (bonus de 15 %). FAUX par défaut.",
                optional=True,
            ),
            Argument(
                "bonus",
                "Facultatif : autres bonus, ajoutés au score (par exemple pour un désistement). 0 par défaut.",
                optional=True,
            ),
        ),
        # Best first: 67 + 50 + 0.8 × 30 + 0.4 × 20 = 149; × 1.15 = 171.35; + 5 = 176.35.
        Example((("rondes", 67, 30, 50, 20), ("table finale", True), ("bonus", 5)), "CDF_FINAL(B1:E1; B2; B3)",
                176.35),
    ),
)

# --- Multiplayer Elo (docs/regles/elo.md) ------------------------------------------------------

_GAME_RATINGS = Argument(
    "ratings", "Colonne des notes Elo des joueurs de la partie avant celle-ci (de 2 à 8 joueurs ; lignes vides "
    "ignorées).", range=True,
)
_GAME_TOTALS = Argument(
    "totals", "Colonne des totaux de la partie, dans le même ordre : ils donnent les rangs (ex aequo : même "
    "total).", range=True,
)
_GAME_PLAYED = Argument(
    "games_played", "Colonne du nombre de parties classées de chaque joueur, celle-ci comprise (elle donne son "
    "coefficient K) ; ou une seule cellule pour tous.", range=True,
)
_LOWEST_WINS = Argument(
    "lowest_wins", "Facultatif : VRAI (par défaut) si le plus petit total gagne, FAUX si c'est le plus grand.",
    optional=True,
)
#: The source's six totals (47, 61, 61, 78, 92, 104: ranks 1, 2, 2, 4, 5, 6) at equal ratings, K 16.
_SIX_EQUAL = (("Elo", "Total", "Parties"), (1000, 47, 40), (1000, 61, 40), (1000, 61, 40), (1000, 78, 40),
              (1000, 92, 40), (1000, 104, 40))
#: The source's table of six: "you" at 1000 finish 3rd behind 1200 and 1100, ahead of 1000, 900, 800; K 16.
_SIX_TABLE = (("Elo", "Total", "Parties"), (1200, 40, 40), (1100, 50, 40), (1000, 60, 40), (1000, 70, 40),
              (900, 80, 40), (800, 90, 40))

ELO_FUNCTIONS: tuple[Function, ...] = (
    Function(
        "ELO_EXPECTED",
        "elo",
        "Espérance Elo d'un duel : 1 / (1 + 10^((note adverse - note) / 400)), entre 0 et 1. Non arrondie.",
        (
            Argument("rating", "Note Elo du joueur avant la partie."),
            Argument("opponent_rating", "Note Elo de son adversaire avant la partie."),
        ),
        # 100 points ahead: 1 / (1 + 10^(-0.25)) = 1 / 1.5623 = 0.6401
        Example((), "ELO_EXPECTED(1100; 1000)", 0.64),
    ),
    Function(
        "ELO_K",
        "elo",
        "Coefficient K d'une partie classée selon le nombre de parties jouées, celle-ci comprise : 48 pour les "
        "parties 1 à 5, 28 de la 6e à la 30e, puis 16.",
        (Argument("games_played", "Nombre de parties classées du joueur, celle-ci comprise (1 pour la première)."),),
        # The 6th game is the first after the five placement games: 28.
        Example((), "ELO_K(6)", 28),
    ),
    Function(
        "ELO_CHANGE",
        "elo",
        "Variation de note de chaque joueur d'une partie de 2 à 8 : K × moyenne de ses duels (résultat - "
        "espérance), arrondie au plus proche (-3,5 donne -4), au moins 1 point au seul premier et au seul "
        "dernier, plancher 100.",
        (_GAME_RATINGS, _GAME_TOTALS, _GAME_PLAYED, _LOWEST_WINS),
        # Equal ratings: expectation 2.5 of 5 duels for all; results 5, 3.5, 3.5, 2, 1, 0 (the two 61 tie):
        # 16 × (5 - 2.5) / 5 = 8; 16 × 1 / 5 = 3.2 -> 3 (twice); -1.6 -> -2; -4.8 -> -5; -8.
        Example(_SIX_EQUAL, "ELO_CHANGE(A2:A7; B2:B7; C2:C7)", ((8,), (3,), (3,), (-2,), (-5,), (-8,))),
    ),
    Function(
        "ELO_NEW",
        "elo",
        "Nouvelle note de chaque joueur d'une partie de 2 à 8 : note avant la partie plus sa variation (arrondie, "
        "au moins 1 point au seul premier et au seul dernier), jamais sous 100.",
        (_GAME_RATINGS, _GAME_TOTALS, _GAME_PLAYED, _LOWEST_WINS),
        # K 16, everyone finishes in rating order; 16 / 5 × sum of (result - expectation):
        # 1200: 0.3599 + 0.2403 × 2 + 0.1510 + 0.0909 = 1.0824 -> 3.46 -> +3; 1100: -0.3599 + 0.3599 × 2 + 0.2403
        # + 0.1510 = 0.7512 -> 2.40 -> +2; you: 0.5 -> 1.6 -> +2; the other 1000: -1.6 -> -2; 900: -2.40 -> -2;
        # 800: -3.46 -> -3.
        Example(_SIX_TABLE, "ELO_NEW(A2:A7; B2:B7; C2:C7; 1)",
                ((1203,), (1102,), (1002,), (998,), (898,), (797,))),
    ),
    Function(
        "ELO_TIER",
        "elo",
        "Palier d'un joueur : Bronze (moins de 900), Argent (900), Or (1050), Platine (1200), Diamant (1350), "
        "Maître (1500) ; Placement tant que ses cinq premières parties ne sont pas jouées.",
        (
            Argument("rating", "Note Elo du joueur : un entier d'au moins 100 (le plancher)."),
            Argument("games_played", "Nombre de parties classées qu'il a jouées."),
        ),
        # 1050 opens Or; 12 games: placement is over.
        Example((), "ELO_TIER(1050; 12)", "Or"),
    ),
)

# --- TORRES (docs/regles/torres.md) ------------------------------------------------------------

_TORRES_POINTS = Argument(
    "points",
    "Colonne (ou ligne) des points particuliers des joueurs d'un match (de 1 à 4 cellules) : les points "
    "marqués dans la partie, ou au dernier décompte si elle n'est pas terminée.",
    range=True,
)

TORRES_FUNCTIONS: tuple[Function, ...] = (
    Function(
        "TORRES_VP",
        "torres",
        "Points de victoire TORRES de chaque joueur d'un match : 8, 4, 2, 1 selon les points particuliers "
        "(ex aequo : moyenne des places), joueur fictif « Forfait » compris ; 0 à qui a retardé un match non "
        "terminé, les autres classés entre eux.",
        (
            _TORRES_POINTS,
            Argument(
                "forfeit",
                "Facultatif : même forme que les points ; VRAI pour un joueur ayant retardé un match non terminé "
                "(aucun point de victoire, les autres classés entre eux). Le joueur fictif « Forfait » n'est pas "
                "marqué : il prend sa place selon ses points.",
                range=True,
                optional=True,
            ),
        ),
        # torres.md §2 example points, B delayed the unfinished match: B 0; the others placed among
        # themselves by the last count: C 123 first (8), A 115 second (4), D 110 third (2).
        Example(
            (("points", "retard"), (115, False), (130, True), (123, False), (110, False)),
            "TORRES_VP(A2:A5; B2:B5)",
            ((4,), (0,), (8,), (2,)),
        ),
    ),
    Function(
        "TORRES_DIFF",
        "torres",
        "Différence de points particuliers TORRES de chaque joueur d'un match : somme, sur ses adversaires, "
        "de ses points moins les leurs (4 × ses points − total du match).",
        (_TORRES_POINTS,),
        # Source example: A 115, B 130, C 123, D 110 (total 478): 4 × 115 − 478 = −18; 520 − 478 = 42;
        # 492 − 478 = 14; 440 − 478 = −38.
        Example(
            (("points",), (115,), (130,), (123,), (110,)),
            "TORRES_DIFF(A2:A5)",
            ((-18,), (42,), (14,), (-38,)),
        ),
    ),
)

FUNCTIONS: tuple[Function, ...] = TDF_FUNCTIONS + DBM_FUNCTIONS + CDF_FUNCTIONS + ELO_FUNCTIONS + TORRES_FUNCTIONS


def function(name: str) -> Function:
    """The registry entry of the Excel function ``name``."""
    for entry in FUNCTIONS:
        if entry.name == name:
            return entry
    raise KeyError(name)


def of_federation(code: str) -> list[Function]:
    """The functions of one federation, in registry order."""
    return [entry for entry in FUNCTIONS if entry.federation == code]


def modules() -> list[str]:
    """The modules defining the functions, in registry order (xlwings' "UDF Modules")."""
    return list(dict.fromkeys(entry.module for entry in FUNCTIONS))


__all__ = ["FEDERATIONS", "FUNCTIONS", "Argument", "Cell", "Example", "Federation", "Function", "function", "modules",
           "of_federation"]
'''

# --- xlcircuit/excel/scripts.py ----------------------------------------------------------------------
_SOURCES['xlcircuit.excel.scripts'] = False, r'''
"""xlwings Lite's two scripts, « Vérifier » and « Remplir », in its Run menu: the batch mode's check and fill of
the workbook open in Excel, for the five federations (the work is :mod:`.openbook`'s).

Lite calls a script through ``xlwings.server.custom_scripts_call``, giving the parameter annotated ``xw.Book``
the open workbook; what the script writes is recorded and run in Excel when it returns, and what it prints
shows in Lite's output pane. Both scripts print their report and write it on the « À vérifier » sheet.

This module needs xlwings only (it is imported by every Lite ``main.py``, whose Excel functions must work without
openpyxl): what reads and fills the workbook is imported when a script runs. Without ``from __future__ import
annotations``: xlwings before 0.37 finds the book parameter by its annotation's very object.
"""

from collections.abc import Callable
from typing import Any

import xlwings as xw


def _plain(f: Any = None, **options: Any) -> Any:
    """xlwings' ``script`` where it has none (xlwings < 0.37 outside Lite and xlwings Server): the function as it is."""
    return f if callable(f) else (lambda g: g)


script: Callable[..., Any] = getattr(xw, "script", _plain)

#: What the scripts need besides xlwings, for the sentence said when Lite lacks it.
NEEDED = "openpyxl et defusedxml"


def _run(book: Any, work: str) -> None:
    """Run ``openbook.<work>`` on the open workbook; print its report and write it on « À vérifier ». A failure
    that is no deliberate error is a bug: nothing it may have recorded is written, and it is said in one sentence."""
    try:
        from . import openbook
    except ImportError as error:
        print(f"xlcircuit ne peut pas lire le classeur : il manque {error.name or NEEDED} ; ajoutez les lignes "
              f"« openpyxl » et « defusedxml » à l'onglet requirements.txt, redémarrez xlwings Lite (menu, Restart), "
              "puis relancez.")
        return
    try:
        report = getattr(openbook, work)(book)
        openbook.write_report(book, report)
    except Exception as error:
        book.json()["actions"].clear()  # nothing of a failed run reaches Excel
        raise RuntimeError(f"xlcircuit : erreur inattendue ({type(error).__name__} : {error}) ; rien n'a été "
                           "écrit. Signalez-la avec le classeur à votre fédération.") from None
    for line in report.text():
        print(line)


@script(name="Vérifier")
def verifier(book: xw.Book) -> None:
    """# Vérifier
    Lit les tables de saisie et signale chaque problème avec sa cellule, sur la feuille « À vérifier » ;
    n'écrit rien d'autre."""
    _run(book, "verify")


@script(name="Remplir")
def remplir(book: xw.Book) -> None:
    """# Remplir
    Calcule et écrit les tables de résultats de la fédération (points, classements), comme
    « xlcircuit fill » ; vos autres feuilles ne sont pas touchées."""
    _run(book, "fill")
'''

# --- xlcircuit/excel/udfs.py -------------------------------------------------------------------------
_SOURCES['xlcircuit.excel.udfs'] = False, r'''
"""Excel functions (xlwings UDFs) of every federation, one section each.

A thin adapter: it converts what Excel passes (every number as a float, blanks as None, a
single cell as a scalar, ranges as lists of rows), calls the core (``xlcircuit.tdf``, ``xlcircuit.dbm``…) and
shapes the result like the input. No rule is computed here.

Bad input never raises a Python error: ``_declared`` turns it into a short French reason, shown
as ``ERRORS`` says (docs/fonctions.md, « Entrées incorrectes »): with the Windows add-in, a text
starting with ``#``; in xlwings Lite (Pyodide), Excel's error value #VALEUR! (#VALUE!), which
SIERREUR catches and SOMME propagates, with the reason in the cell's error tip. Blanks are blanks
whatever the runtime passes: None, an empty or blank text, or Pyodide's ``JsNull`` (recognised by
its type's name, without importing pyodide), at any depth of a range; an omitted optional argument,
a bare blank or a single blank cell gives the argument its default. Ranges and numbers are bounded,
so that no input gives inf, nan or a long computation.
What Excel shows about them (description, argument docs, range or cell) comes from their
entries in the registry, ``xlcircuit.functions``.

Arguments are declared without ``numbers=int`` on purpose: xlwings would then round ``2.6``
to ``3`` (Python rounding, halves to even) before the function sees it, and a mistyped place
would be scored silently. The functions take floats and accept only whole ones; a place may also be
typed as a fill reads it (« 3 », « 1er », « 2e », « 3ème »: ``rules.text.place_number``). Arguments use
``err_to_str=True`` so that an error cell (``#N/A``) is reported instead of read as a blank.
Off Windows the decorators are no-ops, so these are plain Python functions.
"""

from __future__ import annotations

import functools
import math
import sys
from numbers import Real
from typing import Any

import xlwings as xw

from ..rules import cdf, dbm, elo, limits, tdf, torres
from ..rules.errors import InvalidInput, XlcircuitError
from ..rules.text import clean, fold, place_number
from . import registry as functions

__all__ = [entry.name for entry in functions.FUNCTIONS]

#: Shown in an output cell whose input cell was blank (xlwings would write None as empty too,
#: but an explicit empty string looks the same in every runtime).
BLANK = ""
#: Largest player count TDF_POINTS takes: a tie group is averaged place by place, so a mistyped
#: huge count would freeze Excel (:mod:`xlcircuit.limits`, like the two bounds below).
MAX_COUNT = limits.MAX_PLACE
MAX_CELLS = limits.FUNCTION_MAX_CELLS
MAX_NUMBER = limits.FUNCTION_MAX_NUMBER
#: How a refused input shows: "text" (the reason as a text starting with '#': the Windows add-in, where a
#: raised error would show a Python traceback) or "error" (Excel's #VALUE! with the reason in its tip:
#: xlwings Lite, which turns a raised error into that). Pyodide (sys.platform "emscripten") is Lite.
ERRORS = "error" if sys.platform == "emscripten" else "text"

_CATEGORY = "xlcircuit"
_CELL = {"err_to_str": True}  # one cell
_RANGE = {"ndim": 2, "err_to_str": True}  # a range, always a list of rows


# --- Converters: what Excel passes -> plain values, and back -------------------------------------

#: How a range came: None for a scalar, n for a flat list of n, (rows, columns) for a block.
Shape = int | tuple[int, int] | None


class CellError(Exception):
    """A refused input, raised (``ERRORS == "error"``) for the runtime to show as #VALUE! with this reason."""


def _is_blank(value: Any) -> bool:
    """None, a blank text, or Pyodide's JsNull (what xlwings Lite passes for a blank before xlwings 0.36.7)."""
    return (value is None or (isinstance(value, str) and not clean(value))
            or type(value).__name__ == "JsNull")


def _omitted(value: Any) -> bool:
    """An optional argument left out: blank, or a range of one blank cell (how a blank arrives as a range)."""
    while isinstance(value, (list, tuple)) and len(value) == 1:
        value = value[0]
    return _is_blank(value)


def _shown(value: Any) -> str:
    """A cell's value as the message shows it (French decimal comma, text in guillemets)."""
    if _is_blank(value):
        return "une cellule vide"
    if isinstance(value, bool):
        return "VRAI" if value else "FAUX"
    if isinstance(value, str):
        text = clean(value)
        return f"« {text if len(text) <= 30 else text[:29] + '…'} »"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    if isinstance(value, float):
        return f"{value:.12g}".replace(".", ",")
    if isinstance(value, (list, tuple)):
        return "une plage"
    return str(value).replace(".", ",")


def _refuse(what: str, expected: str, value: Any) -> InvalidInput:
    return InvalidInput(f"#{what} : {expected} attendu, trouvé {_shown(value)}")


def _single(value: Any, what: str) -> Any:
    """One cell's value; a one-cell range ([x] or [[x]]) is taken as that cell."""
    if isinstance(value, (list, tuple)):
        cells, _ = _cells(value, what)
        if len(cells) != 1:
            raise InvalidInput(f"#{what} : une seule cellule attendue, trouvé une plage de {len(cells)}")
        return cells[0]
    return value


def _expected(low: int, high: int | None) -> str:
    return f"entier de {low} à {high}" if high is not None else f"entier ≥ {low}"


def _place(value: Any, what: str, low: int, high: int | None = None) -> int:
    """A cell -> a place in low..high, read as a fill reads it (:func:`xlcircuit.rules.text.place_number`): a
    whole number (3.0 is 3, the text « 3 » too) or a French ordinal (« 1er », « 2e », « 3ème »)."""
    if not isinstance(value, str) or _is_blank(value):
        return _whole(value, what, low, high)
    number = place_number(value)
    if number is None or number < low or (high is not None and number > high):
        raise _refuse(what, _expected(low, high), value)
    return number


def _whole(value: Any, what: str, low: int, high: int | None = None) -> int:
    """A cell -> a whole number in low..high: 3.0 is 3; 2.6, text, TRUE and blanks are refused."""
    expected = _expected(low, high)
    if not isinstance(value, Real) or isinstance(value, bool):
        raise _refuse(what, expected, value)
    if not math.isfinite(value) or not float(value).is_integer():
        raise _refuse(what, expected, value)
    number = int(float(value))
    if number < low or (high is not None and number > high):
        raise _refuse(what, expected, value)
    return number


def _number(value: Any, what: str) -> float:
    """A cell -> a finite number."""
    if not isinstance(value, Real) or isinstance(value, bool) or not math.isfinite(value):
        raise _refuse(what, "nombre", value)
    if abs(float(value)) > MAX_NUMBER:
        raise _refuse(what, "nombre de -10^12 à 10^12", value)
    return float(value)


def _flag(value: Any, what: str) -> bool:
    """A cell -> TRUE/FALSE; a blank is FALSE, 1 and 0 are taken as TRUE and FALSE."""
    value = _single(value, what)
    if _is_blank(value):
        return False
    if isinstance(value, bool):
        return value
    if isinstance(value, Real) and value in (0, 1):
        return bool(value)
    raise _refuse(what, "VRAI ou FAUX", value)


def _cells(value: Any, what: str) -> tuple[list[Any], Shape]:
    """A range as Excel passes it -> its cells in reading order, and its shape."""
    if not isinstance(value, (list, tuple)):
        return [value], None
    size = len(value) * (len(value[0]) if value and isinstance(value[0], (list, tuple)) else 1)
    if size > MAX_CELLS:
        raise InvalidInput(f"#{what} : plage de {MAX_CELLS:,} cellules au plus attendue, trouvé {size:,} "
                           f"(prenez les lignes utiles, B2:B40, plutôt que la colonne entière)".replace(",", " "))
    nested = [isinstance(row, (list, tuple)) for row in value]
    if not any(nested):
        return list(value), len(value)
    widths = {len(row) for row in value} if all(nested) else set()
    if len(widths) != 1:
        raise InvalidInput(f"#{what} : plage rectangulaire attendue")
    return [cell for row in value for cell in row], (len(value), widths.pop())


def _shaped(values: list[Any], shape: Shape) -> Any:
    """Values in reading order -> the shape they came in (a column stays a column)."""
    if shape is None:
        return values[0]
    if isinstance(shape, int):
        return values
    rows, columns = shape
    return [values[r * columns : (r + 1) * columns] for r in range(rows)]


def _at(what: str, index: int) -> str:
    """Where a cell is, for a message: its rank in the range, in reading order."""
    return f"{what}, cellule {index + 1}"


def _finite(result: Any) -> Any:
    """The result, checked: a number that is not finite (never expected) is refused rather than shown."""
    rows = result if isinstance(result, list) else [result]
    for value in (cell for row in rows for cell in (row if isinstance(row, list) else [row])):
        if isinstance(value, float) and not math.isfinite(value):
            raise InvalidInput("#résultat hors limites : des nombres plus petits sont attendus")
    return result


def _message(error: Exception) -> str:
    """The text a cell shows for a refused input: the core's French message, marked with '#'."""
    if isinstance(error, XlcircuitError):
        text = str(error)
        return text if text.startswith("#") else f"#{text}"
    return f"#erreur interne : {type(error).__name__} : {error}"


# --- Tour de France de Diplomatie: parsing of the cells -------------------------------------------


def _place_or_role(value: Any, where: str) -> int | tdf.Role | None:
    """A cell of a classification: an official place, a 100-point role, or None (not classified)."""
    if _is_blank(value) or (isinstance(value, str) and fold(value) == tdf.Status.DUPLICATE.value):
        return None  # a doublon's cell: not classified, the people behind it move up (§1)
    if isinstance(value, str) and place_number(value) is None:
        try:
            role = tdf.Role.parse(value)
        except InvalidInput:
            role = None
        if role is None:  # unknown text, or "joueur": a player needs his place
            roles = ", ".join(r.value for r in tdf.Role)
            raise _refuse(where, f"place ou {roles}", value)
        return role
    return _place(value, where, 1)


def _kind(value: Any, where: str) -> tdf.Kind:
    """A cell of the kinds row: a tournament kind; a blank is a normal tournament."""
    if _is_blank(value):
        return tdf.Kind.parse(None)
    if isinstance(value, str):
        try:
            return tdf.Kind.parse(value)
        except InvalidInput:
            pass
    raise _refuse(where, "type " + ", ".join(k.value for k in tdf.Kind), value)


def _outings(points: Any, kinds: Any) -> tuple[list[tdf.Outing | None], Shape]:
    """One player's points and the matching kinds -> an outing per cell (None: did not play)."""
    values, shape = _cells(points, "points")
    types, _ = _cells(kinds, "kinds")
    if len(values) != len(types):
        raise InvalidInput(
            f"#points et kinds : autant de cellules attendues, trouvé {len(values)} et {len(types)}"
        )
    outings: list[tdf.Outing | None] = []
    for i, (value, kind) in enumerate(zip(values, types)):
        parsed = _kind(kind, _at("kinds", i))
        if _is_blank(value):
            outings.append(None)
        else:
            outings.append(tdf.Outing(_number(value, _at("points", i)), parsed))
    return outings, shape


# --- Declaration, and the Tour de France functions -----------------------------------------------


def _declared(function):
    """Declare ``function`` to xlwings from its registry entry (``xlcircuit.functions``); bad input
    gives the cell a short message instead of raising."""
    entry = functions.function(function.__name__)

    @functools.wraps(function)  # xlwings reads the arguments through inspect.signature, which follows it
    def cell(*args, **kwargs):
        try:
            return _finite(function(*args, **kwargs))
        except (XlcircuitError, ValueError, TypeError, ArithmeticError) as error:
            message = _message(error)
        if ERRORS == "error":
            raise CellError(message.removeprefix("#").strip())
        return message

    # xlwings takes the function wizard's description from __doc__, read by the first decorator.
    cell.__doc__ = entry.description
    declared = cell
    for argument in entry.arguments:
        options = _RANGE if argument.range else _CELL
        declared = xw.arg(argument.name, doc=argument.description, **options)(declared)
    return xw.func(category=_CATEGORY)(declared)


@_declared
def TDF_POINTS(place, n, tied=1, interrupted=False):
    """§1: the points of each of ``tied`` players tied at ``place`` among ``n`` classified."""
    count = _whole(_single(n, "n"), "n", 1, MAX_COUNT)
    at = _place(_single(place, "place"), "place", 1, count)
    tied = _single(tied, "tied")
    group = 1 if _is_blank(tied) else _whole(tied, "tied", 1)
    return tdf.tied_points(at, count, group, _flag(interrupted, "interrupted"))


@_declared
def TDF_TOURNAMENT(places, interrupted=False):
    """§1: the points of each cell of a classification, in the range's shape."""
    cells, shape = _cells(places, "places")
    parsed = [_place_or_role(cell, _at("places", i)) for i, cell in enumerate(cells)]
    points = tdf.tournament_points(parsed, _flag(interrupted, "interrupted"))
    return _shaped([BLANK if p is None else p for p in points], shape)


@_declared
def TDF_SEASON(points, kinds):
    """§2: a player's weighted season total."""
    outings, _ = _outings(points, kinds)
    return float(tdf.season(o for o in outings if o is not None).total)


@_declared
def TDF_WEIGHTS(points, kinds):
    """§2: the weight applied to each of a player's tournaments, in the range's shape."""
    outings, shape = _outings(points, kinds)
    weights = iter(tdf.season(o for o in outings if o is not None).weights)
    return _shaped([BLANK if o is None else next(weights) for o in outings], shape)


# --- DBM (docs/regles/dbm.md) -------------------------------------------------------------------


#: Largest number of rounds DBM_VALUE takes, as the workbook (:mod:`xlcircuit.limits`).
DBM_MAX_ROUNDS = limits.DBM_MAX_ROUNDS


def _dbm_class(value: Any, what: str) -> dbm.PlayerClass:
    """A cell holding a class code (I, F, O, S, X, 0 for O, any case) or a value 1 to 5."""
    if not _is_blank(value) and not isinstance(value, bool):
        try:
            return dbm.PlayerClass.parse(value)
        except InvalidInput:
            pass
    raise _refuse(what, "code de classe (I, F, O, S, X ; 0 pour O) ou valeur de 1 à 5", value)


def _dbm_vft(value: Any) -> float:
    """The value of a tournament: a number, zero or more."""
    vft = _number(_single(value, "vft"), "vft")
    if vft < 0:
        raise _refuse("vft", "nombre positif", value)
    return vft


@_declared
def DBM_CLASS_VALUE(code):
    """VBJ: the value of a class code."""
    return float(_dbm_class(_single(code, "code"), "code").value)


@_declared
def DBM_CMM(mvb):
    """CMM: the coefficient of an average of values."""
    mean = _number(_single(mvb, "mvb"), "mvb")
    if not 1 <= mean <= 5:
        raise _refuse("mvb", "nombre de 1 à 5", mvb)
    return dbm.cmm(mean)


@_declared
def DBM_VALUE(values, rounds):
    """ABRA: the VFT of a tournament from its players' (or teams') values."""
    cells, _ = _cells(values, "values")
    parsed = [_dbm_class(cell, _at("values", i)).value for i, cell in enumerate(cells) if not _is_blank(cell)]
    if not parsed:
        raise InvalidInput("#values : au moins une valeur de joueur attendue, trouvé une plage vide")
    return dbm.tournament_value(parsed, _whole(_single(rounds, "rounds"), "rounds", 1, DBM_MAX_ROUNDS)).vft


@_declared
def DBM_POINTS(vft, place, n, tied=1):
    """CADABRA: the RFJ of each of ``tied`` players tied at ``place`` among ``n``."""
    value = _dbm_vft(vft)
    count = _whole(_single(n, "n"), "n", 1, MAX_COUNT)
    at = _place(_single(place, "place"), "place", 1, count)
    tied = _single(tied, "tied")
    group = 1 if _is_blank(tied) else _whole(tied, "tied", 1, count - at + 1)
    return dbm.tied_points(value, at, count, group)


@_declared
def DBM_REFEREE(vft):
    """PRIME D'ARBITRAGE: half the VFT, at most 100."""
    return dbm.referee_bonus(_dbm_vft(vft))


@_declared
def DBM_BEST4(results):
    """CRITERE DE CLASSEMENT: the sum of the four best results of a row, blanks ignored."""
    cells, _ = _cells(results, "results")
    return float(dbm.best_four(
        _number(cell, _at("results", i)) for i, cell in enumerate(cells) if not _is_blank(cell)))


# --- Championnat de France de Diplomatie (docs/regles/cdf.md) -----------------------------------



def _survival(value: Any, where: str, years: int) -> int | None:
    """A cell of the years-survived column: blank for a player still alive, else 0 to ``years`` years."""
    return None if _is_blank(value) else _whole(value, where, 0, years)


def _round_scores(value: Any, what: str, most: int) -> list[float]:
    """A row (or column) of round scores -> the scores of the rounds played (blanks: not played)."""
    cells, _ = _cells(value, what)
    if len(cells) > most:
        raise InvalidInput(f"#{what} : {most} cellules au plus attendues, trouvé {len(cells)}")
    scores = []
    for i, cell in enumerate(cells):
        if not _is_blank(cell):
            score = _number(cell, _at(what, i))
            if score < 0:
                raise _refuse(_at(what, i), "score ≥ 0", cell)
            scores.append(score)
    return scores


def _score(value: Any, what: str) -> float:
    score = _number(_single(value, what), what)
    if score < 0:
        raise _refuse(what, "score ≥ 0", value)
    return score


@_declared
def PASTIS(centres, years_survived=None, years_played=7):
    """§IV.1: the Super Pastis score of each player of a board, in the shape of ``centres``."""
    cells, shape = _cells(centres, "centres")
    if len(cells) != cdf.PLAYERS:  # one cell per power; a blank one for a power without a player
        raise InvalidInput(f"#centres : {cdf.PLAYERS} cellules attendues (une par pays), trouvé {len(cells)}")
    if _omitted(years_survived):
        survived: list[Any] = [None] * len(cells)
    else:
        survived, _ = _cells(years_survived, "years_survived")
    if len(survived) != len(cells):
        raise InvalidInput(f"#centres et years_survived : autant de cellules attendues, trouvé {len(cells)} "
                           f"et {len(survived)}")
    played = _single(years_played, "years_played")
    years = cdf.YEARS if _is_blank(played) else _whole(played, "years_played", 1, cdf.YEARS)
    seated = [i for i, cell in enumerate(cells) if not _is_blank(cell)]
    for i, cell in enumerate(cells):
        if _is_blank(cell) and not _is_blank(survived[i]):
            raise _refuse(_at("centres", i), "nombre de centres (0 pour un éliminé)", cell)
    board = [_whole(cells[i], _at("centres", i), 0, cdf.CENTRES) for i in seated]
    lasted = [_survival(survived[i], _at("years_survived", i), years) for i in seated]
    scores = iter(cdf.game_scores(board, lasted, years, short=True))
    return _shaped([next(scores) if i in seated else BLANK for i in range(len(cells))], shape)


@_declared
def CDF_SIMUL(score1, score2):
    """§II.2b4: the round score of two simultaneous games."""
    return float(cdf.round_score([_score(score1, "score1"), _score(score2, "score2")]))


@_declared
def CDF_QUALIF(round_scores):
    """§IV.2: the qualifying score of rounds 1 to 3."""
    return float(cdf.qualifying_score(_round_scores(round_scores, "round_scores", cdf.QUALIFYING_ROUNDS)))


@_declared
def CDF_FINAL(round_scores, top_board=False, bonus=0):
    """§IV.3a and §III.4: the final score, with the top-board bonus and other bonuses."""
    final = cdf.final_score(_round_scores(round_scores, "round_scores", cdf.ROUNDS))
    extra = _single(bonus, "bonus")
    extra = 0.0 if _is_blank(extra) else _number(extra, "bonus")
    return float(cdf.total_score(final, _flag(top_board, "top_board"), extra))


# --- Multiplayer Elo (docs/regles/elo.md) ------------------------------------------------------



def _lowest_wins(value: Any) -> bool:
    """``lowest_wins``: a blank keeps the source's default, the lowest total wins."""
    value = _single(value, "lowest_wins")
    return True if _is_blank(value) else _flag(value, "lowest_wins")


def _elo_game(ratings: Any, totals: Any, games_played: Any,
              ) -> tuple[list[int | None], list[int], list[float], list[int], Shape]:
    """A game's three columns -> the filled rows' indexes, ratings, totals and games (one games cell: for all).

    A row whose three cells are blank is skipped (and given a blank back); a half-filled row is refused.
    """
    notes, shape = _cells(ratings, "ratings")
    scores, _ = _cells(totals, "totals")
    counts, _ = _cells(games_played, "games_played")
    if len(scores) != len(notes):
        raise InvalidInput(f"#ratings et totals : autant de cellules attendues, trouvé {len(notes)} et {len(scores)}")
    shared = len(counts) == 1 and len(notes) > 1
    if shared:
        counts = counts * len(notes)
    elif len(counts) != len(notes):
        raise InvalidInput(f"#ratings et games_played : autant de cellules attendues (ou une seule), trouvé "
                           f"{len(notes)} et {len(counts)}")
    rows: list[int | None] = []
    filled_ratings: list[int] = []
    filled_totals: list[float] = []
    filled_games: list[int] = []
    for i, (rating, total, count) in enumerate(zip(notes, scores, counts)):
        if _is_blank(rating) and _is_blank(total) and (shared or _is_blank(count)):
            rows.append(None)
            continue
        rows.append(len(filled_ratings))
        filled_ratings.append(_whole(rating, _at("ratings", i), elo.FLOOR))
        filled_totals.append(_number(total, _at("totals", i)))
        if abs(filled_totals[-1]) > elo.MAX_TOTAL:
            raise InvalidInput(f"#{_at('totals', i)} : nombre de -{elo.MAX_TOTAL:.0f} à {elo.MAX_TOTAL:.0f} attendu, "
                               f"trouvé {filled_totals[-1]:.6g}".replace(".", ","))
        filled_games.append(_whole(count, _at("games_played", i), 1))
    if not elo.MIN_PLAYERS <= len(filled_ratings) <= elo.MAX_PLAYERS:
        raise InvalidInput(f"#ratings : de {elo.MIN_PLAYERS} à {elo.MAX_PLAYERS} joueurs attendus, trouvé "
                           f"{len(filled_ratings)}")
    return rows, filled_ratings, filled_totals, filled_games, shape


def _elo_changes(ratings: Any, totals: Any, games_played: Any, lowest_wins: Any, value) -> Any:
    """The changes of a game, each turned into a cell by ``value``, in the ratings' shape."""
    rows, notes, scores, counts, shape = _elo_game(ratings, totals, games_played)
    changes = elo.rate_game(notes, scores, counts, _lowest_wins(lowest_wins))
    return _shaped([BLANK if r is None else float(value(changes[r])) for r in rows], shape)


@_declared
def ELO_EXPECTED(rating, opponent_rating):
    """§2: the expectation of a duel."""
    return elo.expected(_number(_single(rating, "rating"), "rating"),
                        _number(_single(opponent_rating, "opponent_rating"), "opponent_rating"))


@_declared
def ELO_K(games_played):
    """§6: K of a player's n-th ranked game."""
    return float(elo.k_factor(_whole(_single(games_played, "games_played"), "games_played", 1)))


@_declared
def ELO_CHANGE(ratings, totals, games_played, lowest_wins=True):
    """§1-§5: each player's change in one game (floor included), in the ratings' shape."""
    return _elo_changes(ratings, totals, games_played, lowest_wins, lambda c: c.delta)


@_declared
def ELO_NEW(ratings, totals, games_played, lowest_wins=True):
    """§1-§5: each player's rating after one game, in the ratings' shape."""
    return _elo_changes(ratings, totals, games_played, lowest_wins, lambda c: c.after)


@_declared
def ELO_TIER(rating, games_played):
    """Tiers: the French name of a player's tier, or Placement."""
    games = _whole(_single(games_played, "games_played"), "games_played", 0)
    return elo.tier(_whole(_single(rating, "rating"), "rating", elo.FLOOR), games).label


# --- TORRES (docs/regles/torres.md) ------------------------------------------------------------


def _match_points(points: Any) -> tuple[list[float], Shape]:
    """A match's range of in-game points -> the numbers (one to four) and the range's shape."""
    cells, shape = _cells(points, "points")
    if not 1 <= len(cells) <= torres.MATCH_SIZE:
        raise InvalidInput(f"#points : de 1 à {torres.MATCH_SIZE} cellules attendues, trouvé {len(cells)}")
    values = [_number(cell, _at("points", i)) for i, cell in enumerate(cells)]
    for i, value in enumerate(values):
        if not 0 <= value <= torres.MAX_NUMBER:  # in-game points, as the Matchs table takes them
            raise InvalidInput(f"#{_at('points', i)} : nombre de 0 à {torres.MAX_NUMBER:.0f} "
                               f"attendu, trouvé {value:.6g}".replace(".", ","))
    return values, shape


@_declared
def TORRES_VP(points, forfeit=None):
    """§2: each player's victory points in one match, in the range's shape."""
    values, shape = _match_points(points)
    flags = [False] * len(values)
    if not _omitted(forfeit):  # omitted, or one blank cell: nobody
        cells, _ = _cells(forfeit, "forfeit")
        if len(cells) != len(values):
            raise InvalidInput(f"#points et forfeit : autant de cellules attendues, trouvé {len(values)} "
                               f"et {len(cells)}")
        flags = [_flag(cell, _at("forfeit", i)) for i, cell in enumerate(cells)]
    return _shaped(torres.victory_points(values, flags), shape)


@_declared
def TORRES_DIFF(points):
    """§2: each player's particular-points difference in one match, in the range's shape."""
    values, shape = _match_points(points)
    return _shaped(torres.particular_differences(values), shape)
'''

# --- xlcircuit/federations/__init__.py ---------------------------------------------------------------
_SOURCES['xlcircuit.federations'] = True, r'''
"""The federations xlcircuit knows: where a maintainer looks first.

One record each (:data:`FEDERATIONS`: code, French name, template, example), used by the command line,
the use cases and the Excel functions' registry; and one workbook adapter each, in this package
(``tdf``, ``dbm``, ``cdf``, ``elo``, ``torres``: its tables, reading, summary, outputs, report and
explanation, every rule left to :mod:`xlcircuit.rules`), imported when first asked for
(:data:`ADAPTERS`), so that a fill loads only its own federation's. Its bundled example is in
``examples/``.

This module itself is standard library only: xlwings Lite's ``main.py`` carries it.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the adapters are imported on demand (they need openpyxl)
    from ..workbook.adapter import Adapter
    from ..xlsx import Book


@dataclass(frozen=True)
class Federation:
    """A federation: its code, its French name, and the files and sheets named after it."""

    code: str  # as in ``xlcircuit new CODE``
    name: str  # full French name: workbook titles, the function reference's section title
    template: str  # its season workbook template, in ``workbooks/``
    example: str  # the file ``xlcircuit demo`` writes
    sheet: str  # its sheet of the Excel functions' starter workbook (at most 31 characters)
    own_names: tuple[str, ...] = ()  # its own scoring systems' names, allowed as function names without the code


#: In the order of ``xlcircuit demo``, the function reference and the starter workbook's sheets.
FEDERATIONS: tuple[Federation, ...] = (
    Federation("tdf", "Tour de France de Diplomatie", "tdf-saison.xlsx", "tdf-exemple.xlsx", "Tour de France"),
    Federation("dbm", "Championnat DBM", "dbm-saison.xlsx", "dbm-exemple.xlsx", "DBM"),
    Federation("cdf", "Championnat de France de Diplomatie", "cdf-tournoi.xlsx", "cdf-exemple.xlsx",
               "Championnat de France", own_names=("PASTIS",)),
    Federation("elo", "Note de classé (Elo multijoueur)", "elo.xlsx", "elo-exemple.xlsx", "Elo"),
    Federation("torres", "Championnat TORRES", "torres-saison.xlsx", "torres-exemple.xlsx", "TORRES"),
)

CODES: tuple[str, ...] = tuple(f.code for f in FEDERATIONS)


def federation(code: str) -> Federation:
    """The federation of ``code``, in any case (``TDF`` is ``tdf``); KeyError for an unknown code."""
    folded = code.strip().casefold()
    for entry in FEDERATIONS:
        if entry.code == folded:
            return entry
    raise KeyError(code)


class _Adapters(Mapping[str, "Adapter"]):
    """Federation code -> its workbook adapter, imported when first asked for."""

    def __getitem__(self, code: str) -> Adapter:
        if code not in CODES:
            raise KeyError(code)
        adapter: Adapter = importlib.import_module(f"{__name__}.{code}").ADAPTER
        return adapter

    def __iter__(self) -> Iterator[str]:
        return iter(CODES)

    def __len__(self) -> int:
        return len(CODES)


#: Federation code -> its workbook adapter, in the order of :data:`FEDERATIONS`.
ADAPTERS: Mapping[str, Adapter] = _Adapters()


def adapter_of(book: Book, override: str | None = None) -> Adapter:
    """The adapter of the federation ``book`` belongs to (or of the one asked for, in any case)."""
    from ..rules.errors import WorkbookError

    recorded = book.federation
    code = override or recorded
    if override and recorded is not None and recorded in ADAPTERS and override != recorded:
        mine, asked = ADAPTERS[recorded], ADAPTERS.get(override)
        raise WorkbookError(f"{book.path.name} est un classeur « {mine.title} » ({mine.code}), pas "
                            f"« {asked.title if asked else override} » ({override}) : relancez sans --federation.")
    if code is None:
        raise WorkbookError(
            f"{book.path.name} ne dit pas à quelle fédération il appartient (il n'a pas été créé par "
            f"« xlcircuit new ») : relancez avec --federation ({', '.join(ADAPTERS)})."
        )
    try:
        return ADAPTERS[federation(code).code]
    except KeyError:
        raise WorkbookError(f"{book.path.name} appartient à la fédération « {code} », que cette version "
                            f"de xlcircuit ne connaît pas (connues : {', '.join(ADAPTERS)}).") from None
'''

# --- xlcircuit/federations/cdf.py --------------------------------------------------------------------
_SOURCES['xlcircuit.federations.cdf'] = False, r'''
"""The Championnat de France workbook: reads ``Parametres``, ``Joueurs``, ``Parties``, ``Votes`` and
``Preferes``; writes ``Scores``, ``Qualification``, ``TableFinale``, ``Classement``, ``Equipes``,
``Trophees`` and ``MeilleursPays``. An adapter: every rule is in :mod:`xlcircuit.cdf`."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field

from openpyxl.workbook.workbook import Workbook

from ..rules import cdf, seasons
from ..rules.errors import InvalidInput, Problem, Violation, WorkbookProblems
from ..rules.mechanics import rank_key, rounded_parts
from ..rules.text import fold, in_words
from ..workbook.adapter import Adapter
from ..workbook.cells import as_date, as_number, as_text, as_whole, as_yes_no
from ..workbook.journal import Journal, Tracked
from ..workbook.procedure import Steps
from ..workbook.read import read_table
from ..workbook.register import Register, duplicate_warnings, players_table, read_register
from ..workbook.seasons import Carry, Honours, Parameter, add_season_sheets, register_rows
from ..workbook.sheets import (
    at_cell,
    club_of,
    fill_step,
    finish_workbook,
    parameters_table,
    parse_cell,
    podium_or_club,
    read_parameters,
    start_workbook,
)
from ..workbook.sources import SOURCE, Field, Form, Importer, words
from ..workbook.sources import mapping as sources
from ..workbook.spec import Column, Mark, Output, Problems, Record, TableSpec
from ..workbook.wording import count, decimal_comma, find_player, nth, percents, summed, title, top_lines
from ..workbook.write import type_rows
from ..xlsx import Book, Owned
from . import federation
from .examples import load

INFO = federation("cdf")  # code, French title, template and example file
FEDERATION, TITLE, TEMPLATE, EXAMPLE = INFO.code, INFO.name, INFO.template, INFO.example
DATE_FORMAT = "dd/mm/yyyy"
SCORE_FORMAT = "0.00"  # Super Pastis scores have halves and thirds: shown to the hundredth
#: Bonuses beyond this are a typing mistake (:mod:`xlcircuit.limits`).
MAX_BONUS = cdf.MAX_BONUS

TOP_BOARD_COLOUR = "E2EFDA"

PARAMETRES = parameters_table("Tournoi", value_width=34)
JOUEURS = players_table(
    Column("Club", required=False, width=30),
    Column("Équipe", required=False, width=22),
    Column("Naissance", required=False, width=12, number_format=DATE_FORMAT),
    Column("Étranger", required=False, width=10, choices=("oui",)),
    Column("Bonus", required=False, width=9),
)
PARTIES = TableSpec("Parties", "Parties", (
    Column("Ronde", width=8, choices=tuple(str(r) for r in range(1, cdf.ROUNDS + 1))),
    Column("Table", width=8),
    Column("Joueur", width=26),
    Column("Pays", width=12, choices=tuple(p.value for p in cdf.Power)),
    Column("Centres", width=9),
    Column("Éliminé après", width=13),
    Column("Années jouées", required=False, width=13),
    Column("Ordre de choix", required=False, width=14),
    Column(SOURCE, required=False, width=30),  # where an imported line came from (xlcircuit import)
))
VOTES = TableSpec("Votes", "Votes", (
    Column("Ronde", width=8),
    Column("Table", width=8),
    Column("Votant", width=26),
    Column("Catégorie", width=20, choices=tuple(c.value for c in cdf.Category)),
    Column("Premier", width=26),
    Column("Second", width=26),
    Column("Bulletin", width=10, choices=tuple(cdf.BALLOTS)),
), required=False)
PREFERES = TableSpec("Préférés", "Preferes", (
    Column("Votant", width=26),
    Column("Joueur préféré", width=26),
), required=False)

SCORES = TableSpec("Scores", "Scores", (
    Column("Ronde", width=8),
    Column("Table", width=8),
    Column("Joueur", width=26),
    Column("Pays", width=12),
    Column("Centres", width=9),
    Column("Éliminé après", width=13),
    Column("Années jouées", width=13),
    Column("Résultat", width=24),
    Column("Score", width=9, number_format=SCORE_FORMAT),
    Column("Score de la ronde", width=12, number_format=SCORE_FORMAT),
    Column("Remarque", width=50),
))
QUALIFICATION = TableSpec("Qualification", "Qualification", (
    Column("Place", width=7),
    Column("Joueur", width=26),
    Column("Ronde 1", width=9, number_format=SCORE_FORMAT),
    Column("Ronde 2", width=9, number_format=SCORE_FORMAT),
    Column("Ronde 3", width=9, number_format=SCORE_FORMAT),
    Column("Samedi soir", width=11, number_format=SCORE_FORMAT),
    Column("Place samedi soir", width=11),
    Column("Score qualificatif", width=12, number_format=SCORE_FORMAT, data_bar=True),
    Column("Table finale", width=50),
))
TABLE_FINALE = TableSpec("Table finale", "TableFinale", (
    Column("Étape", width=7),
    Column("Joueur", width=26),
    Column("Motif", width=50),
    Column("Score retenu", width=11, number_format=SCORE_FORMAT),
    Column("Ordre de choix", width=10),
    Column("Pays", width=12),
    Column("Centres", width=9),
    Column("Score de la partie", width=11, number_format=SCORE_FORMAT),
    Column("Résultat", width=30),
))
CLASSEMENT = TableSpec("Classement", "Classement", (
    Column("Place", width=7),
    Column("Joueur", width=26),
    Column("Club", width=28),
    Column("Ronde 1", width=9, number_format=SCORE_FORMAT),
    Column("Ronde 2", width=9, number_format=SCORE_FORMAT),
    Column("Ronde 3", width=9, number_format=SCORE_FORMAT),
    Column("Ronde 4", width=9, number_format=SCORE_FORMAT),
    Column("Rondes jouées", width=9),
    Column("Score final", width=10, number_format=SCORE_FORMAT),
    Column("Table finale", width=12),
    Column("Bonus", width=8, number_format=SCORE_FORMAT),
    Column("Total", width=10, number_format=SCORE_FORMAT, data_bar=True),
    Column("Départage", width=24),
))
EQUIPES = TableSpec("Équipes", "Equipes", (
    Column("Place", width=7),
    Column("Équipe", width=24),
    Column("Membres", width=60),
    Column("Score", width=10, number_format=SCORE_FORMAT, data_bar=True),
    Column("Départage", width=24),
))
TROPHEES = TableSpec("Trophées", "Trophees", (
    Column("Trophée", width=20),
    Column("Place", width=7),
    Column("Joueur", width=26),
    Column("Points", width=8),
    Column("Parties", width=8),
    Column("Moyenne", width=9, number_format=SCORE_FORMAT),
    Column("Votes sur une partie", width=12),
))
MEILLEURS_PAYS = TableSpec("Meilleurs pays", "MeilleursPays", (
    Column("Pays", width=12),
    Column("Place", width=7),
    Column("Joueur", width=26),
    Column("Ronde", width=8),
    Column("Table", width=8),
    Column("Score", width=9, number_format=SCORE_FORMAT),
    Column("Centres", width=9),
))

#: The column of each field the core's checks locate a violation on (:class:`xlcircuit.errors.Violation`).
COLUMNS = {"round": "Ronde", "table": "Table", "player": "Joueur", "centres": "Centres", "survived": "Éliminé après",
           "years": "Années jouées", "choice": "Ordre de choix", "team": "Équipe", "bonus": "Bonus", "voter": "Votant",
           "first": "Premier", "second": "Second", "category": "Catégorie", "favourite": "Joueur préféré"}

FAVOURITE = "joueur préféré"
#: What a name column of Votes and Préférés holds, for the problem of a blank cell.
NAMED = {"Votant": "nom du votant", "Premier": "nom du premier joueur désigné",
         "Second": "nom du second joueur désigné", "Joueur préféré": "nom du joueur préféré"}
COUNTRY_PLACES = 3  # best countries: the first three games of each power are shown

GUIDE = [
    "Mode d'emploi",
    "1. Ci-dessus : le nom du championnat, « oui » ou « non » pour la table finale (les organisateurs",
    f"   peuvent ne pas en faire), « oui » pour autoriser des tables de moins de {in_words(cdf.PLAYERS)} joueurs.",
    f"2. Feuille « Joueurs » : chaque inscrit (club, équipe de {in_words(cdf.MAX_TEAM)} au plus, date de naissance "
    "pour",
    "   départager au plus jeune, « oui » s'il est étranger, bonus éventuel, par exemple pour un désistement ;",
    "   identifiant et alias, autres orthographes séparées par « ; », lus comme son nom).",
    f"3. Feuille « Parties » : une ligne par joueur et par partie : ronde (1 à {cdf.ROUNDS}), table, pays, centres",
    "   à la fin ; pour un éliminé, après combien d'années ; années jouées si la partie s'est arrêtée",
    f"   par un vote avant {cdf.FIRST_YEAR + cdf.YEARS - 1} (vide : {cdf.YEARS}). Table finale : l'ordre de choix des "
    f"pays de ses {in_words(cdf.TOP_BOARD_SIZE)} joueurs.",
    "   Un joueur sur deux tables simultanées a ses deux lignes dans la même ronde.",
    f"4. Feuille « Votes » : les bulletins de chaque partie (catégorie, premier, second, {' ou '.join(cdf.BALLOTS)}) ;",
    "   feuille « Préférés » : le joueur préféré de chacun, voté à la dernière ronde.",
    *fill_step(5),
    "",
    "Les tables Scores, Qualification, Table finale, Classement, Équipes, Trophées et Meilleurs pays",
    "sont réécrites à chaque remplissage : n'y tapez rien. Vos autres feuilles sont conservées.",
]


@dataclass
class Line:
    """A line of the Parties table: where it was typed and what it says."""

    record: Record
    round: int
    table: str
    seat: cdf.Seat
    years: int | None


@dataclass
class Summary:
    """What a check or a fill found: the championship, and warnings for the organiser."""

    championship: cdf.Championship
    lines: list[Line]
    boards: list[cdf.Board]
    players: dict[str, cdf.Player]
    name: str
    top_board: bool
    warnings: list[str] = field(default_factory=list)
    clubs: dict[str, str] = field(default_factory=dict)  # player -> club, from the Joueurs table
    short: bool = False  # tables of fewer than seven allowed (« Tables incomplètes »)


#: The tables the organiser fills in (named by ``xlcircuit new``).
INPUTS = (JOUEURS, PARTIES, VOTES, PREFERES)
#: The main standings (shared as PDF, highlighted per club) and the per-result lines (per club).
STANDINGS, LINES = CLASSEMENT, SCORES
OUTPUTS = (SCORES, QUALIFICATION, TABLE_FINALE, CLASSEMENT, EQUIPES, TROPHEES, MEILLEURS_PAYS)
SHOWN = 10  # standings lines printed after a fill


# --- the template ----------------------------------------------------------------------------


def new_workbook() -> Workbook:
    """A fresh, empty championship workbook."""
    parameters = [("Championnat", None), ("Table finale", "oui"), ("Tables incomplètes", "non")]
    wb = start_workbook(TITLE, PARAMETRES, parameters, INPUTS, GUIDE, 9)
    finish_workbook(wb, FEDERATION, [(spec, _title(spec)) for spec in OUTPUTS])
    add_season_sheets(wb, TITLE)
    return wb


def put_example(wb: Workbook) -> None:
    """Type the bundled example championship into the input tables."""
    type_rows(wb, PARAMETRES, load("cdf").PARAMETRES)
    type_rows(wb, JOUEURS, load("cdf").JOUEURS)
    type_rows(wb, PARTIES, load("cdf").PARTIES)
    type_rows(wb, VOTES, load("cdf").VOTES)
    type_rows(wb, PREFERES, load("cdf").PREFERES)


# --- reading ---------------------------------------------------------------------------------


def _table(value: object) -> str | None:
    """A table's name as typed: ``3``, ``3.0`` and ``"3"`` are the same table."""
    return as_text(value)


def _blank(problems: Problems, record: Record, header: str, expected: str) -> None:
    """A required cell left blank: a problem at that cell, saying what was expected."""
    problems.at(record, header, f"{expected} ; trouvé {cdf.BLANK}")


def _required_whole(problems: Problems, record: Record, header: str, what: str, low: int, high: int) -> int | None:
    """A required whole number from ``low`` to ``high``; None, and a problem, when blank or malformed."""
    if record.values[header] is None:
        _blank(problems, record, header, f"{what} attendu : un entier de {low} à {high}")
        return None
    return parse_cell(problems, record, header, as_whole, what, low, high)


def _required_name(problems: Problems, record: Record, header: str, what: str, register: Register) -> str | None:
    """A required name, as the register names him; None, and a problem, when blank or ambiguous."""
    if as_text(record.values[header]) is None:
        _blank(problems, record, header, f"{what} attendu")
        return None
    return register.resolve(problems, record, header)


def _read_parameters(book: Book, problems: Problems) -> tuple[str, bool, bool, list[str]]:
    """Championnat, Table finale (``oui`` when blank, with a warning at its cell: it decides the top-board
    bonus) and Tables incomplètes (``non`` when blank: boards of fewer than seven are then refused, never
    computed); and the warnings for the defaults taken."""
    parameters = read_parameters(book, PARAMETRES, problems)
    name = parameters.text("Championnat") or ""
    top_board = parameters.value("Table finale") is None or bool(parameters.parsed("Table finale", as_yes_no, problems))
    defaults = []
    if parameters.value("Table finale") is None:
        defaults.append(str(parameters.problem("Table finale", "Table finale vide : « oui » par défaut (une table "
                                                               "finale, ses joueurs ont le bonus de 15 %) ; tapez "
                                                               "oui ou non")))
    short = any(parameters.parsed(spelling, as_yes_no, problems) for spelling in ("Tables incomplètes", "Table incomplète"))
    return name, top_board, short, defaults


def _report(problems: Problems, records: list[Record], violations: list[Violation]) -> set[int]:
    """The core's violations as problems at their cells; the indexes of the records they are on."""
    for v in violations:
        problems.at(records[v.index], COLUMNS[v.field], v.message)
    return {v.index for v in violations}


def _row(records: list[Record]) -> Callable[[int], str]:
    """How the core's messages name another record: by its row."""
    return lambda i: f"ligne {records[i].row}"


def _read_players(book: Book, problems: Problems) -> tuple[Register, dict[str, cdf.Player], dict[str, str],
                                                          dict[str, str]]:
    """The register, each player of the Joueurs table, his club, and where his Naissance cell is."""
    players: dict[str, cdf.Player] = {}
    clubs: dict[str, str] = {}
    born: dict[str, str] = {}
    records: list[Record] = []
    register = read_register(book, JOUEURS, problems)
    for entry in register:
        name, record = entry.name, entry.record
        club, team = club_of(record), as_text(record.values.get("Équipe"))
        birth = parse_cell(problems, record, "Naissance", as_date)
        foreign = parse_cell(problems, record, "Étranger", as_yes_no)
        bonus = parse_cell(problems, record, "Bonus", as_number, "bonus (un nombre de points)")
        players[name] = cdf.Player(name, birth, bool(foreign), team, bonus or 0.0)
        _report(problems, [record], cdf.bonus_violations([players[name]]))
        born[name] = at_cell(record, "Naissance")
        records.append(record)
        if club:
            clubs[name] = club
    _report(problems, records, cdf.team_violations(list(players.values())))
    return register, players, clubs, born


def _read_lines(book: Book, problems: Problems, players: dict[str, cdf.Player],
                seated: dict[tuple[int, str], set[str]], unread: set[tuple[int, str]], register: Register) -> list[Line]:
    """The Parties lines; ``seated`` gets who sat at each board, even on a line or board with a problem
    (so that a vote about it is not reported too), ``unread`` the boards a line with a problem was left out of."""
    lines = []
    for record in read_table(book, PARTIES, problems):
        found = problems.mark()
        ronde = _required_whole(problems, record, "Ronde", "numéro de ronde", 1, cdf.ROUNDS)
        table = _table(record.values["Table"])
        if table is None:
            _blank(problems, record, "Table", "table attendue (son numéro ou son nom)")
        player = _required_name(problems, record, "Joueur", "nom du joueur", register)
        if player is not None and players and player not in players:
            problems.at(record, "Joueur", f"{player} est absent de la table Joueurs : ajoutez-le, ou corrigez "
                                          "l'orthographe")
        power = parse_cell(problems, record, "Pays", cdf.Power.parse)
        centres = _required_whole(problems, record, "Centres", "nombre de centres", 0, cdf.CENTRES)
        survived = parse_cell(problems, record, "Éliminé après", as_whole, "nombre d'années", 0, cdf.YEARS)
        years = parse_cell(problems, record, "Années jouées", as_whole, "nombre d'années jouées", 1, cdf.YEARS)
        choice = parse_cell(problems, record, "Ordre de choix", as_whole, "ordre de choix", 1, cdf.TOP_BOARD_SIZE)
        if ronde is not None and table is not None and player is not None:
            seated.setdefault((ronde, table), set()).add(player)
        if problems.since(found):
            if ronde is not None and table is not None:
                unread.add((ronde, table))
            continue
        lines.append(Line(record, ronde, table, cdf.Seat(player, centres, survived, power, choice), years))
    return lines


def _boards(lines: list[Line], problems: Problems, short: bool, unread: set[tuple[int, str]]) -> list[cdf.Board]:
    """The boards of the Parties lines, as the core makes and checks them (a line or a board it refuses
    is a problem at its cell; a board missing a line with a problem is not counted short)."""
    boards, violations = cdf.boards_of([cdf.Line(line.round, line.table, line.seat, line.years) for line in lines],
                                       short, unread)
    _report(problems, [line.record for line in lines], violations)
    return boards


def _read_votes(book: Book, problems: Problems, seated: dict[tuple[int, str], set[str]],
                register: Register) -> list[cdf.Vote]:
    """The ballots; the core checks each complete one (its board, its players, once per category)."""
    votes: list[cdf.Vote] = []
    records: list[Record] = []
    for record in read_table(book, VOTES, problems):
        found = problems.mark()
        ronde = _required_whole(problems, record, "Ronde", "numéro de ronde", 1, cdf.ROUNDS)
        table = _table(record.values["Table"])
        category = parse_cell(problems, record, "Catégorie", cdf.Category.parse)
        ballot = parse_cell(problems, record, "Bulletin", cdf.parse_ballot)
        names = {h: _required_name(problems, record, h, NAMED[h], register) for h in ("Votant", "Premier", "Second")}
        if table is None:
            _blank(problems, record, "Table", "table attendue (son numéro ou son nom)")
        if not problems.since(found):
            votes.append(cdf.Vote(ronde, table, names["Votant"], category, names["Premier"], names["Second"], ballot))
            records.append(record)
    refused = _report(problems, records, cdf.vote_violations(votes, seated, _row(records)))
    return [vote for i, vote in enumerate(votes) if i not in refused]


def _read_favourites(book: Book, problems: Problems, seated: dict[tuple[int, str], set[str]],
                     register: Register) -> list[tuple[str, str]]:
    """The favourite-player votes; the core checks them (§IV.6b1: last-round players, once each)."""
    favourites: list[tuple[str, str]] = []
    records: list[Record] = []
    for record in read_table(book, PREFERES, problems):
        voter = _required_name(problems, record, "Votant", NAMED["Votant"], register)
        chosen = _required_name(problems, record, "Joueur préféré", NAMED["Joueur préféré"], register)
        if voter is not None and chosen is not None:
            favourites.append((voter, chosen))
            records.append(record)
    refused = _report(problems, records, cdf.favourite_violations(favourites, seated, _row(records)))
    return [pair for i, pair in enumerate(favourites) if i not in refused]


def _warnings(lines: list[Line], players: dict[str, cdf.Player]) -> list[str]:
    warnings = []
    if not players and lines:
        warnings.append("La table Joueurs est vide : pas d'équipes, de dates de naissance ni d'étrangers "
                        "pour départager.")
    return warnings + duplicate_warnings((line.seat.player, at_cell(line.record, "Joueur")) for line in lines)


@dataclass
class Typed:
    """The input tables as read."""

    name: str
    top_board: bool
    short: bool
    players: dict[str, cdf.Player]
    clubs: dict[str, str]
    lines: list[Line]
    boards: list[cdf.Board]
    known: set[str]  # everyone seated at a board
    votes: list[cdf.Vote]
    favourites: list[tuple[str, str]]
    defaults: list[str] = field(default_factory=list)  # a blank parameter read as its default, said where
    born: dict[str, str] = field(default_factory=dict)  # where each player's birth date is typed


def read(book: Book, problems: Problems) -> Typed:
    """The input tables, every problem added to ``problems``."""
    name, top_board, short, defaults = _read_parameters(book, problems)
    register, players, clubs, born = _read_players(book, problems)
    seated: dict[tuple[int, str], set[str]] = {}
    unread: set[tuple[int, str]] = set()
    lines = _read_lines(book, problems, players, seated, unread, register)
    boards = _boards(lines, problems, short, unread)
    known = {name for names in seated.values() for name in names}
    votes = _read_votes(book, problems, seated, register)
    favourites = _read_favourites(book, problems, seated, register)
    return Typed(name, top_board, short, players, clubs, lines, boards, known, votes, favourites, defaults, born)


def _unknown_births(standings: list[cdf.Standing], players: dict[str, cdf.Player], born: dict[str, str]) -> list[str]:
    """Where the youngest tie-breaker decided equal totals with a blank birth date (read as older than every
    known date): at that cell, with the players it ranked."""
    by_total: dict[float, list[cdf.Standing]] = defaultdict(list)
    for s in standings:
        by_total[rank_key(s.total)].append(s)
    warnings = []
    for group in by_total.values():
        if not any(s.decided_by == cdf.YOUNGEST for s in group):
            continue
        for s in group:
            player = players.get(s.player)
            if player is not None and player.birth is None and s.player in born:
                others = ", ".join(o.player for o in group if o is not s)
                warnings.append(f"{born[s.player]} : Naissance vide : {s.player}, à égalité de total avec {others}, "
                                "est départagé au plus jeune comme s'il était le plus âgé (une date inconnue vient "
                                "après toutes les dates connues) ; tapez sa date de naissance.")
    return warnings


def summarise(typed: Typed) -> Summary:
    """The championship computed by the core (:func:`xlcircuit.cdf.run_championship`)."""
    try:
        championship = cdf.run_championship(typed.players, typed.boards, typed.votes, typed.favourites,
                                            typed.top_board, typed.short)
    except InvalidInput as exc:
        raise WorkbookProblems([Problem(PARTIES.sheet, None, None, str(exc))]) from None
    warnings = (typed.defaults + _warnings(typed.lines, typed.players) + championship.warnings
                + _unknown_births(championship.standings, typed.players, typed.born))
    absent = sorted(set(typed.players) - typed.known, key=fold)
    if absent and typed.known:
        warnings.append(f"Inscrits sans partie (absents du classement) : {', '.join(absent)}.")
    return Summary(championship, typed.lines, typed.boards, typed.players, typed.name, typed.top_board, warnings,
                   typed.clubs, typed.short)


# --- writing ---------------------------------------------------------------------------------


def _table_number(table: str) -> int | None:
    """The number of a table named by a number (``12``); None for a name (``A``, ``²``, a hundred digits)."""
    return int(table) if table.isascii() and table.isdigit() and len(table) <= 9 else None


def _table_value(table: str) -> object:
    """A table as it was typed: a number stays a number."""
    number = _table_number(table)
    return table if number is None else number


def _outcome(g: cdf.GameScore, leaders: int) -> str:
    if g.outcome is cdf.Outcome.TIED_LEADER:
        return f"ex aequo en tête ({leaders})"
    if g.outcome is cdf.Outcome.PURSUER:
        return f"à {g.behind} centre{'s' if g.behind > 1 else ''} du premier"
    if g.outcome is cdf.Outcome.OTHER:
        return ""
    return g.outcome.value


def scores_rows(summary: Summary) -> list[list[object]]:
    """The ``Scores`` table: every board line, by round, table and centres."""
    ch = summary.championship
    boards_of: dict[tuple[str, int], list[str]] = defaultdict(list)
    for (ronde, table), scored in ch.boards.items():
        for g in scored:
            boards_of[(g.seat.player, ronde)].append(table)
    years = {b.key: b.years for b in summary.boards}
    rows = []
    for (ronde, table), scored in sorted(ch.boards.items(), key=lambda item: (item[0][0], _order(item[0][1]))):
        top = max(g.seat.centres for g in scored)
        leaders = sum(1 for g in scored if g.seat.centres == top)
        for g in sorted(scored, key=lambda g: (-g.seat.centres, -g.score, fold(g.seat.player))):
            remarks = []
            if g.seat.choice is not None:
                remarks.append(f"table finale, {g.seat.choice}{'er' if g.seat.choice == 1 else 'e'} à choisir son pays")
            tables = boards_of[(g.seat.player, ronde)]
            if len(tables) > 1:
                game = [ch.boards[(ronde, t)] for t in tables]
                pair = [next(x.score for x in lines if x.seat.player == g.seat.player) for lines in game]
                rule = " + ".join(f"{w * 100:g} %" for w in cdf.simultaneous_weights(pair))
                remarks.append(f"deux parties simultanées (tables {' et '.join(tables)}) : {rule}")
            rows.append([ronde, _table_value(table), g.seat.player, g.seat.power.value if g.seat.power else None,
                         g.seat.centres, g.seat.survived, years[(ronde, table)], _outcome(g, leaders) or None,
                         g.score, ch.round_scores[g.seat.player][ronde], " ; ".join(remarks) or None])
    return rows


def _order(table: str) -> tuple:
    number = _table_number(table)
    return (1, 0, fold(table)) if number is None else (0, number, "")


def qualification_rows(summary: Summary) -> list[list[object]]:
    """The ``Qualification`` table: scores after round 2 (Saturday evening) and after round 3."""
    steps = {q.player: q for q in summary.championship.qualified}
    rows = []
    for q in summary.championship.qualifying:
        reason = f"étape {steps[q.player].step} : {steps[q.player].reason}" if q.player in steps else None
        rows.append([q.place, q.player, q.rounds.get(1), q.rounds.get(2), q.rounds.get(3), q.saturday,
                     q.saturday_place, q.qualifying, reason])
    return rows


def top_board_rows(summary: Summary) -> list[list[object]]:
    """The ``Table finale`` table: the seven and why, then how they finished the top board."""
    ch = summary.championship
    played = {s.player: s for s in ch.top_board.seats} if ch.top_board else {}
    scores = {g.seat.player: g.score for g in ch.boards[ch.top_board.key]} if ch.top_board else {}
    champion = next((s.player for s in ch.standings if s.champion), None)
    rows = []
    for q in ch.qualified:
        seat = played.get(q.player)
        result = "champion de France" if q.player == champion else ("n'a pas joué la table finale"
                                                                     if ch.top_board and seat is None else None)
        rows.append([q.step, q.player, q.reason, q.score, seat.choice if seat else None,
                     seat.power.value if seat and seat.power else None, seat.centres if seat else None,
                     scores.get(q.player), result])
    for name, seat in played.items():
        if name not in {q.player for q in ch.qualified}:
            rows.append([None, name, "a joué la table finale sans y être qualifié par le calcul", None, seat.choice,
                         seat.power.value if seat.power else None, seat.centres, scores.get(name),
                         "champion de France" if name == champion else None])
    return rows


def _counted_rounds(s: cdf.Standing) -> tuple[dict[int, float], dict[int, float]]:
    """A player's round scores as they count in his final score (§IV.3a), to the hundredth so that they add
    up to it as printed; and the weight of each round."""
    weights = cdf.final_weights(s.rounds)
    rounds = sorted(s.rounds)
    parts = rounded_parts([s.rounds[r] * weights[r] for r in rounds], 2, [weights[r] < 1 for r in rounds])
    return dict(zip(rounds, parts)), weights


def standings_rows(summary: Summary) -> list[list[object]]:
    """The ``Classement`` table: the champion first, then by total with the tie-breakers; each round's cell
    holds what it counts in the final score (its score times its weight), so that the row adds up."""
    rows = []
    for s in summary.championship.standings:
        top = "champion" if s.champion else ("oui" if s.top_board else None)
        counted, _ = _counted_rounds(s)
        rows.append([s.place, s.player, summary.clubs.get(s.player)] + [counted.get(r) for r in range(1, 5)]
                    + [len(s.rounds), s.final, top, s.bonus or None, s.total, s.decided_by])
    return rows


WEIGHTED = Mark(fill="FFF2CC", italic=True)
_FIRST_ROUND = [c.header for c in CLASSEMENT.columns].index("Ronde 1")


def standings_marks(summary: Summary) -> dict[tuple[int, int], Mark]:
    """A round counted less than 100 % in the final score: italic on yellow."""
    marks = {}
    for index, s in enumerate(summary.championship.standings):
        _, weights = _counted_rounds(s)
        marks.update({(index, _FIRST_ROUND + r - 1): WEIGHTED for r, w in weights.items() if w < 1})
    return marks


_TOP_BONUS = percents([cdf.TOP_BOARD_BONUS])
STANDINGS_NOTES = (
    f"Ronde 1 à {cdf.ROUNDS} : ce que la ronde compte dans le score final : avec {cdf.ROUNDS} rondes, "
    f"{percents(cdf.FINAL_WEIGHTS[cdf.ROUNDS], ' et ')} % des scores de ronde,",
    f"du meilleur au moins bon ; avec {cdf.QUALIFYING_ROUNDS}, "
    f"{percents(cdf.FINAL_WEIGHTS[cdf.QUALIFYING_ROUNDS], ' et ')} % ; avec moins, 100 % (en italique sur fond jaune : "
    "moins de 100 %).",
    f"Score final : la somme des rondes. Total : le score final + {_TOP_BONUS} % pour les joueurs de la table "
    "finale, plus le bonus.",
    "Le vainqueur de la table finale est champion et 1er quel que soit son total ; le score de chaque partie : "
    "feuille « Scores ».",
)


def team_rows(summary: Summary) -> list[list[object]]:
    return [[t.place, t.team, ", ".join(t.members), t.score, t.decided_by] for t in summary.championship.teams]


def award_rows(summary: Summary) -> list[list[object]]:
    rows = []
    ch = summary.championship
    for category, standings in ch.awards.items():
        rows += [[category.value, a.place, a.player, a.points, a.games, a.average, a.most_votes] for a in standings]
    rows += [[FAVOURITE, a.place, a.player, a.points, None, None, None] for a in ch.favourites]
    return rows


def country_rows(summary: Summary) -> list[list[object]]:
    rows = []
    for power, standings in summary.championship.countries.items():
        rows += [[power.value, c.place, c.player, c.round, _table_value(c.table), c.score, c.centres]
                 for c in standings if c.place <= COUNTRY_PLACES]
    return rows


def _title(spec: TableSpec, name: str = "", day: dt.date | None = None) -> str:
    """A published table's title: the championship's name (or the federation's), then the table's sheet."""
    return title(name or TITLE, spec.sheet.lower(), day=day)


def outputs(summary: Summary, club: str | None = None, day: dt.date | None = None) -> list[Output]:
    """The published tables, with their titles; the podium highlighted, or a club's players."""
    day = day or dt.date.today()
    standings = standings_rows(summary)
    qualification = qualification_rows(summary)
    made = {
        SCORES: (scores_rows(summary), {}),
        QUALIFICATION: (qualification, {i: TOP_BOARD_COLOUR for i, row in enumerate(qualification) if row[-1]}),
        TABLE_FINALE: (top_board_rows(summary), {}),
        CLASSEMENT: (standings, podium_or_club(standings, summary.clubs, club)),  # with marks and notes below
        EQUIPES: (team_rows(summary), {}),
        TROPHEES: (award_rows(summary), {}),
        MEILLEURS_PAYS: (country_rows(summary), {}),
    }
    published = [Output(spec, spec.columns, rows, _title(spec, summary.name, day), marks, repeat_columns=2)
                 for spec, (rows, marks) in made.items()]
    for output in published:
        if output.spec is CLASSEMENT:
            output.marks, output.notes = standings_marks(summary), STANDINGS_NOTES
    return published


def report(summary: Summary) -> list[str]:
    """What ``check`` and ``fill`` print: the counts, then the top of the ranking (French)."""
    ch = summary.championship
    rounds = len({r for r, _ in ch.boards})
    classified = count(len(ch.standings), "joueur classé", "joueurs classés")
    counts = f"{count(rounds, 'ronde')}, {count(len(ch.boards), 'partie')}, {classified}."

    def line(s: cdf.Standing) -> str:
        note = " (champion, vainqueur de la table finale)" if s.champion else ""
        return f"  {s.place:>3}. {s.player:<28} {decimal_comma(s.total, 2):>8}{note}"

    return [counts] + top_lines(ch.standings, SHOWN, CLASSEMENT.sheet, line)


#: What the journal and ``xlcircuit diff`` compare: each player's game (country, centres, elimination, years),
#: each place and total.
TRACKED = Tracked(SCORES, ("Ronde", "Table"), ("Joueur",), ("Pays", "Centres", "Éliminé après", "Années jouées"),
                  CLASSEMENT, "Joueur", "Place", "Total")
STEPS = Steps(FEDERATION, Owned.of(OUTPUTS), read, summarise, outputs,
              journal=Journal(TITLE, TRACKED, lambda summary: report(summary)[0]))
compute, fill = STEPS.compute, STEPS.fill


# --- the explanation of a player's points (xlcircuit explain) -------------------------------------


def explain(summary: Summary, wanted: str) -> list[str]:
    """``xlcircuit explain``: the lines explaining ``wanted``'s points, in French, each result with its rule,
    the last line ending on his published total."""
    ch = summary.championship
    player = find_player(wanted, [s.player for s in ch.standings])
    standing = next(s for s in ch.standings if s.player == player)
    counted, weights = _counted_rounds(standing)
    lines = [f"{player} — {summary.name or TITLE}",
             "Score final (§IV.3a) : les scores de ronde, du meilleur au moins bon, à "
             f"{percents(cdf.FINAL_WEIGHTS[cdf.ROUNDS], ' et ')} % ({cdf.QUALIFYING_ROUNDS} rondes : "
             f"{percents(cdf.FINAL_WEIGHTS[cdf.QUALIFYING_ROUNDS])} % ; moins : 100 %) ; table finale : "
             f"+ {_TOP_BONUS} % (§III.4).", ""]
    for (ronde, table), games in sorted(ch.boards.items(), key=lambda item: (item[0][0], _order(item[0][1]))):
        for g in games:
            if g.seat.player == player:
                power = f"{g.seat.power.value}, " if g.seat.power else ""
                out = f", éliminé après {g.seat.survived} ans" if g.seat.eliminated else ""
                lines.append(f"  Ronde {ronde}, table {table} : {power}{count(g.seat.centres, 'centre')}{out} → score "
                             f"{decimal_comma(g.score, 2)}")
    lines.append("")
    for r in sorted(standing.rounds):
        lines.append(f"  Ronde {r} : score de la ronde {decimal_comma(standing.rounds[r], 2)} × "
                     f"{decimal_comma(weights[r] * 100, 0)} % = {decimal_comma(counted[r], 2)}")
    final = decimal_comma(standing.final, 2)
    lines.append(f"Score final : {summed([counted[r] for r in sorted(counted)], 2, final)}")
    total = decimal_comma(standing.total, 2)
    if standing.top_board:
        bonus = f" + bonus {decimal_comma(standing.bonus, 2)}" if standing.bonus else ""
        lines.append(f"Table finale : {final} × {decimal_comma(1 + cdf.TOP_BOARD_BONUS, 2)}{bonus} = {total}")
    elif standing.bonus:
        lines.append(f"Bonus : {final} + {decimal_comma(standing.bonus, 2)} = {total}")
    champion = " : champion de France (vainqueur de la table finale, 1er quel que soit son total)" \
        if standing.champion else ""
    lines.append(f"Place : {nth(standing.place)}{champion}.")
    lines.append(f"Total au classement : {total}")
    return lines


# --- season after season ---------------------------------------------------------------------------


def honours(summary: Summary) -> Honours:
    """The palmarès line (§V « le champion de France, ainsi que les joueurs classés de la deuxième à la septième
    place », « les champions de France par équipe »): the podium, the first team, each category's first."""
    ch = summary.championship
    champion, second, third = seasons.podium((s.place, s.player) for s in ch.standings)
    titles = [f"équipe : {t.team} ({', '.join(t.members)})" for t in ch.teams if t.place == 1]
    titles += [f"{category.value} : {a.player}" for category, standings in ch.awards.items()
               for a in standings if a.place == 1]
    titles += [f"{FAVOURITE} : {a.player}" for a in ch.favourites if a.place == 1]
    return Honours(summary.name or TITLE, champion, second, third, " ; ".join(titles) or None)


def carry(summary: Summary, register: Register) -> Carry:
    """Next championship: the same settings, the name a year on; the register with each player's birth date
    and nationality (tie-breakers); teams and bonuses are the championship's own, not carried."""
    extra: dict[str, dict[str, object]] = {
        name: {"Naissance": p.birth, "Étranger": "oui" if p.foreign else None} for name, p in summary.players.items()}
    people = [s.player for s in summary.championship.standings]
    name = seasons.next_name(summary.name) or summary.name or None
    return Carry([Parameter("Championnat", name), Parameter("Table finale", "oui" if summary.top_board else "non"),
                  Parameter("Tables incomplètes", "oui" if summary.short else "non")],
                 register_rows(register, extra, people))


# --- importing results (xlcircuit import) ----------------------------------------------------------------


def _round(value: object) -> int | None:
    return as_whole(value, "numéro de ronde", 1, cdf.ROUNDS)


def _centres(value: object) -> int | None:
    return as_whole(value, "nombre de centres", 0, cdf.CENTRES)


def _survived(value: object) -> int | None:
    return as_whole(value, "nombre d'années", 0, cdf.YEARS)


def _years(value: object) -> int | None:
    return as_whole(value, "nombre d'années jouées", 1, cdf.YEARS)


def _choice(value: object) -> int | None:
    return as_whole(value, "ordre de choix", 1, cdf.TOP_BOARD_SIZE)


def _power(value: object) -> str:
    return cdf.Power.parse(value).value


IMPORTER = Importer(
    lines=PARTIES,
    fields=(
        Field("Ronde", ("ronde", "round", "tour", "n° ronde", "numero de ronde"), _round, required=True, fact=True),
        Field("Table", ("table", "board", "n° table", "numero de table", "table n°"), _table, required=True, fact=True),
        Field("Joueur", words.PLAYER, sources.text, required=True, person=True),
        Field("Pays", ("pays", "puissance", "power", "country", "nation"), _power, required=True),
        Field("Centres", ("centres", "centers", "nb centres", "nombre de centres", "centres de ravitaillement",
                          "supply centers", "supply centres", "sc"), _centres, required=True),
        Field("Éliminé après", ("elimine apres", "elimine", "elimination", "eliminated", "eliminated after",
                                "elimine apres annees"), _survived),
        Field("Années jouées", ("annees jouees", "annees", "years played", "years"), _years),
        Field("Ordre de choix", ("ordre de choix", "choix", "choice", "choice order"), _choice),
    ),
    key=("Ronde", "Table"), what="table",
    players=JOUEURS, player_fields=(Field("Club", words.CLUB, sources.text),), register=True,
    form=Form(
        "feuille d'une table, à remettre à l'arbitre du championnat",
        facts=("Ronde", "Table"),
        columns=("Joueur", "Pays", "Centres", "Éliminé après", "Années jouées", "Ordre de choix"),
        guide=("Une ligne par joueur de la table, avec ses centres à la fin de la partie ; pour un éliminé, après "
               "combien d'années.",
               f"Années jouées si la partie s'est arrêtée par un vote avant {cdf.FIRST_YEAR + cdf.YEARS - 1} ; ordre "
               "de choix des pays à la table finale seulement."),
        choices={"Pays": tuple(p.value for p in cdf.Power), "Ronde": tuple(str(r) for r in range(1, cdf.ROUNDS + 1))},
        widths={"Joueur": 28, "Pays": 14, "Éliminé après": 14, "Années jouées": 14, "Ordre de choix": 14},
    ),
)

class ChampionnatDeFrance(Adapter):
    """The cdf workbook (see the module's docstring)."""

    info, steps, importer = INFO, STEPS, IMPORTER
    inputs, standings, lines = INPUTS, STANDINGS, LINES
    players, parameters = JOUEURS, PARAMETRES

    def honours(self, summary: Summary) -> Honours:
        return honours(summary)

    def carry(self, summary: Summary, register: Register) -> Carry:
        return carry(summary, register)

    def new_workbook(self) -> Workbook:
        return new_workbook()

    def put_example(self, wb: Workbook) -> None:
        put_example(wb)

    def report(self, summary: Summary) -> list[str]:
        return report(summary)

    def explain(self, summary: Summary, wanted: str) -> list[str]:
        return explain(summary, wanted)


ADAPTER = ChampionnatDeFrance()
'''

# --- xlcircuit/federations/dbm.py --------------------------------------------------------------------
_SOURCES['xlcircuit.federations.dbm'] = False, r'''
"""The DBM championship season workbook: reads ``Joueurs``, ``Tournois`` and ``Resultats`` and the
season's thresholds, writes ``Valeurs``, ``Points``, ``Tableau 1``, ``Tableau 2``, ``Équipes`` and
``Classes``. An adapter: every rule is in :mod:`xlcircuit.dbm`."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass, field

from openpyxl.workbook.workbook import Workbook

from ..rules import dbm, limits, seasons
from ..rules.errors import InvalidInput, Problem
from ..rules.mechanics import rounded_parts
from ..rules.text import fold, in_words
from ..workbook.adapter import Adapter
from ..workbook.cells import as_date, as_number, as_positive_int, as_yes_no
from ..workbook.journal import Journal, Tracked
from ..workbook.procedure import Steps
from ..workbook.read import read_table
from ..workbook.register import Register, duplicate_warnings, players_table, read_register
from ..workbook.seasons import Carry, Honours, Parameter, add_season_sheets, register_rows
from ..workbook.sheets import (
    at_cell,
    fill_step,
    finish_workbook,
    parameters_table,
    parse_cell,
    podium_or_club,
    read_parameters,
    start_workbook,
    tournament_and_player,
    tournament_name,
)
from ..workbook.sources import SOURCE, Field, Form, Importer, Person, words
from ..workbook.sources import mapping as sources
from ..workbook.spec import Column, Output, Problems, Record, TableSpec
from ..workbook.wording import count, decimal_comma, find_player, nth, of, season_years, summed, title, top_lines, when
from ..workbook.write import type_rows
from ..xlsx import Book, Owned
from . import federation
from .examples import load

INFO = federation("dbm")  # code, French title, template and example file
FEDERATION, TITLE, TEMPLATE, EXAMPLE = INFO.code, INFO.name, INFO.template, INFO.example
DATE_FORMAT = "dd/mm/yyyy"
TWO = "0.00"  # MVB, CMM, VFT and results are published with two decimals (half up)
#: Rounds beyond this are a typing mistake (:mod:`xlcircuit.limits`); the source: usually four, exceptionally five.
MAX_ROUNDS = limits.DBM_MAX_ROUNDS
USUAL_ROUNDS = dbm.USUAL_ROUNDS
SHOWN = 10  # Tableau 1 lines printed after a fill
NEWCOMERS_SHOWN = 8

CLASS_CHOICES = tuple(c.letter for c in dbm.PlayerClass)
#: The usual rounds as the messages say them (the core's ``USUAL_ROUNDS``): "4, parfois 5".
USUAL_TEXT = f"{dbm.USUAL_ROUNDS[0]}, parfois {', '.join(map(str, dbm.USUAL_ROUNDS[1:]))}"
I_LIMIT = f"{dbm.I_LIMIT:g}"  # the I / F boundary as the texts write it

PARAMETRES = parameters_table("Saison", required=True, comment=True)
JOUEURS = players_table(Column("Club", width=30), Column("Classe", width=9, choices=CLASS_CHOICES))
TOURNOIS = TableSpec("Tournois", "Tournois", (
    Column("Tournoi", width=36),
    Column("Date", width=12, number_format=DATE_FORMAT),
    Column("Rondes", width=9),
    Column("Doubles", required=False, width=10, choices=("oui",)),
    Column("Étranger", required=False, width=10, choices=("oui",)),
))
RESULTATS = TableSpec("Résultats", "Resultats", (
    Column("Tournoi", width=36),
    Column("Joueur", width=26),
    Column("Équipier", required=False, width=26),
    Column("Place", width=8),
    Column("Arbitre", required=False, width=9, choices=("oui",)),
    Column(SOURCE, required=False, width=30),  # where an imported line came from (xlcircuit import)
))
VALEURS = TableSpec("Valeurs", "Valeurs", (
    Column("Tournoi", width=36),
    Column("Date", width=12, number_format=DATE_FORMAT),
    Column("Doubles", width=9),
    Column("Étranger", width=9),
    Column("NRJ", width=7),
    Column("NJT", width=7),
    Column("BJR", width=7),
    Column("SVB", width=7),
    Column("MVB", width=8, number_format=TWO),
    Column("CMM", width=8, number_format=TWO),
    Column("VFT", width=10, number_format=TWO),
    Column("Prime d'arbitrage", width=12, number_format=TWO),
))
POINTS = TableSpec("Points", "Points", (
    Column("Tournoi", width=36),
    Column("Date", width=12, number_format=DATE_FORMAT),
    Column("Joueur", width=26),
    Column("Équipier", width=22),
    Column("Place", width=8),
    Column("Place retenue", width=10),
    Column("Ex aequo", width=9),
    Column("Classe", width=8),
    Column("Moyenne avant", width=10, number_format=TWO),
    Column("VAJ", width=6),
    Column("Valeur", width=8),
    Column("Valeur équipe", width=9),
    Column("RFJ", width=10, number_format=TWO, data_bar=True),
    Column("Compté", width=8),
    Column("Remarque", width=60),
))
TABLEAU1 = TableSpec("Tableau 1", "Tableau1", (
    Column("Place", width=7),
    Column("Joueur", width=26),
    Column("*", width=4),
    Column("Club", width=28),
    Column("Tournois", width=9),
    Column("Résultat 1", width=10, number_format=TWO),
    Column("Résultat 2", width=10, number_format=TWO),
    Column("Résultat 3", width=10, number_format=TWO),
    Column("Résultat 4", width=10, number_format=TWO),
    Column("Total", width=10, number_format=TWO, data_bar=True),
))
TABLEAU2 = TableSpec("Tableau 2", "Tableau2", (
    Column("Place", width=7),
    Column("Joueur", width=26),
    Column("Club", width=28),
    Column("Classe", width=8),
    Column("Résultats", width=10),
    Column("Moyenne", width=10, number_format=TWO),
))
EQUIPES = TableSpec("Équipes", "Equipes", (
    Column("Place", width=7),
    Column("Club", width=28),
    Column("Équipe", width=8),
    Column("Joueur 1", width=24),
    Column("Joueur 2", width=24),
    Column("Joueur 3", width=24),
    Column("Total", width=10, number_format=TWO, data_bar=True),
))
CLASSES = TableSpec("Classes", "Classes", (
    Column("Joueur", width=26),
    Column("Club", width=28),
    Column("Statut", width=12),
    Column("Tournois", width=9),
    Column("Moyenne", width=10, number_format=TWO),
    Column("Place", width=7),
    Column("Classe début", width=9),
    Column("Classe fin", width=9),
    Column("Motif", width=80),
))

GUIDE = [
    "Mode d'emploi",
    "1. Paramètres ci-dessus : seuil_S et seuil_O, moyennes finales du dernier joueur actif (S) et du",
    "   dernier joueur actif (O) de la saison précédente (passages en cours de saison). Première saison",
    "   de la réforme : laissez-les vides (pas de passage (O) → (S) ni (F) → (O) ; ceux à 15 points restent).",
    "2. Feuille « Joueurs » : chaque joueur, son club et sa classe en début de saison (I, F, O, S, X ;",
    f"   0 pour O). Un joueur absent de la table est un nouveau joueur, classé {dbm.NEWCOMER.letter}. Identifiant et",
    "   Alias (autres orthographes, séparées par « ; ») : facultatifs, lus comme son nom.",
    "3. Feuille « Tournois » : une ligne par poule (nom unique), sa date, le nombre de rondes jouées",
    f"   ({USUAL_TEXT}), « oui » dans Doubles pour une poule jouée en équipes de deux, « oui » dans",
    "   Étranger pour un tournoi joué hors de France (compté, mais il ne fait pas entrer un joueur).",
    "4. Feuille « Résultats » : une ligne par joueur classé (une par équipe en double, l'équipier dans",
    "   la colonne Équipier) avec sa place finale ; ex aequo : la même place. Un arbitre qui ne joue",
    "   pas : une ligne sans place, « oui » dans Arbitre (prime d'arbitrage).",
    *fill_step(5),
    "",
    "Les feuilles Valeurs, Points, Tableau 1, Tableau 2, Équipes et Classes sont réécrites à chaque",
    "remplissage : n'y tapez rien. Vos autres feuilles, colonnes, formules et mises en forme sont conservées.",
]
PARAMETERS = ("Saison", "seuil_S", "seuil_O")

#: The tables the organiser fills in, the main standings and the per-result lines.
INPUTS = (JOUEURS, TOURNOIS, RESULTATS)
STANDINGS, LINES = TABLEAU1, POINTS
_OUTPUTS = (VALEURS, POINTS, TABLEAU1, TABLEAU2, EQUIPES, CLASSES)


@dataclass
class TournamentRow:
    record: Record
    name: str
    date: dt.date | None
    rounds: int | None
    doubles: bool
    foreign: bool = False


@dataclass
class Line:
    """A result line of the workbook: where it was typed and what it says."""

    record: Record
    tournament: str
    entry: dbm.Entry


@dataclass
class Summary:
    """What a check or a fill found: the season, and warnings for the organiser."""

    tournaments: list[TournamentRow]
    report: dbm.SeasonReport
    thresholds: dbm.Thresholds
    warnings: list[str] = field(default_factory=list)
    season: str = ""
    clubs: dict[str, str] = field(default_factory=dict)  # player -> club, from the Joueurs table
    playing_referees: set[tuple[str, str]] = field(default_factory=set)  # (poule, player): refereed and played


# --- the template ----------------------------------------------------------------------------


#: What the ``Commentaire`` cells of a fresh workbook say of each parameter.
COMMENTS = {
    "Saison": "le nom de la saison (vide : les années de ses dates)",
    "seuil_S": "moyenne finale du dernier joueur actif (S) de la saison précédente ; vide la première saison de "
               "la réforme (xlcircuit new dbm … --depuis la calcule)",
    "seuil_O": "moyenne finale du dernier joueur actif (O) de la saison précédente ; vide la première saison de "
               "la réforme (xlcircuit new dbm … --depuis la calcule)",
}


def new_workbook() -> Workbook:
    """A fresh, empty season workbook."""
    wb = start_workbook(TITLE, PARAMETRES, [(name, None, COMMENTS[name]) for name in PARAMETERS], INPUTS, GUIDE, 9)
    finish_workbook(wb, FEDERATION, [(spec, title(TITLE, _WHAT[spec.name])) for spec in _OUTPUTS])
    add_season_sheets(wb, TITLE)
    return wb


def put_example(wb: Workbook) -> None:
    """Type the bundled example season into the input tables."""
    type_rows(wb, PARAMETRES, [("Saison", load("dbm").SAISON, COMMENTS["Saison"]),
                               ("seuil_S", load("dbm").SEUIL_S, COMMENTS["seuil_S"]),
                               ("seuil_O", load("dbm").SEUIL_O, COMMENTS["seuil_O"])])
    type_rows(wb, JOUEURS, load("dbm").JOUEURS)
    type_rows(wb, TOURNOIS, load("dbm").TOURNOIS)
    type_rows(wb, RESULTATS, load("dbm").RESULTATS)


# --- reading ---------------------------------------------------------------------------------


def _read_parameters(book: Book, problems: Problems) -> tuple[str | None, dbm.Thresholds | None, dict[str, str]]:
    """The season's name, the thresholds (None when one is wrong or absent), and where each threshold is typed."""
    parameters = read_parameters(book, PARAMETRES, problems)
    records = parameters.records
    found = {}
    cells = {name: at_cell(records[fold(name)], "Valeur") for name in ("seuil_S", "seuil_O") if fold(name) in records}
    for name in ("seuil_S", "seuil_O"):
        record = records.get(fold(name))
        if record is None:
            problems.add(Problem(PARAMETRES.sheet, None, "Paramètre", f"ligne « {name} » absente de la table "
                                 f"« {PARAMETRES.name} » : ajoutez-la avec sa valeur (vide la première saison "
                                 "de la réforme)"))
            continue
        mark = problems.mark()
        value = parse_cell(problems, record, "Valeur", as_number, f"nombre ({name})")
        if value is not None and value < 0:
            problems.at(record, "Valeur", f"{name} attendu : un nombre positif ; trouvé {value}")
        elif not problems.since(mark):
            found[name] = value  # blank: the reform's first season (dbm.Thresholds)
    season = parameters.text("Saison")
    if len(found) == 2:
        return season, dbm.Thresholds(found["seuil_S"], found["seuil_O"]), cells
    return season, None, cells


def _threshold_warnings(thresholds: dbm.Thresholds, cells: dict[str, str] | None = None) -> list[str]:
    """A blank threshold is the reform's first season: said at its cell, with what it means."""
    blank = [(name, low, high) for name, value, low, high in (("seuil_S", thresholds.seuil_s, "O", "S"),
                                                              ("seuil_O", thresholds.seuil_o, "F", "O"))
             if value is None]
    where = cells or {}
    return [(f"{where[name]} : " if name in where else "")
            + f"{name} vide : première saison de la réforme (pas de dernier joueur actif ({high}) de la saison "
            f"précédente) ; aucun joueur ({low}) ne joue en ({high}) en cours de saison." for name, low, high in blank]


def _read_players(book: Book, problems: Problems) -> tuple[Register, dict[str, dbm.PlayerClass], dict[str, Record]]:
    """The register, each player's class, and his line of the Joueurs table."""
    register = read_register(book, JOUEURS, problems)
    classes: dict[str, dbm.PlayerClass] = {}
    records: dict[str, Record] = {}
    for entry in register:
        record = records[entry.name] = entry.record
        cls = parse_cell(problems, record, "Classe", lambda v: None if v is None else dbm.PlayerClass.parse(v))
        if cls is not None:
            classes[entry.name] = cls
    return register, classes, records


def _read_tournaments(book: Book, problems: Problems) -> list[TournamentRow]:
    rows: list[TournamentRow] = []
    seen: dict[str, Record] = {}
    for record in read_table(book, TOURNOIS, problems):
        name = tournament_name(record, problems, seen, "poule")
        if name is None:
            continue
        seen[name.casefold()] = record
        date = parse_cell(problems, record, "Date", as_date)
        if date is None and record.values.get("Date") is None:
            problems.at(record, "Date", "date manquante : les poules sont prises dans l'ordre des dates "
                                        "(valeur actualisée des joueurs)")
        rounds = parse_cell(problems, record, "Rondes", as_positive_int, "nombre de rondes")
        if rounds is None and record.values.get("Rondes") is None:
            problems.at(record, "Rondes", f"nombre de rondes jouées manquant ({USUAL_TEXT})")
        elif rounds is not None and rounds > MAX_ROUNDS:
            problems.at(record, "Rondes", f"nombre de rondes attendu : de 1 à {MAX_ROUNDS} ; trouvé {rounds}")
            rounds = None
        doubles = parse_cell(problems, record, "Doubles", as_yes_no)
        foreign = parse_cell(problems, record, "Étranger", as_yes_no)
        rows.append(TournamentRow(record, name, date, rounds, bool(doubles), bool(foreign)))
    return rows


#: The column of each field the core's checks locate a violation on (:class:`xlcircuit.errors.Violation`).
COLUMNS = {"player": "Joueur", "partner": "Équipier", "place": "Place", "referee": "Arbitre"}


def _read_results(book: Book, problems: Problems, tournaments: dict[str, TournamentRow],
                  register: Register) -> list[Line]:
    lines: list[Line] = []
    records: list[Record] = []
    checks = dbm.EntryChecks(lambda i: f"ligne {records[i].row}")
    for record in read_table(book, RESULTATS, problems):
        found = problems.mark()
        tournament, player = tournament_and_player(record, problems, tournaments, register.resolve)
        partner = register.resolve(problems, record, "Équipier")
        place = parse_cell(problems, record, "Place", as_positive_int)
        referee = parse_cell(problems, record, "Arbitre", as_yes_no)
        if problems.since(found) or tournament is None or player is None:
            continue
        entry = dbm.Entry(player, partner, place, bool(referee))
        records.append(record)
        violations = checks.check(len(records) - 1, tournament, tournaments[tournament].doubles, entry)
        for v in violations:
            problems.at(record, COLUMNS[v.field], v.message)
        if not violations:
            lines.append(Line(record, tournament, entry))
    return lines


def _check_tournaments(rows: list[TournamentRow], lines: list[Line], problems: Problems) -> None:
    """What one line cannot show (the core's check): a referee's bonus needs a tournament with players."""
    for v in dbm.referee_violations([(line.tournament, line.entry) for line in lines]):
        problems.at(lines[v.index].record, COLUMNS[v.field], v.message)


def _gaps(places: list[int]) -> list[int]:
    """Places missing from a classification that ties do not explain (1, 2, 4: the 3rd)."""
    ordered = sorted(places)
    taken = set(ordered)
    return [p for p in range(1, (ordered[-1] if ordered else 0) + 1)
            if p not in taken and not any(q < p < q + ordered.count(q) for q in taken)]


def _warnings(rows: list[TournamentRow], lines: list[Line], classes: dict[str, dbm.PlayerClass],
              listed: dict[str, Record] | None = None) -> list[str]:
    """What to look at: poules without results, unusual rounds, gaps, doubles without a partner, players
    without a class (each at its cell), probable misspellings (``listed``: the Joueurs table's lines)."""
    listed = listed or {}
    warnings = []
    by_tournament: dict[str, list[Line]] = defaultdict(list)
    for line in lines:
        by_tournament[line.tournament].append(line)
    for row in rows:
        group = by_tournament[row.name]
        if not group:
            warnings.append(f"La poule « {row.name} » n'a encore aucun résultat.")
            continue
        if row.rounds is not None and row.rounds not in USUAL_ROUNDS:
            warnings.append(f"« {row.name} » est joué en {row.rounds} rondes (d'habitude {USUAL_TEXT}) : "
                            "vérifiez la colonne Rondes.")
        missing = _gaps([line.entry.place for line in group if line.entry.place is not None])
        if missing:
            shown = ", ".join(map(str, missing))
            warnings.append(f"« {row.name} » : place{'s' if len(missing) > 1 else ''} {shown} absente"
                            f"{'s' if len(missing) > 1 else ''} du classement : les joueurs suivants sont "
                            "classés à leur rang réel (1 + les joueurs devant eux).")
        alone = [line for line in group if row.doubles and line.entry.place is not None
                 and line.entry.partner is None]
        if alone:
            named = ", ".join(f"{line.entry.player} ({at_cell(line.record, 'Équipier')})" for line in alone)
            warnings.append(f"« {row.name} » est en double mais {named} n'a pas d'équipier : "
                            "compté comme une équipe d'un joueur.")
    return warnings + _newcomers(lines, classes, listed) + _spellings(lines, listed)


def _newcomers(lines: list[Line], classes: dict[str, dbm.PlayerClass], listed: dict[str, Record]) -> list[str]:
    """The players without a class, classed as newcomers: each with his blank Classe cell, or none when he is
    not in the Joueurs table at all."""
    people = sorted({p for line in lines for p in (line.entry.player, line.entry.partner) if p})
    newcomers = [p for p in people if p not in classes]
    if not newcomers:
        return []
    shown = ", ".join(f"{p} ({at_cell(listed[p], 'Classe')})" if p in listed else p
                      for p in newcomers[:NEWCOMERS_SHOWN]) + (" …" if len(newcomers) > NEWCOMERS_SHOWN else "")
    return [f"{len(newcomers)} joueur{'s' if len(newcomers) > 1 else ''} sans classe dans la table "
            f"Joueurs, classé{'s' if len(newcomers) > 1 else ''} {dbm.NEWCOMER.letter} (nouveaux joueurs) : {shown}."]


def _spellings(lines: list[Line], listed: dict[str, Record]) -> list[str]:
    """Names probably of one person (:func:`duplicate_warnings`), from the Joueurs table and the results."""
    typed = [(p, at_cell(listed[p], "Joueur")) for p in listed]
    for line in lines:
        typed.append((line.entry.player, at_cell(line.record, "Joueur")))
        if line.entry.partner:
            typed.append((line.entry.partner, at_cell(line.record, "Équipier")))
    return duplicate_warnings(typed)


def season_label(given: str | None, rows: list[TournamentRow]) -> str:
    """The season's name: the ``Saison`` parameter, or the years of its poules (``2025-2026``)."""
    return given or season_years(t.date for t in rows)


@dataclass
class Typed:
    """The input tables as read."""

    season: str | None
    thresholds: dbm.Thresholds | None
    classes: dict[str, dbm.PlayerClass]
    register: Register
    tournaments: list[TournamentRow]
    lines: list[Line]
    listed: dict[str, Record] = field(default_factory=dict)  # each player's line of the Joueurs table
    cells: dict[str, str] = field(default_factory=dict)  # where each threshold is typed


def read(book: Book, problems: Problems) -> Typed:
    """The input tables, every problem added to ``problems``."""
    season, thresholds, cells = _read_parameters(book, problems)
    register, classes, listed = _read_players(book, problems)
    rows = _read_tournaments(book, problems)
    lines = _read_results(book, problems, {row.name: row for row in rows}, register)
    _check_tournaments(rows, lines, problems)
    return Typed(season, thresholds, classes, register, rows, lines, listed, cells)


def summarise(typed: Typed) -> Summary:
    """The season computed by the core (:func:`xlcircuit.dbm.run_season`)."""
    assert typed.thresholds is not None  # read() adds a problem for each missing threshold
    rows, lines, classes, clubs = typed.tournaments, typed.lines, typed.classes, typed.register.clubs()
    entries: dict[str, list[dbm.Entry]] = defaultdict(list)
    for line in lines:
        entries[line.tournament].append(line.entry)
    season = [dbm.Tournament(row.name, row.date, row.rounds, row.doubles, tuple(entries[row.name]), row.foreign)
              for row in rows]
    report = dbm.run_season(season, classes, typed.thresholds, clubs)
    ordered = sorted(rows, key=lambda r: (r.date, fold(r.name), r.name))
    playing_referees = {(line.tournament, line.entry.player) for line in lines
                        if line.entry.referee and line.entry.place is not None}
    return Summary(ordered, report, typed.thresholds,
                   _threshold_warnings(typed.thresholds, typed.cells) + _warnings(ordered, lines, classes, typed.listed),
                   season_label(typed.season, rows), clubs, playing_referees)


# --- writing ---------------------------------------------------------------------------------


def _decimal(x: float) -> str:
    """Two decimals, as MVB, CMM, VFT and means are published, with the French decimal comma."""
    return decimal_comma(x, 2)


def valeurs_rows(summary: Summary) -> list[list[object]]:
    """The ``Valeurs`` table: ABRA's figures of every poule, in date order."""
    rows = []
    for t in summary.tournaments:
        v = summary.report.values.get(t.name)
        flags = ["oui" if t.doubles else None, "oui" if t.foreign else None]
        if v is None:
            rows.append([t.name, t.date, *flags, t.rounds] + [None] * 7)
            continue
        rows.append([t.name, t.date, *flags, v.nrj, v.njt, v.bjr, v.svb, v.mvb, v.cmm, v.vft,
                     dbm.referee_bonus(v.vft)])
    return rows


def _remark(r: dbm.Result, summary: Summary) -> str | None:
    referees, thresholds = summary.playing_referees, summary.thresholds
    notes = []
    if r.player not in summary.report.records:
        notes.append("hors championnat : aucun tournoi français cette saison")
    if r.referee:
        notes.append(f"arbitre qui n'a pas joué : prime d'arbitrage (moitié de la VFT, {dbm.REFEREE_CAP:g} au plus)")
    elif (r.tournament, r.player) in referees:
        notes.append("arbitre et joueur : le résultat de sa place seulement")
    if r.vaj is not None and r.start is not None and r.vaj is not r.start and r.before is not None:
        mean = _decimal(r.before)
        if r.vaj is dbm.PlayerClass.S and thresholds.seuil_s is not None:  # never without it (first season)
            why = f"moyenne {mean} ≥ seuil_S ({_decimal(thresholds.seuil_s)})"
        elif r.vaj is dbm.PlayerClass.O and r.start is dbm.PlayerClass.F and thresholds.seuil_o is not None:
            why = f"moyenne {mean} ≥ seuil_O ({_decimal(thresholds.seuil_o)})"
        elif r.vaj is dbm.PlayerClass.I:
            why = f"moyenne {mean} ≤ {I_LIMIT}"
        else:
            why = f"moyenne {mean} > {I_LIMIT}"
        notes.append(f"classé ({r.start.letter}), joue en ({r.vaj.letter}) : {why}")
    if r.team_value is not None and r.vaj is not None and r.team_value != r.vaj.value:
        notes.append("valeur de l'équipe : celle de son équipier")
    return " ; ".join(notes) or None


def points_rows(summary: Summary) -> list[list[object]]:
    """The ``Points`` table: every player's result in every poule, with the VAJ he played with."""
    rows = []
    for t in summary.tournaments:
        results = sorted(summary.report.results.get(t.name, []), key=lambda r: (
            r.referee, r.effective or 0, fold(r.player), r.player))
        for r in results:
            rows.append([
                t.name, t.date, r.player, r.partner, r.place, r.effective, r.tied,
                r.start.letter if r.start else None, r.before, r.vaj.letter if r.vaj else None,
                r.vaj.value if r.vaj else None, r.team_value, r.points, "oui" if r.counted else None,
                _remark(r, summary),
            ])
    return rows


def tableau1_rows(summary: Summary) -> list[list[object]]:
    """``Tableau 1``: active players by the sum of their four best results; ``*``: three tournaments."""
    rows = []
    for ranked in summary.report.tableau1:
        record = ranked.record
        # To the hundredth so that the four add up to the total as printed (each as the Points sheet shows it,
        # but for a hundredth where rounding each would miss the rounded total).
        best = rounded_parts(list(record.best), 2) + [None] * (dbm.BEST - len(record.best))
        rows.append([ranked.place, record.player, "*" if record.three_only else None,
                     summary.clubs.get(record.player), record.tournaments, *best, record.total])
    return rows


def tableau2_rows(summary: Summary) -> list[list[object]]:
    """``Tableau 2``: every player, alphabetical."""
    classes = summary.report.classes
    return [[place, record.player, summary.clubs.get(record.player), classes[record.player].end.letter,
             len(record.best), record.mean] for record, place in summary.report.tableau2]


def equipes_rows(summary: Summary) -> list[list[object]]:
    """``Équipes``: the clubs' triplets by total; an incomplete last triplet without a place."""
    return [[team.place, team.club, team.number, *(list(team.players) + [None] * (dbm.TEAM_SIZE - len(team.players))),
             team.total] for team in summary.report.teams]


def _nth(place: int | None) -> str:
    return "1er" if place == 1 else f"{place}e"


def _motif(change: dbm.NextClass, place: int | None) -> str:
    """Why a player has his class for next season, in French."""
    reason = change.reason
    beyond = f"au-delà des {dbm.SHARES[-1]} % premiers"
    if reason is dbm.Reason.SHARE:
        low, high = dbm.share_of(change.end)
        text = f"actif, {_nth(place)} du tableau 1 : dans les {high - low} % {'suivants' if low else 'premiers'}"
    elif reason is dbm.Reason.BELOW_15:
        text = f"actif, {beyond}, moyenne des {in_words(dbm.BEST)} meilleurs résultats inférieure à {I_LIMIT}"
    elif reason is dbm.Reason.OTHERS:
        text = f"actif, {beyond}"
    elif reason is dbm.Reason.THREE_UP:
        text = (f"actif avec {in_words(dbm.ACTIVE)} résultats, {_nth(place)} du tableau 1 "
                f"({change.end.down().letter}), monte d'une "
                f"classe : moyenne au moins égale à celle de {change.reference_player}, dernier actif "
                f"({change.end.letter}) ({_decimal(change.reference)})")
    elif reason is dbm.Reason.OCCASIONAL_UP:
        text = (f"occasionnel, monte d'une classe : moyenne au moins égale à celle de {change.reference_player}, "
                f"dernier actif ({change.end.letter}) ({_decimal(change.reference)})")
    elif reason is dbm.Reason.OCCASIONAL_DOWN:
        text = (f"occasionnel, descend d'une classe : moyenne au plus égale à celle de {change.reference_player}, "
                f"premier actif ({change.end.letter}) ({_decimal(change.reference)})")
    else:
        text = reason.value
    return text


def classes_rows(summary: Summary) -> list[list[object]]:
    """``Classes``: every player's class at the start and at the end of the season, and why."""
    report = summary.report
    places = {r.record.player: r.place for r in report.tableau1}
    rows = []
    for player in sorted(report.classes, key=lambda p: (fold(p), p)):
        change = report.classes[player]
        record = report.records.get(player)
        status = "absent" if record is None else "actif" if record.active else "occasionnel"
        rows.append([player, summary.clubs.get(player), status, record.tournaments if record else 0,
                     record.mean if record else None, places.get(player), change.start.letter, change.end.letter,
                     _motif(change, places.get(player))])
    return rows


_WHAT = {
    "Valeurs": "valeur des poules", "Points": "résultats des joueurs", "Tableau1": "tableau 1 (classement officiel)",
    "Tableau2": "tableau 2", "Equipes": "classement par équipes", "Classes": "classes pour la saison suivante",
}


def outputs(summary: Summary, club: str | None = None, day: dt.date | None = None) -> list[Output]:
    """The published tables, with their titles; the podium highlighted, or a club's players."""
    day = day or dt.date.today()
    table1 = tableau1_rows(summary)
    highlights = podium_or_club(table1, summary.clubs, club)
    made = {
        "Valeurs": valeurs_rows(summary), "Points": points_rows(summary), "Tableau1": table1,
        "Tableau2": tableau2_rows(summary), "Equipes": equipes_rows(summary), "Classes": classes_rows(summary),
    }
    return [Output(spec, spec.columns, made[spec.name], title(TITLE, _WHAT[spec.name], summary.season, day),
                   highlights if spec is TABLEAU1 else {}, notes=_NOTES.get(spec.name, ()),
                   repeat_columns=_REPEAT[spec.name])
            for spec in _OUTPUTS]


#: The legend under a table, and the columns (place, name) repeated on each printed page.
_NOTES = {
    "Tableau1": (
        "Les joueurs actifs (au moins trois tournois recensés) par la somme de leurs quatre meilleurs résultats "
        "(RFJ) ;",
        "* : n'a participé qu'à trois tournois recensés (la somme porte sur ses trois résultats).",
        "Le résultat de chaque poule (RFJ, VAJ, place) : feuille « Points », colonne « Compté » : "
        "« oui » pour les quatre retenus.",
    ),
    "Points": ("RFJ = VFT / 2 ^ (4 × (place - 1) / NJT) ; VFT de la poule : feuille « Valeurs » ; « Compté » : "
               "parmi les quatre meilleurs du joueur.",),
}
_REPEAT = {"Valeurs": 1, "Points": 3, "Tableau1": 2, "Tableau2": 2, "Equipes": 2, "Classes": 1}


def _count(n: int, word: str) -> str:
    return count(n, word)


def report(summary: Summary) -> list[str]:
    """What ``check`` and ``fill`` print: the counts, then the top of Tableau 1 (French)."""
    table1 = summary.report.tableau1
    lines = [f"{_count(len(summary.tournaments), 'poule')}, {_count(len(summary.report.records), 'joueur')}, "
             f"{_count(len(table1), 'actif')} au tableau 1."]

    def line(ranked: dbm.Ranked) -> str:
        name = ranked.record.player + (" *" if ranked.record.three_only else "")
        return f"  {ranked.place:>3}. {name:<30} {_decimal(ranked.record.total):>8}"

    return lines + top_lines(table1, SHOWN, TABLEAU1.sheet, line)


#: What the journal and ``xlcircuit diff`` compare: each result's place and partner, each active player's place
#: and total in Tableau 1.
TRACKED = Tracked(POINTS, ("Tournoi",), ("Joueur",), ("Place", "Équipier"), TABLEAU1, "Joueur", "Place", "Total")
STEPS = Steps(FEDERATION, Owned.of(_OUTPUTS), read, summarise, outputs,
              journal=Journal(TITLE, TRACKED, lambda summary: report(summary)[0]))
compute, fill = STEPS.compute, STEPS.fill


# --- the explanation of a player's points (xlcircuit explain) -------------------------------------


def _explained_result(r: dbm.Result, summary: Summary) -> str:
    """One result of a player, for ``explain``: the place (or the referee's bonus), the VFT, the RFJ, counted or not."""
    value = summary.report.values.get(r.tournament)
    if r.referee:
        what = "arbitre : prime d'arbitrage (moitié de la VFT, 100 au plus)"
    else:
        tie = f", ex aequo à {r.tied}" if r.tied and r.tied > 1 else ""
        what = f"{nth(r.effective)}{tie} sur {value.njt if value else '?'} (NJT)"
        what += f", joue en classe {r.vaj.letter}" if r.vaj else ""
    vft = f" ; VFT {decimal_comma(value.vft, 2)}" if value else ""
    remark = _remark(r, summary)
    date = next((t.date for t in summary.tournaments if t.name == r.tournament), None)
    return (f"  {when(date)}  {r.tournament} : {what}{vft} → RFJ {decimal_comma(r.points, 2)} ; "
            f"{'compté' if r.counted else 'non compté (hors des quatre meilleurs)'}"
            + (f" ({remark})" if remark else ""))


def _explained_total(summary: Summary, player: str, record: dbm.Record) -> list[str]:
    """The end of ``explain``: the sum of the best four, then the place in Tableau 1 (or occasional) and the total."""
    parts = rounded_parts(list(record.best), 2)
    total = decimal_comma(record.total, 2)
    lines = [f"Somme des {len(parts)} meilleurs : {summed(parts, 2, total)}"]
    place = next((r.place for r in summary.report.tableau1 if r.record.player == player), None)
    if place is None:
        lines.append(f"Occasionnel : {record.tournaments} tournoi{'s' if record.tournaments > 1 else ''} ; il en "
                     "faut trois pour figurer au tableau 1.")
        lines.append(f"Total (hors tableau 1) : {total}")
    else:
        star = " (* : trois tournois seulement)" if record.three_only else ""
        lines.append(f"Tableau 1 : {nth(place)}{star}.")
        lines.append(f"Total au tableau 1 : {total}")
    return lines


def explain(summary: Summary, wanted: str) -> list[str]:
    """``xlcircuit explain``: the lines explaining ``wanted``'s points, in French, each result with its rule,
    the last line ending on his published total."""
    report = summary.report
    results = [r for t in summary.tournaments for r in report.results.get(t.name, [])]
    player = find_player(wanted, [r.player for r in results])
    record = report.records.get(player)
    lines = [f"{player} — {TITLE} {summary.season}".rstrip(),
             "Résultat d'une poule (RFJ) : VFT / 2^(4 × (place - 1) / NJT) ; VFT, la valeur de la poule "
             "(feuille « Valeurs ») ; ex aequo : la moyenne de leurs places.",
             "Tableau 1 : les joueurs d'au moins trois tournois, par la somme de leurs quatre meilleurs résultats.",
             ""]
    lines += [_explained_result(r, summary) for r in results if r.player == player]
    lines.append("")
    if record is None:
        lines.append("Hors championnat : aucun tournoi français cette saison.")
        return lines
    return lines + _explained_total(summary, player, record)


# --- season after season ---------------------------------------------------------------------------


def honours(summary: Summary) -> Honours:
    """The season's line of the palmarès: Tableau 1 « désigne le champion » (TABLEAUX), and its next two; the
    first team of the Classement par équipes."""
    champion, second, third = seasons.podium((r.place, r.record.player) for r in summary.report.tableau1)
    team = next((t for t in summary.report.teams if t.place == 1), None)
    titles = (f"Classement par équipes : {team.club} (équipe {team.number} : {', '.join(team.players)})"
              if team else None)
    return Honours(summary.season, champion, second, third, titles)


def _threshold(value: float | None, player: str | None, letter: str, summary: Summary) -> Parameter:
    """A threshold of next season, its comment naming the reference player."""
    name = f"seuil_{letter}"
    season = f" {summary.season}" if summary.season else ""
    if value is None or player is None:
        return Parameter(name, None, f"aucun joueur actif ({letter}) en fin de saison{season} : vide, aucun passage "
                                     f"en ({letter}) en cours de saison")
    place = next(r.place for r in summary.report.tableau1 if r.record.player == player)
    return Parameter(name, value, f"moyenne finale {of(player)}, dernier joueur actif ({letter}) en fin de saison"
                                  f"{season} ({_nth(place)} du tableau 1) : {_decimal(value)}", TWO)


def carry(summary: Summary, register: Register) -> Carry:
    """Next season (VBJ, VAJ): every player's class from this season's end (« En fin de saison, et pour le début
    de la saison suivante »), and seuil_S, seuil_O from this season's last active (S) and (O)
    (:func:`xlcircuit.rules.dbm.next_thresholds`)."""
    report = summary.report
    following = dbm.next_thresholds(report.tableau1)
    s = _threshold(following.seuil_s, following.player_s, "S", summary)
    o = _threshold(following.seuil_o, following.player_o, "O", summary)
    extra = {player: {"Classe": change.end.letter} for player, change in report.classes.items()}
    people = sorted({r.player for results in report.results.values() for r in results}
                    | {r.partner for results in report.results.values() for r in results if r.partner},
                    key=lambda p: (fold(p), p))
    players = register_rows(register, extra, people)
    notes = [f"{p.name} : {p.comment}." for p in (s, o)]
    notes.append(f"Classes : celle de fin de saison de chaque joueur (feuille « {CLASSES.sheet} »), pour "
                 f"{count(len(extra), 'joueur')} ; les autres sont des nouveaux ({dbm.NEWCOMER.letter}).")
    return Carry([Parameter("Saison", seasons.next_name(summary.season), COMMENTS["Saison"]), s, o], players, notes)


# --- importing results (xlcircuit import) ----------------------------------------------------------------


def _rounds(value: object) -> int | None:
    rounds = as_positive_int(value, "nombre de rondes")
    if rounds is not None and rounds > MAX_ROUNDS:
        raise InvalidInput(f"nombre de rondes attendu : de 1 à {MAX_ROUNDS} ; trouvé {rounds}")
    return rounds


def _imported_line(values) -> list[tuple[str, str]]:
    """A line has a place, or is a referee's who did not play (his bonus)."""
    if values.get("Place") is None and values.get("Arbitre") is None:
        return [("Place", "place manquante : un joueur classé a sa place finale ; un arbitre qui ne joue pas : "
                          "« oui » dans Arbitre")]
    return []


REFEREE = ("arbitre", "referee", "arbitrage")
IMPORTER = Importer(
    lines=RESULTATS,
    fields=(
        Field("Tournoi", words.TOURNAMENT + ("poule", "nom de la poule", "tournoi poule"), sources.tournament_name,
              fact=True),
        Field("Joueur", words.PLAYER, sources.text, required=True, person=True),
        Field("Équipier", ("equipier", "coequipier", "partenaire", "partner", "teammate", "equipier en double"),
              sources.text, person=True),
        Field("Place", words.PLACE, as_positive_int),
        Field("Arbitre", REFEREE, sources.yes),
    ),
    key=("Tournoi",), named="Tournoi", what="poule",
    tournaments=TOURNOIS,
    about=(
        Field("Date", words.DATE, as_date),
        Field("Rondes", ("rondes", "nombre de rondes", "nb rondes", "nb de rondes", "rondes jouees",
                         "nombre de rondes jouees", "nrj", "rounds"), _rounds),
        Field("Doubles", ("doubles", "double", "en double", "poule en double"), sources.yes),
        Field("Étranger", ("etranger", "tournoi etranger", "a l'etranger", "hors de france", "foreign"), sources.yes),
    ),
    players=JOUEURS, player_fields=(Field("Club", words.CLUB, sources.text),), register=True,
    people=(Person(Field("Arbitre", REFEREE + ("nom de l'arbitre", "arbitre principal"), sources.text, person=True),
                   {"Arbitre": "oui"}),),
    check=_imported_line,
    form=Form(
        "feuille de résultats d'une poule, à envoyer à l'animateur du championnat",
        facts=("Tournoi", "Date", "Rondes", "Arbitre", "Doubles", "Étranger"),
        columns=("Place", "Nom", "Prénom", "Club", "Équipier"),
        guide=("Le minimum que demande la réforme 98/99 (« La feuille de résultats ») est le nom de l'arbitre, le "
               "nombre de rondes jouées,",
               "les noms et prénoms des joueurs engagés, leur club d'appartenance et leur place à l'issue du tournoi. "
               "En double, le nom complet de l'équipier."),
        choices={"Doubles": ("oui", "non"), "Étranger": ("oui", "non"), "Rondes": ("4", "5")},
        widths={"Nom": 22, "Prénom": 18, "Club": 30, "Équipier": 28, "Place": 10},
    ),
)


class Dbm(Adapter):
    """The dbm workbook (see the module's docstring)."""

    info, steps, importer = INFO, STEPS, IMPORTER
    inputs, standings, lines = INPUTS, STANDINGS, LINES
    players, parameters = JOUEURS, PARAMETRES

    def honours(self, summary: Summary) -> Honours:
        return honours(summary)

    def carry(self, summary: Summary, register: Register) -> Carry:
        return carry(summary, register)

    def new_workbook(self) -> Workbook:
        return new_workbook()

    def put_example(self, wb: Workbook) -> None:
        put_example(wb)

    def report(self, summary: Summary) -> list[str]:
        return report(summary)

    def explain(self, summary: Summary, wanted: str) -> list[str]:
        return explain(summary, wanted)


ADAPTER = Dbm()
'''

# --- xlcircuit/federations/elo.py --------------------------------------------------------------------
_SOURCES['xlcircuit.federations.elo'] = False, r'''
"""The ranked Elo workbook: reads ``Parties`` (and ``Réglages``), writes ``Historique`` and
``Classement``. An adapter: every rule is in :mod:`xlcircuit.elo`."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.datavalidation import DataValidation

from ..rules import elo, seasons
from ..rules.errors import InvalidInput
from ..rules.text import fold, in_words
from ..workbook.adapter import Adapter
from ..workbook.cells import as_date, as_number, as_text
from ..workbook.journal import Journal, Tracked
from ..workbook.procedure import Steps
from ..workbook.read import read_table
from ..workbook.register import Register, duplicate_warnings, players_table, read_register, unmatched_warnings
from ..workbook.seasons import Carry, Honours, Parameter, add_season_sheets, register_rows
from ..workbook.sheets import (
    at_cell,
    fill_step,
    finish_workbook,
    parameters_table,
    parse_cell,
    podium_or_club,
    read_parameters,
    start_workbook,
)
from ..workbook.sources import SOURCE, Field, Form, Importer
from ..workbook.sources import mapping as sources
from ..workbook.sources import words as headings
from ..workbook.spec import Column, Output, Problems, Record, TableSpec
from ..workbook.wording import (
    count,
    decimal_comma,
    find_player,
    nth,
    season_years,
    signed,
    summed,
    title,
    top_lines,
    when,
)
from ..workbook.write import type_rows
from ..xlsx import Book, Owned
from . import federation
from .examples import load

INFO = federation("elo")  # code, French title, template and example file
FEDERATION, TITLE, TEMPLATE, EXAMPLE = INFO.code, INFO.name, INFO.template, INFO.example
DATE_FORMAT = "dd/mm/yyyy"
RATING_FORMAT = "0"
EXPECTATION_FORMAT = "0.0000"  # the source gives expectations to four decimals
RAW_FORMAT = "0.00"
CHANGE_FORMAT = "+0;-0;0"
#: A total beyond this is a typing mistake (:mod:`xlcircuit.limits`).
MAX_TOTAL = elo.MAX_TOTAL

#: Who wins, as the Réglages table says it (any case, accents optional).
LOWEST, HIGHEST = "plus petit total", "plus grand total"
_WINNER_WORDS = {
    True: {"plus petit total", "plus petit", "petit", "le plus petit total", "le plus petit", "moins", "min",
           "minimum", "bas", "plus bas"},
    False: {"plus grand total", "plus grand", "grand", "le plus grand total", "le plus grand", "plus", "max",
            "maximum", "haut", "plus haut"},
}

REGLAGES = parameters_table("Réglages", "Reglages")
#: The register: each player's club, and where he starts from (his rating and the ranked games he has played,
#: carried over from last season or typed by hand; blank: 1000 and none).
JOUEURS = players_table(Column("Club", width=30), Column("Elo", required=False, width=8, number_format=RATING_FORMAT),
                        Column("Parties", required=False, width=9), required=False)
PARTIES = TableSpec("Parties", "Parties", (
    Column("Date", width=12, number_format=DATE_FORMAT),
    Column("Partie", width=14),
    Column("Joueur", width=26),
    Column("Total", width=10),
    Column(SOURCE, required=False, width=30),  # where an imported line came from (xlcircuit import)
))
HISTORIQUE = TableSpec("Historique", "Historique", (
    Column("Date", width=12, number_format=DATE_FORMAT),
    Column("Partie", width=14),
    Column("Joueur", width=26),
    Column("Total", width=9),
    Column("Rang", width=7),
    Column("Elo avant", width=10, number_format=RATING_FORMAT),
    Column("Partie n°", width=9),
    Column("K", width=6),
    Column("Attendu", width=10, number_format=EXPECTATION_FORMAT),
    Column("Obtenu", width=10, number_format=EXPECTATION_FORMAT),
    Column("Écart non arrondi", width=11, number_format=RAW_FORMAT),
    Column("Variation", width=10, number_format=CHANGE_FORMAT),
    Column("Elo après", width=10, number_format=RATING_FORMAT),
    Column("Remarque", width=28),
))
CLASSEMENT = TableSpec("Classement", "Classement", (
    Column("Rang", width=7),
    Column("Joueur", width=26),
    Column("Elo", width=9, number_format=RATING_FORMAT),
    Column("Parties", width=9),
    Column("Palier", width=22),
    Column("Dernière partie", width=14, number_format=DATE_FORMAT),
))

(_K_GAMES, _K_FIRST), (_K_UNTIL, _K_SECOND) = elo.K_STEPS
_TIERS = [t.label if t.start == elo.FLOOR else f"{t.label} ({t.start})" for t in elo.Tier if t.start is not None]
#: The guide states the rule's numbers from the core's constants (start, K, floor, tiers, placement).
GUIDE = [
    "Mode d'emploi",
    "1. Table Réglages ci-dessus : « Vainqueur » dit qui gagne une partie, « plus petit total » (le jeu du",
    "   règlement) ou « plus grand total ». « Nom » (facultatif) figure dans les titres.",
    "2. Feuille « Parties » : une ligne par joueur et par partie : la date, la partie (un numéro ou un nom,",
    f"   le même pour tous ses joueurs), le joueur et son total. De {elo.MIN_PLAYERS} à {elo.MAX_PLAYERS} joueurs "
    "par partie ; ex aequo :",
    "   le même total. Les parties sont comptées dans l'ordre des dates, puis dans l'ordre tapé.",
    "3. Feuille « Joueurs » (facultatif) : le club de chaque joueur (pour « xlcircuit share --clubs ») ; Elo et",
    "   Parties : la note d'un joueur qui a déjà joué et son nombre de parties classées (vide : 1000 et 0) ;",
    "   Identifiant et Alias (autres orthographes, séparées par « ; ») : lus comme son nom.",
    *fill_step(4),
    "",
    f"Tout le monde commence à {elo.START} (ou à l'Elo de la table Joueurs). Chaque partie est l'ensemble de ses",
    "duels ; la variation d'un joueur est K × (obtenu - attendu), arrondie au plus proche (demis vers le haut) ;",
    f"K vaut {_K_FIRST} pour les parties 1 à {_K_GAMES}, {_K_SECOND} jusqu'à la {_K_UNTIL}e, puis {elo.K_LAST} (parties "
    "déjà jouées comprises).",
    f"Le seul premier gagne au moins 1 point, le seul dernier en perd au moins 1 ; aucune note ne descend sous {elo.FLOOR}.",
    f"Paliers : {', '.join(_TIERS[:4])},",
    f"{', '.join(_TIERS[4:])}, annoncés après les {in_words(elo.PLACEMENT_GAMES)} parties de placement.",
    "",
    "Les tables Historique et Classement sont réécrites à chaque remplissage : n'y tapez rien.",
    "Vos autres feuilles, colonnes, formules et mises en forme sont conservées.",
]


@dataclass
class Entry:
    """A line of the Parties table: where it was typed and what it says."""

    record: Record
    date: dt.date
    game: str
    player: str
    total: float


@dataclass
class Summary:
    """What a check or a fill found: the history, the settings, and warnings for the organiser."""

    games: list[elo.Game]
    history: elo.History
    lowest_wins: bool = True
    name: str = ""
    warnings: list[str] = field(default_factory=list)
    clubs: dict[str, str] = field(default_factory=dict)  # player -> club, from the Joueurs table
    starts: dict[str, elo.Start] = field(default_factory=dict)  # where the players of the Joueurs table start


#: The tables the organiser fills in (named by ``xlcircuit new``).
INPUTS = (PARTIES,)
#: The main standings (shared as PDF, highlighted per club) and the per-result lines (per club).
STANDINGS, LINES = CLASSEMENT, HISTORIQUE
SHOWN = 10  # standings lines printed after a fill


# --- the template ----------------------------------------------------------------------------


def new_workbook() -> Workbook:
    """A fresh, empty ranked-Elo workbook."""
    wb = start_workbook(TITLE, REGLAGES, [("Nom", None), ("Vainqueur", LOWEST)], (JOUEURS, PARTIES), GUIDE, 8)
    winner = DataValidation(type="list", formula1=f'"{LOWEST},{HIGHEST}"', allow_blank=True)
    winner.add("B5")  # the Vainqueur line
    wb[REGLAGES.sheet].add_data_validation(winner)
    finish_workbook(wb, FEDERATION, [(HISTORIQUE, _title("historique des parties")),
                                     (CLASSEMENT, _title("classement"))])
    add_season_sheets(wb, TITLE)
    return wb


def put_example(wb: Workbook) -> None:
    """Type the bundled example season into the input tables."""
    type_rows(wb, REGLAGES, [("Nom", load("elo").NOM), ("Vainqueur", load("elo").VAINQUEUR)])
    type_rows(wb, JOUEURS, load("elo").JOUEURS)
    type_rows(wb, PARTIES, load("elo").PARTIES)


# --- reading ---------------------------------------------------------------------------------


def winner_rule(value: object) -> bool:
    """``Vainqueur``: True when the lowest total wins (also for a blank: the source's game)."""
    key = fold(str(value)) if value is not None else ""
    if not key:
        return True
    for lowest, words in _WINNER_WORDS.items():
        if key in words:
            return lowest
    raise InvalidInput(f"« {LOWEST} » ou « {HIGHEST} » attendu ; trouvé « {value} »")


def _read_settings(book: Book, problems: Problems) -> tuple[bool, str, list[str]]:
    """Vainqueur (the lowest total wins when blank, with a warning at its cell: it decides every rank) and
    Nom; no other setting. Returns them and the warnings for the defaults taken."""
    settings = read_parameters(book, REGLAGES, problems, known=("Vainqueur", "Nom"))
    lowest_wins = settings.parsed("Vainqueur", winner_rule, problems)
    defaults = []
    if settings.value("Vainqueur") is None:
        defaults.append(str(settings.problem("Vainqueur", f"Vainqueur vide : « {LOWEST} » par défaut (le plus petit "
                                                          f"total gagne, comme au jeu du règlement) ; tapez « {LOWEST} » "
                                                          f"ou « {HIGHEST} »")))
    return lowest_wins is None or lowest_wins, settings.text("Nom") or "", defaults


def _total(value: object) -> float | None:
    total = as_number(value, "total (un nombre)")
    if total is not None and abs(total) > MAX_TOTAL:
        raise InvalidInput(f"total entre -{MAX_TOTAL:.0f} et {MAX_TOTAL:.0f} attendu ; trouvé {value}")
    return total


def _read_players(book: Book, problems: Problems) -> tuple[Register, dict[str, elo.Start]]:
    """The register, and where each player of it with an Elo or a number of games starts from (§6, §7)."""
    register = read_register(book, JOUEURS, problems)
    starts: dict[str, elo.Start] = {}
    for entry in register:
        values = entry.record.values
        if values.get("Elo") is None and values.get("Parties") is None:
            continue
        rating = parse_cell(problems, entry.record, "Elo", _whole, "Elo")
        games = parse_cell(problems, entry.record, "Parties", _whole, "nombre de parties")
        mark = problems.mark()
        try:
            starts[entry.name] = elo.start_of(rating, games)
        except InvalidInput as exc:
            problems.at(entry.record, "Elo" if "Elo" in str(exc) else "Parties", str(exc))
        if problems.since(mark):
            starts.pop(entry.name, None)
    return register, starts


def _whole(value: object, what: str) -> float | None:
    """A number as typed (the core checks it is whole and within bounds)."""
    return as_number(value, what)


def _read_lines(book: Book, problems: Problems, register: Register) -> list[Entry]:
    entries = []
    for record in read_table(book, PARTIES, problems):
        found = problems.mark()
        date = parse_cell(problems, record, "Date", as_date)
        if date is None and not problems.since(found):
            problems.at(record, "Date", "date manquante : chaque partie a sa date (jj/mm/aaaa)")
        game = as_text(record.values["Partie"])
        if game is None:
            problems.at(record, "Partie", "partie manquante : un numéro ou un nom, le même pour tous ses joueurs")
        player = register.resolve(problems, record, "Joueur")
        if player is None and as_text(record.values.get("Joueur")) is None:
            problems.at(record, "Joueur", "nom du joueur manquant")
        total = parse_cell(problems, record, "Total", _total)
        if total is None and record.values.get("Total") is None:
            problems.at(record, "Total", "total manquant : le score du joueur dans cette partie")
        if not problems.since(found):
            entries.append(Entry(record, date, game, player, total))
    return entries


#: The column of each field the core's checks locate a violation on (:class:`xlcircuit.errors.Violation`).
COLUMNS = {"date": "Date", "game": "Partie", "player": "Joueur", "total": "Total"}


def _games(entries: list[Entry], problems: Problems) -> list[elo.Game]:
    """The games in the order typed (the first line of each), as the core makes and checks them."""
    games, violations = elo.games_of([elo.Line(e.game, e.date, e.player, e.total) for e in entries],
                                     lambda i: f"ligne {entries[i].record.row}")
    for v in violations:
        problems.at(entries[v.index].record, COLUMNS[v.field], v.message)
    return games


def _warnings(entries: list[Entry], register: Register, starts: dict[str, elo.Start]) -> list[str]:
    warnings = duplicate_warnings((entry.player, at_cell(entry.record, "Joueur")) for entry in entries)
    return warnings + unmatched_warnings(register, {entry.player for entry in entries} | set(starts), "aucune partie")


@dataclass
class Typed:
    """The input tables as read."""

    lowest_wins: bool
    name: str
    register: Register
    starts: dict[str, elo.Start]
    entries: list[Entry]
    games: list[elo.Game]
    defaults: list[str] = field(default_factory=list)  # a blank setting read as its default, said where


def read(book: Book, problems: Problems) -> Typed:
    """The input tables, every problem added to ``problems``."""
    lowest_wins, name, defaults = _read_settings(book, problems)
    register, starts = _read_players(book, problems)
    entries = _read_lines(book, problems, register)
    return Typed(lowest_wins, name, register, starts, entries, _games(entries, problems), defaults)


def summarise(typed: Typed) -> Summary:
    """The history played by the core (:func:`xlcircuit.elo.run_history`)."""
    history = elo.run_history(typed.games, typed.lowest_wins, typed.starts)
    return Summary(typed.games, history, typed.lowest_wins, typed.name,
                   typed.defaults + _warnings(typed.entries, typed.register, typed.starts), typed.register.clubs(),
                   typed.starts)


# --- writing ---------------------------------------------------------------------------------


def history_rows(summary: Summary) -> list[list[object]]:
    """The ``Historique`` table: each player of each game, in the order the games were played."""
    rows: list[list[object]] = []
    for line in summary.history.lines:
        c = line.change
        rows.append([line.game.date, line.game.name, line.player, line.total, c.rank, c.before, c.games, c.k,
                     c.expected, c.score, c.raw, c.delta, c.after, c.note or None])
    return rows


def tier_text(standing: elo.Standing) -> str:
    """A tier as the standings show it: its name, or the placement games still to play."""
    if standing.tier is elo.Tier.PLACEMENT:
        left = standing.placement_left
        return f"Placement (encore {left} partie{'s' if left > 1 else ''})"
    return standing.tier.label


def standings_rows(summary: Summary) -> list[list[object]]:
    """The ``Classement`` table: rank by rating, player, rating, games, tier, last game."""
    return [[s.rank, s.player, s.rating, s.games, tier_text(s), s.last_played] for s in summary.history.standings]


def _title(what: str, name: str = "", day: dt.date | None = None) -> str:
    """A published table's title: the federation's, with the ranking's name when it has one."""
    return title(f"{TITLE} : {name}" if name else TITLE, what, day=day)


STANDINGS_NOTES = (
    "Elo : 1000 au départ (ou celui de la table Joueurs), puis après chaque partie l'Elo d'avant plus la variation "
    "K × (obtenu - attendu), arrondie ;",
    "aucune note sous 100. Le détail de chaque partie : feuille « Historique ». Palier : annoncé après les "
    "cinq parties de placement.",
)


def outputs(summary: Summary, club: str | None = None, day: dt.date | None = None) -> list[Output]:
    """The published tables, with their titles; the podium highlighted, or a club's players."""
    day = day or dt.date.today()
    standings = standings_rows(summary)
    return [
        Output(HISTORIQUE, HISTORIQUE.columns, history_rows(summary),
               _title("historique des parties", summary.name, day), repeat_columns=3),
        Output(CLASSEMENT, CLASSEMENT.columns, standings, _title("classement", summary.name, day),
               podium_or_club(standings, summary.clubs, club), notes=STANDINGS_NOTES, repeat_columns=2),
    ]


def report(summary: Summary) -> list[str]:
    """What ``check`` and ``fill`` print: the counts, then the top of the standings (French)."""
    standings = summary.history.standings
    placement = sum(1 for s in standings if s.tier is elo.Tier.PLACEMENT)
    winner = LOWEST if summary.lowest_wins else HIGHEST
    lines = [f"{count(len(summary.games), 'partie')}, {count(len(standings), 'joueur')} ({placement} en placement) ; "
             f"le {winner} gagne."]
    return lines + top_lines(standings, SHOWN, CLASSEMENT.sheet,
                             lambda s: f"  {s.rank:>3}. {s.player:<28} {s.rating:>6}  {tier_text(s)}")


#: What the journal and ``xlcircuit diff`` compare: each player's total in each game, each rank and rating.
TRACKED = Tracked(HISTORIQUE, ("Partie",), ("Joueur",), ("Total",), CLASSEMENT, "Joueur", "Rang", "Elo")
STEPS = Steps(FEDERATION, Owned.of((HISTORIQUE, CLASSEMENT)), read, summarise, outputs,
              journal=Journal(TITLE, TRACKED, lambda summary: report(summary)[0]))
compute, fill = STEPS.compute, STEPS.fill


# --- the explanation of a player's points (xlcircuit explain) -------------------------------------


def explain(summary: Summary, wanted: str) -> list[str]:
    """``xlcircuit explain``: the lines explaining ``wanted``'s points, in French, each result with its rule,
    the last line ending on his published total."""
    history = summary.history
    player = find_player(wanted, [s.player for s in history.standings])
    standing = next(s for s in history.standings if s.player == player)
    start = summary.starts.get(player, elo.Start())
    played = count(start.games, "partie classée", "parties classées") + f" déjà jouée{'s' if start.games > 1 else ''}"
    begun = (f"Départ : {start.rating}, de la table Joueurs ({played})" if player in summary.starts
             else f"Départ : {elo.START}")
    lines = [f"{player} — {TITLE}{' : ' + summary.name if summary.name else ''}",
             f"{begun}. Chaque partie : variation = K × (obtenu - attendu), arrondie au plus "
             "proche ; le seul premier gagne au moins 1 point, le seul dernier en perd au moins 1 ; jamais sous 100.",
             ""]
    deltas = []
    for line in history.lines:
        if line.player != player:
            continue
        c = line.change
        players = sum(1 for other in history.lines if other.game is line.game)
        note = f" ({c.note})" if c.note else ""
        lines.append(f"  {when(line.game.date)}  partie {line.game.name} : {nth(c.rank)} sur {players} ; Elo "
                     f"{c.before} ; partie n° {c.games}, K = {c.k} ; attendu {decimal_comma(c.expected, 4)}, obtenu "
                     f"{decimal_comma(c.score, 4)} → {decimal_comma(c.raw, 2)} → {signed(c.delta)}{note} ; Elo {c.after}")
        deltas.append(c.delta)
    lines.append("")
    lines.append(f"Somme : {summed([start.rating] + deltas, 0, str(standing.rating))}")
    lines.append(f"Rang : {standing.rank} ; palier : {tier_text(standing)}.")
    lines.append(f"Elo au classement : {standing.rating}")
    return lines


# --- season after season ---------------------------------------------------------------------------


def season_name(summary: Summary) -> str:
    """The ranking's name (« Nom »), else the years of its games."""
    return summary.name or season_years(g.date for g in summary.games)


def honours(summary: Summary) -> Honours:
    """The palmarès line: the first three of the standings by rating."""
    return Honours(season_name(summary), *seasons.podium((s.rank, s.player) for s in summary.history.standings))


def carry(summary: Summary, register: Register) -> Carry:
    """Next workbook: everyone starts where this one left him, his rating and ranked games played (K and the
    placement count them: :class:`xlcircuit.rules.elo.Start`); the same winner rule, the name a year on."""
    standings = summary.history.standings
    extra: dict[str, dict[str, object]] = {s.player: {"Elo": s.rating, "Parties": s.games} for s in standings}
    players = register_rows(register, extra, [s.player for s in standings])
    name = seasons.next_name(summary.name) or summary.name or None
    winner = LOWEST if summary.lowest_wins else HIGHEST
    notes = [f"Elo et Parties : la note et le nombre de parties classées de {count(len(extra), 'joueur')} à la fin "
             f"de ce classeur (le coefficient K et le placement en tiennent compte)."]
    return Carry([Parameter("Nom", name), Parameter("Vainqueur", winner)], players, notes)


# --- importing results (xlcircuit import) ----------------------------------------------------------------


IMPORTER = Importer(
    lines=PARTIES,
    fields=(
        Field("Date", headings.DATE, as_date, required=True, fact=True),
        Field("Partie", ("partie", "game", "n° partie", "numero de partie", "game id", "match", "table"), sources.text,
              fact=True),
        Field("Joueur", headings.PLAYER, sources.text, required=True, person=True),
        Field("Total", ("total", "score", "points", "pts", "resultat", "result", "total points"), _total,
              required=True),
    ),
    key=("Date", "Partie"), named="Partie", what="partie",
    players=JOUEURS, player_fields=(Field("Club", headings.CLUB, sources.text),),
    form=Form(
        "parties d'une rencontre, à envoyer au responsable du classement",
        facts=("Date",),
        columns=("Partie", "Joueur", "Total"),
        guide=("Une ligne par joueur et par partie ; la partie (un numéro ou un nom) est la même pour tous ses "
               f"joueurs, de {elo.MIN_PLAYERS} à {elo.MAX_PLAYERS}.",
               "Ex aequo, le même total. Une partie jouée un autre jour que la date ci-dessous, sur une autre feuille."),
        widths={"Joueur": 28, "Partie": 14, "Total": 12},
    ),
)

class Elo(Adapter):
    """The elo workbook (see the module's docstring)."""

    info, steps, importer = INFO, STEPS, IMPORTER
    inputs, standings, lines = INPUTS, STANDINGS, LINES
    players, parameters = JOUEURS, REGLAGES

    def honours(self, summary: Summary) -> Honours:
        return honours(summary)

    def carry(self, summary: Summary, register: Register) -> Carry:
        return carry(summary, register)

    def new_workbook(self) -> Workbook:
        return new_workbook()

    def put_example(self, wb: Workbook) -> None:
        put_example(wb)

    def report(self, summary: Summary) -> list[str]:
        return report(summary)

    def explain(self, summary: Summary, wanted: str) -> list[str]:
        return explain(summary, wanted)


ADAPTER = Elo()
'''

# --- xlcircuit/federations/examples/__init__.py ------------------------------------------------------
_SOURCES['xlcircuit.federations.examples'] = True, r'''
"""The bundled example seasons (``xlcircuit demo``), as plain data: ``<code>.json`` beside this file.

Each file holds the rows an organiser types into the federation's input tables; ``README.md`` beside
it says what each season shows. Dates are stored as ``YYYY-MM-DD`` and read back as dates.
"""

from __future__ import annotations

import datetime as dt
import functools
import json
import re
from importlib import resources
from types import SimpleNamespace
from typing import Any

_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def _decoded(value: Any, depth: int = 0) -> Any:
    if isinstance(value, str) and _DATE.fullmatch(value):
        return dt.date.fromisoformat(value)
    if isinstance(value, list):
        items = [_decoded(v, depth + 1) for v in value]
        return items if depth == 0 and items and isinstance(value[0], list) else tuple(items)
    return value


@functools.cache
def load(code: str) -> SimpleNamespace:
    """The example of federation ``code``: one attribute per key (``TOURNOIS``, ``RESULTATS``…),
    a table as a list of row tuples."""
    text = resources.files(__package__).joinpath(f"{code}.json").read_text(encoding="utf-8")
    return SimpleNamespace(**{key: _decoded(value) for key, value in json.loads(text).items()})
'''

# --- xlcircuit/federations/tdf.py --------------------------------------------------------------------
_SOURCES['xlcircuit.federations.tdf'] = False, r'''
"""The Tour de France season workbook: reads ``Tournois`` and ``Resultats``, writes ``Points``
and ``Classement``. An adapter: every rule is in :mod:`xlcircuit.tdf`."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass, field

from openpyxl.chart import BarChart, Reference, ScatterChart, Series
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter
from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.pagebreak import Break
from openpyxl.worksheet.worksheet import Worksheet

from ..rules import seasons, tdf
from ..rules.text import fold
from ..workbook.adapter import Adapter
from ..workbook.cells import as_date, as_number, as_positive_int, as_yes_no, put
from ..workbook.journal import Journal, Tracked
from ..workbook.layout import PAPER_A4, chart_title
from ..workbook.procedure import Steps
from ..workbook.read import read_table, table_bounds
from ..workbook.register import Register, duplicate_warnings, players_table, read_register, unmatched_warnings
from ..workbook.seasons import Carry, Honours, Parameter, add_season_sheets, register_rows
from ..workbook.sheets import (
    Parameters,
    at_cell,
    fill_step,
    finish_workbook,
    parameters_table,
    parse_cell,
    podium_or_club,
    read_parameters,
    start_workbook,
    tournament_and_player,
    tournament_name,
)
from ..workbook.sources import SOURCE, Field, Form, Importer, words
from ..workbook.sources import mapping as sources
from ..workbook.spec import Column, Mark, Output, Problems, Record, TableSpec
from ..workbook.wording import count, decimal_comma, find_player, nth, percents, season_years, summed, title, top_lines, when
from ..workbook.write import type_rows
from ..xlsx import Book, Owned
from . import federation
from .examples import load

INFO = federation("tdf")  # code, French title, template and example file
FEDERATION, TITLE, TEMPLATE, EXAMPLE = INFO.code, INFO.name, INFO.template, INFO.example
DATE_FORMAT = "dd/mm/yyyy"
TOTAL_FORMAT = "0.0"  # points, counted points and totals to one decimal (the display rounds half up)
POINTS_FORMAT = TOTAL_FORMAT  # one rounding per quantity: 911.6 counted at 100 % shows 911.6 twice
#: The look of a result counted less than 100 % in the standings, and of one the no-loss rule set aside.
WEIGHTED = Mark(fill="FFF2CC", italic=True)
SET_ASIDE = Mark(fill="EDEDED", strike=True, grey=True)
UNRANKED = Mark(italic=True, grey=True)
WEIGHT_FORMAT = "0%"

TOP = 15  # players in the standings' bar chart
TOP_TITLE = f"Les {TOP} premiers"
#: The Courbes sheet's layout, in rows of 15 points: the top chart on page 1, then three curves a page.
CURVES_TOP_ROWS, CURVE_ROWS, CURVES_A_PAGE, CURVES_LAST_COLUMN = 26, 15, 3, "I"
MAX_CURVES = 100  # tournaments drawn on the Courbes sheet (the most recent ones)
CURVES_SHEET = "Courbes"

PARAMETRES = parameters_table("Saison")
JOUEURS = players_table(Column("Club", width=30), required=False)
TOURNOIS = TableSpec("Tournois", "Tournois", (
    Column("Tournoi", width=36),
    Column("Date", width=12, number_format=DATE_FORMAT),
    Column("Type", width=18, choices=tuple(k.value for k in tdf.Kind)),
    Column("Interrompu", required=False, width=12, choices=("oui",)),
))
RESULTATS = TableSpec("Résultats", "Resultats", (
    Column("Tournoi", width=36),
    Column("Joueur", width=26),
    Column("Place", width=8),
    Column("Rôle", width=14, choices=("joueur",) + tuple(r.value for r in tdf.Role)),
    Column("Points imposés", required=False, width=15),
    Column(SOURCE, required=False, width=30),  # where an imported line came from (xlcircuit import)
))
POINTS = TableSpec("Points", "Points", (
    Column("Tournoi", width=36),
    Column("Date", width=12, number_format=DATE_FORMAT),
    Column("Joueur", width=26),
    Column("Place", width=8),
    Column("Statut", width=14),
    Column("Place retenue", width=14),
    Column("Ex aequo", width=10),
    Column("Points", width=10, number_format=POINTS_FORMAT),
    Column("Poids", width=9, number_format=WEIGHT_FORMAT),
    Column("Points comptés", width=15, number_format=TOTAL_FORMAT, data_bar=True),
    Column("Règle", width=40),
    Column("Remarque", width=60),
))
CLASSEMENT = TableSpec("Classement", "Classement", (
    Column("Rang", width=7),
    Column("Joueur", width=26),
    Column("Tournois classés", width=17),
    Column("Total", width=10, number_format=TOTAL_FORMAT, data_bar=True),
))

GUIDE = [
    "Mode d'emploi",
    "1. Feuille « Tournois » : une ligne par tournoi (nom unique, date, type : normal, majeur,",
    "   en ligne, majeur en ligne ; « oui » dans Interrompu si le classement a été rendu sans",
    "   vainqueur officiel).",
    "2. Feuille « Résultats » : une ligne par personne et par tournoi. Un joueur classé a sa place",
    "   officielle (ex aequo : la même place ; une place vide au classement : sautez-la).",
    "   Sans place, indiquez le rôle : organisateur (non joueur), aide, annulé (présent à un",
    "   tournoi annulé) : 100 points. Points imposés (facultatif) : un nombre, ou « place N »",
    "   pour les points de la place N (décisions particulières du règlement).",
    "3. Feuille « Joueurs » (facultatif) : le club de chaque joueur (pour « xlcircuit share --clubs »), son",
    "   identifiant (licence) et ses autres orthographes (Alias, séparées par « ; »), lues comme son nom.",
    *fill_step(4),
    "",
    "Les tables Points et Classement et la feuille Courbes sont réécrites à chaque remplissage :",
    "n'y tapez rien. Vos autres feuilles, colonnes, formules et mises en forme sont conservées.",
]

@dataclass
class Entry:
    """A result line of the workbook: where it was typed and what it says."""

    record: Record
    tournament: str
    line: tdf.Line


@dataclass
class TournamentRow:
    record: Record
    name: str
    date: dt.date | None
    kind: tdf.Kind
    interrupted: bool


@dataclass
class Summary:
    """What a check or a fill found: the season, and warnings for the organiser."""

    tournaments: list[TournamentRow]
    entries: list[Entry]
    report: tdf.SeasonReport
    warnings: list[str] = field(default_factory=list)
    season: str = ""  # "2025-2026", as the Saison sheet says or the dates imply
    clubs: dict[str, str] = field(default_factory=dict)  # player -> club, from the Joueurs table
    register: Register = field(default_factory=Register)  # the Joueurs table, as read


#: The tables the organiser fills in (named by ``xlcircuit new``).
INPUTS = (TOURNOIS, RESULTATS)
#: The main standings (shared as PDF, highlighted per club) and the per-result lines (per club).
STANDINGS, LINES = CLASSEMENT, POINTS
SHOWN = 10  # standings lines printed after a fill


# --- the template ----------------------------------------------------------------------------


def new_workbook() -> Workbook:
    """A fresh, empty season workbook."""
    wb = start_workbook(TITLE, PARAMETRES, [("Saison", None)], (JOUEURS, TOURNOIS, RESULTATS), GUIDE, 7)
    finish_workbook(wb, FEDERATION, [(POINTS, title(TITLE, "points par tournoi")),
                                     (CLASSEMENT, title(TITLE, "classement"))])
    wb.create_sheet(CURVES_SHEET)
    add_season_sheets(wb, TITLE)
    return wb


def put_example(wb: Workbook) -> None:
    """Type the bundled example season into the input tables."""
    type_rows(wb, PARAMETRES, [("Saison", load("tdf").SAISON)])
    type_rows(wb, JOUEURS, load("tdf").JOUEURS)
    type_rows(wb, TOURNOIS, load("tdf").TOURNOIS)
    type_rows(wb, RESULTATS, load("tdf").RESULTATS)


# --- reading ---------------------------------------------------------------------------------


def _imposed(value: object) -> tuple[float | None, int | None]:
    """``Points imposés``: a number of points, or ``place N`` for the points of place N (their bounds are the
    core's: :func:`xlcircuit.rules.tdf.line_violations`, :func:`~xlcircuit.rules.tdf.tournament_violations`)."""
    if isinstance(value, str) and fold(value).startswith("place"):
        return None, as_positive_int(value.strip()[5:].strip(), "place")
    return as_number(value, "nombre de points (ou « place N »)"), None


#: The column of each field the core's checks locate a violation on (:class:`xlcircuit.errors.Violation`).
COLUMNS = {"place": "Place", "role": "Rôle", "imposed_points": "Points imposés", "imposed_place": "Points imposés"}


def _read_tournaments(book: Book, problems: Problems) -> list[TournamentRow]:
    rows: list[TournamentRow] = []
    seen: dict[str, Record] = {}
    reserved = {c.header.casefold() for c in CLASSEMENT.columns}
    for record in read_table(book, TOURNOIS, problems):
        # Each tournament is a column of the Classement table, whose headers Excel compares without case.
        name = tournament_name(record, problems, seen, "tournoi")
        if name is None:
            continue
        key = name.casefold()
        if key in reserved:
            problems.at(record, "Tournoi", f"« {name} » est le nom d'une colonne du classement : "
                                           "choisissez un autre nom de tournoi")
            continue
        seen[key] = record
        date = parse_cell(problems, record, "Date", as_date)
        if record.values.get("Date") is None:
            problems.at(record, "Date", "date manquante : les tournois sont rangés par date (colonnes du "
                                        "classement, nom de la saison) ; tapez-la (jj/mm/aaaa)")
        kind = parse_cell(problems, record, "Type", tdf.Kind.parse)
        if record.values.get("Type") is None:  # a blank is no kind: an online tournament would count as normal
            problems.at(record, "Type", f"type manquant : {', '.join(k.value for k in tdf.Kind)} (le poids du "
                                        "tournoi dans la saison en dépend)")
        interrupted = parse_cell(problems, record, "Interrompu", as_yes_no)
        rows.append(TournamentRow(record, name, date, kind or tdf.Kind.NORMAL, bool(interrupted)))
    return rows


def _read_results(book: Book, problems: Problems, tournaments: set[str], register: Register) -> list[Entry]:
    entries = []
    for record in read_table(book, RESULTATS, problems):
        found = problems.mark()
        tournament, player = tournament_and_player(record, problems, tournaments, register.resolve)
        place = parse_cell(problems, record, "Place", as_positive_int)
        role = parse_cell(problems, record, "Rôle", tdf.Role.parse)
        imposed_points, imposed_place = parse_cell(problems, record, "Points imposés", _imposed) or (None, None)
        if problems.since(found) or tournament is None or player is None:
            continue
        line = tdf.Line(player, place, role, imposed_points, imposed_place)
        violations = tdf.line_violations(line)
        for v in violations:
            problems.at(record, COLUMNS[v.field], v.message)
        if not violations:
            entries.append(Entry(record, tournament, line))
    return entries


def _check_tournaments(entries: list[Entry], problems: Problems) -> None:
    """What a single line cannot show (the core's check): a cancelled tournament with a classification, a
    place N past the last classified."""
    by_tournament: dict[str, list[Entry]] = defaultdict(list)
    for entry in entries:
        by_tournament[entry.tournament].append(entry)
    for name, group in by_tournament.items():
        for v in tdf.tournament_violations([e.line for e in group], name):
            problems.at(group[v.index].record, COLUMNS[v.field], v.message)


def _warnings(tournaments: list[TournamentRow], entries: list[Entry], report: tdf.SeasonReport) -> list[str]:
    warnings = []
    for t in tournaments:
        doubles = [s for s in report.scored[t.name] if s.status is tdf.Status.DUPLICATE]
        for s in doubles:
            kept = next(k for k in report.scored[t.name]
                        if k.line.player == s.line.player and k.status is not tdf.Status.DUPLICATE)
            where = f"place {kept.line.place}" if kept.line.place else "son rôle"
            warnings.append(f"Doublon dans « {t.name} » : {s.line.player} a plusieurs lignes ; seule la meilleure "
                            f"({where}) compte, l'autre est marquée « doublon » et les joueurs classés derrière "
                            "elle remontent d'une place.")
        if not report.scored[t.name]:
            warnings.append(f"Le tournoi « {t.name} » n'a encore aucun résultat.")
    return warnings + duplicate_warnings((entry.line.player, at_cell(entry.record, "Joueur")) for entry in entries)


def season_label(parameters: Parameters, tournaments: list[TournamentRow]) -> str:
    """The season's name: the ``Saison`` parameter, or the years of its tournaments (``2025-2026``)."""
    return parameters.text("Saison") or season_years(t.date for t in tournaments)


def _order(t: TournamentRow) -> tuple:
    return (t.date is None, t.date or dt.date.min, fold(t.name), t.name)


@dataclass
class Typed:
    """The input tables as read."""

    parameters: Parameters
    register: Register
    tournaments: list[TournamentRow]
    entries: list[Entry]


def read(book: Book, problems: Problems) -> Typed:
    """The input tables, every problem added to ``problems``."""
    parameters = read_parameters(book, PARAMETRES, problems)
    register = read_register(book, JOUEURS, problems)
    tournaments = sorted(_read_tournaments(book, problems), key=_order)
    entries = _read_results(book, problems, {t.name for t in tournaments}, register)
    _check_tournaments(entries, problems)
    return Typed(parameters, register, tournaments, entries)


def summarise(typed: Typed) -> Summary:
    """The season computed by the core (:func:`xlcircuit.tdf.run_season`)."""
    lines: dict[str, list[tdf.Line]] = defaultdict(list)
    for entry in typed.entries:
        lines[entry.tournament].append(entry.line)
    season = [tdf.Tournament(t.name, t.kind, t.interrupted, tuple(lines[t.name])) for t in typed.tournaments]
    report = tdf.run_season(season)
    warnings = _warnings(typed.tournaments, typed.entries, report) + unmatched_warnings(
        typed.register, {e.line.player for e in typed.entries})
    return Summary(typed.tournaments, typed.entries, report, warnings, season_label(typed.parameters, typed.tournaments),
                   typed.register.clubs(), typed.register)


# --- writing ---------------------------------------------------------------------------------


_STATUS_ORDER = {tdf.Status.CLASSIFIED: 0, tdf.Status.ROLE: 1, tdf.Status.DUPLICATE: 2}


def _status(s: tdf.Scored) -> str:
    """What the Points table says of a line: classé, doublon, or the role that gave 100 points."""
    return s.line.role.value if s.status is tdf.Status.ROLE and s.line.role else s.status.value


def _remark(s: tdf.Scored) -> str | None:
    notes = []
    if s.status is tdf.Status.DUPLICATE:
        notes.append("deuxième ligne de ce joueur : seule sa meilleure ligne compte")
    if s.status is tdf.Status.CLASSIFIED and s.line.role is not None:
        notes.append(f"{s.line.role.value} et joueur : les points de sa place seulement")
    if s.status is tdf.Status.ROLE and s.line.role is not None:
        notes.append(f"{s.line.role.value}, non classé : {decimal_comma(tdf.ROLE_POINTS, 0)} points, "
                     "ne compte pas parmi les 2 tournois classés")
    if s.imposed:
        if s.line.imposed_place is not None:
            notes.append(f"points imposés : ceux de la place {s.line.imposed_place}")
        else:
            notes.append("points imposés")
    return " ; ".join(notes) or None


def weight_reasons(summary: Summary) -> dict[tuple[str, str], str]:
    """(player, tournament) -> why the result counts its weight, in French (from :func:`tdf.weight_reasons`)."""
    return {(st.player, o.tournament): reason for st in summary.report.standings
            for o, reason in zip(st.season.outings, tdf.weight_reasons(st.season))}


def counted_points(summary: Summary) -> dict[tuple[str, str], float]:
    """(player, tournament) -> the points the result brings to the total (points × weight) as published: to
    the tenth, so that a standings row adds up to its total as printed (:func:`tdf.counted_parts`)."""
    counted = {}
    for st in summary.report.standings:
        parts = tdf.counted_parts(st.season)
        counted.update({(st.player, o.tournament): part for o, part in zip(st.season.outings, parts)})
    return counted


def points_rows(summary: Summary, counted: dict[tuple[str, str], float] | None = None) -> list[list[object]]:
    """The ``Points`` table: every result line, tournaments in date order, best place first (``counted``:
    :func:`counted_points`, when already known)."""
    report = summary.report
    reasons, counted = weight_reasons(summary), counted if counted is not None else counted_points(summary)
    rows: list[list[object]] = []
    for t in summary.tournaments:
        scored = sorted(report.scored[t.name], key=lambda s: (
            _STATUS_ORDER[s.status], s.place or 0, fold(s.line.player), s.line.player, s.line.place or 0))
        for s in scored:
            row: list[object] = [t.name, t.date, s.line.player, s.line.place, _status(s), s.place, s.tied]
            if s.status is tdf.Status.DUPLICATE:
                row += [None, None, None, None, _remark(s)]
            else:
                weight, _ = report.weights[(s.line.player, t.name)]
                key = (s.line.player, t.name)
                row += [s.points, weight, counted[key], reasons[key], _remark(s)]
            rows.append(row)
    return rows


def standings_columns(summary: Summary) -> list[Column]:
    return list(CLASSEMENT.columns) + [Column(t.name, width=max(10, min(len(t.name) + 2, 24)),
                                              number_format=POINTS_FORMAT) for t in summary.tournaments]


def standings_rows(summary: Summary, counted: dict[tuple[str, str], float] | None = None) -> list[list[object]]:
    """The ``Classement`` table: rank, person, classified tournaments, total, then by tournament the points
    that count toward the total (the tournament's points times their weight): the row adds up."""
    counted = counted if counted is not None else counted_points(summary)
    column = {t.name: i for i, t in enumerate(summary.tournaments)}
    rows: list[list[object]] = []
    for st in summary.report.standings:
        cells: list[object] = [None] * len(column)  # a player is in few of a season's tournaments
        for o in st.season.outings:
            if o.tournament in column:
                cells[column[o.tournament]] = counted.get((st.player, o.tournament))
        rows.append([st.rank, st.player, st.season.classified, st.season.total, *cells])
    return rows


def standings_marks(summary: Summary) -> dict[tuple[int, int], Mark]:
    """The look of the standings' cells: a result counted less than 100 %, one set aside, the unranked."""
    first = len(CLASSEMENT.columns)
    column = {t.name: first + i for i, t in enumerate(summary.tournaments)}
    marks: dict[tuple[int, int], Mark] = {}
    for index, st in enumerate(summary.report.standings):
        if st.rank is None:
            marks.update({(index, c): UNRANKED for c in range(first)})
        for o, w, aside in zip(st.season.outings, st.season.weights, st.season.set_aside):
            if aside:
                marks[(index, column[o.tournament])] = SET_ASIDE
            elif w < 1:
                marks[(index, column[o.tournament])] = WEIGHTED
    return marks


def standings_notes(summary: Summary) -> list[str]:
    """The legend under the standings."""
    standings = summary.report.standings
    notes = ["Chaque case : les points que le tournoi apporte au total (ses points × son poids) ; "
             "le total est la somme de la ligne."]
    seasons = [st.season for st in standings]
    if any(w < 1 and not a for s in seasons for w, a in zip(s.weights, s.set_aside)):
        notes.append(f"En italique sur fond jaune : compté moins de 100 % (tournois normaux : {percents(tdf.WEIGHTS)} %, "
                     f"puis {percents([tdf.TAIL])} % ; en ligne : après les tournois sur table).")
    if any(any(s.set_aside) for s in seasons):
        notes.append("Barré sur fond gris : écarté par la règle de non-perte (la décote ferait perdre des "
                     "points) : compte 0.")
    if any(st.rank is None for st in standings):
        notes.append(f"Sans rang, en gris après les classés : les personnes classées dans moins de "
                     f"{tdf.MIN_CLASSIFIED} tournois (règlement, §2).")
    notes.append("Points du tournoi, poids et règle de chaque résultat : feuille « Points » ; "
                 "le détail d'un joueur : xlcircuit explain FICHIER « Nom ».")
    notes.append("Affichage au dixième : le total arrondi au plus proche, les cases de sorte que la ligne "
                 "fasse le total ; les calculs ne sont pas arrondis.")
    return notes


def outputs(summary: Summary, club: str | None = None, day: dt.date | None = None) -> list[Output]:
    """The published tables, with their titles; the podium highlighted, or a club's players."""
    day = day or dt.date.today()
    counted = counted_points(summary)
    standings = standings_rows(summary, counted)
    return [
        Output(POINTS, POINTS.columns, points_rows(summary, counted),
               title(TITLE, "points par tournoi", summary.season, day),
               notes=["Points : ceux de la place retenue (1000 + nombre de classés pour le 1er, 100 pour le "
                      "dernier) ; Points comptés : Points × Poids, ce que le résultat apporte au total."],
               repeat_columns=3),
        Output(CLASSEMENT, standings_columns(summary), standings, title(TITLE, "classement", summary.season, day),
               podium_or_club(standings, summary.clubs, club), standings_marks(summary), standings_notes(summary),
               repeat_columns=2),
    ]


def report(summary: Summary) -> list[str]:
    """What ``check`` and ``fill`` print: the counts, then the top of the standings (French)."""
    standings = summary.report.standings
    ranked = [s for s in standings if s.rank is not None]
    counts = (f"{count(len(summary.tournaments), 'tournoi')}, {count(len(standings), 'personne')}, "
              f"{count(len(ranked), 'classée')}.")
    return [counts] + top_lines(ranked, SHOWN, CLASSEMENT.sheet,
                                lambda st: f"  {st.rank:>3}. {st.player:<28} {decimal_comma(st.season.total, 1):>8}")


def _remove_our_charts(ws: Worksheet, titles: set[str]) -> None:
    ws._charts = [chart for chart in ws._charts if chart_title(chart) not in titles]


def _at(columns, header: str) -> int:
    """Offset of a column in a table, from its header."""
    return [c.header for c in columns].index(header)


def _top_chart(ws: Worksheet, standings: Output) -> BarChart | None:
    """The top of the standings as a horizontal bar chart, reading the totals of ``ws`` (None: nobody ranked)."""
    shown = min(TOP, sum(1 for row in standings.rows if row[_at(standings.columns, "Rang")] is not None))
    if not shown:
        return None
    min_col, min_row, _, _ = table_bounds(ws, CLASSEMENT.name)
    total, player = min_col + _at(standings.columns, "Total"), min_col + _at(standings.columns, "Joueur")
    chart = BarChart()
    chart.type = "bar"
    chart.title = TOP_TITLE
    chart.legend = None
    chart.add_data(Reference(ws, min_col=total, min_row=min_row, max_row=min_row + shown), titles_from_data=True)
    chart.set_categories(Reference(ws, min_col=player, min_row=min_row + 1, max_row=min_row + shown))
    chart.x_axis.scaling.orientation = "maxMin"  # the leader on top
    chart.x_axis.delete = chart.y_axis.delete = False
    chart.width, chart.height = 16, 10
    return chart


def _place_top_chart(ws: Worksheet, standings: Output) -> None:
    """The top chart beside the standings, for the screen (the sheet's print area leaves it out: it is
    printed on a page of its own, the first of « Courbes »)."""
    _remove_our_charts(ws, {TOP_TITLE})
    chart = _top_chart(ws, standings)
    if chart is not None:
        _, min_row, max_col, _ = table_bounds(ws, CLASSEMENT.name)
        ws.add_chart(chart, f"{get_column_letter(max_col + 2)}{min_row}")


def _classified_spans(points: Output) -> list[tuple[str, int, int, list[float]]]:
    """For each tournament, where its classified lines stand in the Points table: (name, first index,
    count, their points). They are consecutive, best place first."""
    name_at, status_at, points_at = (_at(points.columns, h) for h in ("Tournoi", "Statut", "Points"))
    spans: list[tuple[str, int, int, list[float]]] = []
    for index, row in enumerate(points.rows):
        if row[status_at] != tdf.Status.CLASSIFIED.value:
            continue
        if spans and spans[-1][0] == row[name_at] and spans[-1][1] + spans[-1][2] == index:
            name, first, count, values = spans[-1]
            spans[-1] = (name, first, count + 1, values + [row[points_at]])
        else:
            spans.append((row[name_at], index, 1, [row[points_at]]))
    return spans


def _curves(wb: Workbook, points_sheet: Worksheet, points: Output, standings_sheet: Worksheet,
            standings: Output) -> None:
    """The charts' sheet, printed A4 portrait in reading order: the top of the standings on the first page,
    then each tournament's points by place on a log scale (where the TdF's points are a straight line),
    in date order, three a page."""
    ws = wb[CURVES_SHEET] if CURVES_SHEET in wb.sheetnames else wb.create_sheet(CURVES_SHEET)
    ws._charts = []
    for row in ws.iter_rows():
        for cell in row:
            cell.value = None
    ws.row_breaks.brk = []
    min_col, min_row, _, _ = table_bounds(points_sheet, POINTS.name)
    place_col = min_col + _at(points.columns, "Place retenue")
    points_col = min_col + _at(points.columns, "Points")
    spans = _classified_spans(points)
    shown = spans[-MAX_CURVES:]
    note = "Points de chaque tournoi selon la place retenue, sur une échelle logarithmique"
    if len(spans) > len(shown):
        note += f" (les {len(shown)} tournois les plus récents)"
    put(ws["A1"], note)
    ws["A1"].font = Font(bold=True, size=12)
    row = 3
    top = _top_chart(standings_sheet, standings)
    if top is not None:
        top.width, top.height = 16, 12
        ws.add_chart(top, f"A{row}")
        row += CURVES_TOP_ROWS
        ws.row_breaks.append(Break(id=row - 1))
    for i, (name, index, classified, values) in enumerate(shown):
        first, last = min_row + 1 + index, min_row + index + classified
        chart = ScatterChart(scatterStyle="lineMarker")  # required by the schema: Excel repairs a chart without it
        chart.title = f"{name} ({classified} classés)"
        chart.style = 13
        chart.legend = None
        series = Series(Reference(points_sheet, min_col=points_col, min_row=first, max_row=last),
                        Reference(points_sheet, min_col=place_col, min_row=first, max_row=last))
        series.marker.symbol = "circle"
        chart.series.append(series)
        chart.x_axis.title, chart.y_axis.title = "Place", "Points"
        chart.x_axis.delete = chart.y_axis.delete = False
        if min(values) > 0:  # a log scale cannot show an imposed 0
            chart.y_axis.scaling.logBase = 10
            chart.y_axis.scaling.min = min(100, min(values))
            chart.y_axis.scaling.max = max(1000, max(values)) * 1.1
        chart.x_axis.scaling.min, chart.x_axis.scaling.max = 1, max(classified, 2)
        chart.width, chart.height = 16, 7
        ws.add_chart(chart, f"A{row}")
        row += CURVE_ROWS
        if i % CURVES_A_PAGE == CURVES_A_PAGE - 1 and i < len(shown) - 1:
            ws.row_breaks.append(Break(id=row - 1))
    ws.print_title_rows = None
    ws.print_area = f"A1:{CURVES_LAST_COLUMN}{max(row - 1, 2)}"
    ws.page_setup.paperSize = PAPER_A4
    ws.page_setup.orientation = "portrait"
    ws.page_setup.fitToWidth, ws.page_setup.fitToHeight = 1, 0
    ws.sheet_properties.pageSetUpPr.fitToPage = True
    ws.oddFooter.center.text = "Page &P / &N"
    ws.oddFooter.left.text = "&A"


def _charts(book: Book, summary: Summary, written: list[tuple[Output, Worksheet]], problems: Problems) -> None:
    """The top-15 chart beside the standings, and the Courbes sheet."""
    if written:
        (points, points_sheet), (standings, standings_sheet) = written
        _place_top_chart(standings_sheet, standings)
        _curves(book.wb, points_sheet, points, standings_sheet, standings)


#: What the journal and ``xlcircuit diff`` compare: each result's place and status, each person's rank and total.
TRACKED = Tracked(POINTS, ("Tournoi",), ("Joueur",), ("Place", "Statut"), CLASSEMENT, "Joueur", "Rang", "Total")
STEPS = Steps(FEDERATION, Owned.of((POINTS, CLASSEMENT), sheets=(CURVES_SHEET,)), read, summarise, outputs, _charts,
              Journal(TITLE, TRACKED, lambda summary: report(summary)[0]))
compute, fill = STEPS.compute, STEPS.fill


# --- the explanation of a player's points (xlcircuit explain) -------------------------------------


def _explained_place(s: tdf.Scored, classified: int) -> str:
    """What a line of a player earned, for ``explain``: his place among the classified (or his 100-point role),
    and the imposed points if any."""
    if s.status is tdf.Status.CLASSIFIED:
        tie = f", ex aequo à {s.tied}" if s.tied and s.tied > 1 else ""
        what = f"{nth(s.place)}{tie} sur {classified} classés"
    else:
        role = s.line.role.value if s.line.role else "rôle"
        what = f"{role}, non classé : {decimal_comma(tdf.ROLE_POINTS, 0)} points"
    if s.imposed:
        what += (f" ; points imposés : ceux de la place {s.line.imposed_place}" if s.line.imposed_place
                 else " ; points imposés")
    return what


def _explained_results(summary: Summary, player: str) -> tuple[list[str], list[float]]:
    """For ``explain``: a line per result of ``player`` (points × weight, with the rule = what it counts), and
    the counted parts of the sum."""
    report = summary.report
    reasons = weight_reasons(summary)
    counted = counted_points(summary)
    lines: list[str] = []
    parts: list[float] = []
    for t in summary.tournaments:
        scored = report.scored[t.name]
        classified = sum(1 for s in scored if s.status is tdf.Status.CLASSIFIED)
        for s in (s for s in scored if s.line.player == player):
            kind = "" if t.kind.value in t.name else t.kind.value
            kind += ", interrompu" if t.interrupted else ""
            head = f"  {when(t.date)}  {t.name}" + (f" ({kind.lstrip(', ')})" if kind else "")
            if s.status is tdf.Status.DUPLICATE:
                lines.append(f"{head} : deuxième ligne (doublon) : ne compte pas.")
                continue
            key = (player, t.name)
            weight, _ = report.weights[key]
            lines.append(f"{head} : {_explained_place(s, classified)} → {decimal_comma(s.points, 1)} points × "
                         f"{decimal_comma(weight * 100, 0)} % ({reasons[key]}) = {decimal_comma(counted[key], 1)}")
            parts.append(counted[key])
    return lines, parts


def explain(summary: Summary, wanted: str) -> list[str]:
    """``xlcircuit explain``: the lines explaining ``wanted``'s points, in French, each result with its rule,
    the last line ending on his published total."""
    report = summary.report
    player = find_player(wanted, [st.player for st in report.standings])
    standing = next(st for st in report.standings if st.player == player)
    lines = [f"{player} — {TITLE} {summary.season}".rstrip(),
             "Points d'une place (règlement, §1) : 1er : 1000 + nombre de classés ; place p sur x classés : "
             "1000 / 10^((p - 1) / (x - 1)) ; ex aequo : la moyenne de leurs places.",
             f"Poids dans la saison (§2) : majeurs 100 % ; autres tournois {percents(tdf.WEIGHTS)} %, puis "
             f"{percents([tdf.TAIL])} %, du meilleur au moins bon ; en ligne : après les tournois sur table ; "
             "règle de non-perte.", ""]
    results, parts = _explained_results(summary, player)
    lines += results
    lines.append("")
    total = decimal_comma(standing.season.total, 1)
    lines.append(f"Somme : {summed(parts, 1, total)}")
    if standing.rank is None:
        lines.append(f"Sans rang : classé dans {standing.season.classified} tournoi"
                     f"{'s' if standing.season.classified > 1 else ''} ; il en faut {tdf.MIN_CLASSIFIED} "
                     "pour être classé dans la saison (§2).")
    else:
        ranked = sum(1 for st in report.standings if st.rank is not None)
        lines.append(f"Rang : {standing.rank} sur {ranked} classés ({standing.season.classified} tournois classés).")
    lines.append(f"Total au classement : {total}")
    return lines


# --- season after season ---------------------------------------------------------------------------


def honours(summary: Summary) -> Honours:
    """The season's line of the palmarès: the podium of the standings (the ranked persons, §2)."""
    return Honours(summary.season, *seasons.podium((st.rank, st.player) for st in summary.report.standings))


def carry(summary: Summary, register: Register) -> Carry:
    """Next season: its name, and the register (everyone of the Joueurs table, then everyone with a result)."""
    people = [st.player for st in summary.report.standings]
    return Carry([Parameter("Saison", seasons.next_name(summary.season))], register_rows(register, {}, people))


# --- importing results (xlcircuit import) ----------------------------------------------------------------


def _role(value: object) -> str | None:
    role = tdf.Role.parse(value)
    return None if role is None else role.value


def _kind(value: object) -> str:
    return tdf.Kind.parse(value).value


def _imposed_as_typed(value: object) -> object:
    """``Points imposés`` checked as the fill reads it, written as typed (a number, or ``place N``)."""
    _imposed(value)
    return value.strip() if isinstance(value, str) else value


def _imported_line(values) -> list[tuple[str, str]]:
    """A line has a place or a role (§1), and a cancelled tournament no places."""
    place, role = values.get("Place"), values.get("Rôle")
    if place is None and role is None:
        return [("Place", "place manquante : un joueur classé a une place ; sinon indiquez son rôle (organisateur, "
                          "aide, annulé)")]
    if place is not None and role == tdf.Role.CANCELLED.value:
        return [("Rôle", "un tournoi annulé n'a pas de classement : retirez la place ou le rôle « annulé »")]
    return []


IMPORTER = Importer(
    lines=RESULTATS,
    fields=(
        Field("Tournoi", words.TOURNAMENT, sources.tournament_name, fact=True),
        Field("Joueur", words.PLAYER, sources.text, required=True, person=True),
        Field("Place", words.PLACE, as_positive_int),
        Field("Rôle", words.ROLE, _role),
        Field("Points imposés", ("points imposes", "imposes", "points imposes ou place"), _imposed_as_typed),
    ),
    key=("Tournoi",), named="Tournoi",
    tournaments=TOURNOIS,
    about=(
        Field("Date", words.DATE, as_date),
        Field("Type", ("type", "type de tournoi", "categorie", "kind"), _kind),
        Field("Interrompu", ("interrompu", "interrupted", "sans vainqueur"), sources.yes),
    ),
    players=JOUEURS, player_fields=(Field("Club", words.CLUB, sources.text),),
    check=_imported_line,
    form=Form(
        "classement d'un tournoi, à envoyer à l'organisateur du circuit",
        facts=("Tournoi", "Date", "Type", "Interrompu"),
        columns=("Place", "Joueur", "Club", "Rôle"),
        guide=("Remplissez les cases à droite des mots en gras, puis le tableau (une ligne par personne) et "
               "envoyez ce fichier.",
               "Place officielle, la même pour des ex aequo ; sans place, le rôle (organisateur, aide, annulé)."),
        choices={"Type": tuple(k.value for k in tdf.Kind), "Interrompu": ("oui", "non"),
                 "Rôle": ("joueur",) + tuple(r.value for r in tdf.Role)},
        widths={"Joueur": 28, "Club": 30, "Place": 10},
    ),
)


class TourDeFrance(Adapter):
    """The tdf workbook (see the module's docstring)."""

    info, steps, importer = INFO, STEPS, IMPORTER
    inputs, standings, lines = INPUTS, STANDINGS, LINES
    players, parameters = JOUEURS, PARAMETRES

    def honours(self, summary: Summary) -> Honours:
        return honours(summary)

    def carry(self, summary: Summary, register: Register) -> Carry:
        return carry(summary, register)

    def new_workbook(self) -> Workbook:
        return new_workbook()

    def put_example(self, wb: Workbook) -> None:
        put_example(wb)

    def report(self, summary: Summary) -> list[str]:
        return report(summary)

    def explain(self, summary: Summary, wanted: str) -> list[str]:
        return explain(summary, wanted)


ADAPTER = TourDeFrance()
'''

# --- xlcircuit/federations/torres.py -----------------------------------------------------------------
_SOURCES['xlcircuit.federations.torres'] = False, r'''
"""The TORRES season workbook: reads ``Joueurs`` and ``Matchs``, writes ``Classement général``, ``Points``,
``Mouvements`` and ``Saison suivante`` (:func:`outputs`) and the ``Classements`` sheet, one table per group
(:func:`group_outputs`, laid out afresh at each fill by :func:`write_groups`); ``xlcircuit schedule`` writes
``Calendrier``. An adapter: every rule is in :mod:`xlcircuit.torres`, and what it reads is bounded so that
the core never refuses it (a located problem instead)."""

from __future__ import annotations

import datetime as dt
import re
import zlib
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations

from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.pagebreak import Break
from openpyxl.worksheet.worksheet import Worksheet

from ..rules import limits, seasons, torres
from ..rules.errors import InvalidInput, Problem, WorkbookProblems
from ..rules.mechanics import format_half_up, rounded_parts
from ..rules.text import fold
from ..workbook.adapter import Adapter
from ..workbook.cells import as_number, as_positive_int, as_text, as_whole, as_yes_no, shown
from ..workbook.journal import Journal, Tracked
from ..workbook.layout import PAPER_A4, TITLE_ROWS, style_table
from ..workbook.procedure import Steps
from ..workbook.read import find_table, read_table, table_bounds
from ..workbook.register import WORKBOOK, Register, duplicate_warnings, players_table, read_register
from ..workbook.seasons import Carry, Honours, Parameter, add_season_sheets, register_rows
from ..workbook.sheets import (
    CLUB_COLOUR,
    Parameters,
    at_cell,
    club_of,
    fill_step,
    finish_workbook,
    parameters_table,
    parse_cell,
    read_parameters,
    start_workbook,
)
from ..workbook.sources import SOURCE, Field, Form, Importer, words
from ..workbook.sources import mapping as sources
from ..workbook.spec import Column, Output, Problems, Record, TableSpec
from ..workbook.wording import count as plural
from ..workbook.wording import decimal_comma, find_player, nth, signed, summed, title
from ..workbook.write import remove_tables, type_rows, write_outputs, write_table
from ..xlsx import Book, Owned, mark_federation
from . import federation
from .examples import load

INFO = federation("torres")  # code, French title, template and example file
FEDERATION, TITLE, TEMPLATE, EXAMPLE = INFO.code, INFO.name, INFO.template, INFO.example
VP_FORMAT = "0.0"  # shared victory points can be halves or thirds
POINTS_FORMAT = "0"
DIFF_FORMAT = "+0;-0;0"  # as the source writes them: +42, -18
ELO_FORMAT = "0"
#: The seed of the draws when the Saison sheet gives none and no season name either.
DEFAULT_SEED = 0
#: Deepest division read: division d has 2 ** (d - 1) groups (D10: 512 groups, about 10,000 players).
MAX_DIVISION = limits.TORRES_MAX_DIVISION

#: Row colours of the standings: champion, moving up, going down, leaving (a club's players: CLUB_COLOUR).
COLOURS = {"champion": "FFE699", "up": "C6EFCE", "down": "FFC7CE", "leaves": "D9D9D9"}

PARAMETRES = parameters_table("Saison")
JOUEURS = players_table(
    Column("Elo", width=8, number_format=ELO_FORMAT),
    Column("Division", width=10),
    Column("Groupe", width=9),
    Column("Statut", width=12, choices=tuple(s.value for s in torres.Status)),
    Column("Club", required=False, width=26),
)
MATCHS = TableSpec("Matchs", "Matchs", (
    Column("Division", width=10),
    Column("Groupe", width=9),
    Column("Match", width=8),
    Column("Joueur", width=26),
    Column("Points", width=9),
    Column("Retard", width=9, choices=("oui",)),
    Column(SOURCE, required=False, width=30),  # where an imported line came from (xlcircuit import)
))
POINTS = TableSpec("Points", "Points", (
    Column("Division", width=10),
    Column("Groupe", width=9),
    Column("Match", width=8),
    Column("Joueur", width=26),
    Column("Points particuliers", width=12, number_format=POINTS_FORMAT),
    Column("Place", width=8),
    Column("Points de victoire", width=11, number_format=VP_FORMAT),
    Column("Différence", width=11, number_format=DIFF_FORMAT),
    Column("Remarque", width=50),
))
#: A group's standings, every tie-breaker shown (§3), and the end of season's verdict.
STANDING_COLUMNS = (
    Column("Rang", width=7),
    Column("Joueur", width=26),
    Column("Statut", width=10),
    Column("Matchs", width=8),
    Column("Points de victoire", width=11, number_format=VP_FORMAT, data_bar=True),
    Column("Différence", width=11, number_format=DIFF_FORMAT),
    Column("Points particuliers", width=12, number_format=POINTS_FORMAT),
    Column("Elo", width=8, number_format=ELO_FORMAT),
    Column("Mouvement", width=18),
)
#: Every group in one table (filters, CSV, clubs' workbooks, PDF): the standings of :data:`STANDINGS`.
GENERAL = TableSpec("Classement général", "ClassementGeneral", (
    Column("Division", width=10),
    Column("Groupe", width=9),
    *STANDING_COLUMNS,
))
#: The sheet of one table per group, each named ``Classement_D2_G1`` (division 2, group 1) under its title,
#: stacked by division then group, each group printed on a page of its own.
GROUPS_SHEET = "Classements"
GROUP_TABLE = re.compile(r"Classement_D\d+_G\d+", re.IGNORECASE)  # a table of ours on that sheet
GROUP_GAP = 2  # blank rows between a group's table and the next group's title
PRINT_SCALE = 85  # percent: a group's columns on one landscape page (Letter or A4)
MOUVEMENTS = TableSpec("Mouvements", "Mouvements", (
    Column("Division", width=10),
    Column("Groupe", width=9),
    Column("Rang", width=7),
    Column("Joueur", width=26),
    Column("Origine", width=10),
    Column("Mouvement", width=18),
    Column("Division suivante", width=11),
    Column("Groupe suivant", width=10),
))
SUIVANTE = TableSpec("Saison suivante", "SaisonSuivante", (
    Column("Division", width=10),
    Column("Groupe", width=9),
    Column("Joueur", width=26),
    Column("Origine", width=10),
    Column("Provenance", width=40),
    Column("Elo", width=8, number_format=ELO_FORMAT),
))
CALENDRIER = TableSpec("Calendrier", "Calendrier", (
    Column("Division", width=10),
    Column("Groupe", width=9),
    Column("Match", width=8),
    Column("Siège", width=7),
    Column("Joueur", width=26),
))

GUIDE = [
    "Mode d'emploi",
    "1. Feuille « Joueurs » : une ligne par joueur : Elo TORRES de Boîte à Jeux au début de la saison,",
    "   division et groupe de cette saison, statut : actif (ou vide), forfait (exclu : classé dernier),",
    "   retrait (joue cette saison, part ensuite), nouveau (sans division : entre la saison prochaine en",
    "   division la plus basse), retour (division où il revient, s'il y a une place), parti (ne joue pas :",
    "   gardé avec la division de son retour ; pour qu'il revienne, écrivez retour, ou nouveau sans division).",
    "   Identifiant et Alias (autres orthographes, séparées par « ; ») : facultatifs, lus comme son nom.",
    "2. Lancez « xlcircuit schedule CE_FICHIER.xlsx » : la feuille « Calendrier » reçoit les 15 matchs de",
    "   chaque groupe de dix (la Graine ci-dessus fixe le tirage ; vide : déduite du nom de la saison).",
    "3. Feuille « Matchs » : une ligne par joueur et par match : division, groupe, numéro du match, joueur,",
    "   points particuliers (au dernier décompte si le match n'est pas fini), « oui » dans Retard pour qui",
    "   a retardé un match non terminé. Le joueur fictif d'un forfait s'écrit Forfait, Forfait bis…,",
    "   avec ses points : il prend sa place comme un autre (ses points de victoire ne vont à personne).",
    *fill_step(4),
    "",
    "La feuille Classements (un tableau par groupe, avec tous les critères de départage) et les tables",
    "Classement général (tous les groupes, à filtrer), Points, Mouvements et Saison suivante sont",
    "réécrites à chaque remplissage : n'y tapez rien. Vos autres feuilles, colonnes, formules et mises",
    "en forme sont conservées, comme ce que vous écrivez à côté des tableaux de la feuille Classements.",
]

#: The tables the organiser fills in (named by ``xlcircuit new``).
INPUTS = (JOUEURS, MATCHS)
#: The main standings (shared as PDF, highlighted per club) and the per-result lines (per club).
STANDINGS, LINES = GENERAL, POINTS
SHOWN = 10  # standings lines printed after a fill


@dataclass
class MatchRow:
    """A match's lines as typed: (division, group, number) and each seat with where it was typed."""

    key: tuple[int, int, int]
    records: list[Record]
    seats: list[torres.Seat]


@dataclass
class Summary:
    """What a check or a fill found: the season's standings, the end of season, remarks."""

    players: list[torres.Player]
    matches: list[MatchRow]
    standings: dict[tuple[int, int], list[torres.Standing]]
    scored: dict[tuple[int, int, int], list[torres.ScoredSeat]]
    next_season: torres.NextSeason
    seed: int
    warnings: list[str] = field(default_factory=list)
    season: str = ""
    clubs: dict[str, str] = field(default_factory=dict)


# --- the template ----------------------------------------------------------------------------


def new_workbook() -> Workbook:
    """A fresh, empty season workbook (the ``Classements`` sheet is empty until a fill lays out its groups)."""
    wb = start_workbook(TITLE, PARAMETRES, [("Saison", None), ("Graine", None)], INPUTS, GUIDE, 8)
    _print_setup(wb.create_sheet(GROUPS_SHEET))
    finish_workbook(wb, FEDERATION, [(spec, title(TITLE, what)) for spec, what in _OUTPUTS])
    add_season_sheets(wb, TITLE)
    return wb


_OUTPUTS = ((GENERAL, "classement général"), (POINTS, "points par match"), (MOUVEMENTS, "mouvements"),
            (SUIVANTE, "saison suivante"), (CALENDRIER, "calendrier"))


def put_example(wb: Workbook) -> None:
    """Type the bundled example season into the input tables."""
    type_rows(wb, PARAMETRES, [("Saison", load("torres").SAISON), ("Graine", load("torres").GRAINE)])
    type_rows(wb, JOUEURS, [(*row, None) for row in load("torres").JOUEURS])
    type_rows(wb, MATCHS, load("torres").MATCHS)


# --- reading ---------------------------------------------------------------------------------


def _number_of(what: str):
    """A parser of a positive whole number whose message names ``what`` (masculine: « groupe attendu »)."""
    def parse(value: object) -> int | None:
        try:
            return as_positive_int(value)
        except InvalidInput:
            raise InvalidInput(f"{what} attendu : un entier positif (1, 2, 3…) ; trouvé {shown(value)}") from None
    return parse


def _division(value: object) -> int | None:
    """A division number, from 1 to :data:`MAX_DIVISION` (a deeper one would have millions of groups)."""
    return as_whole(value, "numéro de division", 1, MAX_DIVISION)


_group = _number_of("numéro de groupe")
_match = _number_of("numéro de match")


def _spaced(x: float) -> str:
    """A whole number as French writes it: ``-1 000 000 000``."""
    return f"{x:,.0f}".replace(",", " ")


def _within(what: str, low: float, high: float):
    """A parser of a number from ``low`` to ``high`` (what the core takes; blank is None), with one message,
    naming ``what``, for anything else: text, or a number out of bounds."""
    def parse(value: object) -> float | None:
        try:
            number = as_number(value)
        except InvalidInput:
            number = None
        if value is not None and (number is None or not low <= number <= high):
            raise InvalidInput(f"{what} : un nombre de {_spaced(low)} à {_spaced(high)} ; trouvé {shown(value)}")
        return number
    return parse


_elo = _within("Elo attendu", -torres.MAX_NUMBER, torres.MAX_NUMBER)
_points = _within("points particuliers attendus", 0, torres.MAX_NUMBER)


def season_seed(parameters: Parameters, problems: Problems) -> int:
    """The draws' seed: the ``Graine`` parameter, else one derived from the season's name, else 0."""
    given = parameters.value("Graine")
    if given is not None:
        try:
            number = as_number(given, "nombre entier")
            if number is not None and number.is_integer():
                return int(number)
        except InvalidInput:
            pass
        problems.add(parameters.problem("Graine", f"Graine attendue : un nombre entier ; trouvé « {given} »"))
        return DEFAULT_SEED
    name = parameters.text("Saison")
    return zlib.crc32(name.encode("utf-8")) if name else DEFAULT_SEED


@dataclass
class Roster:
    """The Joueurs table read: every player, where he was typed, and this season's groups."""

    players: list[torres.Player]
    records: dict[str, Record]
    groups: dict[tuple[int, int], list[torres.Player]]
    clubs: dict[str, str]
    warnings: list[str]
    register: Register = field(default_factory=Register)


#: The column of each field the core's checks locate a violation on (:class:`xlcircuit.errors.Violation`).
COLUMNS = {"division": "Division", "group": "Groupe"}


def _read_player(name: str, record: Record, problems: Problems, defaults: list[str]) -> torres.Player | None:
    """One line of the Joueurs table as the core's player, or None when it has a problem (added to ``problems``)."""
    found = problems.mark()
    if torres.is_fictitious(name):
        problems.at(record, "Joueur", f"« {name} » est le nom d'un joueur fictif (forfait) : il ne se déclare "
                                      "pas dans Joueurs, il s'écrit seulement dans Matchs")
    elo = parse_cell(problems, record, "Elo", _elo)
    if elo is None and record.values.get("Elo") is None:
        problems.at(record, "Elo", "Elo manquant : l'Elo TORRES de Boîte à Jeux au début de la saison "
                                   "(quatrième critère du classement, et répartition des nouveaux)")
    division = parse_cell(problems, record, "Division", _division)
    group = parse_cell(problems, record, "Groupe", _group)
    status = parse_cell(problems, record, "Statut", torres.Status.parse)
    if problems.since(found) or elo is None:
        return None
    if status is None:
        status = _blank_status(record, name, division, group, defaults)
    player = torres.Player(name, elo, division, group, status)
    violations = torres.seat_violations(player)
    for v in violations:
        problems.at(record, COLUMNS[v.field], v.message)
    if violations:
        return None
    if status is torres.Status.RETURNING:
        player = torres.Player(name, elo, division, None, status)  # a returning player's group is drawn
    return player


def _read_players(book: Book, problems: Problems) -> Roster:
    players: list[torres.Player] = []
    records: dict[str, Record] = {}
    defaults: list[str] = []  # a blank read as its documented default, said at its cell
    clubs: dict[str, str] = {}
    register = read_register(book, JOUEURS, problems)
    for entry in register:
        name, record = entry.name, entry.record
        player = _read_player(name, record, problems, defaults)
        if player is None:
            continue
        records[name] = record
        players.append(player)
        if club := club_of(record):
            clubs[name] = club
    groups: dict[tuple[int, int], list[torres.Player]] = defaultdict(list)
    for p in players:
        if p.group is not None:
            groups[p.division, p.group].append(p)
    for v in torres.pyramid_violations(players):
        if v.index == torres.WHOLE_TABLE:
            problems.add(_joueurs_problem(v.message))
        else:
            problems.at(records[players[v.index].name], COLUMNS[v.field], v.message)
    spellings = duplicate_warnings((p.name, at_cell(records[p.name], "Joueur")) for p in players)
    return Roster(players, records, dict(sorted(groups.items())), clubs, defaults + spellings, register)


def _blank_status(record: Record, name: str, division: int | None, group: int | None, defaults: list[str]) -> torres.Status:
    """A blank Statut: « actif » for a player with a division, else « nouveau », said at its cell (blank is
    documented as « actif », and an active player whose division was forgotten would silently be new)."""
    if division is not None:
        return torres.Status.ACTIVE
    if group is None:
        defaults.append(str(record.problem("Statut", f"Statut vide, ni division ni groupe : {name} est compté "
                                                     "« nouveau » (il entre la saison prochaine en division la plus "
                                                     "basse) ; tapez « nouveau », ou sa division et son groupe")))
    return torres.Status.NEW


def _joueurs_problem(message: str) -> Problem:
    return Problem(JOUEURS.sheet, None, "Division", message)


#: A line of the Matchs table as read: where it was typed, the player, his points, whether he delayed the match.
_Line = tuple[Record, str, float | None, bool]


def _read_matches(book: Book, problems: Problems, roster: Roster) -> tuple[list[MatchRow], list[str]]:
    """The matches of the Matchs table, every line checked against the roster, and the warnings on them."""
    members = {key: {p.name for p in players} for key, players in roster.groups.items()}
    forfeits = {key: sum(p.status is torres.Status.FORFEIT for p in players) for key, players in roster.groups.items()}
    lines: dict[tuple[int, int, int], list[_Line]] = defaultdict(list)
    for record in read_table(book, MATCHS, problems):
        read = _match_line(problems, record, members, forfeits, roster.register)
        if read is not None:
            lines[read[0]].append(read[1])
    matches: list[MatchRow] = []
    for key in sorted(lines):
        match = _played_match(problems, key, lines[key])
        if match is not None:
            matches.append(match)
    return matches, _match_warnings(matches, roster)


def _match_line(problems: Problems, record: Record, members: dict[tuple[int, int], set[str]],
                forfeits: dict[tuple[int, int], int], register: Register) -> tuple[tuple[int, int, int], _Line] | None:
    """One line of the Matchs table: its match (division, group, number) and seat; None, and problems, if wrong."""
    found = problems.mark()
    division = parse_cell(problems, record, "Division", _division)
    group = parse_cell(problems, record, "Groupe", _group)
    number = parse_cell(problems, record, "Match", _match)
    name = register.resolve(problems, record, "Joueur")
    points = parse_cell(problems, record, "Points", _points)
    delayed = parse_cell(problems, record, "Retard", as_yes_no)
    if name is None and as_text(record.values.get("Joueur")) is None:
        problems.at(record, "Joueur", "nom du joueur manquant")
    for header, value in (("Division", division), ("Groupe", group), ("Match", number)):
        if value is None and record.values.get(header) is None:
            problems.at(record, header, f"{header.lower()} manquant{'e' if header == 'Division' else ''}")
    if problems.since(found):
        return None
    key = (division, group)
    if key not in members:
        problems.at(record, "Groupe", f"D{division} groupe {group} : aucun joueur de la table Joueurs n'y joue")
        return None
    if torres.is_fictitious(name):
        if not forfeits[key]:
            problems.at(record, "Joueur", f"joueur fictif « {name} » dans un groupe sans joueur forfait "
                                          "(statut « forfait » dans la table Joueurs)")
            return None
    elif name not in members[key]:
        problems.at(record, "Joueur", f"{name} ne joue pas en D{division} groupe {group} (table Joueurs)")
        return None
    return (division, group, number), (record, name, points, bool(delayed))


def _played_match(problems: Problems, key: tuple[int, int, int], rows: list[_Line]) -> MatchRow | None:
    """A match's lines as a played match; None if not played yet, or (with problems) if its lines are wrong."""
    where = f"le match {key[2]} de D{key[0]} groupe {key[1]}"
    names = Counter(name for _, name, _, _ in rows)
    for record, name, _, _ in rows:
        if names[name] > 1:
            problems.at(record, "Joueur", f"{name} figure {names[name]} fois dans {where}")
    if any(n > 1 for n in names.values()):
        return None
    blank = [r for r, _, points, _ in rows if points is None]
    if len(blank) == len(rows):
        return None  # not played yet (the calendar typed in advance)
    if len(rows) != torres.MATCH_SIZE:
        problems.at(rows[0][0], "Match", f"{where} a {len(rows)} ligne{'s' if len(rows) > 1 else ''} ; "
                                         f"{torres.MATCH_SIZE} attendues (une par joueur)")
        return None
    for record in blank:
        problems.at(record, "Points", f"points manquants : les quatre joueurs d'un match joué ont leurs "
                                      f"points ({where})")
    if blank:
        return None
    return MatchRow(key, [r for r, _, _, _ in rows],
                    [torres.Seat(name, points, delayed) for _, name, points, delayed in rows])


def _match_warnings(matches: list[MatchRow], roster: Roster) -> list[str]:
    warnings = []
    played: Counter = Counter()
    pairs: Counter = Counter()
    for m in matches:
        real = sorted(s.player for s in m.seats if not s.fictitious)
        for name in real:
            played[m.key[:2], name] += 1
        for pair in combinations(real, 2):
            pairs[m.key[:2], pair] += 1
    expected = {key: torres.schedule_counts(len(players)) for key, players in roster.groups.items()}
    for ((d, g), name), count in sorted(played.items()):
        most = expected[d, g][0]
        if count > most:
            warnings.append(f"{name} (D{d} groupe {g}) a {count} matchs ; {most} attendus par saison.")
    for ((d, g), (a, b)), count in sorted(pairs.items()):
        most = expected[d, g][1]
        if count > most:
            warnings.append(f"{a} et {b} (D{d} groupe {g}) se rencontrent {count} fois ; {most} attendues.")
    return warnings


def season_label(parameters: Parameters) -> str:
    """The season's name, as the Saison sheet gives it."""
    return parameters.text("Saison") or ""


@dataclass
class Typed:
    """The input tables as read."""

    parameters: Parameters
    seed: int
    roster: Roster
    matches: list[MatchRow]
    warnings: list[str]


def read(book: Book, problems: Problems) -> Typed:
    """The input tables, every problem added to ``problems``."""
    parameters = read_parameters(book, PARAMETRES, problems)
    seed = season_seed(parameters, problems)
    roster = _read_players(book, problems)
    matches, warnings = _read_matches(book, problems, roster)
    return Typed(parameters, seed, roster, matches, warnings)


def summarise(typed: Typed) -> Summary:
    """The season computed by the core: matches, group standings, next season (:mod:`xlcircuit.torres`)."""
    roster, matches = typed.roster, typed.matches
    scored = {m.key: torres.score_match(m.seats) for m in matches}
    by_group: dict[tuple[int, int], list[list[torres.Seat]]] = defaultdict(list)
    for m in matches:
        by_group[m.key[:2]].append(m.seats)
    standings = {key: torres.group_standings(players, by_group[key]) for key, players in roster.groups.items()}
    newcomers = [p for p in roster.players if p.status is torres.Status.NEW]
    returning = [p for p in roster.players if p.status is torres.Status.RETURNING]
    following = torres.next_season(standings, newcomers, returning, typed.seed)
    return Summary(roster.players, matches, standings, scored, following, typed.seed,
                   roster.warnings + typed.warnings + following.warnings, season_label(typed.parameters),
                   roster.clubs)


# --- writing ---------------------------------------------------------------------------------


def _remark(s: torres.ScoredSeat) -> str | None:
    if s.seat.delayed:
        return "a retardé le match non terminé : aucun point de victoire"
    if s.seat.fictitious:
        return "joueur fictif (forfait) : classé par ses points, ses points de victoire ne comptent pour personne"
    return None


def points_rows(summary: Summary) -> list[list[object]]:
    """The ``Points`` table: every seat of every match played, best place first."""
    rows = []
    for key in sorted(summary.scored):
        seats = sorted(summary.scored[key], key=lambda s: (s.place is None, s.place or 0, -s.seat.points,
                                                          fold(s.seat.player), s.seat.player))
        for s in seats:
            rows.append([*key, s.seat.player, s.seat.points, s.place, s.victory_points, s.difference, _remark(s)])
    return rows


def _moves(summary: Summary) -> dict[str, torres.Movement]:
    return {m.player.name: m for m in summary.next_season.movements}


def _shown_move(m: torres.Movement) -> str:
    return "champion" if m.champion else m.move.value


def _group_rows(table: list[torres.Standing], moves: dict[str, torres.Movement]) -> list[list[object]]:
    """A group's standings under :data:`STANDING_COLUMNS`, by rank."""
    return [[s.rank, s.player.name, s.player.status.value, s.matches, s.victory_points, s.difference, s.points,
             s.player.elo, _shown_move(moves[s.player.name])] for s in table]


def standings_rows(summary: Summary) -> list[list[object]]:
    """The ``Classement général`` table: every group's standings, by division, group and rank."""
    moves = _moves(summary)
    return [[d, g, *row] for (d, g), table in summary.standings.items() for row in _group_rows(table, moves)]


def movements_rows(summary: Summary) -> list[list[object]]:
    """The ``Mouvements`` table: each player's fate, then returning and new players."""
    rows = []
    for m in summary.next_season.movements:
        s = m.standing
        rank = s.rank if s is not None and m.player.group is not None else None
        rows.append([m.player.division if m.player.group is not None else None, m.player.group, rank,
                     m.player.name, s.label if s is not None else m.origin or None, _shown_move(m),
                     m.division, m.group])
    return rows


def _provenance(m: torres.Movement) -> str:
    s = m.standing
    if s is None:
        if m.move is torres.Move.NEW:
            return f"nouveau ({m.origin} par Elo)"
        return f"retour (D{m.player.division} demandée)"
    where = f"D{s.player.division}" + (f" groupe {s.player.group}" if s.player.division > 1 else "")
    return f"{s.position}{'er' if s.position == 1 else 'e'} de {where} : {m.move.value}"


def next_rows(summary: Summary) -> list[list[object]]:
    """The ``Saison suivante`` table: next season's groups."""
    return [[d, g, m.player.name, m.origin, _provenance(m), m.player.elo]
            for (d, g), members in summary.next_season.groups.items() for m in members]


def _highlights(rows: list[list[object]], summary: Summary, club: str | None, player: int) -> dict[int, str]:
    """Standings rows to colour by their move (the last column), or the players (column ``player``) of ``club``."""
    if club is not None:
        return {i: CLUB_COLOUR for i, row in enumerate(rows) if summary.clubs.get(row[player]) == club}
    colour = {"champion": COLOURS["champion"], torres.Move.UP.value: COLOURS["up"],
              torres.Move.RESCUED_UP.value: COLOURS["up"], torres.Move.DOWN.value: COLOURS["down"],
              torres.Move.FORFEIT.value: COLOURS["leaves"], torres.Move.WITHDRAWN.value: COLOURS["leaves"]}
    return {i: colour[row[-1]] for i, row in enumerate(rows) if row[-1] in colour}


def outputs(summary: Summary, club: str | None = None, day: dt.date | None = None) -> list[Output]:
    """The published tables, with their titles; moves coloured, or a club's players highlighted. The group
    tables of the ``Classements`` sheet are :func:`group_outputs` (laid out by :func:`write_groups`)."""
    day = day or dt.date.today()
    standings = standings_rows(summary)
    return [
        Output(GENERAL, GENERAL.columns, standings, title(TITLE, "classement général", summary.season, day),
               _highlights(standings, summary, club, player=3), notes=STANDINGS_NOTES, repeat_columns=4),
        Output(POINTS, POINTS.columns, points_rows(summary), title(TITLE, "points par match", summary.season, day),
               repeat_columns=4),
        Output(MOUVEMENTS, MOUVEMENTS.columns, movements_rows(summary),
               title(TITLE, "mouvements", summary.season, day)),
        Output(SUIVANTE, SUIVANTE.columns, next_rows(summary), title(TITLE, "saison suivante", summary.season, day)),
    ]


STANDINGS_NOTES = (
    "Points de victoire, Différence, Points particuliers : les sommes sur les matchs du joueur (feuille « Points »).",
    "Rang : le plus de points de victoire, puis la plus grande différence, puis le plus de points particuliers,",
    "puis l'Elo le plus bas en début de saison ; couleurs : or champion, vert monte, rouge descend, gris part.",
)


def group_spec(division: int, group: int) -> TableSpec:
    """The table of a group on the ``Classements`` sheet: ``Classement_D2_G1`` for division 2, group 1."""
    return TableSpec(GROUPS_SHEET, f"Classement_D{division}_G{group}", STANDING_COLUMNS)


def group_outputs(summary: Summary, club: str | None = None, day: dt.date | None = None) -> list[Output]:
    """The ``Classements`` sheet: one table per group, by division then group, each under its title
    (« division 2, groupe 1 »; the single group of D1 is « division 1 »), moves coloured as in :func:`outputs`."""
    day = day or dt.date.today()
    moves = _moves(summary)
    tables = []
    for (d, g), table in summary.standings.items():
        rows = _group_rows(table, moves)
        what = f"division {d}" + (f", groupe {g}" if torres.groups_in(d) > 1 else "")
        tables.append(Output(group_spec(d, g), STANDING_COLUMNS, rows, title(TITLE, what, summary.season, day),
                             _highlights(rows, summary, club, player=1)))
    return tables


def _groups_sheet(wb: Workbook) -> Worksheet:
    """The sheet of the group tables: the one holding them (the organiser may have renamed it), else
    ``Classements``, created if missing."""
    for ws in wb.worksheets:
        if any(GROUP_TABLE.fullmatch(name) for name in ws.tables):
            return ws
    return wb[GROUPS_SHEET] if GROUPS_SHEET in wb.sheetnames else wb.create_sheet(GROUPS_SHEET)


def _ours(ws: Worksheet, name: str) -> bool:
    """Whether a table of the groups' sheet is an earlier fill's: a group table, or the single table
    ``Classements`` (the columns of ``Classement général``) that fills wrote there before groups had their own."""
    if GROUP_TABLE.fullmatch(name):
        return True
    if name.casefold() != "classements":
        return False
    min_col, min_row, max_col, _ = table_bounds(ws, name)
    return [ws.cell(min_row, c).value for c in range(min_col, max_col + 1)] == [c.header for c in GENERAL.columns]


def _clear_groups(ws: Worksheet) -> tuple[int, int]:
    """Remove an earlier fill's group tables from ``ws`` (cells, titles, fills, data bars, page breaks);
    returns where the first of the new ones goes: (row, column) of the topmost old one, else A3."""
    areas = remove_tables(ws, [name for name in ws.tables if _ours(ws, name)])
    starts = {area[1] - TITLE_ROWS - 1 for area in areas}  # the row breaks put before their titles
    if any(b.id in starts for b in ws.row_breaks.brk):
        ws.row_breaks.brk = [b for b in ws.row_breaks.brk if b.id not in starts]
    if not areas:
        return TITLE_ROWS + 1, 1
    row, col = min((area[1], area[0]) for area in areas)
    return max(row, TITLE_ROWS + 1), col


def write_groups(wb: Workbook, groups: Sequence[Output], problems: Problems) -> Worksheet:
    """Lay the group tables out afresh: remove the earlier fill's, then stack ``groups`` from where the first
    one stood, each under its title, each group on a page of its own. What else is on the sheet stays; a
    table or title that would cover the organiser's cells is added to ``problems`` (the sheet is then left
    half written: the caller saves nothing)."""
    ws = _groups_sheet(wb)
    row, col = _clear_groups(ws)
    placed = []
    for output in groups:
        output = replace(output, spec=replace(output.spec, sheet=ws.title))
        name = output.spec.name
        heading = ws.cell(row - TITLE_ROWS, col)
        elsewhere = find_table(wb, name)
        if elsewhere is not None:
            problems.add(Problem(elsewhere[0].title, None, None, f"la table « {elsewhere[1].displayName} » porte le "
                                 f"nom d'un classement de groupe de la feuille « {ws.title} » : renommez-la, puis "
                                 "relancez"))
        elif heading.value is not None:
            problems.add(Problem(ws.title, heading.row, None, f"le titre de la table « {name} » doit s'écrire en "
                                 f"{heading.coordinate}, qui n'est pas vide : déplacez ce qui s'y trouve, puis "
                                 "relancez", heading.coordinate))
        elif write_table(wb, output, problems, at=(row, col)) is not None:
            placed.append(output)
        row += TITLE_ROWS + max(len(output.rows), 1) + 1 + GROUP_GAP
    if not problems:
        for index, output in enumerate(placed):
            _style_group(ws, output, new_page=index > 0)
        _print_setup(ws)
    return ws


def _style_group(ws: Worksheet, output: Output, new_page: bool) -> None:
    """A group table's look (:func:`tables.style_table`), with a page break before its title."""
    style_table(ws, output)
    if new_page:
        title_row = table_bounds(ws, output.spec.name)[1] - TITLE_ROWS
        ws.row_breaks.append(Break(id=title_row - 1))


def _print_setup(ws: Worksheet) -> None:
    """Landscape at a fixed scale where a group's nine columns fit a page's width (LibreOffice's fonts are the
    widest): not fit-to-page, which would make Excel ignore the page breaks between groups."""
    ws.page_setup.paperSize = PAPER_A4
    ws.page_setup.orientation = "landscape"
    ws.page_setup.scale = PRINT_SCALE
    ws.sheet_properties.pageSetUpPr.fitToPage = False
    ws.oddFooter.center.text = "Page &P / &N"
    ws.oddFooter.left.text = "&A"


def report(summary: Summary) -> list[str]:
    """What ``check`` and ``fill`` print: the counts, then the top of D1 (French)."""
    groups = len(summary.standings)
    divisions = len({d for d, _ in summary.standings})
    new = sum(p.status is torres.Status.NEW for p in summary.players)
    players = sum(len(t) for t in summary.standings.values())
    lines = [f"{plural(players, 'joueur')} en {plural(divisions, 'division')} et {plural(groups, 'groupe')}, "
             f"{plural(len(summary.matches), 'match joué', 'matchs joués')}, "
             f"{plural(new, 'nouveau joueur', 'nouveaux joueurs')}."]
    top = summary.standings.get((1, 1), [])
    if top:
        lines.append("  Division 1 :")
    for s in top[:SHOWN]:
        vp = decimal_comma(s.victory_points, 1)
        diff = ("+" if s.difference > 0 else "") + format_half_up(s.difference)
        lines.append(f"  {s.rank:>3}. {s.player.name:<28} {vp:>6} PV {diff:>6}")
    return lines


def _groups(book: Book, summary: Summary, written: list[tuple[Output, Worksheet]], problems: Problems) -> None:
    """Each group's table, one under the other on the Classements sheet."""
    write_groups(book.wb, group_outputs(summary, day=dt.date.today()), problems)


#: What the journal and ``xlcircuit diff`` compare: each player's points in each match (and a delay), each rank
#: and victory points.
TRACKED = Tracked(POINTS, ("Division", "Groupe", "Match"), ("Joueur",), ("Points particuliers", "Remarque"), GENERAL,
                  "Joueur", "Rang", "Points de victoire")
STEPS = Steps(FEDERATION, Owned.of((GENERAL, POINTS, MOUVEMENTS, SUIVANTE), pattern=GROUP_TABLE,
                                   pattern_sheet=GROUPS_SHEET), read, summarise, outputs, _groups,
              Journal(TITLE, TRACKED, lambda summary: report(summary)[0]))
compute, fill = STEPS.compute, STEPS.fill


# --- the calendar ----------------------------------------------------------------------------


def schedule(book: Book, seed: int | None = None) -> list[str]:
    """``xlcircuit schedule``: draw every group's matches into the ``Calendrier`` table (and into an empty
    ``Matchs`` table, ready for the points); ``seed`` None takes the season's (``Graine``, else the season's
    name). Returns the French report lines."""
    problems = Problems()
    parameters = read_parameters(book, PARAMETRES, problems)
    default = season_seed(parameters, problems)
    roster = _read_players(book, problems)
    typed = read_table(book, MATCHS, problems)
    if problems:
        raise WorkbookProblems(problems.items)
    seed = default if seed is None else seed
    rows: list[tuple] = []
    notes: list[str] = []
    for (d, g), players in roster.groups.items():
        try:
            matches = torres.schedule_group([p.name for p in players], f"{seed}:{d}:{g}")
        except InvalidInput as exc:
            problems.at(roster.records[players[0].name], "Groupe", f"D{d} groupe {g} : {exc}")
            continue
        note = torres.schedule_note(len(players))
        if note:
            notes.append(f"Attention : D{d} groupe {g} : {note}.")
        for number, match in enumerate(matches, start=1):
            rows += [(d, g, number, seat, name) for seat, name in enumerate(match, start=1)]
    if problems:
        raise WorkbookProblems(problems.items)
    day = dt.date.today()
    write_outputs(book.wb, [Output(CALENDRIER, CALENDRIER.columns, rows,
                                   title(TITLE, "calendrier", season_label(parameters), day))])
    lines = [f"{len(roster.groups)} groupes, {len(rows) // torres.MATCH_SIZE} matchs ; graine du tirage : {seed} "
             f"(la même graine redonne le même calendrier)."]
    if not typed:
        type_rows(book.wb, MATCHS, [(d, g, n, name, None, None) for d, g, n, _, name in rows])
        lines.append(f"La table « {MATCHS.name} » était vide : les matchs y sont tapés, points à remplir.")
    lines += notes
    mark_federation(book.wb, FEDERATION)
    return lines


# --- the explanation of a player's points (xlcircuit explain) -------------------------------------


def explain(summary: Summary, wanted: str) -> list[str]:
    """``xlcircuit explain``: the lines explaining ``wanted``'s points, in French, each result with its rule,
    the last line ending on his published total."""
    everyone = [s for table in summary.standings.values() for s in table]
    player = find_player(wanted, [s.player.name for s in everyone])
    standing = next(s for s in everyone if s.player.name == player)
    lines = [f"{player} — {TITLE} {summary.season}".rstrip(),
             "Chaque match (§2) : points de victoire selon la place aux points particuliers ; différence : ses "
             "points moins ceux de chaque adversaire.", ""]
    vps, diffs = [], []
    for (d, g, m), seats in sorted(summary.scored.items()):
        for s in seats:
            if s.seat.player == player:
                remark = _remark(s)
                lines.append(f"  Division {d}, groupe {g}, match {m} : {decimal_comma(s.seat.points, 0)} points "
                             "particuliers, "
                             f"{nth(s.place) if s.place else 'sans place'} → {decimal_comma(s.victory_points, 1)} PV, "
                             f"différence {signed(s.difference)}" + (f" ({remark})" if remark else ""))
                vps.append(s.victory_points)
                diffs.append(s.difference)
    lines.append("")
    lines.append(f"Points de victoire : {summed(rounded_parts(vps, 1), 1, decimal_comma(standing.victory_points, 1))}")
    lines.append(f"Différence : {summed(diffs, 0, signed(standing.difference))}")
    lines.append(f"Rang : {standing.rank} de la division {standing.player.division}, groupe {standing.player.group} "
                 "(départage : points de victoire, différence, points particuliers, Elo le plus bas).")
    lines.append(f"Points de victoire au classement : {decimal_comma(standing.victory_points, 1)}")
    return lines


# --- season after season ---------------------------------------------------------------------------


def honours(summary: Summary) -> Honours:
    """The palmarès line: « le premier de la D1 est déclaré champion », the D1's next two, and each other
    group's first."""
    champion, second, third = seasons.podium((s.rank, s.player.name) for s in summary.standings.get((1, 1), []))
    firsts = [f"D{d}" + (f" groupe {g}" if torres.groups_in(d) > 1 else "") + f" : {table[0].player.name}"
              for (d, g), table in summary.standings.items() if d > 1 and table and table[0].rank == 1]
    return Honours(summary.season, champion, second, third, ("1ers : " + " ; ".join(firsts)) if firsts else None)


def carry(summary: Summary, register: Register) -> Carry:
    """Next season's Joueurs: the groups of « Saison suivante », returning and new players still waiting, players
    who left with the division they would come back to (:func:`xlcircuit.rules.torres.carry_over`)."""
    carried = torres.carry_over(summary.players, summary.standings, summary.next_season)
    extra: dict[str, dict[str, object]] = {
        c.name: {"Elo": c.elo, "Division": c.division, "Groupe": c.group, "Statut": c.status.value} for c in carried}
    players = [row for row in register_rows(register, extra, [c.name for c in carried]) if row["Joueur"]]
    order = {c.name: i for i, c in enumerate(carried)}
    by_name = {e.typed: e.name for e in register}
    players.sort(key=lambda row: order.get(by_name.get(str(row["Joueur"]), str(row["Joueur"])), len(order)))
    playing = [c for c in carried if c.group is not None]
    left = [c for c in carried if c.status is torres.Status.LEFT]
    waiting = [c for c in carried if c.status in (torres.Status.NEW, torres.Status.RETURNING)]
    divisions = len({c.division for c in playing})
    notes = [f"Divisions et groupes : ceux de « {SUIVANTE.sheet} », {plural(len(playing), 'joueur')} en "
             f"{plural(divisions, 'division')} ; {plural(len(left), 'parti', 'partis')} (forfait ou retrait : statut "
             f"« parti ») ; {plural(len(waiting), 'joueur')} en attente d'une place (nouveau ou retour).",
             "Elo : celui du début de la saison qui s'achève, reporté : tapez celui de Boîte à Jeux au début de la "
             "nouvelle saison (il départage, 4e critère).",
             f"Calendrier : xlcircuit schedule {WORKBOOK} tire les matchs de chaque groupe."]
    return Carry([Parameter("Saison", seasons.next_name(summary.season)), Parameter("Graine", None)], players, notes)


# --- importing results (xlcircuit import) ----------------------------------------------------------------


IMPORTER = Importer(
    lines=MATCHS,
    fields=(
        Field("Division", ("division", "div"), _division, required=True, fact=True),
        Field("Groupe", ("groupe", "group", "gr", "grp"), _group, required=True, fact=True),
        Field("Match", ("match", "n° match", "numero du match", "match n°", "partie"), _match, required=True,
              fact=True),
        Field("Joueur", words.PLAYER, sources.text, required=True, person=True),
        Field("Points", ("points", "points particuliers", "pts", "score", "total"), _points, required=True),
        Field("Retard", ("retard", "en retard", "delayed"), sources.yes),
    ),
    key=("Division", "Groupe", "Match"), what="match", placeholders=("Points",),
    form=Form(
        "feuille d'un match, à envoyer à l'organisateur du championnat",
        facts=("Division", "Groupe", "Match"),
        columns=("Joueur", "Points", "Retard"),
        guide=("Les quatre joueurs du match et leurs points particuliers (au dernier décompte si le match n'est "
               "pas fini) ;",
               "« oui » dans Retard pour qui a retardé un match non terminé. Le joueur fictif d'un forfait s'écrit "
               "Forfait."),
        choices={"Retard": ("oui", "non")},
        widths={"Joueur": 28, "Points": 12, "Retard": 10},
    ),
)

class Torres(Adapter):
    """The torres workbook (see the module's docstring)."""

    info, steps, importer = INFO, STEPS, IMPORTER
    inputs, standings, lines = INPUTS, STANDINGS, LINES
    players, parameters = JOUEURS, PARAMETRES
    player_needs = ("Elo", "Division", "Groupe")

    def honours(self, summary: Summary) -> Honours:
        return honours(summary)

    def carry(self, summary: Summary, register: Register) -> Carry:
        return carry(summary, register)

    def new_workbook(self) -> Workbook:
        return new_workbook()

    def put_example(self, wb: Workbook) -> None:
        put_example(wb)

    def report(self, summary: Summary) -> list[str]:
        return report(summary)

    def explain(self, summary: Summary, wanted: str) -> list[str]:
        return explain(summary, wanted)

    schedules = True

    def schedule(self, book: Book, seed: int | None = None) -> list[str]:
        return schedule(book, seed)

    def group_outputs(self, summary: Summary, club: str | None = None, day: dt.date | None = None) -> list[Output]:
        return group_outputs(summary, club, day)

    def write_groups(self, wb: Workbook, groups: Sequence[Output], problems: Problems) -> None:
        write_groups(wb, groups, problems)


ADAPTER = Torres()
'''

# --- xlcircuit/rules/__init__.py ---------------------------------------------------------------------
_SOURCES['xlcircuit.rules'] = True, r'''
"""rules"""
'''

# --- xlcircuit/rules/cdf.py --------------------------------------------------------------------------
_SOURCES['xlcircuit.rules.cdf'] = False, r'''
"""Championnat de France de Diplomatie (2012 rules): Super Pastis game scores (§IV.1), round,
qualifying and final scores (§II.2b4, §IV.2, §IV.3a), the top board (§III), the individual
ranking with its tie-breakers (§IV.3b), teams (§IV.5), vote awards (§IV.6) and best countries (§IV.7).

Rules: ``docs/regles/cdf.md``, our French summary of the 2012 rules of the Championnat de France de
Diplomatie, which wins where they differ. Nothing is rounded here; rounding is for display only.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter, defaultdict
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from functools import partial
from typing import Any

from .errors import InvalidInput, Violation, raise_first
from .limits import CDF_MAX_BONUS
from .mechanics import competition_ranks_by, rank_key, weighted_best
from .text import fold

#: Supply centres on the map, centres of a solo, score of a solo ("le double pastis") (§IV.1).
CENTRES = 34
SOLO_CENTRES = 18
SOLO_SCORE = 102.0
#: A game lasts seven years (1901-1907) unless ended earlier by a unanimous vote (§II.4a, §II.4g).
YEARS = 7
FIRST_YEAR = 1901
PLAYERS = 7
#: No solo (§IV.1): points per centre, for still having a centre, bonus of a single leader, of x tied leaders.
PER_CENTRE = 2.0
SURVIVOR_POINTS = 10.0
LEADER_BONUS = 51.0
TIED_LEADERS_BONUS = 48.0
#: Bonus of a player 1, 2, 3 centres behind the leader(s) (divided by x when x are tied first).
PURSUER_BONUS = {1: 12.0, 2: 6.0, 3: 3.0}
#: Simultaneous boards (§II.2b4): best 80% and other 40%, or best 100% and other 0%.
SIMULTANEOUS = (0.8, 0.4)
MAX_SIMULTANEOUS = 2  # §II.2b3
#: Rounds: 1-3 qualify (§I), 4 is the final round with the top board (§III).
ROUNDS = 4
QUALIFYING_ROUNDS = 3
#: Rounds 1 and 2 are played on Saturday (§I): top-board steps 1-3 and the "samedi soir" ranking are decided
#: that evening, before round 3, so their tie-breakers see these rounds only (§III.1).
SATURDAY_ROUNDS = 2
SATURDAY_STEPS = 3
TEAM_ROUND = 2  # §IV.5b
#: Weights of the round scores, best first (§IV.2 qualifying with three rounds; §IV.3a final).
QUALIFYING_WEIGHTS = (1.0, 0.8, 0.4)
FINAL_WEIGHTS = {3: (1.0, 1.0, 0.8), 4: (1.0, 1.0, 0.8, 0.4)}
TOP_BOARD_BONUS = 0.15  # §III.4
TOP_BOARD_SIZE = 7
MAX_TEAM = 3  # §IV.5a
#: A player's other bonus (§IV.3a), either sign: beyond it, a typing mistake (:mod:`xlcircuit.limits`).
MAX_BONUS = CDF_MAX_BONUS
#: Vote ballots (§IV.6b2): points of the first and the second named; awards count the best three games.
BALLOTS = {"3+1": (3, 1), "2+2": (2, 2)}
BEST_GAMES = 3


#: A ranking key: a tuple compared item by item, the most important first.
Key = tuple[Any, ...]

#: How a message names a blank cell ("… attendu ; trouvé une cellule vide").
BLANK = "une cellule vide"


def _found(text: object) -> str:
    """A typed value as a message shows it: a blank cell is named as such."""
    return BLANK if text is None or not str(text).strip() else f"« {text} »"


class Power(Enum):
    """The seven countries, with the French names the federation uses (§IV.7a)."""

    AUSTRIA = "Autriche"
    ENGLAND = "Angleterre"
    FRANCE = "France"
    GERMANY = "Allemagne"
    ITALY = "Italie"
    RUSSIA = "Russie"
    TURKEY = "Turquie"

    @property
    def starting_centres(self) -> int:
        """Centres at the start (Russia 4, the others 3): tie-breaker §IV.3b-4."""
        return 4 if self is Power.RUSSIA else 3

    @classmethod
    def parse(cls, text: object) -> Power:
        """The country named by ``text`` (any case, accents optional, English names accepted)."""
        key = fold("" if text is None else str(text))
        for power in cls:
            if key in (fold(power.value), power.name.casefold()):
                return power
        raise InvalidInput(f"pays attendu : {', '.join(p.value for p in cls)} ; trouvé {_found(text)}")


class Category(Enum):
    """The four categories voted on after each game (§IV.6b2)."""

    DIPLOMAT = "meilleur diplomate"
    TACTICIAN = "meilleur tacticien"
    STRATEGIST = "meilleur stratège"
    MACHIAVELLIAN = "plus machiavélique"

    @classmethod
    def parse(cls, text: object) -> Category:
        """The category named by ``text``, in full or by its last word (``diplomate``, ``stratege``)."""
        key = fold("" if text is None else str(text)).removeprefix("le ")
        for category in cls:
            full = fold(category.value)
            if key and key in (full, full.split()[-1]):
                return category
        raise InvalidInput(f"catégorie attendue : {', '.join(c.value for c in cls)} ; trouvé {_found(text)}")


def parse_ballot(text: object) -> tuple[int, int]:
    """§IV.6b2: a ballot gives 3 + 1 or 2 + 2 points (``3+1``, ``3/1``, ``2-2``…)."""
    key = "".join(ch for ch in str(text or "") if ch.isdigit())
    for name, points in BALLOTS.items():
        if key == name.replace("+", ""):
            return points
    raise InvalidInput(f"bulletin attendu : {' ou '.join(BALLOTS)} ; trouvé {_found(text)}")


# --- §IV.1 Super Pastis ------------------------------------------------------------------------


class Outcome(Enum):
    """How a player finished a game, for its score (§IV.1)."""

    SOLO = "solo"
    BEHIND_SOLO = "derrière un solo"
    LEADER = "seul en tête"
    TIED_LEADER = "ex aequo en tête"
    PURSUER = "poursuivant"  # 1 to 3 centres behind the leader(s)
    OTHER = "autre"


@dataclass(frozen=True)
class Seat:
    """One player's line on a board: centres at the end, and the years survived if eliminated."""

    player: str
    centres: int
    survived: int | None = None  # None: still alive at the end
    power: Power | None = None
    choice: int | None = None  # top board: the order in which he chose his country (§III.2)

    @property
    def eliminated(self) -> bool:
        return self.survived is not None


@dataclass(frozen=True)
class GameScore:
    """A seat's Super Pastis score and how it was made."""

    seat: Seat
    score: float
    outcome: Outcome
    bonus: float = 0.0  # the leader or pursuer bonus (0 with a solo)
    behind: int = 0  # centres behind the leader(s)


def _check_seat_count(count: int, short: bool) -> None:
    """§II.4: seven players a board (fewer only when ``short``), never more."""
    if not count or count > PLAYERS or (count < PLAYERS and not short):
        raise InvalidInput(f"{PLAYERS} joueurs attendus sur une table ; trouvé {count}"
                           + ("" if short or count > PLAYERS else
                              " (table incomplète : autorisez-la dans les paramètres)"))


def _check_once(seats: Sequence[Seat]) -> None:
    """Nobody twice on a board, and no power played twice."""
    names = Counter(seat.player for seat in seats)
    twice = sorted(name for name, count in names.items() if count > 1)
    if twice:
        raise InvalidInput(f"{', '.join(twice)} plusieurs fois sur la même table")
    powers = Counter(seat.power for seat in seats if seat.power is not None)
    again = sorted(power.value for power, count in powers.items() if count > 1)
    if again:
        raise InvalidInput(f"{', '.join(again)} joué par plusieurs joueurs de la même table")


def check_board(seats: Sequence[Seat], years: int = YEARS, short: bool = False) -> None:
    """§IV.1, §II.4: a board the scoring can take; raises InvalidInput saying what is wrong.

    Seven players (fewer when ``short``: a dummy power or a smaller variant), at most 34 centres and
    at least one, 0-34 each, a player without a centre eliminated after 0 to ``years`` years, nobody twice.
    """
    if not 1 <= years <= YEARS:
        raise InvalidInput(f"années jouées attendues : de 1 à {YEARS} ; trouvé {years}")
    _check_seat_count(len(seats), short)
    _check_once(seats)
    for seat in seats:
        check_seat(seat, years)
    total = sum(seat.centres for seat in seats)
    if total > CENTRES:
        raise InvalidInput(f"{total} centres sur la table : {CENTRES} au plus")
    if total == 0:
        raise InvalidInput("aucun centre sur la table : au moins un joueur en a encore")


def check_seat(seat: Seat, years: int = YEARS) -> None:
    """One line of a board: 0-34 centres; eliminated (0 centres) after 0 to ``years`` years."""
    if not 0 <= seat.centres <= CENTRES:
        raise InvalidInput(f"{seat.player} : centres attendus de 0 à {CENTRES} ; trouvé {seat.centres}")
    if seat.centres == 0 and seat.survived is None:
        raise InvalidInput(f"{seat.player} n'a plus de centre : nombre d'années avant d'être éliminé attendu "
                           f"(de 0 à {years}) ; trouvé {BLANK}")
    if seat.centres > 0 and seat.survived is not None:
        raise InvalidInput(f"{seat.player} a {seat.centres} centres : il n'est pas éliminé (videz « éliminé après »)")
    if seat.survived is not None and not 0 <= seat.survived <= years:
        raise InvalidInput(f"{seat.player} : éliminé après 0 à {years} années ; trouvé {seat.survived}")


def score_board(seats: Sequence[Seat], years: int = YEARS, short: bool = False) -> list[GameScore]:
    """§IV.1 Super Pastis: every seat's score, in the order of ``seats``.

    Solo (18+): 102, the others 1 point per year played (an eliminated player: the years he
    survived). Otherwise 2 per centre, plus 10 for a survivor or 1 per year survived; a single
    leader gets 51 minus his closest pursuer's bonus, x tied leaders 48/x each; players 1, 2, 3
    centres behind get 12, 6, 3 (divided by x).
    """
    check_board(seats, years, short)
    top = max(seat.centres for seat in seats)
    if top >= SOLO_CENTRES:
        return [GameScore(s, SOLO_SCORE, Outcome.SOLO) if s.centres == top else
                GameScore(s, float(s.survived if s.survived is not None else years), Outcome.BEHIND_SOLO, 0.0,
                          top - s.centres)
                for s in seats]
    leaders = sum(1 for seat in seats if seat.centres == top)
    pursuit = [PURSUER_BONUS.get(top - s.centres, 0.0) / leaders for s in seats if s.centres < top]
    if leaders == 1:
        leader_bonus = LEADER_BONUS - max(pursuit, default=0.0)
        leader_outcome = Outcome.LEADER
    else:
        leader_bonus = TIED_LEADERS_BONUS / leaders
        leader_outcome = Outcome.TIED_LEADER
    scored = []
    for seat in seats:
        base = PER_CENTRE * seat.centres + (float(seat.survived) if seat.survived is not None else SURVIVOR_POINTS)
        behind = top - seat.centres
        if behind == 0:
            scored.append(GameScore(seat, base + leader_bonus, leader_outcome, leader_bonus))
        else:
            bonus = PURSUER_BONUS.get(behind, 0.0) / leaders
            scored.append(GameScore(seat, base + bonus, Outcome.PURSUER if bonus else Outcome.OTHER, bonus, behind))
    return scored


def game_scores(centres: Sequence[int], survived: Sequence[int | None] | None = None, years: int = YEARS,
                short: bool = False) -> list[float]:
    """§IV.1: the Super Pastis scores of a board given as columns (centres, years survived or None)."""
    survived = list(survived) if survived is not None else [None] * len(centres)
    if len(survived) != len(centres):
        raise InvalidInput(f"autant d'années de survie que de joueurs attendues ; trouvé {len(survived)} "
                           f"pour {len(centres)}")
    seats = [Seat(f"joueur {i + 1}", c, s) for i, (c, s) in enumerate(zip(centres, survived))]
    return [g.score for g in score_board(seats, years, short)]


# --- §II.2b4, §IV.2, §IV.3a Tournament scores ---------------------------------------------------


def round_score(game_scores: Sequence[float]) -> float:
    """§II.2b4: one round's score; two simultaneous boards give the better of 80% + 40% and 100% + 0%."""
    if not 1 <= len(game_scores) <= MAX_SIMULTANEOUS:
        raise InvalidInput(f"une ou deux parties par ronde attendues ; trouvé {len(game_scores)}")
    return weighted_best(game_scores, simultaneous_weights(game_scores))


def simultaneous_weights(game_scores: Sequence[float]) -> tuple[float, ...]:
    """§II.2b4: the weights a round's score gives its games, best first: one game 100%; two simultaneous
    boards 80% + 40% when that is more than the better at 100% (+ 0%)."""
    if len(game_scores) == MAX_SIMULTANEOUS and weighted_best(game_scores, SIMULTANEOUS) > max(game_scores):
        return SIMULTANEOUS
    return (1.0,) + (0.0,) * (len(game_scores) - 1)


def qualifying_score(round_scores: Sequence[float]) -> float:
    """§IV.2: the sum of the qualifying rounds played, or 100/80/40% when all three were played."""
    if len(round_scores) > QUALIFYING_ROUNDS:
        raise InvalidInput(f"au plus {QUALIFYING_ROUNDS} rondes qualificatives ; trouvé {len(round_scores)}")
    if len(round_scores) == QUALIFYING_ROUNDS:
        return weighted_best(round_scores, QUALIFYING_WEIGHTS)
    return float(sum(round_scores))


def final_score(round_scores: Sequence[float]) -> float:
    """§IV.3a: the sum of fewer than three rounds; three rounds 100/100/80%; four 100/100/80/40%."""
    if len(round_scores) > ROUNDS:
        raise InvalidInput(f"au plus {ROUNDS} rondes ; trouvé {len(round_scores)}")
    weights = FINAL_WEIGHTS.get(len(round_scores))
    return weighted_best(round_scores, weights) if weights else float(sum(round_scores))


def final_weights(round_scores: dict[int, float]) -> dict[int, float]:
    """§IV.3a: the weight each round's score counts in the final score: all 100 % under three rounds;
    otherwise 100/100/80 % or 100/100/80/40 %, best score first (equal scores: the earlier round first)."""
    weights = FINAL_WEIGHTS.get(len(round_scores))
    if weights is None:
        return dict.fromkeys(round_scores, 1.0)
    order = sorted(round_scores, key=lambda r: (-round_scores[r], r))
    return dict(zip(order, weights))


def total_score(final: float, top_board: bool = False, bonus: float = 0.0) -> float:
    """§III.4 and §IV.3a: the final score, +15% for a top-board player, plus any other bonus."""
    return final * (1 + TOP_BOARD_BONUS) + bonus if top_board else final + bonus


# --- The championship --------------------------------------------------------------------------


@dataclass(frozen=True)
class Player:
    """What the rules need to know of a player beyond his games."""

    name: str
    birth: dt.date | None = None  # tie-breaker: the youngest
    foreign: bool = False  # tie-breaker of the awards and best countries
    team: str | None = None
    bonus: float = 0.0  # other bonuses (§IV.3a), e.g. for withdrawing to make tables of seven


@dataclass(frozen=True)
class Board:
    """One game: its round, its table, its seats and how many years it lasted."""

    round: int
    table: str
    seats: tuple[Seat, ...]
    years: int = YEARS

    @property
    def key(self) -> tuple[int, str]:
        return (self.round, self.table)

    @property
    def top_board(self) -> bool:
        """The top board is the final round's board whose players chose their countries in order."""
        return self.round == ROUNDS and any(seat.choice is not None for seat in self.seats)


@dataclass(frozen=True)
class Vote:
    """One ballot (§IV.6b2): at a board, a voter names two other players in a category."""

    round: int
    table: str
    voter: str
    category: Category
    first: str
    second: str
    ballot: tuple[int, int] = (3, 1)


@dataclass(frozen=True)
class Qualified:
    """A top-board player as the rules qualify him (§III.1): the step, and the score that did it."""

    step: int
    player: str
    score: float
    tied: bool = False  # still tied with the next candidate after every tie-breaker

    @property
    def reason(self) -> str:
        return STEP_REASONS[self.step]


STEP_REASONS = {
    1: "meilleur score de la ronde 2 parmi les vainqueurs seuls de la ronde 1",
    2: "meilleur score de la ronde 2",
    3: "meilleur score du samedi soir (rondes 1 et 2)",
    4: "meilleur score de la ronde 3",
    5: "meilleurs scores qualificatifs après la ronde 3",
}

#: Names of the tie-breakers of the individual ranking (§IV.3b), in order, as the standings show them.
#: The last tie-breaker, by decision: the youngest (an unknown birth date comes after every known one).
YOUNGEST = "le plus jeune"
TIE_BREAKERS = ("confrontation directe", "moins de parties", "meilleure partie", "pays de moins de centres", YOUNGEST)


@dataclass(frozen=True)
class Standing:
    """A player's line of the final ranking (§IV.3b)."""

    player: str
    place: int
    rounds: dict[int, float]  # round -> round score
    final: float  # §IV.3a, before bonuses
    top_board: bool
    bonus: float
    total: float
    champion: bool = False
    decided_by: str | None = None  # the tie-breaker that separated him from an equal total


@dataclass(frozen=True)
class QualifyingLine:
    """A player's scores during the qualifying rounds (§III.1, §IV.2)."""

    player: str
    rounds: dict[int, float]
    saturday: float  # after rounds 1 and 2
    saturday_place: int
    qualifying: float  # after round 3
    place: int


@dataclass(frozen=True)
class TeamStanding:
    """A team's line (§IV.5c)."""

    team: str
    place: int
    members: tuple[str, ...]
    score: float
    decided_by: str | None = None


@dataclass(frozen=True)
class AwardStanding:
    """A player's line in one vote category (§IV.6b2), or in the favourite-player vote (§IV.6b1)."""

    player: str
    place: int
    points: float
    games: int
    average: float
    most_votes: int  # votes received in a single game


@dataclass(frozen=True)
class CountryStanding:
    """A game played with one power, ranked for the best country (§IV.7)."""

    power: Power
    place: int
    player: str
    round: int
    table: str
    score: float
    centres: int


@dataclass
class Championship:
    """Everything the championship publishes."""

    boards: dict[tuple[int, str], list[GameScore]]
    round_scores: dict[str, dict[int, float]]
    qualifying: list[QualifyingLine]
    qualified: list[Qualified]
    top_board: Board | None
    standings: list[Standing]
    teams: list[TeamStanding]
    awards: dict[Category, list[AwardStanding]]
    favourites: list[AwardStanding]
    countries: dict[Power, list[CountryStanding]]
    warnings: list[str] = field(default_factory=list)


@dataclass
class _Games:
    """A player's games, for the tie-breakers."""

    scores: dict[tuple[int, str], float] = field(default_factory=dict)  # board -> game score
    powers: dict[tuple[int, str], Power | None] = field(default_factory=dict)  # board -> power played
    rounds: dict[int, float] = field(default_factory=dict)  # round -> round score


def _youth(player: Player | None) -> int:
    """Key of the youngest first; an unknown birth date comes after every known one."""
    return -player.birth.toordinal() if player and player.birth else 0


class _Ranker:
    """Ranks players by a score, then by the tie-breakers of §IV.3b (or §III.1) over chosen rounds."""

    def __init__(self, games: Mapping[str, _Games], players: Mapping[str, Player], rounds: Iterable[int]):
        self.games, self.players, self.rounds = games, players, set(rounds)

    def confrontation(self, group: Sequence[str]) -> dict[str, float]:
        """§IV.3b-1: for each player of a tie, his score minus theirs, summed over the games he shared
        with the others of the tie (k of them at a board: k times his score minus their total)."""
        at: dict[tuple[int, str], list[tuple[str, float]]] = defaultdict(list)
        for name in group:
            for board, score in self.games[name].scores.items():
                if board[0] in self.rounds:
                    at[board].append((name, score))
        result = dict.fromkeys(group, 0.0)
        for met in at.values():
            if len(met) > 1:
                total = sum(score for _, score in met)
                for name, score in met:
                    result[name] += len(met) * score - total
        return result

    def keys(self, names: Sequence[str], score: Callable[[str], float], first: Callable[[str], int] = lambda n: 0
             ) -> dict[str, Key]:
        """The ranking key of each player: (first, -score, -confrontation, games, -best game, centres, youth)."""
        groups: dict[Key, list[str]] = defaultdict(list)
        for name in names:
            groups[(first(name), rank_key(score(name)))].append(name)
        keys = {}
        for (head, total), group in groups.items():
            met = self.confrontation(group) if len(group) > 1 else dict.fromkeys(group, 0.0)
            for name in group:
                games = self.games[name]
                rounds = [s for r, s in games.rounds.items() if r in self.rounds]
                centres = sum(p.starting_centres for b, p in games.powers.items() if p and b[0] in self.rounds)
                keys[name] = (head, -total, -rank_key(met[name]),
                              len(rounds), -rank_key(max(rounds, default=0.0)), centres,
                              _youth(self.players.get(name)))
        return keys

    def ranked(self, names: Iterable[str], score: Callable[[str], float],
               first: Callable[[str], int] = lambda n: 0) -> list[tuple[str, int, Key]]:
        """(name, place, key), best first; players still equal after every tie-breaker share a place."""
        names = list(names)
        keys = self.keys(names, score, first)
        places = dict(zip(names, competition_ranks_by([keys[n] for n in names])))
        return sorted(((n, places[n], keys[n]) for n in names), key=lambda t: (t[1], fold(t[0]), t[0]))


def decided_by(key: Key, neighbour: Key | None, names: Sequence[str], start: int = 2) -> str | None:
    """The name of the first tie-breaker that differs between two keys equal on their score."""
    if neighbour is None or key[:start] != neighbour[:start]:
        return None
    for name, a, b in zip(names, key[start:], neighbour[start:]):
        if a != b:
            return name
    return None


def _decisions(ranked: Sequence[tuple[str, int, Key]], names: Sequence[str], start: int = 2) -> dict[str, str]:
    """For each player equal on score with a neighbour, the tie-breaker that placed them."""
    found: dict[str, str] = {}
    for i, (name, _, key) in enumerate(ranked):
        for j in (i - 1, i + 1):
            if 0 <= j < len(ranked) and name not in found:
                why = decided_by(key, ranked[j][2], names, start)
                if why is not None:
                    found[name] = why
    return found


# --- Checks of the typed lines: located violations (index, field, message) ------------------------

#: How a check names another record in its messages, by its index (an adapter passes its own: "ligne 7").
Where = Callable[[int], str]


def _numbered(index: int) -> str:
    return f"n° {index + 1}"


@dataclass(frozen=True)
class Line:
    """One typed line of the boards: a player's seat at one board of a round, and the board's length
    in years when this line gives it."""

    round: int
    table: str
    seat: Seat
    years: int | None = None


def _raised(check: Callable[[], object]) -> str | None:
    """The message of the InvalidInput a check raises, or None when it passes."""
    try:
        check()
    except InvalidInput as error:
        return str(error)
    return None


def line_violations(line: Line, index: int = 0) -> list[Violation]:
    """§III.2 and §IV.1 on one line: an order of choice only on the top board (the final round), and
    a seat the scoring can take (``check_seat``)."""
    found = []
    if line.seat.choice is not None and line.round != ROUNDS:
        found.append(Violation(index, "choice", f"ordre de choix en ronde {line.round} : seule la table finale "
                                                f"(ronde {ROUNDS}) en a un"))
    seat = _raised(partial(check_seat, line.seat, line.years or YEARS))
    if seat is not None:
        eliminated = line.seat.centres == 0 or line.seat.survived is not None
        found.append(Violation(index, "survived" if eliminated else "centres", seat))
    return found


def boards_of(lines: Sequence[Line], short: bool = False,
              unread: Collection[tuple[int, str]] = ()) -> tuple[list[Board], list[Violation]]:
    """The boards the lines make (by round, then table), and every violation, located on a line: a line
    the scoring cannot take (``line_violations``) is left out; a board with several lengths (§II.4g) or
    that ``check_board`` refuses is reported on its first line and left out; a player on more than
    ``MAX_SIMULTANEOUS`` boards of a round (§II.2b3) on his last line. A board that lost a line (to a
    violation here, or to the reader: ``unread``, by (round, table)) is checked but for its number of players:
    its six other lines would only say « 7 players expected », a follow-on of the line to fix."""
    violations: list[Violation] = []
    grouped: dict[tuple[int, str], list[int]] = defaultdict(list)
    incomplete = set(unread)
    for i, line in enumerate(lines):
        found = line_violations(line, i)
        violations += found
        if found:
            incomplete.add((line.round, line.table))
        else:
            grouped[(line.round, line.table)].append(i)
    boards = []
    for (ronde, table), group in sorted(grouped.items(), key=lambda item: (item[0][0], fold(item[0][1]))):
        lengths = {years for i in group if (years := lines[i].years) is not None}
        if len(lengths) > 1:
            shown = ", ".join(map(str, sorted(lengths)))
            violations.append(Violation(group[0], "years", f"table {table} de la ronde {ronde} : plusieurs durées "
                                                           f"({shown}) : une par partie"))
            continue
        board = Board(ronde, table, tuple(lines[i].seat for i in group), lengths.pop() if lengths else YEARS)
        lost = (ronde, table) in incomplete
        refused = _raised(partial(check_board, board.seats, board.years, short or lost))
        if refused is not None:
            violations.append(Violation(group[0], "table", f"table {table} de la ronde {ronde} : {refused}"))
        else:
            boards.append(board)
    per_round: dict[tuple[str, int], list[int]] = defaultdict(list)
    for i in sorted(i for group in grouped.values() for i in group):
        per_round[(lines[i].seat.player, lines[i].round)].append(i)
    for (player, ronde), group in per_round.items():
        if len(group) > MAX_SIMULTANEOUS:
            violations.append(Violation(group[-1], "player", f"{player} a {len(group)} parties à la ronde {ronde} : "
                                                             f"{MAX_SIMULTANEOUS} simultanées au plus"))
    return boards, violations


def seated_at(boards: Iterable[Board]) -> dict[tuple[int, str], set[str]]:
    """Who sat at each board: (round, table) -> the players."""
    seated: dict[tuple[int, str], set[str]] = defaultdict(set)
    for board in boards:
        seated[board.key].update(seat.player for seat in board.seats)
    return dict(seated)


def bonus_violations(players: Sequence[Player]) -> list[Violation]:
    """§IV.3a « autres bonus »: a player's other bonus, either sign, up to :data:`MAX_BONUS` (a larger one is a
    typing mistake: :mod:`xlcircuit.limits`); each reported on its own record (field ``bonus``)."""
    return [Violation(i, "bonus", f"bonus entre -{MAX_BONUS} et {MAX_BONUS} attendu ; trouvé {player.bonus}")
            for i, player in enumerate(players) if not -MAX_BONUS <= player.bonus <= MAX_BONUS]


def team_violations(players: Sequence[Player]) -> list[Violation]:
    """§IV.5a: a team has three players at most; each one beyond is reported on his own record."""
    members: dict[str, list[str]] = defaultdict(list)
    found = []
    for i, player in enumerate(players):
        if not player.team:
            continue
        team = members[player.team]
        if len(team) >= MAX_TEAM:
            found.append(Violation(i, "team", f"l'équipe « {player.team} » a déjà {MAX_TEAM} joueurs "
                                              f"({', '.join(team)}) : {MAX_TEAM} joueurs au plus"))
        else:
            team.append(player.name)
    return found


def vote_violations(votes: Sequence[Vote], seated: Mapping[tuple[int, str], Collection[str]],
                    where: Where = _numbered) -> list[Violation]:
    """§IV.6b2: a ballot is cast at a board that was played, by one of its players, for two others of
    it, and once per voter and category at a board (``seated``: who sat at each board)."""
    found: list[Violation] = []
    seen: dict[tuple[int, str, str, Category], int] = {}
    for i, vote in enumerate(votes):
        board = seated.get((vote.round, vote.table))
        if board is None:
            found.append(Violation(i, "table", f"pas de table {vote.table} à la ronde {vote.round} dans la table "
                                               "Parties"))
            continue
        absent = [Violation(i, field, f"{name} n'a pas joué à la table {vote.table} de la ronde {vote.round}")
                  for field, name in (("voter", vote.voter), ("first", vote.first), ("second", vote.second))
                  if name not in board]
        if absent:
            found += absent
        elif len({vote.voter, vote.first, vote.second}) < 3:
            found.append(Violation(i, "second", "le votant désigne deux autres joueurs, différents"))
        elif (key := (vote.round, vote.table, vote.voter, vote.category)) in seen:
            found.append(Violation(i, "category", f"{vote.voter} a déjà voté « {vote.category.value} » pour cette "
                                                  f"partie ({where(seen[key])})"))
        else:
            seen[key] = i
    return found


def favourite_violations(favourites: Sequence[tuple[str, str]], seated: Mapping[tuple[int, str], Collection[str]],
                         where: Where = _numbered) -> list[Violation]:
    """§IV.6b1: the favourite-player vote is cast once by each player of the last round, for another
    player of the championship (``seated``: who sat at each board). Fields ``voter`` and ``favourite``."""
    known = {name for names in seated.values() for name in names}
    last_round = max((r for r, _ in seated), default=0)
    last = {name for (r, _), names in seated.items() if r == last_round for name in names}
    found: list[Violation] = []
    seen: dict[str, int] = {}
    for i, (voter, chosen) in enumerate(favourites):
        unknown = [Violation(i, field, f"{name} n'a joué aucune partie")
                   for field, name in (("voter", voter), ("favourite", chosen)) if name not in known]
        if unknown:
            found += unknown
        elif voter not in last:
            found.append(Violation(i, "voter", f"{voter} n'a pas joué la dernière ronde : seuls ses joueurs votent"))
        elif voter == chosen:
            found.append(Violation(i, "favourite", "on ne vote pas pour soi-même"))
        elif voter in seen:
            found.append(Violation(i, "voter", f"{voter} a déjà voté ({where(seen[voter])}) : un vote par joueur"))
        else:
            seen[voter] = i
    return found


# --- The championship, section by section -----------------------------------------------------


def _score_boards(boards: Sequence[Board], short: bool
                  ) -> tuple[dict[tuple[int, str], list[GameScore]], dict[str, _Games]]:
    """§IV.1 and §II.2b3-4: every board's Super Pastis scores, and each player's games and round scores."""
    scored: dict[tuple[int, str], list[GameScore]] = {}
    games: dict[str, _Games] = defaultdict(_Games)
    by_round: dict[str, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    for board in sorted(boards, key=lambda b: b.key):
        if not 1 <= board.round <= ROUNDS:
            raise InvalidInput(f"ronde attendue de 1 à {ROUNDS} ; trouvé {board.round}")
        if board.key in scored:
            raise InvalidInput(f"table {board.table} de la ronde {board.round} donnée deux fois")
        lines = [Line(board.round, board.table, seat, board.years) for seat in board.seats]
        raise_first([v for i, line in enumerate(lines) for v in line_violations(line, i) if v.field == "choice"])
        try:
            scored[board.key] = score_board(board.seats, board.years, short)
        except InvalidInput as error:
            raise InvalidInput(f"ronde {board.round}, table {board.table} : {error}") from None
        for g in scored[board.key]:
            games[g.seat.player].scores[board.key] = g.score
            games[g.seat.player].powers[board.key] = g.seat.power
            by_round[g.seat.player][board.round].append(g.score)
    for name, rounds in by_round.items():
        for r, scores in rounds.items():
            if len(scores) > MAX_SIMULTANEOUS:
                raise InvalidInput(f"{name} a joué {len(scores)} parties à la ronde {r} : "
                                   f"{MAX_SIMULTANEOUS} au plus (§II.2b3)")
            games[name].rounds[r] = round_score(scores)
    return scored, games


def _until(round_scores: Mapping[int, float], last: int) -> float:
    """§III.1, §IV.2: the qualifying score of the rounds up to ``last``."""
    return qualifying_score([s for r, s in round_scores.items() if r <= last])


def _qualification(names: Sequence[str], scored: Mapping[tuple[int, str], Sequence[GameScore]],
                   games: Mapping[str, _Games], players: Mapping[str, Player], top_board: bool,
                   warnings: list[str]) -> tuple[list[QualifyingLine], list[Qualified]]:
    """§III.1 and §IV.2: the qualifying lines (Saturday evening and after round 3) and the top board's seven.

    The four tie-breakers (then, by decision, the youngest) count rounds 1-2 for the Saturday evening
    (steps 1-3 and the Saturday ranking), rounds 1-3 after round 3.
    """
    round_scores = {n: games[n].rounds for n in names}
    saturday_ranker = _Ranker(games, players, range(1, SATURDAY_ROUNDS + 1))
    ranker = _Ranker(games, players, range(1, QUALIFYING_ROUNDS + 1))
    in_qualifying = [n for n in names if any(r <= QUALIFYING_ROUNDS for r in round_scores[n])]

    def saturday(name: str) -> float:
        return _until(round_scores[name], SATURDAY_ROUNDS)

    def qualifying(name: str) -> float:
        return _until(round_scores[name], QUALIFYING_ROUNDS)

    sat_places = {n: p for n, p, _ in saturday_ranker.ranked(in_qualifying, saturday)}
    lines = [
        QualifyingLine(n, {r: s for r, s in round_scores[n].items() if r <= QUALIFYING_ROUNDS}, saturday(n),
                       sat_places[n], qualifying(n), p)
        for n, p, _ in ranker.ranked(in_qualifying, qualifying)
    ]
    qualified = select_top_board(scored, round_scores, saturday_ranker, ranker, warnings) if top_board else []
    return lines, qualified


def _top_board_of(boards: Sequence[Board], top_board: bool, final_played: bool) -> Board | None:
    """§III.2: the board of the last round given an order of choice: the top board (None when there is none);
    refused: an order of choice without a top board, on several boards, or missing from a played final round."""
    tops = [b for b in boards if b.top_board]
    if not top_board and tops:
        raise InvalidInput("ordre de choix donné alors qu'il n'y a pas de table finale")
    if len(tops) > 1:
        raise InvalidInput(f"ordre de choix donné sur plusieurs tables de la ronde {ROUNDS} : "
                           f"{', '.join(b.table for b in tops)} ; seule la table finale en a un")
    if not tops and top_board and final_played:
        raise InvalidInput(f"table finale : indiquez l'ordre de choix des pays de ses joueurs (ronde {ROUNDS}), "
                           "ou dites qu'il n'y a pas de table finale")
    return tops[0] if tops else None


def _warn_other_finalists(final_board: Board, qualified: Sequence[Qualified], warnings: list[str]) -> None:
    """A top board played by others than the qualified: said, the bonus going to those who played it."""
    playing = {s.player for s in final_board.seats}
    expected = {q.player for q in qualified}
    if qualified and playing != expected:
        missing = ", ".join(sorted(expected - playing, key=fold)) or "personne"
        extra = ", ".join(sorted(playing - expected, key=fold)) or "personne"
        warnings.append(f"La table finale jouée (table {final_board.table}) n'est pas celle que le calcul "
                        f"qualifie : manque {missing} ; en plus : {extra}. Le bonus de "
                        f"{TOP_BOARD_BONUS * 100:g} % va aux joueurs de la table jouée.")


def _played_top_board(boards: Sequence[Board], qualified: Sequence[Qualified], top_board: bool, final_played: bool,
                      warnings: list[str]) -> tuple[Board | None, str | None]:
    """§III.2-3: the top board as played (the final round's board with an order of choice), and its winner:
    the most centres, then the last to choose his country."""
    final_board = _top_board_of(boards, top_board, final_played)
    if final_board is None:
        return None, None
    orders = [s.choice for s in final_board.seats if s.choice is not None]
    finalists = len(final_board.seats)
    if len(orders) != finalists or sorted(orders) != list(range(1, finalists + 1)):
        raise InvalidInput(f"table finale (table {final_board.table}) : ordre de choix attendu de 1 à "
                           f"{finalists} pour chaque joueur, chacun une fois")
    champion = max(final_board.seats, key=lambda s: (s.centres, s.choice or 0)).player
    _warn_other_finalists(final_board, qualified, warnings)
    return final_board, champion


def _final_standings(names: Sequence[str], games: Mapping[str, _Games], players: Mapping[str, Player],
                     at_top: set[str], champion: str | None, warnings: list[str]) -> list[Standing]:
    """§IV.3: the final ranking: the champion first, then the total with the five tie-breakers."""
    totals = {}
    finals = {}
    for n in names:
        finals[n] = final_score(list(games[n].rounds.values()))
        totals[n] = total_score(finals[n], n in at_top, players[n].bonus if n in players else 0.0)
    final_ranker = _Ranker(games, players, range(1, ROUNDS + 1))
    ranked = final_ranker.ranked(names, totals.__getitem__, lambda n: 0 if n == champion else 1)
    decisions = _decisions(ranked, TIE_BREAKERS)
    standings = [
        Standing(n, place, dict(games[n].rounds), finals[n], n in at_top,
                 players[n].bonus if n in players else 0.0, totals[n], n == champion, decisions.get(n))
        for n, place, _ in ranked
    ]
    shared = Counter(s.place for s in standings)
    for place in sorted(p for p, count in shared.items() if count > 1):
        tied = ", ".join(s.player for s in standings if s.place == place)
        warnings.append(f"Ex aequo à la place {place} après tous les critères de départage : {tied}.")
    return standings


def run_championship(players: Mapping[str, Player], boards: Sequence[Board], votes: Sequence[Vote] = (),
                     favourites: Sequence[tuple[str, str]] = (), top_board: bool = True,
                     short: bool = False) -> Championship:
    """Score every board and publish the championship: qualification and top board (§III),
    final ranking (§IV.3), teams (§IV.5), awards (§IV.6) and best countries (§IV.7).

    ``favourites`` are (voter, favourite) pairs of the last round (§IV.6b1); ``top_board`` False
    when the organisers decided there is none (§III.5); ``short`` allows boards of fewer than seven.
    """
    raise_first(bonus_violations(list(players.values())))
    warnings: list[str] = []
    scored, games = _score_boards(boards, short)
    for g in games.values():
        g.rounds = dict(sorted(g.rounds.items()))
    names = sorted(games, key=lambda n: (fold(n), n))
    qualifying_lines, qualified = _qualification(names, scored, games, players, top_board, warnings)
    final_played = any(ROUNDS in g.rounds for g in games.values())
    final_board, champion = _played_top_board(boards, qualified, top_board, final_played, warnings)
    at_top = {s.player for s in final_board.seats} if final_board else set()
    standings = _final_standings(names, games, players, at_top, champion, warnings)
    seated = seated_at(boards)
    raise_first(vote_violations(votes, seated))
    raise_first(favourite_violations(favourites, seated))
    return Championship(
        scored, {n: dict(games[n].rounds) for n in names}, qualifying_lines, qualified, final_board, standings,
        team_standings(players, scored, games),
        {c: award_standings(c, votes, games, players) for c in Category},
        favourite_standings(favourites),
        {p: country_standings(p, scored, players) for p in Power},
        warnings,
    )


def sole_winners(scored: Mapping[tuple[int, str], Sequence[GameScore]], round_: int) -> set[str]:
    """§III.1-1: the players alone at the top of their board (in centres) in a round."""
    winners = set()
    for (r, _), lines in scored.items():
        if r == round_:
            top = max(g.seat.centres for g in lines)
            leaders = [g.seat.player for g in lines if g.seat.centres == top]
            if len(leaders) == 1:
                winners.add(leaders[0])
    return winners


def select_top_board(scored: Mapping[tuple[int, str], Sequence[GameScore]],
                     round_scores: Mapping[str, Mapping[int, float]], saturday: _Ranker, sunday: _Ranker,
                     warnings: list[str] | None = None) -> list[Qualified]:
    """§III.1: the seven top-board players, in the order of the five steps, each with his step.

    Steps 1-3 are decided on Saturday evening, before round 3: ``saturday`` breaks their ties (rounds 1-2);
    ``sunday`` breaks those of steps 4 and 5 (rounds 1-3).
    """
    qualified: list[Qualified] = []
    names = sorted(round_scores, key=lambda n: (fold(n), n))
    chosen: set[str] = set()
    ties: list[tuple[int, str, str]] = []  # (step, taken, the equal candidate left for later)

    def take(step: int, pool: Iterable[str], score: Callable[[str], float]) -> bool:
        pool = [n for n in pool if n not in chosen]
        if not pool or len(qualified) >= TOP_BOARD_SIZE:
            return False
        ranked = (saturday if step <= SATURDAY_STEPS else sunday).ranked(pool, score)
        name, place, _ = ranked[0]
        tied = len(ranked) > 1 and ranked[1][1] == place
        if tied:
            ties.append((step, name, ranked[1][0]))
        qualified.append(Qualified(step, name, score(name), tied))
        chosen.add(name)
        return True

    def players_in(r: int) -> list[str]:
        return [n for n in names if r in round_scores[n]]

    winners = sole_winners(scored, 1)
    take(1, [n for n in players_in(2) if n in winners], lambda n: round_scores[n][2])
    take(2, players_in(2), lambda n: round_scores[n][2])
    take(3, [n for n in names if any(r <= SATURDAY_ROUNDS for r in round_scores[n])],
         lambda n: qualifying_score([s for r, s in round_scores[n].items() if r <= SATURDAY_ROUNDS]))
    take(4, players_in(3), lambda n: round_scores[n][3])
    eligible = [n for n in names if any(r <= QUALIFYING_ROUNDS for r in round_scores[n])]
    if not players_in(QUALIFYING_ROUNDS):
        eligible = []  # before round 3 is played, its steps 4 and 5 qualify nobody yet
    while take(5, eligible, lambda n: qualifying_score(
            [s for r, s in round_scores[n].items() if r <= QUALIFYING_ROUNDS])):
        pass
    for step, name, other in ties:
        if other not in chosen and warnings is not None:  # an equal candidate qualified later lost nothing
            warnings.append(f"Table finale, étape {step} : {name} et {other} restent ex aequo après tous "
                            f"les critères de départage ; {name} est retenu par ordre alphabétique : "
                            "tranchez s'il le faut.")
    return qualified


# --- §IV.5 Teams ---------------------------------------------------------------------------------

TEAM_TIE_BREAKERS = ("confrontation directe", "meilleur score individuel", "second score individuel",
                     "pays de moins de centres", "moyenne d'âge")


def team_standings(players: Mapping[str, Player], scored: Mapping[tuple[int, str], Sequence[GameScore]],
                   games: Mapping[str, _Games]) -> list[TeamStanding]:
    """§IV.5c: teams by the sum of their members' round-2 scores, then the five team tie-breakers."""
    raise_first(team_violations(list(players.values())))
    members: dict[str, list[str]] = defaultdict(list)
    for p in players.values():
        if p.team:
            members[p.team].append(p.name)
    if not members:
        return []

    def team_points(name: str) -> float:
        return games[name].rounds.get(TEAM_ROUND, 0.0) if name in games else 0.0

    score = {t: sum(team_points(n) for n in names) for t, names in members.items()}
    team_of = {n: t for t, names in members.items() for n in names}

    def confrontation(group: Sequence[str]) -> dict[str, float]:
        """§IV.5c-1: over the round-2 boards, each pair of members of two tied teams that met: the
        difference of their scores (mine - theirs), summed for each team of the tie."""
        result = dict.fromkeys(group, 0.0)
        inside = set(group)
        for (r, _), lines in scored.items():
            if r != TEAM_ROUND:
                continue
            met: dict[str, list[float]] = defaultdict(list)
            for g in lines:
                if team_of.get(g.seat.player) in inside:
                    met[team_of[g.seat.player]].append(g.score)
            if len(met) > 1:
                count, total = sum(len(v) for v in met.values()), sum(sum(v) for v in met.values())
                for team, mine in met.items():
                    # every member against every member of the other teams there: n_others * mine - n_mine * theirs
                    theirs, others = total - sum(mine), count - len(mine)
                    result[team] += others * sum(mine) - len(mine) * theirs
        return result

    def centres(team: str) -> float:
        powers = [p for n in members[team] if n in games for p in games[n].powers.values() if p]
        return sum(p.starting_centres for p in powers) / len(powers) if powers else float(CENTRES)

    def age(team: str) -> float:
        births = [birth.toordinal() for n in members[team] if (birth := players[n].birth)]
        return -sum(births) / len(births) if births else 0.0

    groups: dict[float, list[str]] = defaultdict(list)
    for t in members:
        groups[rank_key(score[t])].append(t)
    keys = {}
    for total, group in groups.items():
        met = confrontation(group) if len(group) > 1 else dict.fromkeys(group, 0.0)
        for t in group:
            best = sorted((team_points(n) for n in members[t]), reverse=True) + [0.0, 0.0]
            keys[t] = (-total, -rank_key(met[t]), -rank_key(best[0]),
                       -rank_key(best[1]), rank_key(centres(t)), rank_key(age(t)))
    teams = list(members)
    places = dict(zip(teams, competition_ranks_by([keys[t] for t in teams])))
    ranked = sorted(((t, places[t], keys[t]) for t in teams), key=lambda x: (x[1], fold(x[0]), x[0]))
    decisions = _decisions(ranked, TEAM_TIE_BREAKERS, start=1)
    return [TeamStanding(t, place, tuple(sorted(members[t], key=fold)), score[t], decisions.get(t))
            for t, place, _ in ranked]


# --- §IV.6 Awards ------------------------------------------------------------------------------


def award_standings(category: Category, votes: Sequence[Vote], games: Mapping[str, _Games],
                    players: Mapping[str, Player]) -> list[AwardStanding]:
    """§IV.6b2: points of one category, best three games; ties: best average over all games, most
    votes in one game, foreign player, youngest. Players without a vote are not listed."""
    points: dict[str, dict[tuple[int, str], float]] = defaultdict(lambda: defaultdict(float))
    count: dict[str, Counter[tuple[int, str]]] = defaultdict(Counter)
    for vote in votes:
        if vote.category is category:
            board = (vote.round, vote.table)
            for name, given in zip((vote.first, vote.second), vote.ballot):
                points[name][board] += given
                count[name][board] += 1
    lines = {}
    for name, by_board in points.items():
        every = [by_board.get(b, 0.0) for b in games[name].scores] if name in games else list(by_board.values())
        lines[name] = (weighted_best(every, (1.0,) * BEST_GAMES), len(every), sum(every) / max(len(every), 1),
                       max(count[name].values()))
    names = sorted(lines, key=lambda n: (fold(n), n))
    keys = [(-rank_key(lines[n][0]), -rank_key(lines[n][2]), -lines[n][3],
             0 if players.get(n) and players[n].foreign else 1, _youth(players.get(n))) for n in names]
    places = competition_ranks_by(keys)
    return sorted((AwardStanding(n, p, *lines[n]) for n, p in zip(names, places)),
                  key=lambda a: (a.place, fold(a.player), a.player))


def favourite_standings(favourites: Sequence[tuple[str, str]]) -> list[AwardStanding]:
    """§IV.6b1: the favourite player has the most votes of the last round; equal counts share a place."""
    voters = Counter(voter for voter, _ in favourites)
    twice = sorted(v for v, c in voters.items() if c > 1)
    if twice:
        raise InvalidInput(f"un seul vote de joueur préféré par joueur : {', '.join(twice)} en a plusieurs")
    for voter, chosen in favourites:
        if voter == chosen:
            raise InvalidInput(f"{voter} a voté pour lui-même comme joueur préféré")
    tally = Counter(chosen for _, chosen in favourites)
    names = sorted(tally, key=lambda n: (fold(n), n))
    places = competition_ranks_by([-tally[n] for n in names])
    return sorted((AwardStanding(n, p, float(tally[n]), 1, float(tally[n]), tally[n]) for n, p in zip(names, places)),
                  key=lambda a: (a.place, fold(a.player), a.player))


# --- §IV.7 Best countries ----------------------------------------------------------------------


def country_standings(power: Power, scored: Mapping[tuple[int, str], Sequence[GameScore]],
                      players: Mapping[str, Player]) -> list[CountryStanding]:
    """§IV.7: every game played with ``power``, best score first; ties: more centres, smaller gap to the
    player just ahead, larger gap to the player just behind, latest elimination, foreign, youngest."""
    found = []
    for (r, table), lines in sorted(scored.items()):
        centres = [g.seat.centres for g in lines]
        for g in lines:
            if g.seat.power is not power:
                continue
            ahead = min((c - g.seat.centres for c in centres if c > g.seat.centres), default=0)
            behind = min((g.seat.centres - c for c in centres if c < g.seat.centres), default=0)
            lasted = g.seat.survived if g.seat.survived is not None else YEARS + 1
            who = players.get(g.seat.player)
            key = (-rank_key(g.score), -g.seat.centres, ahead, -behind, -lasted,
                   0 if who and who.foreign else 1, _youth(who))
            found.append((key, CountryStanding(power, 0, g.seat.player, r, table, g.score, g.seat.centres)))
    places = competition_ranks_by([k for k, _ in found])
    ranked = [CountryStanding(c.power, p, c.player, c.round, c.table, c.score, c.centres)
              for (_, c), p in zip(found, places)]
    return sorted(ranked, key=lambda c: (c.place, c.round, c.table, fold(c.player)))
'''

# --- xlcircuit/rules/dbm.py --------------------------------------------------------------------------
_SOURCES['xlcircuit.rules.dbm'] = False, r'''
"""DBM French championship ("la réforme", 98/99): player classes and values, ABRA (the value of a
tournament, VFT), CADABRA (a player's result, RFJ), the in-season value (VAJ), the season tables
(Tableau 1, Tableau 2, teams) and next season's classes.

Rules: ``docs/regles/dbm.md``, our French summary of « Championnat DBM 98/99 — La Réforme » (Philippe
Lempereur), which wins where they differ. Section names below are the source's headings. Nothing is
rounded here; rounding is for display.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from fractions import Fraction
from numbers import Real

from .errors import InvalidInput, Violation, raise_first
from .limits import DBM_MAX_ROUNDS
from .mechanics import (
    competition_ranks,
    effective_places,
    rank_key,
    round_half_up,
    share_ties,
    shared_value,
    tie_sizes,
    weighted_best,
)
from .text import clean, fold

#: NRJ: rounds played, "généralement quatre, exceptionnellement cinq" (the upper bound typed is
#: ``limits.DBM_MAX_ROUNDS``).
USUAL_ROUNDS = (4, 5)
#: Players retained per round played when a tournament has more than BASE_LIMIT players (BJR).
PER_ROUND = 6
BASE_LIMIT = 24
#: CMM: (MVB strictly above, coefficient), highest first; at or below 2.00 the coefficient is 8.00.
CMM_TABLE = (
    (Fraction(475, 100), 14.0), (Fraction(450, 100), 13.5), (Fraction(425, 100), 13.0),
    (Fraction(400, 100), 12.5), (Fraction(375, 100), 12.0), (Fraction(350, 100), 11.5),
    (Fraction(325, 100), 11.0), (Fraction(300, 100), 10.5), (Fraction(275, 100), 10.0),
    (Fraction(250, 100), 9.5), (Fraction(225, 100), 9.0), (Fraction(200, 100), 8.5),
)  # fmt: skip
CMM_FLOOR = 8.0
#: Referee bonus: half the tournament's value, at most this.
REFEREE_CAP = 100.0
#: Results counted in the championship: the four best.
BEST = 4
#: Tournaments that make a player active (Tableau 1).
ACTIVE = 3
#: The I / F boundary on an average of results (VAJ and end of season).
I_LIMIT = 15.0
#: End of season: cumulative percentages of the active players for X, X+S, X+S+O.
SHARES = (10, 25, 50)
TEAM_SIZE = 3


class PlayerClass(Enum):
    """A player's class and its value (RÉPARTITION PAR CLASSES: from 1 for (i) to 5 for (X))."""

    I = 1  # noqa: E741 - the source's letter
    F = 2
    O = 3  # noqa: E741
    S = 4
    X = 5

    @property
    def letter(self) -> str:
        return self.name

    def up(self) -> PlayerClass:
        return PlayerClass(min(self.value + 1, 5))

    def down(self) -> PlayerClass:
        return PlayerClass(max(self.value - 1, 1))

    @classmethod
    def parse(cls, code: object) -> PlayerClass:
        """VBJ: a class as typed: I, F, O, S, X in any case, ``0`` for O and ``1`` for I as the source
        writes them, or a value 1 to 5."""
        if isinstance(code, Real) and not isinstance(code, bool):
            for number in range(6):  # compared exactly, whatever its size (no float of hundreds of digits)
                if code == number:
                    return cls.O if number == 0 else cls(number)
        elif isinstance(code, str):
            key = fold(code).strip("()").strip()  # the source also writes "( 0 )"
            if key in _CODES:
                return _CODES[key]
            if key in ("0", "1", "2", "3", "4", "5"):
                return cls.O if key == "0" else cls(int(key))
        shown = f"« {clean(code)} »" if isinstance(code, str) else str(code)
        raise InvalidInput(f"classe attendue : I, F, O, S ou X (0 pour O, 1 pour I) ; trouvé {shown}")


_CODES = {c.name.lower(): c for c in PlayerClass}
#: The classes given by the shares of Tableau 1, in the order of ``SHARES`` (RÉPARTITION PAR CLASSES).
SHARE_CLASSES = (PlayerClass.X, PlayerClass.S, PlayerClass.O)
#: The class of a player the season starts without (a newcomer).
NEWCOMER = PlayerClass.F


def share_of(cls: PlayerClass) -> tuple[int, int]:
    """RÉPARTITION PAR CLASSES: the band of Tableau 1 (from, to, in cumulative %) that gives ``cls``."""
    i = SHARE_CLASSES.index(cls)
    return (SHARES[i - 1] if i else 0, SHARES[i])


def class_value(code: object) -> int:
    """VBJ: the value (1 to 5) of a class code."""
    return PlayerClass.parse(code).value


# --- ABRA: the value of a tournament ------------------------------------------------------------


def base(players: int, rounds: int) -> int:
    """BJR: every player up to twenty-four; beyond, six per round played (never more than NJT)."""
    if players <= BASE_LIMIT:
        return players
    return min(players, PER_ROUND * rounds)


def cmm(mvb: float | Fraction) -> float:
    """CMM: the coefficient of an average, from the table (strictly greater than each threshold)."""
    exact = Fraction(mvb)
    for threshold, coefficient in CMM_TABLE:
        if exact > threshold:
            return coefficient
    return CMM_FLOOR


@dataclass(frozen=True)
class Value:
    """ABRA's figures for one tournament: NJT, NRJ, BJR, SVB, MVB, CMM and VFT."""

    njt: int
    nrj: int
    bjr: int
    svb: int
    mvb: float
    cmm: float
    vft: float


def tournament_value(values: Sequence[int], rounds: int) -> Value:
    """ABRA: VFT = MVB x CMM x NRJ from the VAJ of each player (or team) and the rounds played."""
    if not 1 <= rounds <= DBM_MAX_ROUNDS:
        raise InvalidInput(f"nombre de rondes attendu : de 1 à {DBM_MAX_ROUNDS} ; trouvé {rounds}")
    if not values:
        raise InvalidInput("aucun joueur : la valeur d'un tournoi se calcule sur ses joueurs")
    for v in values:
        if v not in range(1, 6):
            raise InvalidInput(f"valeur de joueur attendue de 1 à 5 ; trouvé {v}")
    bjr = base(len(values), rounds)
    svb = sum(sorted(values, reverse=True)[:bjr])
    exact = Fraction(svb, bjr)
    coefficient = cmm(exact)
    mvb = svb / bjr
    return Value(len(values), rounds, bjr, svb, mvb, coefficient, mvb * coefficient * rounds)


# --- CADABRA: a player's result -----------------------------------------------------------------


def result_points(vft: float, place: int, players: int) -> float:
    """CADABRA: RFJ = VFT / 2 ^ (4 x (PFJ - 1) / NJT)."""
    if players < 1:
        raise InvalidInput(f"nombre de joueurs attendu : au moins 1 ; trouvé {players}")
    if not 1 <= place <= players:
        raise InvalidInput(f"place attendue entre 1 et {players} ; trouvé {place}")
    return vft / 2 ** (4 * (place - 1) / players)


def tied_points(vft: float, place: int, players: int, tied: int = 1) -> float:
    """CADABRA with ties: each of ``tied`` players tied at ``place`` gets the mean RFJ of their places."""
    if tied < 1:
        raise InvalidInput(f"ex aequo attendus : au moins 1 ; trouvé {tied}")
    if place >= 1 and place + tied - 1 > players:
        raise InvalidInput(f"{tied} ex aequo à la place {place} dépassent les {players} joueurs")
    return shared_value(place, tied, lambda p: result_points(vft, p, players))


def referee_bonus(vft: float) -> float:
    """PRIME D'ARBITRAGE: half the tournament's value, at most a hundred points."""
    return min(vft / 2, REFEREE_CAP)


def best_four(results: Iterable[float]) -> float:
    """CRITERE DE CLASSEMENT: the sum of a player's four best results."""
    return weighted_best(results, (1.0,) * BEST)


def average(results: Iterable[float]) -> float | None:
    """VAJ: the average of the results counted (the four best, or all if fewer); None without any."""
    results = list(results)
    return best_four(results) / min(len(results), BEST) if results else None


# --- VAJ: the in-season value -------------------------------------------------------------------


@dataclass(frozen=True)
class Thresholds:
    """The season's parameters: final averages of the last active S and O players of last season. None in the
    reform's first season, which has no such player (its classes come from the old levels): the passages
    that need them cannot happen, the 15-point ones still can."""

    seuil_s: float | None = None
    seuil_o: float | None = None


def current_class(start: PlayerClass, mean: float | None, thresholds: Thresholds) -> PlayerClass:
    """VAJ: the class a player plays with, from his class at season start and his average so far; without a
    threshold (first reformed season), no (O) → (S) or (F) → (O) passage."""
    if mean is None or start in (PlayerClass.S, PlayerClass.X):
        return start
    key = rank_key(mean)
    if start is PlayerClass.O:
        return PlayerClass.S if _reaches(key, thresholds.seuil_s) else start
    if start is PlayerClass.F:
        if _reaches(key, thresholds.seuil_o):
            return PlayerClass.O
        return PlayerClass.I if key <= I_LIMIT else start
    return PlayerClass.F if key > I_LIMIT else start  # I


def _reaches(key: float, threshold: float | None) -> bool:
    """VAJ: « égale ou supérieure à la moyenne finale du dernier joueur actif »; never without that player."""
    return threshold is not None and key >= rank_key(threshold)


# --- A season ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """One line of a tournament's final classification: a player (and his partner in doubles) with
    his place, or a referee who did not play."""

    player: str
    partner: str | None = None
    place: int | None = None
    referee: bool = False


@dataclass(frozen=True)
class Tournament:
    """A poule counted in the championship: its date, rounds played, and its classification."""

    name: str
    date: dt.date
    rounds: int
    doubles: bool = False
    entries: tuple[Entry, ...] = ()
    foreign: bool = False  # played abroad: counted, but does not make a player enter the championship


@dataclass(frozen=True)
class Result:
    """What one player gets from one tournament: the VAJ he played with and his RFJ."""

    tournament: str
    player: str
    points: float
    partner: str | None = None
    place: int | None = None  # as typed
    effective: int | None = None  # 1 + players (teams) strictly ahead
    tied: int | None = None
    start: PlayerClass | None = None  # his class at season start (VBJ)
    vaj: PlayerClass | None = None  # None for a referee
    team_value: int | None = None  # doubles: the value of his team (best member's VAJ)
    before: float | None = None  # his average on the tournament's date, which gave his VAJ
    referee: bool = False  # a referee bonus, not a place
    counted: bool = False  # among his four best results


@dataclass(frozen=True)
class Record:
    """A player's season: his results, the four best, their total and average."""

    player: str
    results: tuple[Result, ...]
    best: tuple[float, ...]
    total: float
    mean: float

    @property
    def tournaments(self) -> int:
        return len(self.results)

    @property
    def active(self) -> bool:
        return self.tournaments >= ACTIVE

    @property
    def three_only(self) -> bool:
        """Tableau 1's asterisk: exactly three tournaments."""
        return self.tournaments == ACTIVE


@dataclass(frozen=True)
class Ranked:
    """A line of Tableau 1."""

    place: int
    record: Record


@dataclass(frozen=True)
class Team:
    """A club's triplet: its players in Tableau 1 order and their total; place None when incomplete."""

    club: str
    number: int
    players: tuple[str, ...]
    total: float
    place: int | None


class Reason(Enum):
    """Why a player has his class for next season."""

    SHARE = "part du tableau 1"
    BELOW_15 = f"moyenne inférieure à {I_LIMIT:g}"
    OTHERS = "autres joueurs actifs"
    THREE_UP = "trois résultats, moyenne au moins égale à celle du dernier de la classe supérieure"
    OCCASIONAL_UP = "occasionnel, moyenne au moins égale à celle du dernier actif de la classe supérieure"
    OCCASIONAL_DOWN = "occasionnel, moyenne au plus égale à celle du premier actif de la classe inférieure"
    OCCASIONAL_KEPT = "occasionnel, classe conservée"
    OCCASIONAL_FLOOR = "occasionnel (S) ou (X) : conserve au moins sa classe"
    ABSENT = "aucun tournoi français recensé cette saison : classe conservée"


@dataclass(frozen=True)
class NextClass:
    """A player's class at the start and at the end of the season, and why."""

    player: str
    start: PlayerClass
    end: PlayerClass
    reason: Reason
    reference: float | None = None  # the average compared with, when a comparison decided
    reference_player: str | None = None


@dataclass(frozen=True)
class SeasonReport:
    """Everything the championship publishes for a season."""

    tournaments: tuple[Tournament, ...]  # in date order
    values: dict[str, Value]  # tournament -> ABRA's figures (absent: no player)
    results: dict[str, list[Result]]  # tournament -> its results, in the order of its entries, referees last
    records: dict[str, Record]
    tableau1: list[Ranked]
    tableau2: list[tuple[Record, int | None]]  # alphabetical, with the place in Tableau 1
    teams: list[Team]
    classes: dict[str, NextClass]


def _order(t: Tournament) -> tuple[dt.date, str, str]:
    return (t.date, fold(t.name), t.name)


def _name_key(name: str) -> tuple[str, str]:
    return (fold(name), name)


def _classify(entries: Sequence[Entry]) -> list[tuple[Entry, int, int, int]]:
    """The playing entries of a tournament with their official place, effective place and tie size."""
    placed = [(e, e.place) for e in entries if e.place is not None]
    official = [place for _, place in placed]
    return [(e, place, effective, tied)
            for (e, place), effective, tied in zip(placed, effective_places(official), tie_sizes(official))]


def score_tournament(tournament: Tournament, vaj: Mapping[str, PlayerClass], starts: Mapping[str, PlayerClass],
                     before: Mapping[str, float | None] | None = None) -> tuple[Value | None, list[Result]]:
    """ABRA then CADABRA for one tournament, given each player's VAJ (and average) on its date."""
    before = before or {}
    classified = _classify(tournament.entries)
    if not classified:
        return None, []
    team_values = [max(vaj[e.player].value, vaj[e.partner].value if e.partner else 0) for e, _, _, _ in classified]
    value = tournament_value(team_values, tournament.rounds)
    official = [place for _, place, _, _ in classified]
    shared = share_ties(official, lambda p: result_points(value.vft, p, value.njt))
    results: list[Result] = []
    for (entry, _, place, tied), points, team in zip(classified, shared, team_values):
        members = [(entry.player, entry.partner), (entry.partner, entry.player)] if entry.partner else [
            (entry.player, None)]
        for player, partner in members:
            results.append(Result(tournament.name, player, points, partner, entry.place, place, tied,
                                  starts[player], vaj[player], team if tournament.doubles else None,
                                  before.get(player)))
    bonus = referee_bonus(value.vft)
    for entry in tournament.entries:
        if entry.place is None and entry.referee:
            results.append(Result(tournament.name, entry.player, bonus, start=starts[entry.player], referee=True))
    return value, results


def _record(player: str, results: list[Result]) -> Record:
    best = sorted((r.points for r in results), reverse=True)[:BEST]
    total = best_four(r.points for r in results)
    return Record(player, tuple(results), tuple(best), total, total / len(best))


def _mark_counted(results: list[Result]) -> list[Result]:
    """The same results, the four best (the earliest first among equal points) marked as counted."""
    order = sorted(range(len(results)), key=lambda i: (-rank_key(results[i].points), i))
    counted = set(order[:BEST])
    return [replace(r, counted=i in counted) for i, r in enumerate(results)]


def tableau1(records: Mapping[str, Record]) -> list[Ranked]:
    """Tableau 1: active players by the sum of their four best results (equal totals share a place)."""
    active = sorted((r for r in records.values() if r.active), key=lambda r: (-rank_key(r.total), _name_key(r.player)))
    places = competition_ranks([r.total for r in active])
    return [Ranked(place, record) for place, record in zip(places, active)]


def tableau2(records: Mapping[str, Record], table1: Sequence[Ranked]) -> list[tuple[Record, int | None]]:
    """Tableau 2: every player, alphabetical, with his place in Tableau 1 (None if occasional)."""
    places = {r.record.player: r.place for r in table1}
    return [(records[p], places.get(p)) for p in sorted(records, key=_name_key)]


def teams(table1: Sequence[Ranked], clubs: Mapping[str, str]) -> list[Team]:
    """Classement par équipes: each club's players in Tableau 1 order by threes; teams by total.
    An incomplete last triplet is listed unranked."""
    members: dict[str, list[Ranked]] = defaultdict(list)
    for ranked in table1:
        club = clubs.get(ranked.record.player)
        if club:
            members[club].append(ranked)
    complete: list[tuple[str, int, tuple[str, ...], float]] = []
    partial: list[tuple[str, int, tuple[str, ...], float]] = []
    for club in sorted(members, key=_name_key):
        players = members[club]
        for start in range(0, len(players), TEAM_SIZE):
            trio = players[start:start + TEAM_SIZE]
            made = (club, start // TEAM_SIZE + 1, tuple(r.record.player for r in trio), sum(r.record.total for r in trio))
            (complete if len(trio) == TEAM_SIZE else partial).append(made)
    complete.sort(key=lambda t: (-rank_key(t[3]), _name_key(t[0]), t[1]))
    places = competition_ranks([t[3] for t in complete])
    return [Team(*t, place) for t, place in zip(complete, places)] + [Team(*t, None) for t in partial]


def _share_counts(active: int) -> tuple[int, ...]:
    """How many active players are X, X+S, X+S+O: the cumulative percentages, rounded half up."""
    return tuple(int(round_half_up(active * share / 100)) for share in SHARES)


def _share_classes(table1: Sequence[Ranked]) -> dict[str, tuple[PlayerClass, Reason]]:
    """Each player of Tableau 1's class by the percentages, else I below 15, else F; with the reason."""
    counts = _share_counts(len(table1))
    by_share: dict[str, tuple[PlayerClass, Reason]] = {}
    for ranked in table1:
        share = next((cls for cls, count in zip(SHARE_CLASSES, counts) if ranked.place <= count), None)
        if share is not None:
            by_share[ranked.record.player] = (share, Reason.SHARE)
        elif rank_key(ranked.record.mean) < I_LIMIT:
            by_share[ranked.record.player] = (PlayerClass.I, Reason.BELOW_15)
        else:
            by_share[ranked.record.player] = (PlayerClass.F, Reason.OTHERS)
    return by_share


def _active_class(record: Record, start: PlayerClass, cls: PlayerClass, reason: Reason,
                  last: Mapping[PlayerClass, Record]) -> NextClass:
    """An active player's next class: his share's, or the class above for a three-result player whose mean
    reaches that of the last of the class above."""
    above = last.get(cls.up()) if cls is not PlayerClass.X else None
    if record.three_only and above is not None and rank_key(record.mean) >= rank_key(above.mean):
        return NextClass(record.player, start, cls.up(), Reason.THREE_UP, above.mean, above.player)
    return NextClass(record.player, start, cls, reason)


def _occasional_class(player: str, record: Record, start: PlayerClass, first: Mapping[PlayerClass, Record],
                      last: Mapping[PlayerClass, Record]) -> NextClass:
    """An occasional player's next class: up if his mean reaches the last of the class above; S and X keep
    theirs; down if his mean is at most the first of the class below; else kept."""
    above = last.get(start.up()) if start is not PlayerClass.X else None
    below = first.get(start.down()) if start is not PlayerClass.I else None
    key = rank_key(record.mean)
    if above is not None and key >= rank_key(above.mean):
        return NextClass(player, start, start.up(), Reason.OCCASIONAL_UP, above.mean, above.player)
    if start in (PlayerClass.S, PlayerClass.X):
        return NextClass(player, start, start, Reason.OCCASIONAL_FLOOR)
    if below is not None and key <= rank_key(below.mean):
        return NextClass(player, start, start.down(), Reason.OCCASIONAL_DOWN, below.mean, below.player)
    return NextClass(player, start, start, Reason.OCCASIONAL_KEPT)


def _shares(table1: Sequence[Ranked]) -> tuple[dict[str, tuple[PlayerClass, Reason]], dict[PlayerClass, Record],
                                                dict[PlayerClass, Record]]:
    """RÉPARTITION PAR CLASSES: each active player's class by his share of Tableau 1 (I below 15), and the first
    and the last active player of each class, in Tableau 1 order (before the three-result adjustment)."""
    by_share = _share_classes(table1)
    first: dict[PlayerClass, Record] = {}
    last: dict[PlayerClass, Record] = {}
    for ranked in table1:
        cls = by_share[ranked.record.player][0]
        first.setdefault(cls, ranked.record)
        last[cls] = ranked.record
    return by_share, first, last


def next_classes(table1: Sequence[Ranked], records: Mapping[str, Record],
                 starts: Mapping[str, PlayerClass]) -> dict[str, NextClass]:
    """Classes for next season: percentages of Tableau 1, I below 15, three-result players moved up,
    occasional players moved up or down (S and X keep at least their class); absent players keep theirs."""
    by_share, first, last = _shares(table1)
    out: dict[str, NextClass] = {}
    for ranked in table1:
        record = ranked.record
        cls, reason = by_share[record.player]
        out[record.player] = _active_class(record, starts[record.player], cls, reason, last)
    for player, record in records.items():
        if not record.active:
            out[player] = _occasional_class(player, record, starts[player], first, last)
    for player, start in starts.items():
        if player not in out:
            out[player] = NextClass(player, start, start, Reason.ABSENT)
    return out


@dataclass(frozen=True)
class NextThresholds:
    """Next season's ``seuil_S`` and ``seuil_O``, and the players they come from (None: no such player)."""

    seuil_s: float | None
    player_s: str | None
    seuil_o: float | None
    player_o: str | None


def next_thresholds(table1: Sequence[Ranked]) -> NextThresholds:
    """VAJ, for next season: « la moyenne finale du dernier joueur « actif » (S) [(0)] de la saison précédente »,
    read as the average, at the end of this season, of the last player of Tableau 1 in the (S) [(O)] share of
    RÉPARTITION PAR CLASSES (the classes this season's end gives, before the three-result adjustment, as the
    end of season reads « le dernier joueur actif de la classe immédiatement supérieure »); None without one."""
    _, _, last = _shares(table1)
    s, o = last.get(PlayerClass.S), last.get(PlayerClass.O)
    return NextThresholds(s.mean if s else None, s.player if s else None, o.mean if o else None,
                          o.player if o else None)


# --- Checks of the typed lines: located violations -------------------------------------------------


def _numbered(index: int) -> str:
    return f"n° {index + 1}"


class EntryChecks:
    """CLASSEMENT of a poule, line by line in the order typed: a place or a referee, a partner only in
    doubles and only for a player, and each person once per poule (his second line is refused). Fields:
    ``player``, ``partner``, ``place``; ``where`` names an earlier line in a message."""

    def __init__(self, where: Callable[[int], str] = _numbered):
        self.where = where
        self._seen: dict[tuple[str, str], int] = {}

    def check(self, index: int, tournament: str, doubles: bool, entry: Entry) -> list[Violation]:
        """The violations of one line (``index``) of ``tournament``'s classification."""
        broken = self._alone(index, tournament, doubles, entry)
        if broken:
            return [broken]
        found = []
        for person, field in ((entry.player, "player"), (entry.partner, "partner")):
            if person is None:
                continue
            if (tournament, person) in self._seen:
                found.append(Violation(index, field, f"{person} a déjà une ligne dans « {tournament} » "
                                                     f"({self.where(self._seen[(tournament, person)])}) : une ligne "
                                                     "par joueur" + (", une par équipe en double" if doubles else "")))
            else:
                self._seen[(tournament, person)] = index
        return found

    @staticmethod
    def _alone(index: int, tournament: str, doubles: bool, entry: Entry) -> Violation | None:
        """What a line breaks by itself."""
        if entry.place is None and not entry.referee:
            return Violation(index, "place", "place manquante : un joueur classé a sa place finale ; un arbitre "
                                             "qui n'a pas joué : « oui » dans la colonne Arbitre")
        if entry.place is not None and entry.place < 1:
            return Violation(index, "place", f"place attendue ≥ 1 ; trouvé {entry.place}")
        if entry.partner is not None and not doubles:
            return Violation(index, "partner", f"« {tournament} » n'est pas une poule en double (colonne Doubles "
                                               "de la table Tournois) : pas d'équipier")
        if entry.partner is not None and entry.place is None:
            return Violation(index, "partner", "un arbitre qui n'a pas joué n'a pas d'équipier")
        if entry.partner == entry.player:
            return Violation(index, "partner", f"{entry.player} ne peut pas être son propre équipier")
        return None


def referee_violations(lines: Sequence[tuple[str, Entry]]) -> list[Violation]:
    """PRIME D'ARBITRAGE: half the poule's value, so a referee's poule has a classified player
    (``lines``: each line's poule and entry). Field ``referee``."""
    playing = {name for name, entry in lines if entry.place is not None}
    return [Violation(i, "referee", f"« {name} » n'a aucun joueur classé : sa valeur, donc la prime "
                                    "d'arbitrage, ne peut pas être calculée")
            for i, (name, entry) in enumerate(lines) if entry.place is None and name not in playing]


def _check(tournaments: Sequence[Tournament]) -> None:
    names = set()
    for t in tournaments:
        if t.name in names:
            raise InvalidInput(f"tournoi « {t.name} » en double")
        names.add(t.name)
        checks = EntryChecks()
        raise_first([v for i, e in enumerate(t.entries) for v in checks.check(i, t.name, t.doubles, e)])
    raise_first(referee_violations([(t.name, e) for t in tournaments for e in t.entries]))


def _in_date_order(ordered: Sequence[Tournament], starts: Mapping[str, PlayerClass], thresholds: Thresholds
                   ) -> tuple[dict[str, Value], dict[str, list[Result]]]:
    """VAJ, ABRA, CADABRA: the poules date by date, each valued with the VAJ of its players from their
    results on earlier dates (same-date results do not affect each other)."""
    history: dict[str, list[float]] = defaultdict(list)
    values: dict[str, Value] = {}
    results: dict[str, list[Result]] = {}
    by_date: dict[dt.date, list[Tournament]] = defaultdict(list)
    for t in ordered:
        by_date[t.date].append(t)
    for day in sorted(by_date):
        scored: list[Result] = []
        for t in by_date[day]:
            before = {p: average(history[p]) for e in t.entries for p in (e.player, e.partner) if p is not None}
            vaj = {p: current_class(starts[p], mean, thresholds) for p, mean in before.items()}
            value, lines = score_tournament(t, vaj, starts, before)
            if value is not None:
                values[t.name] = value
            results[t.name] = lines
            scored.extend(lines)
        for r in scored:
            history[r.player].append(r.points)
    return values, results


def _entered(ordered: Sequence[Tournament], results: Mapping[str, list[Result]]
             ) -> tuple[dict[str, list[Result]], dict[str, Record]]:
    """CONDITIONS D'ENTRÉE and CRITERE DE CLASSEMENT: a player enters the championship with his first
    French tournament; his four best results are counted. The results (marked) and the records."""
    by_player: dict[str, list[Result]] = defaultdict(list)
    for t in ordered:
        for r in results[t.name]:
            by_player[r.player].append(r)
    foreign = {t.name for t in ordered if t.foreign}
    entered = {p for p, rs in by_player.items() if any(r.tournament not in foreign for r in rs)}
    marked = {p: _mark_counted(rs) if p in entered else rs for p, rs in by_player.items()}
    counted = {(r.tournament, r.player): r for rs in marked.values() for r in rs}
    marked_results = {name: [counted[(r.tournament, r.player)] for r in rs] for name, rs in results.items()}
    return marked_results, {p: _record(p, rs) for p, rs in marked.items() if p in entered}


def run_season(tournaments: Iterable[Tournament], classes: Mapping[str, PlayerClass], thresholds: Thresholds,
               clubs: Mapping[str, str] | None = None) -> SeasonReport:
    """A whole season in one pass: tournaments in date order, each valued with the VAJ of its players
    from their results on earlier dates (same-date results do not affect each other). Only players
    with a French (not foreign) tournament enter the tables; foreign results count for them."""
    ordered = tuple(sorted(tournaments, key=_order))
    _check(ordered)
    people = {p for t in ordered for e in t.entries for p in (e.player, e.partner) if p is not None}
    starts = {p: classes.get(p, NEWCOMER) for p in people}
    starts.update(classes)
    values, results = _in_date_order(ordered, starts, thresholds)
    results, records = _entered(ordered, results)
    table1 = tableau1(records)
    classed = {p: c for p, c in starts.items() if p in records or p in classes}
    return SeasonReport(
        ordered, values, results, records, table1, tableau2(records, table1),
        teams(table1, clubs or {}), next_classes(table1, records, classed),
    )


__all__ = [
    "ACTIVE", "BEST", "NEWCOMER", "SHARE_CLASSES", "USUAL_ROUNDS", "Entry", "EntryChecks", "NextClass", "NextThresholds",
    "PlayerClass",
    "Ranked", "Reason", "Record", "Result", "SeasonReport", "Team", "Thresholds", "Tournament", "Value", "average",
    "base", "best_four", "class_value", "cmm", "current_class", "next_classes", "next_thresholds", "referee_bonus",
    "referee_violations",
    "result_points", "run_season", "score_tournament", "share_of",
    "tableau1", "tableau2", "teams", "tied_points", "tournament_value",
]
'''

# --- xlcircuit/rules/elo.py --------------------------------------------------------------------------
_SOURCES['xlcircuit.rules.elo'] = False, r'''
"""Multiplayer Elo of the ranked mode: one game of 2 to 8 players (§1-§6), a history of games
in date order (§7), and the tiers.

Rules: ``docs/regles/elo.md``, our French summary of the page of the « note de classé » scale, which
wins where they differ. A game is all its pairwise duels; each player's change is his K times the
mean, over his n - 1 duels, of result minus expectation, rounded half away from zero.
"""

from __future__ import annotations

import datetime as dt
from bisect import bisect_right
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import MAX_EMAX, MIN_EMIN, Context, Decimal, localcontext
from enum import Enum

from .errors import InvalidInput, Violation
from .limits import ELO_MAX_GAMES, ELO_MAX_RATING, ELO_MAX_TOTAL
from .mechanics import competition_ranks, rank_key, round_half_up
from .text import fold

#: Everyone's first rating (§7) and the floor no rating goes under (§5).
START = 1000
FLOOR = 100
#: Players of one game (the source: "une table en accueille de deux à huit").
MIN_PLAYERS, MAX_PLAYERS = 2, 8
#: The rating gap at which the expectation is 10 to 1 (§2).
SCALE = 400.0
#: K by the number of ranked games played, this one included (§6): up to 5, up to 30, then for ever.
K_STEPS = ((5, 48), (30, 28))
K_LAST = 16
#: Ranked games before a tier is shown (the placement games).
PLACEMENT_GAMES = 5
#: Largest total a game takes (either sign): :mod:`xlcircuit.limits`.
MAX_TOTAL = ELO_MAX_TOTAL
#: Largest starting rating and games already played a player may be given (:mod:`xlcircuit.limits`).
MAX_RATING, MAX_GAMES = ELO_MAX_RATING, ELO_MAX_GAMES


class Tier(Enum):
    """A tier, by its French name, with the rating it starts at (Tiers; Placement before five games)."""

    PLACEMENT = ("Placement", None)
    BRONZE = ("Bronze", FLOOR)
    SILVER = ("Argent", 900)
    GOLD = ("Or", 1050)
    PLATINUM = ("Platine", 1200)
    DIAMOND = ("Diamant", 1350)
    MASTER = ("Maître", 1500)

    def __init__(self, label: str, start: int | None):
        self.label = label
        self.start = start


_RATED = [t for t in Tier if t.start is not None]
_STARTS = [t.start for t in Tier if t.start is not None]  # index for index with _RATED


# --- One game ----------------------------------------------------------------------------------


def expected(rating: float, opponent: float) -> float:
    """§2: the expectation of a duel against ``opponent``: 1 / (1 + 10^((R_opp - R) / 400))."""
    try:
        return 1.0 / (1.0 + float(10.0 ** ((opponent - rating) / SCALE)))
    except OverflowError:  # a gap of more than 120,000 points: no chance at all, to float precision
        return 0.0


def k_factor(games: int) -> int:
    """§6: K of a player's ``games``-th ranked game (this one included): 48 up to 5, 28 up to 30, then 16."""
    if games < 1:
        raise InvalidInput(f"nombre de parties attendu : au moins 1 (la partie jouée comprise) ; trouvé {games}")
    for last, k in K_STEPS:
        if games <= last:
            return k
    return K_LAST


def ranks(totals: Sequence[float], lowest_wins: bool = True) -> list[int]:
    """§1: competition ranks (1, 2, 2, 4) from the totals; the lowest total wins unless told otherwise."""
    return competition_ranks(totals, higher_is_better=not lowest_wins)


def tier(rating: float, games: int) -> Tier:
    """Tiers: Placement before five games, then by rating from Bronze (the floor) to Maître (no ceiling)."""
    if games < PLACEMENT_GAMES:
        return Tier.PLACEMENT
    return _RATED[max(bisect_right(_STARTS, rating) - 1, 0)]


def placement_left(games: int) -> int:
    """Tiers: placement games still to play before a tier is shown."""
    return max(PLACEMENT_GAMES - games, 0)


@dataclass(frozen=True)
class Change:
    """One player's result in one game: his rating before, his K, the mean of his duels'
    expectations and results, the unrounded change, and the change applied (floor included)."""

    rank: int
    before: int
    games: int  # ranked games played, this one included
    k: int
    expected: float  # mean expectation over his n - 1 duels
    score: float  # mean result over his n - 1 duels (1 won, 0.5 tied, 0 lost)
    raw: float  # K * (score - expected), unrounded (§3)
    delta: int  # after - before: rounded (§3), at least one point (§4), floor (§5)
    note: str = ""  # "au moins 1", "plancher"…: why delta is not the rounded raw change

    @property
    def after(self) -> int:
        return self.before + self.delta


#: A raw change this close to a half is recomputed to 50 digits before rounding (``_rounded``).
_NEAR_HALF = 1e-6
_PRECISE = Context(prec=50, Emax=MAX_EMAX, Emin=MIN_EMIN)
#: At 50 digits an exact half is off by far less than this, and no other change comes near it.
_HALF_NOISE = Decimal("1e-30")
NOTE_AT_LEAST_ONE = "au moins 1 point"
NOTE_FLOOR = "plancher"


def _check_game(count: int) -> None:
    if not MIN_PLAYERS <= count <= MAX_PLAYERS:
        raise InvalidInput(f"une partie se joue de {MIN_PLAYERS} à {MAX_PLAYERS} joueurs ; trouvé {count}")


def _rounded(raw: float, k: int, score: float, ratings: Sequence[int], i: int) -> int:
    """§3: player ``i``'s raw change rounded to the nearest integer, halves away from zero.

    Near a half, floats cannot tell which side it is on: an exact -3.5 comes out as -3.4999999999999982,
    and a true 2.4999999999997266 as 2.5. There the change is recomputed to 50 digits.
    """
    if abs(abs(raw) % 1.0 - 0.5) >= _NEAR_HALF:
        return int(round_half_up(raw))
    with localcontext(_PRECISE):
        rating = Decimal(ratings[i])
        expect = sum(1 / (1 + Decimal(10) ** ((Decimal(r) - rating) / Decimal(SCALE)))
                     for j, r in enumerate(ratings) if j != i)
        exact = k * (Decimal(score) - expect) / (len(ratings) - 1)
        return int(round_half_up(float(exact.quantize(_HALF_NOISE))))


def _check_rate_inputs(ratings: Sequence[int], totals: Sequence[float], games: Sequence[int]) -> None:
    """What :func:`rate_game` takes: a game of 3 to 7 (§1), one total and one count per rating, ratings whole and
    at least the floor (§5), totals bounded (:mod:`xlcircuit.limits`)."""
    n = len(ratings)
    _check_game(n)
    if len(totals) != n or len(games) != n:
        raise InvalidInput(f"autant de notes, de totaux et de nombres de parties attendus ; trouvé "
                           f"{n}, {len(totals)} et {len(games)}")
    for rating in ratings:
        if not (rating >= FLOOR and float(rating).is_integer()):
            raise InvalidInput(f"note attendue : un entier d'au moins {FLOOR} (le plancher) ; trouvé {rating}")
    for total in totals:
        if not abs(total) <= MAX_TOTAL:
            raise InvalidInput(f"total attendu : un nombre de -{MAX_TOTAL:.0f} à {MAX_TOTAL:.0f} ; trouvé {total}")


def _duels(ratings: Sequence[int], places: Sequence[int]) -> tuple[list[float], list[float]]:
    """§2: each player's sums over his duels of expectation and of result (1, ½, 0); each duel computed once."""
    n = len(ratings)
    expect = [0.0] * n
    score = [0.0] * n
    for i in range(n):
        r_i, p_i = ratings[i], places[i]
        for j in range(i + 1, n):
            e = expected(r_i, ratings[j])
            expect[i] += e
            expect[j] += 1.0 - e
            p_j = places[j]
            if p_i < p_j:
                score[i] += 1.0
            elif p_i > p_j:
                score[j] += 1.0
            else:
                score[i] += 0.5
                score[j] += 0.5
    return expect, score


def _bounded(delta: int, place: int, places: Sequence[int], rating: int) -> tuple[int, str]:
    """§4 and §5: a change of at least one point for the player alone first (or alone last), and never below
    the floor; with the note saying which applied."""
    first, last = min(places), max(places)
    note = ""
    if place == first and places.count(first) == 1 and delta < 1:  # §4: strictly ahead of everyone
        delta, note = 1, NOTE_AT_LEAST_ONE
    elif place == last and places.count(last) == 1 and delta > -1:  # §4: strictly behind everyone
        delta, note = -1, NOTE_AT_LEAST_ONE
    if rating + delta < FLOOR:  # §5
        delta, note = int(FLOOR - rating), NOTE_FLOOR
    return delta, note


def rate_game(ratings: Sequence[int], totals: Sequence[float], games: Sequence[int],
              lowest_wins: bool = True) -> list[Change]:
    """§1-§6: every player's change in one game, from the ratings before it, in the order given.

    ``games`` is each player's number of ranked games, this one included (his own K).
    """
    _check_rate_inputs(ratings, totals, games)
    n = len(ratings)
    places = ranks(totals, lowest_wins)
    ks = [k_factor(g) for g in games]
    expect, score = _duels(ratings, places)
    changes = []
    for i in range(n):
        raw = ks[i] * (score[i] - expect[i]) / (n - 1)
        delta, note = _bounded(_rounded(raw, ks[i], score[i], ratings, i), places[i], places, ratings[i])
        changes.append(Change(places[i], int(ratings[i]), games[i], ks[i], expect[i] / (n - 1), score[i] / (n - 1),
                              raw, delta, note))
    return changes


# --- A history of games (§7) -------------------------------------------------------------------


@dataclass(frozen=True)
class Game:
    """A game as recorded: its name, its date, and each player's total."""

    name: str
    date: dt.date | None
    players: tuple[str, ...]
    totals: tuple[float, ...]


@dataclass(frozen=True)
class Played:
    """One player's line of a game of the history."""

    game: Game
    player: str
    total: float
    change: Change


@dataclass(frozen=True)
class Standing:
    """A player's line in the standings: rank by rating, rating, games played, tier."""

    rank: int
    player: str
    rating: int
    games: int
    tier: Tier
    last_played: dt.date | None

    @property
    def placement_left(self) -> int:
        return placement_left(self.games)


@dataclass(frozen=True)
class History:
    """Every line of every game in the order played, and the standings after the last game."""

    lines: list[Played]
    standings: list[Standing]


@dataclass(frozen=True)
class Line:
    """One typed line of a game: its name, its date, a player and his total."""

    game: str
    date: dt.date | None
    player: str
    total: float


def _numbered(index: int) -> str:
    return f"n° {index + 1}"


def games_of(lines: Sequence[Line], where: Callable[[int], str] = _numbered) -> tuple[list[Game], list[Violation]]:
    """The games the lines make, in the order of their first lines, and every violation, located on a line:
    a game has one date (field ``date``), a player once (``player``), and 2 to 8 players (``game``, on
    its first line). ``where`` names an earlier line in a message."""
    by_game: dict[str, list[int]] = {}
    for i, line in enumerate(lines):
        by_game.setdefault(line.game, []).append(i)
    games: list[Game] = []
    found: list[Violation] = []
    for name, group in by_game.items():
        first = lines[group[0]]
        seen: dict[str, int] = {}
        for i in group:
            line = lines[i]
            if line.date != first.date:
                dated = f"{first.date:%d/%m/%Y}" if first.date else "sans date"
                found.append(Violation(i, "date", f"la partie « {name} » est datée du {dated} {where(group[0])} : "
                                                  "une partie a une seule date (deux parties différentes ont deux "
                                                  "noms différents)"))
            if line.player in seen:
                found.append(Violation(i, "player", f"{line.player} figure déjà dans la partie « {name} » "
                                                    f"{where(seen[line.player])}"))
            seen.setdefault(line.player, i)
        if not MIN_PLAYERS <= len(group) <= MAX_PLAYERS:
            found.append(Violation(group[0], "game", f"la partie « {name} » a {len(group)} joueur"
                                                     f"{'s' if len(group) > 1 else ''} : de {MIN_PLAYERS} à "
                                                     f"{MAX_PLAYERS} attendus"))
        games.append(Game(name, first.date, tuple(lines[i].player for i in group),
                          tuple(lines[i].total for i in group)))
    return games, found


def play_order(games: Iterable[Game]) -> list[Game]:
    """§7: games in date order, then in the order given (a game without a date comes last)."""
    return sorted(games, key=lambda g: (g.date is None, g.date or dt.date.min))


@dataclass(frozen=True)
class Start:
    """Where a player starts this history from: his rating and the ranked games he has already played.

    « Tout le monde commence à 1000 … puisque rien n'a encore été joué »: a player who has played starts where
    his games left him; K (« 48 pour les parties 1 à 5, 28 de la sixième à la trentième, puis 16 … pour
    toujours ») and the placement (« tant que les cinq ne sont pas jouées ») count the games already played.
    """

    rating: int = START
    games: int = 0


def start_of(rating: object, games: object) -> Start:
    """§5-§7: a player's starting point as typed: a whole rating of at least the floor (100) and at most
    ``MAX_RATING``, and a whole number of games played, 0 to ``MAX_GAMES``; None for either gives its default
    (1000, or 0 games)."""
    if rating is None:
        rating = START
    if not (isinstance(rating, (int, float)) and not isinstance(rating, bool) and float(rating).is_integer()
            and FLOOR <= rating <= MAX_RATING):
        raise InvalidInput(f"Elo attendu : un entier de {FLOOR} (le plancher) à {MAX_RATING} ; trouvé "
                           f"{_typed(rating)}")
    if games is None:
        games = 0
    if not (isinstance(games, (int, float)) and not isinstance(games, bool) and float(games).is_integer()
            and 0 <= games <= MAX_GAMES):
        raise InvalidInput(f"nombre de parties déjà jouées attendu : un entier de 0 à {MAX_GAMES} ; trouvé "
                           f"{_typed(games)}")
    return Start(int(rating), int(games))


def _typed(value: object) -> str:
    """A number as a message quotes it: ``50``, not ``50.0``."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return f"« {value} »" if isinstance(value, str) else str(value)


def run_history(games: Iterable[Game], lowest_wins: bool = True,
                starts: Mapping[str, Start] | None = None) -> History:
    """§7: apply every game in date order, each from the ratings before it; everyone starts at 1000, but a player
    of ``starts``, who starts from his rating and games already played (:class:`Start`) and is in the standings
    even without a game here."""
    starts = starts or {}
    rating: dict[str, int] = {p: s.rating for p, s in starts.items()}
    played: dict[str, int] = {p: s.games for p, s in starts.items()}
    last: dict[str, dt.date | None] = {}
    lines: list[Played] = []
    for game in play_order(games):
        if len(game.players) != len(game.totals):
            raise InvalidInput(f"partie « {game.name} » : autant de joueurs que de totaux attendus")
        if len(set(game.players)) != len(game.players):
            twice = next(p for p in game.players if game.players.count(p) > 1)
            raise InvalidInput(f"partie « {game.name} » : {twice} y figure deux fois")
        _check_game(len(game.players))
        before = [rating.get(p, START) for p in game.players]
        counts = [played.get(p, 0) + 1 for p in game.players]
        changes = rate_game(before, game.totals, counts, lowest_wins)
        for player, total, change in zip(game.players, game.totals, changes):
            rating[player] = change.after
            played[player] = change.games
            last[player] = game.date
            lines.append(Played(game, player, total, change))
    return History(lines, standings(rating, played, last))


def standings(rating: dict[str, int], played: dict[str, int],
              last: dict[str, dt.date | None] | None = None) -> list[Standing]:
    """The standings: everyone by rating, highest first (equal ratings share a rank), with his tier."""
    order = sorted(rating, key=lambda p: (-rank_key(rating[p]), fold(p), p))
    places = competition_ranks([rating[p] for p in order])
    last = last or {}
    return [Standing(place, p, rating[p], played[p], tier(rating[p], played[p]), last.get(p))
            for place, p in zip(places, order)]
'''

# --- xlcircuit/rules/errors.py -----------------------------------------------------------------------
_SOURCES['xlcircuit.rules.errors'] = False, r'''
"""The package's exceptions: one root, a few clear kinds.

Messages are shown to organisers, so they are in French and say what was
expected, what was found, and where.
"""

from __future__ import annotations

from dataclasses import dataclass


class XlcircuitError(Exception):
    """Root of every error xlcircuit raises on purpose."""


class InvalidInput(XlcircuitError, ValueError):
    """A value the rules cannot take (place 0, a place after the last, an unknown kind)."""


class WorkbookError(XlcircuitError):
    """A file that cannot be read or written as a workbook (missing, locked, not an .xlsx)."""


@dataclass(frozen=True)
class Violation:
    """A rule broken by one record of the input a core check was given: the record's position in the
    sequence checked, the field (the core's attribute name, e.g. ``"choice"``), and the French message.

    An adapter maps ``index`` to its table row and ``field`` to its column, and reports the message
    as it is (a ``Problem``), without checking the rule again.
    """

    index: int
    field: str
    message: str


def raise_first(violations: list[Violation]) -> None:
    """For a core entry point given plain data: the first violation as an ``InvalidInput``."""
    if violations:
        raise InvalidInput(violations[0].message)


@dataclass(frozen=True)
class Problem:
    """One located problem of a workbook: sheet, row and column, and what is wrong."""

    sheet: str
    row: int | None
    column: str | None
    message: str
    cell: str | None = None

    def __str__(self) -> str:
        where = self.sheet
        if self.cell:
            where += f"!{self.cell}"
        elif self.row is not None:
            where += f", ligne {self.row}"
        if self.column:
            where += f" (colonne « {self.column} »)"
        return f"{where} : {self.message}"


class WorkbookProblems(XlcircuitError):
    """Every problem found in a workbook's tables, reported together."""

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        count = len(self.problems)
        lines = "\n".join(f"  - {p}" for p in self.problems)
        super().__init__(f"{count} problème{'s' if count > 1 else ''} dans le classeur :\n{lines}")
'''

# --- xlcircuit/rules/limits.py -----------------------------------------------------------------------
_SOURCES['xlcircuit.rules.limits'] = False, r'''
"""Every bound on what an organiser may type, in one place: the rules core, the Excel functions and the
workbook layer all check against these.

They are not rules: the sources set none of them. Each stops a typing mistake (``44`` rounds for ``4``)
or a value the computation cannot take (a place of ``1e300`` was computed without end) before it reaches
the rules. Pure data; standard library only.
"""

from __future__ import annotations

#: Places and player counts of a tournament (TdF places, DBM places, the ``n`` of the Excel functions).
MAX_PLACE = 100_000
#: Points typed in place of the computed ones (TdF « Points imposés »).
MAX_IMPOSED = 100_000
#: Characters of a tournament's name (TdF, DBM): a longer one is text pasted into the wrong cell.
MAX_TOURNAMENT_NAME = 100
#: DBM rounds played. The source: "généralement quatre, exceptionnellement cinq" (NRJ), and a tournament
#: retains six players per round (BJR); ten, twice the exceptional five, leaves room for a special format
#: and still refuses a mistyped ``44``. The workbook warns about anything but 4 or 5 (``dbm.USUAL_ROUNDS``).
DBM_MAX_ROUNDS = 10
#: CdF bonus points of a player (§IV.3a "autres bonus"), either sign.
CDF_MAX_BONUS = 10_000
#: Elo game totals, either sign: totals are ranked to nine decimals (``mechanics.rank_key``), so a larger
#: total would lose its decimals.
ELO_MAX_TOTAL = 1e9
#: Elo starting ratings and games already played (carried over from last season, or typed in ``Joueurs``): the
#: highest tier starts at 1500; a million stops a mistyped number and keeps every rating exact.
ELO_MAX_RATING = 1_000_000
ELO_MAX_GAMES = 1_000_000
#: TORRES numbers typed (Elo, in-game points), either sign: same reason as ``ELO_MAX_TOTAL``.
TORRES_MAX_NUMBER = 1e9
#: TORRES division numbers: a deeper pyramid would have millions of groups.
TORRES_MAX_DIVISION = 10
#: Cells of a range an Excel function takes (a whole column is 1,048,576 cells: seconds of work and a huge spill).
FUNCTION_MAX_CELLS = 100_000
#: Magnitude of a number an Excel function takes: sums of FUNCTION_MAX_CELLS of them stay finite and exact enough.
FUNCTION_MAX_NUMBER = 1e12

__all__ = [
    "CDF_MAX_BONUS", "DBM_MAX_ROUNDS", "ELO_MAX_GAMES", "ELO_MAX_RATING",
    "ELO_MAX_TOTAL", "FUNCTION_MAX_CELLS", "FUNCTION_MAX_NUMBER", "MAX_IMPOSED",
    "MAX_PLACE", "MAX_TOURNAMENT_NAME",
    "TORRES_MAX_DIVISION", "TORRES_MAX_NUMBER",
]
'''

# --- xlcircuit/rules/mechanics.py --------------------------------------------------------------------
_SOURCES['xlcircuit.rules.mechanics'] = False, r'''
"""Mechanics shared by every federation: places with ties, tie sharing, weighted best-N,
competition ranking and half-up rounding (the conventions every federation's rules share).

Pure functions on plain data; nothing here knows a federation.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from decimal import ROUND_HALF_UP, Decimal, localcontext
from typing import Any

#: Totals closer than this are equal when ranking (float noise such as 142.89999999999998 vs 142.9).
RANK_DIGITS = 9


def round_half_up(x: float, digits: int = 0) -> float:
    """Round for display the way the federations and Excel's ROUND do: halves away from zero."""
    exact = Decimal(repr(x))
    if not exact.is_finite():
        return x
    with localcontext() as context:
        context.prec = max(context.prec, exact.adjusted() + digits + 2)  # 1e300 keeps all its digits
        return float(exact.quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP))


def format_half_up(x: float, digits: int = 0) -> str:
    """A number as text, rounded half up to ``digits`` decimals (``911.5`` -> ``'912'``)."""
    return f"{round_half_up(x, digits) + 0.0:.{digits}f}"  # + 0.0 turns -0.0 into 0.0


def effective_places(official: Sequence[int]) -> list[int]:
    """Effective place of each official place: 1 + the number of people strictly ahead.

    Ties share a place (1, 1, 3), and vacancies close up (1, 2, 4 -> 1, 2, 3).
    """
    ordered = sorted(official)
    return [1 + bisect_left(ordered, place) for place in official]


def tie_sizes(official: Sequence[int]) -> list[int]:
    """Size of each person's tie group: the people with the same official place."""
    counts = Counter(official)
    return [counts[place] for place in official]


def shared_value(place: int, tied: int, value_at: Callable[[int], float]) -> float:
    """What each of ``tied`` people tied at ``place`` gets: the mean of places place..place+tied-1."""
    return sum(value_at(p) for p in range(place, place + tied)) / tied


def share_ties(official: Sequence[int], value_at: Callable[[int], float]) -> list[float]:
    """Per-person values from official places, tied people sharing their places' values."""
    places = effective_places(official)
    sizes = tie_sizes(official)
    cache: dict[int, float] = {}
    values = []
    for place, tied in zip(places, sizes):
        if place not in cache:
            cache[place] = shared_value(place, tied, value_at)
        values.append(cache[place])
    return values


def weights_from(weights: Sequence[float], tail: float, start: int, count: int) -> list[float]:
    """``count`` weights taken from position ``start`` of ``weights`` followed by ``tail`` for ever."""
    return [weights[i] if i < len(weights) else tail for i in range(start, start + count)]


def weighted_best(values: Iterable[float], weights: Sequence[float], tail: float = 0.0, start: int = 0) -> float:
    """Sum of the values sorted best first, each times its position's weight (best-N when tail is 0);
    ``start`` skips the first weights (values that must come after others already counted)."""
    ordered = sorted(values, reverse=True)
    return sum(v * w for v, w in zip(ordered, weights_from(weights, tail, start, len(ordered))))


def rank_key(total: float) -> float:
    """The key totals are compared on when ranking, free of float noise."""
    return round_half_up(total, RANK_DIGITS)


def competition_ranks_by(keys: Sequence[Any]) -> list[int]:
    """Standard competition ranks (1, 2, 2, 4) from comparable keys, the smallest key first.

    Tie-breakers go in a tuple, most important first; equal keys share the better rank.
    Pass totals through ``rank_key`` first so that float noise does not split a tie.
    """
    ordered = sorted(keys)
    return [1 + bisect_left(ordered, key) for key in keys]


def competition_ranks(totals: Sequence[float], higher_is_better: bool = True) -> list[int]:
    """Standard competition ranks (1, 2, 2, 4); equal totals share the better rank."""
    return competition_ranks_by([-rank_key(t) if higher_is_better else rank_key(t) for t in totals])


def rounded_parts(values: Sequence[float], digits: int = 0, adjustable: Sequence[bool] | None = None) -> list[float]:
    """The values rounded to ``digits`` decimals so that they add up to their sum rounded half up (a
    published row that adds up as printed). Each is rounded half up; when these miss the rounded sum, values
    move by one unit of the last decimal back toward their other rounding, those nearest to it first and those
    marked ``adjustable`` before the others (a weighted result, whose exact value nobody reads elsewhere).

    A value that already prints exactly (a result set aside, which counts 0; 100 points at 100 %) never moves,
    so no part crosses zero: a value rounded up moves down to the unit below it, never under zero. There are
    always enough values to move: the parts overshoot the rounded sum by ``m`` units only when at least
    ``2m - 1`` of them were rounded up (each by half a unit at most), and likewise below.
    """
    unit = Decimal(1).scaleb(-digits)
    exact = [Decimal(repr(v)) for v in values]
    parts = [x.quantize(unit, rounding=ROUND_HALF_UP) for x in exact]
    target = Decimal(repr(round_half_up(sum(values), digits))).quantize(unit)
    missing = int((target - sum(parts, Decimal(0))) / unit)
    step = unit if missing > 0 else -unit
    preferred = adjustable if adjustable is not None else [True] * len(values)
    # Moving a value up costs how far it is from the next unit up; down, from the unit below. Only values
    # rounded the other way move: a value printed exactly stays what it is.
    order = sorted((i for i in range(len(values)) if (parts[i] - exact[i]) * step < 0),
                   key=lambda i: (not preferred[i], abs(exact[i] - parts[i] - step / 2)))
    for i in order[:abs(missing)]:
        parts[i] += step
    return [float(x) for x in parts]
'''

# --- xlcircuit/rules/names.py ------------------------------------------------------------------------
_SOURCES['xlcircuit.rules.names'] = False, r'''
"""People's names as organisers type them: which two spellings are probably one person.

xlcircuit compares names exactly (after trimming spaces): « Jean Muller » and « MULLER Jean » are two people
to the rules, and one of them silently loses his points. :func:`probable_duplicates` finds the pairs that are
probably one person, each with the reason, so that a warning names both and the organiser decides: a flag
never merges anything. Standard library only; pure functions on plain strings.

The likenesses looked for, from the surest to the loosest:

- the same letters in another case or without accents (« alice martin », « Alice Martin »);
- a hyphen, a dot or a space more or less (« Jean-Pierre Morel », « Jean Pierre Morel »);
- the same words in another order, the surname first (« MULLER Jean », « Jean Muller »);
- a doubled letter more or less (« Philippe », « Phillipe »);
- an initial for a first name, when only one full name fits it (« J. Morel » beside a single « Julien Morel »);
- one letter changed, added, removed, or two neighbours swapped, in a long name (``TYPO_LETTERS`` letters or
  more: « Christophe Lecointre », « Christophe Lecointe »); an edit on a digit is no typo (« Joueur 12 »).
"""

from __future__ import annotations

import itertools
import re
from collections import defaultdict
from collections.abc import Iterable, Sequence

from .text import fold

CASE = "ne diffèrent que par les majuscules ou les accents"
PUNCTUATION = "ne diffèrent que par un trait d'union, un point ou une espace"
ORDER = "nom et prénom dans un autre ordre"
DOUBLED = "une lettre doublée en plus ou en moins"
INITIAL = "une initiale à la place du prénom"
TYPO = "une lettre de différence"

#: Letters a name needs (each of the two) for a one-letter difference to be a probable typo: on short names
#: it is as likely two people (« Jean Bon », « Jean Don »).
TYPO_LETTERS = 10

_SEPARATORS = re.compile(r"[^\w]+|_")
_DOUBLED = re.compile(r"([^\W\d_])\1+")


def words(name: str) -> tuple[str, ...]:
    """The words of a name, without case, accents or punctuation (``"J.-P. MÜLLER"`` -> ``("j", "p", "muller")``)."""
    return tuple(word for word in _SEPARATORS.split(fold(name)) if word)


def key(name: str) -> str:
    """What two spellings of one person probably share: the words without case, accents or punctuation, in
    alphabetical order (« MULLER Jean » and « Jean Müller » -> ``"jean muller"``)."""
    return " ".join(sorted(words(name)))


def _undoubled(text: str) -> str:
    return _DOUBLED.sub(r"\1", text)


def _keys(name: str, found: tuple[str, ...] | None = None) -> tuple[str, str, str, str]:
    """The name's key at each sure level: folded, without punctuation, in any order, without doubled letters
    (``found``: its :func:`words`, when known)."""
    found = words(name) if found is None else found
    ordered = " ".join(sorted(found))
    return fold(name), "".join(found), ordered, _undoubled(ordered)


_LEVELS = (CASE, PUNCTUATION, ORDER, DOUBLED)


def reason(a: str, b: str) -> str | None:
    """Why ``a`` and ``b`` are probably one person by one of the sure likenesses (case, punctuation, order,
    doubled letters), the most specific one; None if none holds (initials and typos need the other names:
    :func:`probable_duplicates`)."""
    if a == b:
        return None
    for level, (x, y) in zip(_LEVELS, zip(_keys(a), _keys(b))):
        if x and x == y:
            return level
    return None


def _one_edit(a: str, b: str) -> bool:
    """Whether ``b`` is ``a`` with one letter changed, added or removed, or two neighbouring letters swapped
    (digits and spaces never: « joueur 12 » and « joueur 13 » are two people)."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) > len(b):
        a, b = b, a
    start = 0
    while start < len(a) and a[start] == b[start]:
        start += 1
    if len(a) < len(b):  # one added
        changed = b[start]
        return a[start:] == b[start + 1:] and changed.isalpha()
    end = len(a)
    while end > start and a[end - 1] == b[end - 1]:
        end -= 1
    span_a, span_b = a[start:end], b[start:end]
    if len(span_a) == 1:  # one changed
        return span_a.isalpha() and span_b.isalpha()
    return len(span_a) == 2 and span_a == span_b[::-1] and span_a.isalpha()  # two neighbours swapped


def _deletions(text: str) -> set[str]:
    return {text} | {text[:i] + text[i + 1:] for i in range(len(text))}


def _typo_pairs(representatives: Sequence[tuple[str, ...]]) -> list[tuple[int, int]]:
    """Pairs of names (by index; each given by its :func:`words`) one letter apart, in the order of their words
    as typed or sorted; found by their shared deletions (each name with one letter removed), not by comparing
    every pair."""
    variants: dict[str, set[int]] = defaultdict(set)
    forms: dict[int, tuple[str, str]] = {}
    for index, found in enumerate(representatives):
        if sum(ch.isalpha() for word in found for ch in word) < TYPO_LETTERS:
            continue
        typed, ordered = _undoubled(" ".join(found)), _undoubled(" ".join(sorted(found)))
        forms[index] = (typed, ordered)
        for form in {typed, ordered}:
            for variant in _deletions(form):
                variants[variant].add(index)
    pairs = set()
    for indexes in variants.values():
        for i, j in itertools.combinations(sorted(indexes), 2):
            if (i, j) not in pairs and any(_one_edit(x, y) for x, y in zip(forms[i], forms[j])):
                pairs.add((i, j))
    return sorted(pairs)


def _is_initial(word: str) -> bool:
    return len(word) == 1 and word.isalpha()


def _fitting(representatives: Sequence[tuple[str, ...]]) -> dict[tuple[tuple[str, ...], tuple[str, ...]], set[int]]:
    """For each full name (by index), what it looks like with one or two words made initials: (the other words,
    the initials), both sorted (« Julien Morel »: (("morel",), ("j",)) and (("julien",), ("m",)))."""
    fitting: dict[tuple[tuple[str, ...], tuple[str, ...]], set[int]] = defaultdict(set)
    for index, found in enumerate(representatives):
        full = tuple(sorted(found))
        if any(_is_initial(w) for w in full):
            continue
        for count in (1, 2):
            for removed in itertools.combinations(range(len(full)), count):
                rest = tuple(w for i, w in enumerate(full) if i not in removed)
                if rest:
                    fitting[rest, tuple(sorted(full[i][0] for i in removed))].add(index)
    return fitting


def _initial_pairs(representatives: Sequence[tuple[str, ...]]) -> list[tuple[int, int]]:
    """Pairs (the name with initials, the one full name that fits them; each name given by its :func:`words`):
    « J. Morel » and « Julien Morel » when no other name fits « J. Morel » (« Jacques Morel » beside them: no
    pair)."""
    initialled: list[tuple[int, tuple[str, ...], tuple[str, ...]]] = []
    for index, found in enumerate(representatives):
        initials = tuple(sorted(w for w in found if _is_initial(w)))
        full = tuple(sorted(w for w in found if not _is_initial(w)))
        if initials and full and len(initials) <= 2:
            initialled.append((index, full, initials))
    if not initialled:
        return []
    fitting = _fitting(representatives)
    pairs = []
    for index, full, initials in initialled:
        candidates = fitting.get((full, initials), set())
        if len(candidates) == 1:
            pairs.append((index, next(iter(candidates))))
    return pairs


def probable_duplicates(names: Iterable[str]) -> list[tuple[str, str, str]]:
    """The pairs of distinct spellings among ``names`` that are probably one person, with the reason (one of
    ``CASE``, ``PUNCTUATION``, ``ORDER``, ``DOUBLED``, ``INITIAL``, ``TYPO``), in the order the names first
    appear (the earlier of each pair first). Spellings already linked through others make no further pair
    (three spellings of one name: two pairs, each with the first)."""
    seen: dict[str, tuple[str, ...]] = {}
    for name in names:
        if name not in seen:
            seen[name] = words(name)
    ordered = [name for name, found in seen.items() if found]
    root = list(range(len(ordered)))

    def find(i: int) -> int:
        while root[i] != i:
            root[i] = root[root[i]]
            i = root[i]
        return i

    found: dict[tuple[int, int], str] = {}

    def link(i: int, j: int, why: str) -> None:
        a, b = find(i), find(j)
        if a != b:
            root[max(a, b)] = min(a, b)
            found[min(i, j), max(i, j)] = why

    keys = [_keys(name, seen[name]) for name in ordered]
    for level, why in enumerate(_LEVELS):  # the surest likeness first: it names the pair
        buckets: dict[str, list[int]] = defaultdict(list)
        for index, known in enumerate(keys):
            buckets[known[level]].append(index)
        for members in buckets.values():
            for other in members[1:]:
                link(members[0], other, why)
    representatives = [i for i in range(len(ordered)) if find(i) == i]
    shown = [seen[ordered[i]] for i in representatives]
    for why, pairs in ((INITIAL, _initial_pairs(shown)), (TYPO, _typo_pairs(shown))):
        for a, b in pairs:
            link(representatives[a], representatives[b], why)
    return [(ordered[i], ordered[j], why) for (i, j), why in sorted(found.items())]
'''

# --- xlcircuit/rules/seasons.py ----------------------------------------------------------------------
_SOURCES['xlcircuit.rules.seasons'] = False, r'''
"""Season after season, whatever the federation: the next season's name and a season's podium in the
palmarès. Each federation's own carry-over (DBM's classes and thresholds, Elo's ratings, TORRES' groups)
is decided in its module.

Plain data in and out; standard library only.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

#: A season's years as organisers write them: ``2025``, ``2025-2026``, ``2025/26``, ``Saison 2025``.
_YEARS = re.compile(r"(?<!\d)((?:19|20)\d\d)(?:(\s*[-/–]\s*)(\d\d(?:\d\d)?))?(?!\d)")


def _next_years(match: re.Match[str]) -> str:
    first, separator, second = match.group(1), match.group(2), match.group(3)
    following = str(int(first) + 1)
    if second is None:
        return following
    later = int(second) + 1
    return f"{following}{separator}{later if len(second) == 4 else f'{later % 100:02d}'}"


def next_name(name: str | None) -> str | None:
    """The name of the season after ``name``: each year one later (« 2025-2026 » → « 2026-2027 », « 2025/26 »
    → « 2026/27 », « Open 2025 » → « Open 2026 »); None when the name has no year to move on (then the new
    workbook leaves it blank, and the season is named after its dates)."""
    if not name or _YEARS.search(name) is None:
        return None
    return _YEARS.sub(_next_years, name)


def podium(ranked: Iterable[tuple[int | None, str]]) -> tuple[str | None, str | None, str | None]:
    """The first three places of a standings (rank, name), in the palmarès: the champion, the second, the third.
    Players sharing a place share its cell (« A et B »); a place a tie skips stays blank (two tied 1sts, then
    the 3rd: no second)."""
    names: dict[int, list[str]] = {1: [], 2: [], 3: []}
    for rank, name in ranked:
        if rank in names:
            names[rank].append(name)
    first, second, third = (_joined(names[place]) for place in (1, 2, 3))
    return first, second, third


def _joined(names: Sequence[str]) -> str | None:
    if not names:
        return None
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} et {names[-1]}"


__all__ = ["next_name", "podium"]
'''

# --- xlcircuit/rules/tdf.py --------------------------------------------------------------------------
_SOURCES['xlcircuit.rules.tdf'] = False, r'''
"""Tour de France de Diplomatie: points of one tournament (§1) and the weighted season total (§2).

Rules: ``docs/regles/tdf.md``, our French summary of the « règlement du Tour de France de Diplomatie »
(2022-2023), which wins where they differ. Nothing is rounded here ("sans arrondi"); rounding is for display only.
"""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from . import limits
from .errors import InvalidInput, Violation, raise_first
from .mechanics import (
    competition_ranks,
    effective_places,
    format_half_up,
    rank_key,
    rounded_parts,
    share_ties,
    shared_value,
    tie_sizes,
    weighted_best,
    weights_from,
)
from .text import fold

#: Points of a non-classified organiser, helper, or person present at a cancelled tournament (§1).
ROLE_POINTS = 100.0
#: Weights of a player's non-major tournaments, best first (§2); every further one counts TAIL.
WEIGHTS = (1.0, 0.8, 0.4, 0.2)
TAIL = 0.1
#: Classified tournaments needed to be ranked in the season (§2).
MIN_CLASSIFIED = 2
#: Imposed points beyond this are a typing mistake (a tournament gives at most 1000 + x): :mod:`xlcircuit.limits`.
MAX_IMPOSED = limits.MAX_IMPOSED
#: Two totals closer than this are equal (float noise), so the no-loss rule keeps the tournament.
_EPSILON = 1e-9


class Kind(Enum):
    """Kind of a tournament for the season weighting (§2)."""

    NORMAL = "normal"
    MAJOR = "majeur"
    ONLINE = "en ligne"
    MAJOR_ONLINE = "majeur en ligne"  # an online event officially replacing a tabletop major

    @property
    def counts_as_major(self) -> bool:
        return self in (Kind.MAJOR, Kind.MAJOR_ONLINE)

    @classmethod
    def parse(cls, text: object) -> Kind:
        """The kind named by ``text`` (any case, accents optional); blank is ``normal``."""
        key = fold("" if text is None else str(text)) or "normal"
        for kind in cls:
            if fold(kind.value) == key:
                return kind
        raise InvalidInput(
            f"type attendu : {', '.join(k.value for k in cls)} ; trouvé « {text} »"
        )


class Role(Enum):
    """Roles of people who are not classified but get 100 points (§1)."""

    ORGANISER = "organisateur"
    HELPER = "aide"
    CANCELLED = "annulé"  # present when the tournament was cancelled at the last minute

    @classmethod
    def parse(cls, text: object) -> Role | None:
        """The role named by ``text`` (any case, accents optional); blank or ``joueur`` is None."""
        key = fold("" if text is None else str(text))
        if key in ("", "joueur", "joueuse"):
            return None
        for role in cls:
            if fold(role.value) == key or key in _ROLE_ALIASES.get(role.value, ()):
                return role
        raise InvalidInput(
            f"rôle attendu : joueur (ou vide), {', '.join(r.value for r in cls)} ; trouvé « {text} »"
        )


#: Other words organisers use for a role (the source itself says "co-organisateur").
_ROLE_ALIASES = {
    "organisateur": ("organisatrice", "co-organisateur", "co-organisatrice", "coorganisateur", "coorganisatrice"),
    "aide": ("aidant", "aidante"),
    "annulé": ("annulee", "tournoi annule"),
}


# --- §1 Points of one tournament -------------------------------------------------------------


def place_points(place: int, classified: int, interrupted: bool = False) -> float:
    """Points of one untied place among ``classified`` players (§1; interrupted: no winner bonus)."""
    if classified < 1:
        raise InvalidInput(f"nombre de classés attendu : au moins 1 ; trouvé {classified}")
    if not 1 <= place <= classified:
        raise InvalidInput(f"place attendue entre 1 et {classified} ; trouvé {place}")
    if place == 1:
        return 1000.0 if interrupted else 1000.0 + classified
    # Closed form, so that the last place gets exactly 100 (repeated division drifts).
    return 1000.0 / 10 ** ((place - 1) / (classified - 1))


def tied_points(place: int, classified: int, tied: int = 1, interrupted: bool = False) -> float:
    """Points of each of ``tied`` players tied at ``place``: the mean of their places' points (§1)."""
    if tied < 1:
        raise InvalidInput(f"ex aequo attendus : au moins 1 ; trouvé {tied}")
    if place >= 1 and place + tied - 1 > classified:
        raise InvalidInput(
            f"{tied} ex aequo à la place {place} dépassent les {classified} classés"
        )
    return shared_value(place, tied, lambda p: place_points(p, classified, interrupted))


class Status(Enum):
    """What a result line is for the tournament's points."""

    CLASSIFIED = "classé"
    ROLE = "rôle"
    DUPLICATE = "doublon"  # a person's second line (two boards): only the best one counts


@dataclass(frozen=True)
class Line:
    """One result line as the organiser typed it."""

    player: str
    place: int | None = None  # official place; None when not classified
    role: Role | None = None
    imposed_points: float | None = None  # a special decision replacing the computed points
    imposed_place: int | None = None  # a special decision: "the points of place N"


@dataclass(frozen=True)
class Scored:
    """A line with what it earns: effective place, tie size and points."""

    line: Line
    status: Status
    place: int | None = None  # effective place: 1 + classified people strictly ahead
    tied: int | None = None
    points: float = 0.0
    imposed: bool = False

    @property
    def classified(self) -> bool:
        return self.status is Status.CLASSIFIED


def misplaced_cancellations(lines: Sequence[Line]) -> list[int]:
    """§1: a tournament « annulé au dernier moment » was not played, so it has no classification: the indexes
    of the ``annulé`` lines of a tournament where someone has a place (his own line or another's)."""
    played = any(line.place is not None for line in lines)
    return [i for i, line in enumerate(lines) if line.role is Role.CANCELLED and played]


CANCELLED_WITH_PLACES = ("un tournoi annulé n'a pas de classement : « annulé » ne va pas avec des places "
                         "(retirez les places ou le rôle « annulé »)")


def _number_text(value: float) -> str:
    """A number as a message quotes it: ``200000``, ``-5``, ``2.5``."""
    return str(int(value)) if value.is_integer() and abs(value) < 1e15 else str(value)


def line_violations(line: Line, index: int = 0) -> list[Violation]:
    """What one result line breaks on its own (§1): a line is a place or a 100-point role; a place is ≥ 1;
    « annulé » (a cancelled tournament) has no place; imposed points are from 0 to :data:`MAX_IMPOSED`."""
    found: list[Violation] = []
    if line.place is None and line.role is None:
        found.append(Violation(index, "place", "place manquante : un joueur classé a une place ; sinon indiquez son "
                                               "rôle (organisateur, aide, annulé)"))
    elif line.place is not None and line.place < 1:
        found.append(Violation(index, "place", f"place attendue ≥ 1 ; trouvé {line.place}"))
    if misplaced_cancellations([line]):
        found.append(Violation(index, "role", "un tournoi annulé n'a pas de classement : retirez la place "
                                              "ou le rôle « annulé »"))
    points = line.imposed_points
    if points is not None and not 0 <= points <= MAX_IMPOSED:
        found.append(Violation(index, "imposed_points", f"nombre de points entre 0 et {MAX_IMPOSED} attendu ; "
                                                        f"trouvé {_number_text(float(points))}"))
    return found


def classified_count(lines: Sequence[Line]) -> int:
    """x of §1: the number of classified players of a tournament (distinct people with a place)."""
    return len({line.player for line in lines if line.place is not None})


def tournament_violations(lines: Sequence[Line], name: str = "") -> list[Violation]:
    """What a single line cannot show (§1): « annulé » in a tournament with places; « the points of place N »
    (a special decision) for a place past the tournament's last classified (``1 ≤ N ≤ x``)."""
    which = f"« {name} »" if name else "le tournoi"
    found = [Violation(i, "role", f"{which} est marqué annulé mais a des joueurs classés")
             for i in misplaced_cancellations(lines)]
    x = classified_count(lines)
    for i, line in enumerate(lines):
        wanted = line.imposed_place
        if wanted is not None and not 1 <= wanted <= x:
            has = f"n'a que {x} classé{'s' if x > 1 else ''}" if x else "n'a aucun classé"
            found.append(Violation(i, "imposed_place", f"place {wanted} demandée, mais {which} {has}"))
    return found


def _best_line_first(line: Line) -> tuple[bool, int]:
    return (line.place is None, line.place or 0)


def _refuse_bad_lines(lines: Sequence[Line]) -> None:
    """The plain-data checks of :func:`score_tournament`, the first broken rule raised (§1)."""
    if misplaced_cancellations(lines):
        raise InvalidInput(CANCELLED_WITH_PLACES)
    for line in lines:
        if line.place is None and line.role is None:
            raise InvalidInput(f"{line.player} : ni place ni rôle")
        if line.place is not None and line.place < 1:
            raise InvalidInput(f"{line.player} : place attendue ≥ 1 ; trouvé {line.place}")
    raise_first([v for i, line in enumerate(lines) for v in line_violations(line, i) if v.field == "imposed_points"]
                + [v for v in tournament_violations(lines) if v.field == "imposed_place"])


def _kept_lines(lines: Sequence[Line]) -> list[int]:
    """The index of each person's best line (§1 « doublon »: his other lines are duplicates), in line order."""
    by_player: dict[str, list[int]] = defaultdict(list)
    for i, line in enumerate(lines):
        by_player[line.player].append(i)
    return sorted(min(indexes, key=lambda i: _best_line_first(lines[i])) for indexes in by_player.values())


def _with_imposed(line: Line, points: float, classified: int, interrupted: bool) -> tuple[float, bool]:
    """§1 special decisions: the line's imposed points, or those of its imposed place, else ``points``; and
    whether they were imposed."""
    if line.imposed_points is not None:
        return float(line.imposed_points), True
    if line.imposed_place is not None:
        return place_points(line.imposed_place, classified, interrupted), True
    return points, False


def score_tournament(lines: Sequence[Line], interrupted: bool = False) -> list[Scored]:
    """Points of every line of one tournament (§1), in the order of ``lines``.

    A line with a place is classified (a playing organiser gets only his place's points);
    a line without a place needs a role (100 points). A person's further lines are duplicates:
    the best one is kept and the people behind the others move up. ``annulé`` with places is refused
    (:func:`misplaced_cancellations`).
    """
    _refuse_bad_lines(lines)
    kept = _kept_lines(lines)
    official_of = {i: place for i in kept if (place := lines[i].place) is not None}
    classified, official = list(official_of), list(official_of.values())
    x = len(classified)
    places = dict(zip(classified, effective_places(official)))
    sizes = dict(zip(classified, tie_sizes(official)))
    shared = dict(zip(classified, share_ties(official, lambda p: place_points(p, x, interrupted))))

    scored: list[Scored] = []
    kept_set = set(kept)
    for i, line in enumerate(lines):
        if i not in kept_set:
            scored.append(Scored(line, Status.DUPLICATE))
        elif i in places:
            points, imposed = _with_imposed(line, shared[i], x, interrupted)
            scored.append(Scored(line, Status.CLASSIFIED, places[i], sizes[i], points, imposed))
        else:
            points, imposed = _with_imposed(line, ROLE_POINTS, x, interrupted)
            scored.append(Scored(line, Status.ROLE, None, None, points, imposed))
    return scored


def tournament_points(places: Sequence[int | Role | None], interrupted: bool = False) -> list[float | None]:
    """Points of a column of official places (§1): a role gives 100, None (not classified) gives None."""
    lines = [
        Line(str(i), place=p if isinstance(p, int) else None, role=p if isinstance(p, Role) else None)
        for i, p in enumerate(places)
        if p is not None
    ]
    points = iter(s.points for s in score_tournament(lines, interrupted))
    return [None if p is None else next(points) for p in places]


# --- §2 Season total -------------------------------------------------------------------------


@dataclass(frozen=True)
class Outing:
    """One player's points in one tournament, as the season sees them."""

    points: float
    kind: Kind = Kind.NORMAL
    classified: bool = True  # False for a 100-point role: it counts, but not toward the two
    tournament: str = ""


@dataclass(frozen=True)
class Season:
    """A player's season: total, and for each outing the weight applied."""

    outings: tuple[Outing, ...]
    weights: tuple[float, ...]
    set_aside: tuple[bool, ...]  # True where the no-loss rule treated the tournament as not played
    total: float

    @property
    def classified(self) -> int:
        """Tournaments played as a classified player (§2: two are needed to be ranked)."""
        return sum(o.classified for o in self.outings)

    @property
    def ranked(self) -> bool:
        return self.classified >= MIN_CLASSIFIED


def season(outings: Iterable[Outing]) -> Season:
    """A player's weighted season total (§2): majors 100%, others 100/80/40/20/10%, online last
    and at most 80%, and the no-loss rule.

    No-loss rule, exactly: the total is the best, over k, of keeping only the player's k best
    other non-major tournaments (the rest treated as not played); ties keep more tournaments.
    """
    outings = tuple(outings)
    by_points = sorted(range(len(outings)), key=lambda i: -outings[i].points)
    majors = [i for i in by_points if outings[i].kind.counts_as_major]
    others = [i for i in by_points if outings[i].kind is Kind.NORMAL]
    online = [i for i in by_points if outings[i].kind is Kind.ONLINE]
    online_points = [outings[i].points for i in online]

    def online_from(k: int) -> float:
        return weighted_best(online_points, WEIGHTS, TAIL, start=max(k, 1))

    best_k, best = 0, online_from(0)
    kept = 0.0
    for k in range(1, len(others) + 1):
        kept += outings[others[k - 1]].points * weights_from(WEIGHTS, TAIL, k - 1, 1)[0]
        value = kept + online_from(k)
        if value > best - _EPSILON:
            best_k, best = k, max(best, value)

    weights = [0.0] * len(outings)
    for i in majors:
        weights[i] = 1.0
    for i, w in zip(others[:best_k], weights_from(WEIGHTS, TAIL, 0, best_k)):
        weights[i] = w
    for i, w in zip(online, weights_from(WEIGHTS, TAIL, max(best_k, 1), len(online))):
        weights[i] = w
    set_aside = [False] * len(outings)
    for i in others[best_k:]:
        set_aside[i] = True
    total = sum(o.points * w for o, w in zip(outings, weights))
    return Season(outings, tuple(weights), tuple(set_aside), total)


@dataclass(frozen=True)
class Standing:
    """One person's line in the season standings; rank is None when not ranked (§2)."""

    player: str
    rank: int | None
    season: Season


#: Decimals of the published points (the standings' cells, their totals, ``explain``).
SHOWN_DIGITS = 1


def counted_parts(player_season: Season, digits: int = SHOWN_DIGITS) -> tuple[float, ...]:
    """§2 as published: what each outing brings to the total (its points × its weight), rounded to ``digits``
    so that the row adds up to the total rounded half up. An outing set aside by the no-loss rule, or weighted
    0, shows exactly 0; no part is negative; only results counted less than 100 % take the adjustment first
    (a result at 100 % shows the same number as its points)."""
    values = [o.points * w for o, w in zip(player_season.outings, player_season.weights)]
    adjustable = [0 < w < 1 and not aside for w, aside in zip(player_season.weights, player_season.set_aside)]
    return tuple(rounded_parts(values, digits, adjustable))


def standings(outings_by_player: Mapping[str, Iterable[Outing]]) -> list[Standing]:
    """The season standings (§2): ranked players by total (equal totals share a rank),
    then the people with fewer than two classified tournaments, unranked."""
    seasons = {player: season(outings) for player, outings in outings_by_player.items()}
    order = sorted(seasons, key=lambda p: (not seasons[p].ranked, -rank_key(seasons[p].total), fold(p), p))
    ranked = [p for p in order if seasons[p].ranked]
    ranks = dict(zip(ranked, competition_ranks([seasons[p].total for p in ranked])))
    return [Standing(p, ranks.get(p), seasons[p]) for p in order]


@dataclass(frozen=True)
class Tournament:
    """A tournament of the season with its result lines."""

    name: str
    kind: Kind = Kind.NORMAL
    interrupted: bool = False
    lines: tuple[Line, ...] = ()


@dataclass(frozen=True)
class SeasonReport:
    """Everything the federation publishes for a season: each tournament's scored lines,
    the standings, and for each (player, tournament) the weight applied and whether the
    no-loss rule set it aside."""

    scored: dict[str, list[Scored]]
    standings: list[Standing]
    weights: dict[tuple[str, str], tuple[float, bool]]


def run_season(tournaments: Sequence[Tournament]) -> SeasonReport:
    """Score every tournament (§1) and weight every player's season (§2)."""
    scored = {t.name: score_tournament(t.lines, t.interrupted) for t in tournaments}
    outings: dict[str, list[Outing]] = defaultdict(list)
    for t in tournaments:
        for s in scored[t.name]:
            if s.status is not Status.DUPLICATE:
                outings[s.line.player].append(Outing(s.points, t.kind, s.classified, t.name))
    table = standings(outings)
    weights = {
        (st.player, o.tournament): (w, aside)
        for st in table
        for o, w, aside in zip(st.season.outings, st.season.weights, st.season.set_aside)
    }
    return SeasonReport(scored, table, weights)


# --- Why each outing counts what it counts (§2), for the published tables and ``xlcircuit explain`` ---


@functools.lru_cache(maxsize=256)  # a season has a handful of weights and tens of thousands of results
def _percent(weight: float) -> str:
    return f"{format_half_up(weight * 100)} %"


def _nth(n: int) -> str:
    return "1er" if n == 1 else f"{n}e"


def weight_reasons(player_season: Season) -> tuple[str, ...]:
    """For each outing of a season, in French, the rule that gave it its weight (§2): « majeur : 100 % »,
    « 2e tournoi normal : 80 % », « en ligne : compté après les tournois sur table (3e) : 40 % »,
    « écarté : la décote ferait perdre des points (règle de non-perte) »."""
    outings, weights = player_season.outings, player_season.weights
    by_points = sorted(range(len(outings)), key=lambda i: -outings[i].points)  # the order season() weighs in
    kept = [i for i in by_points if outings[i].kind is Kind.NORMAL and not player_season.set_aside[i]]
    position = {i: n for n, i in enumerate(kept, start=1)}
    online = [i for i in by_points if outings[i].kind is Kind.ONLINE]
    position.update({i: n for n, i in enumerate(online, start=max(len(kept), 1) + 1)})
    reasons = []
    for i, outing in enumerate(outings):
        if outing.kind is Kind.MAJOR:
            reasons.append(f"majeur : {_percent(weights[i])}")
        elif outing.kind is Kind.MAJOR_ONLINE:
            reasons.append(f"majeur en ligne (remplace un majeur) : {_percent(weights[i])}")
        elif player_season.set_aside[i]:
            reasons.append("écarté : la décote ferait perdre des points (règle de non-perte), compte 0")
        elif outing.kind is Kind.NORMAL:
            reasons.append(f"{_nth(position[i])} tournoi normal : {_percent(weights[i])}")
        else:
            reasons.append(f"en ligne : compté après les tournois sur table ({_nth(position[i])}) : "
                           f"{_percent(weights[i])}")
    return tuple(reasons)
'''

# --- xlcircuit/rules/text.py -------------------------------------------------------------------------
_SOURCES['xlcircuit.rules.text'] = False, r'''
"""Text as people type it into spreadsheets: stray spaces, any case, accents or not."""

from __future__ import annotations

import functools
import re
import unicodedata


def clean(text: str) -> str:
    """Trim and collapse runs of white space (non-breaking spaces included); accents and case kept."""
    return " ".join(text.split())


@functools.lru_cache(maxsize=1 << 16)  # a season folds each of its few thousand names many times
def fold(text: str) -> str:
    """A key for matching keywords typed in any case, with or without accents (``Annulé`` -> ``annule``)."""
    decomposed = unicodedata.normalize("NFKD", clean(text).casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


_WORDS = ("zéro", "un", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf", "dix")


def in_words(n: int) -> str:
    """A small count as French prose writes it (``5`` -> ``cinq``); beyond ten, its digits."""
    return _WORDS[n] if 0 <= n < len(_WORDS) else str(n)


def whole_number(value: object) -> int | None:
    """A whole number as a cell holds it (``3``, ``3.0`` or the text ``"3"``, ``"3,0"``); None for anything else."""
    number = value
    if isinstance(value, str):
        try:
            number = float(value.replace(",", "."))
        except ValueError:
            return None
    if isinstance(number, bool) or not isinstance(number, (int, float)):
        return None
    if isinstance(number, float) and not number.is_integer():  # nan, inf and 2.5 are no whole numbers
        return None
    return int(number)  # an int of hundreds of digits (a number cell of a damaged file) as it is: bounds refuse it


#: A French ordinal as typed for a place: 1er, 1re, 1ère, 2e, 2ème, 2nd, 3eme, 7e (folded: no accents, lower case).
_ORDINAL = re.compile(r"(\d{1,9})\s*(?:er|re|ere|e|eme|nde?)")  # a longer number is no place


def ordinal(value: object) -> int | None:
    """The number of a French ordinal typed as text (``1er``, ``1re``, ``2e``, ``3ème``, ``2nd``, ``1ᵉʳ``); None for
    anything else (``3er`` and ``5nd`` are no ordinals)."""
    if not isinstance(value, str):
        return None
    match = _ORDINAL.fullmatch(fold(value))  # fold: NFKD, so 1ᵉʳ is 1er
    if match is None:
        return None
    number, suffix = int(match.group(1)), match.group(0)[len(match.group(1)):].strip()
    if (suffix in ("er", "re", "ere") and number != 1) or (suffix.startswith("nd") and number != 2):
        return None
    return number


#: A tie written beside a place, as rankings write it: « 3 ex », « 3 ex aequo », « ex. 3 », « 3= », « =3 »,
#: « 3 (ex) » (folded: ``æ`` is kept by the fold, so « ex æquo » is listed too).
_TIE = r"(?:\(?\s*ex\.?(?:[\s-]*(?:aequo|æquo))?\s*\)?|=)"
_TIED = re.compile(rf"{_TIE}?\s*(?P<place>[^=\s()][^=()]*?)\s*{_TIE}?")


def tied_place(value: object) -> int | None:
    """A place written with a tie mark (``3 ex``, ``ex 3``, ``3=``, ``2e ex aequo``): its number; None for anything
    else (the tie itself is the equal places, as the rules read them)."""
    if not isinstance(value, str):
        return None
    text = fold(value)
    match = _TIED.fullmatch(text)
    if match is None or match.group("place") == text:
        return None  # no tie mark: not this form
    place = match.group("place")
    number = whole_number(place)
    return number if number is not None else ordinal(place)


def place_number(value: object) -> int | None:
    """A place as people type it: a whole number (``3``, ``3.0``, ``"3"``), a French ordinal (``1er``, ``2e``,
    ``3ème``) or either with a tie mark (``3 ex``, ``3=``); None for anything else. Bounds (a place is at least
    1) are the caller's."""
    number = whole_number(value)
    if number is None:
        number = ordinal(value)
    return number if number is not None else tied_place(value)
'''

# --- xlcircuit/rules/torres.py -----------------------------------------------------------------------
_SOURCES['xlcircuit.rules.torres'] = False, r'''
"""TORRES championship on Boîte à Jeux: match scoring, group standings, movements between
divisions, the group schedule and next season's groups.

Rules: ``docs/regles/torres.md``, our French summary of « Fonctionnement du championnat TORRES » (Boîte à
Jeux), which wins where they differ. Sections cited as in torres.md, in order: §1 Structure,
§2 Scoring a match, §3 Group standings, §4 End of season.
Nothing is rounded here; rounding is for display only.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from itertools import chain, combinations, cycle

from .errors import InvalidInput, Violation
from .limits import TORRES_MAX_NUMBER
from .mechanics import competition_ranks, competition_ranks_by, rank_key, share_ties
from .text import fold

#: Victory points of the 1st, 2nd, 3rd and 4th of a match (§2).
VICTORY_POINTS = (8.0, 4.0, 2.0, 1.0)
MATCH_SIZE = 4
GROUP_SIZE = 10
#: Largest in-game points or Elo taken (either sign): :mod:`xlcircuit.limits`.
MAX_NUMBER = TORRES_MAX_NUMBER
#: Players of each group moving up one division (§4), and those staying (D1: 1st-6th; others 3rd-6th).
UP = 2
STAY = 4
STAY_D1 = 6
#: The fictitious players replacing forfeit players (§2, source: « Forfait »).
FICTITIOUS = ("Forfait", "Forfait bis", "Forfait tierce", "Forfait quarter")
_FICTITIOUS_KEYS = {fold(name) for name in FICTITIOUS}

#: Schedules where every pair of a group shares exactly two matches (§1): a 2-(v, 4, 2) design.
#: Ten players: 15 matches, six each. Seven: the complements of the Fano plane's lines, four each.
DESIGNS: dict[int, tuple[tuple[int, ...], ...]] = {
    4: ((0, 1, 2, 3), (0, 1, 2, 3)),
    7: ((2, 4, 5, 6), (0, 3, 5, 6), (0, 1, 4, 6), (0, 1, 2, 5), (1, 2, 3, 6), (0, 2, 3, 4), (1, 3, 4, 5)),
    10: ((0, 1, 2, 3), (0, 1, 4, 5), (0, 2, 4, 6), (0, 3, 7, 8), (0, 5, 7, 9), (0, 6, 8, 9), (1, 2, 7, 8),
         (1, 3, 6, 9), (1, 4, 7, 9), (1, 5, 6, 8), (2, 3, 5, 9), (2, 4, 8, 9), (2, 5, 6, 7), (3, 4, 5, 8),
         (3, 4, 6, 7)),
}
#: Sizes of a lowest-division group without such a design (§1, source: groups « équilibrés en nombre de
#: joueurs »): the closest schedule, every player the same number of matches and every pair at most twice,
#: and at least once (six: 3 matches, two each; eight: 8, four each; nine: 9, four each). Five players have none: every
#: 4-player match leaves one out, so equal counts need the five matches of four, every pair three times.
CLOSEST: dict[int, tuple[tuple[int, ...], ...]] = {
    5: ((0, 1, 2, 3), (0, 1, 2, 4), (0, 1, 3, 4), (0, 2, 3, 4), (1, 2, 3, 4)),
    6: ((0, 1, 2, 3), (0, 1, 4, 5), (2, 3, 4, 5)),
    8: ((0, 1, 2, 3), (0, 1, 4, 5), (0, 2, 4, 6), (0, 3, 5, 7), (1, 2, 4, 7), (1, 3, 5, 6), (2, 5, 6, 7),
        (3, 4, 6, 7)),
    9: ((0, 1, 2, 3), (0, 1, 4, 5), (0, 2, 4, 6), (0, 3, 7, 8), (1, 2, 4, 7), (1, 5, 6, 8), (2, 5, 7, 8),
        (3, 4, 6, 8), (3, 5, 6, 7)),
}


def groups_in(division: int) -> int:
    """§1: division d has 2 ** (d - 1) groups (D1 one, D2 two, D3 four…)."""
    if division < 1:
        raise InvalidInput(f"division attendue : 1 ou plus ; trouvé {division}")
    groups: int = 2 ** (division - 1)
    return groups


def is_fictitious(name: str) -> bool:
    """§2: whether ``name`` is one of the fictitious players replacing forfeit players."""
    return fold(name) in _FICTITIOUS_KEYS


# --- §2 Scoring a match -------------------------------------------------------------------------


def particular_differences(points: Sequence[float]) -> list[float]:
    """§2: each player's particular-points difference: the sum over his opponents of (his - theirs)."""
    total = sum(points)
    return [len(points) * p - total for p in points]


def match_places(points: Sequence[float], scoreless: Sequence[bool] | None = None) -> list[int | None]:
    """§2: places by in-game points, highest first (ties share the better place); None for a scoreless
    player (who delayed an unfinished match), the others placed among themselves (source « Durée du
    championnat »: « le classement des joueurs restants étant déterminé par le dernier décompte »)."""
    if not 1 <= len(points) <= MATCH_SIZE:
        raise InvalidInput(f"un match a de 1 à {MATCH_SIZE} joueurs ; trouvé {len(points)}")
    for p in points:
        if not abs(p) <= MAX_NUMBER:
            raise InvalidInput(f"points particuliers attendus : de -{MAX_NUMBER:.0f} à {MAX_NUMBER:.0f} ; trouvé {p}")
    flags = list(scoreless) if scoreless is not None else [False] * len(points)
    if len(flags) != len(points):
        raise InvalidInput(f"autant d'indications que de joueurs attendues ; trouvé {len(flags)} et {len(points)}")
    placed = [i for i, flag in enumerate(flags) if not flag]
    places: list[int | None] = [None] * len(points)
    for i, place in zip(placed, competition_ranks([points[i] for i in placed])):
        places[i] = place
    return places


def victory_points(points: Sequence[float], scoreless: Sequence[bool] | None = None) -> list[float]:
    """§2: 8/4/2/1 victory points by place; tied players share their places' points; a scoreless
    player gets 0 and the others take the points of places 1, 2, 3… among themselves."""
    places = match_places(points, scoreless)
    official = [p for p in places if p is not None]
    shared = iter(share_ties(official, lambda place: VICTORY_POINTS[place - 1]))
    return [0.0 if p is None else next(shared) for p in places]


@dataclass(frozen=True)
class Seat:
    """One player of a match: his in-game points at the end (or at the last count)."""

    player: str
    points: float
    delayed: bool = False  # delayed an unfinished match: no victory points (§2)

    @property
    def fictitious(self) -> bool:
        return is_fictitious(self.player)

    @property
    def scoreless(self) -> bool:
        """§2: only a player who delayed an unfinished match scores nothing. The fictitious « Forfait » is
        placed by his points like anyone (source « Classement »: victory points « suivant la place obtenue
        dans la partie »; « Placement du roi »: he only « a de fortes chances d'être dernier »); his victory
        points count for nobody, as he is in no standings."""
        return self.delayed


@dataclass(frozen=True)
class ScoredSeat:
    """A seat with what it earns: place among the players who score, victory points, difference."""

    seat: Seat
    place: int | None
    victory_points: float
    difference: float


def score_match(seats: Sequence[Seat]) -> list[ScoredSeat]:
    """§2: victory points and particular-points difference of every seat of one match, in order."""
    points = [s.points for s in seats]
    flags = [s.scoreless for s in seats]
    places = match_places(points, flags)
    vp = victory_points(points, flags)
    diffs = particular_differences(points)
    return [ScoredSeat(s, place, v, d) for s, place, v, d in zip(seats, places, vp, diffs)]


# --- §3 Group standings --------------------------------------------------------------------------


class Status(Enum):
    """A player's status in the Joueurs table."""

    ACTIVE = "actif"
    FORFEIT = "forfait"  # excluded from the season, ranked last of his group (tied)
    WITHDRAWN = "retrait"  # plays this season, leaves before the next one
    NEW = "nouveau"  # joins next season, in the lowest division
    RETURNING = "retour"  # comes back next season at the division given, if there is a place
    LEFT = "parti"  # not in this season (withdrawn or forfeit earlier): kept with the division he would return to

    @classmethod
    def parse(cls, text: object) -> Status | None:
        """The status named by ``text`` (any case, accents optional); blank is None."""
        key = fold("" if text is None else str(text))
        if not key:
            return None
        for status in cls:
            if fold(status.value) == key:
                return status
        raise InvalidInput(f"statut attendu : {', '.join(s.value for s in cls)} ; trouvé « {text} »")

    @property
    def leaves(self) -> bool:
        """Not in next season's groups (§4: forfeits and withdrawals leave a place)."""
        return self in (Status.FORFEIT, Status.WITHDRAWN)


@dataclass(frozen=True)
class Player:
    """A player as the Joueurs table gives him: season-start Elo, this season's group, status."""

    name: str
    elo: float
    division: int | None = None
    group: int | None = None
    status: Status = Status.ACTIVE

    def __post_init__(self) -> None:
        if not abs(self.elo) <= MAX_NUMBER:
            raise InvalidInput(f"{self.name} : Elo attendu de -{MAX_NUMBER:.0f} à {MAX_NUMBER:.0f} ; trouvé {self.elo}")


def seat_violations(player: Player, index: int = 0) -> list[Violation]:
    """§1 and §4 « Retrait du championnat »: where a player is this season: a new player has neither division nor
    group (he enters the lowest division next season); a returning player has the division he comes back to
    (his group is drawn); a player who left has no group (his division, optional, is the one he would come back
    to); every other a division and one of its groups (division d has 2^(d-1) groups). Fields ``division`` and
    ``group``; at most one violation."""
    division, group, status = player.division, player.group, player.status
    if status is Status.NEW:
        if division is not None or group is not None:
            return [Violation(index, "division", "un nouveau joueur n'a ni division ni groupe cette saison : "
                                                 "videz ces cellules (il entrera en division la plus basse)")]
        return []
    if status is Status.RETURNING:
        if division is None:
            return [Violation(index, "division", "division manquante : celle où le joueur revient")]
        return []
    if status is Status.LEFT:
        if group is not None:
            return [Violation(index, "group", "un joueur parti ne joue pas cette saison : videz son groupe (sa "
                                              "division, facultative, est celle où il reviendra)")]
        return []
    if division is None or group is None:
        field = "division" if division is None else "group"
        return [Violation(index, field, f"{'division' if division is None else 'groupe'} manquant : un joueur "
                                        f"{status.value} joue cette saison dans une division et un groupe (sinon : "
                                        "nouveau, retour ou parti)")]
    if group > groups_in(division):
        return [Violation(index, "group", f"la D{division} a {groups_in(division)} groupe"
                                          f"{'s' if division > 1 else ''} ; trouvé le groupe {group}")]
    return []


#: The index of :func:`pyramid_violations`' violations that no player's line can show: a group nobody is in.
WHOLE_TABLE = -1


def _group_size_message(d: int, g: int, size: int, lowest: int) -> str | None:
    """§1: ten players a group above the lowest division; four to ten in the lowest."""
    if d < lowest and size != GROUP_SIZE:
        return f"D{d} groupe {g} : {size} joueurs ; {GROUP_SIZE} attendus hors de la division la plus basse"
    if size > GROUP_SIZE or size < MATCH_SIZE:
        return f"D{d} groupe {g} : {size} joueurs ; de {MATCH_SIZE} à {GROUP_SIZE} attendus"
    return None


def pyramid_violations(players: Sequence[Player]) -> list[Violation]:
    """§1: this season's pyramid (the players with a group): divisions 1 to the lowest, each with all its
    2^(d-1) groups, ten players a group above the lowest division and four to ten in it. A group's violation is
    on its first player's index (field ``group``); a group without players is on :data:`WHOLE_TABLE`
    (field ``division``)."""
    groups: dict[tuple[int, int], list[int]] = defaultdict(list)
    for i, p in enumerate(players):
        if p.group is not None and p.division is not None:
            groups[p.division, p.group].append(i)
    if not groups:
        return []
    lowest = max(d for d, _ in groups)
    found: list[Violation] = []
    for d in range(1, lowest + 1):
        for g in range(1, groups_in(d) + 1):
            members = groups.get((d, g), [])
            if not members:
                found.append(Violation(WHOLE_TABLE, "division", f"la D{d} n'a aucun joueur dans son groupe {g} : "
                                       f"la division {d} a {groups_in(d)} groupe{'s' if d > 1 else ''} "
                                       f"(la plus basse ici est la D{lowest})"))
            elif (message := _group_size_message(d, g, len(members), lowest)) is not None:
                found.append(Violation(members[0], "group", message))
    return found


@dataclass(frozen=True)
class Standing:
    """A player's line in his group's standings (§3): rank (ties share it) and position (1, 2, 3…)."""

    player: Player
    rank: int
    position: int
    matches: int
    victory_points: float
    difference: float
    points: float

    @property
    def label(self) -> str:
        """The source's notation: 3d2g1 is the 3rd of group 1 of D2 (3d1 in D1)."""
        return origin_label(self.position, self.player.division or 0, self.player.group or 0)


def origin_label(position: int, division: int, group: int) -> str:
    """§4 (source example): ``3d2g1`` for the 3rd of group 1 of D2; ``3d1`` in the single-group D1."""
    return f"{position}d{division}" + (f"g{group}" if division > 1 else "")


def _merit(s: Standing) -> tuple[float, ...]:
    """§3 criteria as a sort key, best first: victory points, difference, points, then the lowest Elo."""
    return (-rank_key(s.victory_points), -rank_key(s.difference), -rank_key(s.points), rank_key(s.player.elo))


def group_standings(players: Sequence[Player], matches: Iterable[Sequence[Seat]]) -> list[Standing]:
    """§3: a group's standings: most victory points, then greatest particular-points difference, then most
    particular points, then the lowest season-start Elo; forfeit players last, tied."""
    names = {p.name for p in players}
    totals: dict[str, list[float]] = {p.name: [0, 0.0, 0.0, 0.0] for p in players}
    for match in matches:
        for scored in score_match(match):
            name = scored.seat.player
            if scored.seat.fictitious:
                continue
            if name not in names:
                raise InvalidInput(f"{name} joue dans ce groupe mais n'en fait pas partie")
            line = totals[name]
            line[0] += 1
            line[1] += scored.victory_points
            line[2] += scored.difference
            line[3] += scored.seat.points
    lines = [Standing(p, 0, 0, int(totals[p.name][0]), *totals[p.name][1:]) for p in players]
    keys = [(1,) if s.player.status is Status.FORFEIT else (0,) + _merit(s) for s in lines]
    ranks = competition_ranks_by(keys)
    order = sorted(range(len(lines)), key=lambda i: (keys[i], fold(lines[i].player.name), lines[i].player.name))
    return [
        Standing(lines[i].player, ranks[i], position, lines[i].matches, lines[i].victory_points,
                 lines[i].difference, lines[i].points)
        for position, i in enumerate(order, start=1)
    ]


# --- §1 The schedule of a group -------------------------------------------------------------------


def _design(size: int) -> tuple[tuple[int, ...], ...]:
    design = DESIGNS.get(size) or CLOSEST.get(size)
    if design is None:
        sizes = sorted(set(DESIGNS) | set(CLOSEST))
        raise InvalidInput(f"un groupe de {size} joueurs n'a pas de calendrier (de {sizes[0]} à {sizes[-1]} joueurs)")
    return design


def schedule_counts(size: int) -> tuple[int, int]:
    """§1: in a group of ``size``, the matches of each player and the most times a pair meets, as its schedule
    has them (a group of ten: 6 and 2); a size without a schedule gives a group of ten's."""
    design = DESIGNS.get(size) or CLOSEST.get(size) or DESIGNS[GROUP_SIZE]
    players = max(max(match) for match in design) + 1
    met = Counter(pair for match in design for pair in combinations(match, 2))
    return len(design) * MATCH_SIZE // players, max(met.values())


def schedule_note(size: int) -> str | None:
    """§1: None when a group of ``size`` has a schedule where every pair meets exactly twice; else what the
    closest one gives (French, for a warning)."""
    if size in DESIGNS:
        return None
    design = _design(size)
    met = Counter(pair for match in design for pair in combinations(match, 2))
    times = sorted({met[pair] for pair in combinations(range(size), 2)})
    shown = " ou ".join(map(str, times))
    return (f"à {size} joueurs, pas de calendrier où chaque paire se rencontre exactement deux fois : le plus "
            f"proche a {len(design)} matchs, {len(design) * MATCH_SIZE // size} par joueur, chaque paire se "
            f"rencontrant {shown} fois")


def schedule_group(players: Sequence[str], seed: object) -> list[tuple[str, ...]]:
    """§1: the matches of a group, every pair of players together exactly twice (a group of ten:
    15 matches, six each), or the closest schedule for sizes without one (:data:`CLOSEST`, see
    :func:`schedule_note`); players, matches and seats are drawn, the same seed giving the same schedule."""
    design = _design(len(players))
    if len(set(players)) != len(players):
        raise InvalidInput("un joueur figure deux fois dans le groupe")
    rng = random.Random(str(seed))
    order = sorted(players, key=lambda name: (fold(name), name))  # the typing order does not matter
    rng.shuffle(order)
    matches = [[order[i] for i in block] for block in design]
    rng.shuffle(matches)
    for match in matches:
        rng.shuffle(match)
    return [tuple(match) for match in matches]


# --- §4 End of season: movements and next season's groups -----------------------------------------


class Move(Enum):
    """What the end of season does to a player (§4)."""

    UP = "monte"
    STAY = "reste"
    DOWN = "descend"
    RESCUED = "repêché"  # was to go down, keeps his division (repêchage)
    RESCUED_UP = "monte (repêchage)"  # was to stay in the division below, moves up to fill a place
    FORFEIT = "forfait"
    WITHDRAWN = "retrait"
    NEW = "nouveau"
    RETURNING = "retour"
    WAITING = "en attente"  # new or returning, without a place next season (no group to open for him)


@dataclass(frozen=True)
class Movement:
    """A player's fate at the end of season and his group next season (None: he leaves)."""

    player: Player
    move: Move
    standing: Standing | None = None
    division: int | None = None
    group: int | None = None
    origin: str = ""  # the source's notation: 3d2g1, n4 (4th new player by Elo), retour

    @property
    def champion(self) -> bool:
        return self.standing is not None and self.player.division == 1 and self.standing.position == 1


@dataclass
class NextSeason:
    """The end of season (§4): every player's movement, next season's groups and remarks."""

    movements: list[Movement]
    groups: dict[tuple[int, int], list[Movement]]
    warnings: list[str] = field(default_factory=list)


def snake(count: int, capacities: Sequence[int]) -> list[int]:
    """§4: the mini-group of each of ``count`` players sorted by Elo, dealt in a snake (A B C D, D C B A…);
    a full mini-group is skipped."""
    if sum(capacities) < count:
        raise InvalidInput(f"{count} joueurs pour {sum(capacities)} places")
    left = list(capacities)
    forth = range(len(capacities))
    order = cycle(chain(forth, reversed(forth)))
    dealt = []
    for _ in range(count):
        index = next(i for i in order if left[i] > 0)
        left[index] -= 1
        dealt.append(index)
    return dealt


def _balance(sizes: Sequence[int], count: int, order: Sequence[int]) -> list[int]:
    """How many of ``count`` players each group takes so that group sizes stay within one (§4), the
    smallest groups first, then in the drawn ``order``."""
    taken = [0] * len(sizes)
    rank = {g: i for i, g in enumerate(order)}
    for _ in range(count):
        g = min(range(len(sizes)), key=lambda j: (sizes[j] + taken[j], rank[j]))
        taken[g] += 1
    return taken


def by_elo(players: Iterable[Player]) -> list[Player]:
    """§4: players by Elo, highest first (then by name, so that the typing order does not matter)."""
    return sorted(players, key=lambda p: (-rank_key(p.elo), fold(p.name), p.name))



Key = tuple[int, int]  # (division, group)


class _Composer:
    """The end-of-season state, division by division from the top (§4)."""

    def __init__(self, standings: Mapping[Key, Sequence[Standing]], rng: random.Random,
                 returning_at: Mapping[int, list[Player]]):
        self.rng = rng
        self.standings = standings
        self.lowest = max(d for d, _ in standings)
        self.moves: dict[str, Movement] = {}
        self.warnings: list[str] = []
        self.ups: dict[Key, list[Standing]] = {}
        self.stayers: dict[Key, list[Standing]] = {}
        self.downs: dict[Key, list[Standing]] = {}
        self.vacant: dict[Key, int] = {}  # places leavers left among a group's stayers
        self.internal: dict[Key, int] = defaultdict(int)  # of them, rescued within the group
        self.returning_at = {d: list(players) for d, players in returning_at.items()}
        self.carried: list[Player] = []  # returning players without a place in their division: the next one down
        self.holes: dict[int, int] = {}  # places of a division nobody could fill
        self.waiting: list[Movement] = []
        for key, table in standings.items():
            self._split(key, table)

    def _split(self, key: Key, table: Sequence[Standing]) -> None:
        """§4, source « Repêchages »: who of a group moves up, stays or goes down before repêchages. With a
        leader gone, « le joueur classé troisième monte »; a leaver who was to stay or move up leaves a place
        among the stayers (cases 1, 2); one who was to go down leaves none (case 3: « Il n'y a pas de
        repêchage »), as a forfeit player, « implicitement classé dernier »."""
        d = key[0]
        present = [s for s in table if not s.player.status.leaves]
        ups = present[:UP if d > 1 else 0]
        up_names = {s.player.name for s in ups}
        if d == self.lowest:
            stay = present[len(ups):]
            quota = len(stay)
        else:
            quota = STAY_D1 if d == 1 else STAY
            zone = (UP if d > 1 else 0) + quota
            stay = [s for s in table[:zone] if not s.player.status.leaves and s.player.name not in up_names]
        kept = up_names | {s.player.name for s in stay}
        self.ups[key], self.stayers[key] = ups, stay
        self.downs[key] = [s for s in present if s.player.name not in kept]
        self.vacant[key] = quota - len(stay)
        for s in table:
            if s.player.status.leaves:
                move = Move.FORFEIT if s.player.status is Status.FORFEIT else Move.WITHDRAWN
                self.moves[s.player.name] = Movement(s.player, move, s)

    def _groups(self, d: int) -> list[Key]:
        return [(d, g) for g in range(1, groups_in(d) + 1)]

    def _best(self, candidates: list[Standing]) -> Standing:
        return min(candidates, key=lambda s: (s.position,) + _merit(s) + (fold(s.player.name), s.player.name))

    def rescue_within(self, d: int, returned: int, limit: int) -> list[Standing]:
        """Source « Repêchages »: a place a leaver left in his group « sera comblée en priorité par le retour
        d'un participant ayant évolué à ce niveau. Sinon, elle sera comblée par un repêchage au sein du
        groupe »: the ``returned`` players of this level take such places first (where most are open, first
        where the group has nobody to rescue); each other one goes to the best of the group's players who
        were to go down (« le mieux classé de ceux qui devaient descendre »), ``limit`` in all."""
        groups = self._groups(d)
        open_places = {k: self.vacant[k] for k in groups}
        for _ in range(returned):
            candidates = [k for k in groups if open_places[k] > 0]
            if not candidates:
                break
            k = max(candidates, key=lambda k: (open_places[k] > len(self.downs[k]), open_places[k], -k[1]))
            open_places[k] -= 1
        rescued: list[Standing] = []
        for k in groups:
            take = self.downs[k][:min(open_places[k], max(limit - len(rescued), 0))]
            del self.downs[k][:len(take)]
            self.internal[k] = len(take)
            rescued += take
        return rescued

    def rescue(self, d: int, vacancies: int) -> list[Standing]:
        """Fill places of division d from its players who were to go down: totals per group within one,
        then places due to other groups spread fairly, then by ranking; else the best of those who were
        to stay in the division below (§4, source « Repêchages au sein d'une division »)."""
        rescued: list[Standing] = []
        external: dict[Key, int] = defaultdict(int)
        groups = self._groups(d)
        while vacancies > 0 and any(self.downs[k] for k in groups):
            k = min((k for k in groups if self.downs[k]), key=lambda k: (
                self.internal[k] + external[k], external[k], self.downs[k][0].position)
                + _merit(self.downs[k][0]) + (k,))
            rescued.append(self.downs[k].pop(0))
            external[k] += 1
            vacancies -= 1
        below = self._groups(d + 1) if d < self.lowest else []
        while vacancies > 0 and any(self.stayers[k] for k in below):
            best = self._best([s for k in below for s in self.stayers[k]])
            home = next(k for k in below if best in self.stayers[k])
            self.stayers[home].remove(best)
            self.moves[best.player.name] = Movement(best.player, Move.RESCUED_UP, best)
            rescued.append(best)
            vacancies -= 1
        return rescued

    def place_stayers(self, d: int, slots: list[list[Movement]]) -> int:
        """§4: « un 3e, un 4e, un 5e et un 6e provenant des différents groupes et répartis par permutation
        circulaire »: the k-th stayer of old group i goes to new group i - k."""
        G = len(slots)
        placed = 0
        for g in range(1, G + 1):
            for k, s in enumerate(self.stayers[d, g]):
                move = Move.RESCUED if s.position > _zone(d, self.lowest) else Move.STAY
                slots[(g - 1 - k) % G].append(Movement(s.player, move, s, origin=s.label))
                placed += 1
        return placed

    def place_downs(self, d: int, slots: list[list[Movement]]) -> tuple[int, list[Standing]]:
        """§4: from division d - 1, « soit un 7e et un 10e, soit un 8e et un 9e, venant si possible de 2 groupes
        différents », drawn; returns how many were placed and those beyond the 10th (placed where there is room)."""
        G = len(slots)
        above = groups_in(d - 1)
        shift = self.rng.randrange(1, above) if above > 1 else 0
        pairs = []
        for i in range(1, above + 1):
            mine, other = self.downs[d - 1, i], self.downs[d - 1, (i - 1 + shift) % above + 1]
            for first, second in ((7, 10), (8, 9)):  # a hole where a player was rescued or left
                pairs.append([x for x in (_placed(mine, first), _placed(other, second)) if x is not None])
        self.rng.shuffle(pairs)
        placed = 0
        for j, pair in enumerate(pairs):
            for s in pair:
                slots[j % G].append(Movement(s.player, Move.DOWN, s, origin=s.label))
                placed += 1
        beyond = [s for i in range(1, above + 1) for s in self.downs[d - 1, i] if s.position > GROUP_SIZE]
        return placed, beyond

    def place_ups(self, d: int, slots: list[list[Movement]]) -> int:
        """§4: from division d + 1, « deux 1er et deux 2e venant si possible de groupes différents », drawn."""
        below = list(range(1, groups_in(d + 1) + 1))
        self.rng.shuffle(below)
        n = len(below)
        placed = 0
        for j, slot in enumerate(slots):
            for rank, offset in ((0, 0), (0, 1), (1, 2), (1, 3)):
                up = _at(self.ups[d + 1, below[(2 * j + offset) % n]], rank)
                if up is not None:
                    slot.append(Movement(up.player, Move.UP, up, origin=up.label))
                    placed += 1
        return placed

    def returning(self, d: int) -> list[Player]:
        """Returning players looking for a place in division d: those of this level first (« le retour d'un
        participant ayant évolué à ce niveau »), then those who found none higher up."""
        back = self.returning_at.get(d, []) + self.carried
        self.carried = []
        return back


def _division(c: _Composer, d: int) -> list[list[Movement]]:
    """§4: next season's groups of a division above the lowest: stayers, players coming down and up, then
    its vacant places filled by returning players, then by repêchages (source « Repêchages »)."""
    G = groups_in(d)
    slots: list[list[Movement]] = [[] for _ in range(G)]
    placed = c.place_stayers(d, slots)
    extra: list[Standing] = []
    if d > 1:
        down, extra = c.place_downs(d, slots)
        placed += down
    placed += c.place_ups(d, slots)
    vacancies = GROUP_SIZE * G - placed - len(extra)
    back = c.returning(d)
    taken = back[:max(vacancies, 0)]
    c.carried = back[len(taken):]
    vacancies -= len(taken)
    arrivals = [Movement(p, Move.RETURNING, origin="retour") for p in taken]
    within = c.rescue_within(d, len(taken), vacancies)
    for s in within + c.rescue(d, vacancies - len(within)):
        earlier = c.moves.get(s.player.name)
        kind = earlier.move if earlier is not None else Move.RESCUED
        arrivals.append(Movement(s.player, kind, s, origin=s.label))
    arrivals += [Movement(s.player, _kind(s, d), s, origin=s.label) for s in extra]
    _fill_holes(slots, arrivals, c.rng)
    short = GROUP_SIZE * G - sum(len(slot) for slot in slots)
    if short > 0:
        c.holes[d] = short
        c.warnings.append(f"D{d} : {short} place{'s' if short > 1 else ''} sans joueur la saison "
                          "prochaine (plus personne à repêcher).")
    return slots


def _lowest_division(c: _Composer, d: int, newcomers: Sequence[Player]) -> dict[Key, list[Movement]]:
    """§4: the lowest division keeps all its players but its two best of each group; it receives the
    players coming down, returning players, then the new ones (« Les retours d'anciens participants sont
    toutefois prioritaires »)."""
    slots: list[list[Movement]] = [[] for _ in range(groups_in(d))]
    c.place_stayers(d, slots)
    extra: list[Standing] = []
    if d > 1:
        _, extra = c.place_downs(d, slots)
    moved = [Movement(s.player, _kind(s, d), s, origin=s.label) for s in extra]
    returns = [Movement(p, Move.RETURNING, origin="retour") for p in c.returning(d)]
    return _lowest(d, slots, moved + returns, _number_newcomers(newcomers), c)


def _check_standings(standings: Mapping[Key, Sequence[Standing]]) -> int:
    """The standings' pyramid is whole and each player is in the group he is ranked in; the lowest division."""
    for (d, g), table in standings.items():
        if not 1 <= g <= groups_in(d):
            raise InvalidInput(f"D{d} n'a que {groups_in(d)} groupes ; trouvé le groupe {g}")
        for s in table:
            if (s.player.division, s.player.group) != (d, g):
                raise InvalidInput(f"{s.player.name} est classé en D{d} groupe {g} mais sa fiche indique "
                                   f"division {_shown(s.player.division)}, groupe {_shown(s.player.group)}")
    lowest = max(d for d, _ in standings)
    missing = [f"D{d} groupe {g}" for d in range(1, lowest + 1) for g in range(1, groups_in(d) + 1)
               if (d, g) not in standings]
    if missing:
        raise InvalidInput(f"groupes sans joueurs : {', '.join(missing)} (chaque division d a 2^(d-1) groupes)")
    return lowest


def next_season(standings: Mapping[Key, Sequence[Standing]], newcomers: Sequence[Player] = (),
                returning: Sequence[Player] = (), seed: object = 0) -> NextSeason:
    """§4: who moves up, stays, goes down or is rescued, and next season's groups: stayers by circular
    permutation, pairs coming down (7th + 10th, 8th + 9th) and two 1sts + two 2nds coming up drawn into
    groups, returning players where there is a place, new players dealt in a snake by Elo into the lowest
    division. ``standings``: each group's standings by (division, group), its players carrying that division
    and group; draws follow ``seed``.

    A returning player comes back « dans la division dans laquelle il se serait trouvé … (ou dans la division
    la plus proche possible) » (source « Retrait du championnat »): without a place at his level, the nearest
    division with one, below or above (above: a place nobody else could fill; at equal distance, above)."""
    if not standings:
        return _first_season(list(newcomers) + list(returning), random.Random(f"torres-saison-suivante:{seed}"))
    lowest = _check_standings(standings)
    home = {p.name: min(p.division or lowest, lowest) for p in by_elo(returning)}
    levels = dict(home)
    for _ in range(len(returning) * lowest + 1):
        result, holes = _compose(standings, newcomers, returning, levels, seed)
        closer = _closer_above(result, holes, home, levels)
        if closer is None:
            break
        levels[closer[0]] = closer[1]
    return result


def _closer_above(result: NextSeason, holes: Mapping[int, int], home: Mapping[str, int],
                  levels: Mapping[str, int]) -> tuple[str, int] | None:
    """A returning player placed farther from his level than a division above with places nobody could fill,
    and that division (the nearest); None when there is none."""
    at = {m.player.name: m.division for m in result.movements if m.move in (Move.RETURNING, Move.WAITING)}
    for name, level in home.items():
        placed = at.get(name)
        distance = abs(placed - level) if placed is not None else 10 ** 9
        above = [a for a, short in holes.items() if short > 0 and a < levels[name] and level - a <= distance]
        if above:
            return name, max(above)
    return None


def _compose(standings: Mapping[Key, Sequence[Standing]], newcomers: Sequence[Player],
             returning: Sequence[Player], levels: Mapping[str, int], seed: object) -> tuple[NextSeason, dict[int, int]]:
    """§4: next season, returning players looking first in the division ``levels`` gives them; and the places
    of each division that nobody could fill."""
    rng = random.Random(f"torres-saison-suivante:{seed}")
    returning_at: dict[int, list[Player]] = defaultdict(list)
    for p in by_elo(returning):
        returning_at[levels[p.name]].append(p)
    c = _Composer(standings, rng, returning_at)
    groups: dict[Key, list[Movement]] = {}
    for d in range(1, c.lowest):
        for j, slot in enumerate(_division(c, d), start=1):
            groups[d, j] = slot
    groups.update(_lowest_division(c, c.lowest, newcomers))
    for (d, j), slot in groups.items():
        for i, m in enumerate(slot):
            slot[i] = Movement(m.player, m.move, m.standing, d, j, m.origin)
            c.moves[m.player.name] = slot[i]
    for m in c.waiting:
        c.moves[m.player.name] = m
    for s in chain.from_iterable(c.downs.values()):
        if s.player.name not in c.moves:
            c.moves[s.player.name] = Movement(s.player, Move.DOWN, s)
    movements = _movement_order(standings, c.moves, newcomers, returning)
    for key in groups:
        groups[key].sort(key=_slot_order)
    return NextSeason(movements, dict(sorted(groups.items())), c.warnings), c.holes


def _shown(number: int | None) -> str:
    """A division or group as the message shows it: « vide » when missing."""
    return "vide" if number is None else str(number)


def _kind(s: Standing, d: int) -> Move:
    """The move of a player placed in division d beyond the usual places."""
    came = s.player.division or d
    return Move.DOWN if came < d else Move.UP if came > d else Move.RESCUED


def _zone(d: int, lowest: int) -> int:
    """Last position of a group that keeps or improves its division (§4), before repêchages."""
    if d == lowest:
        return 10 ** 9
    return STAY_D1 if d == 1 else UP + STAY


def _placed(items: Sequence[Standing], position: int) -> Standing | None:
    return next((s for s in items if s.position == position), None)


def _at(items: Sequence[Standing], index: int) -> Standing | None:
    return items[index] if index < len(items) else None


def _fill_holes(slots: list[list[Movement]], arrivals: list[Movement], rng: random.Random) -> None:
    """Players filling vacant places go, drawn, to the groups short of ten (the smallest first)."""
    arrivals = list(arrivals)
    rng.shuffle(arrivals)
    holes = [j for j, slot in enumerate(slots) for _ in range(GROUP_SIZE - len(slot))]
    rng.shuffle(holes)
    for m, j in zip(arrivals, holes):
        slots[j].append(m)
    for m in arrivals[len(holes):]:
        min(slots, key=len).append(m)


def _number_newcomers(newcomers: Sequence[Player]) -> list[Movement]:
    """New players by Elo, named n1, n2… as in the source's example (§4)."""
    return [Movement(p, Move.NEW, origin=f"n{i}") for i, p in enumerate(by_elo(newcomers), start=1)]


def _opens(d: int, count: int) -> bool:
    """Whether ``count`` players beyond the lowest division's groups of ten open division d: each of its
    2 ** (d - 1) groups must get a match's worth of players (a division of mostly empty groups never opens)."""
    return count >= MATCH_SIZE * groups_in(d)


def _deal_all(slots: list[list[Movement]], incoming: list[Movement], rng: random.Random) -> None:
    """:func:`_deal` of ``incoming``: the returning (and coming-down) players first, then the new ones."""
    _deal(slots, [m for m in incoming if m.move is not Move.NEW], [m for m in incoming if m.move is Move.NEW], rng)


def _overflow(d: int, beyond: list[Movement], groups: dict[Key, list[Movement]], c: _Composer) -> None:
    """§4: players past ten per group in the lowest division D{d}: a D{d+1} opens if its groups can all play (or
    players coming down must have a place), else they wait for a later season."""
    if not beyond:
        return
    must = [m for m in beyond if m.move not in (Move.NEW, Move.RETURNING)]
    if must or _opens(d + 1, len(beyond)):
        more: list[list[Movement]] = [[] for _ in range(groups_in(d + 1))]
        _deal_all(more, beyond, c.rng)
        groups.update({(d + 1, j): slot for j, slot in enumerate(more, start=1)})
        c.warnings.append(f"Plus de {GROUP_SIZE} joueurs par groupe en D{d} : une D{d + 1} de {len(more)} groupes "
                          f"s'ouvre pour {len(beyond)} joueurs.")
    else:
        c.waiting += [Movement(m.player, Move.WAITING, origin=m.origin) for m in beyond]
        c.warnings.append(_waiting_warning(d, [m.player.name for m in beyond]))


def _lowest(d: int, slots: list[list[Movement]], back: list[Movement], news: list[Movement],
            c: _Composer) -> dict[Key, list[Movement]]:
    """§4: the lowest division: returning players, then new players dealt in a snake by Elo into
    mini-groups, each drawn into a group, groups « équilibrés en nombre de joueurs »; past ten per group,
    a new division opens if its groups can all play, else the last by priority wait for a later season."""
    G = len(slots)
    room = max(0, GROUP_SIZE * G - sum(len(s) for s in slots))
    incoming = back + news
    here, beyond = incoming[:room], incoming[room:]
    _deal_all(slots, here, c.rng)
    groups = {(d, j): slot for j, slot in enumerate(slots, start=1)}
    _overflow(d, beyond, groups, c)
    c.warnings += _size_warnings(groups, " la saison prochaine")
    return groups


def _waiting_warning(d: int, names: Sequence[str]) -> str:
    """Players left without a place: the groups of D{d} are full and D{d+1} cannot open for so few."""
    n = len(names)
    return (f"{n} joueur{'s' if n > 1 else ''} sans place la saison prochaine (en attente) : les groupes de la "
            f"D{d} sont complets et une D{d + 1} de {groups_in(d + 1)} groupes ne s'ouvre qu'à partir de "
            f"{MATCH_SIZE * groups_in(d + 1)} joueurs ({MATCH_SIZE} par groupe) : {', '.join(names)}.")


def _size_warnings(groups: Mapping[Key, list[Movement]], when: str) -> list[str]:
    """Groups too small for a match, and sizes without a schedule where every pair meets twice (§1)."""
    warnings = []
    by_size: dict[tuple[int, int], list[int]] = defaultdict(list)
    for (d, j), slot in groups.items():
        if len(slot) < MATCH_SIZE:
            warnings.append(f"D{d} groupe {j} : {len(slot)} joueur{'s' if len(slot) > 1 else ''} seulement{when}.")
        elif len(slot) <= GROUP_SIZE and schedule_note(len(slot)):
            by_size[d, len(slot)].append(j)
    for (d, size), which in sorted(by_size.items()):
        named = f"groupe{'s' if len(which) > 1 else ''} {', '.join(map(str, which))}"
        warnings.append(f"D{d} {named} : {size} joueurs{when} ; {schedule_note(size)}.")
    return warnings


def _deal(slots: list[list[Movement]], back: list[Movement], news: list[Movement], rng: random.Random) -> None:
    """Returning players to the smallest groups, then new players in a snake, mini-groups drawn (§4); groups
    too large to end balanced first give up players (:func:`_trim`), placed like returning ones."""
    order = list(range(len(slots)))
    rng.shuffle(order)
    back = _trim(slots, len(back) + len(news), order) + back
    for m, j in zip(back, _spread([len(s) for s in slots], len(back), order)):
        slots[j].append(m)
    taken = _balance([len(s) for s in slots], len(news), order)
    mini = snake(len(news), [taken[g] for g in order])  # mini-group i goes to the drawn group order[i]
    for m, i in zip(news, mini):
        slots[order[i]].append(m)


def _trim(slots: list[list[Movement]], incoming: int, order: Sequence[int]) -> list[Movement]:
    """§4 (« Les groupes de la division la plus basse devront être équilibrés en nombre de joueurs »): take out
    of each group what it has beyond its balanced size once ``incoming`` more are dealt, the largest groups
    keeping the extra ones; first its own division's players placed below the 6th, then the worst placed."""
    total = sum(len(s) for s in slots) + incoming
    base, more = divmod(total, len(slots))
    rank = {g: i for i, g in enumerate(order)}
    largest = sorted(range(len(slots)), key=lambda j: (-len(slots[j]), rank[j]))
    cap = {j: base + (1 if i < more else 0) for i, j in enumerate(largest)}
    out: list[Movement] = []
    for j in sorted(range(len(slots)), key=lambda j: rank[j]):
        while len(slots[j]) > cap[j]:
            m = max(slots[j], key=_trim_order)
            slots[j].remove(m)
            out.append(m)
    return out


def _trim_order(m: Movement) -> tuple[int, int]:
    """Who a group gives up first to balance the lowest division (highest first)."""
    s = m.standing
    if s is None:
        return (3, 0)
    own = m.move in (Move.STAY, Move.RESCUED)  # a player of this division (not one coming down)
    return (2 if own and s.position > UP + STAY else 1 if own else 0, s.position)


def _spread(sizes: list[int], count: int, order: Sequence[int]) -> list[int]:
    taken = _balance(sizes, count, order)
    return [g for g in order for _ in range(taken[g])]


def _first_season(players: list[Player], rng: random.Random) -> NextSeason:
    """§4 (source « Répartition des groupes »): the first season fills D1, D2… by Boîte à Jeux Elo;
    each division's players are dealt in a snake into its groups; a division below D1 opens only if each of
    its groups gets a match's worth of players, the others wait."""
    news = _number_newcomers(players)
    groups: dict[Key, list[Movement]] = {}
    d, start = 1, 0
    while start < len(news) and (d == 1 or _opens(d, len(news) - start)):
        size = GROUP_SIZE * groups_in(d)
        chunk = news[start:start + size]
        slots: list[list[Movement]] = [[] for _ in range(groups_in(d))]
        _deal(slots, [], chunk, rng)
        for j, slot in enumerate(slots, start=1):
            groups[d, j] = [Movement(m.player, Move.NEW, None, d, j, m.origin) for m in slot]
        start += size
        d += 1
    warnings = _size_warnings(groups, "")
    waiting = [Movement(m.player, Move.WAITING, origin=m.origin) for m in news[start:]]
    if waiting:
        warnings.append(_waiting_warning(d - 1, [m.player.name for m in waiting]))
    movements = [m for slot in groups.values() for m in slot]
    movements.sort(key=lambda m: (m.division, m.group, _slot_order(m)))
    for key in groups:
        groups[key].sort(key=_slot_order)
    return NextSeason(movements + waiting, groups, warnings)


_KIND_ORDER = {Move.UP: 2, Move.STAY: 0, Move.RESCUED: 0, Move.DOWN: 1, Move.RESCUED_UP: 2, Move.RETURNING: 3,
               Move.NEW: 4}


def _slot_order(m: Movement) -> tuple[int | str, ...]:
    """A group's players as the source lists them: from above, stayers, from below, returning, new."""
    s = m.standing
    if s is None:
        return (_KIND_ORDER.get(m.move, 5), 0, 0, 0, int(m.origin[1:]) if m.origin.startswith("n") else 0,
                fold(m.player.name))
    came = s.player.division or 0
    kind = 0 if came < (m.division or 0) else 2 if came > (m.division or 0) else 1  # above, same, below
    return (kind, s.position, came, s.player.group or 0, 0, fold(m.player.name))


# --- From one season to the next: the roster of next season's workbook ----------------------------


@dataclass(frozen=True)
class Carried:
    """A line of next season's ``Joueurs`` table: a player, his Elo (this season's, until the organiser types the
    new season's), his division and group, and his status."""

    name: str
    elo: float
    division: int | None
    group: int | None
    status: Status


def return_division(standing: Standing, lowest: int) -> int:
    """Source « Retrait du championnat »: a withdrawn player « sera réintégré dans la division dans laquelle il se
    serait trouvé au début de la saison suivante »: the one his place gave (§4: the two best of a group below D1
    move up, the 1st-6th of D1 and the 3rd-6th elsewhere stay, the others go down; the lowest division keeps
    everyone but those moving up)."""
    d = standing.player.division or lowest
    if d > 1 and standing.position <= UP:
        return d - 1
    if d >= lowest or standing.position <= _zone(d, lowest):
        return d
    return d + 1


def carry_over(players: Sequence[Player], standings: Mapping[Key, Sequence[Standing]],
               following: NextSeason) -> list[Carried]:
    """§4, for next season's workbook: everyone placed in next season's groups plays there (status « actif »);
    a new or returning player still waiting keeps his status (« Les retours … sont toutefois prioritaires »);
    a forfeit player leaves (« parti »), and « pourra se réinscrire …, mais y accèdera par la division la plus
    basse » (no division kept: he comes back « nouveau »); a withdrawn player leaves with the division he
    would have been in (:func:`return_division`), where he comes back « retour »; a player who had left stays
    so. In next season's order: groups by division then group, then the others in this season's order."""
    lowest = max((d for d, _ in standings), default=1)
    out: list[Carried] = []
    placed: set[str] = set()
    for (d, g), members in following.groups.items():
        for member in members:
            out.append(Carried(member.player.name, member.player.elo, d, g, Status.ACTIVE))
            placed.add(member.player.name)
    moves = {m.player.name: m for m in following.movements}
    for p in players:
        if p.name in placed:
            continue
        m = moves.get(p.name)
        if p.status is Status.LEFT or (m is not None and m.move is Move.WAITING):
            out.append(Carried(p.name, p.elo, p.division, None, p.status))
        elif m is not None and m.move is Move.FORFEIT:
            out.append(Carried(p.name, p.elo, None, None, Status.LEFT))
        elif m is not None and m.standing is not None:
            out.append(Carried(p.name, p.elo, m.division or return_division(m.standing, lowest), None, Status.LEFT))
    return out


def _movement_order(standings: Mapping[tuple[int, int], Sequence[Standing]], moves: dict[str, Movement],
                    newcomers: Sequence[Player], returning: Sequence[Player]) -> list[Movement]:
    """Movements in standings order (division, group, position), then returning and new players."""
    ordered = [moves[s.player.name] for key in sorted(standings) for s in standings[key]]
    ordered += [moves[p.name] for p in chain(by_elo(returning), by_elo(newcomers))]
    return ordered
'''

# --- xlcircuit/udfs.py -------------------------------------------------------------------------------
_SOURCES['xlcircuit.udfs'] = False, r'''
"""The Excel functions under the module name that starter workbooks and xlwings Lite files already
handed out name (``UDF Modules: xlcircuit.udfs``, ``from xlcircuit.udfs import …``). They live in
:mod:`xlcircuit.excel.udfs`."""

from .excel.udfs import *  # noqa: F403
from .excel.udfs import __all__  # noqa: F401
'''

# --- xlcircuit/workbook/__init__.py ------------------------------------------------------------------
_SOURCES['xlcircuit.workbook'] = True, r'''
"""The table framework: how a federation's workbook is read and written, knowing no federation.

- :mod:`.spec`: a table's spec (sheet, name, columns), a row read (:class:`~.spec.Record`), the problems
  found (:class:`~.spec.Problems`), a table ready to write (:class:`~.spec.Output`);
- :mod:`.cells`: what an organiser types, parsed (places, numbers, dates, yes/no), and values written so
  that text stays text;
- :mod:`.read`: input tables found by name and header text, rows typed under them taken in;
- :mod:`.write` and :mod:`.layout`: output tables rewritten in place, and their published look (A4);
- :mod:`.sheets`: the sheets the federations share (front sheet, Paramètre/Valeur, Joueurs);
- :mod:`.wording`: the French the adapters share;
- :mod:`.procedure`: the fill every federation shares (read with located problems, summarise with the
  rules, write, decorate);
- :mod:`.adapter`: the base class of a federation's adapter (``xlcircuit.federations.<code>``).
"""
'''

# --- xlcircuit/workbook/adapter.py -------------------------------------------------------------------
_SOURCES['xlcircuit.workbook.adapter'] = False, r'''
"""The base class of a federation's workbook adapter: what every federation declares, and default hooks
for what only some have (TORRES' group tables and calendar).

A federation's module (``xlcircuit.federations.<code>``) declares its tables and its three steps of the
shared procedure (:class:`.procedure.Steps`), then ends with its adapter: a subclass of :class:`Adapter`
naming them and overriding only the hooks it needs, and ``ADAPTER``, its one instance.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from openpyxl.workbook.workbook import Workbook

from ..rules.errors import WorkbookProblems, XlcircuitError
from ..xlsx import Book
from .journal import Tracked
from .procedure import Progress, Steps, quiet
from .register import Register, read_register
from .seasons import Carry, Honours, next_workbook
from .sources.mapping import Importer
from .spec import Output, Problems, TableSpec

if TYPE_CHECKING:  # the record of a federation, named for the type checker only (the framework knows none)
    from ..federations import Federation


class Adapter:
    """A federation's workbook: its tables, its steps, and the hooks the use cases call."""

    info: ClassVar[Federation]  # code, French title, template, example file
    inputs: ClassVar[tuple[TableSpec, ...]]  # the tables the organiser fills in (named by ``xlcircuit new``)
    standings: ClassVar[TableSpec]  # the main standings: PDF, per-club highlight
    lines: ClassVar[TableSpec]  # the per-result lines a club receives
    steps: ClassVar[Steps[Any, Any]]  # read, summarise, outputs (and decorate) of the shared procedure
    players: ClassVar[TableSpec]  # its ``Joueurs`` table: the register of players
    parameters: ClassVar[TableSpec]  # its Paramètre/Valeur table, on the first sheet
    #: What a ``Joueurs`` line needs besides a name (a line ``xlcircuit fusion`` adds has nothing else).
    player_needs: ClassVar[tuple[str, ...]] = ()
    #: What an imported line maps to (``xlcircuit import``); None: the federation imports nothing.
    importer: ClassVar[Importer | None] = None

    @property
    def code(self) -> str:
        return self.info.code

    @property
    def title(self) -> str:
        return self.info.name

    @property
    def template(self) -> str:
        """The file name of its template, in ``workbooks/``."""
        return self.info.template

    @property
    def example(self) -> str:
        """The file name ``xlcircuit demo`` writes."""
        return self.info.example

    # --- what every federation writes itself -----------------------------------------------------------

    def new_workbook(self) -> Workbook:
        """A fresh, empty season workbook (the template)."""
        raise NotImplementedError

    def put_example(self, wb: Workbook) -> None:
        """Type the bundled example into the input tables of a fresh workbook."""
        raise NotImplementedError

    def report(self, summary: Any) -> list[str]:
        """What ``check`` and ``fill`` print (French): the verdict's end, then the top of the standings."""
        raise NotImplementedError

    def explain(self, summary: Any, wanted: str) -> list[str]:
        """``xlcircuit explain``: a player's points, result by result, up to his total (French)."""
        raise NotImplementedError

    @property
    def tracked(self) -> Tracked:
        """What the journal and ``xlcircuit diff`` compare (its result lines and its standings)."""
        if self.steps.journal is None:
            raise XlcircuitError(f"« {self.title} » ne compare pas deux remplissages.")
        return self.steps.journal.tracked

    def honours(self, summary: Any) -> Honours:
        """The season's line of the palmarès: its name, its podium, the federation's other titles."""
        raise NotImplementedError

    def carry(self, summary: Any, register: Register) -> Carry:
        """What next season's workbook takes from this season: its parameters and ``Joueurs`` rows."""
        raise NotImplementedError

    # --- season after season ---------------------------------------------------------------------------------

    def next_workbook(self, book: Book, summary: Any) -> tuple[Workbook, list[str]]:
        """Next season's workbook, from ``book`` (this season's, computed as ``summary``): the federation's
        template with the register, the palmarès and what the federation carries over typed in; and what was
        carried, in French."""
        problems = Problems()
        register = read_register(book, self.players, problems)
        if problems:
            raise WorkbookProblems(problems.items)
        return next_workbook(self.new_workbook(), book, self.parameters, self.players, self.carry(summary, register),
                             self.honours(summary))

    # --- the shared procedure ----------------------------------------------------------------------------

    def compute(self, book: Book, progress: Progress = quiet) -> Any:
        """Read, check, compute: a summary (``warnings``, ``clubs`` and the federation's results);
        :class:`~xlcircuit.rules.errors.WorkbookProblems` lists every problem."""
        return self.steps.compute(book, progress)

    def fill(self, book: Book, progress: Progress = quiet) -> Any:
        """Compute, then rewrite the published tables (in memory; ``book.save`` writes them)."""
        return self.steps.fill(book, progress)

    def outputs(self, summary: Any, club: str | None = None, day: dt.date | None = None) -> list[Output]:
        """The published tables of a summary: the podium highlighted, or a club's players."""
        return self.steps.outputs(summary, club, day)

    # --- hooks only some federations have ---------------------------------------------------------------

    def group_outputs(self, summary: Any, club: str | None = None, day: dt.date | None = None) -> list[Output]:
        """Tables laid out apart from the published ones (TORRES' group tables): none by default."""
        return []

    def write_groups(self, wb: Workbook, groups: Sequence[Output], problems: Problems) -> None:
        """Lay out :meth:`group_outputs` in ``wb`` (a club's workbook, a PDF's copy)."""

    #: Whether ``xlcircuit schedule`` draws a calendar for this federation.
    schedules: ClassVar[bool] = False

    def schedule(self, book: Book, seed: int | None = None) -> list[str]:
        """``xlcircuit schedule``: draw the calendar into the workbook; returns the French report lines."""
        raise XlcircuitError(f"{book.path.name} est un classeur « {self.title} » : il n'a pas de calendrier "
                             "à tirer (seul le championnat TORRES en a un).")
'''

# --- xlcircuit/workbook/cells.py ---------------------------------------------------------------------
_SOURCES['xlcircuit.workbook.cells'] = False, r'''
"""Cell values in and out: what an organiser types, parsed (places, numbers, dates, yes/no), each
refusal an :class:`~xlcircuit.rules.errors.InvalidInput` in French; and a value written so that text stays text."""

from __future__ import annotations

import datetime as dt
import math

from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

from ..rules import limits
from ..rules.errors import InvalidInput
from ..rules.text import clean, fold, place_number, whole_number

#: First characters that make a spreadsheet read text as a formula.
FORMULA_STARTS = ("=", "+", "-", "@")


def shown(value: object) -> str:
    """A typed value as a message quotes it: text between « », anything else as it is."""
    return f"« {value} »" if isinstance(value, str) else str(value)


def as_text(value: object) -> str | None:
    """A name as typed: spaces trimmed and collapsed, accents and case kept; a number as written."""
    if value is None:
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, (dt.datetime, dt.date)):
        value = value.strftime("%d/%m/%Y")
    return clean(str(value)) or None


#: The largest place, count or number a table takes (:mod:`xlcircuit.limits`).
MAX_WHOLE = limits.MAX_PLACE


def as_positive_int(value: object, what: str = "place") -> int | None:
    """A positive whole number up to MAX_WHOLE (``3``, ``3.0`` or the text ``"3"``; for a place, a French
    ordinal too: ``1er``, ``2e``, ``3ème``, and a tie as rankings write it: ``3 ex``, ``ex 3``, ``3=``);
    None for a blank."""
    if value is None:
        return None
    number = place_number(value) if what == "place" else whole_number(value)
    if number is None or number < 1:
        raise InvalidInput(f"{what} attendue : un entier positif (1, 2, 3…) ; trouvé {shown(value)}")
    if number > MAX_WHOLE:
        raise InvalidInput(f"{what} attendue : un entier de 1 à {MAX_WHOLE} ; trouvé {shown(value)}")
    return number


def as_whole(value: object, what: str, low: int, high: int) -> int | None:
    """A whole number from ``low`` to ``high`` (``3``, ``3.0`` or the text ``"3"``); None for a blank."""
    if value is None:
        return None
    number = whole_number(value)
    if number is None or not low <= number <= high:
        raise InvalidInput(f"{what} attendu : un entier de {low} à {high} ; trouvé {shown(value)}")
    return number


def as_number(value: object, what: str = "nombre") -> float | None:
    """A number (text with a decimal comma accepted); None for a blank."""
    if value is None:
        return None
    if isinstance(value, str):
        try:
            number = float(value.replace(",", ".").replace(" ", ""))
        except ValueError:
            pass
        else:
            if math.isfinite(number):  # "nan", "inf" and "1e400" are text, not numbers
                return number
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        try:
            number = float(value)
        except OverflowError:  # a whole number of hundreds of digits: no number a table takes
            number = math.inf
        if math.isfinite(number):
            return number
    raise InvalidInput(f"{what} attendu ; trouvé {shown(value)}")


_YES = {"oui", "o", "x", "vrai", "true", "yes", "1"}


_NO = {"non", "n", "faux", "false", "no", "0"}


def as_yes_no(value: object) -> bool:
    """``oui`` (or x, vrai, TRUE, 1) is True; blank or ``non`` (or faux, FALSE, 0) is False."""
    if value is None or isinstance(value, bool):
        return bool(value)
    if isinstance(value, (int, float)) and value in (0, 1):
        return bool(value)
    key = fold(str(value))
    if key in _YES:
        return True
    if key in _NO:
        return False
    raise InvalidInput(f"« oui » ou vide attendu ; trouvé {shown(value)}")


def as_date(value: object) -> dt.date | None:
    """A date cell, or a date typed as text (``13/09/2025`` or ``2025-09-13``); None for a blank."""
    if value is None:
        return None
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    if isinstance(value, str):
        for pattern in ("%d/%m/%Y", "%Y-%m-%d", "%d/%m/%y", "%d-%m-%Y", "%d.%m.%Y"):
            try:
                return dt.datetime.strptime(value.strip(), pattern).date()
            except ValueError:
                continue
    raise InvalidInput(f"date attendue (jj/mm/aaaa) ; trouvé {shown(value)}")


#: Excel's error values as files store them (in English whatever the language), with what a French Excel
#: shows and what each means. A cell showing one holds no data: a failed lookup, a deleted reference...
ERROR_VALUES = {
    "#N/A": ("#N/A", "valeur non disponible : souvent une recherche (RECHERCHEV, INDEX/EQUIV) qui n'a rien trouvé"),
    "#REF!": ("#REF!", "référence à des cellules supprimées"),
    "#VALUE!": ("#VALEUR!", "formule appliquée à une valeur du mauvais type"),
    "#DIV/0!": ("#DIV/0!", "division par zéro"),
    "#NAME?": ("#NOM?", "nom de fonction ou de plage inconnu"),
    "#NUM!": ("#NOMBRE!", "nombre impossible"),
    "#NULL!": ("#NUL!", "intersection vide de deux plages"),
    "#SPILL!": ("#PROPAGATION!", "résultat matriciel qui ne peut pas s'étendre"),
    "#CALC!": ("#CALC!", "calcul impossible"),
    "#GETTING_DATA": ("#OBTENTION_DONNEES", "données encore en cours de chargement"),
    "#FIELD!": ("#CHAMP!", "champ introuvable"),
    "#BLOCKED!": ("#BLOQUE!", "accès bloqué"),
    "#CONNECT!": ("#CONNEXION!", "connexion impossible"),
    "#BUSY!": ("#OCCUPE!", "calcul en cours"),
    "#UNKNOWN!": ("#INCONNU!", "type de donnée inconnu"),
    "#PYTHON!": ("#PYTHON!", "erreur d'une formule Python"),
    "#EXTERNAL!": ("#EXTERNE!", "erreur d'une source externe"),
}


def error_value(value: object, data_type: str | None = None) -> str | None:
    """The error value a cell shows (``#N/A``, ``#REF!``…), as files store it; None for a value.

    ``data_type`` is the cell's (``e``: an error cell, whatever its text, e.g. LibreOffice's ``Err:502``). An
    error typed as text (a pasted ``#N/A``) is one too: no name or number reads like that."""
    if not isinstance(value, str):
        return None
    text = value.strip()
    if text.upper() in ERROR_VALUES:
        return text.upper()
    return (text or "#N/A") if data_type == "e" else None


def error_message(error: str, formula: bool) -> str:
    """What a located problem says of a cell showing an error value: what it is, and what to do."""
    french, meaning = ERROR_VALUES.get(error, (error, "erreur du tableur"))
    shows = error if french == error else f"{error} (« {french} » dans Excel en français)"
    if formula:
        return (f"la formule de cette cellule donne l'erreur {shows} : {meaning} ; une donnée est attendue : "
                "corrigez la formule (ou remplacez-la par la valeur), enregistrez, puis relancez")
    return (f"la cellule contient l'erreur {shows} ({meaning}), sans doute collée comme valeur ; une donnée est "
            "attendue : tapez la bonne valeur, enregistrez, puis relancez")


def put(cell, value: object, number_format: str | None = None) -> None:
    """Write a value; text always stays text (``=HYPERLINK(…)`` as a name is never a formula)."""
    # The format goes first: a date written into a General cell would get openpyxl's yyyy-mm-dd.
    if number_format and cell.number_format != number_format:
        cell.number_format = number_format
    if isinstance(value, str):
        text = ILLEGAL_CHARACTERS_RE.sub("", value)
        cell.value = text
        cell.data_type = "s"
        quoted = text.startswith(FORMULA_STARTS)
        if cell.quotePrefix != quoted:
            cell.quotePrefix = quoted
    else:
        cell.value = value
        if cell.quotePrefix:
            cell.quotePrefix = False


def clean_text(text: str) -> tuple[str, bool]:
    """A text as a cell takes it (no character XML forbids, at most 32,767 long), and whether it starts like a
    formula (then it is written with a quote prefix: it stays text)."""
    text = ILLEGAL_CHARACTERS_RE.sub("", text)[:32767]
    return text, text.startswith(FORMULA_STARTS)

'''

# --- xlcircuit/workbook/journal.py -------------------------------------------------------------------
_SOURCES['xlcircuit.workbook.journal'] = False, r'''
"""What changed: between the standings a workbook published and those a fill publishes now, and between two
filled workbooks (``xlcircuit diff``).

A federation names the tables to compare (:class:`Tracked`): its table of result lines (which columns name a
tournament, a result in it, and what the result is) and its standings (the player, his rank, his total).
The comparison (:func:`compare`) says, per tournament, the results added, changed and removed, and the players
whose rank or total moved, old → new. Every fill whose inputs changed appends it to the ``Journal`` table
(:func:`journal_output`), with the date, a digest of the inputs and the warnings; a refill of unchanged inputs
leaves the journal as it was (the workbook stays byte for byte the same).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..rules.mechanics import round_half_up
from ..rules.text import clean
from ..xlsx import Book, Unsupported, table_values
from .read import bounds, cells_in, find_table, inputs_digest
from .register import located
from .spec import Column, Output, TableSpec
from .wording import count, decimal_comma

JOURNAL_SHEET = "Journal"
JOURNAL = TableSpec(JOURNAL_SHEET, "Journal", (
    Column("Date", width=17, number_format="dd/mm/yyyy hh:mm"),
    Column("Empreinte", width=14),
    Column("Rubrique", width=12),
    Column("Objet", width=34),
    Column("Détail", width=100),
))
#: The journal's « Rubrique » of each kind of row.
FILLED, RESULTS, STANDINGS, WARNING = "remplissage", "résultats", "classement", "à vérifier"
#: Names listed in one row before « … et N autres ».
LISTED = 25


@dataclass(frozen=True)
class Tracked:
    """What a federation's journal and ``diff`` compare: its result lines (the columns naming the tournament, a
    result in it, and the result as typed) and its standings (player, rank, total)."""

    lines: TableSpec
    group: tuple[str, ...]
    key: tuple[str, ...]
    result: tuple[str, ...]
    standings: TableSpec
    player: str
    rank: str
    total: str

    @property
    def line_headers(self) -> tuple[str, ...]:
        """The columns of the result lines compared (the others are not read)."""
        return (*self.group, *self.key, *self.result)

    @property
    def standing_headers(self) -> tuple[str, ...]:
        return (self.player, self.rank, self.total)


@dataclass
class Changes:
    """The comparison of two fills: per tournament what happened to its results, and who moved."""

    results: list[tuple[str, str]] = field(default_factory=list)  # (tournament, what changed)
    moves: list[tuple[str, str]] = field(default_factory=list)  # (player, old → new)
    first: bool = False  # nothing published before

    def __bool__(self) -> bool:
        return bool(self.results or self.moves)


Row = dict[str, object]


def rows_of(grid: Sequence[Sequence[object]] | None, headers: Sequence[str] | None = None) -> list[Row] | None:
    """A table read as a grid (header first) as rows by header (only ``headers`` when given), blank rows left out;
    None for no table."""
    if grid is None:
        return None
    if not grid:
        return []
    header = [clean(str(h)) if h is not None else "" for h in grid[0]]
    kept = [i for i, h in enumerate(header) if headers is None or h in headers]
    names = [header[i] for i in kept]
    rows = []
    for row in grid[1:]:
        values = [row[i] if i < len(row) else None for i in kept]
        if any(v is not None and v != "" for v in values):
            rows.append(dict(zip(names, values)))
    return rows


def output_rows(output: Output, headers: Sequence[str] | None = None) -> list[Row]:
    """A published table about to be written, as rows by header (only ``headers`` when given)."""
    return rows_of([[c.header for c in output.columns], *output.rows], headers) or []


def _norm(value: object) -> object:
    """A cell's value as compared: text trimmed, whole floats as integers, dates without midnight."""
    if isinstance(value, str):
        text = clean(value)
        return text or None
    if isinstance(value, bool):
        return value
    if isinstance(value, float):
        # A comparison key: the noise past 9 decimals dropped, halves up as everything published.
        return int(value) if value.is_integer() else round_half_up(value, 9)
    if isinstance(value, dt.datetime) and value.time() == dt.time():
        return value.date()
    return value


def _digits(number_format: str | None) -> int:
    match = re.search(r"0\.(0+)", number_format or "")
    return len(match.group(1)) if match else 0


def _shown(value: object, digits: int = 0) -> str:
    value = _norm(value)
    if value is None:
        return "vide"
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return decimal_comma(float(value), digits) if digits or isinstance(value, float) else str(value)
    if isinstance(value, dt.datetime):
        return f"{value:%d/%m/%Y %H:%M}"
    if isinstance(value, dt.date):
        return f"{value:%d/%m/%Y}"
    return str(value)


def _label(headers: Sequence[str], values: Sequence[object]) -> str:
    """A tournament or a result named from its columns: a name as it is, a number after its header."""
    parts = [str(v) if h in ("Tournoi", "Joueur") or (isinstance(v, str) and not v.isdigit()) else f"{h} {_shown(v)}"
             for h, v in zip(headers, values) if v is not None]
    return ", ".join(parts) or "?"


def _listed(items: list[str]) -> str:
    shown = ", ".join(items[:LISTED])
    return shown + (f" … et {len(items) - LISTED} autres" if len(items) > LISTED else "")


def _by_group(tracked: Tracked, rows: list[Row]) -> dict[tuple, dict[tuple, tuple]]:
    """Group -> result key (with its occurrence, for a player's second line) -> the result's values."""
    groups: dict[tuple, dict[tuple, tuple]] = {}
    for row in rows:
        group = tuple(_norm(row.get(h)) for h in tracked.group)
        key = tuple(_norm(row.get(h)) for h in tracked.key)
        results = groups.setdefault(group, {})
        n = 1
        while key + (n,) in results:
            n += 1
        results[key + (n,)] = tuple(_norm(row.get(h)) for h in tracked.result)
    return groups


def _result_text(tracked: Tracked, values: tuple) -> str:
    return ", ".join(f"{h.lower()} {_shown(v)}" for h, v in zip(tracked.result, values) if v is not None)


def _group_changes(tracked: Tracked, old: dict[tuple, tuple], new: dict[tuple, tuple]) -> str | None:
    """What happened to one tournament's results, in words; None when nothing did."""
    def who(key: tuple) -> str:
        return _label(tracked.key, key[:-1]) + (f" ({key[-1]}e ligne)" if key[-1] > 1 else "")

    added = [f"{who(k)} ({_result_text(tracked, v)})" if _result_text(tracked, v) else who(k)
             for k, v in new.items() if k not in old]
    removed = [who(k) for k in old if k not in new]
    changed = []
    for k, v in new.items():
        if k in old and old[k] != v:
            moved = [f"{h.lower()} {_shown(a)} → {_shown(b)}" for h, a, b in zip(tracked.result, old[k], v) if a != b]
            changed.append(f"{who(k)} ({', '.join(moved)})")
    parts = [f"{count(len(items), word)} : {_listed(items)}"
             for items, word in ((added, "ajouté"), (changed, "modifié"), (removed, "retiré")) if items]
    return " ; ".join(parts) or None


def _standing(tracked: Tracked, rows: list[Row]) -> dict[object, tuple[object, object]]:
    found: dict[object, tuple[object, object]] = {}
    for row in rows:
        player = _norm(row.get(tracked.player))
        if player is not None and player not in found:
            found[player] = (_norm(row.get(tracked.rank)), _norm(row.get(tracked.total)))
    return found


def _moves(tracked: Tracked, old: list[Row], new: list[Row]) -> list[tuple[str, str]]:
    digits = next((_digits(c.number_format) for c in tracked.standings.columns if c.header == tracked.total), 0)
    before, after = _standing(tracked, old), _standing(tracked, new)

    def rank(value: object) -> str:
        return "sans rang" if value is None else _shown(value)

    def total(value: object) -> str:
        return _shown(value, digits)

    moves = []
    for player, (r, t) in after.items():
        if player not in before:
            placed = "sans rang" if r is None else f"{tracked.rank.lower()} {rank(r)}"
            moves.append((str(player), f"entre au classement : {placed}, {tracked.total.lower()} {total(t)}"))
            continue
        r0, t0 = before[player]
        parts = []
        if r0 != r:
            parts.append(f"{tracked.rank.lower()} {rank(r0)} → {rank(r)}")
        if total(t0) != total(t):
            parts.append(f"{tracked.total.lower()} {total(t0)} → {total(t)}")
        if parts:
            moves.append((str(player), " ; ".join(parts)))
    for player, (r0, t0) in before.items():
        if player not in after:
            placed = "sans rang" if r0 is None else f"{tracked.rank.lower()} {rank(r0)}"
            moves.append((str(player), f"sort du classement (était : {placed}, {tracked.total.lower()} {total(t0)})"))
    return moves


def compare(tracked: Tracked, old_lines: list[Row] | None, new_lines: list[Row], old_standings: list[Row] | None,
            new_standings: list[Row]) -> Changes:
    """What changed from the old tables (None or empty: never filled) to the new ones."""
    if not old_lines and not old_standings:
        return Changes(first=True)
    before, after = _by_group(tracked, old_lines or []), _by_group(tracked, new_lines)
    results = []
    for group in [*after, *(g for g in before if g not in after)]:
        text = _group_changes(tracked, before.get(group, {}), after.get(group, {}))
        if text:
            results.append((_label(tracked.group, group), text))
    return Changes(results, _moves(tracked, old_standings or [], new_standings))


def change_lines(changes: Changes) -> list[str]:
    """The comparison as text lines (``xlcircuit diff``), under a heading for results and one for standings."""
    if changes.first:
        return ["Premier remplissage : rien à comparer."]
    if not changes:
        return ["Aucun résultat ni classement n'a changé."]
    lines = []
    if changes.results:
        lines.append(f"Résultats ({count(len(changes.results), 'tournoi')}) :")
        lines += [f"  {group} : {text}" for group, text in changes.results]
    if changes.moves:
        lines.append(f"Classement ({count(len(changes.moves), 'joueur')}) :")
        lines += [f"  {player} : {text}" for player, text in changes.moves]
    return lines


# --- the Journal table ----------------------------------------------------------------------------------------


def previous_rows(book: Book, name: str, headers: Sequence[str] | None = None) -> list[Row] | None:
    """The rows a table of ``book`` holds on disk, before the fill rewrites it (None: no such table), ``headers``
    only when given. Read from the file (a surgical fill has not loaded them), else from openpyxl's model of the
    whole workbook."""
    if book.on_disk:  # the workbook open in xlwings Lite has no file: its model is all there is
        try:
            return rows_of(table_values(book.path, name, headers), headers)
        except (Unsupported, KeyError, ValueError, IndexError, StopIteration, OSError, SyntaxError):
            pass  # ParseError is a SyntaxError
        if book.surgical:
            raise Unsupported(f"table « {name} » illisible")
    found = find_table(book.wb, name)
    if found is None:
        return None
    ws, table = found
    area = bounds(table)
    if area is None:
        return None
    grid = [[None] * (area[2] - area[0] + 1) for _ in range(area[3] - area[1] + 1)]
    for cell in cells_in(ws, area):
        grid[cell.row - area[1]][cell.column - area[0]] = book.value(cell)
    return rows_of(grid, headers)


@dataclass(frozen=True)
class Journal:
    """A federation's journal: its title, what it compares, and the first line of its report."""

    title: str
    tracked: Tracked
    head: Callable[[Any], str]

    def output(self, book: Book, summary: Any, published: Sequence[Output], warnings: Iterable[str],
               now: dt.datetime | None = None) -> Output:
        """The ``Journal`` table this fill writes: its earlier rows, and this fill's when the inputs changed."""
        return journal_output(book, self, summary, published, warnings, now)


def journal_output(book: Book, journal: Journal, summary: Any, published: Sequence[Output], warnings: Iterable[str],
                   now: dt.datetime | None = None) -> Output:
    """The ``Journal`` table: the rows of earlier fills as they were; then, when the inputs' digest is not the last
    one recorded, this fill's: its summary, per tournament the results added, changed or removed, the players
    whose rank or total moved, and its warnings."""
    title = f"{journal.title} — journal des remplissages"
    digest = inputs_digest(book)
    try:
        old = previous_rows(book, JOURNAL.name) or []
    except Unsupported:
        old = []
    kept = [[row.get(c.header) for c in JOURNAL.columns] for row in old]
    last = next((str(row[1]) for row in reversed(kept) if row[1] is not None), None)
    if last == digest:
        return Output(JOURNAL, JOURNAL.columns, kept, title)
    when = (now or dt.datetime.now()).replace(second=0, microsecond=0)
    tracked = journal.tracked
    new = {output.spec.name: output for output in published}
    lines, standings = new.get(tracked.lines.name), new.get(tracked.standings.name)
    try:
        changes = compare(tracked, previous_rows(book, tracked.lines.name, tracked.line_headers),
                          output_rows(lines, tracked.line_headers) if lines else [],
                          previous_rows(book, tracked.standings.name, tracked.standing_headers),
                          output_rows(standings, tracked.standing_headers) if standings else [])
        unread = False
    except Unsupported:
        changes, unread = Changes(), True
    head = journal.head(summary)
    if unread:
        head += " Tables publiées précédentes illisibles : changements non comparés."
    elif changes.first:
        head += " Premier remplissage."
    elif not changes:
        head += " Aucun résultat ni classement changé."
    rows: list[list[object]] = [[when, digest, FILLED, None, head]]
    rows += [[when, digest, RESULTS, group, text] for group, text in changes.results]
    rows += [[when, digest, STANDINGS, player, text] for player, text in changes.moves]
    rows += [[when, digest, WARNING, None, warning] for warning in located(warnings, book.path.name)]
    return Output(JOURNAL, JOURNAL.columns, kept + rows, title)


__all__ = ["JOURNAL", "Changes", "Journal", "Tracked", "change_lines", "compare", "journal_output", "output_rows",
           "previous_rows", "rows_of"]
'''

# --- xlcircuit/workbook/layout.py --------------------------------------------------------------------
_SOURCES['xlcircuit.workbook.layout'] = False, r'''
"""The published look: titles, headers, marks, legends, widths that fit, and print setup (A4, text at
8 points or more, columns that do not fit on the next pages)."""

from __future__ import annotations

import datetime as dt
import functools
import itertools
from collections.abc import Iterable, Sequence
from copy import copy

from openpyxl.cell.cell import Cell
from openpyxl.formatting.rule import DataBarRule
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.styles.cell_style import StyleArray
from openpyxl.styles.fonts import DEFAULT_FONT
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.dimensions import ColumnDimension
from openpyxl.worksheet.worksheet import Worksheet

from .cells import put
from .read import table_bounds
from .spec import Mark, Output

TITLE_ROWS = 2  # a published table stands two rows under its title


TITLE_FONT = Font(bold=True, size=14)


HEADER_ALIGNMENT = Alignment(wrap_text=True, vertical="center")


HEADER_HEIGHT = 32  # points: two lines of header text


DATA_BAR_COLOUR = "5B9BD5"


def is_our_rule(rule) -> bool:
    """Whether a conditional format is one :func:`style_table` puts on a published table (its data bars, in
    our colour): rewritten at each fill. Every other rule is the organiser's, and stays."""
    bar = getattr(rule, "dataBar", None)
    colour = getattr(getattr(bar, "color", None), "rgb", None)
    return rule.type == "dataBar" and isinstance(colour, str) and colour.upper().endswith(DATA_BAR_COLOUR)


# --- print -----------------------------------------------------------------------------------
#: Paper: A4 (openpyxl's code 9), whatever the program's default (US Letter in LibreOffice here).
PAPER_A4 = 9


#: The smallest print scale (percent): 11-point cells then print at 8.8 points, above the 8-point floor.
MIN_SCALE = 80


#: How much wider than Calibri's the substitute fonts print (DejaVu Sans where Carlito is missing: 1.34).
WIDE_FONTS = 1.35


#: Column-width units a character of text takes (text is wider than the digits a width counts).
TEXT_WIDTH = 1.1


#: Printable width of an A4 page in points, landscape and portrait, inside the default margins (0.7 in a side).
PRINTABLE = {"landscape": 842 - 2 * 0.7 * 72, "portrait": 595 - 2 * 0.7 * 72}


#: Legend lines under a published table: their look, which also tells a later fill they are ours to rewrite.
def body_font(**look) -> Font:
    """The workbook's default font (Calibri 11) with ``look`` (italic, strike, color) on top."""
    return Font(name=DEFAULT_FONT.name, sz=DEFAULT_FONT.sz, family=DEFAULT_FONT.family, scheme=DEFAULT_FONT.scheme,
                **look)


NOTE_FONT = body_font(italic=True, color="FF595959")


@functools.cache
def mark_font(italic: bool, strike: bool, grey: bool) -> Font:
    """One font object per look: a season marks tens of thousands of cells alike."""
    return body_font(italic=italic, strike=strike, color="FF7F7F7F" if grey else None)


MAX_NOTES = 12
#: Rows a legend may take once its lines are wrapped to the printed page: what a later fill clears.
MAX_NOTE_ROWS = 40


#: Widest a published column grows to fit its content (characters); longer text wraps.
MAX_WIDTH = 48


def style_output(ws: Worksheet, output: Output) -> None:
    """The look of a published table and its sheet: :func:`style_table`, cell marks, legend, widths that fit,
    frozen header, print setup."""
    style_table(ws, output)
    min_col, min_row, max_col, max_row = table_bounds(ws, output.spec.name)
    fills: dict[str, int] = {}  # each look added to the workbook's styles once, not once a cell
    fonts: dict[Mark, int] = {}
    for (index, offset), mark in output.marks.items():
        cell = ws.cell(min_row + 1 + index, min_col + offset)
        if mark.fill:
            if mark.fill not in fills:
                fills[mark.fill] = ws.parent._fills.add(PatternFill("solid", fgColor=mark.fill))
            restyle([cell], "fillId", fills[mark.fill])
        if mark.italic or mark.strike or mark.grey:
            if mark not in fonts:
                fonts[mark] = ws.parent._fonts.add(mark_font(mark.italic, mark.strike, mark.grey))
            restyle([cell], "fontId", fonts[mark])
    fit_widths(ws, output, min_col, min_row)
    if ws.freeze_panes is None:
        ws.freeze_panes = ws.cell(min_row + 1, 1)
    print_readable(ws, min_row, min_col, max_col, output.repeat_columns)
    # Nothing printed is cut at a page's edge. The legend goes where page 1 prints it whole: wrapped to the
    # columns page 1 holds, after the columns repeated on every page when the table spills over (a line typed
    # in a repeated column would be printed cut on each continuation page).
    spills = ws.print_title_cols is not None
    first, last = min_col + (output.repeat_columns if spills else 0), _page_end(ws, min_col)
    last_row = write_notes(ws, wrap_notes(output.notes, _characters(ws, first, last)), first, max_row)
    # The title (14-point bold: half as wide again) likewise: in the sheet if page 1 prints it whole and nothing
    # repeats it cut; else at the top of every printed page, as the page header.
    in_sheet = not spills and len(output.title or "") * 1.5 <= _characters(ws, min_col, last)
    first_row = min_row - TITLE_ROWS if output.title and in_sheet and min_row > TITLE_ROWS else min_row
    header = ws.oddHeader.center
    header.text, header.size, header.font = (None, None, None) if in_sheet else (output.title, 14, "Calibri,Bold")
    last_col = max(max_col, last) if output.notes else max_col
    ws.print_area = f"{get_column_letter(min_col)}{first_row}:{get_column_letter(last_col)}{last_row}"


def print_one_page_wide(ws: Worksheet, header_row: int) -> None:
    """Print setup of an input table: :func:`print_readable` over the sheet's used columns, header repeated."""
    print_readable(ws, header_row, 1, max(ws.max_column, 1))


def column_points(width: float | None) -> float:
    """The printed width, in points, of a column ``width`` characters wide (Excel's 7-pixel digits + padding)."""
    return ((width if width is not None else 8.43) * 7 + 5) * 0.75


def _width(ws: Worksheet, min_col: int, max_col: int) -> float:
    return sum(column_points(column_width(ws, c)) for c in range(min_col, max_col + 1))


# --- column widths: Excel and LibreOffice save identical adjacent columns as one <col min max> range ---


def _covering(ws: Worksheet, col: int) -> ColumnDimension | None:
    """The column dimension that covers column ``col``: its own, or a range's (None: the sheet's default)."""
    dims = ws.column_dimensions
    own = dict.get(dims, get_column_letter(col))  # dict.get: the mapping's [] would create one
    if own is not None and (own.min is None or own.max is None or own.min <= col <= own.max):
        return own
    return next((d for d in dict.values(dims) if d.min is not None and d.max is not None and d.min <= col <= d.max),
                None)


def column_width(ws: Worksheet, col: int) -> float | None:
    """The width the sheet gives column ``col`` (None: the default), read without adding a dimension."""
    dim = _covering(ws, col)
    return dim.width if dim is not None and dim.customWidth else None


def set_column_width(ws: Worksheet, col: int, width: float) -> None:
    """Give column ``col`` its own width. A range of columns it belongs to is split around it (its other
    columns keep their look), never overlapped by a second ``<col>``: Excel repairs overlapping ranges."""
    dim = _covering(ws, col)
    if dim is None or dim.min is None or dim.max is None or dim.min == dim.max:
        (dim if dim is not None else ws.column_dimensions[get_column_letter(col)]).width = width
        return
    low, high = dim.min, dim.max
    if col < high:
        _column_piece(ws, dim, col + 1, high)
    if col > low:
        dim.max = col - 1
        dim = _column_piece(ws, dim, col, col)
    else:
        dim.max = col
    dim.width = width


def _column_piece(ws: Worksheet, dim: ColumnDimension, low: int, high: int) -> ColumnDimension:
    """A new dimension over columns ``low``..``high`` with the look of ``dim``."""
    letter = get_column_letter(low)
    piece = ColumnDimension(ws, index=letter, width=dim.width, bestFit=dim.bestFit, hidden=dim.hidden,
                            outlineLevel=dim.outlineLevel, collapsed=dim.collapsed, min=low, max=high)
    piece._style = copy(dim._style)
    ws.column_dimensions[letter] = piece
    return piece


def fits(ws: Worksheet, min_col: int, max_col: int, scale: float, orientation: str = "landscape") -> bool:
    """Whether the columns fit a page's width at ``scale`` percent, in the widest fonts."""
    return _width(ws, min_col, max_col) * WIDE_FONTS * scale / 100 <= PRINTABLE[orientation]


def print_scale(ws: Worksheet, min_col: int, max_col: int, orientation: str = "landscape") -> int:
    """The print scale (percent) that fits columns ``min_col``..``max_col`` on a page's width, in the widest
    fonts a spreadsheet program may substitute for Calibri; never under ``MIN_SCALE`` nor over 100."""
    return max(MIN_SCALE, min(100, int(100 * PRINTABLE[orientation] / (_width(ws, min_col, max_col) * WIDE_FONTS))))


def print_readable(ws: Worksheet, header_row: int, min_col: int, max_col: int, repeat_columns: int = 0,
                   orientation: str = "landscape") -> None:
    """Print setup of a table: A4, at a fixed scale that fits it on a page's width but keeps 11-point text at
    ``MIN_SCALE`` % (8.8 points) or more, never a fit-to-page that would shrink it further; columns that do
    not fit go on the next pages (read across, then down), each repeating the header row and the first
    ``repeat_columns`` columns (rank, name); page numbers in the footer."""
    ws.print_title_rows = f"{header_row}:{header_row}"
    ws.page_setup.paperSize = PAPER_A4
    ws.page_setup.orientation = orientation
    ws.page_setup.pageOrder = "overThenDown"
    ws.oddFooter.center.text = "Page &P / &N"
    ws.oddFooter.left.text = "&A"
    ws.page_setup.fitToWidth = ws.page_setup.fitToHeight = None
    ws.sheet_properties.pageSetUpPr.fitToPage = False
    ws.page_setup.scale = print_scale(ws, min_col, max_col, orientation)
    if repeat_columns and not fits(ws, min_col, max_col, ws.page_setup.scale, orientation):
        ws.print_title_cols = f"{get_column_letter(min_col)}:{get_column_letter(min_col + repeat_columns - 1)}"
    else:  # one page wide: repeated columns would only print pages of them alone (an earlier fill's go)
        ws._print_cols = None  # openpyxl's setter ignores None


def _page_end(ws: Worksheet, min_col: int) -> int:
    """The last column the first printed page holds, from ``min_col``, at the sheet's print scale: where
    the columns that do not fit start their own pages (a little room kept for the program's own rounding)."""
    room = PRINTABLE[ws.page_setup.orientation or "landscape"] * 100 / (ws.page_setup.scale or 100) * 0.97
    col, used = min_col, column_points(column_width(ws, min_col))
    while used + column_points(column_width(ws, col + 1)) <= room:
        col += 1
        used += column_points(column_width(ws, col))
    return col


def _characters(ws: Worksheet, first: int, last: int) -> int:
    """The characters of 11-point text a line holds over columns ``first``..``last``, in the widest fonts."""
    width = sum(column_width(ws, c) or 8.43 for c in range(first, last + 1))
    return max(20, int(width / (TEXT_WIDTH * WIDE_FONTS)))


def wrap_notes(notes: Sequence[str], characters: int) -> list[str]:
    """A legend's lines cut at spaces into lines of at most ``characters`` (a longer word keeps its line)."""
    lines: list[str] = []
    for note in notes[:MAX_NOTES]:
        words = note.split(" ")
        line = words[0]
        for word in words[1:]:
            if len(line) + 1 + len(word) <= characters:
                line += " " + word
            else:
                lines.append(line)
                line = word
        lines.append(line)
    return lines[:MAX_NOTE_ROWS]


def write_notes(ws: Worksheet, notes: Sequence[str], min_col: int, max_row: int) -> int:
    """Write a table's legend one line a row, a blank row under the table; returns the last row printed.
    A cell of the organiser's there is kept (that line of the legend is left out)."""
    row = max_row
    for text in notes[:MAX_NOTE_ROWS]:
        row += 1
        cell = ws.cell(row + 1, min_col)
        if cell.value is not None:
            continue
        put(cell, text)
        cell.font = NOTE_FONT
    return row + 1 if notes else max_row


def is_note(cell) -> bool:
    """Whether a cell is a line of the legend :func:`write_notes` put under a table."""
    return (isinstance(cell.value, str) and cell.font.i and cell.font.color is not None
            and cell.font.color.rgb == NOTE_FONT.color.rgb)


def clear_notes(ws: Worksheet, area: tuple[int, int, int, int]) -> None:
    """Remove the legend an earlier fill wrote under a table (cells in its look only, in the table's columns)."""
    for row in range(area[3] + 2, area[3] + 2 + MAX_NOTE_ROWS):
        for col in range(area[0], area[2] + 1):
            cell = ws._cells.get((row, col))
            if cell is not None and is_note(cell):
                del ws._cells[row, col]


def shown_text(value: object, number_format: str | None) -> str:
    """About what a cell shows, for its width: a number as its format rounds it, a date as dd/mm/yyyy."""
    if isinstance(value, (dt.date, dt.datetime)):
        return "00/00/0000"
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    section = (number_format or "").split(";")[0]
    decimals = len(section.split(".")[1].rstrip("%")) if "." in section else 0
    text = f"{value:.{decimals}f}" if isinstance(value, float) or decimals else str(value)
    return text + (" %" if "%" in section else "") + ("+" if section.startswith("+") else "")


def _longest_shown(values: Sequence[object], number_format: str | None) -> int:
    """The length of the longest :func:`shown_text` of ``values``: of numbers, the largest's or the smallest's
    (the shown text of a number grows with its size), without formatting a season's every number."""
    # A season's values repeat: each looked at once (but True and 1 are one for a set).
    distinct = [v for v in values if v is not None] if bool in set(map(type, values)) else set(values) - {None}
    numbers = [v for v in distinct if v.__class__ in (int, float)]
    shown = [v for v in distinct if v.__class__ not in (int, float)]
    if numbers:
        shown += [max(numbers), min(numbers)]
    return max((len(shown_text(value, number_format)) for value in shown), default=0)


def fit_widths(ws: Worksheet, output: Output, min_col: int, min_row: int) -> None:
    """Each column as wide as what it shows (up to ``MAX_WIDTH``, longer text wraps), its header on at most
    three lines; the header row as high as its longest header needs."""
    lines = 2
    by_column = list(itertools.zip_longest(*output.rows))  # the rows turned into columns at C speed
    for offset, column in enumerate(output.columns):
        content = _longest_shown(by_column[offset] if offset < len(by_column) else (), column.number_format)
        words = column.header.split()
        header = max(max((len(w) for w in words), default=1), -(-len(column.header) // 3))
        width = min(MAX_WIDTH, max(content, header, 4) + 2)
        set_column_width(ws, min_col + offset, width)
        lines = max(lines, _wrapped_lines(words, width - 1))
        if content > MAX_WIDTH - 2:
            long = [ws.cell(min_row + 1 + index, min_col + offset) for index, value in enumerate(by_column[offset])
                    if isinstance(value, str) and len(value) > MAX_WIDTH - 2]
            if long:
                restyle(long, "alignmentId", ws.parent._alignments.add(WRAPPED))
    ws.row_dimensions[min_row].height = max(HEADER_HEIGHT, 15 * lines + 2)


#: The look of a text longer than its column is wide: wrapped, from the top of its cell.
WRAPPED = Alignment(wrap_text=True, vertical="top")


def _wrapped_lines(words: Sequence[str], width: float) -> int:
    """Lines a header takes, wrapped at spaces in a column ``width`` characters wide."""
    lines, used = 1, 0
    for word in words:
        need = len(word) + (1 if used else 0)
        if used and used + need > width:
            lines, used = lines + 1, len(word)
        else:
            used += need
    return lines


def style_table(ws: Worksheet, output: Output) -> None:
    """The look of a published table: its title, wrapped header, highlighted rows, data bars."""
    min_col, min_row, max_col, max_row = table_bounds(ws, output.spec.name)
    if output.title and min_row > TITLE_ROWS:
        title = ws.cell(min_row - TITLE_ROWS, min_col)
        put(title, output.title)
        title.font = TITLE_FONT
    # Long headers (tournament names) wrap instead of spilling.
    restyle([ws.cell(min_row, col) for col in range(min_col, max_col + 1)], "alignmentId",
            ws.parent._alignments.add(HEADER_ALIGNMENT))
    ws.row_dimensions[min_row].height = HEADER_HEIGHT
    for index, colour in output.highlights.items():
        restyle([ws.cell(min_row + 1 + index, col) for col in range(min_col, max_col + 1)], "fillId",
                ws.parent._fills.add(PatternFill("solid", fgColor=colour)))
    bars = [offset for offset, column in enumerate(output.columns) if column.data_bar] if output.rows else []
    # After the organiser's rules, numbered from what is there (openpyxl's counter only grows).
    # dict.values: iterating the list (or its ordered dict) would re-set or hash every range's rules.
    rules = dict.values(ws.conditional_formatting._cf_rules)
    priority = max((r.priority or 0 for listed in rules for r in listed), default=0) if bars else 0
    for offset in bars:
        letter = get_column_letter(min_col + offset)
        priority += 1
        rule = DataBarRule(start_type="num", start_value=0, end_type="max", color=DATA_BAR_COLOUR)
        rule.priority = priority
        ws.conditional_formatting.add(f"{letter}{min_row + 1}:{letter}{max_row}", rule)


def restyle(cells: Iterable[Cell], key: str, index: int) -> None:
    """Set one index of the cells' style (``fillId``, ``alignmentId``…) to a look already added to the
    workbook's list of them: added once, not once a cell (each addition compares it with every other)."""
    for cell in cells:
        if not cell._style:
            cell._style = StyleArray()
        setattr(cell._style, key, index)


def chart_title(chart) -> str:
    """The plain text of a chart's title ('' without one)."""
    rich = chart.title.tx.rich if chart.title is not None and chart.title.tx is not None else None
    if rich is None:
        return ""
    return "".join(run.t or "" for paragraph in rich.p for run in (paragraph.r or []))

'''

# --- xlcircuit/workbook/procedure.py -----------------------------------------------------------------
_SOURCES['xlcircuit.workbook.procedure'] = False, r'''
"""The procedure every federation's fill shares, written once: read the input tables collecting every
located problem, compute with the core, write the published tables, report.

A federation's module declares its tables and gives :class:`Steps` its own three steps: ``read`` (the
input tables into typed rows, each problem added where it was found), ``summarise`` (the core's
computation on what was read) and ``outputs`` (the published tables of a summary), plus optionally
``decorate`` (charts, extra tables laid out beside the published ones). Its ``compute`` and ``fill``
are then :meth:`Steps.compute` and :meth:`Steps.fill`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.worksheet import Worksheet

from ..rules.errors import WorkbookProblems
from ..xlsx import Book, Owned, mark_federation, paused_gc
from .journal import JOURNAL, Journal
from .layout import is_note
from .read import forget_own_formats
from .spec import Output, Problems, TableSpec
from .write import write_outputs

R = TypeVar("R")  # what a federation's ``read`` gives
S = TypeVar("S")  # its summary
S_in = TypeVar("S_in", contravariant=True)

Progress = Callable[[str], None]


def quiet(step: str) -> None:
    """The progress callback of a fill nobody watches: says nothing."""


class Outputs(Protocol[S_in]):
    """A federation's published tables of a summary: the podium highlighted, or a club's players."""

    def __call__(self, summary: S_in, club: str | None = ..., day: dt.date | None = ...) -> list[Output]: ...


class Run(Protocol):
    """A federation's ``compute`` or ``fill``."""

    def __call__(self, book: Book, progress: Progress = ...) -> Any: ...


#: Charts or tables a federation lays out after its published tables: (book, summary, each published
#: table with the sheet it was written on (none when they could not be written), problems to add to).
Decorate = Callable[[Book, S, list[tuple[Output, Worksheet]], Problems], None]


@dataclass(frozen=True)
class Steps(Generic[R, S]):
    """A federation's own steps of the shared procedure."""

    federation: str  # its code, recorded in the workbook it fills
    #: What a fill rewrites (its output tables and sheets), known before anything is read: saving copies
    #: every other part as it is.
    rewritten: Owned
    read: Callable[[Book, Problems], R]
    summarise: Callable[[R], S]  # may raise WorkbookProblems for what only the core can see
    outputs: Outputs[S]
    decorate: Decorate[S] | None = None
    #: The ``Journal`` table each fill appends to (what changed), when the federation keeps one.
    journal: Journal | None = None

    @property
    def ownership(self) -> Owned:
        """What a fill rewrites: the federation's tables and sheets, and its ``Journal`` table."""
        if self.journal is None:
            return self.rewritten
        owned = self.rewritten
        return Owned({**owned.tables, JOURNAL.name: JOURNAL.sheet}, owned.sheets, owned.pattern, owned.pattern_sheet)

    def owned(self, wb: Workbook) -> list[TableSpec]:
        """The output tables of ``wb``: those the federation names, and those of an earlier fill that match
        its pattern (TORRES' group tables)."""
        specs = [TableSpec(sheet, name, ()) for name, sheet in self.ownership.tables.items()]
        if self.rewritten.pattern is not None:
            specs += [TableSpec(ws.title, name, ()) for ws in wb.worksheets for name in ws.tables
                      if self.rewritten.pattern.fullmatch(name)]
        return specs

    def compute(self, book: Book, progress: Progress = quiet) -> S:
        """Read and check the input tables, then compute; every problem is reported at once. Only what a fill
        needs is loaded (the input tables; the organiser's other sheets are left unread) where the workbook
        allows it."""
        with paused_gc():
            return self._compute(book, progress)

    def _compute(self, book: Book, progress: Progress) -> S:
        book.own(self.ownership, self.federation, ours=is_note)
        progress("lecture")
        # Data bars an earlier fill put in the published tables are rewritten: not a loss to warn of.
        forget_own_formats(book, self.owned(book.wb))
        problems = Problems()
        typed = self.read(book, problems)
        if problems:
            raise WorkbookProblems(problems.items)
        progress("calcul")
        return self.summarise(typed)

    def fill(self, book: Book, progress: Progress = quiet) -> S:
        """Compute, then rewrite the published tables (in memory); every problem of the writing at once."""
        with paused_gc():
            return self._fill(book, progress)

    def _fill(self, book: Book, progress: Progress) -> S:
        summary = self._compute(book, progress)  # loaded for the surgical fill, where the workbook allows it
        progress("écriture")
        published = self.outputs(summary, day=dt.date.today())
        tables = list(published)
        if self.journal is not None:  # before any table is rewritten: it compares with what they held
            tables.append(self.journal.output(book, summary, published,
                                               [*book.warnings, *getattr(summary, "warnings", [])]))
        problems = Problems()
        written: list[tuple[Output, Worksheet]] = []
        try:
            written = list(zip(published, write_outputs(book.wb, tables)))  # the journal is no decorate's business
        except WorkbookProblems as exc:
            problems.items += exc.problems
        if self.decorate is not None:  # even when the published tables failed: every problem at once
            self.decorate(book, summary, written, problems)
        if problems:
            raise WorkbookProblems(problems.items)
        mark_federation(book.wb, self.federation)
        return summary
'''

# --- xlcircuit/workbook/read.py ----------------------------------------------------------------------
_SOURCES['xlcircuit.workbook.read'] = False, r'''
"""Input tables (ListObjects) found by table name and header text, never by cell address, so that an
organiser may move them, restyle them and add columns of his own; rows typed under a table are taken in."""

from __future__ import annotations

import hashlib
import weakref
from collections.abc import Sequence
from typing import Any

from openpyxl.cell.cell import Cell
from openpyxl.utils import get_column_letter, range_boundaries
from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.table import Table
from openpyxl.worksheet.worksheet import Worksheet

from ..rules.errors import Problem
from ..rules.text import fold
from ..xlsx import CONDITIONAL_FORMAT_EXTENSIONS, Book
from .cells import error_message, error_value
from .spec import Problems, Record, TableSpec


def find_table(wb: Workbook, name: str) -> tuple[Worksheet, Table] | None:
    """The table called ``name`` (Excel compares table names without case), wherever it is."""
    for ws in wb.worksheets:
        for table in ws.tables.values():  # ws.tables.items() gives refs, not tables
            if str(table.displayName or table.name or "").casefold() == name.casefold():
                return ws, table
    return None


def table_bounds(ws: Worksheet, name: str) -> tuple[int, int, int, int]:
    """(first column, first row, last column, last row) of a table of ``ws`` that was just written."""
    area: tuple[int, int, int, int] = range_boundaries(ws.tables[table_key(ws, name)].ref)
    return area


def table_key(ws: Worksheet, name: str) -> str:
    """The key in ``ws.tables`` of the table called ``name`` (as :func:`find_table` matches it: display name,
    without case; openpyxl keys tables by their other name, which a file may set apart)."""
    for key, table in dict.items(ws.tables):  # TableList.items() gives refs, not tables
        if str(table.displayName or table.name or "").casefold() == name.casefold():
            return str(key)
    return next((str(k) for k in ws.tables if str(k).casefold() == name.casefold()), name)


def bounds(table: Table) -> tuple[int, int, int, int] | None:
    """(first column, first row, last column, last row) of a table; None for a reference no sheet has."""
    try:
        area: tuple[int, int, int, int] = range_boundaries(str(table.ref))
    except (ValueError, TypeError):
        return None
    if None in area or area[2] > MAX_COLUMN or area[3] > MAX_ROW or area[0] > area[2] or area[1] > area[3]:
        return None
    return area


MAX_ROW, MAX_COLUMN = 1_048_576, 16_384


def _rows_of(ws: Worksheet, columns: range, first_row: int) -> dict[int, dict[int, Cell]]:
    """The existing cells of ``columns`` from ``first_row`` down, row by row: a table over whole columns
    (``A1:E1048576``) costs what its data costs, not a million rows."""
    rows: dict[int, dict[int, Cell]] = {}
    for (row, col), cell in ws._cells.items():
        if row >= first_row and col in columns:
            rows.setdefault(row, {})[col] = cell
    return rows


def is_blank(value: object) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def read_table(book: Book, spec: TableSpec, problems: Problems) -> list[Record]:
    """The non-blank rows of an input table, with what each of the spec's columns shows.

    A missing table or required column is added to ``problems`` (and no rows are returned). Rows typed
    under the table, right under it or after blank rows, are never ignored: they are taken into the table
    (grown to hold them, with a warning in ``book.warnings`` naming them), or reported as problems.
    """
    located = _input_table(book, spec, problems)
    if located is None:
        _note(book, spec, [])
        return []
    ws, table, area = located
    columns = _header_columns(ws, table, spec, area, problems)
    if columns is None:
        return []
    min_col, min_row, max_col, _ = area
    existing = _rows_of(ws, range(min_col, max_col + 1), min_row + 1)
    last_row = _last_data_row(book, ws, table, spec, area, existing, problems)
    records = []
    letters = {header: get_column_letter(col) for header, col in columns.items()}
    for row in sorted(r for r in existing if r <= last_row):
        record = _read_row(book, ws.title, row, existing[row], columns, letters, problems)
        if record is not None:
            records.append(record)
    _note(book, spec, records)
    return records


#: What each workbook's input tables held as they were read, hashed (:func:`inputs_digest`).
_DIGESTS: weakref.WeakKeyDictionary[Book, Any] = weakref.WeakKeyDictionary()


def _note(book: Book, spec: TableSpec, records: list[Record]) -> None:
    digest = _DIGESTS.get(book)
    if digest is None:
        digest = _DIGESTS[book] = hashlib.sha256()
    digest.update(f"\x1e{spec.name.casefold()}".encode())
    for record in records:
        digest.update(repr(tuple(record.values.values())).encode("utf-8", "surrogatepass"))


def inputs_digest(book: Book) -> str:
    """A digest of what the input tables read from ``book`` so far held (their values, in their order, rows
    apart): two reads of the same tables give the same digest, any change of a value another."""
    digest = _DIGESTS.get(book)
    return (digest.copy() if digest is not None else hashlib.sha256()).hexdigest()[:12]


def _input_table(book: Book, spec: TableSpec,
                 problems: Problems) -> tuple[Worksheet, Table, tuple[int, int, int, int]] | None:
    """The input table of ``spec``, its sheet and its area; None (a problem unless optional) if unreadable."""
    found = find_table(book.wb, spec.name)
    if found is None and not spec.required:
        return None
    if found is None:
        problems.add(Problem(spec.sheet, None, None, f"table « {spec.name} » introuvable dans le classeur "
                             f"(attendue sur la feuille « {spec.sheet} », avec les colonnes "
                             f"{', '.join(c.header for c in spec.columns if c.required)})"))
        return None
    ws, table = found
    area = bounds(table)
    if area is None:
        problems.add(Problem(ws.title, None, None, f"la table « {table.displayName} » a une étendue illisible "
                             f"({str(table.ref)[:40]}) : recréez-la (Insertion > Tableau)"))
        return None
    return ws, table, area


def _header_columns(ws: Worksheet, table: Table, spec: TableSpec, area: tuple[int, int, int, int],
                    problems: Problems) -> dict[str, int] | None:
    """The column of each of the spec's headers the table has; None, and a problem each, if a required one lacks."""
    min_col, min_row, max_col, _ = area
    headers: dict[str, int] = {}
    for col in range(min_col, max_col + 1):
        cell = ws._cells.get((min_row, col))
        if cell is not None and cell.value is not None:
            headers.setdefault(fold(str(cell.value)), col)
    missing = [c.header for c in spec.columns if c.required and fold(c.header) not in headers]
    for header in missing:
        found_headers = ", ".join(str(ws.cell(min_row, c).value) for c in sorted(headers.values()))
        problems.add(Problem(ws.title, min_row, header, f"colonne « {header} » absente de la table « {table.name} » "
                             f"(colonnes trouvées : {found_headers or 'aucune'})"))
    if missing:
        return None
    return {c.header: headers[fold(c.header)] for c in spec.columns if fold(c.header) in headers}


def _last_data_row(book: Book, ws: Worksheet, table: Table, spec: TableSpec, area: tuple[int, int, int, int],
                   existing: dict[int, dict[int, Cell]], problems: Problems) -> int:
    """The table's last data row, once the rows typed under it are taken into it (or reported)."""
    max_row = area[3]
    last_row = max_row - (table.totalsRowCount or 0)
    below = sorted(r for r, cells in existing.items() if r > max_row and r < _next_table(ws, table, area)
                   and any(not is_blank(book.value(c)) for c in cells.values()))
    if below:
        last_row = _take_below(book, ws, table, spec, area, below, problems)
    return last_row


def _read_row(book: Book, sheet: str, row: int, cells_of_row: dict[int, Cell], columns: dict[str, int],
              letters: dict[str, str], problems: Problems) -> Record | None:
    """One row of an input table as a record of what its known columns show (``letters``: each column's
    letter); None for a blank row."""
    values: dict[str, object] = {}
    cells: dict[str, str] = {}
    blank = True
    for header, col in columns.items():
        cells[header] = f"{letters[header]}{row}"
        cell = cells_of_row.get(col)
        if cell is None:
            values[header] = None
            continue
        value = cell.value if cell.data_type != "f" else book.value(cell)
        if value is None and cell.data_type == "f":
            problems.add(Problem(sheet, row, header, "formule jamais calculée : ouvrez le classeur dans votre "
                                 "tableur, enregistrez-le, puis relancez", cell.coordinate))
        error = error_value(value, cell.data_type)
        if error is not None:  # #N/A, #REF!…: no data, never a name or a number (the line stays, unread)
            problems.unreadable(Problem(sheet, row, header, error_message(error, cell.data_type == "f"),
                                        cells[header]))
            values[header] = None
            blank = False
            continue
        if isinstance(value, str):
            value = value.strip() or None
        values[header] = value
        blank = blank and value is None
    return None if blank else Record(sheet, row, values, cells)


def _next_table(ws: Worksheet, table: Table, area: tuple[int, int, int, int]) -> int:
    """The first row of the next table below ``table`` in its columns (rows under it stop there)."""
    tops = [other[1] for t in ws.tables.values() if t is not table and (other := bounds(t)) is not None
            and other[1] > area[3] and other[0] <= area[2] and area[0] <= other[2]]
    return min(tops, default=MAX_ROW + 1)


def row_list(rows: Sequence[int]) -> str:
    """Rows as a French list of runs: ``5``, ``5 et 7``, ``5 à 9, 12 et 14 à 20``."""
    runs: list[list[int]] = []
    for row in rows:
        if runs and row == runs[-1][1] + 1:
            runs[-1][1] = row
        else:
            runs.append([row, row])
    texts = [f"{a}" if a == b else f"{a}, {b}" if b == a + 1 else f"{a} à {b}" for a, b in runs]
    return texts[0] if len(texts) == 1 else f"{', '.join(texts[:-1])} et {texts[-1]}"


def _take_below(book: Book, ws: Worksheet, table: Table, spec: TableSpec, area: tuple[int, int, int, int],
                below: list[int], problems: Problems) -> int:
    """Rows typed under a table: grown into it (returns its new last data row), or each a problem."""
    min_col, min_row, max_col, max_row = area
    name = table.displayName
    first = get_column_letter(min_col)
    if table.totalsRowCount:
        for row in below:
            problems.add(Problem(ws.title, row, None, f"la ligne {row}, sous la ligne de total de la table « {name} », "
                                 "n'en fait pas partie : insérez-la dans la table, au-dessus du total",
                                 f"{first}{row}"))
        return max_row - int(table.totalsRowCount)
    if not spec.grows:
        for row in below:
            if row == max_row + 1 or any(not is_blank(book.value(c)) for (r, col), c in ws._cells.items()
                                         if r == row and min_col < col <= max_col):
                problems.add(Problem(ws.title, row, None, f"la ligne {row}, sous la table « {name} », n'en fait pas "
                                     "partie : insérez-la dans la table (clic droit > Insérer des lignes)",
                                     f"{first}{row}"))
        return max_row
    ref = f"{first}{min_row}:{get_column_letter(max_col)}{below[-1]}"
    table.ref = ref
    if table.autoFilter is not None:
        table.autoFilter.ref = ref
    count = len(below)
    book.warnings.append(f"{ws.title} : {'la ligne' if count == 1 else 'les lignes'} {row_list(below)}, "
                         f"tapée{'s' if count > 1 else ''} sous la table « {name} », "
                         f"{'est prise' if count == 1 else 'sont prises'} dans la table (LibreOffice ne "
                         "l'agrandit pas) : vérifiez "
                         + ("qu'elle en fait" if count == 1 else "qu'elles en font") + " bien partie.")
    return below[-1]


def forget_own_formats(book: Book, specs: Sequence[TableSpec]) -> None:
    """Extended conditional formats on the data-bar columns of output tables are the data bars of an earlier
    fill, as a spreadsheet program re-saved them: they are rewritten, so losing them is no loss to warn of.
    Any other one (the organiser's icon set or colour scale on a published table) is still said."""
    bars = [(ws.title, area) for spec in specs if (found := find_table(book.wb, spec.name))
            for ws, table in [found] for area in _data_bar_columns(spec, table)]

    def inside_ref(ref: str, area: tuple[int, int, int, int]) -> bool:
        try:
            return inside(range_boundaries(ref), area)
        except (ValueError, TypeError):  # a range the file garbles is no data bar of ours
            return False

    def ours(unkept) -> bool:
        return unkept.what == CONDITIONAL_FORMAT_EXTENSIONS and bool(unkept.ranges) and all(
            any(sheet == unkept.sheet and inside_ref(r, area) for sheet, area in bars)
            for r in unkept.ranges)

    book.unkept = [u for u in book.unkept if not ours(u)]


def _data_bar_columns(spec: TableSpec, table: Table) -> list[tuple[int, int, int, int]]:
    """The areas of an output table's columns that a fill shows with data bars (``Column.data_bar``), found
    by their headers."""
    area = bounds(table)
    if area is None:
        return []
    barred = {fold(c.header) for c in spec.columns if c.data_bar}
    headers = [fold(str(c.name or "")) for c in table.tableColumns]
    return [(area[0] + i, area[1], area[0] + i, area[3]) for i, header in enumerate(headers) if header in barred]


def inside(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return b[0] <= a[0] and a[2] <= b[2] and b[1] <= a[1] and a[3] <= b[3]


def cells_in(ws: Worksheet, area: tuple[int, int, int, int]) -> list:
    """The cells that exist in ``area`` (iter_rows would create every cell of the rectangle), looked up one
    by one in a small area (a group table on a sheet of a hundred), else found among the sheet's cells."""
    min_col, min_row, max_col, max_row = area
    cells = ws._cells
    if (max_row - min_row + 1) * (max_col - min_col + 1) < len(cells):
        found = (cells.get((row, col)) for row in range(min_row, max_row + 1) for col in range(min_col, max_col + 1))
        return [cell for cell in found if cell is not None]
    return [cell for (row, col), cell in cells.items() if min_row <= row <= max_row and min_col <= col <= max_col]


def overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]

'''

# --- xlcircuit/workbook/register.py ------------------------------------------------------------------
_SOURCES['xlcircuit.workbook.register'] = False, r'''
"""The register of players: every federation's ``Joueurs`` table, read once, through which every input table
resolves the names it holds, so that the published tables use the register's name.

A ``Joueurs`` line is a player: his name (``Joueur``), and optionally his identifier (``Identifiant``: a licence
number, a WDD or WDR id…) and his other spellings (``Alias``, separated by « ; »). A name typed in a result
line designates a registered player when it is his name, one of his aliases or his identifier, or one of them
but for case, accents and spaces. Two players of the same name are kept apart by their identifiers: the
tables then name each « Nom (identifiant) », and a result line names him so, or by his identifier. A name
nobody registered stays as typed.

``xlcircuit fusion`` writes an alias into this table (:func:`add_alias`); the result lines are never touched.
"""

from __future__ import annotations

import difflib
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from openpyxl.utils import get_column_letter
from openpyxl.worksheet.table import TableColumn

from ..rules.errors import WorkbookProblems, XlcircuitError
from ..rules.names import probable_duplicates
from ..rules.text import clean, fold
from ..xlsx import Book
from .cells import as_text, put
from .read import bounds, find_table, read_table
from .sheets import Clubs, at_cell, club_of
from .spec import Column, Problems, Record, TableSpec
from .wording import typed

IDENTIFIER, ALIAS = "Identifiant", "Alias"
#: The register's own columns, at the end of every federation's ``Joueurs`` table (optional: older workbooks
#: have none).
REGISTER_COLUMNS = (Column(IDENTIFIER, required=False, width=14), Column(ALIAS, required=False, width=30))
#: What separates the aliases of a player in his ``Alias`` cell.
SEPARATOR = ";"
#: The workbook's name in a suggested command: the use cases put the real one in its place (:func:`located`).
WORKBOOK = "CLASSEUR.xlsx"
#: Every column some federation's ``Joueurs`` table reads: one of them in a table whose federation does not read
#: it is said (an ``Elo`` column in a Tour de France workbook would otherwise be ignored without a word).
KNOWN = ("Joueur", "Club", "Classe", "Elo", "Parties", "Division", "Groupe", "Statut", "Équipe", "Naissance",
         "Étranger", "Bonus", IDENTIFIER, ALIAS)


def players_table(*columns: Column, required: bool = True) -> TableSpec:
    """A federation's ``Joueurs`` table: ``Joueur``, its own ``columns``, then the register's columns."""
    return TableSpec("Joueurs", "Joueurs", (Column("Joueur", width=26), *columns, *REGISTER_COLUMNS), required)


def fusion_command(name: str, alias: str, workbook: str = WORKBOOK) -> str:
    """The command that makes ``alias`` another spelling of ``name``, ready to type."""
    return f"xlcircuit fusion {typed(workbook)} {typed(name)} {typed(alias)}"


def located(lines: Iterable[str], workbook: str) -> list[str]:
    """Warnings whose suggested commands name the workbook: :data:`WORKBOOK` replaced by its name."""
    return [line.replace(WORKBOOK, typed(workbook)) for line in lines]


@dataclass
class Entry:
    """A player of the register: his name in the published tables, as typed, identifier, aliases, line."""

    name: str  # the register's name: as typed, or « typed (identifier) » for one of two homonyms
    typed: str
    identifier: str | None
    aliases: tuple[str, ...]
    record: Record

    @property
    def cell(self) -> str:
        return at_cell(self.record, "Joueur")


@dataclass
class Register:
    """The ``Joueurs`` table as read: its players in order, and how a typed name finds one of them."""

    entries: list[Entry] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.by_name: dict[str, Entry] = {e.name: e for e in self.entries}
        self._exact: dict[str, list[Entry]] = defaultdict(list)
        self._folded: dict[str, list[Entry]] = defaultdict(list)
        self._found: dict[str, list[Entry]] = {}  # typed -> the players it designates, once looked up
        for entry in self.entries:
            spellings = {entry.name, entry.typed, *entry.aliases}
            if entry.identifier is not None:
                spellings.add(entry.identifier)
            for spelling in spellings:
                self._exact[spelling].append(entry)
            for key in {fold(s) for s in spellings}:
                self._folded[key].append(entry)

    def __iter__(self) -> Iterator[Entry]:
        return iter(self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    def find(self, typed: str) -> list[Entry]:
        """The registered players ``typed`` designates: by name, alias or identifier, else the same but for
        case, accents and spaces; none when nobody registered it, several when it is ambiguous."""
        if not self._exact:  # no register: a season's thousands of result lines cost nothing
            return []
        found = self._found.get(typed)
        if found is None:
            match = self._exact.get(typed) or self._folded.get(fold(typed), [])
            found = self._found[typed] = list({id(e): e for e in match}.values())
        return found

    def name(self, typed: str) -> str:
        """The register's name for ``typed`` when it designates one player, else ``typed`` itself."""
        found = self.find(typed)
        return found[0].name if len(found) == 1 else typed

    def resolve(self, problems: Problems, record: Record, header: str) -> str | None:
        """The name a cell of an input table designates: the register's name of the player it names, or the
        text as typed when nobody registered it; None for a blank cell, and None with a problem at the cell
        when it could be two players (two homonyms: type the identifier)."""
        typed = as_text(record.values.get(header))
        if typed is None:
            return None
        found = self.find(typed)
        if len(found) > 1:
            which = " ; ".join(f"{e.cell}{f', identifiant {e.identifier}' if e.identifier else ''}" for e in found)
            example = next((e for e in found if e.identifier), None)
            hint = (f" : tapez son identifiant (par exemple « {example.identifier} ») ou « {example.name} »"
                    if example else " : écrivez le nom comme dans la table Joueurs")
            problems.at(record, header, f"« {typed} » peut désigner {len(found)} joueurs de la table Joueurs "
                                        f"({which}){hint}")
            return None
        return found[0].name if found else typed

    def clubs(self) -> Clubs:
        """Player -> club, for the players who have one; ``cells``: where each player was typed."""
        clubs = Clubs()
        for entry in self.entries:
            clubs.cells[entry.name] = entry.cell
            if club := club_of(entry.record):
                clubs[entry.name] = club
        return clubs

    def row(self, entry: Entry) -> dict[str, object]:
        """The register's own cells of a player, for next season's ``Joueurs`` table."""
        return {"Joueur": entry.typed, "Club": club_of(entry.record), IDENTIFIER: entry.identifier,
                ALIAS: f"{SEPARATOR} ".join(entry.aliases) or None}


def aliases_of(value: object) -> tuple[str, ...]:
    """An ``Alias`` cell's spellings: separated by « ; », each trimmed, blanks left out."""
    text = as_text(value)
    if text is None:
        return ()
    return tuple(dict.fromkeys(clean(part) for part in text.split(SEPARATOR) if clean(part)))


def read_register(book: Book, spec: TableSpec, problems: Problems) -> Register:
    """The ``Joueurs`` table as a register: a problem for a blank name, a player's second line (two players
    of one name but for case and accents need an identifier each), an identifier or an alias taken twice.
    A column of ``Joueurs`` this federation does not read, but another does (or close to one it reads), is
    said in ``book.warnings``."""
    _unread_columns(book, spec)
    typed: list[tuple[str, str | None, tuple[str, ...], Record]] = []
    for record in read_table(book, spec, problems):
        name = as_text(record.values["Joueur"])
        if name is None:
            problems.at(record, "Joueur", "nom du joueur attendu ; trouvé une cellule vide")
            continue
        identifier = as_text(record.values.get(IDENTIFIER))
        typed.append((name, identifier, tuple(a for a in aliases_of(record.values.get(ALIAS)) if a != name), record))
    return Register(_entries(typed, problems))


def _entries(typed: list[tuple[str, str | None, tuple[str, ...], Record]], problems: Problems) -> list[Entry]:
    """The register's players: homonyms (one name but for case, accents and spaces) each need an identifier of
    their own and are then named « nom (identifiant) »; identifiers and aliases designate one player each."""
    by_key: dict[str, list[int]] = defaultdict(list)
    for i, (name, _, _, _) in enumerate(typed):
        by_key[fold(name)].append(i)
    entries: list[Entry] = []
    taken: dict[str, Entry] = {}  # folded alias or identifier -> the player it designates
    for i, (name, identifier, aliases, record) in enumerate(typed):
        shown = _shown_name(i, typed, by_key[fold(name)], problems)
        if shown is None:
            continue
        entry = Entry(shown, name, identifier, aliases, record)
        mark = problems.mark()
        spellings = [(identifier, IDENTIFIER)] * (identifier is not None) + [(a, ALIAS) for a in aliases]
        for spelling, header in spellings:
            owner = taken.get(fold(spelling))
            if owner is not None:
                what = "identifiant" if header == IDENTIFIER else "alias"
                problems.at(record, header, f"{what} « {spelling} » déjà pris par {owner.name} ({owner.cell}) : "
                                            "chacun désigne un seul joueur")
        if problems.since(mark):
            continue
        for spelling, _ in spellings:
            taken[fold(spelling)] = entry
        entries.append(entry)
    names = {fold(e.typed): e for e in entries}
    for entry in entries:  # an alias that is another player's name
        for alias in entry.aliases:
            owner = names.get(fold(alias))
            if owner is not None and owner is not entry:
                problems.at(entry.record, ALIAS, f"alias « {alias} » : c'est le nom de {owner.name} "
                                                 f"({owner.cell}) ; un alias désigne un seul joueur")
    return entries


def _shown_name(i: int, typed: list[tuple[str, str | None, tuple[str, ...], Record]], same: list[int],
                problems: Problems) -> str | None:
    """The register's name of line ``i`` (``same``: the lines of its name but for case, accents and spaces): as
    typed, or « name (identifier) » for one of two homonyms; None, and a problem, for a player's second line
    or a homonym without an identifier of his own."""
    name, identifier, _, record = typed[i]
    if len(same) < 2:
        return name
    if all(typed[j][1] is None for j in same):  # one player typed twice: his first line is him
        if i == same[0]:
            return name
        problems.at(record, "Joueur", _second_line(name, typed[same[0]]))
        return None
    earlier = [typed[j] for j in same if j < i]
    if identifier is None or any(other[1] is not None and fold(other[1]) == fold(identifier) for other in earlier):
        problems.at(record, "Joueur", _homonym(name, typed[same[0] if same[0] != i else same[1]]))
        return None
    return f"{name} ({identifier})"


def _second_line(name: str, first: tuple[str, str | None, tuple[str, ...], Record]) -> str:
    """The problem of a player's second line (no identifier tells two homonyms apart)."""
    same = "figure déjà" if first[0] == name else f"ne diffère de « {first[0]} » que par les majuscules, les " \
                                                  "accents ou les espaces, qui figure"
    return (f"{name} {same} ligne {first[3].row} : une ligne par joueur (deux personnes de ce nom : donnez à "
            f"chacune son identifiant, colonne « {IDENTIFIER} »)")


def _homonym(name: str, other: tuple[str, str | None, tuple[str, ...], Record]) -> str:
    """The problem of a line whose name another line has (but for case, accents and spaces) without an
    identifier telling them apart."""
    same = "le même nom" if other[0] == name else f"le nom « {other[0]} », le même aux majuscules, accents ou " \
                                                   "espaces près,"
    return (f"la ligne {other[3].row} porte {same} : une ligne par joueur ; deux personnes de ce nom : donnez à "
            f"chacune son identifiant (colonne « {IDENTIFIER} »), différent")


def _unread_columns(book: Book, spec: TableSpec) -> None:
    """Say which columns of the table would be ignored though they look like xlcircuit's (nothing is ignored
    without a word): a column another federation reads, or one close to a column this one reads."""
    found = find_table(book.wb, spec.name)
    if found is None:
        return
    ws, table = found
    area = bounds(table)
    if area is None:
        return
    read = {fold(c.header) for c in spec.columns}
    known = {fold(h): h for h in KNOWN}
    ours = [c.header for c in spec.columns]
    for col in range(area[0], area[2] + 1):
        cell = ws._cells.get((area[1], col))
        header = as_text(cell.value) if cell is not None else None
        if header is None or fold(header) in read:
            continue
        close = difflib.get_close_matches(fold(header), [fold(h) for h in ours], n=1, cutoff=0.8)
        if fold(header) not in known and not close:
            continue  # the organiser's own column: kept, and not read
        hint = (f" ; vouliez-vous dire « {next(h for h in ours if fold(h) == close[0])} » ?" if close
                else "")
        book.warnings.append(f"{ws.title}!{get_column_letter(col)}{area[1]} : la colonne « {header} » de la table "
                             f"« {spec.name} » n'est pas lue par ce classeur{hint} (colonnes lues : "
                             f"{', '.join(ours)}).")


# --- flags: names that are probably one person -----------------------------------------------------------


def _kept(spellings: Iterable[str]) -> str:
    """Of spellings of one name, the one to keep: the most words written as names are (« Jean Muller »)."""
    return max(sorted(spellings), key=lambda n: sum(w[:1].isupper() and not w.isupper() for w in n.split()))


def duplicate_warnings(names: Iterable[str | tuple[str, str]], register: Register | None = None) -> list[str]:
    """Names of the input tables that are probably one person (:func:`names.probable_duplicates`: case or accents,
    a hyphen, the surname first, a doubled letter, an initial, a one-letter typo), each with its first cell and the
    ready-to-type alias that would merge them (``names``: names, or (name, cell) pairs). Names the register knows
    are already merged (they come here as the register's name), and two registered players who both have an
    identifier are two people: never flagged. THE call site of the duplicate detection; nothing is merged here."""
    cells: dict[str, str | None] = {}
    for item in names:
        name, where = item if isinstance(item, tuple) else (item, None)
        if cells.get(name) is None:
            cells[name] = where
    apart = {e.name for e in register if e.identifier is not None} if register is not None else set()
    warnings = []
    for a, b, why in probable_duplicates(cells):
        if a in apart and b in apart:
            continue
        kept = _kept((a, b))
        other = b if kept == a else a
        warnings.append(f"{_spelled(a, cells[a])} et {_spelled(b, cells[b])} sont-ils la même personne ({why}) ? "
                        f"Si oui, ajoutez « {other} » comme alias de « {kept} » : {fusion_command(kept, other)} (ou "
                        "corrigez l'orthographe) ; si ce sont deux personnes, donnez à chacune son identifiant dans "
                        f"la table « Joueurs » (colonne « {IDENTIFIER} ») et cet avertissement ne reviendra plus.")
    return warnings


def _spelled(name: str, where: str | None) -> str:
    return f"« {name} »" + (f" ({where})" if where else "")


def unmatched_warnings(register: Register, players: Iterable[str], what: str = "aucun résultat") -> list[str]:
    """A registered player without results whose name is probably a name with results (« MULLER Jean » in
    Joueurs, « Jean Muller » in the results: :func:`names.probable_duplicates`, else a close spelling): a typo
    that would drop him from his club's workbook, said with his cell and the alias that would merge them. A
    registered player without results and no such name is no typo (a register carried over from last season
    names players who have not played yet)."""
    known = set(players)
    idle = [entry for entry in register if entry.name not in known]
    if not idle:
        return []
    likely: dict[str, str] = {}
    idle_names = {entry.name for entry in idle}
    for a, b, _ in probable_duplicates([*idle_names, *sorted(known)]):
        if a in known and b in idle_names:
            a, b = b, a
        if a in idle_names and b in known:
            likely.setdefault(a, b)
    ordered = sorted(known)
    warnings = []
    for entry in idle:
        close = likely.get(entry.name) or next(iter(difflib.get_close_matches(entry.name, ordered, n=1, cutoff=0.75)),
                                               None)
        if close is None:
            continue
        warnings.append(f"{entry.cell} : « {entry.name} », de la table « Joueurs », n'a {what} ; faute de frappe "
                        f"pour « {close} » ? (il ne figure donc dans aucun classeur de club). Si c'est la même "
                        f"personne : {fusion_command(entry.name, close)}")
    return warnings


# --- xlcircuit fusion: an alias written into the register -----------------------------------------------


@dataclass
class Fused:
    """What :func:`add_alias` did: the player's name, the alias, the cell written, and whether it was new."""

    name: str
    alias: str
    cell: str
    added: bool
    new_line: bool = False


def add_alias(book: Book, spec: TableSpec, name: str, alias: str, lines_need: Sequence[str] = ()) -> Fused:
    """Make ``alias`` another spelling of the registered player ``name`` in ``book``'s model: his ``Alias`` cell
    gets it (the column is added to the table when missing); a name nobody registered gets a line of its own
    when the table needs nothing more of a player (``lines_need``: the required columns besides ``Joueur``).
    Result lines are never touched. Raises :class:`XlcircuitError` (a sentence) or :class:`WorkbookProblems`."""
    problems = Problems()
    register = read_register(book, spec, problems)
    if problems:
        raise WorkbookProblems(problems.items)
    name, alias = clean(name), clean(alias)
    if not name or not alias:
        raise XlcircuitError("deux noms attendus : le nom à garder, puis l'autre orthographe.")
    targets = register.find(name)
    if len(targets) > 1:
        raise XlcircuitError(f"« {name} » peut désigner {len(targets)} joueurs de la table Joueurs "
                             f"({', '.join(e.cell for e in targets)}) : donnez son identifiant ou « Nom (identifiant) ».")
    owners = [e for e in register.find(alias) if not targets or e is not targets[0]]
    if owners:
        owner = owners[0]
        raise XlcircuitError(f"« {alias} » désigne déjà {owner.name} ({owner.cell}) dans la table Joueurs : pour en "
                             f"faire un alias de « {name} », retirez-le d'abord de cette ligne (ou de ses alias).")
    found = find_table(book.wb, spec.name)
    if found is None:
        raise XlcircuitError(f"{book.path.name} n'a pas de table « {spec.name} » : créez-la (feuille « {spec.sheet} », "
                             "colonnes Joueur et Alias), puis relancez.")
    ws, table = found
    area = bounds(table)
    if area is None:
        raise XlcircuitError(f"la table « {spec.name} » a une étendue illisible : recréez-la, puis relancez.")
    if targets and fold(alias) in {fold(s) for s in (targets[0].typed, targets[0].name, *targets[0].aliases)}:
        return Fused(targets[0].name, alias, targets[0].cell, added=False)
    column = _alias_column(ws, table, area)
    if targets:
        entry = targets[0]
        row = entry.record.row
        cell = ws.cell(row, column)
        put(cell, f"{SEPARATOR} ".join((*entry.aliases, alias)))
        return Fused(entry.name, alias, f"{ws.title}!{cell.coordinate}", added=True)
    if lines_need:
        raise XlcircuitError(f"« {name} » n'est pas dans la table Joueurs, qui demande pour chaque joueur "
                             f"{', '.join(lines_need)} : ajoutez-y sa ligne, puis relancez.")
    row = _new_row(book, ws, table, area, spec)
    joueur = _column_of(ws, area, "Joueur")
    put(ws.cell(row, joueur), name)
    put(ws.cell(row, column), alias)
    return Fused(name, alias, f"{ws.title}!{ws.cell(row, column).coordinate}", added=True, new_line=True)


def _column_of(ws, area: tuple[int, int, int, int], header: str) -> int:
    for col in range(area[0], area[2] + 1):
        cell = ws._cells.get((area[1], col))
        if cell is not None and cell.value is not None and fold(str(cell.value)) == fold(header):
            return col
    raise XlcircuitError(f"colonne « {header} » absente de la table « Joueurs » : ajoutez-la, puis relancez.")


def _alias_column(ws, table, area: tuple[int, int, int, int]) -> int:
    """The column of ``Alias`` in the table; added at its right (the table grown by one column) when missing."""
    try:
        return _column_of(ws, area, ALIAS)
    except XlcircuitError:
        pass
    min_col, min_row, max_col, max_row = area
    new = max_col + 1
    taken = [c.coordinate for (r, col), c in ws._cells.items()
             if col == new and min_row <= r <= max_row and c.value is not None]
    if taken:
        raise XlcircuitError(f"la table « {table.displayName} » n'a pas de colonne « {ALIAS} » et la colonne à sa "
                             f"droite n'est pas vide ({taken[0]}) : ajoutez la colonne « {ALIAS} » à la table, "
                             "puis relancez.")
    put(ws.cell(min_row, new), ALIAS)
    ref = f"{get_column_letter(min_col)}{min_row}:{get_column_letter(new)}{max_row}"
    table.ref = ref
    if table.autoFilter is not None:
        table.autoFilter.ref = ref
    table.tableColumns.append(TableColumn(id=max(c.id for c in table.tableColumns) + 1, name=ALIAS))
    ws.column_dimensions[get_column_letter(new)].width = REGISTER_COLUMNS[1].width
    return new


def _new_row(book: Book, ws, table, area: tuple[int, int, int, int], spec: TableSpec) -> int:
    """A row for a new player: the table's first blank data row, else one row added under it."""
    min_col, min_row, max_col, max_row = area
    for row in range(min_row + 1, max_row + 1):
        if all(ws._cells.get((row, col)) is None or ws._cells[row, col].value is None
               for col in range(min_col, max_col + 1)):
            return row
    row = max_row + 1
    if any(c.value is not None for (r, col), c in ws._cells.items() if r == row and min_col <= col <= max_col):
        raise XlcircuitError(f"la ligne {row}, sous la table « {spec.name} », n'est pas vide : ajoutez la ligne "
                             "du joueur dans la table, puis relancez.")
    ref = f"{get_column_letter(min_col)}{min_row}:{get_column_letter(max_col)}{row}"
    table.ref = ref
    if table.autoFilter is not None:
        table.autoFilter.ref = ref
    return row


def rows_for(spec: TableSpec, rows: Iterable[dict[str, object]]) -> list[tuple[object, ...]]:
    """Rows given by header, in the order of ``spec``'s columns (what a fresh table takes)."""
    return [tuple(row.get(c.header) for c in spec.columns) for row in rows]


__all__ = ["ALIAS", "IDENTIFIER", "REGISTER_COLUMNS", "Entry", "Fused", "Register", "add_alias", "aliases_of",
           "duplicate_warnings", "fusion_command", "located", "players_table", "read_register", "rows_for",
           "unmatched_warnings"]
'''

# --- xlcircuit/workbook/seasons.py -------------------------------------------------------------------
_SOURCES['xlcircuit.workbook.seasons'] = False, r'''
"""Season after season, the framework's side: the ``Palmarès`` table every workbook carries over (a line per
season: champion, podium, the federation's titles), the ``Journal`` sheet, and next season's workbook written
from the last one (``xlcircuit new FED FICHIER --depuis PRECEDENT``): the register, the palmarès, and what each
federation carries over (its adapter's :meth:`~.adapter.Adapter.carry`, its rules in :mod:`xlcircuit.rules`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from openpyxl.workbook.workbook import Workbook

from ..rules.errors import WorkbookProblems
from ..rules.text import fold
from ..xlsx import Book
from .cells import as_text
from .journal import JOURNAL
from .read import bounds, find_table, read_table
from .register import Register, rows_for
from .spec import Column, Output, Problems, TableSpec
from .write import add_input_table, type_rows, write_outputs

PALMARES = TableSpec("Palmarès", "Palmares", (
    Column("Saison", width=16),
    Column("Champion", width=28),
    Column("Deuxième", width=28),
    Column("Troisième", width=28),
    Column("Titres", width=70),
), required=False)


@dataclass(frozen=True)
class Honours:
    """A season's line of the palmarès: its name, its podium, and the federation's other titles."""

    season: str
    champion: str | None = None
    second: str | None = None
    third: str | None = None
    titles: str | None = None

    def row(self) -> tuple[object, ...]:
        return (self.season, self.champion, self.second, self.third, self.titles)


@dataclass(frozen=True)
class Parameter:
    """A line of next season's parameters table: its name, value, comment (DBM) and number format."""

    name: str
    value: object = None
    comment: str | None = None
    number_format: str | None = None


@dataclass
class Carry:
    """What a federation carries over into next season's workbook: its parameters, its ``Joueurs`` rows (by
    header), and what to tell the organiser."""

    parameters: list[Parameter]
    players: list[dict[str, object]]
    notes: list[str] = field(default_factory=list)


def add_season_sheets(wb: Workbook, federation_title: str) -> None:
    """The sheets of a new workbook after the federation's: ``Palmarès`` (typed in, carried over) and ``Journal``
    (what each fill changed, written by the fills)."""
    add_input_table(wb, PALMARES)
    write_outputs(wb, [Output(JOURNAL, JOURNAL.columns, [], f"{federation_title} — journal des remplissages")])


def register_rows(register: Register, extra: dict[str, dict[str, object]], people: Iterable[str]) -> list[dict[str, object]]:
    """Next season's ``Joueurs`` rows: every registered player in his order, with his club, identifier and
    aliases (and what ``extra`` gives for him, by his name in the published tables), then each of ``people``
    the register did not name."""
    rows = []
    for entry in register:
        rows.append({**register.row(entry), **extra.get(entry.name, {})})
    for person in people:
        if person not in register.by_name and not register.find(person):
            rows.append({"Joueur": person, **extra.get(person, {})})
    return rows


def read_palmares(book: Book, problems: Problems) -> list[tuple[object, ...]]:
    """The ``Palmarès`` table's lines as typed (none in a workbook made before it existed)."""
    return [tuple(record.values.get(c.header) for c in PALMARES.columns) for record in read_table(book, PALMARES, problems)]


def with_honours(palmares: Sequence[tuple[object, ...]], honours: Honours) -> tuple[list[tuple[object, ...]], bool]:
    """The palmarès with the season's line appended, unless a line already names that season (kept as typed);
    and whether it was appended."""
    key = fold(honours.season)
    if any(as_text(row[0]) is not None and fold(str(as_text(row[0]))) == key for row in palmares):
        return list(palmares), False
    return [*palmares, honours.row()], True


def type_parameters(wb: Workbook, spec: TableSpec, parameters: Sequence[Parameter]) -> None:
    """Type next season's parameters into the table, with a ``Commentaire`` column where the spec has one, and
    each value's number format."""
    commented = any(c.header == "Commentaire" for c in spec.columns)
    type_rows(wb, spec, [(p.name, p.value, p.comment) if commented else (p.name, p.value) for p in parameters])
    found = find_table(wb, spec.name)
    area = bounds(found[1]) if found else None
    if found is None or area is None:
        return
    ws = found[0]
    for offset, parameter in enumerate(parameters, start=1):
        if parameter.number_format:
            ws.cell(area[1] + offset, area[0] + 1).number_format = parameter.number_format


def next_workbook(new_workbook: Workbook, book: Book, parameters_spec: TableSpec, players_spec: TableSpec,
                  carry: Carry, honours: Honours) -> tuple[Workbook, list[str]]:
    """Next season's workbook: ``new_workbook`` (the federation's fresh template) with the carried parameters and
    players typed in, and the palmarès of ``book`` with the season's line; and what was carried, in French."""
    problems = Problems()
    palmares = read_palmares(book, problems)
    if problems:
        raise WorkbookProblems(problems.items)
    type_parameters(new_workbook, parameters_spec, carry.parameters)
    type_rows(new_workbook, players_spec, rows_for(players_spec, carry.players))
    rows, appended = with_honours(palmares, honours)
    type_rows(new_workbook, PALMARES, rows)
    podium = ", ".join(name for name in (honours.champion, honours.second, honours.third) if name) or "sans podium"
    season = f"« {honours.season} »" if honours.season else "la saison précédente"
    lines = [f"Repris : {len(carry.players)} joueur{'s' if len(carry.players) > 1 else ''} dans « Joueurs » "
             f"(club, identifiant, alias) ; palmarès de {len(rows)} saison{'s' if len(rows) > 1 else ''}"
             + (f", {season} ajoutée ({podium})." if appended else f" ({season} y figurait déjà, gardée telle quelle).")]
    return new_workbook, lines + carry.notes


__all__ = ["PALMARES", "Carry", "Honours", "Parameter", "add_season_sheets", "next_workbook", "read_palmares",
           "register_rows", "type_parameters", "with_honours"]
'''

# --- xlcircuit/workbook/sheets.py --------------------------------------------------------------------
_SOURCES['xlcircuit.workbook.sheets'] = False, r'''
"""What the federations' workbook modules share: the front sheet of a new workbook, reading cells and
the common input tables, the published tables' titles and highlights, the end of a report. The fill
procedure itself is :mod:`.procedure`.

Only the shape is shared here; every federation's tables, words and rules stay in its own module.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

import openpyxl
from openpyxl.styles import Font
from openpyxl.workbook.workbook import Workbook

from ..rules import limits
from ..rules.errors import InvalidInput, Problem
from ..rules.text import fold
from ..xlsx import Book, mark_federation
from .cells import as_text, put
from .read import read_table
from .spec import Column, Output, Problems, Record, TableSpec
from .write import add_input_table, type_rows, write_outputs

#: Podium colours of the standings (gold, silver, bronze), and the colour of a club's players.
PODIUM = {1: "FFE699", 2: "E7E6E6", 3: "F8CBAD"}
CLUB_COLOUR = "BDD7EE"
#: A tournament's name heads a column or a row of the published tables: kept short (:mod:`xlcircuit.limits`).
MAX_TOURNAMENT_NAME = limits.MAX_TOURNAMENT_NAME


T = TypeVar("T")
S = TypeVar("S")


# --- the template ----------------------------------------------------------------------------


def parameters_table(sheet: str, name: str = "Parametres", value_width: float = 30,
                     required: bool = False, comment: bool = False) -> TableSpec:
    """A Paramètre/Valeur input table, the one :func:`start_workbook` puts on the first sheet; with ``comment``, a
    ``Commentaire`` column (not read) says where each value comes from."""
    columns: tuple[Column, ...] = (Column("Paramètre", width=24), Column("Valeur", width=value_width))
    if comment:
        columns += (Column("Commentaire", required=False, width=80),)
    return TableSpec(sheet, name, columns, required, grows=False)  # the guide stands under it


def fill_step(number: int) -> list[str]:
    """The guide's last step, the same for every federation: where and how to run the fill."""
    return [
        f"{number}. Enregistrez et fermez ce classeur, puis remplissez-le : dans la fenêtre xlcircuit",
        "   (xlcircuit-fenetre, ou son raccourci), choisissez ce fichier et cliquez Remplir ; ou dans un",
        "   terminal ouvert dans le dossier de ce fichier : xlcircuit fill CE_FICHIER.xlsx",
        "   (installation : README de xlcircuit ; règles appliquées : docs/regles/ de xlcircuit).",
    ]


def start_workbook(heading: str, parameters: TableSpec, rows: Sequence[Sequence[object]],
                   tables: Sequence[TableSpec], guide: Sequence[str], guide_row: int) -> Workbook:
    """A new workbook: heading, parameters table (``rows`` typed) and guide on the first sheet, ``tables`` on theirs."""
    wb = openpyxl.Workbook()
    first = wb.active
    first.title = parameters.sheet
    put(first["A1"], heading)
    first["A1"].font = Font(bold=True, size=14)
    for spec in (parameters, *tables):
        if spec.sheet not in wb.sheetnames:
            wb.create_sheet(spec.sheet)
        add_input_table(wb, spec, at=(3, 1) if spec is parameters else (1, 1))
    type_rows(wb, parameters, rows)
    for row, text in enumerate(guide, start=guide_row):
        if text:  # a blank line is no cell: an empty text would not survive a save and reload
            put(first.cell(row, 1), text)
    first.cell(guide_row, 1).font = Font(bold=True)
    first.freeze_panes = None
    return wb


def finish_workbook(wb: Workbook, federation: str, titled: Iterable[tuple[TableSpec, str]]) -> None:
    """Put the empty published tables, each under its title, and mark the workbook as the federation's."""
    write_outputs(wb, [Output(spec, spec.columns, [], text) for spec, text in titled])
    mark_federation(wb, federation)


# --- reading ---------------------------------------------------------------------------------


def parse_cell(problems: Problems, record: Record, header: str, parser: Callable[..., T], *args) -> T | None:
    """The cell under ``header`` read by ``parser``; None, and a problem, when it cannot read it."""
    try:
        return parser(record.values.get(header), *args)
    except InvalidInput as exc:
        problems.at(record, header, str(exc))
        return None


@dataclass
class Parameters:
    """A Paramètre/Valeur table as read: each line by its folded parameter name (blank names left out)."""

    spec: TableSpec
    records: dict[str, Record]

    def value(self, name: str) -> object:
        """What ``name``'s Valeur cell holds; None when it is blank or the line is absent."""
        record = self.records.get(fold(name))
        return None if record is None else record.values.get("Valeur")

    def text(self, name: str) -> str | None:
        """``name``'s value as trimmed text; None when blank or absent."""
        return as_text(self.value(name))

    def parsed(self, name: str, parser: Callable[..., T], problems: Problems, *args: object) -> T | None:
        """``name``'s value read by ``parser``; None, and a problem at its cell, when it cannot read it
        (a blank or absent line gives what the parser gives for None)."""
        record = self.records.get(fold(name))
        if record is None:
            return parser(None, *args)
        return parse_cell(problems, record, "Valeur", parser, *args)

    def problem(self, name: str, message: str) -> Problem:
        """A problem at ``name``'s Valeur cell, or at the table when the line is absent."""
        record = self.records.get(fold(name))
        if record is None:
            return Problem(self.spec.sheet, None, "Paramètre", message)
        return record.problem("Valeur", message)


def read_parameters(book: Book, spec: TableSpec, problems: Problems, known: Sequence[str] | None = None) -> Parameters:
    """A Paramètre/Valeur table; with ``known``, a line naming any other parameter is a problem."""
    records: dict[str, Record] = {}
    allowed = None if known is None else {fold(name) for name in known}
    for record in read_table(book, spec, problems):
        typed = record.values["Paramètre"]
        if typed is None:
            continue
        key = fold(str(typed))
        if allowed is not None and key not in allowed:
            problems.at(record, "Paramètre", f"paramètre « {typed} » inconnu : "
                                             f"{' ou '.join(f'« {k} »' for k in known or ())} attendu")
            continue
        records.setdefault(key, record)
    return Parameters(spec, records)


def club_of(record: Record) -> str | None:
    """The ``Club`` cell of a ``Joueurs`` line (None when blank or when the table has no such column)."""
    return as_text(record.values.get("Club"))


class Clubs(dict[str, str]):
    """Player -> club, and where each player was typed (``cells``: player -> ``Joueurs!A5``)."""

    def __init__(self) -> None:
        super().__init__()
        self.cells: dict[str, str] = {}


def at_cell(record: Record, header: str) -> str:
    """Where a record's cell is, as a message names it: ``Résultats!B5``."""
    return f"{record.sheet}!{record.cells.get(header) or record.row}"


def tournament_name(record: Record, problems: Problems, seen: dict[str, Record], unit: str) -> str | None:
    """A Tournois line's name; None, and a problem, when it is blank, already in ``seen`` (any case) or too long."""
    name = as_text(record.values["Tournoi"])
    if name is None:
        problems.at(record, "Tournoi", "nom du tournoi manquant")
        return None
    key = name.casefold()
    if key in seen:
        problems.at(record, "Tournoi", f"tournoi « {name} » déjà déclaré ligne {seen[key].row} : "
                                       f"chaque {unit} a un nom unique (majuscules comprises)")
        return None
    if len(name) > MAX_TOURNAMENT_NAME:
        problems.at(record, "Tournoi", f"nom de {len(name)} caractères : {MAX_TOURNAMENT_NAME} au plus")
        return None
    return name


#: How a name cell of an input table is read: the register's name of the player it designates (problems added
#: to ``problems``), or None for a blank cell (:meth:`xlcircuit.workbook.register.Register.resolve`).
Resolve = Callable[[Problems, Record, str], "str | None"]


def _as_typed(problems: Problems, record: Record, header: str) -> str | None:
    return as_text(record.values.get(header))


def tournament_and_player(record: Record, problems: Problems, tournaments: Container[str],
                          resolve: Resolve = _as_typed) -> tuple[str | None, str | None]:
    """A result line's Tournoi and Joueur (read by ``resolve``: through the register); a problem for a blank one
    or a tournament not in ``tournaments``."""
    tournament = as_text(record.values["Tournoi"])
    if tournament is None:
        problems.at(record, "Tournoi", "nom du tournoi manquant")
    elif tournament not in tournaments:
        problems.at(record, "Tournoi", f"tournoi « {tournament} » absent de la table Tournois")
    player = resolve(problems, record, "Joueur")
    if player is None and as_text(record.values.get("Joueur")) is None:
        problems.at(record, "Joueur", "nom du joueur manquant")
    return tournament, player




# --- writing ---------------------------------------------------------------------------------




def podium_or_club(rows: Sequence[Sequence[object]], clubs: dict[str, str], club: str | None) -> dict[int, str]:
    """Standings rows (rank, player, …) to colour: the podium, or the players of ``club``."""
    if club is None:
        return {i: PODIUM[row[0]] for i, row in enumerate(rows) if row[0] in PODIUM}
    return {i: CLUB_COLOUR for i, row in enumerate(rows) if clubs.get(str(row[1])) == club}






'''

# --- xlcircuit/workbook/sources/__init__.py ----------------------------------------------------------
_SOURCES['xlcircuit.workbook.sources'] = True, r'''
"""Results an organiser already has, brought into a season's input tables (``xlcircuit import``), knowing no
federation: each federation declares what an imported line maps to (:class:`.mapping.Importer`, its adapter's
``importer``).

- :mod:`.grids`: the sources read into grids of values (``.xlsx``/``.xlsm``, ``.ods`` by :mod:`.ods`, ``.csv``
  with its encoding and delimiter found, a folder of them), within the engine's bounds;
- :mod:`.words`: the words sources head their columns with, in French and English;
- :mod:`.lines`: each grid's header row and columns found, its facts and rows read into lines (a :class:`Plan`),
  every problem located in the source; :mod:`.names` matches names to the season's players;
- :mod:`.preview`: what ``--essai`` shows;
- :mod:`.write`: the plan written into the season's tables (a source imported again replaces its lines);
- :mod:`.form`: the one-sheet workbook a tournament's organiser fills and sends.

What a federation's declaration needs is exported here; the use case imports the steps from their modules
(a fill loads none of them).
"""

from .mapping import SOURCE, Field, Form, Importer, Person

__all__ = ["SOURCE", "Field", "Form", "Importer", "Person"]
'''

# --- xlcircuit/workbook/sources/mapping.py -----------------------------------------------------------
_SOURCES['xlcircuit.workbook.sources.mapping'] = False, r'''
"""What a federation declares so that its results can be imported (its adapter's ``importer``), the importer
staying generic: which of the season's tables an imported line goes to, which column each value fills and how
sources head it, what names a tournament, and what goes to the tournaments' and players' tables."""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from ...rules.errors import InvalidInput
from ...rules.limits import MAX_TOURNAMENT_NAME
from ..cells import as_text, as_yes_no
from ..spec import TableSpec
from .words import heading_key

#: The column of the season's tables that says where an imported line came from: importing the same source
#: again replaces its lines.
SOURCE = "Source"

#: A value read from a source, as the season takes it (``InvalidInput``: a problem at its cell).
Parse = Callable[[object], object]
#: The federation's own check of a whole line (header -> value): (header, message) for each problem.
Check = Callable[[Mapping[str, object]], list[tuple[str, str]]]


@dataclass(frozen=True)
class Field:
    """A column of the season's table that an import fills, and how sources head it."""

    header: str  # the season table's column
    names: tuple[str, ...]  # how a source heads it (any case, accents optional: see :func:`.words.heading_key`)
    parse: Parse | None = None  # the value as the season takes it; None: the text as typed
    required: bool = False  # a line without it is a problem
    fact: bool = False  # may be given once, above the table (« Date : 12/10/2025 »), for all its lines
    person: bool = False  # a player's name: matched to the season's players

    @property
    def keys(self) -> set[str]:
        return {heading_key(name) for name in (self.header, *self.names)}


@dataclass(frozen=True)
class Person:
    """A person named once for a tournament, above or below its table (a DBM poule's referee): he gets a line
    with ``values``, or they are set on his line if he played."""

    field: Field
    values: Mapping[str, object]


@dataclass(frozen=True)
class Form:
    """The one-sheet workbook a tournament's organiser fills and sends (``xlcircuit new FED-tournoi``): what
    is asked once, above the table (each a heading the import recognises), and the table's headings."""

    title: str
    facts: tuple[str, ...]
    columns: tuple[str, ...]
    guide: tuple[str, ...] = ()
    choices: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # heading -> drop-down values
    widths: Mapping[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class Importer:
    """A federation's import: its lines' table and fields, what a tournament is, and where the rest goes."""

    lines: TableSpec  # the season's table imported lines go to
    fields: tuple[Field, ...]  # its columns a source may fill; the first person field is the player
    key: tuple[str, ...]  # the headers that say what a line belongs to (its tournament, game, match)
    form: Form
    named: str | None = None  # the key that a sheet (or file) names when the source does not say (``--tournoi``)
    what: str = "tournoi"  # how the organiser calls what ``key`` names (« tournoi », « partie », « match »)
    tournaments: TableSpec | None = None  # where each tournament has its row (added when missing)
    about: tuple[Field, ...] = ()  # a tournament's own fields (date, rounds), written on its row of ``tournaments``
    players: TableSpec | None = None  # the players' table
    player_fields: tuple[Field, ...] = ()  # what a line says of its player (club), written on his row of ``players``
    register: bool = False  # every player new to the season gets his row in ``players``
    people: tuple[Person, ...] = ()
    placeholders: tuple[str, ...] = ()  # a line whose columns these are all blank (typed in advance) is filled in place
    check: Check | None = None

    @functools.cached_property
    def player(self) -> Field:
        return next(f for f in self.fields if f.person)

    def describe(self, key: tuple[object, ...]) -> str:
        """A tournament (game, match) as messages name it: its name, or each part of its key with its header
        (« Ronde 1, Table 3 »)."""
        if len(self.key) == 1:
            return _shown(key[0])
        return ", ".join(f"{header} {_shown(value)}" for header, value in zip(self.key, key) if value is not None)

    def field(self, header: str) -> Field | None:
        return next((f for f in (*self.fields, *self.about, *self.player_fields) if f.header == header), None)


def _shown(value: object) -> str:
    if isinstance(value, dt.date):
        return f"{value:%d/%m/%Y}"
    return "" if value is None else str(value)


# --- parsers the federations' declarations share -----------------------------------------------------------


def yes(value: object) -> str | None:
    """A yes/no cell as the season's tables write it: ``oui``, or blank."""
    return "oui" if as_yes_no(value) else None


def tournament_name(value: object) -> str | None:
    """A tournament's name: trimmed text, at most :data:`MAX_TOURNAMENT_NAME` characters."""
    name = as_text(value)
    if name is not None and len(name) > MAX_TOURNAMENT_NAME:
        raise InvalidInput(f"nom de tournoi de {len(name)} caractères : {MAX_TOURNAMENT_NAME} au plus")
    return name


def text(value: object) -> str | None:
    """Trimmed text (a number as written: ``3``, not ``3.0``)."""
    return as_text(value)
'''

# --- xlcircuit/workbook/sources/words.py -------------------------------------------------------------
_SOURCES['xlcircuit.workbook.sources.words'] = False, r'''
"""How sources head their columns: the words the framework knows for what every federation shares (a place, a
player, his surname and first name, his club, a role, a tournament, a date), in French and English with the
usual abbreviations, and the key a heading is compared by (any case, accents optional, ``Clt.`` = ``clt``,
``Place (finale)`` = ``place``). A federation adds its own words in its declaration (:class:`.mapping.Field`)."""

from __future__ import annotations

import re

from ...rules.text import clean, fold

#: A player's full name in one column (« NOM Prénom » or « Prénom Nom »).
PLAYER = ("joueur", "joueuse", "joueur/joueuse", "joueurs", "nom prenom", "nom et prenom", "prenom nom",
          "prenom et nom", "nom complet", "participant", "participante", "concurrent", "player", "full name",
          "player name", "nom du joueur", "pseudo")
#: A surname, when a first-name column stands beside it (alone, it is the full name).
SURNAME = ("nom", "nom de famille", "name", "last name", "lastname", "surname", "family name")
FIRST_NAME = ("prenom", "first name", "firstname", "given name", "forename")
PLACE = ("place", "pl", "plc", "rang", "rg", "classement", "clt", "classt", "class final", "classement final",
         "place finale", "position", "pos", "rank", "ranking", "final rank", "final place", "final standing",
         "standing")
CLUB = ("club", "association", "asso", "club association", "club d'appartenance", "club/association")
ROLE = ("role", "fonction", "qualite")
TOURNAMENT = ("tournoi", "tournament", "competition", "epreuve", "event", "nom du tournoi", "tournoi / poule")
DATE = ("date", "jour", "date du tournoi", "day")
YES_NO = ("oui", "non")


_PARENTHESES = re.compile(r"\([^)]*\)")
_PUNCTUATION = re.compile(r"[._:*/\\\-–—'’\"]+")


def heading_key(text: object) -> str:
    """The key a heading is recognised by: folded (case, accents), what stands in parentheses left out,
    punctuation read as a space (``N°``'s degree sign kept): ``Clt.`` → ``clt``, ``Nom-Prénom`` → ``nom prenom``."""
    if text is None:
        return ""
    folded = fold(str(text)).replace("\u00a0", " ")
    key = clean(_PUNCTUATION.sub(" ", _PARENTHESES.sub(" ", folded)))
    return key or clean(_PUNCTUATION.sub(" ", folded))


def label_key(text: object) -> tuple[str, str | None]:
    """A cell read as « label : value » (a fact above a table): the label's key and the value typed after the
    colon (None when the cell is the label alone, its value in the next cell)."""
    if not isinstance(text, str):
        return "", None
    label, colon, rest = text.partition(":")
    if colon:
        return heading_key(label), rest.strip() or None
    return heading_key(text), None
'''

# --- xlcircuit/workbook/spec.py ----------------------------------------------------------------------
_SOURCES['xlcircuit.workbook.spec'] = False, r'''
"""What the table framework knows of a table: its spec (sheet, name, columns), a row read from it
(:class:`Record`), the problems found (:class:`Problems`), and a table ready to be written (:class:`Output`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..rules.errors import Problem


@dataclass(frozen=True)
class Column:
    """A column of a table: its header, whether an input table must have it, and its look."""

    header: str
    required: bool = True
    width: float = 14
    number_format: str | None = None
    choices: tuple[str, ...] = ()  # offered as a drop-down list in the template
    data_bar: bool = False  # a total: shown with data bars


@dataclass(frozen=True)
class TableSpec:
    """A table the batch mode knows: the sheet the template puts it on, its name, its columns."""

    sheet: str
    name: str
    columns: tuple[Column, ...]
    required: bool = True  # an optional table may be missing: it then reads as empty
    #: Rows typed under the table (LibreOffice does not grow tables) are taken into it. A table whose sheet
    #: has text of its own below it (the guide under the parameters) only has such rows reported.
    grows: bool = True


@dataclass
class Record:
    """One row of an input table: what each known column shows, and where it stands."""

    sheet: str
    row: int
    values: dict[str, object]
    cells: dict[str, str]

    def problem(self, header: str, message: str) -> Problem:
        return Problem(self.sheet, self.row, header, message, self.cells.get(header))


@dataclass
class Problems:
    """Problems of a workbook, gathered so that all of them are reported at once."""

    items: list[Problem] = field(default_factory=list)
    #: Cells (sheet, cell) said unreadable (an error value): what a parser says of them after is left out,
    #: since the organiser has one thing to fix there.
    _unreadable: set[tuple[str, str]] = field(default_factory=set, repr=False)
    _added: int = field(default=0, repr=False)  # every problem added, those left out included

    def add(self, problem: Problem) -> None:
        self._added += 1
        if problem.cell is None or (problem.sheet, problem.cell) not in self._unreadable:
            self.items.append(problem)

    def unreadable(self, problem: Problem) -> None:
        """A cell that holds no data (an error value): this problem, and no other at the same cell."""
        self.add(problem)
        if problem.cell is not None:
            self._unreadable.add((problem.sheet, problem.cell))

    def at(self, record: Record, header: str, message: str) -> None:
        self.add(record.problem(header, message))

    def mark(self) -> int:
        """A mark to ask :meth:`since` whether a line added problems (skip the line then)."""
        return self._added

    def since(self, mark: int) -> bool:
        """Whether a problem was added since ``mark`` (one left out at an unreadable cell counts)."""
        return self._added > mark

    def __bool__(self) -> bool:
        return bool(self.items)


@dataclass
class Output:
    """An output table ready to be written: where, under which columns, which rows, and its look."""

    spec: TableSpec
    columns: Sequence[Column]
    rows: Sequence[Sequence[object]]
    title: str | None = None  # written two rows above the table
    highlights: dict[int, str] = field(default_factory=dict)  # row index -> fill colour (RRGGBB)
    #: (row index, column index) -> the look of one cell (a weighted or set-aside result).
    marks: dict[tuple[int, int], Mark] = field(default_factory=dict)
    notes: Sequence[str] = ()  # legend lines printed under the table
    repeat_columns: int = 0  # leading columns (rank, name) repeated on every page when columns spill over


@dataclass(frozen=True)
class Mark:
    """The look of one cell of a published table: a fill colour, italic, struck through, grey text."""

    fill: str | None = None
    italic: bool = False
    strike: bool = False
    grey: bool = False

'''

# --- xlcircuit/workbook/wording.py -------------------------------------------------------------------
_SOURCES['xlcircuit.workbook.wording'] = False, r'''
"""French wording the adapters share: counts, numbers with the decimal comma, titles, report and explanation
lines."""

from __future__ import annotations

import datetime as dt
import difflib
from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

from ..rules.errors import XlcircuitError
from ..rules.mechanics import format_half_up
from ..rules.text import fold

T = TypeVar("T")


def count(n: int, singular: str, plural: str | None = None) -> str:
    """``n`` and the word, in the plural from 2 on as French has it (« 1 tournoi », « 0 tournoi », « 2 tournois »)."""
    return f"{n} {singular if abs(n) < 2 else plural or singular + 's'}"



def of(name: str) -> str:
    """« de » before a name, elided before a vowel as French writes it: « de Yves », « d'Ana », « d'Éric »."""
    return f"d'{name}" if fold(name[:1]) in tuple("aeiouy") and name[:1] else f"de {name}"


def season_years(dates: Iterable[dt.date | None]) -> str:
    """The years the dates span: ``2025``, ``2025-2026``, or '' without a date."""
    years = sorted({date.year for date in dates if date})
    return "" if not years else str(years[0]) if len(years) == 1 else f"{years[0]}-{years[-1]}"


def title(name: str, what: str, season: str = "", day: dt.date | None = None) -> str:
    """A published table's title: ``name season — what``, then ``au dd/mm/yyyy`` when ``day`` is given."""
    text = f"{name} {season}".strip() + f" — {what}"
    return f"{text} au {day:%d/%m/%Y}" if day else text


def percents(weights: Sequence[float], last: str = ", ") -> str:
    """Weights as a guide states them: ``100, 80, 40, 20`` (``last`` joins the last two: `` et ``)."""
    shown = [format_half_up(w * 100, 0) for w in weights]
    return shown[0] if len(shown) < 2 else ", ".join(shown[:-1]) + last + shown[-1]


def decimal_comma(x: float, digits: int) -> str:
    """A number rounded half up to ``digits`` decimals, with the French decimal comma."""
    return format_half_up(x, digits).replace(".", ",")


def top_lines(items: Sequence[T], shown: int, sheet: str, line: Callable[[T], str]) -> list[str]:
    """A report's first ``shown`` lines, then how many more there are on ``sheet``."""
    lines = [line(item) for item in items[:shown]]
    if len(items) > shown:
        lines.append(f"  … et {len(items) - shown} autres (feuille « {sheet} »).")
    return lines


def signed(x: float, digits: int = 0) -> str:
    text = decimal_comma(x, digits)
    return text if text.startswith("-") or text.strip("0,") == "" else "+" + text


def nth(n: int | None) -> str:
    return "?" if n is None else "1er" if n == 1 else f"{n}e"


def when(day: dt.date | None) -> str:
    return f"{day:%d/%m/%Y}" if day else "sans date"


def summed(values: Iterable[float], digits: int, total: str) -> str:
    """``a + b - c = total``, each term as published (the total as the standings print it)."""
    values = list(values)
    if len(values) < 2:
        return total
    text = decimal_comma(values[0], digits)
    for v in values[1:]:
        shown = decimal_comma(v, digits)
        text += f" - {decimal_comma(-v, digits)}" if shown.startswith("-") else f" + {shown}"
    return f"{text} = {total}"


def find_player(wanted: str, names: Iterable[str]) -> str:
    """The name of the standings ``wanted`` designates: exactly, else the one name equal but for case, accents
    and spaces; a clear error otherwise, with the names that come close."""
    names = list(dict.fromkeys(names))
    if wanted in names:
        return wanted
    same = [n for n in names if fold(n) == fold(wanted)]
    if len(same) == 1:
        return same[0]
    close = same or difflib.get_close_matches(wanted, names, n=5, cutoff=0.6) or [
        n for n in names if fold(wanted) in fold(n)][:5]
    hint = f" Noms proches : {', '.join(f'« {n} »' for n in close)}." if close else ""
    raise XlcircuitError(f"« {wanted} » n'est pas dans ce classeur (le nom s'écrit comme dans les résultats)."
                         + hint)


#: Characters that make a shell split or read a word: a file name holding one is quoted in a suggested command.
_SHELL_SPECIAL = set(" \t'&|;<>()$`!*?[]{}#~^%")


def typed(argument: object) -> str:
    """An argument as it must be typed in a command (Windows' cmd, PowerShell, a Mac or Linux terminal): a file
    name with spaces between double quotes (``TdF 2025-2026.xlsx`` -> ``"TdF 2025-2026.xlsx"``)."""
    text = str(argument)
    if text and not _SHELL_SPECIAL & set(text) and '"' not in text:
        return text
    return f"'{text}'" if '"' in text else f'"{text}"'
'''

# --- xlcircuit/workbook/write.py ---------------------------------------------------------------------
_SOURCES['xlcircuit.workbook.write'] = False, r'''
"""Output tables rewritten in place at each fill (grown or shrunk; whatever stands around them on their
sheet is left alone), input tables typed into (the example, tests), tables laid out afresh removed."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from openpyxl.cell.cell import Cell
from openpyxl.styles import Alignment, PatternFill
from openpyxl.styles.cell_style import StyleArray
from openpyxl.styles.fonts import DEFAULT_FONT
from openpyxl.utils import get_column_letter, range_boundaries
from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.worksheet.filters import AutoFilter
from openpyxl.worksheet.table import Table, TableColumn, TableStyleInfo
from openpyxl.worksheet.worksheet import Worksheet

from ..rules.errors import Problem, WorkbookProblems
from .cells import clean_text, put
from .layout import (
    HEADER_HEIGHT,
    TITLE_ROWS,
    clear_notes,
    column_width,
    is_our_rule,
    print_one_page_wide,
    set_column_width,
    style_output,
)
from .read import MAX_COLUMN, MAX_ROW, bounds, cells_in, find_table, inside, overlap, table_key
from .spec import Column, Output, Problems, TableSpec

TABLE_STYLE = "TableStyleMedium2"


#: Rows given a drop-down list in a fresh template.
VALIDATION_ROWS = 2000


_FAST_TYPES = {str: "s", int: "n", float: "n", dt.date: "d", dt.datetime: "d"}


def _put_rows(ws: Worksheet, columns: Sequence[Column], rows: Sequence[Sequence[object]], first_row: int,
              first_col: int) -> None:
    """:func:`put` for every non-blank value of ``rows``, the first of each kind of cell of a column made by
    :func:`put` itself and the others as its copies: the same cells, many times faster (a season's tables
    have hundreds of thousands of them)."""
    cells = ws._cells
    made: dict[tuple[int, str, bool], StyleArray] = {}  # (offset, data type, quoted) -> the first such cell's style
    texts: dict[str, tuple[str, bool]] = {}  # text -> (it without illegal characters, whether it looks like a formula)
    width = len(columns)
    area = (first_col, first_row, first_col + width - 1, first_row + len(rows) - 1)
    fresh = not cells_in(ws, area)  # no cell there yet: none to keep the look of
    new = object.__new__
    for r, values in enumerate(rows, start=first_row):
        # Blanks create no cell: a season table is mostly blank (who did not play where).
        for offset, value in enumerate(values[:width]):
            if value is None:
                continue
            col = first_col + offset
            kind = _FAST_TYPES.get(value.__class__)
            if kind is None or (not fresh and (r, col) in cells) or (kind == "d" and not columns[offset].number_format):
                put(ws.cell(r, col), value, columns[offset].number_format)
                continue
            quoted = False
            if isinstance(value, str):
                known = texts.get(value)
                if known is None:
                    known = texts[value] = clean_text(value)
                value, quoted = known
            key = (offset, kind, quoted)
            if key not in made:
                cell = ws.cell(r, col)
                put(cell, value, columns[offset].number_format)
                made[key] = cell._style
                continue
            # Cell(ws, r, col, style_array=…), its attributes set here: the constructor's calls cost half.
            style = made[key]
            cell = new(Cell)
            cell.parent, cell._style, cell.row, cell.column = ws, None if style is None else StyleArray(style), r, col
            cell._value, cell.data_type, cell._hyperlink, cell._comment = value, kind, None, None
            cells[r, col] = cell


def _place(wb: Workbook, output: Output, at: tuple[int, int] | None) -> tuple[Worksheet, Table | None, int, int]:
    """Where an output table is, or where it will be created (``at``, else A1, or A3 under a title)."""
    found = find_table(wb, output.spec.name)
    if found:
        ws, table = found
        min_col, min_row, _, _ = bounds(table) or (1, TITLE_ROWS + 1 if output.title else 1, 1, 1)
        return ws, table, min_col, min_row
    sheet = output.spec.sheet
    ws = wb[sheet] if sheet in wb.sheetnames else wb.create_sheet(sheet)
    row, col = at or (TITLE_ROWS + 1 if output.title else 1, 1)
    return ws, None, col, row


def _occupied(ws: Worksheet, area: tuple[int, int, int, int], allowed: tuple[int, int, int, int] | None) -> str | None:
    """The first non-empty cell of ``area`` outside ``allowed``, if any."""
    for cell in sorted(cells_in(ws, area), key=lambda c: (c.row, c.column)):
        if cell.value is None:
            continue
        if allowed and allowed[0] <= cell.column <= allowed[2] and allowed[1] <= cell.row <= allowed[3]:
            continue
        return cell.coordinate
    return None


def write_table(wb: Workbook, output: Output, problems: Problems,
                at: tuple[int, int] | None = None) -> Worksheet | None:
    """Rewrite a table, growing or shrinking it in place (or creating it at ``at``); returns its sheet.

    If the table would spread over cells of the organiser's, that is a problem and nothing is written.
    """
    spec, columns, rows = output.spec, output.columns, output.rows
    ws, table, min_col, min_row = _place(wb, output, at)
    old = bounds(table) if table is not None else None
    if table is not None and old is None:
        problems.add(Problem(ws.title, None, None, f"la table « {spec.name} » a une étendue illisible "
                             f"({str(table.ref)[:40]}) : supprimez-la (xlcircuit la recrée), puis relancez"))
        return None
    max_col = min_col + len(columns) - 1
    max_row = min_row + max(len(rows), 1)  # a table keeps at least one (blank) data row
    new = (min_col, min_row, max_col, max_row)
    if not _room_for(ws, spec, table, old, new, problems):
        return None
    if old is not None:
        _clear_table(ws, old)
        _follow_rows(ws, old, new)
    for offset, column in enumerate(columns):
        put(ws.cell(min_row, min_col + offset), column.header)
    _put_rows(ws, columns, rows, min_row + 1, min_col)
    _frame_table(ws, table, spec, columns, new)
    return ws


def _room_for(ws: Worksheet, spec: TableSpec, table: Table | None, old: tuple[int, int, int, int] | None,
              new: tuple[int, int, int, int], problems: Problems) -> bool:
    """Whether a table may spread over ``new``: inside the sheet, over no organiser's cell nor other table."""
    if new[3] > MAX_ROW or new[2] > MAX_COLUMN:
        problems.add(Problem(ws.title, None, None, f"la table « {spec.name} » dépasserait le bas ou le bord droit "
                             "de la feuille : déplacez-la vers le haut à gauche, puis relancez"))
        return False
    if old is not None:
        clear_notes(ws, old)  # an earlier legend under the table is ours: the table may grow over it
    taken = _occupied(ws, new, old)
    others = [t for t in ws.tables.values() if t is not table and (b := bounds(t)) is not None and overlap(b, new)]
    if taken or others:
        where = taken or others[0].ref
        problems.add(Problem(ws.title, None, None, f"la table « {spec.name} » doit s'étendre sur {where}, "
                             "qui n'est pas vide : déplacez ce qui s'y trouve, puis relancez", where))
        return False
    return True


def _clear_table(ws: Worksheet, old: tuple[int, int, int, int]) -> None:
    """Empty the area a table stood on of its values, the marks of an earlier fill and its conditional formats."""
    for cell in cells_in(ws, old):
        cell.value = None
        if cell.fill.fill_type is not None:
            cell.fill = PatternFill()
        if cell.font.i or cell.font.strike:  # a weighted or set-aside result's mark
            cell.font = DEFAULT_FONT
        if cell.alignment.wrap_text and cell.row > old[1]:
            cell.alignment = Alignment()
    _drop_rules(ws, old)


def _frame_table(ws: Worksheet, table: Table | None, spec: TableSpec, columns: Sequence[Column],
                 area: tuple[int, int, int, int]) -> None:
    """Set (or create) the table object over ``area`` with its columns, and the widths the organiser left unset."""
    min_col, min_row, max_col, max_row = area
    ref = f"{get_column_letter(min_col)}{min_row}:{get_column_letter(max_col)}{max_row}"
    if table is None:
        table = Table(displayName=spec.name, ref=ref,
                      tableStyleInfo=TableStyleInfo(name=TABLE_STYLE, showRowStripes=True))
        ws.add_table(table)
    table.ref = ref
    table.headerRowCount, table.totalsRowCount = 1, None  # one header row, no totals row, whatever the file said
    table.autoFilter = AutoFilter(ref=ref)
    table.sortState = None
    table.tableColumns = [TableColumn(id=i, name=c.header) for i, c in enumerate(columns, start=1)]
    for offset, column in enumerate(columns):
        if column_width(ws, min_col + offset) is None:  # a width the organiser set is kept
            set_column_width(ws, min_col + offset, column.width)


def write_outputs(wb: Workbook, outputs: Sequence[Output]) -> list[Worksheet]:
    """Write every output table with its look, or none: all problems are reported together."""
    problems = Problems()
    sheets = [write_table(wb, output, problems) for output in outputs]
    if problems:
        raise WorkbookProblems(problems.items)
    for ws, output in zip(sheets, outputs):
        style_output(ws, output)
    return sheets


def _drop_rules(ws: Worksheet, *areas: tuple[int, int, int, int]) -> None:
    """Remove the conditional formats a previous fill put inside output tables (each inside one of ``areas``):
    its data bars (:func:`layout.is_our_rule`). The organiser's own rules there stay."""
    rules = ws.conditional_formatting._cf_rules
    # dict.items: the ordered dict's own iteration would hash each range (openpyxl hashes its text) again.
    for formatting, listed in list(dict.items(rules)):
        bounds = [range_boundaries(str(r)) for r in formatting.sqref.ranges]
        if not (bounds and all(any(inside(b, area) for area in areas) for b in bounds)):
            continue
        kept = [rule for rule in listed if not is_our_rule(rule)]
        if not kept:
            del rules[formatting]
        elif len(kept) < len(listed):
            rules[formatting] = kept


def _follow_rows(ws: Worksheet, old: tuple[int, int, int, int], new: tuple[int, int, int, int]) -> None:
    """The organiser's conditional formats over whole columns of a published table's rows follow its rows
    when a fill grows or shrinks it (a rule on D4:D87 becomes D4:D95)."""
    first, last = old[1] + 1, old[3]
    if last < first or new[3] == last:
        return
    rules = ws.conditional_formatting._cf_rules
    for formatting, listed in list(dict.items(rules)):
        ranges = [range_boundaries(str(r)) for r in formatting.sqref.ranges]
        moved = [(c1, r1, c2, new[3] if (r1, r2) == (first, last) and old[0] <= c1 and c2 <= old[2] else r2)
                 for c1, r1, c2, r2 in ranges]
        if moved != ranges:
            del rules[formatting]
            area = " ".join(f"{get_column_letter(c1)}{r1}:{get_column_letter(c2)}{r2}" for c1, r1, c2, r2 in moved)
            for rule in listed:
                ws.conditional_formatting.add(area, rule)


def type_rows(wb: Workbook, spec: TableSpec, rows: Sequence[Sequence[object]]) -> None:
    """Type rows into an input table, as an organiser would (the example season, tests, benchmarks)."""
    problems = Problems()
    write_table(wb, Output(spec, spec.columns, rows), problems)
    if problems:
        raise WorkbookProblems(problems.items)


def add_input_table(wb: Workbook, spec: TableSpec, at: tuple[int, int] = (1, 1)) -> None:
    """Put an empty input table at ``at`` (row, column), with drop-down lists where the spec offers choices."""
    problems = Problems()
    ws = write_table(wb, Output(spec, spec.columns, []), problems, at)
    if ws is None:
        raise WorkbookProblems(problems.items)
    ws.freeze_panes = ws.cell(at[0] + 1, 1)
    print_one_page_wide(ws, at[0])
    first = at[0] + 1
    for offset, column in enumerate(spec.columns, start=at[1]):
        letter = get_column_letter(offset)
        if column.choices:
            rule = DataValidation(type="list", formula1='"' + ",".join(column.choices) + '"', allow_blank=True,
                                  showErrorMessage=False)
            rule.add(f"{letter}{first}:{letter}{first + VALIDATION_ROWS - 1}")
            ws.add_data_validation(rule)


def remove_tables(ws: Worksheet, names: Sequence[str]) -> list[tuple[int, int, int, int]]:
    """Remove published tables of ``ws`` with what :func:`write_table` and :func:`style_output` put there:
    their cells (values and looks), titles, conditional formats, header rows' heights. Returns where each
    stood. For tables laid out afresh at each fill (several stacked on a sheet, in varying number)."""
    areas = []
    for name in names:
        key = table_key(ws, name)
        area = range_boundaries(ws.tables[key].ref)
        del ws.tables[key]
        for cell in cells_in(ws, area):
            del ws._cells[cell.row, cell.column]
        if area[1] > TITLE_ROWS:
            ws._cells.pop((area[1] - TITLE_ROWS, area[0]), None)
        header = ws.row_dimensions.get(area[1])
        if header is not None and header.height == HEADER_HEIGHT:
            header.height = None
            if not dict(header):  # nothing else set on that row: as if never touched
                del ws.row_dimensions[area[1]]
        areas.append(area)
    _drop_rules(ws, *areas)
    return areas

'''

# --- xlcircuit/xlsx/__init__.py ----------------------------------------------------------------------
_SOURCES['xlcircuit.xlsx'] = True, r'''
"""The xlsx engine: workbooks opened safely, filled surgically, saved atomically. It knows no federation
and no table convention: it is given which tables and sheets a fill owns, and copies every other part of
the package as it is.

What the rings outside use is imported from here; the modules behind it are the engine's own business.
"""

from . import excel_forms  # noqa: F401  # openpyxl's serialisers set to Excel's forms, for every save
from .book import Book, mark_federation, paused_gc
from .cells import table_values
from .files import lock_of, save_atomic
from .ooxml import Unsupported
from .plan import Owned
from .safe import MAX_CELLS, MAX_RATIO, MAX_UNCOMPRESSED
from .unkept import CONDITIONAL_FORMAT_EXTENSIONS
from .values import SheetValues, sheet_values

__all__ = ["CONDITIONAL_FORMAT_EXTENSIONS", "MAX_CELLS", "MAX_RATIO", "MAX_UNCOMPRESSED", "Book", "Owned", "SheetValues",
           "Unsupported", "lock_of", "mark_federation", "paused_gc", "save_atomic", "sheet_values", "table_values"]
'''

# --- xlcircuit/xlsx/book.py --------------------------------------------------------------------------
_SOURCES['xlcircuit.xlsx.book'] = False, r'''
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
'''

# --- xlcircuit/xlsx/cells.py -------------------------------------------------------------------------
_SOURCES['xlcircuit.xlsx.cells'] = False, r'''
"""The cell reader of the input tables: the cells of a sheet's XML in given areas, read as openpyxl reads them.

Two readers, one result: the fast one reads, at the speed of a regular expression, the cells as openpyxl, Excel
and LibreOffice write them (``<c r="A1" s="1" t="s"><v>0</v></c>``); a sheet written any other way (namespace
prefixes, attributes in another order or quoted otherwise, CDATA...) is read by the exact one, an XML parser
(expat). A value no spreadsheet writes (a shared string that does not exist, a number that is none) is a
:class:`BadCell`, which the caller reports as a damaged file."""

from __future__ import annotations

import html
import re
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from xml.parsers import expat

from openpyxl.utils import get_column_letter
from openpyxl.utils.datetime import from_excel, from_ISO8601
from openpyxl.workbook.workbook import Workbook

from .ooxml import _P, MAIN, _column
from .package import Package

_SHEET_DATA = re.compile(rb"<" + _P + rb"sheetData\b[^>]*?(?:/>|>(.*?)</" + _P + rb"sheetData>)", re.S)
_CELL = re.compile(rb"<" + _P + rb"c\b([^>]*?)(?:/>|>(.*?)</" + _P + rb"c>)", re.S)
_VALUE = re.compile(rb"<" + _P + rb"v\b[^>]*?(?:/>|>(.*?)</" + _P + rb"v>)", re.S)
_FORMULA = re.compile(rb"<" + _P + rb"f\b[^>]*?(?:/>|>(.*?)</" + _P + rb"f>)", re.S)
_TEXT = re.compile(rb"<" + _P + rb"t\b[^>]*?(?:/>|>(.*?)</" + _P + rb"t>)", re.S)
_PHONETIC = re.compile(rb"<" + _P + rb"rPh\b.*?</" + _P + rb"rPh>", re.S)
_STRING_ITEM = re.compile(rb"<" + _P + rb"si\b[^>]*?(?:/>|>(.*?)</" + _P + rb"si>)", re.S)
_REF = re.compile(r"\$?([A-Z]{1,3})\$?(\d+)$")


class BadCell(ValueError):
    """A cell no spreadsheet writes; its message says which and why, in French."""


def _sheet_data(xml: bytes) -> tuple[int, int] | None:
    """Where the content of ``<sheetData>`` is in a sheet's XML (found at C speed: sheets are large)."""
    start = xml.find(b"<sheetData")
    if start < 0:
        return None
    opening = xml.index(b">", start)
    if xml[opening - 1:opening] == b"/":
        return opening + 1, opening + 1
    end = xml.rfind(b"</sheetData>")
    if end < opening:
        return None
    return opening + 1, end


def _text(raw: bytes | None) -> str:
    if not raw:
        return ""
    text = raw.decode("utf-8")
    if "\r" in text:  # an XML parser normalises line ends
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return html.unescape(text) if "&" in text else text


def _rich(raw: bytes | None) -> str:
    """The text of an ``<is>`` or ``<si>``: its ``<t>`` runs, phonetic guides left out (as openpyxl reads it)."""
    if not raw:
        return ""
    if b"rPh" in raw:
        raw = _PHONETIC.sub(b"", raw)
    return "".join(_text(t) for t in _TEXT.findall(raw))


def shared_strings(package: Package) -> list[str]:
    parts = [r.part for r in package.rels(package.workbook) if r.type.endswith("/sharedStrings")]
    if not parts or parts[0] not in package.names:
        return []
    return [_rich(item) for item in _STRING_ITEM.findall(package.read(parts[0]))]


_PLAIN_ITEM = re.compile(rb'<t(?: xml:space="preserve")?>([^<]*)</t>')


def plain_shared_strings(package: Package) -> dict[str, int]:
    """The shared strings that are plain text (one run, no format, no phonetic guide), by text: a cell of that
    text can point to one instead of holding its own copy, as Excel writes it, the part left as it is."""
    parts = [r.part for r in package.rels(package.workbook) if r.type.endswith("/sharedStrings")]
    if not parts or parts[0] not in package.names:
        return {}
    found: dict[str, int] = {}
    for index, item in enumerate(_STRING_ITEM.findall(package.read(parts[0]))):
        plain = _PLAIN_ITEM.fullmatch(item) if item else None
        if plain is not None and plain.group(1):
            found.setdefault(_text(plain.group(1)), index)
    return found


def _number(text: str) -> int | float:
    try:
        if "." in text or "E" in text or "e" in text:
            return float(text)
        try:
            return int(text)
        except ValueError:
            return float(text)
    except ValueError:
        raise BadCell(f"« {text[:40]} » n'est pas un nombre") from None


@dataclass(slots=True)
class ReadCell:
    row: int
    column: int
    value: object
    data_type: str
    cached: object = None  # a formula's value as last calculated


@dataclass(frozen=True)
class _Context:
    """What reading values needs: the shared strings, the workbook's date and duration styles, its epoch."""

    strings: list[str]
    dates: set
    durations: set
    epoch: object

    @classmethod
    def of(cls, strings: list[str], wb: Workbook) -> _Context:
        return cls(strings, wb._date_formats, wb._timedelta_formats, wb.epoch)


_FAST_CELL = re.compile(
    rb'<c r="([A-Z]{1,3})(\d+)"(?: s="(\d+)")?(?: t="(\w+)")?(?: s="(\d+)")?\s*(?:/>|>(?:<v>([^<]*)</v>'
    rb'|<is><t>([^<]*)</t></is>|<is><t xml:space="preserve">([^<]*)</t></is>|(.*?))</c>)', re.S)
_LETTERS: dict[bytes, int] = {}


def read_cells(xml: bytes, areas: list[tuple[int, int, int, int]], strings: list[str], wb: Workbook) -> list[ReadCell]:
    """The cells of a sheet's XML that fall in ``areas``, read as openpyxl reads them (dates, numbers, text);
    blank cells left out. :class:`BadCell` for a cell no spreadsheet writes."""
    context = _Context.of(strings, wb)
    span = _sheet_data(xml) if _unprefixed(xml, b"worksheet") else None
    if span is not None:
        if span[0] == span[1]:
            return []
        start, end = span  # read in place: a season's sheet is tens of MB, not copied
        expected = xml.count(b"<c", start, end)  # every cell, and nothing else of sheetData, starts so
        found, matched = _read_fast(xml, start, end, areas, context)
        if matched == expected:
            return found
    return _read_exactly(xml, areas, context)  # prefixes, attributes in another order, or others


def _read_fast(xml: bytes, start: int, end: int, areas: list[tuple[int, int, int, int]],
               context: _Context) -> tuple[list[ReadCell], int]:
    """The cells the fast pattern reads between ``start`` and ``end``, and how many it matched."""
    dates = context.dates
    found: list[ReadCell] = []
    matched = 0
    letters_of = _LETTERS
    for match in _FAST_CELL.finditer(xml, start, end):
        matched += 1
        letters, row, s1, t, s2, v, text, spaced, inner = match.groups()
        column = letters_of.get(letters)
        if column is None:
            column = letters_of[letters] = _column(letters.decode())
        r = int(row)
        for a in areas:
            if a[0] <= column <= a[2] and a[1] <= r <= a[3]:
                break
        else:
            continue
        # Most of a season's cells, read here: a plain inline text, a number that is not a date.
        if text and b"&" not in text and b"\r" not in text:
            found.append(ReadCell(r, column, text.decode("utf-8"), "s"))
        elif v and (t is None or t == b"n") and not inner and int(s1 or s2 or 0) not in dates:
            found.append(ReadCell(r, column, _number(v.decode()), "n"))
        elif (cell := _matched_cell(r, column, s1 or s2, t, v, text or spaced, inner, context)) is not None:
            found.append(cell)
    return found, matched


def _matched_cell(row: int, column: int, style: bytes | None, t: bytes | None, v: bytes | None,
                  text: bytes | None, inner: bytes | None, context: _Context) -> ReadCell | None:
    """The cell one match of the fast pattern found: its inner XML read in full, else its inline text or value."""
    kind = (t or b"n").decode()
    if inner:
        raw = _VALUE.search(inner)
        formula = _FORMULA.search(inner)
        return _cell(row, column, int(style or 0), kind, _text(raw.group(1) if raw else None),
                     None if formula is None else _text(formula.group(1)), _rich(inner), context)
    if text:
        return ReadCell(row, column, _text(text), "s")
    return _cell(row, column, int(style or 0), kind, _text(v), None, None, context)


def _cell(row: int, column: int, style: int, kind: str, text: str, formula: str | None, inline: str | None,
          context: _Context) -> ReadCell | None:
    """A cell read: its value from ``text`` (a ``<v>``), its formula's (``None``: none) or its inline text
    (``None``: no ``<is>``)."""
    if formula is not None:
        return ReadCell(row, column, "=" + formula, "f", _value(kind, text, style, context)[0])
    if kind == "inlineStr":
        return None if inline is None else ReadCell(row, column, inline, "s")
    value, data_type = _value(kind, text, style, context)
    return None if value is None else ReadCell(row, column, value, data_type)


def _value(kind: str, text: str, style: int, context: _Context) -> tuple[object, str]:
    if not text:
        return None, "s" if kind in ("s", "str") else kind
    if kind == "n":
        number = _number(text)
        if style in context.dates:
            try:
                return from_excel(number, context.epoch, timedelta=style in context.durations), "d"
            except (OverflowError, ValueError):
                return "#VALUE!", "e"
        return number, "n"
    if kind == "s":
        index = _number(text)
        if not isinstance(index, int) or not 0 <= index < len(context.strings):
            raise BadCell(f"la chaîne partagée n° {text[:40]} n'existe pas")
        return context.strings[index], "s"
    if kind == "b":
        number = _number(text)
        if not isinstance(number, int):
            raise BadCell(f"« {text[:40]} » n'est pas une valeur logique")
        return bool(number), "b"
    if kind == "str":
        return text, "s"
    if kind == "d":
        try:
            return from_ISO8601(text), "d"
        except (ValueError, OverflowError):
            raise BadCell(f"« {text[:40]} » n'est pas une date") from None
    return text, kind


def _unprefixed(xml: bytes, root: bytes) -> bool:
    """Whether the part's root element is ``root`` in the default namespace (what the fast paths read)."""
    return re.match(rb"(?:\s|<\?xml[^>]*\?>|<!--.*?-->)*<" + root + rb"\b", xml, re.S) is not None


def _in(areas: list[tuple[int, int, int, int]], column: int, row: int) -> bool:
    return any(a[0] <= column <= a[2] and a[1] <= row <= a[3] for a in areas)


# --- the exact reader ------------------------------------------------------------------------------------


def _read_exactly(xml: bytes, areas: list[tuple[int, int, int, int]], context: _Context) -> list[ReadCell]:
    """The cells in ``areas``, read by an XML parser: any prefix, attribute order or quoting, CDATA, entities."""
    reader = _Exact(areas, context)
    parser = expat.ParserCreate(namespace_separator=" ")
    parser.buffer_text = True
    parser.StartElementHandler = reader.start
    parser.EndElementHandler = reader.end
    parser.CharacterDataHandler = reader.text
    try:
        parser.Parse(xml, True)
    except expat.ExpatError as exc:  # checked whole when opened (safe._Scanner): only a part read without it
        raise BadCell(f"XML invalide, ligne {exc.lineno}") from None
    return reader.found


class _Exact:
    """expat's handlers gathering the cells of a sheet: each ``<c>`` with its ``<v>``, ``<f>`` and inline
    text (phonetic guides left out)."""

    def __init__(self, areas: list[tuple[int, int, int, int]], context: _Context):
        self.areas, self.context = areas, context
        self.found: list[ReadCell] = []
        self.cell: tuple[int, int, int, str] | None = None  # row, column, style, type of the cell being read
        self.value: list[str] = []
        self.formula: list[str] | None = None  # None: no <f>
        self.inline: list[str] | None = None  # None: no <is>
        self.capture: list[str] | None = None
        self.phonetic = 0
        self.row = self.column = 0  # where a cell without reference goes

    def start(self, name: str, attrs: dict[str, str]) -> None:
        uri, _, local = name.rpartition(" ")
        if uri != MAIN:
            return
        if local == "c":
            self._open_cell(attrs)
        elif local == "row":
            self._open_row(attrs)
        elif self.cell is None:
            return
        elif local == "rPh":
            self.phonetic += 1
        elif local == "v":
            self.capture = self.value
        elif local == "f":
            self.capture = self.formula = []
        elif local == "is":
            self.inline = []
        elif local == "t" and not self.phonetic and self.inline is not None:
            self.capture = self.inline

    def _open_row(self, attrs: dict[str, str]) -> None:
        """A row: its number, or the one after the previous row's (as openpyxl numbers rows without one)."""
        number = attrs.get("r")
        if number is None:
            self.row += 1
        else:
            try:
                value = float(number)
            except ValueError:
                raise BadCell(f"une ligne a pour numéro « {number[:20]} »") from None
            if not value.is_integer():
                raise BadCell(f"une ligne a pour numéro « {number[:20]} »")
            self.row = int(value)
        self.column = 0

    def _open_cell(self, attrs: dict[str, str]) -> None:
        ref = attrs.get("r")
        if not ref:  # placed after the previous cell of its row, as openpyxl places it
            self.column += 1
            row, column = self.row, self.column
        else:
            where = _REF.match(ref)
            if where is None:
                raise BadCell(f"une cellule a pour référence « {ref[:20]} »")
            row, column = int(where.group(2)), _column(where.group(1))
            self.column = column
        style = attrs.get("s", "0").strip() or "0"
        if not style.isdigit():
            raise BadCell(f"une cellule (ligne {row}) a pour style « {style[:20]} »")
        self.cell = (row, column, int(style), attrs.get("t", "n"))
        self.value, self.formula, self.inline, self.capture, self.phonetic = [], None, None, None, 0

    def text(self, data: str) -> None:
        if self.capture is not None:
            self.capture.append(data)

    def end(self, name: str) -> None:
        uri, _, local = name.rpartition(" ")
        if uri != MAIN or self.cell is None:
            return
        if local == "rPh":
            self.phonetic -= 1
        elif local in ("v", "f", "t"):
            self.capture = None
        elif local == "c":
            self._close_cell()

    def _close_cell(self) -> None:
        assert self.cell is not None
        row, column, style, kind = self.cell
        self.cell = None
        if not _in(self.areas, column, row):
            return
        formula = None if self.formula is None else "".join(self.formula)
        inline = None if self.inline is None else "".join(self.inline)
        cell = _cell(row, column, style, kind, "".join(self.value), formula, inline, self.context)
        if cell is not None:
            self.found.append(cell)


# --- a table's columns, read alone -----------------------------------------------------------------------

def table_values(path: Path, name: str, headers: Collection[str] | None = None) -> list[list[object]] | None:
    """The cells of the table called ``name`` (any case) as the file at ``path`` holds them, row by row, its
    header first (a formula by its last calculated value, dates as dates); None when it has no such table.
    With ``headers``, only those columns are read (the others are None): a published table of a large season
    is read in a fraction of the time. Read from the sheet's XML, without openpyxl's model of the workbook;
    raises :class:`Unsupported` (or what a damaged part raises) when the table cannot be read so."""
    from openpyxl.styles.stylesheet import apply_stylesheet

    package = Package(path)
    try:
        table = package.table(name)
        if table is None:
            return None
        sheet = next(s for s in package.sheets if s.name == table.sheet)
        styles = Workbook()
        apply_stylesheet(package.source_file.zip, styles)  # which number formats are dates
        xml = package.read(sheet.part)
        strings = shared_strings(package) if b't="s"' in xml or b"t='s'" in xml else []
        min_col, min_row, max_col, max_row = table.bounds
        grid: list[list[object]] = [[None] * (max_col - min_col + 1) for _ in range(max_row - min_row + 1)]
        columns = _table_columns(package, table.part)
        wanted = None
        if headers is not None and len(columns) == max_col - min_col + 1:
            keys = {h.casefold() for h in headers}
            wanted = [min_col + i for i, header in enumerate(columns) if header.casefold() in keys]
            grid[0] = list(columns)
        cells = _columns_cells(xml, wanted, table.bounds, strings, styles) if wanted else None
        if cells is None:
            cells = read_cells(xml, [table.bounds], strings, styles)
        for cell in cells:
            grid[cell.row - min_row][cell.column - min_col] = cell.cached if cell.data_type == "f" else cell.value
        return grid
    finally:
        package.close()


def _table_columns(package: Package, part: str) -> list[str]:
    """The column names a table part declares, in order."""
    from defusedxml import ElementTree as SafeET

    node = SafeET.fromstring(package.read(part))
    return [column.get("name", "") for column in node.iter() if column.tag.rsplit("}", 1)[-1] == "tableColumn"]


def _columns_cells(xml: bytes, columns: list[int], area: tuple[int, int, int, int], strings: list[str],
                   wb: Workbook) -> list[ReadCell] | None:
    """The cells of ``columns`` in ``area``, found by a pattern that skips the other columns' cells at C speed;
    None when the sheet is not written as that pattern reads it (then read it all)."""
    span = _sheet_data(xml)
    if not _unprefixed(xml, b"worksheet") or span is None:
        return None
    start, end = span
    letters = b"|".join(get_column_letter(c).encode() for c in columns)
    pattern = re.compile(_FAST_CELL.pattern.replace(rb"([A-Z]{1,3})", b"(" + letters + b")", 1), re.S)
    every = re.compile(rb"<c\b[^>]*?\br=\"(?:" + letters + rb")\d")
    context = _Context.of(strings, wb)
    found: list[ReadCell] = []
    matched = 0
    for match in pattern.finditer(xml, start, end):
        matched += 1
        letters_found, row, s1, t, s2, v, text, spaced, inner = match.groups()
        r = int(row)
        if not area[1] <= r <= area[3]:
            continue
        cell = _matched_cell(r, _column(letters_found.decode()), s1 or s2, t, v, text or spaced, inner, context)
        if cell is not None:
            found.append(cell)
    if matched != len(every.findall(xml, start, end)):
        return None  # attributes in another order somewhere
    return found
'''

# --- xlcircuit/xlsx/compat.py ------------------------------------------------------------------------
_SOURCES['xlcircuit.xlsx.compat'] = False, r'''
"""The version of openpyxl the surgical fill was written for.

The surgical fill leans on openpyxl's private internals (a worksheet's ``_cells``, a workbook's style lists
``_cell_styles``, ``_fonts``..., its worksheet writer, read-only cells' slots) and on zipfile's (a member's
compression level, a zip's ``_didModify``). With another openpyxl, whose internals may differ, a fill takes the
full rewrite (through openpyxl's public model only), and says so."""

from __future__ import annotations

import openpyxl

#: The openpyxl the tests run on (``pyproject.toml`` pins it).
WRITTEN_FOR = "3.1.5"


def refusal() -> str | None:
    """Why the surgical fill cannot be taken with the openpyxl installed, in French (None: it can)."""
    if openpyxl.__version__ != WRITTEN_FOR:
        return (f"openpyxl {openpyxl.__version__} est installé, et l'écriture ciblée de xlcircuit est faite pour "
                f"openpyxl {WRITTEN_FOR}")
    missing = [name for name, present in _internals() if not present]
    if missing:
        return f"openpyxl {openpyxl.__version__} n'a pas les éléments internes attendus ({', '.join(missing)})"
    return None


def _internals() -> list[tuple[str, bool]]:
    from openpyxl.cell.read_only import ReadOnlyCell
    from openpyxl.worksheet._writer import WorksheetWriter

    wb = openpyxl.Workbook()
    ws = wb.active
    cell = ws["A1"]
    slots = set(getattr(ReadOnlyCell, "__slots__", ()))
    return [
        ("Worksheet._cells", isinstance(getattr(ws, "_cells", None), dict)),
        ("Worksheet._charts, _images", hasattr(ws, "_charts") and hasattr(ws, "_images")),
        ("Workbook._cell_styles", all(hasattr(wb, a) for a in ("_cell_styles", "_fonts", "_fills", "_borders",
                                                                "_number_formats", "_alignments", "_protections",
                                                                "_differential_styles", "_date_formats",
                                                                "_timedelta_formats"))),
        ("Cell._style, _value", all(hasattr(cell, a) for a in ("_style", "_value", "_hyperlink", "_comment"))),
        ("ReadOnlyCell.__slots__", {"parent", "row", "column", "_value", "data_type", "_style_id"} <= slots),
        ("WorksheetWriter.write_rows", all(hasattr(WorksheetWriter, a) for a in ("write_rows", "write", "read"))),
    ]
'''

# --- xlcircuit/xlsx/excel_forms.py -------------------------------------------------------------------
_SOURCES['xlcircuit.xlsx.excel_forms'] = False, r'''
"""Where openpyxl 3.1 writes a part unlike Excel, corrected once, when the engine is imported: every workbook
xlcircuit writes goes through openpyxl's serialisers (the whole workbook on the full rewrite, the output sheets
on a surgical fill), and each of these made a finding that workbooks saved by Excel never have
(``tests/excel_check.py``, calibrated on workbooks saved by Excel).

- Print titles: openpyxl writes the rows, then the columns (``'S'!$3:$3,'S'!$A:$B``); Excel writes the
  columns first (``'S'!$A:$B,'S'!$3:$3``).
- Pictures: a picture's shape guides (``<a:avLst/>``, ``<a:gd>``) read from a file are written back in the
  spreadsheet drawing's namespace instead of DrawingML's, which the schema does not allow there.
- Fonts: openpyxl writes a font's children name first; Excel (and the schema's order the Open XML SDK checks)
  writes them ``b``, ``i``, ``strike``… ``sz``, ``color``, ``name``, ``family``, ``charset``, ``scheme``.

Each is a class attribute of openpyxl's, the same for every workbook: reading is unchanged (openpyxl reads
children in any order and either form of print titles).
"""

from __future__ import annotations

from openpyxl.drawing import geometry
from openpyxl.styles.fonts import Font
from openpyxl.worksheet.print_settings import PrintTitles, quote_sheetname
from openpyxl.xml.constants import DRAWING_NS

#: A font's children in the order Excel writes them (ECMA-376 as the Open XML SDK orders CT_Font).
FONT_ORDER = ("b", "i", "strike", "condense", "extend", "outline", "shadow", "u", "vertAlign", "sz", "color",
              "name", "family", "charset", "scheme")


def _print_titles(self: PrintTitles) -> str:
    """Print titles as Excel writes them: the columns, then the rows."""
    title = quote_sheetname(self.title)
    return ",".join(f"{title}!{value}" for value in (self.cols, self.rows) if value)


def apply() -> None:
    """Set openpyxl's serialisers to Excel's forms (idempotent)."""
    PrintTitles.__str__ = _print_titles
    geometry.GeomGuideList.namespace = DRAWING_NS
    geometry.GeomGuide.namespace = DRAWING_NS
    if sorted(Font.__elements__) == sorted(FONT_ORDER):  # a later openpyxl with other children: left as it is
        Font.__elements__ = FONT_ORDER


apply()
'''

# --- xlcircuit/xlsx/files.py -------------------------------------------------------------------------
_SOURCES['xlcircuit.xlsx.files'] = False, r'''
"""Files on disk: who else is writing them, locks, read-only, temporary files and their leftovers, backups,
and the atomic save."""

from __future__ import annotations

import contextlib
import errno
import functools
import hashlib
import os
import re
import shutil
import socket
import stat
import sys
import tempfile
import time
import zipfile
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path

from ..rules.errors import WorkbookError
from .ooxml import Unsupported


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


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve() or (a.exists() and os.path.samefile(a, b))
    except OSError:
        return False


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


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


def save_atomic(wb, target: str | os.PathLike[str], before_replace: Callable[[], None] | None = None,
                expected: str | None = None, check: Callable[[Path], None] | None = None) -> Path:
    """Write ``wb`` (a workbook, or anything with its ``save(path)``) to a temporary file beside ``target``,
    check it is a sound zip, then put it in ``target``'s place (:func:`_put_in_place`).

    Through a symbolic link, the file it points to is written (the link stays a link). ``before_replace`` runs
    last, just before the replacement (it may refuse it by raising). ``expected``: the digest ``target`` must still
    have (what was read), checked on what the replacement took away; if it is not, that is put back. ``check`` is
    given the file written, and may refuse it by raising. If anything fails, ``target`` is left as it was.
    Leftovers of killed runs are removed first.
    """
    target = Path(target)
    real = Path(os.path.realpath(target))
    folder = real.parent
    remove_leftovers(folder)
    tmp = _temp_beside(real)
    try:
        _write(wb, tmp, target.name)
        with zipfile.ZipFile(tmp) as archive:
            broken = archive.testzip()
        if broken is not None:
            raise WorkbookError(f"L'enregistrement de {target.name} a produit un fichier abîmé ({broken}) : "
                                "l'original n'a pas été modifié.")
        if check is not None:
            check(tmp)
        os.chmod(tmp, real.stat().st_mode & 0o777 if real.exists() else 0o666 & ~_umask())
        if before_replace is not None:
            before_replace()
        _put_in_place(tmp, real, expected, target.name)
    finally:
        tmp.unlink(missing_ok=True)
    return target


def _digits_as_text(wb) -> None:
    """A whole number beyond any spreadsheet's numbers (a cell of hundreds of digits) as its digits, in text:
    openpyxl cannot write it as a number (the surgical writer does the same)."""
    for ws in getattr(wb, "worksheets", ()):
        for cell in getattr(ws, "_cells", {}).values():
            value = cell._value
            if value.__class__ is int and abs(value) > sys.float_info.max:
                cell.value = str(value)


def _write(wb, tmp: Path, name: str) -> None:
    """``wb.save(tmp)``, flushed to the disk; anything failing is one sentence, the original untouched."""
    try:
        with _own_system_temp():
            if hasattr(wb, "worksheets"):  # an openpyxl workbook (the surgical writer has its own)
                _digits_as_text(wb)
            wb.save(tmp)
        with tmp.open("rb+") as written:
            os.fsync(written.fileno())  # on disk before it replaces the original
    except OSError as exc:
        raise WorkbookError(f"Impossible d'enregistrer {name} ({exc.strerror or exc}) : l'original n'a pas été "
                            "modifié.") from None
    except MemoryError:
        raise WorkbookError(f"Impossible d'enregistrer {name} : la mémoire de cet ordinateur n'y suffit pas ; "
                            "l'original n'a pas été modifié.") from None
    except (Unsupported, ValueError, TypeError, KeyError, AttributeError, IndexError, zipfile.BadZipFile,
            zlib.error, EOFError) as exc:
        # openpyxl's writer meeting what its reader let through from a damaged file, or a member of the
        # original that cannot be copied
        what = str(exc) if isinstance(exc, Unsupported) else type(exc).__name__
        raise WorkbookError(f"Impossible d'enregistrer {name}, une partie du classeur lu est abîmée ({what}) : "
                            "l'original n'a pas été modifié ; ouvrez-le dans votre tableur, enregistrez-le sous un "
                            "autre nom, puis relancez.") from None


# --- putting a written file in place: an atomic exchange where the system has one --------------------


def changed_meanwhile(name: str) -> WorkbookError:
    return WorkbookError(f"{name} a été modifié par un autre programme pendant le travail de xlcircuit : rien n'a "
                         "été écrit (l'autre enregistrement est intact), relancez.")


def _locked(name: str) -> WorkbookError:
    return WorkbookError(f"{name} est ouvert dans un autre programme (Excel ?) : fermez-le et relancez.")


def _put_in_place(tmp: Path, target: Path, expected: str | None, name: str) -> None:
    """Put the file written at ``tmp`` in ``target``'s place, atomically.

    Where the system exchanges two names atomically (Linux, macOS, Windows' ReplaceFile), the exchange is made,
    then what it took away is compared with ``expected``: another program that saved ``target`` in between (a
    temporary file renamed onto it, as Excel and LibreOffice save) gets its save put back, and nothing is
    written. Elsewhere ``target`` is compared just before a plain replacement."""
    try:
        if not os.path.lexists(target):
            _new_file(tmp, target, name)
            return
        previous = _exchange(tmp, target)
        if previous is None:  # no atomic exchange here: compared, then replaced
            if expected is not None and file_digest(target) != expected:
                raise changed_meanwhile(name)
            os.replace(tmp, target)
            return
        if expected is not None and file_digest(previous) != expected:
            _put_back(previous, target, name)
            raise changed_meanwhile(name)
        previous.unlink(missing_ok=True)
    except PermissionError:
        raise _locked(name) from None
    except OSError as exc:
        raise WorkbookError(f"Impossible d'enregistrer {name} ({exc.strerror or exc}) : l'original n'a pas été "
                            "modifié.") from None


def _new_file(tmp: Path, target: Path, name: str) -> None:
    """``tmp`` given the name ``target``, which must still be free (a file that appeared meanwhile is kept)."""
    try:
        os.link(tmp, target)  # fails if the name is taken, instead of replacing it
    except FileExistsError:
        raise WorkbookError(f"{name} a été créé par un autre programme pendant l'enregistrement : rien n'a été "
                            "écrit (ce fichier est intact), relancez.") from None
    except OSError:  # a file system without hard links
        os.close(os.open(target, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        os.replace(tmp, target)
        return
    tmp.unlink()


def _put_back(previous: Path, target: Path, name: str) -> None:
    """Put back in ``target``'s place the other program's save, which the exchange moved to ``previous``; if
    the system refuses, keep it beside, under a name no file has."""
    try:
        ours = _exchange(previous, target)
        if ours is not None:
            if ours != previous:  # Windows: the fill, kept as ReplaceFile's backup
                ours.unlink(missing_ok=True)
            return
    except OSError:
        pass
    kept = _copy_new(previous, _names_beside(target, "enregistré par un autre programme"))
    raise WorkbookError(f"{name} a été enregistré par un autre programme pendant le remplissage : cet "
                        f"enregistrement est gardé dans « {kept.name} », à côté du classeur rempli ; comparez-les, "
                        "puis relancez.")


def _names_beside(path: Path, words: str) -> Iterator[Path]:
    """``NOM (words[ N]).xlsx``, N = 2, 3... after the first."""
    n = 1
    while True:
        yield path.with_name(f"{path.stem} ({words}{'' if n == 1 else f' {n}'}){path.suffix}")
        n += 1


def file_digest(path: Path) -> str | None:
    """The SHA-256 of a file's bytes (None: it cannot be read)."""
    digest = hashlib.sha256()
    try:
        with path.open("rb") as handle:
            while chunk := handle.read(1 << 20):
                digest.update(chunk)
    except OSError:
        return None
    return digest.hexdigest()


def _exchange(tmp: Path, target: Path) -> Path | None:
    """``tmp`` put in ``target``'s place in one step; returns where the file it replaced now is (None: this
    system cannot, and nothing was done)."""
    swap = _system_exchange()
    if swap is None:
        return None
    return swap(tmp, target)


@functools.cache
def _system_exchange() -> Callable[[Path, Path], Path | None] | None:
    """The system's atomic exchange of two names: Linux ``renameat2(RENAME_EXCHANGE)``, macOS
    ``renamex_np(RENAME_SWAP)``, Windows ``ReplaceFileW`` (the replaced file kept as a backup)."""
    import ctypes

    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = getattr(libc, "renameat2", None)
        if renameat2 is None:
            return None
        renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
        at_cwd, exchange = -100, 2
        return lambda a, b: _swapped(renameat2(at_cwd, os.fsencode(a), at_cwd, os.fsencode(b), exchange), a, b)
    if sys.platform == "darwin":
        libc = ctypes.CDLL(None, use_errno=True)
        renamex_np = getattr(libc, "renamex_np", None)
        if renamex_np is None:
            return None
        renamex_np.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_uint]
        return lambda a, b: _swapped(renamex_np(os.fsencode(a), os.fsencode(b), 2), a, b)
    if sys.platform == "win32":
        return _windows_replace
    return None


def _swapped(result: int, a: Path, b: Path) -> Path | None:
    """A swap's outcome: ``a`` now holds what ``b`` held; None where the file system cannot swap."""
    if result == 0:
        return a
    import ctypes

    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP, errno.EOPNOTSUPP):  # this file system cannot
        return None
    raise OSError(code, os.strerror(code), str(b))


def _windows_replace(tmp: Path, target: Path) -> Path | None:
    """Windows: ``ReplaceFileW`` puts ``tmp`` in ``target``'s place and keeps what it replaced as a backup."""
    import ctypes
    from ctypes import wintypes

    kernel = ctypes.WinDLL("kernel32", use_last_error=True)  # type: ignore[attr-defined]
    replace = kernel.ReplaceFileW
    replace.argtypes = [wintypes.LPCWSTR, wintypes.LPCWSTR, wintypes.LPCWSTR, wintypes.DWORD, wintypes.LPVOID,
                        wintypes.LPVOID]
    replace.restype = wintypes.BOOL
    backup = tmp.with_name(tmp.stem + "-avant.tmp")  # a leftover the next run removes
    if replace(str(target), str(tmp), str(backup), 0x2, None, None):  # REPLACEFILE_IGNORE_MERGE_ERRORS
        return backup
    code = ctypes.get_last_error()  # type: ignore[attr-defined]
    if code in (5, 32, 33):  # access denied, sharing violation, lock violation: open elsewhere
        raise PermissionError(13, "fichier verrouillé", str(target))
    if code == 1:  # ERROR_INVALID_FUNCTION: the file system cannot
        return None
    raise OSError(code, f"ReplaceFileW : erreur {code}", str(target))
'''

# --- xlcircuit/xlsx/ooxml.py -------------------------------------------------------------------------
_SOURCES['xlcircuit.xlsx.ooxml'] = False, r'''
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
'''

# --- xlcircuit/xlsx/package.py -----------------------------------------------------------------------
_SOURCES['xlcircuit.xlsx.package'] = False, r'''
"""The package reader: the parts of a workbook as its zip holds them, and the map of its sheets and tables."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, BinaryIO
from xml.etree.ElementTree import Element, ParseError

from defusedxml import DefusedXmlException
from defusedxml import ElementTree as SafeET
from openpyxl.utils import range_boundaries

from ..rules.errors import WorkbookError
from .ooxml import _SHEET_KINDS, CONTENT_TYPES, MAIN, OFFICE_RELS, PACKAGE_RELS, rels_part, resolve

if TYPE_CHECKING:
    from .safe import Opened


@dataclass
class Rel:
    id: str
    type: str
    target: str
    external: bool
    part: str  # the part it points to (resolved), '' for an external target


@dataclass
class SheetInfo:
    name: str
    sheet_id: int
    rid: str
    part: str
    kind: str  # worksheet, chartsheet...
    index: int


@dataclass
class TableInfo:
    name: str  # displayName
    ref: str
    id: int
    part: str
    sheet: str

    @property
    def bounds(self) -> tuple[int, int, int, int]:
        return range_boundaries(self.ref)


class Package:
    """The parts of a workbook as its zip holds them, and the map of its sheets and tables.

    It reads through the guarded reader (:class:`.safe.Opened`), which checked every part first; a map that does
    not hold (a sheet without its part, an id or a range that is no number or no range) is a damaged file: one
    sentence (:class:`WorkbookError`)."""

    def __init__(self, source: Opened | str | os.PathLike[str]):
        if not hasattr(source, "handle"):
            from .safe import Opened  # a path: opened (and checked) here

            source = Opened(source)
        self.source_file: Opened = source  # type: ignore[assignment]
        self.path = self.source_file.path
        self.infos = self.source_file.infos
        self.names = self.source_file.names
        self._rels: dict[str, list[Rel]] = {}
        self._check_roots()
        roots = [r for r in self.rels("") if r.type.endswith("/officeDocument")]
        self.workbook = roots[0].part if roots else "xl/workbook.xml"
        if self.workbook not in self.names:
            raise self.damaged(f"il manque sa partie principale {self.workbook}")
        self.sheets = self._sheets()
        self.tables: dict[str, list[TableInfo]] = {s.name: self._tables(s) for s in self.sheets}

    def damaged(self, what: str) -> WorkbookError:
        return WorkbookError(f"{self.source_file.name} est endommagé et ne peut pas être lu ({what}) : ouvrez-le "
                             "dans votre tableur, enregistrez-le sous un autre nom, puis relancez.")

    def close(self) -> None:
        self.source_file.close()

    @contextlib.contextmanager
    def source(self) -> Iterator[BinaryIO]:
        """The package's file as it was read, to copy members' raw bytes from."""
        yield self.source_file.handle

    def read(self, part: str) -> bytes:
        return self.source_file.read(part)

    def xml(self, part: str) -> Element:
        """A part parsed (safely: the guarded reader refused document types already); one that is not
        well-formed XML is a damaged file."""
        try:
            root: Element = SafeET.fromstring(self.read(part))
        except (ParseError, DefusedXmlException):
            raise self.damaged(f"XML invalide dans {part}") from None
        return root

    def _check_roots(self) -> None:
        """The package's own parts (its content types, every relationship part) are what their names say, in their
        namespace: Excel reads no package whose parts are typed or linked otherwise, and a fill patches them."""
        expected = [("[Content_Types].xml", CONTENT_TYPES, "Types")] if "[Content_Types].xml" in self.names else []
        expected += [(name, PACKAGE_RELS, "Relationships") for name in sorted(self.names) if name.endswith(".rels")]
        for part, uri, name in expected:
            tag = self.xml(part).tag
            found_uri, _, found = tag[1:].rpartition("}") if tag.startswith("{") else ("", "", tag)
            if (found_uri, found) != (uri, name):
                raise self.damaged(f"la racine de {part} est « {found} » de l'espace de noms « {found_uri} », "
                                   f"attendu « {name} » de l'espace de noms « {uri} »")

    def rels(self, part: str) -> list[Rel]:
        """The relationships of ``part`` ('' for the package's own)."""
        if part not in self._rels:
            name = "_rels/.rels" if part == "" else rels_part(part)
            rels = []
            if name in self.names:
                outside = {rid for rid, _ in self.source_file.outside_relations.get(name, ())}
                for node in self.xml(name):
                    if node.get("Id", "") in outside and node.get("TargetMode") != "External":
                        continue  # named outside the package: left out (a warning says so)
                    external = node.get("TargetMode") == "External"
                    target = node.get("Target", "")
                    rels.append(Rel(node.get("Id", ""), node.get("Type", ""), target, external,
                                    "" if external else resolve(part or "/", target)))
            self._rels[part] = rels
        return self._rels[part]

    def _sheets(self) -> list[SheetInfo]:
        by_id = {r.id: r for r in self.rels(self.workbook)}
        sheets = []
        for index, node in enumerate(self.xml(self.workbook).iter(f"{{{MAIN}}}sheet")):
            name = node.get("name", "")
            rel = by_id.get(node.get(f"{{{OFFICE_RELS}}}id", ""))
            if rel is None or rel.part not in self.names:
                raise self.damaged(f"la feuille « {name} » n'a pas de partie")
            kind = next((k.strip("/") for k in _SHEET_KINDS if rel.type.endswith(k)), "other")
            sheet_id = _number(node.get("sheetId"))
            if sheet_id is None:
                raise self.damaged(f"la feuille « {name} » a pour numéro « {node.get('sheetId')} »")
            sheets.append(SheetInfo(name, sheet_id, rel.id, rel.part, kind, index))
        return sheets

    def _tables(self, sheet: SheetInfo) -> list[TableInfo]:
        tables = []
        for rel in self.rels(sheet.part):
            if rel.type.endswith("/table") and rel.part in self.names:
                node = self.xml(rel.part)
                name, ref = node.get("displayName") or node.get("name") or "", node.get("ref", "")
                table_id = _number(node.get("id"))
                if table_id is None:
                    raise self.damaged(f"la table « {name} » ({rel.part}) a pour numéro « {node.get('id')} »")
                if not _is_range(ref):
                    raise self.damaged(f"la table « {name} » ({rel.part}) a pour plage « {ref} », qui n'en est pas une")
                tables.append(TableInfo(name, ref, table_id, rel.part, sheet.name))
        return tables

    def table(self, name: str) -> TableInfo | None:
        key = name.casefold()
        return next((t for ts in self.tables.values() for t in ts if t.name.casefold() == key), None)

    def reachable(self, roots: Iterable[str], skip: Collection[str] = ()) -> set[str]:
        """Every part reachable from ``roots`` through relationships (not following those of ``skip``)."""
        seen: set[str] = set()
        todo = list(roots)
        while todo:
            part = todo.pop()
            if part in seen or part not in self.names:
                continue
            seen.add(part)
            if rels_part(part) in self.names:
                seen.add(rels_part(part))
            if part in skip:
                continue
            todo += [r.part for r in self.rels(part) if not r.external]
        return seen



def _number(text: str | None) -> int | None:
    """An id as the file writes it (digits), else None."""
    text = (text or "").strip()
    return int(text) if text.isdigit() and len(text) <= 10 else None


def _is_range(ref: str) -> bool:
    """Whether ``ref`` is a range of cells within a sheet's bounds (A1 to XFD1048576)."""
    try:
        min_col, min_row, max_col, max_row = range_boundaries(ref)
    except (ValueError, TypeError):
        return False
    return None not in (min_col, min_row, max_col, max_row) and 1 <= min_col <= max_col <= 16384 \
        and 1 <= min_row <= max_row <= 1048576
'''

# --- xlcircuit/xlsx/parts/__init__.py ----------------------------------------------------------------
_SOURCES['xlcircuit.xlsx.parts'] = True, r'''
"""One unit per OOXML part the surgical fill changes: each takes the part's bytes as the package holds them
and gives the new bytes, every byte it does not need to change kept as it was (tested part by part, an input
part against the exact XML expected, in ``tests/test_parts.py``).

- :mod:`.content_types`: ``[Content_Types].xml``
- :mod:`.relationships`: the ``.rels`` parts (``_rels/.rels``, ``xl/_rels/workbook.xml.rels``...)
- :mod:`.workbook`: ``xl/workbook.xml`` (sheets, print names, recalculation on opening)
- :mod:`.styles`: ``xl/styles.xml``
- :mod:`.calc_chain`: ``xl/calcChain.xml``
- :mod:`.app`: ``docProps/app.xml``
- :mod:`.custom`: ``docProps/custom.xml``
- :mod:`.table`: ``xl/tables/tableN.xml``
"""
'''

# --- xlcircuit/xlsx/parts/app.py ---------------------------------------------------------------------
_SOURCES['xlcircuit.xlsx.parts.app'] = False, r'''
"""``docProps/app.xml``: the extended properties (the program that saved, the company...), with the list of
the workbook's sheets Excel writes for information (``HeadingPairs`` and ``TitlesOfParts``)."""

from __future__ import annotations

from ..ooxml import Located

PART = "docProps/app.xml"
EXTENDED = "http://schemas.openxmlformats.org/officeDocument/2006/extended-properties"


def without_sheet_lists(xml: bytes, part: str = PART) -> bytes:
    """The properties without their list of sheets (both elements are optional; Excel writes them afresh at its
    next save): when a fill adds a sheet the list would leave it out. Unchanged when there is none."""
    located = Located(xml, part)
    root = located.root
    edits = [(n.start, n.end, b"") for n in located.children(root)
             if n.uri == EXTENDED and n.name in ("HeadingPairs", "TitlesOfParts")]
    return located.spliced(edits) if edits else xml
'''

# --- xlcircuit/xlsx/parts/calc_chain.py --------------------------------------------------------------
_SOURCES['xlcircuit.xlsx.parts.calc_chain'] = False, r'''
"""``xl/calcChain.xml``: the order in which Excel last calculated the formula cells, sheet by sheet (ECMA-376
§18.6). A fill rewrites its sheets' cells: their entries go (Excel rebuilds the chain as it recalculates);
every other entry stays, byte for byte."""

from __future__ import annotations

from collections.abc import Collection

from ..ooxml import MAIN, Located, Unsupported

PART = "xl/calcChain.xml"


def without_sheets(xml: bytes, sheet_ids: Collection[int], part: str = PART) -> bytes | None:
    """The chain without the cells of the sheets ``sheet_ids`` (by their ``sheetId``): the same bytes when it
    has none of them, None when none is left (the part then goes, with its relationship and content type).

    A cell's ``i`` (its sheet's id) may be left out: it is then the previous cell's (0 for the first). Since
    only whole sheets go, a kept cell without ``i`` follows a kept cell of its sheet: no ``i`` needs writing."""
    located = Located(xml, part)
    root = located.root
    if (root.uri, root.name) != (MAIN, "calcChain"):
        raise Unsupported(f"{part} n'a pas de racine calcChain")
    current = 0
    edits = []
    kept = 0
    for cell in located.children(root, "c"):
        given = cell.attrs.get("i", "").strip()
        if given:
            try:
                current = int(given)
            except ValueError:
                raise Unsupported(f"{part} : numéro de feuille « {given} »") from None
        if current in sheet_ids:
            edits.append((cell.start, cell.end, b""))
        else:
            kept += 1
    if not edits:
        return xml
    return located.spliced(edits) if kept else None
'''

# --- xlcircuit/xlsx/parts/content_types.py -----------------------------------------------------------
_SOURCES['xlcircuit.xlsx.parts.content_types'] = False, r'''
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
'''

# --- xlcircuit/xlsx/parts/custom.py ------------------------------------------------------------------
_SOURCES['xlcircuit.xlsx.parts.custom'] = False, r'''
"""``docProps/custom.xml``: the custom document properties (Excel: Fichier > Propriétés > Personnalisé), where
xlcircuit records the federation a workbook belongs to."""

from __future__ import annotations

from ..ooxml import Located, Unsupported, escape, quoteattr
from .relationships import DECLARATION

PART = "docProps/custom.xml"
CUSTOM = "http://schemas.openxmlformats.org/officeDocument/2006/custom-properties"
VTYPES = "http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes"
#: The format id every custom property of a workbook carries (ECMA-376 Part 1, §22.3.2.2).
FMTID = "{D5CDD505-2E9C-101B-9397-08002B2CF9AE}"
RELATIONSHIP = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/custom-properties"


def _properties(xml: bytes, part: str) -> Located:
    located = Located(xml, part)
    if (located.root.uri, located.root.name) != (CUSTOM, "Properties"):
        raise Unsupported(f"{part} n'a pas de racine Properties")
    return located


def value(xml: bytes, name: str, part: str = PART) -> str | None:
    """The text value of the property ``name`` (None: no such property)."""
    located = _properties(xml, part)
    for prop in located.children(located.root, "property"):
        if prop.attrs.get("name") == name:
            return "".join(located.text(v) for v in located.children(prop))
    return None


def new(name: str, text: str) -> bytes:
    """A custom properties part holding the one text property ``name``."""
    return (DECLARATION + f'<Properties xmlns="{CUSTOM}" xmlns:vt="{VTYPES}"><property fmtid="{FMTID}" pid="2" '
            f'name={quoteattr(name)}><vt:lpwstr>{escape(text)}</vt:lpwstr></property></Properties>'.encode())


def with_value(xml: bytes, name: str, text: str, part: str = PART) -> bytes:
    """The properties with ``name`` holding the text ``text`` (its value replaced, or the property added with
    the next free ``pid``); every other property kept as it is. Unchanged when it already holds it."""
    located = _properties(xml, part)
    root = located.root
    props = list(located.children(root, "property"))
    found = next((p for p in props if p.attrs.get("name") == name), None)
    vt = located.prefix_of(VTYPES, [*([found] if found else []), root])
    declare = "" if vt else f' xmlns:vt="{VTYPES}"'
    vt = vt or "vt"
    element = f"<{vt}:lpwstr{declare}>{escape(text)}</{vt}:lpwstr>".encode()
    if found is not None:
        values = list(located.children(found))
        if len(values) == 1 and values[0].name == "lpwstr" and located.text(values[0]) == text:
            return xml
        return located.spliced([(found.body, found.close, element)] if not found.empty else
                               located.inserted(found, last=element))
    pids = [int(p.attrs["pid"]) for p in props if p.attrs.get("pid", "").isdigit()]
    pid = max([1, *pids]) + 1  # 0 and 1 are reserved
    tag = root.tag("property")
    prop = (b"<" + tag + f' fmtid="{FMTID}" pid="{pid}" name={quoteattr(name)}>'.encode() + element
            + b"</" + tag + b">")
    return located.spliced(located.inserted(root, last=prop))
'''

# --- xlcircuit/xlsx/parts/relationships.py -----------------------------------------------------------
_SOURCES['xlcircuit.xlsx.parts.relationships'] = False, r'''
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
'''

# --- xlcircuit/xlsx/parts/styles.py ------------------------------------------------------------------
_SOURCES['xlcircuit.xlsx.parts.styles'] = False, r'''
"""``xl/styles.xml``: the workbook's lists of number formats, fonts, fills, borders, cell formats (``xf``) and
differential formats, which cells point into by index. A fill appends what its tables use; every index the
organiser's cells use stays valid."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from ..ooxml import MAIN, Located, Node, Unsupported

#: The children of a styleSheet in their order (ECMA-376 §18.8.39, CT_Stylesheet).
ORDER = ("numFmts", "fonts", "fills", "borders", "cellStyleXfs", "cellXfs", "cellStyles", "dxfs", "tableStyles",
         "colors", "extLst")
#: The element each list holds.
ITEMS = {"numFmts": "numFmt", "fonts": "font", "fills": "fill", "borders": "border", "cellStyleXfs": "xf",
         "cellXfs": "xf", "dxfs": "dxf"}
_UNPREFIXED_TAG = re.compile(rb"<(/?)(?=[A-Za-z_][\w.-]*[\s/>])")


@dataclass(frozen=True)
class Counts:
    """How many items each list of a styles part holds, and its number formats (code -> id)."""

    lists: dict[str, int]
    formats: dict[str, int]


def _styles(xml: bytes, part: str) -> tuple[Located, Node]:
    located = Located(xml, part)
    root = located.root
    if (root.uri, root.name) != (MAIN, "styleSheet"):
        raise Unsupported(f"{part} n'a pas de racine styleSheet")
    return located, root


def counts(xml: bytes, part: str = "xl/styles.xml") -> Counts:
    located, root = _styles(xml, part)
    lists = dict.fromkeys(ITEMS, 0)
    formats: dict[str, int] = {}
    for node in located.children(root):
        if node.uri != MAIN or node.name not in ITEMS:
            continue
        items = list(located.children(node, ITEMS[node.name]))
        lists[node.name] = len(items)
        if node.name == "numFmts":
            for item in items:
                try:
                    formats[item.attrs.get("formatCode", "")] = int(item.attrs.get("numFmtId", ""))
                except ValueError:
                    raise Unsupported(f"{part} : format de nombre n° « {item.attrs.get('numFmtId')} »") from None
    return Counts(lists, formats)


def appended(xml: bytes, items: Mapping[str, list[bytes]], part: str = "xl/styles.xml") -> bytes:
    """The styles with ``items`` (list name -> elements, as XML without namespace prefixes) appended to their
    lists, each list's ``count`` updated; a list the part lacks is created where the schema puts it."""
    located, root = _styles(xml, part)
    edits: list[tuple[int, int, bytes]] = []
    present = {n.name: n for n in located.children(root) if n.uri == MAIN}
    for name, added in items.items():
        if not added:
            continue
        node = present.get(name)
        prefix = (root if node is None else node).prefix.encode()
        body = b"".join(_UNPREFIXED_TAG.sub(rb"<\1" + prefix + b":", item) if prefix else item for item in added)
        if node is None:
            tag = root.tag(name)
            text = b"<" + tag + b' count="%d">' % len(added) + body + b"</" + tag + b">"
            edits += located.before(root, ORDER[ORDER.index(name) + 1:], text)
            continue
        before = len(list(located.children(node, ITEMS[name])))
        opening = located.tag_with(node, "count", str(before + len(added)))
        if node.empty:  # <dxfs count="0"/>
            edits.append((node.start, node.end, opening[:-2].rstrip() + b">" + body + b"</" + node.qname + b">"))
        else:
            edits += [(node.start, node.body, opening), (node.close, node.close, body)]
    return located.spliced(edits) if edits else xml

'''

# --- xlcircuit/xlsx/parts/table.py -------------------------------------------------------------------
_SOURCES['xlcircuit.xlsx.parts.table'] = False, r'''
"""``xl/tables/tableN.xml``: one table (a ListObject), its range and its filter's."""

from __future__ import annotations

from ..ooxml import MAIN, Located, Unsupported


def with_ref(xml: bytes, ref: str, part: str) -> bytes:
    """The table over the range ``ref``, and its filter with it; everything else kept as it is."""
    located = Located(xml, part)
    root = located.root
    if (root.uri, root.name) != (MAIN, "table"):
        raise Unsupported(f"{part} n'a pas de racine table")
    edits = [located.with_attribute(root, "ref", ref)]
    edits += [located.with_attribute(f, "ref", ref) for f in located.children(root, "autoFilter")]
    return located.spliced(edits)
'''

# --- xlcircuit/xlsx/parts/workbook.py ----------------------------------------------------------------
_SOURCES['xlcircuit.xlsx.parts.workbook'] = False, r'''
"""``xl/workbook.xml``: the list of sheets, the defined names (print titles and areas) and the calculation
properties."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ..ooxml import MAIN, OFFICE_RELS, Located, Node, Unsupported, escape, quoteattr

#: The elements of a workbook that come after ``calcPr`` (ECMA-376 §18.2.27, CT_Workbook), and after
#: ``definedNames``.
AFTER_CALC = ("oleSize", "customWorkbookViews", "pivotCaches", "smartTagPr", "smartTagTypes", "webPublishing",
              "fileRecoveryPr", "webPublishObjects", "extLst")
AFTER_NAMES = ("calcPr", *AFTER_CALC)
#: The defined names a fill writes for its sheets.
PRINT_NAMES = ("_xlnm.Print_Titles", "_xlnm.Print_Area")


def _workbook(xml: bytes, part: str) -> tuple[Located, Node]:
    located = Located(xml, part)
    root = located.root
    if (root.uri, root.name) != (MAIN, "workbook"):
        raise Unsupported(f"{part} n'a pas de racine workbook")
    return located, root


def check(xml: bytes, part: str = "xl/workbook.xml") -> None:
    """Refuse (:class:`Unsupported`) a workbook part the patches below cannot change."""
    located, root = _workbook(xml, part)
    if located.child(root, "sheets") is None:
        raise Unsupported(f"{part} n'a pas de liste de feuilles")


def recalculated(xml: bytes, part: str = "xl/workbook.xml") -> bytes:
    """The workbook recalculated in full when it is opened (``<calcPr fullCalcOnLoad="1"/>``), so that the
    organiser's formulas reading a fill's tables show their new values; unchanged if it already says so."""
    located, root = _workbook(xml, part)
    calc = located.child(root, "calcPr")
    if calc is None:
        text = b"<" + root.tag("calcPr") + b' fullCalcOnLoad="1"/>'
        return located.spliced(located.before(root, AFTER_CALC, text))
    if calc.attrs.get("fullCalcOnLoad") in ("1", "true"):
        return xml
    return located.spliced([located.with_attribute(calc, "fullCalcOnLoad", "1")])


def with_sheets(xml: bytes, sheets: Iterable[tuple[str, int, str]], part: str = "xl/workbook.xml") -> bytes:
    """The workbook with the sheets (name, sheetId, relationship id) added at the end of its list."""
    located, root = _workbook(xml, part)
    listed = located.child(root, "sheets")
    if listed is None:
        raise Unsupported(f"{part} n'a pas de liste de feuilles")
    prefix = located.prefix_of(OFFICE_RELS, (listed, root))
    declare = "" if prefix else f' xmlns:r="{OFFICE_RELS}"'  # declared where used: always in scope
    r = prefix or "r"
    body = b"".join(b"<" + listed.tag("sheet") + f"{declare} name={quoteattr(name)} sheetId=\"{sheet_id}\" "
                    f"{r}:id={quoteattr(rid)}/>".encode() for name, sheet_id, rid in sheets)
    return located.spliced(located.inserted(listed, last=body)) if body else xml


def with_print_names(xml: bytes, names: Mapping[int, list[tuple[str, str]]], part: str = "xl/workbook.xml") -> bytes:
    """The workbook whose print titles and print areas of the sheets ``names`` (by position: its
    ``localSheetId``) are those given, (name, value) each, in that order; every other defined name kept.
    Unchanged when they already are."""
    located, root = _workbook(xml, part)
    block = located.child(root, "definedNames")
    found = [] if block is None else [
        n for n in located.children(block, "definedName")
        if n.attrs.get("name") in PRINT_NAMES and _local_id(n) in names]
    wanted = [(name, local, value) for local, pairs in names.items() for name, value in pairs]
    if [(n.attrs.get("name"), _local_id(n), located.text(n)) for n in found] == wanted:
        return xml
    edits = [(n.start, n.end, b"") for n in found]
    if wanted:
        tag = root.tag("definedName") if block is None else block.tag("definedName")
        body = b"".join(b"<" + tag + f' name="{name}" localSheetId="{local}">{escape(value)}'.encode()
                        + b"</" + tag + b">" for name, local, value in wanted)
        if block is None:
            wrapper = root.tag("definedNames")
            edits += located.before(root, AFTER_NAMES, b"<" + wrapper + b">" + body + b"</" + wrapper + b">")
        else:
            edits += located.inserted(block, last=body)
    return located.spliced(edits)


def _local_id(node: Node) -> int | None:
    value = node.attrs.get("localSheetId")
    return int(value) if value is not None and value.strip().isdigit() else None


def sheet_ids(xml: bytes, part: str = "xl/workbook.xml") -> list[tuple[str, int]]:
    """The sheets listed, (name, sheetId) each, in order."""
    located, root = _workbook(xml, part)
    listed = located.child(root, "sheets")
    if listed is None:
        return []
    return [(n.attrs.get("name", ""), int(n.attrs.get("sheetId", "0") or 0))
            for n in located.children(listed, "sheet")]
'''

# --- xlcircuit/xlsx/plan.py --------------------------------------------------------------------------
_SOURCES['xlcircuit.xlsx.plan'] = False, r'''
"""What a fill owns (its output tables and sheets), and the plan of what it rewrites in a given workbook."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from .ooxml import Unsupported
from .package import Package, SheetInfo, TableInfo


@dataclass
class Owned:
    """What a fill owns: its output tables (by name) and the sheets it rewrites whole (by name)."""

    tables: dict[str, str]  # table name -> the sheet that takes it when the workbook does not have it yet
    sheets: tuple[str, ...] = ()  # sheets rewritten whole (charts only, for instance)
    pattern: re.Pattern | None = None  # more output tables: those whose name matches
    pattern_sheet: str | None = None  # where they go when the workbook has none

    @classmethod
    def of(cls, specs: Iterable, sheets: Iterable[str] = (), pattern: re.Pattern | None = None,
           pattern_sheet: str | None = None) -> Owned:
        """What a fill owns, from its output tables' specs (each with its ``name`` and ``sheet``)."""
        return cls({spec.name: spec.sheet for spec in specs}, tuple(sheets), pattern, pattern_sheet)


@dataclass
class Plan:
    """Which sheets a fill rewrites and what it must clear on them, for a given workbook."""

    package: Package
    owned: dict[str, list[tuple[int, int, int, int]] | None]  # sheet name -> the areas it owns (None: all)

    @property
    def sheets(self) -> list[SheetInfo]:
        return [s for s in self.package.sheets if s.name in self.owned]


def plan(package: Package, owned: Owned) -> Plan:
    """The sheets the fill will rewrite: those holding an output table, else those it puts them on."""
    names = {s.name for s in package.sheets}
    areas: dict[str, list[tuple[int, int, int, int]] | None] = {}

    def own(sheet: str, table: TableInfo | None) -> None:
        current = areas.get(sheet, [])
        if sheet not in names or current is None:
            return
        area = areas[sheet] = current
        if table is not None:
            b = table.bounds
            area.append(b)
            if b[1] > 2:
                area.append((b[0], b[1] - 2, b[0], b[1] - 2))  # the title two rows above

    for name, sheet in owned.tables.items():
        table = package.table(name)
        own(table.sheet if table else sheet, table)
    if owned.pattern is not None:
        matched = [t for ts in package.tables.values() for t in ts if owned.pattern.fullmatch(t.name)]
        for table in matched:
            own(table.sheet, table)
        if not matched and owned.pattern_sheet:
            own(owned.pattern_sheet, None)
    for sheet in owned.sheets:
        if sheet in names:
            areas[sheet] = None
    return Plan(package, areas)


#: What a sheet xlcircuit rewrites may point to: what openpyxl reads and writes back whole.
_OWNABLE = ("/table", "/drawing", "/hyperlink", "/printerSettings")


#: What else a sheet may point to, as the organiser knows it: the reason of a full rewrite, said in French.
_KINDS = {"comments": "des commentaires", "threadedComment": "des commentaires (fils de discussion)",
          "vmlDrawing": "des commentaires ou des contrôles (dessin VML)",
          "pivotTable": "des tableaux croisés dynamiques", "ctrlProp": "des contrôles de formulaire",
          "control": "des contrôles ActiveX", "oleObject": "des objets incorporés",
          "image": "une image d'arrière-plan", "slicer": "des segments (slicers)", "timeline": "des chronologies",
          "queryTable": "une requête de données externes"}


def _check_ownable(package: Package, the_plan: Plan) -> None:
    for sheet in the_plan.sheets:
        if sheet.kind != "worksheet":
            raise Unsupported(f"la feuille « {sheet.name} » n'est pas une feuille de calcul (graphique, macros...)")
        for rel in package.rels(sheet.part):
            if not rel.type.endswith(_OWNABLE):
                kind = rel.type.rsplit("/", 1)[-1]
                raise Unsupported(f"la feuille « {sheet.name} », réécrite par le remplissage, contient "
                                  f"{_KINDS.get(kind, f'des éléments « {kind} »')}")
'''

# --- xlcircuit/xlsx/readable.py ----------------------------------------------------------------------
_SOURCES['xlcircuit.xlsx.readable'] = False, r'''
"""What openpyxl reads back. A fill copies the organiser's sheets as they are and rewrites its own through
openpyxl: the filled workbook must open again (in openpyxl, as in Excel), so what openpyxl reads strictly is
checked before anything is written, and a sheet that would not open again is one sentence.

- A sheet copied as it is (:func:`copied_sheet_problem`): its rows and cells by byte searches (sheets are large),
  a row number, a cell reference, a style index, a type, a number, a shared string each as openpyxl reads them;
  everything else in the sheet (columns, sheet format, views, merged cells, conditional formats...) and the
  distinct row tags by openpyxl's own sheet reader.
- A sheet rewritten (:func:`rewritten_sheet_problem`): no number openpyxl reads but writes back empty (infinite,
  not a number: ``defaultRowHeight="1e400"``).
"""

from __future__ import annotations

import io
import math
import re
import warnings

from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet._reader import WorksheetReader
from openpyxl.worksheet.worksheet import Worksheet

_P = rb"(?:[\w.-]+:)?"  # an optional namespace prefix
_SHEET_DATA = re.compile(rb"<(" + _P + rb")sheetData\b[^>]*?(/?)>")
_ROW_R = re.compile(rb"(<" + _P + rb"row\b[^>]*?)\sr\s*=\s*([\"'])[^\"']*\2")
_ROW_TAG = re.compile(rb"<" + _P + rb"row\b[^>]*?(?<!/)>|<" + _P + rb"row\b[^>]*?/>")
_CELL_ATTR = rb"<" + _P + rb"c(?=\s)[^>]*?\s%s\s*=\s*([\"'])"
#: A cell attribute openpyxl would not read: each pattern finds the first, at C speed.
_BAD = {
    "une ligne a pour numéro": re.compile(rb"<" + _P + rb"row(?=\s)[^>]*?\sr\s*=\s*([\"'])(?!\s*\d{1,7}\s*\1)"),
    "une cellule a pour référence": re.compile(_CELL_ATTR % rb"r" + rb"(?!\$?[A-Za-z]{1,3}\$?\d{1,7}\1)"),
    "une cellule a pour style": re.compile(_CELL_ATTR % rb"s" + rb"(?!\s*\d{1,9}\s*\1)"),
    "une cellule a pour type": re.compile(_CELL_ATTR % rb"t" + rb"(?!(?:n|s|b|e|str|inlineStr|d)\1)"),
    "un nombre vaut": re.compile(rb"<" + _P + rb"c(?=[\s>])(?:(?!\st\s*=)[^>])*?(?<!/)>\s*<" + _P + rb"v>"
                                 rb"(?!\s*[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?\s*<)"),
    "une valeur logique vaut": re.compile(_CELL_ATTR % rb"t" + rb"b\1[^>]*?(?<!/)>\s*<" + _P + rb"v>"
                                          rb"(?!\s*[-+]?\d+\s*<)"),
    "une chaîne partagée a pour numéro": re.compile(_CELL_ATTR % rb"t" + rb"s\1[^>]*?(?<!/)>\s*<" + _P + rb"v>"
                                                    rb"(?!\s*\d{1,9}\s*<)"),
}
_STYLE = re.compile(_CELL_ATTR % rb"s" + rb"\s*(\d+)")
_SHARED = re.compile(_CELL_ATTR % rb"t" + rb"s\1[^>]*?(?<!/)>\s*<" + _P + rb"v>\s*(\d+)")
_DATE = re.compile(_CELL_ATTR % rb"t" + rb"d\1[^>]*?(?<!/)>\s*<" + _P + rb"v>([^<]*)<")


def copied_sheet_problem(xml: bytes, wb: Workbook, strings: int) -> str | None:
    """What in a sheet copied as it is openpyxl would not read back (in French), or None. ``wb`` is the model
    loaded for the fill (its styles), ``strings`` the count of shared strings."""
    start = _SHEET_DATA.search(xml)
    if start is None or start.group(2):
        data, head, tail = b"", xml, b""
    else:
        end = xml.find(b"</" + start.group(1) + b"sheetData", start.end())
        if end < 0:
            return "la feuille n'a pas de fin"
        data, head, tail = xml[start.end():end], xml[:start.end()], xml[end:]
    for what, pattern in _BAD.items():
        found = pattern.search(data)
        if found is not None:
            return f"{what} « {_shown(data, found.end())} »"
    styles = {int(s) for _, s in _STYLE.findall(data)}
    if styles and max(styles) >= len(wb._cell_styles):
        return f"une cellule a pour style n° {max(styles)}, absent des styles"
    shared = {int(s) for _, s in _SHARED.findall(data)}
    if shared and max(shared) >= strings:
        return f"une cellule renvoie à la chaîne partagée n° {max(shared)}, qui n'existe pas"
    rows = set(_ROW_TAG.findall(_ROW_R.sub(rb"\1", data)))
    dates = {value for _, value in _DATE.findall(data)}
    sample = b"".join(tag if tag.endswith(b"/>") else tag[:-1] + b"/>" for tag in sorted(rows))
    sample += b"".join(b'<row><c t="d"><v>' + value + b"</v></c></row>" for value in sorted(dates))
    return _read_by_openpyxl(head + sample + tail if start is not None and not start.group(2) else xml, wb)


def _read_by_openpyxl(xml: bytes, wb: Workbook) -> str | None:
    """openpyxl's sheet reader over ``xml`` (the sheet without its cells), into a sheet of ``wb`` not added."""
    ws = Worksheet(wb)
    reader = WorksheetReader(ws, io.BytesIO(xml), [], False, False)
    try:
        with warnings.catch_warnings():  # openpyxl warns, in English, of what it drops: the sheet is copied as it is
            warnings.simplefilter("ignore")
            reader.bind_cells()
            reader.bind_merged_cells()
            reader.bind_formatting()
            reader.bind_col_dimensions()
            reader.bind_row_dimensions()
            reader.bind_properties()
    except Exception as exc:  # openpyxl's readers raise anything on a value they do not expect
        return f"valeur illisible : {str(exc)[:60] or type(exc).__name__}"
    return rewritten_sheet_problem(ws)


def rewritten_sheet_problem(ws: Worksheet) -> str | None:
    """A number in a sheet openpyxl writes as nothing (infinite, not a number), in French, or None."""
    for name, owner in (("sheetFormatPr", ws.sheet_format), ("sheetPr", ws.sheet_properties),
                        ("pageMargins", ws.page_margins), ("pageSetup", ws.page_setup), ("sheetView", ws.views),
                        ("col", list(ws.column_dimensions.values())), ("row", list(ws.row_dimensions.values()))):
        attribute = _non_finite(owner, 0)
        if attribute is not None:
            return f"nombre hors limites dans {name} ({attribute})"
    for cell in ws._cells.values():
        value = cell._value
        if isinstance(value, float) and not math.isfinite(value):
            return f"nombre hors limites en {cell.coordinate}"
    return None


def _non_finite(obj: object, depth: int) -> str | None:
    """The name of an attribute of ``obj`` (openpyxl's model, walked a few levels) holding an infinite number."""
    if isinstance(obj, (list, tuple)):
        return next((found for item in obj if (found := _non_finite(item, depth)) is not None), None)
    if depth > 4:
        return None
    names = [*getattr(obj, "__attrs__", ()), *getattr(obj, "__elements__", ()), *getattr(obj, "__fields__", ())]
    for name in dict.fromkeys(names):
        value = getattr(obj, name, None)
        if isinstance(value, float):
            if not math.isfinite(value):
                return name
        elif value is not None and not isinstance(value, (str, int, bool)):
            found = _non_finite(value, depth + 1)
            if found is not None:
                return found
    return None


def _shown(data: bytes, at: int) -> str:
    """The value a pattern stopped at, as the organiser would read it."""
    return data[at:at + 20].split(b"<")[0].split(b'"')[0].split(b"'")[0].decode("utf-8", "replace")
'''

# --- xlcircuit/xlsx/reduced.py -----------------------------------------------------------------------
_SOURCES['xlcircuit.xlsx.reduced'] = False, r'''
"""The reduced copy openpyxl loads for a fill: the owned sheets bare of their owned cells, every other sheet
an empty stub holding only its tables, whose input cells the fast reader then puts in."""

from __future__ import annotations

import bisect
import functools
import io
import re
import zipfile

from defusedxml import ElementTree as SafeET
from openpyxl.cell.read_only import ReadOnlyCell
from openpyxl.utils import get_column_letter
from openpyxl.workbook.workbook import Workbook

from .cells import _CELL, BadCell, _sheet_data, _unprefixed, read_cells, shared_strings
from .ooxml import (
    _P,
    _SHEET_KINDS,
    MAIN,
    OFFICE_RELS,
    WORKSHEET_TYPE,
    Unsupported,
    _column,
    _local,
    escape,
    rels_part,
)
from .package import Package, SheetInfo
from .parts.relationships import relationships_xml
from .plan import Plan, _check_ownable
from .readable import copied_sheet_problem, rewritten_sheet_problem
from .safe import load_workbook

_STUB = (f'<worksheet xmlns="{MAIN}" xmlns:r="{OFFICE_RELS}"><sheetData/>{{tables}}</worksheet>')
_WORKBOOK_DROPS = [re.compile(rb"<" + _P + name + rb"\b[^>]*?(?:/>|>.*?</" + _P + name + rb">)", re.S)
                   for name in (rb"externalReferences", rb"pivotCaches")]
_ROW = re.compile(rb"<row\b([^>]*?)(?:/>|>(.*?)</row>)", re.S)
_ROW_NUMBER = re.compile(rb"""\br\s*=\s*["'](\d+)["']""")
_CELL_COLUMN = re.compile(rb"""<c\b[^>]*?\br\s*=\s*["']([A-Z]+)\d+["']""")


def _has_content(cells: bytes) -> bool:
    return b"<v" in cells or b"<is" in cells or b"<f" in cells


_ROW_START = re.compile(rb'<row r="(\d+)"')
_ROW_TAG = re.compile(rb"<row\b[^>]*>")


@functools.lru_cache(maxsize=64)
def _outside_columns(first: int, last: int) -> re.Pattern:
    """A cell reference (``<c r="…``) whose column is not in ``first``..``last``: one scan of a sheet, no list."""
    return re.compile(rb'<c r="(?!(?:' + _letters_between(first, last).encode() + rb')\d)')


def _letters_between(first: int, last: int) -> str:
    """A regular expression of the column letters ``first``..``last`` (1 is A), one alternative per length."""
    alternatives = []
    for low, high in ((1, 26), (27, 702), (703, 18278)):  # A-Z, AA-ZZ, AAA-ZZZ
        if first <= high and last >= low:
            alternatives.append(_between(get_column_letter(max(first, low)), get_column_letter(min(last, high))))
    return "|".join(alternatives)


def _between(low: str, high: str) -> str:
    """The strings of A-Z letters of one length from ``low`` to ``high``, as a regular expression."""
    if len(low) == 1:
        return f"[{low}-{high}]"
    if low[0] == high[0]:
        return low[0] + "(?:" + _between(low[1:], high[1:]) + ")"
    rest = len(low) - 1
    parts = [low[0] + "(?:" + _between(low[1:], "Z" * rest) + ")"]
    if ord(high[0]) - ord(low[0]) > 1:
        parts.append(f"[{chr(ord(low[0]) + 1)}-{chr(ord(high[0]) - 1)}][A-Z]{{{rest}}}")
    parts.append(high[0] + "(?:" + _between("A" * rest, high[1:]) + ")")
    return "|".join(parts)


_BARE_ROW = re.compile(rb'<row r="\d+"(?: spans="[\d:]+")?\s*/?>')


def _emptied_rows(rows: bytes) -> bytes:
    """Rows of a sheet with their attributes (heights) but no cells, ``<row …></row>`` each; rows with no
    attribute but their number (and the spans hint) are left out, as openpyxl would make nothing of them."""
    return b"".join(tag[:-2] + b"></row>" if tag.endswith(b"/>") else tag + b"</row>"
                    for tag in _ROW_TAG.findall(rows) if not _BARE_ROW.fullmatch(tag))


def _strip_cells(xml: bytes, areas: list[tuple[int, int, int, int]] | None) -> tuple[bytes, bool]:
    """The sheet without its cells in ``areas`` (None: without any cell), and whether others remain.

    Rows keep their attributes (heights). A block of rows holding only cells of one area loses them at
    C speed; the rest is looked at row by row."""
    if not _unprefixed(xml, b"worksheet"):
        raise Unsupported("ses cellules sont écrites avec des préfixes XML")
    span = _sheet_data(xml)
    if span is None or span[0] == span[1]:
        return xml, False
    data = xml[span[0]:span[1]]
    if data.count(b"<c") != data.count(b'<c r="'):  # no other element of sheetData starts with c
        raise Unsupported("une de ses cellules n'a pas sa référence en tête")
    if areas is None:
        return xml[:span[0]] + _emptied_rows(data) + xml[span[1]:], False
    if data.count(b"<row") != data.count(b'<row r="'):
        raise Unsupported("une de ses lignes n'a pas son numéro en tête")
    rows = _RowFinder(data)
    pieces, cursor, others = [], 0, False
    for area in sorted(areas, key=lambda a: a[1]):
        begin, end = rows.first(area[1]), rows.after(area[3])
        if begin >= end:
            continue
        if begin < cursor:
            raise Unsupported("deux tables y partagent des lignes")
        outside = data[cursor:begin]
        others = others or _has_content(outside)
        pieces.append(outside)
        block = data[begin:end]
        if _outside_columns(area[0], area[2]).search(block) is None:
            pieces.append(_emptied_rows(block))
        else:
            block, more = _strip_rows(block, area)
            pieces.append(block)
            others = others or more
        cursor = end
    others = others or _has_content(data[cursor:])
    pieces.append(data[cursor:])
    return xml[:span[0]] + b"".join(pieces) + xml[span[1]:], others


class _RowFinder:
    """Where rows start in a sheet's ``<sheetData>`` (rows are in ascending order): found by their number
    at C speed, every row's start listed only when a row looked for does not exist."""

    def __init__(self, data: bytes):
        self.data = data
        self._starts: list[tuple[int, int]] | None = None
        self._from = 0  # rows are looked for in ascending order: each search starts where the last one ended

    def _find(self, number: int) -> int:
        needle = b'<row r="%d"' % number
        at = self.data.find(needle, self._from)
        if at < 0 and self._from:
            at = self.data.find(needle)
        if at >= 0:
            self._from = at
        return at

    def first(self, number: int) -> int:
        """The offset of the first row numbered ``number`` or more (the end of the data: none)."""
        at = self._find(number)
        return at if at >= 0 else self._bisect(number)

    def after(self, number: int) -> int:
        """The offset of the first row numbered more than ``number``."""
        at = self._find(number)
        if at < 0:
            return self._bisect(number + 1)
        following = self.data.find(b"<row", at + 1)
        return following if following >= 0 else len(self.data)

    def _bisect(self, number: int) -> int:
        if self._starts is None:
            self._starts = [(int(m.group(1)), m.start()) for m in _ROW_START.finditer(self.data)]
        index = bisect.bisect_left(self._starts, (number, -1))
        return self._starts[index][1] if index < len(self._starts) else len(self.data)


def _strip_rows(block: bytes, area: tuple[int, int, int, int]) -> tuple[bytes, bool]:
    """Rows of a sheet without their cells in ``area``, looked at one by one; and whether others remain."""
    kept_any = False

    def row(found: re.Match) -> bytes:
        nonlocal kept_any
        inner = found.group(2)
        if not inner:
            return found.group(0)
        kept = []
        for cell in _CELL.finditer(inner):
            where = _CELL_COLUMN.match(cell.group(0))
            if where is None or not area[0] <= _column(where.group(1).decode()) <= area[2]:
                kept.append(cell.group(0))
        kept_any = kept_any or _has_content(b"".join(kept))
        return b"<row" + found.group(1) + b">" + b"".join(kept) + b"</row>"

    return _ROW.sub(row, block), kept_any


def reduced_copy(the_plan: Plan) -> tuple[bytes, dict[str, bool]]:
    """A copy of the package for openpyxl: the owned sheets as they are but for their owned cells, every other
    sheet an empty stub holding only its tables. Also, for each owned sheet, whether the organiser's cells remain."""
    package = the_plan.package
    _check_ownable(package, the_plan)
    out = io.BytesIO()
    foreign: dict[str, bool] = {}
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as reduced:
        written: set[str] = set()

        def put(name: str, data: bytes) -> None:
            if name not in written:
                written.add(name)
                reduced.writestr(name, data)

        _reduced_book(package, put)
        for sheet in package.sheets:
            try:
                if sheet.name in the_plan.owned:
                    foreign[sheet.name] = _reduced_owned_sheet(package, sheet, the_plan.owned[sheet.name], put)
                else:
                    _reduced_stub_sheet(package, sheet, put)
            except Unsupported as exc:
                raise Unsupported(f"la feuille « {sheet.name} » : {exc}") from None
    return out.getvalue(), foreign


def _reduced_book(package: Package, put) -> None:
    """Into the reduced copy: root parts, the workbook bare of links and pivot caches, its sheets and styles."""
    keep_types = ("/styles", "/theme", "/sharedStrings")
    for name in ("[Content_Types].xml", "_rels/.rels", "docProps/core.xml", "docProps/app.xml",
                 "docProps/custom.xml"):
        if name in package.names:
            put(name, package.read(name))
    book = package.read(package.workbook)
    for pattern in _WORKBOOK_DROPS:
        book = pattern.sub(b"", book)
    put(package.workbook, book)
    rels: list[tuple[str, str, str, bool]] = []
    for rel in package.rels(package.workbook):
        if rel.type.endswith(_SHEET_KINDS):
            rels.append((rel.id, WORKSHEET_TYPE, "/" + rel.part, False))
        elif rel.type.endswith(keep_types) and rel.part in package.names:
            rels.append((rel.id, rel.type, "/" + rel.part, False))
            put(rel.part, package.read(rel.part))
    put(rels_part(package.workbook), relationships_xml(rels))


def _reduced_owned_sheet(package: Package, sheet: SheetInfo, areas: list[tuple[int, int, int, int]] | None,
                         put) -> bool:
    """Into the reduced copy: an owned sheet bare of its owned cells; whether the organiser's cells remain."""
    whole = areas is None
    xml, others = _strip_cells(package.read(sheet.part), areas)
    rels = package.rels(sheet.part)
    if whole and any(r.type.endswith("/drawing") and _only_charts(package, r.part) for r in rels):
        # A sheet rewritten whole loses its charts at each fill: openpyxl need not read them.
        rels = [r for r in rels if not r.type.endswith("/drawing")]
        xml = re.sub(rb"<drawing\b[^>]*?/>", b"", xml)
        put(rels_part(sheet.part), relationships_xml([(r.id, r.type, r.target, r.external) for r in rels]))
    put(sheet.part, xml)
    for part in sorted(package.reachable([r.part for r in rels if not r.external])):
        put(part, package.read(part))
    if rels_part(sheet.part) in package.names:
        put(rels_part(sheet.part), package.read(rels_part(sheet.part)))
    return others


def _reduced_stub_sheet(package: Package, sheet: SheetInfo, put) -> None:
    """Into the reduced copy: a sheet not owned, as an empty stub holding only its tables."""
    tables = [r for r in package.rels(sheet.part) if r.type.endswith("/table") and r.part in package.names]
    parts = "".join(f'<tablePart r:id="{escape(r.id)}"/>' for r in tables)
    put(sheet.part, _STUB.format(tables=f'<tableParts count="{len(tables)}">{parts}</tableParts>'
                                 if tables else "").encode())
    if tables:
        put(rels_part(sheet.part), relationships_xml([(r.id, r.type, "/" + r.part, False) for r in tables]))
        for r in tables:
            put(r.part, package.read(r.part))


def _only_charts(package: Package, drawing: str) -> bool:
    """Whether a drawing holds charts and nothing else (no picture, shape or group)."""
    if drawing not in package.names:
        return False
    tags = {_local(e.tag) for e in SafeET.fromstring(package.read(drawing)).iter()}
    return not tags & {"pic", "sp", "grpSp", "cxnSp", "contentPart"}


def fill_inputs(the_plan: Plan, wb: Workbook) -> dict[tuple[str, int, int], object]:
    """Put into the stub sheets of ``wb`` the cells of their tables (and the row under each); returns
    the last calculated value of each formula cell, by (sheet, row, column)."""
    package = the_plan.package
    strings: list[str] | None = None
    cached: dict[tuple[str, int, int], object] = {}
    for sheet in package.sheets:
        tables = package.tables[sheet.name]
        if sheet.name in the_plan.owned or not tables or sheet.name not in wb.sheetnames:
            continue
        xml = package.read(sheet.part)
        if strings is None and (b't="s"' in xml or b"t='s'" in xml):
            strings = shared_strings(package)
        # A table's columns down to the sheet's end: rows typed under it are taken in, or said (tables.read_table).
        areas = [(b[0], b[1], b[2], 1 << 20) for b in (t.bounds for t in tables)]
        ws = wb[sheet.name]
        cells = ws._cells
        new = object.__new__
        try:
            found_cells = read_cells(xml, areas, strings or [], wb)
        except BadCell as exc:
            raise package.damaged(f"feuille « {sheet.name} » : {exc}") from None
        for found in found_cells:
            # Read-only cells (the stub sheets are read, never written back), their slots set here: the
            # constructor's calls cost as much as the reading.
            cell = cells[found.row, found.column] = new(ReadOnlyCell)
            cell.parent, cell.row, cell.column, cell._style_id = ws, found.row, found.column, 0
            cell._value, cell.data_type = found.value, found.data_type
            if found.data_type == "f":
                cached[sheet.name, found.row, found.column] = found.cached
    return cached


def open_for_fill(the_plan: Plan) -> tuple[Workbook, dict, dict[str, bool]]:
    """openpyxl's model of what a fill needs: the owned sheets, the stubs with their tables and input cells."""
    data, foreign = reduced_copy(the_plan)
    wb = load_workbook(the_plan.package.source_file, io.BytesIO(data))
    cached = fill_inputs(the_plan, wb)  # a cell of an input table said with its place first
    check_readable(the_plan, wb)
    return wb, cached, foreign


def check_readable(the_plan: Plan, wb: Workbook) -> None:
    """Refuse (one sentence) a workbook whose filled copy would not open again: a sheet copied as it is holding
    what openpyxl does not read, a sheet rewritten holding a number openpyxl writes as nothing."""
    package = the_plan.package
    strings: int | None = None
    for sheet in package.sheets:
        if sheet.kind != "worksheet" or sheet.name not in wb.sheetnames:
            continue
        if sheet.name in the_plan.owned:
            problem = rewritten_sheet_problem(wb[sheet.name])
        else:
            xml = package.read(sheet.part)
            if strings is None and (b't="s"' in xml or b"t='s'" in xml):
                strings = len(shared_strings(package))
            problem = copied_sheet_problem(xml, wb, strings or 0)
        if problem is not None:
            raise package.damaged(f"feuille « {sheet.name} » : {problem}")

'''

# --- xlcircuit/xlsx/route.py -------------------------------------------------------------------------
_SOURCES['xlcircuit.xlsx.route'] = False, r'''
"""The fill's path, decided before anything is written: the surgical fill (only xlcircuit's sheets written
anew, every other part copied byte for byte) or the full rewrite of the workbook through openpyxl's model,
with the reason, in French, when it is the second."""

from __future__ import annotations

from dataclasses import dataclass

SURGICAL, FULL = "surgical", "full"


@dataclass(frozen=True)
class Route:
    kind: str  # SURGICAL or FULL
    reason: str | None = None  # why the full rewrite (French), None for the surgical fill

    def warning(self, unkept: list) -> str | None:
        """The line telling the organiser the full rewrite was taken, why, and what it cannot keep (None for the
        surgical fill)."""
        if self.kind != FULL:
            return None
        lost = "les valeurs déjà calculées de ses formules (Excel les recalcule à l'ouverture)"
        if unkept:
            lost += ", ni " + ", ".join(map(str, unkept))
        return f"le classeur est réécrit en entier ({self.reason}) : cette réécriture ne garde pas {lost}."
'''

# --- xlcircuit/xlsx/safe.py --------------------------------------------------------------------------
_SOURCES['xlcircuit.xlsx.safe'] = False, r'''
"""Safe open: the one guarded reader of a workbook file. Every use of a workbook (check, fill, share, explain...)
opens it here, once, and reads its parts through what this returns; nothing else opens the file.

Before any part is given to openpyxl or to the engine's own readers, the whole file is checked, so that a file
``check`` accepts is one ``fill`` fills, and any other file is one French sentence:

- the file itself: a regular file (a device or a pipe is not read), not empty, not an old .xls, a zip;
- the zip: every member's local header agreeing with the central directory, no encryption, compressions Excel
  writes (stored, deflated), no name twice, sizes and compression ratios of a workbook, every member read
  through to its end (its CRC checked);
- the XML of every part, read by a real XML parser (expat), streaming: well-formed, in an encoding it knows,
  with no document type declaration (where entities are declared);
- what the parts declare (cells, rows, shared strings, styles, merged cells...), counted before openpyxl builds
  any of it, within limits of count, size and time;
- the package's map (:class:`.package.Package`): its sheets, relationships and tables, with their ids and ranges.

Members named outside the package (``../``, ``..\\``, an absolute path) are left out, with a warning.
"""

from __future__ import annotations

import functools
import hashlib
import html
import os
import posixpath
import re
import stat
import time
import warnings
import zipfile
import zlib
from pathlib import Path
from typing import BinaryIO
from xml.parsers import expat

import openpyxl
from defusedxml import ElementTree as SafeET
from openpyxl.utils import range_boundaries
from openpyxl.utils.exceptions import InvalidFileException
from openpyxl.workbook.workbook import Workbook

from ..rules.errors import WorkbookError
from .files import _being_written, _being_written_error, _damaged
from .unkept import Unkept, _find_markers, lost_features
from .zipio import data_offset

#: Largest total uncompressed size of a workbook's parts, and largest compression ratio of one
#: part, before anything is parsed: e-mailed files may be zip bombs.
MAX_UNCOMPRESSED = 1 << 30
MAX_RATIO = 500
_RATIO_MIN_SIZE = 1 << 20  # small parts may compress well; only a large one is suspect
#: Largest number of cells (and rows, shared strings, styles, merged cells, comments, drawn objects) a workbook
#: declares, counted in its XML before openpyxl parses it: each costs openpyxl about a kilobyte, and a tiny file
#: may declare millions. The largest season of the benchmarks (1,000 TdF tournaments, filled) declares about
#: 1 million.
MAX_CELLS = 2_000_000
#: What a merged cell costs, in cells: openpyxl gives each cell of a merged range its own object and borders,
#: about ten times what a cell costs it; and each range is one more object.
MERGED_WEIGHT = 10
#: Longest time the checks may take: a file taking longer is a trap (or far too big).
MAX_SECONDS = 120.0
#: Longest start tag (a real one is a few hundred bytes; a long list of ranges a few kilobytes).
MAX_TAG = 4 << 20
#: What each kind of part declares, by its elements.
_COUNTED = {"xl/worksheets/": (b"c", b"row"), "xl/sharedStrings": (b"si",), "xl/styles": (b"xf", b"dxf"),
            "xl/comments": (b"comment",), "xl/drawings/": (b"twoCellAnchor", b"oneCellAnchor", b"absoluteAnchor")}
#: After a start tag's name: white space, '/' or '>' (XML 1.0, §3.1).
_AFTER_NAME = (b" ", b"\t", b"\n", b"\r", b"/", b">")
_PREFIX = rb"(?:[^\s<>/!?=\"':]+:)?"  # an optional namespace prefix (names may hold any letter)
_MERGE = re.compile(rb"<" + _PREFIX + rb"mergeCell((?:\s+[^\s=/>]+\s*=\s*(?:\"[^\"]*\"|'[^']*'))*)\s*/?>")
_REF = re.compile(rb"""(?:^|\s)ref\s*=\s*(?:"([^"]*)"|'([^']*)')""")
_CHUNK = 1 << 20
#: A part's references to its relationships: ``r:id="rId1"``, ``r:embed=…`` (any prefix bound to their namespace).
_RELATIONS_PREFIX = re.compile(rb"""xmlns:([\w.-]+)\s*=\s*["']http://schemas\.openxmlformats\.org/officeDocument/2006/"""
                               rb"""relationships["']""")
_REFERENCE = re.compile(rb"""(?<![\w.:-])([\w.-]+):(?:id|embed|link|pict)\s*=\s*["']([^"']*)["']""")
_OLE2 = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_ENCRYPTED = "EncryptedPackage".encode("utf-16-le")
_XML = (".xml", ".rels", ".vml")


class _Refused(Exception):
    """What the XML reader refuses in a part: a sentence's end (its beginning names the file)."""


def _sentence(name: str, what: str) -> WorkbookError:
    return WorkbookError(f"{name} est endommagé et ne peut pas être lu ({what}) : ouvrez-le dans votre tableur, "
                         "enregistrez-le sous un autre nom, puis relancez.")


def _entities(name: str) -> WorkbookError:
    return WorkbookError(f"{name} contient des constructions XML interdites (entités) : fichier piégé ou abîmé, il "
                         "n'est pas lu.")


def _too_many(name: str, part: str) -> WorkbookError:
    return WorkbookError(f"{name} déclare plus de {MAX_CELLS:,} cellules".replace(",", " ")
                         + f" ({part}) : fichier piégé ou bien trop gros, il n'est pas lu.")


class Opened:
    """A workbook file opened once and checked whole: its bytes' digest, its zip, its package's map, what openpyxl
    would drop. The file stays open (its parts are read from it, never from the path again) until :meth:`close`.
    """

    def __init__(self, path: str | os.PathLike[str], name: str | None = None):
        self.path = Path(path)
        #: How messages name it (the name the organiser gave, even through a link).
        self.name = name or self.path.name
        #: Member names left out (outside the package), for a warning.
        self.outside: list[str] = []
        #: Parts not in UTF-8 (the engine's byte-level readers take those through openpyxl only).
        self.encodings: dict[str, str] = {}
        #: The relationship ids each part refers to (``r:id``, ``r:embed``...), checked against its relationships.
        self.references: dict[str, set[str]] = {}
        self.handle = _open_regular(self.path, self.name)
        try:
            status = os.fstat(self.handle.fileno())
            self.stamp = (status.st_size, status.st_mtime_ns)
            self._check_head()
            self.digest = _digest(self.handle)
            self.zip = self._zip()
            self.infos = self._members()
            self.names = {info.filename for info in self.infos}
            markers = self._scan()
            #: Relationships whose target is named outside the package, by relationship part: (id, target) each.
            #: Left out of the map, and of the relationship parts a fill writes (a warning says so).
            self.outside_relations = self._outside_relations()
            from .package import Package  # the map reads its parts through this

            self.package = Package(self)
            self._check_references()
            self.unkept: list[Unkept] = lost_features(self.package, markers)
        except BaseException:
            self.handle.close()
            raise

    def close(self) -> None:
        self.handle.close()

    def _outside_relations(self) -> dict[str, list[tuple[str, str]]]:
        """The internal relationships whose target leaves the package (``..\\..\\evil.bat``, ``../../x``, a drive),
        by relationship part. One its part refers to cannot be left out without Excel repairing the file: one
        sentence."""
        found: dict[str, list[tuple[str, str]]] = {}
        for rels in sorted(self.names):
            if not rels.endswith(".rels"):
                continue
            source = _source_of(rels)
            try:
                root = SafeET.fromstring(self.read(rels))
            except Exception:  # not well-formed: refused where the map reads it
                continue
            for node in root:
                target = node.get("Target", "")
                if node.get("TargetMode") == "External" or "://" in target or _stays_inside(source, target):
                    continue
                rid = node.get("Id", "")
                if rid in self.references.get(source, ()):
                    raise _sentence(self.name, f"{source or 'le paquet'} renvoie à « {target[:60]} », hors du "
                                               "classeur")
                found.setdefault(rels, []).append((rid, target))
        return found

    def _check_references(self) -> None:
        """Every relationship id a part refers to is one of its relationships (Excel repairs a file where a sheet
        points to a table, a drawing to a picture, that is not there)."""
        for part, references in self.references.items():
            missing = references - {rel.id for rel in self.package.rels(part)}
            if missing:
                raise _sentence(self.name, f"{part} renvoie à la relation « {sorted(missing)[0][:40]} », absente de "
                                           "ses relations")

    def read(self, part: str) -> bytes:
        """A part's bytes (checked when the file was opened)."""
        return self.zip.read(part)

    def damaged(self, sentence: str) -> WorkbookError:
        """The error for a file that cannot be read: damaged, unless another program is rewriting it."""
        return _damaged(self.path, self.stamp, sentence)

    # -- the file and its zip --

    def _check_head(self) -> None:
        name = self.name
        head = self.handle.read(8)
        self.handle.seek(0)
        if not head:
            if _being_written(self.path, self.stamp):
                raise _being_written_error(name)
            raise WorkbookError(f"{name} est vide (0 octet) : ce n'est pas un classeur.")
        if head == _OLE2:
            if _ENCRYPTED in self.handle.read(MAX_UNCOMPRESSED):
                raise WorkbookError(f"{name} est protégé par mot de passe : enregistrez-le sans mot de passe, "
                                    "puis relancez.")
            raise WorkbookError(f"{name} est au format .xls (Excel 97-2003) : ouvrez-le dans votre tableur et "
                                "enregistrez-le au format .xlsx.")
        if not zipfile.is_zipfile(self.handle):
            if self.path.suffix.lower() in (".csv", ".txt", ".tsv"):
                raise WorkbookError(f"{name} est un fichier texte : ouvrez-le dans votre tableur et enregistrez-le "
                                    "au format .xlsx.")
            raise self.damaged(f"{name} n'est pas un classeur .xlsx lisible (fichier tronqué, abîmé ou d'un autre "
                               "format).")

    def _unreadable(self, part: str | None = None) -> WorkbookError:
        where = f" : partie {part}" if part else ""
        return self.damaged(f"{self.name} n'est pas un classeur .xlsx lisible (fichier tronqué ou abîmé{where}).")

    def _zip(self) -> zipfile.ZipFile:
        try:
            return zipfile.ZipFile(self.handle)
        except (zipfile.BadZipFile, zlib.error, EOFError, ValueError, OSError, NotImplementedError):
            raise self._unreadable() from None

    def _members(self) -> list[zipfile.ZipInfo]:
        """The zip's members, each checked; those named outside the package left out (:attr:`outside`)."""
        name = self.name
        infos = []
        seen: set[str] = set()
        bounds = _bounds(self.zip, self.handle)
        for info in self.zip.infolist():
            if not _inside(info.filename):
                self.outside.append(info.filename)
                continue
            if info.filename.casefold() in seen:
                raise _sentence(name, f"la partie {info.filename} y est deux fois")
            seen.add(info.filename.casefold())
            if info.flag_bits & 0x1:
                raise WorkbookError(f"{name} contient une partie chiffrée ({info.filename}) : enregistrez-le sans mot "
                                    "de passe dans votre tableur, puis relancez.")
            if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
                raise _sentence(name, f"la partie {info.filename} est compressée d'une façon qu'Excel n'écrit pas, "
                                      f"méthode {info.compress_type}")
            try:
                start = data_offset(self.handle, info)
            except Exception:  # Unsupported, or a header past the end of the file
                raise self._unreadable(info.filename) from None
            # Its data must end before the next member starts: what is copied raw is what was read.
            if start + info.compress_size > bounds.get(info.header_offset, 0):
                raise self._unreadable(info.filename)
            infos.append(info)
        if "xl/workbook.xml" not in seen:
            if "content.xml" in seen:  # OpenDocument, LibreOffice's own format: say how to get an .xlsx
                quoted = f'"{name}"' if " " in name else name
                raise WorkbookError(f"{name} est un classeur LibreOffice (OpenDocument), pas un classeur Excel : "
                                    "enregistrez-le au format .xlsx (Fichier > Enregistrer sous, type « Excel "
                                    f"2007-365 ») ou convertissez-le (soffice --headless --convert-to xlsx "
                                    f"{quoted}), puis relancez sur le .xlsx.")
            raise WorkbookError(f"{name} est une archive zip qui ne contient pas de classeur Excel.")
        _check_sizes(name, infos)
        return infos

    # -- every member read through, the XML parts by a real parser --

    def _scan(self) -> dict[str, set[str]]:
        """Read every member to its end (CRC checked), each XML part through :class:`_Scanner`; returns, by sheet
        part, the labels of what openpyxl drops found in it."""
        deadline = time.monotonic() + MAX_SECONDS
        total = 0
        markers: dict[str, set[str]] = {}
        for info in self.infos:
            scanner = _Scanner(info.filename) if info.filename.lower().endswith(_XML) else None
            try:
                with self.zip.open(info) as member:
                    while chunk := member.read(_CHUNK):
                        if scanner is not None:
                            scanner.feed(chunk)
                        _in_time(self.name, deadline)
                if scanner is None:
                    continue
                scanner.close()
                count = scanner.count
                if scanner.unsure or total + count > MAX_CELLS:  # counted again, element by element
                    count = _exact_count(self.zip, info, scanner.tags, deadline, self.name)
            except (zipfile.BadZipFile, zlib.error, EOFError, OSError, NotImplementedError, ValueError):
                raise self._unreadable(info.filename) from None
            except _Refused as refused:
                if refused.args[0] == "entities":
                    raise _entities(self.name) from None
                raise _sentence(self.name, f"XML invalide dans {info.filename} : {refused.args[0]}") from None
            total += count
            if total > MAX_CELLS:
                raise _too_many(self.name, info.filename)
            if scanner.encoding is not None:
                self.encodings[info.filename] = scanner.encoding
            if scanner.markers:
                markers[info.filename] = scanner.markers
            if scanner.references:
                self.references[info.filename] = scanner.references
        return markers


def _bounds(archive: zipfile.ZipFile, handle: BinaryIO) -> dict[int, int]:
    """For each member (by its header's offset), where the next member, or the central directory, starts."""
    handle.seek(0, os.SEEK_END)
    end = min(handle.tell(), getattr(archive, "start_dir", handle.tell()))
    starts = sorted({info.header_offset for info in archive.infolist()})
    return dict(zip(starts, [*starts[1:], end]))


def _in_time(name: str, deadline: float) -> None:
    if time.monotonic() > deadline:
        raise WorkbookError(f"{name} est trop long à lire (plus de {MAX_SECONDS:.0f} s) : fichier piégé ou bien trop "
                            "gros, il n'est pas lu.")


def _open_regular(path: Path, name: str) -> BinaryIO:
    """The file at ``path`` opened for reading, if it is a regular file (a device or a pipe is never read:
    ``/dev/zero`` has no end, a pipe blocks until someone writes to it)."""
    try:
        status = path.stat()
    except FileNotFoundError:
        raise WorkbookError(f"Fichier introuvable : {path}") from None
    except OSError as exc:
        raise WorkbookError(f"{name} ne peut pas être lu ({exc.strerror or exc}).") from None
    if stat.S_ISDIR(status.st_mode):
        raise WorkbookError(f"{path} est un dossier, pas un classeur.")
    if not stat.S_ISREG(status.st_mode):
        raise _not_regular(name)
    try:
        # Not blocking: if a pipe took the file's place meanwhile, opening it does not wait for a writer.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except PermissionError:
        if not os.access(path, os.R_OK):
            raise WorkbookError(f"{name} ne peut pas être lu : vous n'avez pas le droit de le lire (demandez ce droit, "
                                "ou copiez le fichier ailleurs), puis relancez.") from None
        raise WorkbookError(f"{name} est verrouillé par un autre programme (Excel ?) : fermez-le et relancez.") \
            from None
    except OSError as exc:
        raise WorkbookError(f"{name} ne peut pas être lu ({exc.strerror or exc}).") from None
    handle = os.fdopen(fd, "rb")
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        handle.close()
        raise _not_regular(name)
    if hasattr(os, "set_blocking"):
        os.set_blocking(fd, True)
    return handle


def _not_regular(name: str) -> WorkbookError:
    return WorkbookError(f"{name} n'est pas un fichier ordinaire (un périphérique ou un tube, par exemple) : ce n'est "
                         "pas un classeur, il n'est pas lu.")


def _digest(handle: BinaryIO) -> str:
    """The SHA-256 of the whole file (what was read, to tell it from another program's save later)."""
    handle.seek(0)
    digest = hashlib.sha256()
    while chunk := handle.read(_CHUNK):
        digest.update(chunk)
    handle.seek(0)
    return digest.hexdigest()


def _inside(member: str) -> bool:
    """Whether a member's name stays inside the package: no '..' segment, no absolute path, no drive."""
    parts = member.replace("\\", "/").split("/")
    return not (member.startswith(("/", "\\")) or ".." in parts or (parts and ":" in parts[0]))


def _source_of(rels: str) -> str:
    """The part whose relationships ``rels`` holds ('' for the package's own, ``_rels/.rels``)."""
    folder, _, name = rels.rpartition("_rels/")
    return folder + name[: -len(".rels")]


def _stays_inside(source: str, target: str) -> bool:
    """Whether a relationship's target names a part inside the package: no backslash, no drive, no '..' above
    its root."""
    if "\\" in target or re.match(r"[A-Za-z]:", target) or target.startswith("//"):
        return False
    path = target if target.startswith("/") else posixpath.dirname(source) + "/" + target
    if ":" in path.lstrip("/").split("/")[0]:  # a drive (``/C:/x``), as a member's name would be left out
        return False
    depth = 0
    for segment in path.split("/"):
        if segment == "..":
            depth -= 1
            if depth < 0:
                return False
        elif segment not in ("", "."):
            depth += 1
    return True


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


class _Scanner:
    """One XML part, read as it is decompressed: its prolog by a real XML parser (expat), its elements counted.

    - The prolog (what precedes the root element: the XML declaration, comments, processing instructions, and the
      document type declaration, where entities are declared) is read by expat, streaming: a document type is
      refused wherever it hides (behind a long comment...), an encoding expat does not know is refused, one that
      is not UTF-8 is noted. A document type cannot come after the root element's start in XML.
    - The elements are counted on the bytes, at the speed of a byte search, by the XML grammar (§3.1): a start
      tag is ``<`` then a name, ``c`` or, with a prefix, ``x:c``; so every start tag of an element ``c`` holds
      ``<c`` or ``:c``, whatever the white space after the name or the quotes of its attributes. Counting those
      gives at least as many elements as any XML parser builds (``<col``, a comment or a text holding ``:c`` count
      too many, never too few). Merged ranges are read from their ``ref``, quoted either way, entities decoded.
    - The whole part is then read by the same parser, with no handler left (at C speed): a part that is not
      well-formed XML is refused, whether or not a fill reads it (a part copied as it is must open again).
    - Where that count could refuse a file, or cannot be trusted (a part in UTF-16, a merged-range tag the
      pattern does not read), the part is counted again by expat, element by element (:func:`_exact_count`).
    """

    def __init__(self, part: str):
        self.part = part
        self.tags = next((tags for prefix, tags in _COUNTED.items() if part.startswith(prefix)), ())
        self.sheet = part.startswith("xl/worksheets/")
        self.markers: set[str] = set()
        self.candidates: set[tuple[bytes, bytes]] = set()  # (prefix, value) of attributes that may be relationship ids
        self.prefixes: set[bytes] = set()  # the prefixes bound to the relationships' namespace
        self.encoding: str | None = None  # when not UTF-8
        self.declaration: str | None = None  # the encoding declared
        self.count = 0
        self.unsure = False
        self.parser: expat.XMLParserType | None = _prolog_parser(self)
        self.prolog = 0  # bytes of prolog read
        self.in_prolog = True
        self.carry = b""

    def declared(self, encoding: str | None) -> None:
        self.declaration = encoding
        if encoding is not None and encoding.lower().replace("_", "-") not in ("utf-8", "utf8"):
            self.encoding = encoding

    def feed(self, chunk: bytes) -> None:
        """Read a piece of the part."""
        if self.parser is not None:
            self._prolog(chunk, False)
        if self.unsure:  # counted by expat after the pass
            return
        data = self.carry + chunk
        cut = data.rfind(b"<")  # every tag is whole in data[:cut]: a tag holds no '<'
        if cut <= 0:
            if cut == 0 and len(data) > MAX_TAG:
                raise _Refused("balise démesurée")
            self.carry = data if cut == 0 else b""
            return
        data, self.carry = data[:cut], data[cut:]
        self._count(data)

    def close(self) -> None:
        if self.parser is not None:
            self._prolog(b"", True)
        if not self.unsure:
            self._count(self.carry)

    def _prolog(self, data: bytes, final: bool) -> None:
        if self.prolog == 0 and (data.startswith((b"\xff\xfe", b"\xfe\xff")) or b"\x00" in data[:4]):
            self.unsure = True  # UTF-16: no byte count
        if self.in_prolog:
            self.prolog += len(data)
        assert self.parser is not None
        try:
            self.parser.Parse(data, final)
        except expat.ExpatError as exc:
            raise _Refused(_expat_message(exc)) from None
        except (ValueError, LookupError):  # an encoding expat cannot read (multi-byte ones but UTF-8 and UTF-16)
            declared = re.search(rb"""encoding\s*=\s*["']([^"']{1,40})""", data[:200])
            encoding = declared.group(1).decode("ascii", "replace") if declared else self.declaration or "?"
            raise _Refused(f"encodage « {encoding} » non pris en charge") from None
        if self.in_prolog and self.prolog > MAX_TAG:
            raise _Refused("prologue démesuré avant le premier élément")

    @property
    def references(self) -> set[str]:
        """The relationship ids the part refers to."""
        return {value.decode("utf-8", "replace") for prefix, value in self.candidates if prefix in self.prefixes}

    def _count(self, data: bytes) -> None:
        if b"/officeDocument/2006/relationships" in data:
            self.prefixes.update(_RELATIONS_PREFIX.findall(data))
        if b":id" in data or b":embed" in data or b":link" in data or b":pict" in data:
            self.candidates.update(_REFERENCE.findall(data))
        count = 0
        for tag in self.tags:  # "<c" is in every start tag of a c element, "<x:c" in a prefixed one ("<col" too)
            count += data.count(b"<" + tag) + data.count(b":" + tag)
        if self.sheet:
            if b"mergeCell" in data:
                count += self._merged(data)
            _find_markers(data, self.markers)
        self.count += count

    def _merged(self, data: bytes) -> int:
        """The cells the merged ranges of ``data`` cover; unsure when a merged-range tag is not read."""
        count = found = 0
        for attrs in _MERGE.findall(data):
            found += 1
            ref = _REF.search(attrs)
            if ref is not None:
                count += _area(ref.group(1) if ref.group(1) is not None else ref.group(2))
        tags = sum(data.count(b"<mergeCell" + end) + data.count(b":mergeCell" + end) for end in _AFTER_NAME)
        if tags != found:
            self.unsure = True
        return count


def _prolog_parser(scanner: _Scanner) -> expat.XMLParserType:
    """expat, reading a part: its prolog with handlers, then, from the root element's start, with none (the rest
    only checked well-formed, at C speed)."""
    parser = expat.ParserCreate()
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    parser.XmlDeclHandler = lambda version, encoding, standalone: scanner.declared(encoding)
    parser.StartDoctypeDeclHandler = _doctype
    parser.EntityDeclHandler = _doctype

    def root(*args) -> None:
        scanner.in_prolog = False
        parser.StartElementHandler = None
        parser.XmlDeclHandler = None

    parser.StartElementHandler = root
    return parser


def _doctype(*args) -> None:
    raise _Refused("entities")


def _expat_message(exc: expat.ExpatError) -> str:
    return f"ligne {exc.lineno}, {expat.errors.messages.get(exc.code, str(exc))}"


def _exact_count(archive: zipfile.ZipFile, info: zipfile.ZipInfo, tags: tuple[bytes, ...], deadline: float,
                 name: str) -> int:
    """The elements ``tags`` of a part, and the cells its merged ranges cover, counted by expat element by element
    (streaming). A part that is not well-formed is counted up to its error, where any parser stops."""
    wanted = {tag.decode() for tag in tags}
    count = 0

    def start(element: str, attributes: dict[str, str]) -> None:
        nonlocal count
        local = element.rsplit(":", 1)[-1]
        if local in wanted:
            count += 1
        elif local == "mergeCell":
            count += _area(attributes.get("ref", "").encode())

    parser = expat.ParserCreate()
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    parser.StartDoctypeDeclHandler = _doctype
    parser.EntityDeclHandler = _doctype
    parser.StartElementHandler = start
    try:
        with archive.open(info) as member:
            while chunk := member.read(_CHUNK):
                parser.Parse(chunk, False)
                _in_time(name, deadline)
                if count > MAX_CELLS:
                    break
            parser.Parse(b"", True)
    except expat.ExpatError:
        pass
    return count


def _area(ref: bytes) -> int:
    """What a merged range costs openpyxl, in cells: :data:`MERGED_WEIGHT` for each cell it covers, and one for the
    range (a range openpyxl refuses costs one)."""
    text = html.unescape(ref.decode("utf-8", "replace")).strip()
    try:
        min_col, min_row, max_col, max_row = range_boundaries(text)
    except (ValueError, TypeError):
        return 1
    if None in (min_col, min_row, max_col, max_row):
        return 1
    return MERGED_WEIGHT * (max_col - min_col + 1) * (max_row - min_row + 1) + 1


# --- what the tests use -------------------------------------------------------------------------


def inspect_file(path: Path) -> list[Unkept]:
    """Check a file is a workbook that is safe to load (:class:`Opened`); what openpyxl would drop on saving."""
    opened = Opened(path)
    opened.close()
    return opened.unkept


def declares_entities(path: Path) -> bool:
    """Whether an XML part of the package has a document type declaration (where entities are declared)."""
    try:
        inspect_file(path)
    except WorkbookError as exc:
        return "entités" in str(exc)
    return False



def _parsed_without_comments() -> None:
    """openpyxl's parser, when it reads through lxml (installed on many organisers' machines), set to leave out
    comments and processing instructions, as the standard library's parser does: openpyxl's readers took them for
    elements (a table part with a comment inside was « contenu inattendu »). XML allows both anywhere in an element."""
    from openpyxl.xml import functions

    parse = functions.fromstring
    if functions.LXML and isinstance(parse, functools.partial) and "parser" in parse.keywords:
        parser = type(parse.keywords["parser"])  # lxml's XMLParser, without importing lxml here
        parse.keywords["parser"] = parser(resolve_entities=False, remove_comments=True, remove_pis=True)


_parsed_without_comments()


def load_workbook(opened: Opened, data: BinaryIO | None = None, data_only: bool = False) -> Workbook:
    """openpyxl's model of the workbook ``opened`` (or of ``data``, a reduced copy of it), whatever openpyxl
    raises on what it cannot read turned into one French sentence.

    Every part was checked when the file was opened: what remains is a value openpyxl refuses (a style index that
    is no number...), a damaged file; a file another program rewrites meanwhile is said to be one."""
    name = opened.name
    try:
        with warnings.catch_warnings():
            # openpyxl warns, in English, of the extensions it drops: the engine names them in French.
            warnings.simplefilter("ignore")
            return openpyxl.load_workbook(opened.handle if data is None else data, data_only=data_only,
                                          keep_vba=opened.path.suffix.lower() == ".xlsm")
    except InvalidFileException:
        raise WorkbookError(f"{name} n'est pas un classeur .xlsx : ouvrez-le dans votre tableur et enregistrez-le au "
                            "format .xlsx.") from None
    except MemoryError:
        raise WorkbookError(f"{name} est trop gros pour la mémoire de cet ordinateur : il n'est pas lu.") from None
    except RecursionError:
        raise WorkbookError(f"{name} est endommagé (XML imbriqué à l'excès) et ne peut pas être lu.") from None
    except Exception as exc:  # openpyxl's readers raise anything on a value they do not expect
        if isinstance(exc, KeyError) and not _being_written(opened.path, opened.stamp):
            raise WorkbookError(f"{name} est une archive zip à laquelle il manque une partie du classeur "
                                f"({exc.args[0] if exc.args else '?'}) : fichier abîmé, il ne peut pas être lu.") \
                from None
        raise opened.damaged(f"{name} est endommagé et ne peut pas être lu ({_what(exc)}) : ouvrez-le dans votre "
                             "tableur, enregistrez-le sous un autre nom, puis relancez.") from None


def _what(exc: BaseException) -> str:
    """A short, French name of what broke in a file."""
    while exc is not None:
        if isinstance(exc, SyntaxError):  # the XML parsers' errors (the standard library's, lxml's)
            return "XML invalide"
        if isinstance(exc, (zipfile.BadZipFile, zlib.error, EOFError)):
            return "compression abîmée"
        exc = exc.__cause__ or exc.__context__  # type: ignore[assignment]
    return "contenu inattendu"
'''

# --- xlcircuit/xlsx/surgery.py -----------------------------------------------------------------------
_SOURCES['xlcircuit.xlsx.surgery'] = False, r'''
"""The save of a surgical fill: the owned sheets of openpyxl's model written anew into a copy of the original
package, every other part copied as its raw compressed bytes, the few parts the new sheets change patched by
their own unit (:mod:`.parts`).

Everything that could refuse the patches is checked when the :class:`Surgery` is made, before the fill writes
anything (:class:`Unsupported`, with its reason in French: the fill then takes the full rewrite and says so);
the save itself only writes."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from openpyxl.drawing.spreadsheet_drawing import SpreadsheetDrawing
from openpyxl.styles.cell_style import CellStyle
from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.worksheet import Worksheet
from openpyxl.xml.functions import tostring

from .cells import plain_shared_strings
from .ooxml import WORKSHEET_TYPE, Unsupported, quoteattr, rels_part
from .package import Package
from .parts import app, calc_chain, content_types, custom, relationships, styles, table, workbook
from .parts.content_types import IMAGE_TYPES, TYPES
from .plan import Plan
from .writer import _SheetWriter
from .zipio import COMPRESS_LEVEL, copy_raw, write_new


class Names:
    """Part names and ids of a package, to give new parts ones no kept part has."""

    def __init__(self, taken: Iterable[str]):
        self.taken = set(taken)

    def free(self, pattern: str, also: Collection[int] = ()) -> int:
        number = 1
        while pattern.format(number) in self.taken or number in also:
            number += 1
        self.taken.add(pattern.format(number))
        return number


def _target(package: Package, source: str, kind: str) -> str | None:
    """The part ``source`` points to by its first relationship of type ``…/kind``, if that part exists."""
    part = next((r.part for r in package.rels(source) if not r.external and r.type.endswith("/" + kind)), None)
    return part if part in package.names else None


@dataclass
class _Layout:
    """Where a save puts what: worked out from the plan and the model once the fill has written it."""

    owned: list[Worksheet]  # the sheets written anew: the owned ones, and those the fill created
    parts: dict[str, str]  # their parts, by sheet name
    added: list[tuple[str, str]]  # (name, part) of the sheets the fill created
    dropped: set[str]  # parts of the package left out
    later: set[str]  # parts written last (copied raw when unchanged), in the package's order
    grown: dict[str, bytes]  # table parts of input tables the fill grew, with their new range
    names: Names
    table_ids: set[int]
    types: dict[str, str] = field(default_factory=dict)  # new part -> content type
    written: list[str] = field(default_factory=list)  # the new parts, in order


class Surgery:
    """The filled workbook: the owned sheets of ``wb`` written anew into a copy of the original package."""

    def __init__(self, the_plan: Plan, wb: Workbook, federation_property: str, federation: str):
        package = the_plan.package
        self.plan = the_plan
        self.wb = wb
        self.property = (federation_property, federation)
        self.original = {s.name: s for s in package.sheets}
        # Every relationship the save follows is read now, and every part it patches checked.
        self.owned_parts = {self.original[name].part for name in the_plan.owned if name in self.original}
        # The workbook part is kept even when the package's relationships do not name it (the package then reads
        # xl/workbook.xml): its sheets are not parts left behind.
        self.kept = package.reachable([r.part for r in package.rels("")] + [package.workbook], skip=self.owned_parts)
        self.old = set().union(*(package.reachable([p]) for p in self.owned_parts))
        styles_part = _target(package, package.workbook, "styles")
        if styles_part is None:
            raise Unsupported("le classeur n'a pas de partie de styles")
        self.styles_part = styles_part
        self.counts = styles.counts(package.read(styles_part), styles_part)
        workbook.check(package.read(package.workbook), package.workbook)
        content_types.typed(package.read(content_types.PART))
        relationships.check(package.read("_rels/.rels"), "_rels/.rels")
        relationships.check(package.read(rels_part(package.workbook)), rels_part(package.workbook))
        self.chain_part = _target(package, package.workbook, "calcChain")
        #: Text the package already shares (after Excel's or LibreOffice's save, every text an earlier fill
        #: wrote): the output cells point to it; the shared strings part, the organiser's sheets' too, is kept.
        self.strings = plain_shared_strings(package)
        owned_ids = [self.original[name].sheet_id for name in the_plan.owned if name in self.original]
        #: The calc chain without the owned sheets' cells (None: nothing left, the part goes).
        self.chain = None if self.chain_part is None else \
            calc_chain.without_sheets(package.read(self.chain_part), owned_ids, self.chain_part)
        self.app_part = _target(package, "", "extended-properties")
        self.app = None if self.app_part is None else app.without_sheet_lists(package.read(self.app_part), self.app_part)
        #: Relationship parts holding relationships named outside the package, without them (written so).
        self.outside = {rels: {rid for rid, _ in found} for rels, found in package.source_file.outside_relations.items()}
        self.patched = {rels: relationships.without_ids(package.read(rels), ids, rels) for rels, ids in self.outside.items()}
        self.custom_part = _target(package, "", "custom-properties")
        if self.custom_part is not None:
            custom.value(package.read(self.custom_part), federation_property, self.custom_part)

    def save(self, target) -> None:
        """Write the new package to ``target`` (a path): kept parts as raw compressed bytes, the rest anew.

        Kept parts go first, then each output sheet as soon as it is serialised (one at a time in memory),
        then the entries that depend on them (styles, workbook, content types), copied raw when unchanged."""
        package = self.plan.package
        layout = self._layout()
        skipped = layout.dropped | set(layout.parts.values()) | layout.later
        with package.source() as source, zipfile.ZipFile(Path(target), "w", zipfile.ZIP_DEFLATED,
                                                         compresslevel=COMPRESS_LEVEL) as out:
            for info in package.infos:
                if info.filename in skipped:
                    continue
                if info.filename in self.patched:
                    write_new(out, info.filename, self.patched[info.filename])
                else:
                    copy_raw(source, info, out)
            for ws in layout.owned:
                self._write_sheet(ws, layout, out)
            changed = self._changed(layout)
            for info in package.infos:  # the parts written last, in the package's order
                if info.filename in layout.later and info.filename not in layout.dropped:
                    if info.filename in changed:
                        data = changed.pop(info.filename)
                        if info.filename in self.outside:
                            data = relationships.without_ids(data, self.outside[info.filename], info.filename)
                        write_new(out, info.filename, data)
                    elif info.filename in self.patched:
                        write_new(out, info.filename, self.patched[info.filename])
                    else:
                        copy_raw(source, info, out)
            for name, data in changed.items():  # new parts (docProps/custom.xml)
                write_new(out, name, data)

    def _layout(self) -> _Layout:
        package = self.plan.package
        owned = [ws for ws in self.wb.worksheets if ws.title in self.plan.owned or ws.title not in self.original]
        dropped = (self.old - self.kept) | {rels_part(p) for p in self.owned_parts if rels_part(p) in package.names}
        if self.chain_part is not None and self.chain is None:
            dropped.add(self.chain_part)
        names = Names((package.names - dropped) | self._kept_targets())
        parts, added = {}, []
        for ws in owned:
            if ws.title in self.original:
                parts[ws.title] = self.original[ws.title].part
            else:
                parts[ws.title] = f"xl/worksheets/sheet{names.free('xl/worksheets/sheet{}.xml')}.xml"
                added.append((ws.title, parts[ws.title]))
        # The parts a fill may change go last, whether it changes them or not: each part's place in the package
        # depends on what it is, never on what this fill did, so that a refill writes the same bytes.
        later = {self.styles_part, package.workbook, rels_part(package.workbook), "_rels/.rels", content_types.PART,
                 self.custom_part or "docProps/custom.xml"}
        later |= {part for part in (self.app_part, self.chain_part) if part is not None}
        later |= {t.part for name, ts in package.tables.items() if name not in self.plan.owned for t in ts}
        grown = self._grown_tables(owned)  # input tables a fill grew over rows typed under them
        table_ids = {t.id for ts in package.tables.values() for t in ts if t.part not in dropped}
        return _Layout(owned, parts, added, dropped, later, grown, names, table_ids)

    def _kept_targets(self) -> set[str]:
        """The parts the kept parts point to, there or not: a kept relationship to a part the package lacks keeps
        its target, so no new part takes that name."""
        package = self.plan.package
        targets = {r.part for part in self.kept if not part.endswith(".rels") for r in package.rels(part)
                   if not r.external}
        return targets - self.old

    def _write_sheet(self, ws: Worksheet, layout: _Layout, out: zipfile.ZipFile) -> None:
        """An output sheet with its tables, drawing, charts and images, each part given a free name."""
        names, types = layout.names, layout.types

        def emit(name: str, data: bytes | Iterable[bytes], kind: str | None = None) -> None:
            write_new(out, name, data)
            layout.written.append(name)
            if kind is not None:
                types[name] = TYPES[kind]

        part = layout.parts[ws.title]
        if ws.title not in self.original:
            types[part] = TYPES["worksheet"]
        writer = _SheetWriter(ws, io.BytesIO())
        writer.strings = self.strings
        xml = writer.serialised()
        rels = writer._rels
        for table_model in ws.tables.values():
            table_model.id = names.free("xl/tables/table{}.xml", layout.table_ids)
            layout.table_ids.add(table_model.id)
            rels.get(table_model._rel_id).Target = table_model.path
            emit(table_model.path[1:], tostring(table_model.to_tree()), "table")
        if ws._charts or ws._images:
            drawing = SpreadsheetDrawing()
            drawing.charts, drawing.images = ws._charts, ws._images
            drawing._id = names.free("xl/drawings/drawing{}.xml")
            for chart in drawing.charts:
                chart._id = names.free("xl/charts/chart{}.xml")
            for image in drawing.images:
                image._id = names.free("xl/media/image{}." + image.format)
            for rel in rels:
                if rel.Type.endswith("/drawing"):
                    rel.Target = drawing.path
            emit(drawing.path[1:], tostring(drawing._write()), "drawing")
            emit(rels_part(drawing.path[1:]), tostring(drawing._write_rels()))
            for chart in drawing.charts:
                emit(chart.path[1:], tostring(chart._write()), "chart")
            for image in drawing.images:
                emit(image.path[1:], image._data())
        emit(part, xml)
        if len(rels):
            emit(rels_part(part), tostring(rels.to_tree()))

    # -- the entries that must change --

    def _changed(self, layout: _Layout) -> dict[str, bytes]:
        """The parts the output sheets change, new bytes each (styles, calc chain, workbook and its relationships,
        custom and extended properties, grown tables, content types)."""
        package = self.plan.package
        changed = dict(layout.grown)
        new_styles = self._styles()
        if new_styles is not None:
            changed[self.styles_part] = new_styles
        if self.chain_part is not None and self.chain is not None:
            changed[self.chain_part] = self.chain
        changed.update(self._workbook(layout))
        changed.update(self._custom(layout))
        if layout.added and self.app_part is not None and self.app is not None:
            changed[self.app_part] = self.app
        defaults = {}
        for part in layout.written:
            extension = part.rsplit(".", 1)[-1].lower()
            if extension == "rels":
                defaults[extension] = TYPES["rels"]
            elif part.startswith("xl/media/"):
                defaults[extension] = IMAGE_TYPES.get(extension, "application/octet-stream")
        # A part written anew under the name of one dropped keeps its override where it was.
        gone = layout.dropped - set(layout.types)
        changed[content_types.PART] = content_types.patched(package.read(content_types.PART), layout.types, gone,
                                                            defaults)
        return {part: data for part, data in changed.items() if part not in package.names or
                data != package.read(part)}

    def _grown_tables(self, owned: list[Worksheet]) -> dict[str, bytes]:
        """The table parts of the organiser's sheets whose range the fill changed (rows typed under a table,
        taken in), with their new range; the rest of each part as it was."""
        package = self.plan.package
        titles = {ws.title for ws in owned}
        grown = {}
        for sheet in package.sheets:
            if sheet.name in titles or sheet.name not in self.wb.sheetnames:
                continue
            models = {t.displayName.casefold(): t for t in self.wb[sheet.name].tables.values()}
            for info in package.tables[sheet.name]:
                model = models.get(info.name.casefold())
                if model is not None and model.ref != info.ref:
                    grown[info.part] = table.with_ref(package.read(info.part), model.ref, info.part)
        return grown

    def _styles(self) -> bytes | None:
        """styles.xml with what the owned sheets added to openpyxl's lists appended (None: nothing added)."""
        wb, counts = self.wb, self.counts.lists
        formats = dict(self.counts.formats)  # format code -> its id in the file
        next_id = max([163, *formats.values()]) + 1
        added_formats = []

        def format_id(internal: int) -> int:
            nonlocal next_id
            if internal < 164:
                return internal
            code = wb._number_formats[internal - 164]
            if code not in formats:
                formats[code] = next_id
                added_formats.append((next_id, code))
                next_id += 1
            return formats[code]

        xfs = []
        for style in wb._cell_styles[counts["cellXfs"]:]:
            xf = CellStyle.from_array(style)
            xf.numFmtId = format_id(style.numFmtId)
            if style.alignmentId:
                xf.alignment = wb._alignments[style.alignmentId]
            if style.protectionId:
                xf.protection = wb._protections[style.protectionId]
            xfs.append(tostring(xf.to_tree()))
        items = {"numFmts": [f'<numFmt numFmtId="{i}" formatCode={quoteattr(code)}/>'.encode()
                             for i, code in added_formats],
                 "fonts": [tostring(f.to_tree()) for f in wb._fonts[counts["fonts"]:]],
                 "fills": [tostring(f.to_tree()) for f in wb._fills[counts["fills"]:]],
                 "borders": [tostring(b.to_tree()) for b in wb._borders[counts["borders"]:]],
                 "cellXfs": xfs,
                 "dxfs": [tostring(d.to_tree("dxf")) for d in wb._differential_styles.dxf[counts["dxfs"]:]]}
        if not any(items.values()):
            return None
        return styles.appended(self.plan.package.read(self.styles_part), items, self.styles_part)

    def _workbook(self, layout: _Layout) -> dict[str, bytes]:
        """workbook.xml (recalculated on opening, its new sheets listed, the owned sheets' print names as the
        model says) and its relationships (the new sheets', the calc chain's gone with it)."""
        package = self.plan.package
        book, book_rels = package.workbook, rels_part(package.workbook)
        xml = workbook.recalculated(package.read(book), book)
        rels_xml = package.read(book_rels)
        if layout.added:
            ids = {rel.id for rel in package.rels(book)}
            next_sheet = max([s.sheet_id for s in package.sheets] + [0]) + 1
            entries, new_rels = [], []
            for number, (name, part) in enumerate(layout.added, start=next_sheet):
                rid = relationships.free_id(ids)
                ids.add(rid)
                entries.append((name, number, rid))
                new_rels.append((rid, WORKSHEET_TYPE, "/" + part))
            xml = workbook.with_sheets(xml, entries, book)
            rels_xml = relationships.added(rels_xml, new_rels, book_rels)
        if self.chain_part is not None and self.chain is None:
            rels_xml = relationships.without(rels_xml, "/calcChain", book_rels)
        index = {ws.title: i for i, ws in enumerate(self.wb.worksheets)}
        names = {index[ws.title]: [(name, value) for name, value in (("_xlnm.Print_Titles", ws.print_titles),
                                                                     ("_xlnm.Print_Area", ws.print_area)) if value]
                 for ws in layout.owned}
        xml = workbook.with_print_names(xml, names, book)
        return {book: xml, book_rels: rels_xml}

    def _custom(self, layout: _Layout) -> dict[str, bytes]:
        """docProps/custom.xml with the federation's mark (and the package's relationship to it, when new)."""
        package = self.plan.package
        name, value = self.property
        if self.custom_part is not None:
            return {self.custom_part: custom.with_value(package.read(self.custom_part), name, value, self.custom_part)}
        part = "docProps/custom.xml"
        layout.types[part] = TYPES["custom"]
        rid = relationships.free_id({r.id for r in package.rels("")})
        return {part: custom.new(name, value),
                "_rels/.rels": relationships.added(package.read("_rels/.rels"), [(rid, custom.RELATIONSHIP, part)],
                                                   "_rels/.rels")}

'''

# --- xlcircuit/xlsx/unkept.py ------------------------------------------------------------------------
_SOURCES['xlcircuit.xlsx.unkept'] = False, r'''
"""What openpyxl drops when it saves a workbook (shapes, sparklines, form controls...), found before loading."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .package import Package

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
_EXTENSION_BLOCKS = re.compile(rb"<x14:conditionalFormatting\b(.*?)</x14:conditionalFormatting>", re.S)
_SQREF = re.compile(rb"<xm:sqref>([^<]*)</xm:sqref>")
_RULE_TYPES = re.compile(rb"<x14:cfRule\b[^>]*?\btype=[\"']([^\"']*)[\"']")
_DRAWING = "{http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing}"
_LOST_IN_DRAWINGS = {f"{_DRAWING}sp": "formes ou zones de texte", f"{_DRAWING}grpSp": "groupes de formes",
                     f"{_DRAWING}cxnSp": "connecteurs"}


@dataclass(frozen=True)
class Unkept:
    """Something of a workbook that openpyxl drops when it saves, and the sheet it is on (None: the workbook)."""

    what: str
    sheet: str | None = None
    ranges: tuple[str, ...] = ()  # the cells it applies to, where the file says
    bars: tuple[str, ...] = ()  # of those, the ranges of formats that are data bars only (as a fill draws them)

    def __str__(self) -> str:
        return f"{self.what} ({'classeur' if self.sheet is None else f'feuille « {self.sheet} »'})"


def _find_markers(data: bytes, found: set[str]) -> None:
    """Add to ``found`` the labels of :data:`_LOST_IN_SHEETS` whose marker (a tag, whole in ``data``) it holds."""
    for (needle, marker), label in _LOST_IN_SHEETS.items():
        if label not in found and needle in data and marker.search(data):
            found.add(label)


def _formats(xml: bytes) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The ranges of a sheet's Excel 2010 conditional formats, and those of the ones that are data bars only."""
    ranges: list[str] = []
    bars: list[str] = []
    for block in _EXTENSION_BLOCKS.findall(xml):
        refs = [r.decode() for refs in _SQREF.findall(block) for r in refs.split()]
        ranges += refs
        kinds = set(_RULE_TYPES.findall(block))
        if kinds == {b"dataBar"}:
            bars += refs
    return tuple(ranges), tuple(bars)


def lost_features(package: Package, markers: dict[str, set[str]]) -> list[Unkept]:
    """What openpyxl would drop: parts it does not know, the sheets' ``markers`` (found as the file was checked),
    shapes in their drawings."""
    names = package.names
    lost = {label for prefix, label in _LOST_PARTS.items() if any(n.startswith(prefix) for n in names)}
    found = [Unkept(label) for label in sorted(lost)]
    for sheet in package.sheets:
        if sheet.part not in names:
            continue
        labels = markers.get(sheet.part, set())
        for label in _LOST_IN_SHEETS.values():
            if label in labels:
                ranges, bars = ((), ()) if label != CONDITIONAL_FORMAT_EXTENSIONS else _formats(package.read(sheet.part))
                found.append(Unkept(label, sheet.name, ranges, bars))
        for rel in package.rels(sheet.part):
            if rel.type.endswith("/drawing") and rel.part in names:
                tags = {element.tag for element in package.xml(rel.part).iter()}
                shapes = sorted({label for tag, label in _LOST_IN_DRAWINGS.items() if tag in tags})
                found += [Unkept(label, sheet.name) for label in shapes]
    return found


def _ours(unkept: Unkept, plan) -> bool:
    """Extended conditional formats inside the output tables that are data bars only: an earlier fill's data bars
    as a spreadsheet program re-saved them, rewritten anyway (an icon set the organiser added is not)."""
    areas = plan.owned.get(unkept.sheet)
    if unkept.what != CONDITIONAL_FORMAT_EXTENSIONS or not unkept.ranges or set(unkept.ranges) != set(unkept.bars):
        return False
    if areas is None:
        return True
    from openpyxl.utils import range_boundaries

    def inside(ref: str) -> bool:
        b = range_boundaries(ref)
        return any(a[0] <= b[0] and b[2] <= a[2] and a[1] <= b[1] and b[3] <= a[3] for a in areas)

    return all(inside(r) for r in unkept.ranges)

'''

# --- xlcircuit/xlsx/validate.py ----------------------------------------------------------------------
_SOURCES['xlcircuit.xlsx.validate'] = False, r'''
"""The package validator: what Excel's repair dialog would repair in a workbook (the tests run it on every
workbook they write)."""

from __future__ import annotations

import posixpath
import re
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from defusedxml import ElementTree as SafeET
from openpyxl.utils import range_boundaries

from .cells import _SHEET_DATA
from .ooxml import _ATTR, MAIN, OFFICE_RELS, _local, rels_part, resolve

_SML = "application/vnd.openxmlformats-officedocument.spreadsheetml."
#: The content type Excel wants for the target of each kind of relationship.
_PART_TYPES = {
    "worksheet": _SML + "worksheet+xml", "table": _SML + "table+xml", "styles": _SML + "styles+xml",
    "sharedStrings": _SML + "sharedStrings+xml", "comments": _SML + "comments+xml", "calcChain": _SML + "calcChain+xml",
    "chartsheet": _SML + "chartsheet+xml", "drawing": "application/vnd.openxmlformats-officedocument.drawing+xml",
    "chart": "application/vnd.openxmlformats-officedocument.drawingml.chart+xml",
    "theme": "application/vnd.openxmlformats-officedocument.theme+xml",
    "custom-properties": "application/vnd.openxmlformats-officedocument.custom-properties+xml",
}


def package_problems(path: Path) -> list[str]:
    """What Excel would repair in a workbook: dangling relationships, untyped parts, duplicate sheet, table or
    drawing ids and names, style indices past their lists, shared string counts, names of missing sheets."""
    with zipfile.ZipFile(path) as archive:
        names = set(archive.namelist())
        problems = _structure_problems(archive, names) + _xml_problems(archive, names)
        problems += _workbook_problems(archive, names)
    return problems


def structure_problems(archive: zipfile.ZipFile) -> set[str]:
    """What makes Excel repair a package, found without reading its sheets (fast): a part twice, parts without a
    content type, content types or relationships naming absent parts, relationship targets of the wrong type."""
    return set(_structure_problems(archive, set(archive.namelist())))


def _structure_problems(archive: zipfile.ZipFile, names: set[str]) -> list[str]:
    problems: list[str] = []
    if len(names) != len(archive.namelist()):
        problems.append("entrées du zip en double")
    if "[Content_Types].xml" not in names:
        return problems + ["[Content_Types].xml absent"]
    try:
        types = SafeET.fromstring(archive.read("[Content_Types].xml"))
    except Exception as exc:
        return problems + [f"XML illisible : [Content_Types].xml ({exc})"]
    problems += _content_type_problems(types, names)
    typed = {n.get("PartName", "").lstrip("/"): n.get("ContentType", "") for n in types
             if _local(n.tag) == "Override"}
    by_extension = {n.get("Extension", "").lower(): n.get("ContentType", "") for n in types
                    if _local(n.tag) == "Default"}
    for rels in sorted(n for n in names if n.endswith(".rels")):
        try:
            problems += _relationship_problems(archive, names, rels, typed, by_extension)
        except Exception as exc:  # the validator reports, never raises
            problems.append(f"XML illisible : {rels} ({exc})")
    return problems


def _content_type_problems(types, names: set[str]) -> list[str]:
    """Overrides naming absent parts, and parts neither overridden nor typed by their extension."""
    problems = []
    defaults = {n.get("Extension", "").lower() for n in types if _local(n.tag) == "Default"}
    overrides = {n.get("PartName", "").lstrip("/") for n in types if _local(n.tag) == "Override"}
    for part in sorted(overrides - names):
        problems.append(f"[Content_Types] nomme une partie absente : {part}")
    for part in sorted(names):
        if part.endswith("/") or part == "[Content_Types].xml":
            continue
        if part not in overrides and part.rsplit(".", 1)[-1].lower() not in defaults:
            problems.append(f"partie sans type : {part}")
    return problems


def _xml_problems(archive: zipfile.ZipFile, names: set[str]) -> list[str]:
    """XML and relationship parts that do not parse."""
    problems = []
    for part in sorted(n for n in names if n.endswith(".xml") or n.endswith(".rels")):
        try:
            SafeET.fromstring(archive.read(part))
        except Exception as exc:
            problems.append(f"XML illisible : {part} ({exc})")
    return problems


def _relationship_problems(archive: zipfile.ZipFile, names: set[str], rels: str, typed: dict[str, str],
                           by_extension: dict[str, str]) -> list[str]:
    """One relationship part: its source present, its ids unique, its internal targets present and rightly typed."""
    problems = []
    source = posixpath.join(posixpath.dirname(posixpath.dirname(rels)), posixpath.basename(rels)[:-5])
    if rels == "_rels/.rels":
        source = ""
    elif source not in names:
        problems.append(f"relations d'une partie absente : {rels}")
    ids = set()
    for node in SafeET.fromstring(archive.read(rels)):
        rid = node.get("Id")
        if rid in ids:
            problems.append(f"{rels} : identifiant {rid} en double")
        ids.add(rid)
        if node.get("TargetMode") != "External":
            target = resolve(source or "/", node.get("Target", ""))
            if target not in names:
                problems.append(f"{rels} : cible absente {target}")
                continue
            problems += _target_type_problems(node, target, typed, by_extension)
    return problems


def _target_type_problems(node, target: str, typed: dict[str, str], by_extension: dict[str, str]) -> list[str]:
    """A relationship target whose content type is not the one its relationship type calls for."""
    kind = node.get("Type", "").rsplit("/", 1)[-1]
    wanted = _PART_TYPES.get(kind)
    found = typed.get(target) or by_extension.get(target.rsplit(".", 1)[-1].lower(), "")
    if wanted and found != wanted:
        return [f"{target} : type « {found} », attendu « {wanted} »"]
    return []


def _workbook_problems(archive: zipfile.ZipFile, names: set[str]) -> list[str]:
    """The workbook's own rules: sheets, defined names, styles, shared strings, and each sheet's cells and parts."""
    root_rels = SafeET.fromstring(archive.read("_rels/.rels"))
    book_part = next((resolve("/", n.get("Target", "")) for n in root_rels
                      if n.get("Type", "").endswith("/officeDocument")), "xl/workbook.xml")
    book = SafeET.fromstring(archive.read(book_part))
    book_rels_part = rels_part(book_part)
    rels = {n.get("Id"): n for n in SafeET.fromstring(archive.read(book_rels_part))} if book_rels_part in names else {}
    sheets: list[tuple[str, str, str]] = []
    seen_names: set[str] = set()
    problems = _sheet_list_problems(book, book_part, rels, sheets, seen_names)
    problems += _defined_name_problems(book, len(sheets), seen_names)
    xf_count, dxf_count = None, None
    styles_part = _book_target(book_part, rels, "/styles")
    if styles_part and styles_part in names:
        styles_problems, xf_count, dxf_count = _styles_problems(SafeET.fromstring(archive.read(styles_part)))
        problems += styles_problems
    sst_count = None
    sst_part = _book_target(book_part, rels, "/sharedStrings")
    if sst_part and sst_part in names:
        sst_problems, sst_count = _shared_strings_problems(SafeET.fromstring(archive.read(sst_part)))
        problems += sst_problems
    seen = _SeenParts()
    for name, part, kind in sheets:
        if part not in names:
            continue
        if not kind.endswith("/worksheet"):
            continue
        problems += _cell_problems(name, archive.read(part), xf_count, sst_count, dxf_count)
        sheet_rels = rels_part(part)
        if sheet_rels not in names:
            continue
        problems += _sheet_part_problems(archive, names, part, sheet_rels, seen)
    return problems


def _book_target(book_part: str, rels: dict, kind: str) -> str | None:
    """The part the workbook relates to by the first relationship of type ending in ``kind``, if any."""
    return next((resolve(book_part, n.get("Target", "")) for n in rels.values()
                 if n.get("Type", "").endswith(kind)), None)


def _sheet_list_problems(book, book_part: str, rels: dict, sheets: list[tuple[str, str, str]],
                         seen_names: set[str]) -> list[str]:
    """Sheet names and ids unique, names valid, each sheet related; fills ``sheets`` and ``seen_names``."""
    problems = []
    seen_ids = set()
    for node in book.iter(f"{{{MAIN}}}sheet"):
        name, sheet_id = node.get("name", ""), node.get("sheetId")
        if name.casefold() in seen_names:
            problems.append(f"feuille « {name} » en double")
        if sheet_id in seen_ids:
            problems.append(f"sheetId {sheet_id} en double")
        if not name or len(name) > 31 or any(c in name for c in "[]:*?/\\"):
            problems.append(f"nom de feuille invalide : « {name} »")
        seen_names.add(name.casefold())
        seen_ids.add(sheet_id)
        rel = rels.get(node.get(f"{{{OFFICE_RELS}}}id"))
        if rel is None:
            problems.append(f"feuille « {name} » sans relation")
            continue
        sheets.append((name, resolve(book_part, rel.get("Target", "")), rel.get("Type", "")))
    return problems


def _defined_name_problems(book, sheet_count: int, seen_names: set[str]) -> list[str]:
    """Defined names scoped to, or referring to, sheets that do not exist."""
    problems = []
    for node in book.iter(f"{{{MAIN}}}definedName"):
        local = node.get("localSheetId")
        if local is not None and not 0 <= int(local) < sheet_count:
            problems.append(f"nom défini {node.get('name')} : feuille n° {local} absente")
        for quoted, plain in re.findall(r"(?:'((?:[^']|'')+)'|([^\s'!,()=+\-*/&^<>\[\]]+))!", node.text or ""):
            sheet = (quoted.replace("''", "'") if quoted else plain)
            if sheet.casefold() not in seen_names and not sheet.startswith("["):
                problems.append(f"nom défini {node.get('name')} : feuille « {sheet} » absente")
    return problems


def _styles_problems(styles) -> tuple[list[str], int, int]:
    """Style list counts and the indices of each xf; also the number of cellXfs and of dxfs."""
    problems = []
    lists = {}
    for name in ("numFmts", "fonts", "fills", "borders", "cellStyleXfs", "cellXfs", "cellStyles", "dxfs"):
        node = styles.find(f"{{{MAIN}}}{name}")
        if node is None:
            continue
        lists[name] = len(node)
        if node.get("count") is not None and int(node.get("count")) != len(node):
            problems.append(f"styles : {name} count={node.get('count')} pour {len(node)} éléments")
    formats = {int(f.get("numFmtId", "0")) for f in styles.iterfind(f"{{{MAIN}}}numFmts/{{{MAIN}}}numFmt")}
    for group in ("cellXfs", "cellStyleXfs"):
        for i, xf in enumerate(styles.iterfind(f"{{{MAIN}}}{group}/{{{MAIN}}}xf")):
            problems += _xf_problems(group, i, xf, lists, formats)
    return problems, lists.get("cellXfs", 0), lists.get("dxfs", 0)


def _xf_problems(group: str, i: int, xf, lists: dict[str, int], formats: set[int]) -> list[str]:
    """One xf: its font, fill, border, number format and (for cellXfs) cell style xf defined."""
    problems = []
    for attr, target in (("fontId", "fonts"), ("fillId", "fills"), ("borderId", "borders")):
        if int(xf.get(attr, "0")) >= lists.get(target, 0):
            problems.append(f"styles : {group}[{i}] {attr}={xf.get(attr)} hors de {target}")
    number = int(xf.get("numFmtId", "0"))
    if number >= 164 and number not in formats:
        problems.append(f"styles : {group}[{i}] numFmtId={number} non défini")
    if group == "cellXfs" and int(xf.get("xfId", "0")) >= lists.get("cellStyleXfs", 1):
        problems.append(f"styles : cellXfs[{i}] xfId={xf.get('xfId')} hors de cellStyleXfs")
    return problems


def _shared_strings_problems(sst) -> tuple[list[str], int]:
    """The shared strings' uniqueCount against their number; also that number."""
    sst_count = len(sst)
    unique = sst.get("uniqueCount")
    if unique is not None and int(unique) != sst_count:
        return [f"sharedStrings : uniqueCount={unique} pour {sst_count} chaînes"], sst_count
    return [], sst_count


def _cell_problems(name: str, xml: bytes, xf_count: int | None, sst_count: int | None,
                   dxf_count: int | None) -> list[str]:
    """A worksheet's style, shared string and differential format indices past their lists."""
    problems = []
    data = _SHEET_DATA.search(xml)
    cells = data.group(1) or b"" if data else b""
    for attrs in re.findall(rb"<(?:\w+:)?c\b([^>]*?)(?:/>|>)", cells):
        values = {k: v1 or v2 for k, v1, v2 in _ATTR.findall(attrs)}
        if xf_count is not None and b"s" in values and int(values[b"s"]) >= xf_count:
            problems.append(f"« {name} » : style {values[b's'].decode()} hors de cellXfs ({xf_count})")
            break
    if sst_count is not None and b't="s"' in cells:
        for index in re.findall(rb'<(?:\w+:)?c\b[^>]*\bt="s"[^>]*>\s*<(?:\w+:)?v>(\d+)<', cells):
            if int(index) >= sst_count:
                problems.append(f"« {name} » : chaîne partagée {index.decode()} hors de sharedStrings")
                break
    if dxf_count is not None:
        for dxf in re.findall(rb'\bdxfId="(\d+)"', xml[data.end():] if data else xml):
            if int(dxf) >= dxf_count:
                problems.append(f"« {name} » : dxfId {dxf.decode()} hors de dxfs ({dxf_count})")
    return problems


@dataclass
class _SeenParts:
    """The table ids, table names and drawings met so far across the workbook's sheets."""

    table_ids: set = field(default_factory=set)
    table_names: set[str] = field(default_factory=set)
    drawings: set[str] = field(default_factory=set)


def _sheet_part_problems(archive: zipfile.ZipFile, names: set[str], part: str, sheet_rels: str,
                         seen: _SeenParts) -> list[str]:
    """The tables and drawings a worksheet relates to."""
    problems = []
    for rel in SafeET.fromstring(archive.read(sheet_rels)):
        target = resolve(part, rel.get("Target", ""))
        if rel.get("Type", "").endswith("/table") and target in names:
            problems += _table_problems(SafeET.fromstring(archive.read(target)), target, seen)
        if rel.get("Type", "").endswith("/drawing") and target in names:
            problems += _drawing_problems(archive, target, seen)
    return problems


def _table_problems(table, target: str, seen: _SeenParts) -> list[str]:
    """A table's id and name unique in the workbook, its columns matching its range and uniquely named."""
    problems = []
    tid, tname = table.get("id"), (table.get("displayName") or "").casefold()
    if tid in seen.table_ids:
        problems.append(f"table id {tid} en double ({target})")
    if tname in seen.table_names:
        problems.append(f"table « {table.get('displayName')} » en double")
    seen.table_ids.add(tid)
    seen.table_names.add(tname)
    columns = table.find(f"{{{MAIN}}}tableColumns")
    lo_col, _, hi_col, _ = range_boundaries(table.get("ref"))
    headers = [c.get("name", "") for c in (columns if columns is not None else [])]
    if len(headers) != hi_col - lo_col + 1:
        problems.append(f"table « {table.get('displayName')} » : {len(headers)} colonnes pour "
                        f"{table.get('ref')}")
    if len({h.casefold() for h in headers}) != len(headers):
        problems.append(f"table « {table.get('displayName')} » : noms de colonnes en double")
    return problems


def _drawing_problems(archive: zipfile.ZipFile, target: str, seen: _SeenParts) -> list[str]:
    """A drawing used by one sheet only, its objects' ids unique."""
    problems = []
    if target in seen.drawings:
        problems.append(f"dessin {target} partagé par deux feuilles")
    seen.drawings.add(target)
    ids = re.findall(rb'<(?:\w+:)?cNvPr\b[^>]*?\bid="(\d+)"', archive.read(target))
    if len(set(ids)) != len(ids):
        problems.append(f"dessin {target} : identifiants d'objets en double")
    return problems

'''

# --- xlcircuit/xlsx/values.py ------------------------------------------------------------------------
_SOURCES['xlcircuit.xlsx.values'] = False, r'''
"""The values of a workbook xlcircuit only reads (an import's source): each sheet's cells as values (a formula by
its last calculated value), whether it is hidden, and its tables, from a file opened by the guarded reader."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from ..rules.errors import WorkbookError
from .ooxml import Unsupported
from .package import Package
from .safe import Opened, load_workbook


@dataclass
class SheetValues:
    """A sheet of a source workbook: its name, whether it is hidden, its non-empty rows by number (values from
    column A), and its tables as (name, range)."""

    name: str
    hidden: bool
    rows: dict[int, list[object]] = field(default_factory=dict)
    tables: list[tuple[str, str]] = field(default_factory=list)


def sheet_values(path: str | os.PathLike[str]) -> list[SheetValues]:
    """Every worksheet of the workbook at ``path``, in order, read safely (bombs, entities and damaged parts are
    one French sentence, a :class:`~xlcircuit.rules.errors.WorkbookError`)."""
    opened = Opened(path)
    try:
        tables = _tables(opened)
        wb = load_workbook(opened, data_only=True)
    finally:
        opened.close()
    sheets = []
    for ws in wb.worksheets:
        rows: dict[int, list[object]] = {}
        for number, row in enumerate(ws.iter_rows(values_only=True), start=1):
            if any(value is not None for value in row):
                rows[number] = list(row)
        sheets.append(SheetValues(ws.title, ws.sheet_state != "visible", rows, tables.get(ws.title, [])))
    return sheets


def _tables(opened: Opened) -> dict[str, list[tuple[str, str]]]:
    """Sheet name -> (name, range) of each of its tables; empty when the package's map of them cannot be read
    (its sheets are then read as plain ranges)."""
    try:
        return {sheet: [(t.name, t.ref) for t in found] for sheet, found in Package(opened).tables.items()}
    except (Unsupported, WorkbookError):
        return {}
'''

# --- xlcircuit/xlsx/writer.py ------------------------------------------------------------------------
_SOURCES['xlcircuit.xlsx.writer'] = False, r'''
"""The output-sheet writer: openpyxl's worksheet writer but for the cells, written here at a few times its speed."""

from __future__ import annotations

import itertools
import re
import sys
from collections import defaultdict
from collections.abc import Iterator

from openpyxl.cell._writer import etree_write_cell
from openpyxl.cell.cell import MergedCell
from openpyxl.utils import get_column_letter
from openpyxl.utils.datetime import to_excel
from openpyxl.worksheet._writer import WorksheetWriter
from openpyxl.worksheet.worksheet import Worksheet
from openpyxl.xml.functions import Element, tostring

from .ooxml import Unsupported, escape, quoteattr


class _SheetWriter(WorksheetWriter):
    """openpyxl's worksheet writer but for the cells, written here at a few times its speed."""

    #: What openpyxl writes for the element put in the cells' place: ``<xlcircuitSheetData />`` with the
    #: standard library's ElementTree, ``<xlcircuitSheetData/>`` with lxml (which openpyxl uses when installed).
    PLACEHOLDER = re.compile(rb"<xlcircuitSheetData\s*/>")
    #: The package's plain shared strings, by text (``cells.plain_shared_strings``): a text cell among them
    #: points to it (``t="s"``, as Excel writes text), any other is written inline.
    strings: dict[str, int] = {}  # noqa: RUF012  # replaced, never changed in place

    def write_rows(self):
        self.xf.send(Element("xlcircuitSheetData"))

    def sheet_data(self) -> Iterator[bytes]:
        """The sheet's <sheetData>, encoded in chunks of a few thousand rows, each made when asked for."""
        ws = self.ws
        dims = ws.row_dimensions
        rows = self._rows()
        context = _Context(ws, self.strings)
        out = ["<sheetData>"]
        for row in sorted(rows):
            dim = dims.get(row)
            attrs = "".join(f" {k}={quoteattr(v)}" for k, v in dim) if dim is not None else ""
            out.append(f'<row r="{row}"{attrs}>')
            cells = rows[row]
            if len(cells) > 1:
                cells.sort(key=_first)
            _cells_xml(out, row, cells, context)
            out.append("</row>")
            if len(out) > 4_000:  # a season's sheet is tens of MB: never whole in memory
                yield "".join(out).encode()
                out.clear()
        out.append("</sheetData>")
        yield "".join(out).encode()

    def _rows(self) -> dict[int, list]:
        """The sheet's cells as (column, cell) by row, with every row that has dimensions (maybe no cells)."""
        ws = self.ws
        rows: dict[int, list] = defaultdict(list)
        for key, cell in ws._cells.items():
            rows[key[0]].append((key[1], cell))
        for row in ws.row_dimensions:
            rows.setdefault(row, [])
        return rows

    def serialised(self) -> Iterator[bytes]:
        """The sheet's XML in pieces: its head and tail made now, its cells as the pieces are written into
        the zip one after the other."""
        ws = self.ws
        try:
            # The tail lists the cells' links (openpyxl gathers them as it writes the cells): gathered first.
            linked = sorted((key, cell) for key, cell in ws._cells.items() if cell.hyperlink is not None)
            ws._hyperlinks = [cell.hyperlink for _, cell in linked]  # (emptied by __init__)
            self.write()
        finally:
            # Also when anything fails: the stream openpyxl opened when this writer was made would otherwise
            # write to its buffer once that is gone.
            self.close()
        xml = self.read()
        pieces = self.PLACEHOLDER.split(xml)
        if len(pieces) != 2:
            raise Unsupported(f"openpyxl a écrit la feuille « {ws.title} » d'une façon inattendue")
        head, tail = pieces
        return itertools.chain([head], self.sheet_data(), [tail])


class _Context:
    """What writing a sheet's cells needs at hand: its workbook's style list, its epoch, and the column letters
    and style attributes met so far."""

    __slots__ = ("add_style", "epoch", "letters", "strings", "styles", "texts", "ws")

    def __init__(self, ws: Worksheet, strings: dict[str, int]):
        self.ws = ws
        self.strings = strings  # the package's plain shared strings, by text
        self.texts: dict[str, str] = {}  # a text -> what follows <c r=".." s=".."> for it (names repeat)
        self.add_style = ws.parent._cell_styles.add
        self.epoch = ws.parent.epoch
        self.letters: dict[int, str] = {}
        self.styles: dict[bytes, str] = {}


def _cells_xml(out: list[str], row: int, cells: list, context: _Context) -> None:
    """The cells of a row, appended to ``out``: text and numbers, most of a season's cells, inline; anything
    else by :func:`_cell_xml`."""
    letters, texts = context.letters, context.texts
    for column, cell in cells:
        style = cell._style
        s = "" if style is None else _style_attribute(style, context.styles, context.add_style)
        value = cell._value
        if value is None and not s:
            continue
        letter = letters.get(column)
        if letter is None:
            letter = letters[column] = get_column_letter(column)
        ref = f"{letter}{row}"
        kind = value.__class__
        if cell.__class__ is MergedCell:  # covered by a merged range: its style only
            out.append(f'<c r="{ref}"{s}/>')
        elif cell._hyperlink is not None or cell._comment is not None:
            out.append(_cell_xml(context.ws, cell, ref, s, context.epoch))
        elif kind is str and cell.data_type == "s":
            tail = texts.get(value)
            if tail is None:
                tail = texts[value] = _text_tail(value, context.strings)
            out.append(f'<c r="{ref}"{s}{tail}')
        elif kind is float and cell.data_type == "n" and -1e300 < value < 1e300:
            out.append(f'<c r="{ref}"{s} t="n"><v>{value:.16g}</v></c>')
        elif kind is int and cell.data_type == "n" and -10**15 < value < 10**15:
            out.append(f'<c r="{ref}"{s} t="n"><v>{value}</v></c>')
        else:
            out.append(_cell_xml(context.ws, cell, ref, s, context.epoch))


def _first(item: tuple) -> int:
    return item[0]


def _style_attribute(style, known: dict[bytes, str], add_style) -> str:
    """A cell's ` s="…"` attribute (empty for the default style), remembered by the style's bytes."""
    key = style.tobytes()
    attribute = known.get(key)
    if attribute is None:
        attribute = known[key] = f' s="{add_style(style)}"' if any(style) else ""
    return attribute


def _cell_xml(ws: Worksheet, cell, ref: str, s: str, epoch) -> str:
    """One cell's XML: text, numbers and naive dates written here, anything else by openpyxl."""
    value = cell._value
    kind = cell.data_type
    if kind == "s" and value.__class__ is str and cell._hyperlink is None and cell._comment is None:
        return _text_cell_xml(ref, s, value)
    if kind == "n" and cell._hyperlink is None and cell._comment is None:
        return _number_cell_xml(ref, s, value)
    if kind == "d" and value is not None and getattr(value, "tzinfo", None) is None \
            and cell._hyperlink is None and cell._comment is None:
        return f'<c r="{ref}"{s} t="n"><v>{_number_text(to_excel(value, epoch))}</v></c>'
    return _openpyxl_cell(ws, cell, bool(s))


def _text_cell_xml(ref: str, s: str, value: str) -> str:
    """A text cell, written inline."""
    return f'<c r="{ref}"{s}' + _text_tail(value, {})


def _text_tail(value: str, shared: dict[str, int]) -> str:
    """What follows ``<c r=".." s=".."`` for a text cell: a pointer to the shared string of that text (``shared``:
    text -> index), else the text inline."""
    index = shared.get(value)
    if index is not None:
        return f' t="s"><v>{index}</v></c>'
    if value == "":
        return "/>"
    if "&" in value or "<" in value or ">" in value:
        value = escape(value)
    space = ' xml:space="preserve"' if value[:1].isspace() or value[-1:].isspace() else ""
    return f' t="inlineStr"><is><t{space}>{value}</t></is></c>'


def _number_cell_xml(ref: str, s: str, value) -> str:
    """A number cell (or an empty one typed as number)."""
    if value is None:
        return f'<c r="{ref}"{s} t="n"/>'
    if value.__class__ is float and -1e300 < value < 1e300:
        return f'<c r="{ref}"{s} t="n"><v>{value:.16g}</v></c>'
    if value.__class__ is int and -10**15 < value < 10**15:
        return f'<c r="{ref}"{s} t="n"><v>{value}</v></c>'
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > _LARGEST:
        return _text_cell_xml(ref, s, str(value))  # beyond any spreadsheet's numbers: kept, as its digits
    return f'<c r="{ref}"{s} t="n"><v>{_number_text(value)}</v></c>'


#: The largest number a cell holds (a double's): a whole number beyond it is written as text.
_LARGEST = sys.float_info.max


def _number_text(value) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    if value != value or value in (float("inf"), float("-inf")):
        return ""
    return f"{value:.16g}"  # as openpyxl writes numbers


class _Collect:
    def __init__(self):
        self.parts: list[bytes] = []

    def write(self, element) -> None:
        self.parts.append(tostring(element))


def _openpyxl_cell(ws: Worksheet, cell, styled: bool) -> str:
    collect = _Collect()
    etree_write_cell(collect, ws, cell, styled)
    return b"".join(collect.parts).decode()

'''

# --- xlcircuit/xlsx/zipio.py -------------------------------------------------------------------------
_SOURCES['xlcircuit.xlsx.zipio'] = False, r'''
"""Zip members written for a package: new ones with a fixed time (a refill writes the same bytes), and kept ones
copied as their raw compressed bytes (no inflating, no deflating: near free)."""

from __future__ import annotations

import struct
import zipfile
from collections.abc import Iterable
from typing import BinaryIO

from .ooxml import Unsupported

#: Zip entries written anew carry this time, so that a refill writes the same bytes.
ZIP_TIME = (1980, 1, 1, 0, 0, 0)
COMPRESS_LEVEL = 1  # the output sheets are large and rewritten at each fill: fast deflate
LOCAL_HEADER = struct.Struct("<4s5H3I2H")  # signature, version, flags, method, time, date, CRC, sizes, lengths


def write_new(out: zipfile.ZipFile, name: str, data: bytes | Iterable[bytes]) -> None:
    """A new member ``name``, deflated, from bytes or from pieces (written as they come: never whole in memory)."""
    info = zipfile.ZipInfo(name, date_time=ZIP_TIME)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o600 << 16
    if isinstance(data, bytes):
        out.writestr(info, data, compresslevel=COMPRESS_LEVEL)
        return
    # What ZipFile.open(info, "w") reads: ``compress_level`` from Python 3.13, ``_compresslevel`` before.
    setattr(info, "compress_level" if hasattr(zipfile.ZipInfo, "compress_level") else "_compresslevel", COMPRESS_LEVEL)
    with out.open(info, "w") as handle:
        for piece in data:
            handle.write(piece)


def data_offset(source: BinaryIO, info: zipfile.ZipInfo) -> int:
    """Where the compressed bytes of ``info`` start, read from its local header, which must agree with the
    central directory (its signature, its name); :class:`Unsupported` otherwise."""
    source.seek(info.header_offset)
    header = source.read(LOCAL_HEADER.size)
    if len(header) < LOCAL_HEADER.size or header[:4] != b"PK\x03\x04":
        raise Unsupported(f"l'en-tête de la partie {info.filename} est abîmé")
    name_length, extra_length = LOCAL_HEADER.unpack(header)[-2:]
    name = source.read(name_length)
    if name not in (info.orig_filename.encode("utf-8"), info.orig_filename.encode("cp437", "replace")):
        raise Unsupported(f"l'en-tête de la partie {info.filename} porte un autre nom")
    return info.header_offset + LOCAL_HEADER.size + name_length + extra_length


def copy_raw(source: BinaryIO, info: zipfile.ZipInfo, out: zipfile.ZipFile) -> None:
    """Copy a member's compressed bytes as they are: no inflating, no deflating."""
    source.seek(data_offset(source, info))
    data = source.read(info.compress_size)
    if len(data) != info.compress_size:
        raise Unsupported(f"la partie {info.filename} est tronquée")
    copy = zipfile.ZipInfo(info.filename, date_time=info.date_time)
    copy.compress_type = info.compress_type
    copy.CRC, copy.compress_size, copy.file_size = info.CRC, info.compress_size, info.file_size
    copy.external_attr, copy.create_system = info.external_attr, info.create_system
    copy.flag_bits = info.flag_bits & ~0x08 & 0x800  # sizes in the header, no data descriptor; keep UTF-8 names
    copy.extra = b""
    fp = out.fp
    assert fp is not None
    copy.header_offset = fp.tell()
    zip64 = copy.file_size > zipfile.ZIP64_LIMIT or copy.compress_size > zipfile.ZIP64_LIMIT
    fp.write(copy.FileHeader(zip64))
    fp.write(data)
    out.filelist.append(copy)
    out.NameToInfo[copy.filename] = copy
    out.start_dir = fp.tell()
    out._didModify = True  # type: ignore[attr-defined]  # so that closing writes the central directory
'''


import importlib.abc
import importlib.util
import sys


class _EmbeddedXlcircuit(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Serves the modules of _SOURCES to import, from memory."""

    def find_spec(self, name, path=None, target=None):
        if name in _SOURCES:
            return importlib.util.spec_from_loader(name, self, is_package=_SOURCES[name][0])
        return None

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        package, source = _SOURCES[module.__name__]
        if package:
            module.__path__ = []
        filename = "<main.py>/" + module.__name__.replace(".", "/") + ("/__init__.py" if package else ".py")
        exec(compile(source[1:], filename, "exec"), module.__dict__)  # [1:]: the newline after the quotes


def _install():
    """Put this file's modules first, in place of any xlcircuit imported before (an older main.py's)."""
    sys.meta_path[:] = [f for f in sys.meta_path if type(f).__name__ != "_EmbeddedXlcircuit"]
    for name in [n for n in sys.modules if n == "xlcircuit" or n.startswith("xlcircuit.")]:
        del sys.modules[name]
    sys.meta_path.insert(0, _EmbeddedXlcircuit())


_install()

from xlcircuit.udfs import (  # noqa: E402, F401
    TDF_POINTS, TDF_TOURNAMENT, TDF_SEASON, TDF_WEIGHTS, DBM_CLASS_VALUE, DBM_CMM, DBM_VALUE,
    DBM_POINTS, DBM_REFEREE, DBM_BEST4, PASTIS, CDF_SIMUL, CDF_QUALIF, CDF_FINAL, ELO_EXPECTED,
    ELO_K, ELO_CHANGE, ELO_NEW, ELO_TIER, TORRES_VP, TORRES_DIFF,
)
from xlcircuit.excel.scripts import remplir, verifier  # noqa: E402, F401
