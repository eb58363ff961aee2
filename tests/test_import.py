"""``xlcircuit import``: the rankings organisers already have, in their own layouts, brought into the season's
input tables, as the organiser sees it (the command's output, the season workbook, the filled tables).

Known values: the Tour de France rules' example 2 (``docs/regles/tdf.md``: x = 12, two tied first, four tied
ninth) and the DBM reform's example 1 (``docs/regles/dbm.md``: twelve (O) players, four rounds, VFT 120)."""

from __future__ import annotations

import codecs
import datetime as dt
import zipfile
from pathlib import Path

import openpyxl
import pytest
from conftest import table_dicts, write_season
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from xlcircuit.app.importing import import_results
from xlcircuit.cli import main
from xlcircuit.federations import dbm as dbm_book
from xlcircuit.federations import torres as torres_book
from xlcircuit.rules.errors import InvalidInput
from xlcircuit.workbook.cells import as_positive_int
from xlcircuit.workbook.sources import grids, ods
from xlcircuit.workbook.write import type_rows
from xlcircuit.xlsx import save_atomic

OCT = dt.date(2025, 10, 4)


def sheet_source(path: Path, sheets: dict[str, list[list[object]]]) -> Path:
    """A workbook of plain ranges (no Excel table), one sheet per entry, as organisers lay out their rankings."""
    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    for title, rows in sheets.items():
        ws = wb.create_sheet(title)
        for row in rows:
            ws.append(row)
    wb.save(path)
    return path


def rows_of(path: Path, sheet: str, table: str) -> list[dict[str, object]]:
    return table_dicts(openpyxl.load_workbook(path)[sheet], table)


def run(capsys, *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


# --- places as rankings write them ------------------------------------------------------------------------------


@pytest.mark.parametrize("typed, place", [
    ("3 ex", 3), ("3=", 3), ("=3", 3), ("ex 3", 3), ("ex. 3", 3), ("3 ex aequo", 3), ("3 ex-aequo", 3),
    ("3 (ex)", 3), ("2e ex", 2), ("ex 2e", 2), ("1er", 1), ("1ère", 1), ("2e", 2), ("3ème", 3), ("Ex Aequo 4", 4),
    (" 5 = ", 5), (3, 3), (3.0, 3), ("3", 3),
])
def test_places_written_as_rankings_write_ties_and_ordinals(typed, place):
    assert as_positive_int(typed) == place


@pytest.mark.parametrize("typed", ["ex", "=", "3er ex", "x3", "3 exx", "3 ex 4", "0 ex", "ex=3", "premier"])
def test_what_is_not_a_place_is_refused(typed):
    with pytest.raises(InvalidInput, match="place attendue"):
        as_positive_int(typed)


def test_fill_reads_a_tie_written_3_ex_as_import_does(tmp_path, capsys):
    path = write_season(tmp_path / "s.xlsx", [("Open", OCT, "normal", None)],
                        [("Open", "Alice", "1", None, None), ("Open", "Bob", "2 ex", None, None),
                         ("Open", "Chloé", "2=", None, None), ("Open", "Denis", "4e", None, None)])
    assert main(["fill", str(path)]) == 0
    points = {r["Joueur"]: (r["Place retenue"], r["Ex aequo"]) for r in rows_of(path, "Points", "Points")}
    assert points["Bob"][0] == points["Chloé"][0] == 2 and points["Denis"][0] == 4


# --- a ranking in its own layout ---------------------------------------------------------------------------------


def example_2(path: Path) -> Path:
    """The TdF rules' example 2 as a club's workbook writes it: a title, the date above, « Clt | NOM | Prénom »,
    ties written three ways, columns of its own. x = 12: two tied first, then 3rd to 8th, four tied ninth."""
    names = [("MARTIN", "Alice"), ("DURAND", "Bob"), ("ROUX", "Camille"), ("PETIT", "Denis"), ("NOËL", "Élodie"),
             ("FAURE", "Fanny"), ("GIRARD", "Gaël"), ("HUBERT", "Hélène"), ("IBERT", "Inès"), ("JOLY", "Jules"),
             ("KLEIN", "Karl"), ("LEROY", "Léa")]
    places = ["1 ex", "1 ex", 3, "4e", 5, 6, 7, 8, "9=", "9=", "ex 9", "9 ex"]
    rows = [["Open de Lyon — classement final"], ["Date :", OCT], [],
            ["Clt", "Armée", "NOM", "Prénom", "Club", "Centres"]]
    rows += [[place, "France", last, first, "Lyon" if i % 2 else "Paris", 10] for i, (place, (last, first))
             in enumerate(zip(places, names))]
    return sheet_source(path, {"Open de Lyon": rows})


def test_a_club_ranking_is_imported_and_filled_with_the_rules_example_points(tmp_path, capsys):
    season = write_season(tmp_path / "saison.xlsx", [], [])
    status, out, err = run(capsys, "import", str(season), str(example_2(tmp_path / "lyon.xlsx")))
    assert status == 0, err
    assert "Import dans" in out and "tournoi « Open de Lyon » : 12 lignes ajoutées" in out
    # The tournament is added to Tournois with the date read above the table; what the source does not say is named.
    assert "Feuille « Tournois », ligne 2 ajoutée : tournoi « Open de Lyon » ; à compléter : Type (Tournois!C2)" in out
    assert "réécriture complète du classeur" in out  # said, in one line
    tournois = rows_of(season, "Tournois", "Tournois")
    assert [(t["Tournoi"], t["Date"].date()) for t in tournois] == [("Open de Lyon", OCT)]
    lines = rows_of(season, "Résultats", "Resultats")
    assert [(r["Joueur"], r["Place"], r["Source"]) for r in lines[:3]] == [
        ("Alice MARTIN", 1, "lyon.xlsx : Open de Lyon"), ("Bob DURAND", 1, "lyon.xlsx : Open de Lyon"),
        ("Camille ROUX", 3, "lyon.xlsx : Open de Lyon")]
    clubs = {r["Joueur"]: r["Club"] for r in rows_of(season, "Joueurs", "Joueurs")}
    assert clubs["Alice MARTIN"] == "Paris" and clubs["Bob DURAND"] == "Lyon"
    status, out, err = run(capsys, "check", str(season))  # what the source did not say, asked for at its cell
    assert status == 1 and "Tournois!C2 (colonne « Type ») : type manquant" in err
    wb = openpyxl.load_workbook(season)
    wb["Tournois"]["C2"] = "normal"
    wb.save(season)
    assert main(["fill", str(season)]) == 0
    points = [round(r["Points"]) for r in rows_of(season, "Points", "Points")]
    assert points == [912, 912, 658, 534, 433, 351, 285, 231, 141, 141, 141, 141]  # tdf.md, example 2


def test_essai_shows_columns_tournaments_and_first_rows_and_writes_nothing(tmp_path, capsys):
    season = write_season(tmp_path / "saison.xlsx", [("Open de Lyon", OCT, "normal", None)],
                          [("Open de Lyon", "Alice Martin", 1, None, None)])
    source = example_2(tmp_path / "lyon.xlsx")
    before = season.read_bytes()
    status, out, err = run(capsys, "import", str(season), str(source), "--essai")
    assert status == 0, err
    assert season.read_bytes() == before
    assert out.splitlines()[:12] == [
        "Essai : rien n'est écrit dans saison.xlsx.",
        "",
        "[lyon.xlsx]Open de Lyon : en-tête ligne 4, 12 lignes à importer ; Source : « lyon.xlsx : Open de Lyon »",
        "  colonnes reconnues : « NOM » (C) + « Prénom » (D) → Joueur (prénom puis nom) ; « Clt » (A) → Place ; "
        "« Club » (E) → Club (table « Joueurs »)",
        "  colonnes ignorées : « Armée » (B), « Centres » (F)",
        "  lu hors du tableau : Date : 04/10/2025 (B2)",
        "  tournoi : « Open de Lyon »",
        "  premières lignes, telles qu'importées :",
        "    Tournoi      | Joueur                          | Place | Club",
        "    Open de Lyon | Alice Martin (« Alice MARTIN ») | 1     | Paris",
        "    Open de Lyon | Bob DURAND                      | 1     | Lyon",
        "    Open de Lyon | Camille ROUX                    | 3     | Paris",
    ]
    assert "    … et 7 autres lignes" in out
    # The season already has a line for this tournament, typed: a warning with its cell, the lines kept.
    assert "À importer : 12 lignes, 1 tournoi. Pour l'écrire : la même commande sans --essai." in out


def test_english_headings_in_any_order_and_one_name_column(tmp_path, capsys):
    season = write_season(tmp_path / "saison.xlsx", [], [])
    source = sheet_source(tmp_path / "results.xlsx", {"Spring Open": [
        ["Player", "Club", "Rank", "Score"], ["MULLER Jean", "Metz", 1, 80], ["Zoé Fabre", None, 2, 60]]})
    status, out, err = run(capsys, "import", str(season), str(source))
    assert status == 0, err
    lines = rows_of(season, "Résultats", "Resultats")
    assert [(r["Tournoi"], r["Joueur"], r["Place"]) for r in lines] == [
        ("Spring Open", "MULLER Jean", 1), ("Spring Open", "Zoé Fabre", 2)]


def test_names_are_matched_to_the_seasons_players_and_a_close_one_is_a_warning(tmp_path, capsys):
    season = write_season(tmp_path / "saison.xlsx", [("Open A", OCT, "normal", None)],
                          [("Open A", "Alice Martin", 1, None, None), ("Open A", "Jean-Pierre Morel", 2, None, None),
                           ("Open A", "Bérénice Lefèvre", 3, None, None)])
    csv = tmp_path / "Open B.csv"
    csv.write_bytes("Clt;Nom\n1;MARTIN Alice\n2;berenice lefevre\n3;Jean-Pierre Morrel\n".encode("utf-8-sig"))
    status, out, err = run(capsys, "import", str(season), str(csv))
    assert status == 0, err
    lines = rows_of(season, "Résultats", "Resultats")
    assert [r["Joueur"] for r in lines[3:]] == ["Alice Martin", "Bérénice Lefèvre", "Jean-Pierre Morrel"]
    assert ("« Jean-Pierre Morrel » (Open B.csv!B4) et « Jean-Pierre Morel » (Résultats!B3), déjà dans la saison, "
            "sont-ils la même personne (une lettre doublée en plus ou en moins) ? Importé comme une autre personne ; "
            "si c'est la même, corrigez l'orthographe dans la source, puis relancez l'import.") in err
    wb = openpyxl.load_workbook(season)
    assert wb["Tournois"]["A3"].value == "Open B"  # added by the import; its date and type typed now
    wb["Tournois"]["B3"], wb["Tournois"]["C3"] = OCT, "normal"
    wb.save(season)
    assert main(["fill", str(season)]) == 0
    standings = {r["Joueur"]: r["Tournois classés"] for r in rows_of(season, "Classement", "Classement")}
    assert standings["Alice Martin"] == 2 and "MARTIN Alice" not in standings  # one person, two tournaments


def test_a_name_the_register_knows_as_an_alias_is_no_close_name_and_counts_for_its_player(tmp_path, capsys):
    """« Jean-Pierre Morrel » is an alias of « Jean-Pierre Morel » in Joueurs: imported, it is not flagged, and the
    fill counts it for him (through the register)."""
    from xlcircuit.federations import tdf as tdf_book
    from xlcircuit.workbook.write import type_rows
    from xlcircuit.xlsx import save_atomic

    wb = tdf_book.new_workbook()
    type_rows(wb, tdf_book.JOUEURS, [("Jean-Pierre Morel", None, None, "Jean-Pierre Morrel")])
    type_rows(wb, tdf_book.TOURNOIS, [("Open A", OCT, "normal", None)])
    type_rows(wb, tdf_book.RESULTATS, [("Open A", "Jean-Pierre Morel", 1, None, None), ("Open A", "Ana", 2, None, None)])
    season = save_atomic(wb, tmp_path / "saison.xlsx")
    csv = tmp_path / "Open B.csv"
    csv.write_bytes("Clt;Nom\n1;Jean-Pierre Morrel\n2;Ana\n".encode("utf-8-sig"))
    status, out, err = run(capsys, "import", str(season), str(csv))
    assert status == 0, err
    assert "sont-ils la même personne" not in err
    wb = openpyxl.load_workbook(season)
    wb["Tournois"]["B3"], wb["Tournois"]["C3"] = OCT, "normal"
    wb.save(season)
    assert main(["fill", str(season)]) == 0
    standings = {r["Joueur"]: r["Tournois classés"] for r in rows_of(season, "Classement", "Classement")}
    assert standings["Jean-Pierre Morel"] == 2 and "Jean-Pierre Morrel" not in standings


# --- sources: CSV encodings and delimiters, .ods, folders ------------------------------------------------------


@pytest.mark.parametrize("encoding, bom, delimiter", [
    ("utf-8", b"", ";"), ("utf-8", codecs.BOM_UTF8, ";"), ("cp1252", b"", ";"), ("cp1252", b"", ","),
    ("utf-8", codecs.BOM_UTF8, "\t"), ("utf-16-le", codecs.BOM_UTF16_LE, "\t"),
])
def test_csv_encoding_and_delimiter_are_found(tmp_path, encoding, bom, delimiter):
    text = delimiter.join(["Place", "Joueur", "Club"]) + "\r\n" + delimiter.join(["1", "Élodie Noël", "Nîmes"]) + \
        "\r\n" + delimiter.join(["2", '"Martin, Alice"' if delimiter == "," else "Martin, Alice", "Sète"]) + "\r\n"
    path = tmp_path / "r.csv"
    path.write_bytes(bom + text.encode(encoding))
    assert grids.read_csv(path) == {1: ["Place", "Joueur", "Club"], 2: ["1", "Élodie Noël", "Nîmes"],
                                    3: ["2", "Martin, Alice", "Sète"]}


ODS_CONTENT = """<?xml version="1.0" encoding="UTF-8"?>
<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
 xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"
 xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"
 xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" office:version="1.3">
<office:automatic-styles>
 <style:style style:name="ta1" style:family="table"><style:table-properties table:display="true"/></style:style>
 <style:style style:name="ta2" style:family="table"><style:table-properties table:display="false"/></style:style>
</office:automatic-styles>
<office:body><office:spreadsheet>
<table:table table:name="Open de Nîmes" table:style-name="ta1">
 <table:table-column table:number-columns-repeated="4"/>
 <table:table-row>
  <table:table-cell office:value-type="string"><text:p>Open de Nîmes</text:p></table:table-cell>
 </table:table-row>
 <table:table-row>
  <table:table-cell office:value-type="string"><text:p>Date</text:p></table:table-cell>
  <table:table-cell office:value-type="date" office:date-value="2025-10-04"><text:p>04/10/2025</text:p>
  </table:table-cell>
 </table:table-row>
 <table:table-row table:number-rows-repeated="2"><table:table-cell table:number-columns-repeated="1024"/>
 </table:table-row>
 <table:table-header-rows><table:table-row>
  <table:table-cell office:value-type="string"><text:p>Pl.</text:p></table:table-cell>
  <table:table-cell table:number-columns-repeated="2"/>
  <table:table-cell office:value-type="string"><text:p>Nom<text:s text:c="2"/>Prénom</text:p></table:table-cell>
 </table:table-row></table:table-header-rows>
 <table:table-row>
  <table:table-cell office:value-type="float" office:value="1"><text:p>1</text:p></table:table-cell>
  <table:table-cell table:number-columns-repeated="2"/>
  <table:table-cell office:value-type="string"><text:p>NOËL <text:span>Élodie</text:span></text:p></table:table-cell>
 </table:table-row>
 <table:table-row>
  <table:table-cell office:value-type="string"><text:p>2 ex</text:p></table:table-cell>
  <table:covered-table-cell table:number-columns-repeated="2"/>
  <table:table-cell office:value-type="string"><text:p>Bob Durand</text:p>
   <office:annotation><text:p>note</text:p></office:annotation></table:table-cell>
 </table:table-row>
 <table:table-row table:number-rows-repeated="1048570">
  <table:table-cell table:number-columns-repeated="1024"/>
 </table:table-row>
</table:table>
<table:table table:name="Cachée" table:style-name="ta2">
 <table:table-row><table:table-cell office:value-type="string"><text:p>x</text:p></table:table-cell></table:table-row>
</table:table>
</office:spreadsheet></office:body></office:document-content>"""


def write_ods(path: Path, content: str | bytes, manifest: str = "") -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet", zipfile.ZIP_STORED)
        archive.writestr("content.xml", content, zipfile.ZIP_DEFLATED)
        if manifest:
            archive.writestr("META-INF/manifest.xml", manifest)
    return path


def test_ods_is_read_natively_repeats_spaces_dates_and_hidden_sheets(tmp_path):
    sheets = ods.read(write_ods(tmp_path / "n.ods", ODS_CONTENT))
    assert [(s.name, s.hidden) for s in sheets] == [("Open de Nîmes", False), ("Cachée", True)]
    assert sheets[0].rows == {1: ["Open de Nîmes"], 2: ["Date", OCT], 5: ["Pl.", None, None, "Nom  Prénom"],
                              6: [1, None, None, "NOËL Élodie"], 7: ["2 ex", None, None, "Bob Durand"]}


def test_an_ods_source_is_imported(tmp_path, capsys):
    season = write_season(tmp_path / "saison.xlsx", [], [])
    status, out, err = run(capsys, "import", str(season), str(write_ods(tmp_path / "n.ods", ODS_CONTENT)))
    assert status == 0, err
    assert [(r["Tournoi"], r["Joueur"], r["Place"]) for r in rows_of(season, "Résultats", "Resultats")] == [
        ("Open de Nîmes", "NOËL Élodie", 1), ("Open de Nîmes", "Bob Durand", 2)]
    assert "Ignoré : [n.ods]Cachée : feuille masquée, ignorée" in err


@pytest.mark.parametrize("content, message", [
    ('<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><x>&a;</x>', "constructions XML interdites"),
    ("<office:document-content", "XML invalide dans content.xml"),
    (ODS_CONTENT.replace('<table:table-row>\n  <table:table-cell office:value-type="float"',
                         '<table:table-row table:number-rows-repeated="3000000">\n  <table:table-cell '
                         'office:value-type="float"'), "plus de 2 000 000 cellules"),
])
def test_a_hostile_or_broken_ods_is_one_sentence(tmp_path, content, message):
    with pytest.raises(Exception, match=message):
        ods.read(write_ods(tmp_path / "x.ods", content))


def test_a_password_protected_ods_says_so(tmp_path, capsys):
    season = write_season(tmp_path / "saison.xlsx", [], [])
    source = write_ods(tmp_path / "p.ods", ODS_CONTENT, '<manifest:manifest><manifest:encryption-data/></manifest:manifest>')
    status, out, err = run(capsys, "import", str(season), str(source))
    assert status == 1
    assert "p.ods : est protégé par mot de passe : enregistrez-le sans mot de passe, puis relancez." in err


def test_a_libreoffice_ods_is_imported(tmp_path, capsys):
    from conftest import need_libreoffice

    from xlcircuit.xlsx import libreoffice

    need_libreoffice()
    made = libreoffice.convert(example_2(tmp_path / "lyon.xlsx"), tmp_path / "ods", "ods")[0]
    season = write_season(tmp_path / "saison.xlsx", [], [])
    status, out, err = run(capsys, "import", str(season), str(made))
    assert status == 0, err
    lines = rows_of(season, "Résultats", "Resultats")
    assert [(r["Joueur"], r["Place"]) for r in lines][-4:] == [("Inès IBERT", 9), ("Jules JOLY", 9), ("Karl KLEIN", 9),
                                                              ("Léa LEROY", 9)]
    assert rows_of(season, "Tournois", "Tournois")[0]["Date"].date() == OCT


def test_a_folder_a_long_table_and_the_season_itself_left_out(tmp_path, capsys):
    folder = tmp_path / "résultats"
    folder.mkdir()
    season = write_season(folder / "saison.xlsx", [], [])
    sheet_source(folder / "saison-2024.xlsx", {"Feuil1": [
        ["Tournoi", "Joueur", "Place"], ["Open A", "Alice", 1], ["Open A", "Bob", 2], ["Open B", "Bob", 1],
        ["Open B", "Alice", 2]]})
    (folder / "Open C.csv").write_text("Place,Joueur\n1,Chloé\n", encoding="utf-8")
    (folder / "~$Open D.xlsx").write_bytes(b"lock")  # Excel's lock beside a file it has open: not a source
    (folder / "notes.txt").write_text("rien à voir\n", encoding="utf-8")
    status, out, err = run(capsys, "import", str(season), str(folder))
    assert status == 1  # notes.txt is a text file without a ranking: the import says so, and writes nothing
    assert "notes.txt : aucune feuille n'a de ligne d'en-tête reconnue" in err
    (folder / "notes.txt").unlink()
    status, out, err = run(capsys, "import", str(season), str(folder))
    assert status == 0, err
    assert [(r["Tournoi"], r["Joueur"]) for r in rows_of(season, "Résultats", "Resultats")] == [
        ("Chloé", "Chloé") if False else ("Open C", "Chloé"), ("Open A", "Alice"), ("Open A", "Bob"),
        ("Open B", "Bob"), ("Open B", "Alice")]
    assert [t["Tournoi"] for t in rows_of(season, "Tournois", "Tournois")] == ["Open C", "Open A", "Open B"]


# --- importing again; the organiser's own columns; an older workbook ------------------------------------------


def test_importing_the_same_source_again_replaces_its_lines(tmp_path, capsys):
    season = write_season(tmp_path / "saison.xlsx", [("Open", OCT, "normal", None)],
                          [("Open", "Typée", 1, None, None)])
    wb = openpyxl.load_workbook(season)
    ws = wb["Résultats"]
    ws["G1"], ws["G2"] = "Mes notes", "à moi"
    wb.save(season)
    source = tmp_path / "Open.csv"
    source.write_text("Place;Joueur\n2;Alice\n3;Bob\n4;Chloé\n", encoding="utf-8")
    assert main(["import", str(season), str(source)]) == 0
    capsys.readouterr()
    source.write_text("Place;Joueur\n2;Alice\n3;Bruno\n", encoding="utf-8")  # corrected, one line less
    status, out, err = run(capsys, "import", str(season), str(source))
    assert status == 0, err
    assert "tournoi « Open » : 2 lignes remplacées (même source)" in out
    assert "1 ligne retirée : importée de « Open.csv », elle n’y est plus" in out
    assert "Tournoi « Open » : 1 autre ligne (Résultats!B2 ; tapées) est gardée à côté des lignes importées" in err
    rows = rows_of(season, "Résultats", "Resultats")
    assert [(r["Joueur"], r["Place"], r["Source"]) for r in rows] == [
        ("Typée", 1, None), ("Alice", 2, "Open.csv"), ("Bruno", 3, "Open.csv")]
    ws = openpyxl.load_workbook(season)["Résultats"]
    assert ws["G2"].value == "à moi" and ws.tables["Resultats"].ref == "A1:F4"


def test_an_older_workbook_without_the_source_column_gets_it(tmp_path, capsys):
    season = write_season(tmp_path / "saison.xlsx", [], [("Open", "Alice", 1, None, None)])
    wb = openpyxl.load_workbook(season)
    ws = wb["Résultats"]
    table = ws.tables["Resultats"]
    ws["F1"] = None
    table.ref = table.autoFilter.ref = "A1:E2"
    table.tableColumns = table.tableColumns[:5]
    wb.save(season)
    source = tmp_path / "Open.csv"
    source.write_text("Place;Joueur\n2;Bob\n", encoding="utf-8")
    status, out, err = run(capsys, "import", str(season), str(source))
    assert status == 0, err
    assert "Colonne ajoutée à la table Resultats : Source" in out
    rows = rows_of(season, "Résultats", "Resultats")
    assert [(r["Joueur"], r["Source"]) for r in rows] == [("Alice", None), ("Bob", "Open.csv")]


def test_a_table_that_cannot_grow_is_a_problem_and_nothing_is_written(tmp_path, capsys):
    from openpyxl.worksheet.table import Table

    season = write_season(tmp_path / "saison.xlsx", [], [("Open", "Alice", 1, None, None)])
    wb = openpyxl.load_workbook(season)
    ws = wb["Résultats"]
    ws["A4"], ws["B4"], ws["A5"], ws["B5"] = "Mes notes", "Quand", "appeler Bob", "lundi"
    ws.add_table(Table(displayName="MesNotes", ref="A4:B5"))  # the organiser's own table, right under
    wb.save(season)
    before = season.read_bytes()
    (tmp_path / "Open.csv").write_text("Place;Joueur\n2;Bob\n3;Chloé\n4;Denis\n", encoding="utf-8")
    status, out, err = run(capsys, "import", str(season), str(tmp_path / "Open.csv"))
    assert status == 1
    assert "Résultats!A4 : la table « Resultats » doit s'agrandir sur A4, qui n'est pas vide" in err
    assert season.read_bytes() == before


# --- problems: located in the source, all at once, nothing written ----------------------------------------------


def test_every_problem_is_located_in_the_source_and_nothing_is_written(tmp_path, capsys):
    season = write_season(tmp_path / "saison.xlsx", [], [])
    before = season.read_bytes()
    good = sheet_source(tmp_path / "a.xlsx", {"Open": [["Place", "Joueur", "Rôle"], [1, "Alice", None],
                                                       ["premier", "Bob", None], [None, "Chloé", None],
                                                       [2, "Denis", "arbitre"]]})
    (tmp_path / "b.csv").write_text("Rang;Nom\n1;\n", encoding="utf-8")
    (tmp_path / "c.xls").write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1")
    status, out, err = run(capsys, "import", str(season), str(good), str(tmp_path / "b.csv"), str(tmp_path / "c.xls"),
                           str(tmp_path / "absent.csv"))
    assert status == 1
    assert err.splitlines()[:7] == [
        "6 problèmes dans les sources :",
        "  - [a.xlsx]Open!A3 (colonne « Place ») : place attendue : un entier positif (1, 2, 3…) ; trouvé « premier »",
        "  - [a.xlsx]Open!A4 (colonne « Place ») : place manquante : un joueur classé a une place ; sinon indiquez "
        "son rôle (organisateur, aide, annulé)",
        "  - [a.xlsx]Open!C5 (colonne « Rôle ») : rôle attendu : joueur (ou vide), organisateur, aide, annulé ; "
        "trouvé « arbitre »",
        "  - b.csv!B2 (colonne « Nom ») : joueur manquant : la ligne a d'autres valeurs ; il en faut une ici (ou videz "
        "la ligne)",
        "  - c.xls : est au format .xls (Excel 97-2003) : ouvrez-le dans votre tableur et enregistrez-le au format "
        ".xlsx, puis relancez.",
        f"  - {tmp_path / 'absent.csv'} : fichier ou dossier introuvable",
    ]
    assert "Rien n'a été écrit" in err and "Traceback" not in err
    assert season.read_bytes() == before


def test_a_required_column_missing_is_one_problem_for_the_sheet(tmp_path, capsys):
    season = dbm_season(tmp_path / "saison.xlsx")
    source = sheet_source(tmp_path / "p.xlsx", {"Poule": [["Joueur", "Club", "Arbitre"], ["Paul", "Nice", None]]})
    status, out, err = run(capsys, "import", str(season), str(source))
    assert status == 1
    assert "[p.xlsx]Poule : aucune ligne d'en-tête reconnue" not in err
    assert "[p.xlsx]Poule!A3 (colonne « Place ») : place manquante" in err or "place manquante" in err


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=400), suffix=st.sampled_from([".csv", ".ods", ".xlsx"]))
def test_any_bytes_as_a_source_end_in_sentences_never_a_traceback(tmp_path, data, suffix):
    season = tmp_path / "saison.xlsx"
    if not season.exists():
        write_season(season, [], [])
    source = tmp_path / f"source{suffix}"
    source.write_bytes(data)
    outcome = import_results(season, [source], trial=True)  # raises nothing but deliberate errors, turned to problems
    assert outcome.problems or outcome.lines


# --- every federation: the sheet a tournament's organiser sends, imported without a question --------------------


def dbm_season(path: Path, joueurs=()) -> Path:
    wb = dbm_book.new_workbook()
    type_rows(wb, dbm_book.PARAMETRES, [("Saison", "1998-1999"), ("seuil_S", 60), ("seuil_O", 40)])
    type_rows(wb, dbm_book.JOUEURS, list(joueurs))
    return save_atomic(wb, path)


def fill_form(path: Path, facts: dict[str, object], rows: list[list[object]]) -> Path:
    """Type into a form made by ``xlcircuit new FED-tournoi`` as its organiser would: the facts beside their
    labels, the lines under the headings."""
    wb = openpyxl.load_workbook(path)
    ws = wb.active
    labels = {ws.cell(r, 1).value: r for r in range(1, 30) if ws.cell(r, 1).value}
    for label, value in facts.items():
        ws.cell(labels[label], 2).value = value
    header = ws.tables["Envoi"].ref.split(":")[0][1:]
    for offset, row in enumerate(rows, start=int(header) + 1):
        for col, value in enumerate(row, start=1):
            ws.cell(offset, col).value = value
    wb.save(path)
    return path


DBM_EXAMPLE_1 = [("DUPONT", "Paul"), ("MARTIN", "Luc"), ("DURAND", "Zoé"), ("PETIT", "Yves"), ("ROUX", "Anne"),
                 ("FAURE", "Marc"), ("GIRARD", "Inès"), ("HUBERT", "Omar"), ("IBERT", "Rita"), ("JOLY", "Théo"),
                 ("KLEIN", "Ugo"), ("LEROY", "Véra")]


def test_dbm_results_sheet_from_new_dbm_tournoi_is_imported_without_a_question(tmp_path, capsys):
    """The reform's « feuille de résultats » (referee, rounds, names, club, place) of its example 1: twelve (O)
    players, four rounds: VFT 120.00 and the RFJ of docs/regles/dbm.md."""
    season = dbm_season(tmp_path / "saison.xlsx", [(f"{first} {last.capitalize()}", "Nice", "O")
                                                   for last, first in DBM_EXAMPLE_1])
    form = tmp_path / "vincennes.xlsx"
    assert main(["new", "DBM-tournoi", str(form)]) == 0
    assert "Feuille à envoyer créée" in capsys.readouterr().out
    fill_form(form, {"Tournoi": "Vincennes — Antique", "Date": dt.date(1998, 11, 7), "Rondes": 4,
                     "Arbitre": "Jean Arbitre"},
              [[place, last, first, "Nice"] for place, (last, first) in enumerate(DBM_EXAMPLE_1, start=1)])
    status, out, err = run(capsys, "import", str(season), str(form), "--essai")
    assert status == 0, err
    assert "colonnes ignorées" not in out and "Ignoré" not in err
    status, out, err = run(capsys, "import", str(season), str(form))
    assert status == 0, err
    assert "poule « Vincennes — Antique » : 13 lignes ajoutées" in out
    assert "Feuille « Tournois », ligne 2 ajoutée : poule « Vincennes — Antique »" in out
    assert "Antique » ; à compléter" not in out  # the date and the rounds came with the sheet
    assert main(["fill", str(season)]) == 0
    capsys.readouterr()
    valeurs = rows_of(season, "Valeurs", "Valeurs")
    assert [(v["Tournoi"], v["NRJ"], v["NJT"], round(v["VFT"], 2)) for v in valeurs] == [
        ("Vincennes — Antique", 4, 12, 120.0)]
    points = {p["Joueur"]: p["RFJ"] for p in rows_of(season, "Points", "Points")}
    assert [round(points[f"{first} {last.capitalize()}"], 2) for last, first in DBM_EXAMPLE_1] == [
        120.0, 95.24, 75.6, 60.0, 47.62, 37.8, 30.0, 23.81, 18.9, 15.0, 11.91, 9.45]
    assert round(points["Jean Arbitre"], 2) == 60.0  # the referee's bonus: half the VFT, 100 at most


def test_dbm_poule_without_date_and_rounds_is_left_for_check_to_ask(tmp_path, capsys):
    season = dbm_season(tmp_path / "saison.xlsx")
    source = sheet_source(tmp_path / "bouvines.xlsx", {"Bouvines": [["Place", "Nom", "Prénom", "Club"],
                                                                    [1, "A", "Paul", "HO"], [2, "B", "Luc", "HO"]]})
    status, out, err = run(capsys, "import", str(season), str(source))
    assert status == 0, err
    assert "à compléter : Date (Tournois!B2), Rondes (Tournois!C2)" in out
    status, out, err = run(capsys, "check", str(season))
    assert status == 1
    assert "Tournois!B2 (colonne « Date ») : date manquante" in err and "Tournois!C2 (colonne « Rondes »)" in err


def test_cdf_boards_are_imported(tmp_path, capsys):
    from xlcircuit.federations import cdf as cdf_book

    wb = cdf_book.new_workbook()
    season = save_atomic(wb, tmp_path / "cdf.xlsx")
    form = tmp_path / "table1.xlsx"
    assert main(["new", "cdf-tournoi", str(form)]) == 0
    powers = ["Angleterre", "Allemagne", "Autriche", "France", "Italie", "Russie", "Turquie"]
    fill_form(form, {"Ronde": 1, "Table": 1},
              [[f"Joueur {i}", power, centres, None if centres else 1905]
               for i, (power, centres) in enumerate(zip(powers, [10, 8, 0, 6, 5, 3, 2]), start=1)])
    status, out, err = run(capsys, "import", str(season), str(form))
    assert status == 1  # « Éliminé après » is a number of years, not a year: located in the sheet
    assert "[table1.xlsx]Résultats!D" in err and "nombre d'années attendu : un entier de 0 à" in err
    fill_form(form, {}, [[f"Joueur {i}", power, centres, None if centres else 4]
                         for i, (power, centres) in enumerate(zip(powers, [10, 8, 0, 6, 5, 3, 2]), start=1)])
    status, out, err = run(capsys, "import", str(season), str(form))
    assert status == 0, err
    assert "table « Ronde 1, Table 1 » : 7 lignes ajoutées" in out
    parties = rows_of(season, "Parties", "Parties")
    assert [(p["Ronde"], p["Table"], p["Joueur"], p["Pays"], p["Centres"]) for p in parties[:2]] == [
        (1, "1", "Joueur 1", "Angleterre", 10), (1, "1", "Joueur 2", "Allemagne", 8)]
    assert [j["Joueur"] for j in rows_of(season, "Joueurs", "Joueurs")] == [f"Joueur {i}" for i in range(1, 8)]
    status, out, err = run(capsys, "check", str(season))
    assert "Traceback" not in err


def test_elo_games_are_imported_and_rated(tmp_path, capsys):
    from xlcircuit.federations import elo as elo_book

    season = save_atomic(elo_book.new_workbook(), tmp_path / "elo.xlsx")
    form = tmp_path / "soiree.xlsx"
    assert main(["new", "elo-tournoi", str(form)]) == 0
    fill_form(form, {"Date": OCT}, [[1, "Alice", 10], [1, "Bob", 20], [2, "Alice", 5], [2, "Chloé", 5],
                                    [2, "Bob", 8]])
    status, out, err = run(capsys, "import", str(season), str(form))
    assert status == 0, err
    assert "partie « Date 04/10/2025, Partie 1 » : 2 lignes ajoutées" in out
    assert main(["fill", str(season)]) == 0
    history = rows_of(season, "Historique", "Historique")
    assert [(h["Partie"], h["Joueur"], h["Elo avant"]) for h in history][:2] == [("1", "Alice", 1000), ("1", "Bob", 1000)]


def test_torres_match_sheets_fill_the_calendar_typed_in_advance(tmp_path, capsys):
    from xlcircuit.federations.examples import load

    joueurs = [row[:4] + (None,) for row in load("torres").JOUEURS if row[4] != "nouveau"][:10]
    wb = torres_book.new_workbook()
    type_rows(wb, torres_book.PARAMETRES, [("Saison", "2025"), ("Graine", 1)])
    type_rows(wb, torres_book.JOUEURS, [tuple(row) + (None,) for row in joueurs])
    season = save_atomic(wb, tmp_path / "torres.xlsx")
    assert main(["schedule", str(season)]) == 0
    capsys.readouterr()
    calendar = rows_of(season, "Matchs", "Matchs")
    first = [r["Joueur"] for r in calendar if (r["Division"], r["Groupe"], r["Match"]) == (1, 1, 1)]
    form = tmp_path / "match1.xlsx"
    assert main(["new", "torres-tournoi", str(form)]) == 0
    fill_form(form, {"Division": 1, "Groupe": 1, "Match": 1},
              [[name.upper(), points] for name, points in zip(first, [100, 80, 60, 40])])
    status, out, err = run(capsys, "import", str(season), str(form))
    assert status == 0, err
    assert "match « Division 1, Groupe 1, Match 1 » : 4 lignes déjà préparées remplies" in out
    matchs = rows_of(season, "Matchs", "Matchs")
    assert len(matchs) == len(calendar)  # filled in place, no line added
    assert [(r["Joueur"], r["Points"]) for r in matchs[:4]] == list(zip(first, [100, 80, 60, 40]))
    status, out, err = run(capsys, "check", str(season))
    assert status == 0, err


@pytest.mark.parametrize("code", ["tdf", "dbm", "cdf", "elo", "torres"])
def test_every_form_heading_is_one_the_import_recognises(tmp_path, capsys, code):
    from xlcircuit.federations import ADAPTERS
    from xlcircuit.workbook.sources.grids import read_sources
    from xlcircuit.workbook.sources.lines import plan_import
    from xlcircuit.workbook.sources.names import People

    form = tmp_path / "envoi.xlsx"
    assert main(["new", f"{code}-tournoi", str(form)]) == 0
    importer = ADAPTERS[code].importer
    wb = openpyxl.load_workbook(form)
    ws = wb.active
    header = int(ws.tables["Envoi"].ref.split(":")[0][1:])
    for col in range(1, len(importer.form.columns) + 1):
        ws.cell(header + 1, col).value = "1"
    wb.save(form)
    plan = plan_import(importer, read_sources([form]), People({}))
    assert [sheet.ignored for sheet in plan.sheets] == [[]]
    recognised = {c.heading for c in plan.sheets[0].columns}
    assert recognised == set(importer.form.columns)


def test_a_damaged_workbook_source_is_one_sentence(tmp_path, capsys):
    season = write_season(tmp_path / "saison.xlsx", [], [])
    good = example_2(tmp_path / "bon.xlsx")
    broken = tmp_path / "abîmé.xlsx"
    with zipfile.ZipFile(good) as source, zipfile.ZipFile(broken, "w") as target:
        for info in source.infolist():
            data = source.read(info)
            if info.filename == "xl/worksheets/sheet1.xml":
                data = data[:len(data) // 2]  # cut in the middle of the cells: openpyxl meets it while reading rows
            target.writestr(info, data)
    status, out, err = run(capsys, "import", str(season), str(broken))
    assert status == 1 and "Traceback" not in err
    assert "abîmé.xlsx : est endommagé et ne peut pas être lu (XML invalide dans xl/worksheets/sheet1.xml" in err


def test_two_excel_tables_on_one_sheet_are_two_tournaments(tmp_path, capsys):
    from openpyxl.worksheet.table import Table

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Poules"
    for row in (["Place", "Joueur", None, "Place", "Joueur"], [1, "Alice", None, 1, "Bob"], [2, "Chloé", None, 2, "Denis"]):
        ws.append(row)
    ws.add_table(Table(displayName="Antique", ref="A1:B3"))
    ws.add_table(Table(displayName="Médiévale", ref="D1:E3"))
    hidden = wb.create_sheet("Calculs")
    hidden.append(["Place", "Joueur"])
    hidden.append([1, "Personne"])
    hidden.sheet_state = "hidden"
    wb.save(tmp_path / "poules.xlsx")
    season = write_season(tmp_path / "saison.xlsx", [], [])
    status, out, err = run(capsys, "import", str(season), str(tmp_path / "poules.xlsx"), "-o",
                           str(tmp_path / "copie.xlsx"))
    assert status == 0, err
    assert "Ignoré : [poules.xlsx]Calculs : feuille masquée, ignorée" in err
    rows = rows_of(tmp_path / "copie.xlsx", "Résultats", "Resultats")
    assert [(r["Tournoi"], r["Joueur"], r["Source"]) for r in rows] == [
        ("Antique", "Alice", "poules.xlsx : Poules : Antique"), ("Antique", "Chloé", "poules.xlsx : Poules : Antique"),
        ("Médiévale", "Bob", "poules.xlsx : Poules : Médiévale"),
        ("Médiévale", "Denis", "poules.xlsx : Poules : Médiévale")]
    assert rows_of(season, "Résultats", "Resultats") == [dict.fromkeys(rows[0])]  # -o: the season untouched


def test_a_table_over_whole_columns_and_a_formula_of_the_organiser_follow_their_rows(tmp_path, capsys):
    from openpyxl.worksheet.table import TableColumn

    season = write_season(tmp_path / "saison.xlsx", [], [])
    source, other = tmp_path / "Open.csv", tmp_path / "Autre.csv"
    source.write_text("Place;Joueur\n1;Alice\n2;Bob\n3;Chloé\n", encoding="utf-8")
    other.write_text("Place;Joueur\n1;Denis\n2;Éloi\n", encoding="utf-8")
    assert main(["import", str(season), str(source), str(other)]) == 0
    wb = openpyxl.load_workbook(season)
    ws = wb["Résultats"]
    table = ws.tables["Resultats"]
    ws["G1"] = "Double"
    for row in range(2, 7):
        ws[f"G{row}"] = f"=C{row}*2"
    table.ref = table.autoFilter.ref = "A1:G1048576"  # the whole columns, as some organisers select them
    table.tableColumns.append(TableColumn(id=7, name="Double"))
    wb.save(season)
    source.write_text("Place;Joueur\n1;Alice\n2;Chloé\n", encoding="utf-8")  # a line withdrawn
    capsys.readouterr()
    status, out, err = run(capsys, "import", str(season), str(source))
    assert status == 0, err
    assert "1 ligne retirée : importée de « Open.csv », elle n’y est plus" in out
    ws = openpyxl.load_workbook(season)["Résultats"]
    assert [(ws[f"B{r}"].value, ws[f"C{r}"].value, ws[f"G{r}"].value) for r in range(2, 7)] == [
        ("Alice", 1, "=C2*2"), ("Chloé", 2, "=C3*2"), ("Denis", 1, "=C4*2"), ("Éloi", 2, "=C5*2"), (None, None, None)]
    assert ws.tables["Resultats"].ref == "A1:G1048575"  # one row less, still down the sheet
