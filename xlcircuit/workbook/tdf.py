"""The Tour de France season workbook: reads ``Tournois`` and ``Resultats``, writes ``Points``
and ``Classement``. An adapter: every rule is in :mod:`xlcircuit.tdf`."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass, field

import openpyxl
from openpyxl.styles import Font
from openpyxl.workbook.workbook import Workbook

from .. import example_tdf, tdf
from ..errors import InvalidInput, WorkbookProblems
from ..text import fold
from .io import Book, mark_federation
from .tables import (
    Column, Problems, Record, TableSpec, add_input_table, as_date, as_number, as_positive_int, as_text,
    as_yes_no, put, read_table, write_table,
)

FEDERATION = "tdf"
TITLE = "Tour de France de Diplomatie"
DATE_FORMAT = "dd/mm/yyyy"
POINTS_FORMAT = "0"  # tournament points are published to the unit
TOTAL_FORMAT = "0.0"  # weighted totals to one decimal (the display rounds half up)
WEIGHT_FORMAT = "0%"

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
    Column("Points comptés", width=15, number_format=TOTAL_FORMAT),
    Column("Remarque", width=60),
))
CLASSEMENT = TableSpec("Classement", "Classement", (
    Column("Rang", width=7),
    Column("Joueur", width=26),
    Column("Tournois classés", width=17),
    Column("Total", width=10, number_format=TOTAL_FORMAT),
))

GUIDE = [
    TITLE,
    "",
    "1. Feuille « Tournois » : une ligne par tournoi (nom unique, date, type : normal, majeur, en ligne, "
    "majeur en ligne ; « oui » dans Interrompu si le classement a été rendu sans vainqueur officiel).",
    "2. Feuille « Résultats » : une ligne par personne et par tournoi. Place officielle pour un joueur classé "
    "(ex aequo : la même place ; place vide au classement : sautez-la). Sans place, indiquez le rôle : "
    "organisateur (non joueur), aide, annulé (présent à un tournoi annulé) : 100 points.",
    "   Points imposés (facultatif) : un nombre, ou « place N » pour les points de la place N "
    "(décisions particulières du règlement).",
    "3. Lancez : xlcircuit fill CE_FICHIER.xlsx — les feuilles « Points » et « Classement » sont réécrites.",
    "",
    "Les tables Points et Classement sont réécrites à chaque remplissage : ajoutez vos propres calculs à côté "
    "ou sur une autre feuille. Vos autres feuilles, colonnes, formules et mises en forme sont conservées.",
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


# --- the template ----------------------------------------------------------------------------


def new_workbook() -> Workbook:
    """A fresh, empty season workbook."""
    wb = openpyxl.Workbook()
    guide = wb.active
    guide.title = "Guide"
    for row, text in enumerate(GUIDE, start=1):
        put(guide.cell(row, 1), text)
    guide["A1"].font = Font(bold=True, size=14)
    guide.column_dimensions["A"].width = 120
    for spec in (TOURNOIS, RESULTATS):
        wb.create_sheet(spec.sheet)
        add_input_table(wb, spec)
    problems = Problems()
    for spec in (POINTS, CLASSEMENT):
        write_table(wb, spec, spec.columns, [], problems)
    mark_federation(wb, FEDERATION)
    return wb


def put_example(wb: Workbook) -> None:
    """Type the bundled example season into the input tables."""
    problems = Problems()
    write_table(wb, TOURNOIS, TOURNOIS.columns, example_tdf.TOURNOIS, problems)
    write_table(wb, RESULTATS, RESULTATS.columns, example_tdf.RESULTATS, problems)
    if problems:
        raise WorkbookProblems(problems.items)


# --- reading ---------------------------------------------------------------------------------


def _parse(problems: Problems, record: Record, header: str, parser, *args):
    try:
        return parser(record.values.get(header), *args)
    except InvalidInput as exc:
        problems.at(record, header, str(exc))
        return None


def _imposed(value: object) -> tuple[float | None, int | None]:
    """``Points imposés``: a number of points, or ``place N`` for the points of place N."""
    if isinstance(value, str) and fold(value).startswith("place"):
        return None, as_positive_int(value.strip()[5:].strip(), "place")
    points = as_number(value, "nombre de points (ou « place N »)")
    if points is not None and points < 0:
        raise InvalidInput(f"nombre de points positif attendu ; trouvé {value}")
    return points, None


def _read_tournaments(book: Book, problems: Problems) -> list[TournamentRow]:
    rows: list[TournamentRow] = []
    seen: dict[str, Record] = {}
    reserved = {c.header.casefold() for c in CLASSEMENT.columns}
    for record in read_table(book, TOURNOIS, problems):
        name = as_text(record.values["Tournoi"])
        if name is None:
            problems.at(record, "Tournoi", "nom du tournoi manquant")
            continue
        # Each tournament is a column of the Classement table, whose headers Excel compares without case.
        key = name.casefold()
        if key in seen:
            problems.at(record, "Tournoi", f"tournoi « {name} » déjà déclaré ligne {seen[key].row} : "
                                           "chaque tournoi a un nom unique (majuscules comprises)")
            continue
        if key in reserved:
            problems.at(record, "Tournoi", f"« {name} » est le nom d'une colonne du classement : "
                                           "choisissez un autre nom de tournoi")
            continue
        seen[key] = record
        date = _parse(problems, record, "Date", as_date)
        kind = _parse(problems, record, "Type", tdf.Kind.parse)
        interrupted = _parse(problems, record, "Interrompu", as_yes_no)
        rows.append(TournamentRow(record, name, date, kind or tdf.Kind.NORMAL, bool(interrupted)))
    return rows


def _read_results(book: Book, problems: Problems, tournaments: set[str]) -> list[Entry]:
    entries = []
    for record in read_table(book, RESULTATS, problems):
        ok = True
        tournament = as_text(record.values["Tournoi"])
        if tournament is None:
            problems.at(record, "Tournoi", "nom du tournoi manquant")
            ok = False
        elif tournament not in tournaments:
            problems.at(record, "Tournoi", f"tournoi « {tournament} » absent de la table Tournois")
            ok = False
        player = as_text(record.values["Joueur"])
        if player is None:
            problems.at(record, "Joueur", "nom du joueur manquant")
            ok = False
        try:
            place = as_positive_int(record.values["Place"])
        except InvalidInput as exc:
            problems.at(record, "Place", str(exc))
            place, ok = None, False
        try:
            role = tdf.Role.parse(as_text(record.values["Rôle"]))
        except InvalidInput as exc:
            problems.at(record, "Rôle", str(exc))
            role, ok = None, False
        try:
            imposed_points, imposed_place = _imposed(record.values.get("Points imposés"))
        except InvalidInput as exc:
            problems.at(record, "Points imposés", str(exc))
            imposed_points = imposed_place = None
            ok = False
        if ok and place is None and role is None:
            problems.at(record, "Place", "place manquante : un joueur classé a une place ; sinon indiquez son "
                                         "rôle (organisateur, aide, annulé)")
            ok = False
        if ok and place is not None and role is tdf.Role.CANCELLED:
            problems.at(record, "Rôle", "un tournoi annulé n'a pas de classement : retirez la place "
                                        "ou le rôle « annulé »")
            ok = False
        if ok:
            line = tdf.Line(player, place, role, imposed_points, imposed_place)
            entries.append(Entry(record, tournament, line))
    return entries


def _check_tournaments(entries: list[Entry], problems: Problems) -> None:
    """What a single line cannot show: a cancelled tournament with a classification, a place N past the last."""
    by_tournament: dict[str, list[Entry]] = defaultdict(list)
    for entry in entries:
        by_tournament[entry.tournament].append(entry)
    for name, group in by_tournament.items():
        classified = {e.line.player for e in group if e.line.place is not None}
        for entry in group:
            if entry.line.role is tdf.Role.CANCELLED and classified:
                problems.at(entry.record, "Rôle", f"« {name} » est marqué annulé mais a des joueurs classés")
            if entry.line.imposed_place is not None and entry.line.imposed_place > max(len(classified), 1):
                problems.at(entry.record, "Points imposés",
                            f"place {entry.line.imposed_place} demandée, mais « {name} » n'a que "
                            f"{len(classified)} classés")


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
    spellings: dict[str, set[str]] = defaultdict(set)
    for entry in entries:
        spellings[fold(entry.line.player)].add(entry.line.player)
    for names in spellings.values():
        if len(names) > 1:
            shown = " et ".join(f"« {n} »" for n in sorted(names))
            warnings.append(f"{shown} sont-ils la même personne ? Les noms sont comparés tels quels "
                            "(majuscules et accents compris) : corrigez l'orthographe si c'est le cas.")
    return warnings


def _order(t: TournamentRow) -> tuple:
    return (t.date is None, t.date or dt.date.min, fold(t.name), t.name)


def compute(book: Book) -> Summary:
    """Read and check the input tables, then compute the season; every problem is reported at once."""
    problems = Problems()
    tournaments = sorted(_read_tournaments(book, problems), key=_order)
    entries = _read_results(book, problems, {t.name for t in tournaments})
    _check_tournaments(entries, problems)
    if problems:
        raise WorkbookProblems(problems.items)
    lines: dict[str, list[tdf.Line]] = defaultdict(list)
    for entry in entries:
        lines[entry.tournament].append(entry.line)
    season = [tdf.Tournament(t.name, t.kind, t.interrupted, tuple(lines[t.name])) for t in tournaments]
    report = tdf.run_season(season)
    return Summary(tournaments, entries, report, _warnings(tournaments, entries, report))


# --- writing ---------------------------------------------------------------------------------


_STATUS_ORDER = {tdf.Status.CLASSIFIED: 0, tdf.Status.ROLE: 1, tdf.Status.DUPLICATE: 2}


def _status(s: tdf.Scored) -> str:
    if s.status is tdf.Status.ROLE:
        return s.line.role.value
    return s.status.value


def _remark(s: tdf.Scored, weight: float | None, set_aside: bool) -> str | None:
    notes = []
    if s.status is tdf.Status.DUPLICATE:
        notes.append("deuxième ligne de ce joueur : seule sa meilleure ligne compte")
    if s.status is tdf.Status.CLASSIFIED and s.line.role is not None:
        notes.append(f"{s.line.role.value} et joueur : les points de sa place seulement")
    if s.imposed:
        if s.line.imposed_place is not None:
            notes.append(f"points imposés : ceux de la place {s.line.imposed_place}")
        else:
            notes.append("points imposés")
    if set_aside:
        notes.append("compté comme non joué (règle de non-perte : la décote en ligne coûterait des points)")
    return " ; ".join(notes) or None


def points_rows(summary: Summary) -> list[list[object]]:
    """The ``Points`` table: every result line, tournaments in date order, best place first."""
    report = summary.report
    rows = []
    for t in summary.tournaments:
        scored = sorted(report.scored[t.name], key=lambda s: (
            _STATUS_ORDER[s.status], s.place or 0, fold(s.line.player), s.line.player, s.line.place or 0))
        for s in scored:
            counted = s.status is not tdf.Status.DUPLICATE
            weight, aside = report.weights[(s.line.player, t.name)] if counted else (None, False)
            rows.append([
                t.name, t.date, s.line.player, s.line.place, _status(s),
                s.place, s.tied, s.points if counted else None, weight,
                s.points * weight if counted else None, _remark(s, weight, aside),
            ])
    return rows


def standings_columns(summary: Summary) -> list[Column]:
    return list(CLASSEMENT.columns) + [Column(t.name, width=max(10, min(len(t.name) + 2, 24)),
                                              number_format=POINTS_FORMAT) for t in summary.tournaments]


def standings_rows(summary: Summary) -> list[list[object]]:
    """The ``Classement`` table: rank, person, classified tournaments, total, then points by tournament."""
    points: dict[str, dict[str, float]] = defaultdict(dict)
    for name, scored in summary.report.scored.items():
        for s in scored:
            if s.status is not tdf.Status.DUPLICATE:
                points[s.line.player][name] = s.points
    return [
        [st.rank, st.player, st.season.classified, st.season.total]
        + [points[st.player].get(t.name) for t in summary.tournaments]
        for st in summary.report.standings
    ]


def fill(book: Book) -> Summary:
    """Compute the season and rewrite the ``Points`` and ``Classement`` tables (in memory)."""
    summary = compute(book)
    problems = Problems()
    write_table(book.wb, POINTS, POINTS.columns, points_rows(summary), problems)
    write_table(book.wb, CLASSEMENT, standings_columns(summary), standings_rows(summary), problems)
    if problems:
        raise WorkbookProblems(problems.items)
    mark_federation(book.wb, FEDERATION)
    return summary
