"""Passing results on: one workbook per club, the standings as PDF, the tables as CSV.

Each computes the season afresh from the workbook's input tables, so what is shared is never a
stale fill.
"""

from __future__ import annotations

import csv
import datetime as dt
import re
import tempfile
from pathlib import Path
from typing import Any

import openpyxl

from ..rules.errors import WorkbookProblems, XlcircuitError
from ..rules.mechanics import format_half_up
from ..workbook.adapter import Adapter
from ..workbook.cells import FORMULA_STARTS
from ..workbook.spec import Output, Problems, TableSpec
from ..workbook.write import write_outputs
from ..xlsx import Book, libreoffice, save_atomic
from .common import open_book
from .outcome import Outcome, Progress, quiet

#: The per-club workbook's own tables (their columns are those of the federation's tables).
MY_CLUB = TableSpec("Mon club", "MonClub", ())
CLUB_POINTS = TableSpec("Points du club", "PointsClub", ())
#: Characters no file system takes in a name, and names Windows reserves.
_UNSAFE = re.compile(r'[<>:"/\\|?*\x00-\x1f]+')
_RESERVED = {"con", "prn", "aux", "nul"} | {f"{p}{i}" for p in ("com", "lpt") for i in range(1, 10)}
_CSV_PROTECT = FORMULA_STARTS + ("\t", "\r")
#: A number format whose positive section CSV values follow: "0", "0.00", "0%", "+0;-0;0"…
_NUMBER_FORMAT = re.compile(r"\+?0(?:\.(0+))?(%?)")


def safe_filename(name: str, limit: int = 80) -> str:
    """A file name every file system takes, that still reads like ``name`` (``A/B: "C"`` -> ``A_B_ _C_``)."""
    text = _UNSAFE.sub("_", name).strip().rstrip(". ")[:limit].rstrip(". ")
    if not text or text.strip("_ ") == "":
        text = "club"
    if text.split(".")[0].lower() in _RESERVED:
        text = f"_{text}"
    return text


def _unique(folder: Path, stem: str, suffix: str, taken: set[str]) -> Path:
    candidate, n = f"{stem}{suffix}", 2
    while candidate.casefold() in taken:
        candidate, n = f"{stem} ({n}){suffix}", n + 1
    taken.add(candidate.casefold())
    return folder / candidate


def share_clubs(book: Book, adapter: Adapter, folder: Path, day: dt.date | None = None,
                summary: Any = None) -> dict[str, Path]:
    """One workbook per club: the full standings with the club's players highlighted, a ``Mon club``
    sheet with only them, and their result lines (``summary``: the season computed, else computed here)."""
    summary = summary if summary is not None else adapter.compute(book)
    if not summary.clubs:
        raise XlcircuitError(f"{book.path.name} ne dit le club de personne : remplissez la table « Joueurs » "
                             "(Joueur, Club), puis relancez.")
    folder.mkdir(parents=True, exist_ok=True)
    written: dict[str, Path] = {}
    taken: set[str] = set()
    for club in sorted(set(summary.clubs.values()), key=lambda c: (c.casefold(), c)):
        published = adapter.outputs(summary, club=club, day=day)
        standings, points = _output(published, adapter.standings), _output(published, adapter.lines)
        members = {player for player, c in summary.clubs.items() if c == club}
        count = sum(row[_player_column(standings)] in members for row in standings.rows)
        mine = _rows_of(standings, members, MY_CLUB, f"{club} — {count} joueurs")
        theirs = _rows_of(points, members, CLUB_POINTS, f"{club} — résultats par tournoi")
        wb = openpyxl.Workbook()
        wb.active.title = standings.spec.sheet
        write_outputs(wb, [standings, mine, theirs])
        written[club] = save_atomic(wb, _unique(folder, f"Classement - {safe_filename(club)}", ".xlsx", taken))
    standings = _output(adapter.outputs(summary, day=day), adapter.standings)
    alone = sorted({row[_player_column(standings)] for row in standings.rows} - set(summary.clubs) - {None}, key=str)
    if alone:  # in no club's workbook: say so, the organiser may have forgotten them in Joueurs
        book.warnings.append(f"{len(alone)} joueur{'s' if len(alone) > 1 else ''} sans club, dans aucun classeur de "
                             f"club (ajoutez-les à la table « Joueurs » si c'est un oubli) : "
                             f"{', '.join(map(str, alone))}.")
    return written


def _rows_of(output: Output, members: set[str], spec: TableSpec, title: str) -> Output:
    """A published table cut down to the rows of ``members``, as its own table ``spec`` titled ``title``, with
    the look of those rows (a weighted or set-aside result) and the legend."""
    player = _player_column(output)
    kept = [index for index, row in enumerate(output.rows) if row[player] in members]
    new_index = {old: new for new, old in enumerate(kept)}
    marks = {(new_index[index], column): mark for (index, column), mark in output.marks.items() if index in new_index}
    return Output(spec, output.columns, [output.rows[i] for i in kept], title, marks=marks,
                  notes=output.notes, repeat_columns=output.repeat_columns)


def _output(outputs: list[Output], spec: TableSpec) -> Output:
    """The published table made from ``spec``."""
    return next(output for output in outputs if output.spec == spec)


def _player_column(output: Output) -> int:
    return [c.header for c in output.columns].index("Joueur")


def _decimals(number_format: str | None) -> int:
    """Decimals a CSV value is rounded to (half up): those its number format shows, else 6."""
    match = _NUMBER_FORMAT.fullmatch((number_format or "").split(";")[0])
    if match is None:
        return 6
    return len(match.group(1) or "") + (2 if match.group(2) else 0)


def _csv_value(value: object, number_format: str | None, french: bool = False) -> str:
    if value is None:
        return ""
    if isinstance(value, (dt.date, dt.datetime)):
        return value.strftime("%d/%m/%Y") if french else value.isoformat()
    if isinstance(value, float):
        text = format_half_up(value, _decimals(number_format))
        return text.replace(".", ",") if french else text
    text = str(value)
    # A spreadsheet opening the CSV must not run a name as a formula: a leading quote keeps it text.
    return "'" + text if text.startswith(_CSV_PROTECT) else text


def shared_tables(adapter: Adapter, summary, club: str | None = None, day: dt.date | None = None) -> list[Output]:
    """Every table a federation publishes: its outputs, then the tables laid out apart (TORRES' groups)."""
    return adapter.outputs(summary, club=club, day=day) + adapter.group_outputs(summary, club=club, day=day)


def _csv_name(output: Output, outputs: list[Output]) -> str:
    """A table's CSV name: its sheet's, or its own where a sheet holds several (TORRES' groups)."""
    alone = sum(o.spec.sheet == output.spec.sheet for o in outputs) == 1
    return safe_filename(output.spec.sheet if alone else output.spec.name)


def share_csv(book: Book, adapter: Adapter, folder: Path, french: bool = True, summary: Any = None) -> list[Path]:
    """Each published table as CSV with a header row, numbers as the workbook displays them.

    ``french`` (the default): what a French Excel opens with a double click: ``;`` between values, decimal
    comma, dates dd/mm/yyyy, UTF-8 with a byte-order mark. Otherwise: ``,``, decimal point, ISO dates, UTF-8
    without a mark (for a web site or a program)."""
    summary = summary if summary is not None else adapter.compute(book)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    tables = shared_tables(adapter, summary)
    for output in tables:
        target = folder / f"{book.path.stem}-{_csv_name(output, tables)}.csv"
        with target.open("w", encoding="utf-8-sig" if french else "utf-8", newline="") as handle:
            writer = csv.writer(handle, delimiter=";" if french else ",")
            writer.writerow([_csv_value(c.header, None) for c in output.columns])
            for row in output.rows:
                writer.writerow([_csv_value(v, c.number_format, french) for c, v in zip(output.columns, row)])
        written.append(target)
    return written


def share_pdf(book: Book, adapter: Adapter, folder: Path, day: dt.date | None = None, summary: Any = None) -> Path:
    """The standings as PDF (and TORRES' group tables, a group a page), printed by LibreOffice: A4, French
    number formats, text at a readable size, the header row and the names repeated on every page."""
    libreoffice.require()
    summary = summary if summary is not None else adapter.compute(book)
    standings = _output(adapter.outputs(summary, day=day), adapter.standings)
    with tempfile.TemporaryDirectory() as work:
        wb = openpyxl.Workbook()
        wb.active.title = standings.spec.sheet
        write_outputs(wb, [standings])
        groups = adapter.group_outputs(summary, day=day)
        if groups:
            problems = Problems()
            adapter.write_groups(wb, groups, problems)
            if problems:
                raise WorkbookProblems(problems.items)
        source = save_atomic(wb, Path(work) / f"{book.path.stem}-classement.xlsx")
        return libreoffice.convert(source, folder, "pdf")[0]


def share(path: Path, federation: str | None = None, clubs: Path | None = None, pdf: Path | None = None,
          csv_folder: Path | None = None, progress: Progress = quiet) -> Outcome:
    """« Partager » / ``xlcircuit share``: each kind asked for (a workbook per club, the standings as PDF, the
    tables as CSV) into its folder, each on its own, so that one failing (no club known, no LibreOffice) does
    not keep the others back; the season is computed once."""
    progress("lecture")
    book, adapter = open_book(path, federation)
    summary = adapter.compute(book, progress)
    outcome = Outcome(result=next(folder for folder in (clubs, pdf, csv_folder) if folder is not None))
    failures: list[str] = []

    def clubs_files(folder: Path) -> None:
        written = share_clubs(book, adapter, folder, summary=summary)
        outcome.lines.append(f"{len(written)} classeurs de club écrits dans {folder} :")
        outcome.lines.extend(f"  {club} : {file.name}" for club, file in written.items())

    def csv_files(folder: Path) -> None:
        outcome.lines.extend(f"CSV écrit : {file}" for file in share_csv(book, adapter, folder, summary=summary))

    def pdf_file(folder: Path) -> None:
        outcome.lines.append(f"PDF écrit : {share_pdf(book, adapter, folder, summary=summary)}")

    for folder, kind, write in ((clubs, "clubs", clubs_files), (csv_folder, "CSV", csv_files), (pdf, "PDF", pdf_file)):
        if folder is None:
            continue
        progress(kind)
        try:
            write(folder)
        except XlcircuitError as exc:
            failures.append(f"{kind} : {exc}")
    outcome.warnings = book.warnings
    if failures:
        outcome.error, outcome.status = "\n".join(failures), 1
    return outcome
