"""The ``xlcircuit`` command, as an organiser runs it."""

from __future__ import annotations

import hashlib
import re
import subprocess
import sys
from pathlib import Path


from conftest import leader, write_season
from xlcircuit.cli import build_parser, main
from xlcircuit.workbook import FEDERATIONS

README = Path(__file__).parent.parent / "README.md"


def commands() -> list[str]:
    sub = next(a for a in build_parser()._actions if a.dest == "command")
    return sorted(sub.choices)


def test_every_command_is_documented_in_the_readme():
    readme = README.read_text(encoding="utf-8")
    for name in commands():
        assert re.search(rf"xlcircuit {name}\b", readme), f"'xlcircuit {name}' is not in README.md"


def test_the_readme_starts_with_the_two_setup_commands():
    lines = [line.strip() for line in README.read_text(encoding="utf-8").splitlines() if line.strip()]
    code = [line for line in lines[:12] if line.startswith("pip install")]
    assert code[:2] == ["pip install -e . && xlcircuit demo", "pip install -e '.[test]' && pytest"]
    ci = (Path(__file__).parent.parent / ".ci" / "run").read_text(encoding="utf-8")
    assert "pip install -e '.[test]' && pytest" in ci


def test_demo_writes_and_fills_the_example(tmp_path, capsys):
    assert main(["demo", str(tmp_path / "demo")]) == 0
    out = capsys.readouterr()
    assert "exemple rempli" in out.out and "  1. Malcolm" in out.out
    assert "Doublon" in out.err
    assert leader(tmp_path / "demo" / "tdf-exemple.xlsx") == "Malcolm"
    for module in FEDERATIONS.values():
        assert f"{module.TITLE}, exemple rempli : " in out.out
        assert (tmp_path / "demo" / module.EXAMPLE).exists()


def test_new_names_the_tables_to_fill(tmp_path, capsys):
    assert main(["new", "tdf", str(tmp_path / "s.xlsx")]) == 0
    assert "Remplissez les tables « Tournois » et « Résultats », puis lancez" in capsys.readouterr().out


def test_schedule_refuses_a_federation_without_a_calendar(small_season, capsys):
    before = small_season.read_bytes()
    assert main(["schedule", str(small_season)]) == 1
    assert "pas de calendrier à tirer" in capsys.readouterr().err
    assert small_season.read_bytes() == before


def test_new_refuses_to_overwrite_without_force(tmp_path, capsys):
    target = tmp_path / "saison.xlsx"
    assert main(["new", "tdf", str(target)]) == 0
    assert main(["new", "tdf", str(target)]) == 1
    assert "existe déjà" in capsys.readouterr().err
    assert main(["new", "tdf", str(target), "--force"]) == 0


def test_check_reports_problems_and_writes_nothing(tmp_path, capsys):
    path = write_season(tmp_path / "f.xlsx", [("Open", None, "normal", None)],
                        [("Open", "Alice", "premier", None, None), ("Ailleurs", "Bob", 1, None, None)])
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    assert main(["check", str(path)]) == 1
    assert main(["fill", str(path)]) == 1
    err = capsys.readouterr().err
    assert "2 problèmes dans le classeur" in err
    assert "Résultats!C2 (colonne « Place »)" in err and "Rien n'a été écrit" in err
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before


def test_fill_with_output_and_check_on_a_good_workbook(small_season, tmp_path, capsys):
    out = tmp_path / "rempli.xlsx"
    assert main(["check", str(small_season)]) == 0
    assert main(["fill", str(small_season), "-o", str(out)]) == 0
    assert "  1. Alice" in capsys.readouterr().out
    assert leader(out) == "Alice"


def test_a_bad_file_gives_one_sentence_and_status_1(tmp_path):
    bad = tmp_path / "pas-un-classeur.xlsx"
    bad.write_bytes(b"not a zip")
    run = subprocess.run([sys.executable, "-m", "xlcircuit", "fill", str(bad)], capture_output=True, text=True)
    assert run.returncode == 1
    assert "Traceback" not in run.stderr
    assert run.stderr.strip().count("\n") == 0 and "pas-un-classeur.xlsx" in run.stderr


def test_usage_errors_exit_2(capsys):
    try:
        main(["fill"])
    except SystemExit as exc:
        assert exc.code == 2
    else:
        raise AssertionError("argparse should have exited")


class FakeTerminal:
    def __init__(self, tty: bool):
        self.tty, self.text = tty, ""

    def isatty(self) -> bool:
        return self.tty

    def write(self, text: str) -> None:
        self.text += text

    def flush(self) -> None:
        pass


def test_progress_bar_shows_on_a_terminal_for_long_fills_only():
    import time

    from xlcircuit.cli import Progress

    terminal, pipe = FakeTerminal(True), FakeTerminal(False)
    bars = [Progress(terminal, delay=0.0), Progress(pipe, delay=0.0)]
    for bar in bars:
        bar.step("enregistrement")
    time.sleep(0.6)
    for bar in bars:
        bar.close()
    assert "[##################............] enregistrement…" in terminal.text
    assert pipe.text == ""
    quick = FakeTerminal(True)
    bar = Progress(quick, delay=5.0)
    bar.close()
    assert quick.text == ""


def test_a_folder_that_is_a_file_gives_one_sentence(tmp_path, capsys):
    blocker = tmp_path / "demo"
    blocker.write_text("")
    assert main(["demo", str(blocker)]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("Impossible de lire ou d'écrire") and "\n" not in err
