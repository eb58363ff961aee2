"""Benchmark of the TORRES batch mode on generated seasons of growing size.

For each size (a number of full divisions of groups of ten, every match played) it prints: the fill
time (``xlcircuit fill``: load, check, compute, write, save), the openpyxl floor (openpyxl alone loading
and saving the same filled workbook), their ratio, and the peak memory of each, measured in a fresh
process. It also times the pure core on the largest season and one ``TORRES_VP`` call.

    python benchmarks/bench_torres.py                # 3, 5 and 7 divisions (70, 310, 1,270 players)
    python benchmarks/bench_torres.py --sizes 3 5    # a quicker run
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from pathlib import Path

from xlcircuit.federations import torres as torres_book
from xlcircuit.rules import torres
from xlcircuit.workbook.write import type_rows
from xlcircuit.xlsx import save_atomic

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the harness beside this script, from any folder
import generate
from harness import add_repeat, fill_table, per_call


def write_season(path: Path, divisions: int) -> tuple[Path, tuple[int, int]]:
    """A generated season saved at ``path``, and its counts of players and of match lines."""
    joueurs, matchs = generate.torres(divisions)
    wb = torres_book.new_workbook()
    type_rows(wb, torres_book.JOUEURS, [row + (None,) for row in joueurs])
    type_rows(wb, torres_book.MATCHS, matchs)
    return save_atomic(wb, path), (len(joueurs), len(matchs))


def core_seconds(divisions: int) -> float:
    """The pure core on a season: every match, every group's standings, next season's groups."""
    joueurs, matchs = generate.torres(divisions)
    players = [torres.Player(n, e, d, g, torres.Status.parse(s)) for n, e, d, g, s in joueurs]
    seats: dict[tuple, list[torres.Seat]] = defaultdict(list)
    for d, g, m, name, points, _ in matchs:
        seats[d, g, m].append(torres.Seat(name, points))
    start = time.perf_counter()
    groups: dict[tuple, list] = defaultdict(list)
    for p in players:
        if p.group is not None:
            groups[p.division, p.group].append(p)
    by_group: dict[tuple, list] = defaultdict(list)
    for (d, g, _), match in seats.items():
        by_group[d, g].append(match)
    standings = {key: torres.group_standings(members, by_group[key]) for key, members in groups.items()}
    torres.next_season(standings, [p for p in players if p.group is None], seed=1)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[3, 5, 7], help="division counts")
    add_repeat(parser)
    args = parser.parse_args()
    fill_table("torres", args.sizes, ("divisions", "joueurs", "lignes"), write_season, repeat=args.repeat)
    largest = max(args.sizes)
    print(f"core alone, {largest} divisions: {core_seconds(largest):.3f} s")
    from xlcircuit.udfs import TORRES_VP

    points = [[115.0], [130.0], [123.0], [110.0]]
    seconds = per_call(lambda: TORRES_VP(points), 20_000)
    print(f"TORRES_VP(4 joueurs): {seconds * 1e6:.2f} µs per call")


if __name__ == "__main__":
    main()
