"""Season after season, whatever the federation: the next season's name and a season's podium in the
palmarès. Each federation's own carry-over (DBM's classes and thresholds, Elo's ratings, TORRES' groups)
is decided in its module.

Plain data in and out; standard library only.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

#: A season's years as organisers write them: ``2025``, ``2025-2026``, ``2025/26``, ``Saison 2025``.
_YEARS = re.compile(r"(?<!\d)((?:19|20)\d\d)(?:(\s*[-/–]\s*)(\d\d(?:\d\d)?))?(?!\d)")


def _next_years(match: re.Match[str]) -> str:
    first, separator, second = match.group(1), match.group(2), match.group(3)
    following = str(int(first) + 1)
    if second is None:
        return following
    later = int(second) + 1
    return f"{following}{separator}{later if len(second) == 4 else f'{later % 100:02d}'}"


def next_name(name: str | None) -> str | None:
    """The name of the season after ``name``: each year one later (« 2025-2026 » → « 2026-2027 », « 2025/26 »
    → « 2026/27 », « Open 2025 » → « Open 2026 »); None when the name has no year to move on (then the new
    workbook leaves it blank, and the season is named after its dates)."""
    if not name or _YEARS.search(name) is None:
        return None
    return _YEARS.sub(_next_years, name)


def podium(ranked: Iterable[tuple[int | None, str]]) -> tuple[str | None, str | None, str | None]:
    """The first three places of a standings (rank, name), in the palmarès: the champion, the second, the third.
    Players sharing a place share its cell (« A et B »); a place a tie skips stays blank (two tied 1sts, then
    the 3rd: no second)."""
    names: dict[int, list[str]] = {1: [], 2: [], 3: []}
    for rank, name in ranked:
        if rank in names:
            names[rank].append(name)
    first, second, third = (_joined(names[place]) for place in (1, 2, 3))
    return first, second, third


def _joined(names: Sequence[str]) -> str | None:
    if not names:
        return None
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} et {names[-1]}"


__all__ = ["next_name", "podium"]
