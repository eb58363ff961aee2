"""Multiplayer Elo of the ranked mode: one game of 2 to 8 players (§1-§6), a history of games
in date order (§7), and the tiers.

Rules: ``docs/regles/elo.md``, our French summary of the page of the « note de classé » scale, which
wins where they differ. A game is all its pairwise duels; each player's change is his K times the
mean, over his n - 1 duels, of result minus expectation, rounded half away from zero.
"""

from __future__ import annotations

import datetime as dt
from bisect import bisect_right
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import MAX_EMAX, MIN_EMIN, Context, Decimal, localcontext
from enum import Enum

from .errors import InvalidInput, Violation
from .limits import ELO_MAX_GAMES, ELO_MAX_RATING, ELO_MAX_TOTAL
from .mechanics import competition_ranks, rank_key, round_half_up
from .text import fold

#: Everyone's first rating (§7) and the floor no rating goes under (§5).
START = 1000
FLOOR = 100
#: Players of one game (the source: "une table en accueille de deux à huit").
MIN_PLAYERS, MAX_PLAYERS = 2, 8
#: The rating gap at which the expectation is 10 to 1 (§2).
SCALE = 400.0
#: K by the number of ranked games played, this one included (§6): up to 5, up to 30, then for ever.
K_STEPS = ((5, 48), (30, 28))
K_LAST = 16
#: Ranked games before a tier is shown (the placement games).
PLACEMENT_GAMES = 5
#: Largest total a game takes (either sign): :mod:`xlcircuit.limits`.
MAX_TOTAL = ELO_MAX_TOTAL
#: Largest starting rating and games already played a player may be given (:mod:`xlcircuit.limits`).
MAX_RATING, MAX_GAMES = ELO_MAX_RATING, ELO_MAX_GAMES


class Tier(Enum):
    """A tier, by its French name, with the rating it starts at (Tiers; Placement before five games)."""

    PLACEMENT = ("Placement", None)
    BRONZE = ("Bronze", FLOOR)
    SILVER = ("Argent", 900)
    GOLD = ("Or", 1050)
    PLATINUM = ("Platine", 1200)
    DIAMOND = ("Diamant", 1350)
    MASTER = ("Maître", 1500)

    def __init__(self, label: str, start: int | None):
        self.label = label
        self.start = start


_RATED = [t for t in Tier if t.start is not None]
_STARTS = [t.start for t in Tier if t.start is not None]  # index for index with _RATED


# --- One game ----------------------------------------------------------------------------------


def expected(rating: float, opponent: float) -> float:
    """§2: the expectation of a duel against ``opponent``: 1 / (1 + 10^((R_opp - R) / 400))."""
    try:
        return 1.0 / (1.0 + float(10.0 ** ((opponent - rating) / SCALE)))
    except OverflowError:  # a gap of more than 120,000 points: no chance at all, to float precision
        return 0.0


def k_factor(games: int) -> int:
    """§6: K of a player's ``games``-th ranked game (this one included): 48 up to 5, 28 up to 30, then 16."""
    if games < 1:
        raise InvalidInput(f"nombre de parties attendu : au moins 1 (la partie jouée comprise) ; trouvé {games}")
    for last, k in K_STEPS:
        if games <= last:
            return k
    return K_LAST


def ranks(totals: Sequence[float], lowest_wins: bool = True) -> list[int]:
    """§1: competition ranks (1, 2, 2, 4) from the totals; the lowest total wins unless told otherwise."""
    return competition_ranks(totals, higher_is_better=not lowest_wins)


def tier(rating: float, games: int) -> Tier:
    """Tiers: Placement before five games, then by rating from Bronze (the floor) to Maître (no ceiling)."""
    if games < PLACEMENT_GAMES:
        return Tier.PLACEMENT
    return _RATED[max(bisect_right(_STARTS, rating) - 1, 0)]


def placement_left(games: int) -> int:
    """Tiers: placement games still to play before a tier is shown."""
    return max(PLACEMENT_GAMES - games, 0)


@dataclass(frozen=True)
class Change:
    """One player's result in one game: his rating before, his K, the mean of his duels'
    expectations and results, the unrounded change, and the change applied (floor included)."""

    rank: int
    before: int
    games: int  # ranked games played, this one included
    k: int
    expected: float  # mean expectation over his n - 1 duels
    score: float  # mean result over his n - 1 duels (1 won, 0.5 tied, 0 lost)
    raw: float  # K * (score - expected), unrounded (§3)
    delta: int  # after - before: rounded (§3), at least one point (§4), floor (§5)
    note: str = ""  # "au moins 1", "plancher"…: why delta is not the rounded raw change

    @property
    def after(self) -> int:
        return self.before + self.delta


#: A raw change this close to a half is recomputed to 50 digits before rounding (``_rounded``).
_NEAR_HALF = 1e-6
_PRECISE = Context(prec=50, Emax=MAX_EMAX, Emin=MIN_EMIN)
#: At 50 digits an exact half is off by far less than this, and no other change comes near it.
_HALF_NOISE = Decimal("1e-30")
NOTE_AT_LEAST_ONE = "au moins 1 point"
NOTE_FLOOR = "plancher"


def _check_game(count: int) -> None:
    if not MIN_PLAYERS <= count <= MAX_PLAYERS:
        raise InvalidInput(f"une partie se joue de {MIN_PLAYERS} à {MAX_PLAYERS} joueurs ; trouvé {count}")


def _rounded(raw: float, k: int, score: float, ratings: Sequence[int], i: int) -> int:
    """§3: player ``i``'s raw change rounded to the nearest integer, halves away from zero.

    Near a half, floats cannot tell which side it is on: an exact -3.5 comes out as -3.4999999999999982,
    and a true 2.4999999999997266 as 2.5. There the change is recomputed to 50 digits.
    """
    if abs(abs(raw) % 1.0 - 0.5) >= _NEAR_HALF:
        return int(round_half_up(raw))
    with localcontext(_PRECISE):
        rating = Decimal(ratings[i])
        expect = sum(1 / (1 + Decimal(10) ** ((Decimal(r) - rating) / Decimal(SCALE)))
                     for j, r in enumerate(ratings) if j != i)
        exact = k * (Decimal(score) - expect) / (len(ratings) - 1)
        return int(round_half_up(float(exact.quantize(_HALF_NOISE))))


def _check_rate_inputs(ratings: Sequence[int], totals: Sequence[float], games: Sequence[int]) -> None:
    """What :func:`rate_game` takes: a game of 3 to 7 (§1), one total and one count per rating, ratings whole and
    at least the floor (§5), totals bounded (:mod:`xlcircuit.limits`)."""
    n = len(ratings)
    _check_game(n)
    if len(totals) != n or len(games) != n:
        raise InvalidInput(f"autant de notes, de totaux et de nombres de parties attendus ; trouvé "
                           f"{n}, {len(totals)} et {len(games)}")
    for rating in ratings:
        if not (rating >= FLOOR and float(rating).is_integer()):
            raise InvalidInput(f"note attendue : un entier d'au moins {FLOOR} (le plancher) ; trouvé {rating}")
    for total in totals:
        if not abs(total) <= MAX_TOTAL:
            raise InvalidInput(f"total attendu : un nombre de -{MAX_TOTAL:.0f} à {MAX_TOTAL:.0f} ; trouvé {total}")


def _duels(ratings: Sequence[int], places: Sequence[int]) -> tuple[list[float], list[float]]:
    """§2: each player's sums over his duels of expectation and of result (1, ½, 0); each duel computed once."""
    n = len(ratings)
    expect = [0.0] * n
    score = [0.0] * n
    for i in range(n):
        r_i, p_i = ratings[i], places[i]
        for j in range(i + 1, n):
            e = expected(r_i, ratings[j])
            expect[i] += e
            expect[j] += 1.0 - e
            p_j = places[j]
            if p_i < p_j:
                score[i] += 1.0
            elif p_i > p_j:
                score[j] += 1.0
            else:
                score[i] += 0.5
                score[j] += 0.5
    return expect, score


def _bounded(delta: int, place: int, places: Sequence[int], rating: int) -> tuple[int, str]:
    """§4 and §5: a change of at least one point for the player alone first (or alone last), and never below
    the floor; with the note saying which applied."""
    first, last = min(places), max(places)
    note = ""
    if place == first and places.count(first) == 1 and delta < 1:  # §4: strictly ahead of everyone
        delta, note = 1, NOTE_AT_LEAST_ONE
    elif place == last and places.count(last) == 1 and delta > -1:  # §4: strictly behind everyone
        delta, note = -1, NOTE_AT_LEAST_ONE
    if rating + delta < FLOOR:  # §5
        delta, note = int(FLOOR - rating), NOTE_FLOOR
    return delta, note


def rate_game(ratings: Sequence[int], totals: Sequence[float], games: Sequence[int],
              lowest_wins: bool = True) -> list[Change]:
    """§1-§6: every player's change in one game, from the ratings before it, in the order given.

    ``games`` is each player's number of ranked games, this one included (his own K).
    """
    _check_rate_inputs(ratings, totals, games)
    n = len(ratings)
    places = ranks(totals, lowest_wins)
    ks = [k_factor(g) for g in games]
    expect, score = _duels(ratings, places)
    changes = []
    for i in range(n):
        raw = ks[i] * (score[i] - expect[i]) / (n - 1)
        delta, note = _bounded(_rounded(raw, ks[i], score[i], ratings, i), places[i], places, ratings[i])
        changes.append(Change(places[i], int(ratings[i]), games[i], ks[i], expect[i] / (n - 1), score[i] / (n - 1),
                              raw, delta, note))
    return changes


# --- A history of games (§7) -------------------------------------------------------------------


@dataclass(frozen=True)
class Game:
    """A game as recorded: its name, its date, and each player's total."""

    name: str
    date: dt.date | None
    players: tuple[str, ...]
    totals: tuple[float, ...]


@dataclass(frozen=True)
class Played:
    """One player's line of a game of the history."""

    game: Game
    player: str
    total: float
    change: Change


@dataclass(frozen=True)
class Standing:
    """A player's line in the standings: rank by rating, rating, games played, tier."""

    rank: int
    player: str
    rating: int
    games: int
    tier: Tier
    last_played: dt.date | None

    @property
    def placement_left(self) -> int:
        return placement_left(self.games)


@dataclass(frozen=True)
class History:
    """Every line of every game in the order played, and the standings after the last game."""

    lines: list[Played]
    standings: list[Standing]


@dataclass(frozen=True)
class Line:
    """One typed line of a game: its name, its date, a player and his total."""

    game: str
    date: dt.date | None
    player: str
    total: float


def _numbered(index: int) -> str:
    return f"n° {index + 1}"


def games_of(lines: Sequence[Line], where: Callable[[int], str] = _numbered) -> tuple[list[Game], list[Violation]]:
    """The games the lines make, in the order of their first lines, and every violation, located on a line:
    a game has one date (field ``date``), a player once (``player``), and 2 to 8 players (``game``, on
    its first line). ``where`` names an earlier line in a message."""
    by_game: dict[str, list[int]] = {}
    for i, line in enumerate(lines):
        by_game.setdefault(line.game, []).append(i)
    games: list[Game] = []
    found: list[Violation] = []
    for name, group in by_game.items():
        first = lines[group[0]]
        seen: dict[str, int] = {}
        for i in group:
            line = lines[i]
            if line.date != first.date:
                dated = f"{first.date:%d/%m/%Y}" if first.date else "sans date"
                found.append(Violation(i, "date", f"la partie « {name} » est datée du {dated} {where(group[0])} : "
                                                  "une partie a une seule date (deux parties différentes ont deux "
                                                  "noms différents)"))
            if line.player in seen:
                found.append(Violation(i, "player", f"{line.player} figure déjà dans la partie « {name} » "
                                                    f"{where(seen[line.player])}"))
            seen.setdefault(line.player, i)
        if not MIN_PLAYERS <= len(group) <= MAX_PLAYERS:
            found.append(Violation(group[0], "game", f"la partie « {name} » a {len(group)} joueur"
                                                     f"{'s' if len(group) > 1 else ''} : de {MIN_PLAYERS} à "
                                                     f"{MAX_PLAYERS} attendus"))
        games.append(Game(name, first.date, tuple(lines[i].player for i in group),
                          tuple(lines[i].total for i in group)))
    return games, found


def play_order(games: Iterable[Game]) -> list[Game]:
    """§7: games in date order, then in the order given (a game without a date comes last)."""
    return sorted(games, key=lambda g: (g.date is None, g.date or dt.date.min))


@dataclass(frozen=True)
class Start:
    """Where a player starts this history from: his rating and the ranked games he has already played.

    « Tout le monde commence à 1000 … puisque rien n'a encore été joué »: a player who has played starts where
    his games left him; K (« 48 pour les parties 1 à 5, 28 de la sixième à la trentième, puis 16 … pour
    toujours ») and the placement (« tant que les cinq ne sont pas jouées ») count the games already played.
    """

    rating: int = START
    games: int = 0


def start_of(rating: object, games: object) -> Start:
    """§5-§7: a player's starting point as typed: a whole rating of at least the floor (100) and at most
    ``MAX_RATING``, and a whole number of games played, 0 to ``MAX_GAMES``; None for either gives its default
    (1000, or 0 games)."""
    if rating is None:
        rating = START
    if not (isinstance(rating, (int, float)) and not isinstance(rating, bool) and float(rating).is_integer()
            and FLOOR <= rating <= MAX_RATING):
        raise InvalidInput(f"Elo attendu : un entier de {FLOOR} (le plancher) à {MAX_RATING} ; trouvé "
                           f"{_typed(rating)}")
    if games is None:
        games = 0
    if not (isinstance(games, (int, float)) and not isinstance(games, bool) and float(games).is_integer()
            and 0 <= games <= MAX_GAMES):
        raise InvalidInput(f"nombre de parties déjà jouées attendu : un entier de 0 à {MAX_GAMES} ; trouvé "
                           f"{_typed(games)}")
    return Start(int(rating), int(games))


def _typed(value: object) -> str:
    """A number as a message quotes it: ``50``, not ``50.0``."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return f"« {value} »" if isinstance(value, str) else str(value)


def run_history(games: Iterable[Game], lowest_wins: bool = True,
                starts: Mapping[str, Start] | None = None) -> History:
    """§7: apply every game in date order, each from the ratings before it; everyone starts at 1000, but a player
    of ``starts``, who starts from his rating and games already played (:class:`Start`) and is in the standings
    even without a game here."""
    starts = starts or {}
    rating: dict[str, int] = {p: s.rating for p, s in starts.items()}
    played: dict[str, int] = {p: s.games for p, s in starts.items()}
    last: dict[str, dt.date | None] = {}
    lines: list[Played] = []
    for game in play_order(games):
        if len(game.players) != len(game.totals):
            raise InvalidInput(f"partie « {game.name} » : autant de joueurs que de totaux attendus")
        if len(set(game.players)) != len(game.players):
            twice = next(p for p in game.players if game.players.count(p) > 1)
            raise InvalidInput(f"partie « {game.name} » : {twice} y figure deux fois")
        _check_game(len(game.players))
        before = [rating.get(p, START) for p in game.players]
        counts = [played.get(p, 0) + 1 for p in game.players]
        changes = rate_game(before, game.totals, counts, lowest_wins)
        for player, total, change in zip(game.players, game.totals, changes):
            rating[player] = change.after
            played[player] = change.games
            last[player] = game.date
            lines.append(Played(game, player, total, change))
    return History(lines, standings(rating, played, last))


def standings(rating: dict[str, int], played: dict[str, int],
              last: dict[str, dt.date | None] | None = None) -> list[Standing]:
    """The standings: everyone by rating, highest first (equal ratings share a rank), with his tier."""
    order = sorted(rating, key=lambda p: (-rank_key(rating[p]), fold(p), p))
    places = competition_ranks([rating[p] for p in order])
    last = last or {}
    return [Standing(place, p, rating[p], played[p], tier(rating[p], played[p]), last.get(p))
            for place, p in zip(places, order)]
