"""What an organiser needs to use the Excel functions, made from the registry (``xlcircuit.functions``).

- ``xlcircuit excel init``: a macro-enabled starter workbook built from xlwings' own quickstart
  template (Windows Excel with the xlwings add-in), one example sheet per federation;
- ``xlcircuit excel lite``: the ``requirements.txt`` line and ``main.py`` for xlwings Lite;
- ``xlcircuit excel docs``: the function reference, ``docs/fonctions.md``.

Sheets and texts are in French; help is in English.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from openpyxl import load_workbook
from openpyxl.formula.translate import Translator
from openpyxl.styles import Font, PatternFill
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.formula import ArrayFormula

from . import __version__
from .errors import XlcircuitError
from .functions import FEDERATIONS, FUNCTIONS, Cell, Federation, Function, modules, of_federation
from .workbook import save_atomic

STARTER = "xlcircuit.xlsm"
#: xlwings reads its settings from a sheet of this name (the template's "_xlwings.conf" is inactive).
CONF_SHEET = "xlwings.conf"
UDF_MODULES = "UDF Modules"
#: Results and expected values alike: the registry's examples have at most 3 decimals.
NUMBER_FORMAT = "0.000"
_BOLD = Font(bold=True)
_EXPECTED = PatternFill("solid", fgColor="F2F2F2")


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


def _grid(cells) -> list[str]:
    width = max(len(row) for row in cells)
    lines = ["|   | " + " | ".join(get_column_letter(c + 1) for c in range(width)) + " |",
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
        "<!-- Généré à partir de xlcircuit/functions.py par « xlcircuit excel docs -o docs/fonctions.md » :",
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


# --- The starter workbook (Windows Excel with the xlwings add-in) ------------------------------


def _quickstart_template() -> Path:
    try:
        import xlwings
    except ImportError:
        raise XlcircuitError(
            "xlwings n'est pas installé : lancez pip install \"xlcircuit[excel]\", puis recommencez."
        ) from None
    template = Path(xlwings.__file__).parent / "quickstart.xlsm"
    if not template.is_file():
        raise XlcircuitError(f"Le modèle de xlwings est introuvable ({template}) : réinstallez xlwings.")
    return template


def _text(cell, value: str) -> None:
    """Text shown as typed, even one starting with '=' (a formula shown, not computed)."""
    cell.value = value
    cell.data_type = "s"
    cell.quotePrefix = True


def _put(cell, value: Cell) -> None:
    if isinstance(value, str):
        _text(cell, value)
    else:
        cell.value = value


def _put_example(ws, entry: Function, top: int) -> int:
    """One function's example from row ``top``: its cells, the formula as text, the formula
    beside the expected result. Returns the next free row."""
    example = entry.example
    ws.cell(top, 1, entry.name).font = _BOLD
    _text(ws.cell(top, 2), entry.description)
    for r, row in enumerate(example.cells, start=top + 1):
        for c, value in enumerate(row, start=1):
            _put(ws.cell(r, c), value)
    # The registry's call refers to cells from A1, here moved down under the title.
    english = Translator("=" + example.call.replace(";", ","), origin="A1").translate_formula(
        f"A{top + 1}"
    )
    line = top + 1 + len(example.cells)
    ws.cell(line, 1, "Formule").font = _BOLD
    _text(ws.cell(line, 2), english.replace(",", ";"))

    result = example.result if isinstance(example.result, tuple) else ((example.result,),)  # as rows
    rows, columns = len(result), len(result[0])
    header, first = line + 1, line + 2
    ws.cell(header, 2, "Résultat").font = _BOLD
    ws.cell(header, 2 + columns, "Attendu").font = _BOLD
    if rows * columns == 1:
        ws.cell(first, 2, english)
    else:  # a legacy array formula over the result's cells: spills in every Excel version
        corner = f"{get_column_letter(1 + columns)}{first + rows - 1}"
        ws.cell(first, 2).value = ArrayFormula(f"B{first}:{corner}", english)
    for r, row in enumerate(result):
        for c, value in enumerate(row):
            ws.cell(first + r, 2 + c).number_format = NUMBER_FORMAT
            expected = ws.cell(first + r, 2 + columns + c)
            _put(expected, value)
            expected.number_format = NUMBER_FORMAT
            expected.fill = _EXPECTED
    return first + rows + 1


def _put_federation(ws, federation: Federation) -> None:
    ws.title = federation.sheet
    ws["A1"] = f"Fonctions xlcircuit : {federation.name}"
    ws["A1"].font = Font(bold=True, size=14)
    ws["A2"] = ("Pour chaque fonction : ses données, sa formule en texte, puis « Résultat » (la formule "
                "elle-même) à côté de « Attendu » (ce qu'elle doit afficher).")
    ws["A3"] = ("#NOM? dans « Résultat » : les fonctions ne sont pas encore importées (onglet xlwings, "
                "Import Functions ; voir le README, « Dans Excel (Windows) »).")
    row = 5
    for entry in of_federation(federation.code):
        row = _put_example(ws, entry, row)
    ws.column_dimensions["A"].width = 16
    for column in range(2, 13):
        ws.column_dimensions[get_column_letter(column)].width = 13


def starter_workbook():
    """xlwings' quickstart workbook (its VBA project kept) with its settings sheet switched on,
    saying where the functions are, and one example sheet per federation."""
    wb = load_workbook(_quickstart_template(), keep_vba=True)
    conf = wb["_xlwings.conf"]
    conf.title = CONF_SHEET
    setting = next(row for row in conf.iter_rows(max_col=2) if row[0].value == UDF_MODULES)
    setting[1].value = ";".join(modules())
    first = wb.worksheets[0]  # the template's own sheet: its VBA document module stays in use
    for i, federation in enumerate(FEDERATIONS):
        ws = first if i == 0 else wb.create_sheet(index=wb.sheetnames.index(CONF_SHEET))
        _put_federation(ws, federation)
    wb.active = 0
    return wb


# --- Commands ------------------------------------------------------------------------------------


def _refuse_existing(paths: list[Path], force: bool) -> None:
    existing = [str(p) for p in paths if p.exists()]
    if existing and not force:
        raise XlcircuitError(f"{', '.join(existing)} existe déjà : ajoutez --force pour l'écraser.")


def _make_folder(folder: Path) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise XlcircuitError(f"Impossible de créer le dossier {folder} ({error.strerror}).") from None


def cmd_init(args: argparse.Namespace) -> int:
    folder = Path(args.dir)
    target = folder / STARTER
    _refuse_existing([target], args.force)
    workbook = starter_workbook()
    _make_folder(folder)
    save_atomic(workbook, target)
    print(f"Classeur de démarrage écrit : {target}. Ouvrez-le dans Excel, puis onglet xlwings, "
          f"Import Functions (voir le README, « Dans Excel (Windows) »).")
    return 0


def cmd_lite(args: argparse.Namespace) -> int:
    if args.dir is None:
        print("Onglet requirements.txt de xlwings Lite, ajoutez la ligne :")
        print(lite_requirement())
        print()
        print("Onglet main.py de xlwings Lite, remplacez tout son contenu par :")
        print(lite_main(), end="")
        return 0
    folder = Path(args.dir)
    requirements, main = folder / "requirements.txt", folder / "main.py"
    _refuse_existing([requirements, main], args.force)
    _make_folder(folder)
    requirements.write_text(lite_requirement() + "\n", encoding="utf-8")
    main.write_text(lite_main(), encoding="utf-8")
    print(f"Écrits : {requirements} et {main}. Copiez-les dans les onglets du même nom de xlwings Lite.")
    return 0


def cmd_docs(args: argparse.Namespace) -> int:
    if args.output is None:
        print(reference(), end="")
    else:
        Path(args.output).write_text(reference(), encoding="utf-8")
    return 0


def add_commands(subparsers) -> None:
    """Add ``xlcircuit excel init|lite|docs`` to the command line."""
    excel = subparsers.add_parser("excel", help="set up the Excel functions: starter workbook, xlwings Lite, reference")
    commands = excel.add_subparsers(dest="excel_command", required=True, metavar="SUBCOMMAND")

    init = commands.add_parser("init", help=f"write the macro-enabled starter workbook DIR/{STARTER} (Windows Excel)")
    init.add_argument("dir", nargs="?", default=".", help="folder to write it to (default: the current folder)")
    init.add_argument("--force", action="store_true", help="overwrite the workbook if it exists")
    init.set_defaults(run=cmd_init)

    lite = commands.add_parser("lite", help="print the requirements.txt line and main.py for xlwings Lite")
    lite.add_argument("--dir", help="write requirements.txt and main.py to this folder instead of printing them")
    lite.add_argument("--force", action="store_true", help="with --dir: overwrite the files if they exist")
    lite.set_defaults(run=cmd_lite)

    docs = commands.add_parser("docs", help="print the function reference (Markdown, French)")
    docs.add_argument("-o", "--output", help="write it to this file (docs/fonctions.md) instead of printing it")
    docs.set_defaults(run=cmd_docs)
