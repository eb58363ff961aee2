"""Benchmark of ``xlcircuit import``: a folder of tournament rankings, each in a club's own layout, brought into
a fresh Tour de France season.

For each size it writes a folder of that many tournaments (one workbook each: a title, the date above the
table, « Clt | NOM | Prénom | Club | Pts », ties written « 3 ex »; and the same rankings as CSV files, as
tournament software exports them: « ; », Windows-1252), then measures, each in a fresh process from compiled
bytecode: the import into an empty season (read every source, recognise, match names, write the input
tables, save), the same import again (every line replaced by its source's), and ``--essai`` (nothing
written). Each figure is the median of ``--repeat`` runs (wall-clock seconds, and the import's processor
seconds, which a busy machine inflates less); memory is the highest peak.

    python benchmarks/bench_import.py                 # 10 and 100 tournaments of 60 players
    python benchmarks/bench_import.py --sizes 100 --repeat 3
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

import openpyxl

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the harness beside this script, from any folder
import generate
from harness import _ENVIRONMENT, add_repeat

PLAYERS_PER_TOURNAMENT = 60

_MEASURE = r"""
import json, resource, sys, time
start = time.perf_counter()
from pathlib import Path
from xlcircuit.app.importing import import_results
outcome = import_results(Path(sys.argv[1]), [Path(sys.argv[2])], trial=sys.argv[3] == "essai")
assert not outcome.failed, outcome.problems[:3] or outcome.error
seconds = time.perf_counter() - start
usage = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({"seconds": seconds, "cpu": usage.ru_utime + usage.ru_stime, "peak_mib": usage.ru_maxrss / 1024}))
"""
_COMPILED = "import openpyxl, defusedxml, xlcircuit.app.importing, xlcircuit.federations.tdf"


def write_folder(folder: Path, tournaments: int, kind: str) -> int:
    """``tournaments`` rankings in ``folder``, one file each (``xlsx`` or ``csv``); returns their lines."""
    tournois, resultats = generate.tdf(tournaments, PLAYERS_PER_TOURNAMENT)
    folder.mkdir(parents=True, exist_ok=True)
    by_name: dict[str, list[tuple]] = {}
    for name, player, place, role, _ in resultats:
        if role is None:
            by_name.setdefault(name, []).append((player, place))
    previous = None
    for name, date, _, _ in tournois:
        rows = []
        for index, (player, place) in enumerate(by_name[name]):
            tied = index and place == previous
            previous = place
            number = player.split()[-1]
            rows.append([f"{place} ex" if tied else place, f"JOUEUR{number}", f"Prénom{number}",
                         generate.DBM_CLUBS[int(number) % len(generate.DBM_CLUBS)], 100 - index])
        if kind == "xlsx":
            wb = openpyxl.Workbook()
            ws = wb.active
            ws.title = name
            ws.append([f"{name} — classement final"])
            ws.append(["Date :", date])
            ws.append([])
            ws.append(["Clt", "NOM", "Prénom", "Club", "Pts"])
            for row in rows:
                ws.append(row)
            wb.save(folder / f"{name}.xlsx")
        else:
            text = "Rang;Nom;Prénom;Club;Points\r\n" + "".join(";".join(str(v) for v in row) + "\r\n" for row in rows)
            (folder / f"{name}.csv").write_bytes(text.encode("cp1252"))
    return sum(len(rows) for rows in by_name.values())


def measure(season: Path, folder: Path, mode: str) -> dict:
    subprocess.run([sys.executable, "-c", _COMPILED], check=True, env=_ENVIRONMENT)
    run = subprocess.run([sys.executable, "-c", _MEASURE, str(season), str(folder), mode], capture_output=True,
                         text=True, check=True, env=_ENVIRONMENT)
    return json.loads(run.stdout)


def median(runs: list[dict]) -> dict:
    return {"seconds": statistics.median(r["seconds"] for r in runs), "cpu": statistics.median(r["cpu"] for r in runs),
            "peak_mib": max(r["peak_mib"] for r in runs)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 100], help="tournament counts")
    add_repeat(parser)
    args = parser.parse_args()
    from xlcircuit.federations import tdf as tdf_book
    from xlcircuit.xlsx import save_atomic

    print(f"{'tournois':>9} {'format':>6} {'lignes':>7} {'import s':>9} {'réimport s':>10} {'essai s':>8} "
          f"{'import cpu':>10} {'import MiB':>10} {'réimport MiB':>12} {'essai MiB':>9}")
    with tempfile.TemporaryDirectory() as temporary:
        work = Path(temporary)
        for size in args.sizes:
            for kind in ("xlsx", "csv"):
                folder = work / f"{kind}-{size}"
                lines = write_folder(folder, size, kind)
                empty = save_atomic(tdf_book.new_workbook(), work / "vide.xlsx")
                runs: dict[str, list[dict]] = {"import": [], "again": [], "essai": []}
                for _ in range(args.repeat):
                    season = work / "saison.xlsx"
                    shutil.copy(empty, season)
                    runs["essai"].append(measure(season, folder, "essai"))
                    runs["import"].append(measure(season, folder, "import"))
                    runs["again"].append(measure(season, folder, "import"))
                got = {k: median(v) for k, v in runs.items()}
                print(f"{size:>9} {kind:>6} {lines:>7} {got['import']['seconds']:>9.2f} {got['again']['seconds']:>10.2f} "
                      f"{got['essai']['seconds']:>8.2f} {got['import']['cpu']:>10.2f} {got['import']['peak_mib']:>10.0f} "
                      f"{got['again']['peak_mib']:>12.0f} {got['essai']['peak_mib']:>9.0f}", flush=True)


if __name__ == "__main__":
    main()
