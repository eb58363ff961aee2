"""The registry of the Excel functions: names, arguments, French descriptions and a worked example.

One entry per function. Everything else is made from it: the xlwings declarations
(``xlcircuit.udfs``), xlwings Lite's ``main.py``, the starter workbook's example sheets and
``docs/fonctions.md`` (``xlcircuit.excel``). A new federation's functions are added here and
implemented in a ``udfs`` module. Pure data, standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass

#: What a cell holds: text, a number, TRUE/FALSE, or None for a blank cell.
Cell = str | float | int | bool | None


@dataclass(frozen=True)
class Federation:
    """A federation as its functions are presented: a section of the reference, a starter sheet."""

    code: str  # as in ``xlcircuit new CODE``
    name: str  # full French name, the reference's section title
    sheet: str  # the starter workbook's sheet (at most 31 characters)


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
    federation: str  # a Federation code
    description: str  # French; Excel's function wizard cuts it after 255 characters
    arguments: tuple[Argument, ...]
    example: Example
    module: str = "xlcircuit.udfs"  # the module defining it (xlwings' "UDF Modules")


#: In the order of the reference and of the starter workbook's sheets.
FEDERATIONS: tuple[Federation, ...] = (
    Federation("tdf", "Tour de France de Diplomatie", "Tour de France"),
)

# --- Tour de France de Diplomatie (../shared/rules/tdf.md) ----------------------------------------

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
            Argument("place", "Place effective du joueur : 1 + nombre de classés devant lui (de 1 à n)."),
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
        "aide, annulé : 100) ; vide si non classé. Plage de même forme, non arrondie.",
        (
            Argument(
                "places",
                "Plage des places officielles (1, 2, 2, 4…) ; organisateur, aide ou annulé pour une "
                "personne non classée à 100 points ; cellule vide si la personne n'est pas classée.",
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

# --- DBM (../shared/rules/dbm.md) -------------------------------------------------------------------

DBM_FUNCTIONS: tuple[Function, ...] = ()

# --- Championnat de France de Diplomatie (../shared/rules/cdf.md) -----------------------------------

CDF_FUNCTIONS: tuple[Function, ...] = ()

# --- Multiplayer Elo (../shared/rules/elo.md) ------------------------------------------------------

ELO_FUNCTIONS: tuple[Function, ...] = ()

# --- TORRES (../shared/rules/torres.md) ------------------------------------------------------------

TORRES_FUNCTIONS: tuple[Function, ...] = ()

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
