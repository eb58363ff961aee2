"""TORRES championship on Boîte à Jeux: match scoring, group standings, movements between
divisions, the group schedule and next season's groups.

Rules: ``../shared/rules/torres.md``; source ``../shared/rules/sources/torres-championnat.txt``
(the source wins where they differ). Sections cited as in torres.md, in order: §1 Structure,
§2 Scoring a match, §3 Group standings, §4 End of season.
Nothing is rounded here; rounding is for display only.
"""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass, field
from enum import Enum
from itertools import chain, cycle
from typing import Iterable, Mapping, Sequence

from .errors import InvalidInput
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


def groups_in(division: int) -> int:
    """§1: division d has 2 ** (d - 1) groups (D1 one, D2 two, D3 four…)."""
    if division < 1:
        raise InvalidInput(f"division attendue : 1 ou plus ; trouvé {division}")
    return 2 ** (division - 1)


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
    player (fictitious, or who delayed an unfinished match), the others placed among themselves."""
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
        return self.delayed or self.fictitious


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

    @classmethod
    def parse(cls, text: object) -> "Status | None":
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


def _merit(s: Standing) -> tuple:
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


def schedule_group(players: Sequence[str], seed: object) -> list[tuple[str, ...]]:
    """§1: the matches of a group, every pair of players together exactly twice (a group of ten:
    15 matches, six each); players, matches and seats are drawn, the same seed giving the same schedule."""
    design = DESIGNS.get(len(players))
    if design is None:
        raise InvalidInput(f"un groupe de {len(players)} joueurs n'a pas de calendrier où chaque paire se "
                           f"rencontre exactement deux fois (possible à {', '.join(map(str, DESIGNS))} joueurs)")
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


class _Composer:
    """The end-of-season state, division by division from the top (§4)."""

    def __init__(self, standings: Mapping[tuple[int, int], Sequence[Standing]], rng: random.Random):
        self.rng = rng
        self.standings = standings
        self.lowest = max(d for d, _ in standings)
        self.moves: dict[str, Movement] = {}
        self.warnings: list[str] = []
        self.ups: dict[tuple[int, int], list[Standing]] = {}
        self.stayers: dict[tuple[int, int], list[Standing]] = {}
        self.downs: dict[tuple[int, int], list[Standing]] = {}
        self.internal: dict[tuple[int, int], int] = {}
        for (d, g), table in standings.items():
            present = [s for s in table if not s.player.status.leaves]
            ups = UP if d > 1 else 0
            quota = len(present) if d == self.lowest else STAY_D1 if d == 1 else STAY
            zone = ups + quota
            self.ups[d, g] = present[:ups]
            self.stayers[d, g] = present[ups:zone]
            self.downs[d, g] = present[zone:]
            kept = len(present[:zone])
            self.internal[d, g] = kept - sum(1 for s in table[:zone] if not s.player.status.leaves)
            for s in table:
                if s.player.status.leaves:
                    move = Move.FORFEIT if s.player.status is Status.FORFEIT else Move.WITHDRAWN
                    self.moves[s.player.name] = Movement(s.player, move, s)

    def _best(self, candidates: list[Standing]) -> Standing:
        return min(candidates, key=lambda s: (s.position,) + _merit(s) + (fold(s.player.name), s.player.name))

    def rescue(self, d: int, vacancies: int) -> list[Standing]:
        """Fill places of division d from its players who were to go down: totals per group within one,
        then places due to other groups spread fairly, then by ranking; else the best of those who were
        to stay in the division below (§4, source « Repêchages »)."""
        rescued: list[Standing] = []
        external: dict[tuple[int, int], int] = defaultdict(int)
        groups = [(d, g) for g in range(1, groups_in(d) + 1)]
        while vacancies > 0 and any(self.downs[k] for k in groups):
            k = min((k for k in groups if self.downs[k]), key=lambda k: (
                self.internal[k] + external[k], external[k], self.downs[k][0].position)
                + _merit(self.downs[k][0]) + (k,))
            rescued.append(self.downs[k].pop(0))
            external[k] += 1
            vacancies -= 1
        below = [(d + 1, g) for g in range(1, groups_in(d + 1) + 1)] if d < self.lowest else []
        while vacancies > 0 and any(self.stayers[k] for k in below):
            best = self._best([s for k in below for s in self.stayers[k]])
            home = next(k for k in below if best in self.stayers[k])
            self.stayers[home].remove(best)
            self.moves[best.player.name] = Movement(best.player, Move.RESCUED_UP, best)
            rescued.append(best)
            vacancies -= 1
        return rescued


def next_season(standings: Mapping[tuple[int, int], Sequence[Standing]], newcomers: Sequence[Player] = (),
                returning: Sequence[Player] = (), seed: object = 0) -> NextSeason:
    """§4: who moves up, stays, goes down or is rescued, and next season's groups: stayers by circular
    permutation, pairs coming down (7th + 10th, 8th + 9th) and two 1sts + two 2nds coming up drawn into
    groups, returning players where there is a place, new players dealt in a snake by Elo into the lowest
    division. ``standings``: each group's standings by (division, group), its players carrying that division
    and group; draws follow ``seed``."""
    rng = random.Random(f"torres-saison-suivante:{seed}")
    if not standings:
        return _first_season(list(newcomers) + list(returning), rng)
    for (d, g), table in standings.items():
        if not 1 <= g <= groups_in(d):
            raise InvalidInput(f"D{d} n'a que {groups_in(d)} groupes ; trouvé le groupe {g}")
        for s in table:
            if (s.player.division, s.player.group) != (d, g):
                raise InvalidInput(f"{s.player.name} est classé en D{d} groupe {g} mais sa fiche indique "
                                   f"division {_shown(s.player.division)}, groupe {_shown(s.player.group)}")
    c = _Composer(standings, rng)
    lowest = c.lowest
    missing = [f"D{d} groupe {g}" for d in range(1, lowest + 1) for g in range(1, groups_in(d) + 1)
               if (d, g) not in standings]
    if missing:
        raise InvalidInput(f"groupes sans joueurs : {', '.join(missing)} (chaque division d a 2^(d-1) groupes)")
    groups: dict[tuple[int, int], list[Movement]] = {}
    waiting = by_elo(p for p in returning)
    returning_at: dict[int, list[Player]] = defaultdict(list)
    for p in waiting:
        returning_at[min(p.division or lowest, lowest)].append(p)
    carried: list[Player] = []  # returning players without a place in their division: the next one down
    for d in range(1, lowest + 1):
        G = groups_in(d)
        slots: list[list[Movement]] = [[] for _ in range(G)]
        quota = None if d == lowest else STAY_D1 if d == 1 else STAY
        # Stayers: the k-th stayer of old group i goes to new group i - k (circular permutation).
        for g in range(1, G + 1):
            for k, s in enumerate(c.stayers[d, g][:quota]):
                move = Move.RESCUED if s.position > _zone(d, lowest) else Move.STAY
                slots[(g - 1 - k) % G].append(Movement(s.player, move, s, origin=s.label))
        placed = sum(len(slot) for slot in slots)
        extra = [s for g in range(1, G + 1) for s in c.stayers[d, g][quota:]] if quota else []
        # Coming down from d - 1: pairs (7th, 10th) and (8th, 9th) of two different groups, drawn.
        if d > 1:
            above = groups_in(d - 1)
            shift = rng.randrange(1, above) if above > 1 else 0
            pairs = []
            for i in range(1, above + 1):
                mine, other = c.downs[d - 1, i], c.downs[d - 1, (i - 1 + shift) % above + 1]
                for first, second in ((7, 10), (8, 9)):  # a hole where a player was rescued or left
                    pairs.append([x for x in (_placed(mine, first), _placed(other, second)) if x is not None])
            rng.shuffle(pairs)
            for j, pair in enumerate(pairs):
                for s in pair:
                    slots[j % G].append(Movement(s.player, Move.DOWN, s, origin=s.label))
                    placed += 1
            extra += [s for i in range(1, above + 1) for s in c.downs[d - 1, i] if s.position > GROUP_SIZE]
        # Coming up from d + 1: two 1sts and two 2nds of four different groups, drawn.
        if d < lowest:
            below = list(range(1, groups_in(d + 1) + 1))
            rng.shuffle(below)
            n = len(below)
            for j in range(G):
                for rank, offset in ((0, 0), (0, 1), (1, 2), (1, 3)):
                    up = _at(c.ups[d + 1, below[(2 * j + offset) % n]], rank)
                    if up is not None:
                        slots[j].append(Movement(up.player, Move.UP, up, origin=up.label))
                        placed += 1
        arrivals: list[Movement] = []
        if d < lowest:
            vacancies = GROUP_SIZE * G - placed - len(extra)
            back = carried + returning_at[d]
            carried = []
            for p in back:
                if vacancies > 0:
                    arrivals.append(Movement(p, Move.RETURNING, origin="retour"))
                    vacancies -= 1
                else:
                    carried.append(p)
            for s in c.rescue(d, vacancies):
                earlier = c.moves.get(s.player.name)
                kind = earlier.move if earlier is not None else Move.RESCUED
                arrivals.append(Movement(s.player, kind, s, origin=s.label))
            arrivals += [Movement(s.player, _kind(s, d), s, origin=s.label) for s in extra]
            _fill_holes(slots, arrivals, rng)
            short = GROUP_SIZE * G - sum(len(slot) for slot in slots)
            if short > 0:
                c.warnings.append(f"D{d} : {short} place{'s' if short > 1 else ''} sans joueur la saison "
                                  "prochaine (plus personne à repêcher).")
        else:
            returns = [Movement(p, Move.RETURNING, origin="retour") for p in carried + returning_at[d]]
            extra_moves = [Movement(s.player, _kind(s, d), s, origin=s.label) for s in extra]
            news = _number_newcomers(newcomers)
            groups.update(_lowest(d, slots, extra_moves + returns, news, rng, c.warnings))
            break
        for j, slot in enumerate(slots, start=1):
            groups[d, j] = slot
    for (d, j), slot in groups.items():
        for i, m in enumerate(slot):
            slot[i] = Movement(m.player, m.move, m.standing, d, j, m.origin)
            c.moves[m.player.name] = slot[i]
    for s in chain.from_iterable(c.downs.values()):
        if s.player.name not in c.moves:
            c.moves[s.player.name] = Movement(s.player, Move.DOWN, s)
    movements = _movement_order(standings, c.moves, newcomers, returning)
    for key in groups:
        groups[key].sort(key=_slot_order)
    return NextSeason(movements, dict(sorted(groups.items())), c.warnings)


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


def _lowest(d: int, slots: list[list[Movement]], back: list[Movement], news: list[Movement],
            rng: random.Random, warnings: list[str]) -> dict[tuple[int, int], list[Movement]]:
    """§4: the lowest division: returning players, then new players dealt in a snake by Elo into
    mini-groups, each drawn into a group, groups balanced; past ten per group, a new division opens."""
    G = len(slots)
    room = max(0, GROUP_SIZE * G - sum(len(s) for s in slots))
    incoming = back + news
    here, beyond = incoming[:room], incoming[room:]
    _deal(slots, [m for m in here if m.move is not Move.NEW], [m for m in here if m.move is Move.NEW], rng)
    groups = {(d, j): slot for j, slot in enumerate(slots, start=1)}
    if beyond:
        more: list[list[Movement]] = [[] for _ in range(groups_in(d + 1))]
        _deal(more, [m for m in beyond if m.move is not Move.NEW], [m for m in beyond if m.move is Move.NEW], rng)
        groups.update({(d + 1, j): slot for j, slot in enumerate(more, start=1)})
        warnings.append(f"Plus de {GROUP_SIZE} joueurs par groupe en D{d} : une D{d + 1} de {len(more)} groupes "
                        f"s'ouvre pour {len(beyond)} nouveaux joueurs.")
    for (dd, j), slot in groups.items():
        if len(slot) < MATCH_SIZE:
            warnings.append(f"D{dd} groupe {j} : {len(slot)} joueur{'s' if len(slot) > 1 else ''} seulement "
                            "la saison prochaine.")
    return groups


def _deal(slots: list[list[Movement]], back: list[Movement], news: list[Movement], rng: random.Random) -> None:
    """Returning players to the smallest groups, then new players in a snake, mini-groups drawn (§4)."""
    order = list(range(len(slots)))
    rng.shuffle(order)
    for m, j in zip(back, _spread([len(s) for s in slots], len(back), order)):
        slots[j].append(m)
    taken = _balance([len(s) for s in slots], len(news), order)
    mini = snake(len(news), [taken[g] for g in order])  # mini-group i goes to the drawn group order[i]
    for m, i in zip(news, mini):
        slots[order[i]].append(m)


def _spread(sizes: list[int], count: int, order: Sequence[int]) -> list[int]:
    taken = _balance(sizes, count, order)
    return [g for g in order for _ in range(taken[g])]


def _first_season(players: list[Player], rng: random.Random) -> NextSeason:
    """§4 (source « Répartition des groupes »): the first season fills D1, D2… by Boîte à Jeux Elo;
    each division's players are dealt in a snake into its groups."""
    news = _number_newcomers(players)
    groups: dict[tuple[int, int], list[Movement]] = {}
    d, start = 1, 0
    while start < len(news):
        size = GROUP_SIZE * groups_in(d)
        chunk = news[start:start + size]
        slots: list[list[Movement]] = [[] for _ in range(groups_in(d))]
        _deal(slots, [], chunk, rng)
        for j, slot in enumerate(slots, start=1):
            groups[d, j] = [Movement(m.player, Move.NEW, None, d, j, m.origin) for m in slot]
        start += size
        d += 1
    warnings = [f"D{dd} groupe {j} : {len(slot)} joueur{'s' if len(slot) > 1 else ''} seulement."
                for (dd, j), slot in groups.items() if len(slot) < MATCH_SIZE]
    movements = [m for slot in groups.values() for m in slot]
    movements.sort(key=lambda m: (m.division, m.group, _slot_order(m)))
    for key in groups:
        groups[key].sort(key=_slot_order)
    return NextSeason(movements, groups, warnings)


_KIND_ORDER = {Move.UP: 2, Move.STAY: 0, Move.RESCUED: 0, Move.DOWN: 1, Move.RESCUED_UP: 2, Move.RETURNING: 3,
               Move.NEW: 4}


def _slot_order(m: Movement) -> tuple:
    """A group's players as the source lists them: from above, stayers, from below, returning, new."""
    s = m.standing
    if s is None:
        return (_KIND_ORDER.get(m.move, 5), 0, 0, 0, int(m.origin[1:]) if m.origin.startswith("n") else 0,
                fold(m.player.name))
    came = s.player.division or 0
    kind = 0 if came < (m.division or 0) else 2 if came > (m.division or 0) else 1  # above, same, below
    return (kind, s.position, came, s.player.group or 0, 0, fold(m.player.name))


def _movement_order(standings, moves: dict[str, Movement], newcomers, returning) -> list[Movement]:
    """Movements in standings order (division, group, position), then returning and new players."""
    ordered = [moves[s.player.name] for key in sorted(standings) for s in standings[key]]
    ordered += [moves[p.name] for p in chain(by_elo(returning), by_elo(newcomers))]
    return ordered
