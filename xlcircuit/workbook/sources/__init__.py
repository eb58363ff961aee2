"""Results an organiser already has, brought into a season's input tables (``xlcircuit import``), knowing no
federation: each federation declares what an imported line maps to (:class:`.mapping.Importer`, its adapter's
``importer``).

- :mod:`.grids`: the sources read into grids of values (``.xlsx``/``.xlsm``, ``.ods`` by :mod:`.ods`, ``.csv``
  with its encoding and delimiter found, a folder of them), within the engine's bounds;
- :mod:`.words`: the words sources head their columns with, in French and English;
- :mod:`.lines`: each grid's header row and columns found, its facts and rows read into lines (a :class:`Plan`),
  every problem located in the source; :mod:`.names` matches names to the season's players;
- :mod:`.preview`: what ``--essai`` shows;
- :mod:`.write`: the plan written into the season's tables (a source imported again replaces its lines);
- :mod:`.form`: the one-sheet workbook a tournament's organiser fills and sends.

What a federation's declaration needs is exported here; the use case imports the steps from their modules
(a fill loads none of them).
"""

from .mapping import SOURCE, Field, Form, Importer, Person

__all__ = ["SOURCE", "Field", "Form", "Importer", "Person"]
