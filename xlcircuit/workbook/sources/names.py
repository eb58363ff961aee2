"""An imported name matched to the players the season already has: the same person whatever the case, the
accents and the order of surname and first name (« MARTIN Alice » is « Alice Martin »). A new name that is
probably a known player under another spelling (a hyphen, a doubled letter, an initial, a one-letter typo:
:func:`xlcircuit.rules.names.probable_duplicates`) is worth a look, with both cells; never merged on its own."""

from __future__ import annotations

from dataclasses import dataclass, field

from ...rules.names import probable_duplicates
from ...rules.text import fold


def person_key(name: str) -> str:
    """The key two spellings of one person share: folded (case, accents), its words in any order."""
    return " ".join(sorted(fold(name).split()))


@dataclass
class People:
    """The season's players (name -> the cell where it is first typed), and the names met while importing: the
    first spelling of a person is the one every later line gets."""

    known: dict[str, str]
    _by_key: dict[str, str] = field(default_factory=dict)
    _season: set[str] = field(default_factory=set)
    _new: dict[str, str] = field(default_factory=dict)  # a name new to the season -> where it was first read

    def __post_init__(self) -> None:
        for name in self.known:
            self._by_key.setdefault(person_key(name), name)
        self._season = set(self._by_key)

    def resolve(self, name: str, where: str = "") -> str:
        """The name a line gets: the season's (or an earlier imported line's) spelling of the same person, else
        ``name`` itself, which later lines then get (``where``: the cell it was read in, for a warning)."""
        key = person_key(name)
        found = self._by_key.setdefault(key, name)
        if key not in self._season:
            self._new.setdefault(found, where)
        return found

    def is_known(self, name: str) -> bool:
        """Whether the season already has this person (in any spelling)."""
        return person_key(name) in self._season

    def close_pairs(self) -> list[tuple[str, str, str, str, str]]:
        """Each new name that is probably a known player under another spelling: (new name, its cell, the known
        name, its cell, why)."""
        if not self._new or not self.known:
            return []
        found = []
        for a, b, why in probable_duplicates([*self.known, *self._new]):
            if (a in self.known) != (b in self.known):
                new, old = (a, b) if a in self._new else (b, a)
                if new in self._new and old in self.known:
                    found.append((new, self._new[new], old, self.known[old], why))
        return found
