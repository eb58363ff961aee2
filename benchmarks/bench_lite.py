"""Benchmark of xlwings Lite's « Remplir » and « Vérifier » scripts on a generated TdF season, in a real Pyodide
under node (``tests/lite/scripts.mjs``, as the tests run them: xlwings' own script call, on the book JSON the
add-in sends; the Pyodide packages and wheels cached as ``tests/test_lite_pyodide.py`` says).

It prints the start of Pyodide, the installs, the loading of ``main.py`` (``xlcircuit excel lite``), then each
run: the first « Vérifier » (which imports the batch mode's modules, as a first click in Lite does), then
« Remplir » ``--repeat`` times (median and each), with the count of actions Lite then runs in Excel. Each time
is given as elapsed and as the node process's processor time (the same on an idle machine; on a shared one,
the processor time is what the run costs). The values
written are compared with ``xlcircuit fill``'s by ``tests/test_lite_scripts.py`` (``big-fill``).

    python benchmarks/bench_lite.py                      # 100 tournaments of 60 players, Lite today
    python benchmarks/bench_lite.py --tournaments 10 --repeat 5 --pyodide 0.29.5 --xlwings 0.33.15
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bench_tdf import write_season

HERE = Path(__file__).resolve().parent
TESTS = HERE.parent / "tests"
sys.path[:0] = [str(TESTS), str(TESTS / "lite")]
import office
from test_lite_pyodide import MICROPIP, PACKAGES, cached_pyodide, cached_wheel
from test_lite_scripts import TODAY

from xlcircuit.cli import main as xlcircuit


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tournaments", type=int, default=100, help="size of the TdF season (60 players each)")
    parser.add_argument("--repeat", type=int, default=3, help="« Remplir » runs after the first « Vérifier »")
    parser.add_argument("--pyodide", default=TODAY[0])
    parser.add_argument("--xlwings", default=TODAY[1])
    args = parser.parse_args()
    node = shutil.which("node")
    if node is None:
        sys.exit("node is required (apt-get install nodejs npm)")
    with tempfile.TemporaryDirectory(prefix="bench-lite-") as tmp:
        folder = Path(tmp)
        source, _ = write_season(folder / "saison.xlsx", args.tournaments)
        payload = folder / "payload.json"
        payload.write_text(json.dumps(office.payload(office.load(source, "saison.xlsx"))), encoding="utf-8")
        lite = folder / "lite"
        assert xlcircuit(["excel", "lite", "--dir", str(lite)]) == 0
        runs = [{"id": "verifier", "script": "verifier", "payload": str(payload)}]
        runs += [{"id": f"remplir-{i}", "script": "remplir", "payload": str(payload)} for i in range(args.repeat)]
        micropip = cached_wheel("micropip", MICROPIP)
        wheels = [cached_wheel("xlwings", args.xlwings)] + [cached_wheel(n, v) for n, v in PACKAGES]
        config = folder / "config.json"
        config.write_text(json.dumps({
            "pyodide": str(cached_pyodide(args.pyodide)), "micropip": str(micropip), "cache": str(micropip.parent),
            "wheels": [str(w) for w in wheels], "routes": [{"name": "embedded", "lite": str(lite), "runs": runs}],
        }), encoding="utf-8")
        size = (lite / "main.py").stat().st_size
        done = subprocess.run([node, str(TESTS / "lite" / "scripts.mjs"), str(config)], capture_output=True,
                              text=True, check=True)
    report = json.loads(done.stdout)
    route = report["routes"][0]
    print(f"Pyodide {report['pyodide']}, xlwings {report['xlwings']}, TdF season of {args.tournaments} tournaments "
          f"({args.tournaments * 61} result lines)")
    print(f"start {report['seconds']['start']:.1f} s, installs {report['seconds']['install']:.1f} s, "
          f"main.py ({size / 1000:.0f} kB) loaded in {route['seconds']['load']:.1f} s")
    fills = []
    for run in route["results"]:
        if "error" in run:
            sys.exit(f"{run['id']}: {run['error']}\n{run.get('details', '')}")
        print(f"{run['id']:>12}: {run['seconds']:6.2f} s ({run['cpu']:.2f} s of processor time), "
              f"{len(run['actions'])} actions")
        if run["script"] == "remplir":
            fills.append((run["seconds"], run["cpu"]))
    print(f"« Remplir », median of {len(fills)}: {statistics.median(f[0] for f in fills):.2f} s "
          f"({statistics.median(f[1] for f in fills):.2f} s of processor time)")


if __name__ == "__main__":
    main()
