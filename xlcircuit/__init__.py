"""xlcircuit: French game federations' tournament circuits, computed from Excel workbooks.

The pure core (one module per federation, plus :mod:`xlcircuit.mechanics`) uses the standard
library only; :mod:`xlcircuit.workbook` (openpyxl), :mod:`xlcircuit.udfs` (xlwings) and
:mod:`xlcircuit.cli` are thin adapters around it.
"""

__version__ = "0.1.0"
