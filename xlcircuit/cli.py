"""The ``xlcircuit`` command: a thin layer over the workbook layer.

It speaks French to organisers: help, usage errors (argparse's own messages included, see
:class:`FrenchParser`) and reports. Exit status: 0 done, 1 a problem with the workbook (reported, nothing
written), 2 bad usage.

Adding a command: write ``cmd_NAME(args) -> int`` and an ``add_NAME(commands)`` that calls
:func:`command` (and the shared :func:`workbook_argument`, :func:`federation_option`…), then list it in
``COMMANDS``.
"""

from __future__ import annotations

import signal
import sys


def _interrupted_while_starting(signum: int, frame: object) -> None:
    """A Ctrl-C while this module imports what the commands need (the first second of a command): one sentence,
    status 130. Once imported, :func:`main` says what a Ctrl-C interrupted."""
    print("Interrompu (Ctrl-C) au démarrage : rien n'a été lu ni écrit.", file=sys.stderr)
    raise SystemExit(130)


def _guard_imports() -> object:
    """Set :func:`_interrupted_while_starting` for the imports below (only over Python's own Ctrl-C handler, in
    the main thread); returns the handler to put back after them, or None."""
    try:
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            return signal.signal(signal.SIGINT, _interrupted_while_starting)
    except ValueError:  # imported outside the main thread
        pass
    return None


_BEFORE_IMPORTS = _guard_imports()

import argparse
import codecs
import contextlib
import difflib
import threading
import time
import unicodedata
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any, ClassVar, NoReturn

from . import __version__
from .app import Outcome, run, visible
from .app.check import check as app_check
from .app.demo import demo as app_demo
from .app.diff import diff as app_diff
from .app.explain import explain as app_explain
from .app.explain import unwritable
from .app.fill import fill as app_fill
from .app.fusion import fusion as app_fusion
from .app.importing import import_results as app_import
from .app.new import FORM
from .app.new import new as app_new
from .app.schedule import schedule as app_schedule
from .app.share import share as app_share
from .excel import lite, reference, starter
from .federations import ADAPTERS
from .federations import federation as find_federation
from .rules.errors import XlcircuitError
from .workbook.wording import typed
from .xlsx import save_atomic

if _BEFORE_IMPORTS is not None:
    signal.signal(signal.SIGINT, _BEFORE_IMPORTS)  # type: ignore[arg-type]


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


#: What a character no console code page has is written as (cp850, France's console default, has neither
#: « … » nor « — »): plain ASCII that reads the same. Anything else left is decomposed (« ᵉ » is « e »), else « ? ».
_PLAIN = {"…": "...", "—": "-", "–": "-", "‑": "-", "−": "-", "→": "->", "←": "<-", "⇒": "=>", "≥": ">=",
          "≤": "<=", "≠": "!=", "’": "'", "‘": "'", "‚": ",", "“": '"', "”": '"', "„": '"', "œ": "oe", "Œ": "OE",
          "æ": "ae", "Æ": "AE", "\u202f": " ", "\u2009": " ", "\u00a0": " ", "×": "x", "«": '"', "»": '"', "€": "EUR",
          "•": "-", "Ł": "L", "ł": "l", "Ø": "O", "ø": "o", "Đ": "D", "đ": "d", "ı": "i", "ß": "ss", "Þ": "Th",
          "þ": "th", "Ð": "D", "ð": "d"}
CONSOLE_ERRORS = "xlcircuit-console"


def _plain(error: UnicodeError) -> tuple[str, int]:
    """The error handler of :func:`console_safe`: each character the console cannot show, in plain ASCII."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    shown = []
    for char in error.object[error.start:error.end]:
        plain = _PLAIN.get(char)
        if plain is None:
            decomposed = unicodedata.normalize("NFKD", char)
            plain = "".join(c for c in decomposed if c.isascii() and not unicodedata.combining(c)) or "?"
        shown.append(plain)
    return "".join(shown), error.end


codecs.register_error(CONSOLE_ERRORS, _plain)


def console_safe(*streams: IO[str]) -> None:
    """Let every message reach a console whatever its code page (cp850 or cp1252 on Windows, redirected to a
    file or not): a character it cannot encode is written in plain ASCII instead of ending in a traceback."""
    for stream in streams or (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None and getattr(stream, "errors", None) == "strict":
            with contextlib.suppress(ValueError, OSError):  # a stream that cannot change: leave it as it is
                reconfigure(errors=CONSOLE_ERRORS)


def _say(text: str = "") -> None:
    print(text)


def show(outcome: Outcome) -> int:
    """Print what a use case ended with: its lines on stdout; then, on stderr, what failed (every located
    problem on its own line) and what to look at (« À vérifier »). Returns the exit status."""
    outcome = outcome.visible()  # a name from a workbook is never a terminal's escape sequence
    for line in outcome.lines:
        _say(line)
    sys.stdout.flush()  # the summary first, even when both streams go to one file
    if outcome.problems:
        print(f"{outcome.error} :", file=sys.stderr)
        for problem in outcome.problems:
            print(f"  - {problem}", file=sys.stderr)
        print("Rien n'a été écrit : corrigez ces points, puis relancez.", file=sys.stderr)
    elif outcome.error:
        print(outcome.error, file=sys.stderr)
    if outcome.warnings:
        print(f"\nÀ vérifier ({len(outcome.warnings)}) :", file=sys.stderr)
    for warning in outcome.warnings:
        print(f"  - {warning}", file=sys.stderr)
    return outcome.status


def _workbook_name(text: str) -> Path:
    """The file ``new`` writes: ``.xlsx`` added to a name without extension, any other extension refused."""
    target = Path(text)
    if target.suffix == "":
        return target.with_name(target.name + ".xlsx")
    if target.suffix.lower() != ".xlsx":
        raise UsageError(f"{target.name} : un classeur xlcircuit est un fichier .xlsx ; "
                         f"choisissez un nom en .xlsx (par exemple {target.stem}.xlsx).")
    return target


def _path(text: str | None) -> Path | None:
    return None if text is None else Path(text)


def cmd_new(args: argparse.Namespace) -> int:
    target = _workbook_name(args.file)
    return show(run(lambda: app_new(args.federation, target, args.force, _path(args.previous))))


def cmd_fusion(args: argparse.Namespace) -> int:
    return show(run(lambda: app_fusion(Path(args.file), args.name, args.alias, args.federation, args.force)))


def cmd_diff(args: argparse.Namespace) -> int:
    return show(run(lambda: app_diff(Path(args.old), Path(args.new), _path(args.output), args.federation)))


def cmd_check(args: argparse.Namespace) -> int:
    return show(run(lambda: app_check(Path(args.file), args.federation)))


def cmd_fill(args: argparse.Namespace) -> int:
    progress = Progress()
    try:
        outcome = run(lambda: app_fill(Path(args.file), args.federation, _path(args.output), args.force,
                                       progress.step))
    finally:
        progress.close()
    return show(outcome)


def cmd_share(args: argparse.Namespace) -> int:
    if not (args.clubs or args.pdf or args.csv):
        raise UsageError("dites quoi partager : --clubs DOSSIER, --pdf DOSSIER ou --csv DOSSIER "
                         "(par exemple : xlcircuit share saison.xlsx --pdf partage).")
    return show(run(lambda: app_share(Path(args.file), args.federation, _path(args.clubs), _path(args.pdf),
                                      _path(args.csv))))


def cmd_demo(args: argparse.Namespace) -> int:
    return show(run(lambda: app_demo(Path(args.dir), args.force)))


def cmd_explain(args: argparse.Namespace) -> int:
    output = _path(args.output)
    if output is not None and (refused := unwritable(output)) is not None:
        raise UsageError(refused)
    return show(run(lambda: app_explain(Path(args.file), args.player, args.federation, output)))


def cmd_import(args: argparse.Namespace) -> int:
    progress = Progress()
    try:
        outcome = run(lambda: app_import(Path(args.file), [Path(s) for s in args.sources], args.tournament, args.trial,
                                         args.federation, _path(args.output), args.force, progress.step))
    finally:
        progress.close()
    return show(outcome)


def cmd_schedule(args: argparse.Namespace) -> int:
    return show(run(lambda: app_schedule(Path(args.file), args.seed, args.federation, _path(args.output),
                                         args.force)))


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
    from .excel import formulas  # the native-formulas workbook

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
    """A federation code as typed, in any case (``TDF`` is ``tdf``, ``DBM-Tournoi`` is ``dbm-tournoi``); an unknown
    one is left for the choices check, which names the known ones."""
    code, form = (text[:-len(FORM)], FORM) if text.casefold().endswith(FORM) else (text, "")
    try:
        return find_federation(code).code + form
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
    parser.add_argument("--federation", metavar="FÉDÉRATION", type=federation_code, choices=list(ADAPTERS),
                        help=f"la fédération ({', '.join(ADAPTERS)}), pour un classeur qui n'a pas été "
                             "créé par « xlcircuit new »")


def output_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-o", "--output", metavar="SORTIE",
                        help="écrire le classeur dans ce fichier au lieu de remplacer FICHIER")


def add_new(commands: Subcommands) -> None:
    new = command(commands, "new", cmd_new, "crée un classeur de saison neuf, à partir du modèle d'une fédération ; "
                                            "FÉDÉRATION-tournoi : la feuille de résultats à envoyer à l'organisateur "
                                            "d'un tournoi")
    new.add_argument("federation", metavar="FÉDÉRATION", type=federation_code,
                     choices=list(ADAPTERS) + [f"{code}{FORM}" for code in ADAPTERS],
                     help=f"le code de la fédération : {', '.join(ADAPTERS)} (majuscules ou minuscules) ; suivi de "
                          f"« {FORM} » (par exemple dbm{FORM}) : la feuille d'un tournoi, que son organisateur "
                          "remplit et renvoie, et que « xlcircuit import » prend telle quelle")
    new.add_argument("file", metavar="FICHIER", help="le classeur à écrire (.xlsx ajouté s'il manque)")
    new.add_argument("--depuis", dest="previous", metavar="PRÉCÉDENT",
                     help="le classeur de la saison précédente : la nouvelle en reprend les joueurs (club, identifiant, "
                          "alias), le palmarès, et ce que la fédération reporte (DBM : classes et seuils ; TORRES : "
                          "divisions et groupes ; Elo : notes et parties jouées)")
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
                             help="l'écrire dans ce fichier au lieu de l'afficher : .txt (texte), .xlsx (une "
                                  "feuille) ou .pdf")
    federation_option(explain_cmd)


def add_import(commands: Subcommands) -> None:
    imported = command(commands, "import", cmd_import,
                       "importe les résultats de classeurs, de fichiers .ods ou .csv dans les tables de la saison",
                       "Importe dans les tables de saisie de la saison les résultats que vous avez déjà : le "
                       "classement de chaque tournoi, dans sa propre mise en page (un titre au-dessus, « Clt », "
                       "« NOM », « Prénom », « Club »… en français ou en anglais, dans n'importe quel ordre). Une "
                       "feuille (ou un fichier CSV) est un tournoi, nommé comme elle, sauf colonne « Tournoi » ou "
                       "--tournoi. Importer de nouveau la même source remplace ses lignes. Tous les problèmes sont "
                       "signalés d'un coup, avec leur cellule dans la source ; rien n'est écrit alors.")
    workbook_argument(imported, "le classeur de la saison (.xlsx)")
    imported.add_argument("sources", metavar="SOURCE", nargs="+",
                          help="un classeur .xlsx ou .xlsm, un fichier .ods ou .csv, ou un dossier de tels fichiers")
    imported.add_argument("--tournoi", dest="tournament", metavar="NOM",
                          help="le nom du tournoi d'une source qui ne le dit pas (par défaut : le nom de la feuille, "
                               "ou du fichier)")
    imported.add_argument("--essai", dest="trial", action="store_true",
                          help="n'écrit rien : montre, feuille par feuille, les colonnes reconnues et ignorées, les "
                               "tournois et les premières lignes telles qu'elles seraient importées")
    output_option(imported)
    federation_option(imported)
    force_option(imported)


def add_schedule(commands: Subcommands) -> None:
    schedule = command(commands, "schedule", cmd_schedule, "tire le calendrier des matchs de chaque groupe (TORRES)")
    workbook_argument(schedule)
    schedule.add_argument("--seed", metavar="GRAINE", type=seed_number, default=None,
                          help="graine du tirage (par défaut celle de la saison : un nouveau tirage donne le "
                               "même calendrier)")
    output_option(schedule)
    federation_option(schedule)
    force_option(schedule)


def add_fusion(commands: Subcommands) -> None:
    fusion = command(commands, "fusion", cmd_fusion,
                     "fait d'un nom une autre orthographe (un alias) d'un joueur de la table Joueurs ; ne modifie "
                     "aucune ligne de résultat")
    workbook_argument(fusion, "le classeur (.xlsx) de la saison")
    fusion.add_argument("name", metavar="NOM", help="le nom à garder, celui de la table Joueurs (ou son identifiant)")
    fusion.add_argument("alias", metavar="AUTRE_NOM", help="l'autre orthographe, qui comptera désormais pour NOM")
    federation_option(fusion)
    force_option(fusion)


def add_diff(commands: Subcommands) -> None:
    diff = command(commands, "diff", cmd_diff,
                   "dit ce qui a changé entre deux classeurs remplis d'une saison : résultats ajoutés, modifiés ou "
                   "retirés, et joueurs dont le rang ou le total a bougé")
    diff.add_argument("old", metavar="ANCIEN", help="le classeur rempli d'avant (par exemple celui publié)")
    diff.add_argument("new", metavar="NOUVEAU", help="le classeur rempli d'après")
    diff.add_argument("-o", "--output", metavar="SORTIE",
                      help="l'écrire dans ce fichier au lieu de l'afficher : .xlsx (une feuille), .pdf, ou texte")
    federation_option(diff)


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
    add_new, add_import, add_check, add_fill, add_share, add_explain, add_diff, add_fusion, add_schedule, add_demo,
    add_excel,
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


#: How the file names a command takes end: an unknown word ending so is probably the rest of one.
NAME_ENDINGS = (".xlsx", ".xlsm", ".xls", ".ods", ".csv", ".pdf", ".txt", ".docx")


def rejoined(argv: list[str], value: str | None) -> list[str] | None:
    """The command as it should have been typed when ``value`` (a FICHIER or DOSSIER argument) is the start of a
    name with spaces typed without quotes (``fill TdF 2025-2026.xlsx``): the words up to one that ends like a
    file name (or that make an existing file) put back together; None when nothing suggests it."""
    if value is None or value not in argv:
        return None
    start = argv.index(value)
    for end in range(start + 1, len(argv)):
        if argv[end].startswith("-"):
            return None
        name = " ".join(argv[start:end + 1])
        if argv[end].lower().endswith(NAME_ENDINGS) or Path(name).exists():
            return argv[:start] + [name] + argv[end + 1:]
    return None


def _quote_hint(args: argparse.Namespace, argv: list[str]) -> str | None:
    """« put the name in quotes », with the command to type, when a file name seems split at its spaces."""
    for value in (getattr(args, "file", None), getattr(args, "dir", None)):
        fixed = rejoined(argv, value)
        if fixed is not None:
            return ("un nom de fichier qui contient des espaces s'écrit entre guillemets : xlcircuit "
                    + " ".join(typed(word) for word in fixed))
    return None


# --- Ctrl-C: say what was done ---------------------------------------------------------------------


def _fingerprint(path: Path) -> tuple[int, int, int, int] | None:
    """What tells a file replaced (an atomic save gives it a new inode) or written; None when it is absent."""
    try:
        status = path.stat()
    except OSError:
        return None
    return status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns


def _written_whole(args: argparse.Namespace) -> list[Path]:
    """The file a command writes (each replaced whole, atomically), to say after a Ctrl-C whether it was."""
    name = args.command if args.command != "excel" else args.excel_command
    if name in ("fill", "schedule", "import"):
        return [Path(args.output or args.file)]
    if name == "fusion":
        return [Path(args.file)]
    if name in ("explain", "docs", "diff") and args.output:
        return [Path(args.output)]
    if name == "formulas":
        return [Path(args.file)]
    if name == "new":
        with contextlib.suppress(UsageError):
            return [_workbook_name(args.file)]
    return []


def _interrupted(args: argparse.Namespace | None, watched: list[tuple[Path, Any]]) -> str:
    """The sentence after a Ctrl-C: what it interrupted, and whether the file the command writes was written
    (saves are atomic: it is whole, or as it was)."""
    if args is None:
        return "Interrompu (Ctrl-C) au démarrage : rien n'a été lu ni écrit."
    if watched:
        path, before = watched[0]
        if _fingerprint(path) != before:
            return (f"Interrompu (Ctrl-C) après l'enregistrement : {path} est bien enregistré, en entier "
                    "(seul le compte rendu manque).")
        return (f"Interrompu (Ctrl-C) avant l'enregistrement : {path} n'a pas été "
                f"{'créé' if before is None else 'modifié'}.")
    if args.command == "check" or (args.command == "explain" and not args.output):
        return "Interrompu (Ctrl-C) : rien n'a été écrit."
    return "Interrompu (Ctrl-C) : les fichiers déjà écrits le sont en entier, aucun n'est resté à moitié écrit."


@contextlib.contextmanager
def _uninterrupted() -> Iterator[None]:
    """A second Ctrl-C while saying what the first one interrupted is ignored (main thread only)."""
    try:
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread: signals are not ours to set
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _done_with_interrupts() -> None:
    """From here on, a Ctrl-C is ignored: the work is done and said, the interpreter's shutdown is not cut short
    (a process dying then would leave the organiser without a word on what was done)."""
    with contextlib.suppress(ValueError):
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def _parsed(argv: list[str]) -> argparse.Namespace:
    """The command line read, or its usage error (with the quoting hint when a file name seems cut at its
    spaces)."""
    top = build_parser()
    args, extra = top.parse_known_args(argv)
    parser: argparse.ArgumentParser = getattr(args, "parser", top)  # the command's own, for its usage line
    hint = _quote_hint(args, argv)
    if extra:
        parser.error(f"je ne comprends pas : {' '.join(extra)}" + (f" ; {hint}" if hint else ""))
    file = getattr(args, "file", None)
    if hint and file is not None and not Path(file).exists() and args.command != "new":
        parser.error(f"{file} : fichier introuvable ; {hint}")  # explain TdF 2025.xlsx NOM: the name cut in two
    args.parser = parser
    return args


def main(argv: list[str] | None = None) -> int:
    """The command line (``argv``: the process's own when None). A Ctrl-C at any moment ends in one sentence
    saying what was written, and status 130; once the work is done and said, it no longer interrupts."""
    console_safe()
    own = argv is None
    args: argparse.Namespace | None = None
    watched: list[tuple[Path, Any]] = []
    try:
        parsed = _parsed(sys.argv[1:] if argv is None else list(argv))
        watched = [(path, _fingerprint(path)) for path in _written_whole(parsed)]
        args = parsed
        status: int = parsed.run(parsed)
        return status
    except UsageError as exc:
        parsed.parser.error(str(exc))  # exits with status 2
        raise  # not reached: error() exits
    except XlcircuitError as exc:
        print(visible(str(exc)), file=sys.stderr)
        return 1
    except KeyboardInterrupt:  # Ctrl-C: saves are atomic, so nothing is half-written; say what was
        with _uninterrupted():
            print(visible(_interrupted(args, watched)), file=sys.stderr)
        return 130
    except BrokenPipeError:  # output piped into a command that stopped reading (| head)
        sys.stderr.close()
        return 0
    except OSError as exc:  # a folder that is a file, a full disk...: one sentence, not a traceback
        print(visible(f"Impossible de lire ou d'écrire {exc.filename or ''} ({exc.strerror or exc})."), file=sys.stderr)
        return 1
    finally:
        if own:
            _done_with_interrupts()


if __name__ == "__main__":
    sys.exit(main())
