"""The Championnat de France workbook: reads ``Parametres``, ``Joueurs``, ``Parties``, ``Votes`` and
``Preferes``; writes ``Scores``, ``Qualification``, ``TableFinale``, ``Classement``, ``Equipes``,
``Trophees`` and ``MeilleursPays``. An adapter: every rule is in :mod:`xlcircuit.cdf`."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field

from openpyxl.workbook.workbook import Workbook

from ..rules import cdf, seasons
from ..rules.errors import InvalidInput, Problem, Violation, WorkbookProblems
from ..rules.mechanics import rank_key, rounded_parts
from ..rules.text import fold, in_words
from ..workbook.adapter import Adapter
from ..workbook.cells import as_date, as_number, as_text, as_whole, as_yes_no
from ..workbook.journal import Journal, Tracked
from ..workbook.procedure import Steps
from ..workbook.read import read_table
from ..workbook.register import Register, duplicate_warnings, players_table, read_register
from ..workbook.seasons import Carry, Honours, Parameter, add_season_sheets, register_rows
from ..workbook.sheets import (
    at_cell,
    club_of,
    fill_step,
    finish_workbook,
    parameters_table,
    parse_cell,
    podium_or_club,
    read_parameters,
    start_workbook,
)
from ..workbook.sources import SOURCE, Field, Form, Importer, words
from ..workbook.sources import mapping as sources
from ..workbook.spec import Column, Mark, Output, Problems, Record, TableSpec
from ..workbook.wording import count, decimal_comma, find_player, nth, percents, summed, title, top_lines
from ..workbook.write import type_rows
from ..xlsx import Book, Owned
from . import federation
from .examples import load

INFO = federation("cdf")  # code, French title, template and example file
FEDERATION, TITLE, TEMPLATE, EXAMPLE = INFO.code, INFO.name, INFO.template, INFO.example
DATE_FORMAT = "dd/mm/yyyy"
SCORE_FORMAT = "0.00"  # Super Pastis scores have halves and thirds: shown to the hundredth
#: Bonuses beyond this are a typing mistake (:mod:`xlcircuit.limits`).
MAX_BONUS = cdf.MAX_BONUS

TOP_BOARD_COLOUR = "E2EFDA"

PARAMETRES = parameters_table("Tournoi", value_width=34)
JOUEURS = players_table(
    Column("Club", required=False, width=30),
    Column("Équipe", required=False, width=22),
    Column("Naissance", required=False, width=12, number_format=DATE_FORMAT),
    Column("Étranger", required=False, width=10, choices=("oui",)),
    Column("Bonus", required=False, width=9),
)
PARTIES = TableSpec("Parties", "Parties", (
    Column("Ronde", width=8, choices=tuple(str(r) for r in range(1, cdf.ROUNDS + 1))),
    Column("Table", width=8),
    Column("Joueur", width=26),
    Column("Pays", width=12, choices=tuple(p.value for p in cdf.Power)),
    Column("Centres", width=9),
    Column("Éliminé après", width=13),
    Column("Années jouées", required=False, width=13),
    Column("Ordre de choix", required=False, width=14),
    Column(SOURCE, required=False, width=30),  # where an imported line came from (xlcircuit import)
))
VOTES = TableSpec("Votes", "Votes", (
    Column("Ronde", width=8),
    Column("Table", width=8),
    Column("Votant", width=26),
    Column("Catégorie", width=20, choices=tuple(c.value for c in cdf.Category)),
    Column("Premier", width=26),
    Column("Second", width=26),
    Column("Bulletin", width=10, choices=tuple(cdf.BALLOTS)),
), required=False)
PREFERES = TableSpec("Préférés", "Preferes", (
    Column("Votant", width=26),
    Column("Joueur préféré", width=26),
), required=False)

SCORES = TableSpec("Scores", "Scores", (
    Column("Ronde", width=8),
    Column("Table", width=8),
    Column("Joueur", width=26),
    Column("Pays", width=12),
    Column("Centres", width=9),
    Column("Éliminé après", width=13),
    Column("Années jouées", width=13),
    Column("Résultat", width=24),
    Column("Score", width=9, number_format=SCORE_FORMAT),
    Column("Score de la ronde", width=12, number_format=SCORE_FORMAT),
    Column("Remarque", width=50),
))
QUALIFICATION = TableSpec("Qualification", "Qualification", (
    Column("Place", width=7),
    Column("Joueur", width=26),
    Column("Ronde 1", width=9, number_format=SCORE_FORMAT),
    Column("Ronde 2", width=9, number_format=SCORE_FORMAT),
    Column("Ronde 3", width=9, number_format=SCORE_FORMAT),
    Column("Samedi soir", width=11, number_format=SCORE_FORMAT),
    Column("Place samedi soir", width=11),
    Column("Score qualificatif", width=12, number_format=SCORE_FORMAT, data_bar=True),
    Column("Table finale", width=50),
))
TABLE_FINALE = TableSpec("Table finale", "TableFinale", (
    Column("Étape", width=7),
    Column("Joueur", width=26),
    Column("Motif", width=50),
    Column("Score retenu", width=11, number_format=SCORE_FORMAT),
    Column("Ordre de choix", width=10),
    Column("Pays", width=12),
    Column("Centres", width=9),
    Column("Score de la partie", width=11, number_format=SCORE_FORMAT),
    Column("Résultat", width=30),
))
CLASSEMENT = TableSpec("Classement", "Classement", (
    Column("Place", width=7),
    Column("Joueur", width=26),
    Column("Club", width=28),
    Column("Ronde 1", width=9, number_format=SCORE_FORMAT),
    Column("Ronde 2", width=9, number_format=SCORE_FORMAT),
    Column("Ronde 3", width=9, number_format=SCORE_FORMAT),
    Column("Ronde 4", width=9, number_format=SCORE_FORMAT),
    Column("Rondes jouées", width=9),
    Column("Score final", width=10, number_format=SCORE_FORMAT),
    Column("Table finale", width=12),
    Column("Bonus", width=8, number_format=SCORE_FORMAT),
    Column("Total", width=10, number_format=SCORE_FORMAT, data_bar=True),
    Column("Départage", width=24),
))
EQUIPES = TableSpec("Équipes", "Equipes", (
    Column("Place", width=7),
    Column("Équipe", width=24),
    Column("Membres", width=60),
    Column("Score", width=10, number_format=SCORE_FORMAT, data_bar=True),
    Column("Départage", width=24),
))
TROPHEES = TableSpec("Trophées", "Trophees", (
    Column("Trophée", width=20),
    Column("Place", width=7),
    Column("Joueur", width=26),
    Column("Points", width=8),
    Column("Parties", width=8),
    Column("Moyenne", width=9, number_format=SCORE_FORMAT),
    Column("Votes sur une partie", width=12),
))
MEILLEURS_PAYS = TableSpec("Meilleurs pays", "MeilleursPays", (
    Column("Pays", width=12),
    Column("Place", width=7),
    Column("Joueur", width=26),
    Column("Ronde", width=8),
    Column("Table", width=8),
    Column("Score", width=9, number_format=SCORE_FORMAT),
    Column("Centres", width=9),
))

#: The column of each field the core's checks locate a violation on (:class:`xlcircuit.errors.Violation`).
COLUMNS = {"round": "Ronde", "table": "Table", "player": "Joueur", "centres": "Centres", "survived": "Éliminé après",
           "years": "Années jouées", "choice": "Ordre de choix", "team": "Équipe", "bonus": "Bonus", "voter": "Votant",
           "first": "Premier", "second": "Second", "category": "Catégorie", "favourite": "Joueur préféré"}

FAVOURITE = "joueur préféré"
#: What a name column of Votes and Préférés holds, for the problem of a blank cell.
NAMED = {"Votant": "nom du votant", "Premier": "nom du premier joueur désigné",
         "Second": "nom du second joueur désigné", "Joueur préféré": "nom du joueur préféré"}
COUNTRY_PLACES = 3  # best countries: the first three games of each power are shown

GUIDE = [
    "Mode d'emploi",
    "1. Ci-dessus : le nom du championnat, « oui » ou « non » pour la table finale (les organisateurs",
    f"   peuvent ne pas en faire), « oui » pour autoriser des tables de moins de {in_words(cdf.PLAYERS)} joueurs.",
    f"2. Feuille « Joueurs » : chaque inscrit (club, équipe de {in_words(cdf.MAX_TEAM)} au plus, date de naissance "
    "pour",
    "   départager au plus jeune, « oui » s'il est étranger, bonus éventuel, par exemple pour un désistement ;",
    "   identifiant et alias, autres orthographes séparées par « ; », lus comme son nom).",
    f"3. Feuille « Parties » : une ligne par joueur et par partie : ronde (1 à {cdf.ROUNDS}), table, pays, centres",
    "   à la fin ; pour un éliminé, après combien d'années ; années jouées si la partie s'est arrêtée",
    f"   par un vote avant {cdf.FIRST_YEAR + cdf.YEARS - 1} (vide : {cdf.YEARS}). Table finale : l'ordre de choix des "
    f"pays de ses {in_words(cdf.TOP_BOARD_SIZE)} joueurs.",
    "   Un joueur sur deux tables simultanées a ses deux lignes dans la même ronde.",
    f"4. Feuille « Votes » : les bulletins de chaque partie (catégorie, premier, second, {' ou '.join(cdf.BALLOTS)}) ;",
    "   feuille « Préférés » : le joueur préféré de chacun, voté à la dernière ronde.",
    *fill_step(5),
    "",
    "Les tables Scores, Qualification, Table finale, Classement, Équipes, Trophées et Meilleurs pays",
    "sont réécrites à chaque remplissage : n'y tapez rien. Vos autres feuilles sont conservées.",
]


@dataclass
class Line:
    """A line of the Parties table: where it was typed and what it says."""

    record: Record
    round: int
    table: str
    seat: cdf.Seat
    years: int | None


@dataclass
class Summary:
    """What a check or a fill found: the championship, and warnings for the organiser."""

    championship: cdf.Championship
    lines: list[Line]
    boards: list[cdf.Board]
    players: dict[str, cdf.Player]
    name: str
    top_board: bool
    warnings: list[str] = field(default_factory=list)
    clubs: dict[str, str] = field(default_factory=dict)  # player -> club, from the Joueurs table
    short: bool = False  # tables of fewer than seven allowed (« Tables incomplètes »)


#: The tables the organiser fills in (named by ``xlcircuit new``).
INPUTS = (JOUEURS, PARTIES, VOTES, PREFERES)
#: The main standings (shared as PDF, highlighted per club) and the per-result lines (per club).
STANDINGS, LINES = CLASSEMENT, SCORES
OUTPUTS = (SCORES, QUALIFICATION, TABLE_FINALE, CLASSEMENT, EQUIPES, TROPHEES, MEILLEURS_PAYS)
SHOWN = 10  # standings lines printed after a fill


# --- the template ----------------------------------------------------------------------------


def new_workbook() -> Workbook:
    """A fresh, empty championship workbook."""
    parameters = [("Championnat", None), ("Table finale", "oui"), ("Tables incomplètes", "non")]
    wb = start_workbook(TITLE, PARAMETRES, parameters, INPUTS, GUIDE, 9)
    finish_workbook(wb, FEDERATION, [(spec, _title(spec)) for spec in OUTPUTS])
    add_season_sheets(wb, TITLE)
    return wb


def put_example(wb: Workbook) -> None:
    """Type the bundled example championship into the input tables."""
    type_rows(wb, PARAMETRES, load("cdf").PARAMETRES)
    type_rows(wb, JOUEURS, load("cdf").JOUEURS)
    type_rows(wb, PARTIES, load("cdf").PARTIES)
    type_rows(wb, VOTES, load("cdf").VOTES)
    type_rows(wb, PREFERES, load("cdf").PREFERES)


# --- reading ---------------------------------------------------------------------------------


def _table(value: object) -> str | None:
    """A table's name as typed: ``3``, ``3.0`` and ``"3"`` are the same table."""
    return as_text(value)


def _blank(problems: Problems, record: Record, header: str, expected: str) -> None:
    """A required cell left blank: a problem at that cell, saying what was expected."""
    problems.at(record, header, f"{expected} ; trouvé {cdf.BLANK}")


def _required_whole(problems: Problems, record: Record, header: str, what: str, low: int, high: int) -> int | None:
    """A required whole number from ``low`` to ``high``; None, and a problem, when blank or malformed."""
    if record.values[header] is None:
        _blank(problems, record, header, f"{what} attendu : un entier de {low} à {high}")
        return None
    return parse_cell(problems, record, header, as_whole, what, low, high)


def _required_name(problems: Problems, record: Record, header: str, what: str, register: Register) -> str | None:
    """A required name, as the register names him; None, and a problem, when blank or ambiguous."""
    if as_text(record.values[header]) is None:
        _blank(problems, record, header, f"{what} attendu")
        return None
    return register.resolve(problems, record, header)


def _read_parameters(book: Book, problems: Problems) -> tuple[str, bool, bool, list[str]]:
    """Championnat, Table finale (``oui`` when blank, with a warning at its cell: it decides the top-board
    bonus) and Tables incomplètes (``non`` when blank: boards of fewer than seven are then refused, never
    computed); and the warnings for the defaults taken."""
    parameters = read_parameters(book, PARAMETRES, problems)
    name = parameters.text("Championnat") or ""
    top_board = parameters.value("Table finale") is None or bool(parameters.parsed("Table finale", as_yes_no, problems))
    defaults = []
    if parameters.value("Table finale") is None:
        defaults.append(str(parameters.problem("Table finale", "Table finale vide : « oui » par défaut (une table "
                                                               "finale, ses joueurs ont le bonus de 15 %) ; tapez "
                                                               "oui ou non")))
    short = any(parameters.parsed(spelling, as_yes_no, problems) for spelling in ("Tables incomplètes", "Table incomplète"))
    return name, top_board, short, defaults


def _report(problems: Problems, records: list[Record], violations: list[Violation]) -> set[int]:
    """The core's violations as problems at their cells; the indexes of the records they are on."""
    for v in violations:
        problems.at(records[v.index], COLUMNS[v.field], v.message)
    return {v.index for v in violations}


def _row(records: list[Record]) -> Callable[[int], str]:
    """How the core's messages name another record: by its row."""
    return lambda i: f"ligne {records[i].row}"


def _read_players(book: Book, problems: Problems) -> tuple[Register, dict[str, cdf.Player], dict[str, str],
                                                          dict[str, str]]:
    """The register, each player of the Joueurs table, his club, and where his Naissance cell is."""
    players: dict[str, cdf.Player] = {}
    clubs: dict[str, str] = {}
    born: dict[str, str] = {}
    records: list[Record] = []
    register = read_register(book, JOUEURS, problems)
    for entry in register:
        name, record = entry.name, entry.record
        club, team = club_of(record), as_text(record.values.get("Équipe"))
        birth = parse_cell(problems, record, "Naissance", as_date)
        foreign = parse_cell(problems, record, "Étranger", as_yes_no)
        bonus = parse_cell(problems, record, "Bonus", as_number, "bonus (un nombre de points)")
        players[name] = cdf.Player(name, birth, bool(foreign), team, bonus or 0.0)
        _report(problems, [record], cdf.bonus_violations([players[name]]))
        born[name] = at_cell(record, "Naissance")
        records.append(record)
        if club:
            clubs[name] = club
    _report(problems, records, cdf.team_violations(list(players.values())))
    return register, players, clubs, born


def _read_lines(book: Book, problems: Problems, players: dict[str, cdf.Player],
                seated: dict[tuple[int, str], set[str]], unread: set[tuple[int, str]], register: Register) -> list[Line]:
    """The Parties lines; ``seated`` gets who sat at each board, even on a line or board with a problem
    (so that a vote about it is not reported too), ``unread`` the boards a line with a problem was left out of."""
    lines = []
    for record in read_table(book, PARTIES, problems):
        found = problems.mark()
        ronde = _required_whole(problems, record, "Ronde", "numéro de ronde", 1, cdf.ROUNDS)
        table = _table(record.values["Table"])
        if table is None:
            _blank(problems, record, "Table", "table attendue (son numéro ou son nom)")
        player = _required_name(problems, record, "Joueur", "nom du joueur", register)
        if player is not None and players and player not in players:
            problems.at(record, "Joueur", f"{player} est absent de la table Joueurs : ajoutez-le, ou corrigez "
                                          "l'orthographe")
        power = parse_cell(problems, record, "Pays", cdf.Power.parse)
        centres = _required_whole(problems, record, "Centres", "nombre de centres", 0, cdf.CENTRES)
        survived = parse_cell(problems, record, "Éliminé après", as_whole, "nombre d'années", 0, cdf.YEARS)
        years = parse_cell(problems, record, "Années jouées", as_whole, "nombre d'années jouées", 1, cdf.YEARS)
        choice = parse_cell(problems, record, "Ordre de choix", as_whole, "ordre de choix", 1, cdf.TOP_BOARD_SIZE)
        if ronde is not None and table is not None and player is not None:
            seated.setdefault((ronde, table), set()).add(player)
        if problems.since(found):
            if ronde is not None and table is not None:
                unread.add((ronde, table))
            continue
        lines.append(Line(record, ronde, table, cdf.Seat(player, centres, survived, power, choice), years))
    return lines


def _boards(lines: list[Line], problems: Problems, short: bool, unread: set[tuple[int, str]]) -> list[cdf.Board]:
    """The boards of the Parties lines, as the core makes and checks them (a line or a board it refuses
    is a problem at its cell; a board missing a line with a problem is not counted short)."""
    boards, violations = cdf.boards_of([cdf.Line(line.round, line.table, line.seat, line.years) for line in lines],
                                       short, unread)
    _report(problems, [line.record for line in lines], violations)
    return boards


def _read_votes(book: Book, problems: Problems, seated: dict[tuple[int, str], set[str]],
                register: Register) -> list[cdf.Vote]:
    """The ballots; the core checks each complete one (its board, its players, once per category)."""
    votes: list[cdf.Vote] = []
    records: list[Record] = []
    for record in read_table(book, VOTES, problems):
        found = problems.mark()
        ronde = _required_whole(problems, record, "Ronde", "numéro de ronde", 1, cdf.ROUNDS)
        table = _table(record.values["Table"])
        category = parse_cell(problems, record, "Catégorie", cdf.Category.parse)
        ballot = parse_cell(problems, record, "Bulletin", cdf.parse_ballot)
        names = {h: _required_name(problems, record, h, NAMED[h], register) for h in ("Votant", "Premier", "Second")}
        if table is None:
            _blank(problems, record, "Table", "table attendue (son numéro ou son nom)")
        if not problems.since(found):
            votes.append(cdf.Vote(ronde, table, names["Votant"], category, names["Premier"], names["Second"], ballot))
            records.append(record)
    refused = _report(problems, records, cdf.vote_violations(votes, seated, _row(records)))
    return [vote for i, vote in enumerate(votes) if i not in refused]


def _read_favourites(book: Book, problems: Problems, seated: dict[tuple[int, str], set[str]],
                     register: Register) -> list[tuple[str, str]]:
    """The favourite-player votes; the core checks them (§IV.6b1: last-round players, once each)."""
    favourites: list[tuple[str, str]] = []
    records: list[Record] = []
    for record in read_table(book, PREFERES, problems):
        voter = _required_name(problems, record, "Votant", NAMED["Votant"], register)
        chosen = _required_name(problems, record, "Joueur préféré", NAMED["Joueur préféré"], register)
        if voter is not None and chosen is not None:
            favourites.append((voter, chosen))
            records.append(record)
    refused = _report(problems, records, cdf.favourite_violations(favourites, seated, _row(records)))
    return [pair for i, pair in enumerate(favourites) if i not in refused]


def _warnings(lines: list[Line], players: dict[str, cdf.Player]) -> list[str]:
    warnings = []
    if not players and lines:
        warnings.append("La table Joueurs est vide : pas d'équipes, de dates de naissance ni d'étrangers "
                        "pour départager.")
    return warnings + duplicate_warnings((line.seat.player, at_cell(line.record, "Joueur")) for line in lines)


@dataclass
class Typed:
    """The input tables as read."""

    name: str
    top_board: bool
    short: bool
    players: dict[str, cdf.Player]
    clubs: dict[str, str]
    lines: list[Line]
    boards: list[cdf.Board]
    known: set[str]  # everyone seated at a board
    votes: list[cdf.Vote]
    favourites: list[tuple[str, str]]
    defaults: list[str] = field(default_factory=list)  # a blank parameter read as its default, said where
    born: dict[str, str] = field(default_factory=dict)  # where each player's birth date is typed


def read(book: Book, problems: Problems) -> Typed:
    """The input tables, every problem added to ``problems``."""
    name, top_board, short, defaults = _read_parameters(book, problems)
    register, players, clubs, born = _read_players(book, problems)
    seated: dict[tuple[int, str], set[str]] = {}
    unread: set[tuple[int, str]] = set()
    lines = _read_lines(book, problems, players, seated, unread, register)
    boards = _boards(lines, problems, short, unread)
    known = {name for names in seated.values() for name in names}
    votes = _read_votes(book, problems, seated, register)
    favourites = _read_favourites(book, problems, seated, register)
    return Typed(name, top_board, short, players, clubs, lines, boards, known, votes, favourites, defaults, born)


def _unknown_births(standings: list[cdf.Standing], players: dict[str, cdf.Player], born: dict[str, str]) -> list[str]:
    """Where the youngest tie-breaker decided equal totals with a blank birth date (read as older than every
    known date): at that cell, with the players it ranked."""
    by_total: dict[float, list[cdf.Standing]] = defaultdict(list)
    for s in standings:
        by_total[rank_key(s.total)].append(s)
    warnings = []
    for group in by_total.values():
        if not any(s.decided_by == cdf.YOUNGEST for s in group):
            continue
        for s in group:
            player = players.get(s.player)
            if player is not None and player.birth is None and s.player in born:
                others = ", ".join(o.player for o in group if o is not s)
                warnings.append(f"{born[s.player]} : Naissance vide : {s.player}, à égalité de total avec {others}, "
                                "est départagé au plus jeune comme s'il était le plus âgé (une date inconnue vient "
                                "après toutes les dates connues) ; tapez sa date de naissance.")
    return warnings


def summarise(typed: Typed) -> Summary:
    """The championship computed by the core (:func:`xlcircuit.cdf.run_championship`)."""
    try:
        championship = cdf.run_championship(typed.players, typed.boards, typed.votes, typed.favourites,
                                            typed.top_board, typed.short)
    except InvalidInput as exc:
        raise WorkbookProblems([Problem(PARTIES.sheet, None, None, str(exc))]) from None
    warnings = (typed.defaults + _warnings(typed.lines, typed.players) + championship.warnings
                + _unknown_births(championship.standings, typed.players, typed.born))
    absent = sorted(set(typed.players) - typed.known, key=fold)
    if absent and typed.known:
        warnings.append(f"Inscrits sans partie (absents du classement) : {', '.join(absent)}.")
    return Summary(championship, typed.lines, typed.boards, typed.players, typed.name, typed.top_board, warnings,
                   typed.clubs, typed.short)


# --- writing ---------------------------------------------------------------------------------


def _table_number(table: str) -> int | None:
    """The number of a table named by a number (``12``); None for a name (``A``, ``²``, a hundred digits)."""
    return int(table) if table.isascii() and table.isdigit() and len(table) <= 9 else None


def _table_value(table: str) -> object:
    """A table as it was typed: a number stays a number."""
    number = _table_number(table)
    return table if number is None else number


def _outcome(g: cdf.GameScore, leaders: int) -> str:
    if g.outcome is cdf.Outcome.TIED_LEADER:
        return f"ex aequo en tête ({leaders})"
    if g.outcome is cdf.Outcome.PURSUER:
        return f"à {g.behind} centre{'s' if g.behind > 1 else ''} du premier"
    if g.outcome is cdf.Outcome.OTHER:
        return ""
    return g.outcome.value


def scores_rows(summary: Summary) -> list[list[object]]:
    """The ``Scores`` table: every board line, by round, table and centres."""
    ch = summary.championship
    boards_of: dict[tuple[str, int], list[str]] = defaultdict(list)
    for (ronde, table), scored in ch.boards.items():
        for g in scored:
            boards_of[(g.seat.player, ronde)].append(table)
    years = {b.key: b.years for b in summary.boards}
    rows = []
    for (ronde, table), scored in sorted(ch.boards.items(), key=lambda item: (item[0][0], _order(item[0][1]))):
        top = max(g.seat.centres for g in scored)
        leaders = sum(1 for g in scored if g.seat.centres == top)
        for g in sorted(scored, key=lambda g: (-g.seat.centres, -g.score, fold(g.seat.player))):
            remarks = []
            if g.seat.choice is not None:
                remarks.append(f"table finale, {g.seat.choice}{'er' if g.seat.choice == 1 else 'e'} à choisir son pays")
            tables = boards_of[(g.seat.player, ronde)]
            if len(tables) > 1:
                game = [ch.boards[(ronde, t)] for t in tables]
                pair = [next(x.score for x in lines if x.seat.player == g.seat.player) for lines in game]
                rule = " + ".join(f"{w * 100:g} %" for w in cdf.simultaneous_weights(pair))
                remarks.append(f"deux parties simultanées (tables {' et '.join(tables)}) : {rule}")
            rows.append([ronde, _table_value(table), g.seat.player, g.seat.power.value if g.seat.power else None,
                         g.seat.centres, g.seat.survived, years[(ronde, table)], _outcome(g, leaders) or None,
                         g.score, ch.round_scores[g.seat.player][ronde], " ; ".join(remarks) or None])
    return rows


def _order(table: str) -> tuple:
    number = _table_number(table)
    return (1, 0, fold(table)) if number is None else (0, number, "")


def qualification_rows(summary: Summary) -> list[list[object]]:
    """The ``Qualification`` table: scores after round 2 (Saturday evening) and after round 3."""
    steps = {q.player: q for q in summary.championship.qualified}
    rows = []
    for q in summary.championship.qualifying:
        reason = f"étape {steps[q.player].step} : {steps[q.player].reason}" if q.player in steps else None
        rows.append([q.place, q.player, q.rounds.get(1), q.rounds.get(2), q.rounds.get(3), q.saturday,
                     q.saturday_place, q.qualifying, reason])
    return rows


def top_board_rows(summary: Summary) -> list[list[object]]:
    """The ``Table finale`` table: the seven and why, then how they finished the top board."""
    ch = summary.championship
    played = {s.player: s for s in ch.top_board.seats} if ch.top_board else {}
    scores = {g.seat.player: g.score for g in ch.boards[ch.top_board.key]} if ch.top_board else {}
    champion = next((s.player for s in ch.standings if s.champion), None)
    rows = []
    for q in ch.qualified:
        seat = played.get(q.player)
        result = "champion de France" if q.player == champion else ("n'a pas joué la table finale"
                                                                     if ch.top_board and seat is None else None)
        rows.append([q.step, q.player, q.reason, q.score, seat.choice if seat else None,
                     seat.power.value if seat and seat.power else None, seat.centres if seat else None,
                     scores.get(q.player), result])
    for name, seat in played.items():
        if name not in {q.player for q in ch.qualified}:
            rows.append([None, name, "a joué la table finale sans y être qualifié par le calcul", None, seat.choice,
                         seat.power.value if seat.power else None, seat.centres, scores.get(name),
                         "champion de France" if name == champion else None])
    return rows


def _counted_rounds(s: cdf.Standing) -> tuple[dict[int, float], dict[int, float]]:
    """A player's round scores as they count in his final score (§IV.3a), to the hundredth so that they add
    up to it as printed; and the weight of each round."""
    weights = cdf.final_weights(s.rounds)
    rounds = sorted(s.rounds)
    parts = rounded_parts([s.rounds[r] * weights[r] for r in rounds], 2, [weights[r] < 1 for r in rounds])
    return dict(zip(rounds, parts)), weights


def standings_rows(summary: Summary) -> list[list[object]]:
    """The ``Classement`` table: the champion first, then by total with the tie-breakers; each round's cell
    holds what it counts in the final score (its score times its weight), so that the row adds up."""
    rows = []
    for s in summary.championship.standings:
        top = "champion" if s.champion else ("oui" if s.top_board else None)
        counted, _ = _counted_rounds(s)
        rows.append([s.place, s.player, summary.clubs.get(s.player)] + [counted.get(r) for r in range(1, 5)]
                    + [len(s.rounds), s.final, top, s.bonus or None, s.total, s.decided_by])
    return rows


WEIGHTED = Mark(fill="FFF2CC", italic=True)
_FIRST_ROUND = [c.header for c in CLASSEMENT.columns].index("Ronde 1")


def standings_marks(summary: Summary) -> dict[tuple[int, int], Mark]:
    """A round counted less than 100 % in the final score: italic on yellow."""
    marks = {}
    for index, s in enumerate(summary.championship.standings):
        _, weights = _counted_rounds(s)
        marks.update({(index, _FIRST_ROUND + r - 1): WEIGHTED for r, w in weights.items() if w < 1})
    return marks


_TOP_BONUS = percents([cdf.TOP_BOARD_BONUS])
STANDINGS_NOTES = (
    f"Ronde 1 à {cdf.ROUNDS} : ce que la ronde compte dans le score final : avec {cdf.ROUNDS} rondes, "
    f"{percents(cdf.FINAL_WEIGHTS[cdf.ROUNDS], ' et ')} % des scores de ronde,",
    f"du meilleur au moins bon ; avec {cdf.QUALIFYING_ROUNDS}, "
    f"{percents(cdf.FINAL_WEIGHTS[cdf.QUALIFYING_ROUNDS], ' et ')} % ; avec moins, 100 % (en italique sur fond jaune : "
    "moins de 100 %).",
    f"Score final : la somme des rondes. Total : le score final + {_TOP_BONUS} % pour les joueurs de la table "
    "finale, plus le bonus.",
    "Le vainqueur de la table finale est champion et 1er quel que soit son total ; le score de chaque partie : "
    "feuille « Scores ».",
)


def team_rows(summary: Summary) -> list[list[object]]:
    return [[t.place, t.team, ", ".join(t.members), t.score, t.decided_by] for t in summary.championship.teams]


def award_rows(summary: Summary) -> list[list[object]]:
    rows = []
    ch = summary.championship
    for category, standings in ch.awards.items():
        rows += [[category.value, a.place, a.player, a.points, a.games, a.average, a.most_votes] for a in standings]
    rows += [[FAVOURITE, a.place, a.player, a.points, None, None, None] for a in ch.favourites]
    return rows


def country_rows(summary: Summary) -> list[list[object]]:
    rows = []
    for power, standings in summary.championship.countries.items():
        rows += [[power.value, c.place, c.player, c.round, _table_value(c.table), c.score, c.centres]
                 for c in standings if c.place <= COUNTRY_PLACES]
    return rows


def _title(spec: TableSpec, name: str = "", day: dt.date | None = None) -> str:
    """A published table's title: the championship's name (or the federation's), then the table's sheet."""
    return title(name or TITLE, spec.sheet.lower(), day=day)


def outputs(summary: Summary, club: str | None = None, day: dt.date | None = None) -> list[Output]:
    """The published tables, with their titles; the podium highlighted, or a club's players."""
    day = day or dt.date.today()
    standings = standings_rows(summary)
    qualification = qualification_rows(summary)
    made = {
        SCORES: (scores_rows(summary), {}),
        QUALIFICATION: (qualification, {i: TOP_BOARD_COLOUR for i, row in enumerate(qualification) if row[-1]}),
        TABLE_FINALE: (top_board_rows(summary), {}),
        CLASSEMENT: (standings, podium_or_club(standings, summary.clubs, club)),  # with marks and notes below
        EQUIPES: (team_rows(summary), {}),
        TROPHEES: (award_rows(summary), {}),
        MEILLEURS_PAYS: (country_rows(summary), {}),
    }
    published = [Output(spec, spec.columns, rows, _title(spec, summary.name, day), marks, repeat_columns=2)
                 for spec, (rows, marks) in made.items()]
    for output in published:
        if output.spec is CLASSEMENT:
            output.marks, output.notes = standings_marks(summary), STANDINGS_NOTES
    return published


def report(summary: Summary) -> list[str]:
    """What ``check`` and ``fill`` print: the counts, then the top of the ranking (French)."""
    ch = summary.championship
    rounds = len({r for r, _ in ch.boards})
    classified = count(len(ch.standings), "joueur classé", "joueurs classés")
    counts = f"{count(rounds, 'ronde')}, {count(len(ch.boards), 'partie')}, {classified}."

    def line(s: cdf.Standing) -> str:
        note = " (champion, vainqueur de la table finale)" if s.champion else ""
        return f"  {s.place:>3}. {s.player:<28} {decimal_comma(s.total, 2):>8}{note}"

    return [counts] + top_lines(ch.standings, SHOWN, CLASSEMENT.sheet, line)


#: What the journal and ``xlcircuit diff`` compare: each player's game (country, centres, elimination, years),
#: each place and total.
TRACKED = Tracked(SCORES, ("Ronde", "Table"), ("Joueur",), ("Pays", "Centres", "Éliminé après", "Années jouées"),
                  CLASSEMENT, "Joueur", "Place", "Total")
STEPS = Steps(FEDERATION, Owned.of(OUTPUTS), read, summarise, outputs,
              journal=Journal(TITLE, TRACKED, lambda summary: report(summary)[0]))
compute, fill = STEPS.compute, STEPS.fill


# --- the explanation of a player's points (xlcircuit explain) -------------------------------------


def explain(summary: Summary, wanted: str) -> list[str]:
    """``xlcircuit explain``: the lines explaining ``wanted``'s points, in French, each result with its rule,
    the last line ending on his published total."""
    ch = summary.championship
    player = find_player(wanted, [s.player for s in ch.standings])
    standing = next(s for s in ch.standings if s.player == player)
    counted, weights = _counted_rounds(standing)
    lines = [f"{player} — {summary.name or TITLE}",
             "Score final (§IV.3a) : les scores de ronde, du meilleur au moins bon, à "
             f"{percents(cdf.FINAL_WEIGHTS[cdf.ROUNDS], ' et ')} % ({cdf.QUALIFYING_ROUNDS} rondes : "
             f"{percents(cdf.FINAL_WEIGHTS[cdf.QUALIFYING_ROUNDS])} % ; moins : 100 %) ; table finale : "
             f"+ {_TOP_BONUS} % (§III.4).", ""]
    for (ronde, table), games in sorted(ch.boards.items(), key=lambda item: (item[0][0], _order(item[0][1]))):
        for g in games:
            if g.seat.player == player:
                power = f"{g.seat.power.value}, " if g.seat.power else ""
                out = f", éliminé après {g.seat.survived} ans" if g.seat.eliminated else ""
                lines.append(f"  Ronde {ronde}, table {table} : {power}{count(g.seat.centres, 'centre')}{out} → score "
                             f"{decimal_comma(g.score, 2)}")
    lines.append("")
    for r in sorted(standing.rounds):
        lines.append(f"  Ronde {r} : score de la ronde {decimal_comma(standing.rounds[r], 2)} × "
                     f"{decimal_comma(weights[r] * 100, 0)} % = {decimal_comma(counted[r], 2)}")
    final = decimal_comma(standing.final, 2)
    lines.append(f"Score final : {summed([counted[r] for r in sorted(counted)], 2, final)}")
    total = decimal_comma(standing.total, 2)
    if standing.top_board:
        bonus = f" + bonus {decimal_comma(standing.bonus, 2)}" if standing.bonus else ""
        lines.append(f"Table finale : {final} × {decimal_comma(1 + cdf.TOP_BOARD_BONUS, 2)}{bonus} = {total}")
    elif standing.bonus:
        lines.append(f"Bonus : {final} + {decimal_comma(standing.bonus, 2)} = {total}")
    champion = " : champion de France (vainqueur de la table finale, 1er quel que soit son total)" \
        if standing.champion else ""
    lines.append(f"Place : {nth(standing.place)}{champion}.")
    lines.append(f"Total au classement : {total}")
    return lines


# --- season after season ---------------------------------------------------------------------------


def honours(summary: Summary) -> Honours:
    """The palmarès line (§V « le champion de France, ainsi que les joueurs classés de la deuxième à la septième
    place », « les champions de France par équipe »): the podium, the first team, each category's first."""
    ch = summary.championship
    champion, second, third = seasons.podium((s.place, s.player) for s in ch.standings)
    titles = [f"équipe : {t.team} ({', '.join(t.members)})" for t in ch.teams if t.place == 1]
    titles += [f"{category.value} : {a.player}" for category, standings in ch.awards.items()
               for a in standings if a.place == 1]
    titles += [f"{FAVOURITE} : {a.player}" for a in ch.favourites if a.place == 1]
    return Honours(summary.name or TITLE, champion, second, third, " ; ".join(titles) or None)


def carry(summary: Summary, register: Register) -> Carry:
    """Next championship: the same settings, the name a year on; the register with each player's birth date
    and nationality (tie-breakers); teams and bonuses are the championship's own, not carried."""
    extra: dict[str, dict[str, object]] = {
        name: {"Naissance": p.birth, "Étranger": "oui" if p.foreign else None} for name, p in summary.players.items()}
    people = [s.player for s in summary.championship.standings]
    name = seasons.next_name(summary.name) or summary.name or None
    return Carry([Parameter("Championnat", name), Parameter("Table finale", "oui" if summary.top_board else "non"),
                  Parameter("Tables incomplètes", "oui" if summary.short else "non")],
                 register_rows(register, extra, people))


# --- importing results (xlcircuit import) ----------------------------------------------------------------


def _round(value: object) -> int | None:
    return as_whole(value, "numéro de ronde", 1, cdf.ROUNDS)


def _centres(value: object) -> int | None:
    return as_whole(value, "nombre de centres", 0, cdf.CENTRES)


def _survived(value: object) -> int | None:
    return as_whole(value, "nombre d'années", 0, cdf.YEARS)


def _years(value: object) -> int | None:
    return as_whole(value, "nombre d'années jouées", 1, cdf.YEARS)


def _choice(value: object) -> int | None:
    return as_whole(value, "ordre de choix", 1, cdf.TOP_BOARD_SIZE)


def _power(value: object) -> str:
    return cdf.Power.parse(value).value


IMPORTER = Importer(
    lines=PARTIES,
    fields=(
        Field("Ronde", ("ronde", "round", "tour", "n° ronde", "numero de ronde"), _round, required=True, fact=True),
        Field("Table", ("table", "board", "n° table", "numero de table", "table n°"), _table, required=True, fact=True),
        Field("Joueur", words.PLAYER, sources.text, required=True, person=True),
        Field("Pays", ("pays", "puissance", "power", "country", "nation"), _power, required=True),
        Field("Centres", ("centres", "centers", "nb centres", "nombre de centres", "centres de ravitaillement",
                          "supply centers", "supply centres", "sc"), _centres, required=True),
        Field("Éliminé après", ("elimine apres", "elimine", "elimination", "eliminated", "eliminated after",
                                "elimine apres annees"), _survived),
        Field("Années jouées", ("annees jouees", "annees", "years played", "years"), _years),
        Field("Ordre de choix", ("ordre de choix", "choix", "choice", "choice order"), _choice),
    ),
    key=("Ronde", "Table"), what="table",
    players=JOUEURS, player_fields=(Field("Club", words.CLUB, sources.text),), register=True,
    form=Form(
        "feuille d'une table, à remettre à l'arbitre du championnat",
        facts=("Ronde", "Table"),
        columns=("Joueur", "Pays", "Centres", "Éliminé après", "Années jouées", "Ordre de choix"),
        guide=("Une ligne par joueur de la table, avec ses centres à la fin de la partie ; pour un éliminé, après "
               "combien d'années.",
               f"Années jouées si la partie s'est arrêtée par un vote avant {cdf.FIRST_YEAR + cdf.YEARS - 1} ; ordre "
               "de choix des pays à la table finale seulement."),
        choices={"Pays": tuple(p.value for p in cdf.Power), "Ronde": tuple(str(r) for r in range(1, cdf.ROUNDS + 1))},
        widths={"Joueur": 28, "Pays": 14, "Éliminé après": 14, "Années jouées": 14, "Ordre de choix": 14},
    ),
)

class ChampionnatDeFrance(Adapter):
    """The cdf workbook (see the module's docstring)."""

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


ADAPTER = ChampionnatDeFrance()
