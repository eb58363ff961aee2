"""The native spreadsheet formulas that compute points without Python (``xlcircuit excel formulas`` writes them into
a workbook, :mod:`xlcircuit.workbook.formulas`; the French reference shows them). Pure text, standard library only.

Each table is one long table typed by the organiser (one line per player and tournament, or per player and match)
beside columns of formulas: COUNTIFS and SUMPRODUCT over the lines of the same tournament or match, IF, INT,
MATCH, CHOOSE; no LAMBDA, LET or dynamic arrays, so they work in any Excel and in LibreOffice. They restate the
rules of the core (``xlcircuit.tdf``, ``dbm``, ``torres``, ``elo``); ties share their places' values through the
sum of a geometric series, which is what the places' values are. A test recalculates them with LibreOffice and
compares every value with the core.
"""

from __future__ import annotations

from dataclasses import dataclass

FIRST = 5  # first line of every table (its header is the line above)

TDF_SHEET, DBM_TOURNAMENTS, DBM_PLAYERS, TORRES_SHEET, ELO_SHEET = (
    "Tour de France", "DBM tournois", "DBM joueurs", "TORRES", "Elo")


@dataclass(frozen=True)
class Column:
    """A column of a table: its French header, and its formula for line ``{r}`` (None: typed by the organiser)."""

    header: str
    formula: str | None = None
    number_format: str | None = None


def _span(column: str, last: int, sheet: str | None = None) -> str:
    prefix = f"'{sheet}'!" if sheet else ""
    return f"{prefix}${column}${FIRST}:${column}${last}"


# --- Tour de France (tdf.md §1) ------------------------------------------------------------------------

def tdf_columns(last: int) -> list[Column]:
    """Tournoi | Joueur | Place | Classés | Place effective | Ex aequo | Points; interrupted tournaments
    are listed in column J. Points of place q among x: 1000 / 10^((q-1)/(x-1)), the first + x (no bonus
    if interrupted); ties share the mean of their places' points."""
    t, p = _span("A", last), _span("C", last)
    interrupted = f"COUNTIF({_span('J', FIRST + 19)},A{{r}})>0"
    x, first, tied = "D{r}", "(E{r}-1)", "F{r}"
    series = (f"1000*(10^(-{first}/({x}-1))-10^(-({first}+{tied})/({x}-1)))/(1-10^(-1/({x}-1)))")
    points = (f"IF(OR(C{{r}}<1,C{{r}}<>INT(C{{r}})),NA(),IF({x}=1,1000+IF({interrupted},0,1),"
              f"({series}+IF(E{{r}}=1,IF({interrupted},0,{x}),0))/{tied}))")
    # « annulé » is for a tournament cancelled at the last minute: beside places it is refused, as by the core.
    cancelled = f'IF(COUNTIFS({t},A{{r}},{p},">=1")>0,NA(),100)'
    role = f'IF(OR(C{{r}}="organisateur",C{{r}}="aide"),100,IF(OR(C{{r}}="annulé",C{{r}}="annule"),{cancelled},NA()))'
    return [
        Column("Tournoi"), Column("Joueur"), Column("Place"),
        Column("Classés", f'IF(ISNUMBER(C{{r}}),COUNTIFS({t},A{{r}},{p},">=1"),"")'),
        Column("Place effective", f'IF(ISNUMBER(C{{r}}),1+COUNTIFS({t},A{{r}},{p},"<"&C{{r}}),"")'),
        Column("Ex aequo", f'IF(ISNUMBER(C{{r}}),COUNTIFS({t},A{{r}},{p},C{{r}}),"")'),
        Column("Points", f'IF(ISNUMBER(C{{r}}),{points},IF(C{{r}}="","",{role}))', "0.000"),
    ]


# --- DBM (dbm.md: VBJ, ABRA, CADABRA) ---------------------------------------------------------------------

_CODES = '{"I","F","O","S","X","0","1","2","3","4","5"}'


def dbm_player_columns(last: int, tournaments_last: int) -> list[Column]:
    """Tournoi | Joueur | Classe | Valeur | Rang de valeur | Retenue | Place | Place effective | Ex aequo |
    Joueurs classés | VFT | RFJ. RFJ of place q among n: VFT / 2^(4(q-1)/n), ties sharing the mean."""
    t, v, place = _span("A", last), _span("D", last), _span("G", last)
    names, bjr, vft = (_span(c, tournaments_last, DBM_TOURNAMENTS) for c in ("A", "D", "H"))
    key = 'TRIM(SUBSTITUTE(SUBSTITUTE(C{r},"(",""),")",""))'
    value = (f'IF(C{{r}}="","",IF(ISNUMBER(C{{r}}),IF(C{{r}}=0,3,IF(AND(C{{r}}>=1,C{{r}}<=5,C{{r}}=INT(C{{r}})),'
             f'C{{r}},NA())),CHOOSE(MATCH({key},{_CODES},0),1,2,3,4,5,3,1,2,3,4,5)))')
    n, first, tied = "J{r}", "(H{r}-1)", "I{r}"
    rfj = (f"IF(OR(G{{r}}<1,G{{r}}<>INT(G{{r}})),NA(),"
           f"K{{r}}*(2^(-4*{first}/{n})-2^(-4*({first}+{tied})/{n}))/(1-2^(-4/{n}))/{tied})")
    return [
        Column("Tournoi"), Column("Joueur"), Column("Classe"),
        Column("Valeur", value),
        Column("Rang de valeur", f'IF(ISNUMBER(D{{r}}),COUNTIFS({t},A{{r}},{v},">"&D{{r}})'
                                 f'+COUNTIFS($A${FIRST}:A{{r}},A{{r}},$D${FIRST}:D{{r}},D{{r}}),"")'),
        Column("Retenue", f'IF(ISNUMBER(D{{r}}),IF(E{{r}}<=SUMIF({names},A{{r}},{bjr}),1,0),"")'),
        Column("Place"),
        Column("Place effective", f'IF(ISNUMBER(G{{r}}),1+COUNTIFS({t},A{{r}},{place},"<"&G{{r}}),"")'),
        Column("Ex aequo", f'IF(ISNUMBER(G{{r}}),COUNTIFS({t},A{{r}},{place},G{{r}}),"")'),
        Column("Joueurs classés", f'IF(ISNUMBER(G{{r}}),COUNTIFS({t},A{{r}},{place},">=1"),"")'),
        Column("VFT", f'IF(ISNUMBER(G{{r}}),IF(COUNTIF({names},A{{r}})=0,NA(),SUMIF({names},A{{r}},{vft})),"")',
               "0.000"),
        Column("RFJ", f'IF(ISNUMBER(G{{r}}),{rfj},"")', "0.000"),
    ]


def dbm_tournament_columns(players_last: int) -> list[Column]:
    """Tournoi | Rondes | Joueurs | Retenus | SVB | MVB | CMM | VFT: BJR is every player up to 24, beyond
    six per round; CMM 8, + 0.5 per 0.25 of MVB strictly above 2.00, 14 above 4.75; VFT = MVB x CMM x NRJ."""
    t, v, kept = (_span(c, players_last, DBM_PLAYERS) for c in ("A", "D", "F"))
    blank = 'IF(A{r}="","",'
    return [
        Column("Tournoi"), Column("Rondes"),
        Column("Joueurs", blank + f'COUNTIFS({t},A{{r}},{v},">=1"))'),
        Column("Retenus", blank + "IF(OR(B{r}<1,B{r}<>INT(B{r})),NA(),IF(C{r}<=24,C{r},MIN(C{r},6*B{r}))))"),
        Column("SVB", blank + f"SUMIFS({v},{t},A{{r}},{kept},1))"),
        Column("MVB", blank + "E{r}/D{r})", "0.00"),
        Column("CMM", blank + "8+0.5*MIN(12,MAX(0,-INT(-(4*E{r}-8*D{r})/D{r}))))", "0.00"),
        Column("VFT", blank + "F{r}*G{r}*B{r})", "0.000"),
    ]


# --- TORRES (torres.md §2) ----------------------------------------------------------------------------------

def torres_columns(last: int) -> list[Column]:
    """Match | Joueur | Points | Forfait | Place | Ex aequo | PV | Différence: 8/4/2/1 victory points by
    place among the match's players without forfeit (ties share), 0 for a forfeit; the difference is
    n x his points - the match's total."""
    m, p, f = _span("A", last), _span("C", last), _span("D", last)
    same = f"({m}=A{{r}})*ISNUMBER({p})*({f}<>TRUE)"
    return [
        Column("Match"), Column("Joueur"), Column("Points"), Column("Forfait"),
        Column("Place", f'IF(AND(ISNUMBER(C{{r}}),D{{r}}<>TRUE),1+SUMPRODUCT({same}*({p}>C{{r}})),"")'),
        Column("Ex aequo", f'IF(AND(ISNUMBER(C{{r}}),D{{r}}<>TRUE),SUMPRODUCT({same}*({p}=C{{r}})),"")'),
        Column("PV", f'IF(ISNUMBER(C{{r}}),IF(COUNTIF({m},A{{r}})>4,NA(),IF(D{{r}}=TRUE,0,'
                     f'(2^(5-E{{r}})-2^(5-E{{r}}-F{{r}}))/F{{r}})),"")', "0.0"),
        Column("Différence",
               f'IF(ISNUMBER(C{{r}}),SUMPRODUCT(({m}=A{{r}})*ISNUMBER({p}))*C{{r}}-SUMIF({m},A{{r}},{p}),"")'),
    ]


# --- Elo (elo.md §2) ------------------------------------------------------------------------------------------

def elo_columns(last: int) -> list[Column]:
    """Joueur | Note | Note adverse | Espérance = 1 / (1 + 10^((adverse - note) / 400))."""
    return [
        Column("Joueur"), Column("Note"), Column("Note adverse"),
        Column("Espérance", 'IF(AND(ISNUMBER(B{r}),ISNUMBER(C{r})),1/(1+10^((C{r}-B{r})/400)),"")', "0.0000"),
    ]


# --- The example data -------------------------------------------------------------------------------------------

#: tdf.md §1, example 2 (ties) and a small tournament with an organiser, the second one interrupted.
TDF_EXAMPLE = ([("Open de Lyon", f"Joueur {i + 1}", p) for i, p in enumerate([1, 1, 3, 4, 5, 6, 7, 8, 9, 9, 9, 9])]
               + [("Coupe de Paris", "Alice", 1), ("Coupe de Paris", "Bruno", 2), ("Coupe de Paris", "Chloé", 2),
                  ("Coupe de Paris", "Denis", 4), ("Coupe de Paris", "Emma", "organisateur")])
TDF_INTERRUPTED = ("Coupe de Paris",)
#: dbm.md, worked example 1: twelve (O) players, four rounds (VFT 120); two players tied 5th.
DBM_TOURNAMENTS_EXAMPLE = (("Poule A", 4),)
DBM_PLAYERS_EXAMPLE = tuple(("Poule A", f"Joueur {i + 1}", "O", p)
                            for i, p in enumerate([1, 2, 3, 4, 5, 5, 7, 8, 9, 10, 11, 12]))
#: torres.md §2: A 115, B 130, C 123, D 110; the same match again with B a forfeit.
TORRES_EXAMPLE = (("Match 1", "A", 115, None), ("Match 1", "B", 130, None), ("Match 1", "C", 123, None),
                  ("Match 1", "D", 110, None), ("Match 2", "A", 115, None), ("Match 2", "B", 130, True),
                  ("Match 2", "C", 123, None), ("Match 2", "D", 110, None))
ELO_EXAMPLE = (("Alice", 1100, 1000), ("Bruno", 1000, 1100), ("Chloé", 1500, 1000))


#: (sheet, column header, formula of line 5) for the French reference.
def formulas() -> list[tuple[str, str, str]]:
    last = FIRST + 199
    tables = [(TDF_SHEET, tdf_columns(last)), (DBM_TOURNAMENTS, dbm_tournament_columns(last)),
              (DBM_PLAYERS, dbm_player_columns(last, FIRST + 19)), (TORRES_SHEET, torres_columns(last)),
              (ELO_SHEET, elo_columns(last))]
    return [(sheet, c.header, "=" + c.formula.replace("{r}", str(FIRST)))
            for sheet, columns in tables for c in columns if c.formula]
