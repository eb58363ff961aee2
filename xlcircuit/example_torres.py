"""The bundled example season of the TORRES championship (``xlcircuit demo``): printemps 2026.

Plain data, exactly as an organiser types it into the workbook's input tables (``Joueurs`` and
``Matchs``) and the season's parameters. Rules: ``shared/rules/torres.md`` (source
``shared/rules/sources/torres-championnat.txt``).

The layout is the source's example: a D1 of ten, a D2 of two groups of ten, a D3 of four groups of
seven, and twelve new players. The calendar of each group is the one ``xlcircuit schedule`` draws with
the season's seed (2026); the in-game points are made up (seeded). What the season shows:

- D1 match 1 is the source's particular-points example: 115, 130, 123 and 110 points, differences
  -18, +42, +14 and -38.
- A forfeit: Gaspard (D1) played his first two matches, then was declared forfeit; the fictitious
  player « Forfait » took his seat in the others. He ranks last of D1, his place in D2 is filled by a
  repêchage.
- A withdrawal: Valentine, first of D2 group 2, leaves before next season: the third of her group moves
  up in her place and the group's best relegated player is rescued.
- An unfinished match: Quentin's last match in D2 group 1, which he delayed (no victory points for
  him, the three others placed among themselves by the last count).
- Two players tied on in-game points in D3 group 1's first match: they share the victory points.
- Twelve new players, dealt in a snake by Elo into the four groups of D3.
"""

from __future__ import annotations

import random

from .torres import groups_in, schedule_group

SAISON = "printemps 2026"
GRAINE = 2026

NAMES = (
    "Adèle", "Basile", "Capucine", "Damien", "Éloïse", "Fabien", "Gaspard", "Hélène", "Igor", "Jeanne",
    "Kévin", "Léna", "Marius", "Nina", "Octave", "Pauline", "Quentin", "Rosalie", "Simon", "Tiphaine",
    "Ulysse", "Valentine", "William", "Xavière", "Yann", "Zélie", "Arthur", "Bérénice", "Colin", "Diane",
    "Émile", "Fanny", "Gilles", "Hortense", "Isidore", "Juliette", "Lazare", "Margaux", "Noé", "Ophélie",
    "Pierrick", "Raphaëlle", "Sacha", "Thaïs", "Urbain", "Violette", "Xavier", "Yvonne", "Zacharie", "Agathe",
    "Brice", "Clémence", "Didier", "Estelle", "Félix", "Gaëlle", "Hugo", "Inès", "Jules", "Louise",
    "Mathis", "Noémie", "Oscar", "Perrine", "Rémi", "Solène", "Théo", "Ursule", "Victor", "Anaïs",
)  # fmt: skip

JOUEURS_HEADERS = ("Joueur", "Elo", "Division", "Groupe", "Statut")
MATCHS_HEADERS = ("Division", "Groupe", "Match", "Joueur", "Points", "Retard")


def _season() -> tuple[list[tuple], list[tuple]]:
    rng = random.Random(GRAINE)
    names = iter(NAMES)
    joueurs: list[tuple] = []
    groups: dict[tuple[int, int], list[str]] = {}
    for d, size, base in ((1, 10, 1800), (2, 10, 1650), (3, 7, 1500)):
        for g in range(1, groups_in(d) + 1):
            members = [next(names) for _ in range(size)]
            groups[d, g] = members
            for name in members:
                status = "forfait" if name == "Gaspard" else "retrait" if name == "Valentine" else "actif"
                joueurs.append((name, base + rng.randrange(-80, 120), d, g, status))
    for name in names:
        joueurs.append((name, rng.randrange(1200, 1700), None, None, "nouveau"))
    matchs: list[tuple] = []
    for (d, g), members in groups.items():
        played = {"Gaspard": 0, "Quentin": 0}
        for number, match in enumerate(schedule_group(members, f"{GRAINE}:{d}:{g}"), start=1):
            points = [rng.randrange(70, 160) for _ in match]
            if (d, g, number) == (1, 1, 1):
                points = [115, 130, 123, 110]  # the source's particular-points example
            if (d, g, number) == (3, 1, 1):
                points[1] = points[0]  # a tie on in-game points: shared victory points
            for seat, (name, score) in enumerate(zip(match, points)):
                if name in played:
                    played[name] += 1
                delayed = "oui" if name == "Quentin" and played[name] == 6 else None
                if name == "Valentine":
                    score += 45  # she wins her group, then withdraws
                if name == "Gaspard" and played[name] > 2:  # forfeit after two matches: the fictitious player's seat
                    name, score = "Forfait", rng.randrange(30, 60)
                matchs.append((d, g, number, name, score, delayed))
    return joueurs, matchs


JOUEURS, MATCHS = _season()


def generated(divisions: int, newcomers: int = 20, seed: int = 1) -> tuple[list[tuple], list[tuple]]:
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
