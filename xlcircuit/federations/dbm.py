"""The DBM championship season workbook: reads ``Joueurs``, ``Tournois`` and ``Resultats`` and the
season's thresholds, writes ``Valeurs``, ``Points``, ``Tableau 1``, ``Tableau 2``, ``Équipes`` and
``Classes``. An adapter: every rule is in :mod:`xlcircuit.dbm`."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass, field

from openpyxl.workbook.workbook import Workbook

from ..rules import dbm, limits, seasons
from ..rules.errors import InvalidInput, Problem
from ..rules.mechanics import rounded_parts
from ..rules.text import fold, in_words
from ..workbook.adapter import Adapter
from ..workbook.cells import as_date, as_number, as_positive_int, as_yes_no
from ..workbook.journal import Journal, Tracked
from ..workbook.procedure import Steps
from ..workbook.read import read_table
from ..workbook.register import Register, duplicate_warnings, players_table, read_register
from ..workbook.seasons import Carry, Honours, Parameter, add_season_sheets, register_rows
from ..workbook.sheets import (
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
from ..workbook.sources import SOURCE, Field, Form, Importer, Person, words
from ..workbook.sources import mapping as sources
from ..workbook.spec import Column, Output, Problems, Record, TableSpec
from ..workbook.wording import count, decimal_comma, find_player, nth, of, season_years, summed, title, top_lines, when
from ..workbook.write import type_rows
from ..xlsx import Book, Owned
from . import federation
from .examples import load

INFO = federation("dbm")  # code, French title, template and example file
FEDERATION, TITLE, TEMPLATE, EXAMPLE = INFO.code, INFO.name, INFO.template, INFO.example
DATE_FORMAT = "dd/mm/yyyy"
TWO = "0.00"  # MVB, CMM, VFT and results are published with two decimals (half up)
#: Rounds beyond this are a typing mistake (:mod:`xlcircuit.limits`); the source: usually four, exceptionally five.
MAX_ROUNDS = limits.DBM_MAX_ROUNDS
USUAL_ROUNDS = dbm.USUAL_ROUNDS
SHOWN = 10  # Tableau 1 lines printed after a fill
NEWCOMERS_SHOWN = 8

CLASS_CHOICES = tuple(c.letter for c in dbm.PlayerClass)
#: The usual rounds as the messages say them (the core's ``USUAL_ROUNDS``): "4, parfois 5".
USUAL_TEXT = f"{dbm.USUAL_ROUNDS[0]}, parfois {', '.join(map(str, dbm.USUAL_ROUNDS[1:]))}"
I_LIMIT = f"{dbm.I_LIMIT:g}"  # the I / F boundary as the texts write it

PARAMETRES = parameters_table("Saison", required=True, comment=True)
JOUEURS = players_table(Column("Club", width=30), Column("Classe", width=9, choices=CLASS_CHOICES))
TOURNOIS = TableSpec("Tournois", "Tournois", (
    Column("Tournoi", width=36),
    Column("Date", width=12, number_format=DATE_FORMAT),
    Column("Rondes", width=9),
    Column("Doubles", required=False, width=10, choices=("oui",)),
    Column("Étranger", required=False, width=10, choices=("oui",)),
))
RESULTATS = TableSpec("Résultats", "Resultats", (
    Column("Tournoi", width=36),
    Column("Joueur", width=26),
    Column("Équipier", required=False, width=26),
    Column("Place", width=8),
    Column("Arbitre", required=False, width=9, choices=("oui",)),
    Column(SOURCE, required=False, width=30),  # where an imported line came from (xlcircuit import)
))
VALEURS = TableSpec("Valeurs", "Valeurs", (
    Column("Tournoi", width=36),
    Column("Date", width=12, number_format=DATE_FORMAT),
    Column("Doubles", width=9),
    Column("Étranger", width=9),
    Column("NRJ", width=7),
    Column("NJT", width=7),
    Column("BJR", width=7),
    Column("SVB", width=7),
    Column("MVB", width=8, number_format=TWO),
    Column("CMM", width=8, number_format=TWO),
    Column("VFT", width=10, number_format=TWO),
    Column("Prime d'arbitrage", width=12, number_format=TWO),
))
POINTS = TableSpec("Points", "Points", (
    Column("Tournoi", width=36),
    Column("Date", width=12, number_format=DATE_FORMAT),
    Column("Joueur", width=26),
    Column("Équipier", width=22),
    Column("Place", width=8),
    Column("Place retenue", width=10),
    Column("Ex aequo", width=9),
    Column("Classe", width=8),
    Column("Moyenne avant", width=10, number_format=TWO),
    Column("VAJ", width=6),
    Column("Valeur", width=8),
    Column("Valeur équipe", width=9),
    Column("RFJ", width=10, number_format=TWO, data_bar=True),
    Column("Compté", width=8),
    Column("Remarque", width=60),
))
TABLEAU1 = TableSpec("Tableau 1", "Tableau1", (
    Column("Place", width=7),
    Column("Joueur", width=26),
    Column("*", width=4),
    Column("Club", width=28),
    Column("Tournois", width=9),
    Column("Résultat 1", width=10, number_format=TWO),
    Column("Résultat 2", width=10, number_format=TWO),
    Column("Résultat 3", width=10, number_format=TWO),
    Column("Résultat 4", width=10, number_format=TWO),
    Column("Total", width=10, number_format=TWO, data_bar=True),
))
TABLEAU2 = TableSpec("Tableau 2", "Tableau2", (
    Column("Place", width=7),
    Column("Joueur", width=26),
    Column("Club", width=28),
    Column("Classe", width=8),
    Column("Résultats", width=10),
    Column("Moyenne", width=10, number_format=TWO),
))
EQUIPES = TableSpec("Équipes", "Equipes", (
    Column("Place", width=7),
    Column("Club", width=28),
    Column("Équipe", width=8),
    Column("Joueur 1", width=24),
    Column("Joueur 2", width=24),
    Column("Joueur 3", width=24),
    Column("Total", width=10, number_format=TWO, data_bar=True),
))
CLASSES = TableSpec("Classes", "Classes", (
    Column("Joueur", width=26),
    Column("Club", width=28),
    Column("Statut", width=12),
    Column("Tournois", width=9),
    Column("Moyenne", width=10, number_format=TWO),
    Column("Place", width=7),
    Column("Classe début", width=9),
    Column("Classe fin", width=9),
    Column("Motif", width=80),
))

GUIDE = [
    "Mode d'emploi",
    "1. Paramètres ci-dessus : seuil_S et seuil_O, moyennes finales du dernier joueur actif (S) et du",
    "   dernier joueur actif (O) de la saison précédente (passages en cours de saison). Première saison",
    "   de la réforme : laissez-les vides (pas de passage (O) → (S) ni (F) → (O) ; ceux à 15 points restent).",
    "2. Feuille « Joueurs » : chaque joueur, son club et sa classe en début de saison (I, F, O, S, X ;",
    f"   0 pour O). Un joueur absent de la table est un nouveau joueur, classé {dbm.NEWCOMER.letter}. Identifiant et",
    "   Alias (autres orthographes, séparées par « ; ») : facultatifs, lus comme son nom.",
    "3. Feuille « Tournois » : une ligne par poule (nom unique), sa date, le nombre de rondes jouées",
    f"   ({USUAL_TEXT}), « oui » dans Doubles pour une poule jouée en équipes de deux, « oui » dans",
    "   Étranger pour un tournoi joué hors de France (compté, mais il ne fait pas entrer un joueur).",
    "4. Feuille « Résultats » : une ligne par joueur classé (une par équipe en double, l'équipier dans",
    "   la colonne Équipier) avec sa place finale ; ex aequo : la même place. Un arbitre qui ne joue",
    "   pas : une ligne sans place, « oui » dans Arbitre (prime d'arbitrage).",
    *fill_step(5),
    "",
    "Les feuilles Valeurs, Points, Tableau 1, Tableau 2, Équipes et Classes sont réécrites à chaque",
    "remplissage : n'y tapez rien. Vos autres feuilles, colonnes, formules et mises en forme sont conservées.",
]
PARAMETERS = ("Saison", "seuil_S", "seuil_O")

#: The tables the organiser fills in, the main standings and the per-result lines.
INPUTS = (JOUEURS, TOURNOIS, RESULTATS)
STANDINGS, LINES = TABLEAU1, POINTS
_OUTPUTS = (VALEURS, POINTS, TABLEAU1, TABLEAU2, EQUIPES, CLASSES)


@dataclass
class TournamentRow:
    record: Record
    name: str
    date: dt.date | None
    rounds: int | None
    doubles: bool
    foreign: bool = False


@dataclass
class Line:
    """A result line of the workbook: where it was typed and what it says."""

    record: Record
    tournament: str
    entry: dbm.Entry


@dataclass
class Summary:
    """What a check or a fill found: the season, and warnings for the organiser."""

    tournaments: list[TournamentRow]
    report: dbm.SeasonReport
    thresholds: dbm.Thresholds
    warnings: list[str] = field(default_factory=list)
    season: str = ""
    clubs: dict[str, str] = field(default_factory=dict)  # player -> club, from the Joueurs table
    playing_referees: set[tuple[str, str]] = field(default_factory=set)  # (poule, player): refereed and played


# --- the template ----------------------------------------------------------------------------


#: What the ``Commentaire`` cells of a fresh workbook say of each parameter.
COMMENTS = {
    "Saison": "le nom de la saison (vide : les années de ses dates)",
    "seuil_S": "moyenne finale du dernier joueur actif (S) de la saison précédente ; vide la première saison de "
               "la réforme (xlcircuit new dbm … --depuis la calcule)",
    "seuil_O": "moyenne finale du dernier joueur actif (O) de la saison précédente ; vide la première saison de "
               "la réforme (xlcircuit new dbm … --depuis la calcule)",
}


def new_workbook() -> Workbook:
    """A fresh, empty season workbook."""
    wb = start_workbook(TITLE, PARAMETRES, [(name, None, COMMENTS[name]) for name in PARAMETERS], INPUTS, GUIDE, 9)
    finish_workbook(wb, FEDERATION, [(spec, title(TITLE, _WHAT[spec.name])) for spec in _OUTPUTS])
    add_season_sheets(wb, TITLE)
    return wb


def put_example(wb: Workbook) -> None:
    """Type the bundled example season into the input tables."""
    type_rows(wb, PARAMETRES, [("Saison", load("dbm").SAISON, COMMENTS["Saison"]),
                               ("seuil_S", load("dbm").SEUIL_S, COMMENTS["seuil_S"]),
                               ("seuil_O", load("dbm").SEUIL_O, COMMENTS["seuil_O"])])
    type_rows(wb, JOUEURS, load("dbm").JOUEURS)
    type_rows(wb, TOURNOIS, load("dbm").TOURNOIS)
    type_rows(wb, RESULTATS, load("dbm").RESULTATS)


# --- reading ---------------------------------------------------------------------------------


def _read_parameters(book: Book, problems: Problems) -> tuple[str | None, dbm.Thresholds | None, dict[str, str]]:
    """The season's name, the thresholds (None when one is wrong or absent), and where each threshold is typed."""
    parameters = read_parameters(book, PARAMETRES, problems)
    records = parameters.records
    found = {}
    cells = {name: at_cell(records[fold(name)], "Valeur") for name in ("seuil_S", "seuil_O") if fold(name) in records}
    for name in ("seuil_S", "seuil_O"):
        record = records.get(fold(name))
        if record is None:
            problems.add(Problem(PARAMETRES.sheet, None, "Paramètre", f"ligne « {name} » absente de la table "
                                 f"« {PARAMETRES.name} » : ajoutez-la avec sa valeur (vide la première saison "
                                 "de la réforme)"))
            continue
        mark = problems.mark()
        value = parse_cell(problems, record, "Valeur", as_number, f"nombre ({name})")
        if value is not None and value < 0:
            problems.at(record, "Valeur", f"{name} attendu : un nombre positif ; trouvé {value}")
        elif not problems.since(mark):
            found[name] = value  # blank: the reform's first season (dbm.Thresholds)
    season = parameters.text("Saison")
    if len(found) == 2:
        return season, dbm.Thresholds(found["seuil_S"], found["seuil_O"]), cells
    return season, None, cells


def _threshold_warnings(thresholds: dbm.Thresholds, cells: dict[str, str] | None = None) -> list[str]:
    """A blank threshold is the reform's first season: said at its cell, with what it means."""
    blank = [(name, low, high) for name, value, low, high in (("seuil_S", thresholds.seuil_s, "O", "S"),
                                                              ("seuil_O", thresholds.seuil_o, "F", "O"))
             if value is None]
    where = cells or {}
    return [(f"{where[name]} : " if name in where else "")
            + f"{name} vide : première saison de la réforme (pas de dernier joueur actif ({high}) de la saison "
            f"précédente) ; aucun joueur ({low}) ne joue en ({high}) en cours de saison." for name, low, high in blank]


def _read_players(book: Book, problems: Problems) -> tuple[Register, dict[str, dbm.PlayerClass], dict[str, Record]]:
    """The register, each player's class, and his line of the Joueurs table."""
    register = read_register(book, JOUEURS, problems)
    classes: dict[str, dbm.PlayerClass] = {}
    records: dict[str, Record] = {}
    for entry in register:
        record = records[entry.name] = entry.record
        cls = parse_cell(problems, record, "Classe", lambda v: None if v is None else dbm.PlayerClass.parse(v))
        if cls is not None:
            classes[entry.name] = cls
    return register, classes, records


def _read_tournaments(book: Book, problems: Problems) -> list[TournamentRow]:
    rows: list[TournamentRow] = []
    seen: dict[str, Record] = {}
    for record in read_table(book, TOURNOIS, problems):
        name = tournament_name(record, problems, seen, "poule")
        if name is None:
            continue
        seen[name.casefold()] = record
        date = parse_cell(problems, record, "Date", as_date)
        if date is None and record.values.get("Date") is None:
            problems.at(record, "Date", "date manquante : les poules sont prises dans l'ordre des dates "
                                        "(valeur actualisée des joueurs)")
        rounds = parse_cell(problems, record, "Rondes", as_positive_int, "nombre de rondes")
        if rounds is None and record.values.get("Rondes") is None:
            problems.at(record, "Rondes", f"nombre de rondes jouées manquant ({USUAL_TEXT})")
        elif rounds is not None and rounds > MAX_ROUNDS:
            problems.at(record, "Rondes", f"nombre de rondes attendu : de 1 à {MAX_ROUNDS} ; trouvé {rounds}")
            rounds = None
        doubles = parse_cell(problems, record, "Doubles", as_yes_no)
        foreign = parse_cell(problems, record, "Étranger", as_yes_no)
        rows.append(TournamentRow(record, name, date, rounds, bool(doubles), bool(foreign)))
    return rows


#: The column of each field the core's checks locate a violation on (:class:`xlcircuit.errors.Violation`).
COLUMNS = {"player": "Joueur", "partner": "Équipier", "place": "Place", "referee": "Arbitre"}


def _read_results(book: Book, problems: Problems, tournaments: dict[str, TournamentRow],
                  register: Register) -> list[Line]:
    lines: list[Line] = []
    records: list[Record] = []
    checks = dbm.EntryChecks(lambda i: f"ligne {records[i].row}")
    for record in read_table(book, RESULTATS, problems):
        found = problems.mark()
        tournament, player = tournament_and_player(record, problems, tournaments, register.resolve)
        partner = register.resolve(problems, record, "Équipier")
        place = parse_cell(problems, record, "Place", as_positive_int)
        referee = parse_cell(problems, record, "Arbitre", as_yes_no)
        if problems.since(found) or tournament is None or player is None:
            continue
        entry = dbm.Entry(player, partner, place, bool(referee))
        records.append(record)
        violations = checks.check(len(records) - 1, tournament, tournaments[tournament].doubles, entry)
        for v in violations:
            problems.at(record, COLUMNS[v.field], v.message)
        if not violations:
            lines.append(Line(record, tournament, entry))
    return lines


def _check_tournaments(rows: list[TournamentRow], lines: list[Line], problems: Problems) -> None:
    """What one line cannot show (the core's check): a referee's bonus needs a tournament with players."""
    for v in dbm.referee_violations([(line.tournament, line.entry) for line in lines]):
        problems.at(lines[v.index].record, COLUMNS[v.field], v.message)


def _gaps(places: list[int]) -> list[int]:
    """Places missing from a classification that ties do not explain (1, 2, 4: the 3rd)."""
    ordered = sorted(places)
    taken = set(ordered)
    return [p for p in range(1, (ordered[-1] if ordered else 0) + 1)
            if p not in taken and not any(q < p < q + ordered.count(q) for q in taken)]


def _warnings(rows: list[TournamentRow], lines: list[Line], classes: dict[str, dbm.PlayerClass],
              listed: dict[str, Record] | None = None) -> list[str]:
    """What to look at: poules without results, unusual rounds, gaps, doubles without a partner, players
    without a class (each at its cell), probable misspellings (``listed``: the Joueurs table's lines)."""
    listed = listed or {}
    warnings = []
    by_tournament: dict[str, list[Line]] = defaultdict(list)
    for line in lines:
        by_tournament[line.tournament].append(line)
    for row in rows:
        group = by_tournament[row.name]
        if not group:
            warnings.append(f"La poule « {row.name} » n'a encore aucun résultat.")
            continue
        if row.rounds is not None and row.rounds not in USUAL_ROUNDS:
            warnings.append(f"« {row.name} » est joué en {row.rounds} rondes (d'habitude {USUAL_TEXT}) : "
                            "vérifiez la colonne Rondes.")
        missing = _gaps([line.entry.place for line in group if line.entry.place is not None])
        if missing:
            shown = ", ".join(map(str, missing))
            warnings.append(f"« {row.name} » : place{'s' if len(missing) > 1 else ''} {shown} absente"
                            f"{'s' if len(missing) > 1 else ''} du classement : les joueurs suivants sont "
                            "classés à leur rang réel (1 + les joueurs devant eux).")
        alone = [line for line in group if row.doubles and line.entry.place is not None
                 and line.entry.partner is None]
        if alone:
            named = ", ".join(f"{line.entry.player} ({at_cell(line.record, 'Équipier')})" for line in alone)
            warnings.append(f"« {row.name} » est en double mais {named} n'a pas d'équipier : "
                            "compté comme une équipe d'un joueur.")
    return warnings + _newcomers(lines, classes, listed) + _spellings(lines, listed)


def _newcomers(lines: list[Line], classes: dict[str, dbm.PlayerClass], listed: dict[str, Record]) -> list[str]:
    """The players without a class, classed as newcomers: each with his blank Classe cell, or none when he is
    not in the Joueurs table at all."""
    people = sorted({p for line in lines for p in (line.entry.player, line.entry.partner) if p})
    newcomers = [p for p in people if p not in classes]
    if not newcomers:
        return []
    shown = ", ".join(f"{p} ({at_cell(listed[p], 'Classe')})" if p in listed else p
                      for p in newcomers[:NEWCOMERS_SHOWN]) + (" …" if len(newcomers) > NEWCOMERS_SHOWN else "")
    return [f"{len(newcomers)} joueur{'s' if len(newcomers) > 1 else ''} sans classe dans la table "
            f"Joueurs, classé{'s' if len(newcomers) > 1 else ''} {dbm.NEWCOMER.letter} (nouveaux joueurs) : {shown}."]


def _spellings(lines: list[Line], listed: dict[str, Record]) -> list[str]:
    """Names probably of one person (:func:`duplicate_warnings`), from the Joueurs table and the results."""
    typed = [(p, at_cell(listed[p], "Joueur")) for p in listed]
    for line in lines:
        typed.append((line.entry.player, at_cell(line.record, "Joueur")))
        if line.entry.partner:
            typed.append((line.entry.partner, at_cell(line.record, "Équipier")))
    return duplicate_warnings(typed)


def season_label(given: str | None, rows: list[TournamentRow]) -> str:
    """The season's name: the ``Saison`` parameter, or the years of its poules (``2025-2026``)."""
    return given or season_years(t.date for t in rows)


@dataclass
class Typed:
    """The input tables as read."""

    season: str | None
    thresholds: dbm.Thresholds | None
    classes: dict[str, dbm.PlayerClass]
    register: Register
    tournaments: list[TournamentRow]
    lines: list[Line]
    listed: dict[str, Record] = field(default_factory=dict)  # each player's line of the Joueurs table
    cells: dict[str, str] = field(default_factory=dict)  # where each threshold is typed


def read(book: Book, problems: Problems) -> Typed:
    """The input tables, every problem added to ``problems``."""
    season, thresholds, cells = _read_parameters(book, problems)
    register, classes, listed = _read_players(book, problems)
    rows = _read_tournaments(book, problems)
    lines = _read_results(book, problems, {row.name: row for row in rows}, register)
    _check_tournaments(rows, lines, problems)
    return Typed(season, thresholds, classes, register, rows, lines, listed, cells)


def summarise(typed: Typed) -> Summary:
    """The season computed by the core (:func:`xlcircuit.dbm.run_season`)."""
    assert typed.thresholds is not None  # read() adds a problem for each missing threshold
    rows, lines, classes, clubs = typed.tournaments, typed.lines, typed.classes, typed.register.clubs()
    entries: dict[str, list[dbm.Entry]] = defaultdict(list)
    for line in lines:
        entries[line.tournament].append(line.entry)
    season = [dbm.Tournament(row.name, row.date, row.rounds, row.doubles, tuple(entries[row.name]), row.foreign)
              for row in rows]
    report = dbm.run_season(season, classes, typed.thresholds, clubs)
    ordered = sorted(rows, key=lambda r: (r.date, fold(r.name), r.name))
    playing_referees = {(line.tournament, line.entry.player) for line in lines
                        if line.entry.referee and line.entry.place is not None}
    return Summary(ordered, report, typed.thresholds,
                   _threshold_warnings(typed.thresholds, typed.cells) + _warnings(ordered, lines, classes, typed.listed),
                   season_label(typed.season, rows), clubs, playing_referees)


# --- writing ---------------------------------------------------------------------------------


def _decimal(x: float) -> str:
    """Two decimals, as MVB, CMM, VFT and means are published, with the French decimal comma."""
    return decimal_comma(x, 2)


def valeurs_rows(summary: Summary) -> list[list[object]]:
    """The ``Valeurs`` table: ABRA's figures of every poule, in date order."""
    rows = []
    for t in summary.tournaments:
        v = summary.report.values.get(t.name)
        flags = ["oui" if t.doubles else None, "oui" if t.foreign else None]
        if v is None:
            rows.append([t.name, t.date, *flags, t.rounds] + [None] * 7)
            continue
        rows.append([t.name, t.date, *flags, v.nrj, v.njt, v.bjr, v.svb, v.mvb, v.cmm, v.vft,
                     dbm.referee_bonus(v.vft)])
    return rows


def _remark(r: dbm.Result, summary: Summary) -> str | None:
    referees, thresholds = summary.playing_referees, summary.thresholds
    notes = []
    if r.player not in summary.report.records:
        notes.append("hors championnat : aucun tournoi français cette saison")
    if r.referee:
        notes.append(f"arbitre qui n'a pas joué : prime d'arbitrage (moitié de la VFT, {dbm.REFEREE_CAP:g} au plus)")
    elif (r.tournament, r.player) in referees:
        notes.append("arbitre et joueur : le résultat de sa place seulement")
    if r.vaj is not None and r.start is not None and r.vaj is not r.start and r.before is not None:
        mean = _decimal(r.before)
        if r.vaj is dbm.PlayerClass.S and thresholds.seuil_s is not None:  # never without it (first season)
            why = f"moyenne {mean} ≥ seuil_S ({_decimal(thresholds.seuil_s)})"
        elif r.vaj is dbm.PlayerClass.O and r.start is dbm.PlayerClass.F and thresholds.seuil_o is not None:
            why = f"moyenne {mean} ≥ seuil_O ({_decimal(thresholds.seuil_o)})"
        elif r.vaj is dbm.PlayerClass.I:
            why = f"moyenne {mean} ≤ {I_LIMIT}"
        else:
            why = f"moyenne {mean} > {I_LIMIT}"
        notes.append(f"classé ({r.start.letter}), joue en ({r.vaj.letter}) : {why}")
    if r.team_value is not None and r.vaj is not None and r.team_value != r.vaj.value:
        notes.append("valeur de l'équipe : celle de son équipier")
    return " ; ".join(notes) or None


def points_rows(summary: Summary) -> list[list[object]]:
    """The ``Points`` table: every player's result in every poule, with the VAJ he played with."""
    rows = []
    for t in summary.tournaments:
        results = sorted(summary.report.results.get(t.name, []), key=lambda r: (
            r.referee, r.effective or 0, fold(r.player), r.player))
        for r in results:
            rows.append([
                t.name, t.date, r.player, r.partner, r.place, r.effective, r.tied,
                r.start.letter if r.start else None, r.before, r.vaj.letter if r.vaj else None,
                r.vaj.value if r.vaj else None, r.team_value, r.points, "oui" if r.counted else None,
                _remark(r, summary),
            ])
    return rows


def tableau1_rows(summary: Summary) -> list[list[object]]:
    """``Tableau 1``: active players by the sum of their four best results; ``*``: three tournaments."""
    rows = []
    for ranked in summary.report.tableau1:
        record = ranked.record
        # To the hundredth so that the four add up to the total as printed (each as the Points sheet shows it,
        # but for a hundredth where rounding each would miss the rounded total).
        best = rounded_parts(list(record.best), 2) + [None] * (dbm.BEST - len(record.best))
        rows.append([ranked.place, record.player, "*" if record.three_only else None,
                     summary.clubs.get(record.player), record.tournaments, *best, record.total])
    return rows


def tableau2_rows(summary: Summary) -> list[list[object]]:
    """``Tableau 2``: every player, alphabetical."""
    classes = summary.report.classes
    return [[place, record.player, summary.clubs.get(record.player), classes[record.player].end.letter,
             len(record.best), record.mean] for record, place in summary.report.tableau2]


def equipes_rows(summary: Summary) -> list[list[object]]:
    """``Équipes``: the clubs' triplets by total; an incomplete last triplet without a place."""
    return [[team.place, team.club, team.number, *(list(team.players) + [None] * (dbm.TEAM_SIZE - len(team.players))),
             team.total] for team in summary.report.teams]


def _nth(place: int | None) -> str:
    return "1er" if place == 1 else f"{place}e"


def _motif(change: dbm.NextClass, place: int | None) -> str:
    """Why a player has his class for next season, in French."""
    reason = change.reason
    beyond = f"au-delà des {dbm.SHARES[-1]} % premiers"
    if reason is dbm.Reason.SHARE:
        low, high = dbm.share_of(change.end)
        text = f"actif, {_nth(place)} du tableau 1 : dans les {high - low} % {'suivants' if low else 'premiers'}"
    elif reason is dbm.Reason.BELOW_15:
        text = f"actif, {beyond}, moyenne des {in_words(dbm.BEST)} meilleurs résultats inférieure à {I_LIMIT}"
    elif reason is dbm.Reason.OTHERS:
        text = f"actif, {beyond}"
    elif reason is dbm.Reason.THREE_UP:
        text = (f"actif avec {in_words(dbm.ACTIVE)} résultats, {_nth(place)} du tableau 1 "
                f"({change.end.down().letter}), monte d'une "
                f"classe : moyenne au moins égale à celle de {change.reference_player}, dernier actif "
                f"({change.end.letter}) ({_decimal(change.reference)})")
    elif reason is dbm.Reason.OCCASIONAL_UP:
        text = (f"occasionnel, monte d'une classe : moyenne au moins égale à celle de {change.reference_player}, "
                f"dernier actif ({change.end.letter}) ({_decimal(change.reference)})")
    elif reason is dbm.Reason.OCCASIONAL_DOWN:
        text = (f"occasionnel, descend d'une classe : moyenne au plus égale à celle de {change.reference_player}, "
                f"premier actif ({change.end.letter}) ({_decimal(change.reference)})")
    else:
        text = reason.value
    return text


def classes_rows(summary: Summary) -> list[list[object]]:
    """``Classes``: every player's class at the start and at the end of the season, and why."""
    report = summary.report
    places = {r.record.player: r.place for r in report.tableau1}
    rows = []
    for player in sorted(report.classes, key=lambda p: (fold(p), p)):
        change = report.classes[player]
        record = report.records.get(player)
        status = "absent" if record is None else "actif" if record.active else "occasionnel"
        rows.append([player, summary.clubs.get(player), status, record.tournaments if record else 0,
                     record.mean if record else None, places.get(player), change.start.letter, change.end.letter,
                     _motif(change, places.get(player))])
    return rows


_WHAT = {
    "Valeurs": "valeur des poules", "Points": "résultats des joueurs", "Tableau1": "tableau 1 (classement officiel)",
    "Tableau2": "tableau 2", "Equipes": "classement par équipes", "Classes": "classes pour la saison suivante",
}


def outputs(summary: Summary, club: str | None = None, day: dt.date | None = None) -> list[Output]:
    """The published tables, with their titles; the podium highlighted, or a club's players."""
    day = day or dt.date.today()
    table1 = tableau1_rows(summary)
    highlights = podium_or_club(table1, summary.clubs, club)
    made = {
        "Valeurs": valeurs_rows(summary), "Points": points_rows(summary), "Tableau1": table1,
        "Tableau2": tableau2_rows(summary), "Equipes": equipes_rows(summary), "Classes": classes_rows(summary),
    }
    return [Output(spec, spec.columns, made[spec.name], title(TITLE, _WHAT[spec.name], summary.season, day),
                   highlights if spec is TABLEAU1 else {}, notes=_NOTES.get(spec.name, ()),
                   repeat_columns=_REPEAT[spec.name])
            for spec in _OUTPUTS]


#: The legend under a table, and the columns (place, name) repeated on each printed page.
_NOTES = {
    "Tableau1": (
        "Les joueurs actifs (au moins trois tournois recensés) par la somme de leurs quatre meilleurs résultats "
        "(RFJ) ;",
        "* : n'a participé qu'à trois tournois recensés (la somme porte sur ses trois résultats).",
        "Le résultat de chaque poule (RFJ, VAJ, place) : feuille « Points », colonne « Compté » : "
        "« oui » pour les quatre retenus.",
    ),
    "Points": ("RFJ = VFT / 2 ^ (4 × (place - 1) / NJT) ; VFT de la poule : feuille « Valeurs » ; « Compté » : "
               "parmi les quatre meilleurs du joueur.",),
}
_REPEAT = {"Valeurs": 1, "Points": 3, "Tableau1": 2, "Tableau2": 2, "Equipes": 2, "Classes": 1}


def _count(n: int, word: str) -> str:
    return count(n, word)


def report(summary: Summary) -> list[str]:
    """What ``check`` and ``fill`` print: the counts, then the top of Tableau 1 (French)."""
    table1 = summary.report.tableau1
    lines = [f"{_count(len(summary.tournaments), 'poule')}, {_count(len(summary.report.records), 'joueur')}, "
             f"{_count(len(table1), 'actif')} au tableau 1."]

    def line(ranked: dbm.Ranked) -> str:
        name = ranked.record.player + (" *" if ranked.record.three_only else "")
        return f"  {ranked.place:>3}. {name:<30} {_decimal(ranked.record.total):>8}"

    return lines + top_lines(table1, SHOWN, TABLEAU1.sheet, line)


#: What the journal and ``xlcircuit diff`` compare: each result's place and partner, each active player's place
#: and total in Tableau 1.
TRACKED = Tracked(POINTS, ("Tournoi",), ("Joueur",), ("Place", "Équipier"), TABLEAU1, "Joueur", "Place", "Total")
STEPS = Steps(FEDERATION, Owned.of(_OUTPUTS), read, summarise, outputs,
              journal=Journal(TITLE, TRACKED, lambda summary: report(summary)[0]))
compute, fill = STEPS.compute, STEPS.fill


# --- the explanation of a player's points (xlcircuit explain) -------------------------------------


def _explained_result(r: dbm.Result, summary: Summary) -> str:
    """One result of a player, for ``explain``: the place (or the referee's bonus), the VFT, the RFJ, counted or not."""
    value = summary.report.values.get(r.tournament)
    if r.referee:
        what = "arbitre : prime d'arbitrage (moitié de la VFT, 100 au plus)"
    else:
        tie = f", ex aequo à {r.tied}" if r.tied and r.tied > 1 else ""
        what = f"{nth(r.effective)}{tie} sur {value.njt if value else '?'} (NJT)"
        what += f", joue en classe {r.vaj.letter}" if r.vaj else ""
    vft = f" ; VFT {decimal_comma(value.vft, 2)}" if value else ""
    remark = _remark(r, summary)
    date = next((t.date for t in summary.tournaments if t.name == r.tournament), None)
    return (f"  {when(date)}  {r.tournament} : {what}{vft} → RFJ {decimal_comma(r.points, 2)} ; "
            f"{'compté' if r.counted else 'non compté (hors des quatre meilleurs)'}"
            + (f" ({remark})" if remark else ""))


def _explained_total(summary: Summary, player: str, record: dbm.Record) -> list[str]:
    """The end of ``explain``: the sum of the best four, then the place in Tableau 1 (or occasional) and the total."""
    parts = rounded_parts(list(record.best), 2)
    total = decimal_comma(record.total, 2)
    lines = [f"Somme des {len(parts)} meilleurs : {summed(parts, 2, total)}"]
    place = next((r.place for r in summary.report.tableau1 if r.record.player == player), None)
    if place is None:
        lines.append(f"Occasionnel : {record.tournaments} tournoi{'s' if record.tournaments > 1 else ''} ; il en "
                     "faut trois pour figurer au tableau 1.")
        lines.append(f"Total (hors tableau 1) : {total}")
    else:
        star = " (* : trois tournois seulement)" if record.three_only else ""
        lines.append(f"Tableau 1 : {nth(place)}{star}.")
        lines.append(f"Total au tableau 1 : {total}")
    return lines


def explain(summary: Summary, wanted: str) -> list[str]:
    """``xlcircuit explain``: the lines explaining ``wanted``'s points, in French, each result with its rule,
    the last line ending on his published total."""
    report = summary.report
    results = [r for t in summary.tournaments for r in report.results.get(t.name, [])]
    player = find_player(wanted, [r.player for r in results])
    record = report.records.get(player)
    lines = [f"{player} — {TITLE} {summary.season}".rstrip(),
             "Résultat d'une poule (RFJ) : VFT / 2^(4 × (place - 1) / NJT) ; VFT, la valeur de la poule "
             "(feuille « Valeurs ») ; ex aequo : la moyenne de leurs places.",
             "Tableau 1 : les joueurs d'au moins trois tournois, par la somme de leurs quatre meilleurs résultats.",
             ""]
    lines += [_explained_result(r, summary) for r in results if r.player == player]
    lines.append("")
    if record is None:
        lines.append("Hors championnat : aucun tournoi français cette saison.")
        return lines
    return lines + _explained_total(summary, player, record)


# --- season after season ---------------------------------------------------------------------------


def honours(summary: Summary) -> Honours:
    """The season's line of the palmarès: Tableau 1 « désigne le champion » (TABLEAUX), and its next two; the
    first team of the Classement par équipes."""
    champion, second, third = seasons.podium((r.place, r.record.player) for r in summary.report.tableau1)
    team = next((t for t in summary.report.teams if t.place == 1), None)
    titles = (f"Classement par équipes : {team.club} (équipe {team.number} : {', '.join(team.players)})"
              if team else None)
    return Honours(summary.season, champion, second, third, titles)


def _threshold(value: float | None, player: str | None, letter: str, summary: Summary) -> Parameter:
    """A threshold of next season, its comment naming the reference player."""
    name = f"seuil_{letter}"
    season = f" {summary.season}" if summary.season else ""
    if value is None or player is None:
        return Parameter(name, None, f"aucun joueur actif ({letter}) en fin de saison{season} : vide, aucun passage "
                                     f"en ({letter}) en cours de saison")
    place = next(r.place for r in summary.report.tableau1 if r.record.player == player)
    return Parameter(name, value, f"moyenne finale {of(player)}, dernier joueur actif ({letter}) en fin de saison"
                                  f"{season} ({_nth(place)} du tableau 1) : {_decimal(value)}", TWO)


def carry(summary: Summary, register: Register) -> Carry:
    """Next season (VBJ, VAJ): every player's class from this season's end (« En fin de saison, et pour le début
    de la saison suivante »), and seuil_S, seuil_O from this season's last active (S) and (O)
    (:func:`xlcircuit.rules.dbm.next_thresholds`)."""
    report = summary.report
    following = dbm.next_thresholds(report.tableau1)
    s = _threshold(following.seuil_s, following.player_s, "S", summary)
    o = _threshold(following.seuil_o, following.player_o, "O", summary)
    extra = {player: {"Classe": change.end.letter} for player, change in report.classes.items()}
    people = sorted({r.player for results in report.results.values() for r in results}
                    | {r.partner for results in report.results.values() for r in results if r.partner},
                    key=lambda p: (fold(p), p))
    players = register_rows(register, extra, people)
    notes = [f"{p.name} : {p.comment}." for p in (s, o)]
    notes.append(f"Classes : celle de fin de saison de chaque joueur (feuille « {CLASSES.sheet} »), pour "
                 f"{count(len(extra), 'joueur')} ; les autres sont des nouveaux ({dbm.NEWCOMER.letter}).")
    return Carry([Parameter("Saison", seasons.next_name(summary.season), COMMENTS["Saison"]), s, o], players, notes)


# --- importing results (xlcircuit import) ----------------------------------------------------------------


def _rounds(value: object) -> int | None:
    rounds = as_positive_int(value, "nombre de rondes")
    if rounds is not None and rounds > MAX_ROUNDS:
        raise InvalidInput(f"nombre de rondes attendu : de 1 à {MAX_ROUNDS} ; trouvé {rounds}")
    return rounds


def _imported_line(values) -> list[tuple[str, str]]:
    """A line has a place, or is a referee's who did not play (his bonus)."""
    if values.get("Place") is None and values.get("Arbitre") is None:
        return [("Place", "place manquante : un joueur classé a sa place finale ; un arbitre qui ne joue pas : "
                          "« oui » dans Arbitre")]
    return []


REFEREE = ("arbitre", "referee", "arbitrage")
IMPORTER = Importer(
    lines=RESULTATS,
    fields=(
        Field("Tournoi", words.TOURNAMENT + ("poule", "nom de la poule", "tournoi poule"), sources.tournament_name,
              fact=True),
        Field("Joueur", words.PLAYER, sources.text, required=True, person=True),
        Field("Équipier", ("equipier", "coequipier", "partenaire", "partner", "teammate", "equipier en double"),
              sources.text, person=True),
        Field("Place", words.PLACE, as_positive_int),
        Field("Arbitre", REFEREE, sources.yes),
    ),
    key=("Tournoi",), named="Tournoi", what="poule",
    tournaments=TOURNOIS,
    about=(
        Field("Date", words.DATE, as_date),
        Field("Rondes", ("rondes", "nombre de rondes", "nb rondes", "nb de rondes", "rondes jouees",
                         "nombre de rondes jouees", "nrj", "rounds"), _rounds),
        Field("Doubles", ("doubles", "double", "en double", "poule en double"), sources.yes),
        Field("Étranger", ("etranger", "tournoi etranger", "a l'etranger", "hors de france", "foreign"), sources.yes),
    ),
    players=JOUEURS, player_fields=(Field("Club", words.CLUB, sources.text),), register=True,
    people=(Person(Field("Arbitre", REFEREE + ("nom de l'arbitre", "arbitre principal"), sources.text, person=True),
                   {"Arbitre": "oui"}),),
    check=_imported_line,
    form=Form(
        "feuille de résultats d'une poule, à envoyer à l'animateur du championnat",
        facts=("Tournoi", "Date", "Rondes", "Arbitre", "Doubles", "Étranger"),
        columns=("Place", "Nom", "Prénom", "Club", "Équipier"),
        guide=("Le minimum que demande la réforme 98/99 (« La feuille de résultats ») est le nom de l'arbitre, le "
               "nombre de rondes jouées,",
               "les noms et prénoms des joueurs engagés, leur club d'appartenance et leur place à l'issue du tournoi. "
               "En double, le nom complet de l'équipier."),
        choices={"Doubles": ("oui", "non"), "Étranger": ("oui", "non"), "Rondes": ("4", "5")},
        widths={"Nom": 22, "Prénom": 18, "Club": 30, "Équipier": 28, "Place": 10},
    ),
)


class Dbm(Adapter):
    """The dbm workbook (see the module's docstring)."""

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


ADAPTER = Dbm()
