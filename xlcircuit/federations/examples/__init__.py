"""The bundled example seasons (``xlcircuit demo``), as plain data: ``<code>.json`` beside this file.

Each file holds the rows an organiser types into the federation's input tables; ``README.md`` beside
it says what each season shows. Dates are stored as ``YYYY-MM-DD`` and read back as dates.
"""

from __future__ import annotations

import datetime as dt
import functools
import json
import re
from importlib import resources
from types import SimpleNamespace
from typing import Any

_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def _decoded(value: Any, depth: int = 0) -> Any:
    if isinstance(value, str) and _DATE.fullmatch(value):
        return dt.date.fromisoformat(value)
    if isinstance(value, list):
        items = [_decoded(v, depth + 1) for v in value]
        return items if depth == 0 and items and isinstance(value[0], list) else tuple(items)
    return value


@functools.cache
def load(code: str) -> SimpleNamespace:
    """The example of federation ``code``: one attribute per key (``TOURNOIS``, ``RESULTATS``…),
    a table as a list of row tuples."""
    text = resources.files(__package__).joinpath(f"{code}.json").read_text(encoding="utf-8")
    return SimpleNamespace(**{key: _decoded(value) for key, value in json.loads(text).items()})
