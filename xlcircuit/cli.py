"""The ``xlcircuit`` command: a thin layer over the workbook layer.

Help is in English; what the commands report to organisers is in French.
Exit status: 0 done, 1 a problem with the workbook (reported, nothing written), 2 bad usage.
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from pathlib import Path

from . import __version__
from .excel import lite, reference
from .errors import WorkbookProblems, XlcircuitError
from .workbook import FEDERATIONS, Book, federation_of, save_atomic, share, starter

class Progress:
    """A one-line progress bar on stderr for long fills: only on a terminal, only after ``delay`` seconds.

    Steps are the fill's stages; the bar moves to each stage's share of a typical fill's time and the
    elapsed seconds keep counting, since loading and saving give no progress of their own.
    """

    SHARES = {"lecture": 0.0, "calcul": 0.3, "écriture": 0.4, "enregistrement": 0.6}
    WIDTH = 30

    def __init__(self, stream=sys.stderr, delay: float = 2.0):
        self.stream, self.delay = stream, delay
        self.enabled = stream.isatty()
        self.start = time.monotonic()
        self.step_name = "lecture"
        self._done = threading.Event()
        if self.enabled:
            threading.Thread(target=self._tick, daemon=True).start()

    def step(self, name: str) -> None:
        self.step_name = name

    def _tick(self) -> None:
        while not self._done.wait(0.25):
            elapsed = time.monotonic() - self.start
            if elapsed >= self.delay:
                filled = int(self.WIDTH * self.SHARES.get(self.step_name, 0))
                bar = "#" * filled + "." * (self.WIDTH - filled)
                self.stream.write(f"\r[{bar}] {self.step_name}… {elapsed:.0f} s ")
                self.stream.flush()

    def close(self) -> None:
        self._done.set()
        if self.enabled and time.monotonic() - self.start >= self.delay:
            self.stream.write("\r" + " " * (self.WIDTH + 40) + "\r")
            self.stream.flush()


def _say(text: str = "") -> None:
    print(text)


def _warn(warnings: list[str]) -> None:
    for warning in warnings:
        print(f"Attention : {warning}", file=sys.stderr)


def _report(module, summary, title: str) -> None:
    first, *rest = module.report(summary)
    _say(f"{title} : {first}")
    for line in rest:
        _say(line)


def cmd_new(args: argparse.Namespace) -> int:
    target = Path(args.file)
    if target.exists() and not args.force:
        raise XlcircuitError(f"{target} existe déjà : choisissez un autre nom ou ajoutez --force pour l'écraser.")
    module = FEDERATIONS[args.federation]
    save_atomic(module.new_workbook(), target)
    names = [f"« {spec.sheet} »" for spec in module.INPUTS]
    tables = f"les tables {', '.join(names[:-1])} et {names[-1]}" if len(names) > 1 else f"la table {names[0]}"
    _say(f"Classeur créé : {target}. Remplissez {tables}, puis lancez : xlcircuit fill {target}")
    return 0


def _unkept(book: Book, target: Path | None) -> list[str]:
    """The warning for what openpyxl cannot keep, if the workbook has any."""
    if not book.unkept:
        return []
    what = ", ".join(map(str, book.unkept))
    if target is None:
        fate = "un remplissage les perdrait (l'original serait gardé à part)"
    elif target.resolve() == book.path.resolve():
        fate = f"ils manquent dans le classeur rempli ; l'original est gardé dans « {book.backup.name} »"
    else:
        fate = f"ils manquent dans {target.name} ; {book.path.name} n'est pas modifié"
    return [f"ce classeur contient des éléments qu'openpyxl ne sait pas conserver : {what} ; {fate}."]


def cmd_check(args: argparse.Namespace) -> int:
    book = Book(args.file)
    module = federation_of(book, args.federation)
    summary = module.compute(book)
    _warn(_unkept(book, None) + book.warnings + summary.warnings)
    _report(module, summary, f"{book.path.name} est correct")
    return 0


def cmd_fill(args: argparse.Namespace) -> int:
    progress = Progress()
    try:
        book = Book(args.file)
        module = federation_of(book, args.federation)
        summary = module.fill(book, progress.step)
        progress.step("enregistrement")
        target = book.save(args.output, force=args.force)
    finally:
        progress.close()
    _warn(_unkept(book, target) + book.warnings + summary.warnings)
    _report(module, summary, f"Classeur rempli : {target}")
    return 0


def cmd_share(args: argparse.Namespace) -> int:
    if not (args.clubs or args.pdf or args.csv):
        raise XlcircuitError("Dites quoi partager : --clubs DOSSIER, --pdf DOSSIER ou --csv DOSSIER.")
    book = Book(args.file)
    module = federation_of(book, args.federation)
    if args.clubs:
        written = share.share_clubs(book, module, Path(args.clubs))
        _say(f"{len(written)} classeurs de club écrits dans {args.clubs} :")
        for club, path in written.items():
            _say(f"  {club} : {path.name}")
        _warn(book.warnings)
    if args.csv:
        for path in share.share_csv(book, module, Path(args.csv)):
            _say(f"CSV écrit : {path}")
    if args.pdf:
        _say(f"PDF écrit : {share.share_pdf(book, module, Path(args.pdf))}")
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    folder = Path(args.dir)
    folder.mkdir(parents=True, exist_ok=True)
    for module in FEDERATIONS.values():
        target = folder / module.EXAMPLE
        wb = module.new_workbook()
        module.put_example(wb)
        save_atomic(wb, target)
        book = Book(target)
        summary = module.fill(book)
        book.save()
        _warn(summary.warnings)
        _report(module, summary, f"{module.TITLE}, exemple rempli : {target}")
        _say()
    return 0


def cmd_schedule(args: argparse.Namespace) -> int:
    book = Book(args.file)
    module = federation_of(book, args.federation)
    if module.schedule is None:
        raise XlcircuitError(f"{book.path.name} est un classeur « {module.TITLE} » : il n'a pas de calendrier "
                             "à tirer (seul le championnat TORRES en a un).")
    lines = module.schedule(book, args.seed)
    target = book.save(args.output, force=args.force)
    _warn(_unkept(book, target) + book.warnings)
    _say(f"Calendrier écrit : {target}")
    for line in lines:
        _say(line)
    return 0


# --- xlcircuit excel init|lite|docs ---------------------------------------------------------------


def _refuse_existing(paths: list[Path], force: bool) -> None:
    existing = [str(p) for p in paths if p.exists()]
    if existing and not force:
        raise XlcircuitError(f"{', '.join(existing)} existe déjà : ajoutez --force pour l'écraser.")


def _make_folder(folder: Path) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise XlcircuitError(f"Impossible de créer le dossier {folder} ({error.strerror}).") from None


def cmd_init(args: argparse.Namespace) -> int:
    folder = Path(args.dir)
    target = folder / starter.STARTER
    _refuse_existing([target], args.force)
    workbook = starter.starter_workbook()
    _make_folder(folder)
    save_atomic(workbook, target)
    print(f"Classeur de démarrage écrit : {target}. Ouvrez-le dans Excel, puis onglet xlwings, "
          f"Import Functions (voir le README, « Dans Excel (Windows) »).")
    return 0


def cmd_lite(args: argparse.Namespace) -> int:
    requirements_txt, main_py = lite.requirements(args.published), lite.main(args.published)
    if args.dir is None:
        print("Onglet requirements.txt de xlwings Lite, tout son contenu :")
        print(requirements_txt)
        print("Onglet main.py de xlwings Lite, remplacez tout son contenu par :")
        print(main_py, end="")
        return 0
    folder = Path(args.dir)
    requirements, main = folder / "requirements.txt", folder / "main.py"
    _refuse_existing([requirements, main], args.force)
    _make_folder(folder)
    requirements.write_text(requirements_txt, encoding="utf-8")
    main.write_text(main_py, encoding="utf-8")
    print(f"Écrits : {requirements} et {main}. Copiez-les dans les onglets du même nom de xlwings Lite.")
    return 0


def cmd_formulas(args: argparse.Namespace) -> int:
    from .workbook import formulas  # the native-formulas workbook

    target = Path(args.file)
    _refuse_existing([target], args.force)
    save_atomic(formulas.formulas_workbook(), target)
    print(f"Classeur écrit : {target}. Ses formules sont celles d'Excel et de LibreOffice, sans Python ni "
          "complément : remplacez les exemples par vos données.")
    return 0


def cmd_docs(args: argparse.Namespace) -> int:
    if args.output is None:
        print(reference.reference(), end="")
    else:
        Path(args.output).write_text(reference.reference(), encoding="utf-8")
    return 0


def _add_excel_commands(subparsers) -> None:
    """Add ``xlcircuit excel init|lite|formulas|docs`` to the command line."""
    excel = subparsers.add_parser("excel", help="set up the Excel functions: starter workbook, xlwings Lite, reference")
    commands = excel.add_subparsers(dest="excel_command", required=True, metavar="SUBCOMMAND")

    init = commands.add_parser("init", help=f"write the macro-enabled starter workbook DIR/{starter.STARTER} (Windows Excel)")
    init.add_argument("dir", nargs="?", default=".", help="folder to write it to (default: the current folder)")
    init.add_argument("--force", action="store_true", help="overwrite the workbook if it exists")
    init.set_defaults(run=cmd_init)

    lite_cmd = commands.add_parser("lite", help="print requirements.txt and the self-contained main.py for xlwings Lite")
    lite_cmd.add_argument("--dir", help="write requirements.txt and main.py to this folder instead of printing them")
    lite_cmd.add_argument("--force", action="store_true", help="with --dir: overwrite the files if they exist")
    lite_cmd.add_argument("--published", action="store_true",
                          help="the short form once xlcircuit is published: main.py imports it, requirements.txt names it")
    lite_cmd.set_defaults(run=cmd_lite)

    formulas_cmd = commands.add_parser("formulas", help="write a workbook computing points with native formulas only")
    formulas_cmd.add_argument("file", nargs="?", default="xlcircuit-formules.xlsx",
                              help="the .xlsx file to write (default: xlcircuit-formules.xlsx)")
    formulas_cmd.add_argument("--force", action="store_true", help="overwrite the file if it exists")
    formulas_cmd.set_defaults(run=cmd_formulas)

    docs = commands.add_parser("docs", help="print the function reference (Markdown, French)")
    docs.add_argument("-o", "--output", help="write it to this file (docs/fonctions.md) instead of printing it")
    docs.set_defaults(run=cmd_docs)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="xlcircuit",
        description="Compute French game federations' tournament circuits in Excel workbooks.",
    )
    parser.add_argument("--version", action="version", version=f"xlcircuit {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    new = commands.add_parser("new", help="write a fresh season workbook from a federation's template")
    new.add_argument("federation", choices=sorted(FEDERATIONS), help="the federation's code")
    new.add_argument("file", help="the .xlsx file to write")
    new.add_argument("--force", action="store_true", help="overwrite the file if it exists")
    new.set_defaults(run=cmd_new)

    fill = commands.add_parser("fill", help="compute and write the output tables of a season workbook")
    fill.add_argument("file", help="the season workbook (.xlsx) to fill")
    fill.add_argument("-o", "--output", help="write the filled workbook here instead of replacing FILE")
    fill.add_argument("--federation", choices=sorted(FEDERATIONS),
                      help="the federation, for a workbook not made by 'xlcircuit new'")
    fill.add_argument("--force", action="store_true",
                      help="write even if a spreadsheet program's lock file says FILE is open (a stale lock)")
    fill.set_defaults(run=cmd_fill)

    check = commands.add_parser("check", help="report every problem of a season workbook; writes nothing")
    check.add_argument("file", help="the season workbook (.xlsx) to check")
    check.add_argument("--federation", choices=sorted(FEDERATIONS),
                       help="the federation, for a workbook not made by 'xlcircuit new'")
    check.set_defaults(run=cmd_check)

    share_cmd = commands.add_parser("share", help="pass results on: per-club workbooks, PDF standings, CSV tables")
    share_cmd.add_argument("file", help="the season workbook (.xlsx)")
    share_cmd.add_argument("--clubs", metavar="DIR", help="write one workbook per club into DIR")
    share_cmd.add_argument("--pdf", metavar="DIR", help="write the standings as PDF into DIR (needs LibreOffice)")
    share_cmd.add_argument("--csv", metavar="DIR", help="write each published table as UTF-8 CSV into DIR")
    share_cmd.add_argument("--federation", choices=sorted(FEDERATIONS),
                           help="the federation, for a workbook not made by 'xlcircuit new'")
    share_cmd.set_defaults(run=cmd_share)

    schedule = commands.add_parser("schedule", help="draw the match calendar of every group (TORRES)")
    schedule.add_argument("file", help="the season workbook (.xlsx)")
    schedule.add_argument("--seed", type=int, default=None,
                          help="seed of the draw (default: the season's, so a redraw gives the same calendar)")
    schedule.add_argument("-o", "--output", help="write the workbook here instead of replacing FILE")
    schedule.add_argument("--force", action="store_true",
                          help="write even if a spreadsheet program's lock file says FILE is open (a stale lock)")
    schedule.add_argument("--federation", choices=sorted(FEDERATIONS),
                          help="the federation, for a workbook not made by 'xlcircuit new'")
    schedule.set_defaults(run=cmd_schedule)

    demo = commands.add_parser("demo", help="write each federation's bundled example and fill it")
    demo.add_argument("dir", nargs="?", default="demo", help="folder to write it to (default: ./demo)")
    demo.set_defaults(run=cmd_demo)
    _add_excel_commands(commands)
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
    except KeyboardInterrupt:  # Ctrl-C: saves are atomic, so nothing is half-written
        print("Interrompu (Ctrl-C) : aucun classeur n'est resté à moitié écrit.", file=sys.stderr)
        return 130
    except BrokenPipeError:  # output piped into a command that stopped reading (| head)
        sys.stderr.close()
        return 0
    except OSError as exc:  # a folder that is a file, a full disk...: one sentence, not a traceback
        print(f"Impossible de lire ou d'écrire {exc.filename or ''} ({exc.strerror or exc}).", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
