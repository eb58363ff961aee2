"""Text as people type it into spreadsheets: stray spaces, any case, accents or not."""

from __future__ import annotations

import functools
import re
import unicodedata


def clean(text: str) -> str:
    """Trim and collapse runs of white space (non-breaking spaces included); accents and case kept."""
    return " ".join(text.split())


@functools.lru_cache(maxsize=1 << 16)  # a season folds each of its few thousand names many times
def fold(text: str) -> str:
    """A key for matching keywords typed in any case, with or without accents (``Annulé`` -> ``annule``)."""
    decomposed = unicodedata.normalize("NFKD", clean(text).casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


_WORDS = ("zéro", "un", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf", "dix")


def in_words(n: int) -> str:
    """A small count as French prose writes it (``5`` -> ``cinq``); beyond ten, its digits."""
    return _WORDS[n] if 0 <= n < len(_WORDS) else str(n)


def whole_number(value: object) -> int | None:
    """A whole number as a cell holds it (``3``, ``3.0`` or the text ``"3"``, ``"3,0"``); None for anything else."""
    number = value
    if isinstance(value, str):
        try:
            number = float(value.replace(",", "."))
        except ValueError:
            return None
    if isinstance(number, bool) or not isinstance(number, (int, float)):
        return None
    if isinstance(number, float) and not number.is_integer():  # nan, inf and 2.5 are no whole numbers
        return None
    return int(number)  # an int of hundreds of digits (a number cell of a damaged file) as it is: bounds refuse it


#: A French ordinal as typed for a place: 1er, 1re, 1ère, 2e, 2ème, 2nd, 3eme, 7e (folded: no accents, lower case).
_ORDINAL = re.compile(r"(\d{1,9})\s*(?:er|re|ere|e|eme|nde?)")  # a longer number is no place


def ordinal(value: object) -> int | None:
    """The number of a French ordinal typed as text (``1er``, ``1re``, ``2e``, ``3ème``, ``2nd``, ``1ᵉʳ``); None for
    anything else (``3er`` and ``5nd`` are no ordinals)."""
    if not isinstance(value, str):
        return None
    match = _ORDINAL.fullmatch(fold(value))  # fold: NFKD, so 1ᵉʳ is 1er
    if match is None:
        return None
    number, suffix = int(match.group(1)), match.group(0)[len(match.group(1)):].strip()
    if (suffix in ("er", "re", "ere") and number != 1) or (suffix.startswith("nd") and number != 2):
        return None
    return number


#: A tie written beside a place, as rankings write it: « 3 ex », « 3 ex aequo », « ex. 3 », « 3= », « =3 »,
#: « 3 (ex) » (folded: ``æ`` is kept by the fold, so « ex æquo » is listed too).
_TIE = r"(?:\(?\s*ex\.?(?:[\s-]*(?:aequo|æquo))?\s*\)?|=)"
_TIED = re.compile(rf"{_TIE}?\s*(?P<place>[^=\s()][^=()]*?)\s*{_TIE}?")


def tied_place(value: object) -> int | None:
    """A place written with a tie mark (``3 ex``, ``ex 3``, ``3=``, ``2e ex aequo``): its number; None for anything
    else (the tie itself is the equal places, as the rules read them)."""
    if not isinstance(value, str):
        return None
    text = fold(value)
    match = _TIED.fullmatch(text)
    if match is None or match.group("place") == text:
        return None  # no tie mark: not this form
    place = match.group("place")
    number = whole_number(place)
    return number if number is not None else ordinal(place)


def place_number(value: object) -> int | None:
    """A place as people type it: a whole number (``3``, ``3.0``, ``"3"``), a French ordinal (``1er``, ``2e``,
    ``3ème``) or either with a tie mark (``3 ex``, ``3=``); None for anything else. Bounds (a place is at least
    1) are the caller's."""
    number = whole_number(value)
    if number is None:
        number = ordinal(value)
    return number if number is not None else tied_place(value)
