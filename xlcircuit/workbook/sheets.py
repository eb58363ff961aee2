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






