"""The ranked Elo workbook: reads ``Parties`` (and ``Réglages``), writes ``Historique`` and
``Classement``. An adapter: every rule is in :mod:`xlcircuit.elo`."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Callable

from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.datavalidation import DataValidation

from .. import elo
from ..federations import federation
from .examples import load
from ..errors import InvalidInput, WorkbookProblems
from ..text import fold
from .io import Book
from .sheets import (
    CLUBS, finish_workbook, parameters_table, parse_cell, podium_or_club, quiet, read_clubs, spelling_warnings,
    start_workbook, title, top_lines, write_published,
)
from .sheets import at_cell, unmatched_players
from .tables import (
    Column, Output, Problems, Record, TableSpec, as_date, as_number, as_text, forget_own_formats, read_table,
    type_rows,
)

INFO = federation("elo")  # code, French title, template and example file
FEDERATION, TITLE, TEMPLATE, EXAMPLE = INFO.code, INFO.name, INFO.template, INFO.example
DATE_FORMAT = "dd/mm/yyyy"
RATING_FORMAT = "0"
EXPECTATION_FORMAT = "0.0000"  # the source gives expectations to four decimals
RAW_FORMAT = "0.00"
CHANGE_FORMAT = "+0;-0;0"
#: A total beyond this is a typing mistake.
MAX_TOTAL = 1e9

#: Who wins, as the Réglages table says it (any case, accents optional).
LOWEST, HIGHEST = "plus petit total", "plus grand total"
_WINNER_WORDS = {
    True: {"plus petit total", "plus petit", "petit", "le plus petit total", "le plus petit", "moins", "min",
           "minimum", "bas", "plus bas"},
    False: {"plus grand total", "plus grand", "grand", "le plus grand total", "le plus grand", "plus", "max",
            "maximum", "haut", "plus haut"},
}

REGLAGES = parameters_table("Réglages", "Reglages")
JOUEURS = CLUBS
PARTIES = TableSpec("Parties", "Parties", (
    Column("Date", width=12, number_format=DATE_FORMAT),
    Column("Partie", width=14),
    Column("Joueur", width=26),
    Column("Total", width=10),
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

GUIDE = [
    "Mode d'emploi",
    "1. Table Réglages ci-dessus : « Vainqueur » dit qui gagne une partie, « plus petit total » (le jeu du",
    "   règlement) ou « plus grand total ». « Nom » (facultatif) figure dans les titres.",
    "2. Feuille « Parties » : une ligne par joueur et par partie : la date, la partie (un numéro ou un nom,",
    "   le même pour tous ses joueurs), le joueur et son total. De 2 à 8 joueurs par partie ; ex aequo :",
    "   le même total. Les parties sont comptées dans l'ordre des dates, puis dans l'ordre tapé.",
    "3. Feuille « Joueurs » (facultatif) : le club de chaque joueur, pour « xlcircuit share --clubs ».",
    "4. Lancez : xlcircuit fill CE_FICHIER.xlsx",
    "",
    "Tout le monde commence à 1000. Chaque partie est l'ensemble de ses duels ; la variation d'un joueur est",
    "K × (obtenu - attendu), arrondie au plus proche (demis vers le haut) ; K vaut 48 pour les parties 1 à 5,",
    "28 jusqu'à la 30e, puis 16. Le seul premier gagne au moins 1 point, le seul dernier en perd au moins 1 ;",
    "aucune note ne descend sous 100. Paliers : Bronze, Argent (900), Or (1050), Platine (1200),",
    "Diamant (1350), Maître (1500), annoncés après les cinq parties de placement.",
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


def _read_settings(book: Book, problems: Problems) -> tuple[bool, str]:
    lowest_wins, name = True, ""
    for record in read_table(book, REGLAGES, problems):
        key = fold(str(record.values["Paramètre"] or ""))
        if key == "vainqueur":
            parsed = parse_cell(problems, record, "Valeur", winner_rule)
            lowest_wins = True if parsed is None else parsed
        elif key == "nom":
            name = as_text(record.values["Valeur"]) or ""
        elif key:
            problems.at(record, "Paramètre", f"paramètre « {record.values['Paramètre']} » inconnu : "
                                             "« Vainqueur » ou « Nom » attendu")
    return lowest_wins, name


def _total(value: object) -> float | None:
    total = as_number(value, "total (un nombre)")
    if total is not None and abs(total) > MAX_TOTAL:
        raise InvalidInput(f"total entre -{MAX_TOTAL:.0f} et {MAX_TOTAL:.0f} attendu ; trouvé {value}")
    return total


def _read_lines(book: Book, problems: Problems) -> list[Entry]:
    entries = []
    for record in read_table(book, PARTIES, problems):
        found = len(problems.items)
        date = parse_cell(problems, record, "Date", as_date)
        if date is None and len(problems.items) == found:
            problems.at(record, "Date", "date manquante : chaque partie a sa date (jj/mm/aaaa)")
        game = as_text(record.values["Partie"])
        if game is None:
            problems.at(record, "Partie", "partie manquante : un numéro ou un nom, le même pour tous ses joueurs")
        player = as_text(record.values["Joueur"])
        if player is None:
            problems.at(record, "Joueur", "nom du joueur manquant")
        total = parse_cell(problems, record, "Total", _total)
        if total is None and record.values.get("Total") is None:
            problems.at(record, "Total", "total manquant : le score du joueur dans cette partie")
        if len(problems.items) == found:
            entries.append(Entry(record, date, game, player, total))
    return entries


def _games(entries: list[Entry], problems: Problems) -> list[elo.Game]:
    """The games in the order typed (the first line of each), with the checks a single line cannot make."""
    by_game: dict[str, list[Entry]] = defaultdict(list)
    for entry in entries:
        by_game[entry.game].append(entry)
    games = []
    for name, lines in by_game.items():
        first = lines[0]
        seen: dict[str, Entry] = {}
        for entry in lines:
            if entry.date != first.date:
                problems.at(entry.record, "Date", f"la partie « {name} » est datée du {first.date:%d/%m/%Y} "
                                                  f"ligne {first.record.row} : une partie a une seule date "
                                                  "(deux parties différentes ont deux noms différents)")
            if entry.player in seen:
                problems.at(entry.record, "Joueur", f"{entry.player} figure déjà dans la partie « {name} » "
                                                    f"ligne {seen[entry.player].record.row}")
            seen.setdefault(entry.player, entry)
        if not elo.MIN_PLAYERS <= len(lines) <= elo.MAX_PLAYERS:
            problems.at(first.record, "Partie", f"la partie « {name} » a {len(lines)} joueur"
                                                f"{'s' if len(lines) > 1 else ''} : de {elo.MIN_PLAYERS} à "
                                                f"{elo.MAX_PLAYERS} attendus")
        games.append(elo.Game(name, first.date, tuple(e.player for e in lines), tuple(e.total for e in lines)))
    return games


def _warnings(entries: list[Entry], clubs: dict[str, str]) -> list[str]:
    warnings = spelling_warnings((entry.player, at_cell(entry.record, "Joueur")) for entry in entries)
    return warnings + unmatched_players(clubs, {entry.player for entry in entries}, "aucune partie")


def compute(book: Book, progress: Callable[[str], None] = quiet) -> Summary:
    """Read and check the input tables, then play the history; every problem is reported at once."""
    progress("lecture")
    forget_own_formats(book, (HISTORIQUE, CLASSEMENT))
    problems = Problems()
    lowest_wins, name = _read_settings(book, problems)
    clubs = read_clubs(book, JOUEURS, problems)
    entries = _read_lines(book, problems)
    games = _games(entries, problems)
    if problems:
        raise WorkbookProblems(problems.items)
    progress("calcul")
    history = elo.run_history(games, lowest_wins)
    return Summary(games, history, lowest_wins, name, _warnings(entries, clubs), clubs)


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


def outputs(summary: Summary, club: str | None = None, day: dt.date | None = None) -> list[Output]:
    """The published tables, with their titles; the podium highlighted, or a club's players."""
    day = day or dt.date.today()
    standings = standings_rows(summary)
    return [
        Output(HISTORIQUE, HISTORIQUE.columns, history_rows(summary),
               _title("historique des parties", summary.name, day)),
        Output(CLASSEMENT, CLASSEMENT.columns, standings, _title("classement", summary.name, day),
               podium_or_club(standings, summary.clubs, club)),
    ]


def report(summary: Summary) -> list[str]:
    """What ``check`` and ``fill`` print: the counts, then the top of the standings (French)."""
    standings = summary.history.standings
    placement = sum(1 for s in standings if s.tier is elo.Tier.PLACEMENT)
    winner = LOWEST if summary.lowest_wins else HIGHEST
    lines = [f"{len(summary.games)} parties, {len(standings)} joueurs ({placement} en placement) ; "
             f"le {winner} gagne."]
    return lines + top_lines(standings, SHOWN, CLASSEMENT.sheet,
                             lambda s: f"  {s.rank:>3}. {s.player:<28} {s.rating:>6}  {tier_text(s)}")


def fill(book: Book, progress: Callable[[str], None] = quiet) -> Summary:
    """Play the history and rewrite the published tables (in memory)."""
    summary = compute(book, progress)
    write_published(book, FEDERATION, summary, outputs, progress)
    return summary

