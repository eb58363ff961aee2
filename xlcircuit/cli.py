"""The ``xlcircuit`` command: a thin layer over the workbook layer.

Help is in English; what the commands report to organisers is in French.
Exit status: 0 done, 1 a problem with the workbook (reported, nothing written), 2 bad usage.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from . import __version__
from .errors import WorkbookProblems, XlcircuitError
from .mechanics import format_half_up
from .workbook import FEDERATIONS, Book, federation_of, save_atomic

SHOWN = 10  # standings lines printed after a fill


def _say(text: str = "") -> None:
    print(text)


def _warn(warnings: list[str]) -> None:
    for warning in warnings:
        print(f"Attention : {warning}", file=sys.stderr)


def _report(summary, title: str) -> None:
    report = summary.report
    ranked = [s for s in report.standings if s.rank is not None]
    _say(f"{title} : {len(summary.tournaments)} tournois, {len(report.standings)} personnes, "
         f"{len(ranked)} classées.")
    for st in ranked[:SHOWN]:
        _say(f"  {st.rank:>3}. {st.player:<28} {format_half_up(st.season.total, 1):>8}")
    if len(ranked) > SHOWN:
        _say(f"  … et {len(ranked) - SHOWN} autres (feuille « Classement »).")


def cmd_new(args: argparse.Namespace) -> int:
    target = Path(args.file)
    if target.exists() and not args.force:
        raise XlcircuitError(f"{target} existe déjà : choisissez un autre nom ou ajoutez --force pour l'écraser.")
    save_atomic(FEDERATIONS[args.federation].new_workbook(), target)
    _say(f"Classeur créé : {target}. Remplissez les tables « Tournois » et « Résultats », "
         f"puis lancez : xlcircuit fill {target}")
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    book = Book(args.file)
    summary = federation_of(book, args.federation).compute(book)
    _warn(summary.warnings)
    _report(summary, f"{book.path.name} est correct")
    return 0


def cmd_fill(args: argparse.Namespace) -> int:
    book = Book(args.file)
    summary = federation_of(book, args.federation).fill(book)
    target = book.save(args.output)
    _warn(summary.warnings)
    _report(summary, f"Classeur rempli : {target}")
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    folder = Path(args.dir)
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / "tdf-exemple.xlsx"
    module = FEDERATIONS["tdf"]
    wb = module.new_workbook()
    module.put_example(wb)
    save_atomic(wb, target)
    _say(f"Saison d'exemple écrite : {target}")
    book = Book(target)
    summary = module.fill(book)
    book.save()
    _warn(summary.warnings)
    _report(summary, f"Classeur rempli : {target}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="xlcircuit",
        description="Compute French game federations' tournament circuits in Excel workbooks.",
    )
    parser.add_argument("--version", action="version", version=f"xlcircuit {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    new = commands.add_parser("new", help="write a fresh season workbook from a federation's template")
    new.add_argument("federation", choices=sorted(FEDERATIONS), help="the federation: tdf (Tour de France)")
    new.add_argument("file", help="the .xlsx file to write")
    new.add_argument("--force", action="store_true", help="overwrite the file if it exists")
    new.set_defaults(run=cmd_new)

    fill = commands.add_parser("fill", help="compute and write the output tables of a season workbook")
    fill.add_argument("file", help="the season workbook (.xlsx) to fill")
    fill.add_argument("-o", "--output", help="write the filled workbook here instead of replacing FILE")
    fill.add_argument("--federation", choices=sorted(FEDERATIONS),
                      help="the federation, for a workbook not made by 'xlcircuit new'")
    fill.set_defaults(run=cmd_fill)

    check = commands.add_parser("check", help="report every problem of a season workbook; writes nothing")
    check.add_argument("file", help="the season workbook (.xlsx) to check")
    check.add_argument("--federation", choices=sorted(FEDERATIONS),
                       help="the federation, for a workbook not made by 'xlcircuit new'")
    check.set_defaults(run=cmd_check)

    demo = commands.add_parser("demo", help="write the bundled example season and fill it")
    demo.add_argument("dir", nargs="?", default="demo", help="folder to write it to (default: ./demo)")
    demo.set_defaults(run=cmd_demo)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except WorkbookProblems as exc:
        print(str(exc), file=sys.stderr)
        print("Rien n'a été écrit : corrigez ces points, puis relancez.", file=sys.stderr)
        return 1
    except XlcircuitError as exc:
        print(str(exc), file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
