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
import sys
from pathlib import Path

from xlcircuit.federations import tdf as tdf_book
from xlcircuit.rules import tdf
from xlcircuit.workbook.write import type_rows
from xlcircuit.xlsx import save_atomic

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the harness beside this script, from any folder
import generate
from harness import add_repeat, fill_table, per_call, timed

PLAYERS_PER_TOURNAMENT = 60


def write_season(path: Path, tournaments: int) -> tuple[Path, tuple[int]]:
    """A generated season saved at ``path``, and its count of lines (a tournament's and its results)."""
    tournois, resultats = generate.tdf(tournaments, PLAYERS_PER_TOURNAMENT)
    wb = tdf_book.new_workbook()
    type_rows(wb, tdf_book.TOURNOIS, tournois)
    type_rows(wb, tdf_book.RESULTATS, resultats)
    return save_atomic(wb, path), (tournaments * (PLAYERS_PER_TOURNAMENT + 1),)


def core_seconds(tournaments: int) -> float:
    """The pure core on a season: scoring every tournament and weighting every season."""
    tournois, resultats = generate.tdf(tournaments, PLAYERS_PER_TOURNAMENT)
    lines: dict[str, list[tdf.Line]] = {}
    for name, player, place, role, _ in resultats:
        lines.setdefault(name, []).append(tdf.Line(player, place, tdf.Role.parse(role)))
    season = [tdf.Tournament(n, tdf.Kind.parse(k), False, tuple(lines[n])) for n, _, k, _ in tournois]
    return timed(lambda: tdf.run_season(season))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 100, 1000], help="tournament counts")
    add_repeat(parser)
    args = parser.parse_args()
    fill_table("tdf", args.sizes, ("tournois", "lignes"), write_season, repeat=args.repeat)
    largest = max(args.sizes)
    print(f"core alone, {largest} tournaments: {core_seconds(largest):.3f} s")
    from xlcircuit.udfs import TDF_POINTS

    seconds = per_call(lambda: TDF_POINTS(7.0, 21.0), 100_000)
    print(f"TDF_POINTS(7, 21): {seconds * 1e6:.2f} µs per call")


if __name__ == "__main__":
    main()
