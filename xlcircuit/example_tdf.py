"""The bundled example season of the Tour de France (``xlcircuit demo``): season 2025-2026.

Plain data, exactly as an organiser types it into the workbook's two input tables
(``Tournois`` and ``Résultats``), so the values are the workbook's French texts.
Rules: ``shared/rules/tdf.md`` (source ``shared/rules/sources/tdf-reglement.txt``).

Eleven tournaments and 84 people. What the season shows:

- Tournoi de Paris is worked example 1 of the rules (21 players, no tie; Daniel 5th and
  playing co-organiser, Guéric co-organiser without playing), Tournoi de Lyon worked
  example 2 (12 players, David and Rémi tied 1st, four tied 9th, Pollux organiser and 8th).
  The people of the examples keep the source's first names; everyone else has a first
  name and a last name or initial.
- Ties: also two tied 6th at Nantes and two tied 10th at the Championnat de France.
- Vacancy: Tournoi de Bordeaux has no 7th (places 6 then 8).
- Duplicate: Julien Morel played on two boards at the Tournoi de Toulouse (4th and 10th).
- Imposed points: at the Championnat de Suisse the 2nd gets the winner's 1015 points
  (a special decision like the rules' 2022 case).
- Cancelled at the last minute: Tournoi de Lille, the six people present are "annulé".
- Majors: Championnat de Suisse and Championnat de France. Online: the Coupe de France
  web (interrupted: no winner bonus) and the Championnat du monde francophone (en ligne).
- No-loss rule: Thomas Girard (Bordeaux 2nd, Nantes 4th, Marseille 14th of 16, and winner
  of the Championnat du monde francophone en ligne) keeps more by treating his Marseille as
  not played than by counting it (his online win would drop from 40% to 20%).
- Sophie Caron has one classified tournament (Bordeaux) and helps at Nantes ("aide"):
  a role does not count toward the two tournaments, so she is unranked, like every
  person classified only once.
"""

import datetime
import random

TOURNOIS_HEADERS = ("Tournoi", "Date", "Type", "Interrompu")
TOURNOIS = [  # (Tournoi, Date (datetime.date), Type: "normal" / "majeur" / "en ligne" / "majeur en ligne", Interrompu: "oui" or None)
    ("Tournoi de Lyon", datetime.date(2025, 9, 13), "normal", None),
    ("Coupe de France web", datetime.date(2025, 10, 4), "en ligne", "oui"),
    ("Tournoi de Paris", datetime.date(2025, 10, 18), "normal", None),
    ("Tournoi de Bordeaux", datetime.date(2025, 11, 15), "normal", None),
    ("Tournoi de Lille", datetime.date(2025, 12, 6), "normal", None),
    ("Tournoi de Toulouse", datetime.date(2026, 1, 24), "normal", None),
    ("Championnat de Suisse", datetime.date(2026, 2, 21), "majeur", None),
    ("Tournoi de Nantes", datetime.date(2026, 3, 14), "normal", None),
    ("Championnat du monde francophone (en ligne)", datetime.date(2026, 4, 11), "en ligne", None),
    ("Championnat de France", datetime.date(2026, 5, 16), "majeur", None),
    ("Tournoi de Marseille", datetime.date(2026, 6, 13), "normal", None),
]

RESULTATS_HEADERS = ("Tournoi", "Joueur", "Place", "Rôle", "Points imposés")
RESULTATS = [  # (Tournoi, Joueur, Place (int or None), Rôle: None / "organisateur" / "aide" / "annulé", Points imposés: None or a number)
    # Worked example 2: two tied 1st, four tied 9th; Pollux organised and played (8th).
    ("Tournoi de Lyon", "David", 1, None, None),
    ("Tournoi de Lyon", "Rémi", 1, None, None),
    ("Tournoi de Lyon", "Maurice", 3, None, None),
    ("Tournoi de Lyon", "René", 4, None, None),
    ("Tournoi de Lyon", "Philippe", 5, None, None),
    ("Tournoi de Lyon", "Louis", 6, None, None),
    ("Tournoi de Lyon", "Clovis", 7, None, None),
    ("Tournoi de Lyon", "Pollux", 8, "organisateur", None),
    ("Tournoi de Lyon", "Claudine", 9, None, None),
    ("Tournoi de Lyon", "Georges", 9, None, None),
    ("Tournoi de Lyon", "Léo", 9, None, None),
    ("Tournoi de Lyon", "Charles-Henri", 9, None, None),

    # Online, long-running, interrupted: no official winner, so no winner bonus.
    ("Coupe de France web", "Karim Saïdi", 1, None, None),
    ("Coupe de France web", "Malcolm", 2, None, None),
    ("Coupe de France web", "Mehdi K.", 3, None, None),
    ("Coupe de France web", "Camille Roux", 4, None, None),
    ("Coupe de France web", "Loïc Hamon", 5, None, None),
    ("Coupe de France web", "Zoé Lambert", 6, None, None),
    ("Coupe de France web", "David", 7, None, None),
    ("Coupe de France web", "Xavier Dupuis", 8, None, None),
    ("Coupe de France web", "Ugo Ferrari", 9, None, None),
    ("Coupe de France web", "Julien Morel", 10, None, None),
    ("Coupe de France web", "Yves Charpentier", 11, None, None),
    ("Coupe de France web", "Hugo Lefebvre", 12, None, None),
    ("Coupe de France web", "Léo", 13, None, None),
    ("Coupe de France web", "Nadia Benali", 14, None, None),
    ("Coupe de France web", "Quentin Leroy", 15, None, None),
    ("Coupe de France web", "Emma Rousseau", 16, None, None),
    ("Coupe de France web", "Jonathan", 17, None, None),
    ("Coupe de France web", "Stéphane Noël", 18, None, None),
    ("Coupe de France web", "Tristan Royer", 19, None, None),
    ("Coupe de France web", "Fanny Colin", 20, None, None),

    # Worked example 1: 21 players; Daniel co-organised and played (5th),
    # Guéric co-organised without playing.
    ("Tournoi de Paris", "Jacques", 1, None, None),
    ("Tournoi de Paris", "Malcolm", 2, None, None),
    ("Tournoi de Paris", "Matthieu", 3, None, None),
    ("Tournoi de Paris", "Patrick", 4, None, None),
    ("Tournoi de Paris", "Daniel", 5, "organisateur", None),
    ("Tournoi de Paris", "Eulalie", 6, None, None),
    ("Tournoi de Paris", "Geoffroy", 7, None, None),
    ("Tournoi de Paris", "Axel", 8, None, None),
    ("Tournoi de Paris", "François", 9, None, None),
    ("Tournoi de Paris", "Jonathan", 10, None, None),
    ("Tournoi de Paris", "Joseph", 11, None, None),
    ("Tournoi de Paris", "Pierre", 12, None, None),
    ("Tournoi de Paris", "Conan", 13, None, None),
    ("Tournoi de Paris", "Valentin", 14, None, None),
    ("Tournoi de Paris", "Robert", 15, None, None),
    ("Tournoi de Paris", "Johnny", 16, None, None),
    ("Tournoi de Paris", "Laurence", 17, None, None),
    ("Tournoi de Paris", "Sylvestre", 18, None, None),
    ("Tournoi de Paris", "Oscar", 19, None, None),
    ("Tournoi de Paris", "Bernard", 20, None, None),
    ("Tournoi de Paris", "Nicolas", 21, None, None),
    ("Tournoi de Paris", "Guéric", None, "organisateur", None),

    # Place 7 officially empty: the players from 8th on move up one place.
    ("Tournoi de Bordeaux", "Camille Roux", 1, None, None),
    ("Tournoi de Bordeaux", "Thomas Girard", 2, None, None),
    ("Tournoi de Bordeaux", "Hugo Lefebvre", 3, None, None),
    ("Tournoi de Bordeaux", "Manon Petit", 4, None, None),
    ("Tournoi de Bordeaux", "Jacques", 5, None, None),
    ("Tournoi de Bordeaux", "Antoine Fabre", 6, "organisateur", None),
    ("Tournoi de Bordeaux", "Claire Vasseur", 8, None, None),
    ("Tournoi de Bordeaux", "Sophie Caron", 9, None, None),
    ("Tournoi de Bordeaux", "Élodie Marchand", 10, None, None),
    ("Tournoi de Bordeaux", "Yann Le Gall", 11, None, None),
    ("Tournoi de Bordeaux", "Rémi", 12, None, None),
    ("Tournoi de Bordeaux", "Baptiste Renaud", 13, None, None),
    ("Tournoi de Bordeaux", "Inès Haddad", 14, None, None),
    ("Tournoi de Bordeaux", "Romain Chevalier", 15, None, None),
    ("Tournoi de Bordeaux", "Laure Besson", 16, None, None),
    ("Tournoi de Bordeaux", "Cédric Aubert", 17, None, None),

    # Cancelled at the last minute: the people present get 100 points each.
    ("Tournoi de Lille", "Kevin T.", None, "annulé", None),
    ("Tournoi de Lille", "Nadia Benali", None, "annulé", None),
    ("Tournoi de Lille", "Olivier Dumas", None, "annulé", None),
    ("Tournoi de Lille", "Pauline Garnier", None, "annulé", None),
    ("Tournoi de Lille", "Matthieu", None, "annulé", None),
    ("Tournoi de Lille", "Sébastien Roy", None, "annulé", None),

    # Julien Morel played on two boards (4th and 10th): only his 4th counts.
    ("Tournoi de Toulouse", "Aurélien Faure", 1, None, None),
    ("Tournoi de Toulouse", "Manon Petit", 2, None, None),
    ("Tournoi de Toulouse", "Gaëlle Perrin", 3, None, None),
    ("Tournoi de Toulouse", "Julien Morel", 4, None, None),
    ("Tournoi de Toulouse", "Patrick", 5, None, None),
    ("Tournoi de Toulouse", "Vincent Lacroix", 6, None, None),
    ("Tournoi de Toulouse", "Bastien Mercier", 7, None, None),
    ("Tournoi de Toulouse", "Olivier Dumas", 8, None, None),
    ("Tournoi de Toulouse", "Kevin T.", 9, None, None),
    ("Tournoi de Toulouse", "Julien Morel", 10, None, None),
    ("Tournoi de Toulouse", "Fanny Colin", 11, None, None),
    ("Tournoi de Toulouse", "Guillaume Brun", 12, None, None),
    ("Tournoi de Toulouse", "Hélène Giraud", 13, None, None),
    ("Tournoi de Toulouse", "Jérôme Blanc", 14, None, None),

    # Major. Special decision: the 2nd, champion of the other classification,
    # gets the winner's 1015 points.
    ("Championnat de Suisse", "Christophe Meyer", 1, None, None),
    ("Championnat de Suisse", "Florian Schmitt", 2, None, 1015),
    ("Championnat de Suisse", "Malcolm", 3, None, None),
    ("Championnat de Suisse", "Grégoire Adam", 4, None, None),
    ("Championnat de Suisse", "Isabelle Moulin", 5, None, None),
    ("Championnat de Suisse", "Camille Roux", 6, None, None),
    ("Championnat de Suisse", "Arnaud V.", 7, None, None),
    ("Championnat de Suisse", "Benoît Huet", 8, None, None),
    ("Championnat de Suisse", "Eulalie", 9, None, None),
    ("Championnat de Suisse", "Hugo Lefebvre", 10, None, None),
    ("Championnat de Suisse", "Damien Gautier", 11, None, None),
    ("Championnat de Suisse", "Axel", 12, None, None),
    ("Championnat de Suisse", "Yves Charpentier", 13, None, None),
    ("Championnat de Suisse", "Ludovic Masson", 14, None, None),
    ("Championnat de Suisse", "Mélanie Roche", 15, None, None),

    # Two tied 6th; Sophie Caron helped without playing.
    ("Tournoi de Nantes", "Yann Le Gall", 1, "organisateur", None),
    ("Tournoi de Nantes", "Claire Vasseur", 2, None, None),
    ("Tournoi de Nantes", "Daniel", 3, None, None),
    ("Tournoi de Nantes", "Thomas Girard", 4, None, None),
    ("Tournoi de Nantes", "Élodie Marchand", 5, None, None),
    ("Tournoi de Nantes", "Baptiste Renaud", 6, None, None),
    ("Tournoi de Nantes", "Noémie Fournier", 6, None, None),
    ("Tournoi de Nantes", "Pauline Garnier", 8, None, None),
    ("Tournoi de Nantes", "Quentin Leroy", 9, None, None),
    ("Tournoi de Nantes", "Maurice", 10, None, None),
    ("Tournoi de Nantes", "Stéphane Noël", 11, None, None),
    ("Tournoi de Nantes", "Tristan Royer", 12, None, None),
    ("Tournoi de Nantes", "Laure Besson", 13, None, None),
    ("Tournoi de Nantes", "Ludovic Masson", 14, None, None),
    ("Tournoi de Nantes", "Sophie Caron", None, "aide", None),

    # Online, not a major: at most 80%, always after the player's other tournaments.
    ("Championnat du monde francophone (en ligne)", "Thomas Girard", 1, None, None),
    ("Championnat du monde francophone (en ligne)", "Karim Saïdi", 2, None, None),
    ("Championnat du monde francophone (en ligne)", "Zoé Lambert", 3, None, None),
    ("Championnat du monde francophone (en ligne)", "Mehdi K.", 4, None, None),
    ("Championnat du monde francophone (en ligne)", "Malcolm", 5, None, None),
    ("Championnat du monde francophone (en ligne)", "Loïc Hamon", 6, None, None),
    ("Championnat du monde francophone (en ligne)", "Xavier Dupuis", 7, None, None),
    ("Championnat du monde francophone (en ligne)", "Ugo Ferrari", 8, None, None),
    ("Championnat du monde francophone (en ligne)", "Christophe Meyer", 9, None, None),
    ("Championnat du monde francophone (en ligne)", "Camille Roux", 10, None, None),
    ("Championnat du monde francophone (en ligne)", "David", 11, None, None),
    ("Championnat du monde francophone (en ligne)", "Mélanie Roche", 12, None, None),
    ("Championnat du monde francophone (en ligne)", "Julien Morel", 13, None, None),
    ("Championnat du monde francophone (en ligne)", "Philippe", 14, None, None),
    ("Championnat du monde francophone (en ligne)", "Yves Charpentier", 15, None, None),
    ("Championnat du monde francophone (en ligne)", "Emma Rousseau", 16, None, None),
    ("Championnat du monde francophone (en ligne)", "Arnaud V.", 17, None, None),
    ("Championnat du monde francophone (en ligne)", "Cédric Aubert", 18, None, None),
    ("Championnat du monde francophone (en ligne)", "Jonathan", 19, None, None),
    ("Championnat du monde francophone (en ligne)", "Léo", 20, None, None),
    ("Championnat du monde francophone (en ligne)", "Nadia Benali", 21, None, None),

    # Major; two tied 10th; Marc Lemaire organised without playing.
    ("Championnat de France", "Malcolm", 1, None, None),
    ("Championnat de France", "Jacques", 2, None, None),
    ("Championnat de France", "Camille Roux", 3, None, None),
    ("Championnat de France", "Julien Morel", 4, None, None),
    ("Championnat de France", "Christophe Meyer", 5, None, None),
    ("Championnat de France", "Matthieu", 6, None, None),
    ("Championnat de France", "Manon Petit", 7, None, None),
    ("Championnat de France", "Aurélien Faure", 8, None, None),
    ("Championnat de France", "Hugo Lefebvre", 9, None, None),
    ("Championnat de France", "David", 10, None, None),
    ("Championnat de France", "Yann Le Gall", 10, None, None),
    ("Championnat de France", "Eulalie", 12, None, None),
    ("Championnat de France", "Claire Vasseur", 13, None, None),
    ("Championnat de France", "Gaëlle Perrin", 14, None, None),
    ("Championnat de France", "Daniel", 15, None, None),
    ("Championnat de France", "Rémi", 16, None, None),
    ("Championnat de France", "Patrick", 17, None, None),
    ("Championnat de France", "Vincent Lacroix", 18, None, None),
    ("Championnat de France", "Élodie Marchand", 19, None, None),
    ("Championnat de France", "François", 20, None, None),
    ("Championnat de France", "Antoine Fabre", 21, None, None),
    ("Championnat de France", "Olivier Dumas", 22, None, None),
    ("Championnat de France", "Inès Haddad", 23, None, None),
    ("Championnat de France", "Bastien Mercier", 24, None, None),
    ("Championnat de France", "Pierre", 25, None, None),
    ("Championnat de France", "Kevin T.", 26, None, None),
    ("Championnat de France", "Romain Chevalier", 27, None, None),
    ("Championnat de France", "Guillaume Brun", 28, None, None),
    ("Championnat de France", "Marc Lemaire", None, "organisateur", None),

    # Thomas Girard 14th: the no-loss rule treats it as not played for him.
    ("Tournoi de Marseille", "Julien Morel", 1, None, None),
    ("Tournoi de Marseille", "Florian Schmitt", 2, None, None),
    ("Tournoi de Marseille", "Aurélien Faure", 3, None, None),
    ("Tournoi de Marseille", "Pollux", 4, None, None),
    ("Tournoi de Marseille", "Manon Petit", 5, None, None),
    ("Tournoi de Marseille", "Marc Lemaire", 6, None, None),
    ("Tournoi de Marseille", "Gaëlle Perrin", 7, None, None),
    ("Tournoi de Marseille", "Philippe", 8, None, None),
    ("Tournoi de Marseille", "Valentin", 9, None, None),
    ("Tournoi de Marseille", "Grégoire Adam", 10, None, None),
    ("Tournoi de Marseille", "Claudine", 11, None, None),
    ("Tournoi de Marseille", "Jérôme Blanc", 12, None, None),
    ("Tournoi de Marseille", "Hélène Giraud", 13, None, None),
    ("Tournoi de Marseille", "Thomas Girard", 14, None, None),
    ("Tournoi de Marseille", "Noémie Fournier", 15, None, None),
    ("Tournoi de Marseille", "Sébastien Roy", 16, None, None),
]



SAISON = "2025-2026"

CLUBS = [
    "Diplo Club de Lyon",
    "Les Stratèges de Paris",
    "Cercle bordelais de Diplomatie",
    "Ligue toulousaine",
    "Diplomatie Nantes Atlantique",
    "Club genevois de Diplomatie",
    "Lille Diplomatie",
    "Marseille Stratégie",
]
JOUEURS_HEADERS = ("Joueur", "Club")
#: (Joueur, Club): every person's club, in eight clubs; one person in nine plays for no club.
JOUEURS = [
    (player, CLUBS[i % len(CLUBS)])
    for i, player in enumerate(sorted({row[1] for row in RESULTATS}))
    if i % 9 != 4
]


def generated(tournaments: int, players: int = 60, seed: int = 1) -> tuple[list[tuple], list[tuple]]:
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
