"""Excel functions (xlwings UDFs) of every federation, one section each.

A thin adapter: it converts what Excel passes (every number as a float, blanks as None, a
single cell as a scalar, ranges as lists of rows), calls the core (``xlcircuit.tdf``, ``xlcircuit.dbm``…) and
shapes the result like the input. No rule is computed here.

Bad input never raises a Python error: ``_declared`` turns it into a short French reason, shown
as ``ERRORS`` says (docs/fonctions.md, « Entrées incorrectes »): with the Windows add-in, a text
starting with ``#``; in xlwings Lite (Pyodide), Excel's error value #VALEUR! (#VALUE!), which
SIERREUR catches and SOMME propagates, with the reason in the cell's error tip. Blanks are blanks
whatever the runtime passes: None, an empty or blank text, or Pyodide's ``JsNull`` (recognised by
its type's name, without importing pyodide), at any depth of a range; an omitted optional argument,
a bare blank or a single blank cell gives the argument its default. Ranges and numbers are bounded,
so that no input gives inf, nan or a long computation.
What Excel shows about them (description, argument docs, range or cell) comes from their
entries in the registry, ``xlcircuit.functions``.

Arguments are declared without ``numbers=int`` on purpose: xlwings would then round ``2.6``
to ``3`` (Python rounding, halves to even) before the function sees it, and a mistyped place
would be scored silently. The functions take floats and accept only whole ones; a place may also be
typed as a fill reads it (« 3 », « 1er », « 2e », « 3ème »: ``rules.text.place_number``). Arguments use
``err_to_str=True`` so that an error cell (``#N/A``) is reported instead of read as a blank.
Off Windows the decorators are no-ops, so these are plain Python functions.
"""

from __future__ import annotations

import functools
import math
import sys
from numbers import Real
from typing import Any

import xlwings as xw

from ..rules import cdf, dbm, elo, limits, tdf, torres
from ..rules.errors import InvalidInput, XlcircuitError
from ..rules.text import clean, fold, place_number
from . import registry as functions

__all__ = [entry.name for entry in functions.FUNCTIONS]

#: Shown in an output cell whose input cell was blank (xlwings would write None as empty too,
#: but an explicit empty string looks the same in every runtime).
BLANK = ""
#: Largest player count TDF_POINTS takes: a tie group is averaged place by place, so a mistyped
#: huge count would freeze Excel (:mod:`xlcircuit.limits`, like the two bounds below).
MAX_COUNT = limits.MAX_PLACE
MAX_CELLS = limits.FUNCTION_MAX_CELLS
MAX_NUMBER = limits.FUNCTION_MAX_NUMBER
#: How a refused input shows: "text" (the reason as a text starting with '#': the Windows add-in, where a
#: raised error would show a Python traceback) or "error" (Excel's #VALUE! with the reason in its tip:
#: xlwings Lite, which turns a raised error into that). Pyodide (sys.platform "emscripten") is Lite.
ERRORS = "error" if sys.platform == "emscripten" else "text"

_CATEGORY = "xlcircuit"
_CELL = {"err_to_str": True}  # one cell
_RANGE = {"ndim": 2, "err_to_str": True}  # a range, always a list of rows


# --- Converters: what Excel passes -> plain values, and back -------------------------------------

#: How a range came: None for a scalar, n for a flat list of n, (rows, columns) for a block.
Shape = int | tuple[int, int] | None


class CellError(Exception):
    """A refused input, raised (``ERRORS == "error"``) for the runtime to show as #VALUE! with this reason."""


def _is_blank(value: Any) -> bool:
    """None, a blank text, or Pyodide's JsNull (what xlwings Lite passes for a blank before xlwings 0.36.7)."""
    return (value is None or (isinstance(value, str) and not clean(value))
            or type(value).__name__ == "JsNull")


def _omitted(value: Any) -> bool:
    """An optional argument left out: blank, or a range of one blank cell (how a blank arrives as a range)."""
    while isinstance(value, (list, tuple)) and len(value) == 1:
        value = value[0]
    return _is_blank(value)


def _shown(value: Any) -> str:
    """A cell's value as the message shows it (French decimal comma, text in guillemets)."""
    if _is_blank(value):
        return "une cellule vide"
    if isinstance(value, bool):
        return "VRAI" if value else "FAUX"
    if isinstance(value, str):
        text = clean(value)
        return f"« {text if len(text) <= 30 else text[:29] + '…'} »"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    if isinstance(value, float):
        return f"{value:.12g}".replace(".", ",")
    if isinstance(value, (list, tuple)):
        return "une plage"
    return str(value).replace(".", ",")


def _refuse(what: str, expected: str, value: Any) -> InvalidInput:
    return InvalidInput(f"#{what} : {expected} attendu, trouvé {_shown(value)}")


def _single(value: Any, what: str) -> Any:
    """One cell's value; a one-cell range ([x] or [[x]]) is taken as that cell."""
    if isinstance(value, (list, tuple)):
        cells, _ = _cells(value, what)
        if len(cells) != 1:
            raise InvalidInput(f"#{what} : une seule cellule attendue, trouvé une plage de {len(cells)}")
        return cells[0]
    return value


def _expected(low: int, high: int | None) -> str:
    return f"entier de {low} à {high}" if high is not None else f"entier ≥ {low}"


def _place(value: Any, what: str, low: int, high: int | None = None) -> int:
    """A cell -> a place in low..high, read as a fill reads it (:func:`xlcircuit.rules.text.place_number`): a
    whole number (3.0 is 3, the text « 3 » too) or a French ordinal (« 1er », « 2e », « 3ème »)."""
    if not isinstance(value, str) or _is_blank(value):
        return _whole(value, what, low, high)
    number = place_number(value)
    if number is None or number < low or (high is not None and number > high):
        raise _refuse(what, _expected(low, high), value)
    return number


def _whole(value: Any, what: str, low: int, high: int | None = None) -> int:
    """A cell -> a whole number in low..high: 3.0 is 3; 2.6, text, TRUE and blanks are refused."""
    expected = _expected(low, high)
    if not isinstance(value, Real) or isinstance(value, bool):
        raise _refuse(what, expected, value)
    if not math.isfinite(value) or not float(value).is_integer():
        raise _refuse(what, expected, value)
    number = int(float(value))
    if number < low or (high is not None and number > high):
        raise _refuse(what, expected, value)
    return number


def _number(value: Any, what: str) -> float:
    """A cell -> a finite number."""
    if not isinstance(value, Real) or isinstance(value, bool) or not math.isfinite(value):
        raise _refuse(what, "nombre", value)
    if abs(float(value)) > MAX_NUMBER:
        raise _refuse(what, "nombre de -10^12 à 10^12", value)
    return float(value)


def _flag(value: Any, what: str) -> bool:
    """A cell -> TRUE/FALSE; a blank is FALSE, 1 and 0 are taken as TRUE and FALSE."""
    value = _single(value, what)
    if _is_blank(value):
        return False
    if isinstance(value, bool):
        return value
    if isinstance(value, Real) and value in (0, 1):
        return bool(value)
    raise _refuse(what, "VRAI ou FAUX", value)


def _cells(value: Any, what: str) -> tuple[list[Any], Shape]:
    """A range as Excel passes it -> its cells in reading order, and its shape."""
    if not isinstance(value, (list, tuple)):
        return [value], None
    size = len(value) * (len(value[0]) if value and isinstance(value[0], (list, tuple)) else 1)
    if size > MAX_CELLS:
        raise InvalidInput(f"#{what} : plage de {MAX_CELLS:,} cellules au plus attendue, trouvé {size:,} "
                           f"(prenez les lignes utiles, B2:B40, plutôt que la colonne entière)".replace(",", " "))
    nested = [isinstance(row, (list, tuple)) for row in value]
    if not any(nested):
        return list(value), len(value)
    widths = {len(row) for row in value} if all(nested) else set()
    if len(widths) != 1:
        raise InvalidInput(f"#{what} : plage rectangulaire attendue")
    return [cell for row in value for cell in row], (len(value), widths.pop())


def _shaped(values: list[Any], shape: Shape) -> Any:
    """Values in reading order -> the shape they came in (a column stays a column)."""
    if shape is None:
        return values[0]
    if isinstance(shape, int):
        return values
    rows, columns = shape
    return [values[r * columns : (r + 1) * columns] for r in range(rows)]


def _at(what: str, index: int) -> str:
    """Where a cell is, for a message: its rank in the range, in reading order."""
    return f"{what}, cellule {index + 1}"


def _finite(result: Any) -> Any:
    """The result, checked: a number that is not finite (never expected) is refused rather than shown."""
    rows = result if isinstance(result, list) else [result]
    for value in (cell for row in rows for cell in (row if isinstance(row, list) else [row])):
        if isinstance(value, float) and not math.isfinite(value):
            raise InvalidInput("#résultat hors limites : des nombres plus petits sont attendus")
    return result


def _message(error: Exception) -> str:
    """The text a cell shows for a refused input: the core's French message, marked with '#'."""
    if isinstance(error, XlcircuitError):
        text = str(error)
        return text if text.startswith("#") else f"#{text}"
    return f"#erreur interne : {type(error).__name__} : {error}"


# --- Tour de France de Diplomatie: parsing of the cells -------------------------------------------


def _place_or_role(value: Any, where: str) -> int | tdf.Role | None:
    """A cell of a classification: an official place, a 100-point role, or None (not classified)."""
    if _is_blank(value) or (isinstance(value, str) and fold(value) == tdf.Status.DUPLICATE.value):
        return None  # a doublon's cell: not classified, the people behind it move up (§1)
    if isinstance(value, str) and place_number(value) is None:
        try:
            role = tdf.Role.parse(value)
        except InvalidInput:
            role = None
        if role is None:  # unknown text, or "joueur": a player needs his place
            roles = ", ".join(r.value for r in tdf.Role)
            raise _refuse(where, f"place ou {roles}", value)
        return role
    return _place(value, where, 1)


def _kind(value: Any, where: str) -> tdf.Kind:
    """A cell of the kinds row: a tournament kind; a blank is a normal tournament."""
    if _is_blank(value):
        return tdf.Kind.parse(None)
    if isinstance(value, str):
        try:
            return tdf.Kind.parse(value)
        except InvalidInput:
            pass
    raise _refuse(where, "type " + ", ".join(k.value for k in tdf.Kind), value)


def _outings(points: Any, kinds: Any) -> tuple[list[tdf.Outing | None], Shape]:
    """One player's points and the matching kinds -> an outing per cell (None: did not play)."""
    values, shape = _cells(points, "points")
    types, _ = _cells(kinds, "kinds")
    if len(values) != len(types):
        raise InvalidInput(
            f"#points et kinds : autant de cellules attendues, trouvé {len(values)} et {len(types)}"
        )
    outings: list[tdf.Outing | None] = []
    for i, (value, kind) in enumerate(zip(values, types)):
        parsed = _kind(kind, _at("kinds", i))
        if _is_blank(value):
            outings.append(None)
        else:
            outings.append(tdf.Outing(_number(value, _at("points", i)), parsed))
    return outings, shape


# --- Declaration, and the Tour de France functions -----------------------------------------------


def _declared(function):
    """Declare ``function`` to xlwings from its registry entry (``xlcircuit.functions``); bad input
    gives the cell a short message instead of raising."""
    entry = functions.function(function.__name__)

    @functools.wraps(function)  # xlwings reads the arguments through inspect.signature, which follows it
    def cell(*args, **kwargs):
        try:
            return _finite(function(*args, **kwargs))
        except (XlcircuitError, ValueError, TypeError, ArithmeticError) as error:
            message = _message(error)
        if ERRORS == "error":
            raise CellError(message.removeprefix("#").strip())
        return message

    # xlwings takes the function wizard's description from __doc__, read by the first decorator.
    cell.__doc__ = entry.description
    declared = cell
    for argument in entry.arguments:
        options = _RANGE if argument.range else _CELL
        declared = xw.arg(argument.name, doc=argument.description, **options)(declared)
    return xw.func(category=_CATEGORY)(declared)


@_declared
def TDF_POINTS(place, n, tied=1, interrupted=False):
    """§1: the points of each of ``tied`` players tied at ``place`` among ``n`` classified."""
    count = _whole(_single(n, "n"), "n", 1, MAX_COUNT)
    at = _place(_single(place, "place"), "place", 1, count)
    tied = _single(tied, "tied")
    group = 1 if _is_blank(tied) else _whole(tied, "tied", 1)
    return tdf.tied_points(at, count, group, _flag(interrupted, "interrupted"))


@_declared
def TDF_TOURNAMENT(places, interrupted=False):
    """§1: the points of each cell of a classification, in the range's shape."""
    cells, shape = _cells(places, "places")
    parsed = [_place_or_role(cell, _at("places", i)) for i, cell in enumerate(cells)]
    points = tdf.tournament_points(parsed, _flag(interrupted, "interrupted"))
    return _shaped([BLANK if p is None else p for p in points], shape)


@_declared
def TDF_SEASON(points, kinds):
    """§2: a player's weighted season total."""
    outings, _ = _outings(points, kinds)
    return float(tdf.season(o for o in outings if o is not None).total)


@_declared
def TDF_WEIGHTS(points, kinds):
    """§2: the weight applied to each of a player's tournaments, in the range's shape."""
    outings, shape = _outings(points, kinds)
    weights = iter(tdf.season(o for o in outings if o is not None).weights)
    return _shaped([BLANK if o is None else next(weights) for o in outings], shape)


# --- DBM (docs/regles/dbm.md) -------------------------------------------------------------------


#: Largest number of rounds DBM_VALUE takes, as the workbook (:mod:`xlcircuit.limits`).
DBM_MAX_ROUNDS = limits.DBM_MAX_ROUNDS


def _dbm_class(value: Any, what: str) -> dbm.PlayerClass:
    """A cell holding a class code (I, F, O, S, X, 0 for O, any case) or a value 1 to 5."""
    if not _is_blank(value) and not isinstance(value, bool):
        try:
            return dbm.PlayerClass.parse(value)
        except InvalidInput:
            pass
    raise _refuse(what, "code de classe (I, F, O, S, X ; 0 pour O) ou valeur de 1 à 5", value)


def _dbm_vft(value: Any) -> float:
    """The value of a tournament: a number, zero or more."""
    vft = _number(_single(value, "vft"), "vft")
    if vft < 0:
        raise _refuse("vft", "nombre positif", value)
    return vft


@_declared
def DBM_CLASS_VALUE(code):
    """VBJ: the value of a class code."""
    return float(_dbm_class(_single(code, "code"), "code").value)


@_declared
def DBM_CMM(mvb):
    """CMM: the coefficient of an average of values."""
    mean = _number(_single(mvb, "mvb"), "mvb")
    if not 1 <= mean <= 5:
        raise _refuse("mvb", "nombre de 1 à 5", mvb)
    return dbm.cmm(mean)


@_declared
def DBM_VALUE(values, rounds):
    """ABRA: the VFT of a tournament from its players' (or teams') values."""
    cells, _ = _cells(values, "values")
    parsed = [_dbm_class(cell, _at("values", i)).value for i, cell in enumerate(cells) if not _is_blank(cell)]
    if not parsed:
        raise InvalidInput("#values : au moins une valeur de joueur attendue, trouvé une plage vide")
    return dbm.tournament_value(parsed, _whole(_single(rounds, "rounds"), "rounds", 1, DBM_MAX_ROUNDS)).vft


@_declared
def DBM_POINTS(vft, place, n, tied=1):
    """CADABRA: the RFJ of each of ``tied`` players tied at ``place`` among ``n``."""
    value = _dbm_vft(vft)
    count = _whole(_single(n, "n"), "n", 1, MAX_COUNT)
    at = _place(_single(place, "place"), "place", 1, count)
    tied = _single(tied, "tied")
    group = 1 if _is_blank(tied) else _whole(tied, "tied", 1, count - at + 1)
    return dbm.tied_points(value, at, count, group)


@_declared
def DBM_REFEREE(vft):
    """PRIME D'ARBITRAGE: half the VFT, at most 100."""
    return dbm.referee_bonus(_dbm_vft(vft))


@_declared
def DBM_BEST4(results):
    """CRITERE DE CLASSEMENT: the sum of the four best results of a row, blanks ignored."""
    cells, _ = _cells(results, "results")
    return float(dbm.best_four(
        _number(cell, _at("results", i)) for i, cell in enumerate(cells) if not _is_blank(cell)))


# --- Championnat de France de Diplomatie (docs/regles/cdf.md) -----------------------------------



def _survival(value: Any, where: str, years: int) -> int | None:
    """A cell of the years-survived column: blank for a player still alive, else 0 to ``years`` years."""
    return None if _is_blank(value) else _whole(value, where, 0, years)


def _round_scores(value: Any, what: str, most: int) -> list[float]:
    """A row (or column) of round scores -> the scores of the rounds played (blanks: not played)."""
    cells, _ = _cells(value, what)
    if len(cells) > most:
        raise InvalidInput(f"#{what} : {most} cellules au plus attendues, trouvé {len(cells)}")
    scores = []
    for i, cell in enumerate(cells):
        if not _is_blank(cell):
            score = _number(cell, _at(what, i))
            if score < 0:
                raise _refuse(_at(what, i), "score ≥ 0", cell)
            scores.append(score)
    return scores


def _score(value: Any, what: str) -> float:
    score = _number(_single(value, what), what)
    if score < 0:
        raise _refuse(what, "score ≥ 0", value)
    return score


@_declared
def PASTIS(centres, years_survived=None, years_played=7):
    """§IV.1: the Super Pastis score of each player of a board, in the shape of ``centres``."""
    cells, shape = _cells(centres, "centres")
    if len(cells) != cdf.PLAYERS:  # one cell per power; a blank one for a power without a player
        raise InvalidInput(f"#centres : {cdf.PLAYERS} cellules attendues (une par pays), trouvé {len(cells)}")
    if _omitted(years_survived):
        survived: list[Any] = [None] * len(cells)
    else:
        survived, _ = _cells(years_survived, "years_survived")
    if len(survived) != len(cells):
        raise InvalidInput(f"#centres et years_survived : autant de cellules attendues, trouvé {len(cells)} "
                           f"et {len(survived)}")
    played = _single(years_played, "years_played")
    years = cdf.YEARS if _is_blank(played) else _whole(played, "years_played", 1, cdf.YEARS)
    seated = [i for i, cell in enumerate(cells) if not _is_blank(cell)]
    for i, cell in enumerate(cells):
        if _is_blank(cell) and not _is_blank(survived[i]):
            raise _refuse(_at("centres", i), "nombre de centres (0 pour un éliminé)", cell)
    board = [_whole(cells[i], _at("centres", i), 0, cdf.CENTRES) for i in seated]
    lasted = [_survival(survived[i], _at("years_survived", i), years) for i in seated]
    scores = iter(cdf.game_scores(board, lasted, years, short=True))
    return _shaped([next(scores) if i in seated else BLANK for i in range(len(cells))], shape)


@_declared
def CDF_SIMUL(score1, score2):
    """§II.2b4: the round score of two simultaneous games."""
    return float(cdf.round_score([_score(score1, "score1"), _score(score2, "score2")]))


@_declared
def CDF_QUALIF(round_scores):
    """§IV.2: the qualifying score of rounds 1 to 3."""
    return float(cdf.qualifying_score(_round_scores(round_scores, "round_scores", cdf.QUALIFYING_ROUNDS)))


@_declared
def CDF_FINAL(round_scores, top_board=False, bonus=0):
    """§IV.3a and §III.4: the final score, with the top-board bonus and other bonuses."""
    final = cdf.final_score(_round_scores(round_scores, "round_scores", cdf.ROUNDS))
    extra = _single(bonus, "bonus")
    extra = 0.0 if _is_blank(extra) else _number(extra, "bonus")
    return float(cdf.total_score(final, _flag(top_board, "top_board"), extra))


# --- Multiplayer Elo (docs/regles/elo.md) ------------------------------------------------------



def _lowest_wins(value: Any) -> bool:
    """``lowest_wins``: a blank keeps the source's default, the lowest total wins."""
    value = _single(value, "lowest_wins")
    return True if _is_blank(value) else _flag(value, "lowest_wins")


def _elo_game(ratings: Any, totals: Any, games_played: Any,
              ) -> tuple[list[int | None], list[int], list[float], list[int], Shape]:
    """A game's three columns -> the filled rows' indexes, ratings, totals and games (one games cell: for all).

    A row whose three cells are blank is skipped (and given a blank back); a half-filled row is refused.
    """
    notes, shape = _cells(ratings, "ratings")
    scores, _ = _cells(totals, "totals")
    counts, _ = _cells(games_played, "games_played")
    if len(scores) != len(notes):
        raise InvalidInput(f"#ratings et totals : autant de cellules attendues, trouvé {len(notes)} et {len(scores)}")
    shared = len(counts) == 1 and len(notes) > 1
    if shared:
        counts = counts * len(notes)
    elif len(counts) != len(notes):
        raise InvalidInput(f"#ratings et games_played : autant de cellules attendues (ou une seule), trouvé "
                           f"{len(notes)} et {len(counts)}")
    rows: list[int | None] = []
    filled_ratings: list[int] = []
    filled_totals: list[float] = []
    filled_games: list[int] = []
    for i, (rating, total, count) in enumerate(zip(notes, scores, counts)):
        if _is_blank(rating) and _is_blank(total) and (shared or _is_blank(count)):
            rows.append(None)
            continue
        rows.append(len(filled_ratings))
        filled_ratings.append(_whole(rating, _at("ratings", i), elo.FLOOR))
        filled_totals.append(_number(total, _at("totals", i)))
        if abs(filled_totals[-1]) > elo.MAX_TOTAL:
            raise InvalidInput(f"#{_at('totals', i)} : nombre de -{elo.MAX_TOTAL:.0f} à {elo.MAX_TOTAL:.0f} attendu, "
                               f"trouvé {filled_totals[-1]:.6g}".replace(".", ","))
        filled_games.append(_whole(count, _at("games_played", i), 1))
    if not elo.MIN_PLAYERS <= len(filled_ratings) <= elo.MAX_PLAYERS:
        raise InvalidInput(f"#ratings : de {elo.MIN_PLAYERS} à {elo.MAX_PLAYERS} joueurs attendus, trouvé "
                           f"{len(filled_ratings)}")
    return rows, filled_ratings, filled_totals, filled_games, shape


def _elo_changes(ratings: Any, totals: Any, games_played: Any, lowest_wins: Any, value) -> Any:
    """The changes of a game, each turned into a cell by ``value``, in the ratings' shape."""
    rows, notes, scores, counts, shape = _elo_game(ratings, totals, games_played)
    changes = elo.rate_game(notes, scores, counts, _lowest_wins(lowest_wins))
    return _shaped([BLANK if r is None else float(value(changes[r])) for r in rows], shape)


@_declared
def ELO_EXPECTED(rating, opponent_rating):
    """§2: the expectation of a duel."""
    return elo.expected(_number(_single(rating, "rating"), "rating"),
                        _number(_single(opponent_rating, "opponent_rating"), "opponent_rating"))


@_declared
def ELO_K(games_played):
    """§6: K of a player's n-th ranked game."""
    return float(elo.k_factor(_whole(_single(games_played, "games_played"), "games_played", 1)))


@_declared
def ELO_CHANGE(ratings, totals, games_played, lowest_wins=True):
    """§1-§5: each player's change in one game (floor included), in the ratings' shape."""
    return _elo_changes(ratings, totals, games_played, lowest_wins, lambda c: c.delta)


@_declared
def ELO_NEW(ratings, totals, games_played, lowest_wins=True):
    """§1-§5: each player's rating after one game, in the ratings' shape."""
    return _elo_changes(ratings, totals, games_played, lowest_wins, lambda c: c.after)


@_declared
def ELO_TIER(rating, games_played):
    """Tiers: the French name of a player's tier, or Placement."""
    games = _whole(_single(games_played, "games_played"), "games_played", 0)
    return elo.tier(_whole(_single(rating, "rating"), "rating", elo.FLOOR), games).label


# --- TORRES (docs/regles/torres.md) ------------------------------------------------------------


def _match_points(points: Any) -> tuple[list[float], Shape]:
    """A match's range of in-game points -> the numbers (one to four) and the range's shape."""
    cells, shape = _cells(points, "points")
    if not 1 <= len(cells) <= torres.MATCH_SIZE:
        raise InvalidInput(f"#points : de 1 à {torres.MATCH_SIZE} cellules attendues, trouvé {len(cells)}")
    values = [_number(cell, _at("points", i)) for i, cell in enumerate(cells)]
    for i, value in enumerate(values):
        if not 0 <= value <= torres.MAX_NUMBER:  # in-game points, as the Matchs table takes them
            raise InvalidInput(f"#{_at('points', i)} : nombre de 0 à {torres.MAX_NUMBER:.0f} "
                               f"attendu, trouvé {value:.6g}".replace(".", ","))
    return values, shape


@_declared
def TORRES_VP(points, forfeit=None):
    """§2: each player's victory points in one match, in the range's shape."""
    values, shape = _match_points(points)
    flags = [False] * len(values)
    if not _omitted(forfeit):  # omitted, or one blank cell: nobody
        cells, _ = _cells(forfeit, "forfeit")
        if len(cells) != len(values):
            raise InvalidInput(f"#points et forfeit : autant de cellules attendues, trouvé {len(values)} "
                               f"et {len(cells)}")
        flags = [_flag(cell, _at("forfeit", i)) for i, cell in enumerate(cells)]
    return _shaped(torres.victory_points(values, flags), shape)


@_declared
def TORRES_DIFF(points):
    """§2: each player's particular-points difference in one match, in the range's shape."""
    values, shape = _match_points(points)
    return _shaped(torres.particular_differences(values), shape)
