"""xlwings Lite's two scripts, « Vérifier » and « Remplir », in its Run menu: the batch mode's check and fill of
the workbook open in Excel, for the five federations (the work is :mod:`.openbook`'s).

Lite calls a script through ``xlwings.server.custom_scripts_call``, giving the parameter annotated ``xw.Book``
the open workbook; what the script writes is recorded and run in Excel when it returns, and what it prints
shows in Lite's output pane. Both scripts print their report and write it on the « À vérifier » sheet.

This module needs xlwings only (it is imported by every Lite ``main.py``, whose Excel functions must work without
openpyxl): what reads and fills the workbook is imported when a script runs. Without ``from __future__ import
annotations``: xlwings before 0.37 finds the book parameter by its annotation's very object.
"""

from collections.abc import Callable
from typing import Any

import xlwings as xw


def _plain(f: Any = None, **options: Any) -> Any:
    """xlwings' ``script`` where it has none (xlwings < 0.37 outside Lite and xlwings Server): the function as it is."""
    return f if callable(f) else (lambda g: g)


script: Callable[..., Any] = getattr(xw, "script", _plain)

#: What the scripts need besides xlwings, for the sentence said when Lite lacks it.
NEEDED = "openpyxl et defusedxml"


def _run(book: Any, work: str) -> None:
    """Run ``openbook.<work>`` on the open workbook; print its report and write it on « À vérifier ». A failure
    that is no deliberate error is a bug: nothing it may have recorded is written, and it is said in one sentence."""
    try:
        from . import openbook
    except ImportError as error:
        print(f"xlcircuit ne peut pas lire le classeur : il manque {error.name or NEEDED} ; ajoutez les lignes "
              f"« openpyxl » et « defusedxml » à l'onglet requirements.txt, redémarrez xlwings Lite (menu, Restart), "
              "puis relancez.")
        return
    try:
        report = getattr(openbook, work)(book)
        openbook.write_report(book, report)
    except Exception as error:
        book.json()["actions"].clear()  # nothing of a failed run reaches Excel
        raise RuntimeError(f"xlcircuit : erreur inattendue ({type(error).__name__} : {error}) ; rien n'a été "
                           "écrit. Signalez-la avec le classeur à votre fédération.") from None
    for line in report.text():
        print(line)


@script(name="Vérifier")
def verifier(book: xw.Book) -> None:
    """# Vérifier
    Lit les tables de saisie et signale chaque problème avec sa cellule, sur la feuille « À vérifier » ;
    n'écrit rien d'autre."""
    _run(book, "verify")


@script(name="Remplir")
def remplir(book: xw.Book) -> None:
    """# Remplir
    Calcule et écrit les tables de résultats de la fédération (points, classements), comme
    « xlcircuit fill » ; vos autres feuilles ne sont pas touchées."""
    _run(book, "fill")
