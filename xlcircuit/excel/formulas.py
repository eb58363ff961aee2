"""The native-formulas workbook (``xlcircuit excel formulas``): the formulas of :mod:`xlcircuit.excel.native` in
one sheet per table, below the example data (or the given lines), without Python or any add-in: any Excel and
LibreOffice compute it on opening."""

from __future__ import annotations

from collections.abc import Sequence

from openpyxl import Workbook
from openpyxl.styles import Font, PatternFill
from openpyxl.utils import column_index_from_string, get_column_letter
from openpyxl.worksheet.worksheet import Worksheet

from .native import (
    DBM_PLAYERS,
    DBM_PLAYERS_EXAMPLE,
    DBM_TOURNAMENTS,
    DBM_TOURNAMENTS_EXAMPLE,
    ELO_EXAMPLE,
    ELO_SHEET,
    FIRST,
    TDF_EXAMPLE,
    TDF_INTERRUPTED,
    TDF_INTERRUPTED_COLUMN,
    TDF_SHEET,
    TORRES_EXAMPLE,
    TORRES_SHEET,
    Column,
    dbm_player_columns,
    dbm_tournament_columns,
    elo_columns,
    tdf_columns,
    torres_columns,
)

_BOLD = Font(bold=True)
_HEADER = PatternFill("solid", fgColor="DDEBF7")
_COMPUTED = PatternFill("solid", fgColor="F2F2F2")


def _sheet(wb: Workbook, title: str, intro: str, columns: list[Column], rows: Sequence[Sequence[object]],
           last: int) -> Worksheet:
    ws = wb.create_sheet(title)
    ws["A1"] = title
    ws["A1"].font = Font(bold=True, size=14)
    ws["A2"] = intro
    ws["A3"] = ("Colonnes blanches : à saisir ; colonnes grises : formules (recopiées jusqu'à la ligne "
                f"{last}). Ni Python ni complément : ces formules marchent dans tout Excel et dans LibreOffice.")
    for c, column in enumerate(columns, start=1):
        cell = ws.cell(FIRST - 1, c, column.header)
        cell.font, cell.fill = _BOLD, _HEADER
        ws.column_dimensions[get_column_letter(c)].width = max(12, len(column.header) + 2)
    typed = [c for c, column in enumerate(columns, start=1) if column.formula is None]
    for r in range(FIRST, last + 1):
        values = dict(zip(typed, rows[r - FIRST])) if r - FIRST < len(rows) else {}  # the typed columns, in order
        for c, column in enumerate(columns, start=1):
            cell = ws.cell(r, c)
            if column.formula is None:
                if values.get(c) is not None:
                    cell.value = values[c]
                    if isinstance(cell.value, str):
                        cell.data_type = "s"  # a name stays text, even one starting with '='
            else:
                cell.value = "=" + column.formula.replace("{r}", str(r))
                cell.fill = _COMPUTED
            if column.number_format:
                cell.number_format = column.number_format
    ws.freeze_panes = f"A{FIRST}"
    return ws


Rows = Sequence[Sequence[object]]


def formulas_workbook(tdf_rows: Rows = TDF_EXAMPLE, tdf_interrupted: Sequence[str] = TDF_INTERRUPTED,
                      dbm_tournaments: Rows = DBM_TOURNAMENTS_EXAMPLE, dbm_players: Rows = DBM_PLAYERS_EXAMPLE,
                      torres_rows: Rows = TORRES_EXAMPLE, elo_rows: Rows = ELO_EXAMPLE, lines: int = 200) -> Workbook:
    """The workbook, its tables holding the given lines (the examples by default) and formulas down to at least
    ``lines`` lines (tournament tables: 20)."""
    wb = Workbook()
    wb.remove(wb.active)
    tdf_last = FIRST + max(lines, len(tdf_rows)) - 1
    ws = _sheet(wb, TDF_SHEET, "Points TdF de chaque ligne (tdf.md §1) : place officielle (1, 2, 2, 4… ou 1er, "
                "2e, 3ème), ou organisateur, aide, annulé (100 points) ; vide : non classé. Un joueur qui a joué "
                "sur deux tables a ses deux lignes : la meilleure compte, l'autre est un doublon (les classés "
                "derrière elle remontent d'une place). Une ligne illisible : tout son tournoi en #N/A, la raison "
                "en colonne Remarque.", tdf_columns(tdf_last),
                tdf_rows, tdf_last)
    listed = column_index_from_string(TDF_INTERRUPTED_COLUMN)
    ws.cell(FIRST - 1, listed, "Tournois interrompus").font = _BOLD
    ws.cell(FIRST - 1, listed).fill = _HEADER
    ws.column_dimensions[TDF_INTERRUPTED_COLUMN].width = 22
    for i, name in enumerate(tdf_interrupted):
        ws.cell(FIRST + i, listed, name).data_type = "s"

    players_last = FIRST + max(lines, len(dbm_players)) - 1
    tournaments_last = FIRST + max(20, len(dbm_tournaments)) - 1
    _sheet(wb, DBM_TOURNAMENTS, "Valeur de chaque tournoi (ABRA : VFT = MVB × CMM × NRJ), ses joueurs dans la "
           f"feuille « {DBM_PLAYERS} ».", dbm_tournament_columns(players_last), dbm_tournaments, tournaments_last)
    _sheet(wb, DBM_PLAYERS, "Résultat de chaque joueur (CADABRA : RFJ = VFT / 2^(4 × (place − 1) / NJT)) ; sa "
           "classe (I, F, O, S, X ou 1 à 5) donne la valeur du tournoi.",
           dbm_player_columns(players_last, tournaments_last), dbm_players, players_last)

    torres_last = FIRST + max(lines, len(torres_rows)) - 1
    _sheet(wb, TORRES_SHEET, "Points de victoire (8, 4, 2, 1) et différences de points particuliers de chaque "
           "joueur d'un match (torres.md §2) ; Forfait : VRAI pour un joueur qui ne marque aucun point de victoire.",
           torres_columns(torres_last), torres_rows, torres_last)
    elo_last = FIRST + max(lines, len(elo_rows)) - 1
    _sheet(wb, ELO_SHEET, "Espérance Elo d'un duel (elo.md §2).", elo_columns(elo_last), elo_rows, elo_last)
    wb.calculation.fullCalcOnLoad = True  # no cached values: every spreadsheet computes them on opening
    return wb
