"""DBM French championship ("la réforme", 98/99): player classes and values, ABRA (the value of a
tournament, VFT), CADABRA (a player's result, RFJ), the in-season value (VAJ), the season tables
(Tableau 1, Tableau 2, teams) and next season's classes.

Rules: ``docs/regles/dbm.md``, our French summary of « Championnat DBM 98/99 — La Réforme » (Philippe
Lempereur), which wins where they differ. Section names below are the source's headings. Nothing is
rounded here; rounding is for display.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from fractions import Fraction
from numbers import Real

from .errors import InvalidInput, Violation, raise_first
from .limits import DBM_MAX_ROUNDS
from .mechanics import (
    competition_ranks,
    effective_places,
    rank_key,
    round_half_up,
    share_ties,
    shared_value,
    tie_sizes,
    weighted_best,
)
from .text import clean, fold

#: NRJ: rounds played, "généralement quatre, exceptionnellement cinq" (the upper bound typed is
#: ``limits.DBM_MAX_ROUNDS``).
USUAL_ROUNDS = (4, 5)
#: Players retained per round played when a tournament has more than BASE_LIMIT players (BJR).
PER_ROUND = 6
BASE_LIMIT = 24
#: CMM: (MVB strictly above, coefficient), highest first; at or below 2.00 the coefficient is 8.00.
CMM_TABLE = (
    (Fraction(475, 100), 14.0), (Fraction(450, 100), 13.5), (Fraction(425, 100), 13.0),
    (Fraction(400, 100), 12.5), (Fraction(375, 100), 12.0), (Fraction(350, 100), 11.5),
    (Fraction(325, 100), 11.0), (Fraction(300, 100), 10.5), (Fraction(275, 100), 10.0),
    (Fraction(250, 100), 9.5), (Fraction(225, 100), 9.0), (Fraction(200, 100), 8.5),
)  # fmt: skip
CMM_FLOOR = 8.0
#: Referee bonus: half the tournament's value, at most this.
REFEREE_CAP = 100.0
#: Results counted in the championship: the four best.
BEST = 4
#: Tournaments that make a player active (Tableau 1).
ACTIVE = 3
#: The I / F boundary on an average of results (VAJ and end of season).
I_LIMIT = 15.0
#: End of season: cumulative percentages of the active players for X, X+S, X+S+O.
SHARES = (10, 25, 50)
TEAM_SIZE = 3


class PlayerClass(Enum):
    """A player's class and its value (RÉPARTITION PAR CLASSES: from 1 for (i) to 5 for (X))."""

    I = 1  # noqa: E741 - the source's letter
    F = 2
    O = 3  # noqa: E741
    S = 4
    X = 5

    @property
    def letter(self) -> str:
        return self.name

    def up(self) -> PlayerClass:
        return PlayerClass(min(self.value + 1, 5))

    def down(self) -> PlayerClass:
        return PlayerClass(max(self.value - 1, 1))

    @classmethod
    def parse(cls, code: object) -> PlayerClass:
        """VBJ: a class as typed: I, F, O, S, X in any case, ``0`` for O and ``1`` for I as the source
        writes them, or a value 1 to 5."""
        if isinstance(code, Real) and not isinstance(code, bool):
            for number in range(6):  # compared exactly, whatever its size (no float of hundreds of digits)
                if code == number:
                    return cls.O if number == 0 else cls(number)
        elif isinstance(code, str):
            key = fold(code).strip("()").strip()  # the source also writes "( 0 )"
            if key in _CODES:
                return _CODES[key]
            if key in ("0", "1", "2", "3", "4", "5"):
                return cls.O if key == "0" else cls(int(key))
        shown = f"« {clean(code)} »" if isinstance(code, str) else str(code)
        raise InvalidInput(f"classe attendue : I, F, O, S ou X (0 pour O, 1 pour I) ; trouvé {shown}")


_CODES = {c.name.lower(): c for c in PlayerClass}
#: The classes given by the shares of Tableau 1, in the order of ``SHARES`` (RÉPARTITION PAR CLASSES).
SHARE_CLASSES = (PlayerClass.X, PlayerClass.S, PlayerClass.O)
#: The class of a player the season starts without (a newcomer).
NEWCOMER = PlayerClass.F


def share_of(cls: PlayerClass) -> tuple[int, int]:
    """RÉPARTITION PAR CLASSES: the band of Tableau 1 (from, to, in cumulative %) that gives ``cls``."""
    i = SHARE_CLASSES.index(cls)
    return (SHARES[i - 1] if i else 0, SHARES[i])


def class_value(code: object) -> int:
    """VBJ: the value (1 to 5) of a class code."""
    return PlayerClass.parse(code).value


# --- ABRA: the value of a tournament ------------------------------------------------------------


def base(players: int, rounds: int) -> int:
    """BJR: every player up to twenty-four; beyond, six per round played (never more than NJT)."""
    if players <= BASE_LIMIT:
        return players
    return min(players, PER_ROUND * rounds)


def cmm(mvb: float | Fraction) -> float:
    """CMM: the coefficient of an average, from the table (strictly greater than each threshold)."""
    exact = Fraction(mvb)
    for threshold, coefficient in CMM_TABLE:
        if exact > threshold:
            return coefficient
    return CMM_FLOOR


@dataclass(frozen=True)
class Value:
    """ABRA's figures for one tournament: NJT, NRJ, BJR, SVB, MVB, CMM and VFT."""

    njt: int
    nrj: int
    bjr: int
    svb: int
    mvb: float
    cmm: float
    vft: float


def tournament_value(values: Sequence[int], rounds: int) -> Value:
    """ABRA: VFT = MVB x CMM x NRJ from the VAJ of each player (or team) and the rounds played."""
    if not 1 <= rounds <= DBM_MAX_ROUNDS:
        raise InvalidInput(f"nombre de rondes attendu : de 1 à {DBM_MAX_ROUNDS} ; trouvé {rounds}")
    if not values:
        raise InvalidInput("aucun joueur : la valeur d'un tournoi se calcule sur ses joueurs")
    for v in values:
        if v not in range(1, 6):
            raise InvalidInput(f"valeur de joueur attendue de 1 à 5 ; trouvé {v}")
    bjr = base(len(values), rounds)
    svb = sum(sorted(values, reverse=True)[:bjr])
    exact = Fraction(svb, bjr)
    coefficient = cmm(exact)
    mvb = svb / bjr
    return Value(len(values), rounds, bjr, svb, mvb, coefficient, mvb * coefficient * rounds)


# --- CADABRA: a player's result -----------------------------------------------------------------


def result_points(vft: float, place: int, players: int) -> float:
    """CADABRA: RFJ = VFT / 2 ^ (4 x (PFJ - 1) / NJT)."""
    if players < 1:
        raise InvalidInput(f"nombre de joueurs attendu : au moins 1 ; trouvé {players}")
    if not 1 <= place <= players:
        raise InvalidInput(f"place attendue entre 1 et {players} ; trouvé {place}")
    return vft / 2 ** (4 * (place - 1) / players)


def tied_points(vft: float, place: int, players: int, tied: int = 1) -> float:
    """CADABRA with ties: each of ``tied`` players tied at ``place`` gets the mean RFJ of their places."""
    if tied < 1:
        raise InvalidInput(f"ex aequo attendus : au moins 1 ; trouvé {tied}")
    if place >= 1 and place + tied - 1 > players:
        raise InvalidInput(f"{tied} ex aequo à la place {place} dépassent les {players} joueurs")
    return shared_value(place, tied, lambda p: result_points(vft, p, players))


def referee_bonus(vft: float) -> float:
    """PRIME D'ARBITRAGE: half the tournament's value, at most a hundred points."""
    return min(vft / 2, REFEREE_CAP)


def best_four(results: Iterable[float]) -> float:
    """CRITERE DE CLASSEMENT: the sum of a player's four best results."""
    return weighted_best(results, (1.0,) * BEST)


def average(results: Iterable[float]) -> float | None:
    """VAJ: the average of the results counted (the four best, or all if fewer); None without any."""
    results = list(results)
    return best_four(results) / min(len(results), BEST) if results else None


# --- VAJ: the in-season value -------------------------------------------------------------------


@dataclass(frozen=True)
class Thresholds:
    """The season's parameters: final averages of the last active S and O players of last season. None in the
    reform's first season, which has no such player (its classes come from the old levels): the passages
    that need them cannot happen, the 15-point ones still can."""

    seuil_s: float | None = None
    seuil_o: float | None = None


def current_class(start: PlayerClass, mean: float | None, thresholds: Thresholds) -> PlayerClass:
    """VAJ: the class a player plays with, from his class at season start and his average so far; without a
    threshold (first reformed season), no (O) → (S) or (F) → (O) passage."""
    if mean is None or start in (PlayerClass.S, PlayerClass.X):
        return start
    key = rank_key(mean)
    if start is PlayerClass.O:
        return PlayerClass.S if _reaches(key, thresholds.seuil_s) else start
    if start is PlayerClass.F:
        if _reaches(key, thresholds.seuil_o):
            return PlayerClass.O
        return PlayerClass.I if key <= I_LIMIT else start
    return PlayerClass.F if key > I_LIMIT else start  # I


def _reaches(key: float, threshold: float | None) -> bool:
    """VAJ: « égale ou supérieure à la moyenne finale du dernier joueur actif »; never without that player."""
    return threshold is not None and key >= rank_key(threshold)


# --- A season ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """One line of a tournament's final classification: a player (and his partner in doubles) with
    his place, or a referee who did not play."""

    player: str
    partner: str | None = None
    place: int | None = None
    referee: bool = False


@dataclass(frozen=True)
class Tournament:
    """A poule counted in the championship: its date, rounds played, and its classification."""

    name: str
    date: dt.date
    rounds: int
    doubles: bool = False
    entries: tuple[Entry, ...] = ()
    foreign: bool = False  # played abroad: counted, but does not make a player enter the championship


@dataclass(frozen=True)
class Result:
    """What one player gets from one tournament: the VAJ he played with and his RFJ."""

    tournament: str
    player: str
    points: float
    partner: str | None = None
    place: int | None = None  # as typed
    effective: int | None = None  # 1 + players (teams) strictly ahead
    tied: int | None = None
    start: PlayerClass | None = None  # his class at season start (VBJ)
    vaj: PlayerClass | None = None  # None for a referee
    team_value: int | None = None  # doubles: the value of his team (best member's VAJ)
    before: float | None = None  # his average on the tournament's date, which gave his VAJ
    referee: bool = False  # a referee bonus, not a place
    counted: bool = False  # among his four best results


@dataclass(frozen=True)
class Record:
    """A player's season: his results, the four best, their total and average."""

    player: str
    results: tuple[Result, ...]
    best: tuple[float, ...]
    total: float
    mean: float

    @property
    def tournaments(self) -> int:
        return len(self.results)

    @property
    def active(self) -> bool:
        return self.tournaments >= ACTIVE

    @property
    def three_only(self) -> bool:
        """Tableau 1's asterisk: exactly three tournaments."""
        return self.tournaments == ACTIVE


@dataclass(frozen=True)
class Ranked:
    """A line of Tableau 1."""

    place: int
    record: Record


@dataclass(frozen=True)
class Team:
    """A club's triplet: its players in Tableau 1 order and their total; place None when incomplete."""

    club: str
    number: int
    players: tuple[str, ...]
    total: float
    place: int | None


class Reason(Enum):
    """Why a player has his class for next season."""

    SHARE = "part du tableau 1"
    BELOW_15 = f"moyenne inférieure à {I_LIMIT:g}"
    OTHERS = "autres joueurs actifs"
    THREE_UP = "trois résultats, moyenne au moins égale à celle du dernier de la classe supérieure"
    OCCASIONAL_UP = "occasionnel, moyenne au moins égale à celle du dernier actif de la classe supérieure"
    OCCASIONAL_DOWN = "occasionnel, moyenne au plus égale à celle du premier actif de la classe inférieure"
    OCCASIONAL_KEPT = "occasionnel, classe conservée"
    OCCASIONAL_FLOOR = "occasionnel (S) ou (X) : conserve au moins sa classe"
    ABSENT = "aucun tournoi français recensé cette saison : classe conservée"


@dataclass(frozen=True)
class NextClass:
    """A player's class at the start and at the end of the season, and why."""

    player: str
    start: PlayerClass
    end: PlayerClass
    reason: Reason
    reference: float | None = None  # the average compared with, when a comparison decided
    reference_player: str | None = None


@dataclass(frozen=True)
class SeasonReport:
    """Everything the championship publishes for a season."""

    tournaments: tuple[Tournament, ...]  # in date order
    values: dict[str, Value]  # tournament -> ABRA's figures (absent: no player)
    results: dict[str, list[Result]]  # tournament -> its results, in the order of its entries, referees last
    records: dict[str, Record]
    tableau1: list[Ranked]
    tableau2: list[tuple[Record, int | None]]  # alphabetical, with the place in Tableau 1
    teams: list[Team]
    classes: dict[str, NextClass]


def _order(t: Tournament) -> tuple[dt.date, str, str]:
    return (t.date, fold(t.name), t.name)


def _name_key(name: str) -> tuple[str, str]:
    return (fold(name), name)


def _classify(entries: Sequence[Entry]) -> list[tuple[Entry, int, int, int]]:
    """The playing entries of a tournament with their official place, effective place and tie size."""
    placed = [(e, e.place) for e in entries if e.place is not None]
    official = [place for _, place in placed]
    return [(e, place, effective, tied)
            for (e, place), effective, tied in zip(placed, effective_places(official), tie_sizes(official))]


def score_tournament(tournament: Tournament, vaj: Mapping[str, PlayerClass], starts: Mapping[str, PlayerClass],
                     before: Mapping[str, float | None] | None = None) -> tuple[Value | None, list[Result]]:
    """ABRA then CADABRA for one tournament, given each player's VAJ (and average) on its date."""
    before = before or {}
    classified = _classify(tournament.entries)
    if not classified:
        return None, []
    team_values = [max(vaj[e.player].value, vaj[e.partner].value if e.partner else 0) for e, _, _, _ in classified]
    value = tournament_value(team_values, tournament.rounds)
    official = [place for _, place, _, _ in classified]
    shared = share_ties(official, lambda p: result_points(value.vft, p, value.njt))
    results: list[Result] = []
    for (entry, _, place, tied), points, team in zip(classified, shared, team_values):
        members = [(entry.player, entry.partner), (entry.partner, entry.player)] if entry.partner else [
            (entry.player, None)]
        for player, partner in members:
            results.append(Result(tournament.name, player, points, partner, entry.place, place, tied,
                                  starts[player], vaj[player], team if tournament.doubles else None,
                                  before.get(player)))
    bonus = referee_bonus(value.vft)
    for entry in tournament.entries:
        if entry.place is None and entry.referee:
            results.append(Result(tournament.name, entry.player, bonus, start=starts[entry.player], referee=True))
    return value, results


def _record(player: str, results: list[Result]) -> Record:
    best = sorted((r.points for r in results), reverse=True)[:BEST]
    total = best_four(r.points for r in results)
    return Record(player, tuple(results), tuple(best), total, total / len(best))


def _mark_counted(results: list[Result]) -> list[Result]:
    """The same results, the four best (the earliest first among equal points) marked as counted."""
    order = sorted(range(len(results)), key=lambda i: (-rank_key(results[i].points), i))
    counted = set(order[:BEST])
    return [replace(r, counted=i in counted) for i, r in enumerate(results)]


def tableau1(records: Mapping[str, Record]) -> list[Ranked]:
    """Tableau 1: active players by the sum of their four best results (equal totals share a place)."""
    active = sorted((r for r in records.values() if r.active), key=lambda r: (-rank_key(r.total), _name_key(r.player)))
    places = competition_ranks([r.total for r in active])
    return [Ranked(place, record) for place, record in zip(places, active)]


def tableau2(records: Mapping[str, Record], table1: Sequence[Ranked]) -> list[tuple[Record, int | None]]:
    """Tableau 2: every player, alphabetical, with his place in Tableau 1 (None if occasional)."""
    places = {r.record.player: r.place for r in table1}
    return [(records[p], places.get(p)) for p in sorted(records, key=_name_key)]


def teams(table1: Sequence[Ranked], clubs: Mapping[str, str]) -> list[Team]:
    """Classement par équipes: each club's players in Tableau 1 order by threes; teams by total.
    An incomplete last triplet is listed unranked."""
    members: dict[str, list[Ranked]] = defaultdict(list)
    for ranked in table1:
        club = clubs.get(ranked.record.player)
        if club:
            members[club].append(ranked)
    complete: list[tuple[str, int, tuple[str, ...], float]] = []
    partial: list[tuple[str, int, tuple[str, ...], float]] = []
    for club in sorted(members, key=_name_key):
        players = members[club]
        for start in range(0, len(players), TEAM_SIZE):
            trio = players[start:start + TEAM_SIZE]
            made = (club, start // TEAM_SIZE + 1, tuple(r.record.player for r in trio), sum(r.record.total for r in trio))
            (complete if len(trio) == TEAM_SIZE else partial).append(made)
    complete.sort(key=lambda t: (-rank_key(t[3]), _name_key(t[0]), t[1]))
    places = competition_ranks([t[3] for t in complete])
    return [Team(*t, place) for t, place in zip(complete, places)] + [Team(*t, None) for t in partial]


def _share_counts(active: int) -> tuple[int, ...]:
    """How many active players are X, X+S, X+S+O: the cumulative percentages, rounded half up."""
    return tuple(int(round_half_up(active * share / 100)) for share in SHARES)


def _share_classes(table1: Sequence[Ranked]) -> dict[str, tuple[PlayerClass, Reason]]:
    """Each player of Tableau 1's class by the percentages, else I below 15, else F; with the reason."""
    counts = _share_counts(len(table1))
    by_share: dict[str, tuple[PlayerClass, Reason]] = {}
    for ranked in table1:
        share = next((cls for cls, count in zip(SHARE_CLASSES, counts) if ranked.place <= count), None)
        if share is not None:
            by_share[ranked.record.player] = (share, Reason.SHARE)
        elif rank_key(ranked.record.mean) < I_LIMIT:
            by_share[ranked.record.player] = (PlayerClass.I, Reason.BELOW_15)
        else:
            by_share[ranked.record.player] = (PlayerClass.F, Reason.OTHERS)
    return by_share


def _active_class(record: Record, start: PlayerClass, cls: PlayerClass, reason: Reason,
                  last: Mapping[PlayerClass, Record]) -> NextClass:
    """An active player's next class: his share's, or the class above for a three-result player whose mean
    reaches that of the last of the class above."""
    above = last.get(cls.up()) if cls is not PlayerClass.X else None
    if record.three_only and above is not None and rank_key(record.mean) >= rank_key(above.mean):
        return NextClass(record.player, start, cls.up(), Reason.THREE_UP, above.mean, above.player)
    return NextClass(record.player, start, cls, reason)


def _occasional_class(player: str, record: Record, start: PlayerClass, first: Mapping[PlayerClass, Record],
                      last: Mapping[PlayerClass, Record]) -> NextClass:
    """An occasional player's next class: up if his mean reaches the last of the class above; S and X keep
    theirs; down if his mean is at most the first of the class below; else kept."""
    above = last.get(start.up()) if start is not PlayerClass.X else None
    below = first.get(start.down()) if start is not PlayerClass.I else None
    key = rank_key(record.mean)
    if above is not None and key >= rank_key(above.mean):
        return NextClass(player, start, start.up(), Reason.OCCASIONAL_UP, above.mean, above.player)
    if start in (PlayerClass.S, PlayerClass.X):
        return NextClass(player, start, start, Reason.OCCASIONAL_FLOOR)
    if below is not None and key <= rank_key(below.mean):
        return NextClass(player, start, start.down(), Reason.OCCASIONAL_DOWN, below.mean, below.player)
    return NextClass(player, start, start, Reason.OCCASIONAL_KEPT)


def _shares(table1: Sequence[Ranked]) -> tuple[dict[str, tuple[PlayerClass, Reason]], dict[PlayerClass, Record],
                                                dict[PlayerClass, Record]]:
    """RÉPARTITION PAR CLASSES: each active player's class by his share of Tableau 1 (I below 15), and the first
    and the last active player of each class, in Tableau 1 order (before the three-result adjustment)."""
    by_share = _share_classes(table1)
    first: dict[PlayerClass, Record] = {}
    last: dict[PlayerClass, Record] = {}
    for ranked in table1:
        cls = by_share[ranked.record.player][0]
        first.setdefault(cls, ranked.record)
        last[cls] = ranked.record
    return by_share, first, last


def next_classes(table1: Sequence[Ranked], records: Mapping[str, Record],
                 starts: Mapping[str, PlayerClass]) -> dict[str, NextClass]:
    """Classes for next season: percentages of Tableau 1, I below 15, three-result players moved up,
    occasional players moved up or down (S and X keep at least their class); absent players keep theirs."""
    by_share, first, last = _shares(table1)
    out: dict[str, NextClass] = {}
    for ranked in table1:
        record = ranked.record
        cls, reason = by_share[record.player]
        out[record.player] = _active_class(record, starts[record.player], cls, reason, last)
    for player, record in records.items():
        if not record.active:
            out[player] = _occasional_class(player, record, starts[player], first, last)
    for player, start in starts.items():
        if player not in out:
            out[player] = NextClass(player, start, start, Reason.ABSENT)
    return out


@dataclass(frozen=True)
class NextThresholds:
    """Next season's ``seuil_S`` and ``seuil_O``, and the players they come from (None: no such player)."""

    seuil_s: float | None
    player_s: str | None
    seuil_o: float | None
    player_o: str | None


def next_thresholds(table1: Sequence[Ranked]) -> NextThresholds:
    """VAJ, for next season: « la moyenne finale du dernier joueur « actif » (S) [(0)] de la saison précédente »,
    read as the average, at the end of this season, of the last player of Tableau 1 in the (S) [(O)] share of
    RÉPARTITION PAR CLASSES (the classes this season's end gives, before the three-result adjustment, as the
    end of season reads « le dernier joueur actif de la classe immédiatement supérieure »); None without one."""
    _, _, last = _shares(table1)
    s, o = last.get(PlayerClass.S), last.get(PlayerClass.O)
    return NextThresholds(s.mean if s else None, s.player if s else None, o.mean if o else None,
                          o.player if o else None)


# --- Checks of the typed lines: located violations -------------------------------------------------


def _numbered(index: int) -> str:
    return f"n° {index + 1}"


class EntryChecks:
    """CLASSEMENT of a poule, line by line in the order typed: a place or a referee, a partner only in
    doubles and only for a player, and each person once per poule (his second line is refused). Fields:
    ``player``, ``partner``, ``place``; ``where`` names an earlier line in a message."""

    def __init__(self, where: Callable[[int], str] = _numbered):
        self.where = where
        self._seen: dict[tuple[str, str], int] = {}

    def check(self, index: int, tournament: str, doubles: bool, entry: Entry) -> list[Violation]:
        """The violations of one line (``index``) of ``tournament``'s classification."""
        broken = self._alone(index, tournament, doubles, entry)
        if broken:
            return [broken]
        found = []
        for person, field in ((entry.player, "player"), (entry.partner, "partner")):
            if person is None:
                continue
            if (tournament, person) in self._seen:
                found.append(Violation(index, field, f"{person} a déjà une ligne dans « {tournament} » "
                                                     f"({self.where(self._seen[(tournament, person)])}) : une ligne "
                                                     "par joueur" + (", une par équipe en double" if doubles else "")))
            else:
                self._seen[(tournament, person)] = index
        return found

    @staticmethod
    def _alone(index: int, tournament: str, doubles: bool, entry: Entry) -> Violation | None:
        """What a line breaks by itself."""
        if entry.place is None and not entry.referee:
            return Violation(index, "place", "place manquante : un joueur classé a sa place finale ; un arbitre "
                                             "qui n'a pas joué : « oui » dans la colonne Arbitre")
        if entry.place is not None and entry.place < 1:
            return Violation(index, "place", f"place attendue ≥ 1 ; trouvé {entry.place}")
        if entry.partner is not None and not doubles:
            return Violation(index, "partner", f"« {tournament} » n'est pas une poule en double (colonne Doubles "
                                               "de la table Tournois) : pas d'équipier")
        if entry.partner is not None and entry.place is None:
            return Violation(index, "partner", "un arbitre qui n'a pas joué n'a pas d'équipier")
        if entry.partner == entry.player:
            return Violation(index, "partner", f"{entry.player} ne peut pas être son propre équipier")
        return None


def referee_violations(lines: Sequence[tuple[str, Entry]]) -> list[Violation]:
    """PRIME D'ARBITRAGE: half the poule's value, so a referee's poule has a classified player
    (``lines``: each line's poule and entry). Field ``referee``."""
    playing = {name for name, entry in lines if entry.place is not None}
    return [Violation(i, "referee", f"« {name} » n'a aucun joueur classé : sa valeur, donc la prime "
                                    "d'arbitrage, ne peut pas être calculée")
            for i, (name, entry) in enumerate(lines) if entry.place is None and name not in playing]


def _check(tournaments: Sequence[Tournament]) -> None:
    names = set()
    for t in tournaments:
        if t.name in names:
            raise InvalidInput(f"tournoi « {t.name} » en double")
        names.add(t.name)
        checks = EntryChecks()
        raise_first([v for i, e in enumerate(t.entries) for v in checks.check(i, t.name, t.doubles, e)])
    raise_first(referee_violations([(t.name, e) for t in tournaments for e in t.entries]))


def _in_date_order(ordered: Sequence[Tournament], starts: Mapping[str, PlayerClass], thresholds: Thresholds
                   ) -> tuple[dict[str, Value], dict[str, list[Result]]]:
    """VAJ, ABRA, CADABRA: the poules date by date, each valued with the VAJ of its players from their
    results on earlier dates (same-date results do not affect each other)."""
    history: dict[str, list[float]] = defaultdict(list)
    values: dict[str, Value] = {}
    results: dict[str, list[Result]] = {}
    by_date: dict[dt.date, list[Tournament]] = defaultdict(list)
    for t in ordered:
        by_date[t.date].append(t)
    for day in sorted(by_date):
        scored: list[Result] = []
        for t in by_date[day]:
            before = {p: average(history[p]) for e in t.entries for p in (e.player, e.partner) if p is not None}
            vaj = {p: current_class(starts[p], mean, thresholds) for p, mean in before.items()}
            value, lines = score_tournament(t, vaj, starts, before)
            if value is not None:
                values[t.name] = value
            results[t.name] = lines
            scored.extend(lines)
        for r in scored:
            history[r.player].append(r.points)
    return values, results


def _entered(ordered: Sequence[Tournament], results: Mapping[str, list[Result]]
             ) -> tuple[dict[str, list[Result]], dict[str, Record]]:
    """CONDITIONS D'ENTRÉE and CRITERE DE CLASSEMENT: a player enters the championship with his first
    French tournament; his four best results are counted. The results (marked) and the records."""
    by_player: dict[str, list[Result]] = defaultdict(list)
    for t in ordered:
        for r in results[t.name]:
            by_player[r.player].append(r)
    foreign = {t.name for t in ordered if t.foreign}
    entered = {p for p, rs in by_player.items() if any(r.tournament not in foreign for r in rs)}
    marked = {p: _mark_counted(rs) if p in entered else rs for p, rs in by_player.items()}
    counted = {(r.tournament, r.player): r for rs in marked.values() for r in rs}
    marked_results = {name: [counted[(r.tournament, r.player)] for r in rs] for name, rs in results.items()}
    return marked_results, {p: _record(p, rs) for p, rs in marked.items() if p in entered}


def run_season(tournaments: Iterable[Tournament], classes: Mapping[str, PlayerClass], thresholds: Thresholds,
               clubs: Mapping[str, str] | None = None) -> SeasonReport:
    """A whole season in one pass: tournaments in date order, each valued with the VAJ of its players
    from their results on earlier dates (same-date results do not affect each other). Only players
    with a French (not foreign) tournament enter the tables; foreign results count for them."""
    ordered = tuple(sorted(tournaments, key=_order))
    _check(ordered)
    people = {p for t in ordered for e in t.entries for p in (e.player, e.partner) if p is not None}
    starts = {p: classes.get(p, NEWCOMER) for p in people}
    starts.update(classes)
    values, results = _in_date_order(ordered, starts, thresholds)
    results, records = _entered(ordered, results)
    table1 = tableau1(records)
    classed = {p: c for p, c in starts.items() if p in records or p in classes}
    return SeasonReport(
        ordered, values, results, records, table1, tableau2(records, table1),
        teams(table1, clubs or {}), next_classes(table1, records, classed),
    )


__all__ = [
    "ACTIVE", "BEST", "NEWCOMER", "SHARE_CLASSES", "USUAL_ROUNDS", "Entry", "EntryChecks", "NextClass", "NextThresholds",
    "PlayerClass",
    "Ranked", "Reason", "Record", "Result", "SeasonReport", "Team", "Thresholds", "Tournament", "Value", "average",
    "base", "best_four", "class_value", "cmm", "current_class", "next_classes", "next_thresholds", "referee_bonus",
    "referee_violations",
    "result_points", "run_season", "score_tournament", "share_of",
    "tableau1", "tableau2", "teams", "tied_points", "tournament_value",
]
