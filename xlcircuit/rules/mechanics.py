"""Mechanics shared by every federation: places with ties, tie sharing, weighted best-N,
competition ranking and half-up rounding (the conventions every federation's rules share).

Pure functions on plain data; nothing here knows a federation.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from decimal import ROUND_HALF_UP, Decimal, localcontext
from typing import Any

#: Totals closer than this are equal when ranking (float noise such as 142.89999999999998 vs 142.9).
RANK_DIGITS = 9


def round_half_up(x: float, digits: int = 0) -> float:
    """Round for display the way the federations and Excel's ROUND do: halves away from zero."""
    exact = Decimal(repr(x))
    if not exact.is_finite():
        return x
    with localcontext() as context:
        context.prec = max(context.prec, exact.adjusted() + digits + 2)  # 1e300 keeps all its digits
        return float(exact.quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP))


def format_half_up(x: float, digits: int = 0) -> str:
    """A number as text, rounded half up to ``digits`` decimals (``911.5`` -> ``'912'``)."""
    return f"{round_half_up(x, digits) + 0.0:.{digits}f}"  # + 0.0 turns -0.0 into 0.0


def effective_places(official: Sequence[int]) -> list[int]:
    """Effective place of each official place: 1 + the number of people strictly ahead.

    Ties share a place (1, 1, 3), and vacancies close up (1, 2, 4 -> 1, 2, 3).
    """
    ordered = sorted(official)
    return [1 + bisect_left(ordered, place) for place in official]


def tie_sizes(official: Sequence[int]) -> list[int]:
    """Size of each person's tie group: the people with the same official place."""
    counts = Counter(official)
    return [counts[place] for place in official]


def shared_value(place: int, tied: int, value_at: Callable[[int], float]) -> float:
    """What each of ``tied`` people tied at ``place`` gets: the mean of places place..place+tied-1."""
    return sum(value_at(p) for p in range(place, place + tied)) / tied


def share_ties(official: Sequence[int], value_at: Callable[[int], float]) -> list[float]:
    """Per-person values from official places, tied people sharing their places' values."""
    places = effective_places(official)
    sizes = tie_sizes(official)
    cache: dict[int, float] = {}
    values = []
    for place, tied in zip(places, sizes):
        if place not in cache:
            cache[place] = shared_value(place, tied, value_at)
        values.append(cache[place])
    return values


def weights_from(weights: Sequence[float], tail: float, start: int, count: int) -> list[float]:
    """``count`` weights taken from position ``start`` of ``weights`` followed by ``tail`` for ever."""
    return [weights[i] if i < len(weights) else tail for i in range(start, start + count)]


def weighted_best(values: Iterable[float], weights: Sequence[float], tail: float = 0.0, start: int = 0) -> float:
    """Sum of the values sorted best first, each times its position's weight (best-N when tail is 0);
    ``start`` skips the first weights (values that must come after others already counted)."""
    ordered = sorted(values, reverse=True)
    return sum(v * w for v, w in zip(ordered, weights_from(weights, tail, start, len(ordered))))


def rank_key(total: float) -> float:
    """The key totals are compared on when ranking, free of float noise."""
    return round_half_up(total, RANK_DIGITS)


def competition_ranks_by(keys: Sequence[Any]) -> list[int]:
    """Standard competition ranks (1, 2, 2, 4) from comparable keys, the smallest key first.

    Tie-breakers go in a tuple, most important first; equal keys share the better rank.
    Pass totals through ``rank_key`` first so that float noise does not split a tie.
    """
    ordered = sorted(keys)
    return [1 + bisect_left(ordered, key) for key in keys]


def competition_ranks(totals: Sequence[float], higher_is_better: bool = True) -> list[int]:
    """Standard competition ranks (1, 2, 2, 4); equal totals share the better rank."""
    return competition_ranks_by([-rank_key(t) if higher_is_better else rank_key(t) for t in totals])


def rounded_parts(values: Sequence[float], digits: int = 0, adjustable: Sequence[bool] | None = None) -> list[float]:
    """The values rounded to ``digits`` decimals so that they add up to their sum rounded half up (a
    published row that adds up as printed). Each is rounded half up; when these miss the rounded sum, the
    ones nearest to rounding the other way move by one unit of the last decimal, those marked ``adjustable``
    first (a weighted result, whose exact value nobody reads elsewhere)."""
    unit = Decimal(1).scaleb(-digits)
    exact = [Decimal(repr(v)) for v in values]
    parts = [x.quantize(unit, rounding=ROUND_HALF_UP) for x in exact]
    target = Decimal(repr(round_half_up(sum(values), digits))).quantize(unit)
    missing = int((target - sum(parts, Decimal(0))) / unit)
    step = unit if missing > 0 else -unit
    preferred = adjustable if adjustable is not None else [True] * len(values)
    # Moving a value up costs how far it is from the next unit up; down, from the unit below.
    order = sorted((i for i in range(len(values)) if (parts[i] - exact[i]) * step < 0 or parts[i] == exact[i]),
                   key=lambda i: (not preferred[i], abs(exact[i] - parts[i] - step / 2)))
    for i in order[:abs(missing)]:
        parts[i] += step
    return [float(x) for x in parts]
