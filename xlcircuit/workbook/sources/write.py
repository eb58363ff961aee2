"""A :class:`~.lines.Plan` written into the season's input tables (openpyxl's whole model of the workbook: an
input table is the organiser's, and only a full rewrite writes one): lines from a source imported again
take the rows of its earlier lines (the ``Source`` column says where each line came from), lines typed in
advance (a calendar) are filled in place, the others are added under the table; a tournament missing from
its table gets its row, a player his.

Everything is checked before anything is changed: a problem leaves the workbook as it was read."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping, Sequence
from copy import copy
from dataclasses import dataclass, field

from openpyxl.formula.translate import Translator
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.table import Table, TableColumn
from openpyxl.worksheet.worksheet import Worksheet

from ...rules.errors import Problem, WorkbookProblems
from ...rules.text import fold
from ...xlsx import Book
from ..cells import as_text, put
from ..read import MAX_ROW, bounds, cells_in, find_table, overlap, read_table
from ..register import ALIAS, SEPARATOR
from ..sheets import at_cell
from ..spec import Problems, Record, TableSpec
from .lines import Line, Plan
from .mapping import SOURCE, Importer
from .names import People, person_key


@dataclass
class Season:
    """What the season already has: its lines, tournaments and players as read (rows typed under a table
    taken in, as a fill takes them)."""

    lines: list[Record]
    tournaments: list[Record]
    players: list[Record]
    problems: list[Problem]

    def people(self, importer: Importer) -> People:
        """The season's players, each with the cell where he is first typed (players' table first)."""
        known: dict[str, str] = {}
        for record in self.players:
            name = as_text(record.values.get("Joueur"))
            if name is not None:
                known.setdefault(name, at_cell(record, "Joueur"))
            aliases = as_text(record.values.get(ALIAS))  # other spellings the register already knows
            for alias in (a.strip() for a in (aliases or "").split(SEPARATOR)):
                if alias and ALIAS in record.cells:
                    known.setdefault(alias, at_cell(record, ALIAS))
        persons = [f.header for f in importer.fields if f.person]
        for record in self.lines:
            for header in persons:
                name = as_text(record.values.get(header))
                if name is not None:
                    known.setdefault(name, at_cell(record, header))
        return People(known)

    def spellings(self, importer: Importer) -> dict[str, str]:
        """How the season spells each tournament (its ``named`` key), by its name in any case."""
        named = importer.named
        found: dict[str, str] = {}
        for record in (*self.tournaments, *self.lines) if named else ():
            name = as_text(record.values.get(str(named)))
            if name is not None:
                found.setdefault(name.casefold(), name)
        return found


def read_season(book: Book, importer: Importer) -> Season:
    """The season's tables an import reads and writes; a missing one is a problem (the players' table only if
    the import needs it)."""
    problems = Problems()
    lines = read_table(book, importer.lines, problems)
    tournaments = read_table(book, importer.tournaments, problems) if importer.tournaments else []
    players = read_table(book, importer.players, problems) if importer.players else []
    return Season(lines, tournaments, players, problems.items)


@dataclass
class Written:
    """What the import did, for the report."""

    added: dict[tuple[object, ...], int] = field(default_factory=dict)  # tournament -> lines added
    replaced: dict[tuple[object, ...], int] = field(default_factory=dict)  # tournament -> earlier lines replaced
    removed: dict[str, int] = field(default_factory=dict)  # source -> its earlier lines no longer in it
    filled: dict[tuple[object, ...], int] = field(default_factory=dict)  # tournament -> lines typed in advance filled
    new_tournaments: list[tuple[str, int, list[str]]] = field(default_factory=list)  # name, row, cells left blank
    new_players: list[str] = field(default_factory=list)
    columns: list[str] = field(default_factory=list)  # columns added to a table (``Source`` to an older one)
    warnings: list[str] = field(default_factory=list)


def write_plan(book: Book, plan: Plan, season: Season) -> Written:
    """Write the plan into the season's tables (in memory: ``book.save`` saves); :class:`WorkbookProblems`,
    and nothing changed, when a table cannot take it."""
    importer, written = plan.importer, Written()
    problems = Problems()
    lines = _Table.open(book, importer.lines, problems)
    tournaments = _Table.open(book, importer.tournaments, problems) if importer.tournaments else None
    players = _Table.open(book, importer.players, problems) if importer.players else None
    if problems:
        raise WorkbookProblems(problems.items)
    assert lines is not None
    rows = _lines_rows(plan, season, written)
    tournament_rows = _tournament_rows(plan, season, written) if tournaments else _Rows()
    player_rows = _player_rows(plan, season, players, importer, written) if players else _Rows()
    # Everything is checked before anything changes: room under each table, and for each column to add.
    for table, planned in ((lines, rows), (tournaments, tournament_rows), (players, player_rows)):
        if table is not None:
            table.check(planned, problems)
    if problems:
        raise WorkbookProblems(problems.items)
    for table, planned in ((lines, rows), (tournaments, tournament_rows), (players, player_rows)):
        if table is not None:
            written.columns += table.apply(planned)
    if tournaments is not None:  # where each new tournament landed, and its cells left blank
        written.new_tournaments = [(name, row, [f"{h} ({tournaments.ws.title}!{tournaments.letter(h)}{row})"
                                                for h in blank])
                                   for (name, _, blank), row in zip(written.new_tournaments, tournaments.added)]
    if plan.players and players is None and importer.players is not None:
        written.warnings.append(f"Le classeur n'a pas de table « {importer.players.name} » : les clubs lus dans les "
                                "sources ne sont pas importés (créez-la : Joueur, Club).")
    return written


@dataclass
class _Rows:
    """What to write in a table: values set on rows it has, rows it loses, rows added under it."""

    put: list[tuple[int, dict[str, object]]] = field(default_factory=list)
    drop: list[int] = field(default_factory=list)
    add: list[dict[str, object]] = field(default_factory=list)

    def headers(self) -> set[str]:
        found: set[str] = set()
        for values in (*(values for _, values in self.put), *self.add):
            found |= {h for h, v in values.items() if v is not None}
        return found


def _lines_rows(plan: Plan, season: Season, written: Written) -> _Rows:
    """Each source's lines over its earlier ones (in their rows, the rest dropped), lines typed in advance filled,
    the others added; a tournament that also has lines from elsewhere is a warning."""
    importer, rows = plan.importer, _Rows()
    by_source: dict[str, list[Record]] = {}
    for record in season.lines:
        source = as_text(record.values.get(SOURCE))
        if source is not None:
            by_source.setdefault(source, []).append(record)
    placeholders = _placeholders(season.lines, importer)
    replaced: set[int] = set()
    for label, lines in _by_label(plan.lines).items():
        earlier = by_source.get(label, [])
        for line, record in zip(lines, earlier):
            rows.put.append((record.row, _values(line, importer)))
            replaced.add(record.row)
            written.replaced[line.key] = written.replaced.get(line.key, 0) + 1
        if len(earlier) > len(lines):
            rows.drop += [record.row for record in earlier[len(lines):]]
            replaced |= {record.row for record in earlier[len(lines):]}
            written.removed[label] = len(earlier) - len(lines)
        for line in lines[len(earlier):]:
            placeholder = placeholders.pop(_placeholder_key(line.values, importer), None)
            if placeholder is not None:
                record = placeholder
                rows.put.append((record.row, _values(line, importer)))
                replaced.add(record.row)
                written.filled[line.key] = written.filled.get(line.key, 0) + 1
            else:
                rows.add.append(_values(line, importer))
                written.added[line.key] = written.added.get(line.key, 0) + 1
    _elsewhere(plan, season, replaced, written)
    return rows


def _by_label(lines: Iterable[Line]) -> dict[str, list[Line]]:
    found: dict[str, list[Line]] = {}
    for line in lines:
        found.setdefault(line.grid.label, []).append(line)
    return found


def _values(line: Line, importer: Importer) -> dict[str, object]:
    return {**{f.header: line.values.get(f.header) for f in importer.fields}, SOURCE: line.grid.label}


def _placeholder_key(values: Mapping[str, object], importer: Importer) -> tuple[object, ...]:
    player = values.get(importer.player.header)
    return (*(_same(values.get(k)) for k in importer.key), person_key(player) if isinstance(player, str) else None)


def _same(value: object) -> object:
    """A key's value as typed lines and imported ones compare it (``3``, ``3.0`` and ``"3"`` alike)."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return fold(str(value)) if value is not None else None


def _placeholders(records: Sequence[Record], importer: Importer) -> dict[tuple[object, ...], Record]:
    """Lines typed in advance (a calendar) that an imported line fills: their result columns all blank."""
    if not importer.placeholders:
        return {}
    found: dict[tuple[object, ...], Record] = {}
    for record in records:
        if as_text(record.values.get(SOURCE)) is None and all(record.values.get(h) is None for h in importer.placeholders):
            found.setdefault(_placeholder_key(record.values, importer), record)
    return found


def _elsewhere(plan: Plan, season: Season, replaced: set[int], written: Written) -> None:
    """A warning for each tournament imported that has other lines too (typed, or from another source)."""
    importer = plan.importer
    keys = {tuple(_same(v) for v in line.key): line.key for line in plan.lines}
    others: dict[tuple[object, ...], list[Record]] = {}
    for record in season.lines:
        key = tuple(_same(record.values.get(k)) for k in importer.key)
        if key in keys and record.row not in replaced and any(
                record.values.get(h) is not None for h in importer.placeholders or (importer.player.header,)):
            others.setdefault(keys[key], []).append(record)
    for key, records in others.items():
        sources = sorted({as_text(r.values.get(SOURCE)) or "tapées" for r in records})
        first, last = records[0], records[-1]
        header = importer.player.header
        where = at_cell(first, header) + ("" if first is last else f" à {last.cells.get(header)}")
        written.warnings.append(
            f"{importer.what.capitalize()} « {importer.describe(key)} » : "
            f"{len(records)} autre{'s' if len(records) > 1 else ''} ligne{'s' if len(records) > 1 else ''} "
            f"({where} ; {', '.join(sources)}) {'sont gardées' if len(records) > 1 else 'est gardée'} à côté des "
            "lignes importées : supprimez celles qui font double emploi.")


def _tournament_rows(plan: Plan, season: Season, written: Written) -> _Rows:
    """A row for each tournament new to the season (what its sources say of it); on the rows of the others,
    their blank cells the sources fill (a different value is a warning)."""
    importer, rows = plan.importer, _Rows()
    named = importer.named or importer.key[0]
    spec = importer.tournaments
    assert spec is not None
    existing = {as_text(r.values.get(named)): r for r in season.tournaments if as_text(r.values.get(named))}
    for key, tournament in plan.tournaments.items():
        name = key[importer.key.index(named)]
        about = {header: value for header, (value, _) in tournament.about.items()}
        record = existing.get(name) if isinstance(name, str) else None
        if record is None:
            rows.add.append({named: name, **about})
            blank = [c.header for c in spec.columns if c.required and c.header != named and about.get(c.header) is None]
            written.new_tournaments.append((str(name), 0, blank))
            continue
        rows.put.append((record.row, _fill_blanks(record, about, tournament.about, f"« {name} »", written)))
    return rows


def _fill_blanks(record: Record, values: Mapping[str, object], where: Mapping[str, tuple[object, str]], whose: str,
                 written: Written) -> dict[str, object]:
    """Of ``values``, those for the record's blank cells; one that differs from what the record says is a warning."""
    filled: dict[str, object] = {}
    for header, value in values.items():
        typed = record.values.get(header)
        if typed is None:
            filled[header] = value
        elif _same(_comparable(typed)) != _same(_comparable(value)):
            written.warnings.append(f"{whose} : {header} {_shown(typed)} dans le classeur ({at_cell(record, header)}), "
                                    f"{_shown(value)} dans la source ({where[header][1]}) : le classeur est gardé.")
    return filled


def _comparable(value: object) -> object:
    if isinstance(value, dt.datetime):
        return value.date().isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    return value


def _shown(value: object) -> str:
    if isinstance(value, dt.date):
        return f"{value:%d/%m/%Y}"
    return f"« {value} »"


def _player_rows(plan: Plan, season: Season, table: _Table, importer: Importer, written: Written) -> _Rows:
    """A row for each player new to the season when the import says something of him (his club), or when the
    federation registers every player; the blank cells of the others filled."""
    rows = _Rows()
    existing = {name: r for r in season.players if (name := as_text(r.values.get("Joueur")))}
    said = {name: {h: v for h, (v, _) in fields.items()} for name, fields in plan.players.items()}
    names = list(said)
    if importer.register:
        names += [str(line.values[importer.player.header]) for line in plan.lines
                  if isinstance(line.values.get(importer.player.header), str)]
    for name in dict.fromkeys(names):
        record = existing.get(name)
        values = said.get(name, {})
        if record is None:
            rows.add.append({"Joueur": name, **values})
            written.new_players.append(name)
        elif values:
            rows.put.append((record.row, _fill_blanks(record, values, plan.players[name], name, written)))
    return rows


# --- an input table opened for writing -------------------------------------------------------------------------


class _Table:
    """An input table of the season, found by name: its sheet, area and columns; rows set, dropped, added."""

    def __init__(self, ws: Worksheet, table: Table, spec: TableSpec, area: tuple[int, int, int, int]):
        self.ws, self.table, self.spec = ws, table, spec
        self.min_col, self.min_row, self.max_col, self.max_row = area
        self.columns: dict[str, int] = {}
        for col in range(self.min_col, self.max_col + 1):
            value = ws.cell(self.min_row, col).value
            if value is not None:
                self.columns.setdefault(fold(str(value)), col)
        self.new_columns: list[str] = []
        self.added: list[int] = []  # the rows that lines added landed on

    @classmethod
    def open(cls, book: Book, spec: TableSpec | None, problems: Problems) -> _Table | None:
        if spec is None:
            return None
        found = find_table(book.wb, spec.name)
        if found is None:
            if spec.required:
                problems.add(Problem(spec.sheet, None, None, f"table « {spec.name} » introuvable dans le classeur"))
            return None
        ws, table = found
        area = bounds(table)
        if area is None:
            problems.add(Problem(ws.title, None, None, f"la table « {spec.name} » a une étendue illisible : "
                                 "recréez-la (Insertion > Tableau)"))
            return None
        return cls(ws, table, spec, area)

    @property
    def last_row(self) -> int:
        return self.max_row - int(self.table.totalsRowCount or 0)

    def column(self, header: str) -> int | None:
        return self.columns.get(fold(header))

    def letter(self, header: str) -> str:
        col = self.column(header)
        if col is None:
            col = self.max_col + 1 + len([h for h in self.new_columns if h != header])
        return get_column_letter(col)

    def check(self, rows: _Rows, problems: Problems) -> None:
        """Whether the table can take ``rows``: a column to add has room on its right, added rows have room under."""
        if self.table.totalsRowCount and rows.add:
            problems.add(Problem(self.ws.title, None, None, f"la table « {self.spec.name} » a une ligne de total : "
                                 "retirez-la (Création de tableau > Ligne Total), l'import ajoute des lignes dessous"))
            return
        self.new_columns = [h for h in sorted(rows.headers()) if self.column(h) is None]
        last = self.last_row - len(rows.drop) + max(0, len(rows.add) - self._free_rows(rows.drop))
        width = self.max_col + len(self.new_columns)
        new_area = (self.min_col, self.min_row, width, max(last, self.max_row))
        if last > MAX_ROW:
            problems.add(Problem(self.ws.title, None, None, f"la table « {self.spec.name} » dépasserait le bas de la "
                                 "feuille"))
            return
        taken = [c.coordinate for c in cells_in(self.ws, new_area) if c.value is not None
                 and not (c.column <= self.max_col and c.row <= self.max_row)]
        others = [t for t in self.ws.tables.values() if t is not self.table and (b := bounds(t)) is not None
                  and overlap(b, new_area)]
        if taken or others:
            where = taken[0] if taken else others[0].ref
            what = "s'agrandir" if len(rows.add) > len(rows.drop) else "prendre la colonne « " + \
                ", ".join(self.new_columns) + " »"
            problems.add(Problem(self.ws.title, None, None, f"la table « {self.spec.name} » doit {what} sur {where}, "
                                 "qui n'est pas vide : déplacez ce qui s'y trouve, puis relancez", where))

    def apply(self, rows: _Rows) -> list[str]:
        """Write ``rows`` (checked); returns the columns added, as « Table : colonne »."""
        for header in self.new_columns:
            self._add_column(header)
        for row, values in rows.put:
            self._put(row, values)
        self._drop(sorted(rows.drop))
        free = self._free_rows(())
        first_free = self.last_row - free + 1
        style_row = first_free - 1 if first_free - 1 > self.min_row else None
        for index, values in enumerate(rows.add):
            row = first_free + index
            if row > self.last_row:
                self._grow()
            self._put(row, values, style_row)
            self.added.append(row)
        return [f"{self.spec.name} : {header}" for header in self.new_columns]

    def _last_filled(self, dropped: Iterable[int] = ()) -> int:
        """The table's last row with a value (its header row when it has none), rows of ``dropped`` left out:
        found among the cells that exist (a table over whole columns costs its filled rows only)."""
        gone = set(dropped)
        rows = [c.row for c in cells_in(self.ws, (self.min_col, self.min_row + 1, self.max_col, self.last_row))
                if c.value is not None and c.row not in gone]
        return max(rows, default=self.min_row)

    def _free_rows(self, dropped: Iterable[int]) -> int:
        """Blank rows at the end of the table (a new template's empty row): added rows go there first."""
        gone = set(dropped)
        last = self._last_filled(gone)
        return sum(1 for row in range(last + 1, self.last_row + 1) if row not in gone)

    def _put(self, row: int, values: Mapping[str, object], style_row: int | None = None) -> None:
        formats = {c.header: c.number_format for c in self.spec.columns}
        for header, value in values.items():
            col = self.column(header)
            if col is None:
                continue
            cell = self.ws.cell(row, col)
            if style_row is not None and style_row != row:
                cell._style = copy(self.ws.cell(style_row, col)._style)
            if value is None:
                cell.value = None
            else:
                put(cell, value, formats.get(header) or (_date_format(value) if isinstance(value, dt.date) else None))

    def _add_column(self, header: str) -> None:
        self.max_col += 1
        put(self.ws.cell(self.min_row, self.max_col), header)
        header_style = self.ws.cell(self.min_row, self.max_col - 1)._style
        self.ws.cell(self.min_row, self.max_col)._style = copy(header_style)
        self.columns[fold(header)] = self.max_col
        ids = [c.id for c in self.table.tableColumns] or [0]
        self.table.tableColumns.append(TableColumn(id=max(ids) + 1, name=header))
        self._set_ref()

    def _grow(self) -> None:
        self.max_row += 1
        self._set_ref()

    def _drop(self, drop: Sequence[int]) -> None:
        """Take rows out of the table, the rows under them moving up (in the table's columns only; formulas
        follow their cells); the table keeps its blank rows at the end."""
        if not drop:
            return
        gone = set(drop)
        last = max(self._last_filled(), *drop)
        kept = [r for r in range(self.min_row + 1, last + 1) if r not in gone]
        for target, source in zip(range(self.min_row + 1, last + 1), kept):
            if target != source:
                for col in range(self.min_col, self.max_col + 1):
                    self._move(source, target, col)
        for row in range(self.min_row + 1 + len(kept), last + 1):
            for col in range(self.min_col, self.max_col + 1):
                self.ws._cells.pop((row, col), None)
        self.max_row = max(self.min_row + 1, self.max_row - len(gone))
        self._set_ref()

    def _move(self, source: int, target: int, col: int) -> None:
        cells = self.ws._cells
        cell = cells.get((source, col))
        if cell is None:
            cells.pop((target, col), None)
            return
        new = self.ws.cell(target, col)
        value = cell.value
        if cell.data_type == "f" and isinstance(value, str):
            value = Translator(value, origin=cell.coordinate).translate_formula(new.coordinate)
        new._value, new.data_type, new._style = value, cell.data_type, copy(cell._style)
        new.hyperlink = cell.hyperlink
        new.comment = cell.comment

    def _set_ref(self) -> None:
        ref = f"{get_column_letter(self.min_col)}{self.min_row}:{get_column_letter(self.max_col)}{self.max_row}"
        self.table.ref = ref
        if self.table.autoFilter is not None:
            self.table.autoFilter.ref = ref


def _date_format(value: dt.date) -> str:
    return "dd/mm/yyyy"
