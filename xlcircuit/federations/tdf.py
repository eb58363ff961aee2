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
