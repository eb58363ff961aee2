"""The window (``xlcircuit-fenetre``), used as an organiser would: started under Xvfb, driven with the
keyboard and the mouse through the X server (xdotool), the workbook checked afterwards."""

from __future__ import annotations

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
    path = write_season(tmp_path / "f.xlsx", [("Open", None, "normal", None)],
                        [("Open", "Alice", "premier", None, None), ("Ailleurs", "Bob", "2e", None, None)])
    before = path.read_bytes()
    window.path.set(str(path))
    run_action(window, window.buttons["fill"])
    rows = [window.problems.item(item, "values") for item in window.problems.get_children()]
    assert rows == [
        ("Résultats!C2", "Place", "place attendue : un entier positif (1, 2, 3…) ; trouvé « premier »"),
        ("Résultats!A3", "Tournoi", "tournoi « Ailleurs » absent de la table Tournois"),
    ]
    assert window.status.get() == "2 problèmes à corriger dans le classeur (liste ci-dessous)."
    assert "Rien n'a été écrit : corrigez-les" in window.messages.get("1.0", "end")
    assert path.read_bytes() == before
    assert str(window.open_button.cget("state")) == "disabled"


def test_check_then_share_from_the_window(window, demo_path):
    window.path.set(str(demo_path))
    run_action(window, window.buttons["check"])
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
    rows = [window.problems.item(item, "values") for item in window.problems.get_children()]
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
