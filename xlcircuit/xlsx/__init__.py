"""The xlsx engine: workbooks opened safely, filled surgically, saved atomically. It knows no federation
and no table convention: it is given which tables and sheets a fill owns, and copies every other part of
the package as it is.

What the rings outside use is imported from here; the modules behind it are the engine's own business.
"""

from . import excel_forms  # noqa: F401  # openpyxl's serialisers set to Excel's forms, for every save
from .book import Book, mark_federation, paused_gc
from .cells import table_values
from .files import lock_of, save_atomic
from .ooxml import Unsupported
from .plan import Owned
from .safe import MAX_CELLS, MAX_RATIO, MAX_UNCOMPRESSED
from .unkept import CONDITIONAL_FORMAT_EXTENSIONS
from .values import SheetValues, sheet_values

__all__ = ["CONDITIONAL_FORMAT_EXTENSIONS", "MAX_CELLS", "MAX_RATIO", "MAX_UNCOMPRESSED", "Book", "Owned", "SheetValues",
           "Unsupported", "lock_of", "mark_federation", "paused_gc", "save_atomic", "sheet_values", "table_values"]
