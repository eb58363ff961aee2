"""``xlcircuit new``: a fresh season workbook from a federation's template."""

from __future__ import annotations

from pathlib import Path

from ..federations import ADAPTERS
from ..rules.errors import XlcircuitError
from ..xlsx import save_atomic
from .common import typed
from .outcome import Outcome


def new(federation: str, target: Path, force: bool = False) -> Outcome:
    """Write federation ``federation``'s empty season workbook to ``target`` (never over a file unless ``force``)."""
    if target.exists() and not force:
        raise XlcircuitError(f"{target} existe déjà : choisissez un autre nom ou ajoutez --force pour l'écraser.")
    adapter = ADAPTERS[federation]
    save_atomic(adapter.new_workbook(), target)
    names = [f"« {spec.sheet} »" for spec in adapter.inputs]
    tables = f"les tables {', '.join(names[:-1])} et {names[-1]}" if len(names) > 1 else f"la table {names[0]}"
    return Outcome([f"Classeur créé : {target}. Remplissez {tables}, puis lancez : xlcircuit fill {typed(target)}"],
                   result=target)
