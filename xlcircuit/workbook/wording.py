"""French wording the adapters share: counts, numbers with the decimal comma, titles, report and explanation
lines."""

from __future__ import annotations

import datetime as dt
import difflib
from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

from ..rules.errors import XlcircuitError
from ..rules.mechanics import format_half_up
from ..rules.text import fold

T = TypeVar("T")


def count(n: int, singular: str, plural: str | None = None) -> str:
    """``n`` and the word, in the plural from 2 on as French has it (« 1 tournoi », « 0 tournoi », « 2 tournois »)."""
    return f"{n} {singular if abs(n) < 2 else plural or singular + 's'}"



def of(name: str) -> str:
    """« de » before a name, elided before a vowel as French writes it: « de Yves », « d'Ana », « d'Éric »."""
    return f"d'{name}" if fold(name[:1]) in tuple("aeiouy") and name[:1] else f"de {name}"


def season_years(dates: Iterable[dt.date | None]) -> str:
    """The years the dates span: ``2025``, ``2025-2026``, or '' without a date."""
    years = sorted({date.year for date in dates if date})
    return "" if not years else str(years[0]) if len(years) == 1 else f"{years[0]}-{years[-1]}"


def title(name: str, what: str, season: str = "", day: dt.date | None = None) -> str:
    """A published table's title: ``name season — what``, then ``au dd/mm/yyyy`` when ``day`` is given."""
    text = f"{name} {season}".strip() + f" — {what}"
    return f"{text} au {day:%d/%m/%Y}" if day else text


def percents(weights: Sequence[float], last: str = ", ") -> str:
    """Weights as a guide states them: ``100, 80, 40, 20`` (``last`` joins the last two: `` et ``)."""
    shown = [format_half_up(w * 100, 0) for w in weights]
    return shown[0] if len(shown) < 2 else ", ".join(shown[:-1]) + last + shown[-1]


def decimal_comma(x: float, digits: int) -> str:
    """A number rounded half up to ``digits`` decimals, with the French decimal comma."""
    return format_half_up(x, digits).replace(".", ",")


def top_lines(items: Sequence[T], shown: int, sheet: str, line: Callable[[T], str]) -> list[str]:
    """A report's first ``shown`` lines, then how many more there are on ``sheet``."""
    lines = [line(item) for item in items[:shown]]
    if len(items) > shown:
        lines.append(f"  … et {len(items) - shown} autres (feuille « {sheet} »).")
    return lines


def signed(x: float, digits: int = 0) -> str:
    text = decimal_comma(x, digits)
    return text if text.startswith("-") or text.strip("0,") == "" else "+" + text


def nth(n: int | None) -> str:
    return "?" if n is None else "1er" if n == 1 else f"{n}e"


def when(day: dt.date | None) -> str:
    return f"{day:%d/%m/%Y}" if day else "sans date"


def summed(values: Iterable[float], digits: int, total: str) -> str:
    """``a + b - c = total``, each term as published (the total as the standings print it)."""
    values = list(values)
    if len(values) < 2:
        return total
    text = decimal_comma(values[0], digits)
    for v in values[1:]:
        shown = decimal_comma(v, digits)
        text += f" - {decimal_comma(-v, digits)}" if shown.startswith("-") else f" + {shown}"
    return f"{text} = {total}"


def find_player(wanted: str, names: Iterable[str]) -> str:
    """The name of the standings ``wanted`` designates: exactly, else the one name equal but for case, accents
    and spaces; a clear error otherwise, with the names that come close."""
    names = list(dict.fromkeys(names))
    if wanted in names:
        return wanted
    same = [n for n in names if fold(n) == fold(wanted)]
    if len(same) == 1:
        return same[0]
    close = same or difflib.get_close_matches(wanted, names, n=5, cutoff=0.6) or [
        n for n in names if fold(wanted) in fold(n)][:5]
    hint = f" Noms proches : {', '.join(f'« {n} »' for n in close)}." if close else ""
    raise XlcircuitError(f"« {wanted} » n'est pas dans ce classeur (le nom s'écrit comme dans les résultats)."
                         + hint)


#: Characters that make a shell split or read a word: a file name holding one is quoted in a suggested command.
_SHELL_SPECIAL = set(" \t'&|;<>()$`!*?[]{}#~^%")


def typed(argument: object) -> str:
    """An argument as it must be typed in a command (Windows' cmd, PowerShell, a Mac or Linux terminal): a file
    name with spaces between double quotes (``TdF 2025-2026.xlsx`` -> ``"TdF 2025-2026.xlsx"``)."""
    text = str(argument)
    if text and not _SHELL_SPECIAL & set(text) and '"' not in text:
        return text
    return f"'{text}'" if '"' in text else f'"{text}"'
