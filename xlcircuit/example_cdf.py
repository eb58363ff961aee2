"""The bundled example championship of the Championnat de France (``xlcircuit demo``): 2014.

Plain data, exactly as an organiser types it into the workbook's input tables (``Tournoi``,
``Joueurs``, ``Parties``, ``Votes``, ``Préférés``), so the values are the workbook's French texts.
Rules: ``shared/rules/cdf.md`` (source ``shared/rules/sources/cdf-reglement-2012.txt``).

Four rounds, 35 players. What the championship shows:

- Round 1, table 1 is the hand-checked board of cdf.md (9, 8, 7, 5, 3, 2, 0; the last eliminated
  after 5 years: 67, 38, 30, 20, 16, 14, 5); table 2 its tied leaders (8, 8, 7, 6, 5, 0, 0:
  50, 50, 30, 25, 21.5, 4, 6); table 4 has three tied leaders at 7.
- Round 2 (the team round): Zoé Barbier is absent, so Adrien Lefort plays tables 4 and 5 at the
  same time (§II.2b4: the better of 80% + 40% and 100% + 0% of his two games; with 81 and 18,
  100% of 81 beats 64.8 + 7.2 = 72); table 2 ends by a unanimous vote after 5 years.
- Round 3, table 1: Antoine Mercier's solo (18 centres, 102 points).
- Top board (round 4, table 1): the seven qualified by the five steps of §III.1; Raphaël Dumont
  and Ulysse Marchal finish tied on 9 centres, and Raphaël, who chose his country later, is champion.
- Seven players leave before round 4; Hugo Tessier withdrew to make tables of seven and gets a
  bonus of 10 (§II.1b3).
- Eight teams of three (round 2 counts), three foreign players, and the votes of every game:
  each player names two others in each of the four categories (3 + 1 or 2 + 2), the leaders of
  his board more often; the favourite-player votes of round 4.
"""

import datetime as dt

CHAMPIONNAT = "Championnat de France 2014"

PARAMETRES_HEADERS = ("Paramètre", "Valeur")
PARAMETRES = [("Championnat", CHAMPIONNAT), ("Table finale", "oui"), ("Tables incomplètes", "non")]

JOUEURS_HEADERS = ("Joueur", "Club", "Équipe", "Naissance", "Étranger", "Bonus")
JOUEURS = [  # (Joueur, Club, Équipe, Naissance, Étranger: "oui" or None, Bonus)
    ('Adrien Lefort', 'Cercle bordelais de Diplomatie', None, dt.date(1995, 11, 7), None, None),
    ('Antoine Mercier', 'Les Stratèges de Paris', 'Les Pastis', dt.date(1965, 1, 1), None, None),
    ('Bastien Roux', 'Diplo Club de Lyon', 'Cercle parisien', dt.date(1972, 6, 12), None, None),
    ('Benoît Gauthier', 'Ligue toulousaine', None, dt.date(2002, 4, 18), None, None),
    ('Camille Faure', 'Cercle bordelais de Diplomatie', 'Lyon Diplo', dt.date(1979, 11, 23), None, None),
    ('Cédric Moreau', 'Diplomatie Nantes Atlantique', None, dt.date(1971, 9, 1), None, None),
    ('Damien Leclerc', 'Ligue toulousaine', 'Toulouse Stratégie', dt.date(1986, 4, 6), None, None),
    ('Delphine Roy', None, None, dt.date(1978, 2, 12), None, None),
    ('Emmanuel Hubert', 'Les Stratèges de Paris', None, dt.date(1985, 7, 23), None, None),
    ('Fabrice Noël', 'Marseille Stratégie', 'Les Pastis', dt.date(2000, 2, 28), None, None),
    ('Florence Picard', 'Diplo Club de Lyon', None, dt.date(1992, 12, 6), None, None),
    ('Gaëtan Perrot', 'Les Stratèges de Paris', 'Cercle parisien', dt.date(1969, 7, 11), None, None),
    ('Guillaume Schmid', 'Club genevois de Diplomatie', None, dt.date(1999, 5, 17), 'oui', None),
    ('Hugo Tessier', 'Ligue toulousaine', None, dt.date(1968, 10, 28), None, 10),
    ('Hélène Dufour', None, 'Lyon Diplo', dt.date(1976, 12, 22), None, None),
    ('Igor Petrov', None, "Ch'tis Diplo", dt.date(1983, 5, 5), 'oui', None),
    ('Inès Garnier', 'Diplomatie Nantes Atlantique', None, dt.date(1975, 3, 11), None, None),
    ('Jérémie Blanc', 'Ligue toulousaine', None, dt.date(1990, 10, 16), None, None),
    ('Karine Lemoine', 'Diplomatie Nantes Atlantique', 'Les Pastis', dt.date(1997, 3, 27), None, None),
    ('Lucas Girard', 'Marseille Stratégie', 'Cercle parisien', dt.date(1966, 8, 10), None, None),
    ('Mathilde Renard', 'Les Stratèges de Paris', 'Lyon Diplo', dt.date(1973, 1, 21), None, None),
    ('Nicolas Chauvin', 'Diplo Club de Lyon', "Ch'tis Diplo", dt.date(1980, 6, 4), None, None),
    ('Olivier Brunet', 'Cercle bordelais de Diplomatie', 'Toulouse Stratégie', dt.date(1987, 11, 15), None, None),
    ('Pascale Henry', 'Ligue toulousaine', 'Nantes Atlantique', dt.date(1994, 4, 26), None, None),
    ('Quentin Morel', 'Diplomatie Nantes Atlantique', 'Bordeaux Diplo', dt.date(2001, 9, 9), None, None),
    ('Raphaël Dumont', 'Marseille Stratégie', 'Les Sudistes', dt.date(1970, 2, 20), None, None),
    ('Sandrine Aubry', None, 'Toulouse Stratégie', dt.date(1977, 7, 3), None, None),
    ('Thibault Carré', 'Diplo Club de Lyon', 'Nantes Atlantique', dt.date(1984, 12, 14), None, None),
    ('Ulysse Marchal', 'Cercle bordelais de Diplomatie', 'Bordeaux Diplo', dt.date(1991, 5, 25), None, None),
    ('Valérie Colin', 'Ligue toulousaine', 'Les Sudistes', dt.date(1998, 10, 8), None, None),
    ('William Peeters', 'Diplomatie Bruxelles', "Ch'tis Diplo", dt.date(1967, 3, 19), 'oui', None),
    ('Xavier Lambert', 'Marseille Stratégie', 'Les Sudistes', dt.date(1974, 8, 2), None, None),
    ('Yannick Vidal', 'Les Stratèges de Paris', 'Bordeaux Diplo', dt.date(1981, 1, 13), None, None),
    ('Zoé Barbier', 'Diplo Club de Lyon', None, dt.date(1988, 6, 24), None, None),
    ('Élise Martin', 'Diplomatie Nantes Atlantique', 'Nantes Atlantique', dt.date(1993, 9, 17), None, None),
]

PARTIES_HEADERS = ("Ronde", "Table", "Joueur", "Pays", "Centres", "Éliminé après", "Années jouées", "Ordre de choix")
#: (Ronde, Table, Joueur, Pays, Centres, Éliminé après (years survived, None if alive), Années jouées
#: (None: 7), Ordre de choix (top board only)); each board's lines by centres, best first.
PARTIES = [
    (1, 1, 'Olivier Brunet', 'Allemagne', 9, None, None, None),
    (1, 1, 'Lucas Girard', 'Italie', 8, None, None, None),
    (1, 1, 'Fabrice Noël', 'Turquie', 7, None, None, None),
    (1, 1, 'William Peeters', 'Russie', 5, None, None, None),
    (1, 1, 'Jérémie Blanc', 'Angleterre', 3, None, None, None),
    (1, 1, 'Delphine Roy', 'France', 2, None, None, None),
    (1, 1, 'Nicolas Chauvin', 'Autriche', 0, 5, None, None),

    (1, 2, 'Quentin Morel', 'Italie', 8, None, None, None),
    (1, 2, 'Bastien Roux', 'France', 8, None, None, None),
    (1, 2, 'Adrien Lefort', 'Allemagne', 7, None, None, None),
    (1, 2, 'Valérie Colin', 'Turquie', 6, None, None, None),
    (1, 2, 'Yannick Vidal', 'Autriche', 5, None, None, None),
    (1, 2, 'Cédric Moreau', 'Angleterre', 0, 4, None, None),
    (1, 2, 'Karine Lemoine', 'Russie', 0, 6, None, None),

    (1, 3, 'Damien Leclerc', 'Autriche', 10, None, None, None),
    (1, 3, 'Élise Martin', 'Angleterre', 7, None, None, None),
    (1, 3, 'Mathilde Renard', 'Turquie', 6, None, None, None),
    (1, 3, 'Florence Picard', 'Russie', 5, None, None, None),
    (1, 3, 'Benoît Gauthier', 'Allemagne', 4, None, None, None),
    (1, 3, 'Guillaume Schmid', 'France', 2, None, None, None),
    (1, 3, 'Zoé Barbier', 'Italie', 0, 6, None, None),

    (1, 4, 'Gaëtan Perrot', 'France', 7, None, None, None),
    (1, 4, 'Hélène Dufour', 'Autriche', 7, None, None, None),
    (1, 4, 'Raphaël Dumont', 'Allemagne', 7, None, None, None),
    (1, 4, 'Hugo Tessier', 'Italie', 6, None, None, None),
    (1, 4, 'Inès Garnier', 'Russie', 4, None, None, None),
    (1, 4, 'Antoine Mercier', 'Turquie', 3, None, None, None),
    (1, 4, 'Thibault Carré', 'Angleterre', 0, 5, None, None),

    (1, 5, 'Camille Faure', 'Turquie', 11, None, None, None),
    (1, 5, 'Sandrine Aubry', 'France', 9, None, None, None),
    (1, 5, 'Ulysse Marchal', 'Angleterre', 6, None, None, None),
    (1, 5, 'Emmanuel Hubert', 'Italie', 4, None, None, None),
    (1, 5, 'Xavier Lambert', 'Allemagne', 3, None, None, None),
    (1, 5, 'Igor Petrov', 'Russie', 1, None, None, None),
    (1, 5, 'Pascale Henry', 'Autriche', 0, 4, None, None),

    (2, 1, 'Ulysse Marchal', 'Russie', 12, None, None, None),
    (2, 1, 'Xavier Lambert', 'Autriche', 8, None, None, None),
    (2, 1, 'Guillaume Schmid', 'Angleterre', 6, None, None, None),
    (2, 1, 'Cédric Moreau', 'Allemagne', 4, None, None, None),
    (2, 1, 'Florence Picard', 'France', 3, None, None, None),
    (2, 1, 'Delphine Roy', 'Turquie', 1, None, None, None),
    (2, 1, 'Pascale Henry', 'Italie', 0, 5, None, None),

    (2, 2, 'Nicolas Chauvin', 'Russie', 8, None, 5, None),
    (2, 2, 'Camille Faure', 'Italie', 6, None, 5, None),
    (2, 2, 'Bastien Roux', 'Allemagne', 6, None, 5, None),
    (2, 2, 'Karine Lemoine', 'France', 5, None, 5, None),
    (2, 2, 'Olivier Brunet', 'Angleterre', 5, None, 5, None),
    (2, 2, 'Élise Martin', 'Autriche', 4, None, 5, None),
    (2, 2, 'Quentin Morel', 'Turquie', 0, 4, 5, None),

    (2, 3, 'Inès Garnier', 'France', 9, None, None, None),
    (2, 3, 'William Peeters', 'Autriche', 9, None, None, None),
    (2, 3, 'Emmanuel Hubert', 'Turquie', 6, None, None, None),
    (2, 3, 'Fabrice Noël', 'Angleterre', 5, None, None, None),
    (2, 3, 'Hélène Dufour', 'Italie', 3, None, None, None),
    (2, 3, 'Hugo Tessier', 'Russie', 2, None, None, None),
    (2, 3, 'Valérie Colin', 'Allemagne', 0, 6, None, None),

    (2, 4, 'Adrien Lefort', 'Russie', 10, None, None, None),
    (2, 4, 'Mathilde Renard', 'Autriche', 6, None, None, None),
    (2, 4, 'Antoine Mercier', 'Allemagne', 6, None, None, None),
    (2, 4, 'Gaëtan Perrot', 'Turquie', 5, None, None, None),
    (2, 4, 'Benoît Gauthier', 'Angleterre', 4, None, None, None),
    (2, 4, 'Jérémie Blanc', 'France', 3, None, None, None),
    (2, 4, 'Sandrine Aubry', 'Italie', 0, 5, None, None),

    (2, 5, 'Raphaël Dumont', 'France', 13, None, None, None),
    (2, 5, 'Lucas Girard', 'Allemagne', 9, None, None, None),
    (2, 5, 'Igor Petrov', 'Autriche', 5, None, None, None),
    (2, 5, 'Adrien Lefort', 'Angleterre', 4, None, None, None),
    (2, 5, 'Yannick Vidal', 'Russie', 3, None, None, None),
    (2, 5, 'Damien Leclerc', 'Italie', 0, 3, None, None),
    (2, 5, 'Thibault Carré', 'Turquie', 0, 5, None, None),

    (3, 1, 'Antoine Mercier', 'Italie', 18, None, None, None),
    (3, 1, 'Jérémie Blanc', 'Autriche', 6, None, None, None),
    (3, 1, 'Quentin Morel', 'Russie', 5, None, None, None),
    (3, 1, 'Fabrice Noël', 'Allemagne', 3, None, None, None),
    (3, 1, 'Mathilde Renard', 'Angleterre', 2, None, None, None),
    (3, 1, 'Élise Martin', 'France', 0, 4, None, None),
    (3, 1, 'Adrien Lefort', 'Turquie', 0, 5, None, None),

    (3, 2, 'Camille Faure', 'Russie', 9, None, None, None),
    (3, 2, 'Delphine Roy', 'Allemagne', 8, None, None, None),
    (3, 2, 'William Peeters', 'Italie', 8, None, None, None),
    (3, 2, 'Olivier Brunet', 'Autriche', 4, None, None, None),
    (3, 2, 'Damien Leclerc', 'France', 3, None, None, None),
    (3, 2, 'Florence Picard', 'Turquie', 2, None, None, None),
    (3, 2, 'Raphaël Dumont', 'Angleterre', 0, 6, None, None),

    (3, 3, 'Sandrine Aubry', 'Autriche', 7, None, None, None),
    (3, 3, 'Hélène Dufour', 'Angleterre', 6, None, None, None),
    (3, 3, 'Xavier Lambert', 'France', 6, None, None, None),
    (3, 3, 'Guillaume Schmid', 'Italie', 6, None, None, None),
    (3, 3, 'Gaëtan Perrot', 'Allemagne', 5, None, None, None),
    (3, 3, 'Hugo Tessier', 'Turquie', 4, None, None, None),
    (3, 3, 'Bastien Roux', 'Russie', 0, 6, None, None),

    (3, 4, 'Thibault Carré', 'Allemagne', 10, None, None, None),
    (3, 4, 'Pascale Henry', 'Russie', 10, None, None, None),
    (3, 4, 'Cédric Moreau', 'Turquie', 5, None, None, None),
    (3, 4, 'Valérie Colin', 'Autriche', 4, None, None, None),
    (3, 4, 'Zoé Barbier', 'Angleterre', 3, None, None, None),
    (3, 4, 'Benoît Gauthier', 'Italie', 2, None, None, None),
    (3, 4, 'Nicolas Chauvin', 'France', 0, 5, None, None),

    (3, 5, 'Ulysse Marchal', 'Allemagne', 8, None, None, None),
    (3, 5, 'Yannick Vidal', 'Turquie', 7, None, None, None),
    (3, 5, 'Inès Garnier', 'Autriche', 6, None, None, None),
    (3, 5, 'Karine Lemoine', 'Italie', 5, None, None, None),
    (3, 5, 'Igor Petrov', 'Angleterre', 4, None, None, None),
    (3, 5, 'Lucas Girard', 'France', 3, None, None, None),
    (3, 5, 'Emmanuel Hubert', 'Russie', 1, None, None, None),

    (4, 1, 'Sandrine Aubry', 'Turquie', 3, None, None, 1),
    (4, 1, 'Olivier Brunet', 'Italie', 2, None, None, 2),
    (4, 1, 'Ulysse Marchal', 'Autriche', 9, None, None, 3),
    (4, 1, 'Antoine Mercier', 'Angleterre', 5, None, None, 4),
    (4, 1, 'Adrien Lefort', 'France', 0, 6, None, 5),
    (4, 1, 'Raphaël Dumont', 'Russie', 9, None, None, 6),
    (4, 1, 'Camille Faure', 'Allemagne', 6, None, None, 7),

    (4, 2, 'Yannick Vidal', 'Italie', 11, None, None, None),
    (4, 2, 'Quentin Morel', 'Autriche', 7, None, None, None),
    (4, 2, 'Damien Leclerc', 'Russie', 6, None, None, None),
    (4, 2, 'Lucas Girard', 'Turquie', 4, None, None, None),
    (4, 2, 'Fabrice Noël', 'France', 3, None, None, None),
    (4, 2, 'Karine Lemoine', 'Allemagne', 2, None, None, None),
    (4, 2, 'Bastien Roux', 'Angleterre', 1, None, None, None),

    (4, 3, 'Nicolas Chauvin', 'Angleterre', 8, None, None, None),
    (4, 3, 'Mathilde Renard', 'Allemagne', 7, None, None, None),
    (4, 3, 'Valérie Colin', 'France', 7, None, None, None),
    (4, 3, 'Thibault Carré', 'Autriche', 5, None, None, None),
    (4, 3, 'Xavier Lambert', 'Italie', 4, None, None, None),
    (4, 3, 'Inès Garnier', 'Turquie', 3, None, None, None),
    (4, 3, 'Cédric Moreau', 'Russie', 0, 5, None, None),

    (4, 4, 'Gaëtan Perrot', 'Autriche', 6, None, None, None),
    (4, 4, 'Jérémie Blanc', 'Italie', 6, None, None, None),
    (4, 4, 'Delphine Roy', 'Angleterre', 6, None, None, None),
    (4, 4, 'William Peeters', 'Allemagne', 5, None, None, None),
    (4, 4, 'Élise Martin', 'Russie', 5, None, None, None),
    (4, 4, 'Hélène Dufour', 'France', 4, None, None, None),
    (4, 4, 'Benoît Gauthier', 'Turquie', 2, None, None, None),
]


VOTES_HEADERS = ("Ronde", "Table", "Votant", "Catégorie", "Premier", "Second", "Bulletin")
CATEGORIES = ("meilleur diplomate", "meilleur tacticien", "meilleur stratège", "plus machiavélique")


def _votes() -> list[tuple]:
    """Every player's ballots after each game: in category number c, the voter at seat i (seats by
    centres) names two of the three best-placed other players, in turn; one ballot in four is 2 + 2."""
    boards: dict[tuple[int, int], list[str]] = {}
    for ronde, table, joueur, *_ in PARTIES:
        boards.setdefault((ronde, table), []).append(joueur)
    votes = []
    for (ronde, table), seats in boards.items():
        for i, voter in enumerate(seats):
            others = [p for p in seats if p != voter][:3]
            for c, category in enumerate(CATEGORIES):
                first, second = others[(i + c) % 3], others[(i + c + 1) % 3]
                ballot = "2+2" if (i + 2 * c) % 4 == 3 else "3+1"
                votes.append((ronde, table, voter, category, first, second, ballot))
    return votes


VOTES = _votes()

PREFERES_HEADERS = ("Votant", "Joueur préféré")
_FAVOURITES = ("Ulysse Marchal", "Ulysse Marchal", "Camille Faure", "Damien Leclerc", "Ulysse Marchal",
               "Karine Lemoine", "Camille Faure")


def _preferes() -> list[tuple]:
    """Every round-4 player names his favourite (never himself): Ulysse Marchal gets the most votes."""
    voters = [joueur for ronde, _, joueur, *_ in PARTIES if ronde == 4]
    rows = []
    for i, voter in enumerate(voters):
        choice = _FAVOURITES[i % len(_FAVOURITES)]
        if choice == voter:
            choice = _FAVOURITES[(i + 2) % len(_FAVOURITES)]
        rows.append((voter, choice))
    return rows


PREFERES = _preferes()


def generated(players: int, seed: int = 1) -> tuple[list[tuple], list[tuple], list[tuple], list[tuple]]:
    """A large made-up championship (rows of ``Joueurs``, ``Parties``, ``Votes`` and ``Préférés``), for
    benchmarks: ``players`` players (rounded down to a multiple of seven) on boards of seven for four
    rounds, 34 centres dealt at random on each board (one in twenty a solo), the round-4 table 1 as top
    board, and every ballot of every game."""
    import random

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
            for i, voter in enumerate(seats):
                others = [p for p in seats if p != voter]
                for category in CATEGORIES:
                    first, second = rng.sample(others, 2)
                    votes.append((ronde, table, voter, category, first, second, rng.choice(("3+1", "2+2"))))
    last = [row[2] for row in parties if row[0] == 4]
    preferes = [(voter, last[(i + 1) % len(last)]) for i, voter in enumerate(last)] if len(last) > 1 else []
    return joueurs, parties, votes, preferes


def _birth(rng) -> dt.date:
    return dt.date(1960, 1, 1) + dt.timedelta(days=rng.randrange(15_000))


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
