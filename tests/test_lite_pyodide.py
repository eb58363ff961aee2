"""The xlwings Lite files (``xlcircuit excel lite``) in a real Pyodide, under node, as xlwings Lite runs them.

``tests/lite/standin.mjs`` takes Lite's steps (see its header): micropip installs xlwings and
requirements.txt, main.py runs as the module ``main``, its functions register through
``xlwings.server.custom_functions_meta`` and are called through ``custom_functions_call`` with the
arguments Excel's runtime passes (every argument a matrix, a blank cell and an omitted optional argument
``null``, which Pyodide >= 0.28 turns into ``JsNull``). Every function is called with its registry
example and with the blanks and omitted arguments below; a refused input must come back as #VALUE!
with a French reason. Expected values are typed from the rules' worked examples, never computed here.

Needs node and npm (skips with a reason without them, fails under ``CI``). Downloads are cached in
``$XLCIRCUIT_TEST_CACHE`` (default ``~/.cache/xlcircuit-tests``): npm ``pyodide`` per version, the
micropip, xlwings, openpyxl and defusedxml wheels from PyPI (the Pyodide CDN is not used). One node process per
(Pyodide, xlwings) pair, run in parallel: about 10 s each.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from xlcircuit.cli import main
from xlcircuit.excel.registry import FUNCTIONS

HERE = Path(__file__).parent
STANDIN = HERE / "lite" / "standin.mjs"
PYODIDE = ("0.29.5", "314.0.8")  # 0.29: what Lite pinned in 2025 (JsNull blanks); 314: Lite today
XLWINGS = ("0.33.15", "0.37.8")  # the oldest Lite workbooks still pin; the newest on PyPI
MICROPIP = "0.11.1"  # the micropip of both Pyodide versions' lock files
#: What requirements.txt names besides xlwings (for the scripts), installed from the cache: no download in a test.
PACKAGES = [("et_xmlfile", "2.0.0"), ("openpyxl", "3.1.5"), ("defusedxml", "0.7.1")]
PAIRS = [(p, x) for p in PYODIDE for x in XLWINGS]
CACHE = Path(os.environ.get("XLCIRCUIT_TEST_CACHE", Path.home() / ".cache" / "xlcircuit-tests"))
REF = re.compile(r"([A-Z]+)([0-9]+)(?::([A-Z]+)([0-9]+))?")


def need(program: str) -> str:
    found = shutil.which(program)
    if found is None:
        if os.environ.get("CI"):
            pytest.fail(f"{program} is required under CI (install node and npm)")
        pytest.skip(f"{program} is not installed (node and npm run the Pyodide test)")
    return found


def cached_pyodide(version: str) -> Path:
    """npm's pyodide package of ``version``, installed once into the cache."""
    folder = CACHE / f"pyodide-{version}"
    package = folder / "node_modules" / "pyodide"
    if not (package / "pyodide.asm.wasm").is_file():
        folder.mkdir(parents=True, exist_ok=True)
        subprocess.run([need("npm"), "install", "--no-audit", "--no-fund", "--prefix", str(folder),
                        f"pyodide@{version}"], check=True, capture_output=True, timeout=600)
    return package


def cached_wheel(name: str, version: str) -> Path:
    """A pure-Python wheel from PyPI, downloaded once into the cache."""
    wheels = CACHE / "wheels"
    found = sorted(wheels.glob(f"{name}-{version}-*.whl"))
    if not found:
        subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:",
                        "--platform", "any", "--python-version", "3.13", f"{name}=={version}", "-d", str(wheels)],
                       check=True, capture_output=True, timeout=600)
        found = sorted(wheels.glob(f"{name}-{version}-*.whl"))
    return found[0]


# --- The calls: registry examples, then blanks and omitted arguments ---------------------------------------


def _cell(cells, column: str, row: int):
    c = 0
    for letter in column:
        c = c * 26 + ord(letter) - 64
    line = cells[row - 1] if row <= len(cells) else ()
    return line[c - 1] if c <= len(line) else None


def office_args(call: str, cells) -> tuple[str, list]:
    """``NAME(a; b)`` as Excel's runtime passes it: each argument a matrix (rows of cells), blanks null."""
    name, inner = call.removesuffix(")").split("(", 1)
    args = []
    for text in (t.strip() for t in inner.split(";")):
        ref = REF.fullmatch(text)
        if ref:
            c1, r1 = ref.group(1), int(ref.group(2))
            c2, r2 = ref.group(3) or c1, int(ref.group(4) or r1)
            columns = [chr(c) for c in range(ord(c1), ord(c2) + 1)]  # single letters: the examples' columns
            args.append([[_cell(cells, col, r) for col in columns] for r in range(r1, r2 + 1)])
        elif text == "":
            args.append(None)  # a bare blank argument: NAME(1; ; 2)
        else:
            args.append([[float(text.replace(",", "."))]])
    return name, args


def col(*values):
    return [[v] for v in values]


#: (name, Office.js arguments, expected) typed by hand; an argument left out is omitted (Excel passes null).
EDGE = [
    # tdf.md §1, example 2: two tied first among 12 -> (1000 + 12 + 1000 / 10^(1/11)) / 2
    ("TDF_POINTS", [[[1]], [[12]], [[2]]], 911.565),
    ("TDF_POINTS", [[[1]], [[21]]], 1021),  # tied and interrupted omitted: 1 and FALSE
    ("TDF_POINTS", [[[1]], [[21]], None, [[True]]], 1000),  # a bare blank tied, interrupted: no bonus
    ("TDF_POINTS", [[[1]], [[21]], [[None]], [[None]]], 1021),  # blank cells: the defaults
    ("TDF_POINTS", [[[1]], [[21]], [[""]], [[""]]], 1021),  # empty texts: the defaults
    ("TDF_TOURNAMENT", [col(1, None, "", "  ", 2)], col(1002, "", "", "", 100)),  # blanks stay blank
    ("TDF_TOURNAMENT", [col(1, 2), None], col(1002, 100)),
    ("TDF_SEASON", [[[700, 500, 300, 200, 100, 50]], [[None] * 6]], 1275),  # blank kinds: normal
    ("TDF_WEIGHTS", [[[150, None, 900]], [[None, None, "en ligne"]]], [[1, "", 0.8]]),
    ("DBM_VALUE", [[["O"] * 6 + [None] + ["O"] * 6], [[4]]], 120),  # dbm.md example 1, a blank cell ignored
    ("DBM_POINTS", [[[120]], [[5]], [[12]]], 47.622),  # tied omitted: 120 / 2^(16/12)
    ("DBM_POINTS", [[[120]], [[5]], [[12]], [[None]]], 47.622),
    ("DBM_BEST4", [[[120, None, 47.62, 95.24, 15, 60]]], 322.86),
    # cdf.md's hand-checked game, years_played omitted or one blank cell: 7 years
    ("PASTIS", [col(9, 8, 7, 5, 3, 2, 0), col(*[None] * 6, 5), None], col(67, 38, 30, 20, 16, 14, 5)),
    ("PASTIS", [col(9, 8, 7, 5, 3, 2, 0), col(*[None] * 6, 5), [[None]]], col(67, 38, 30, 20, 16, 14, 5)),
    ("CDF_QUALIF", [[[67, None, 50]]], 117),  # two rounds played: their sum
    ("CDF_FINAL", [[[67, 30, 50, 20]]], 149),  # top_board and bonus omitted
    ("CDF_FINAL", [[[67, 30, 50, 20]], None, [[5]]], 154),
    ("ELO_CHANGE", [col(1000, 1000, None), col(47, 61, None), col(40, 40, None)], col(8, -8, "")),  # blank row
    ("ELO_NEW", [col(1000, 1000), col(47, 61), [[40]], [[None]]], col(1008, 992)),  # lowest wins by default
    # torres.md §2 points without the optional forfeit column: B 130 8, C 123 4, A 115 2, D 110 1
    ("TORRES_VP", [col(115, 130, 123, 110)], col(2, 8, 4, 1)),
    ("TORRES_VP", [col(115, 130, 123, 110), [[None]]], col(2, 8, 4, 1)),
    ("TORRES_VP", [col(115, 130, 123, 110), col(None, True, None, None)], col(4, 0, 8, 2)),
    ("TORRES_DIFF", [col(115, 130, 123, 110)], col(-18, 42, 14, -38)),
    ("ELO_K", [[[31]]], 16),
    ("ELO_TIER", [[[899]], [[5]]], "Bronze"),
]

#: Refused inputs: (name, arguments, words of the French reason shown in the #VALUE! tip).
REFUSED = [
    ("TDF_POINTS", [[[0]], [[12]]], "place : entier de 1 à 12 attendu"),
    ("TDF_POINTS", [[[2.6]], [[12]]], "place"),
    ("DBM_BEST4", [[[1e308] * 5]], "nombre de -10^12 à 10^12"),
    ("TDF_TOURNAMENT", [col("joueur?")], "places, cellule 1"),
    ("ELO_EXPECTED", [None, [[1000]]], "rating"),
]


def calls() -> list[dict]:
    examples = []
    for entry in FUNCTIONS:
        name, args = office_args(entry.example.call, entry.example.cells)
        examples.append({"name": name, "args": args, "expected": entry.example.result, "what": "example"})
    edges = [{"name": n, "args": a, "expected": e, "what": "edge"} for n, a, e in EDGE]
    refused = [{"name": n, "args": a, "reason": r, "what": "refused"} for n, a, r in REFUSED]
    return examples + edges + refused


def agrees(out, expected) -> bool:
    """A value Lite returns (always rows of cells) against a hand-typed result, to 3 decimals."""
    rows = [list(r) for r in expected] if isinstance(expected, (tuple, list)) else [[expected]]
    if not (isinstance(out, list) and len(out) == len(rows)):
        return False
    for got, want in zip(out, rows):
        if not (isinstance(got, list) and len(got) == len(want)):
            return False
        for g, w in zip(got, want):
            if isinstance(w, (int, float)) and not isinstance(w, bool):
                if isinstance(g, bool) or not isinstance(g, (int, float)) or abs(g - w) > 0.0005:
                    return False
            elif g != ("" if w is None else w):
                return False
    return True


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[tuple[str, str], dict]:
    """Every (Pyodide, xlwings) pair's report, the node processes run side by side."""
    node = need("node")
    need("npm")
    lite = tmp_path_factory.mktemp("lite")
    assert main(["excel", "lite", "--dir", str(lite), "--force"]) == 0
    micropip = cached_wheel("micropip", MICROPIP)
    todo = {}
    for pyodide, xlwings in PAIRS:
        config = tmp_path_factory.mktemp("run") / "config.json"
        config.write_text(json.dumps({
            "pyodide": str(cached_pyodide(pyodide)), "micropip": str(micropip),
            "xlwings": str(cached_wheel("xlwings", xlwings)), "cache": str(micropip.parent), "lite": str(lite),
            "wheels": [str(cached_wheel(name, version)) for name, version in PACKAGES],
            "calls": [{"name": c["name"], "args": c["args"]} for c in calls()],
        }), encoding="utf-8")
        todo[pyodide, xlwings] = subprocess.Popen([node, str(STANDIN), str(config)], stdout=subprocess.PIPE,
                                                  stderr=subprocess.PIPE, text=True)
    reports = {}
    for pair, process in todo.items():
        out, err = process.communicate(timeout=600)
        assert process.returncode == 0, f"{pair}: {err[-3000:]}"
        reports[pair] = json.loads(out)
    return reports


@pytest.mark.parametrize("pair", PAIRS, ids=[f"pyodide-{p}-xlwings-{x}" for p, x in PAIRS])
def test_every_function_registers_and_computes_in_pyodide(runs, pair):
    report = runs[pair]
    assert (report["pyodide"], report["xlwings"]) == pair
    registered = {f["name"]: f for f in report["functions"]}
    assert sorted(registered) == sorted(entry.name for entry in FUNCTIONS)
    for entry in FUNCTIONS:
        meta = registered[entry.name]
        assert meta["description"] == entry.description
        assert [(p["name"], p["optional"], p["description"]) for p in meta["parameters"]] == [
            (a.name, a.optional, a.description) for a in entry.arguments]
    wrong = []
    for call, result in zip(calls(), report["results"]):
        if call["what"] == "refused":
            ok = result.get("error") == "#VALUE!" and call["reason"] in result.get("message", "")
        else:
            ok = "value" in result and agrees(result["value"], call["expected"])
        if not ok:
            wrong.append((call["name"], call["args"], result))
    assert not wrong, f"{len(wrong)} of {len(calls())} calls wrong: {wrong}"
    assert max(r.get("ms", 0) for r in report["results"]) < 5000  # no call near a hang
