"""The registry of the Excel functions: names, arguments, French descriptions and a worked example.

One entry per function. Everything else is made from it: the xlwings declarations
(``xlcircuit.excel.udfs``), xlwings Lite's ``main.py`` and ``docs/fonctions.md`` (``xlcircuit.excel.reference``),
the starter workbook's example sheets (``xlcircuit.workbook.starter``). A new federation's functions are added here and
implemented in a ``udfs`` module. Pure data, standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..federations import FEDERATIONS, Federation

#: What a cell holds: text, a number, TRUE/FALSE, or None for a blank cell.
Cell = str | float | int | bool | None


@dataclass(frozen=True)
class Argument:
    """One argument of an Excel function, described for Excel's function wizard."""

    name: str  # the Python parameter's name
    description: str  # French; Excel's function wizard cuts it after 255 characters
    range: bool = False  # a range (passed as a list of rows) rather than one cell
    optional: bool = False  # has a default in Python; shown in brackets


@dataclass(frozen=True)
class Example:
    """A worked example: input cells from A1, the formula, and its hand-computed result."""

    cells: tuple[tuple[Cell, ...], ...]  # rows of cells from A1; () when the call needs none
    call: str  # as typed in a French Excel, without '=': arguments separated by ';', no text literals
    result: Cell | tuple[tuple[Cell, ...], ...]  # at most 3 decimals; rows of cells when it spills


@dataclass(frozen=True)
class Function:
    """An Excel function: what the organiser sees and where its Python code lives."""

    name: str
    federation: str  # a federation's code (``xlcircuit.federations``)
    description: str  # French; Excel's function wizard cuts it after 255 characters
    arguments: tuple[Argument, ...]
    example: Example
    module: str = "xlcircuit.udfs"  # the module defining it (xlwings' "UDF Modules")
    notes: tuple[str, ...] = ()  # French paragraphs for the reference only (no 255-character limit there)


# --- Tour de France de Diplomatie (docs/regles/tdf.md) ----------------------------------------

_INTERRUPTED = Argument(
    "interrupted",
    "Facultatif : VRAI si le tournoi a été interrompu sans vainqueur officiel (pas de bonus du "
    "vainqueur). FAUX par défaut.",
    optional=True,
)
_POINTS = Argument(
    "points", "Ligne (ou colonne) des points du joueur à chaque tournoi ; vide s'il n'a pas joué.", range=True
)
_KINDS = Argument(
    "kinds",
    "Ligne (ou colonne) des types de tournoi, dans le même ordre : majeur, en ligne, majeur en ligne, "
    "ou vide (normal).",
    range=True,
)
#: One player's season: a major, three normal tournaments and an online one (§2: the 300 is set aside).
_SEASON_CELLS = (
    ("points", 900, 700, 500, 300, 800),
    ("types", "majeur", "normal", "normal", "normal", "en ligne"),
)

TDF_FUNCTIONS: tuple[Function, ...] = (
    Function(
        "TDF_POINTS",
        "tdf",
        "Points TdF d'un joueur classé à une place parmi n classés : moyenne des places partagées par "
        "les ex aequo, sans bonus du vainqueur si le tournoi est interrompu. Non arrondi.",
        (
            Argument("place", "Place effective du joueur : 1 + nombre de classés devant lui (de 1 à n ; 3 ou 3e)."),
            Argument(
                "n",
                "Nombre de joueurs classés du tournoi (personnes distinctes ; organisateurs et aides "
                "non joueurs exclus).",
            ),
            Argument(
                "tied",
                "Facultatif : nombre de joueurs ex aequo à cette place, lui compris (1 par défaut).",
                optional=True,
            ),
            _INTERRUPTED,
        ),
        # Two tied first among 12: (1000 + 12 + 1000 / 10^(1/11)) / 2 = 911.5654...
        Example((), "TDF_POINTS(1; 12; 2)", 911.565),
    ),
    Function(
        "TDF_TOURNAMENT",
        "tdf",
        "Points TdF de chaque ligne d'un classement (ex aequo et places vacantes compris ; organisateur, "
        "aide, annulé : 100) ; vide si non classé. Plage de même forme, non arrondie. Un tournoi annulé n'a "
        "pas de places.",
        (
            Argument(
                "places",
                "Plage des places officielles (1, 2, 2, 4… ou 1er, 2e…) ; organisateur, aide ou annulé pour une "
                "personne non classée à 100 points (annulé : tournoi annulé, sans aucune place) ; vide si non "
                "classée ; doublon (2e ligne d'un joueur) : vide ou doublon.",
                range=True,
            ),
            _INTERRUPTED,
        ),
        # 4 classified: 1000 + 4; the two 2nd share (1000 / 10^(1/3) + 1000 / 10^(2/3)) / 2; last 100.
        Example(
            (("places", 1), (None, 2), (None, 2), (None, 4), (None, "organisateur")),
            "TDF_TOURNAMENT(B1:B5)",
            ((1004,), (339.801,), (339.801,), (100,), (100,)),
        ),
        notes=(
            "La fonction ne reçoit que les places, pas les noms : elle ne peut pas voir qu'une personne a deux "
            "lignes. Un **doublon** (une personne qui a joué sur deux tables : le classement officiel lui donne "
            "deux places) se tape ainsi : sa meilleure place sur sa ligne, et sur l'autre ligne `doublon` (ou une "
            "cellule vide). Les classés derrière le doublon remontent alors d'une place (règlement, §1), et le "
            "doublon ne compte pas dans le nombre de classés. Par exemple, A 1er, B 2e, A 3e, C 4e se tape 1, 2, "
            "`doublon`, 4 : A 1003, B 316,228 (2e sur 3), C 100.",
            "Les places s'écrivent en nombres (`1`, `2`) ou en ordinaux, comme au remplissage d'un classeur : "
            "« 1er », « 1re », « 2e », « 2nd », « 3ème » (les fonctions TDF_POINTS et DBM_POINTS aussi).",
        ),
    ),
    Function(
        "TDF_SEASON",
        "tdf",
        "Total de saison TdF d'un joueur : majeurs à 100 %, autres à 100/80/40/20/10 %, en ligne après "
        "eux et au plus à 80 %, sans jamais perdre de points à jouer un tournoi de plus. Non arrondi.",
        (_POINTS, _KINDS),
        # 900 + 700 + 0.8 × 500 + 0.4 × 800, the 300 set aside (keeping it would give 2280).
        Example(_SEASON_CELLS, "TDF_SEASON(B1:F1; B2:F2)", 2320),
    ),
    Function(
        "TDF_WEIGHTS",
        "tdf",
        "Coefficient appliqué à chaque tournoi du joueur dans son total de saison TdF (1 ; 0,8 ; 0,4… ; 0 "
        "si mis de côté pour ne pas perdre de points) ; vide s'il n'a pas joué. Même forme que les points.",
        (_POINTS, _KINDS),
        Example(_SEASON_CELLS, "TDF_WEIGHTS(B1:F1; B2:F2)", ((1, 1, 0.8, 0, 0.4),)),
    ),
)

# --- DBM (docs/regles/dbm.md) -------------------------------------------------------------------

_VFT = Argument("vft", "Valeur finale du tournoi (VFT), par exemple le résultat de DBM_VALUE.")

DBM_FUNCTIONS: tuple[Function, ...] = (
    Function(
        "DBM_CLASS_VALUE",
        "dbm",
        "Valeur DBM d'une classe de joueur : I = 1, F = 2, O = 3, S = 4, X = 5 (0 se lit O, 1 se lit I, "
        "majuscules ou minuscules).",
        (Argument("code", "Classe du joueur : I, F, O, S ou X (0 pour O), ou sa valeur de 1 à 5."),),
        # VBJ: (S) valeur 4.
        Example((("classe", "S"),), "DBM_CLASS_VALUE(B1)", 4),
    ),
    Function(
        "DBM_CMM",
        "dbm",
        "Coefficient de modulation de moyenne (CMM) d'une moyenne des valeurs (MVB) : 8,00 jusqu'à 2,00, puis "
        "0,50 de plus par tranche de 0,25 (strictement au-dessus de chaque seuil), 14,00 au-delà de 4,75.",
        (Argument("mvb", "Moyenne des valeurs de base retenues (MVB), de 1 à 5."),),
        # Worked example 2: MVB 3.50 is not above 3.50, so CMM 11.00.
        Example((("MVB", 3.5),), "DBM_CMM(B1)", 11),
    ),
    Function(
        "DBM_VALUE",
        "dbm",
        "Valeur finale d'une poule (VFT = MVB × CMM × NRJ) : les valeurs des joueurs (ou des équipes en double) ; "
        "au-delà de 24, les 6 × NRJ meilleures (24 en 4 rondes, 30 en 5). Non arrondie.",
        (
            Argument(
                "values",
                "Plage des valeurs actualisées des joueurs (ou équipes), une cellule chacun : classe I, F, O, S, X "
                "(0 pour O) ou valeur de 1 à 5 ; cellules vides ignorées.",
                range=True,
            ),
            Argument("rounds", "Nombre de rondes jouées (NRJ), généralement 4, parfois 5."),
        ),
        # Worked example 1: twelve (O) players, four rounds: SVB 36, MVB 3.00, CMM 10.00, VFT 3 × 10 × 4 = 120.
        Example((("valeurs",) + ("O",) * 12,), "DBM_VALUE(B1:M1; 4)", 120),
    ),
    Function(
        "DBM_POINTS",
        "dbm",
        "Résultat d'un joueur (RFJ = VFT / 2^(4 × (place − 1) / NJT)) ; des ex aequo se partagent la moyenne des "
        "résultats des places qu'ils occupent. Non arrondi.",
        (
            _VFT,
            Argument("place", "Place finale du joueur (ou de l'équipe) : 1 + nombre de joueurs devant lui (3 ou 3e)."),
            Argument("n", "Nombre de joueurs du tournoi (NJT), ou d'équipes en double."),
            Argument(
                "tied",
                "Facultatif : nombre de joueurs ex aequo à cette place, lui compris (1 par défaut).",
                optional=True,
            ),
        ),
        # Worked example 1 (VFT 120, 12 players), two tied 5th: (120 / 2^(16/12) + 120 / 2^(20/12)) / 2
        # = (47.622 + 37.798) / 2 = 42.710.
        Example((), "DBM_POINTS(120; 5; 12; 2)", 42.71),
    ),
    Function(
        "DBM_REFEREE",
        "dbm",
        "Prime d'arbitrage d'un arbitre qui ne joue pas son tournoi : la moitié de la valeur du tournoi (VFT), "
        "100 points au plus.",
        (_VFT,),
        # Worked example 2's tournament: VFT 154, half is 77 (under the cap of 100).
        Example((), "DBM_REFEREE(154)", 77),
    ),
    Function(
        "DBM_BEST4",
        "dbm",
        "Somme des quatre meilleurs résultats d'un joueur (critère du tableau 1) ; cellules vides ignorées.",
        (Argument("results", "Ligne (ou colonne) des résultats du joueur ; vide s'il n'a pas joué.", range=True),),
        # 120 + 95.24 + 60 + 47.62 = 322.86; the 15 is a fifth result, not counted.
        Example((("résultats", 120, None, 47.62, 95.24, 15, 60),), "DBM_BEST4(B1:G1)", 322.86),
    ),
)

# --- Championnat de France de Diplomatie (docs/regles/cdf.md) -----------------------------------

_ROUND_SCORES = "Ligne (ou colonne) des scores de ronde du joueur, dans l'ordre des rondes ; vide s'il n'a pas joué"

CDF_FUNCTIONS: tuple[Function, ...] = (
    Function(
        "PASTIS",
        "cdf",
        "Scores Super Pastis d'une partie : solo (18 centres) 102 ; sinon 2 par centre, 10 pour un survivant ou 1 "
        "par année de survie, bonus du premier (51 moins celui du poursuivant, ou 48/x ex aequo) et des suivants.",
        (
            Argument(
                "centres",
                "Colonne des centres de chaque joueur à la fin de la partie (7 cellules ; une cellule vide pour "
                "un pays sans joueur), de 0 à 34, 34 en tout au plus.",
                range=True,
            ),
            Argument(
                "years_survived",
                "Facultatif : colonne, de même taille, du nombre d'années survécues par chaque joueur éliminé "
                "(0 centre) ; vide pour un joueur qui a encore des centres.",
                range=True,
                optional=True,
            ),
            Argument(
                "years_played",
                "Facultatif : nombre d'années jouées, moins de 7 si la partie s'est arrêtée par un vote (7 par "
                "défaut).",
                optional=True,
            ),
        ),
        # cdf.md, hand-checked game: 9 -> 18 + 10 + (51 - 12) = 67; 8 -> 16 + 10 + 12 = 38;
        # 7 -> 14 + 10 + 6 = 30; 5 -> 10 + 10 = 20; 3 -> 16; 2 -> 14; 0 eliminated after 5 years -> 5.
        Example(
            (("joueur", "centres", "éliminé après"), ("A", 9), ("B", 8), ("C", 7), ("D", 5), ("E", 3), ("F", 2),
             ("G", 0, 5)),
            "PASTIS(B2:B8; C2:C8)",
            ((67,), (38,), (30,), (20,), (16,), (14,), (5,)),
        ),
    ),
    Function(
        "CDF_SIMUL",
        "cdf",
        "Score de ronde d'un joueur qui a joué deux parties simultanées : la meilleure à 80 % et l'autre à 40 %, "
        "ou la meilleure à 100 % si c'est plus. Non arrondi.",
        (
            Argument("score1", "Score Super Pastis de l'une des deux parties."),
            Argument("score2", "Score Super Pastis de l'autre partie."),
        ),
        # 0.8 × 50 + 0.4 × 40 = 40 + 16 = 56, more than 50.
        Example((("scores", 50, 40),), "CDF_SIMUL(B1; C1)", 56),
    ),
    Function(
        "CDF_QUALIF",
        "cdf",
        "Score qualificatif après les rondes 1 à 3 : la somme des rondes jouées, ou la meilleure à 100 %, la "
        "deuxième à 80 % et la troisième à 40 % s'il a joué les trois. Non arrondi.",
        (Argument("round_scores", _ROUND_SCORES + " (3 cellules au plus).", range=True),),
        # Best first: 67 + 0.8 × 50 + 0.4 × 30 = 67 + 40 + 12 = 119.
        Example((("rondes", 67, 30, 50),), "CDF_QUALIF(B1:D1)", 119),
    ),
    Function(
        "CDF_FINAL",
        "cdf",
        "Score final : somme de moins de trois rondes ; trois rondes à 100/100/80 % ; quatre à 100/100/80/40 % "
        "(la meilleure d'abord) ; +15 % pour la table finale, puis les autres bonus. Non arrondi.",
        (
            Argument("round_scores", _ROUND_SCORES + " (4 cellules au plus).", range=True),
            Argument(
                "top_board",
                "Facultatif : VRAI si le joueur a joué la table finale (bonus de 15 %). FAUX par défaut.",
                optional=True,
            ),
            Argument(
                "bonus",
                "Facultatif : autres bonus, ajoutés au score (par exemple pour un désistement). 0 par défaut.",
                optional=True,
            ),
        ),
        # Best first: 67 + 50 + 0.8 × 30 + 0.4 × 20 = 149; × 1.15 = 171.35; + 5 = 176.35.
        Example((("rondes", 67, 30, 50, 20), ("table finale", True), ("bonus", 5)), "CDF_FINAL(B1:E1; B2; B3)",
                176.35),
    ),
)

# --- Multiplayer Elo (docs/regles/elo.md) ------------------------------------------------------

_GAME_RATINGS = Argument(
    "ratings", "Colonne des notes Elo des joueurs de la partie avant celle-ci (de 2 à 8 joueurs ; lignes vides "
    "ignorées).", range=True,
)
_GAME_TOTALS = Argument(
    "totals", "Colonne des totaux de la partie, dans le même ordre : ils donnent les rangs (ex aequo : même "
    "total).", range=True,
)
_GAME_PLAYED = Argument(
    "games_played", "Colonne du nombre de parties classées de chaque joueur, celle-ci comprise (elle donne son "
    "coefficient K) ; ou une seule cellule pour tous.", range=True,
)
_LOWEST_WINS = Argument(
    "lowest_wins", "Facultatif : VRAI (par défaut) si le plus petit total gagne, FAUX si c'est le plus grand.",
    optional=True,
)
#: The source's six totals (47, 61, 61, 78, 92, 104: ranks 1, 2, 2, 4, 5, 6) at equal ratings, K 16.
_SIX_EQUAL = (("Elo", "Total", "Parties"), (1000, 47, 40), (1000, 61, 40), (1000, 61, 40), (1000, 78, 40),
              (1000, 92, 40), (1000, 104, 40))
#: The source's table of six: "you" at 1000 finish 3rd behind 1200 and 1100, ahead of 1000, 900, 800; K 16.
_SIX_TABLE = (("Elo", "Total", "Parties"), (1200, 40, 40), (1100, 50, 40), (1000, 60, 40), (1000, 70, 40),
              (900, 80, 40), (800, 90, 40))

ELO_FUNCTIONS: tuple[Function, ...] = (
    Function(
        "ELO_EXPECTED",
        "elo",
        "Espérance Elo d'un duel : 1 / (1 + 10^((note adverse - note) / 400)), entre 0 et 1. Non arrondie.",
        (
            Argument("rating", "Note Elo du joueur avant la partie."),
            Argument("opponent_rating", "Note Elo de son adversaire avant la partie."),
        ),
        # 100 points ahead: 1 / (1 + 10^(-0.25)) = 1 / 1.5623 = 0.6401
        Example((), "ELO_EXPECTED(1100; 1000)", 0.64),
    ),
    Function(
        "ELO_K",
        "elo",
        "Coefficient K d'une partie classée selon le nombre de parties jouées, celle-ci comprise : 48 pour les "
        "parties 1 à 5, 28 de la 6e à la 30e, puis 16.",
        (Argument("games_played", "Nombre de parties classées du joueur, celle-ci comprise (1 pour la première)."),),
        # The 6th game is the first after the five placement games: 28.
        Example((), "ELO_K(6)", 28),
    ),
    Function(
        "ELO_CHANGE",
        "elo",
        "Variation de note de chaque joueur d'une partie de 2 à 8 : K × moyenne de ses duels (résultat - "
        "espérance), arrondie au plus proche (-3,5 donne -4), au moins 1 point au seul premier et au seul "
        "dernier, plancher 100.",
        (_GAME_RATINGS, _GAME_TOTALS, _GAME_PLAYED, _LOWEST_WINS),
        # Equal ratings: expectation 2.5 of 5 duels for all; results 5, 3.5, 3.5, 2, 1, 0 (the two 61 tie):
        # 16 × (5 - 2.5) / 5 = 8; 16 × 1 / 5 = 3.2 -> 3 (twice); -1.6 -> -2; -4.8 -> -5; -8.
        Example(_SIX_EQUAL, "ELO_CHANGE(A2:A7; B2:B7; C2:C7)", ((8,), (3,), (3,), (-2,), (-5,), (-8,))),
    ),
    Function(
        "ELO_NEW",
        "elo",
        "Nouvelle note de chaque joueur d'une partie de 2 à 8 : note avant la partie plus sa variation (arrondie, "
        "au moins 1 point au seul premier et au seul dernier), jamais sous 100.",
        (_GAME_RATINGS, _GAME_TOTALS, _GAME_PLAYED, _LOWEST_WINS),
        # K 16, everyone finishes in rating order; 16 / 5 × sum of (result - expectation):
        # 1200: 0.3599 + 0.2403 × 2 + 0.1510 + 0.0909 = 1.0824 -> 3.46 -> +3; 1100: -0.3599 + 0.3599 × 2 + 0.2403
        # + 0.1510 = 0.7512 -> 2.40 -> +2; you: 0.5 -> 1.6 -> +2; the other 1000: -1.6 -> -2; 900: -2.40 -> -2;
        # 800: -3.46 -> -3.
        Example(_SIX_TABLE, "ELO_NEW(A2:A7; B2:B7; C2:C7; 1)",
                ((1203,), (1102,), (1002,), (998,), (898,), (797,))),
    ),
    Function(
        "ELO_TIER",
        "elo",
        "Palier d'un joueur : Bronze (moins de 900), Argent (900), Or (1050), Platine (1200), Diamant (1350), "
        "Maître (1500) ; Placement tant que ses cinq premières parties ne sont pas jouées.",
        (
            Argument("rating", "Note Elo du joueur : un entier d'au moins 100 (le plancher)."),
            Argument("games_played", "Nombre de parties classées qu'il a jouées."),
        ),
        # 1050 opens Or; 12 games: placement is over.
        Example((), "ELO_TIER(1050; 12)", "Or"),
    ),
)

# --- TORRES (docs/regles/torres.md) ------------------------------------------------------------

_TORRES_POINTS = Argument(
    "points",
    "Colonne (ou ligne) des points particuliers des joueurs d'un match (de 1 à 4 cellules) : les points "
    "marqués dans la partie, ou au dernier décompte si elle n'est pas terminée.",
    range=True,
)

TORRES_FUNCTIONS: tuple[Function, ...] = (
    Function(
        "TORRES_VP",
        "torres",
        "Points de victoire TORRES de chaque joueur d'un match : 8, 4, 2, 1 selon les points particuliers "
        "(ex aequo : moyenne des places), joueur fictif « Forfait » compris ; 0 à qui a retardé un match non "
        "terminé, les autres classés entre eux.",
        (
            _TORRES_POINTS,
            Argument(
                "forfeit",
                "Facultatif : même forme que les points ; VRAI pour un joueur ayant retardé un match non terminé "
                "(aucun point de victoire, les autres classés entre eux). Le joueur fictif « Forfait » n'est pas "
                "marqué : il prend sa place selon ses points.",
                range=True,
                optional=True,
            ),
        ),
        # torres.md §2 example points, B delayed the unfinished match: B 0; the others placed among
        # themselves by the last count: C 123 first (8), A 115 second (4), D 110 third (2).
        Example(
            (("points", "retard"), (115, False), (130, True), (123, False), (110, False)),
            "TORRES_VP(A2:A5; B2:B5)",
            ((4,), (0,), (8,), (2,)),
        ),
    ),
    Function(
        "TORRES_DIFF",
        "torres",
        "Différence de points particuliers TORRES de chaque joueur d'un match : somme, sur ses adversaires, "
        "de ses points moins les leurs (4 × ses points − total du match).",
        (_TORRES_POINTS,),
        # Source example: A 115, B 130, C 123, D 110 (total 478): 4 × 115 − 478 = −18; 520 − 478 = 42;
        # 492 − 478 = 14; 440 − 478 = −38.
        Example(
            (("points",), (115,), (130,), (123,), (110,)),
            "TORRES_DIFF(A2:A5)",
            ((-18,), (42,), (14,), (-38,)),
        ),
    ),
)

FUNCTIONS: tuple[Function, ...] = TDF_FUNCTIONS + DBM_FUNCTIONS + CDF_FUNCTIONS + ELO_FUNCTIONS + TORRES_FUNCTIONS


def function(name: str) -> Function:
    """The registry entry of the Excel function ``name``."""
    for entry in FUNCTIONS:
        if entry.name == name:
            return entry
    raise KeyError(name)


def of_federation(code: str) -> list[Function]:
    """The functions of one federation, in registry order."""
    return [entry for entry in FUNCTIONS if entry.federation == code]


def modules() -> list[str]:
    """The modules defining the functions, in registry order (xlwings' "UDF Modules")."""
    return list(dict.fromkeys(entry.module for entry in FUNCTIONS))


__all__ = ["FEDERATIONS", "FUNCTIONS", "Argument", "Cell", "Example", "Federation", "Function", "function", "modules",
           "of_federation"]
