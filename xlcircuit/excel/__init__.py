"""The Excel functions: their registry (:mod:`.registry`, pure data), their xlwings declarations
(:mod:`.udfs`, the only importer of xlwings) and the texts made from the registry (:mod:`.reference`:
xlwings Lite's files, ``docs/fonctions.md``). The starter workbook is in :mod:`xlcircuit.workbook.starter`."""
