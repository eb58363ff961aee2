"""The window: the everyday actions (Vérifier, Remplir, Partager, Importer…) for organisers who do not use a
terminal, and those of a season's course (Saison suivante, Fusionner deux noms, Comparer avec un classeur d'avant).

Standard library only (tkinter). Started by ``xlcircuit-fenetre`` (a ``[project.gui-scripts]`` entry
point: on Windows, pip makes it an ``.exe`` to double-click), or ``python -m xlcircuit.gui``; a workbook
given on the command line is chosen at once, so dropping a workbook onto the ``.exe`` or its shortcut
opens it. Tk has no drag and drop of its own (it would need the tkdnd extension): inside the window, the
workbook is chosen with « Choisir… ».

The work runs in a thread; the window shows its progress and, at the end, what ``xlcircuit`` says on the
command line (the same French messages), every problem on its own line with its cell.

« Importer… » chooses result files (``.xlsx``, ``.ods``, ``.csv``), shows what ``xlcircuit import --essai`` shows
(nothing written), and « Confirmer l'import » writes it.
"""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .app import Outcome, Progress, quiet, run, visible

if TYPE_CHECKING:
    import tkinter


TITLE = "xlcircuit"
#: The title of the file chooser of « Importer… ».
IMPORT_TITLE = "Importer des résultats"
#: The steps of a fill (the workbook layer's progress names) or of a share, and how much of the work is
#: done when each starts.
STEPS = {"lecture": 0.05, "calcul": 0.3, "écriture": 0.4, "enregistrement": 0.6, "clubs": 0.1, "CSV": 0.5, "PDF": 0.6}
#: What the status line says while each action runs.
RUNNING = {"check": "Vérification…", "fill": "Remplissage…", "share": "Partage…", "next": "Saison suivante…",
           "fusion": "Fusion des deux noms…", "diff": "Comparaison…",
           "preview": "Lecture des résultats à importer…", "import": "Import…"}


def share_folder(path: Path) -> Path:
    """Where « Partager » writes: a folder beside the workbook, named after it."""
    return path.with_name(f"{path.stem} (partage)")


def share(path: Path, federation: str | None = None, clubs: bool = True, pdf: bool = True, csv: bool = True,
          progress: Progress = quiet) -> Outcome:
    """« Partager »: what ``xlcircuit share`` writes, every kind into :func:`share_folder`."""
    from .app.share import share as share_season

    if not (clubs or pdf or csv):
        return Outcome(error="Cochez ce qu'il faut partager : classeurs de club, PDF ou CSV.", status=1)
    folder = share_folder(path)
    return share_season(path, federation, folder if clubs else None, folder if pdf else None,
                        folder if csv else None, progress)


def next_season_name(path: Path) -> Path:
    """The file « Saison suivante… » proposes: the season's years a year on (``2025-2026.xlsx`` ->
    ``2026-2027.xlsx``), else « NOM (saison suivante).xlsx », beside the workbook."""
    from .rules.seasons import next_name

    following = next_name(path.stem)
    return path.with_name(f"{following or f'{path.stem} (saison suivante)'}{path.suffix or '.xlsx'}")


def open_with_system(target: Path) -> None:
    """Open a file or folder with the program the system gives it (Excel, LibreOffice, the file manager)."""
    if sys.platform.startswith("win"):
        os.startfile(str(target))  # Windows only
    elif sys.platform == "darwin":
        subprocess.Popen(["open", str(target)])
    else:
        subprocess.Popen(["xdg-open", str(target)])


# --- the window ----------------------------------------------------------------------------------------------


class Window:
    """The main window: a workbook, three actions, a progress bar, messages and problems."""

    def __init__(self, root: tkinter.Tk, path: str | None = None):
        import tkinter as tk
        from tkinter import font as tkfont
        from tkinter import ttk

        from .federations import ADAPTERS
        from .xlsx import libreoffice

        self.root, self.tk = root, tk
        self.events: queue.Queue[tuple[str, Any]] = queue.Queue()
        self.busy = False
        self.action = ""
        self.result: Path | None = None
        root.title(TITLE)
        # Tk's own dialogs (the file chooser on Linux) in French: Tk ships their French messages.
        root.tk.eval("::msgcat::mclocale fr; ::msgcat::mcload [file join $::tk_library msgs]")
        root.minsize(720, 480)
        frame = ttk.Frame(root, padding=12)
        frame.pack(fill="both", expand=True)
        frame.columnconfigure(1, weight=1)

        ttk.Label(frame, text="Classeur :").grid(row=0, column=0, sticky="w")
        self.path = tk.StringVar(value=path or "")
        self.entry = ttk.Entry(frame, textvariable=self.path)
        self.entry.grid(row=0, column=1, sticky="ew", padx=6)
        self.choose = ttk.Button(frame, text="Choisir…", underline=0, command=self.ask_path)
        self.choose.grid(row=0, column=2)

        ttk.Label(frame, text="Fédération :").grid(row=1, column=0, sticky="w", pady=(6, 0))
        self.federations = {"celle du classeur": ""} | {f"{a.title} ({code})": code for code, a in ADAPTERS.items()}
        self.federation = tk.StringVar(value="celle du classeur")
        ttk.Combobox(frame, textvariable=self.federation, values=list(self.federations), state="readonly",
                     width=48).grid(row=1, column=1, sticky="w", padx=6, pady=(6, 0))

        actions = ttk.Frame(frame)
        actions.grid(row=2, column=0, columnspan=3, sticky="ew", pady=10)
        self.buttons = {
            "check": ttk.Button(actions, text="Vérifier", underline=0, command=lambda: self.start("check")),
            "fill": ttk.Button(actions, text="Remplir", underline=0, command=lambda: self.start("fill")),
            "share": ttk.Button(actions, text="Partager", underline=0, command=lambda: self.start("share")),
            "import": ttk.Button(actions, text="Importer…", underline=0, command=self.ask_sources),
        }
        for button in self.buttons.values():
            button.pack(side="left", padx=(0, 6))
        #: The sources an import's preview was shown for: « Confirmer l'import » writes them.
        self.sources: list[Path] = []
        self.confirm = ttk.Button(actions, text="Confirmer l'import", underline=2, state="disabled",
                                  command=lambda: self.start("import"))
        self.confirm.pack(side="left", padx=(0, 6))
        self.open_button = ttk.Button(actions, text="Ouvrir le résultat", underline=0, command=self.open_result,
                                      state="disabled")
        self.open_button.pack(side="right")
        # Shown when a lock file stopped a fill (the message says what it means): the command line's --force.
        self.force_button = ttk.Button(actions, text="Remplir quand même", command=lambda: self.start("fill", True))
        seasons = ttk.Frame(frame)
        seasons.grid(row=3, column=0, columnspan=3, sticky="ew", pady=(0, 8))
        ttk.Label(seasons, text="Au fil de la saison :").pack(side="left", padx=(0, 6))
        self.season_buttons = {
            "next": ttk.Button(seasons, text="Saison suivante…", underline=0, command=self.ask_next_season),
            "fusion": ttk.Button(seasons, text="Fusionner deux noms…", underline=0, command=self.ask_fusion),
            "diff": ttk.Button(seasons, text="Comparer avec un classeur d'avant…", underline=2,
                               command=self.ask_diff),
        }
        for button in self.season_buttons.values():
            button.pack(side="left", padx=(0, 6))

        options = ttk.Frame(frame)
        options.grid(row=4, column=0, columnspan=3, sticky="w")
        ttk.Label(options, text="Partager :").pack(side="left")
        has_office = libreoffice.find() is not None
        self.share_clubs, self.share_csv = tk.BooleanVar(value=True), tk.BooleanVar(value=True)
        self.share_pdf = tk.BooleanVar(value=has_office)
        ttk.Checkbutton(options, text="un classeur par club", variable=self.share_clubs).pack(side="left", padx=4)
        ttk.Checkbutton(options, text="les tables en CSV", variable=self.share_csv).pack(side="left", padx=4)
        ttk.Checkbutton(options, text="le classement en PDF" + ("" if has_office else " (il faut LibreOffice)"),
                        variable=self.share_pdf, state="normal" if has_office else "disabled").pack(side="left", padx=4)

        self.progress = ttk.Progressbar(frame, mode="determinate", maximum=1.0)
        self.progress.grid(row=5, column=0, columnspan=3, sticky="ew", pady=(10, 2))
        self.status = tk.StringVar(value="Choisissez un classeur, puis Vérifier, Remplir ou Partager.")
        ttk.Label(frame, textvariable=self.status).grid(row=6, column=0, columnspan=3, sticky="w")

        self.messages = tk.Text(frame, height=10, wrap="word", relief="flat", background=root.cget("background"))
        self.messages.grid(row=7, column=0, columnspan=3, sticky="nsew", pady=(8, 4))
        scroll = ttk.Scrollbar(frame, orient="vertical", command=self.messages.yview)
        scroll.grid(row=7, column=3, sticky="ns", pady=(8, 4))
        self.messages.configure(yscrollcommand=scroll.set)
        self.messages.tag_configure("attention", foreground="#9a5b00")
        self.messages.tag_configure("erreur", foreground="#b00020")
        self.messages.configure(state="disabled")

        # Each problem wraps onto as many lines as it needs in the width the column has (all rows as high as
        # the longest needs): readable without widening the window.
        self.font = tkfont.nametofont("TkDefaultFont")
        self.problem_style = "Problemes.Treeview"
        self.shown_problems: list[tuple[str, str, str]] = []
        self.problems = ttk.Treeview(frame, columns=("cell", "column", "message"), show="headings", height=8,
                                     style=self.problem_style)
        for column, heading, width in (("cell", "Cellule", 110), ("column", "Colonne", 130),
                                       ("message", "Problème", 520)):
            self.problems.heading(column, text=heading, anchor="w")
            self.problems.column(column, width=width, stretch=column == "message", anchor="w")
        self.problems.bind("<Configure>", lambda event: self.fit_problems())
        self.problems.grid(row=8, column=0, columnspan=3, sticky="nsew")
        scroll = ttk.Scrollbar(frame, orient="vertical", command=self.problems.yview)
        scroll.grid(row=8, column=3, sticky="ns")
        self.problems.configure(yscrollcommand=scroll.set)
        frame.rowconfigure(7, weight=1)
        frame.rowconfigure(8, weight=2)

        shortcuts: dict[str, Callable[[], None]] = {
            "c": self.ask_path, "v": lambda: self.start("check"), "r": lambda: self.start("fill"),
            "p": lambda: self.start("share"), "o": self.open_result, "s": self.ask_next_season,
            "f": self.ask_fusion, "m": self.ask_diff, "i": self.ask_sources,
            "n": self.confirm_import,
        }
        for letter, action in shortcuts.items():
            for key in (letter, letter.upper()):
                root.bind_all(f"<Alt-{key}>", self._shortcut(action))
        root.after(100, self.poll)

    @staticmethod
    def _shortcut(action: Callable[[], None]) -> Callable[[Any], None]:
        def run(event: Any) -> None:
            action()

        return run

    # --- what the organiser does --------------------------------------------------------------------------

    def ask_path(self) -> None:
        from tkinter import filedialog

        current = Path(self.path.get()) if self.path.get() else None
        chosen = filedialog.askopenfilename(
            parent=self.root, title="Choisir un classeur",
            initialdir=str(current.parent) if current else str(Path.cwd()),
            filetypes=[("Classeurs Excel", "*.xlsx *.xlsm"), ("Tous les fichiers", "*")])
        if chosen:
            self.path.set(chosen)
            self.status.set(visible(f"Classeur choisi : {Path(chosen).name}. Vérifier, Remplir ou Partager ?"))

    def ask_sources(self) -> None:
        """« Importer… »: choose the result files, then see what would be imported (nothing is written yet)."""
        if self.busy:
            return
        if not self.path.get().strip():
            self.show(Outcome(error="Choisissez d'abord le classeur de la saison (bouton « Choisir… »), puis les "
                                    "résultats à y importer."))
            return
        from tkinter import filedialog

        season = Path(self.path.get().strip())
        chosen = filedialog.askopenfilenames(
            parent=self.root, title=IMPORT_TITLE, initialdir=str(season.parent),
            filetypes=[("Résultats (classeurs, .ods, .csv)", "*.xlsx *.xlsm *.ods *.csv"), ("Tous les fichiers", "*")])
        if chosen:
            self.sources = [Path(name) for name in self.root.tk.splitlist(chosen)]
            self.start("preview")

    def confirm_import(self) -> None:
        if str(self.confirm.cget("state")) != "disabled":
            self.start("import")

    def chosen(self) -> Path | None:
        """The workbook chosen; None, said in the window, when there is none yet."""
        text = self.path.get().strip()
        if not text:
            self.show(Outcome(error="Choisissez d'abord un classeur (bouton « Choisir… »)."))
            return None
        return Path(text)

    def start(self, action: str, force: bool = False, run: Callable[[Path, str, Progress], Outcome] | None = None) -> None:
        """Run ``action`` on the chosen workbook in a worker thread (``force``: a fill passes over a lock file,
        after the organiser read what it means; ``run``: the seasons' actions give theirs)."""
        if self.busy:
            return
        path = self.chosen()
        if path is None:
            return
        federation = self.federations.get(self.federation.get(), "")
        from .app.check import check
        from .app.fill import fill
        from .app.importing import import_results

        if run is None and action == "share":
            options = {"clubs": self.share_clubs.get(), "pdf": self.share_pdf.get(), "csv": self.share_csv.get()}

            def run(path: Path, federation: str, progress: Progress) -> Outcome:
                return share(path, federation, progress=progress, **options)

        elif action in ("preview", "import"):
            sources, trial = list(self.sources), action == "preview"

            def run(path: Path, federation: str, progress: Progress) -> Outcome:
                return import_results(path, sources, trial=trial, federation=federation or None, progress=progress,
                                      then="« Confirmer l'import »")

        elif run is None:
            def run(path: Path, federation: str, progress: Progress) -> Outcome:
                if action == "check":
                    return check(path, federation, progress)
                return fill(path, federation, force=force, progress=progress)

        self.busy = True
        self.action = action
        self.force_button.pack_forget()
        for button in (*self._buttons(), self.confirm):
            button.configure(state="disabled")
        self.clear()
        self.progress.configure(mode="determinate", value=0)
        self.status.set(RUNNING[action])
        threading.Thread(target=self.work, args=(run, path, federation), daemon=True).start()

    def _buttons(self) -> list[Any]:
        return [*self.buttons.values(), *self.season_buttons.values(), self.open_button, self.choose]

    # --- season after season ------------------------------------------------------------------------------

    def ask_next_season(self) -> None:
        """« Saison suivante… »: the chosen workbook is last season's; ask where to write next season's."""
        from tkinter import filedialog

        path = None if self.busy else self.chosen()
        if path is None:
            return
        proposed = next_season_name(path)
        target = filedialog.asksaveasfilename(
            parent=self.root, title="Enregistrer la saison suivante sous", initialdir=str(proposed.parent),
            initialfile=proposed.name, defaultextension=".xlsx", filetypes=[("Classeurs Excel", "*.xlsx")])
        if target:
            self.next_season(Path(target))

    def next_season(self, target: Path) -> None:
        """Write next season's workbook to ``target`` (the file dialog asked before replacing a file), from the
        chosen one; then choose it."""
        from .app.new import new

        def run(path: Path, federation: str, progress: Progress) -> Outcome:
            outcome = new(federation or None, target, force=True, previous=path, progress=progress)
            if not outcome.failed:
                self.events.put(("path", str(target)))
            return outcome

        self.start("next", run=run)

    def ask_fusion(self) -> None:
        """« Fusionner deux noms… »: a small dialog asks the name to keep and the other spelling."""
        import tkinter as tk
        from tkinter import ttk

        if self.busy or self.chosen() is None:
            return
        dialog = tk.Toplevel(self.root)
        dialog.title("Fusionner deux noms")
        dialog.transient(self.root)
        body = ttk.Frame(dialog, padding=12)
        body.pack(fill="both", expand=True)
        self.fusion_names = tk.StringVar(), tk.StringVar()
        labels = ("Nom à garder (celui de la table Joueurs) :", "Autre orthographe, qui comptera pour lui :")
        for row, (label, variable) in enumerate(zip(labels, self.fusion_names)):
            ttk.Label(body, text=label).grid(row=row, column=0, sticky="w", pady=2)
            ttk.Entry(body, textvariable=variable, width=34).grid(row=row, column=1, sticky="ew", padx=6, pady=2)
        ttk.Label(body, text="Les lignes de résultats ne sont pas modifiées : l'autre orthographe devient un alias.",
                  foreground="#555555").grid(row=2, column=0, columnspan=2, sticky="w", pady=(6, 0))
        buttons = ttk.Frame(body)
        buttons.grid(row=3, column=0, columnspan=2, sticky="e", pady=(10, 0))

        def merge() -> None:
            name, alias = (v.get().strip() for v in self.fusion_names)
            dialog.destroy()
            self.fusion(name, alias)

        self.fusion_dialog = dialog
        self.fusion_button = ttk.Button(buttons, text="Fusionner", command=merge)
        self.fusion_button.pack(side="left", padx=(0, 6))
        ttk.Button(buttons, text="Annuler", command=dialog.destroy).pack(side="left")
        dialog.bind("<Return>", lambda event: merge())
        dialog.bind("<Escape>", lambda event: dialog.destroy())

    def fusion(self, name: str, alias: str) -> None:
        """Make ``alias`` an alias of ``name`` in the chosen workbook."""
        from .app.fusion import fusion

        if not name or not alias:
            self.show(Outcome(error="Tapez les deux noms : celui à garder, puis l'autre orthographe.", status=1))
            return

        def run(path: Path, federation: str, progress: Progress) -> Outcome:
            return fusion(path, name, alias, federation or None, progress=progress)

        self.start("fusion", run=run)

    def ask_diff(self) -> None:
        """« Comparer avec un classeur d'avant… »: the chosen workbook is the new one; ask for the one before."""
        from tkinter import filedialog

        path = None if self.busy else self.chosen()
        if path is None:
            return
        old = filedialog.askopenfilename(
            parent=self.root, title="Choisir le classeur d'avant", initialdir=str(path.parent),
            filetypes=[("Classeurs Excel", "*.xlsx *.xlsm"), ("Tous les fichiers", "*")])
        if old:
            self.diff(Path(old))

    def diff(self, old: Path) -> None:
        """Show what changed from ``old`` to the chosen workbook (both filled)."""
        from .app.diff import diff

        def run(path: Path, federation: str, progress: Progress) -> Outcome:
            return diff(old, path, None, federation or None, progress)

        self.start("diff", run=run)

    def work(self, action: Callable[[Path, str, Progress], Outcome], path: Path, federation: str) -> None:
        """In the worker thread: run the action, hand its steps and its outcome to the window."""
        try:
            outcome = run(lambda: action(path, federation, lambda step: self.events.put(("step", step))))
        except Exception:  # a bug: say so in the window rather than lose it
            outcome = Outcome(error="Erreur inattendue de xlcircuit (signalez-la, avec ce texte) :\n"
                                    + traceback.format_exc(limit=3), status=1)
        if outcome.problems:
            where = "les sources" if outcome.error and "sources" in outcome.error else "le classeur"
            outcome.error = (f"{outcome.error}, chacun avec sa cellule ci-dessous. Rien n'a été écrit : "
                             f"corrigez-les dans {where}, enregistrez, puis relancez.")
        self.events.put(("done", outcome))

    def poll(self) -> None:
        """In Tk's thread: show what the worker sent."""
        try:
            while True:
                kind, value = self.events.get_nowait()
                if kind == "step":
                    self.progress.configure(value=STEPS.get(value, self.progress["value"]))
                    self.status.set(f"{value[:1].upper()}{value[1:]}…")
                elif kind == "path":  # next season's workbook, written: the one to work on now
                    self.path.set(value)
                else:
                    self.show(value)
        except queue.Empty:
            pass
        self.root.after(100, self.poll)

    def open_result(self) -> None:
        if self.result is not None and not self.busy:
            open_with_system(self.result)

    # --- what the window shows ------------------------------------------------------------------------------

    def clear(self) -> None:
        self.messages.configure(state="normal")
        self.messages.delete("1.0", "end")
        self.messages.configure(state="disabled")
        self.shown_problems = []
        self.fit_problems()

    def wrapped(self, text: str, width: int) -> list[str]:
        """``text`` in lines of at most ``width`` pixels, broken at spaces (a longer word keeps its line)."""
        lines: list[str] = []
        for word in text.split():
            if lines and self.font.measure(f"{lines[-1]} {word}") <= width:
                lines[-1] += f" {word}"
            else:
                lines.append(word)
        return lines or [""]

    def fit_problems(self) -> None:
        """(Re)write the problem rows, each message wrapped to its column's width, the rows as high as the
        longest needs."""
        import tkinter.ttk as ttk

        self.problems.delete(*self.problems.get_children())
        width = max(int(self.problems.column("message", "width")) - 12, 120)  # the cell's own padding
        rows = [(cell, column, self.wrapped(message, width)) for cell, column, message in self.shown_problems]
        lines = max((len(message) for _, _, message in rows), default=1)
        ttk.Style(self.root).configure(self.problem_style, rowheight=self.font.metrics("linespace") * lines + 6)
        for cell, column, message in rows:
            self.problems.insert("", "end", values=(cell, column, "\n".join(message)))

    def summary(self, outcome: Outcome) -> str:
        """The status line under the progress bar: what happened, and how many things to look at."""
        count = len(outcome.warnings)
        to_check = f", avec {count} point{'s' if count > 1 else ''} à vérifier (ci-dessous)" if count else ""
        if outcome.problems:
            where = "les sources" if outcome.error and "dans les sources" in outcome.error else "le classeur"
            return (f"{len(outcome.problems)} problème{'s' if len(outcome.problems) > 1 else ''} à corriger dans "
                    f"{where} (liste ci-dessous).")
        if outcome.lock is not None:
            return "Classeur ouvert dans un autre programme ? Lisez le message, puis fermez-le ou remplissez quand même."
        if outcome.error:
            return ("Rien n'a été fait : voir le message ci-dessous." if not outcome.lines
                    else f"Fait en partie{to_check} : voir les messages ci-dessous.")
        if self.action == "preview":
            return (f"Aperçu ci-dessous{to_check} : rien n'est écrit. « Confirmer l'import » écrit ces lignes dans le "
                    "classeur.")
        return f"Terminé{to_check}. « Ouvrir le résultat » l'ouvre."

    def show(self, outcome: Outcome) -> None:
        outcome = outcome.visible()  # a name from a workbook shows as it is, control characters included
        self.busy = False
        for button in (*self.buttons.values(), *self.season_buttons.values(), self.choose):
            button.configure(state="normal")
        self.progress.configure(value=1.0 if outcome.error is None else 0)
        self.messages.configure(state="normal")
        if outcome.error:
            self.messages.insert("end", outcome.error + "\n", "erreur")
        for line in outcome.lines:
            self.messages.insert("end", line + "\n")
        if outcome.warnings:  # after the summary, under their own heading, as the command line shows them
            self.messages.insert("end", f"\nÀ vérifier ({len(outcome.warnings)}) :\n", "attention")
        for warning in outcome.warnings:
            self.messages.insert("end", f"  - {warning}\n", "attention")
        self.messages.configure(state="disabled")
        self.shown_problems = [
            (f"{p.sheet}!{p.cell}" if p.cell else (f"{p.sheet}, ligne {p.row}" if p.row is not None else p.sheet),
             p.column or "", p.message) for p in outcome.problems]
        self.fit_problems()
        self.status.set(self.summary(outcome))
        if outcome.lock is not None:  # the message says what the lock means; going on is the organiser's call
            self.force_button.pack(side="left", padx=(12, 0))
        if self.action == "preview" and not outcome.error:
            self.confirm.configure(state="normal")  # the preview is shown: the import may be confirmed
        self.result = outcome.result if outcome.result is not None and outcome.result.exists() else None
        self.open_button.configure(state="normal" if self.result else "disabled")


def main(argv: list[str] | None = None) -> int:
    """Open the window (``xlcircuit-fenetre [CLASSEUR]``)."""
    argv = sys.argv[1:] if argv is None else argv
    try:
        import tkinter as tk
    except ImportError:
        print("La fenêtre de xlcircuit a besoin de tkinter, fourni avec Python (python.org) ; sous Debian ou "
              "Ubuntu : sudo apt install python3-tk. Les commandes xlcircuit marchent sans.", file=sys.stderr)
        return 1
    try:
        root = tk.Tk(className="xlcircuit")
    except tk.TclError as exc:
        print(f"Impossible d'ouvrir une fenêtre ({exc}) : lancez-la depuis un bureau, ou utilisez les commandes "
              "xlcircuit.", file=sys.stderr)
        return 1
    Window(root, argv[0] if argv else None)
    root.mainloop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
