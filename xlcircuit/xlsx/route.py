"""The fill's path, decided before anything is written: the surgical fill (only xlcircuit's sheets written
anew, every other part copied byte for byte) or the full rewrite of the workbook through openpyxl's model,
with the reason, in French, when it is the second."""

from __future__ import annotations

from dataclasses import dataclass

SURGICAL, FULL = "surgical", "full"


@dataclass(frozen=True)
class Route:
    kind: str  # SURGICAL or FULL
    reason: str | None = None  # why the full rewrite (French), None for the surgical fill

    def warning(self, unkept: list) -> str | None:
        """The line telling the organiser the full rewrite was taken, why, and what it cannot keep (None for the
        surgical fill)."""
        if self.kind != FULL:
            return None
        lost = "les valeurs déjà calculées de ses formules (Excel les recalcule à l'ouverture)"
        if unkept:
            lost += ", ni " + ", ".join(map(str, unkept))
        return f"le classeur est réécrit en entier ({self.reason}) : cette réécriture ne garde pas {lost}."
