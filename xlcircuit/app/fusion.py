"""``xlcircuit fusion``: another spelling of a player's name, written into the register (the ``Joueurs`` table's
``Alias`` column); the result lines are never touched."""

from __future__ import annotations

from pathlib import Path

from ..workbook.register import add_alias
from ..workbook.wording import typed
from .common import open_book, unkept_warnings
from .outcome import Outcome, Progress, quiet


def fusion(path: Path, name: str, alias: str, federation: str | None = None, force: bool = False,
           progress: Progress = quiet) -> Outcome:
    """Make ``alias`` an alias of ``name`` in the workbook at ``path``: the result lines typed ``alias`` then
    count for ``name``. Only ``name``'s ``Alias`` cell is written (a line for him when the register has none)."""
    progress("lecture")
    book, adapter = open_book(path, federation)
    fused = add_alias(book, adapter.players, name, alias, adapter.player_needs)
    if not fused.added:
        return Outcome([f"« {alias} » désigne déjà « {fused.name} » ({fused.cell}) : rien à changer."],
                       result=book.path)
    progress("enregistrement")
    target = book.save(force=force)
    line = (f"« {fused.name} » ajouté à la table Joueurs, avec l'alias « {alias} » ({fused.cell})" if fused.new_line
            else f"« {alias} » est maintenant un alias de « {fused.name} » ({fused.cell})")
    return Outcome([f"{line} : les résultats tapés « {alias} » comptent pour « {fused.name} ». Les lignes de "
                    "résultats ne sont pas modifiées.",
                    f"Relancez le remplissage : xlcircuit fill {typed(path)}"],
                   unkept_warnings(book, target) + book.warnings, result=target)
