"""The use cases, each written once for the command line and the window alike.

Each takes plain arguments (paths, a federation code, options) and a ``progress`` callback, and returns an
:class:`~.outcome.Outcome`: the lines to show, the warnings (« À vérifier »), the located problems, the
files written, and for a fill the path taken. ``cli.py`` prints it, ``gui.py`` draws it; :func:`.outcome.run`
turns every error xlcircuit raises on purpose into an outcome too, so neither face words an error itself.

- :mod:`.new`: a fresh season workbook from a federation's template;
- :mod:`.check` and :mod:`.fill`: read and check every input table; compute and write the published tables;
- :mod:`.share`: one workbook per club, the standings as PDF, every published table as CSV;
- :mod:`.explain`: a player's points, result by result, as text, a workbook or a PDF;
- :mod:`.schedule`: TORRES' calendar;
- :mod:`.demo`: every federation's example, written and filled.
"""

from .outcome import Outcome, Progress, quiet, run, visible

__all__ = ["Outcome", "Progress", "quiet", "run", "visible"]
