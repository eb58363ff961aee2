"""``xlcircuit new``: a fresh season workbook from a federation's template."""

from __future__ import annotations

from pathlib import Path

from ..federations import ADAPTERS
from ..rules.errors import XlcircuitError
from ..xlsx import save_atomic
from .outcome import Outcome

#: ``xlcircuit new FED-tournoi FICHIER``: the sheet a tournament's organiser fills and sends.
FORM = "-tournoi"


def new(federation: str, target: Path, force: bool = False) -> Outcome:
    """Write federation ``federation``'s empty season workbook to ``target`` (never over a file unless ``force``);
    ``FED-tournoi``: the one-sheet workbook a tournament's organiser fills and sends."""
    if target.exists() and not force:
        raise XlcircuitError(f"{target} existe déjà : choisissez un autre nom ou ajoutez --force pour l'écraser.")
    if federation.endswith(FORM):
        return new_form(federation[:-len(FORM)], target)
    adapter = ADAPTERS[federation]
    save_atomic(adapter.new_workbook(), target)
    names = [f"« {spec.sheet} »" for spec in adapter.inputs]
    tables = f"les tables {', '.join(names[:-1])} et {names[-1]}" if len(names) > 1 else f"la table {names[0]}"
    return Outcome([f"Classeur créé : {target}. Remplissez {tables}, puis lancez : xlcircuit fill {target}"],
                   result=target)


def new_form(federation: str, target: Path) -> Outcome:
    """The submission workbook of a federation's tournament: its organiser fills it, ``import`` takes it."""
    from ..workbook.sources.form import form_workbook

    adapter = ADAPTERS[federation]
    if adapter.importer is None:
        raise XlcircuitError(f"« {adapter.title} » n'importe pas de résultats : pas de feuille à envoyer.")
    save_atomic(form_workbook(adapter.title, adapter.importer.form), target)
    where = f'"{target}"' if " " in str(target) else str(target)
    return Outcome([f"Feuille à envoyer créée : {target}. Son organisateur la remplit et vous la renvoie ; puis : "
                    f"xlcircuit import SAISON.xlsx {where}"], result=target)
