"""The starter workbook's macro. xlwings' quickstart template, which the starter workbook keeps (its VBA project
holds the reference to the xlwings add-in that the imported functions need), has one macro, ``SampleCall``: it
runs ``import NAME; NAME.main()`` with NAME the workbook's name, ``xlcircuit`` (``xlcircuit.xlsm``). So
``xlcircuit.main()`` is this module's :func:`recalculate`: after Import Functions, it recomputes every formula
(what Ctrl+Alt+F9 does), so that no cell stays #NOM?."""

from __future__ import annotations


def recalculate() -> None:
    """Recalculate every formula of every open workbook, from scratch (Excel's CalculateFull, Ctrl+Alt+F9)."""
    import xlwings as xw

    xw.Book.caller().app.api.CalculateFull()
