"""The French function reference, ``docs/fonctions.md`` (``xlcircuit excel docs``), made from the Excel
functions' registry (:mod:`xlcircuit.excel.registry`) and the native formulas (:mod:`xlcircuit.excel.native`).
Standard library only. xlwings Lite's files are made by :mod:`xlcircuit.excel.lite`.
"""

from __future__ import annotations

from .. import __version__
from . import lite, native
from .registry import FEDERATIONS, Cell, Function, of_federation

# --- The reference (docs/fonctions.md) ---------------------------------------------------------


def _french(value: Cell) -> str:
    """A registry value as a French Excel shows it (decimal comma, VRAI/FAUX)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "VRAI" if value else "FAUX"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, (int, float)):
        return repr(value).replace(".", ",")  # typed with at most 3 decimals: nothing to round
    return value


def signature(entry: Function) -> str:
    """``NAME(a; b; [c])``, optional arguments in brackets."""
    names = [f"[{a.name}]" if a.optional else a.name for a in entry.arguments]
    return f"{entry.name}({'; '.join(names)})"


def _result(result: Cell | tuple[tuple[Cell, ...], ...]) -> str:
    if not isinstance(result, tuple):
        return _french(result)
    rows, columns = len(result), len(result[0])
    if columns == 1:
        shape = f"une colonne de {rows} valeurs"
    elif rows == 1:
        shape = f"une ligne de {columns} valeurs"
    else:
        shape = f"un bloc de {rows} lignes sur {columns} colonnes"
    return f"{shape} : " + " / ".join(" ; ".join(_french(v) for v in row) for row in result)


def column_letter(number: int) -> str:
    """Excel's letters of column ``number`` (1 is A, 27 is AA)."""
    letters = ""
    while number:
        number, rest = divmod(number - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def _grid(cells: tuple[tuple[Cell, ...], ...]) -> list[str]:
    width = max(len(row) for row in cells)
    lines = ["|   | " + " | ".join(column_letter(c + 1) for c in range(width)) + " |",
             "|---" * (width + 1) + "|"]
    for r, row in enumerate(cells, start=1):
        values = [_french(v) for v in row] + [""] * (width - len(row))
        lines.append(f"| {r} | " + " | ".join(values) + " |")
    return lines


def _section(entry: Function) -> list[str]:
    lines = [f"### {signature(entry)}", "", entry.description, "",
             "| Argument | Description |", "|---|---|"]
    lines += [f"| `{a.name}` | {a.description} |" for a in entry.arguments]
    for note in entry.notes:
        lines += ["", note]
    example = entry.example
    lines.append("")
    if example.cells:
        lines += ["Exemple, avec ces cellules :", "", *_grid(example.cells), ""]
        lines.append(f"`={example.call}` donne {_result(example.result)}.")
    else:
        lines.append(f"Exemple : `={example.call}` donne {_result(example.result)}.")
    return lines + [""]


def reference() -> str:
    """docs/fonctions.md: every function of every federation, with an example call and its result."""
    lines = [
        "# Fonctions Excel de xlcircuit",
        "",
        "<!-- Généré à partir de xlcircuit/excel/registry.py par « xlcircuit excel docs -o docs/fonctions.md » :",
        "     ne modifiez pas ce fichier à la main. -->",
        "",
        "Dans un Excel en français, les arguments se séparent par des points-virgules. Les fonctions",
        "n'arrondissent pas : les résultats des exemples sont donnés au millième. Une cellule vide, un",
        "argument facultatif omis ou laissé vide (`=TDF_POINTS(1; 21; ; VRAI)`) prennent leur valeur par",
        "défaut. Le classeur de démarrage (`xlcircuit excel init`) montre ces exemples, une feuille par",
        "fédération. Une entrée incorrecte est signalée comme le dit la section",
        "[Entrées incorrectes](#entrées-incorrectes).",
        "",
    ]
    for federation in FEDERATIONS:
        lines += [f"## {federation.name}", ""]
        for entry in of_federation(federation.code):
            lines += _section(entry)
    lines += [
        "## Entrées incorrectes",
        "",
        "Une entrée que la règle ne peut pas prendre (place 0, 2,6 joueurs, texte inconnu, nombre de plus de",
        "10^12, plage de plus de 100 000 cellules) ne donne jamais une trace d'erreur Python, ni un infini, ni",
        "un calcul sans fin. Elle est signalée ainsi :",
        "",
        "| Où | Ce que montre la cellule | SIERREUR | SOMME sur la plage |",
        "|---|---|---|---|",
        "| xlwings Lite (Excel sur le web, Mac, Windows) | la valeur d'erreur `#VALEUR!` ; la raison en français "
        "s'affiche en survolant le triangle d'erreur de la cellule | l'intercepte | donne `#VALEUR!` |",
        "| Complément xlwings (Excel pour Windows) | un texte commençant par `#` : la raison en français "
        "(`#place : entier de 1 à 12 attendu, trouvé 0`) | ne l'intercepte pas : testez `GAUCHE(A1; 1) = \"#\"` "
        "| l'ignore (c'est du texte) : comptez-les avec `NB.SI(plage; \"#*\")` |",
        "",
        "Le complément Windows affiche en texte toute erreur levée en Python (avec sa trace) : les fonctions y "
        "rendent donc la raison elle-même ; xlwings Lite, lui, change une erreur levée en `#VALEUR!`.",
        "",
        "## Formules sans Python",
        "",
        "`xlcircuit excel formulas [FICHIER]` écrit un classeur (`xlcircuit-formules.xlsx`) où ces points se",
        "calculent par des formules ordinaires, sans Python ni complément, dans tout Excel et dans LibreOffice :",
        "une longue table par calcul (une ligne par joueur et tournoi, ou par joueur et match), les colonnes",
        "grises étant des formules. Un test les recalcule avec LibreOffice et compare chaque valeur à xlcircuit.",
        "Sur la feuille « Tour de France », les places se tapent `3` ou en ordinal (`1er`, `2e`, `3ème`) ; un",
        "joueur qui a joué sur deux tables a ses deux lignes : la meilleure compte, l'autre est un doublon et les",
        "classés derrière elle remontent d'une place. Une ligne que les règles ne lisent pas (`3er`, `annulé` à",
        "côté de places) laisse tout son tournoi en `#N/A`, la raison dans la colonne Remarque : jamais un nombre",
        "faux mais plausible.",
        "Les formules de la ligne 5, telles qu'un Excel en anglais les écrit (en français : `SI`, `NB.SI.ENS`,",
        "`SOMMEPROD`, `ESTNUM`, `ENT`, `EQUIV`, `CHOISIR`, `SUPPRESPACE`, `SUBSTITUE`, `NA`, `OU`, `ET`,",
        "`EXACT`, `MINUSCULE`, `CNUM`, `GAUCHE`, `STXT`, `NBCAR`, `LIGNE`, `RECHERCHE`, `SIERREUR`, et des",
        "points-virgules) :",
        "",
    ]
    sheet = None
    for name, header, formula in native.formulas():
        if name != sheet:
            lines += ["", f"### Feuille « {name} »", ""] if sheet else [f"### Feuille « {name} »", ""]
            sheet = name
        lines += [f"- {header} : `{formula}`"]
    lines += [
        "",
        "## xlwings Lite (Excel sur le web, Mac et Windows)",
        "",
        "xlcircuit n'est pas encore publié sur PyPI : le `main.py` de xlwings Lite contient donc tout le code",
        "des fonctions et des scripts Vérifier et Remplir (les règles, les fonctions et le mode par lots). Les",
        "deux fichiers sont dans le dossier [`lite/`](lite/) de cette documentation, ou écrits par",
        "`xlcircuit excel lite --dir DOSSIER` ; les scripts sont décrits dans le README, « Dans Excel, sans rien",
        "installer ».",
        "",
        "Onglet `requirements.txt`, tout son contenu :",
        "",
        "```",
        lite.requirements().rstrip("\n"),
        "```",
        "",
        "Onglet `main.py` : tout le contenu du fichier [`lite/main.py`](lite/main.py) (version "
        f"{__version__}).",
        "",
        "Quand xlcircuit sera publié, `xlcircuit excel lite --published` donnera la forme courte (une fédération",
        "qui publie la roue sur son site met l'adresse de la roue à la place de `xlcircuit==…`) :",
        "",
        "```",
        lite.requirements(published=True).rstrip("\n"),
        "```",
        "",
        "```python",
        lite.main(published=True).rstrip("\n"),
        "```",
    ]
    return "\n".join(lines) + "\n"
