"""The workbook layer (openpyxl): season workbooks made from the templates, read and filled.

Each federation's module knows its tables; this package dispatches by the federation a
workbook records.
"""

from __future__ import annotations

from types import ModuleType

from ..errors import WorkbookError
from . import share, tdf
from .io import Book, save_atomic

#: Federation code -> its workbook module (``new_workbook``, ``put_example``, ``compute``, ``fill``).
FEDERATIONS: dict[str, ModuleType] = {"tdf": tdf}


def federation_of(book: Book, override: str | None = None) -> ModuleType:
    """The workbook module of the federation ``book`` belongs to (or the one asked for)."""
    code = override or book.federation
    if code is None:
        raise WorkbookError(
            f"{book.path.name} ne dit pas à quelle fédération il appartient (il n'a pas été créé par "
            f"« xlcircuit new ») : relancez avec --federation ({', '.join(FEDERATIONS)})."
        )
    if code not in FEDERATIONS:
        raise WorkbookError(f"{book.path.name} appartient à la fédération « {code} », que cette version "
                            f"de xlcircuit ne connaît pas (connues : {', '.join(FEDERATIONS)}).")
    return FEDERATIONS[code]


__all__ = ["Book", "FEDERATIONS", "federation_of", "save_atomic", "share"]
