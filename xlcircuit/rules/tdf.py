"""Tour de France de Diplomatie: points of one tournament (§1) and the weighted season total (§2).

Rules: ``docs/regles/tdf.md``, our French summary of the « règlement du Tour de France de Diplomatie »
(2022-2023), which wins where they differ. Nothing is rounded here ("sans arrondi"); rounding is for display only.
"""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from . import limits
from .errors import InvalidInput, Violation, raise_first
from .mechanics import (
    competition_ranks,
    effective_places,
    format_half_up,
    rank_key,
    rounded_parts,
    share_ties,
    shared_value,
    tie_sizes,
    weighted_best,
    weights_from,
)
from .text import fold

#: Points of a non-classified organiser, helper, or person present at a cancelled tournament (§1).
ROLE_POINTS = 100.0
#: Weights of a player's non-major tournaments, best first (§2); every further one counts TAIL.
WEIGHTS = (1.0, 0.8, 0.4, 0.2)
TAIL = 0.1
#: Classified tournaments needed to be ranked in the season (§2).
MIN_CLASSIFIED = 2
#: Imposed points beyond this are a typing mistake (a tournament gives at most 1000 + x): :mod:`xlcircuit.limits`.
MAX_IMPOSED = limits.MAX_IMPOSED
#: Two totals closer than this are equal (float noise), so the no-loss rule keeps the tournament.
_EPSILON = 1e-9


class Kind(Enum):
    """Kind of a tournament for the season weighting (§2)."""

    NORMAL = "normal"
    MAJOR = "majeur"
    ONLINE = "en ligne"
    MAJOR_ONLINE = "majeur en ligne"  # an online event officially replacing a tabletop major

    @property
    def counts_as_major(self) -> bool:
        return self in (Kind.MAJOR, Kind.MAJOR_ONLINE)

    @classmethod
    def parse(cls, text: object) -> Kind:
        """The kind named by ``text`` (any case, accents optional); blank is ``normal``."""
        key = fold("" if text is None else str(text)) or "normal"
        for kind in cls:
            if fold(kind.value) == key:
                return kind
        raise InvalidInput(
            f"type attendu : {', '.join(k.value for k in cls)} ; trouvé « {text} »"
        )


class Role(Enum):
    """Roles of people who are not classified but get 100 points (§1)."""

    ORGANISER = "organisateur"
    HELPER = "aide"
    CANCELLED = "annulé"  # present when the tournament was cancelled at the last minute

    @classmethod
    def parse(cls, text: object) -> Role | None:
        """The role named by ``text`` (any case, accents optional); blank or ``joueur`` is None."""
        key = fold("" if text is None else str(text))
        if key in ("", "joueur", "joueuse"):
            return None
        for role in cls:
            if fold(role.value) == key or key in _ROLE_ALIASES.get(role.value, ()):
                return role
        raise InvalidInput(
            f"rôle attendu : joueur (ou vide), {', '.join(r.value for r in cls)} ; trouvé « {text} »"
        )


#: Other words organisers use for a role (the source itself says "co-organisateur").
_ROLE_ALIASES = {
    "organisateur": ("organisatrice", "co-organisateur", "co-organisatrice", "coorganisateur", "coorganisatrice"),
    "aide": ("aidant", "aidante"),
    "annulé": ("annulee", "tournoi annule"),
}


# --- §1 Points of one tournament -------------------------------------------------------------


def place_points(place: int, classified: int, interrupted: bool = False) -> float:
    """Points of one untied place among ``classified`` players (§1; interrupted: no winner bonus)."""
    if classified < 1:
        raise InvalidInput(f"nombre de classés attendu : au moins 1 ; trouvé {classified}")
    if not 1 <= place <= classified:
        raise InvalidInput(f"place attendue entre 1 et {classified} ; trouvé {place}")
    if place == 1:
        return 1000.0 if interrupted else 1000.0 + classified
    # Closed form, so that the last place gets exactly 100 (repeated division drifts).
    return 1000.0 / 10 ** ((place - 1) / (classified - 1))


def tied_points(place: int, classified: int, tied: int = 1, interrupted: bool = False) -> float:
    """Points of each of ``tied`` players tied at ``place``: the mean of their places' points (§1)."""
    if tied < 1:
        raise InvalidInput(f"ex aequo attendus : au moins 1 ; trouvé {tied}")
    if place >= 1 and place + tied - 1 > classified:
        raise InvalidInput(
            f"{tied} ex aequo à la place {place} dépassent les {classified} classés"
        )
    return shared_value(place, tied, lambda p: place_points(p, classified, interrupted))


class Status(Enum):
    """What a result line is for the tournament's points."""

    CLASSIFIED = "classé"
    ROLE = "rôle"
    DUPLICATE = "doublon"  # a person's second line (two boards): only the best one counts


@dataclass(frozen=True)
class Line:
    """One result line as the organiser typed it."""

    player: str
    place: int | None = None  # official place; None when not classified
    role: Role | None = None
    imposed_points: float | None = None  # a special decision replacing the computed points
    imposed_place: int | None = None  # a special decision: "the points of place N"


@dataclass(frozen=True)
class Scored:
    """A line with what it earns: effective place, tie size and points."""

    line: Line
    status: Status
    place: int | None = None  # effective place: 1 + classified people strictly ahead
    tied: int | None = None
    points: float = 0.0
    imposed: bool = False

    @property
    def classified(self) -> bool:
        return self.status is Status.CLASSIFIED


def misplaced_cancellations(lines: Sequence[Line]) -> list[int]:
    """§1: a tournament « annulé au dernier moment » was not played, so it has no classification: the indexes
    of the ``annulé`` lines of a tournament where someone has a place (his own line or another's)."""
    played = any(line.place is not None for line in lines)
    return [i for i, line in enumerate(lines) if line.role is Role.CANCELLED and played]


CANCELLED_WITH_PLACES = ("un tournoi annulé n'a pas de classement : « annulé » ne va pas avec des places "
                         "(retirez les places ou le rôle « annulé »)")


def _number_text(value: float) -> str:
    """A number as a message quotes it: ``200000``, ``-5``, ``2.5``."""
    return str(int(value)) if value.is_integer() and abs(value) < 1e15 else str(value)


def line_violations(line: Line, index: int = 0) -> list[Violation]:
    """What one result line breaks on its own (§1): a line is a place or a 100-point role; a place is ≥ 1;
    « annulé » (a cancelled tournament) has no place; imposed points are from 0 to :data:`MAX_IMPOSED`."""
    found: list[Violation] = []
    if line.place is None and line.role is None:
        found.append(Violation(index, "place", "place manquante : un joueur classé a une place ; sinon indiquez son "
                                               "rôle (organisateur, aide, annulé)"))
    elif line.place is not None and line.place < 1:
        found.append(Violation(index, "place", f"place attendue ≥ 1 ; trouvé {line.place}"))
    if misplaced_cancellations([line]):
        found.append(Violation(index, "role", "un tournoi annulé n'a pas de classement : retirez la place "
                                              "ou le rôle « annulé »"))
    points = line.imposed_points
    if points is not None and not 0 <= points <= MAX_IMPOSED:
        found.append(Violation(index, "imposed_points", f"nombre de points entre 0 et {MAX_IMPOSED} attendu ; "
                                                        f"trouvé {_number_text(float(points))}"))
    return found


def classified_count(lines: Sequence[Line]) -> int:
    """x of §1: the number of classified players of a tournament (distinct people with a place)."""
    return len({line.player for line in lines if line.place is not None})


def tournament_violations(lines: Sequence[Line], name: str = "") -> list[Violation]:
    """What a single line cannot show (§1): « annulé » in a tournament with places; « the points of place N »
    (a special decision) for a place past the tournament's last classified (``1 ≤ N ≤ x``)."""
    which = f"« {name} »" if name else "le tournoi"
    found = [Violation(i, "role", f"{which} est marqué annulé mais a des joueurs classés")
             for i in misplaced_cancellations(lines)]
    x = classified_count(lines)
    for i, line in enumerate(lines):
        wanted = line.imposed_place
        if wanted is not None and not 1 <= wanted <= x:
            has = f"n'a que {x} classé{'s' if x > 1 else ''}" if x else "n'a aucun classé"
            found.append(Violation(i, "imposed_place", f"place {wanted} demandée, mais {which} {has}"))
    return found


def _best_line_first(line: Line) -> tuple[bool, int]:
    return (line.place is None, line.place or 0)


def _refuse_bad_lines(lines: Sequence[Line]) -> None:
    """The plain-data checks of :func:`score_tournament`, the first broken rule raised (§1)."""
    if misplaced_cancellations(lines):
        raise InvalidInput(CANCELLED_WITH_PLACES)
    for line in lines:
        if line.place is None and line.role is None:
            raise InvalidInput(f"{line.player} : ni place ni rôle")
        if line.place is not None and line.place < 1:
            raise InvalidInput(f"{line.player} : place attendue ≥ 1 ; trouvé {line.place}")
    raise_first([v for i, line in enumerate(lines) for v in line_violations(line, i) if v.field == "imposed_points"]
                + [v for v in tournament_violations(lines) if v.field == "imposed_place"])


def _kept_lines(lines: Sequence[Line]) -> list[int]:
    """The index of each person's best line (§1 « doublon »: his other lines are duplicates), in line order."""
    by_player: dict[str, list[int]] = defaultdict(list)
    for i, line in enumerate(lines):
        by_player[line.player].append(i)
    return sorted(min(indexes, key=lambda i: _best_line_first(lines[i])) for indexes in by_player.values())


def _with_imposed(line: Line, points: float, classified: int, interrupted: bool) -> tuple[float, bool]:
    """§1 special decisions: the line's imposed points, or those of its imposed place, else ``points``; and
    whether they were imposed."""
    if line.imposed_points is not None:
        return float(line.imposed_points), True
    if line.imposed_place is not None:
        return place_points(line.imposed_place, classified, interrupted), True
    return points, False


def score_tournament(lines: Sequence[Line], interrupted: bool = False) -> list[Scored]:
    """Points of every line of one tournament (§1), in the order of ``lines``.

    A line with a place is classified (a playing organiser gets only his place's points);
    a line without a place needs a role (100 points). A person's further lines are duplicates:
    the best one is kept and the people behind the others move up. ``annulé`` with places is refused
    (:func:`misplaced_cancellations`).
    """
    _refuse_bad_lines(lines)
    kept = _kept_lines(lines)
    official_of = {i: place for i in kept if (place := lines[i].place) is not None}
    classified, official = list(official_of), list(official_of.values())
    x = len(classified)
    places = dict(zip(classified, effective_places(official)))
    sizes = dict(zip(classified, tie_sizes(official)))
    shared = dict(zip(classified, share_ties(official, lambda p: place_points(p, x, interrupted))))

    scored: list[Scored] = []
    kept_set = set(kept)
    for i, line in enumerate(lines):
        if i not in kept_set:
            scored.append(Scored(line, Status.DUPLICATE))
        elif i in places:
            points, imposed = _with_imposed(line, shared[i], x, interrupted)
            scored.append(Scored(line, Status.CLASSIFIED, places[i], sizes[i], points, imposed))
        else:
            points, imposed = _with_imposed(line, ROLE_POINTS, x, interrupted)
            scored.append(Scored(line, Status.ROLE, None, None, points, imposed))
    return scored


def tournament_points(places: Sequence[int | Role | None], interrupted: bool = False) -> list[float | None]:
    """Points of a column of official places (§1): a role gives 100, None (not classified) gives None."""
    lines = [
        Line(str(i), place=p if isinstance(p, int) else None, role=p if isinstance(p, Role) else None)
        for i, p in enumerate(places)
        if p is not None
    ]
    points = iter(s.points for s in score_tournament(lines, interrupted))
    return [None if p is None else next(points) for p in places]


# --- §2 Season total -------------------------------------------------------------------------


@dataclass(frozen=True)
class Outing:
    """One player's points in one tournament, as the season sees them."""

    points: float
    kind: Kind = Kind.NORMAL
    classified: bool = True  # False for a 100-point role: it counts, but not toward the two
    tournament: str = ""


@dataclass(frozen=True)
class Season:
    """A player's season: total, and for each outing the weight applied."""

    outings: tuple[Outing, ...]
    weights: tuple[float, ...]
    set_aside: tuple[bool, ...]  # True where the no-loss rule treated the tournament as not played
    total: float

    @property
    def classified(self) -> int:
        """Tournaments played as a classified player (§2: two are needed to be ranked)."""
        return sum(o.classified for o in self.outings)

    @property
    def ranked(self) -> bool:
        return self.classified >= MIN_CLASSIFIED


def season(outings: Iterable[Outing]) -> Season:
    """A player's weighted season total (§2): majors 100%, others 100/80/40/20/10%, online last
    and at most 80%, and the no-loss rule.

    No-loss rule, exactly: the total is the best, over k, of keeping only the player's k best
    other non-major tournaments (the rest treated as not played); ties keep more tournaments.
    """
    outings = tuple(outings)
    by_points = sorted(range(len(outings)), key=lambda i: -outings[i].points)
    majors = [i for i in by_points if outings[i].kind.counts_as_major]
    others = [i for i in by_points if outings[i].kind is Kind.NORMAL]
    online = [i for i in by_points if outings[i].kind is Kind.ONLINE]
    online_points = [outings[i].points for i in online]

    def online_from(k: int) -> float:
        return weighted_best(online_points, WEIGHTS, TAIL, start=max(k, 1))

    best_k, best = 0, online_from(0)
    kept = 0.0
    for k in range(1, len(others) + 1):
        kept += outings[others[k - 1]].points * weights_from(WEIGHTS, TAIL, k - 1, 1)[0]
        value = kept + online_from(k)
        if value > best - _EPSILON:
            best_k, best = k, max(best, value)

    weights = [0.0] * len(outings)
    for i in majors:
        weights[i] = 1.0
    for i, w in zip(others[:best_k], weights_from(WEIGHTS, TAIL, 0, best_k)):
        weights[i] = w
    for i, w in zip(online, weights_from(WEIGHTS, TAIL, max(best_k, 1), len(online))):
        weights[i] = w
    set_aside = [False] * len(outings)
    for i in others[best_k:]:
        set_aside[i] = True
    total = sum(o.points * w for o, w in zip(outings, weights))
    return Season(outings, tuple(weights), tuple(set_aside), total)


@dataclass(frozen=True)
class Standing:
    """One person's line in the season standings; rank is None when not ranked (§2)."""

    player: str
    rank: int | None
    season: Season


#: Decimals of the published points (the standings' cells, their totals, ``explain``).
SHOWN_DIGITS = 1


def counted_parts(player_season: Season, digits: int = SHOWN_DIGITS) -> tuple[float, ...]:
    """§2 as published: what each outing brings to the total (its points × its weight), rounded to ``digits``
    so that the row adds up to the total rounded half up. An outing set aside by the no-loss rule, or weighted
    0, shows exactly 0; no part is negative; only results counted less than 100 % take the adjustment first
    (a result at 100 % shows the same number as its points)."""
    values = [o.points * w for o, w in zip(player_season.outings, player_season.weights)]
    adjustable = [0 < w < 1 and not aside for w, aside in zip(player_season.weights, player_season.set_aside)]
    return tuple(rounded_parts(values, digits, adjustable))


def standings(outings_by_player: Mapping[str, Iterable[Outing]]) -> list[Standing]:
    """The season standings (§2): ranked players by total (equal totals share a rank),
    then the people with fewer than two classified tournaments, unranked."""
    seasons = {player: season(outings) for player, outings in outings_by_player.items()}
    order = sorted(seasons, key=lambda p: (not seasons[p].ranked, -rank_key(seasons[p].total), fold(p), p))
    ranked = [p for p in order if seasons[p].ranked]
    ranks = dict(zip(ranked, competition_ranks([seasons[p].total for p in ranked])))
    return [Standing(p, ranks.get(p), seasons[p]) for p in order]


@dataclass(frozen=True)
class Tournament:
    """A tournament of the season with its result lines."""

    name: str
    kind: Kind = Kind.NORMAL
    interrupted: bool = False
    lines: tuple[Line, ...] = ()


@dataclass(frozen=True)
class SeasonReport:
    """Everything the federation publishes for a season: each tournament's scored lines,
    the standings, and for each (player, tournament) the weight applied and whether the
    no-loss rule set it aside."""

    scored: dict[str, list[Scored]]
    standings: list[Standing]
    weights: dict[tuple[str, str], tuple[float, bool]]


def run_season(tournaments: Sequence[Tournament]) -> SeasonReport:
    """Score every tournament (§1) and weight every player's season (§2)."""
    scored = {t.name: score_tournament(t.lines, t.interrupted) for t in tournaments}
    outings: dict[str, list[Outing]] = defaultdict(list)
    for t in tournaments:
        for s in scored[t.name]:
            if s.status is not Status.DUPLICATE:
                outings[s.line.player].append(Outing(s.points, t.kind, s.classified, t.name))
    table = standings(outings)
    weights = {
        (st.player, o.tournament): (w, aside)
        for st in table
        for o, w, aside in zip(st.season.outings, st.season.weights, st.season.set_aside)
    }
    return SeasonReport(scored, table, weights)


# --- Why each outing counts what it counts (§2), for the published tables and ``xlcircuit explain`` ---


@functools.lru_cache(maxsize=256)  # a season has a handful of weights and tens of thousands of results
def _percent(weight: float) -> str:
    return f"{format_half_up(weight * 100)} %"


def _nth(n: int) -> str:
    return "1er" if n == 1 else f"{n}e"


def weight_reasons(player_season: Season) -> tuple[str, ...]:
    """For each outing of a season, in French, the rule that gave it its weight (§2): « majeur : 100 % »,
    « 2e tournoi normal : 80 % », « en ligne : compté après les tournois sur table (3e) : 40 % »,
    « écarté : la décote ferait perdre des points (règle de non-perte) »."""
    outings, weights = player_season.outings, player_season.weights
    by_points = sorted(range(len(outings)), key=lambda i: -outings[i].points)  # the order season() weighs in
    kept = [i for i in by_points if outings[i].kind is Kind.NORMAL and not player_season.set_aside[i]]
    position = {i: n for n, i in enumerate(kept, start=1)}
    online = [i for i in by_points if outings[i].kind is Kind.ONLINE]
    position.update({i: n for n, i in enumerate(online, start=max(len(kept), 1) + 1)})
    reasons = []
    for i, outing in enumerate(outings):
        if outing.kind is Kind.MAJOR:
            reasons.append(f"majeur : {_percent(weights[i])}")
        elif outing.kind is Kind.MAJOR_ONLINE:
            reasons.append(f"majeur en ligne (remplace un majeur) : {_percent(weights[i])}")
        elif player_season.set_aside[i]:
            reasons.append("écarté : la décote ferait perdre des points (règle de non-perte), compte 0")
        elif outing.kind is Kind.NORMAL:
            reasons.append(f"{_nth(position[i])} tournoi normal : {_percent(weights[i])}")
        else:
            reasons.append(f"en ligne : compté après les tournois sur table ({_nth(position[i])}) : "
                           f"{_percent(weights[i])}")
    return tuple(reasons)
