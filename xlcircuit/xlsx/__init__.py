"""The xlsx engine: workbooks opened safely, filled surgically, saved atomically. It knows no federation
and no table convention: it is given which tables and sheets a fill owns, and copies every other part of
the package as it is.

What the rings outside use is imported from here; the modules behind it are the engine's own business.
"""

from .book import Book, damaged_sentence, mark_federation, paused_gc, read_values
from .files import save_atomic
from .package import table_refs
from .plan import Owned
from .safe import MAX_CELLS, MAX_RATIO, MAX_UNCOMPRESSED
from .unkept import CONDITIONAL_FORMAT_EXTENSIONS

__all__ = ["CONDITIONAL_FORMAT_EXTENSIONS", "MAX_CELLS", "MAX_RATIO", "MAX_UNCOMPRESSED", "Book", "Owned",
           "damaged_sentence", "mark_federation", "paused_gc", "read_values", "save_atomic", "table_refs"]
