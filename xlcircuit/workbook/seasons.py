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
