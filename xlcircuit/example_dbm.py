"""The bundled example season of the DBM championship (``xlcircuit demo``): season 2025-2026.

Plain data, exactly as an organiser types it into the workbook's input tables (``Joueurs``,
``Tournois``, ``Résultats``) and the season's parameters. Rules: ``shared/rules/dbm.md`` (source
``shared/rules/sources/dbm-reforme-98-99.txt``).

Twenty-two poules in fifteen events, 150 players in twelve clubs (and a few without a club).
What the season shows:

- The first date, 20/09/2025, holds the source's two worked examples, played with the classes of
  the start of the season (nobody has a result yet): « Vincennes — Antique » is example 1 (twelve
  (O) players, four rounds: VFT 120.00) and « Open de Nice » example 2 (thirty-six players, 3 X,
  8 S, 11 O and 14 F: the 24 best values, VFT 154.00).
- A doubles poule, « Furor Gothicus (Vincennes) », ten teams: a team's value is its best member's.
- « Bouvines », five rounds and 34 players: the base is the 30 best values.
- Two players tied 5th at « Lille — Antique »; a non-playing referee in every poule (his bonus
  counts as a tournament) but at Grenoble, whose referee played (8th: his place's result only).
- Players whose VAJ changes during the season: (F) players who play as (O), an (O) who plays as
  (S), (I) players who play as (F), an (F) who falls to (I).
- Newcomers missing from the ``Joueurs`` table (class F), and a foreign event (Bellegem, in
  Belgium): counted, but a player whose only tournament it is does not enter the championship.
"""

from __future__ import annotations

import datetime
import random

SAISON = "2025-2026"
#: Final averages of the last active S and O players of the previous season.
SEUIL_S = 62.5
SEUIL_O = 41.25

CLUBS = [
    "Les Joyeux d'Asnières",
    "JTI Nice",
    "Le Téméraire (Dijon)",
    "Condottieri Milano",
    "Les Grognards de Vincennes",
    "Cercle lyonnais d'histofig",
    "Les Vikings de Rouen",
    "Lille Figurines",
    "Les Cathares de Toulouse",
    "Ost de Bordeaux",
    "Les Chouans de Rennes",
    "Strasbourg Wargame",
]

_FIRST = [
    "Philippe", "Arnaud", "Willy", "Loïc", "Claude", "Pierre", "Jean-Marc", "Thierry", "Olivier", "Laurent",
    "Stéphane", "Éric", "Frédéric", "Christophe", "Nicolas", "Sébastien", "Bruno", "Didier", "Pascal", "Hervé",
    "Marco", "Luca", "Gilles", "Yves", "Julien", "Antoine", "Benoît", "Cédric", "Damien", "Fabrice",
]
_LAST = [
    "Martin", "Bernard", "Dubois", "Thomas", "Robert", "Richard", "Petit", "Durand", "Leroy", "Moreau",
    "Simon", "Laurent", "Lefebvre", "Michel", "Garcia", "David", "Bertrand", "Roux", "Vincent", "Fournier",
    "Morel", "Girard", "André", "Mercier", "Dupont", "Lambert", "Bonnet", "François", "Martinez", "Legrand",
    "Garnier", "Faure", "Rousseau", "Blanc", "Guérin", "Muller", "Henry", "Roussel", "Nicolas", "Perrin",
]


def _names(count: int) -> list[str]:
    names: list[str] = []
    i = 0
    while len(names) < count:
        name = f"{_FIRST[i % len(_FIRST)]} {_LAST[(i * 7 + i // len(_FIRST)) % len(_LAST)]}"
        if name not in names:
            names.append(name)
        i += 1
    return names


_rng = random.Random(1999)
_ALL = _names(150)
#: Classes at the start of the season: 10 X, 20 S, 40 O, 64 F, 8 I; the last 8 are newcomers.
_START = ["X"] * 10 + ["S"] * 20 + ["O"] * 40 + ["F"] * 64 + ["I"] * 8 + [None] * 8
_SKILL = {"X": 9.0, "S": 7.5, "O": 6.0, "F": 4.0, "I": 2.5, None: 3.5}
PLAYERS = list(zip(_ALL, _START))
_CLASS = dict(PLAYERS)
SKILL = {name: _SKILL[cls] + _rng.uniform(-1.2, 1.2) for name, cls in PLAYERS}
# Who changes during the season: rising (F) players, a rising (O), (I) players who do well, a weak (F).
_F = [n for n, c in PLAYERS if c == "F"]
_O = [n for n, c in PLAYERS if c == "O"]
_I = [n for n, c in PLAYERS if c == "I"]
RISING = _F[:4] + _O[:1] + _I[:3]
FALLING = _F[-1:]
for name in RISING:
    SKILL[name] = 9.5 if _CLASS[name] != "I" else 6.5
for name in FALLING:
    SKILL[name] = -3.0
ACTIVITY = {name: (3.0 if name in RISING + FALLING else _rng.choice((0.7, 0.9, 1.0, 1.2, 1.5))) for name in _ALL}

NEWCOMERS = [n for n, c in PLAYERS if c is None]
#: (Joueur, Club, Classe): everyone but four newcomers; six players have no club.
JOUEURS = [
    (name, None if i % 25 == 7 else CLUBS[i % len(CLUBS)], cls)
    for i, (name, cls) in enumerate(PLAYERS)
    if name not in NEWCOMERS[:4]
]

_D = datetime.date
#: (event, date, rounds, [(poule suffix, players or teams)], doubles)
_EVENTS = [
    ("Vincennes", _D(2025, 9, 20), 4, [("Antique", 12)], False),
    ("Open de Nice", _D(2025, 9, 20), 4, [(None, 36)], False),
    ("Furor Gothicus (Vincennes)", _D(2025, 10, 4), 4, [(None, 10)], True),
    ("Asnières", _D(2025, 11, 8), 4, [("Antique", 14), ("Renaissance", 12)], False),
    ("Trophée de Lyon", _D(2025, 11, 29), 4, [(None, 20)], False),
    ("Toulouse", _D(2025, 12, 13), 4, [("Antique", 12), ("Médiévale", 12)], False),
    ("Challenge de Bordeaux", _D(2026, 1, 17), 4, [(None, 22)], False),
    ("Lille", _D(2026, 2, 7), 4, [("Antique", 12), ("Médiévale", 14)], False),
    ("Bouvines", _D(2026, 3, 7), 5, [(None, 34)], False),
    ("Grenoble", _D(2026, 3, 28), 4, [(None, 20)], False),
    ("Dijon", _D(2026, 4, 4), 4, [("Antique", 14), ("Médiévale", 12)], False),
    ("Bellegem (Belgique)", _D(2026, 4, 18), 4, [(None, 20)], False),
    ("Strasbourg", _D(2026, 5, 9), 4, [("Antique", 12), ("Médiévale", 12), ("Renaissance", 12)], False),
    ("Open de Paris", _D(2026, 5, 30), 4, [(None, 28)], False),
    ("Rennes", _D(2026, 6, 20), 4, [("Antique", 12), ("Médiévale", 12)], False),
]


_FOREIGN = {"Bellegem (Belgique)"}


def _draw(pool: list[str], count: int) -> list[str]:
    """``count`` players of ``pool``, the more active more likely."""
    chosen: list[str] = []
    left = list(pool)
    for _ in range(count):
        pick = _rng.choices(left, weights=[ACTIVITY[n] for n in left])[0]
        chosen.append(pick)
        left.remove(pick)
    return chosen


def _ranked(players: list[str]) -> list[str]:
    return sorted(players, key=lambda n: -(SKILL[n] + _rng.gauss(0, 1.5)))


def _season() -> tuple[list[tuple], list[tuple]]:
    tournois: list[tuple] = []
    resultats: list[tuple] = []
    for event, date, rounds, poules, doubles in _EVENTS:
        free = list(_ALL)
        if date == _D(2025, 9, 20):
            _first_date(event, poules, tournois, resultats, free)
            continue
        for suffix, size in poules:
            name = f"{event} — {suffix}" if suffix else event
            tournois.append((name, date, rounds, "oui" if doubles else None, "oui" if event in _FOREIGN else None))
            players = _draw(free, 2 * size if doubles else size)
            for p in players:
                free.remove(p)
            if doubles:
                teams = [players[i:i + 2] for i in range(0, len(players), 2)]
                teams.sort(key=lambda t: -(max(SKILL[t[0]], SKILL[t[1]]) + _rng.gauss(0, 1.5)))
                for place, (a, b) in enumerate(teams, start=1):
                    resultats.append((name, a, b, place, None))
            else:
                for place, player in enumerate(_ranked(players), start=1):
                    tied = name == "Lille — Antique" and place == 6
                    playing_referee = "oui" if event == "Grenoble" and place == 8 else None
                    resultats.append((name, player, None, 5 if tied else place, playing_referee))
            if event != "Grenoble":  # Grenoble's referee played (8th): his place's result, no bonus
                referee = _draw([n for n in free if n not in RISING + FALLING], 1)[0]
                free.remove(referee)
                resultats.append((name, referee, None, None, "oui"))
    return tournois, resultats


def _first_date(event: str, poules, tournois: list[tuple], resultats: list[tuple], free: list[str]) -> None:
    """The source's worked examples, on the first date: everyone plays with his start class."""
    date = _D(2025, 9, 20)
    by_class = {c: [n for n, k in PLAYERS if k == c and n not in RISING + FALLING] for c in "XSOF"}
    if event == "Vincennes":
        name, players = "Vincennes — Antique", by_class["O"][-12:]
    else:
        name = event
        players = by_class["X"][:3] + by_class["S"][:8] + by_class["O"][:11] + by_class["F"][:14]
    tournois.append((name, date, 4, None, None))
    for place, player in enumerate(_ranked(players), start=1):
        resultats.append((name, player, None, place, None))
    referee = {"Vincennes": _I[-1], "Open de Nice": by_class["S"][-1]}[event]
    resultats.append((name, referee, None, None, "oui"))


TOURNOIS_HEADERS = ("Tournoi", "Date", "Rondes", "Doubles", "Étranger")
RESULTATS_HEADERS = ("Tournoi", "Joueur", "Équipier", "Place", "Arbitre")
#: (Tournoi, Date, Rondes, Doubles "oui" or None, Étranger "oui" or None) and (Tournoi, Joueur, Équipier, Place, Arbitre "oui" or None).
TOURNOIS, RESULTATS = _season()


def generated(tournaments: int, players: int = 60, seed: int = 1) -> tuple[list[tuple], list[tuple], list[tuple]]:
    """A large made-up season (rows of ``Joueurs``, ``Tournois`` and ``Résultats``), for benchmarks:
    ``tournaments`` poules of ``players`` players drawn from a pool with start classes, four rounds
    (one in ten five), one in twenty in doubles, and a non-playing referee each."""
    rng = random.Random(seed)
    pool = [f"Joueur {i:05d}" for i in range(max(2 * players + 1, 3 * tournaments))]
    classes = ["X", "S", "S", "O", "O", "O", "F", "F", "F", "F", "F", "I"]
    joueurs = [(p, CLUBS[i % len(CLUBS)], classes[i % len(classes)]) for i, p in enumerate(pool)]
    start = datetime.date(2025, 9, 1)
    tournois: list[tuple] = []
    resultats: list[tuple] = []
    for t in range(tournaments):
        name = f"Poule {t + 1:04d}"
        doubles = t % 20 == 19
        tournois.append((name, start + datetime.timedelta(days=t % 300), 5 if t % 10 == 9 else 4,
                         "oui" if doubles else None, None))
        people = rng.sample(pool, (2 * players if doubles else players) + 1)
        if doubles:
            for place, i in enumerate(range(0, 2 * players, 2), start=1):
                resultats.append((name, people[i], people[i + 1], place, None))
        else:
            for place, player in enumerate(people[:-1], start=1):
                resultats.append((name, player, None, place, None))
        resultats.append((name, people[-1], None, None, "oui"))
    return joueurs, tournois, resultats
