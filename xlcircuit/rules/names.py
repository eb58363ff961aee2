"""People's names as organisers type them: which two spellings are probably one person.

xlcircuit compares names exactly (after trimming spaces): « Jean Muller » and « MULLER Jean » are two people
to the rules, and one of them silently loses his points. :func:`probable_duplicates` finds the pairs that are
probably one person, each with the reason, so that a warning names both and the organiser decides: a flag
never merges anything. Standard library only; pure functions on plain strings.

The likenesses looked for, from the surest to the loosest:

- the same letters in another case or without accents (« alice martin », « Alice Martin »);
- a hyphen, a dot or a space more or less (« Jean-Pierre Morel », « Jean Pierre Morel »);
- the same words in another order, the surname first (« MULLER Jean », « Jean Muller »);
- a doubled letter more or less (« Philippe », « Phillipe »);
- an initial for a first name, when only one full name fits it (« J. Morel » beside a single « Julien Morel »);
- one letter changed, added, removed, or two neighbours swapped, in a long name (``TYPO_LETTERS`` letters or
  more: « Christophe Lecointre », « Christophe Lecointe »); an edit on a digit is no typo (« Joueur 12 »).
"""

from __future__ import annotations

import itertools
import re
from collections import defaultdict
from collections.abc import Iterable, Sequence

from .text import fold

CASE = "ne diffèrent que par les majuscules ou les accents"
PUNCTUATION = "ne diffèrent que par un trait d'union, un point ou une espace"
ORDER = "nom et prénom dans un autre ordre"
DOUBLED = "une lettre doublée en plus ou en moins"
INITIAL = "une initiale à la place du prénom"
TYPO = "une lettre de différence"

#: Letters a name needs (each of the two) for a one-letter difference to be a probable typo: on short names
#: it is as likely two people (« Jean Bon », « Jean Don »).
TYPO_LETTERS = 10

_SEPARATORS = re.compile(r"[^\w]+|_")
_DOUBLED = re.compile(r"([^\W\d_])\1+")


def words(name: str) -> tuple[str, ...]:
    """The words of a name, without case, accents or punctuation (``"J.-P. MÜLLER"`` -> ``("j", "p", "muller")``)."""
    return tuple(word for word in _SEPARATORS.split(fold(name)) if word)


def key(name: str) -> str:
    """What two spellings of one person probably share: the words without case, accents or punctuation, in
    alphabetical order (« MULLER Jean » and « Jean Müller » -> ``"jean muller"``)."""
    return " ".join(sorted(words(name)))


def _undoubled(text: str) -> str:
    return _DOUBLED.sub(r"\1", text)


def _keys(name: str, found: tuple[str, ...] | None = None) -> tuple[str, str, str, str]:
    """The name's key at each sure level: folded, without punctuation, in any order, without doubled letters
    (``found``: its :func:`words`, when known)."""
    found = words(name) if found is None else found
    ordered = " ".join(sorted(found))
    return fold(name), "".join(found), ordered, _undoubled(ordered)


_LEVELS = (CASE, PUNCTUATION, ORDER, DOUBLED)


def reason(a: str, b: str) -> str | None:
    """Why ``a`` and ``b`` are probably one person by one of the sure likenesses (case, punctuation, order,
    doubled letters), the most specific one; None if none holds (initials and typos need the other names:
    :func:`probable_duplicates`)."""
    if a == b:
        return None
    for level, (x, y) in zip(_LEVELS, zip(_keys(a), _keys(b))):
        if x and x == y:
            return level
    return None


def _one_edit(a: str, b: str) -> bool:
    """Whether ``b`` is ``a`` with one letter changed, added or removed, or two neighbouring letters swapped
    (digits and spaces never: « joueur 12 » and « joueur 13 » are two people)."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) > len(b):
        a, b = b, a
    start = 0
    while start < len(a) and a[start] == b[start]:
        start += 1
    if len(a) < len(b):  # one added
        changed = b[start]
        return a[start:] == b[start + 1:] and changed.isalpha()
    end = len(a)
    while end > start and a[end - 1] == b[end - 1]:
        end -= 1
    span_a, span_b = a[start:end], b[start:end]
    if len(span_a) == 1:  # one changed
        return span_a.isalpha() and span_b.isalpha()
    return len(span_a) == 2 and span_a == span_b[::-1] and span_a.isalpha()  # two neighbours swapped


def _deletions(text: str) -> set[str]:
    return {text} | {text[:i] + text[i + 1:] for i in range(len(text))}


def _typo_pairs(representatives: Sequence[tuple[str, ...]]) -> list[tuple[int, int]]:
    """Pairs of names (by index; each given by its :func:`words`) one letter apart, in the order of their words
    as typed or sorted; found by their shared deletions (each name with one letter removed), not by comparing
    every pair."""
    variants: dict[str, set[int]] = defaultdict(set)
    forms: dict[int, tuple[str, str]] = {}
    for index, found in enumerate(representatives):
        if sum(ch.isalpha() for word in found for ch in word) < TYPO_LETTERS:
            continue
        typed, ordered = _undoubled(" ".join(found)), _undoubled(" ".join(sorted(found)))
        forms[index] = (typed, ordered)
        for form in {typed, ordered}:
            for variant in _deletions(form):
                variants[variant].add(index)
    pairs = set()
    for indexes in variants.values():
        for i, j in itertools.combinations(sorted(indexes), 2):
            if (i, j) not in pairs and any(_one_edit(x, y) for x, y in zip(forms[i], forms[j])):
                pairs.add((i, j))
    return sorted(pairs)


def _is_initial(word: str) -> bool:
    return len(word) == 1 and word.isalpha()


def _fitting(representatives: Sequence[tuple[str, ...]]) -> dict[tuple[tuple[str, ...], tuple[str, ...]], set[int]]:
    """For each full name (by index), what it looks like with one or two words made initials: (the other words,
    the initials), both sorted (« Julien Morel »: (("morel",), ("j",)) and (("julien",), ("m",)))."""
    fitting: dict[tuple[tuple[str, ...], tuple[str, ...]], set[int]] = defaultdict(set)
    for index, found in enumerate(representatives):
        full = tuple(sorted(found))
        if any(_is_initial(w) for w in full):
            continue
        for count in (1, 2):
            for removed in itertools.combinations(range(len(full)), count):
                rest = tuple(w for i, w in enumerate(full) if i not in removed)
                if rest:
                    fitting[rest, tuple(sorted(full[i][0] for i in removed))].add(index)
    return fitting


def _initial_pairs(representatives: Sequence[tuple[str, ...]]) -> list[tuple[int, int]]:
    """Pairs (the name with initials, the one full name that fits them; each name given by its :func:`words`):
    « J. Morel » and « Julien Morel » when no other name fits « J. Morel » (« Jacques Morel » beside them: no
    pair)."""
    initialled: list[tuple[int, tuple[str, ...], tuple[str, ...]]] = []
    for index, found in enumerate(representatives):
        initials = tuple(sorted(w for w in found if _is_initial(w)))
        full = tuple(sorted(w for w in found if not _is_initial(w)))
        if initials and full and len(initials) <= 2:
            initialled.append((index, full, initials))
    if not initialled:
        return []
    fitting = _fitting(representatives)
    pairs = []
    for index, full, initials in initialled:
        candidates = fitting.get((full, initials), set())
        if len(candidates) == 1:
            pairs.append((index, next(iter(candidates))))
    return pairs


def probable_duplicates(names: Iterable[str]) -> list[tuple[str, str, str]]:
    """The pairs of distinct spellings among ``names`` that are probably one person, with the reason (one of
    ``CASE``, ``PUNCTUATION``, ``ORDER``, ``DOUBLED``, ``INITIAL``, ``TYPO``), in the order the names first
    appear (the earlier of each pair first). Spellings already linked through others make no further pair
    (three spellings of one name: two pairs, each with the first)."""
    seen: dict[str, tuple[str, ...]] = {}
    for name in names:
        if name not in seen:
            seen[name] = words(name)
    ordered = [name for name, found in seen.items() if found]
    root = list(range(len(ordered)))

    def find(i: int) -> int:
        while root[i] != i:
            root[i] = root[root[i]]
            i = root[i]
        return i

    found: dict[tuple[int, int], str] = {}

    def link(i: int, j: int, why: str) -> None:
        a, b = find(i), find(j)
        if a != b:
            root[max(a, b)] = min(a, b)
            found[min(i, j), max(i, j)] = why

    keys = [_keys(name, seen[name]) for name in ordered]
    for level, why in enumerate(_LEVELS):  # the surest likeness first: it names the pair
        buckets: dict[str, list[int]] = defaultdict(list)
        for index, known in enumerate(keys):
            buckets[known[level]].append(index)
        for members in buckets.values():
            for other in members[1:]:
                link(members[0], other, why)
    representatives = [i for i in range(len(ordered)) if find(i) == i]
    shown = [seen[ordered[i]] for i in representatives]
    for why, pairs in ((INITIAL, _initial_pairs(shown)), (TYPO, _typo_pairs(shown))):
        for a, b in pairs:
            link(representatives[a], representatives[b], why)
    return [(ordered[i], ordered[j], why) for (i, j), why in sorted(found.items())]
