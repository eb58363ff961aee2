"""xlcircuit: French game federations' tournament circuits, computed from Excel workbooks.

The pure core (one module per federation, plus :mod:`xlcircuit.mechanics`) uses the standard
library only; :mod:`xlcircuit.workbook` (openpyxl), :mod:`xlcircuit.udfs` (xlwings) and
:mod:`xlcircuit.cli` are thin adapters around it.
"""

__version__ = "0.1.0"  # the one version source (pyproject.toml reads it)


def main() -> None:
    """The starter workbook's SampleCall macro runs this (``import xlcircuit; xlcircuit.main()``): every formula
    is recalculated, so that the functions just imported replace their #NOM? (:mod:`xlcircuit.excel.macros`)."""
    from .excel.macros import recalculate

    recalculate()
