"""TORRES championship on Boîte à Jeux: match scoring, group standings, movements between
divisions, the group schedule and next season's groups.

Rules: ``docs/regles/torres.md``, our French summary of « Fonctionnement du championnat TORRES » (Boîte à
Jeux), which wins where they differ. Sections cited as in torres.md, in order: §1 Structure,
§2 Scoring a match, §3 Group standings, §4 End of season.
Nothing is rounded here; rounding is for display only.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from itertools import chain, combinations, cycle

from .errors import InvalidInput, Violation
from .limits import TORRES_MAX_NUMBER
from .mechanics import competition_ranks, competition_ranks_by, rank_key, share_ties
from .text import fold

#: Victory points of the 1st, 2nd, 3rd and 4th of a match (§2).
VICTORY_POINTS = (8.0, 4.0, 2.0, 1.0)
MATCH_SIZE = 4
GROUP_SIZE = 10
#: Largest in-game points or Elo taken (either sign): :mod:`xlcircuit.limits`.
MAX_NUMBER = TORRES_MAX_NUMBER
#: Players of each group moving up one division (§4), and those staying (D1: 1st-6th; others 3rd-6th).
UP = 2
STAY = 4
STAY_D1 = 6
#: The fictitious players replacing forfeit players (§2, source: « Forfait »).
FICTITIOUS = ("Forfait", "Forfait bis", "Forfait tierce", "Forfait quarter")
_FICTITIOUS_KEYS = {fold(name) for name in FICTITIOUS}

#: Schedules where every pair of a group shares exactly two matches (§1): a 2-(v, 4, 2) design.
#: Ten players: 15 matches, six each. Seven: the complements of the Fano plane's lines, four each.
DESIGNS: dict[int, tuple[tuple[int, ...], ...]] = {
    4: ((0, 1, 2, 3), (0, 1, 2, 3)),
    7: ((2, 4, 5, 6), (0, 3, 5, 6), (0, 1, 4, 6), (0, 1, 2, 5), (1, 2, 3, 6), (0, 2, 3, 4), (1, 3, 4, 5)),
    10: ((0, 1, 2, 3), (0, 1, 4, 5), (0, 2, 4, 6), (0, 3, 7, 8), (0, 5, 7, 9), (0, 6, 8, 9), (1, 2, 7, 8),
         (1, 3, 6, 9), (1, 4, 7, 9), (1, 5, 6, 8), (2, 3, 5, 9), (2, 4, 8, 9), (2, 5, 6, 7), (3, 4, 5, 8),
         (3, 4, 6, 7)),
}
#: Sizes of a lowest-division group without such a design (§1, source: groups « équilibrés en nombre de
#: joueurs »): the closest schedule, every player the same number of matches and every pair at most twice,
#: and at least once (six: 3 matches, two each; eight: 8, four each; nine: 9, four each). Five players have none: every
#: 4-player match leaves one out, so equal counts need the five matches of four, every pair three times.
CLOSEST: dict[int, tuple[tuple[int, ...], ...]] = {
    5: ((0, 1, 2, 3), (0, 1, 2, 4), (0, 1, 3, 4), (0, 2, 3, 4), (1, 2, 3, 4)),
    6: ((0, 1, 2, 3), (0, 1, 4, 5), (2, 3, 4, 5)),
    8: ((0, 1, 2, 3), (0, 1, 4, 5), (0, 2, 4, 6), (0, 3, 5, 7), (1, 2, 4, 7), (1, 3, 5, 6), (2, 5, 6, 7),
        (3, 4, 6, 7)),
    9: ((0, 1, 2, 3), (0, 1, 4, 5), (0, 2, 4, 6), (0, 3, 7, 8), (1, 2, 4, 7), (1, 5, 6, 8), (2, 5, 7, 8),
        (3, 4, 6, 8), (3, 5, 6, 7)),
}


def groups_in(division: int) -> int:
    """§1: division d has 2 ** (d - 1) groups (D1 one, D2 two, D3 four…)."""
    if division < 1:
        raise InvalidInput(f"division attendue : 1 ou plus ; trouvé {division}")
    groups: int = 2 ** (division - 1)
    return groups


def is_fictitious(name: str) -> bool:
    """§2: whether ``name`` is one of the fictitious players replacing forfeit players."""
    return fold(name) in _FICTITIOUS_KEYS


# --- §2 Scoring a match -------------------------------------------------------------------------


def particular_differences(points: Sequence[float]) -> list[float]:
    """§2: each player's particular-points difference: the sum over his opponents of (his - theirs)."""
    total = sum(points)
    return [len(points) * p - total for p in points]


def match_places(points: Sequence[float], scoreless: Sequence[bool] | None = None) -> list[int | None]:
    """§2: places by in-game points, highest first (ties share the better place); None for a scoreless
    player (who delayed an unfinished match), the others placed among themselves (source « Durée du
    championnat »: « le classement des joueurs restants étant déterminé par le dernier décompte »)."""
    if not 1 <= len(points) <= MATCH_SIZE:
        raise InvalidInput(f"un match a de 1 à {MATCH_SIZE} joueurs ; trouvé {len(points)}")
    for p in points:
        if not abs(p) <= MAX_NUMBER:
            raise InvalidInput(f"points particuliers attendus : de -{MAX_NUMBER:.0f} à {MAX_NUMBER:.0f} ; trouvé {p}")
    flags = list(scoreless) if scoreless is not None else [False] * len(points)
    if len(flags) != len(points):
        raise InvalidInput(f"autant d'indications que de joueurs attendues ; trouvé {len(flags)} et {len(points)}")
    placed = [i for i, flag in enumerate(flags) if not flag]
    places: list[int | None] = [None] * len(points)
    for i, place in zip(placed, competition_ranks([points[i] for i in placed])):
        places[i] = place
    return places


def victory_points(points: Sequence[float], scoreless: Sequence[bool] | None = None) -> list[float]:
    """§2: 8/4/2/1 victory points by place; tied players share their places' points; a scoreless
    player gets 0 and the others take the points of places 1, 2, 3… among themselves."""
    places = match_places(points, scoreless)
    official = [p for p in places if p is not None]
    shared = iter(share_ties(official, lambda place: VICTORY_POINTS[place - 1]))
    return [0.0 if p is None else next(shared) for p in places]


@dataclass(frozen=True)
class Seat:
    """One player of a match: his in-game points at the end (or at the last count)."""

    player: str
    points: float
    delayed: bool = False  # delayed an unfinished match: no victory points (§2)

    @property
    def fictitious(self) -> bool:
        return is_fictitious(self.player)

    @property
    def scoreless(self) -> bool:
        """§2: only a player who delayed an unfinished match scores nothing. The fictitious « Forfait » is
        placed by his points like anyone (source « Classement »: victory points « suivant la place obtenue
        dans la partie »; « Placement du roi »: he only « a de fortes chances d'être dernier »); his victory
        points count for nobody, as he is in no standings."""
        return self.delayed


@dataclass(frozen=True)
class ScoredSeat:
    """A seat with what it earns: place among the players who score, victory points, difference."""

    seat: Seat
    place: int | None
    victory_points: float
    difference: float


def score_match(seats: Sequence[Seat]) -> list[ScoredSeat]:
    """§2: victory points and particular-points difference of every seat of one match, in order."""
    points = [s.points for s in seats]
    flags = [s.scoreless for s in seats]
    places = match_places(points, flags)
    vp = victory_points(points, flags)
    diffs = particular_differences(points)
    return [ScoredSeat(s, place, v, d) for s, place, v, d in zip(seats, places, vp, diffs)]


# --- §3 Group standings --------------------------------------------------------------------------


class Status(Enum):
    """A player's status in the Joueurs table."""

    ACTIVE = "actif"
    FORFEIT = "forfait"  # excluded from the season, ranked last of his group (tied)
    WITHDRAWN = "retrait"  # plays this season, leaves before the next one
    NEW = "nouveau"  # joins next season, in the lowest division
    RETURNING = "retour"  # comes back next season at the division given, if there is a place
    LEFT = "parti"  # not in this season (withdrawn or forfeit earlier): kept with the division he would return to

    @classmethod
    def parse(cls, text: object) -> Status | None:
        """The status named by ``text`` (any case, accents optional); blank is None."""
        key = fold("" if text is None else str(text))
        if not key:
            return None
        for status in cls:
            if fold(status.value) == key:
                return status
        raise InvalidInput(f"statut attendu : {', '.join(s.value for s in cls)} ; trouvé « {text} »")

    @property
    def leaves(self) -> bool:
        """Not in next season's groups (§4: forfeits and withdrawals leave a place)."""
        return self in (Status.FORFEIT, Status.WITHDRAWN)


@dataclass(frozen=True)
class Player:
    """A player as the Joueurs table gives him: season-start Elo, this season's group, status."""

    name: str
    elo: float
    division: int | None = None
    group: int | None = None
    status: Status = Status.ACTIVE

    def __post_init__(self) -> None:
        if not abs(self.elo) <= MAX_NUMBER:
            raise InvalidInput(f"{self.name} : Elo attendu de -{MAX_NUMBER:.0f} à {MAX_NUMBER:.0f} ; trouvé {self.elo}")


def seat_violations(player: Player, index: int = 0) -> list[Violation]:
    """§1 and §4 « Retrait du championnat »: where a player is this season: a new player has neither division nor
    group (he enters the lowest division next season); a returning player has the division he comes back to
    (his group is drawn); a player who left has no group (his division, optional, is the one he would come back
    to); every other a division and one of its groups (division d has 2^(d-1) groups). Fields ``division`` and
    ``group``; at most one violation."""
    division, group, status = player.division, player.group, player.status
    if status is Status.NEW:
        if division is not None or group is not None:
            return [Violation(index, "division", "un nouveau joueur n'a ni division ni groupe cette saison : "
                                                 "videz ces cellules (il entrera en division la plus basse)")]
        return []
    if status is Status.RETURNING:
        if division is None:
            return [Violation(index, "division", "division manquante : celle où le joueur revient")]
        return []
    if status is Status.LEFT:
        if group is not None:
            return [Violation(index, "group", "un joueur parti ne joue pas cette saison : videz son groupe (sa "
                                              "division, facultative, est celle où il reviendra)")]
        return []
    if division is None or group is None:
        field = "division" if division is None else "group"
        return [Violation(index, field, f"{'division' if division is None else 'groupe'} manquant : un joueur "
                                        f"{status.value} joue cette saison dans une division et un groupe (sinon : "
                                        "nouveau, retour ou parti)")]
    if group > groups_in(division):
        return [Violation(index, "group", f"la D{division} a {groups_in(division)} groupe"
                                          f"{'s' if division > 1 else ''} ; trouvé le groupe {group}")]
    return []


#: The index of :func:`pyramid_violations`' violations that no player's line can show: a group nobody is in.
WHOLE_TABLE = -1


def _group_size_message(d: int, g: int, size: int, lowest: int) -> str | None:
    """§1: ten players a group above the lowest division; four to ten in the lowest."""
    if d < lowest and size != GROUP_SIZE:
        return f"D{d} groupe {g} : {size} joueurs ; {GROUP_SIZE} attendus hors de la division la plus basse"
    if size > GROUP_SIZE or size < MATCH_SIZE:
        return f"D{d} groupe {g} : {size} joueurs ; de {MATCH_SIZE} à {GROUP_SIZE} attendus"
    return None


def pyramid_violations(players: Sequence[Player]) -> list[Violation]:
    """§1: this season's pyramid (the players with a group): divisions 1 to the lowest, each with all its
    2^(d-1) groups, ten players a group above the lowest division and four to ten in it. A group's violation is
    on its first player's index (field ``group``); a group without players is on :data:`WHOLE_TABLE`
    (field ``division``)."""
    groups: dict[tuple[int, int], list[int]] = defaultdict(list)
    for i, p in enumerate(players):
        if p.group is not None and p.division is not None:
            groups[p.division, p.group].append(i)
    if not groups:
        return []
    lowest = max(d for d, _ in groups)
    found: list[Violation] = []
    for d in range(1, lowest + 1):
        for g in range(1, groups_in(d) + 1):
            members = groups.get((d, g), [])
            if not members:
                found.append(Violation(WHOLE_TABLE, "division", f"la D{d} n'a aucun joueur dans son groupe {g} : "
                                       f"la division {d} a {groups_in(d)} groupe{'s' if d > 1 else ''} "
                                       f"(la plus basse ici est la D{lowest})"))
            elif (message := _group_size_message(d, g, len(members), lowest)) is not None:
                found.append(Violation(members[0], "group", message))
    return found


@dataclass(frozen=True)
class Standing:
    """A player's line in his group's standings (§3): rank (ties share it) and position (1, 2, 3…)."""

    player: Player
    rank: int
    position: int
    matches: int
    victory_points: float
    difference: float
    points: float

    @property
    def label(self) -> str:
        """The source's notation: 3d2g1 is the 3rd of group 1 of D2 (3d1 in D1)."""
        return origin_label(self.position, self.player.division or 0, self.player.group or 0)


def origin_label(position: int, division: int, group: int) -> str:
    """§4 (source example): ``3d2g1`` for the 3rd of group 1 of D2; ``3d1`` in the single-group D1."""
    return f"{position}d{division}" + (f"g{group}" if division > 1 else "")


def _merit(s: Standing) -> tuple[float, ...]:
    """§3 criteria as a sort key, best first: victory points, difference, points, then the lowest Elo."""
    return (-rank_key(s.victory_points), -rank_key(s.difference), -rank_key(s.points), rank_key(s.player.elo))


def group_standings(players: Sequence[Player], matches: Iterable[Sequence[Seat]]) -> list[Standing]:
    """§3: a group's standings: most victory points, then greatest particular-points difference, then most
    particular points, then the lowest season-start Elo; forfeit players last, tied."""
    names = {p.name for p in players}
    totals: dict[str, list[float]] = {p.name: [0, 0.0, 0.0, 0.0] for p in players}
    for match in matches:
        for scored in score_match(match):
            name = scored.seat.player
            if scored.seat.fictitious:
                continue
            if name not in names:
                raise InvalidInput(f"{name} joue dans ce groupe mais n'en fait pas partie")
            line = totals[name]
            line[0] += 1
            line[1] += scored.victory_points
            line[2] += scored.difference
            line[3] += scored.seat.points
    lines = [Standing(p, 0, 0, int(totals[p.name][0]), *totals[p.name][1:]) for p in players]
    keys = [(1,) if s.player.status is Status.FORFEIT else (0,) + _merit(s) for s in lines]
    ranks = competition_ranks_by(keys)
    order = sorted(range(len(lines)), key=lambda i: (keys[i], fold(lines[i].player.name), lines[i].player.name))
    return [
        Standing(lines[i].player, ranks[i], position, lines[i].matches, lines[i].victory_points,
                 lines[i].difference, lines[i].points)
        for position, i in enumerate(order, start=1)
    ]


# --- §1 The schedule of a group -------------------------------------------------------------------


def _design(size: int) -> tuple[tuple[int, ...], ...]:
    design = DESIGNS.get(size) or CLOSEST.get(size)
    if design is None:
        sizes = sorted(set(DESIGNS) | set(CLOSEST))
        raise InvalidInput(f"un groupe de {size} joueurs n'a pas de calendrier (de {sizes[0]} à {sizes[-1]} joueurs)")
    return design


def schedule_counts(size: int) -> tuple[int, int]:
    """§1: in a group of ``size``, the matches of each player and the most times a pair meets, as its schedule
    has them (a group of ten: 6 and 2); a size without a schedule gives a group of ten's."""
    design = DESIGNS.get(size) or CLOSEST.get(size) or DESIGNS[GROUP_SIZE]
    players = max(max(match) for match in design) + 1
    met = Counter(pair for match in design for pair in combinations(match, 2))
    return len(design) * MATCH_SIZE // players, max(met.values())


def schedule_note(size: int) -> str | None:
    """§1: None when a group of ``size`` has a schedule where every pair meets exactly twice; else what the
    closest one gives (French, for a warning)."""
    if size in DESIGNS:
        return None
    design = _design(size)
    met = Counter(pair for match in design for pair in combinations(match, 2))
    times = sorted({met[pair] for pair in combinations(range(size), 2)})
    shown = " ou ".join(map(str, times))
    return (f"à {size} joueurs, pas de calendrier où chaque paire se rencontre exactement deux fois : le plus "
            f"proche a {len(design)} matchs, {len(design) * MATCH_SIZE // size} par joueur, chaque paire se "
            f"rencontrant {shown} fois")


def schedule_group(players: Sequence[str], seed: object) -> list[tuple[str, ...]]:
    """§1: the matches of a group, every pair of players together exactly twice (a group of ten:
    15 matches, six each), or the closest schedule for sizes without one (:data:`CLOSEST`, see
    :func:`schedule_note`); players, matches and seats are drawn, the same seed giving the same schedule."""
    design = _design(len(players))
    if len(set(players)) != len(players):
        raise InvalidInput("un joueur figure deux fois dans le groupe")
    rng = random.Random(str(seed))
    order = sorted(players, key=lambda name: (fold(name), name))  # the typing order does not matter
    rng.shuffle(order)
    matches = [[order[i] for i in block] for block in design]
    rng.shuffle(matches)
    for match in matches:
        rng.shuffle(match)
    return [tuple(match) for match in matches]


# --- §4 End of season: movements and next season's groups -----------------------------------------


class Move(Enum):
    """What the end of season does to a player (§4)."""

    UP = "monte"
    STAY = "reste"
    DOWN = "descend"
    RESCUED = "repêché"  # was to go down, keeps his division (repêchage)
    RESCUED_UP = "monte (repêchage)"  # was to stay in the division below, moves up to fill a place
    FORFEIT = "forfait"
    WITHDRAWN = "retrait"
    NEW = "nouveau"
    RETURNING = "retour"
    WAITING = "en attente"  # new or returning, without a place next season (no group to open for him)


@dataclass(frozen=True)
class Movement:
    """A player's fate at the end of season and his group next season (None: he leaves)."""

    player: Player
    move: Move
    standing: Standing | None = None
    division: int | None = None
    group: int | None = None
    origin: str = ""  # the source's notation: 3d2g1, n4 (4th new player by Elo), retour

    @property
    def champion(self) -> bool:
        return self.standing is not None and self.player.division == 1 and self.standing.position == 1


@dataclass
class NextSeason:
    """The end of season (§4): every player's movement, next season's groups and remarks."""

    movements: list[Movement]
    groups: dict[tuple[int, int], list[Movement]]
    warnings: list[str] = field(default_factory=list)


def snake(count: int, capacities: Sequence[int]) -> list[int]:
    """§4: the mini-group of each of ``count`` players sorted by Elo, dealt in a snake (A B C D, D C B A…);
    a full mini-group is skipped."""
    if sum(capacities) < count:
        raise InvalidInput(f"{count} joueurs pour {sum(capacities)} places")
    left = list(capacities)
    forth = range(len(capacities))
    order = cycle(chain(forth, reversed(forth)))
    dealt = []
    for _ in range(count):
        index = next(i for i in order if left[i] > 0)
        left[index] -= 1
        dealt.append(index)
    return dealt


def _balance(sizes: Sequence[int], count: int, order: Sequence[int]) -> list[int]:
    """How many of ``count`` players each group takes so that group sizes stay within one (§4), the
    smallest groups first, then in the drawn ``order``."""
    taken = [0] * len(sizes)
    rank = {g: i for i, g in enumerate(order)}
    for _ in range(count):
        g = min(range(len(sizes)), key=lambda j: (sizes[j] + taken[j], rank[j]))
        taken[g] += 1
    return taken


def by_elo(players: Iterable[Player]) -> list[Player]:
    """§4: players by Elo, highest first (then by name, so that the typing order does not matter)."""
    return sorted(players, key=lambda p: (-rank_key(p.elo), fold(p.name), p.name))



Key = tuple[int, int]  # (division, group)


class _Composer:
    """The end-of-season state, division by division from the top (§4)."""

    def __init__(self, standings: Mapping[Key, Sequence[Standing]], rng: random.Random,
                 returning_at: Mapping[int, list[Player]]):
        self.rng = rng
        self.standings = standings
        self.lowest = max(d for d, _ in standings)
        self.moves: dict[str, Movement] = {}
        self.warnings: list[str] = []
        self.ups: dict[Key, list[Standing]] = {}
        self.stayers: dict[Key, list[Standing]] = {}
        self.downs: dict[Key, list[Standing]] = {}
        self.vacant: dict[Key, int] = {}  # places leavers left among a group's stayers
        self.internal: dict[Key, int] = defaultdict(int)  # of them, rescued within the group
        self.returning_at = {d: list(players) for d, players in returning_at.items()}
        self.carried: list[Player] = []  # returning players without a place in their division: the next one down
        self.holes: dict[int, int] = {}  # places of a division nobody could fill
        self.waiting: list[Movement] = []
        for key, table in standings.items():
            self._split(key, table)

    def _split(self, key: Key, table: Sequence[Standing]) -> None:
        """§4, source « Repêchages »: who of a group moves up, stays or goes down before repêchages. With a
        leader gone, « le joueur classé troisième monte »; a leaver who was to stay or move up leaves a place
        among the stayers (cases 1, 2); one who was to go down leaves none (case 3: « Il n'y a pas de
        repêchage »), as a forfeit player, « implicitement classé dernier »."""
        d = key[0]
        present = [s for s in table if not s.player.status.leaves]
        ups = present[:UP if d > 1 else 0]
        up_names = {s.player.name for s in ups}
        if d == self.lowest:
            stay = present[len(ups):]
            quota = len(stay)
        else:
            quota = STAY_D1 if d == 1 else STAY
            zone = (UP if d > 1 else 0) + quota
            stay = [s for s in table[:zone] if not s.player.status.leaves and s.player.name not in up_names]
        kept = up_names | {s.player.name for s in stay}
        self.ups[key], self.stayers[key] = ups, stay
        self.downs[key] = [s for s in present if s.player.name not in kept]
        self.vacant[key] = quota - len(stay)
        for s in table:
            if s.player.status.leaves:
                move = Move.FORFEIT if s.player.status is Status.FORFEIT else Move.WITHDRAWN
                self.moves[s.player.name] = Movement(s.player, move, s)

    def _groups(self, d: int) -> list[Key]:
        return [(d, g) for g in range(1, groups_in(d) + 1)]

    def _best(self, candidates: list[Standing]) -> Standing:
        return min(candidates, key=lambda s: (s.position,) + _merit(s) + (fold(s.player.name), s.player.name))

    def rescue_within(self, d: int, returned: int, limit: int) -> list[Standing]:
        """Source « Repêchages »: a place a leaver left in his group « sera comblée en priorité par le retour
        d'un participant ayant évolué à ce niveau. Sinon, elle sera comblée par un repêchage au sein du
        groupe »: the ``returned`` players of this level take such places first (where most are open, first
        where the group has nobody to rescue); each other one goes to the best of the group's players who
        were to go down (« le mieux classé de ceux qui devaient descendre »), ``limit`` in all."""
        groups = self._groups(d)
        open_places = {k: self.vacant[k] for k in groups}
        for _ in range(returned):
            candidates = [k for k in groups if open_places[k] > 0]
            if not candidates:
                break
            k = max(candidates, key=lambda k: (open_places[k] > len(self.downs[k]), open_places[k], -k[1]))
            open_places[k] -= 1
        rescued: list[Standing] = []
        for k in groups:
            take = self.downs[k][:min(open_places[k], max(limit - len(rescued), 0))]
            del self.downs[k][:len(take)]
            self.internal[k] = len(take)
            rescued += take
        return rescued

    def rescue(self, d: int, vacancies: int) -> list[Standing]:
        """Fill places of division d from its players who were to go down: totals per group within one,
        then places due to other groups spread fairly, then by ranking; else the best of those who were
        to stay in the division below (§4, source « Repêchages au sein d'une division »)."""
        rescued: list[Standing] = []
        external: dict[Key, int] = defaultdict(int)
        groups = self._groups(d)
        while vacancies > 0 and any(self.downs[k] for k in groups):
            k = min((k for k in groups if self.downs[k]), key=lambda k: (
                self.internal[k] + external[k], external[k], self.downs[k][0].position)
                + _merit(self.downs[k][0]) + (k,))
            rescued.append(self.downs[k].pop(0))
            external[k] += 1
            vacancies -= 1
        below = self._groups(d + 1) if d < self.lowest else []
        while vacancies > 0 and any(self.stayers[k] for k in below):
            best = self._best([s for k in below for s in self.stayers[k]])
            home = next(k for k in below if best in self.stayers[k])
            self.stayers[home].remove(best)
            self.moves[best.player.name] = Movement(best.player, Move.RESCUED_UP, best)
            rescued.append(best)
            vacancies -= 1
        return rescued

    def place_stayers(self, d: int, slots: list[list[Movement]]) -> int:
        """§4: « un 3e, un 4e, un 5e et un 6e provenant des différents groupes et répartis par permutation
        circulaire »: the k-th stayer of old group i goes to new group i - k."""
        G = len(slots)
        placed = 0
        for g in range(1, G + 1):
            for k, s in enumerate(self.stayers[d, g]):
                move = Move.RESCUED if s.position > _zone(d, self.lowest) else Move.STAY
                slots[(g - 1 - k) % G].append(Movement(s.player, move, s, origin=s.label))
                placed += 1
        return placed

    def place_downs(self, d: int, slots: list[list[Movement]]) -> tuple[int, list[Standing]]:
        """§4: from division d - 1, « soit un 7e et un 10e, soit un 8e et un 9e, venant si possible de 2 groupes
        différents », drawn; returns how many were placed and those beyond the 10th (placed where there is room)."""
        G = len(slots)
        above = groups_in(d - 1)
        shift = self.rng.randrange(1, above) if above > 1 else 0
        pairs = []
        for i in range(1, above + 1):
            mine, other = self.downs[d - 1, i], self.downs[d - 1, (i - 1 + shift) % above + 1]
            for first, second in ((7, 10), (8, 9)):  # a hole where a player was rescued or left
                pairs.append([x for x in (_placed(mine, first), _placed(other, second)) if x is not None])
        self.rng.shuffle(pairs)
        placed = 0
        for j, pair in enumerate(pairs):
            for s in pair:
                slots[j % G].append(Movement(s.player, Move.DOWN, s, origin=s.label))
                placed += 1
        beyond = [s for i in range(1, above + 1) for s in self.downs[d - 1, i] if s.position > GROUP_SIZE]
        return placed, beyond

    def place_ups(self, d: int, slots: list[list[Movement]]) -> int:
        """§4: from division d + 1, « deux 1er et deux 2e venant si possible de groupes différents », drawn."""
        below = list(range(1, groups_in(d + 1) + 1))
        self.rng.shuffle(below)
        n = len(below)
        placed = 0
        for j, slot in enumerate(slots):
            for rank, offset in ((0, 0), (0, 1), (1, 2), (1, 3)):
                up = _at(self.ups[d + 1, below[(2 * j + offset) % n]], rank)
                if up is not None:
                    slot.append(Movement(up.player, Move.UP, up, origin=up.label))
                    placed += 1
        return placed

    def returning(self, d: int) -> list[Player]:
        """Returning players looking for a place in division d: those of this level first (« le retour d'un
        participant ayant évolué à ce niveau »), then those who found none higher up."""
        back = self.returning_at.get(d, []) + self.carried
        self.carried = []
        return back


def _division(c: _Composer, d: int) -> list[list[Movement]]:
    """§4: next season's groups of a division above the lowest: stayers, players coming down and up, then
    its vacant places filled by returning players, then by repêchages (source « Repêchages »)."""
    G = groups_in(d)
    slots: list[list[Movement]] = [[] for _ in range(G)]
    placed = c.place_stayers(d, slots)
    extra: list[Standing] = []
    if d > 1:
        down, extra = c.place_downs(d, slots)
        placed += down
    placed += c.place_ups(d, slots)
    vacancies = GROUP_SIZE * G - placed - len(extra)
    back = c.returning(d)
    taken = back[:max(vacancies, 0)]
    c.carried = back[len(taken):]
    vacancies -= len(taken)
    arrivals = [Movement(p, Move.RETURNING, origin="retour") for p in taken]
    within = c.rescue_within(d, len(taken), vacancies)
    for s in within + c.rescue(d, vacancies - len(within)):
        earlier = c.moves.get(s.player.name)
        kind = earlier.move if earlier is not None else Move.RESCUED
        arrivals.append(Movement(s.player, kind, s, origin=s.label))
    arrivals += [Movement(s.player, _kind(s, d), s, origin=s.label) for s in extra]
    _fill_holes(slots, arrivals, c.rng)
    short = GROUP_SIZE * G - sum(len(slot) for slot in slots)
    if short > 0:
        c.holes[d] = short
        c.warnings.append(f"D{d} : {short} place{'s' if short > 1 else ''} sans joueur la saison "
                          "prochaine (plus personne à repêcher).")
    return slots


def _lowest_division(c: _Composer, d: int, newcomers: Sequence[Player]) -> dict[Key, list[Movement]]:
    """§4: the lowest division keeps all its players but its two best of each group; it receives the
    players coming down, returning players, then the new ones (« Les retours d'anciens participants sont
    toutefois prioritaires »)."""
    slots: list[list[Movement]] = [[] for _ in range(groups_in(d))]
    c.place_stayers(d, slots)
    extra: list[Standing] = []
    if d > 1:
        _, extra = c.place_downs(d, slots)
    moved = [Movement(s.player, _kind(s, d), s, origin=s.label) for s in extra]
    returns = [Movement(p, Move.RETURNING, origin="retour") for p in c.returning(d)]
    return _lowest(d, slots, moved + returns, _number_newcomers(newcomers), c)


def _check_standings(standings: Mapping[Key, Sequence[Standing]]) -> int:
    """The standings' pyramid is whole and each player is in the group he is ranked in; the lowest division."""
    for (d, g), table in standings.items():
        if not 1 <= g <= groups_in(d):
            raise InvalidInput(f"D{d} n'a que {groups_in(d)} groupes ; trouvé le groupe {g}")
        for s in table:
            if (s.player.division, s.player.group) != (d, g):
                raise InvalidInput(f"{s.player.name} est classé en D{d} groupe {g} mais sa fiche indique "
                                   f"division {_shown(s.player.division)}, groupe {_shown(s.player.group)}")
    lowest = max(d for d, _ in standings)
    missing = [f"D{d} groupe {g}" for d in range(1, lowest + 1) for g in range(1, groups_in(d) + 1)
               if (d, g) not in standings]
    if missing:
        raise InvalidInput(f"groupes sans joueurs : {', '.join(missing)} (chaque division d a 2^(d-1) groupes)")
    return lowest


def next_season(standings: Mapping[Key, Sequence[Standing]], newcomers: Sequence[Player] = (),
                returning: Sequence[Player] = (), seed: object = 0) -> NextSeason:
    """§4: who moves up, stays, goes down or is rescued, and next season's groups: stayers by circular
    permutation, pairs coming down (7th + 10th, 8th + 9th) and two 1sts + two 2nds coming up drawn into
    groups, returning players where there is a place, new players dealt in a snake by Elo into the lowest
    division. ``standings``: each group's standings by (division, group), its players carrying that division
    and group; draws follow ``seed``.

    A returning player comes back « dans la division dans laquelle il se serait trouvé … (ou dans la division
    la plus proche possible) » (source « Retrait du championnat »): without a place at his level, the nearest
    division with one, below or above (above: a place nobody else could fill; at equal distance, above)."""
    if not standings:
        return _first_season(list(newcomers) + list(returning), random.Random(f"torres-saison-suivante:{seed}"))
    lowest = _check_standings(standings)
    home = {p.name: min(p.division or lowest, lowest) for p in by_elo(returning)}
    levels = dict(home)
    for _ in range(len(returning) * lowest + 1):
        result, holes = _compose(standings, newcomers, returning, levels, seed)
        closer = _closer_above(result, holes, home, levels)
        if closer is None:
            break
        levels[closer[0]] = closer[1]
    return result


def _closer_above(result: NextSeason, holes: Mapping[int, int], home: Mapping[str, int],
                  levels: Mapping[str, int]) -> tuple[str, int] | None:
    """A returning player placed farther from his level than a division above with places nobody could fill,
    and that division (the nearest); None when there is none."""
    at = {m.player.name: m.division for m in result.movements if m.move in (Move.RETURNING, Move.WAITING)}
    for name, level in home.items():
        placed = at.get(name)
        distance = abs(placed - level) if placed is not None else 10 ** 9
        above = [a for a, short in holes.items() if short > 0 and a < levels[name] and level - a <= distance]
        if above:
            return name, max(above)
    return None


def _compose(standings: Mapping[Key, Sequence[Standing]], newcomers: Sequence[Player],
             returning: Sequence[Player], levels: Mapping[str, int], seed: object) -> tuple[NextSeason, dict[int, int]]:
    """§4: next season, returning players looking first in the division ``levels`` gives them; and the places
    of each division that nobody could fill."""
    rng = random.Random(f"torres-saison-suivante:{seed}")
    returning_at: dict[int, list[Player]] = defaultdict(list)
    for p in by_elo(returning):
        returning_at[levels[p.name]].append(p)
    c = _Composer(standings, rng, returning_at)
    groups: dict[Key, list[Movement]] = {}
    for d in range(1, c.lowest):
        for j, slot in enumerate(_division(c, d), start=1):
            groups[d, j] = slot
    groups.update(_lowest_division(c, c.lowest, newcomers))
    for (d, j), slot in groups.items():
        for i, m in enumerate(slot):
            slot[i] = Movement(m.player, m.move, m.standing, d, j, m.origin)
            c.moves[m.player.name] = slot[i]
    for m in c.waiting:
        c.moves[m.player.name] = m
    for s in chain.from_iterable(c.downs.values()):
        if s.player.name not in c.moves:
            c.moves[s.player.name] = Movement(s.player, Move.DOWN, s)
    movements = _movement_order(standings, c.moves, newcomers, returning)
    for key in groups:
        groups[key].sort(key=_slot_order)
    return NextSeason(movements, dict(sorted(groups.items())), c.warnings), c.holes


def _shown(number: int | None) -> str:
    """A division or group as the message shows it: « vide » when missing."""
    return "vide" if number is None else str(number)


def _kind(s: Standing, d: int) -> Move:
    """The move of a player placed in division d beyond the usual places."""
    came = s.player.division or d
    return Move.DOWN if came < d else Move.UP if came > d else Move.RESCUED


def _zone(d: int, lowest: int) -> int:
    """Last position of a group that keeps or improves its division (§4), before repêchages."""
    if d == lowest:
        return 10 ** 9
    return STAY_D1 if d == 1 else UP + STAY


def _placed(items: Sequence[Standing], position: int) -> Standing | None:
    return next((s for s in items if s.position == position), None)


def _at(items: Sequence[Standing], index: int) -> Standing | None:
    return items[index] if index < len(items) else None


def _fill_holes(slots: list[list[Movement]], arrivals: list[Movement], rng: random.Random) -> None:
    """Players filling vacant places go, drawn, to the groups short of ten (the smallest first)."""
    arrivals = list(arrivals)
    rng.shuffle(arrivals)
    holes = [j for j, slot in enumerate(slots) for _ in range(GROUP_SIZE - len(slot))]
    rng.shuffle(holes)
    for m, j in zip(arrivals, holes):
        slots[j].append(m)
    for m in arrivals[len(holes):]:
        min(slots, key=len).append(m)


def _number_newcomers(newcomers: Sequence[Player]) -> list[Movement]:
    """New players by Elo, named n1, n2… as in the source's example (§4)."""
    return [Movement(p, Move.NEW, origin=f"n{i}") for i, p in enumerate(by_elo(newcomers), start=1)]


def _opens(d: int, count: int) -> bool:
    """Whether ``count`` players beyond the lowest division's groups of ten open division d: each of its
    2 ** (d - 1) groups must get a match's worth of players (a division of mostly empty groups never opens)."""
    return count >= MATCH_SIZE * groups_in(d)


def _deal_all(slots: list[list[Movement]], incoming: list[Movement], rng: random.Random) -> None:
    """:func:`_deal` of ``incoming``: the returning (and coming-down) players first, then the new ones."""
    _deal(slots, [m for m in incoming if m.move is not Move.NEW], [m for m in incoming if m.move is Move.NEW], rng)


def _overflow(d: int, beyond: list[Movement], groups: dict[Key, list[Movement]], c: _Composer) -> None:
    """§4: players past ten per group in the lowest division D{d}: a D{d+1} opens if its groups can all play (or
    players coming down must have a place), else they wait for a later season."""
    if not beyond:
        return
    must = [m for m in beyond if m.move not in (Move.NEW, Move.RETURNING)]
    if must or _opens(d + 1, len(beyond)):
        more: list[list[Movement]] = [[] for _ in range(groups_in(d + 1))]
        _deal_all(more, beyond, c.rng)
        groups.update({(d + 1, j): slot for j, slot in enumerate(more, start=1)})
        c.warnings.append(f"Plus de {GROUP_SIZE} joueurs par groupe en D{d} : une D{d + 1} de {len(more)} groupes "
                          f"s'ouvre pour {len(beyond)} joueurs.")
    else:
        c.waiting += [Movement(m.player, Move.WAITING, origin=m.origin) for m in beyond]
        c.warnings.append(_waiting_warning(d, [m.player.name for m in beyond]))


def _lowest(d: int, slots: list[list[Movement]], back: list[Movement], news: list[Movement],
            c: _Composer) -> dict[Key, list[Movement]]:
    """§4: the lowest division: returning players, then new players dealt in a snake by Elo into
    mini-groups, each drawn into a group, groups « équilibrés en nombre de joueurs »; past ten per group,
    a new division opens if its groups can all play, else the last by priority wait for a later season."""
    G = len(slots)
    room = max(0, GROUP_SIZE * G - sum(len(s) for s in slots))
    incoming = back + news
    here, beyond = incoming[:room], incoming[room:]
    _deal_all(slots, here, c.rng)
    groups = {(d, j): slot for j, slot in enumerate(slots, start=1)}
    _overflow(d, beyond, groups, c)
    c.warnings += _size_warnings(groups, " la saison prochaine")
    return groups


def _waiting_warning(d: int, names: Sequence[str]) -> str:
    """Players left without a place: the groups of D{d} are full and D{d+1} cannot open for so few."""
    n = len(names)
    return (f"{n} joueur{'s' if n > 1 else ''} sans place la saison prochaine (en attente) : les groupes de la "
            f"D{d} sont complets et une D{d + 1} de {groups_in(d + 1)} groupes ne s'ouvre qu'à partir de "
            f"{MATCH_SIZE * groups_in(d + 1)} joueurs ({MATCH_SIZE} par groupe) : {', '.join(names)}.")


def _size_warnings(groups: Mapping[Key, list[Movement]], when: str) -> list[str]:
    """Groups too small for a match, and sizes without a schedule where every pair meets twice (§1)."""
    warnings = []
    by_size: dict[tuple[int, int], list[int]] = defaultdict(list)
    for (d, j), slot in groups.items():
        if len(slot) < MATCH_SIZE:
            warnings.append(f"D{d} groupe {j} : {len(slot)} joueur{'s' if len(slot) > 1 else ''} seulement{when}.")
        elif len(slot) <= GROUP_SIZE and schedule_note(len(slot)):
            by_size[d, len(slot)].append(j)
    for (d, size), which in sorted(by_size.items()):
        named = f"groupe{'s' if len(which) > 1 else ''} {', '.join(map(str, which))}"
        warnings.append(f"D{d} {named} : {size} joueurs{when} ; {schedule_note(size)}.")
    return warnings


def _deal(slots: list[list[Movement]], back: list[Movement], news: list[Movement], rng: random.Random) -> None:
    """Returning players to the smallest groups, then new players in a snake, mini-groups drawn (§4); groups
    too large to end balanced first give up players (:func:`_trim`), placed like returning ones."""
    order = list(range(len(slots)))
    rng.shuffle(order)
    back = _trim(slots, len(back) + len(news), order) + back
    for m, j in zip(back, _spread([len(s) for s in slots], len(back), order)):
        slots[j].append(m)
    taken = _balance([len(s) for s in slots], len(news), order)
    mini = snake(len(news), [taken[g] for g in order])  # mini-group i goes to the drawn group order[i]
    for m, i in zip(news, mini):
        slots[order[i]].append(m)


def _trim(slots: list[list[Movement]], incoming: int, order: Sequence[int]) -> list[Movement]:
    """§4 (« Les groupes de la division la plus basse devront être équilibrés en nombre de joueurs »): take out
    of each group what it has beyond its balanced size once ``incoming`` more are dealt, the largest groups
    keeping the extra ones; first its own division's players placed below the 6th, then the worst placed."""
    total = sum(len(s) for s in slots) + incoming
    base, more = divmod(total, len(slots))
    rank = {g: i for i, g in enumerate(order)}
    largest = sorted(range(len(slots)), key=lambda j: (-len(slots[j]), rank[j]))
    cap = {j: base + (1 if i < more else 0) for i, j in enumerate(largest)}
    out: list[Movement] = []
    for j in sorted(range(len(slots)), key=lambda j: rank[j]):
        while len(slots[j]) > cap[j]:
            m = max(slots[j], key=_trim_order)
            slots[j].remove(m)
            out.append(m)
    return out


def _trim_order(m: Movement) -> tuple[int, int]:
    """Who a group gives up first to balance the lowest division (highest first)."""
    s = m.standing
    if s is None:
        return (3, 0)
    own = m.move in (Move.STAY, Move.RESCUED)  # a player of this division (not one coming down)
    return (2 if own and s.position > UP + STAY else 1 if own else 0, s.position)


def _spread(sizes: list[int], count: int, order: Sequence[int]) -> list[int]:
    taken = _balance(sizes, count, order)
    return [g for g in order for _ in range(taken[g])]


def _first_season(players: list[Player], rng: random.Random) -> NextSeason:
    """§4 (source « Répartition des groupes »): the first season fills D1, D2… by Boîte à Jeux Elo;
    each division's players are dealt in a snake into its groups; a division below D1 opens only if each of
    its groups gets a match's worth of players, the others wait."""
    news = _number_newcomers(players)
    groups: dict[Key, list[Movement]] = {}
    d, start = 1, 0
    while start < len(news) and (d == 1 or _opens(d, len(news) - start)):
        size = GROUP_SIZE * groups_in(d)
        chunk = news[start:start + size]
        slots: list[list[Movement]] = [[] for _ in range(groups_in(d))]
        _deal(slots, [], chunk, rng)
        for j, slot in enumerate(slots, start=1):
            groups[d, j] = [Movement(m.player, Move.NEW, None, d, j, m.origin) for m in slot]
        start += size
        d += 1
    warnings = _size_warnings(groups, "")
    waiting = [Movement(m.player, Move.WAITING, origin=m.origin) for m in news[start:]]
    if waiting:
        warnings.append(_waiting_warning(d - 1, [m.player.name for m in waiting]))
    movements = [m for slot in groups.values() for m in slot]
    movements.sort(key=lambda m: (m.division, m.group, _slot_order(m)))
    for key in groups:
        groups[key].sort(key=_slot_order)
    return NextSeason(movements + waiting, groups, warnings)


_KIND_ORDER = {Move.UP: 2, Move.STAY: 0, Move.RESCUED: 0, Move.DOWN: 1, Move.RESCUED_UP: 2, Move.RETURNING: 3,
               Move.NEW: 4}


def _slot_order(m: Movement) -> tuple[int | str, ...]:
    """A group's players as the source lists them: from above, stayers, from below, returning, new."""
    s = m.standing
    if s is None:
        return (_KIND_ORDER.get(m.move, 5), 0, 0, 0, int(m.origin[1:]) if m.origin.startswith("n") else 0,
                fold(m.player.name))
    came = s.player.division or 0
    kind = 0 if came < (m.division or 0) else 2 if came > (m.division or 0) else 1  # above, same, below
    return (kind, s.position, came, s.player.group or 0, 0, fold(m.player.name))


# --- From one season to the next: the roster of next season's workbook ----------------------------


@dataclass(frozen=True)
class Carried:
    """A line of next season's ``Joueurs`` table: a player, his Elo (this season's, until the organiser types the
    new season's), his division and group, and his status."""

    name: str
    elo: float
    division: int | None
    group: int | None
    status: Status


def return_division(standing: Standing, lowest: int) -> int:
    """Source « Retrait du championnat »: a withdrawn player « sera réintégré dans la division dans laquelle il se
    serait trouvé au début de la saison suivante »: the one his place gave (§4: the two best of a group below D1
    move up, the 1st-6th of D1 and the 3rd-6th elsewhere stay, the others go down; the lowest division keeps
    everyone but those moving up)."""
    d = standing.player.division or lowest
    if d > 1 and standing.position <= UP:
        return d - 1
    if d >= lowest or standing.position <= _zone(d, lowest):
        return d
    return d + 1


def carry_over(players: Sequence[Player], standings: Mapping[Key, Sequence[Standing]],
               following: NextSeason) -> list[Carried]:
    """§4, for next season's workbook: everyone placed in next season's groups plays there (status « actif »);
    a new or returning player still waiting keeps his status (« Les retours … sont toutefois prioritaires »);
    a forfeit player leaves (« parti »), and « pourra se réinscrire …, mais y accèdera par la division la plus
    basse » (no division kept: he comes back « nouveau »); a withdrawn player leaves with the division he
    would have been in (:func:`return_division`), where he comes back « retour »; a player who had left stays
    so. In next season's order: groups by division then group, then the others in this season's order."""
    lowest = max((d for d, _ in standings), default=1)
    out: list[Carried] = []
    placed: set[str] = set()
    for (d, g), members in following.groups.items():
        for member in members:
            out.append(Carried(member.player.name, member.player.elo, d, g, Status.ACTIVE))
            placed.add(member.player.name)
    moves = {m.player.name: m for m in following.movements}
    for p in players:
        if p.name in placed:
            continue
        m = moves.get(p.name)
        if p.status is Status.LEFT or (m is not None and m.move is Move.WAITING):
            out.append(Carried(p.name, p.elo, p.division, None, p.status))
        elif m is not None and m.move is Move.FORFEIT:
            out.append(Carried(p.name, p.elo, None, None, Status.LEFT))
        elif m is not None and m.standing is not None:
            out.append(Carried(p.name, p.elo, m.division or return_division(m.standing, lowest), None, Status.LEFT))
    return out


def _movement_order(standings: Mapping[tuple[int, int], Sequence[Standing]], moves: dict[str, Movement],
                    newcomers: Sequence[Player], returning: Sequence[Player]) -> list[Movement]:
    """Movements in standings order (division, group, position), then returning and new players."""
    ordered = [moves[s.player.name] for key in sorted(standings) for s in standings[key]]
    ordered += [moves[p.name] for p in chain(by_elo(returning), by_elo(newcomers))]
    return ordered
