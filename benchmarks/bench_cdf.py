"""Benchmark of the Championnat de France batch mode on generated championships of growing size.

For each size it prints: the fill time (``xlcircuit fill``: load, check, compute, write, save),
the openpyxl floor (openpyxl alone loading and saving the same filled workbook: no filler can
beat it), their ratio, and the peak memory of each, measured in a fresh process. It also times
the pure core on the largest championship and one ``CDF_PASTIS`` call.

    python benchmarks/bench_cdf.py                 # 35, 350 and 3,500 players, four rounds, every ballot
    python benchmarks/bench_cdf.py --sizes 35 350  # a quicker run
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
import timeit
from collections import defaultdict
from pathlib import Path

from xlcircuit import cdf, example_cdf
from xlcircuit.workbook import cdf as cdf_book
from xlcircuit.workbook.io import save_atomic
from xlcircuit.workbook.tables import type_rows

_MEASURE = r"""
import json, resource, sys, time
start = time.perf_counter()
if sys.argv[1] == "fill":
    from xlcircuit.workbook import Book
    from xlcircuit.workbook import cdf as cdf_book
    book = Book(sys.argv[2])
    cdf_book.fill(book)
    book.save(sys.argv[3])
else:
    import openpyxl
    openpyxl.load_workbook(sys.argv[2]).save(sys.argv[3])
seconds = time.perf_counter() - start
print(json.dumps({"seconds": seconds, "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def write_championship(path: Path, players: int) -> tuple[Path, int]:
    joueurs, parties, votes, preferes = example_cdf.generated(players)
    wb = cdf_book.new_workbook()
    type_rows(wb, cdf_book.JOUEURS, joueurs)
    type_rows(wb, cdf_book.PARTIES, parties)
    type_rows(wb, cdf_book.VOTES, votes)
    type_rows(wb, cdf_book.PREFERES, preferes)
    return save_atomic(wb, path), len(parties) + len(votes)


def measure(*args: str) -> dict:
    run = subprocess.run([sys.executable, "-c", _MEASURE, *args], capture_output=True, text=True, check=True)
    return json.loads(run.stdout)


def core_seconds(players: int) -> float:
    """The pure core on a championship: every board, the top board, the rankings and awards."""
    joueurs, parties, votes, preferes = example_cdf.generated(players)
    people = {j[0]: cdf.Player(j[0], j[3], j[4] == "oui", j[2]) for j in joueurs}
    seats = defaultdict(list)
    for ronde, table, player, power, centres, survived, _, choice in parties:
        seats[(ronde, str(table))].append(cdf.Seat(player, centres, survived, cdf.Power.parse(power), choice))
    boards = [cdf.Board(r, t, tuple(s)) for (r, t), s in seats.items()]
    ballots = [cdf.Vote(r, str(t), v, cdf.Category.parse(c), a, b, cdf.parse_ballot(x)) for r, t, v, c, a, b, x in votes]
    start = time.perf_counter()
    cdf.run_championship(people, boards, ballots, preferes)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[35, 350, 3500], help="player counts")
    args = parser.parse_args()
    print(f"{'joueurs':>9} {'lignes':>8} {'fill s':>8} {'floor s':>8} {'ratio':>6} {'fill MiB':>9} {'floor MiB':>9}")
    with tempfile.TemporaryDirectory() as folder:
        for size in args.sizes:
            source, rows = write_championship(Path(folder) / f"championnat-{size}.xlsx", size)
            filled = Path(folder) / f"rempli-{size}.xlsx"
            fill = measure("fill", str(source), str(filled))
            floor = measure("floor", str(filled), str(Path(folder) / f"floor-{size}.xlsx"))
            print(f"{size:>9} {rows:>8} {fill['seconds']:>8.2f} {floor['seconds']:>8.2f} "
                  f"{fill['seconds'] / floor['seconds']:>6.2f} {fill['peak_mib']:>9.0f} {floor['peak_mib']:>9.0f}",
                  flush=True)
    largest = max(args.sizes)
    print(f"core alone, {largest} players: {core_seconds(largest):.3f} s")
    from xlcircuit.udfs import CDF_PASTIS

    calls = 20_000
    board = [[9.0], [8.0], [7.0], [5.0], [3.0], [2.0], [0.0]]
    survived = [[None]] * 6 + [[5.0]]
    per_call = timeit.timeit(lambda: CDF_PASTIS(board, survived), number=calls) / calls
    print(f"CDF_PASTIS(7 lines): {per_call * 1e6:.2f} µs per call")


if __name__ == "__main__":
    main()
