"""The bundled example of the ranked Elo (``xlcircuit demo``): a club's season of evenings, 2025-2026.

Plain data, exactly as an organiser types it into the workbook's ``Parties`` table (one line per
player of each game: Date, Partie, Joueur, Total). The lowest total wins, as in the source's game.
Rules: ``shared/rules/elo.md`` (source ``shared/rules/sources/elo-classe.txt``).

35 games of 2 to 8 players, 15 players. What the season shows:

- Game 1 is the source's six totals (47, 61, 61, 78, 92, 104: ranks 1, 2, 2, 4, 5, 6) between six
  newcomers at 1000, in placement (K 48): +24, +10, +10, -5, -14, -24.
- Ties: Inès and Jules at 62 in game 3, Camille and Gabriel at 63 in game 17 (a duel tied), others.
- Two games the same evening (17 October, 31 October…) are applied in the order typed.
- Eight-player tables (games 6 and 32) and duels (games 8, 10, 15…).
- Yasmine plays only the last two games (the same evening): still in placement (no tier yet).
"""

from __future__ import annotations

import datetime
import random

PARTIES_HEADERS = ("Date", "Partie", "Joueur", "Total")

_D = datetime.date
#: (Date, Partie, [(Joueur, Total), ...]) in the order typed.
GAMES = [
    (_D(2025, 9, 12), 1, [("Camille", 47), ("Léa", 61), ("Hugo", 61), ("Manon", 78), ("Louis", 92), ("Nathan", 104)]),
    (_D(2025, 9, 19), 2, [("Manon", 91), ("Zoé", 81), ("Camille", 92), ("Léa", 56)]),
    (_D(2025, 9, 26), 3, [("Emma", 129), ("Chloé", 73), ("Jules", 62), ("Inès", 62), ("Sarah", 70), ("Arthur", 89)]),
    (_D(2025, 10, 3), 4, [("Sarah", 79), ("Louis", 7), ("Chloé", 30), ("Gabriel", 49), ("Emma", 155), ("Léa", 77),
                          ("Hugo", 103)]),
    (_D(2025, 10, 10), 5, [("Nathan", 70), ("Chloé", 73), ("Jules", 84)]),
    (_D(2025, 10, 17), 6, [("Zoé", 53), ("Gabriel", 36), ("Hugo", 76), ("Louis", 73), ("Jules", 92), ("Camille", 111),
                           ("Léa", 77), ("Arthur", 53)]),
    (_D(2025, 10, 17), 7, [("Manon", 51), ("Inès", 58), ("Nathan", 93)]),
    (_D(2025, 10, 24), 8, [("Arthur", 107), ("Nathan", 89)]),
    (_D(2025, 10, 31), 9, [("Jules", 61), ("Inès", 52), ("Chloé", 75), ("Louis", 16), ("Léa", 65), ("Hugo", 99)]),
    (_D(2025, 10, 31), 10, [("Arthur", 84), ("Emma", 154)]),
    (_D(2025, 11, 7), 11, [("Sarah", 57), ("Léa", 71), ("Chloé", 63), ("Manon", 65), ("Hugo", 117), ("Inès", 42)]),
    (_D(2025, 11, 14), 12, [("Léa", 51), ("Gabriel", 62), ("Arthur", 93), ("Zoé", 52), ("Emma", 91), ("Chloé", 38)]),
    (_D(2025, 11, 21), 13, [("Chloé", 83), ("Manon", 93), ("Louis", 63), ("Inès", 46), ("Camille", 62), ("Sarah", 76)]),
    (_D(2025, 11, 21), 14, [("Zoé", 49), ("Nathan", 33), ("Emma", 135), ("Jules", 98)]),
    (_D(2025, 11, 28), 15, [("Léa", 53), ("Jules", 78)]),
    (_D(2025, 12, 5), 16, [("Léa", 68), ("Chloé", 70), ("Louis", 12), ("Emma", 112), ("Sarah", 70), ("Inès", 104)]),
    (_D(2025, 12, 5), 17, [("Camille", 63), ("Gabriel", 63)]),
    (_D(2025, 12, 12), 18, [("Chloé", 65), ("Zoé", 44)]),
    (_D(2025, 12, 12), 19, [("Sarah", 32), ("Arthur", 78), ("Hugo", 76), ("Gabriel", 20), ("Jules", 34)]),
    (_D(2025, 12, 19), 20, [("Louis", 11), ("Hugo", 53), ("Léa", 83), ("Arthur", 88), ("Sarah", 74)]),
    (_D(2025, 12, 19), 21, [("Zoé", 51), ("Manon", 68), ("Camille", 92), ("Inès", 80), ("Jules", 66)]),
    (_D(2025, 12, 26), 22, [("Hugo", 93), ("Louis", 30), ("Gabriel", 23), ("Arthur", 69), ("Camille", 80), ("Sarah", 61),
                            ("Léa", 64)]),
    (_D(2026, 1, 2), 23, [("Léa", 73), ("Sarah", 87), ("Chloé", 105)]),
    (_D(2026, 1, 9), 24, [("Manon", 80), ("Louis", 32), ("Jules", 80), ("Sarah", 74), ("Gabriel", 77)]),
    (_D(2026, 1, 16), 25, [("Arthur", 96), ("Hugo", 65), ("Zoé", 52), ("Jules", 83), ("Manon", 49), ("Inès", 80)]),
    (_D(2026, 1, 16), 26, [("Nathan", 58), ("Emma", 93)]),
    (_D(2026, 1, 23), 27, [("Camille", 71), ("Arthur", 19), ("Sarah", 62), ("Louis", 52), ("Léa", 88)]),
    (_D(2026, 1, 30), 28, [("Arthur", 64), ("Hugo", 68), ("Jules", 61), ("Emma", 115), ("Chloé", 102), ("Zoé", 61)]),
    (_D(2026, 2, 6), 29, [("Gabriel", 90), ("Arthur", 88), ("Léa", 93), ("Hugo", 24), ("Manon", 83)]),
    (_D(2026, 2, 6), 30, [("Chloé", 108), ("Sarah", 27)]),
    (_D(2026, 2, 13), 31, [("Louis", 46), ("Hugo", 89), ("Léa", 93), ("Emma", 137)]),
    (_D(2026, 2, 20), 32, [("Sarah", 76), ("Louis", 0), ("Manon", 83), ("Inès", 57), ("Arthur", 38), ("Gabriel", 71),
                           ("Emma", 111), ("Léa", 75)]),
    (_D(2026, 2, 27), 33, [("Nathan", 90), ("Hugo", 83), ("Camille", 72), ("Louis", 51), ("Léa", 96), ("Arthur", 40),
                           ("Jules", 74)]),
    (_D(2026, 3, 6), 34, [("Nathan", 98), ("Léa", 68), ("Hugo", 67), ("Sarah", 81), ("Yasmine", 59)]),
    (_D(2026, 3, 6), 35, [("Chloé", 72), ("Jules", 91), ("Gabriel", 88), ("Zoé", 57), ("Yasmine", 64)]),
]  # fmt: skip

#: The rows of the ``Parties`` table: (Date, Partie, Joueur, Total).
PARTIES = [(date, game, player, total) for date, game, seats in GAMES for player, total in seats]

#: The ``Joueurs`` table (optional): each player's club, for ``xlcircuit share --clubs``.
JOUEURS = [
    ("Camille", "Les Joyeux Perdants"), ("Léa", "Les Joyeux Perdants"), ("Hugo", "Les Joyeux Perdants"),
    ("Manon", "Les Joyeux Perdants"), ("Louis", "Le Tapis Vert"), ("Nathan", "Le Tapis Vert"),
    ("Zoé", "Le Tapis Vert"), ("Emma", "Le Tapis Vert"), ("Chloé", "Cercle du Jeudi"), ("Jules", "Cercle du Jeudi"),
    ("Inès", "Cercle du Jeudi"), ("Sarah", "Cercle du Jeudi"), ("Arthur", "Cercle du Jeudi"),
]  # fmt: skip

#: The ``Reglages`` table: the lowest total wins, as in the source's game.
NOM = "Ligue des soirées 2025-2026"
VAINQUEUR = "plus petit total"


def generated(games: int, players: int = 200, seed: int = 1) -> list[tuple]:
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
