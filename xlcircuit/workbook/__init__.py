"""The table framework: how a federation's workbook is read and written, knowing no federation.

- :mod:`.spec`: a table's spec (sheet, name, columns), a row read (:class:`~.spec.Record`), the problems
  found (:class:`~.spec.Problems`), a table ready to write (:class:`~.spec.Output`);
- :mod:`.cells`: what an organiser types, parsed (places, numbers, dates, yes/no), and values written so
  that text stays text;
- :mod:`.read`: input tables found by name and header text, rows typed under them taken in;
- :mod:`.write` and :mod:`.layout`: output tables rewritten in place, and their published look (A4);
- :mod:`.sheets`: the sheets the federations share (front sheet, Paramètre/Valeur, Joueurs);
- :mod:`.wording`: the French the adapters share;
- :mod:`.procedure`: the fill every federation shares (read with located problems, summarise with the
  rules, write, decorate);
- :mod:`.adapter`: the base class of a federation's adapter (``xlcircuit.federations.<code>``).
"""
