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
