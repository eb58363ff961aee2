"""The ranked Elo workbook: reads ``Parties`` (and ``Réglages``), writes ``Historique`` and
``Classement``. An adapter: every rule is in :mod:`xlcircuit.elo`."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.datavalidation import DataValidation

from ..rules import elo, seasons
from ..rules.errors import InvalidInput
from ..rules.text import fold, in_words
from ..workbook.adapter import Adapter
from ..workbook.cells import as_date, as_number, as_text
from ..workbook.journal import Journal, Tracked
from ..workbook.procedure import Steps
from ..workbook.read import read_table
from ..workbook.register import Register, duplicate_warnings, players_table, read_register, unmatched_warnings
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
)
from ..workbook.sources import SOURCE, Field, Form, Importer
from ..workbook.sources import mapping as sources
from ..workbook.sources import words as headings
from ..workbook.spec import Column, Output, Problems, Record, TableSpec
from ..workbook.wording import (
    count,
    decimal_comma,
    find_player,
    nth,
    season_years,
    signed,
    summed,
    title,
    top_lines,
    when,
)
from ..workbook.write import type_rows
from ..xlsx import Book, Owned
from . import federation
from .examples import load

INFO = federation("elo")  # code, French title, template and example file
FEDERATION, TITLE, TEMPLATE, EXAMPLE = INFO.code, INFO.name, INFO.template, INFO.example
DATE_FORMAT = "dd/mm/yyyy"
RATING_FORMAT = "0"
EXPECTATION_FORMAT = "0.0000"  # the source gives expectations to four decimals
RAW_FORMAT = "0.00"
CHANGE_FORMAT = "+0;-0;0"
#: A total beyond this is a typing mistake (:mod:`xlcircuit.limits`).
MAX_TOTAL = elo.MAX_TOTAL

#: Who wins, as the Réglages table says it (any case, accents optional).
LOWEST, HIGHEST = "plus petit total", "plus grand total"
_WINNER_WORDS = {
    True: {"plus petit total", "plus petit", "petit", "le plus petit total", "le plus petit", "moins", "min",
           "minimum", "bas", "plus bas"},
    False: {"plus grand total", "plus grand", "grand", "le plus grand total", "le plus grand", "plus", "max",
            "maximum", "haut", "plus haut"},
}

REGLAGES = parameters_table("Réglages", "Reglages")
#: The register: each player's club, and where he starts from (his rating and the ranked games he has played,
#: carried over from last season or typed by hand; blank: 1000 and none).
JOUEURS = players_table(Column("Club", width=30), Column("Elo", required=False, width=8, number_format=RATING_FORMAT),
                        Column("Parties", required=False, width=9), required=False)
PARTIES = TableSpec("Parties", "Parties", (
    Column("Date", width=12, number_format=DATE_FORMAT),
    Column("Partie", width=14),
    Column("Joueur", width=26),
    Column("Total", width=10),
    Column(SOURCE, required=False, width=30),  # where an imported line came from (xlcircuit import)
))
HISTORIQUE = TableSpec("Historique", "Historique", (
    Column("Date", width=12, number_format=DATE_FORMAT),
    Column("Partie", width=14),
    Column("Joueur", width=26),
    Column("Total", width=9),
    Column("Rang", width=7),
    Column("Elo avant", width=10, number_format=RATING_FORMAT),
    Column("Partie n°", width=9),
    Column("K", width=6),
    Column("Attendu", width=10, number_format=EXPECTATION_FORMAT),
    Column("Obtenu", width=10, number_format=EXPECTATION_FORMAT),
    Column("Écart non arrondi", width=11, number_format=RAW_FORMAT),
    Column("Variation", width=10, number_format=CHANGE_FORMAT),
    Column("Elo après", width=10, number_format=RATING_FORMAT),
    Column("Remarque", width=28),
))
CLASSEMENT = TableSpec("Classement", "Classement", (
    Column("Rang", width=7),
    Column("Joueur", width=26),
    Column("Elo", width=9, number_format=RATING_FORMAT),
    Column("Parties", width=9),
    Column("Palier", width=22),
    Column("Dernière partie", width=14, number_format=DATE_FORMAT),
))

(_K_GAMES, _K_FIRST), (_K_UNTIL, _K_SECOND) = elo.K_STEPS
_TIERS = [t.label if t.start == elo.FLOOR else f"{t.label} ({t.start})" for t in elo.Tier if t.start is not None]
#: The guide states the rule's numbers from the core's constants (start, K, floor, tiers, placement).
GUIDE = [
    "Mode d'emploi",
    "1. Table Réglages ci-dessus : « Vainqueur » dit qui gagne une partie, « plus petit total » (le jeu du",
    "   règlement) ou « plus grand total ». « Nom » (facultatif) figure dans les titres.",
    "2. Feuille « Parties » : une ligne par joueur et par partie : la date, la partie (un numéro ou un nom,",
    f"   le même pour tous ses joueurs), le joueur et son total. De {elo.MIN_PLAYERS} à {elo.MAX_PLAYERS} joueurs "
    "par partie ; ex aequo :",
    "   le même total. Les parties sont comptées dans l'ordre des dates, puis dans l'ordre tapé.",
    "3. Feuille « Joueurs » (facultatif) : le club de chaque joueur (pour « xlcircuit share --clubs ») ; Elo et",
    "   Parties : la note d'un joueur qui a déjà joué et son nombre de parties classées (vide : 1000 et 0) ;",
    "   Identifiant et Alias (autres orthographes, séparées par « ; ») : lus comme son nom.",
    *fill_step(4),
    "",
    f"Tout le monde commence à {elo.START} (ou à l'Elo de la table Joueurs). Chaque partie est l'ensemble de ses",
    "duels ; la variation d'un joueur est K × (obtenu - attendu), arrondie au plus proche (demis vers le haut) ;",
    f"K vaut {_K_FIRST} pour les parties 1 à {_K_GAMES}, {_K_SECOND} jusqu'à la {_K_UNTIL}e, puis {elo.K_LAST} (parties "
    "déjà jouées comprises).",
    f"Le seul premier gagne au moins 1 point, le seul dernier en perd au moins 1 ; aucune note ne descend sous {elo.FLOOR}.",
    f"Paliers : {', '.join(_TIERS[:4])},",
    f"{', '.join(_TIERS[4:])}, annoncés après les {in_words(elo.PLACEMENT_GAMES)} parties de placement.",
    "",
    "Les tables Historique et Classement sont réécrites à chaque remplissage : n'y tapez rien.",
    "Vos autres feuilles, colonnes, formules et mises en forme sont conservées.",
]


@dataclass
class Entry:
    """A line of the Parties table: where it was typed and what it says."""

    record: Record
    date: dt.date
    game: str
    player: str
    total: float


@dataclass
class Summary:
    """What a check or a fill found: the history, the settings, and warnings for the organiser."""

    games: list[elo.Game]
    history: elo.History
    lowest_wins: bool = True
    name: str = ""
    warnings: list[str] = field(default_factory=list)
    clubs: dict[str, str] = field(default_factory=dict)  # player -> club, from the Joueurs table
    starts: dict[str, elo.Start] = field(default_factory=dict)  # where the players of the Joueurs table start


#: The tables the organiser fills in (named by ``xlcircuit new``).
INPUTS = (PARTIES,)
#: The main standings (shared as PDF, highlighted per club) and the per-result lines (per club).
STANDINGS, LINES = CLASSEMENT, HISTORIQUE
SHOWN = 10  # standings lines printed after a fill


# --- the template ----------------------------------------------------------------------------


def new_workbook() -> Workbook:
    """A fresh, empty ranked-Elo workbook."""
    wb = start_workbook(TITLE, REGLAGES, [("Nom", None), ("Vainqueur", LOWEST)], (JOUEURS, PARTIES), GUIDE, 8)
    winner = DataValidation(type="list", formula1=f'"{LOWEST},{HIGHEST}"', allow_blank=True)
    winner.add("B5")  # the Vainqueur line
    wb[REGLAGES.sheet].add_data_validation(winner)
    finish_workbook(wb, FEDERATION, [(HISTORIQUE, _title("historique des parties")),
                                     (CLASSEMENT, _title("classement"))])
    add_season_sheets(wb, TITLE)
    return wb


def put_example(wb: Workbook) -> None:
    """Type the bundled example season into the input tables."""
    type_rows(wb, REGLAGES, [("Nom", load("elo").NOM), ("Vainqueur", load("elo").VAINQUEUR)])
    type_rows(wb, JOUEURS, load("elo").JOUEURS)
    type_rows(wb, PARTIES, load("elo").PARTIES)


# --- reading ---------------------------------------------------------------------------------


def winner_rule(value: object) -> bool:
    """``Vainqueur``: True when the lowest total wins (also for a blank: the source's game)."""
    key = fold(str(value)) if value is not None else ""
    if not key:
        return True
    for lowest, words in _WINNER_WORDS.items():
        if key in words:
            return lowest
    raise InvalidInput(f"« {LOWEST} » ou « {HIGHEST} » attendu ; trouvé « {value} »")


def _read_settings(book: Book, problems: Problems) -> tuple[bool, str, list[str]]:
    """Vainqueur (the lowest total wins when blank, with a warning at its cell: it decides every rank) and
    Nom; no other setting. Returns them and the warnings for the defaults taken."""
    settings = read_parameters(book, REGLAGES, problems, known=("Vainqueur", "Nom"))
    lowest_wins = settings.parsed("Vainqueur", winner_rule, problems)
    defaults = []
    if settings.value("Vainqueur") is None:
        defaults.append(str(settings.problem("Vainqueur", f"Vainqueur vide : « {LOWEST} » par défaut (le plus petit "
                                                          f"total gagne, comme au jeu du règlement) ; tapez « {LOWEST} » "
                                                          f"ou « {HIGHEST} »")))
    return lowest_wins is None or lowest_wins, settings.text("Nom") or "", defaults


def _total(value: object) -> float | None:
    total = as_number(value, "total (un nombre)")
    if total is not None and abs(total) > MAX_TOTAL:
        raise InvalidInput(f"total entre -{MAX_TOTAL:.0f} et {MAX_TOTAL:.0f} attendu ; trouvé {value}")
    return total


def _read_players(book: Book, problems: Problems) -> tuple[Register, dict[str, elo.Start]]:
    """The register, and where each player of it with an Elo or a number of games starts from (§6, §7)."""
    register = read_register(book, JOUEURS, problems)
    starts: dict[str, elo.Start] = {}
    for entry in register:
        values = entry.record.values
        if values.get("Elo") is None and values.get("Parties") is None:
            continue
        rating = parse_cell(problems, entry.record, "Elo", _whole, "Elo")
        games = parse_cell(problems, entry.record, "Parties", _whole, "nombre de parties")
        mark = problems.mark()
        try:
            starts[entry.name] = elo.start_of(rating, games)
        except InvalidInput as exc:
            problems.at(entry.record, "Elo" if "Elo" in str(exc) else "Parties", str(exc))
        if problems.since(mark):
            starts.pop(entry.name, None)
    return register, starts


def _whole(value: object, what: str) -> float | None:
    """A number as typed (the core checks it is whole and within bounds)."""
    return as_number(value, what)


def _read_lines(book: Book, problems: Problems, register: Register) -> list[Entry]:
    entries = []
    for record in read_table(book, PARTIES, problems):
        found = problems.mark()
        date = parse_cell(problems, record, "Date", as_date)
        if date is None and not problems.since(found):
            problems.at(record, "Date", "date manquante : chaque partie a sa date (jj/mm/aaaa)")
        game = as_text(record.values["Partie"])
        if game is None:
            problems.at(record, "Partie", "partie manquante : un numéro ou un nom, le même pour tous ses joueurs")
        player = register.resolve(problems, record, "Joueur")
        if player is None and as_text(record.values.get("Joueur")) is None:
            problems.at(record, "Joueur", "nom du joueur manquant")
        total = parse_cell(problems, record, "Total", _total)
        if total is None and record.values.get("Total") is None:
            problems.at(record, "Total", "total manquant : le score du joueur dans cette partie")
        if not problems.since(found):
            entries.append(Entry(record, date, game, player, total))
    return entries


#: The column of each field the core's checks locate a violation on (:class:`xlcircuit.errors.Violation`).
COLUMNS = {"date": "Date", "game": "Partie", "player": "Joueur", "total": "Total"}


def _games(entries: list[Entry], problems: Problems) -> list[elo.Game]:
    """The games in the order typed (the first line of each), as the core makes and checks them."""
    games, violations = elo.games_of([elo.Line(e.game, e.date, e.player, e.total) for e in entries],
                                     lambda i: f"ligne {entries[i].record.row}")
    for v in violations:
        problems.at(entries[v.index].record, COLUMNS[v.field], v.message)
    return games


def _warnings(entries: list[Entry], register: Register, starts: dict[str, elo.Start]) -> list[str]:
    warnings = duplicate_warnings((entry.player, at_cell(entry.record, "Joueur")) for entry in entries)
    return warnings + unmatched_warnings(register, {entry.player for entry in entries} | set(starts), "aucune partie")


@dataclass
class Typed:
    """The input tables as read."""

    lowest_wins: bool
    name: str
    register: Register
    starts: dict[str, elo.Start]
    entries: list[Entry]
    games: list[elo.Game]
    defaults: list[str] = field(default_factory=list)  # a blank setting read as its default, said where


def read(book: Book, problems: Problems) -> Typed:
    """The input tables, every problem added to ``problems``."""
    lowest_wins, name, defaults = _read_settings(book, problems)
    register, starts = _read_players(book, problems)
    entries = _read_lines(book, problems, register)
    return Typed(lowest_wins, name, register, starts, entries, _games(entries, problems), defaults)


def summarise(typed: Typed) -> Summary:
    """The history played by the core (:func:`xlcircuit.elo.run_history`)."""
    history = elo.run_history(typed.games, typed.lowest_wins, typed.starts)
    return Summary(typed.games, history, typed.lowest_wins, typed.name,
                   typed.defaults + _warnings(typed.entries, typed.register, typed.starts), typed.register.clubs(),
                   typed.starts)


# --- writing ---------------------------------------------------------------------------------


def history_rows(summary: Summary) -> list[list[object]]:
    """The ``Historique`` table: each player of each game, in the order the games were played."""
    rows: list[list[object]] = []
    for line in summary.history.lines:
        c = line.change
        rows.append([line.game.date, line.game.name, line.player, line.total, c.rank, c.before, c.games, c.k,
                     c.expected, c.score, c.raw, c.delta, c.after, c.note or None])
    return rows


def tier_text(standing: elo.Standing) -> str:
    """A tier as the standings show it: its name, or the placement games still to play."""
    if standing.tier is elo.Tier.PLACEMENT:
        left = standing.placement_left
        return f"Placement (encore {left} partie{'s' if left > 1 else ''})"
    return standing.tier.label


def standings_rows(summary: Summary) -> list[list[object]]:
    """The ``Classement`` table: rank by rating, player, rating, games, tier, last game."""
    return [[s.rank, s.player, s.rating, s.games, tier_text(s), s.last_played] for s in summary.history.standings]


def _title(what: str, name: str = "", day: dt.date | None = None) -> str:
    """A published table's title: the federation's, with the ranking's name when it has one."""
    return title(f"{TITLE} : {name}" if name else TITLE, what, day=day)


STANDINGS_NOTES = (
    "Elo : 1000 au départ (ou celui de la table Joueurs), puis après chaque partie l'Elo d'avant plus la variation "
    "K × (obtenu - attendu), arrondie ;",
    "aucune note sous 100. Le détail de chaque partie : feuille « Historique ». Palier : annoncé après les "
    "cinq parties de placement.",
)


def outputs(summary: Summary, club: str | None = None, day: dt.date | None = None) -> list[Output]:
    """The published tables, with their titles; the podium highlighted, or a club's players."""
    day = day or dt.date.today()
    standings = standings_rows(summary)
    return [
        Output(HISTORIQUE, HISTORIQUE.columns, history_rows(summary),
               _title("historique des parties", summary.name, day), repeat_columns=3),
        Output(CLASSEMENT, CLASSEMENT.columns, standings, _title("classement", summary.name, day),
               podium_or_club(standings, summary.clubs, club), notes=STANDINGS_NOTES, repeat_columns=2),
    ]


def report(summary: Summary) -> list[str]:
    """What ``check`` and ``fill`` print: the counts, then the top of the standings (French)."""
    standings = summary.history.standings
    placement = sum(1 for s in standings if s.tier is elo.Tier.PLACEMENT)
    winner = LOWEST if summary.lowest_wins else HIGHEST
    lines = [f"{count(len(summary.games), 'partie')}, {count(len(standings), 'joueur')} ({placement} en placement) ; "
             f"le {winner} gagne."]
    return lines + top_lines(standings, SHOWN, CLASSEMENT.sheet,
                             lambda s: f"  {s.rank:>3}. {s.player:<28} {s.rating:>6}  {tier_text(s)}")


#: What the journal and ``xlcircuit diff`` compare: each player's total in each game, each rank and rating.
TRACKED = Tracked(HISTORIQUE, ("Partie",), ("Joueur",), ("Total",), CLASSEMENT, "Joueur", "Rang", "Elo")
STEPS = Steps(FEDERATION, Owned.of((HISTORIQUE, CLASSEMENT)), read, summarise, outputs,
              journal=Journal(TITLE, TRACKED, lambda summary: report(summary)[0]))
compute, fill = STEPS.compute, STEPS.fill


# --- the explanation of a player's points (xlcircuit explain) -------------------------------------


def explain(summary: Summary, wanted: str) -> list[str]:
    """``xlcircuit explain``: the lines explaining ``wanted``'s points, in French, each result with its rule,
    the last line ending on his published total."""
    history = summary.history
    player = find_player(wanted, [s.player for s in history.standings])
    standing = next(s for s in history.standings if s.player == player)
    start = summary.starts.get(player, elo.Start())
    played = count(start.games, "partie classée", "parties classées") + f" déjà jouée{'s' if start.games > 1 else ''}"
    begun = (f"Départ : {start.rating}, de la table Joueurs ({played})" if player in summary.starts
             else f"Départ : {elo.START}")
    lines = [f"{player} — {TITLE}{' : ' + summary.name if summary.name else ''}",
             f"{begun}. Chaque partie : variation = K × (obtenu - attendu), arrondie au plus "
             "proche ; le seul premier gagne au moins 1 point, le seul dernier en perd au moins 1 ; jamais sous 100.",
             ""]
    deltas = []
    for line in history.lines:
        if line.player != player:
            continue
        c = line.change
        players = sum(1 for other in history.lines if other.game is line.game)
        note = f" ({c.note})" if c.note else ""
        lines.append(f"  {when(line.game.date)}  partie {line.game.name} : {nth(c.rank)} sur {players} ; Elo "
                     f"{c.before} ; partie n° {c.games}, K = {c.k} ; attendu {decimal_comma(c.expected, 4)}, obtenu "
                     f"{decimal_comma(c.score, 4)} → {decimal_comma(c.raw, 2)} → {signed(c.delta)}{note} ; Elo {c.after}")
        deltas.append(c.delta)
    lines.append("")
    lines.append(f"Somme : {summed([start.rating] + deltas, 0, str(standing.rating))}")
    lines.append(f"Rang : {standing.rank} ; palier : {tier_text(standing)}.")
    lines.append(f"Elo au classement : {standing.rating}")
    return lines


# --- season after season ---------------------------------------------------------------------------


def season_name(summary: Summary) -> str:
    """The ranking's name (« Nom »), else the years of its games."""
    return summary.name or season_years(g.date for g in summary.games)


def honours(summary: Summary) -> Honours:
    """The palmarès line: the first three of the standings by rating."""
    return Honours(season_name(summary), *seasons.podium((s.rank, s.player) for s in summary.history.standings))


def carry(summary: Summary, register: Register) -> Carry:
    """Next workbook: everyone starts where this one left him, his rating and ranked games played (K and the
    placement count them: :class:`xlcircuit.rules.elo.Start`); the same winner rule, the name a year on."""
    standings = summary.history.standings
    extra: dict[str, dict[str, object]] = {s.player: {"Elo": s.rating, "Parties": s.games} for s in standings}
    players = register_rows(register, extra, [s.player for s in standings])
    name = seasons.next_name(summary.name) or summary.name or None
    winner = LOWEST if summary.lowest_wins else HIGHEST
    notes = [f"Elo et Parties : la note et le nombre de parties classées de {count(len(extra), 'joueur')} à la fin "
             f"de ce classeur (le coefficient K et le placement en tiennent compte)."]
    return Carry([Parameter("Nom", name), Parameter("Vainqueur", winner)], players, notes)


# --- importing results (xlcircuit import) ----------------------------------------------------------------


IMPORTER = Importer(
    lines=PARTIES,
    fields=(
        Field("Date", headings.DATE, as_date, required=True, fact=True),
        Field("Partie", ("partie", "game", "n° partie", "numero de partie", "game id", "match", "table"), sources.text,
              fact=True),
        Field("Joueur", headings.PLAYER, sources.text, required=True, person=True),
        Field("Total", ("total", "score", "points", "pts", "resultat", "result", "total points"), _total,
              required=True),
    ),
    key=("Date", "Partie"), named="Partie", what="partie",
    players=JOUEURS, player_fields=(Field("Club", headings.CLUB, sources.text),),
    form=Form(
        "parties d'une rencontre, à envoyer au responsable du classement",
        facts=("Date",),
        columns=("Partie", "Joueur", "Total"),
        guide=("Une ligne par joueur et par partie ; la partie (un numéro ou un nom) est la même pour tous ses "
               f"joueurs, de {elo.MIN_PLAYERS} à {elo.MAX_PLAYERS}.",
               "Ex aequo, le même total. Une partie jouée un autre jour que la date ci-dessous, sur une autre feuille."),
        widths={"Joueur": 28, "Partie": 14, "Total": 12},
    ),
)

class Elo(Adapter):
    """The elo workbook (see the module's docstring)."""

    info, steps, importer = INFO, STEPS, IMPORTER
    inputs, standings, lines = INPUTS, STANDINGS, LINES
    players, parameters = JOUEURS, REGLAGES

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


ADAPTER = Elo()
