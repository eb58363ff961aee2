"""Benchmark of the ranked Elo on generated histories of growing size.

It times the pure core (``elo.run_history``: every game in date order, each from the ratings
before it) on histories of 1,000, 10,000 and 100,000 games of 2 to 8 players; then the fill of a
large history (``xlcircuit fill``: load, check, compute, write, save, in a fresh process) against
the openpyxl floor (openpyxl alone loading and saving the same filled workbook), with their peak
memory; and one ``ELO_CHANGE`` call on a table of eight.

    python benchmarks/bench_elo.py                                  # core 1k, 10k, 100k; fill 10k games
    python benchmarks/bench_elo.py --core 1000 10000 --fill 1000    # a quicker run
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from xlcircuit.federations import elo as elo_book
from xlcircuit.rules import elo
from xlcircuit.workbook.write import type_rows
from xlcircuit.xlsx import save_atomic

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the harness beside this script, from any folder
import generate
from harness import add_repeat, fill_and_floor, per_call, timed

PLAYERS = 500


def games_of(rows: list[tuple]) -> list[elo.Game]:
    """The generated rows (Date, Partie, Joueur, Total) as the core's games."""
    seats: dict[int, tuple] = {}
    for date, number, player, total in rows:
        seats.setdefault(number, (date, [], []))
        seats[number][1].append(player)
        seats[number][2].append(total)
    return [elo.Game(str(n), d, tuple(p), tuple(t)) for n, (d, p, t) in seats.items()]


def core_seconds(games: int) -> tuple[int, float]:
    """Lines and seconds of the pure core on a generated history."""
    rows = generate.elo(games, PLAYERS)
    history = games_of(rows)
    return len(rows), timed(lambda: elo.run_history(history))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--core", type=int, nargs="+", default=[1000, 10_000, 100_000], help="games, core alone")
    parser.add_argument("--fill", type=int, default=10_000, help="games of the filled workbook")
    add_repeat(parser)
    args = parser.parse_args()
    print(f"{'parties':>9} {'lignes':>8} {'cœur s':>8} {'µs/partie':>10}")
    for size in args.core:
        lines, seconds = core_seconds(size)
        print(f"{size:>9} {lines:>8} {seconds:>8.3f} {seconds / size * 1e6:>10.1f}", flush=True)
    with tempfile.TemporaryDirectory() as folder:
        rows = generate.elo(args.fill, PLAYERS)
        wb = elo_book.new_workbook()
        type_rows(wb, elo_book.PARTIES, rows)
        source = save_atomic(wb, Path(folder) / "elo.xlsx")
        run = fill_and_floor("elo", source, Path(folder), "", args.repeat)
        fill, refill, floor, full = run["fill"], run["refill"], run["floor"], run["full"]
        print(f"fill, {args.fill} parties ({len(rows)} lignes): {fill['seconds']:.2f} s, {fill['peak_mib']:.0f} MiB; "
              f"refill {refill['seconds']:.2f} s, {refill['peak_mib']:.0f} MiB; "
              f"openpyxl floor {floor['seconds']:.2f} s, {floor['peak_mib']:.0f} MiB; "
              f"ratios {fill['seconds'] / floor['seconds']:.2f} / {refill['seconds'] / floor['seconds']:.2f}; "
              f"full rewrite {full['seconds']:.2f} s, {full['peak_mib']:.0f} MiB")
    from xlcircuit.udfs import ELO_CHANGE

    ratings = [[float(r)] for r in (1500, 1400, 1300, 1200, 1100, 1000, 900, 800)]
    totals = [[float(t)] for t in range(8)]
    seconds = per_call(lambda: ELO_CHANGE(ratings, totals, [[40.0]]), 10_000)
    print(f"ELO_CHANGE (table de 8) : {seconds * 1e6:.2f} µs par appel")


if __name__ == "__main__":
    main()
