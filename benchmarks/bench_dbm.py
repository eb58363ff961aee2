"""Benchmark of the DBM batch mode on generated seasons of growing size.

For each size it prints: the fill time (``xlcircuit fill``: load, check, compute, write, save),
the openpyxl floor (openpyxl alone loading and saving the same filled workbook: no filler can
beat it), their ratio, and the peak memory of each, measured in a fresh process. It also times
the pure core on the largest season (VAJ of every player before every poule, Tableaux, classes)
and one ``DBM_POINTS`` call.

    python benchmarks/bench_dbm.py                 # 10, 100 and 1,000 poules of 24 players
    python benchmarks/bench_dbm.py --sizes 10 100  # a quicker run
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
import timeit
from pathlib import Path

from xlcircuit import dbm, example_dbm
from xlcircuit.workbook import dbm as dbm_book
from xlcircuit.workbook.io import save_atomic
from xlcircuit.workbook.tables import type_rows

PLAYERS_PER_POULE = 24

_MEASURE = r"""
import json, resource, sys, time
start = time.perf_counter()
if sys.argv[1] == "fill":
    from xlcircuit.workbook import Book
    from xlcircuit.workbook import dbm as dbm_book
    book = Book(sys.argv[2])
    dbm_book.fill(book)
    book.save(sys.argv[3])
else:
    import openpyxl
    openpyxl.load_workbook(sys.argv[2]).save(sys.argv[3])
seconds = time.perf_counter() - start
print(json.dumps({"seconds": seconds, "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def write_season(path: Path, poules: int) -> tuple[Path, int]:
    joueurs, tournois, resultats = example_dbm.generated(poules, PLAYERS_PER_POULE)
    wb = dbm_book.new_workbook()
    type_rows(wb, dbm_book.PARAMETRES, [("Saison", "bench"), ("seuil_S", example_dbm.SEUIL_S),
                                        ("seuil_O", example_dbm.SEUIL_O)])
    type_rows(wb, dbm_book.JOUEURS, joueurs)
    type_rows(wb, dbm_book.TOURNOIS, tournois)
    type_rows(wb, dbm_book.RESULTATS, resultats)
    return save_atomic(wb, path), len(resultats)


def measure(*args: str) -> dict:
    run = subprocess.run([sys.executable, "-c", _MEASURE, *args], capture_output=True, text=True, check=True)
    return json.loads(run.stdout)


def core_seconds(poules: int) -> float:
    """The pure core on a season: every poule valued in date order, the tables and the classes."""
    joueurs, tournois, resultats = example_dbm.generated(poules, PLAYERS_PER_POULE)
    entries: dict[str, list[dbm.Entry]] = {}
    for name, player, partner, place, referee in resultats:
        entries.setdefault(name, []).append(dbm.Entry(player, partner, place, referee == "oui"))
    season = [dbm.Tournament(n, d, r, doubles == "oui", tuple(entries[n])) for n, d, r, doubles, _ in tournois]
    classes = {p: dbm.PlayerClass.parse(c) for p, _, c in joueurs}
    clubs = {p: c for p, c, _ in joueurs}
    start = time.perf_counter()
    dbm.run_season(season, classes, dbm.Thresholds(example_dbm.SEUIL_S, example_dbm.SEUIL_O), clubs)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 100, 1000], help="poule counts")
    args = parser.parse_args()
    print(f"{'poules':>9} {'lignes':>8} {'fill s':>8} {'floor s':>8} {'ratio':>6} {'fill MiB':>9} {'floor MiB':>9}")
    with tempfile.TemporaryDirectory() as folder:
        for size in args.sizes:
            source, rows = write_season(Path(folder) / f"saison-{size}.xlsx", size)
            filled = Path(folder) / f"rempli-{size}.xlsx"
            fill = measure("fill", str(source), str(filled))
            floor = measure("floor", str(filled), str(Path(folder) / f"floor-{size}.xlsx"))
            print(f"{size:>9} {rows:>8} {fill['seconds']:>8.2f} {floor['seconds']:>8.2f} "
                  f"{fill['seconds'] / floor['seconds']:>6.2f} {fill['peak_mib']:>9.0f} {floor['peak_mib']:>9.0f}",
                  flush=True)
    largest = max(args.sizes)
    print(f"core alone, {largest} poules: {core_seconds(largest):.3f} s")
    from xlcircuit.udfs import DBM_POINTS

    calls = 100_000
    per_call = timeit.timeit(lambda: DBM_POINTS(154.0, 7.0, 36.0), number=calls) / calls
    print(f"DBM_POINTS(154, 7, 36): {per_call * 1e6:.2f} µs per call")


if __name__ == "__main__":
    main()
