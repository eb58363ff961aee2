"""Control characters and bidirectional overrides in what a workbook holds (a player's name, a file's name) are
printed visibly, as escapes, by every command: a name never retitles the terminal, erases a line or reverses
the text after it."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from conftest import write_season

from xlcircuit.app import Outcome, visible
from xlcircuit.cli import main, show
from xlcircuit.rules.errors import Problem

#: What a terminal obeys: a C1 « CSI » (clear the screen), a right-to-left override, a carriage return.
HOSTILE_NAME = "Eve\u009b2J\u202elivE"
SHOWN_NAME = "Eve\\x9b2J\\u202elivE"
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]")


@pytest.mark.parametrize("text, shown", [
    ("\x1b]0;pwned\x07", "\\x1b]0;pwned\\x07"),  # retitle the terminal
    ("Alice\x1b[2K\rBob", "Alice\\x1b[2K\\x0dBob"),  # erase the line, write over it
    ("\u009b31m", "\\x9b31m"),  # an 8-bit CSI
    ("abc\u202edef", "abc\\u202edef"),  # right-to-left override
    ("\u2066x\u2069\u200f", "\\u2066x\\u2069\\u200f"),  # isolates, a right-to-left mark
    ("a\u2028b\x7f", "a\\u2028b\\x7f"),
    ("Chloé Müller, 2e\tligne\nsuite", "Chloé Müller, 2e\tligne\nsuite"),  # accents, tab, line feed: as they are
    ("שלום عربي 漢字", "שלום عربي 漢字"),  # right-to-left scripts themselves are text
])  # fmt: skip
def test_control_characters_are_shown_as_escapes_and_text_as_it_is(text, shown):
    assert visible(text) == shown


def season(tmp_path, name=HOSTILE_NAME):
    return write_season(tmp_path / "saison.xlsx",
                        [("Open A", dt.date(2025, 10, 1), "normal", None), ("France", dt.date(2026, 5, 1), "majeur", None)],
                        [("Open A", name, 1, None, None), ("Open A", "Bruno", 2, None, None),
                         ("France", name, 2, None, None), ("France", "Bruno", 1, None, None)])


def test_check_fill_and_explain_print_a_hostile_name_visibly(tmp_path, capsys):
    path = season(tmp_path)
    for args in (["check", str(path)], ["fill", str(path)], ["explain", str(path), HOSTILE_NAME]):
        assert main(args) == 0
        out, err = capsys.readouterr()
        assert SHOWN_NAME in out, args
        assert not RAW.search(out + err), (args, out + err)


def test_explain_written_as_text_holds_the_name_visibly(tmp_path, capsys):
    path = season(tmp_path)
    assert main(["explain", str(path), HOSTILE_NAME, "-o", str(tmp_path / "eve.txt")]) == 0
    text = (tmp_path / "eve.txt").read_text(encoding="utf-8")
    assert SHOWN_NAME in text and not RAW.search(text.replace("\n", ""))


def test_a_problem_quoting_a_hostile_value_is_printed_visibly(tmp_path, capsys):
    path = write_season(tmp_path / "saison.xlsx", [("Open A", dt.date(2025, 10, 1), "normal", None)],
                        [("Open A", "Alice", "1\u009b2J", None, None)])
    assert main(["check", str(path)]) == 1
    err = capsys.readouterr().err
    assert "Résultats!C2 (colonne « Place ») : place attendue : un entier positif (1, 2, 3…) ; trouvé « 1\\x9b2J »" in err
    assert not RAW.search(err.replace("\n", ""))


def test_a_file_name_with_an_escape_sequence_is_printed_visibly(tmp_path, capsys):
    path = tmp_path / "saison\x1b]0;pwned\x07.xlsx"
    path.write_bytes(b"not a workbook")
    assert main(["check", str(path)]) == 1
    err = capsys.readouterr().err
    assert "saison\\x1b]0;pwned\\x07.xlsx" in err and "\x1b" not in err and "\x07" not in err


def test_every_part_of_an_outcome_is_shown_visibly(capsys):
    outcome = Outcome(lines=["l\x1b"], warnings=["w\u202e"], error="e\x9b", status=1,
                      problems=[Problem("S\u202e", 2, "C\x1b", "m\x07", "A\u200f2")])
    assert show(outcome) == 1
    out, err = capsys.readouterr()
    assert out == "l\\x1b\n"
    assert err.splitlines() == ["e\\x9b :", "  - S\\u202e!A\\u200f2 (colonne « C\\x1b ») : m\\x07",
                                "Rien n'a été écrit : corrigez ces points, puis relancez.", "",
                                "À vérifier (1) :", "  - w\\u202e"]
