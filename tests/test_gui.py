"""The window (``xlcircuit-fenetre``), used as an organiser would: started under Xvfb, driven with the
keyboard and the mouse through the X server (xdotool), the workbook checked afterwards."""

from __future__ import annotations

import datetime as dt
import os
import random
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import openpyxl
import pytest
from conftest import leader, table_dicts, write_season

from xlcircuit import gui

ROOT = Path(__file__).resolve().parent.parent


def need(*programs: str) -> None:
    """Skip without the X tools, with the reason; under CI, fail instead (.ci/run installs them)."""
    missing = [p for p in programs if shutil.which(p) is None]
    if missing:
        if os.environ.get("CI"):
            pytest.fail(f"{', '.join(missing)} required in CI: .ci/run must install xvfb and xdotool")
        pytest.skip(f"{', '.join(missing)} not installed (apt-get install xvfb xdotool)")
    try:
        import tkinter  # noqa: F401
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail("tkinter required in CI (Debian: python3-tk)")
        pytest.skip("tkinter is not installed (Debian: python3-tk)")


def start_xvfb() -> tuple[subprocess.Popen, str]:
    """Xvfb on a free display. A random high number, not the first free one: X clients look for a
    display's abstract socket first, which other machines' users sharing this network may also hold."""
    for _ in range(20):
        number = random.randrange(1000, 60000)
        if Path(f"/tmp/.X{number}-lock").exists():
            continue
        read, write = os.pipe()
        server = subprocess.Popen(["Xvfb", f":{number}", "-displayfd", str(write), "-screen", "0", "1024x768x24",
                                   "-nolisten", "tcp"], pass_fds=(write,),
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(write)
        with os.fdopen(read, "rb") as pipe:  # the number, then a newline: read both, or Xvfb dies of SIGPIPE
            ready = pipe.readline().decode().strip()  # written once the server accepts clients
        if ready == str(number):
            return server, f":{number}"
        server.wait(10)
    raise AssertionError("Xvfb did not start")


@pytest.fixture(scope="module")
def display():
    """A virtual screen of its own, as ``DISPLAY``, for the whole module: Tk keeps its connection to a
    display open after its windows are gone, and a server stopped under it ends the process."""
    need("Xvfb", "xdotool")
    server, name = start_xvfb()
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DISPLAY", name)
        yield name
    server.terminate()
    server.wait(10)


def xdotool(*args: str) -> str:
    run = subprocess.run(["xdotool", *args], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, f"xdotool {' '.join(args)}: {run.stderr}"
    return run.stdout.strip()


def wait_for(condition, what: str, timeout: float = 90, pump=None):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pump:
            pump()
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def filled_leader(path: Path) -> str | None:
    try:
        return leader(path)
    except (KeyError, IndexError, OSError, ValueError):
        return None


def test_an_organiser_chooses_fills_and_opens_the_workbook(display, demo_path, tmp_path):
    """Start the window like the shortcut does, choose the workbook in the file dialog, Remplir, Ouvrir."""
    bin_dir, opened = tmp_path / "bin", tmp_path / "opened.txt"
    bin_dir.mkdir()
    # The desktop's "open this file" program, recording what the window asks it to open.
    opener = bin_dir / "xdg-open"
    opener.write_text(f'#!/bin/sh\nprintf "%s" "$1" > "{opened}"\n')
    opener.chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}
    window = subprocess.Popen([sys.executable, "-m", "xlcircuit.gui"], cwd=tmp_path, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        main = xdotool("search", "--sync", "--name", "^xlcircuit$").splitlines()[0]
        xdotool("windowfocus", "--sync", main)
        xdotool("key", "alt+c")  # « Choisir… »
        dialog = xdotool("search", "--sync", "--name", "^Choisir un classeur$").splitlines()[0]
        xdotool("windowfocus", "--sync", dialog)
        xdotool("type", "--delay", "5", str(demo_path))
        xdotool("key", "Return")
        xdotool("windowfocus", "--sync", main)
        assert filled_leader(demo_path) is None  # typed, not filled yet
        xdotool("key", "alt+r")  # « Remplir »
        assert wait_for(lambda: filled_leader(demo_path), "the fill") == "Malcolm"
        wb = openpyxl.load_workbook(demo_path)
        assert table_dicts(wb["Classement"], "Classement")[1]["Joueur"] == "Camille Roux"
        xdotool("windowfocus", "--sync", main)
        xdotool("key", "alt+o")  # « Ouvrir le résultat »
        assert wait_for(lambda: opened.exists() and opened.read_text(), "the result to open") == str(demo_path)
        assert window.poll() is None, window.communicate()
    finally:
        window.terminate()
        _, err = window.communicate(timeout=10)
    assert "Traceback" not in err, err


@pytest.fixture
def window(display):
    import tkinter as tk

    root = tk.Tk()
    win = gui.Window(root)
    root.update()
    yield win
    root.destroy()


def click(win, widget) -> None:
    """A mouse click in the middle of ``widget``, through the X server."""
    win.root.update()
    x = widget.winfo_rootx() + widget.winfo_width() // 2
    y = widget.winfo_rooty() + widget.winfo_height() // 2
    xdotool("mousemove", "--sync", str(x), str(y), "click", "1")


def run_action(win, button) -> None:
    click(win, button)
    wait_for(lambda: win.busy, "the action to start", 30, pump=win.root.update)
    wait_for(lambda: not win.busy, "the action to end", 90, pump=win.root.update)


def test_problems_are_listed_by_cell_and_nothing_is_written(window, tmp_path):
    path = write_season(tmp_path / "f.xlsx", [("Open", dt.date(2025, 10, 1), "normal", None)],
                        [("Open", "Alice", "premier", None, None), ("Ailleurs", "Bob", "2e", None, None)])
    before = path.read_bytes()
    window.path.set(str(path))
    run_action(window, window.buttons["fill"])
    rows = [problem_row(window, item) for item in window.problems.get_children()]
    assert rows == [
        ("Résultats!C2", "Place", "place attendue : un entier positif (1, 2, 3…) ; trouvé « premier »"),
        ("Résultats!A3", "Tournoi", "tournoi « Ailleurs » absent de la table Tournois"),
    ]
    assert window.status.get() == "2 problèmes à corriger dans le classeur (liste ci-dessous)."
    assert "Rien n'a été écrit : corrigez-les" in window.messages.get("1.0", "end")
    assert path.read_bytes() == before
    assert str(window.open_button.cget("state")) == "disabled"


def problem_row(win, item) -> tuple[str, str, str]:
    """A row of the problems list, its message read as one line (the window wraps it to the column)."""
    cell, column, message = win.problems.item(item, "values")
    return cell, column, message.replace("\n", " ")


def test_every_problem_is_readable_without_widening_the_window(window, tmp_path):
    path = write_season(tmp_path / "f.xlsx", [("Coupe de France web", dt.date(2025, 10, 1), None, None),
                                              ("Open", None, "normal", None)],
                        [("Coupe de France web", "Alice", "premier", None, None)])
    window.path.set(str(path))
    run_action(window, window.buttons["check"])
    window.root.update()
    items = window.problems.get_children()
    assert len(items) == 3
    width = int(window.problems.column("message", "width"))
    lines = [window.problems.item(item, "values")[2].split("\n") for item in items]
    assert max(len(message) for message in lines) >= 2  # the long ones are wrapped…
    for message in lines:
        assert all(window.font.measure(line) <= width for line in message)  # …into the column as it is
    import tkinter.ttk as ttk
    height = int(ttk.Style(window.root).lookup(window.problem_style, "rowheight"))
    assert height >= max(len(message) for message in lines) * window.font.metrics("linespace")  # every line shows
    assert problem_row(window, items[0])[2].startswith("type manquant : normal, majeur, en ligne")


def test_a_stale_lock_is_explained_and_the_window_offers_to_go_on(window, demo_path):
    lock = demo_path.parent / f".~lock.{demo_path.name}#"
    lock.write_text("ancien,machine,01.12.2026 10:00;")
    window.path.set(str(demo_path))
    click(window, window.buttons["fill"])  # stopped at once, before any work: wait for what the window says
    wait_for(lambda: window.status.get().startswith("Classeur ouvert"), "the lock's message", 60,
             pump=window.root.update)
    text = window.messages.get("1.0", "end")
    assert f"saison.xlsx est ouvert dans LibreOffice : son fichier verrou « {lock.name} » (un fichier caché, à côté " \
           "du classeur) le dit ; rien n'a été écrit." in text
    assert "« Remplir quand même » dans la fenêtre" in text and filled_leader(demo_path) is None
    assert window.force_button.winfo_ismapped()
    assert window.status.get().startswith("Classeur ouvert dans un autre programme ?")
    run_action(window, window.force_button)  # the organiser knows LibreOffice crashed: go on anyway
    assert filled_leader(demo_path) == "Malcolm"
    text = window.messages.get("1.0", "end")
    assert "--force : le verrou « .~lock.saison.xlsx# » de LibreOffice est passé outre" in text
    assert not window.force_button.winfo_ismapped()


def test_a_name_with_control_characters_is_shown_visibly(window, tmp_path):
    """A player's name holding an 8-bit CSI and a right-to-left override, and a problem quoting one: escapes."""
    import datetime as dt

    name = "Eve\u009b2J\u202elivE"
    path = write_season(tmp_path / "f.xlsx",
                        [("Open", dt.date(2025, 10, 1), "normal", None), ("France", dt.date(2026, 5, 1), "majeur", None)],
                        [("Open", name, 1, None, None), ("Open", "Bob", 2, None, None),
                         ("France", name, 1, None, None), ("France", "Bob", "2\u202e", None, None)])
    window.path.set(str(path))
    run_action(window, window.buttons["check"])
    rows = [window.problems.item(item, "values") for item in window.problems.get_children()]
    assert rows == [("Résultats!C5", "Place", "place attendue : un entier positif (1, 2, 3…) ; trouvé « 2\\u202e »")]
    path = write_season(tmp_path / "g.xlsx",
                        [("Open", dt.date(2025, 10, 1), "normal", None), ("France", dt.date(2026, 5, 1), "majeur", None)],
                        [("Open", name, 1, None, None), ("Open", "Bob", 2, None, None),
                         ("France", name, 1, None, None), ("France", "Bob", 2, None, None)])
    window.path.set(str(path))
    run_action(window, window.buttons["check"])
    shown = window.messages.get("1.0", "end")
    assert "Eve\\x9b2J\\u202elivE" in shown and "\u009b" not in shown and "\u202e" not in shown


def test_check_then_share_from_the_window(window, demo_path):
    window.path.set(str(demo_path))
    run_action(window, window.buttons["check"])
    assert window.status.get() == "Terminé, avec 1 point à vérifier (ci-dessous). « Ouvrir le résultat » l'ouvre."
    text = window.messages.get("1.0", "end")
    assert "saison.xlsx est correct, avec 1 point à vérifier (ci-dessous) : 11 tournois, 84 personnes, 61 classées." in text
    assert "À vérifier (" in text and "  - Doublon dans « Tournoi de Toulouse »" in text
    assert text.index("À vérifier (") > text.index("est correct")  # the summary first, as on the command line
    assert float(window.progress.cget("value")) == 1.0 and not window.problems.get_children()
    assert filled_leader(demo_path) is None  # Vérifier writes nothing

    window.share_pdf.set(False)  # the PDF needs LibreOffice: tested with the command line (test_share.py)
    run_action(window, window.buttons["share"])
    folder = gui.share_folder(demo_path)
    assert window.result == folder
    names = sorted(p.name for p in folder.iterdir())
    assert "saison-Classement.csv" in names and "saison-Points.csv" in names
    clubs = [n for n in names if n.startswith("Classement - ")]
    assert len(clubs) == 8, names
    text = window.messages.get("1.0", "end")
    # The same lines as the command line's (one use case for both): the folder and the files as written.
    assert f"8 classeurs de club écrits dans {folder} :" in text and f"CSV écrit : {folder / 'saison-Points.csv'}" in text
    assert str(window.open_button.cget("state")) == "normal"


def test_without_a_workbook_the_window_says_what_to_do(window):
    run_action_quick = window.buttons["check"]
    click(window, run_action_quick)
    wait_for(lambda: "Choisissez d'abord un classeur" in window.messages.get("1.0", "end"), "the message", 30,
             pump=window.root.update)
    assert not window.busy


def test_the_window_is_an_installed_gui_script():
    """pip installs the window's launcher beside python (on Windows, xlcircuit-fenetre.exe in Scripts)."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '[project.gui-scripts]\nxlcircuit-fenetre = "xlcircuit.gui:main"' in text
    scripts = Path(sys.executable).parent
    assert any((scripts / name).exists() for name in ("xlcircuit-fenetre", "xlcircuit-fenetre.exe"))


def _type_into_dialog(title: str, text: str) -> threading.Thread:
    """In the background (the dialog runs its own loop inside the window's), wait for the file chooser called
    ``title``, type ``text`` into it and press Return, as an organiser would."""
    pattern = "^" + "".join(c if c.isascii() else ".+" for c in title) + "$"  # xdotool matches bytes

    def answer() -> None:
        dialog = xdotool("search", "--sync", "--name", pattern).splitlines()[0]
        xdotool("windowfocus", "--sync", dialog)
        xdotool("type", "--delay", "5", text)
        xdotool("key", "Return")

    thread = threading.Thread(target=answer, daemon=True)
    thread.start()
    return thread


def test_import_chooses_files_previews_then_confirms(window, tmp_path):
    """« Importer… »: choose two result files in the file chooser, see the preview (nothing written), then
    « Confirmer l'import » writes the lines into the season."""
    season = write_season(tmp_path / "saison.xlsx", [], [])
    lyon = openpyxl.Workbook()
    sheet = lyon.active
    sheet.title = "Open de Lyon"
    sheet.append(["Open de Lyon, classement final"])
    sheet.append([])
    sheet.append(["Clt", "NOM", "Prénom", "Armée"])
    sheet.append([1, "MARTIN", "Alice", "France"])
    sheet.append(["2 ex", "DURAND", "Bob", "Italie"])
    lyon.save(tmp_path / "lyon.xlsx")
    (tmp_path / "paris.csv").write_bytes("Rang;Joueur\n1;Bob Durand\n2;Alice Martin\n".encode("cp1252"))
    window.path.set(str(season))
    before = season.read_bytes()
    chooser = _type_into_dialog(gui.IMPORT_TITLE, '"lyon.xlsx" "paris.csv"')
    click(window, window.buttons["import"])
    wait_for(lambda: window.busy, "the preview to start", 60, pump=window.root.update)
    wait_for(lambda: not window.busy, "the preview to end", 90, pump=window.root.update)
    chooser.join(10)
    text = window.messages.get("1.0", "end")
    assert "Essai : rien n'est écrit dans saison.xlsx." in text
    assert "« Clt » (A) → Place" in text and "colonnes ignorées : « Armée » (D)" in text
    assert "tournoi : « paris » (nouveau)" in text
    assert season.read_bytes() == before  # the preview writes nothing
    assert str(window.confirm.cget("state")) == "normal"
    assert window.status.get().startswith("Aperçu ci-dessous : rien n'est écrit.")

    run_action(window, window.confirm)
    text = window.messages.get("1.0", "end")
    assert "Import dans" in text and "4 lignes de 2 sources" in text, text
    rows = table_dicts(openpyxl.load_workbook(season)["Résultats"], "Resultats")
    assert [(r["Tournoi"], r["Joueur"], r["Place"]) for r in rows] == [
        ("Open de Lyon", "Alice MARTIN", 1), ("Open de Lyon", "Bob DURAND", 2),
        ("paris", "Bob DURAND", 1), ("paris", "Alice MARTIN", 2)]
    assert str(window.confirm.cget("state")) == "disabled"  # confirmed once


def test_import_problems_are_listed_by_source_cell(window, tmp_path):
    season = write_season(tmp_path / "saison.xlsx", [], [])
    (tmp_path / "bad.csv").write_text("Place;Joueur\npremier;Alice\n2;\n", encoding="utf-8")
    window.path.set(str(season))
    window.sources = [tmp_path / "bad.csv"]
    window.start("preview")
    wait_for(lambda: not window.busy, "the preview to end", 90, pump=window.root.update)
    rows = [problem_row(window, item) for item in window.problems.get_children()]
    assert rows == [("bad.csv!A2", "Place", "place attendue : un entier positif (1, 2, 3…) ; trouvé « premier »"),
                    ("bad.csv!B3", "Joueur", "joueur manquant : la ligne a d'autres valeurs ; il en faut une ici "
                                             "(ou videz la ligne)")]
    assert window.status.get() == "2 problèmes à corriger dans les sources (liste ci-dessous)."
    assert str(window.confirm.cget("state")) == "disabled"


def test_the_command_line_and_the_window_say_the_same_for_the_same_workbook(window, demo_path, tmp_path, capsys):
    """One use case for both faces: the same warnings (an organiser's cell on an output sheet among them,
    which the window once left unsaid) and the same summary."""
    from xlcircuit.cli import main

    twin = tmp_path / "jumeau" / demo_path.name
    twin.parent.mkdir()
    main(["fill", str(demo_path)])  # a first fill, then a cell of the organiser's beside the standings
    shutil.copy(demo_path, twin)
    for path in (demo_path, twin):
        wb = openpyxl.load_workbook(path)
        wb["Classement"]["Z1"] = "ma note"
        wb.save(path)
    capsys.readouterr()
    assert main(["fill", str(demo_path)]) == 0
    printed = capsys.readouterr()
    cli_warnings = [line[4:] for line in printed.err.splitlines() if line.startswith("  - ")]

    window.path.set(str(twin))
    run_action(window, window.buttons["fill"])
    text = window.messages.get("1.0", "end")
    window_warnings = [line[4:] for line in text.splitlines() if line.startswith("  - ")]
    assert cli_warnings and any("cellules à vous" in w for w in cli_warnings), printed.err
    assert window_warnings == cli_warnings
    assert printed.out.splitlines()[1:] == text.splitlines()[1:len(printed.out.splitlines())]

# --- season after season: next season, two names merged, what changed --------------------------------------


def test_next_season_from_the_window_writes_it_and_chooses_it(display, tmp_path):
    """Alt+S on last season's workbook: the save dialog proposes the season a year on; Enter writes it, and the
    window works on it from then on (Vérifier accepts it)."""
    from conftest import filled_example

    from xlcircuit.federations import ADAPTERS

    filled = filled_example(ADAPTERS["tdf"], tmp_path)
    previous = filled.rename(tmp_path / "2025-2026.xlsx")
    window = subprocess.Popen([sys.executable, "-m", "xlcircuit.gui", str(previous)], cwd=tmp_path,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    target = tmp_path / "2026-2027.xlsx"
    try:
        main = xdotool("search", "--sync", "--name", "^xlcircuit$").splitlines()[0]
        xdotool("windowfocus", "--sync", main)
        xdotool("key", "alt+s")  # « Saison suivante… »
        dialog = xdotool("search", "--sync", "--name", "^Enregistrer la saison suivante sous$").splitlines()[0]
        xdotool("windowfocus", "--sync", dialog)
        xdotool("key", "Return")  # the name it proposes
        wait_for(lambda: target.exists(), "next season's workbook")
        wb = wait_for(lambda: _loaded(target), "next season's workbook, written")
        assert [row[1] for row in wb["Saison"].iter_rows(min_row=4, max_row=4, values_only=True)] == ["2026-2027"]
        assert next(r for r in wb["Palmarès"].iter_rows(min_row=2, values_only=True) if r[0])[:2] == (
            "2025-2026", "Malcolm")
        assert window.poll() is None
    finally:
        window.terminate()
        _, err = window.communicate(timeout=10)
    assert "Traceback" not in err, err


def test_the_window_works_on_next_seasons_workbook_once_written(window, tmp_path, monkeypatch):
    from conftest import filled_example

    from xlcircuit.federations import ADAPTERS

    previous = filled_example(ADAPTERS["dbm"], tmp_path)
    target = tmp_path / "2026-2027.xlsx"
    monkeypatch.setattr("tkinter.filedialog.asksaveasfilename", lambda **kw: str(target))
    window.path.set(str(previous))
    run_action(window, window.season_buttons["next"])
    text = window.messages.get("1.0", "end")
    assert f"Classeur créé : {target}, saison suivante de {previous.name}." in text
    assert "seuil_S : moyenne finale d'Yves Bernard, dernier joueur actif (S)" in text
    assert window.path.get() == str(target) and window.result == target
    run_action(window, window.buttons["check"])
    assert "2026-2027.xlsx est correct" in window.messages.get("1.0", "end")


def _loaded(path: Path):
    try:
        return openpyxl.load_workbook(path)
    except Exception:  # still being written
        return None


def test_two_names_are_merged_from_the_window(window, tmp_path):
    path = write_season(tmp_path / "f.xlsx", [("Open", dt.date(2025, 10, 1), "normal", None),
                                              ("Coupe", dt.date(2025, 11, 1), "normal", None)],
                        [("Open", "Jean Muller", 1, None, None), ("Open", "Ana", 2, None, None),
                         ("Coupe", "MULLER Jean", 1, None, None), ("Coupe", "Ana", 2, None, None)])
    window.path.set(str(path))
    click(window, window.season_buttons["fusion"])
    wait_for(lambda: getattr(window, "fusion_dialog", None), "the dialog", 30, pump=window.root.update)
    dialog = window.fusion_dialog
    entries = [w for w in dialog.winfo_children()[0].winfo_children() if w.winfo_class() == "TEntry"]
    for entry, text in zip(entries, ("Jean Muller", "MULLER Jean")):
        click(window, entry)
        xdotool("type", "--delay", "5", text)
    window.root.update()
    assert [v.get() for v in window.fusion_names] == ["Jean Muller", "MULLER Jean"]
    click(window, window.fusion_button)
    wait_for(lambda: window.busy, "the merge to start", 30, pump=window.root.update)
    wait_for(lambda: not window.busy, "the merge to end", 90, pump=window.root.update)
    text = window.messages.get("1.0", "end")
    assert "« MULLER Jean » ajouté à la table Joueurs" not in text
    assert "« Jean Muller » ajouté à la table Joueurs, avec l'alias « MULLER Jean »" in text
    joueurs = table_dicts(openpyxl.load_workbook(path)["Joueurs"], "Joueurs")
    assert [(r["Joueur"], r["Alias"]) for r in joueurs] == [("Jean Muller", "MULLER Jean")]
    run_action(window, window.buttons["fill"])
    assert table_dicts(openpyxl.load_workbook(path)["Classement"], "Classement")[0]["Tournois classés"] == 2


def test_what_changed_since_a_published_workbook_from_the_window(window, demo_path, tmp_path, monkeypatch):
    from xlcircuit.cli import main as cli

    assert cli(["fill", str(demo_path)]) == 0
    published = tmp_path / "publié.xlsx"
    shutil.copy(demo_path, published)
    wb = openpyxl.load_workbook(demo_path)
    wb["Résultats"].append(["Tournoi de Lyon", "Jean Nouveau", 13, None, None])
    wb.save(demo_path)
    assert cli(["fill", str(demo_path)]) == 0
    asked = []
    monkeypatch.setattr("tkinter.filedialog.askopenfilename", lambda **kw: asked.append(kw) or str(published))
    window.path.set(str(demo_path))
    run_action(window, window.season_buttons["diff"])
    assert asked and asked[0]["title"] == "Choisir le classeur d'avant"
    text = window.messages.get("1.0", "end")
    assert "Tour de France de Diplomatie : ce qui a changé de publié.xlsx à saison.xlsx" in text
    assert "  Tournoi de Lyon : 1 ajouté : Jean Nouveau (place 13, statut classé)" in text
    assert "Jean Nouveau : entre au classement : sans rang, total 100,0" in text
