"""Excel functions (xlwings UDFs) of every federation, one section each.

A thin adapter: it converts what Excel passes (every number as a float, blanks as None, a
single cell as a scalar, ranges as lists of rows), calls the core (``xlcircuit.tdf``, ``xlcircuit.dbm``…) and
shapes the result like the input. No rule is computed here.

Bad input never raises: the cell shows a short French message starting with ``#``.
What Excel shows about them (description, argument docs, range or cell) comes from their
entries in the registry, ``xlcircuit.functions``.

Arguments are declared without ``numbers=int`` on purpose: xlwings would then round ``2.6``
to ``3`` (Python rounding, halves to even) before the function sees it, and a mistyped place
would be scored silently. The functions take floats and accept only whole ones. Arguments use
``err_to_str=True`` so that an error cell (``#N/A``) is reported instead of read as a blank.
Off Windows the decorators are no-ops, so these are plain Python functions.
"""

from __future__ import annotations

import math
from numbers import Real
from typing import Any

import xlwings as xw

from . import functions, tdf
from .errors import InvalidInput, XlcircuitError
from .text import clean

__all__ = [entry.name for entry in functions.FUNCTIONS]

#: Shown in an output cell whose input cell was blank (xlwings would write None as empty too,
#: but an explicit empty string looks the same in every runtime).
BLANK = ""
#: Largest player count TDF_POINTS takes: a tie group is averaged place by place, so a mistyped
#: huge count would freeze Excel. No real tournament comes near it.
MAX_COUNT = 100_000

_CATEGORY = "xlcircuit"
_CELL = {"err_to_str": True}  # one cell
_RANGE = {"ndim": 2, "err_to_str": True}  # a range, always a list of rows


# --- Converters: what Excel passes -> plain values, and back -------------------------------------

#: How a range came: None for a scalar, n for a flat list of n, (rows, columns) for a block.
Shape = int | tuple[int, int] | None


def _is_blank(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not clean(value))


def _shown(value: Any) -> str:
    """A cell's value as the message shows it (French decimal comma, text in guillemets)."""
    if _is_blank(value):
        return "une cellule vide"
    if isinstance(value, bool):
        return "VRAI" if value else "FAUX"
    if isinstance(value, str):
        text = clean(value)
        return f"« {text if len(text) <= 30 else text[:29] + '…'} »"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
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


def _whole(value: Any, what: str, low: int, high: int | None = None) -> int:
    """A cell -> a whole number in low..high: 3.0 is 3; 2.6, text, TRUE and blanks are refused."""
    expected = f"entier de {low} à {high}" if high is not None else f"entier ≥ {low}"
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


def _message(error: Exception) -> str:
    """The text a cell shows for a refused input: the core's French message, marked with '#'."""
    if isinstance(error, XlcircuitError):
        text = str(error)
        return text if text.startswith("#") else f"#{text}"
    return f"#erreur interne : {type(error).__name__} : {error}"


# --- Tour de France de Diplomatie: parsing of the cells -------------------------------------------


def _place_or_role(value: Any, where: str) -> int | tdf.Role | None:
    """A cell of a classification: an official place, a 100-point role, or None (not classified)."""
    if _is_blank(value):
        return None
    if isinstance(value, str):
        try:
            role = tdf.Role.parse(value)
        except InvalidInput:
            role = None
        if role is None:  # unknown text, or "joueur": a player needs his place
            roles = ", ".join(r.value for r in tdf.Role)
            raise _refuse(where, f"place ou {roles}", value)
        return role
    return _whole(value, where, 1)


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
    """Declare ``function`` to xlwings from its registry entry (``xlcircuit.functions``)."""
    entry = functions.function(function.__name__)
    # xlwings takes the function wizard's description from __doc__, read by the first decorator.
    function.__doc__ = entry.description
    for argument in entry.arguments:
        options = _RANGE if argument.range else _CELL
        function = xw.arg(argument.name, doc=argument.description, **options)(function)
    return xw.func(category=_CATEGORY)(function)


@_declared
def TDF_POINTS(place, n, tied=1, interrupted=False):
    """§1: the points of each of ``tied`` players tied at ``place`` among ``n`` classified."""
    try:
        count = _whole(_single(n, "n"), "n", 1, MAX_COUNT)
        at = _whole(_single(place, "place"), "place", 1, count)
        tied = _single(tied, "tied")
        group = 1 if _is_blank(tied) else _whole(tied, "tied", 1)
        return tdf.tied_points(at, count, group, _flag(interrupted, "interrupted"))
    except (XlcircuitError, ValueError, TypeError) as error:
        return _message(error)


@_declared
def TDF_TOURNAMENT(places, interrupted=False):
    """§1: the points of each cell of a classification, in the range's shape."""
    try:
        cells, shape = _cells(places, "places")
        parsed = [_place_or_role(cell, _at("places", i)) for i, cell in enumerate(cells)]
        points = tdf.tournament_points(parsed, _flag(interrupted, "interrupted"))
        return _shaped([BLANK if p is None else p for p in points], shape)
    except (XlcircuitError, ValueError, TypeError) as error:
        return _message(error)


@_declared
def TDF_SEASON(points, kinds):
    """§2: a player's weighted season total."""
    try:
        outings, _ = _outings(points, kinds)
        return float(tdf.season(o for o in outings if o is not None).total)
    except (XlcircuitError, ValueError, TypeError) as error:
        return _message(error)


@_declared
def TDF_WEIGHTS(points, kinds):
    """§2: the weight applied to each of a player's tournaments, in the range's shape."""
    try:
        outings, shape = _outings(points, kinds)
        weights = iter(tdf.season(o for o in outings if o is not None).weights)
        return _shaped([BLANK if o is None else next(weights) for o in outings], shape)
    except (XlcircuitError, ValueError, TypeError) as error:
        return _message(error)


# --- DBM (../shared/rules/dbm.md) -------------------------------------------------------------------


# --- Championnat de France de Diplomatie (../shared/rules/cdf.md) -----------------------------------


# --- Multiplayer Elo (../shared/rules/elo.md) ------------------------------------------------------


# --- TORRES (../shared/rules/torres.md) ------------------------------------------------------------
