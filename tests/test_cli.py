"""The ``xlcircuit`` command, as an organiser runs it."""

from __future__ import annotations

import datetime as dt
import hashlib
import re
import subprocess
import sys
from pathlib import Path

import openpyxl
from conftest import leader, table_dicts, write_season

from xlcircuit.cli import build_parser, main
from xlcircuit.federations import ADAPTERS as FEDERATIONS

README = Path(__file__).parent.parent / "README.md"


def commands() -> list[str]:
    sub = next(a for a in build_parser()._actions if a.dest == "command")
    return sorted(sub.choices)


def test_every_command_is_documented_in_the_readme():
    readme = README.read_text(encoding="utf-8")
    for name in commands():
        assert re.search(rf"xlcircuit {name}\b", readme), f"'xlcircuit {name}' is not in README.md"


TEST_COMMAND = 'pip install -e ".[test]" && pytest'


def test_the_readme_starts_with_the_install_then_the_two_commands():
    readme = README.read_text(encoding="utf-8")
    headings = [line for line in readme.splitlines() if line.startswith("#")]
    assert headings[1] == "## Installer xlcircuit, pas à pas"
    install = readme[:readme.index("### 5. Les deux commandes")]
    for needed in ("**Windows**", "**Mac**", "**Linux**", "python.org", "python3 -m venv .venv", "py -m venv .venv",
                   "pipx install", "Download ZIP", ".whl", "externally-managed-environment"):
        assert needed in install, needed
    block = readme.split("### 5. Les deux commandes", 1)[1].split("```sh\n", 1)[1].split("```", 1)[0]
    assert block.splitlines() == ["pip install -e . && xlcircuit demo", TEST_COMMAND]
    ci = (Path(__file__).parent.parent / ".ci" / "run").read_text(encoding="utf-8")
    assert ci.rstrip().splitlines()[-1] == TEST_COMMAND  # CI runs the README's test command, exactly


def test_the_readme_and_the_guides_link_the_french_rules():
    root = README.parent
    readme = README.read_text(encoding="utf-8")
    for code in FEDERATIONS:
        rules = root / "docs" / "regles" / f"{code}.md"
        assert rules.exists() and f"(docs/regles/{code}.md)" in readme
        assert "(decisions.md#" in rules.read_text(encoding="utf-8")
        guide = root / "docs" / f"{code}.md"
        if guide.exists():
            assert f"(regles/{code}.md)" in guide.read_text(encoding="utf-8"), guide
    assert "(docs/regles/decisions.md)" in readme
    decisions = (root / "docs" / "regles" / "decisions.md").read_text(encoding="utf-8")
    english = readme.split("## Rules decisions", 1)[1].split("\n## ", 1)[0]
    # one French section per English one
    assert decisions.count("\n## ") == english.count("\n### ") == len(FEDERATIONS)


def test_demo_writes_and_fills_the_example(tmp_path, capsys):
    assert main(["demo", str(tmp_path / "demo")]) == 0
    out = capsys.readouterr()
    assert "exemple rempli" in out.out and "  1. Malcolm" in out.out
    assert "Doublon" in out.err
    assert leader(tmp_path / "demo" / "tdf-exemple.xlsx") == "Malcolm"
    for module in FEDERATIONS.values():
        assert f"{module.title}, exemple rempli : " in out.out
        assert (tmp_path / "demo" / module.example).exists()


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
    path = write_season(tmp_path / "f.xlsx", [("Open", dt.date(2025, 10, 1), "normal", None)],
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


# --- French for organisers (issue 17) --------------------------------------------------------------

#: English words argparse would print if a message escaped the translation.
ENGLISH = re.compile(r"(?<!-)\b(usage|error|help|invalid|choose from|required|positional|optional|expected|"
                     r"unrecognized|show this|show program)\b")


def run_cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "xlcircuit", *args], capture_output=True, text=True, cwd=cwd)


def every_parser():
    """The main parser and each subcommand's, with the words that call it."""
    found, todo = [], [((), build_parser())]
    while todo:
        words, parser = todo.pop()
        found.append((words, parser))
        for action in parser._actions:
            if action.dest in ("command", "excel_command"):
                todo += [((*words, name), sub) for name, sub in action.choices.items()]
    return found


def test_every_help_is_french():
    parsers = every_parser()
    assert len(parsers) == 16  # xlcircuit, 11 commands, excel's 4
    for words, parser in parsers:
        text = parser.format_help()
        assert text.startswith("utilisation : xlcircuit"), words
        assert "options :" in text and "affiche cette aide, puis s'arrête" in text, words
        assert not ENGLISH.search(text.replace("xlwings Lite", "")), (words, ENGLISH.search(text))


USAGE_ERRORS = [
    (["fil", "saison.xlsx"], "« fil » n'existe pas ; vouliez-vous dire fill ?"),
    (["chek", "saison.xlsx"], "vouliez-vous dire check ?"),
    (["new", "tdff", "x.xlsx"], "« tdff » n'existe pas ; vouliez-vous dire tdf ?"),
    (["new", "xyz", "x.xlsx"], "« xyz » n'existe pas (possibles : tdf, dbm, cdf, elo, torres, tdf-tournoi, "
                               "dbm-tournoi, cdf-tournoi, elo-tournoi, torres-tournoi)"),
    (["new", "dbm-tournois", "x.xlsx"], "« dbm-tournois » n'existe pas ; vouliez-vous dire dbm-tournoi ?"),
    (["fill"], "il manque : FICHIER"),
    ([], "il manque : COMMANDE"),
    (["excel"], "il manque : SOUS-COMMANDE"),
    (["fill", "s.xlsx", "--bogus"], "je ne comprends pas : --bogus"),
    (["fill", "s.xlsx", "-o"], "-o/--output : une valeur est attendue après l'option"),
    (["fill", "s.xlsx", "--federation", "dmb"], "vouliez-vous dire dbm ?"),
    (["schedule", "s.xlsx", "--seed", "abc"], "--seed : un nombre entier est attendu ; trouvé « abc »"),
    (["new", "tdf", "saison.xls"], "un classeur xlcircuit est un fichier .xlsx"),
    (["share", "s.xlsx"], "dites quoi partager : --clubs DOSSIER, --pdf DOSSIER ou --csv DOSSIER"),
]


def test_usage_errors_are_french_with_status_2(tmp_path):
    for args, expected in USAGE_ERRORS:
        run = run_cli(*args, cwd=tmp_path)
        assert run.returncode == 2, (args, run.stderr)
        assert expected in run.stderr, (args, run.stderr)
        assert run.stderr.startswith("utilisation : xlcircuit") and " : erreur : " in run.stderr, args
        assert "Aide : xlcircuit" in run.stderr and not ENGLISH.search(run.stderr), (args, run.stderr)
        assert "Traceback" not in run.stderr
    assert list(tmp_path.iterdir()) == []  # nothing written by a refused command


def test_a_suggested_command_works_when_copied_with_a_name_that_has_spaces(tmp_path, capsys):
    assert main(["new", "tdf", str(tmp_path / "TdF 2025-2026")]) == 0
    out = capsys.readouterr().out
    assert out.rstrip().endswith(f'puis lancez : xlcircuit fill "{tmp_path / "TdF 2025-2026.xlsx"}"')
    suggested = out.rstrip().rsplit("puis lancez : ", 1)[1]
    copied = subprocess.run(suggested.replace("xlcircuit", f'"{sys.executable}" -m xlcircuit', 1), shell=True,
                            capture_output=True, text=True, cwd=tmp_path)
    assert copied.returncode == 0, copied.stderr  # typed as suggested, it fills (empty tables: a hint, no error)
    assert "Classeur rempli" in copied.stdout


def test_a_name_split_at_its_spaces_says_to_put_it_in_quotes(tmp_path):
    (tmp_path / "TdF 2025-2026.xlsx").write_bytes(b"")
    for args, hint in [
        (["fill", "TdF", "2025-2026.xlsx"], 'xlcircuit fill "TdF 2025-2026.xlsx"'),
        (["new", "tdf", "Saison", "2026.xlsx"], 'xlcircuit new tdf "Saison 2026.xlsx"'),
        (["explain", "TdF", "2025-2026.xlsx", "Camille Roux"], 'xlcircuit explain "TdF 2025-2026.xlsx" "Camille Roux"'),
        (["explain", "TdF", "2025-2026.xlsx"], 'xlcircuit explain "TdF 2025-2026.xlsx"'),  # the name taken for NOM
        (["share", "TdF", "2025-2026.xlsx", "--csv", "partage"], 'xlcircuit share "TdF 2025-2026.xlsx" --csv partage'),
    ]:
        run = run_cli(*args, cwd=tmp_path)
        assert run.returncode == 2, (args, run.stderr)
        assert f"un nom de fichier qui contient des espaces s'écrit entre guillemets : {hint}" in run.stderr, (
            args, run.stderr)
    run = run_cli("fill", "s.xlsx", "extra", cwd=tmp_path)
    assert "je ne comprends pas : extra\n" in run.stderr  # no file name there: no such hint


def test_federation_codes_in_any_case(tmp_path, capsys):
    assert main(["new", "TDF", str(tmp_path / "a.xlsx")]) == 0
    assert main(["new", "Torres", str(tmp_path / "b.xlsx")]) == 0
    assert main(["check", str(tmp_path / "a.xlsx"), "--federation", "Tdf"]) == 0
    assert openpyxl_federation(tmp_path / "b.xlsx") == "torres"


def openpyxl_federation(path: Path) -> str:
    from xlcircuit.xlsx import Book
    return Book(path).federation


def test_new_adds_the_extension(tmp_path, capsys):
    assert main(["new", "tdf", str(tmp_path / "saison2")]) == 0
    assert (tmp_path / "saison2.xlsx").exists() and not (tmp_path / "saison2").exists()
    assert f"Classeur créé : {tmp_path / 'saison2.xlsx'}" in capsys.readouterr().out
    assert main(["check", str(tmp_path / "saison2.xlsx")]) == 0


def test_a_workbook_of_another_federation_is_refused_in_one_sentence(small_season, capsys):
    before = small_season.read_bytes()
    for code in ("dbm", "DBM", "torres"):
        assert main(["fill", str(small_season), "--federation", code]) == 1
        err = capsys.readouterr().err.strip()
        assert "\n" not in err and err.startswith("petite.xlsx est un classeur « Tour de France de Diplomatie » (tdf)")
        assert "relancez sans --federation" in err
    assert small_season.read_bytes() == before


def test_empty_tables_get_a_hint(tmp_path, capsys):
    path = tmp_path / "vide.xlsx"
    assert main(["new", "elo", str(path)]) == 0
    capsys.readouterr()
    assert main(["fill", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Rien à classer : la table « Parties » est vide." in out
    assert main(["new", "tdf", str(tmp_path / "t.xlsx")]) == 0
    capsys.readouterr()
    assert main(["check", str(tmp_path / "t.xlsx")]) == 0
    assert "Rien à classer : les tables « Tournois » et « Résultats » sont vides." in capsys.readouterr().out


def test_a_filled_workbook_gets_no_hint(small_season, capsys):
    assert main(["fill", str(small_season)]) == 0
    assert "Rien à classer" not in capsys.readouterr().out


def test_demo_keeps_an_edited_example_unless_forced(tmp_path, capsys):
    folder = tmp_path / "demo"
    assert main(["demo", str(folder)]) == 0
    assert main(["demo", str(folder)]) == 0  # untouched examples: rewritten without a word
    edited = folder / "dbm-exemple.xlsx"
    wb = openpyxl.load_workbook(edited)
    wb["Résultats"]["B2"] = "Quelqu'un d'autre"
    wb.save(edited)
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    capsys.readouterr()
    assert main(["demo", str(folder)]) == 1
    err = capsys.readouterr().err
    assert "dbm-exemple.xlsx : modifié depuis la démonstration ; rien n'a été écrit. Ajoutez --force" in err
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before  # not one file rewritten
    assert main(["demo", str(folder), "--force"]) == 0
    assert openpyxl.load_workbook(edited)["Résultats"]["B2"].value != "Quelqu'un d'autre"
    assert sorted(p.name for p in folder.iterdir()) == sorted(m.example for m in FEDERATIONS.values())


def test_french_ordinals_are_places(tmp_path, capsys):
    path = write_season(tmp_path / "o.xlsx", [("Open", dt.date(2025, 10, 1), "normal", None)],
                        [("Open", "Alice", "2e", None, None), ("Open", "Bruno", "1er", None, None),
                         ("Open", "Chloé", "3ème", None, None), ("Open", "Denis", "4e", None, None),
                         ("Open", "Élise", "7e", None, None), ("Open", "Fanny", "3er", None, None)])
    assert main(["check", str(path)]) == 1
    err = capsys.readouterr().err
    assert "1 problème dans le classeur" in err and "trouvé « 3er »" in err  # 3er is no French ordinal
    wb = openpyxl.load_workbook(path)
    wb["Résultats"]["C7"] = "5e"
    wb.save(path)
    assert main(["fill", str(path)]) == 0
    assert leader(path) == "Bruno"
    points = {row["Joueur"]: row["Place"] for row in table_dicts(openpyxl.load_workbook(path)["Points"], "Points")}
    assert points == {"Bruno": 1, "Alice": 2, "Chloé": 3, "Denis": 4, "Fanny": 5, "Élise": 7}
