"""Text as people type it into spreadsheets: stray spaces, any case, accents or not."""

from __future__ import annotations

import functools
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
