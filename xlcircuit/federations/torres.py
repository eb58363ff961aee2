"""The TORRES season workbook: reads ``Joueurs`` and ``Matchs``, writes ``Classement général``, ``Points``,
``Mouvements`` and ``Saison suivante`` (:func:`outputs`) and the ``Classements`` sheet, one table per group
(:func:`group_outputs`, laid out afresh at each fill by :func:`write_groups`); ``xlcircuit schedule`` writes
``Calendrier``. An adapter: every rule is in :mod:`xlcircuit.torres`, and what it reads is bounded so that
the core never refuses it (a located problem instead)."""

from __future__ import annotations

import datetime as dt
import re
import zlib
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations

from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.pagebreak import Break
from openpyxl.worksheet.worksheet import Worksheet

from ..rules import limits, seasons, torres
from ..rules.errors import InvalidInput, Problem, WorkbookProblems
from ..rules.mechanics import format_half_up, rounded_parts
from ..rules.text import fold
from ..workbook.adapter import Adapter
from ..workbook.cells import as_number, as_positive_int, as_text, as_whole, as_yes_no, shown
from ..workbook.journal import Journal, Tracked
from ..workbook.layout import PAPER_A4, TITLE_ROWS, style_table
from ..workbook.procedure import Steps
from ..workbook.read import find_table, read_table, table_bounds
from ..workbook.register import WORKBOOK, Register, duplicate_warnings, players_table, read_register
from ..workbook.seasons import Carry, Honours, Parameter, add_season_sheets, register_rows
from ..workbook.sheets import (
    CLUB_COLOUR,
    Parameters,
    at_cell,
    club_of,
    fill_step,
    finish_workbook,
    parameters_table,
    parse_cell,
    read_parameters,
    start_workbook,
)
from ..workbook.sources import SOURCE, Field, Form, Importer, words
from ..workbook.sources import mapping as sources
from ..workbook.spec import Column, Output, Problems, Record, TableSpec
from ..workbook.wording import count as plural
from ..workbook.wording import decimal_comma, find_player, nth, signed, summed, title
from ..workbook.write import remove_tables, type_rows, write_outputs, write_table
from ..xlsx import Book, Owned, mark_federation
from . import federation
from .examples import load

INFO = federation("torres")  # code, French title, template and example file
FEDERATION, TITLE, TEMPLATE, EXAMPLE = INFO.code, INFO.name, INFO.template, INFO.example
VP_FORMAT = "0.0"  # shared victory points can be halves or thirds
POINTS_FORMAT = "0"
DIFF_FORMAT = "+0;-0;0"  # as the source writes them: +42, -18
ELO_FORMAT = "0"
#: The seed of the draws when the Saison sheet gives none and no season name either.
DEFAULT_SEED = 0
#: Deepest division read: division d has 2 ** (d - 1) groups (D10: 512 groups, about 10,000 players).
MAX_DIVISION = limits.TORRES_MAX_DIVISION

#: Row colours of the standings: champion, moving up, going down, leaving (a club's players: CLUB_COLOUR).
COLOURS = {"champion": "FFE699", "up": "C6EFCE", "down": "FFC7CE", "leaves": "D9D9D9"}

PARAMETRES = parameters_table("Saison")
JOUEURS = players_table(
    Column("Elo", width=8, number_format=ELO_FORMAT),
    Column("Division", width=10),
    Column("Groupe", width=9),
    Column("Statut", width=12, choices=tuple(s.value for s in torres.Status)),
    Column("Club", required=False, width=26),
)
MATCHS = TableSpec("Matchs", "Matchs", (
    Column("Division", width=10),
    Column("Groupe", width=9),
    Column("Match", width=8),
    Column("Joueur", width=26),
    Column("Points", width=9),
    Column("Retard", width=9, choices=("oui",)),
    Column(SOURCE, required=False, width=30),  # where an imported line came from (xlcircuit import)
))
POINTS = TableSpec("Points", "Points", (
    Column("Division", width=10),
    Column("Groupe", width=9),
    Column("Match", width=8),
    Column("Joueur", width=26),
    Column("Points particuliers", width=12, number_format=POINTS_FORMAT),
    Column("Place", width=8),
    Column("Points de victoire", width=11, number_format=VP_FORMAT),
    Column("Différence", width=11, number_format=DIFF_FORMAT),
    Column("Remarque", width=50),
))
#: A group's standings, every tie-breaker shown (§3), and the end of season's verdict.
STANDING_COLUMNS = (
    Column("Rang", width=7),
    Column("Joueur", width=26),
    Column("Statut", width=10),
    Column("Matchs", width=8),
    Column("Points de victoire", width=11, number_format=VP_FORMAT, data_bar=True),
    Column("Différence", width=11, number_format=DIFF_FORMAT),
    Column("Points particuliers", width=12, number_format=POINTS_FORMAT),
    Column("Elo", width=8, number_format=ELO_FORMAT),
    Column("Mouvement", width=18),
)
#: Every group in one table (filters, CSV, clubs' workbooks, PDF): the standings of :data:`STANDINGS`.
GENERAL = TableSpec("Classement général", "ClassementGeneral", (
    Column("Division", width=10),
    Column("Groupe", width=9),
    *STANDING_COLUMNS,
))
#: The sheet of one table per group, each named ``Classement_D2_G1`` (division 2, group 1) under its title,
#: stacked by division then group, each group printed on a page of its own.
GROUPS_SHEET = "Classements"
GROUP_TABLE = re.compile(r"Classement_D\d+_G\d+", re.IGNORECASE)  # a table of ours on that sheet
GROUP_GAP = 2  # blank rows between a group's table and the next group's title
PRINT_SCALE = 85  # percent: a group's columns on one landscape page (Letter or A4)
MOUVEMENTS = TableSpec("Mouvements", "Mouvements", (
    Column("Division", width=10),
    Column("Groupe", width=9),
    Column("Rang", width=7),
    Column("Joueur", width=26),
    Column("Origine", width=10),
    Column("Mouvement", width=18),
    Column("Division suivante", width=11),
    Column("Groupe suivant", width=10),
))
SUIVANTE = TableSpec("Saison suivante", "SaisonSuivante", (
    Column("Division", width=10),
    Column("Groupe", width=9),
    Column("Joueur", width=26),
    Column("Origine", width=10),
    Column("Provenance", width=40),
    Column("Elo", width=8, number_format=ELO_FORMAT),
))
CALENDRIER = TableSpec("Calendrier", "Calendrier", (
    Column("Division", width=10),
    Column("Groupe", width=9),
    Column("Match", width=8),
    Column("Siège", width=7),
    Column("Joueur", width=26),
))

GUIDE = [
    "Mode d'emploi",
    "1. Feuille « Joueurs » : une ligne par joueur : Elo TORRES de Boîte à Jeux au début de la saison,",
    "   division et groupe de cette saison, statut : actif (ou vide), forfait (exclu : classé dernier),",
    "   retrait (joue cette saison, part ensuite), nouveau (sans division : entre la saison prochaine en",
    "   division la plus basse), retour (division où il revient, s'il y a une place), parti (ne joue pas :",
    "   gardé avec la division de son retour ; pour qu'il revienne, écrivez retour, ou nouveau sans division).",
    "   Identifiant et Alias (autres orthographes, séparées par « ; ») : facultatifs, lus comme son nom.",
    "2. Lancez « xlcircuit schedule CE_FICHIER.xlsx » : la feuille « Calendrier » reçoit les 15 matchs de",
    "   chaque groupe de dix (la Graine ci-dessus fixe le tirage ; vide : déduite du nom de la saison).",
    "3. Feuille « Matchs » : une ligne par joueur et par match : division, groupe, numéro du match, joueur,",
    "   points particuliers (au dernier décompte si le match n'est pas fini), « oui » dans Retard pour qui",
    "   a retardé un match non terminé. Le joueur fictif d'un forfait s'écrit Forfait, Forfait bis…,",
    "   avec ses points : il prend sa place comme un autre (ses points de victoire ne vont à personne).",
    *fill_step(4),
    "",
    "La feuille Classements (un tableau par groupe, avec tous les critères de départage) et les tables",
    "Classement général (tous les groupes, à filtrer), Points, Mouvements et Saison suivante sont",
    "réécrites à chaque remplissage : n'y tapez rien. Vos autres feuilles, colonnes, formules et mises",
    "en forme sont conservées, comme ce que vous écrivez à côté des tableaux de la feuille Classements.",
]

#: The tables the organiser fills in (named by ``xlcircuit new``).
INPUTS = (JOUEURS, MATCHS)
#: The main standings (shared as PDF, highlighted per club) and the per-result lines (per club).
STANDINGS, LINES = GENERAL, POINTS
SHOWN = 10  # standings lines printed after a fill


@dataclass
class MatchRow:
    """A match's lines as typed: (division, group, number) and each seat with where it was typed."""

    key: tuple[int, int, int]
    records: list[Record]
    seats: list[torres.Seat]


@dataclass
class Summary:
    """What a check or a fill found: the season's standings, the end of season, remarks."""

    players: list[torres.Player]
    matches: list[MatchRow]
    standings: dict[tuple[int, int], list[torres.Standing]]
    scored: dict[tuple[int, int, int], list[torres.ScoredSeat]]
    next_season: torres.NextSeason
    seed: int
    warnings: list[str] = field(default_factory=list)
    season: str = ""
    clubs: dict[str, str] = field(default_factory=dict)


# --- the template ----------------------------------------------------------------------------


def new_workbook() -> Workbook:
    """A fresh, empty season workbook (the ``Classements`` sheet is empty until a fill lays out its groups)."""
    wb = start_workbook(TITLE, PARAMETRES, [("Saison", None), ("Graine", None)], INPUTS, GUIDE, 8)
    _print_setup(wb.create_sheet(GROUPS_SHEET))
    finish_workbook(wb, FEDERATION, [(spec, title(TITLE, what)) for spec, what in _OUTPUTS])
    add_season_sheets(wb, TITLE)
    return wb


_OUTPUTS = ((GENERAL, "classement général"), (POINTS, "points par match"), (MOUVEMENTS, "mouvements"),
            (SUIVANTE, "saison suivante"), (CALENDRIER, "calendrier"))


def put_example(wb: Workbook) -> None:
    """Type the bundled example season into the input tables."""
    type_rows(wb, PARAMETRES, [("Saison", load("torres").SAISON), ("Graine", load("torres").GRAINE)])
    type_rows(wb, JOUEURS, [(*row, None) for row in load("torres").JOUEURS])
    type_rows(wb, MATCHS, load("torres").MATCHS)


# --- reading ---------------------------------------------------------------------------------


def _number_of(what: str):
    """A parser of a positive whole number whose message names ``what`` (masculine: « groupe attendu »)."""
    def parse(value: object) -> int | None:
        try:
            return as_positive_int(value)
        except InvalidInput:
            raise InvalidInput(f"{what} attendu : un entier positif (1, 2, 3…) ; trouvé {shown(value)}") from None
    return parse


def _division(value: object) -> int | None:
    """A division number, from 1 to :data:`MAX_DIVISION` (a deeper one would have millions of groups)."""
    return as_whole(value, "numéro de division", 1, MAX_DIVISION)


_group = _number_of("numéro de groupe")
_match = _number_of("numéro de match")


def _spaced(x: float) -> str:
    """A whole number as French writes it: ``-1 000 000 000``."""
    return f"{x:,.0f}".replace(",", " ")


def _within(what: str, low: float, high: float):
    """A parser of a number from ``low`` to ``high`` (what the core takes; blank is None), with one message,
    naming ``what``, for anything else: text, or a number out of bounds."""
    def parse(value: object) -> float | None:
        try:
            number = as_number(value)
        except InvalidInput:
            number = None
        if value is not None and (number is None or not low <= number <= high):
            raise InvalidInput(f"{what} : un nombre de {_spaced(low)} à {_spaced(high)} ; trouvé {shown(value)}")
        return number
    return parse


_elo = _within("Elo attendu", -torres.MAX_NUMBER, torres.MAX_NUMBER)
_points = _within("points particuliers attendus", 0, torres.MAX_NUMBER)


def season_seed(parameters: Parameters, problems: Problems) -> int:
    """The draws' seed: the ``Graine`` parameter, else one derived from the season's name, else 0."""
    given = parameters.value("Graine")
    if given is not None:
        try:
            number = as_number(given, "nombre entier")
            if number is not None and number.is_integer():
                return int(number)
        except InvalidInput:
            pass
        problems.add(parameters.problem("Graine", f"Graine attendue : un nombre entier ; trouvé « {given} »"))
        return DEFAULT_SEED
    name = parameters.text("Saison")
    return zlib.crc32(name.encode("utf-8")) if name else DEFAULT_SEED


@dataclass
class Roster:
    """The Joueurs table read: every player, where he was typed, and this season's groups."""

    players: list[torres.Player]
    records: dict[str, Record]
    groups: dict[tuple[int, int], list[torres.Player]]
    clubs: dict[str, str]
    warnings: list[str]
    register: Register = field(default_factory=Register)


#: The column of each field the core's checks locate a violation on (:class:`xlcircuit.errors.Violation`).
COLUMNS = {"division": "Division", "group": "Groupe"}


def _read_player(name: str, record: Record, problems: Problems, defaults: list[str]) -> torres.Player | None:
    """One line of the Joueurs table as the core's player, or None when it has a problem (added to ``problems``)."""
    found = problems.mark()
    if torres.is_fictitious(name):
        problems.at(record, "Joueur", f"« {name} » est le nom d'un joueur fictif (forfait) : il ne se déclare "
                                      "pas dans Joueurs, il s'écrit seulement dans Matchs")
    elo = parse_cell(problems, record, "Elo", _elo)
    if elo is None and record.values.get("Elo") is None:
        problems.at(record, "Elo", "Elo manquant : l'Elo TORRES de Boîte à Jeux au début de la saison "
                                   "(quatrième critère du classement, et répartition des nouveaux)")
    division = parse_cell(problems, record, "Division", _division)
    group = parse_cell(problems, record, "Groupe", _group)
    status = parse_cell(problems, record, "Statut", torres.Status.parse)
    if problems.since(found) or elo is None:
        return None
    if status is None:
        status = _blank_status(record, name, division, group, defaults)
    player = torres.Player(name, elo, division, group, status)
    violations = torres.seat_violations(player)
    for v in violations:
        problems.at(record, COLUMNS[v.field], v.message)
    if violations:
        return None
    if status is torres.Status.RETURNING:
        player = torres.Player(name, elo, division, None, status)  # a returning player's group is drawn
    return player


def _read_players(book: Book, problems: Problems) -> Roster:
    players: list[torres.Player] = []
    records: dict[str, Record] = {}
    defaults: list[str] = []  # a blank read as its documented default, said at its cell
    clubs: dict[str, str] = {}
    register = read_register(book, JOUEURS, problems)
    for entry in register:
        name, record = entry.name, entry.record
        player = _read_player(name, record, problems, defaults)
        if player is None:
            continue
        records[name] = record
        players.append(player)
        if club := club_of(record):
            clubs[name] = club
    groups: dict[tuple[int, int], list[torres.Player]] = defaultdict(list)
    for p in players:
        if p.group is not None:
            groups[p.division, p.group].append(p)
    for v in torres.pyramid_violations(players):
        if v.index == torres.WHOLE_TABLE:
            problems.add(_joueurs_problem(v.message))
        else:
            problems.at(records[players[v.index].name], COLUMNS[v.field], v.message)
    spellings = duplicate_warnings((p.name, at_cell(records[p.name], "Joueur")) for p in players)
    return Roster(players, records, dict(sorted(groups.items())), clubs, defaults + spellings, register)


def _blank_status(record: Record, name: str, division: int | None, group: int | None, defaults: list[str]) -> torres.Status:
    """A blank Statut: « actif » for a player with a division, else « nouveau », said at its cell (blank is
    documented as « actif », and an active player whose division was forgotten would silently be new)."""
    if division is not None:
        return torres.Status.ACTIVE
    if group is None:
        defaults.append(str(record.problem("Statut", f"Statut vide, ni division ni groupe : {name} est compté "
                                                     "« nouveau » (il entre la saison prochaine en division la plus "
                                                     "basse) ; tapez « nouveau », ou sa division et son groupe")))
    return torres.Status.NEW


def _joueurs_problem(message: str) -> Problem:
    return Problem(JOUEURS.sheet, None, "Division", message)


#: A line of the Matchs table as read: where it was typed, the player, his points, whether he delayed the match.
_Line = tuple[Record, str, float | None, bool]


def _read_matches(book: Book, problems: Problems, roster: Roster) -> tuple[list[MatchRow], list[str]]:
    """The matches of the Matchs table, every line checked against the roster, and the warnings on them."""
    members = {key: {p.name for p in players} for key, players in roster.groups.items()}
    forfeits = {key: sum(p.status is torres.Status.FORFEIT for p in players) for key, players in roster.groups.items()}
    lines: dict[tuple[int, int, int], list[_Line]] = defaultdict(list)
    for record in read_table(book, MATCHS, problems):
        read = _match_line(problems, record, members, forfeits, roster.register)
        if read is not None:
            lines[read[0]].append(read[1])
    matches: list[MatchRow] = []
    for key in sorted(lines):
        match = _played_match(problems, key, lines[key])
        if match is not None:
            matches.append(match)
    return matches, _match_warnings(matches, roster)


def _match_line(problems: Problems, record: Record, members: dict[tuple[int, int], set[str]],
                forfeits: dict[tuple[int, int], int], register: Register) -> tuple[tuple[int, int, int], _Line] | None:
    """One line of the Matchs table: its match (division, group, number) and seat; None, and problems, if wrong."""
    found = problems.mark()
    division = parse_cell(problems, record, "Division", _division)
    group = parse_cell(problems, record, "Groupe", _group)
    number = parse_cell(problems, record, "Match", _match)
    name = register.resolve(problems, record, "Joueur")
    points = parse_cell(problems, record, "Points", _points)
    delayed = parse_cell(problems, record, "Retard", as_yes_no)
    if name is None and as_text(record.values.get("Joueur")) is None:
        problems.at(record, "Joueur", "nom du joueur manquant")
    for header, value in (("Division", division), ("Groupe", group), ("Match", number)):
        if value is None and record.values.get(header) is None:
            problems.at(record, header, f"{header.lower()} manquant{'e' if header == 'Division' else ''}")
    if problems.since(found):
        return None
    key = (division, group)
    if key not in members:
        problems.at(record, "Groupe", f"D{division} groupe {group} : aucun joueur de la table Joueurs n'y joue")
        return None
    if torres.is_fictitious(name):
        if not forfeits[key]:
            problems.at(record, "Joueur", f"joueur fictif « {name} » dans un groupe sans joueur forfait "
                                          "(statut « forfait » dans la table Joueurs)")
            return None
    elif name not in members[key]:
        problems.at(record, "Joueur", f"{name} ne joue pas en D{division} groupe {group} (table Joueurs)")
        return None
    return (division, group, number), (record, name, points, bool(delayed))


def _played_match(problems: Problems, key: tuple[int, int, int], rows: list[_Line]) -> MatchRow | None:
    """A match's lines as a played match; None if not played yet, or (with problems) if its lines are wrong."""
    where = f"le match {key[2]} de D{key[0]} groupe {key[1]}"
    names = Counter(name for _, name, _, _ in rows)
    for record, name, _, _ in rows:
        if names[name] > 1:
            problems.at(record, "Joueur", f"{name} figure {names[name]} fois dans {where}")
    if any(n > 1 for n in names.values()):
        return None
    blank = [r for r, _, points, _ in rows if points is None]
    if len(blank) == len(rows):
        return None  # not played yet (the calendar typed in advance)
    if len(rows) != torres.MATCH_SIZE:
        problems.at(rows[0][0], "Match", f"{where} a {len(rows)} ligne{'s' if len(rows) > 1 else ''} ; "
                                         f"{torres.MATCH_SIZE} attendues (une par joueur)")
        return None
    for record in blank:
        problems.at(record, "Points", f"points manquants : les quatre joueurs d'un match joué ont leurs "
                                      f"points ({where})")
    if blank:
        return None
    return MatchRow(key, [r for r, _, _, _ in rows],
                    [torres.Seat(name, points, delayed) for _, name, points, delayed in rows])


def _match_warnings(matches: list[MatchRow], roster: Roster) -> list[str]:
    warnings = []
    played: Counter = Counter()
    pairs: Counter = Counter()
    for m in matches:
        real = sorted(s.player for s in m.seats if not s.fictitious)
        for name in real:
            played[m.key[:2], name] += 1
        for pair in combinations(real, 2):
            pairs[m.key[:2], pair] += 1
    expected = {key: torres.schedule_counts(len(players)) for key, players in roster.groups.items()}
    for ((d, g), name), count in sorted(played.items()):
        most = expected[d, g][0]
        if count > most:
            warnings.append(f"{name} (D{d} groupe {g}) a {count} matchs ; {most} attendus par saison.")
    for ((d, g), (a, b)), count in sorted(pairs.items()):
        most = expected[d, g][1]
        if count > most:
            warnings.append(f"{a} et {b} (D{d} groupe {g}) se rencontrent {count} fois ; {most} attendues.")
    return warnings


def season_label(parameters: Parameters) -> str:
    """The season's name, as the Saison sheet gives it."""
    return parameters.text("Saison") or ""


@dataclass
class Typed:
    """The input tables as read."""

    parameters: Parameters
    seed: int
    roster: Roster
    matches: list[MatchRow]
    warnings: list[str]


def read(book: Book, problems: Problems) -> Typed:
    """The input tables, every problem added to ``problems``."""
    parameters = read_parameters(book, PARAMETRES, problems)
    seed = season_seed(parameters, problems)
    roster = _read_players(book, problems)
    matches, warnings = _read_matches(book, problems, roster)
    return Typed(parameters, seed, roster, matches, warnings)


def summarise(typed: Typed) -> Summary:
    """The season computed by the core: matches, group standings, next season (:mod:`xlcircuit.torres`)."""
    roster, matches = typed.roster, typed.matches
    scored = {m.key: torres.score_match(m.seats) for m in matches}
    by_group: dict[tuple[int, int], list[list[torres.Seat]]] = defaultdict(list)
    for m in matches:
        by_group[m.key[:2]].append(m.seats)
    standings = {key: torres.group_standings(players, by_group[key]) for key, players in roster.groups.items()}
    newcomers = [p for p in roster.players if p.status is torres.Status.NEW]
    returning = [p for p in roster.players if p.status is torres.Status.RETURNING]
    following = torres.next_season(standings, newcomers, returning, typed.seed)
    return Summary(roster.players, matches, standings, scored, following, typed.seed,
                   roster.warnings + typed.warnings + following.warnings, season_label(typed.parameters),
                   roster.clubs)


# --- writing ---------------------------------------------------------------------------------


def _remark(s: torres.ScoredSeat) -> str | None:
    if s.seat.delayed:
        return "a retardé le match non terminé : aucun point de victoire"
    if s.seat.fictitious:
        return "joueur fictif (forfait) : classé par ses points, ses points de victoire ne comptent pour personne"
    return None


def points_rows(summary: Summary) -> list[list[object]]:
    """The ``Points`` table: every seat of every match played, best place first."""
    rows = []
    for key in sorted(summary.scored):
        seats = sorted(summary.scored[key], key=lambda s: (s.place is None, s.place or 0, -s.seat.points,
                                                          fold(s.seat.player), s.seat.player))
        for s in seats:
            rows.append([*key, s.seat.player, s.seat.points, s.place, s.victory_points, s.difference, _remark(s)])
    return rows


def _moves(summary: Summary) -> dict[str, torres.Movement]:
    return {m.player.name: m for m in summary.next_season.movements}


def _shown_move(m: torres.Movement) -> str:
    return "champion" if m.champion else m.move.value


def _group_rows(table: list[torres.Standing], moves: dict[str, torres.Movement]) -> list[list[object]]:
    """A group's standings under :data:`STANDING_COLUMNS`, by rank."""
    return [[s.rank, s.player.name, s.player.status.value, s.matches, s.victory_points, s.difference, s.points,
             s.player.elo, _shown_move(moves[s.player.name])] for s in table]


def standings_rows(summary: Summary) -> list[list[object]]:
    """The ``Classement général`` table: every group's standings, by division, group and rank."""
    moves = _moves(summary)
    return [[d, g, *row] for (d, g), table in summary.standings.items() for row in _group_rows(table, moves)]


def movements_rows(summary: Summary) -> list[list[object]]:
    """The ``Mouvements`` table: each player's fate, then returning and new players."""
    rows = []
    for m in summary.next_season.movements:
        s = m.standing
        rank = s.rank if s is not None and m.player.group is not None else None
        rows.append([m.player.division if m.player.group is not None else None, m.player.group, rank,
                     m.player.name, s.label if s is not None else m.origin or None, _shown_move(m),
                     m.division, m.group])
    return rows


def _provenance(m: torres.Movement) -> str:
    s = m.standing
    if s is None:
        if m.move is torres.Move.NEW:
            return f"nouveau ({m.origin} par Elo)"
        return f"retour (D{m.player.division} demandée)"
    where = f"D{s.player.division}" + (f" groupe {s.player.group}" if s.player.division > 1 else "")
    return f"{s.position}{'er' if s.position == 1 else 'e'} de {where} : {m.move.value}"


def next_rows(summary: Summary) -> list[list[object]]:
    """The ``Saison suivante`` table: next season's groups."""
    return [[d, g, m.player.name, m.origin, _provenance(m), m.player.elo]
            for (d, g), members in summary.next_season.groups.items() for m in members]


def _highlights(rows: list[list[object]], summary: Summary, club: str | None, player: int) -> dict[int, str]:
    """Standings rows to colour by their move (the last column), or the players (column ``player``) of ``club``."""
    if club is not None:
        return {i: CLUB_COLOUR for i, row in enumerate(rows) if summary.clubs.get(row[player]) == club}
    colour = {"champion": COLOURS["champion"], torres.Move.UP.value: COLOURS["up"],
              torres.Move.RESCUED_UP.value: COLOURS["up"], torres.Move.DOWN.value: COLOURS["down"],
              torres.Move.FORFEIT.value: COLOURS["leaves"], torres.Move.WITHDRAWN.value: COLOURS["leaves"]}
    return {i: colour[row[-1]] for i, row in enumerate(rows) if row[-1] in colour}


def outputs(summary: Summary, club: str | None = None, day: dt.date | None = None) -> list[Output]:
    """The published tables, with their titles; moves coloured, or a club's players highlighted. The group
    tables of the ``Classements`` sheet are :func:`group_outputs` (laid out by :func:`write_groups`)."""
    day = day or dt.date.today()
    standings = standings_rows(summary)
    return [
        Output(GENERAL, GENERAL.columns, standings, title(TITLE, "classement général", summary.season, day),
               _highlights(standings, summary, club, player=3), notes=STANDINGS_NOTES, repeat_columns=4),
        Output(POINTS, POINTS.columns, points_rows(summary), title(TITLE, "points par match", summary.season, day),
               repeat_columns=4),
        Output(MOUVEMENTS, MOUVEMENTS.columns, movements_rows(summary),
               title(TITLE, "mouvements", summary.season, day)),
        Output(SUIVANTE, SUIVANTE.columns, next_rows(summary), title(TITLE, "saison suivante", summary.season, day)),
    ]


STANDINGS_NOTES = (
    "Points de victoire, Différence, Points particuliers : les sommes sur les matchs du joueur (feuille « Points »).",
    "Rang : le plus de points de victoire, puis la plus grande différence, puis le plus de points particuliers,",
    "puis l'Elo le plus bas en début de saison ; couleurs : or champion, vert monte, rouge descend, gris part.",
)


def group_spec(division: int, group: int) -> TableSpec:
    """The table of a group on the ``Classements`` sheet: ``Classement_D2_G1`` for division 2, group 1."""
    return TableSpec(GROUPS_SHEET, f"Classement_D{division}_G{group}", STANDING_COLUMNS)


def group_outputs(summary: Summary, club: str | None = None, day: dt.date | None = None) -> list[Output]:
    """The ``Classements`` sheet: one table per group, by division then group, each under its title
    (« division 2, groupe 1 »; the single group of D1 is « division 1 »), moves coloured as in :func:`outputs`."""
    day = day or dt.date.today()
    moves = _moves(summary)
    tables = []
    for (d, g), table in summary.standings.items():
        rows = _group_rows(table, moves)
        what = f"division {d}" + (f", groupe {g}" if torres.groups_in(d) > 1 else "")
        tables.append(Output(group_spec(d, g), STANDING_COLUMNS, rows, title(TITLE, what, summary.season, day),
                             _highlights(rows, summary, club, player=1)))
    return tables


def _groups_sheet(wb: Workbook) -> Worksheet:
    """The sheet of the group tables: the one holding them (the organiser may have renamed it), else
    ``Classements``, created if missing."""
    for ws in wb.worksheets:
        if any(GROUP_TABLE.fullmatch(name) for name in ws.tables):
            return ws
    return wb[GROUPS_SHEET] if GROUPS_SHEET in wb.sheetnames else wb.create_sheet(GROUPS_SHEET)


def _ours(ws: Worksheet, name: str) -> bool:
    """Whether a table of the groups' sheet is an earlier fill's: a group table, or the single table
    ``Classements`` (the columns of ``Classement général``) that fills wrote there before groups had their own."""
    if GROUP_TABLE.fullmatch(name):
        return True
    if name.casefold() != "classements":
        return False
    min_col, min_row, max_col, _ = table_bounds(ws, name)
    return [ws.cell(min_row, c).value for c in range(min_col, max_col + 1)] == [c.header for c in GENERAL.columns]


def _clear_groups(ws: Worksheet) -> tuple[int, int]:
    """Remove an earlier fill's group tables from ``ws`` (cells, titles, fills, data bars, page breaks);
    returns where the first of the new ones goes: (row, column) of the topmost old one, else A3."""
    areas = remove_tables(ws, [name for name in ws.tables if _ours(ws, name)])
    starts = {area[1] - TITLE_ROWS - 1 for area in areas}  # the row breaks put before their titles
    if any(b.id in starts for b in ws.row_breaks.brk):
        ws.row_breaks.brk = [b for b in ws.row_breaks.brk if b.id not in starts]
    if not areas:
        return TITLE_ROWS + 1, 1
    row, col = min((area[1], area[0]) for area in areas)
    return max(row, TITLE_ROWS + 1), col


def write_groups(wb: Workbook, groups: Sequence[Output], problems: Problems) -> Worksheet:
    """Lay the group tables out afresh: remove the earlier fill's, then stack ``groups`` from where the first
    one stood, each under its title, each group on a page of its own. What else is on the sheet stays; a
    table or title that would cover the organiser's cells is added to ``problems`` (the sheet is then left
    half written: the caller saves nothing)."""
    ws = _groups_sheet(wb)
    row, col = _clear_groups(ws)
    placed = []
    for output in groups:
        output = replace(output, spec=replace(output.spec, sheet=ws.title))
        name = output.spec.name
        heading = ws.cell(row - TITLE_ROWS, col)
        elsewhere = find_table(wb, name)
        if elsewhere is not None:
            problems.add(Problem(elsewhere[0].title, None, None, f"la table « {elsewhere[1].displayName} » porte le "
                                 f"nom d'un classement de groupe de la feuille « {ws.title} » : renommez-la, puis "
                                 "relancez"))
        elif heading.value is not None:
            problems.add(Problem(ws.title, heading.row, None, f"le titre de la table « {name} » doit s'écrire en "
                                 f"{heading.coordinate}, qui n'est pas vide : déplacez ce qui s'y trouve, puis "
                                 "relancez", heading.coordinate))
        elif write_table(wb, output, problems, at=(row, col)) is not None:
            placed.append(output)
        row += TITLE_ROWS + max(len(output.rows), 1) + 1 + GROUP_GAP
    if not problems:
        for index, output in enumerate(placed):
            _style_group(ws, output, new_page=index > 0)
        _print_setup(ws)
    return ws


def _style_group(ws: Worksheet, output: Output, new_page: bool) -> None:
    """A group table's look (:func:`tables.style_table`), with a page break before its title."""
    style_table(ws, output)
    if new_page:
        title_row = table_bounds(ws, output.spec.name)[1] - TITLE_ROWS
        ws.row_breaks.append(Break(id=title_row - 1))


def _print_setup(ws: Worksheet) -> None:
    """Landscape at a fixed scale where a group's nine columns fit a page's width (LibreOffice's fonts are the
    widest): not fit-to-page, which would make Excel ignore the page breaks between groups."""
    ws.page_setup.paperSize = PAPER_A4
    ws.page_setup.orientation = "landscape"
    ws.page_setup.scale = PRINT_SCALE
    ws.sheet_properties.pageSetUpPr.fitToPage = False
    ws.oddFooter.center.text = "Page &P / &N"
    ws.oddFooter.left.text = "&A"


def report(summary: Summary) -> list[str]:
    """What ``check`` and ``fill`` print: the counts, then the top of D1 (French)."""
    groups = len(summary.standings)
    divisions = len({d for d, _ in summary.standings})
    new = sum(p.status is torres.Status.NEW for p in summary.players)
    players = sum(len(t) for t in summary.standings.values())
    lines = [f"{plural(players, 'joueur')} en {plural(divisions, 'division')} et {plural(groups, 'groupe')}, "
             f"{plural(len(summary.matches), 'match joué', 'matchs joués')}, "
             f"{plural(new, 'nouveau joueur', 'nouveaux joueurs')}."]
    top = summary.standings.get((1, 1), [])
    if top:
        lines.append("  Division 1 :")
    for s in top[:SHOWN]:
        vp = decimal_comma(s.victory_points, 1)
        diff = ("+" if s.difference > 0 else "") + format_half_up(s.difference)
        lines.append(f"  {s.rank:>3}. {s.player.name:<28} {vp:>6} PV {diff:>6}")
    return lines


def _groups(book: Book, summary: Summary, written: list[tuple[Output, Worksheet]], problems: Problems) -> None:
    """Each group's table, one under the other on the Classements sheet."""
    write_groups(book.wb, group_outputs(summary, day=dt.date.today()), problems)


#: What the journal and ``xlcircuit diff`` compare: each player's points in each match (and a delay), each rank
#: and victory points.
TRACKED = Tracked(POINTS, ("Division", "Groupe", "Match"), ("Joueur",), ("Points particuliers", "Remarque"), GENERAL,
                  "Joueur", "Rang", "Points de victoire")
STEPS = Steps(FEDERATION, Owned.of((GENERAL, POINTS, MOUVEMENTS, SUIVANTE), pattern=GROUP_TABLE,
                                   pattern_sheet=GROUPS_SHEET), read, summarise, outputs, _groups,
              Journal(TITLE, TRACKED, lambda summary: report(summary)[0]))
compute, fill = STEPS.compute, STEPS.fill


# --- the calendar ----------------------------------------------------------------------------


def schedule(book: Book, seed: int | None = None) -> list[str]:
    """``xlcircuit schedule``: draw every group's matches into the ``Calendrier`` table (and into an empty
    ``Matchs`` table, ready for the points); ``seed`` None takes the season's (``Graine``, else the season's
    name). Returns the French report lines."""
    problems = Problems()
    parameters = read_parameters(book, PARAMETRES, problems)
    default = season_seed(parameters, problems)
    roster = _read_players(book, problems)
    typed = read_table(book, MATCHS, problems)
    if problems:
        raise WorkbookProblems(problems.items)
    seed = default if seed is None else seed
    rows: list[tuple] = []
    notes: list[str] = []
    for (d, g), players in roster.groups.items():
        try:
            matches = torres.schedule_group([p.name for p in players], f"{seed}:{d}:{g}")
        except InvalidInput as exc:
            problems.at(roster.records[players[0].name], "Groupe", f"D{d} groupe {g} : {exc}")
            continue
        note = torres.schedule_note(len(players))
        if note:
            notes.append(f"Attention : D{d} groupe {g} : {note}.")
        for number, match in enumerate(matches, start=1):
            rows += [(d, g, number, seat, name) for seat, name in enumerate(match, start=1)]
    if problems:
        raise WorkbookProblems(problems.items)
    day = dt.date.today()
    write_outputs(book.wb, [Output(CALENDRIER, CALENDRIER.columns, rows,
                                   title(TITLE, "calendrier", season_label(parameters), day))])
    lines = [f"{len(roster.groups)} groupes, {len(rows) // torres.MATCH_SIZE} matchs ; graine du tirage : {seed} "
             f"(la même graine redonne le même calendrier)."]
    if not typed:
        type_rows(book.wb, MATCHS, [(d, g, n, name, None, None) for d, g, n, _, name in rows])
        lines.append(f"La table « {MATCHS.name} » était vide : les matchs y sont tapés, points à remplir.")
    lines += notes
    mark_federation(book.wb, FEDERATION)
    return lines


# --- the explanation of a player's points (xlcircuit explain) -------------------------------------


def explain(summary: Summary, wanted: str) -> list[str]:
    """``xlcircuit explain``: the lines explaining ``wanted``'s points, in French, each result with its rule,
    the last line ending on his published total."""
    everyone = [s for table in summary.standings.values() for s in table]
    player = find_player(wanted, [s.player.name for s in everyone])
    standing = next(s for s in everyone if s.player.name == player)
    lines = [f"{player} — {TITLE} {summary.season}".rstrip(),
             "Chaque match (§2) : points de victoire selon la place aux points particuliers ; différence : ses "
             "points moins ceux de chaque adversaire.", ""]
    vps, diffs = [], []
    for (d, g, m), seats in sorted(summary.scored.items()):
        for s in seats:
            if s.seat.player == player:
                remark = _remark(s)
                lines.append(f"  Division {d}, groupe {g}, match {m} : {decimal_comma(s.seat.points, 0)} points "
                             "particuliers, "
                             f"{nth(s.place) if s.place else 'sans place'} → {decimal_comma(s.victory_points, 1)} PV, "
                             f"différence {signed(s.difference)}" + (f" ({remark})" if remark else ""))
                vps.append(s.victory_points)
                diffs.append(s.difference)
    lines.append("")
    lines.append(f"Points de victoire : {summed(rounded_parts(vps, 1), 1, decimal_comma(standing.victory_points, 1))}")
    lines.append(f"Différence : {summed(diffs, 0, signed(standing.difference))}")
    lines.append(f"Rang : {standing.rank} de la division {standing.player.division}, groupe {standing.player.group} "
                 "(départage : points de victoire, différence, points particuliers, Elo le plus bas).")
    lines.append(f"Points de victoire au classement : {decimal_comma(standing.victory_points, 1)}")
    return lines


# --- season after season ---------------------------------------------------------------------------


def honours(summary: Summary) -> Honours:
    """The palmarès line: « le premier de la D1 est déclaré champion », the D1's next two, and each other
    group's first."""
    champion, second, third = seasons.podium((s.rank, s.player.name) for s in summary.standings.get((1, 1), []))
    firsts = [f"D{d}" + (f" groupe {g}" if torres.groups_in(d) > 1 else "") + f" : {table[0].player.name}"
              for (d, g), table in summary.standings.items() if d > 1 and table and table[0].rank == 1]
    return Honours(summary.season, champion, second, third, ("1ers : " + " ; ".join(firsts)) if firsts else None)


def carry(summary: Summary, register: Register) -> Carry:
    """Next season's Joueurs: the groups of « Saison suivante », returning and new players still waiting, players
    who left with the division they would come back to (:func:`xlcircuit.rules.torres.carry_over`)."""
    carried = torres.carry_over(summary.players, summary.standings, summary.next_season)
    extra: dict[str, dict[str, object]] = {
        c.name: {"Elo": c.elo, "Division": c.division, "Groupe": c.group, "Statut": c.status.value} for c in carried}
    players = [row for row in register_rows(register, extra, [c.name for c in carried]) if row["Joueur"]]
    order = {c.name: i for i, c in enumerate(carried)}
    by_name = {e.typed: e.name for e in register}
    players.sort(key=lambda row: order.get(by_name.get(str(row["Joueur"]), str(row["Joueur"])), len(order)))
    playing = [c for c in carried if c.group is not None]
    left = [c for c in carried if c.status is torres.Status.LEFT]
    waiting = [c for c in carried if c.status in (torres.Status.NEW, torres.Status.RETURNING)]
    divisions = len({c.division for c in playing})
    notes = [f"Divisions et groupes : ceux de « {SUIVANTE.sheet} », {plural(len(playing), 'joueur')} en "
             f"{plural(divisions, 'division')} ; {plural(len(left), 'parti', 'partis')} (forfait ou retrait : statut "
             f"« parti ») ; {plural(len(waiting), 'joueur')} en attente d'une place (nouveau ou retour).",
             "Elo : celui du début de la saison qui s'achève, reporté : tapez celui de Boîte à Jeux au début de la "
             "nouvelle saison (il départage, 4e critère).",
             f"Calendrier : xlcircuit schedule {WORKBOOK} tire les matchs de chaque groupe."]
    return Carry([Parameter("Saison", seasons.next_name(summary.season)), Parameter("Graine", None)], players, notes)


# --- importing results (xlcircuit import) ----------------------------------------------------------------


IMPORTER = Importer(
    lines=MATCHS,
    fields=(
        Field("Division", ("division", "div"), _division, required=True, fact=True),
        Field("Groupe", ("groupe", "group", "gr", "grp"), _group, required=True, fact=True),
        Field("Match", ("match", "n° match", "numero du match", "match n°", "partie"), _match, required=True,
              fact=True),
        Field("Joueur", words.PLAYER, sources.text, required=True, person=True),
        Field("Points", ("points", "points particuliers", "pts", "score", "total"), _points, required=True),
        Field("Retard", ("retard", "en retard", "delayed"), sources.yes),
    ),
    key=("Division", "Groupe", "Match"), what="match", placeholders=("Points",),
    form=Form(
        "feuille d'un match, à envoyer à l'organisateur du championnat",
        facts=("Division", "Groupe", "Match"),
        columns=("Joueur", "Points", "Retard"),
        guide=("Les quatre joueurs du match et leurs points particuliers (au dernier décompte si le match n'est "
               "pas fini) ;",
               "« oui » dans Retard pour qui a retardé un match non terminé. Le joueur fictif d'un forfait s'écrit "
               "Forfait."),
        choices={"Retard": ("oui", "non")},
        widths={"Joueur": 28, "Points": 12, "Retard": 10},
    ),
)

class Torres(Adapter):
    """The torres workbook (see the module's docstring)."""

    info, steps, importer = INFO, STEPS, IMPORTER
    inputs, standings, lines = INPUTS, STANDINGS, LINES
    players, parameters = JOUEURS, PARAMETRES
    player_needs = ("Elo", "Division", "Groupe")

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

    schedules = True

    def schedule(self, book: Book, seed: int | None = None) -> list[str]:
        return schedule(book, seed)

    def group_outputs(self, summary: Summary, club: str | None = None, day: dt.date | None = None) -> list[Output]:
        return group_outputs(summary, club, day)

    def write_groups(self, wb: Workbook, groups: Sequence[Output], problems: Problems) -> None:
        write_groups(wb, groups, problems)


ADAPTER = Torres()
