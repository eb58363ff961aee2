"""The window: the everyday actions (Vérifier, Remplir, Partager, Importer…) for organisers who do not use a
terminal.

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

from .app import Outcome, Progress, quiet, run

if TYPE_CHECKING:
    import tkinter


TITLE = "xlcircuit"
#: The title of the file chooser of « Importer… ».
IMPORT_TITLE = "Importer des résultats"
#: The steps of a fill (the workbook layer's progress names) or of a share, and how much of the work is
#: done when each starts.
STEPS = {"lecture": 0.05, "calcul": 0.3, "écriture": 0.4, "enregistrement": 0.6, "clubs": 0.1, "CSV": 0.5, "PDF": 0.6}


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
        self.confirm = ttk.Button(actions, text="Confirmer l'import", underline=3, state="disabled",
                                  command=lambda: self.start("import"))
        self.confirm.pack(side="left", padx=(0, 6))
        self.open_button = ttk.Button(actions, text="Ouvrir le résultat", underline=0, command=self.open_result,
                                      state="disabled")
        self.open_button.pack(side="right")

        options = ttk.Frame(frame)
        options.grid(row=3, column=0, columnspan=3, sticky="w")
        ttk.Label(options, text="Partager :").pack(side="left")
        has_office = libreoffice.find() is not None
        self.share_clubs, self.share_csv = tk.BooleanVar(value=True), tk.BooleanVar(value=True)
        self.share_pdf = tk.BooleanVar(value=has_office)
        ttk.Checkbutton(options, text="un classeur par club", variable=self.share_clubs).pack(side="left", padx=4)
        ttk.Checkbutton(options, text="les tables en CSV", variable=self.share_csv).pack(side="left", padx=4)
        ttk.Checkbutton(options, text="le classement en PDF" + ("" if has_office else " (il faut LibreOffice)"),
                        variable=self.share_pdf, state="normal" if has_office else "disabled").pack(side="left", padx=4)

        self.progress = ttk.Progressbar(frame, mode="determinate", maximum=1.0)
        self.progress.grid(row=4, column=0, columnspan=3, sticky="ew", pady=(10, 2))
        self.status = tk.StringVar(value="Choisissez un classeur, puis Vérifier, Remplir ou Partager.")
        ttk.Label(frame, textvariable=self.status).grid(row=5, column=0, columnspan=3, sticky="w")

        self.messages = tk.Text(frame, height=10, wrap="word", relief="flat", background=root.cget("background"))
        self.messages.grid(row=6, column=0, columnspan=3, sticky="nsew", pady=(8, 4))
        scroll = ttk.Scrollbar(frame, orient="vertical", command=self.messages.yview)
        scroll.grid(row=6, column=3, sticky="ns", pady=(8, 4))
        self.messages.configure(yscrollcommand=scroll.set)
        self.messages.tag_configure("attention", foreground="#9a5b00")
        self.messages.tag_configure("erreur", foreground="#b00020")
        self.messages.configure(state="disabled")

        self.problems = ttk.Treeview(frame, columns=("cell", "column", "message"), show="headings", height=8)
        for column, heading, width in (("cell", "Cellule", 110), ("column", "Colonne", 130),
                                       ("message", "Problème", 520)):
            self.problems.heading(column, text=heading, anchor="w")
            self.problems.column(column, width=width, stretch=column == "message", anchor="w")
        self.problems.grid(row=7, column=0, columnspan=3, sticky="nsew")
        scroll = ttk.Scrollbar(frame, orient="vertical", command=self.problems.yview)
        scroll.grid(row=7, column=3, sticky="ns")
        self.problems.configure(yscrollcommand=scroll.set)
        frame.rowconfigure(6, weight=1)
        frame.rowconfigure(7, weight=2)

        shortcuts: dict[str, Callable[[], None]] = {
            "c": self.ask_path, "v": lambda: self.start("check"), "r": lambda: self.start("fill"),
            "p": lambda: self.start("share"), "o": self.open_result, "i": self.ask_sources,
            "f": self.confirm_import,
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
            self.status.set(f"Classeur choisi : {Path(chosen).name}. Vérifier, Remplir ou Partager ?")

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

    def start(self, action: str) -> None:
        if self.busy:
            return
        text = self.path.get().strip()
        if not text:
            self.show(Outcome(error="Choisissez d'abord un classeur (bouton « Choisir… »)."))
            return
        path, federation = Path(text), self.federations.get(self.federation.get(), "")
        from .app.check import check
        from .app.fill import fill
        from .app.importing import import_results

        def run(path: Path, federation: str, progress: Progress) -> Outcome:
            if action == "check":
                return check(path, federation, progress)
            return fill(path, federation, progress=progress)

        if action == "share":
            options = {"clubs": self.share_clubs.get(), "pdf": self.share_pdf.get(), "csv": self.share_csv.get()}

            def run(path: Path, federation: str, progress: Progress) -> Outcome:
                return share(path, federation, progress=progress, **options)

        elif action in ("preview", "import"):
            sources, trial = list(self.sources), action == "preview"

            def run(path: Path, federation: str, progress: Progress) -> Outcome:
                return import_results(path, sources, trial=trial, federation=federation or None, progress=progress,
                                      then="« Confirmer l'import »")

        self.busy = True
        self.action = action
        for button in (*self.buttons.values(), self.open_button, self.choose, self.confirm):
            button.configure(state="disabled")
        self.clear()
        self.progress.configure(mode="determinate", value=0)
        self.status.set({"check": "Vérification…", "fill": "Remplissage…", "share": "Partage…",
                         "preview": "Lecture des résultats à importer…", "import": "Import…"}[action])
        threading.Thread(target=self.work, args=(run, path, federation), daemon=True).start()

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
        self.problems.delete(*self.problems.get_children())

    def show(self, outcome: Outcome) -> None:
        self.busy = False
        for button in (*self.buttons.values(), self.choose):
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
        for problem in outcome.problems:
            where = f"{problem.sheet}!{problem.cell}" if problem.cell else (
                f"{problem.sheet}, ligne {problem.row}" if problem.row is not None else problem.sheet)
            self.problems.insert("", "end", values=(where, problem.column or "", problem.message))
        self.status.set(self.status_line(outcome))
        if self.action == "preview" and not outcome.error:
            self.confirm.configure(state="normal")  # the preview is shown: the import may be confirmed
        self.result = outcome.result if outcome.result is not None and outcome.result.exists() else None
        self.open_button.configure(state="normal" if self.result else "disabled")


    def status_line(self, outcome: Outcome) -> str:
        """The line under the progress bar once an action is over."""
        if outcome.problems:
            where = "les sources" if outcome.error and "dans les sources" in outcome.error else "le classeur"
            return (f"{len(outcome.problems)} problème{'s' if len(outcome.problems) > 1 else ''} à corriger dans "
                    f"{where} (liste ci-dessous).")
        if outcome.error:
            return ("Rien n'a été fait : voir le message ci-dessous." if not outcome.lines
                    else "Fait en partie : voir les messages ci-dessous.")
        if self.action == "preview":
            return "Aperçu ci-dessous : rien n'est écrit. « Confirmer l'import » écrit ces lignes dans le classeur."
        return "Terminé. « Ouvrir le résultat » l'ouvre."


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
