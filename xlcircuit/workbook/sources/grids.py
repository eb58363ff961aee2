"""Sources read into grids of values: each sheet of an ``.xlsx``/``.xlsm`` (each Excel table, where a sheet has
several), each sheet of an ``.ods``, a ``.csv`` file, every such file of a folder. Nothing here knows what the
values mean (:mod:`.lines` does); every file that cannot be read is one sentence, never a traceback."""

from __future__ import annotations

import codecs
import csv
import datetime as dt
import io
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from openpyxl.utils import get_column_letter, range_boundaries

from ...rules.errors import Problem, WorkbookError
from ...xlsx import MAX_CELLS, MAX_UNCOMPRESSED, sheet_values
from . import ods

#: The files a source may be (a folder: every such file in it, sorted by name).
WORKBOOKS, SPREADSHEETS, TEXTS = (".xlsx", ".xlsm"), (".ods",), (".csv", ".txt", ".tsv")
SUFFIXES = WORKBOOKS + SPREADSHEETS + TEXTS
#: The names spreadsheet programs give a new sheet: such a sheet is named after its file instead.
_DEFAULT_SHEET = re.compile(r"(?:feuil|feuille|sheet|tabelle|hoja|foglio|blad|planilha|arkusz)\s*\d*", re.IGNORECASE)
_DEFAULT_TABLE = re.compile(r"(?:tableau|table|tabelle|tabla)\s*\d*", re.IGNORECASE)
#: Delimiters a CSV file may use, most usual first (French Excel writes ``;``).
_DELIMITERS = (";", ",", "\t", "|")
_SAMPLE_LINES = 50


@dataclass
class Grid:
    """The values of one source sheet (or of one of its tables, or of a CSV file): ``rows`` maps a row number
    to the values of its cells from column ``first_col`` on (blank rows are absent)."""

    file: Path
    sheet: str | None  # None: a CSV file
    rows: dict[int, list[object]]
    first_col: int = 1
    table: str | None = None  # the Excel table it is, where its sheet has several
    header_row: int | None = None  # an Excel table's header row (else found by :mod:`.lines`)
    tables_on_sheet: int = 0

    @property
    def place(self) -> str:
        """Where it is, as a problem names it: ``[lyon.xlsx]Open`` (a spreadsheet's sheet), ``lyon.csv``."""
        return self.file.name if self.sheet is None else f"[{self.file.name}]{self.sheet}"

    @property
    def label(self) -> str:
        """What the ``Source`` column of the season says of a line read here: ``lyon.xlsx : Open``; importing
        the same label again replaces its lines."""
        if self.sheet is None:
            return self.file.name
        return f"{self.file.name} : {self.sheet}" + (f" : {self.table}" if self.table else "")

    @property
    def name(self) -> str:
        """The tournament it holds when it does not say: the sheet's name, the table's where a sheet has several,
        else (a CSV file, a sheet left as « Feuil1 ») the file's name without its extension."""
        if self.table and not _DEFAULT_TABLE.fullmatch(self.table):
            return self.table
        if self.sheet is not None and not _DEFAULT_SHEET.fullmatch(self.sheet.strip()):
            return self.sheet.strip() + (f" ({self.table})" if self.table else "")
        return self.file.stem

    def cell(self, row: int, index: int) -> str:
        """The address of the value at ``index`` in ``row`` (``C5``)."""
        return f"{get_column_letter(self.first_col + index)}{row}"

    def problem(self, row: int | None, index: int | None, column: str | None, message: str) -> Problem:
        return Problem(self.place, row, column, message, None if row is None or index is None else self.cell(row, index))


@dataclass
class Read:
    """What the sources gave: their grids, the problems of files that could not be read, and what was left
    aside (a hidden sheet), each in one sentence."""

    grids: list[Grid] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)  # every file met, in the order read

    def rank(self, problem: Problem) -> int:
        """The position of the file a problem is in (problems are reported in the order of the sources)."""
        for index, file in enumerate(self.files):
            if problem.sheet in (file.name, str(file)) or problem.sheet.startswith(f"[{file.name}]"):
                return index
        return len(self.files)


def read_sources(paths: Iterable[Path], skip: Iterable[Path] = ()) -> Read:
    """Every grid of ``paths`` (files and folders), in the order given, a folder's files by name; files of
    ``skip`` (the season itself, in a folder of sources) are left out."""
    read = Read()
    left_out = {_key(p) for p in skip}
    seen: set[str] = set()
    for path in paths:
        for file in _files(Path(path), read):
            key = _key(file)
            if key in left_out or key in seen:
                continue
            seen.add(key)
            read.files.append(file)
            _read_file(file, read)
    return read


def _key(path: Path) -> str:
    try:
        return str(path.resolve())
    except OSError:
        return str(path)


def _files(path: Path, read: Read) -> list[Path]:
    if not path.exists():
        read.files.append(path)
        read.problems.append(Problem(str(path), None, None, "fichier ou dossier introuvable"))
        return []
    if not path.is_dir():
        return [path]
    try:
        files = sorted((p for p in path.iterdir() if p.is_file() and p.suffix.lower() in SUFFIXES
                        and not p.name.startswith((".", "~$"))), key=lambda p: (p.name.casefold(), p.name))
    except OSError as exc:
        read.problems.append(Problem(str(path), None, None, f"dossier illisible ({exc.strerror or exc})"))
        return []
    if not files:
        read.problems.append(Problem(str(path), None, None, "ce dossier ne contient aucun fichier "
                                                             f"{', '.join(SUFFIXES[:-1])} ou {SUFFIXES[-1]}"))
    return files


def _read_file(file: Path, read: Read) -> None:
    suffix = file.suffix.lower()
    try:
        if suffix in WORKBOOKS:
            _read_workbook(file, read)
        elif suffix in SPREADSHEETS:
            for sheet in ods.read(file):
                if sheet.hidden:
                    read.skipped.append(f"[{file.name}]{sheet.name} : feuille masquée, ignorée")
                else:
                    read.grids.append(Grid(file, sheet.name, sheet.rows))
        elif suffix in TEXTS:
            read.grids.append(Grid(file, None, read_csv(file)))
        elif suffix == ".xls":
            raise WorkbookError(f"{file.name} est au format .xls (Excel 97-2003) : ouvrez-le dans votre tableur et "
                                "enregistrez-le au format .xlsx, puis relancez.")
        else:
            raise WorkbookError(f"{file.name} : format non lu ; une source est un classeur .xlsx, .xlsm ou .ods, un "
                                "fichier .csv, ou un dossier de tels fichiers.")
    except WorkbookError as exc:
        read.problems.append(Problem(file.name, None, None, _sentence(file, str(exc))))
    except OSError as exc:
        read.problems.append(Problem(file.name, None, None, f"illisible ({exc.strerror or exc})"))


def _sentence(file: Path, text: str) -> str:
    """A file's error without its own name in front (the problem names the file)."""
    return text[len(file.name):].lstrip(" :") if text.startswith(file.name) else text


# --- .xlsx, .xlsm ----------------------------------------------------------------------------------------------


def _read_workbook(file: Path, read: Read) -> None:
    for sheet in sheet_values(file):
        if sheet.hidden:
            read.skipped.append(f"[{file.name}]{sheet.name} : feuille masquée, ignorée")
            continue
        rows = {number: [_value(v) for v in values] for number, values in sheet.rows.items()}
        rows = {number: values for number, values in rows.items() if any(v is not None for v in values)}
        read.grids += _sheet_grids(file, sheet.name, rows, sheet.tables)


def _sheet_grids(file: Path, sheet: str, rows: dict[int, list[object]], tables: list[tuple[str, str]]) -> list[Grid]:
    """A sheet's grid, or one grid per Excel table where it has several (each with its header row)."""
    areas = []
    for name, ref in tables:
        try:
            areas.append((name, range_boundaries(ref)))
        except (ValueError, TypeError):
            continue
    if len(areas) < 2:
        header = areas[0][1][1] if areas else None
        return [Grid(file, sheet, rows, header_row=header)]
    grids = []
    for name, (min_col, min_row, max_col, max_row) in areas:
        part = {r: values[min_col - 1:max_col] for r, values in rows.items() if min_row <= r <= max_row
                and any(v is not None for v in values[min_col - 1:max_col])}
        grids.append(Grid(file, sheet, part, min_col, name, min_row, len(areas)))
    return grids


def _value(value: object) -> object:
    """A cell's value as the importer reads it: whole floats as integers, blank text as nothing."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str):
        return value.strip() or None
    if isinstance(value, dt.datetime) and value.time() == dt.time():
        return value.date()
    return value


# --- .csv ------------------------------------------------------------------------------------------------------


def decode(data: bytes) -> str:
    """A text file's characters: UTF-8 with or without its byte-order mark, UTF-16 with its mark (Excel's
    « texte Unicode »), else Windows-1252 (what a French Windows writes)."""
    for bom, encoding in ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"),
                          (codecs.BOM_UTF16_BE, "utf-16-be")):
        if data.startswith(bom):
            return data[len(bom):].decode(encoding, errors="replace")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def delimiter(text: str) -> str:
    """The delimiter of a CSV text: of ``; , tab |``, the one splitting its first lines into the same number of
    two or more fields most often (quotes respected); ``;`` when none does."""
    sample = [line for line in text.splitlines()[:_SAMPLE_LINES] if line.strip()]
    best, score = ";", (0, 0)
    for candidate in _DELIMITERS:
        try:
            counts = [len(row) for row in csv.reader(sample, delimiter=candidate)]
        except csv.Error:
            continue
        widths = [n for n in counts if n > 1]
        if not widths:
            continue
        usual = max(set(widths), key=widths.count)
        found = (widths.count(usual), usual)
        if found > score:
            best, score = candidate, found
    return best


def read_csv(file: Path) -> dict[int, list[object]]:
    """A CSV file's rows (encoding and delimiter found), within the engine's bounds on size and cells."""
    size = file.stat().st_size
    if size > MAX_UNCOMPRESSED:
        raise WorkbookError(f"{file.name} est trop gros ({size >> 20} Mio, {MAX_UNCOMPRESSED >> 20} Mio au plus) : il "
                            "n'est pas lu.")
    text = decode(file.read_bytes())
    if "\x00" in text:
        raise WorkbookError(f"{file.name} n'est pas un fichier texte (octets nuls) : un .csv s'enregistre depuis votre "
                            "tableur (Fichier > Enregistrer sous > CSV).")
    rows: dict[int, list[object]] = {}
    cells = 0
    try:
        for number, row in enumerate(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter(text)), start=1):
            values: list[object] = [value.strip() or None for value in row]
            cells += len(values)
            if cells > MAX_CELLS:
                raise WorkbookError(f"{file.name} a plus de {MAX_CELLS:,} cellules".replace(",", " ")
                                    + " : fichier bien trop gros, il n'est pas lu.")
            if any(v is not None for v in values):
                rows[number] = values
    except csv.Error as exc:
        raise WorkbookError(f"{file.name} n'est pas un CSV lisible ({exc}).") from None
    return rows
