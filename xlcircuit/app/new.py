"""``xlcircuit new``: a fresh season workbook from a federation's template, or next season's from the last one
(``--depuis``): the register, the palmarès and what the federation carries over, typed in."""

from __future__ import annotations

from pathlib import Path

from ..federations import ADAPTERS, adapter_of
from ..rules.errors import WorkbookProblems, XlcircuitError
from ..workbook.register import located
from ..workbook.wording import typed
from ..xlsx import Book, save_atomic
from .outcome import Outcome, Progress, quiet

#: ``xlcircuit new FED-tournoi FICHIER``: the sheet a tournament's organiser fills and sends.
FORM = "-tournoi"


def new(federation: str | None, target: Path, force: bool = False, previous: Path | None = None,
        progress: Progress = quiet) -> Outcome:
    """Write federation ``federation``'s empty season workbook to ``target`` (never over a file unless ``force``);
    with ``previous``, next season's, from that season's workbook (``federation`` None: the one it belongs to);
    ``FED-tournoi``: the one-sheet workbook a tournament's organiser fills and sends."""
    if target.exists() and not force:
        raise XlcircuitError(f"{target} existe déjà : choisissez un autre nom ou ajoutez --force pour l'écraser.")
    if federation is not None and federation.endswith(FORM):
        return new_form(federation[:-len(FORM)], target)
    if federation is None:
        if previous is None:
            raise XlcircuitError("dites de quelle fédération est le classeur à créer.")
        federation = adapter_of(Book(previous)).code
    adapter = ADAPTERS[federation]
    names = [f"« {spec.sheet} »" for spec in adapter.inputs]
    tables = f"les tables {', '.join(names[:-1])} et {names[-1]}" if len(names) > 1 else f"la table {names[0]}"
    if previous is None:
        save_atomic(adapter.new_workbook(), target)
        return Outcome([f"Classeur créé : {target}. Remplissez {tables}, puis lancez : "
                        f"xlcircuit fill {typed(target)}"], result=target)
    if previous.resolve() == target.resolve():
        raise XlcircuitError(f"{target} est le classeur de la saison précédente : choisissez un autre nom pour la "
                             "nouvelle saison.")
    progress("lecture")
    book = Book(previous)
    theirs = adapter_of(book, None if book.federation else adapter.code)
    if theirs.code != adapter.code:
        raise XlcircuitError(f"{previous.name} est un classeur « {theirs.title} » ({theirs.code}) : sa saison suivante "
                             f"se crée avec xlcircuit new {theirs.code} {typed(target)} --depuis "
                             f"{typed(previous)}.")
    try:
        summary = adapter.compute(book, progress)
    except WorkbookProblems as exc:
        count = len(exc.problems)
        return Outcome(problems=exc.problems, error=f"{count} problème{'s' if count > 1 else ''} dans {previous.name}, "
                                                    "la saison précédente (rien n'a été écrit)", status=1)
    progress("écriture")
    wb, carried = adapter.next_workbook(book, summary)
    save_atomic(wb, target)
    return Outcome([f"Classeur créé : {target}, saison suivante de {previous.name}.", *located(carried, str(target)),
                    f"Vérifiez-le (xlcircuit check {typed(target)}), remplissez {tables}, puis lancez : "
                    f"xlcircuit fill {typed(target)}"], result=target)


def new_form(federation: str, target: Path) -> Outcome:
    """The submission workbook of a federation's tournament: its organiser fills it, ``import`` takes it."""
    from ..workbook.sources.form import form_workbook

    adapter = ADAPTERS[federation]
    if adapter.importer is None:
        raise XlcircuitError(f"« {adapter.title} » n'importe pas de résultats : pas de feuille à envoyer.")
    save_atomic(form_workbook(adapter.title, adapter.importer.form), target)
    return Outcome([f"Feuille à envoyer créée : {target}. Son organisateur la remplit et vous la renvoie ; puis : "
                    f"xlcircuit import SAISON.xlsx {typed(target)}"], result=target)
