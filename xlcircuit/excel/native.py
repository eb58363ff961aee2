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

#: The column of the Tour de France sheet listing the interrupted tournaments (after the table and a gap).
TDF_INTERRUPTED_COLUMN = "N"
#: What a place cell may say instead of a place, as ``tdf.Role.parse`` reads it (the spreadsheet's ``=``
#: ignores case, not accents: each accented word is listed with and without).
TDF_ROLES = {
    "organisateur": ("organisateur", "organisatrice", "co-organisateur", "co-organisatrice", "coorganisateur",
                     "coorganisatrice"),
    "aide": ("aide", "aidant", "aidante"),
    "annulé": ("annulé", "annule", "annulée", "annulee", "tournoi annulé", "tournoi annule"),
}
#: A place typed as a French ordinal (``rules.text.place_number``): the suffixes after its number, any number,
#: then those of 1 only and of 2 only (``1er``, ``1re``, ``2nd``); none for a number typed as text.
_ANY_SUFFIX, _FIRST_SUFFIX, _SECOND_SUFFIX = ("", "e", "ème", "eme"), ("er", "re", "ère", "ere"), ("nd", "nde")


def _one_of(value: str, words: tuple[str, ...]) -> str:
    return "OR(" + ",".join(f'{value}="{word}"' for word in words) + ")"


def _typed(c: str) -> str:
    """A place cell as text: without spaces, in lower case (``" 3 ème"`` -> ``"3ème"``)."""
    return f'SUBSTITUTE(LOWER(TRIM({c}))," ","")'


def _number_of(c: str) -> str:
    """The number a place typed as text starts with (``3ème`` -> 3): its suffixes' letters taken out."""
    digits = _typed(c)
    for letter in "eèrmnd":
        digits = f'SUBSTITUTE({digits},"{letter}","")'
    return f"VALUE({digits})"


def _readable(c: str, n: str) -> str:
    """Whether the place typed in ``c`` is the whole number ``n`` as the workbook's reader takes it
    (``cells.as_positive_int``): a number, or text made of ``n`` and a suffix its number takes (``3``, ``3e``,
    ``3ème``, ``1er``, ``1re``, ``2nd``)."""
    text = _typed(c)
    suffix = f"MID({text},LEN({n})+1,9)"
    ordinal = (f'AND(LEFT({text},LEN({n}))={n}&"",OR({_one_of(suffix, _ANY_SUFFIX)},'
               f"AND({n}=1,{_one_of(suffix, _FIRST_SUFFIX)}),AND({n}=2,{_one_of(suffix, _SECOND_SUFFIX)})))")
    return f"AND({n}=INT({n}),{n}>=1,{n}<=100000,OR(ISNUMBER({c}),{ordinal}))"


def tdf_columns(last: int) -> list[Column]:
    """Tournoi | Joueur | Place | Place lue | Rôle | Retenue | Classés | Place effective | Ex aequo | Points |
    Problème | Remarque; interrupted tournaments are listed in column N. Points of place q among x:
    1000 / 10^((q-1)/(x-1)), the first + x (no bonus if interrupted); ties share the mean of their places'
    points; a player's further lines in a tournament are doublons: only his best place counts and the people
    classified behind the others move up. A line the rules cannot read (a place « 3er », « annulé » beside
    places) leaves its whole tournament uncomputed (#N/A), the reason beside it: never a plausible number."""
    a, b, d, e, f, k = (_span(col, last) for col in "ABDEFK")
    rows = f"ROW({d})"
    same_tournament = f"(TRIM({a})=TRIM(A{{r}}))"  # names as the workbook reads them: spaces trimmed
    same_person = f"{same_tournament}*EXACT(TRIM({b}),TRIM(B{{r}}))"
    kept = f"{same_tournament}*ISNUMBER({d})*({f}=1)"
    interrupted = f"SUMPRODUCT(--(TRIM({_span(TDF_INTERRUPTED_COLUMN, FIRST + 19)})=TRIM(A{{r}})))>0"
    x, first, tied = "G{r}", "(H{r}-1)", "I{r}"
    series = (f"1000*(10^(-{first}/({x}-1))-10^(-({first}+{tied})/({x}-1)))/(1-10^(-1/({x}-1)))")
    points = (f"IF({x}=1,1000+IF({interrupted},0,1),"
              f"({series}+IF(H{{r}}=1,IF({interrupted},0,{x}),0))/{tied})")
    role = "TRIM(C{r})"
    role_name = "".join(f'IF({_one_of(role, words)},"{name}",' for name, words in TDF_ROLES.items()) + '""' + ")" * 3
    # The number a place cell says, however typed; whether it is a place the rules take is the problem's.
    place = f'IF(ISNUMBER(C{{r}}),C{{r}},IF(TRIM(C{{r}})="","",IFERROR({_number_of("C{r}")},"")))'
    # Kept: the person's best line (the lowest place, the first of equal ones; a place before a role).
    better = f"ISNUMBER({d})*(({d}<D{{r}})+({d}=D{{r}})*({rows}<ROW(D{{r}})))"
    earlier_role = f"ISNUMBER({d})+({e}<>\"\")*({rows}<ROW(D{{r}}))"
    retained = (f'IF(ISNUMBER(D{{r}}),IF(SUMPRODUCT({same_person}*{better})>0,0,1),'
                f'IF(E{{r}}<>"",IF(SUMPRODUCT({same_person}*({earlier_role}))>0,0,1),""))')
    problem = (f'IF(OR(A{{r}}="",TRIM(C{{r}})=""),"",IF(E{{r}}<>"",'
               f'IF(AND(E{{r}}="annulé",SUMPRODUCT({same_tournament}*ISNUMBER({d}))>0),'
               f'"annulé à côté de places : un tournoi annulé n\'a pas de classement",""),'
               f'IF(IFERROR(AND(ISNUMBER(D{{r}}),{_readable("C{r}", "D{r}")}),FALSE),"",'
               f'"place illisible : « "&C{{r}}&" » (un entier de 1 à 100000 : 3, 3e, 1er ; ou organisateur, aide, '
               f'annulé)")))')
    broken = f'SUMPRODUCT({same_tournament}*({k}<>""))>0'
    where = f'LOOKUP(2,1/({same_tournament}*({k}<>"")),'
    remark = (f'IF(OR(A{{r}}="",K{{r}}<>""),"",IF({broken},"tournoi non calculé : ligne "&{where}{rows})&" : "'
              f'&{where}{k}),IF(F{{r}}=0,"doublon : sa meilleure ligne compte, les classés derrière celle-ci '
              f'remontent d\'une place","")))')
    return [
        Column("Tournoi"), Column("Joueur"), Column("Place"),
        Column("Place lue", place),
        Column("Rôle", f'IF(ISNUMBER(C{{r}}),"",{role_name})'),
        Column("Retenue", f'IF(A{{r}}="","",{retained})'),
        Column("Classés", f'IF(AND(ISNUMBER(D{{r}}),F{{r}}=1),SUMPRODUCT({kept}),"")'),
        Column("Place effective", f'IF(AND(ISNUMBER(D{{r}}),F{{r}}=1),1+SUMPRODUCT({kept}*({d}<D{{r}})),"")'),
        Column("Ex aequo", f'IF(AND(ISNUMBER(D{{r}}),F{{r}}=1),SUMPRODUCT({kept}*({d}=D{{r}})),"")'),
        Column("Points", f'IF(A{{r}}="","",IF({broken},NA(),IF(F{{r}}=1,IF(ISNUMBER(D{{r}}),{points},100),"")))',
               "0.000"),
        Column("Problème", problem),
        Column("Remarque", remark),
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
               + [("Coupe de Paris", "Alice", "1er"), ("Coupe de Paris", "Bruno", "2e"), ("Coupe de Paris", "Chloé", 2),
                  ("Coupe de Paris", "Denis", "4ème"), ("Coupe de Paris", "Emma", "organisateur")])
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
