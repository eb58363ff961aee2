"""What the benchmarks share: a fill, a refill and the openpyxl floor timed in fresh processes, the table of sizes.

The fill is ``xlcircuit fill`` (read, check, compute, write, save: the surgical fill, which rewrites only
the output sheets); the refill is the same fill of the filled workbook; the floor is openpyxl alone loading
and saving the filled workbook (what a fill through openpyxl's whole model cannot beat); "full" is the fill
through openpyxl's whole model (the fill before the surgical one, still taken when a workbook needs it).
Each is measured in a fresh process, with its peak memory. A benchmark script imports this file from its
own folder.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import timeit
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from xlcircuit.federations import CODES

_MEASURE = r"""
import json, resource, sys, time
start = time.perf_counter()
if sys.argv[1] in ("fill", "full"):
    from xlcircuit.federations import ADAPTERS
    from xlcircuit.xlsx import Book
    federation = ADAPTERS[sys.argv[4]]
    book = Book(sys.argv[2])
    if sys.argv[1] == "full":
        book.wb  # openpyxl's whole model, loaded before the fill: the full rewrite
    federation.fill(book)
    assert book.surgical == (sys.argv[1] == "fill"), "not the path measured"
    book.save(sys.argv[3])
else:
    import openpyxl
    openpyxl.load_workbook(sys.argv[2]).save(sys.argv[3])
seconds = time.perf_counter() - start
print(json.dumps({"seconds": seconds, "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""

#: The columns after a benchmark's own (its size, its counts of lines).
FIGURES = (f"{'fill s':>8} {'refill s':>8} {'floor s':>8} {'fill/fl':>7} {'refill/fl':>9} {'full s':>8} "
           f"{'fill MiB':>9} {'refill MiB':>10} {'floor MiB':>9} {'full MiB':>9}")


#: The measured processes run as an installed package does, from compiled bytecode (written by a first
#: import if a setting such as PYTHONDONTWRITEBYTECODE kept it from being written): else each run would
#: compile xlcircuit's modules anew, a cost no organiser pays.
_ENVIRONMENT = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
_COMPILED = "import openpyxl, xlcircuit.xlsx, xlcircuit.federations." + ", xlcircuit.federations.".join(CODES)


def measure(*args: str) -> dict:
    """Seconds and peak MiB of a fill (``fill source target federation``, ``full`` for the full rewrite) or of
    the floor (``floor source target``)."""
    subprocess.run([sys.executable, "-c", _COMPILED], check=True, env=_ENVIRONMENT)
    run = subprocess.run([sys.executable, "-c", _MEASURE, *args], capture_output=True, text=True, check=True,
                         env=_ENVIRONMENT)
    return json.loads(run.stdout)


def fill_and_floor(federation: str, source: Path, folder: Path, tag: str, repeat: int = 1) -> dict[str, dict]:
    """The fill of ``source`` by the federation's module, the refill of what it wrote, the openpyxl floor on
    the filled workbook, and the full rewrite of ``source``. With ``repeat``, the fill, refill and floor are
    run that many times, one after the other (a slower spell of the machine weighs on all three), and each
    figure is the median of its runs (the peak memory, the highest)."""
    filled = folder / f"rempli{tag}.xlsx"
    runs: dict[str, list[dict]] = {"fill": [], "refill": [], "floor": []}
    for _ in range(repeat):
        runs["fill"].append(measure("fill", str(source), str(filled), federation))
        runs["refill"].append(measure("fill", str(filled), str(folder / f"rerempli{tag}.xlsx"), federation))
        runs["floor"].append(measure("floor", str(filled), str(folder / f"floor{tag}.xlsx")))
    full = measure("full", str(source), str(folder / f"complet{tag}.xlsx"), federation)
    return {**{kind: _median(measured) for kind, measured in runs.items()}, "full": full}


def _median(runs: list[dict]) -> dict:
    return {"seconds": statistics.median(r["seconds"] for r in runs), "peak_mib": max(r["peak_mib"] for r in runs)}


def figures(run: dict[str, dict]) -> str:
    """The figures of :func:`fill_and_floor`, as the columns of :data:`FIGURES`."""
    fill, refill, floor, full = run["fill"], run["refill"], run["floor"], run["full"]
    return (f"{fill['seconds']:>8.2f} {refill['seconds']:>8.2f} {floor['seconds']:>8.2f} "
            f"{fill['seconds'] / floor['seconds']:>7.2f} {refill['seconds'] / floor['seconds']:>9.2f} "
            f"{full['seconds']:>8.2f} {fill['peak_mib']:>9.0f} {refill['peak_mib']:>10.0f} {floor['peak_mib']:>9.0f} "
            f"{full['peak_mib']:>9.0f}")


def fill_table(federation: str, sizes: Iterable[int], labels: Sequence[str],
               write: Callable[[Path, int], tuple[Path, Sequence[int]]], stem: str = "saison", repeat: int = 1) -> None:
    """For each size, a generated workbook filled: a row of the size, the counts ``write`` gives, then the figures
    (medians of ``repeat`` runs, see :func:`fill_and_floor`).

    ``labels`` head the size and the counts; ``write(path, size)`` saves the workbook and returns its path
    and its counts (lines, players…).
    """
    print(" ".join([f"{labels[0]:>9}"] + [f"{label:>8}" for label in labels[1:]]) + " " + FIGURES)
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        for size in sizes:
            source, counts = write(folder / f"{stem}-{size}.xlsx", size)
            run = fill_and_floor(federation, source, folder, f"-{size}", repeat)
            print(" ".join([f"{size:>9}"] + [f"{count:>8}" for count in counts]) + " " + figures(run), flush=True)


def add_repeat(parser: argparse.ArgumentParser) -> None:
    """The ``--repeat`` option of a benchmark script."""
    parser.add_argument("--repeat", type=int, default=1,
                        help="runs of each fill, refill and floor; their median is shown (default 1)")


def timed(work: Callable[[], object]) -> float:
    """Seconds ``work()`` takes."""
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def per_call(call: Callable[[], object], calls: int) -> float:
    """Seconds one ``call()`` takes, on average over ``calls`` of them."""
    return timeit.timeit(call, number=calls) / calls
