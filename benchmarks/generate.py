"""Generated seasons of any size for the benchmarks (and a few stress tests): the rows an organiser
would type into each federation's input tables, made up with a seeded ``random.Random``."""

from __future__ import annotations

import datetime
import random

from xlcircuit.rules.torres import groups_in, schedule_group

#: Clubs of the generated DBM players.
DBM_CLUBS = [
    "Les Joyeux d'Asnières", "JTI Nice", "Le Téméraire (Dijon)", "Condottieri Milano", "Les Grognards de Vincennes",
    "Cercle lyonnais d'histofig", "Les Vikings de Rouen", "Lille Figurines", "Les Cathares de Toulouse",
    "Ost de Bordeaux", "Les Chouans de Rennes", "Strasbourg Wargame",
]
#: The Championnat de France's vote categories.
CDF_CATEGORIES = ('meilleur diplomate', 'meilleur tacticien', 'meilleur stratège', 'plus machiavélique')


def tdf(tournaments: int, players: int = 60, seed: int = 1) -> tuple[list[tuple], list[tuple]]:
    """A large made-up season (rows of ``Tournois`` and ``Résultats``), for benchmarks and stress tests:
    ``tournaments`` tournaments of ``players`` classified players drawn from a pool, one in ten
    tied with the player before, and a non-playing organiser each; one in ten is a major, one in
    ten online."""
    rng = random.Random(seed)
    pool = [f"Joueur {i:05d}" for i in range(max(2 * players, 3 * tournaments))]
    kinds = ["normal"] * 8 + ["majeur", "en ligne"]
    start = datetime.date(2025, 9, 1)
    tournois: list[tuple] = []
    resultats: list[tuple] = []
    for t in range(tournaments):
        name = f"Tournoi {t + 1:04d}"
        tournois.append((name, start + datetime.timedelta(days=t % 300), rng.choice(kinds), None))
        people = rng.sample(pool, players + 1)
        place = 1
        for rank, player in enumerate(people[:-1], start=1):
            if rng.random() > 0.1:
                place = rank
            resultats.append((name, player, place, None, None))
        resultats.append((name, people[-1], None, "organisateur", None))
    return tournois, resultats


def dbm(tournaments: int, players: int = 60, seed: int = 1) -> tuple[list[tuple], list[tuple], list[tuple]]:
    """A large made-up season (rows of ``Joueurs``, ``Tournois`` and ``Résultats``), for benchmarks:
    ``tournaments`` poules of ``players`` players drawn from a pool with start classes, four rounds
    (one in ten five), one in twenty in doubles, and a non-playing referee each."""
    rng = random.Random(seed)
    pool = [f"Joueur {i:05d}" for i in range(max(2 * players + 1, 3 * tournaments))]
    classes = ["X", "S", "S", "O", "O", "O", "F", "F", "F", "F", "F", "I"]
    joueurs = [(p, DBM_CLUBS[i % len(DBM_CLUBS)], classes[i % len(classes)]) for i, p in enumerate(pool)]
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


def cdf(players: int, seed: int = 1) -> tuple[list[tuple], list[tuple], list[tuple], list[tuple]]:
    """A large made-up championship (rows of ``Joueurs``, ``Parties``, ``Votes`` and ``Préférés``), for
    benchmarks: ``players`` players (rounded down to a multiple of seven) on boards of seven for four
    rounds, 34 centres dealt at random on each board (one in twenty a solo), the round-4 table 1 as top
    board, and every ballot of every game."""
    rng = random.Random(seed)
    count = max(players // 7, 1) * 7
    names = [f"Joueur {i:05d}" for i in range(count)]
    powers = ["Autriche", "Angleterre", "France", "Allemagne", "Italie", "Russie", "Turquie"]
    joueurs = [(name, f"Club {i % 40}", f"Équipe {i // 3}" if i < count - count % 3 else None,
                _birth(rng), "oui" if i % 15 == 0 else None, None) for i, name in enumerate(names)]
    parties: list[tuple] = []
    votes: list[tuple] = []
    for ronde in range(1, 5):
        order = list(names)
        rng.shuffle(order)
        for table in range(1, count // 7 + 1):
            seats = order[7 * (table - 1): 7 * table]
            centres = _deal(rng)
            dealt = rng.sample(powers, 7)
            for i, (player, power, held) in enumerate(zip(seats, dealt, centres)):
                survived = rng.randint(2, 6) if held == 0 else None
                choice = i + 1 if ronde == 4 and table == 1 else None
                parties.append((ronde, table, player, power, held, survived, None, choice))
            for voter in seats:
                others = [p for p in seats if p != voter]
                for category in CDF_CATEGORIES:
                    first, second = rng.sample(others, 2)
                    votes.append((ronde, table, voter, category, first, second, rng.choice(("3+1", "2+2"))))
    last = [row[2] for row in parties if row[0] == 4]
    preferes = [(voter, last[(i + 1) % len(last)]) for i, voter in enumerate(last)] if len(last) > 1 else []
    return joueurs, parties, votes, preferes


def elo(games: int, players: int = 200, seed: int = 1) -> list[tuple]:
    """A long history for benchmarks: ``games`` games of 2 to 8 of ``players`` players, one a day or so."""
    rng = random.Random(seed)
    names = [f"Joueur {i:05d}" for i in range(1, players + 1)]
    start = datetime.date(2000, 1, 1)
    rows = []
    for number in range(1, games + 1):
        date = start + datetime.timedelta(days=number // 4)
        for name in rng.sample(names, rng.randint(2, 8)):
            rows.append((date, number, name, rng.randint(0, 150)))
    return rows


def torres(divisions: int, newcomers: int = 20, seed: int = 1) -> tuple[list[tuple], list[tuple]]:
    """A large made-up season (rows of ``Joueurs`` and ``Matchs``), for benchmarks: ``divisions`` full
    divisions of groups of ten, every match played, and ``newcomers`` new players."""
    rng = random.Random(seed)
    joueurs: list[tuple] = []
    matchs: list[tuple] = []
    count = 0
    for d in range(1, divisions + 1):
        for g in range(1, groups_in(d) + 1):
            members = [f"Joueur {count + i:05d}" for i in range(10)]
            count += 10
            joueurs += [(name, rng.randrange(1200, 2000), d, g, "actif") for name in members]
            for number, match in enumerate(schedule_group(members, f"{seed}:{d}:{g}"), start=1):
                matchs += [(d, g, number, name, rng.randrange(50, 160), None) for name in match]
    joueurs += [(f"Nouveau {i:05d}", rng.randrange(1200, 1700), None, None, "nouveau") for i in range(newcomers)]
    return joueurs, matchs


def _birth(rng) -> datetime.date:
    return datetime.date(1960, 1, 1) + datetime.timedelta(days=rng.randrange(15_000))


def _deal(rng) -> list[int]:
    """Centres of seven players at the end of a game: 34 dealt at random, now and then a solo."""
    if rng.random() < 0.05:
        rest = [0] * 6
        for _ in range(rng.randint(8, 16)):  # 34 - 18 at most for the others
            rest[rng.randrange(6)] += 1
        return [18] + rest
    centres = [0] * 7
    for _ in range(34):
        centres[min(int(rng.expovariate(0.6)), 6)] += 1
    rng.shuffle(centres)
    return [min(c, 17) for c in centres]
