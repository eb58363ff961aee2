"""« Importer… » / ``xlcircuit import``: the results organisers already have (each tournament's ranking in its
own layout: a workbook, an ``.ods``, a CSV, a folder of them) brought into the season's input tables, without
retyping. ``--essai`` shows what would be imported and writes nothing."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from ..rules.errors import WorkbookProblems, XlcircuitError
from ..workbook.cells import as_text
from ..workbook.sources import SOURCE
from ..workbook.sources.grids import SUFFIXES, read_sources
from ..workbook.sources.lines import Plan, plan_import
from ..workbook.sources.preview import preview
from ..workbook.sources.write import Season, Written, read_season, write_plan
from ..workbook.wording import count
from ..xlsx import mark_federation
from .common import open_book, unkept_warnings
from .outcome import Outcome, Progress, quiet

#: What the import says of how it writes (the surgical fill only rewrites xlcircuit's own tables).
FULL_REWRITE = ("Les tables de saisie sont écrites par une réécriture complète du classeur (openpyxl), comme pour "
                "schedule : vos formules sont recalculées à l'ouverture.")


def import_results(path: Path, sources: Sequence[Path], tournament: str | None = None, trial: bool = False,
                   federation: str | None = None, output: Path | None = None, force: bool = False,
                   progress: Progress = quiet, then: str = "la même commande sans --essai") -> Outcome:
    """Import ``sources`` into the season at ``path`` (or, with ``output``, into a copy); ``trial``: show what
    would be imported, write nothing (``then``: how to import it). Every problem of the sources at once,
    located; then nothing is written."""
    if not sources:
        raise XlcircuitError(f"Donnez au moins une source à importer : un fichier {', '.join(SUFFIXES[:4])}, ou un "
                             "dossier de tels fichiers.")
    progress("lecture")
    book, adapter = open_book(path, federation)
    importer = adapter.importer
    if importer is None:
        raise XlcircuitError(f"{book.path.name} est un classeur « {adapter.title} » : rien à y importer.")
    season = read_season(book, importer)
    if season.problems:
        raise WorkbookProblems(season.problems)
    read = read_sources(sources, skip=[book.path] + ([output] if output else []))
    plan = plan_import(importer, read, season.people(importer), tournament, season.spellings(importer))
    earlier = Counter(label for r in season.lines if (label := as_text(r.values.get(SOURCE))) is not None)
    if trial:
        return _trial(book.path, plan, season, earlier, then)
    if plan.problems:
        return _refused(plan)
    if not plan.lines:
        raise XlcircuitError("Rien à importer : " + (" ; ".join(plan.skipped) or "les sources n'ont aucune ligne") + ".")
    progress("écriture")
    written = write_plan(book, plan, season)
    mark_federation(book.wb, adapter.code)
    progress("enregistrement")
    target = book.save(output, force=force)
    warnings = unkept_warnings(book, target) + book.warnings + plan.warnings + written.warnings
    lines = _report(target, plan, written) + [FULL_REWRITE, f"Puis : xlcircuit check {_quoted(target)} (ce qui reste à "
                                                            f"compléter), et xlcircuit fill {_quoted(target)}."]
    return Outcome(lines, warnings + [f"Ignoré : {note}" for note in plan.skipped], result=target)


def _quoted(path: Path) -> str:
    text = str(path)
    return f'"{text}"' if " " in text else text


def _known(season: Season, plan: Plan):
    """Whether the season already has a tournament (game, match), by its key."""
    importer = plan.importer
    keys = {tuple(_same(r.values.get(k)) for k in importer.key) for r in season.lines}
    named = importer.named
    names = {_same(r.values.get(named)) for r in season.tournaments} if named else set()
    at = importer.key.index(named) if named in importer.key else None

    def known(key: tuple[object, ...]) -> bool:
        return tuple(_same(k) for k in key) in keys or (at is not None and _same(key[at]) in names)

    return known


def _same(value: object) -> object:
    text = as_text(value)
    return None if text is None else text.casefold()


def _trial(path: Path, plan: Plan, season: Season, earlier: Counter[str], then: str) -> Outcome:
    lines = [f"Essai : rien n'est écrit dans {path.name}.", ""] + preview(plan, earlier, _known(season, plan))
    total = len(plan.lines)
    tournaments = len({line.key for line in plan.lines})
    if plan.problems:
        lines.append(f"{count(total, 'ligne')} lue{'s' if total > 1 else ''} ; l'import est refusé tant que les "
                     "problèmes ci-dessous ne sont pas corrigés.")
        return Outcome(lines, plan.warnings, problems=plan.problems, error=_problems(plan), status=1)
    lines.append(f"À importer : {count(total, 'ligne')}, {count(tournaments, plan.importer.what)}. Pour l'écrire : "
                 f"{then}.")
    return Outcome(lines, plan.warnings, result=path)


def _problems(plan: Plan) -> str:
    n = len(plan.problems)
    return f"{n} problème{'s' if n > 1 else ''} dans les sources"


def _refused(plan: Plan) -> Outcome:
    return Outcome(problems=plan.problems, error=_problems(plan), status=1)


def _report(target: Path, plan: Plan, written: Written) -> list[str]:
    importer = plan.importer
    sources = {line.grid.label for line in plan.lines}
    lines = [f"Import dans {target} : {count(len(plan.lines), 'ligne')} de {count(len(sources), 'source')}."]
    for key in dict.fromkeys(line.key for line in plan.lines):
        name = importer.describe(key)
        done = [count(n, one, many) for n, one, many in (
            (written.added.get(key, 0), "ligne ajoutée", "lignes ajoutées"),
            (written.replaced.get(key, 0), "ligne remplacée (même source)", "lignes remplacées (même source)"),
            (written.filled.get(key, 0), "ligne déjà préparée remplie", "lignes déjà préparées remplies")) if n]
        lines.append(f"  {importer.what} « {name} » : {', '.join(done)}")
    for label, n in written.removed.items():
        lines.append(f"  {count(n, 'ligne retirée', 'lignes retirées')} : importée{'s' if n > 1 else ''} de « {label} », "
                     f"{'elles n’y sont' if n > 1 else 'elle n’y est'} plus")
    for name, row, blank in written.new_tournaments:
        spec = importer.tournaments
        table = spec.sheet if spec else ""
        todo = f" ; à compléter : {', '.join(blank)}" if blank else ""
        lines.append(f"  Feuille « {table} », ligne {row} ajoutée : {importer.what} « {name} »{todo}")
    if written.new_players:
        players = importer.players.sheet if importer.players else ""
        shown = ", ".join(written.new_players[:8]) + (" …" if len(written.new_players) > 8 else "")
        lines.append(f"  {count(len(written.new_players), 'joueur ajouté', 'joueurs ajoutés')} à la feuille "
                     f"« {players} » : {shown}")
    for column in written.columns:
        lines.append(f"  Colonne ajoutée à la table {column}")
    return lines
