"""The federations xlcircuit knows: where a maintainer looks first.

One record each (:data:`FEDERATIONS`: code, French name, template, example), used by the command line,
the use cases and the Excel functions' registry; and one workbook adapter each, in this package
(``tdf``, ``dbm``, ``cdf``, ``elo``, ``torres``: its tables, reading, summary, outputs, report and
explanation, every rule left to :mod:`xlcircuit.rules`), imported when first asked for
(:data:`ADAPTERS`), so that a fill loads only its own federation's. Its bundled example is in
``examples/``.

This module itself is standard library only: xlwings Lite's ``main.py`` carries it.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the adapters are imported on demand (they need openpyxl)
    from ..workbook.adapter import Adapter
    from ..xlsx import Book


@dataclass(frozen=True)
class Federation:
    """A federation: its code, its French name, and the files and sheets named after it."""

    code: str  # as in ``xlcircuit new CODE``
    name: str  # full French name: workbook titles, the function reference's section title
    template: str  # its season workbook template, in ``workbooks/``
    example: str  # the file ``xlcircuit demo`` writes
    sheet: str  # its sheet of the Excel functions' starter workbook (at most 31 characters)
    own_names: tuple[str, ...] = ()  # its own scoring systems' names, allowed as function names without the code


#: In the order of ``xlcircuit demo``, the function reference and the starter workbook's sheets.
FEDERATIONS: tuple[Federation, ...] = (
    Federation("tdf", "Tour de France de Diplomatie", "tdf-saison.xlsx", "tdf-exemple.xlsx", "Tour de France"),
    Federation("dbm", "Championnat DBM", "dbm-saison.xlsx", "dbm-exemple.xlsx", "DBM"),
    Federation("cdf", "Championnat de France de Diplomatie", "cdf-tournoi.xlsx", "cdf-exemple.xlsx",
               "Championnat de France", own_names=("PASTIS",)),
    Federation("elo", "Note de classé (Elo multijoueur)", "elo.xlsx", "elo-exemple.xlsx", "Elo"),
    Federation("torres", "Championnat TORRES", "torres-saison.xlsx", "torres-exemple.xlsx", "TORRES"),
)

CODES: tuple[str, ...] = tuple(f.code for f in FEDERATIONS)


def federation(code: str) -> Federation:
    """The federation of ``code``, in any case (``TDF`` is ``tdf``); KeyError for an unknown code."""
    folded = code.strip().casefold()
    for entry in FEDERATIONS:
        if entry.code == folded:
            return entry
    raise KeyError(code)


class _Adapters(Mapping[str, "Adapter"]):
    """Federation code -> its workbook adapter, imported when first asked for."""

    def __getitem__(self, code: str) -> Adapter:
        if code not in CODES:
            raise KeyError(code)
        adapter: Adapter = importlib.import_module(f"{__name__}.{code}").ADAPTER
        return adapter

    def __iter__(self) -> Iterator[str]:
        return iter(CODES)

    def __len__(self) -> int:
        return len(CODES)


#: Federation code -> its workbook adapter, in the order of :data:`FEDERATIONS`.
ADAPTERS: Mapping[str, Adapter] = _Adapters()


def adapter_of(book: Book, override: str | None = None) -> Adapter:
    """The adapter of the federation ``book`` belongs to (or of the one asked for, in any case)."""
    from ..rules.errors import WorkbookError

    recorded = book.federation
    code = override or recorded
    if override and recorded is not None and recorded in ADAPTERS and override != recorded:
        mine, asked = ADAPTERS[recorded], ADAPTERS.get(override)
        raise WorkbookError(f"{book.path.name} est un classeur « {mine.title} » ({mine.code}), pas "
                            f"« {asked.title if asked else override} » ({override}) : relancez sans --federation.")
    if code is None:
        raise WorkbookError(
            f"{book.path.name} ne dit pas à quelle fédération il appartient (il n'a pas été créé par "
            f"« xlcircuit new ») : relancez avec --federation ({', '.join(ADAPTERS)})."
        )
    try:
        return ADAPTERS[federation(code).code]
    except KeyError:
        raise WorkbookError(f"{book.path.name} appartient à la fédération « {code} », que cette version "
                            f"de xlcircuit ne connaît pas (connues : {', '.join(ADAPTERS)}).") from None
