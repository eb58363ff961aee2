"""Benchmark of the Championnat de France batch mode on generated championships of growing size.

For each size it prints: the fill time (``xlcircuit fill``: load, check, compute, write, save),
the openpyxl floor (openpyxl alone loading and saving the same filled workbook: no filler can
beat it), their ratio, and the peak memory of each, measured in a fresh process. It also times
the pure core on the largest championship and one ``PASTIS`` call.

    python benchmarks/bench_cdf.py                 # 35, 350 and 3,500 players, four rounds, every ballot
    python benchmarks/bench_cdf.py --sizes 35 350  # a quicker run
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

from xlcircuit.federations import cdf as cdf_book
from xlcircuit.rules import cdf
from xlcircuit.workbook.write import type_rows
from xlcircuit.xlsx import save_atomic

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the harness beside this script, from any folder
import generate
from harness import add_repeat, fill_table, per_call, timed


def write_championship(path: Path, players: int) -> tuple[Path, tuple[int]]:
    """A generated championship saved at ``path``, and its count of lines (games and ballots)."""
    joueurs, parties, votes, preferes = generate.cdf(players)
    wb = cdf_book.new_workbook()
    type_rows(wb, cdf_book.JOUEURS, joueurs)
    type_rows(wb, cdf_book.PARTIES, parties)
    type_rows(wb, cdf_book.VOTES, votes)
    type_rows(wb, cdf_book.PREFERES, preferes)
    return save_atomic(wb, path), (len(parties) + len(votes),)


def core_seconds(players: int) -> float:
    """The pure core on a championship: every board, the top board, the rankings and awards."""
    joueurs, parties, votes, preferes = generate.cdf(players)
    people = {j[0]: cdf.Player(j[0], j[3], j[4] == "oui", j[2]) for j in joueurs}
    seats = defaultdict(list)
    for ronde, table, player, power, centres, survived, _, choice in parties:
        seats[(ronde, str(table))].append(cdf.Seat(player, centres, survived, cdf.Power.parse(power), choice))
    boards = [cdf.Board(r, t, tuple(s)) for (r, t), s in seats.items()]
    ballots = [cdf.Vote(r, str(t), v, cdf.Category.parse(c), a, b, cdf.parse_ballot(x)) for r, t, v, c, a, b, x in votes]
    return timed(lambda: cdf.run_championship(people, boards, ballots, preferes))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[35, 350, 3500], help="player counts")
    add_repeat(parser)
    args = parser.parse_args()
    fill_table("cdf", args.sizes, ("joueurs", "lignes"), write_championship, stem="championnat", repeat=args.repeat)
    largest = max(args.sizes)
    print(f"core alone, {largest} players: {core_seconds(largest):.3f} s")
    from xlcircuit.udfs import PASTIS

    board = [[9.0], [8.0], [7.0], [5.0], [3.0], [2.0], [0.0]]
    survived = [[None]] * 6 + [[5.0]]
    seconds = per_call(lambda: PASTIS(board, survived), 20_000)
    print(f"PASTIS(7 lines): {seconds * 1e6:.2f} µs per call")


if __name__ == "__main__":
    main()
