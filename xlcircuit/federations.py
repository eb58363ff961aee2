"""The federations xlcircuit knows: one record each, used by the command line, the workbook layer and
the Excel functions' registry. Pure data."""

from __future__ import annotations

from dataclasses import dataclass


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
