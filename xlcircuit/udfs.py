"""The Excel functions under the module name that starter workbooks and xlwings Lite files already
handed out name (``UDF Modules: xlcircuit.udfs``, ``from xlcircuit.udfs import …``). They live in
:mod:`xlcircuit.excel.udfs`."""

from .excel.udfs import *  # noqa: F403
from .excel.udfs import __all__  # noqa: F401
