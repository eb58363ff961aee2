"""The ``xlcircuit`` command: a thin layer over the workbook layer.

It speaks French to organisers: help, usage errors (argparse's own messages included, see
:class:`FrenchParser`) and reports. Exit status: 0 done, 1 a problem with the workbook (reported, nothing
written), 2 bad usage.

Adding a command: write ``cmd_NAME(args) -> int`` and an ``add_NAME(commands)`` that calls
:func:`command` (and the shared :func:`workbook_argument`, :func:`federation_option`…), then list it in
``COMMANDS``.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import os
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any, ClassVar, NoReturn

from . import __version__
from .errors import WorkbookProblems, XlcircuitError
from .excel import lite, reference
from .federations import federation as find_federation
from .workbook import FEDERATIONS, Book, FederationWorkbook, explain, federation_of, save_atomic, share, starter
from .workbook.tables import Problems, read_table


class Progress:
    """A one-line progress bar on stderr for long fills: only on a terminal, only after ``delay`` seconds.

    Steps are the fill's stages; the bar moves to each stage's share of a typical fill's time and the
    elapsed seconds keep counting, since loading and saving give no progress of their own.
    """

    SHARES: ClassVar[dict[str, float]] = {"lecture": 0.0, "calcul": 0.3, "écriture": 0.4, "enregistrement": 0.6}
    WIDTH = 30

    def __init__(self, stream: IO[str] = sys.stderr, delay: float = 2.0):
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
    """What the organiser should look at, after the summary, under its own heading (on stderr)."""
    sys.stdout.flush()  # the summary first, even when both streams go to one file
    if warnings:
        print(f"\nÀ vérifier ({len(warnings)}) :", file=sys.stderr)
    for warning in warnings:
        print(f"  - {warning}", file=sys.stderr)


def _hint(text: str | None) -> None:
    if text:
        _say(text)


def _report(module: FederationWorkbook, summary: Any, title: str) -> None:
    first, *rest = module.report(summary)
    _say(f"{title} : {first}")
    for line in rest:
        _say(line)


def _workbook_name(text: str) -> Path:
    """The file ``new`` writes: ``.xlsx`` added to a name without extension, any other extension refused."""
    target = Path(text)
    if target.suffix == "":
        return target.with_name(target.name + ".xlsx")
    if target.suffix.lower() != ".xlsx":
        raise UsageError(f"{target.name} : un classeur xlcircuit est un fichier .xlsx ; "
                         f"choisissez un nom en .xlsx (par exemple {target.stem}.xlsx).")
    return target


def cmd_new(args: argparse.Namespace) -> int:
    target = _workbook_name(args.file)
    if target.exists() and not args.force:
        raise XlcircuitError(f"{target} existe déjà : choisissez un autre nom ou ajoutez --force pour l'écraser.")
    module = FEDERATIONS[args.federation]
    save_atomic(module.new_workbook(), target)
    names = [f"« {spec.sheet} »" for spec in module.INPUTS]
    tables = f"les tables {', '.join(names[:-1])} et {names[-1]}" if len(names) > 1 else f"la table {names[0]}"
    _say(f"Classeur créé : {target}. Remplissez {tables}, puis lancez : xlcircuit fill {target}")
    return 0


def unkept_warnings(book: Book, target: Path | None) -> list[str]:
    """The warning for what openpyxl cannot keep, if the workbook has any (``target``: where it was saved)."""
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


_unkept = unkept_warnings  # its former name


def empty_hint(book: Book, module: FederationWorkbook) -> str | None:
    """What to do when the input tables have no row yet (a fill then publishes empty tables)."""
    empty = [spec for spec in module.INPUTS if spec.required and not read_table(book, spec, Problems())]
    if not empty:
        return None
    names = [f"« {spec.sheet} »" for spec in empty]
    which = (f"les tables {', '.join(names[:-1])} et {names[-1]} sont vides" if len(names) > 1
             else f"la table {names[0]} est vide")
    front: str = book.wb.worksheets[0].title
    return (f"Rien à classer : {which}. Ouvrez {book.path.name} dans Excel ou LibreOffice, tapez-y vos "
            f"lignes (la feuille « {front} » l'explique), enregistrez, puis relancez.")


def cmd_check(args: argparse.Namespace) -> int:
    book = Book(args.file)
    module = federation_of(book, args.federation)
    summary = module.compute(book)
    warnings = unkept_warnings(book, None) + book.warnings + summary.warnings
    verdict = (f"{book.path.name} est correct, avec {len(warnings)} point{'s' if len(warnings) > 1 else ''} "
               "à vérifier (ci-dessous)" if warnings else f"{book.path.name} est correct")
    _report(module, summary, verdict)
    _hint(empty_hint(book, module))
    _warn(warnings)
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
    _report(module, summary, f"Classeur rempli : {target}")
    _hint(empty_hint(book, module))
    _warn(unkept_warnings(book, target) + book.warnings + book.notes + summary.warnings)
    return 0


def cmd_share(args: argparse.Namespace) -> int:
    if not (args.clubs or args.pdf or args.csv):
        raise UsageError("dites quoi partager : --clubs DOSSIER, --pdf DOSSIER ou --csv DOSSIER "
                         "(par exemple : xlcircuit share saison.xlsx --pdf partage).")
    book = Book(args.file)
    module: Any = federation_of(book, args.federation)  # the share functions take the module itself
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


def _typed_sheets(path: Path, output_sheets: set[str]) -> tuple[list[str], list[tuple[Any, ...]]]:
    """What an organiser may have changed in a workbook: its sheet names and every value of the sheets
    a fill does not rewrite."""
    wb = Book(path).wb
    values = [tuple(ws.iter_rows(values_only=True)) for ws in wb.worksheets if ws.title not in output_sheets]
    return wb.sheetnames, values


def _edited(target: Path, fresh: Path, output_sheets: set[str]) -> bool:
    """Whether ``target`` differs from the freshly made example ``fresh`` elsewhere than in what a fill writes."""
    try:
        return _typed_sheets(target, output_sheets) != _typed_sheets(fresh, output_sheets)
    except XlcircuitError:  # not a workbook any more: something else took its name
        return True


def cmd_demo(args: argparse.Namespace) -> int:
    folder = Path(args.dir)
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".xlcircuit-demo-", dir=folder) as scratch:
        made = []
        for module in FEDERATIONS.values():
            fresh = Path(scratch) / module.EXAMPLE
            wb = module.new_workbook()
            module.put_example(wb)
            save_atomic(wb, fresh)
            book = Book(fresh)
            summary = module.fill(book)
            book.save()
            made.append((module, summary, fresh, folder / module.EXAMPLE))
        edited = [target for module, summary, fresh, target in made if target.exists()
                  and _edited(target, fresh, {output.spec.sheet for output in module.outputs(summary)})]
        if edited and not args.force:
            names = ", ".join(str(target) for target in edited)
            raise XlcircuitError(f"{names} : modifié depuis la démonstration ; rien n'a été écrit. Ajoutez --force "
                                 "pour l'écraser, ou donnez un autre dossier (xlcircuit demo AUTRE_DOSSIER).")
        for module, summary, fresh, target in made:
            os.replace(fresh, target)
            _report(module, summary, f"{module.TITLE}, exemple rempli : {target}")
            _warn(summary.warnings)
            _say()
    return 0


def cmd_explain(args: argparse.Namespace) -> int:
    book = Book(args.file)
    module = federation_of(book, args.federation)
    lines = explain.explain(module, module.compute(book), args.player)
    if args.output:
        _say(f"Explication écrite : {explain.write_explanation(lines, Path(args.output))}")
    else:
        for line in lines:
            _say(line)
    return 0


def cmd_schedule(args: argparse.Namespace) -> int:
    book = Book(args.file)
    module = federation_of(book, args.federation)
    if module.schedule is None:
        raise XlcircuitError(f"{book.path.name} est un classeur « {module.TITLE} » : il n'a pas de calendrier "
                             "à tirer (seul le championnat TORRES en a un).")
    lines = module.schedule(book, args.seed)
    target = book.save(args.output, force=args.force)
    _warn(unkept_warnings(book, target) + book.warnings)
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


# --- the parser, in French ------------------------------------------------------------------------

#: argparse's own messages (its gettext message ids), in French. Python ships no translation of them.
FRENCH = {
    "usage: ": "utilisation : ",
    "positional arguments": "arguments",
    "options": "options",
    "optional arguments": "options",
    "show this help message and exit": "affiche cette aide, puis s'arrête",
    "argument %(argument_name)s: %(message)s": "%(argument_name)s : %(message)s",
    "%(prog)s: error: %(message)s\n": "%(prog)s : erreur : %(message)s\n",
    "the following arguments are required: %s": "il manque : %s",
    "unrecognized arguments: %s": "je ne comprends pas : %s",
    "expected one argument": "une valeur est attendue après l'option",
    "expected at most one argument": "une valeur au plus est attendue",
    "expected at least one argument": "une valeur au moins est attendue",
    "expected %s argument": "%s valeur est attendue",
    "expected %s arguments": "%s valeurs sont attendues",
    "ambiguous option: %(option)s could match %(matches)s":
        "option ambiguë : %(option)s peut être %(matches)s",
    "not allowed with argument %s": "impossible avec %s",
    "ignored explicit argument %r": "valeur en trop : %r",
    "one of the arguments %s is required": "l'une de ces options est attendue : %s",
    "invalid %(type)s value: %(value)r": "valeur invalide (%(type)s) : %(value)r",
    "invalid choice: %(value)r (choose from %(choices)s)": "choix invalide : %(value)r (choix : %(choices)s)",
    "unexpected option string: %s": "option inattendue : %s",
    "can't open '%(filename)s': %(error)s": "impossible d'ouvrir « %(filename)s » : %(error)s",
    "show program's version number and exit": "affiche la version de xlcircuit, puis s'arrête",
    "%(heading)s:": "%(heading)s :",
}


def _french(message: str) -> str:
    return FRENCH.get(message, message)


def _french_plural(singular: str, plural: str, n: int) -> str:
    return _french(singular if n == 1 else plural)


@contextlib.contextmanager
def _in_french() -> Iterator[None]:
    """argparse's messages in French while the parser builds, formats or parses (argparse looks its
    translation function up at each call, as a module global)."""
    module = vars(argparse)
    saved = module["_"], module["ngettext"]
    module["_"], module["ngettext"] = _french, _french_plural
    try:
        yield
    finally:
        module["_"], module["ngettext"] = saved


class UsageError(XlcircuitError):
    """A command used wrongly in a way argparse cannot see (``share`` without anything to share): exit 2."""


class FrenchHelpFormatter(argparse.HelpFormatter):
    def add_usage(self, usage: Any, actions: Any, groups: Any, prefix: str | None = None) -> None:
        super().add_usage(usage, actions, groups, "utilisation : " if prefix is None else prefix)

    def start_section(self, heading: str | None) -> None:
        # argparse adds a colon to each heading; French puts a space before it
        super().start_section(f"{heading} " if heading else heading)


class FrenchParser(argparse.ArgumentParser):
    """An argument parser that speaks French: its help, its errors, and « vouliez-vous dire … ? »."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", FrenchHelpFormatter)
        with _in_french():
            super().__init__(*args, **kwargs)

    def parse_args(self, args: Any = None, namespace: Any = None) -> Any:
        with _in_french():
            return super().parse_args(args, namespace)

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        with _in_french():
            return super().parse_known_args(args, namespace)

    def format_help(self) -> str:
        with _in_french():
            return super().format_help()

    def format_usage(self) -> str:
        with _in_french():
            return super().format_usage()

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        if action.choices is None or value in action.choices:
            return
        choices = [str(choice) for choice in action.choices]
        close = difflib.get_close_matches(str(value), choices, n=1, cutoff=0.6)
        guess = f" ; vouliez-vous dire {close[0]} ?" if close else ""
        raise argparse.ArgumentError(action, f"« {value} » n'existe pas{guess} (possibles : {', '.join(choices)})")

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog} : erreur : {message}\nAide : {self.prog} --help\n")


def federation_code(text: str) -> str:
    """A federation code as typed, in any case (``TDF`` is ``tdf``); an unknown one is left for the choices
    check, which names the known ones."""
    try:
        return find_federation(text).code
    except KeyError:
        return text


def seed_number(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"un nombre entier est attendu ; trouvé « {text} »") from None


#: What ``add_subparsers`` returns: subcommands are added to it.
Subcommands = Any


def command(commands: Subcommands, name: str, run: Callable[[argparse.Namespace], int] | None, help: str,
            description: str | None = None) -> argparse.ArgumentParser:
    """Add the subcommand ``name`` running ``run(args) -> exit status``; returns its parser for its arguments."""
    parser: argparse.ArgumentParser = commands.add_parser(
        name, help=help, description=description or help[:1].upper() + help[1:] + ".")
    parser.set_defaults(run=run, parser=parser)
    return parser


def workbook_argument(parser: argparse.ArgumentParser, what: str = "le classeur (.xlsx)") -> None:
    parser.add_argument("file", metavar="FICHIER", help=what)


def federation_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--federation", metavar="FÉDÉRATION", type=federation_code, choices=list(FEDERATIONS),
                        help=f"la fédération ({', '.join(FEDERATIONS)}), pour un classeur qui n'a pas été "
                             "créé par « xlcircuit new »")


def output_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-o", "--output", metavar="SORTIE",
                        help="écrire le classeur dans ce fichier au lieu de remplacer FICHIER")


def add_new(commands: Subcommands) -> None:
    new = command(commands, "new", cmd_new, "crée un classeur de saison neuf, à partir du modèle d'une fédération")
    new.add_argument("federation", metavar="FÉDÉRATION", type=federation_code, choices=list(FEDERATIONS),
                     help=f"le code de la fédération : {', '.join(FEDERATIONS)} (majuscules ou minuscules)")
    new.add_argument("file", metavar="FICHIER", help="le classeur à écrire (.xlsx ajouté s'il manque)")
    new.add_argument("--force", action="store_true", help="écraser le fichier s'il existe")


def force_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--force", action="store_true",
                        help="écrire même si le fichier verrou d'Excel ou de LibreOffice dit FICHIER ouvert "
                             "(un verrou resté après une panne)")


def add_fill(commands: Subcommands) -> None:
    fill = command(commands, "fill", cmd_fill, "calcule et écrit les points et classements d'un classeur")
    workbook_argument(fill, "le classeur (.xlsx) à remplir")
    output_option(fill)
    federation_option(fill)
    force_option(fill)


def add_check(commands: Subcommands) -> None:
    check = command(commands, "check", cmd_check, "vérifie un classeur et signale tous ses problèmes ; n'écrit rien")
    workbook_argument(check, "le classeur (.xlsx) à vérifier")
    federation_option(check)


def add_share(commands: Subcommands) -> None:
    share_cmd = command(commands, "share", cmd_share,
                        "partage les résultats : un classeur par club, le classement en PDF, les tables en CSV")
    workbook_argument(share_cmd)
    share_cmd.add_argument("--clubs", metavar="DOSSIER", help="écrire un classeur par club dans DOSSIER")
    share_cmd.add_argument("--pdf", metavar="DOSSIER", help="écrire le classement en PDF dans DOSSIER "
                                                            "(il faut LibreOffice)")
    share_cmd.add_argument("--csv", metavar="DOSSIER", help="écrire chaque table publiée en CSV dans DOSSIER, "
                                                            "pour Excel en français (« ; », virgule décimale)")
    federation_option(share_cmd)


def add_explain(commands: Subcommands) -> None:
    explain_cmd = command(commands, "explain", cmd_explain,
                          "explique les points d'un joueur, résultat par résultat, jusqu'à son total")
    workbook_argument(explain_cmd)
    explain_cmd.add_argument("player", metavar="NOM",
                             help="le nom du joueur, comme dans les résultats (majuscules et accents facultatifs)")
    explain_cmd.add_argument("-o", "--output", metavar="SORTIE",
                             help="l'écrire dans ce fichier au lieu de l'afficher : .xlsx (une feuille), .pdf, "
                                  "ou texte")
    federation_option(explain_cmd)


def add_schedule(commands: Subcommands) -> None:
    schedule = command(commands, "schedule", cmd_schedule, "tire le calendrier des matchs de chaque groupe (TORRES)")
    workbook_argument(schedule)
    schedule.add_argument("--seed", metavar="GRAINE", type=seed_number, default=None,
                          help="graine du tirage (par défaut celle de la saison : un nouveau tirage donne le "
                               "même calendrier)")
    output_option(schedule)
    federation_option(schedule)
    force_option(schedule)


def add_demo(commands: Subcommands) -> None:
    demo = command(commands, "demo", cmd_demo, "écrit et remplit l'exemple fourni de chaque fédération")
    demo.add_argument("dir", metavar="DOSSIER", nargs="?", default="demo",
                      help="le dossier où les écrire (par défaut : ./demo)")
    demo.add_argument("--force", action="store_true", help="écraser un exemple que vous avez modifié")


def add_excel(commands: Subcommands) -> None:
    """``xlcircuit excel init|lite|formulas|docs``."""
    excel = command(commands, "excel", None, "prépare les fonctions Excel : classeur de démarrage, xlwings Lite, "
                                             "référence")
    subcommands = excel.add_subparsers(dest="excel_command", required=True, metavar="SOUS-COMMANDE",
                                       title="sous-commandes")

    init = command(subcommands, "init", cmd_init,
                   f"écrit le classeur à macros de démarrage DOSSIER/{starter.STARTER} (Excel sous Windows)")
    init.add_argument("dir", metavar="DOSSIER", nargs="?", default=".",
                      help="le dossier où l'écrire (par défaut : le dossier courant)")
    init.add_argument("--force", action="store_true", help="écraser le classeur s'il existe")

    lite_cmd = command(subcommands, "lite", cmd_lite,
                       "affiche le requirements.txt et le main.py autonome de xlwings Lite")
    lite_cmd.add_argument("--dir", metavar="DOSSIER", help="écrire requirements.txt et main.py dans ce dossier au "
                                                           "lieu de les afficher")
    lite_cmd.add_argument("--force", action="store_true", help="avec --dir : écraser les fichiers s'ils existent")
    lite_cmd.add_argument("--published", action="store_true",
                          help="la forme courte, une fois xlcircuit publié : main.py l'importe, requirements.txt "
                               "le nomme")

    formulas_cmd = command(subcommands, "formulas", cmd_formulas,
                           "écrit un classeur qui calcule les points avec les seules formules du tableur")
    formulas_cmd.add_argument("file", metavar="FICHIER", nargs="?", default="xlcircuit-formules.xlsx",
                              help="le classeur .xlsx à écrire (par défaut : xlcircuit-formules.xlsx)")
    formulas_cmd.add_argument("--force", action="store_true", help="écraser le fichier s'il existe")

    docs = command(subcommands, "docs", cmd_docs, "affiche la référence des fonctions (Markdown, en français)")
    docs.add_argument("-o", "--output", metavar="FICHIER",
                      help="l'écrire dans ce fichier (docs/fonctions.md) au lieu de l'afficher")


_add_excel_commands = add_excel  # its former name

#: The subcommands, in the order ``--help`` lists them: each adds itself to the subparsers.
COMMANDS: list[Callable[[Subcommands], None]] = [
    add_new, add_check, add_fill, add_share, add_explain, add_schedule, add_demo, add_excel,
]


def build_parser() -> argparse.ArgumentParser:
    parser = FrenchParser(
        prog="xlcircuit",
        description="Calcule les circuits de tournois des fédérations françaises de jeux dans des classeurs Excel.",
        epilog="Aide d'une commande : xlcircuit COMMANDE --help (par exemple : xlcircuit fill --help). "
               "Une fenêtre fait la même chose sans terminal : xlcircuit-fenetre.",
    )
    parser.add_argument("--version", action="version", version=f"xlcircuit {__version__}",
                        help="affiche la version de xlcircuit, puis s'arrête")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMANDE", title="commandes")
    for add in COMMANDS:
        add(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        status: int = args.run(args)
        return status
    except UsageError as exc:
        parser: argparse.ArgumentParser = args.parser
        parser.error(str(exc))  # exits with status 2
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
