"""Texts made from the Excel functions' registry (:mod:`xlcircuit.excel.registry`): xlwings Lite's
``requirements.txt`` line and ``main.py`` (``xlcircuit excel lite``) and the French function reference,
``docs/fonctions.md`` (``xlcircuit excel docs``). Standard library only.
"""

from __future__ import annotations

from .. import __version__
from .registry import FEDERATIONS, FUNCTIONS, Cell, Function, modules, of_federation


# --- xlwings Lite --------------------------------------------------------------------------------


def lite_requirement() -> str:
    """The line of xlwings Lite's requirements.txt: this very version, so the workbook does not change by itself."""
    return f"xlcircuit=={__version__}"


def lite_main() -> str:
    """xlwings Lite's main.py: it imports every function, which Lite then offers under its own name."""
    lines = [
        "# Fonctions Excel de xlcircuit pour xlwings Lite (écrit par « xlcircuit excel lite »).",
        f"# L'onglet requirements.txt doit contenir la ligne : {lite_requirement()}",
    ]
    for module in modules():
        names = ", ".join(f.name for f in FUNCTIONS if f.module == module)
        lines.append(f"from {module} import {names}")
    return "\n".join(lines) + "\n"


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


def _result(result) -> str:
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


def _grid(cells) -> list[str]:
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
        "n'arrondissent pas : les résultats des exemples sont donnés au millième. Une entrée incorrecte",
        "donne un court message commençant par `#` dans la cellule. Le classeur de démarrage",
        "(`xlcircuit excel init`) montre ces exemples, une feuille par fédération.",
        "",
    ]
    for federation in FEDERATIONS:
        lines += [f"## {federation.name}", ""]
        for entry in of_federation(federation.code):
            lines += _section(entry)
    lines += [
        "## xlwings Lite (Excel sur le web, Mac et Windows)",
        "",
        "Onglet `requirements.txt`, la ligne :",
        "",
        "```",
        lite_requirement(),
        "```",
        "",
        "Onglet `main.py`, tout son contenu :",
        "",
        "```python",
        lite_main().rstrip("\n"),
        "```",
    ]
    return "\n".join(lines) + "\n"
