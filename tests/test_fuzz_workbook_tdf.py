"""Fuzzing the TdF readers: whatever an organiser types, a fill ends in a filled workbook or in a
list of located problems, never in a crash."""

from __future__ import annotations

import datetime as dt
import tempfile
from collections import Counter
from pathlib import Path

import openpyxl
from conftest import table_rows, write_season
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from xlcircuit.federations import tdf as tdf_book
from xlcircuit.rules.errors import WorkbookProblems
from xlcircuit.xlsx import Book

CASES = 100
TOURNAMENTS = ["Open A", "Open B", "Open C"]
PLAYERS = ["Alice", "Bruno", "Chloé", "chloe", " Denis ", '=HYPERLINK("http://x","y")', "+33 Eve"]

junk_text = st.one_of(
    st.sampled_from(["", " ", "majeur", "en ligne", "oui", "non", "organisateur", "aide", "annulé", "place 2",
                     "place 0", "place 99", "joueur", "3", "2,5", "-1", "1e308", "Open a", "OPEN B"]),
    st.text(max_size=20),
    st.text(min_size=101, max_size=400),  # very long names
    st.text(alphabet=st.characters(max_codepoint=0x1F), max_size=5),  # control characters
)
junk_number = st.one_of(st.integers(-10**15, 10**15), st.floats(allow_nan=False, allow_infinity=False),
                        st.sampled_from([0, -3.0, 2.5, 1e300]))
junk = st.one_of(st.none(), junk_text, junk_number, st.booleans(), st.dates(dt.date(1900, 1, 1), dt.date(2100, 1, 1)))

good_tournoi = st.tuples(st.sampled_from(TOURNAMENTS), st.dates(dt.date(2025, 1, 1)),  # a blank is a problem
                         st.sampled_from(["normal", "Majeur", "en ligne", "majeur en ligne"]),
                         st.sampled_from([None, "oui", "non"]))
good_resultat = st.tuples(st.sampled_from(TOURNAMENTS), st.sampled_from(PLAYERS),
                          st.one_of(st.integers(1, 12), st.none()),
                          st.sampled_from([None, None, None, "organisateur", "aide"]),
                          st.one_of(st.none(), st.none(), st.integers(0, 2000)))
tournois = st.lists(st.one_of(good_tournoi, good_tournoi, st.tuples(junk, junk, junk, junk)), max_size=5)
resultats = st.lists(st.one_of(good_resultat, good_resultat, good_resultat,
                               st.tuples(junk, junk, junk, junk, junk)), max_size=25)


def test_any_input_ends_filled_or_with_located_problems():
    outcomes = Counter()

    @settings(max_examples=CASES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(tournois=tournois, resultats=resultats)
    def one_season(tournois, resultats):
        with tempfile.TemporaryDirectory() as folder:
            path = write_season(Path(folder) / "fuzz.xlsx", tournois, resultats)
            book = Book(path)
            try:
                summary = tdf_book.fill(book)
            except WorkbookProblems as exc:
                assert exc.problems
                for problem in exc.problems:
                    assert problem.sheet in ("Tournois", "Résultats")
                    assert problem.row is not None and problem.column and problem.cell
                outcomes["problèmes signalés"] += 1
                return
            book.save()
            rows = table_rows(openpyxl.load_workbook(path)["Classement"], "Classement")
            assert len(rows) == 1 + max(1, len(summary.report.standings))
            outcomes["classeur rempli"] += 1

    one_season()
    print(f"fuzz: {sum(outcomes.values())} cases, {dict(outcomes)}")
    assert outcomes["problèmes signalés"] and outcomes["classeur rempli"]
