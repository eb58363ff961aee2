"""One unit per OOXML part the surgical fill changes: each takes the part's bytes as the package holds them
and gives the new bytes, every byte it does not need to change kept as it was (tested part by part, an input
part against the exact XML expected, in ``tests/test_parts.py``).

- :mod:`.content_types`: ``[Content_Types].xml``
- :mod:`.relationships`: the ``.rels`` parts (``_rels/.rels``, ``xl/_rels/workbook.xml.rels``...)
- :mod:`.workbook`: ``xl/workbook.xml`` (sheets, print names, recalculation on opening)
- :mod:`.styles`: ``xl/styles.xml``
- :mod:`.calc_chain`: ``xl/calcChain.xml``
- :mod:`.app`: ``docProps/app.xml``
- :mod:`.custom`: ``docProps/custom.xml``
- :mod:`.table`: ``xl/tables/tableN.xml``
"""
