"""Benchmark of the Tour de France batch mode on generated seasons of growing size.

For each size it prints: the fill time (``xlcircuit fill``: load, check, compute, write, save),
the openpyxl floor (openpyxl alone loading and saving the same filled workbook: no filler can
beat it), their ratio, and the peak memory of each, measured in a fresh process. It also times
the pure core on the largest season and one ``TDF_POINTS`` call.

    python benchmarks/bench_tdf.py                 # 10, 100 and 1,000 tournaments of 60 players
    python benchmarks/bench_tdf.py --sizes 10 100  # a quicker run
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

from xlcircuit import example_tdf, tdf
from xlcircuit.workbook import tdf as tdf_book
from xlcircuit.workbook.io import save_atomic
from xlcircuit.workbook.tables import type_rows

PLAYERS_PER_TOURNAMENT = 60

_MEASURE = r"""
import json, resource, sys, time
start = time.perf_counter()
if sys.argv[1] == "fill":
    from xlcircuit.workbook import Book
    from xlcircuit.workbook import tdf as tdf_book
    book = Book(sys.argv[2])
    tdf_book.fill(book)
    book.save(sys.argv[3])
else:
    import openpyxl
    openpyxl.load_workbook(sys.argv[2]).save(sys.argv[3])
seconds = time.perf_counter() - start
print(json.dumps({"seconds": seconds, "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def write_season(path: Path, tournaments: int) -> Path:
    tournois, resultats = example_tdf.generated(tournaments, PLAYERS_PER_TOURNAMENT)
    wb = tdf_book.new_workbook()
    type_rows(wb, tdf_book.TOURNOIS, tournois)
    type_rows(wb, tdf_book.RESULTATS, resultats)
    return save_atomic(wb, path)


def measure(*args: str) -> dict:
    run = subprocess.run([sys.executable, "-c", _MEASURE, *args], capture_output=True, text=True, check=True)
    return json.loads(run.stdout)


def core_seconds(tournaments: int) -> float:
    """The pure core on a season: scoring every tournament and weighting every season."""
    tournois, resultats = example_tdf.generated(tournaments, PLAYERS_PER_TOURNAMENT)
    lines: dict[str, list[tdf.Line]] = {}
    for name, player, place, role, _ in resultats:
        lines.setdefault(name, []).append(tdf.Line(player, place, tdf.Role.parse(role)))
    season = [tdf.Tournament(n, tdf.Kind.parse(k), False, tuple(lines[n])) for n, _, k, _ in tournois]
    start = time.perf_counter()
    tdf.run_season(season)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 100, 1000], help="tournament counts")
    args = parser.parse_args()
    print(f"{'tournois':>9} {'lignes':>8} {'fill s':>8} {'floor s':>8} {'ratio':>6} {'fill MiB':>9} {'floor MiB':>9}")
    with tempfile.TemporaryDirectory() as folder:
        for size in args.sizes:
            source = write_season(Path(folder) / f"saison-{size}.xlsx", size)
            filled = Path(folder) / f"rempli-{size}.xlsx"
            fill = measure("fill", str(source), str(filled))
            floor = measure("floor", str(filled), str(Path(folder) / f"floor-{size}.xlsx"))
            rows = size * (PLAYERS_PER_TOURNAMENT + 1)
            print(f"{size:>9} {rows:>8} {fill['seconds']:>8.2f} {floor['seconds']:>8.2f} "
                  f"{fill['seconds'] / floor['seconds']:>6.2f} {fill['peak_mib']:>9.0f} {floor['peak_mib']:>9.0f}",
                  flush=True)
    largest = max(args.sizes)
    print(f"core alone, {largest} tournaments: {core_seconds(largest):.3f} s")
    from xlcircuit.udfs import TDF_POINTS

    calls = 100_000
    per_call = timeit.timeit(lambda: TDF_POINTS(7.0, 21.0), number=calls) / calls
    print(f"TDF_POINTS(7, 21): {per_call * 1e6:.2f} µs per call")


if __name__ == "__main__":
    main()
