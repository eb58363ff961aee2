"""Setting up the Excel functions (xlcircuit.excel): the starter workbook, xlwings Lite's files,
the function reference, and the package as xlwings Lite installs it.

The LibreOffice test needs ``soffice`` (skips with a reason without it, fails under ``CI``). The
wheel and fresh-venv tests build the package and install xlwings with pip (a few seconds, once).
"""

from __future__ import annotations

import ast
import importlib
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from importlib.metadata import version
from pathlib import Path

import openpyxl
import pytest
import xlwings
from conftest import sheets_as_csv
from openpyxl.utils.cell import range_boundaries
from openpyxl.worksheet.formula import ArrayFormula
from test_functions import agrees, as_excel_passes, example_arguments, rows_of

import xlcircuit
from xlcircuit.cli import main
from xlcircuit.excel.registry import FEDERATIONS, FUNCTIONS, of_federation
from xlcircuit.federations import CODES as FEDERATIONS_CODES

ROOT = Path(__file__).parent.parent
DOCS = ROOT / "docs" / "fonctions.md"
TEMPLATE = Path(xlwings.__file__).parent / "quickstart.xlsm"
VERSION = xlcircuit.__version__  # the one version source (pyproject.toml reads it: dynamic)


def run(command: list, **options) -> subprocess.CompletedProcess:
    """Run a command; on failure, fail the test with its output."""
    done = subprocess.run([str(c) for c in command], capture_output=True, text=True, timeout=300, **options)
    if done.returncode != 0:
        pytest.fail(f"{command} exited with {done.returncode}:\n{done.stdout}\n{done.stderr}")
    return done


# --- The starter workbook ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def starter(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("init") / "classeurs"
    assert main(["excel", "init", str(folder)]) == 0
    return folder / "xlcircuit.xlsm"


def formulas(ws) -> list[tuple[object, str, int, int]]:
    """(cell, formula, rows, columns) of every formula of a sheet; an array formula covers rows × columns."""
    found = []
    for row in ws.iter_rows():
        for cell in row:
            if isinstance(cell.value, ArrayFormula):
                first_column, first_row, last_column, last_row = range_boundaries(cell.value.ref)
                found.append((cell, cell.value.text, last_row - first_row + 1, last_column - first_column + 1))
            elif cell.data_type == "f":
                found.append((cell, cell.value, 1, 1))
    return found


def test_init_keeps_xlwings_template_and_switches_its_settings_on(starter):
    wb = openpyxl.load_workbook(starter, keep_vba=True)
    assert wb.sheetnames == [f.sheet for f in FEDERATIONS] + ["xlwings.conf"]
    assert wb.active.title == FEDERATIONS[0].sheet
    settings = {row[0].value: row[1].value for row in wb["xlwings.conf"].iter_rows(max_col=2)}
    assert settings["UDF Modules"] == "xlcircuit.udfs"
    assert settings["Interpreter_Win"] == "python"  # the template's own settings are kept
    with zipfile.ZipFile(starter) as made, zipfile.ZipFile(TEMPLATE) as template:
        assert made.read("xl/vbaProject.bin") == template.read("xl/vbaProject.bin")
        assert b"macroEnabled.main+xml" in made.read("[Content_Types].xml")
        assert b"vbaProject.bin" in made.read("xl/_rels/workbook.xml.rels")
    assert "xl/vbaProject.bin" in wb.vba_archive.namelist()


@pytest.mark.parametrize("federation", FEDERATIONS, ids=lambda f: f.code)
def test_the_sheet_shows_every_function_beside_its_expected_result(starter, federation):
    ws = openpyxl.load_workbook(starter, keep_vba=True)[federation.sheet]
    found = formulas(ws)
    assert sorted(f.split("(")[0].lstrip("=") for _, f, _, _ in found) == sorted(
        entry.name for entry in of_federation(federation.code)
    )

    def read(ref: str) -> list[list]:
        first_column, first_row, last_column, last_row = range_boundaries(ref)
        return [[c.value for c in row] for row in ws.iter_rows(first_row, last_row, first_column, last_column)]

    for cell, formula, rows, columns in found:
        entry, arguments = as_excel_passes(formula, ",", read)
        expected = tuple(
            tuple(ws.cell(cell.row + r, cell.column + columns + c).value for c in range(columns)) for r in range(rows)
        )
        # what is written beside the formula is the registry's result, and the formula computes it
        assert expected == rows_of(entry.example.result)
        function = getattr(importlib.import_module(entry.module), entry.name)
        out = function(*arguments)
        assert agrees(out if rows * columns > 1 else [[out]], expected), (entry.name, out)
        assert ws.cell(cell.row - 1, cell.column + columns).value == "Attendu"
        assert ws.cell(cell.row - 2, 2).value == formula.replace(",", ";")  # the formula, readable as text
        assert ws.cell(cell.row - 2, 2).data_type == "s"


def test_libreoffice_opens_the_starter_workbook(starter, tmp_path):
    sheets = sheets_as_csv(starter, tmp_path / "out")
    assert sorted(sheets) == sorted([f.sheet for f in FEDERATIONS] + ["xlwings.conf"])
    assert ["UDF Modules", "xlcircuit.udfs"] in sheets["xlwings.conf"]
    for federation in FEDERATIONS:
        rows = sheets[federation.sheet]
        cells = [cell for row in rows for cell in row]
        assert "#NAME?" in cells  # the formulas were read as formulas: LibreOffice has no such function
        for entry in of_federation(federation.code):
            assert entry.name in [row[0] for row in rows]
            assert any(cell.startswith(f"={entry.name}(") for cell in cells)  # the formula as text
            for row in rows_of(entry.example.result):
                assert all(str(value) in cells for value in row), (entry.name, row)  # the expected values


def test_init_refuses_to_overwrite_without_force(tmp_path, capsys):
    assert main(["excel", "init", str(tmp_path)]) == 0
    assert main(["excel", "init", str(tmp_path)]) == 1
    assert "existe déjà" in capsys.readouterr().err
    assert main(["excel", "init", str(tmp_path), "--force"]) == 0


def test_init_without_xlwings_says_what_to_install(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "xlwings", None)  # import xlwings now raises ImportError
    assert main(["excel", "init", str(tmp_path)]) == 1
    assert 'pip install "xlcircuit[excel]"' in capsys.readouterr().err
    assert not (tmp_path / "xlcircuit.xlsm").exists()


# --- xlwings Lite ------------------------------------------------------------------------------------


def imported(main_py: str) -> dict[str, list[str]]:
    """module -> names imported by a main.py, read from its source."""
    tree = ast.parse(main_py)
    return {node.module: [alias.name for alias in node.names] for node in tree.body
            if isinstance(node, ast.ImportFrom) and node.module.startswith("xlcircuit")}


SCRIPTS = {"xlcircuit.excel.scripts": ["remplir", "verifier"]}  # « Remplir » and « Vérifier », Lite's scripts


def embedded(main_py: str) -> dict[str, tuple[bool, str]]:
    """module -> (is a package, source) of a self-contained main.py: its ``_SOURCES[name] = package, r...``
    lines (each source a raw string starting with a newline)."""
    found = {}
    for node in ast.parse(main_py).body:
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Subscript):
            package, source = ast.literal_eval(node.value)
            found[ast.literal_eval(node.targets[0].slice)] = (package, source.removeprefix("\n"))
    return found


def test_lite_prints_requirements_and_a_self_contained_main_py(capsys):
    assert main(["excel", "lite"]) == 0
    out = capsys.readouterr().out
    assert "\nxlwings\nopenpyxl>=3.1\ndefusedxml>=0.7\n" in out and "xlcircuit==" not in out  # all on PyPI
    main_py = out[out.index("# xlcircuit ") :]
    assert imported(main_py) == {"xlcircuit.udfs": [entry.name for entry in FUNCTIONS], **SCRIPTS}
    assert max(len(line) for line in main_py.splitlines()) <= 200  # readable: each source as it is written
    sources = embedded(main_py)
    assert {"xlcircuit", "xlcircuit.udfs", "xlcircuit.excel.udfs", "xlcircuit.rules.tdf", "xlcircuit.rules.torres",
            "xlcircuit.excel.scripts", "xlcircuit.excel.openbook", "xlcircuit.xlsx", "xlcircuit.workbook.read",
            *[f"xlcircuit.federations.{code}" for code in FEDERATIONS_CODES]} <= set(sources)
    assert not [name for name in sources if name.startswith(("xlcircuit.cli", "xlcircuit.gui"))]
    for name, (package, source) in sources.items():  # the very files of the package, imports on PyPI or standard
        where = ROOT.joinpath(*name.split("."))
        path = where / "__init__.py" if package else where.with_suffix(".py")
        assert source == path.read_text(encoding="utf-8"), name
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, (ast.Import, ast.ImportFrom)) and not getattr(node, "level", 0):
                for top in ([a.name for a in node.names] if isinstance(node, ast.Import) else [node.module]):
                    allowed = sys.stdlib_module_names | {"xlwings", "xlcircuit", "__future__", "openpyxl", "defusedxml"}
                    assert top.split(".")[0] in allowed, (name, top)


def test_lite_published_short_form(capsys):
    assert main(["excel", "lite", "--published"]) == 0
    out = capsys.readouterr().out
    assert f"\nxlwings\nxlcircuit=={VERSION}\n" in out
    main_py = out[out.index("# xlcircuit ") :]
    assert len(main_py.splitlines()) == 3
    assert imported(main_py) == {"xlcircuit.udfs": ["*"], **SCRIPTS}


def test_lite_writes_the_two_files(tmp_path, capsys):
    assert main(["excel", "lite", "--dir", str(tmp_path / "lite")]) == 0
    assert (tmp_path / "lite" / "requirements.txt").read_text(encoding="utf-8") == \
        "xlwings\nopenpyxl>=3.1\ndefusedxml>=0.7\n"
    assert main(["excel", "lite", "--dir", str(tmp_path / "lite")]) == 1
    assert "existe déjà" in capsys.readouterr().err
    assert main(["excel", "lite", "--dir", str(tmp_path / "lite"), "--force"]) == 0


def test_docs_lite_holds_the_generated_files(tmp_path):
    assert main(["excel", "lite", "--dir", str(tmp_path)]) == 0
    for name in ("main.py", "requirements.txt"):
        assert (ROOT / "docs" / "lite" / name).read_text(encoding="utf-8") == (tmp_path / name).read_text(
            encoding="utf-8"), "run: xlcircuit excel lite --dir docs/lite --force"


@pytest.fixture(scope="session")
def wheel(tmp_path_factory) -> Path:
    """The package as pip builds it, from a copy of the sources (no build files left in the repository)."""
    work = tmp_path_factory.mktemp("wheel")
    source = work / "source"
    shutil.copytree(ROOT / "xlcircuit", source / "xlcircuit", ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    run([sys.executable, "-m", "pip", "wheel", ".", "--no-deps", "-q", "-w", work / "dist"], cwd=source)
    (built,) = (work / "dist").glob("*.whl")
    return built


@pytest.fixture(scope="session")
def lite_python(tmp_path_factory, wheel) -> Path:
    """The Python of a fresh virtual environment holding only the built wheel (no dependencies) and xlwings."""
    venv = tmp_path_factory.mktemp("venv") / "lite"
    run([sys.executable, "-m", "venv", venv])
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    run([python, "-m", "pip", "install", "-q", "--no-deps", wheel])
    run([python, "-m", "pip", "install", "-q", f"xlwings=={version('xlwings')}"])
    return python


def test_the_wheel_is_pure_python(wheel):
    assert wheel.name == f"xlcircuit-{VERSION}-py3-none-any.whl"  # what xlwings Lite (Pyodide) can install
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    assert {"xlcircuit/excel/registry.py", "xlcircuit/excel/udfs.py", "xlcircuit/udfs.py", "xlcircuit/rules/tdf.py",
            "xlcircuit/federations/examples/tdf.json"} <= set(names)


#: Run in the fresh venv, beside main.py: what it exposes, and each function on its arguments.
LITE_CHECK = """
import importlib.util, json, sys
import main, xlcircuit
calls = json.loads(sys.argv[1])
print(json.dumps({
    "xlcircuit": getattr(xlcircuit, "__file__", None),
    "openpyxl": importlib.util.find_spec("openpyxl") is not None,
    "names": sorted(name for name, value in vars(main).items() if hasattr(value, "__xlfunc__") or name.isupper()
                    and callable(value)),
    "results": {name: getattr(main, name)(*arguments) for name, arguments in calls.items()},
}))
"""


@pytest.fixture(scope="session")
def bare_python(tmp_path_factory) -> Path:
    """The Python of a fresh virtual environment holding xlwings only: nothing of xlcircuit."""
    venv = tmp_path_factory.mktemp("venv") / "bare"
    run([sys.executable, "-m", "venv", venv])
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    run([python, "-m", "pip", "install", "-q", f"xlwings=={version('xlwings')}"])
    return python


def lite_report(python: Path, folder: Path) -> dict:
    calls = {entry.name: example_arguments(entry) for entry in FUNCTIONS}
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    return json.loads(run([python, "-c", LITE_CHECK, json.dumps(calls)], cwd=folder, env=env).stdout)


def test_lite_main_py_works_with_xlwings_alone(bare_python, tmp_path):
    assert main(["excel", "lite", "--dir", str(tmp_path)]) == 0
    report = lite_report(bare_python, tmp_path)
    assert report["xlcircuit"] is None  # served from main.py, no file
    assert report["openpyxl"] is False
    assert report["names"] == sorted(entry.name for entry in FUNCTIONS)
    for entry in FUNCTIONS:
        assert agrees(report["results"][entry.name], entry.example.result), entry.name


def test_lite_published_main_py_works_with_only_the_wheel_and_xlwings(lite_python, tmp_path):
    assert main(["excel", "lite", "--published", "--dir", str(tmp_path)]) == 0
    report = lite_report(lite_python, tmp_path)
    assert Path(report["xlcircuit"]).is_relative_to(lite_python.parent.parent)  # the wheel, not this checkout
    assert report["openpyxl"] is False
    assert report["names"] == sorted(entry.name for entry in FUNCTIONS)
    for entry in FUNCTIONS:
        assert agrees(report["results"][entry.name], entry.example.result), entry.name


# --- The function reference --------------------------------------------------------------------------


def test_docs_fonctions_md_is_the_generated_reference(capsys):
    assert main(["excel", "docs"]) == 0
    generated = capsys.readouterr().out
    assert DOCS.read_text(encoding="utf-8") == generated, "run: xlcircuit excel docs -o docs/fonctions.md"


def test_docs_fonctions_md_lists_every_function():
    text = DOCS.read_text(encoding="utf-8")
    for federation in FEDERATIONS:
        section = text.split(f"\n## {federation.name}\n", 1)[1].split("\n## ", 1)[0]
        for entry in of_federation(federation.code):
            assert f"\n### {entry.name}(" in section
            assert f"`={entry.example.call}` donne " in section
            for argument in entry.arguments:
                assert f"| `{argument.name}` | {argument.description} |" in section
    assert f"\nxlcircuit=={VERSION}\n" in text and "from xlcircuit.udfs import " in text


def test_docs_writes_to_a_file(tmp_path):
    assert main(["excel", "docs", "-o", str(tmp_path / "f.md")]) == 0
    assert (tmp_path / "f.md").read_text(encoding="utf-8") == DOCS.read_text(encoding="utf-8")


def test_the_readme_explains_both_ways():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "### Dans Excel (Windows)" in readme and "### Dans Excel, sans rien installer (xlwings Lite)" in readme
    for command in ("init", "lite", "docs"):
        assert f"xlcircuit excel {command}" in readme


# --- Ready to publish ------------------------------------------------------------------------------------


def test_one_version_source():
    project = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    table = project.split("\n[project]\n", 1)[1].split("\n[", 1)[0]
    assert not re.search(r"^version\s*=", table, re.M) and 'dynamic = ["version"]' in table
    assert 'version = { attr = "xlcircuit.__version__" }' in project
    assert re.fullmatch(r"\d+\.\d+\.\d+", VERSION)


def test_sdist_and_wheel_build_clean_and_pass_twine_check(tmp_path):
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns("__pycache__", ".git", "*.egg-info", "build", "dist",
                                                                 ".pytest_cache", ".hypothesis"))
    done = run([sys.executable, "-m", "build", "--outdir", tmp_path / "dist", source])
    warnings = [line for line in (done.stdout + done.stderr).lower().splitlines()
                if "warning" in line and "byte-compiling is disabled" not in line]  # PYTHONDONTWRITEBYTECODE
    assert not warnings, warnings
    built = sorted(p.name for p in (tmp_path / "dist").iterdir())
    assert built == [f"xlcircuit-{VERSION}-py3-none-any.whl", f"xlcircuit-{VERSION}.tar.gz"]
    checked = run([sys.executable, "-m", "twine", "check", "--strict", *sorted((tmp_path / "dist").iterdir())])
    assert checked.stdout.count("PASSED") == 2, checked.stdout
    with zipfile.ZipFile(tmp_path / "dist" / built[0]) as wheel:
        metadata = wheel.read(f"xlcircuit-{VERSION}.dist-info/METADATA").decode()
    assert f"Version: {VERSION}" in metadata and "Provides-Extra: excel" in metadata


def test_the_starter_macro_recalculates_every_formula(monkeypatch):
    """The template's SampleCall runs « import NAME; NAME.main() » with NAME the workbook's name (olevba shows
    it in xlwings' quickstart.xlsm): for xlcircuit.xlsm, xlcircuit.main(), a full recalculation."""
    from xlcircuit.excel import starter as starter_module

    assert Path(starter_module.STARTER).stem == "xlcircuit"
    calls = []

    class App:
        class api:
            @staticmethod
            def CalculateFull():
                calls.append("CalculateFull")

    class Book:
        app = App()

        @staticmethod
        def caller():
            return Book()

    monkeypatch.setattr(xlwings, "Book", Book)
    xlcircuit.main()
    assert calls == ["CalculateFull"]


def test_the_starter_sheets_say_the_key_that_recalculates(starter):
    wb = openpyxl.load_workbook(starter, keep_vba=True)
    for federation in FEDERATIONS:
        assert "Import Functions, puis Ctrl+Alt+F9" in wb[federation.sheet]["A3"].value
