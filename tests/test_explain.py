"""``xlcircuit explain``: a player's points, result by result, with the rule applied and the sum, ending on
the total the standings show; and the weight reasons the TdF core gives in words."""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal
from pathlib import Path

import openpyxl
import pytest
from conftest import example, write_season

from xlcircuit.cli import main
from xlcircuit.federations import ADAPTERS as FEDERATIONS
from xlcircuit.federations import tdf as tdf_book
from xlcircuit.rules import tdf
from xlcircuit.rules.errors import XlcircuitError
from xlcircuit.workbook.wording import find_player
from xlcircuit.xlsx import Book

N, MAJOR, ONLINE = tdf.Kind.NORMAL, tdf.Kind.MAJOR, tdf.Kind.ONLINE


# --- the reasons, from the core (tdf.md §2) --------------------------------------------------


def test_each_weight_has_its_reason_in_words():
    # Normals best first: 1007 at 100 %, 750 at 80 %; the online one after both tabletop ones: 3rd, 40 %.
    # Keeping fewer tabletop ones loses points (1007 + 1012 + 0.8 * 687 = 2568.6 < 2893.8): none set aside.
    season = tdf.season([tdf.Outing(750, N), tdf.Outing(1007, N), tdf.Outing(1012, MAJOR), tdf.Outing(687, ONLINE)])
    assert season.weights == (0.8, 1.0, 1.0, 0.4)
    assert tdf.weight_reasons(season) == (
        "2e tournoi normal : 80 %", "1er tournoi normal : 100 %", "majeur : 100 %",
        "en ligne : compté après les tournois sur table (3e) : 40 %")


def test_a_set_aside_tournament_says_why():
    # Keeping the 120 (40 %) pushes the online 1000 from 80 % to 40 %: 1000 + 48 + 400 < 1000 + 800.
    season = tdf.season([tdf.Outing(1000, N), tdf.Outing(1000, ONLINE), tdf.Outing(120, N)])
    assert season.set_aside == (False, False, True)
    assert tdf.weight_reasons(season) == (
        "1er tournoi normal : 100 %", "en ligne : compté après les tournois sur table (2e) : 80 %",
        "écarté : la décote ferait perdre des points (règle de non-perte), compte 0")


def test_the_tail_and_a_lone_online_tournament_have_their_rank():
    # Six normals: 100, 80, 40, 20, then 10 % for the 5th and 6th; an online event alone comes 2nd (80 %).
    season = tdf.season([tdf.Outing(p, N) for p in (600, 500, 400, 300, 200, 150)])
    assert tdf.weight_reasons(season)[4:] == ("5e tournoi normal : 10 %", "6e tournoi normal : 10 %")
    assert tdf.weight_reasons(tdf.season([tdf.Outing(500, ONLINE)])) == (
        "en ligne : compté après les tournois sur table (2e) : 80 %",)


# --- the explanation -------------------------------------------------------------------------


@pytest.fixture
def two_tournaments(tmp_path) -> Path:
    return write_season(tmp_path / "s.xlsx",
                        [("Open", dt.date(2025, 10, 1), "normal", None), ("Web", dt.date(2025, 11, 1), "en ligne", None)],
                        [("Open", "Ana", 1, None, None), ("Open", "Bob", 2, None, None), ("Open", "Chloé", 3, None, None),
                         ("Web", "Ana", 2, None, None), ("Web", "Bob", 1, None, None)])


def test_a_tdf_explanation_by_hand(two_tournaments):
    book = Book(two_tournaments)
    lines = tdf_book.explain(tdf_book.compute(book), "bob")  # case does not matter
    # Open: x = 3, 2nd: 1000 / 10^(1/2) = 316.23; Web (online, x = 2): 1st, 1002, counted after Open: 80 %.
    assert lines[0] == "Bob — Tour de France de Diplomatie 2025"
    assert "  01/10/2025  Open (normal) : 2e sur 3 classés → 316,2 points × 100 % (1er tournoi normal : 100 %) " \
           "= 316,2" in lines
    assert "  01/11/2025  Web (en ligne) : 1er sur 2 classés → 1002,0 points × 80 % (en ligne : compté après " \
           "les tournois sur table (2e) : 80 %) = 801,6" in lines
    assert lines[-3:] == ["Somme : 316,2 + 801,6 = 1117,8", "Rang : 1 sur 2 classés (2 tournois classés).",
                          "Total au classement : 1117,8"]


def test_an_unranked_person_is_told_why(two_tournaments):
    lines = tdf_book.explain(tdf_book.compute(Book(two_tournaments)), "Chloé")
    assert "Sans rang : classé dans 1 tournoi ; il en faut 2 pour être classé dans la saison (§2)." in lines
    assert lines[-1] == "Total au classement : 100,0"


def test_an_unknown_name_is_refused_with_the_names_that_come_close():
    with pytest.raises(XlcircuitError, match=r"« Davide » n'est pas dans ce classeur.*« David »"):
        find_player("Davide", ["David", "Daniel", "Zoé"])
    assert find_player("zoe", ["David", "Zoé"]) == "Zoé"


def _numbers(text: str) -> list[Decimal]:
    return [Decimal(n.replace(",", ".")) for n in re.findall(r"[-+]?\d+(?:,\d+)?", text)]


#: Per federation: the line of the sum (its terms add up to its right-hand side), and how the standings show
#: each person's total.
SUMS = {"tdf": "Somme : ", "dbm": "Somme des ", "cdf": "Score final : ", "elo": "Somme : ",
        "torres": "Points de victoire : "}


@pytest.mark.parametrize("code", list(FEDERATIONS))
def test_every_explanation_adds_up_and_ends_on_the_published_total(code, tmp_path):
    module = FEDERATIONS[code]
    book = Book(example(module, tmp_path))
    summary = module.compute(book)
    standings = next(o for o in module.outputs(summary) if o.spec == module.standings)
    headers = [c.header for c in standings.columns]
    total_header = {"tdf": "Total", "dbm": "Total", "cdf": "Total", "elo": "Elo", "torres": "Points de victoire"}[code]
    digits = {"tdf": 1, "dbm": 2, "cdf": 2, "elo": 0, "torres": 1}[code]
    from xlcircuit.rules.mechanics import format_half_up

    for row in standings.rows[:25]:
        player = row[headers.index("Joueur")]
        lines = module.explain(summary, player)
        assert lines[0].startswith(player)
        shown = format_half_up(row[headers.index(total_header)], digits).replace(".", ",")
        assert lines[-1].endswith(f" : {shown}"), (player, lines[-1])
        line = next(line for line in lines if line.startswith(SUMS[code]))
        terms = line.split(" : ", 1)[1]
        if "=" in terms:
            left, right = terms.split("=")
            values = _numbers(left.replace(" - ", " -").replace(" + ", " "))
            assert sum(values) == _numbers(right)[0], (player, line)


def test_the_command_prints_or_writes_a_sheet_to_send(two_tournaments, tmp_path, capsys):
    assert main(["explain", str(two_tournaments), "Bob"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Bob — ") and out.rstrip().endswith("Total au classement : 1117,8")
    assert main(["explain", str(two_tournaments), "Bob", "-o", str(tmp_path / "bob.xlsx")]) == 0
    ws = openpyxl.load_workbook(tmp_path / "bob.xlsx")["Explication"]
    assert ws["A1"].value == "Bob — Tour de France de Diplomatie 2025"
    assert int(ws.page_setup.paperSize) == 9 and ws.page_setup.orientation == "portrait"
    assert ws.cell(ws.max_row, 1).value == "Total au classement : 1117,8"
    assert main(["explain", str(two_tournaments), "Bob", "-o", str(tmp_path / "bob.txt")]) == 0
    assert (tmp_path / "bob.txt").read_text(encoding="utf-8").splitlines()[-1] == "Total au classement : 1117,8"
    assert main(["explain", str(two_tournaments), "Personne"]) == 1
    assert "n'est pas dans ce classeur" in capsys.readouterr().err


def test_the_explanation_pdf_is_readable(two_tournaments, tmp_path):
    from conftest import need_libreoffice
    from test_pdf import assert_readable, pdf_text

    need_libreoffice()
    assert main(["explain", str(two_tournaments), "Bob", "-o", str(tmp_path / "bob.pdf")]) == 0
    assert_readable(tmp_path / "bob.pdf")
    assert "Total au classement : 1117,8" in pdf_text(tmp_path / "bob.pdf")[0]
