"""Passing results on: one workbook per club, the standings as PDF, the tables as CSV.

Each computes the season afresh from the workbook's input tables, so what is shared is never a
stale fill.
"""

from __future__ import annotations

import csv
import datetime as dt
import functools
import io
import re
import tempfile
from pathlib import Path
from typing import IO, Any

import openpyxl

from ..rules.errors import WorkbookProblems, XlcircuitError
from ..rules.mechanics import format_half_up
from ..workbook.adapter import Adapter
from ..workbook.cells import FORMULA_STARTS
from ..workbook.spec import Output, Problems, TableSpec
from ..workbook.write import write_outputs
from ..xlsx import Book, libreoffice, save_atomic
from .common import open_book
from .files import copy_whole, safe_filename, why, write_whole
from .outcome import Outcome, Progress, quiet

__all__ = ["safe_filename", "share", "share_clubs", "share_csv", "share_pdf", "shared_tables"]

#: The per-club workbook's own tables (their columns are those of the federation's tables).
MY_CLUB = TableSpec("Mon club", "MonClub", ())
CLUB_POINTS = TableSpec("Points du club", "PointsClub", ())
_CSV_PROTECT = FORMULA_STARTS + ("\t", "\r")
#: A number format whose positive section CSV values follow: "0", "0.00", "0%", "+0;-0;0"…
_NUMBER_FORMAT = re.compile(r"\+?0(?:\.(0+))?(%?)")


def _unique(folder: Path, stem: str, suffix: str, taken: set[str]) -> Path:
    candidate, n = f"{stem}{suffix}", 2
    while candidate.casefold() in taken:
        candidate, n = f"{stem} ({n}){suffix}", n + 1
    taken.add(candidate.casefold())
    return folder / candidate


def share_clubs(book: Book, adapter: Adapter, folder: Path, day: dt.date | None = None,
                summary: Any = None, failures: dict[str, str] | None = None) -> dict[str, Path]:
    """One workbook per club: the full standings with the club's players highlighted, a ``Mon club``
    sheet with only them, and their result lines (``summary``: the season computed, else computed here).

    Each club's workbook is written whole or not at all; one that cannot be written (a full disk) does not keep
    the others back: why is put in ``failures`` (club -> reason), or, without it, raised once the others are."""
    summary = summary if summary is not None else adapter.compute(book)
    if not summary.clubs:
        raise XlcircuitError(f"{book.path.name} ne dit le club de personne : remplissez la table « Joueurs » "
                             "(Joueur, Club), puis relancez.")
    folder.mkdir(parents=True, exist_ok=True)
    written: dict[str, Path] = {}
    failed: dict[str, str] = {} if failures is None else failures
    taken: set[str] = set()
    for club in sorted(set(summary.clubs.values()), key=lambda c: (c.casefold(), c)):
        target = _unique(folder, f"Classement - {safe_filename(club)}", ".xlsx", taken)
        try:
            written[club] = save_atomic(_club_workbook(adapter, summary, club, day), target)
        except XlcircuitError as exc:  # the engine's sentence names the file
            failed[club] = str(exc).rstrip(".")
        except OSError as exc:
            failed[club] = f"{target.name} : {why(exc)}"
    standings = _output(adapter.outputs(summary, day=day), adapter.standings)
    alone = sorted({row[_player_column(standings)] for row in standings.rows} - set(summary.clubs) - {None}, key=str)
    if alone:  # in no club's workbook: say so, the organiser may have forgotten them in Joueurs
        book.warnings.append(f"{len(alone)} joueur{'s' if len(alone) > 1 else ''} sans club, dans aucun classeur de "
                             f"club (ajoutez-les à la table « Joueurs » si c'est un oubli) : "
                             f"{', '.join(map(str, alone))}.")
    if failures is None and failed:
        raise XlcircuitError(_not_written(failed, "classeur de club", "classeurs de club"))
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


def _club_workbook(adapter: Adapter, summary: Any, club: str, day: dt.date | None) -> openpyxl.Workbook:
    """A club's workbook: the standings with its players highlighted, ``Mon club``, ``Points du club``."""
    published = adapter.outputs(summary, club=club, day=day)
    standings, points = _output(published, adapter.standings), _output(published, adapter.lines)
    members = {player for player, c in summary.clubs.items() if c == club}
    count = sum(row[_player_column(standings)] in members for row in standings.rows)
    mine = _rows_of(standings, members, MY_CLUB, f"{club} — {count} joueurs")
    theirs = _rows_of(points, members, CLUB_POINTS, f"{club} — résultats par tournoi")
    wb = openpyxl.Workbook()
    wb.active.title = standings.spec.sheet
    write_outputs(wb, [standings, mine, theirs])
    return wb


def _not_written(failed: dict[str, str], one: str, many: str) -> str:
    """The sentence for what a share could not write: each file and why."""
    count = len(failed)
    return (f"{count} {one if count == 1 else many} non écrit{'s' if count > 1 else ''} : "
            + " ; ".join(f"{what} ({reason})" for what, reason in failed.items()) + ".")


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


def share_csv(book: Book, adapter: Adapter, folder: Path, french: bool = True, summary: Any = None,
              failures: dict[str, str] | None = None) -> list[Path]:
    """Each published table as CSV with a header row, numbers as the workbook displays them.

    ``french`` (the default): what a French Excel opens with a double click: ``;`` between values, decimal
    comma, dates dd/mm/yyyy, UTF-8 with a byte-order mark. Otherwise: ``,``, decimal point, ISO dates, UTF-8
    without a mark (for a web site or a program). Each file is written whole or not at all; one that cannot be
    written is put in ``failures`` (file name -> reason), or, without it, raised once the others are written."""
    summary = summary if summary is not None else adapter.compute(book)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    failed: dict[str, str] = {} if failures is None else failures
    tables = shared_tables(adapter, summary)
    stem = safe_filename(book.path.stem, fallback="classeur")
    for output in tables:
        target = folder / safe_filename(f"{stem}-{_csv_name(output, tables)}", fallback="table")
        target = target.with_name(target.name + ".csv")
        try:
            written.append(write_whole(target, functools.partial(_write_csv, output=output, french=french)))
        except OSError as exc:
            failed[target.name] = why(exc)
    if failures is None and failed:
        raise XlcircuitError(_not_written(failed, "fichier CSV", "fichiers CSV"))
    return written


def _write_csv(stream: IO[bytes], *, output: Output, french: bool) -> None:
    text = io.TextIOWrapper(stream, encoding="utf-8-sig" if french else "utf-8", newline="")
    writer = csv.writer(text, delimiter=";" if french else ",")
    writer.writerow([_csv_value(c.header, None) for c in output.columns])
    for row in output.rows:
        writer.writerow([_csv_value(v, c.number_format, french) for c, v in zip(output.columns, row)])
    text.flush()
    text.detach()  # the stream stays open: write_whole flushes it to disk and closes it


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
        name = safe_filename(f"{safe_filename(book.path.stem, fallback='classeur')}-classement")
        source = save_atomic(wb, Path(work) / f"{name}.xlsx")
        made = libreoffice.convert(source, Path(work) / "pdf", "pdf")[0]
        return copy_whole(made, folder / made.name)  # whole or not at all, wherever the system's temp is


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
        failed: dict[str, str] = {}
        written = share_clubs(book, adapter, folder, summary=summary, failures=failed)
        outcome.lines.append(f"{len(written)} classeur{'s' if len(written) > 1 else ''} de club écrit"
                             f"{'s' if len(written) > 1 else ''} dans {folder} :")
        outcome.lines.extend(f"  {club} : {file.name}" for club, file in written.items())
        if failed:
            failures.append(f"clubs : {_not_written(failed, 'classeur de club', 'classeurs de club')}")

    def csv_files(folder: Path) -> None:
        failed: dict[str, str] = {}
        outcome.lines.extend(f"CSV écrit : {file}" for file in share_csv(book, adapter, folder, summary=summary,
                                                                          failures=failed))
        if failed:
            failures.append(f"CSV : {_not_written(failed, 'fichier CSV', 'fichiers CSV')}")

    def pdf_file(folder: Path) -> None:
        outcome.lines.append(f"PDF écrit : {share_pdf(book, adapter, folder, summary=summary)}")

    for folder, kind, write in ((clubs, "clubs", clubs_files), (csv_folder, "CSV", csv_files), (pdf, "PDF", pdf_file)):
        if folder is None:
            continue
        progress(kind)
        try:
            write(folder)
        except (XlcircuitError, OSError) as exc:  # a folder that cannot be made, LibreOffice missing…
            failures.append(f"{kind} : {why(exc) if isinstance(exc, OSError) else exc}"
                            + (f" ({folder})" if isinstance(exc, OSError) else ""))
    outcome.warnings = book.warnings
    if failures:
        outcome.error, outcome.status = "\n".join(failures), 1
    return outcome
