"""Grids read as a federation's lines (:class:`Plan`): in each, the header row is found (even below a title),
its columns recognised by their headings in any order (others ignored), the facts written once above or
below the table read (« Date : 12/10/2025 », « Arbitre : … »), and each row turned into the values the
season's table takes, every problem located in the source (file, sheet, row, column). Nothing is written
here (:mod:`.write` does)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from ...rules.errors import InvalidInput, Problem
from ..cells import as_text
from .grids import Grid, Read
from .mapping import Field, Importer, Person
from .names import People, person_key
from .words import FIRST_NAME, SURNAME, heading_key, label_key

#: Rows searched for the header row (a title, a few facts, blank rows above a table).
HEADER_SEARCH = 50
SURNAME_PART, FIRST_NAME_PART = "<nom>", "<prénom>"
PREVIEW_ROWS = 5


@dataclass
class Column:
    """A recognised column of a source sheet: where, its heading as written, and what it fills."""

    index: int
    heading: str
    target: str  # a field's header, or SURNAME_PART / FIRST_NAME_PART


@dataclass
class Line:
    """A line to import: where it was read, and the value of each column of the season's table."""

    grid: Grid
    row: int | None  # None: a line made from a fact (a referee named above the table)
    values: dict[str, object]
    typed: str | None = None  # the player's name as the source wrote it, where the season spells it otherwise
    key: tuple[object, ...] = ()  # what it belongs to: its values of the importer's key


@dataclass
class SheetPlan:
    """What one source grid gives."""

    grid: Grid
    header: int
    columns: list[Column]
    ignored: list[tuple[int, str]]
    facts: dict[str, tuple[object, str]] = field(default_factory=dict)  # header -> (value, cell)
    lines: list[Line] = field(default_factory=list)


@dataclass
class Tournament:
    """A tournament (game, match) the import brings lines to, and what the sources say of it."""

    key: tuple[object, ...]
    about: dict[str, tuple[object, str]] = field(default_factory=dict)  # header -> (value, where)
    lines: int = 0


@dataclass
class Plan:
    """Every line to import, what goes to the tournaments' and players' tables, and what was found wrong."""

    importer: Importer
    sheets: list[SheetPlan] = field(default_factory=list)
    tournaments: dict[tuple[object, ...], Tournament] = field(default_factory=dict)
    players: dict[str, dict[str, tuple[object, str]]] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)

    @property
    def lines(self) -> list[Line]:
        return [line for sheet in self.sheets for line in sheet.lines]

    def add(self, problem: Problem) -> None:
        """A problem, once (a fact's problem is met by every line of its sheet)."""
        if problem not in self._seen:
            self._seen.add(problem)
            self.problems.append(problem)

    def warn(self, warning: str) -> None:
        if warning not in self.warnings:
            self.warnings.append(warning)

    _seen: set[Problem] = field(default_factory=set)


def plan_import(importer: Importer, read: Read, people: People, tournament: str | None = None,
                spellings: Mapping[str, str] | None = None) -> Plan:
    """The lines of every grid read, as ``importer`` declares them; ``tournament`` names the tournament of the
    grids that do not name theirs (else the sheet, or the file); ``spellings``: the season's tournaments by their
    name in any case (an imported « open de lyon » is the season's « Open de Lyon »)."""
    plan = Plan(importer, skipped=list(read.skipped))
    for problem in read.problems:
        plan.add(problem)
    vocabulary = _Vocabulary(importer)
    used_name = False
    labels: dict[str, Grid] = {}
    for grid in read.grids:
        if grid.label in labels and labels[grid.label].file != grid.file:
            plan.add(grid.problem(None, None, None, f"deux sources s'appellent « {grid.label} » "
                                              f"({labels[grid.label].file} et {grid.file}) : renommez l'une des deux"))
            continue
        labels[grid.label] = grid
        sheet = _plan_grid(grid, importer, vocabulary, plan)
        if sheet is None:
            continue
        used_name |= _fill_lines(sheet, importer, vocabulary, plan, people, tournament)
        _spell(sheet, importer, spellings or {})
        for line in sheet.lines:
            line.key = tuple(line.values.get(k) for k in importer.key)
            _about_and_players(sheet, line, importer, plan)
        plan.sheets.append(sheet)
    if tournament is not None and not used_name and plan.sheets:
        plan.warnings.append(f"--tournoi « {tournament} » n'a servi à rien : chaque source nomme elle-même son "
                             f"{importer.what}.")
    close_names(plan, people)
    _unreadable_files(read, plan)
    _count_tournaments(plan)
    plan.problems.sort(key=read.rank)  # in the order of the sources (stable: each file's in its own order)
    return plan


# --- the header row and its columns ---------------------------------------------------------------------------


class _Vocabulary:
    """What the headings and the labels of an importer's sources mean."""

    def __init__(self, importer: Importer):
        self.columns: dict[str, str] = {}
        for f in (*importer.fields, *importer.about, *importer.player_fields):
            for key in sorted(f.keys):
                self.columns.setdefault(key, f.header)
        for words, part in ((SURNAME, SURNAME_PART), (FIRST_NAME, FIRST_NAME_PART)):
            for word in words:
                self.columns.setdefault(heading_key(word), part)
        self.facts: dict[str, Field] = {}
        for f in (*(f for f in importer.fields if f.fact), *importer.about):
            for key in f.keys:
                self.facts.setdefault(key, f)
        self.people = {key: person for person in importer.people for key in person.field.keys}
        self.player = importer.player.header
        self.line_fields = {f.header for f in importer.fields if not f.person}


def _plan_grid(grid: Grid, importer: Importer, vocabulary: _Vocabulary, plan: Plan) -> SheetPlan | None:
    """The grid's header row and columns; None (and a note) for a grid with no header the import knows."""
    candidates = sorted(grid.rows)[:HEADER_SEARCH]
    if grid.header_row in grid.rows:
        candidates = [grid.header_row] + [r for r in candidates if r != grid.header_row]
    best: SheetPlan | None = None
    for row in candidates:
        found = _header(grid, row, vocabulary)
        if found is not None and (best is None or len(_targets(found)) > len(_targets(best))):
            best = found
            if row == grid.header_row:
                break
    if best is None:
        wanted = ", ".join(_wanted(importer))
        plan.skipped.append(f"{grid.place} : aucune ligne d'en-tête reconnue (colonnes attendues : {wanted}) : "
                            "feuille ignorée")
    return best


def _targets(sheet: SheetPlan) -> set[str]:
    return {c.target for c in sheet.columns}


def _wanted(importer: Importer) -> list[str]:
    return [f"{importer.player.header} (ou Nom et Prénom)"] + [f.header for f in importer.fields
                                                               if f.required and not f.person]


def _header(grid: Grid, row: int, vocabulary: _Vocabulary) -> SheetPlan | None:
    """The row as a header: its recognised columns (a heading met twice: the first), the others ignored; None
    unless it names the player and one more column."""
    columns: list[Column] = []
    ignored: list[tuple[int, str]] = []
    taken: set[str] = set()
    for index, value in enumerate(grid.rows[row]):
        if value is None:
            continue
        target = vocabulary.columns.get(heading_key(value)) if isinstance(value, str) else None
        if target is None or target in taken:
            ignored.append((index, str(value)))
            continue
        taken.add(target)
        columns.append(Column(index, str(value), target))
    columns, ignored = _name_columns(columns, ignored, vocabulary.player)
    targets = {c.target for c in columns}
    if vocabulary.player not in targets and SURNAME_PART not in targets:
        return None
    if not targets & vocabulary.line_fields:
        return None  # a list of players (name, club), not of results
    return SheetPlan(grid, row, columns, sorted(ignored))


def _name_columns(columns: list[Column], ignored: list[tuple[int, str]],
                  player: str) -> tuple[list[Column], list[tuple[int, str]]]:
    """The player's name: its own column; else a surname with a first name (two columns), or alone (the full
    name). Name parts not used are ignored."""
    targets = {c.target for c in columns}
    drop: set[str] = set()
    if player in targets:
        drop = {SURNAME_PART, FIRST_NAME_PART}
    elif FIRST_NAME_PART in targets and SURNAME_PART not in targets:
        drop = {FIRST_NAME_PART}
    elif FIRST_NAME_PART not in targets and SURNAME_PART in targets:
        columns = [Column(c.index, c.heading, player) if c.target == SURNAME_PART else c for c in columns]
    kept = [c for c in columns if c.target not in drop]
    return kept, ignored + [(c.index, c.heading) for c in columns if c.target in drop]


# --- facts and lines ------------------------------------------------------------------------------------------


def _fact(grid: Grid, row: int, vocabulary: _Vocabulary, skip: Iterable[int] = ()) -> tuple[str, object, int] | None:
    """A row read as « label : value » from its first filled cell: (the label's key, the value, the value's
    index); None if that cell is no known label. ``skip``: the columns a label may not stand in."""
    values = grid.rows[row]
    first = next((i for i, v in enumerate(values) if v is not None), None)
    if first is None:
        return None
    key, inline = label_key(values[first])
    if key not in vocabulary.facts and key not in vocabulary.people:
        return None
    if inline is not None:
        return key, inline, first
    if first in skip:
        return None  # a bare word in a name column is a name
    after = next((i for i in range(first + 1, len(values)) if values[i] is not None), None)
    return None if after is None else (key, values[after], after)


def _fill_lines(sheet: SheetPlan, importer: Importer, vocabulary: _Vocabulary, plan: Plan, people: People,
                tournament: str | None) -> bool:
    """Read the grid's facts and lines into ``sheet``; True if ``tournament`` named its lines."""
    referees: list[tuple[Person, object, int, int]] = []
    rows = _rows(sheet, vocabulary, referees)
    missing = _missing(sheet, importer)
    if missing:
        for problem in missing:
            plan.add(problem)
        return False
    default, named_by_option = None, False
    if importer.named is not None and not _given(sheet, importer.named):
        default = tournament if tournament is not None else sheet.grid.name
        named_by_option = tournament is not None
    for row, cells in rows:
        line = _line(sheet, row, cells, importer, default, plan)
        if line is not None:
            sheet.lines.append(line)
    _add_people(sheet, importer, referees, default, plan)
    _names(sheet, importer, plan, people)
    return named_by_option


def _rows(sheet: SheetPlan, vocabulary: _Vocabulary,
          referees: list[tuple[Person, object, int, int]]) -> list[tuple[int, list[object]]]:
    """The grid's rows under its header, each as the values of its recognised columns; the facts above the
    header, and those written below in the table's place (« Arbitre : … »), noted instead."""
    grid = sheet.grid
    for row in (r for r in sorted(grid.rows) if r < sheet.header):
        _note_fact(sheet, row, vocabulary, referees, ())
    name_columns = {c.index for c in sheet.columns if c.target in (vocabulary.player, SURNAME_PART, FIRST_NAME_PART)}
    header_keys = [heading_key(c.heading) for c in sheet.columns]
    rows = []
    for row in (r for r in sorted(grid.rows) if r > sheet.header):
        values = grid.rows[row]
        cells = [values[c.index] if c.index < len(values) else None for c in sheet.columns]
        if all(v is None for v in cells) or (isinstance(cells[0], str) and heading_key(cells[0]) == header_keys[0]
                                             and [heading_key(v) for v in cells] == header_keys):
            continue  # blank, or the header repeated (a page break)
        if not _note_fact(sheet, row, vocabulary, referees, name_columns):
            rows.append((row, cells))
    return rows


def _note_fact(sheet: SheetPlan, row: int, vocabulary: _Vocabulary, people: list[tuple[Person, object, int, int]],
               skip: Iterable[int]) -> bool:
    """Record a fact row (the first of each field counts); a person named (a referee) goes to ``people``."""
    found = _fact(sheet.grid, row, vocabulary, skip)
    if found is None:
        return False
    key, value, index = found
    if key in vocabulary.people:
        people.append((vocabulary.people[key], value, row, index))
    else:
        header = vocabulary.facts[key].header
        sheet.facts.setdefault(header, (value, sheet.grid.cell(row, index)))
    return True


def _given(sheet: SheetPlan, header: str) -> bool:
    return header in sheet.facts or any(c.target == header for c in sheet.columns)


def _missing(sheet: SheetPlan, importer: Importer) -> list[Problem]:
    """A problem for each required field the grid gives neither as a column nor above its table."""
    problems = []
    headings = ", ".join(f"« {c.heading} »" for c in sheet.columns)
    for f in importer.fields:
        if not f.required or f.person or _given(sheet, f.header) or (f.header == importer.named):
            continue
        where = " ou au-dessus du tableau (« " + f.header + " : … »)" if f.fact else ""
        problems.append(sheet.grid.problem(sheet.header, None, f.header,
                                           f"colonne « {f.header} » introuvable (en-tête ligne {sheet.header} : "
                                           f"{headings}) : ajoutez-la{where}"))
    return problems


def _parse(f: Field, raw: object) -> object:
    """A value as the season takes it (its field's parser; text trimmed)."""
    if raw is None:
        return None
    if f.parse is not None:
        return f.parse(raw)
    return as_text(raw) if not isinstance(raw, (int, float, dt.date)) or isinstance(raw, bool) else raw


def _line(sheet: SheetPlan, row: int, cells: Sequence[object], importer: Importer, default: str | None,
          plan: Plan) -> Line | None:
    """One row as a line; None, and problems at its cells, if a value cannot be taken."""
    grid = sheet.grid
    values: dict[str, object] = {}
    found = len(plan.problems)
    fields = {f.header: f for f in importer.fields}
    parts: dict[str, object] = {}
    where: dict[str, tuple[int | None, str]] = {}
    for column, raw in zip(sheet.columns, cells):
        if column.target in (SURNAME_PART, FIRST_NAME_PART):
            parts[column.target] = raw
            where[importer.player.header] = (column.index, column.heading)
            continue
        f = fields.get(column.target)
        if f is None:
            continue  # a tournament's or a player's field: read by _about_and_players
        where[column.target] = (column.index, column.heading)
        try:
            values[column.target] = _parse(f, raw)
        except InvalidInput as exc:
            plan.add(grid.problem(row, column.index, column.heading, str(exc)))
    if parts:
        values[importer.player.header] = as_text(" ".join(str(parts[p]) for p in (FIRST_NAME_PART, SURNAME_PART)
                                                          if parts.get(p) is not None))
    _facts_and_default(sheet, values, importer, default, plan)
    for f in importer.fields:
        if f.required and values.get(f.header) is None and f.header in where:
            index, heading = where[f.header]
            plan.add(grid.problem(row, index, heading, f"{f.header.lower()} manquant : la ligne a "
                                              "d'autres valeurs ; il en faut une ici (ou videz la ligne)"))
    if importer.check is not None and len(plan.problems) == found:
        for header, message in importer.check(values):
            index_of, heading = where.get(header, (None, header))
            plan.add(grid.problem(row, index_of, heading, message))
    if len(plan.problems) > found:
        return None
    return Line(grid, row, values)


def _facts_and_default(sheet: SheetPlan, values: dict[str, object], importer: Importer, default: str | None,
                       plan: Plan) -> None:
    """The fields a line does not have as a column: from the facts above its table, the named default."""
    for f in importer.fields:
        if f.header in values:
            continue
        if f.header in sheet.facts:
            raw, cell = sheet.facts[f.header]
            try:
                values[f.header] = _parse(f, raw)
            except InvalidInput as exc:
                plan.add(Problem(sheet.grid.place, None, f.header, str(exc), cell))
        elif f.header == importer.named:
            try:
                values[f.header] = _parse(f, default)
            except InvalidInput as exc:
                plan.add(sheet.grid.problem(None, None, f.header, f"{exc} (nom pris de la feuille ou du fichier : "
                                                                  "donnez-en un autre avec --tournoi)"))


def _add_people(sheet: SheetPlan, importer: Importer, named: list[tuple[Person, object, int, int]],
                default: str | None, plan: Plan) -> None:
    """A person named once for the tournament (a referee): his line gets the person's values, or he gets a line."""
    grid = sheet.grid
    for person, raw, row, index in named:
        name = as_text(raw)
        if name is None:
            continue
        keys = {tuple(line.values.get(k) for k in importer.key) for line in sheet.lines}
        if len(keys) > 1:
            plan.add(grid.problem(row, index, person.field.header,
                                              f"« {person.field.header} » donné pour une feuille de plusieurs "
                                              f"{importer.what}s : mettez-le en colonne, sur la ligne de chacun"))
            continue
        mine = [line for line in sheet.lines if person_key(str(line.values.get(importer.player.header))) == person_key(name)]
        if mine:
            for line in mine:
                line.values.update(person.values)
            continue
        values: dict[str, object] = {importer.player.header: name, **person.values}
        _facts_and_default(sheet, values, importer, default, plan)
        if sheet.lines:
            values.update({k: sheet.lines[0].values.get(k) for k in importer.key})
        sheet.lines.append(Line(grid, row, values))
        sheet.facts.setdefault(person.field.header, (name, grid.cell(row, index)))


def _names(sheet: SheetPlan, importer: Importer, plan: Plan, people: People) -> None:
    """Each person's name as the season spells it (the first spelling read, for a player new to it)."""
    persons = [f.header for f in importer.fields if f.person]
    columns = {c.target: c.index for c in sheet.columns}
    for line in sheet.lines:
        for header in persons:
            typed = line.values.get(header)
            if not isinstance(typed, str):
                continue
            index = columns.get(header, columns.get(SURNAME_PART) if header == importer.player.header else None)
            where = f"{sheet.grid.place}!{sheet.grid.cell(line.row, index)}" if line.row and index is not None \
                else sheet.grid.place
            name = people.resolve(typed, where)
            line.values[header] = name
            if header == importer.player.header and name != typed:
                line.typed = typed


def close_names(plan: Plan, people: People) -> None:
    """A warning for each new name that is probably a player the season has under another spelling."""
    for new, where, old, cell, why in people.close_pairs():
        plan.warn(f"« {new} » ({where}) et « {old} » ({cell}), déjà dans la saison, sont-ils la même personne "
                  f"({why}) ? Importé comme une autre personne ; si c'est la même, corrigez l'orthographe dans la "
                  "source, puis relancez l'import.")


def _spell(sheet: SheetPlan, importer: Importer, spellings: Mapping[str, str]) -> None:
    """A tournament's name as the season spells it."""
    named = importer.named
    if named is None:
        return
    for line in sheet.lines:
        name = line.values.get(named)
        if isinstance(name, str):
            line.values[named] = spellings.get(name.casefold(), name)


def _about_and_players(sheet: SheetPlan, line: Line, importer: Importer, plan: Plan) -> None:
    """What a line says of its tournament (date, rounds) and of its player (club), kept for their tables: the
    first value given counts; another one is a warning."""
    grid = sheet.grid
    tournament = plan.tournaments.setdefault(line.key, Tournament(line.key))
    columns = {c.target: c for c in sheet.columns}
    for f in importer.about:
        value, where = _value_of(sheet, line, f, columns, plan)
        if value is not None:
            _keep(tournament.about, f.header, value, where, f"« {importer.describe(line.key)} »", plan)
    player = line.values.get(importer.player.header)
    if not isinstance(player, str):
        return
    for f in importer.player_fields:
        column = columns.get(f.header)
        if column is None or line.row is None:
            continue
        raw = grid.rows[line.row][column.index] if column.index < len(grid.rows[line.row]) else None
        if raw is None:
            continue
        _keep(plan.players.setdefault(player, {}), f.header, as_text(raw),
              f"{grid.place}!{grid.cell(line.row, column.index)}", player, plan)


def _value_of(sheet: SheetPlan, line: Line, f: Field, columns: dict[str, Column],
              plan: Plan) -> tuple[object, str]:
    """A tournament's field as a line's column or its sheet's fact says it: (value, where); a value the field
    cannot take is a problem."""
    grid = sheet.grid
    column = columns.get(f.header)
    if column is not None and line.row is not None:
        raw = grid.rows[line.row][column.index] if column.index < len(grid.rows[line.row]) else None
        where, cell, heading = f"{grid.place}!{grid.cell(line.row, column.index)}", grid.cell(line.row, column.index), \
            column.heading
    elif f.header in sheet.facts:
        raw, cell = sheet.facts[f.header]
        where, heading = f"{grid.place}!{cell}", f.header
    else:
        return None, ""
    try:
        return _parse(f, raw), where
    except InvalidInput as exc:
        plan.add(Problem(grid.place, line.row if column is not None else None, heading, str(exc), cell))
        return None, ""


def _keep(found: dict[str, tuple[object, str]], header: str, value: object, where: str, whose: str,
          plan: Plan) -> None:
    if header not in found:
        found[header] = (value, where)
        return
    kept, at = found[header]
    if kept != value:
        plan.warn(f"{whose} : {header} {_shown(kept)} ({at}) et {_shown(value)} ({where}) : la première valeur est "
                  "gardée.")


def _shown(value: object) -> str:
    if isinstance(value, dt.date):
        return f"{value:%d/%m/%Y}"
    return f"« {value} »" if isinstance(value, str) else str(value)


def _unreadable_files(read: Read, plan: Plan) -> None:
    """A file none of whose sheets has a header the import knows is a problem (a sheet among others is a note)."""
    by_file: dict[str, list[Grid]] = {}
    for grid in read.grids:
        by_file.setdefault(str(grid.file), []).append(grid)
    planned = {str(sheet.grid.file) for sheet in plan.sheets}
    for file, grids in by_file.items():
        if file in planned or not any(grid.rows for grid in grids):
            continue
        notes = [note for note in plan.skipped if any(note.startswith(grid.place + " ") for grid in grids)]
        plan.skipped = [note for note in plan.skipped if note not in notes]
        wanted = ", ".join(_wanted(plan.importer))
        plan.add(Problem(grids[0].file.name, None, None,
                                     f"aucune feuille n'a de ligne d'en-tête reconnue dans ses {HEADER_SEARCH} "
                                     f"premières lignes (colonnes attendues : {wanted}, en français ou en anglais)"))


def _count_tournaments(plan: Plan) -> None:
    for line in plan.lines:
        plan.tournaments.setdefault(line.key, Tournament(line.key)).lines += 1
