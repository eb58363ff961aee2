"""What a federation declares so that its results can be imported (its adapter's ``importer``), the importer
staying generic: which of the season's tables an imported line goes to, which column each value fills and how
sources head it, what names a tournament, and what goes to the tournaments' and players' tables."""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from ...rules.errors import InvalidInput
from ...rules.limits import MAX_TOURNAMENT_NAME
from ..cells import as_text, as_yes_no
from ..spec import TableSpec
from .words import heading_key

#: The column of the season's tables that says where an imported line came from: importing the same source
#: again replaces its lines.
SOURCE = "Source"

#: A value read from a source, as the season takes it (``InvalidInput``: a problem at its cell).
Parse = Callable[[object], object]
#: The federation's own check of a whole line (header -> value): (header, message) for each problem.
Check = Callable[[Mapping[str, object]], list[tuple[str, str]]]


@dataclass(frozen=True)
class Field:
    """A column of the season's table that an import fills, and how sources head it."""

    header: str  # the season table's column
    names: tuple[str, ...]  # how a source heads it (any case, accents optional: see :func:`.words.heading_key`)
    parse: Parse | None = None  # the value as the season takes it; None: the text as typed
    required: bool = False  # a line without it is a problem
    fact: bool = False  # may be given once, above the table (« Date : 12/10/2025 »), for all its lines
    person: bool = False  # a player's name: matched to the season's players

    @property
    def keys(self) -> set[str]:
        return {heading_key(name) for name in (self.header, *self.names)}


@dataclass(frozen=True)
class Person:
    """A person named once for a tournament, above or below its table (a DBM poule's referee): he gets a line
    with ``values``, or they are set on his line if he played."""

    field: Field
    values: Mapping[str, object]


@dataclass(frozen=True)
class Form:
    """The one-sheet workbook a tournament's organiser fills and sends (``xlcircuit new FED-tournoi``): what
    is asked once, above the table (each a heading the import recognises), and the table's headings."""

    title: str
    facts: tuple[str, ...]
    columns: tuple[str, ...]
    guide: tuple[str, ...] = ()
    choices: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # heading -> drop-down values
    widths: Mapping[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class Importer:
    """A federation's import: its lines' table and fields, what a tournament is, and where the rest goes."""

    lines: TableSpec  # the season's table imported lines go to
    fields: tuple[Field, ...]  # its columns a source may fill; the first person field is the player
    key: tuple[str, ...]  # the headers that say what a line belongs to (its tournament, game, match)
    form: Form
    named: str | None = None  # the key that a sheet (or file) names when the source does not say (``--tournoi``)
    what: str = "tournoi"  # how the organiser calls what ``key`` names (« tournoi », « partie », « match »)
    tournaments: TableSpec | None = None  # where each tournament has its row (added when missing)
    about: tuple[Field, ...] = ()  # a tournament's own fields (date, rounds), written on its row of ``tournaments``
    players: TableSpec | None = None  # the players' table
    player_fields: tuple[Field, ...] = ()  # what a line says of its player (club), written on his row of ``players``
    register: bool = False  # every player new to the season gets his row in ``players``
    people: tuple[Person, ...] = ()
    placeholders: tuple[str, ...] = ()  # a line whose columns these are all blank (typed in advance) is filled in place
    check: Check | None = None

    @functools.cached_property
    def player(self) -> Field:
        return next(f for f in self.fields if f.person)

    def describe(self, key: tuple[object, ...]) -> str:
        """A tournament (game, match) as messages name it: its name, or each part of its key with its header
        (« Ronde 1, Table 3 »)."""
        if len(self.key) == 1:
            return _shown(key[0])
        return ", ".join(f"{header} {_shown(value)}" for header, value in zip(self.key, key) if value is not None)

    def field(self, header: str) -> Field | None:
        return next((f for f in (*self.fields, *self.about, *self.player_fields) if f.header == header), None)


def _shown(value: object) -> str:
    if isinstance(value, dt.date):
        return f"{value:%d/%m/%Y}"
    return "" if value is None else str(value)


# --- parsers the federations' declarations share -----------------------------------------------------------


def yes(value: object) -> str | None:
    """A yes/no cell as the season's tables write it: ``oui``, or blank."""
    return "oui" if as_yes_no(value) else None


def tournament_name(value: object) -> str | None:
    """A tournament's name: trimmed text, at most :data:`MAX_TOURNAMENT_NAME` characters."""
    name = as_text(value)
    if name is not None and len(name) > MAX_TOURNAMENT_NAME:
        raise InvalidInput(f"nom de tournoi de {len(name)} caractères : {MAX_TOURNAMENT_NAME} au plus")
    return name


def text(value: object) -> str | None:
    """Trimmed text (a number as written: ``3``, not ``3.0``)."""
    return as_text(value)
