"""xlwings Lite's scripts « Vérifier » and « Remplir » in a real Pyodide under node, called as Lite calls them.

``tests/lite/scripts.mjs`` takes Lite's steps (see its header): the wheels installed, ``requirements.txt`` read,
``main.py`` run as the module ``main``, its scripts listed by ``xlwings.server.custom_scripts_meta`` (Lite's Run
menu), each called through ``xlwings.server.custom_scripts_call`` with the remote book built from the JSON the
add-in sends (``xw.Book(json=...)``). The actions the script returns are applied to the workbook's values by
``tests/lite/office.py`` (a model of what Excel does with them), and the result is compared with what
``xlcircuit fill`` writes into the same workbook: every output table, cell for cell (numbers to 12 significant
digits: see :func:`same`), its number formats, its fills and fonts; every other sheet untouched. Problems are
compared with ``xlcircuit check``'s, and typed by hand.

Two Lite runtimes, each one node process, run side by side: Pyodide 314 with xlwings 0.37.8 (Lite today: fills
in a few actions, column widths), which runs every case, the wheel route (``requirements.txt`` naming the wheel
built from this repository, served over HTTP, and the three-line ``main.py``) and a 100-tournament TdF season;
and Pyodide 0.29 with xlwings 0.33.15 (what older Lite workbooks pin: fills one area at a time, Excel's own column
widths), which runs the cases where the two differ (the fills, the podium moved, names, problems). Needs node
and npm (skips with a reason without them, fails under ``CI``); the Pyodide packages and wheels are cached as
``test_lite_pyodide`` says.
"""

from __future__ import annotations

import datetime as dt
import functools
import http.server
import json
import math
import shutil
import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

import generate
import openpyxl
import pytest
from conftest import example
from test_lite_pyodide import MICROPIP, PACKAGES, cached_pyodide, cached_wheel, need

from xlcircuit.app.check import check
from xlcircuit.app.fill import fill
from xlcircuit.app.outcome import run
from xlcircuit.excel import lite
from xlcircuit.federations import ADAPTERS, CODES
from xlcircuit.federations import tdf as tdf_book
from xlcircuit.workbook.journal import JOURNAL
from xlcircuit.workbook.write import type_rows
from xlcircuit.xlsx import save_atomic

sys.path.insert(0, str(Path(__file__).parent / "lite"))
import office

HERE = Path(__file__).parent
ROOT = HERE.parent
STANDIN = HERE / "lite" / "scripts.mjs"
TODAY = ("314.0.8", "0.37.8")  # Lite today
OLDER = ("0.29.5", "0.33.15")  # what Lite workbooks of 2025 pin
PAIRS = [TODAY, OLDER]
REPORT = "À vérifier"
BIG = 100  # tournaments of the large TdF season


@dataclass(frozen=True)
class Case:
    """A workbook as Excel shows it, a script run on it, and the batch mode's answer."""

    id: str
    script: str
    source: Path  # the workbook open in Excel
    batch: Path | None = None  # what ``xlcircuit fill`` makes of it (for « Remplir »)
    code: str = "tdf"
    pairs: tuple[tuple[str, str], ...] = (TODAY, OLDER)


# --- the workbooks ----------------------------------------------------------------------------------------


def filled(source: Path, target: Path) -> Path:
    outcome = fill(source, output=target)
    assert outcome.result == target
    return target


def edited(source: Path, target: Path, edit) -> Path:
    """A copy of ``source`` changed by ``edit(wb)``, as an organiser's spreadsheet saves it."""
    wb = openpyxl.load_workbook(source)
    edit(wb)
    wb.save(target)
    return target


def text(ws, ref: str, value: str) -> None:
    """Type a text as text (``=…`` stays a text, as Excel keeps a text typed after an apostrophe)."""
    ws[ref].value = value
    ws[ref].data_type = "s"


def with_problems(wb) -> None:
    """Résultats: a place 0 (C3), a classified player without a place (C5), a tournament misspelt (A6), an
    ordinal (C7, accepted)."""
    ws = wb["Résultats"]
    ws["C3"].value = 0
    ws["C5"].value = None
    text(ws, "A6", "Tournoi de Lyo")
    text(ws, "C7", "6e")


def with_names(wb) -> None:
    """Names Excel would read as something else if typed bare: a formula, a fraction (a date), a month."""
    ws = wb["Résultats"]
    text(ws, "B2", '=HYPERLINK("http://exemple.fr";"David")')
    text(ws, "B3", "1/2")
    text(ws, "B4", "mars 2025")


def with_row_below(wb) -> None:
    """A line typed right under the Résultats table (LibreOffice does not grow tables)."""
    ws = wb["Résultats"]
    last = ws.tables["Resultats"].ref.split(":")[1]
    row = int("".join(ch for ch in last if ch.isdigit())) + 1
    for col, value in zip("ABC", ("Tournoi de Lyon", "Nouvelle Venue", 12)):
        ws[f"{col}{row}"].value = value


def without_the_leader(wb) -> None:
    """The TdF's leader's results gone (blanked): the podium and the marks move."""
    ws = wb["Résultats"]
    for row in ws.iter_rows(min_row=2):
        if row[1].value == "Malcolm":
            for cell in row[:5]:
                cell.value = None


def without_a_division(wb) -> None:
    """TORRES' division 3 gone (its players and matches blanked): four group tables fewer."""
    for sheet, table in (("Joueurs", "Joueurs"), ("Matchs", "Matchs")):
        ws = wb[sheet]
        ref = openpyxl.utils.range_boundaries(ws.tables[table].ref)
        headers = [ws.cell(ref[1], c).value for c in range(ref[0], ref[2] + 1)]
        division = ref[0] + headers.index("Division")
        for row in range(ref[1] + 1, ref[3] + 1):
            if ws.cell(row, division).value == 3:
                for col in range(ref[0], ref[2] + 1):
                    ws.cell(row, col).value = None


def with_notes_where_the_standings_go(wb) -> None:
    """The Classement table deleted (only the table), and a note of the organiser's typed where it stood."""
    ws = wb["Classement"]
    del ws.tables["Classement"]
    for row in ws.iter_rows():
        for cell in row:
            cell.value = None
    ws["A5"] = "Mes notes"


def big_season(path: Path) -> Path:
    tournois, resultats = generate.tdf(BIG, 60)
    wb = tdf_book.new_workbook()
    type_rows(wb, tdf_book.TOURNOIS, tournois)
    type_rows(wb, tdf_book.RESULTATS, resultats)
    return save_atomic(wb, path)


def cases(folder: Path) -> list[Case]:
    found = []
    for code in CODES:
        (folder / code).mkdir()
        source = example(ADAPTERS[code], folder / code)
        once = filled(source, folder / code / "rempli.xlsx")
        found += [Case(f"{code}-fill", "remplir", source, filled(source, folder / code / "lot.xlsx"), code),
                  Case(f"{code}-refill", "remplir", once, filled(once, folder / code / "relot.xlsx"), code, (TODAY,))]
    tdf = folder / "tdf" / ADAPTERS["tdf"].example
    problems = edited(tdf, folder / "problemes.xlsx", with_problems)
    names = edited(tdf, folder / "noms.xlsx", with_names)
    below = edited(tdf, folder / "dessous.xlsx", with_row_below)
    regrouped = edited(folder / "torres" / "rempli.xlsx", folder / "regroupe.xlsx", without_a_division)
    moved = edited(folder / "tdf" / "rempli.xlsx", folder / "sans-malcolm.xlsx", without_the_leader)
    in_the_way = edited(tdf, folder / "dans-le-chemin.xlsx", with_notes_where_the_standings_go)
    blank = folder / "vide.xlsx"
    wb = openpyxl.Workbook()
    wb.active["A1"] = "Mes notes"
    wb.save(blank)
    big = big_season(folder / "saison100.xlsx")
    return found + [
        Case("tdf-verify", "verifier", tdf),
        Case("problems-verify", "verifier", problems),
        Case("problems-fill", "remplir", problems),
        Case("names-fill", "remplir", names, filled(names, folder / "noms-lot.xlsx")),
        Case("below-fill", "remplir", below, filled(below, folder / "dessous-lot.xlsx"), pairs=(TODAY,)),
        Case("torres-regroup", "remplir", regrouped, filled(regrouped, folder / "regroupe-lot.xlsx"), "torres",
             (TODAY,)),
        Case("podium-refill", "remplir", moved, filled(moved, folder / "sans-malcolm-lot.xlsx")),
        Case("in-the-way-fill", "remplir", in_the_way, pairs=(TODAY,)),
        Case("blank-verify", "verifier", blank),
        Case("blank-fill", "remplir", blank),
        Case("big-fill", "remplir", big, filled(big, folder / "saison100-lot.xlsx"), pairs=(TODAY,)),
    ]


# --- running them in Pyodide -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The package as ``pip wheel --no-deps`` builds it, from a copy of the sources."""
    work = tmp_path_factory.mktemp("wheel")
    source = work / "source"
    shutil.copytree(ROOT / "xlcircuit", source / "xlcircuit", ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    subprocess.run([sys.executable, "-m", "pip", "wheel", ".", "--no-deps", "-q", "-w", str(work / "dist")],
                   cwd=source, check=True, capture_output=True, timeout=300)
    (built,) = (work / "dist").glob("*.whl")
    return built


@pytest.fixture(scope="module")
def served(wheel):
    """The wheel's folder served over HTTP on this machine, as a federation's web site would serve it."""
    handler = functools.partial(QuietHandler, directory=str(wheel.parent))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/{wheel.name}"
    server.shutdown()


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def end_headers(self):
        self.send_header("Access-Control-Allow-Origin", "*")  # what a browser would need (Lite runs in one)
        super().end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def lite_runs(tmp_path_factory, served) -> tuple[list[Case], dict]:
    """Every case run by each Lite runtime (one node process each, side by side): pair -> route -> id -> result."""
    node = need("node")
    need("npm")
    folder = tmp_path_factory.mktemp("cases")
    found = cases(folder)
    embedded = tmp_path_factory.mktemp("lite")
    assert lite_main(["excel", "lite", "--dir", str(embedded), "--force"]) == 0
    published = tmp_path_factory.mktemp("wheel-route")
    (published / "requirements.txt").write_text(f"xlwings\n{served}\n", encoding="utf-8")
    (published / "main.py").write_text(lite.main(published=True), encoding="utf-8")
    payloads = tmp_path_factory.mktemp("payloads")
    for case in found:
        book = model(case.source, f"{case.id}.xlsx")
        (payloads / f"{case.id}.json").write_text(json.dumps(office.payload(book)), encoding="utf-8")
    micropip = cached_wheel("micropip", MICROPIP)
    todo = {}
    def runs_of(pair, ids):
        return [{"id": c.id, "script": c.script, "payload": str(payloads / f"{c.id}.json")} for c in found
                if c.id in ids and pair in c.pairs]

    for pyodide, xlwings in PAIRS:
        routes = [{"name": "embedded", "lite": str(embedded), "runs": runs_of((pyodide, xlwings), {c.id for c in found})}]
        if (pyodide, xlwings) == TODAY:  # first: the embedded main.py loaded after it replaces the package
            routes.insert(0, {"name": "wheel", "lite": str(published), "mock": [["pillow", "12.2.0"]],
                              "runs": runs_of(TODAY, {"tdf-fill", "problems-verify"})})
        wheels = [cached_wheel("xlwings", xlwings)] + [cached_wheel(n, v) for n, v in PACKAGES]
        config = tmp_path_factory.mktemp("run") / "config.json"
        config.write_text(json.dumps({
            "pyodide": str(cached_pyodide(pyodide)), "micropip": str(micropip), "cache": str(micropip.parent),
            "wheels": [str(w) for w in wheels], "routes": routes,
        }), encoding="utf-8")
        todo[pyodide, xlwings] = subprocess.Popen([node, str(STANDIN), str(config)], stdout=subprocess.PIPE,
                                                  stderr=subprocess.PIPE, text=True)
    reports = {}
    for pair, process in todo.items():
        out, err = process.communicate(timeout=900)
        assert process.returncode == 0, f"{pair}: {err[-3000:]}"
        reports[pair] = json.loads(out)
    return found, reports


def lite_main(args: list[str]) -> int:
    from xlcircuit.cli import main

    return main(args)


def result(lite_runs, pair, case_id: str, route: str = "embedded") -> dict:
    _, reports = lite_runs
    report = reports[pair]
    found = next(r for r in report["routes"] if r["name"] == route)
    outcome = next(r for r in found["results"] if r["id"] == case_id)
    assert "error" not in outcome, f"{case_id}: {outcome['error']}\n{outcome.get('details', '')}"
    return outcome


def case_of(lite_runs, case_id: str) -> Case:
    return next(c for c in lite_runs[0] if c.id == case_id)


# --- comparing with the batch mode -------------------------------------------------------------------------


@functools.cache
def _model(path: Path, name: str | None) -> office.Workbook:
    return office.load(path, name)


def model(path: Path, name: str | None = None) -> office.Workbook:
    """The model of a workbook as Excel shows it, read once (each caller gets its own copy)."""
    return _model(path, name).copy()


def after_run(case: Case, outcome: dict) -> office.Workbook:
    """The workbook once Excel has run the script's actions."""
    return office.apply(model(case.source, f"{case.id}.xlsx"), outcome["actions"])


@functools.cache
def opened(path: Path):
    """A filled workbook as openpyxl reads it (its looks), read once."""
    return openpyxl.load_workbook(path)


def same(a: object, b: object) -> bool:
    """Whether two cells hold the same value: numbers to 12 significant digits (an .xlsx from openpyxl stores 16,
    Excel shows 15, and Pyodide's math library, musl's, may differ from glibc's in a result's last bit), anything
    else exactly."""
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool) \
            and not isinstance(b, bool):
        return math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12)
    return type(a) is type(b) and a == b


def output_sheets(path: Path, code: str) -> set[str]:
    """The sheets of a filled workbook holding the federation's output tables."""
    rewritten = ADAPTERS[code].steps.ownership  # the federation's tables and its Journal
    names = {name.casefold() for name in rewritten.tables}
    wb = opened(path)
    return {ws.title for ws in wb.worksheets for t in ws.tables.values()
            if str(t.displayName).casefold() in names or (rewritten.pattern and rewritten.pattern.fullmatch(t.displayName))}


def rgb(color) -> str | None:
    return f"#{color.rgb[-6:]}".upper() if color is not None and color.type == "rgb" and isinstance(color.rgb, str) else None


def compare_fill(case: Case, outcome: dict) -> None:
    """The workbook after « Remplir » against ``xlcircuit fill``'s: output sheets cell for cell, their tables,
    number formats, fills and fonts; every other sheet as it was."""
    source = model(case.source, f"{case.id}.xlsx")
    after = after_run(case, outcome)
    batch = model(case.batch)
    assert [n for n in after.names if n != REPORT] == batch.names
    owned = output_sheets(case.batch, case.code)
    for sheet in batch.sheets:
        lite_sheet = after[sheet.name]
        if sheet.name in owned:
            wrong = {k: (sheet.values.get(k), lite_sheet.values.get(k)) for k in set(sheet.values) | set(lite_sheet.values)
                     if not same(sheet.values.get(k), lite_sheet.values.get(k))
                     and not (sheet.name == JOURNAL.sheet and isinstance(sheet.values.get(k), dt.datetime))}
            assert not wrong, f"{case.id}, {sheet.name}: {len(wrong)} cells differ, e.g. {sorted(wrong.items())[:5]}"
        else:
            assert lite_sheet.values == source[sheet.name].values, f"{case.id}: {sheet.name} was touched"
        assert dict(map(tuple, lite_sheet.tables)) == dict(map(tuple, sheet.tables)), (case.id, sheet.name)
    compare_looks(case, after, owned, outcome["printed"])


def compare_looks(case: Case, after: office.Workbook, owned: set[str], printed: str) -> None:
    """Number formats, fills and fonts of the output tables' cells, where Lite writes them (the report says
    which it left to the desktop tool); no fill of an earlier fill left behind."""
    wb = opened(case.batch)
    wrong = []
    for name in owned:
        ws, mine = wb[name], after[name]
        looks: dict[tuple, tuple] = {}  # a style's (fill, number format, italic), worked out once
        for table in ws.tables.values():
            c1, r1, c2, r2 = openpyxl.utils.range_boundaries(table.ref)
            for key in ((row, col) for row in range(r1, r2 + 1) for col in range(c1, c2 + 1)):
                cell = ws._cells.get(key)
                style = tuple(cell._style) if cell is not None else ()
                if style not in looks and cell is None:
                    looks[style] = (None, "General", False)
                elif style not in looks:
                    fill = rgb(cell.fill.fgColor) if cell.fill.fill_type == "solid" else None
                    looks[style] = (fill, cell.number_format, bool(cell.font.i))
                fill_colour, number_format, italic = looks[style]
                if "couleurs de fond" not in printed and fill_colour != mine.fills.get(key):
                    wrong.append((name, key, fill_colour, mine.fills.get(key)))
                if cell is None or cell.value is None:
                    continue
                if key[0] > r1 and number_format != mine.formats.get(key, "General"):
                    wrong.append((name, key, number_format, mine.formats.get(key)))
                if "l'italique" not in printed and italic != bool(mine.fonts.get(key, {}).get("italic")):
                    wrong.append((name, key, "italic", italic))
    assert not wrong, f"{case.id}: {len(wrong)} looks differ, e.g. {wrong[:5]}"


def report_rows(after: office.Workbook) -> list[tuple]:
    sheet = after[REPORT]
    rows = max(r for r, _ in sheet.values)
    return [tuple(sheet.values.get((r, c)) for c in (1, 2)) for r in range(1, rows + 1)]


# --- the tests ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("pair", PAIRS, ids=[f"pyodide-{p}-xlwings-{x}" for p, x in PAIRS])
def test_the_run_menu_offers_verifier_and_remplir_in_french(lite_runs, pair):
    report = lite_runs[1][pair]
    assert (report["pyodide"], report["xlwings"]) == pair
    for route in report["routes"]:
        menu = {s["function_name"]: s.get("name") for s in route["scripts"]}
        assert menu == {"verifier": "Vérifier", "remplir": "Remplir"}, route["name"]


@pytest.mark.parametrize("code", CODES)
@pytest.mark.parametrize("pair", PAIRS, ids=[f"pyodide-{p}-xlwings-{x}" for p, x in PAIRS])
def test_remplir_writes_what_the_batch_fill_writes(lite_runs, pair, code):
    for kind in ("fill", "refill") if pair == TODAY else ("fill",):  # the older runtime: the same code, fills aside
        case = case_of(lite_runs, f"{code}-{kind}")
        outcome = result(lite_runs, pair, case.id)
        compare_fill(case, outcome)
        assert "Classeur rempli : " in outcome["printed"]
        assert "Pas dans xlwings Lite : " in outcome["printed"] and "xlcircuit share" in outcome["printed"]


@pytest.mark.parametrize(("pair", "case_id"), [(TODAY, "names-fill"), (OLDER, "names-fill"), (TODAY, "below-fill"),
                                               (TODAY, "torres-regroup"), (TODAY, "podium-refill"),
                                               (OLDER, "podium-refill")],
                         ids=lambda value: value if isinstance(value, str) else f"xlwings-{value[1]}")
def test_remplir_keeps_names_as_text_takes_rows_typed_below_and_redraws_groups(lite_runs, pair, case_id):
    case = case_of(lite_runs, case_id)
    outcome = result(lite_runs, pair, case_id)
    compare_fill(case, outcome)
    after = after_run(case, outcome)
    if case_id == "names-fill":
        names = {v for (r, c), v in after["Points"].values.items() if c == 3}
        assert {'=HYPERLINK("http://exemple.fr";"David")', "1/2", "mars 2025"} <= names
    elif case_id == "below-fill":
        assert after["Résultats"].table("Resultats") == "A1:F188"  # grown over the line typed under it
        assert "Nouvelle Venue" in set(after["Points"].values.values())
        assert "tapée sous la table « Resultats »" in outcome["printed"]
    elif case_id == "torres-regroup":
        assert not {"Classement_D3_G1", "Classement_D3_G4"} & {n for n, _ in after["Classements"].tables}
        assert "La feuille « Classements » est refaite" in outcome["printed"]


@pytest.mark.parametrize("pair", PAIRS, ids=[f"pyodide-{p}-xlwings-{x}" for p, x in PAIRS])
def test_verifier_lists_every_problem_with_its_cell_and_writes_nothing_else(lite_runs, pair):
    case = case_of(lite_runs, "problems-verify")
    outcome = result(lite_runs, pair, case.id)
    source = model(case.source)
    after = after_run(case, outcome)
    assert after.names == source.names + [REPORT]
    assert all(after[s.name].values == s.values for s in source.sheets)
    rows = report_rows(after)
    assert rows[0] == ("Vérifier : problems-verify.xlsx (Tour de France de Diplomatie)", None)
    assert rows[2][0].startswith("3 problèmes dans le classeur : rien n'a été écrit dans les tables")
    listed = rows[rows.index(("Où", "Quoi")) + 1:]
    assert ("Résultats!C3", "colonne « Place » : place attendue : un entier positif (1, 2, 3…) ; trouvé 0") in listed
    assert ("Résultats!A6", "colonne « Tournoi » : tournoi « Tournoi de Lyo » absent de la table Tournois") in listed
    assert [where for where, _ in listed] == ["Résultats!C3", "Résultats!C5", "Résultats!A6"]
    batch = run(lambda: check(case.source))  # the batch mode's check: the same problems, the same words
    assert [(f"{p.sheet}!{p.cell}", p.message) for p in batch.problems] == \
        [(where, what.split(" : ", 1)[1]) for where, what in listed]
    assert "Résultats!C3 : colonne « Place » : place attendue" in outcome["printed"]
    refused = result(lite_runs, pair, "problems-fill")  # « Remplir » on it: the same list, nothing else written
    after_fill = after_run(case_of(lite_runs, "problems-fill"), refused)
    assert all(after_fill[s.name].values == s.values for s in source.sheets)
    assert report_rows(after_fill)[2:] == rows[2:]


def test_remplir_writes_no_table_over_the_organisers_cells(lite_runs):
    case = case_of(lite_runs, "in-the-way-fill")
    outcome = result(lite_runs, TODAY, case.id)
    source, after = model(case.source), after_run(case, outcome)
    assert all(after[s.name].values == s.values for s in source.sheets)  # nothing but the report
    batch = run(lambda: fill(case.source, output=case.source.with_name("jamais.xlsx")))
    assert [str(p) for p in batch.problems] == ["Classement!A5 : la table « Classement » doit s'étendre sur A5, qui "
                                                "n'est pas vide : déplacez ce qui s'y trouve, puis relancez"]
    assert report_rows(after)[-1] == ("Classement!A5", batch.problems[0].message)


@pytest.mark.parametrize("pair", PAIRS, ids=[f"pyodide-{p}-xlwings-{x}" for p, x in PAIRS])
def test_verifier_on_a_correct_season_and_on_a_workbook_without_tables(lite_runs, pair):
    case = case_of(lite_runs, "tdf-verify")
    outcome = result(lite_runs, pair, case.id)
    after = after_run(case, outcome)
    rows = report_rows(after)
    assert rows[2][0] == "tdf-verify.xlsx est correct, avec 1 point à vérifier (ci-dessous) : 11 tournois, " \
                         "84 personnes, 61 classées."
    assert rows[-1][0] == "À vérifier" and rows[-1][1].startswith("Doublon dans « Tournoi de Toulouse »")
    assert {a["sheet_position"] for a in outcome["actions"] if "sheet_position" in a and a["func"] != "addSheet"} \
        == {after.names.index(REPORT)}
    for script in ("verify", "fill"):
        blank = result(lite_runs, pair, f"blank-{script}")
        after = after_run(case_of(lite_runs, f"blank-{script}"), blank)
        assert after.names == ["Sheet", REPORT]
        assert "n'a aucune table d'un classeur xlcircuit" in report_rows(after)[2][0]


def test_the_wheel_route_runs_the_scripts_from_the_served_wheel(lite_runs):
    report = lite_runs[1][TODAY]
    wheel_route, embedded = report["routes"]
    assert "site-packages/xlcircuit/" in wheel_route["xlcircuit"]  # installed from the wheel's address
    assert embedded["xlcircuit"] is None  # then main.py's own modules replace it
    assert len(lite.main(published=True).splitlines()) == 3
    compare_fill(case_of(lite_runs, "tdf-fill"), result(lite_runs, TODAY, "tdf-fill", route="wheel"))
    assert "3 problèmes" in result(lite_runs, TODAY, "problems-verify", route="wheel")["printed"]


def test_a_100_tournament_season_fills_as_the_batch_does(lite_runs):
    case = case_of(lite_runs, "big-fill")
    outcome = result(lite_runs, TODAY, case.id)
    compare_fill(case, outcome)
    assert len(outcome["actions"]) < 200  # the marks' fills in a few actions, not one a cell
    print(f"\nRemplir, {BIG} tournaments, in Pyodide {TODAY[0]} (xlwings {TODAY[1]}): {outcome['seconds']:.1f} s, "
          f"{len(outcome['actions'])} actions; start {lite_runs[1][TODAY]['seconds']}")


def test_dates_come_back_as_dates():
    """The model's reading of what a script writes (a guard on the comparisons above)."""
    assert office.typed("2025-10-04") == dt.datetime(2025, 10, 4)
    assert office.typed("'2025-10-04") == "2025-10-04"
    assert isinstance(office.typed("=A1"), office.Formula)
