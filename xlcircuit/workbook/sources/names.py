"""An imported name matched to the players the season already has: the same person whatever the case, the
accents and the order of surname and first name (« MARTIN Alice » is « Alice Martin »); a new name close to a
known one is worth a look (with both cells), never merged on its own."""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field

from ...rules.text import fold

#: How alike two names' keys must be (difflib's ratio) for a new name to be said close to a known one.
CLOSE = 0.85


def person_key(name: str) -> str:
    """The key two spellings of one person share: folded (case, accents), its words in any order."""
    return " ".join(sorted(fold(name).split()))


@dataclass
class People:
    """The season's players (name -> the cell where it is first typed), and the names met while importing: the
    first spelling of a person is the one every later line gets."""

    known: dict[str, str]
    _by_key: dict[str, str] = field(default_factory=dict)
    _season_keys: list[str] = field(default_factory=list)
    _season: set[str] = field(default_factory=set)
    _close: dict[str, tuple[str, str] | None] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name in self.known:
            self._by_key.setdefault(person_key(name), name)
        self._season_keys = list(self._by_key)
        self._season = set(self._season_keys)

    def resolve(self, name: str) -> str:
        """The name a line gets: the season's (or an earlier imported line's) spelling of the same person, else
        ``name`` itself, which later lines then get."""
        return self._by_key.setdefault(person_key(name), name)

    def close_to(self, name: str) -> tuple[str, str] | None:
        """For a name the season does not have: the season's name it comes close to, and that name's cell."""
        key = person_key(name)
        if key in self._close:
            return self._close[key]
        found = None
        if key not in self._season:
            close = difflib.get_close_matches(key, self._season_keys, n=1, cutoff=CLOSE)
            if close:
                other = self._by_key[close[0]]
                found = (other, self.known[other])
        self._close[key] = found
        return found

    def is_known(self, name: str) -> bool:
        """Whether the season already has this person (in any spelling)."""
        return person_key(name) in self._season
