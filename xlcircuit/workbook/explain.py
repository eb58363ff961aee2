"""A player's points explained, in French: each result, the rule applied and the sum, ending on the total the
standings show (``xlcircuit explain FICHIER "Nom"``); as text, or as a one-page workbook or PDF a player can be
sent. An adapter: the rules' numbers come from the computed season; this module only words them."""

from __future__ import annotations

import datetime as dt
import difflib
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Callable, Iterable

import openpyxl
from openpyxl.styles import Alignment, Font
from openpyxl.workbook.workbook import Workbook

from .. import elo as elo_rules
from .. import tdf as tdf_rules
from ..errors import XlcircuitError
from ..mechanics import format_half_up, rounded_parts
from ..text import fold
from . import libreoffice
from .io import save_atomic
from .tables import PAPER_A4, count, put

SHEET = "Explication"
#: The sheet's one column: as wide as an A4 portrait page takes at 100 % in the widest fonts, and the
#: characters a wrapped line holds there.
WIDTH, LINE = 68, 58


def _n(x: float, digits: int) -> str:
    """A number as published: rounded half up, French decimal comma."""
    return format_half_up(x, digits).replace(".", ",")


def _signed(x: float, digits: int = 0) -> str:
    text = _n(x, digits)
    return text if text.startswith("-") or text.strip("0,") == "" else "+" + text


def _nth(n: int | None) -> str:
    return "?" if n is None else "1er" if n == 1 else f"{n}e"


def _date(day: dt.date | None) -> str:
    return f"{day:%d/%m/%Y}" if day else "sans date"


def _sum(values: Iterable[float], digits: int, total: str) -> str:
    """``a + b - c = total``, each term as published (the total as the standings print it)."""
    values = list(values)
    if len(values) < 2:
        return total
    text = _n(values[0], digits)
    for v in values[1:]:
        text += f" - {_n(-v, digits)}" if _n(v, digits).startswith("-") else f" + {_n(v, digits)}"
    return f"{text} = {total}"


def find_player(wanted: str, names: Iterable[str]) -> str:
    """The name of the standings ``wanted`` designates: exactly, else the one name equal but for case, accents
    and spaces; a clear error otherwise, with the names that come close."""
    names = list(dict.fromkeys(names))
    if wanted in names:
        return wanted
    same = [n for n in names if fold(n) == fold(wanted)]
    if len(same) == 1:
        return same[0]
    close = same or difflib.get_close_matches(wanted, names, n=5, cutoff=0.6) or [
        n for n in names if fold(wanted) in fold(n)][:5]
    hint = f" Noms proches : {', '.join(f'« {n} »' for n in close)}." if close else ""
    raise XlcircuitError(f"« {wanted} » n'est pas dans ce classeur (le nom s'écrit comme dans les résultats)."
                         + hint)


# --- Tour de France ---------------------------------------------------------------------------


def _tdf(module: ModuleType, summary, wanted: str) -> list[str]:
    report = summary.report
    player = find_player(wanted, [st.player for st in report.standings])
    standing = next(st for st in report.standings if st.player == player)
    reasons = module.weight_reasons(summary)
    counted = module.counted_points(summary)
    lines = [f"{player} — {module.TITLE} {summary.season}".rstrip(),
             "Points d'une place (règlement, §1) : 1er : 1000 + nombre de classés ; place p sur x classés : "
             "1000 / 10^((p - 1) / (x - 1)) ; ex aequo : la moyenne de leurs places.",
             "Poids dans la saison (§2) : majeurs 100 % ; autres tournois 100, 80, 40, 20 %, puis 10 %, du meilleur "
             "au moins bon ; en ligne : après les tournois sur table ; règle de non-perte.", ""]
    parts = []
    for t in summary.tournaments:
        scored = report.scored[t.name]
        classified = sum(1 for s in scored if s.status is tdf_rules.Status.CLASSIFIED)
        for s in (s for s in scored if s.line.player == player):
            kind = "" if t.kind.value in t.name else t.kind.value
            kind += ", interrompu" if t.interrupted else ""
            head = f"  {_date(t.date)}  {t.name}" + (f" ({kind.lstrip(', ')})" if kind else "")
            if s.status is tdf_rules.Status.DUPLICATE:
                lines.append(f"{head} : deuxième ligne (doublon) : ne compte pas.")
                continue
            if s.status is tdf_rules.Status.CLASSIFIED:
                tie = f", ex aequo à {s.tied}" if s.tied and s.tied > 1 else ""
                what = f"{_nth(s.place)}{tie} sur {classified} classés"
            else:
                what = f"{s.line.role.value if s.line.role else 'rôle'}, non classé : {_n(tdf_rules.ROLE_POINTS, 0)} points"
            if s.imposed:
                what += (f" ; points imposés : ceux de la place {s.line.imposed_place}" if s.line.imposed_place
                         else " ; points imposés")
            key = (player, t.name)
            weight, _ = report.weights[key]
            lines.append(f"{head} : {what} → {_n(s.points, 1)} points × {_n(weight * 100, 0)} % "
                         f"({reasons[key]}) = {_n(counted[key], 1)}")
            parts.append(counted[key])
    lines.append("")
    total = _n(standing.season.total, 1)
    lines.append(f"Somme : {_sum(parts, 1, total)}")
    if standing.rank is None:
        lines.append(f"Sans rang : classé dans {standing.season.classified} tournoi"
                     f"{'s' if standing.season.classified > 1 else ''} ; il en faut {tdf_rules.MIN_CLASSIFIED} "
                     "pour être classé dans la saison (§2).")
    else:
        ranked = sum(1 for st in report.standings if st.rank is not None)
        lines.append(f"Rang : {standing.rank} sur {ranked} classés ({standing.season.classified} tournois classés).")
    lines.append(f"Total au classement : {total}")
    return lines


# --- DBM ---------------------------------------------------------------------------------------


def _dbm(module: ModuleType, summary, wanted: str) -> list[str]:
    report = summary.report
    results = [r for t in summary.tournaments for r in report.results.get(t.name, [])]
    player = find_player(wanted, [r.player for r in results])
    record = report.records.get(player)
    lines = [f"{player} — {module.TITLE} {summary.season}".rstrip(),
             "Résultat d'une poule (RFJ) : VFT / 2^(4 × (place - 1) / NJT) ; VFT, la valeur de la poule "
             "(feuille « Valeurs ») ; ex aequo : la moyenne de leurs places.",
             "Tableau 1 : les joueurs d'au moins trois tournois, par la somme de leurs quatre meilleurs résultats.",
             ""]
    dates = {t.name: t.date for t in summary.tournaments}
    for r in (r for r in results if r.player == player):
        value = report.values.get(r.tournament)
        if r.referee:
            what = "arbitre : prime d'arbitrage (moitié de la VFT, 100 au plus)"
        else:
            tie = f", ex aequo à {r.tied}" if r.tied and r.tied > 1 else ""
            what = f"{_nth(r.effective)}{tie} sur {value.njt if value else '?'} (NJT)"
            what += f", joue en classe {r.vaj.letter}" if r.vaj else ""
        vft = f" ; VFT {_n(value.vft, 2)}" if value else ""
        remark = module._remark(r, summary)
        lines.append(f"  {_date(dates.get(r.tournament))}  {r.tournament} : {what}{vft} → RFJ {_n(r.points, 2)} ; "
                     f"{'compté' if r.counted else 'non compté (hors des quatre meilleurs)'}"
                     + (f" ({remark})" if remark else ""))
    lines.append("")
    if record is None:
        lines.append("Hors championnat : aucun tournoi français cette saison.")
        return lines
    parts = rounded_parts(list(record.best), 2)
    total = _n(record.total, 2)
    lines.append(f"Somme des {len(parts)} meilleurs : {_sum(parts, 2, total)}")
    place = next((r.place for r in report.tableau1 if r.record.player == player), None)
    if place is None:
        lines.append(f"Occasionnel : {record.tournaments} tournoi{'s' if record.tournaments > 1 else ''} ; il en "
                     "faut trois pour figurer au tableau 1.")
        lines.append(f"Total (hors tableau 1) : {total}")
    else:
        star = " (* : trois tournois seulement)" if record.three_only else ""
        lines.append(f"Tableau 1 : {_nth(place)}{star}.")
        lines.append(f"Total au tableau 1 : {total}")
    return lines


# --- Championnat de France ------------------------------------------------------------------


def _cdf(module: ModuleType, summary, wanted: str) -> list[str]:
    ch = summary.championship
    player = find_player(wanted, [s.player for s in ch.standings])
    standing = next(s for s in ch.standings if s.player == player)
    counted, weights = module._counted_rounds(standing)
    lines = [f"{player} — {summary.name or module.TITLE}",
             "Score final (§IV.3a) : les scores de ronde, du meilleur au moins bon, à 100, 100, 80 et 40 % "
             "(3 rondes : 100, 100, 80 % ; moins : 100 %) ; table finale : + 15 % (§III.4).", ""]
    for (ronde, table), games in sorted(ch.boards.items(), key=lambda item: (item[0][0], module._order(item[0][1]))):
        for g in games:
            if g.seat.player == player:
                power = f"{g.seat.power.value}, " if g.seat.power else ""
                out = f", éliminé après {g.seat.survived} ans" if g.seat.eliminated else ""
                lines.append(f"  Ronde {ronde}, table {table} : {power}{count(g.seat.centres, 'centre')}{out} → score "
                             f"{_n(g.score, 2)}")
    lines.append("")
    for r in sorted(standing.rounds):
        lines.append(f"  Ronde {r} : score de la ronde {_n(standing.rounds[r], 2)} × {_n(weights[r] * 100, 0)} % = "
                     f"{_n(counted[r], 2)}")
    final = _n(standing.final, 2)
    lines.append(f"Score final : {_sum([counted[r] for r in sorted(counted)], 2, final)}")
    total = _n(standing.total, 2)
    if standing.top_board:
        bonus = f" + bonus {_n(standing.bonus, 2)}" if standing.bonus else ""
        lines.append(f"Table finale : {final} × 1,15{bonus} = {total}")
    elif standing.bonus:
        lines.append(f"Bonus : {final} + {_n(standing.bonus, 2)} = {total}")
    champion = " : champion de France (vainqueur de la table finale, 1er quel que soit son total)" \
        if standing.champion else ""
    lines.append(f"Place : {_nth(standing.place)}{champion}.")
    lines.append(f"Total au classement : {total}")
    return lines


# --- Elo -------------------------------------------------------------------------------------


def _elo(module: ModuleType, summary, wanted: str) -> list[str]:
    history = summary.history
    player = find_player(wanted, [s.player for s in history.standings])
    standing = next(s for s in history.standings if s.player == player)
    lines = [f"{player} — {module.TITLE}{' : ' + summary.name if summary.name else ''}",
             f"Départ : {elo_rules.START}. Chaque partie : variation = K × (obtenu - attendu), arrondie au plus "
             "proche ; le seul premier gagne au moins 1 point, le seul dernier en perd au moins 1 ; jamais sous 100.",
             ""]
    deltas = []
    for line in history.lines:
        if line.player != player:
            continue
        c = line.change
        players = sum(1 for other in history.lines if other.game is line.game)
        note = f" ({c.note})" if c.note else ""
        lines.append(f"  {_date(line.game.date)}  partie {line.game.name} : {_nth(c.rank)} sur {players} ; Elo "
                     f"{c.before} ; partie n° {c.games}, K = {c.k} ; attendu {_n(c.expected, 4)}, obtenu "
                     f"{_n(c.score, 4)} → {_n(c.raw, 2)} → {_signed(c.delta)}{note} ; Elo {c.after}")
        deltas.append(c.delta)
    lines.append("")
    lines.append(f"Somme : {_sum([elo_rules.START] + deltas, 0, str(standing.rating))}")
    lines.append(f"Rang : {standing.rank} ; palier : {module.tier_text(standing)}.")
    lines.append(f"Elo au classement : {standing.rating}")
    return lines


# --- TORRES ----------------------------------------------------------------------------------


def _torres(module: ModuleType, summary, wanted: str) -> list[str]:
    everyone = [s for table in summary.standings.values() for s in table]
    player = find_player(wanted, [s.player.name for s in everyone])
    standing = next(s for s in everyone if s.player.name == player)
    lines = [f"{player} — {module.TITLE} {summary.season}".rstrip(),
             "Chaque match (§2) : points de victoire selon la place aux points particuliers ; différence : ses "
             "points moins ceux de chaque adversaire.", ""]
    vps, diffs = [], []
    for (d, g, m), seats in sorted(summary.scored.items()):
        for s in seats:
            if s.seat.player == player:
                remark = module._remark(s)
                lines.append(f"  Division {d}, groupe {g}, match {m} : {_n(s.seat.points, 0)} points particuliers, "
                             f"{_nth(s.place) if s.place else 'sans place'} → {_n(s.victory_points, 1)} PV, "
                             f"différence {_signed(s.difference)}" + (f" ({remark})" if remark else ""))
                vps.append(s.victory_points)
                diffs.append(s.difference)
    lines.append("")
    lines.append(f"Points de victoire : {_sum(rounded_parts(vps, 1), 1, _n(standing.victory_points, 1))}")
    lines.append(f"Différence : {_sum(diffs, 0, _signed(standing.difference))}")
    lines.append(f"Rang : {standing.rank} de la division {standing.player.division}, groupe {standing.player.group} "
                 "(départage : points de victoire, différence, points particuliers, Elo le plus bas).")
    lines.append(f"Points de victoire au classement : {_n(standing.victory_points, 1)}")
    return lines


_BY_FEDERATION: dict[str, Callable[[ModuleType, object, str], list[str]]] = {
    "tdf": _tdf, "dbm": _dbm, "cdf": _cdf, "elo": _elo, "torres": _torres,
}


def explain(module: ModuleType, summary, player: str) -> list[str]:
    """The lines explaining ``player``'s points, in French, the last one ending on his published total."""
    return _BY_FEDERATION[module.FEDERATION](module, summary, player)


def explanation_workbook(lines: list[str]) -> Workbook:
    """The explanation as a one-sheet workbook a player can be sent: A4 portrait, one page wide, wrapped lines."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = SHEET
    ws.column_dimensions["A"].width = WIDTH
    for row, text in enumerate(lines, start=1):
        if text:
            cell = ws.cell(row, 1)
            indented = text.startswith("  ")
            put(cell, text.strip() if indented else text)
            cell.alignment = Alignment(wrap_text=True, vertical="top", indent=2 if indented else 0)
            # Rows as high as their wrapped lines (no program sizes them on opening), in the widest fonts.
            ws.row_dimensions[row].height = 15 * -(-len(text) // LINE) + 2
    ws["A1"].font = Font(bold=True, size=14)
    ws.row_dimensions[1].height = 20 * -(-len(lines[0]) // (LINE * 11 // 14)) + 2
    ws.cell(len(lines), 1).font = Font(bold=True)
    ws.page_setup.paperSize = PAPER_A4
    ws.page_setup.orientation = "portrait"
    ws.page_setup.scale = 100
    ws.sheet_properties.pageSetUpPr.fitToPage = False
    ws.oddFooter.center.text = "Page &P / &N"
    return wb


def write_explanation(lines: list[str], target: Path) -> Path:
    """Write the explanation to ``target``: ``.xlsx`` (a sheet), ``.pdf`` (printed by LibreOffice), else text."""
    suffix = target.suffix.lower()
    if suffix == ".xlsx":
        return save_atomic(explanation_workbook(lines), target)
    if suffix == ".pdf":
        libreoffice.require()
        with tempfile.TemporaryDirectory() as work:
            source = save_atomic(explanation_workbook(lines), Path(work) / f"{target.stem}.xlsx")
            made = libreoffice.convert(source, Path(work) / "pdf", "pdf")[0]
            target.parent.mkdir(parents=True, exist_ok=True)
            made.replace(target)
            return target
    target.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return target
