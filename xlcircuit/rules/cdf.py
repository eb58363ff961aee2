"""Championnat de France de Diplomatie (2012 rules): Super Pastis game scores (§IV.1), round,
qualifying and final scores (§II.2b4, §IV.2, §IV.3a), the top board (§III), the individual
ranking with its tie-breakers (§IV.3b), teams (§IV.5), vote awards (§IV.6) and best countries (§IV.7).

Rules: ``docs/regles/cdf.md``, our French summary of the 2012 rules of the Championnat de France de
Diplomatie, which wins where they differ. Nothing is rounded here; rounding is for display only.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter, defaultdict
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from functools import partial
from typing import Any

from .errors import InvalidInput, Violation, raise_first
from .limits import CDF_MAX_BONUS
from .mechanics import competition_ranks_by, rank_key, weighted_best
from .text import fold

#: Supply centres on the map, centres of a solo, score of a solo ("le double pastis") (§IV.1).
CENTRES = 34
SOLO_CENTRES = 18
SOLO_SCORE = 102.0
#: A game lasts seven years (1901-1907) unless ended earlier by a unanimous vote (§II.4a, §II.4g).
YEARS = 7
FIRST_YEAR = 1901
PLAYERS = 7
#: No solo (§IV.1): points per centre, for still having a centre, bonus of a single leader, of x tied leaders.
PER_CENTRE = 2.0
SURVIVOR_POINTS = 10.0
LEADER_BONUS = 51.0
TIED_LEADERS_BONUS = 48.0
#: Bonus of a player 1, 2, 3 centres behind the leader(s) (divided by x when x are tied first).
PURSUER_BONUS = {1: 12.0, 2: 6.0, 3: 3.0}
#: Simultaneous boards (§II.2b4): best 80% and other 40%, or best 100% and other 0%.
SIMULTANEOUS = (0.8, 0.4)
MAX_SIMULTANEOUS = 2  # §II.2b3
#: Rounds: 1-3 qualify (§I), 4 is the final round with the top board (§III).
ROUNDS = 4
QUALIFYING_ROUNDS = 3
#: Rounds 1 and 2 are played on Saturday (§I): top-board steps 1-3 and the "samedi soir" ranking are decided
#: that evening, before round 3, so their tie-breakers see these rounds only (§III.1).
SATURDAY_ROUNDS = 2
SATURDAY_STEPS = 3
TEAM_ROUND = 2  # §IV.5b
#: Weights of the round scores, best first (§IV.2 qualifying with three rounds; §IV.3a final).
QUALIFYING_WEIGHTS = (1.0, 0.8, 0.4)
FINAL_WEIGHTS = {3: (1.0, 1.0, 0.8), 4: (1.0, 1.0, 0.8, 0.4)}
TOP_BOARD_BONUS = 0.15  # §III.4
TOP_BOARD_SIZE = 7
MAX_TEAM = 3  # §IV.5a
#: A player's other bonus (§IV.3a), either sign: beyond it, a typing mistake (:mod:`xlcircuit.limits`).
MAX_BONUS = CDF_MAX_BONUS
#: Vote ballots (§IV.6b2): points of the first and the second named; awards count the best three games.
BALLOTS = {"3+1": (3, 1), "2+2": (2, 2)}
BEST_GAMES = 3


#: A ranking key: a tuple compared item by item, the most important first.
Key = tuple[Any, ...]

#: How a message names a blank cell ("… attendu ; trouvé une cellule vide").
BLANK = "une cellule vide"


def _found(text: object) -> str:
    """A typed value as a message shows it: a blank cell is named as such."""
    return BLANK if text is None or not str(text).strip() else f"« {text} »"


class Power(Enum):
    """The seven countries, with the French names the federation uses (§IV.7a)."""

    AUSTRIA = "Autriche"
    ENGLAND = "Angleterre"
    FRANCE = "France"
    GERMANY = "Allemagne"
    ITALY = "Italie"
    RUSSIA = "Russie"
    TURKEY = "Turquie"

    @property
    def starting_centres(self) -> int:
        """Centres at the start (Russia 4, the others 3): tie-breaker §IV.3b-4."""
        return 4 if self is Power.RUSSIA else 3

    @classmethod
    def parse(cls, text: object) -> Power:
        """The country named by ``text`` (any case, accents optional, English names accepted)."""
        key = fold("" if text is None else str(text))
        for power in cls:
            if key in (fold(power.value), power.name.casefold()):
                return power
        raise InvalidInput(f"pays attendu : {', '.join(p.value for p in cls)} ; trouvé {_found(text)}")


class Category(Enum):
    """The four categories voted on after each game (§IV.6b2)."""

    DIPLOMAT = "meilleur diplomate"
    TACTICIAN = "meilleur tacticien"
    STRATEGIST = "meilleur stratège"
    MACHIAVELLIAN = "plus machiavélique"

    @classmethod
    def parse(cls, text: object) -> Category:
        """The category named by ``text``, in full or by its last word (``diplomate``, ``stratege``)."""
        key = fold("" if text is None else str(text)).removeprefix("le ")
        for category in cls:
            full = fold(category.value)
            if key and key in (full, full.split()[-1]):
                return category
        raise InvalidInput(f"catégorie attendue : {', '.join(c.value for c in cls)} ; trouvé {_found(text)}")


def parse_ballot(text: object) -> tuple[int, int]:
    """§IV.6b2: a ballot gives 3 + 1 or 2 + 2 points (``3+1``, ``3/1``, ``2-2``…)."""
    key = "".join(ch for ch in str(text or "") if ch.isdigit())
    for name, points in BALLOTS.items():
        if key == name.replace("+", ""):
            return points
    raise InvalidInput(f"bulletin attendu : {' ou '.join(BALLOTS)} ; trouvé {_found(text)}")


# --- §IV.1 Super Pastis ------------------------------------------------------------------------


class Outcome(Enum):
    """How a player finished a game, for its score (§IV.1)."""

    SOLO = "solo"
    BEHIND_SOLO = "derrière un solo"
    LEADER = "seul en tête"
    TIED_LEADER = "ex aequo en tête"
    PURSUER = "poursuivant"  # 1 to 3 centres behind the leader(s)
    OTHER = "autre"


@dataclass(frozen=True)
class Seat:
    """One player's line on a board: centres at the end, and the years survived if eliminated."""

    player: str
    centres: int
    survived: int | None = None  # None: still alive at the end
    power: Power | None = None
    choice: int | None = None  # top board: the order in which he chose his country (§III.2)

    @property
    def eliminated(self) -> bool:
        return self.survived is not None


@dataclass(frozen=True)
class GameScore:
    """A seat's Super Pastis score and how it was made."""

    seat: Seat
    score: float
    outcome: Outcome
    bonus: float = 0.0  # the leader or pursuer bonus (0 with a solo)
    behind: int = 0  # centres behind the leader(s)


def _check_seat_count(count: int, short: bool) -> None:
    """§II.4: seven players a board (fewer only when ``short``), never more."""
    if not count or count > PLAYERS or (count < PLAYERS and not short):
        raise InvalidInput(f"{PLAYERS} joueurs attendus sur une table ; trouvé {count}"
                           + ("" if short or count > PLAYERS else
                              " (table incomplète : autorisez-la dans les paramètres)"))


def _check_once(seats: Sequence[Seat]) -> None:
    """Nobody twice on a board, and no power played twice."""
    names = Counter(seat.player for seat in seats)
    twice = sorted(name for name, count in names.items() if count > 1)
    if twice:
        raise InvalidInput(f"{', '.join(twice)} plusieurs fois sur la même table")
    powers = Counter(seat.power for seat in seats if seat.power is not None)
    again = sorted(power.value for power, count in powers.items() if count > 1)
    if again:
        raise InvalidInput(f"{', '.join(again)} joué par plusieurs joueurs de la même table")


def check_board(seats: Sequence[Seat], years: int = YEARS, short: bool = False) -> None:
    """§IV.1, §II.4: a board the scoring can take; raises InvalidInput saying what is wrong.

    Seven players (fewer when ``short``: a dummy power or a smaller variant), at most 34 centres and
    at least one, 0-34 each, a player without a centre eliminated after 0 to ``years`` years, nobody twice.
    """
    if not 1 <= years <= YEARS:
        raise InvalidInput(f"années jouées attendues : de 1 à {YEARS} ; trouvé {years}")
    _check_seat_count(len(seats), short)
    _check_once(seats)
    for seat in seats:
        check_seat(seat, years)
    total = sum(seat.centres for seat in seats)
    if total > CENTRES:
        raise InvalidInput(f"{total} centres sur la table : {CENTRES} au plus")
    if total == 0:
        raise InvalidInput("aucun centre sur la table : au moins un joueur en a encore")


def check_seat(seat: Seat, years: int = YEARS) -> None:
    """One line of a board: 0-34 centres; eliminated (0 centres) after 0 to ``years`` years."""
    if not 0 <= seat.centres <= CENTRES:
        raise InvalidInput(f"{seat.player} : centres attendus de 0 à {CENTRES} ; trouvé {seat.centres}")
    if seat.centres == 0 and seat.survived is None:
        raise InvalidInput(f"{seat.player} n'a plus de centre : nombre d'années avant d'être éliminé attendu "
                           f"(de 0 à {years}) ; trouvé {BLANK}")
    if seat.centres > 0 and seat.survived is not None:
        raise InvalidInput(f"{seat.player} a {seat.centres} centres : il n'est pas éliminé (videz « éliminé après »)")
    if seat.survived is not None and not 0 <= seat.survived <= years:
        raise InvalidInput(f"{seat.player} : éliminé après 0 à {years} années ; trouvé {seat.survived}")


def score_board(seats: Sequence[Seat], years: int = YEARS, short: bool = False) -> list[GameScore]:
    """§IV.1 Super Pastis: every seat's score, in the order of ``seats``.

    Solo (18+): 102, the others 1 point per year played (an eliminated player: the years he
    survived). Otherwise 2 per centre, plus 10 for a survivor or 1 per year survived; a single
    leader gets 51 minus his closest pursuer's bonus, x tied leaders 48/x each; players 1, 2, 3
    centres behind get 12, 6, 3 (divided by x).
    """
    check_board(seats, years, short)
    top = max(seat.centres for seat in seats)
    if top >= SOLO_CENTRES:
        return [GameScore(s, SOLO_SCORE, Outcome.SOLO) if s.centres == top else
                GameScore(s, float(s.survived if s.survived is not None else years), Outcome.BEHIND_SOLO, 0.0,
                          top - s.centres)
                for s in seats]
    leaders = sum(1 for seat in seats if seat.centres == top)
    pursuit = [PURSUER_BONUS.get(top - s.centres, 0.0) / leaders for s in seats if s.centres < top]
    if leaders == 1:
        leader_bonus = LEADER_BONUS - max(pursuit, default=0.0)
        leader_outcome = Outcome.LEADER
    else:
        leader_bonus = TIED_LEADERS_BONUS / leaders
        leader_outcome = Outcome.TIED_LEADER
    scored = []
    for seat in seats:
        base = PER_CENTRE * seat.centres + (float(seat.survived) if seat.survived is not None else SURVIVOR_POINTS)
        behind = top - seat.centres
        if behind == 0:
            scored.append(GameScore(seat, base + leader_bonus, leader_outcome, leader_bonus))
        else:
            bonus = PURSUER_BONUS.get(behind, 0.0) / leaders
            scored.append(GameScore(seat, base + bonus, Outcome.PURSUER if bonus else Outcome.OTHER, bonus, behind))
    return scored


def game_scores(centres: Sequence[int], survived: Sequence[int | None] | None = None, years: int = YEARS,
                short: bool = False) -> list[float]:
    """§IV.1: the Super Pastis scores of a board given as columns (centres, years survived or None)."""
    survived = list(survived) if survived is not None else [None] * len(centres)
    if len(survived) != len(centres):
        raise InvalidInput(f"autant d'années de survie que de joueurs attendues ; trouvé {len(survived)} "
                           f"pour {len(centres)}")
    seats = [Seat(f"joueur {i + 1}", c, s) for i, (c, s) in enumerate(zip(centres, survived))]
    return [g.score for g in score_board(seats, years, short)]


# --- §II.2b4, §IV.2, §IV.3a Tournament scores ---------------------------------------------------


def round_score(game_scores: Sequence[float]) -> float:
    """§II.2b4: one round's score; two simultaneous boards give the better of 80% + 40% and 100% + 0%."""
    if not 1 <= len(game_scores) <= MAX_SIMULTANEOUS:
        raise InvalidInput(f"une ou deux parties par ronde attendues ; trouvé {len(game_scores)}")
    return weighted_best(game_scores, simultaneous_weights(game_scores))


def simultaneous_weights(game_scores: Sequence[float]) -> tuple[float, ...]:
    """§II.2b4: the weights a round's score gives its games, best first: one game 100%; two simultaneous
    boards 80% + 40% when that is more than the better at 100% (+ 0%)."""
    if len(game_scores) == MAX_SIMULTANEOUS and weighted_best(game_scores, SIMULTANEOUS) > max(game_scores):
        return SIMULTANEOUS
    return (1.0,) + (0.0,) * (len(game_scores) - 1)


def qualifying_score(round_scores: Sequence[float]) -> float:
    """§IV.2: the sum of the qualifying rounds played, or 100/80/40% when all three were played."""
    if len(round_scores) > QUALIFYING_ROUNDS:
        raise InvalidInput(f"au plus {QUALIFYING_ROUNDS} rondes qualificatives ; trouvé {len(round_scores)}")
    if len(round_scores) == QUALIFYING_ROUNDS:
        return weighted_best(round_scores, QUALIFYING_WEIGHTS)
    return float(sum(round_scores))


def final_score(round_scores: Sequence[float]) -> float:
    """§IV.3a: the sum of fewer than three rounds; three rounds 100/100/80%; four 100/100/80/40%."""
    if len(round_scores) > ROUNDS:
        raise InvalidInput(f"au plus {ROUNDS} rondes ; trouvé {len(round_scores)}")
    weights = FINAL_WEIGHTS.get(len(round_scores))
    return weighted_best(round_scores, weights) if weights else float(sum(round_scores))


def final_weights(round_scores: dict[int, float]) -> dict[int, float]:
    """§IV.3a: the weight each round's score counts in the final score: all 100 % under three rounds;
    otherwise 100/100/80 % or 100/100/80/40 %, best score first (equal scores: the earlier round first)."""
    weights = FINAL_WEIGHTS.get(len(round_scores))
    if weights is None:
        return dict.fromkeys(round_scores, 1.0)
    order = sorted(round_scores, key=lambda r: (-round_scores[r], r))
    return dict(zip(order, weights))


def total_score(final: float, top_board: bool = False, bonus: float = 0.0) -> float:
    """§III.4 and §IV.3a: the final score, +15% for a top-board player, plus any other bonus."""
    return final * (1 + TOP_BOARD_BONUS) + bonus if top_board else final + bonus


# --- The championship --------------------------------------------------------------------------


@dataclass(frozen=True)
class Player:
    """What the rules need to know of a player beyond his games."""

    name: str
    birth: dt.date | None = None  # tie-breaker: the youngest
    foreign: bool = False  # tie-breaker of the awards and best countries
    team: str | None = None
    bonus: float = 0.0  # other bonuses (§IV.3a), e.g. for withdrawing to make tables of seven


@dataclass(frozen=True)
class Board:
    """One game: its round, its table, its seats and how many years it lasted."""

    round: int
    table: str
    seats: tuple[Seat, ...]
    years: int = YEARS

    @property
    def key(self) -> tuple[int, str]:
        return (self.round, self.table)

    @property
    def top_board(self) -> bool:
        """The top board is the final round's board whose players chose their countries in order."""
        return self.round == ROUNDS and any(seat.choice is not None for seat in self.seats)


@dataclass(frozen=True)
class Vote:
    """One ballot (§IV.6b2): at a board, a voter names two other players in a category."""

    round: int
    table: str
    voter: str
    category: Category
    first: str
    second: str
    ballot: tuple[int, int] = (3, 1)


@dataclass(frozen=True)
class Qualified:
    """A top-board player as the rules qualify him (§III.1): the step, and the score that did it."""

    step: int
    player: str
    score: float
    tied: bool = False  # still tied with the next candidate after every tie-breaker

    @property
    def reason(self) -> str:
        return STEP_REASONS[self.step]


STEP_REASONS = {
    1: "meilleur score de la ronde 2 parmi les vainqueurs seuls de la ronde 1",
    2: "meilleur score de la ronde 2",
    3: "meilleur score du samedi soir (rondes 1 et 2)",
    4: "meilleur score de la ronde 3",
    5: "meilleurs scores qualificatifs après la ronde 3",
}

#: Names of the tie-breakers of the individual ranking (§IV.3b), in order, as the standings show them.
#: The last tie-breaker, by decision: the youngest (an unknown birth date comes after every known one).
YOUNGEST = "le plus jeune"
TIE_BREAKERS = ("confrontation directe", "moins de parties", "meilleure partie", "pays de moins de centres", YOUNGEST)


@dataclass(frozen=True)
class Standing:
    """A player's line of the final ranking (§IV.3b)."""

    player: str
    place: int
    rounds: dict[int, float]  # round -> round score
    final: float  # §IV.3a, before bonuses
    top_board: bool
    bonus: float
    total: float
    champion: bool = False
    decided_by: str | None = None  # the tie-breaker that separated him from an equal total


@dataclass(frozen=True)
class QualifyingLine:
    """A player's scores during the qualifying rounds (§III.1, §IV.2)."""

    player: str
    rounds: dict[int, float]
    saturday: float  # after rounds 1 and 2
    saturday_place: int
    qualifying: float  # after round 3
    place: int


@dataclass(frozen=True)
class TeamStanding:
    """A team's line (§IV.5c)."""

    team: str
    place: int
    members: tuple[str, ...]
    score: float
    decided_by: str | None = None


@dataclass(frozen=True)
class AwardStanding:
    """A player's line in one vote category (§IV.6b2), or in the favourite-player vote (§IV.6b1)."""

    player: str
    place: int
    points: float
    games: int
    average: float
    most_votes: int  # votes received in a single game


@dataclass(frozen=True)
class CountryStanding:
    """A game played with one power, ranked for the best country (§IV.7)."""

    power: Power
    place: int
    player: str
    round: int
    table: str
    score: float
    centres: int


@dataclass
class Championship:
    """Everything the championship publishes."""

    boards: dict[tuple[int, str], list[GameScore]]
    round_scores: dict[str, dict[int, float]]
    qualifying: list[QualifyingLine]
    qualified: list[Qualified]
    top_board: Board | None
    standings: list[Standing]
    teams: list[TeamStanding]
    awards: dict[Category, list[AwardStanding]]
    favourites: list[AwardStanding]
    countries: dict[Power, list[CountryStanding]]
    warnings: list[str] = field(default_factory=list)


@dataclass
class _Games:
    """A player's games, for the tie-breakers."""

    scores: dict[tuple[int, str], float] = field(default_factory=dict)  # board -> game score
    powers: dict[tuple[int, str], Power | None] = field(default_factory=dict)  # board -> power played
    rounds: dict[int, float] = field(default_factory=dict)  # round -> round score


def _youth(player: Player | None) -> int:
    """Key of the youngest first; an unknown birth date comes after every known one."""
    return -player.birth.toordinal() if player and player.birth else 0


class _Ranker:
    """Ranks players by a score, then by the tie-breakers of §IV.3b (or §III.1) over chosen rounds."""

    def __init__(self, games: Mapping[str, _Games], players: Mapping[str, Player], rounds: Iterable[int]):
        self.games, self.players, self.rounds = games, players, set(rounds)

    def confrontation(self, group: Sequence[str]) -> dict[str, float]:
        """§IV.3b-1: for each player of a tie, his score minus theirs, summed over the games he shared
        with the others of the tie (k of them at a board: k times his score minus their total)."""
        at: dict[tuple[int, str], list[tuple[str, float]]] = defaultdict(list)
        for name in group:
            for board, score in self.games[name].scores.items():
                if board[0] in self.rounds:
                    at[board].append((name, score))
        result = dict.fromkeys(group, 0.0)
        for met in at.values():
            if len(met) > 1:
                total = sum(score for _, score in met)
                for name, score in met:
                    result[name] += len(met) * score - total
        return result

    def keys(self, names: Sequence[str], score: Callable[[str], float], first: Callable[[str], int] = lambda n: 0
             ) -> dict[str, Key]:
        """The ranking key of each player: (first, -score, -confrontation, games, -best game, centres, youth)."""
        groups: dict[Key, list[str]] = defaultdict(list)
        for name in names:
            groups[(first(name), rank_key(score(name)))].append(name)
        keys = {}
        for (head, total), group in groups.items():
            met = self.confrontation(group) if len(group) > 1 else dict.fromkeys(group, 0.0)
            for name in group:
                games = self.games[name]
                rounds = [s for r, s in games.rounds.items() if r in self.rounds]
                centres = sum(p.starting_centres for b, p in games.powers.items() if p and b[0] in self.rounds)
                keys[name] = (head, -total, -rank_key(met[name]),
                              len(rounds), -rank_key(max(rounds, default=0.0)), centres,
                              _youth(self.players.get(name)))
        return keys

    def ranked(self, names: Iterable[str], score: Callable[[str], float],
               first: Callable[[str], int] = lambda n: 0) -> list[tuple[str, int, Key]]:
        """(name, place, key), best first; players still equal after every tie-breaker share a place."""
        names = list(names)
        keys = self.keys(names, score, first)
        places = dict(zip(names, competition_ranks_by([keys[n] for n in names])))
        return sorted(((n, places[n], keys[n]) for n in names), key=lambda t: (t[1], fold(t[0]), t[0]))


def decided_by(key: Key, neighbour: Key | None, names: Sequence[str], start: int = 2) -> str | None:
    """The name of the first tie-breaker that differs between two keys equal on their score."""
    if neighbour is None or key[:start] != neighbour[:start]:
        return None
    for name, a, b in zip(names, key[start:], neighbour[start:]):
        if a != b:
            return name
    return None


def _decisions(ranked: Sequence[tuple[str, int, Key]], names: Sequence[str], start: int = 2) -> dict[str, str]:
    """For each player equal on score with a neighbour, the tie-breaker that placed them."""
    found: dict[str, str] = {}
    for i, (name, _, key) in enumerate(ranked):
        for j in (i - 1, i + 1):
            if 0 <= j < len(ranked) and name not in found:
                why = decided_by(key, ranked[j][2], names, start)
                if why is not None:
                    found[name] = why
    return found


# --- Checks of the typed lines: located violations (index, field, message) ------------------------

#: How a check names another record in its messages, by its index (an adapter passes its own: "ligne 7").
Where = Callable[[int], str]


def _numbered(index: int) -> str:
    return f"n° {index + 1}"


@dataclass(frozen=True)
class Line:
    """One typed line of the boards: a player's seat at one board of a round, and the board's length
    in years when this line gives it."""

    round: int
    table: str
    seat: Seat
    years: int | None = None


def _raised(check: Callable[[], object]) -> str | None:
    """The message of the InvalidInput a check raises, or None when it passes."""
    try:
        check()
    except InvalidInput as error:
        return str(error)
    return None


def line_violations(line: Line, index: int = 0) -> list[Violation]:
    """§III.2 and §IV.1 on one line: an order of choice only on the top board (the final round), and
    a seat the scoring can take (``check_seat``)."""
    found = []
    if line.seat.choice is not None and line.round != ROUNDS:
        found.append(Violation(index, "choice", f"ordre de choix en ronde {line.round} : seule la table finale "
                                                f"(ronde {ROUNDS}) en a un"))
    seat = _raised(partial(check_seat, line.seat, line.years or YEARS))
    if seat is not None:
        eliminated = line.seat.centres == 0 or line.seat.survived is not None
        found.append(Violation(index, "survived" if eliminated else "centres", seat))
    return found


def boards_of(lines: Sequence[Line], short: bool = False,
              unread: Collection[tuple[int, str]] = ()) -> tuple[list[Board], list[Violation]]:
    """The boards the lines make (by round, then table), and every violation, located on a line: a line
    the scoring cannot take (``line_violations``) is left out; a board with several lengths (§II.4g) or
    that ``check_board`` refuses is reported on its first line and left out; a player on more than
    ``MAX_SIMULTANEOUS`` boards of a round (§II.2b3) on his last line. A board that lost a line (to a
    violation here, or to the reader: ``unread``, by (round, table)) is checked but for its number of players:
    its six other lines would only say « 7 players expected », a follow-on of the line to fix."""
    violations: list[Violation] = []
    grouped: dict[tuple[int, str], list[int]] = defaultdict(list)
    incomplete = set(unread)
    for i, line in enumerate(lines):
        found = line_violations(line, i)
        violations += found
        if found:
            incomplete.add((line.round, line.table))
        else:
            grouped[(line.round, line.table)].append(i)
    boards = []
    for (ronde, table), group in sorted(grouped.items(), key=lambda item: (item[0][0], fold(item[0][1]))):
        lengths = {years for i in group if (years := lines[i].years) is not None}
        if len(lengths) > 1:
            shown = ", ".join(map(str, sorted(lengths)))
            violations.append(Violation(group[0], "years", f"table {table} de la ronde {ronde} : plusieurs durées "
                                                           f"({shown}) : une par partie"))
            continue
        board = Board(ronde, table, tuple(lines[i].seat for i in group), lengths.pop() if lengths else YEARS)
        lost = (ronde, table) in incomplete
        refused = _raised(partial(check_board, board.seats, board.years, short or lost))
        if refused is not None:
            violations.append(Violation(group[0], "table", f"table {table} de la ronde {ronde} : {refused}"))
        else:
            boards.append(board)
    per_round: dict[tuple[str, int], list[int]] = defaultdict(list)
    for i in sorted(i for group in grouped.values() for i in group):
        per_round[(lines[i].seat.player, lines[i].round)].append(i)
    for (player, ronde), group in per_round.items():
        if len(group) > MAX_SIMULTANEOUS:
            violations.append(Violation(group[-1], "player", f"{player} a {len(group)} parties à la ronde {ronde} : "
                                                             f"{MAX_SIMULTANEOUS} simultanées au plus"))
    return boards, violations


def seated_at(boards: Iterable[Board]) -> dict[tuple[int, str], set[str]]:
    """Who sat at each board: (round, table) -> the players."""
    seated: dict[tuple[int, str], set[str]] = defaultdict(set)
    for board in boards:
        seated[board.key].update(seat.player for seat in board.seats)
    return dict(seated)


def bonus_violations(players: Sequence[Player]) -> list[Violation]:
    """§IV.3a « autres bonus »: a player's other bonus, either sign, up to :data:`MAX_BONUS` (a larger one is a
    typing mistake: :mod:`xlcircuit.limits`); each reported on its own record (field ``bonus``)."""
    return [Violation(i, "bonus", f"bonus entre -{MAX_BONUS} et {MAX_BONUS} attendu ; trouvé {player.bonus}")
            for i, player in enumerate(players) if not -MAX_BONUS <= player.bonus <= MAX_BONUS]


def team_violations(players: Sequence[Player]) -> list[Violation]:
    """§IV.5a: a team has three players at most; each one beyond is reported on his own record."""
    members: dict[str, list[str]] = defaultdict(list)
    found = []
    for i, player in enumerate(players):
        if not player.team:
            continue
        team = members[player.team]
        if len(team) >= MAX_TEAM:
            found.append(Violation(i, "team", f"l'équipe « {player.team} » a déjà {MAX_TEAM} joueurs "
                                              f"({', '.join(team)}) : {MAX_TEAM} joueurs au plus"))
        else:
            team.append(player.name)
    return found


def vote_violations(votes: Sequence[Vote], seated: Mapping[tuple[int, str], Collection[str]],
                    where: Where = _numbered) -> list[Violation]:
    """§IV.6b2: a ballot is cast at a board that was played, by one of its players, for two others of
    it, and once per voter and category at a board (``seated``: who sat at each board)."""
    found: list[Violation] = []
    seen: dict[tuple[int, str, str, Category], int] = {}
    for i, vote in enumerate(votes):
        board = seated.get((vote.round, vote.table))
        if board is None:
            found.append(Violation(i, "table", f"pas de table {vote.table} à la ronde {vote.round} dans la table "
                                               "Parties"))
            continue
        absent = [Violation(i, field, f"{name} n'a pas joué à la table {vote.table} de la ronde {vote.round}")
                  for field, name in (("voter", vote.voter), ("first", vote.first), ("second", vote.second))
                  if name not in board]
        if absent:
            found += absent
        elif len({vote.voter, vote.first, vote.second}) < 3:
            found.append(Violation(i, "second", "le votant désigne deux autres joueurs, différents"))
        elif (key := (vote.round, vote.table, vote.voter, vote.category)) in seen:
            found.append(Violation(i, "category", f"{vote.voter} a déjà voté « {vote.category.value} » pour cette "
                                                  f"partie ({where(seen[key])})"))
        else:
            seen[key] = i
    return found


def favourite_violations(favourites: Sequence[tuple[str, str]], seated: Mapping[tuple[int, str], Collection[str]],
                         where: Where = _numbered) -> list[Violation]:
    """§IV.6b1: the favourite-player vote is cast once by each player of the last round, for another
    player of the championship (``seated``: who sat at each board). Fields ``voter`` and ``favourite``."""
    known = {name for names in seated.values() for name in names}
    last_round = max((r for r, _ in seated), default=0)
    last = {name for (r, _), names in seated.items() if r == last_round for name in names}
    found: list[Violation] = []
    seen: dict[str, int] = {}
    for i, (voter, chosen) in enumerate(favourites):
        unknown = [Violation(i, field, f"{name} n'a joué aucune partie")
                   for field, name in (("voter", voter), ("favourite", chosen)) if name not in known]
        if unknown:
            found += unknown
        elif voter not in last:
            found.append(Violation(i, "voter", f"{voter} n'a pas joué la dernière ronde : seuls ses joueurs votent"))
        elif voter == chosen:
            found.append(Violation(i, "favourite", "on ne vote pas pour soi-même"))
        elif voter in seen:
            found.append(Violation(i, "voter", f"{voter} a déjà voté ({where(seen[voter])}) : un vote par joueur"))
        else:
            seen[voter] = i
    return found


# --- The championship, section by section -----------------------------------------------------


def _score_boards(boards: Sequence[Board], short: bool
                  ) -> tuple[dict[tuple[int, str], list[GameScore]], dict[str, _Games]]:
    """§IV.1 and §II.2b3-4: every board's Super Pastis scores, and each player's games and round scores."""
    scored: dict[tuple[int, str], list[GameScore]] = {}
    games: dict[str, _Games] = defaultdict(_Games)
    by_round: dict[str, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    for board in sorted(boards, key=lambda b: b.key):
        if not 1 <= board.round <= ROUNDS:
            raise InvalidInput(f"ronde attendue de 1 à {ROUNDS} ; trouvé {board.round}")
        if board.key in scored:
            raise InvalidInput(f"table {board.table} de la ronde {board.round} donnée deux fois")
        lines = [Line(board.round, board.table, seat, board.years) for seat in board.seats]
        raise_first([v for i, line in enumerate(lines) for v in line_violations(line, i) if v.field == "choice"])
        try:
            scored[board.key] = score_board(board.seats, board.years, short)
        except InvalidInput as error:
            raise InvalidInput(f"ronde {board.round}, table {board.table} : {error}") from None
        for g in scored[board.key]:
            games[g.seat.player].scores[board.key] = g.score
            games[g.seat.player].powers[board.key] = g.seat.power
            by_round[g.seat.player][board.round].append(g.score)
    for name, rounds in by_round.items():
        for r, scores in rounds.items():
            if len(scores) > MAX_SIMULTANEOUS:
                raise InvalidInput(f"{name} a joué {len(scores)} parties à la ronde {r} : "
                                   f"{MAX_SIMULTANEOUS} au plus (§II.2b3)")
            games[name].rounds[r] = round_score(scores)
    return scored, games


def _until(round_scores: Mapping[int, float], last: int) -> float:
    """§III.1, §IV.2: the qualifying score of the rounds up to ``last``."""
    return qualifying_score([s for r, s in round_scores.items() if r <= last])


def _qualification(names: Sequence[str], scored: Mapping[tuple[int, str], Sequence[GameScore]],
                   games: Mapping[str, _Games], players: Mapping[str, Player], top_board: bool,
                   warnings: list[str]) -> tuple[list[QualifyingLine], list[Qualified]]:
    """§III.1 and §IV.2: the qualifying lines (Saturday evening and after round 3) and the top board's seven.

    The four tie-breakers (then, by decision, the youngest) count rounds 1-2 for the Saturday evening
    (steps 1-3 and the Saturday ranking), rounds 1-3 after round 3.
    """
    round_scores = {n: games[n].rounds for n in names}
    saturday_ranker = _Ranker(games, players, range(1, SATURDAY_ROUNDS + 1))
    ranker = _Ranker(games, players, range(1, QUALIFYING_ROUNDS + 1))
    in_qualifying = [n for n in names if any(r <= QUALIFYING_ROUNDS for r in round_scores[n])]

    def saturday(name: str) -> float:
        return _until(round_scores[name], SATURDAY_ROUNDS)

    def qualifying(name: str) -> float:
        return _until(round_scores[name], QUALIFYING_ROUNDS)

    sat_places = {n: p for n, p, _ in saturday_ranker.ranked(in_qualifying, saturday)}
    lines = [
        QualifyingLine(n, {r: s for r, s in round_scores[n].items() if r <= QUALIFYING_ROUNDS}, saturday(n),
                       sat_places[n], qualifying(n), p)
        for n, p, _ in ranker.ranked(in_qualifying, qualifying)
    ]
    qualified = select_top_board(scored, round_scores, saturday_ranker, ranker, warnings) if top_board else []
    return lines, qualified


def _top_board_of(boards: Sequence[Board], top_board: bool, final_played: bool) -> Board | None:
    """§III.2: the board of the last round given an order of choice: the top board (None when there is none);
    refused: an order of choice without a top board, on several boards, or missing from a played final round."""
    tops = [b for b in boards if b.top_board]
    if not top_board and tops:
        raise InvalidInput("ordre de choix donné alors qu'il n'y a pas de table finale")
    if len(tops) > 1:
        raise InvalidInput(f"ordre de choix donné sur plusieurs tables de la ronde {ROUNDS} : "
                           f"{', '.join(b.table for b in tops)} ; seule la table finale en a un")
    if not tops and top_board and final_played:
        raise InvalidInput(f"table finale : indiquez l'ordre de choix des pays de ses joueurs (ronde {ROUNDS}), "
                           "ou dites qu'il n'y a pas de table finale")
    return tops[0] if tops else None


def _warn_other_finalists(final_board: Board, qualified: Sequence[Qualified], warnings: list[str]) -> None:
    """A top board played by others than the qualified: said, the bonus going to those who played it."""
    playing = {s.player for s in final_board.seats}
    expected = {q.player for q in qualified}
    if qualified and playing != expected:
        missing = ", ".join(sorted(expected - playing, key=fold)) or "personne"
        extra = ", ".join(sorted(playing - expected, key=fold)) or "personne"
        warnings.append(f"La table finale jouée (table {final_board.table}) n'est pas celle que le calcul "
                        f"qualifie : manque {missing} ; en plus : {extra}. Le bonus de "
                        f"{TOP_BOARD_BONUS * 100:g} % va aux joueurs de la table jouée.")


def _played_top_board(boards: Sequence[Board], qualified: Sequence[Qualified], top_board: bool, final_played: bool,
                      warnings: list[str]) -> tuple[Board | None, str | None]:
    """§III.2-3: the top board as played (the final round's board with an order of choice), and its winner:
    the most centres, then the last to choose his country."""
    final_board = _top_board_of(boards, top_board, final_played)
    if final_board is None:
        return None, None
    orders = [s.choice for s in final_board.seats if s.choice is not None]
    finalists = len(final_board.seats)
    if len(orders) != finalists or sorted(orders) != list(range(1, finalists + 1)):
        raise InvalidInput(f"table finale (table {final_board.table}) : ordre de choix attendu de 1 à "
                           f"{finalists} pour chaque joueur, chacun une fois")
    champion = max(final_board.seats, key=lambda s: (s.centres, s.choice or 0)).player
    _warn_other_finalists(final_board, qualified, warnings)
    return final_board, champion


def _final_standings(names: Sequence[str], games: Mapping[str, _Games], players: Mapping[str, Player],
                     at_top: set[str], champion: str | None, warnings: list[str]) -> list[Standing]:
    """§IV.3: the final ranking: the champion first, then the total with the five tie-breakers."""
    totals = {}
    finals = {}
    for n in names:
        finals[n] = final_score(list(games[n].rounds.values()))
        totals[n] = total_score(finals[n], n in at_top, players[n].bonus if n in players else 0.0)
    final_ranker = _Ranker(games, players, range(1, ROUNDS + 1))
    ranked = final_ranker.ranked(names, totals.__getitem__, lambda n: 0 if n == champion else 1)
    decisions = _decisions(ranked, TIE_BREAKERS)
    standings = [
        Standing(n, place, dict(games[n].rounds), finals[n], n in at_top,
                 players[n].bonus if n in players else 0.0, totals[n], n == champion, decisions.get(n))
        for n, place, _ in ranked
    ]
    shared = Counter(s.place for s in standings)
    for place in sorted(p for p, count in shared.items() if count > 1):
        tied = ", ".join(s.player for s in standings if s.place == place)
        warnings.append(f"Ex aequo à la place {place} après tous les critères de départage : {tied}.")
    return standings


def run_championship(players: Mapping[str, Player], boards: Sequence[Board], votes: Sequence[Vote] = (),
                     favourites: Sequence[tuple[str, str]] = (), top_board: bool = True,
                     short: bool = False) -> Championship:
    """Score every board and publish the championship: qualification and top board (§III),
    final ranking (§IV.3), teams (§IV.5), awards (§IV.6) and best countries (§IV.7).

    ``favourites`` are (voter, favourite) pairs of the last round (§IV.6b1); ``top_board`` False
    when the organisers decided there is none (§III.5); ``short`` allows boards of fewer than seven.
    """
    raise_first(bonus_violations(list(players.values())))
    warnings: list[str] = []
    scored, games = _score_boards(boards, short)
    for g in games.values():
        g.rounds = dict(sorted(g.rounds.items()))
    names = sorted(games, key=lambda n: (fold(n), n))
    qualifying_lines, qualified = _qualification(names, scored, games, players, top_board, warnings)
    final_played = any(ROUNDS in g.rounds for g in games.values())
    final_board, champion = _played_top_board(boards, qualified, top_board, final_played, warnings)
    at_top = {s.player for s in final_board.seats} if final_board else set()
    standings = _final_standings(names, games, players, at_top, champion, warnings)
    seated = seated_at(boards)
    raise_first(vote_violations(votes, seated))
    raise_first(favourite_violations(favourites, seated))
    return Championship(
        scored, {n: dict(games[n].rounds) for n in names}, qualifying_lines, qualified, final_board, standings,
        team_standings(players, scored, games),
        {c: award_standings(c, votes, games, players) for c in Category},
        favourite_standings(favourites),
        {p: country_standings(p, scored, players) for p in Power},
        warnings,
    )


def sole_winners(scored: Mapping[tuple[int, str], Sequence[GameScore]], round_: int) -> set[str]:
    """§III.1-1: the players alone at the top of their board (in centres) in a round."""
    winners = set()
    for (r, _), lines in scored.items():
        if r == round_:
            top = max(g.seat.centres for g in lines)
            leaders = [g.seat.player for g in lines if g.seat.centres == top]
            if len(leaders) == 1:
                winners.add(leaders[0])
    return winners


def select_top_board(scored: Mapping[tuple[int, str], Sequence[GameScore]],
                     round_scores: Mapping[str, Mapping[int, float]], saturday: _Ranker, sunday: _Ranker,
                     warnings: list[str] | None = None) -> list[Qualified]:
    """§III.1: the seven top-board players, in the order of the five steps, each with his step.

    Steps 1-3 are decided on Saturday evening, before round 3: ``saturday`` breaks their ties (rounds 1-2);
    ``sunday`` breaks those of steps 4 and 5 (rounds 1-3).
    """
    qualified: list[Qualified] = []
    names = sorted(round_scores, key=lambda n: (fold(n), n))
    chosen: set[str] = set()
    ties: list[tuple[int, str, str]] = []  # (step, taken, the equal candidate left for later)

    def take(step: int, pool: Iterable[str], score: Callable[[str], float]) -> bool:
        pool = [n for n in pool if n not in chosen]
        if not pool or len(qualified) >= TOP_BOARD_SIZE:
            return False
        ranked = (saturday if step <= SATURDAY_STEPS else sunday).ranked(pool, score)
        name, place, _ = ranked[0]
        tied = len(ranked) > 1 and ranked[1][1] == place
        if tied:
            ties.append((step, name, ranked[1][0]))
        qualified.append(Qualified(step, name, score(name), tied))
        chosen.add(name)
        return True

    def players_in(r: int) -> list[str]:
        return [n for n in names if r in round_scores[n]]

    winners = sole_winners(scored, 1)
    take(1, [n for n in players_in(2) if n in winners], lambda n: round_scores[n][2])
    take(2, players_in(2), lambda n: round_scores[n][2])
    take(3, [n for n in names if any(r <= SATURDAY_ROUNDS for r in round_scores[n])],
         lambda n: qualifying_score([s for r, s in round_scores[n].items() if r <= SATURDAY_ROUNDS]))
    take(4, players_in(3), lambda n: round_scores[n][3])
    eligible = [n for n in names if any(r <= QUALIFYING_ROUNDS for r in round_scores[n])]
    if not players_in(QUALIFYING_ROUNDS):
        eligible = []  # before round 3 is played, its steps 4 and 5 qualify nobody yet
    while take(5, eligible, lambda n: qualifying_score(
            [s for r, s in round_scores[n].items() if r <= QUALIFYING_ROUNDS])):
        pass
    for step, name, other in ties:
        if other not in chosen and warnings is not None:  # an equal candidate qualified later lost nothing
            warnings.append(f"Table finale, étape {step} : {name} et {other} restent ex aequo après tous "
                            f"les critères de départage ; {name} est retenu par ordre alphabétique : "
                            "tranchez s'il le faut.")
    return qualified


# --- §IV.5 Teams ---------------------------------------------------------------------------------

TEAM_TIE_BREAKERS = ("confrontation directe", "meilleur score individuel", "second score individuel",
                     "pays de moins de centres", "moyenne d'âge")


def team_standings(players: Mapping[str, Player], scored: Mapping[tuple[int, str], Sequence[GameScore]],
                   games: Mapping[str, _Games]) -> list[TeamStanding]:
    """§IV.5c: teams by the sum of their members' round-2 scores, then the five team tie-breakers."""
    raise_first(team_violations(list(players.values())))
    members: dict[str, list[str]] = defaultdict(list)
    for p in players.values():
        if p.team:
            members[p.team].append(p.name)
    if not members:
        return []

    def team_points(name: str) -> float:
        return games[name].rounds.get(TEAM_ROUND, 0.0) if name in games else 0.0

    score = {t: sum(team_points(n) for n in names) for t, names in members.items()}
    team_of = {n: t for t, names in members.items() for n in names}

    def confrontation(group: Sequence[str]) -> dict[str, float]:
        """§IV.5c-1: over the round-2 boards, each pair of members of two tied teams that met: the
        difference of their scores (mine - theirs), summed for each team of the tie."""
        result = dict.fromkeys(group, 0.0)
        inside = set(group)
        for (r, _), lines in scored.items():
            if r != TEAM_ROUND:
                continue
            met: dict[str, list[float]] = defaultdict(list)
            for g in lines:
                if team_of.get(g.seat.player) in inside:
                    met[team_of[g.seat.player]].append(g.score)
            if len(met) > 1:
                count, total = sum(len(v) for v in met.values()), sum(sum(v) for v in met.values())
                for team, mine in met.items():
                    # every member against every member of the other teams there: n_others * mine - n_mine * theirs
                    theirs, others = total - sum(mine), count - len(mine)
                    result[team] += others * sum(mine) - len(mine) * theirs
        return result

    def centres(team: str) -> float:
        powers = [p for n in members[team] if n in games for p in games[n].powers.values() if p]
        return sum(p.starting_centres for p in powers) / len(powers) if powers else float(CENTRES)

    def age(team: str) -> float:
        births = [birth.toordinal() for n in members[team] if (birth := players[n].birth)]
        return -sum(births) / len(births) if births else 0.0

    groups: dict[float, list[str]] = defaultdict(list)
    for t in members:
        groups[rank_key(score[t])].append(t)
    keys = {}
    for total, group in groups.items():
        met = confrontation(group) if len(group) > 1 else dict.fromkeys(group, 0.0)
        for t in group:
            best = sorted((team_points(n) for n in members[t]), reverse=True) + [0.0, 0.0]
            keys[t] = (-total, -rank_key(met[t]), -rank_key(best[0]),
                       -rank_key(best[1]), rank_key(centres(t)), rank_key(age(t)))
    teams = list(members)
    places = dict(zip(teams, competition_ranks_by([keys[t] for t in teams])))
    ranked = sorted(((t, places[t], keys[t]) for t in teams), key=lambda x: (x[1], fold(x[0]), x[0]))
    decisions = _decisions(ranked, TEAM_TIE_BREAKERS, start=1)
    return [TeamStanding(t, place, tuple(sorted(members[t], key=fold)), score[t], decisions.get(t))
            for t, place, _ in ranked]


# --- §IV.6 Awards ------------------------------------------------------------------------------


def award_standings(category: Category, votes: Sequence[Vote], games: Mapping[str, _Games],
                    players: Mapping[str, Player]) -> list[AwardStanding]:
    """§IV.6b2: points of one category, best three games; ties: best average over all games, most
    votes in one game, foreign player, youngest. Players without a vote are not listed."""
    points: dict[str, dict[tuple[int, str], float]] = defaultdict(lambda: defaultdict(float))
    count: dict[str, Counter[tuple[int, str]]] = defaultdict(Counter)
    for vote in votes:
        if vote.category is category:
            board = (vote.round, vote.table)
            for name, given in zip((vote.first, vote.second), vote.ballot):
                points[name][board] += given
                count[name][board] += 1
    lines = {}
    for name, by_board in points.items():
        every = [by_board.get(b, 0.0) for b in games[name].scores] if name in games else list(by_board.values())
        lines[name] = (weighted_best(every, (1.0,) * BEST_GAMES), len(every), sum(every) / max(len(every), 1),
                       max(count[name].values()))
    names = sorted(lines, key=lambda n: (fold(n), n))
    keys = [(-rank_key(lines[n][0]), -rank_key(lines[n][2]), -lines[n][3],
             0 if players.get(n) and players[n].foreign else 1, _youth(players.get(n))) for n in names]
    places = competition_ranks_by(keys)
    return sorted((AwardStanding(n, p, *lines[n]) for n, p in zip(names, places)),
                  key=lambda a: (a.place, fold(a.player), a.player))


def favourite_standings(favourites: Sequence[tuple[str, str]]) -> list[AwardStanding]:
    """§IV.6b1: the favourite player has the most votes of the last round; equal counts share a place."""
    voters = Counter(voter for voter, _ in favourites)
    twice = sorted(v for v, c in voters.items() if c > 1)
    if twice:
        raise InvalidInput(f"un seul vote de joueur préféré par joueur : {', '.join(twice)} en a plusieurs")
    for voter, chosen in favourites:
        if voter == chosen:
            raise InvalidInput(f"{voter} a voté pour lui-même comme joueur préféré")
    tally = Counter(chosen for _, chosen in favourites)
    names = sorted(tally, key=lambda n: (fold(n), n))
    places = competition_ranks_by([-tally[n] for n in names])
    return sorted((AwardStanding(n, p, float(tally[n]), 1, float(tally[n]), tally[n]) for n, p in zip(names, places)),
                  key=lambda a: (a.place, fold(a.player), a.player))


# --- §IV.7 Best countries ----------------------------------------------------------------------


def country_standings(power: Power, scored: Mapping[tuple[int, str], Sequence[GameScore]],
                      players: Mapping[str, Player]) -> list[CountryStanding]:
    """§IV.7: every game played with ``power``, best score first; ties: more centres, smaller gap to the
    player just ahead, larger gap to the player just behind, latest elimination, foreign, youngest."""
    found = []
    for (r, table), lines in sorted(scored.items()):
        centres = [g.seat.centres for g in lines]
        for g in lines:
            if g.seat.power is not power:
                continue
            ahead = min((c - g.seat.centres for c in centres if c > g.seat.centres), default=0)
            behind = min((g.seat.centres - c for c in centres if c < g.seat.centres), default=0)
            lasted = g.seat.survived if g.seat.survived is not None else YEARS + 1
            who = players.get(g.seat.player)
            key = (-rank_key(g.score), -g.seat.centres, ahead, -behind, -lasted,
                   0 if who and who.foreign else 1, _youth(who))
            found.append((key, CountryStanding(power, 0, g.seat.player, r, table, g.score, g.seat.centres)))
    places = competition_ranks_by([k for k, _ in found])
    ranked = [CountryStanding(c.power, p, c.player, c.round, c.table, c.score, c.centres)
              for (_, c), p in zip(found, places)]
    return sorted(ranked, key=lambda c: (c.place, c.round, c.table, fold(c.player)))
