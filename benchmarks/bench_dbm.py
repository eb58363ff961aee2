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
import sys
from pathlib import Path

from xlcircuit.federations import dbm as dbm_book
from xlcircuit.federations.examples import load
from xlcircuit.rules import dbm
from xlcircuit.workbook.write import type_rows
from xlcircuit.xlsx import save_atomic

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the harness beside this script, from any folder
import generate
from harness import add_repeat, fill_table, per_call, timed

PLAYERS_PER_POULE = 24


def write_season(path: Path, poules: int) -> tuple[Path, tuple[int]]:
    """A generated season saved at ``path``, and its count of result lines."""
    joueurs, tournois, resultats = generate.dbm(poules, PLAYERS_PER_POULE)
    wb = dbm_book.new_workbook()
    type_rows(wb, dbm_book.PARAMETRES, [("Saison", "bench"), ("seuil_S", load("dbm").SEUIL_S),
                                        ("seuil_O", load("dbm").SEUIL_O)])
    type_rows(wb, dbm_book.JOUEURS, joueurs)
    type_rows(wb, dbm_book.TOURNOIS, tournois)
    type_rows(wb, dbm_book.RESULTATS, resultats)
    return save_atomic(wb, path), (len(resultats),)


def core_seconds(poules: int) -> float:
    """The pure core on a season: every poule valued in date order, the tables and the classes."""
    joueurs, tournois, resultats = generate.dbm(poules, PLAYERS_PER_POULE)
    entries: dict[str, list[dbm.Entry]] = {}
    for name, player, partner, place, referee in resultats:
        entries.setdefault(name, []).append(dbm.Entry(player, partner, place, referee == "oui"))
    season = [dbm.Tournament(n, d, r, doubles == "oui", tuple(entries[n])) for n, d, r, doubles, _ in tournois]
    classes = {p: dbm.PlayerClass.parse(c) for p, _, c in joueurs}
    clubs = {p: c for p, c, _ in joueurs}
    return timed(lambda: dbm.run_season(season, classes, dbm.Thresholds(load("dbm").SEUIL_S, load("dbm").SEUIL_O),
                                        clubs))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 100, 1000], help="poule counts")
    add_repeat(parser)
    args = parser.parse_args()
    fill_table("dbm", args.sizes, ("poules", "lignes"), write_season, repeat=args.repeat)
    largest = max(args.sizes)
    print(f"core alone, {largest} poules: {core_seconds(largest):.3f} s")
    from xlcircuit.udfs import DBM_POINTS

    seconds = per_call(lambda: DBM_POINTS(154.0, 7.0, 36.0), 100_000)
    print(f"DBM_POINTS(154, 7, 36): {seconds * 1e6:.2f} µs per call")


if __name__ == "__main__":
    main()
