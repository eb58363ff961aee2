"""Every bound on what an organiser may type, in one place: the rules core, the Excel functions and the
workbook layer all check against these.

They are not rules: the sources set none of them. Each stops a typing mistake (``44`` rounds for ``4``)
or a value the computation cannot take (a place of ``1e300`` was computed without end) before it reaches
the rules. Pure data; standard library only.
"""

from __future__ import annotations

#: Places and player counts of a tournament (TdF places, DBM places, the ``n`` of the Excel functions).
MAX_PLACE = 100_000
#: Points typed in place of the computed ones (TdF « Points imposés »).
MAX_IMPOSED = 100_000
#: Characters of a tournament's name (TdF, DBM): a longer one is text pasted into the wrong cell.
MAX_TOURNAMENT_NAME = 100
#: DBM rounds played. The source: "généralement quatre, exceptionnellement cinq" (NRJ), and a tournament
#: retains six players per round (BJR); ten, twice the exceptional five, leaves room for a special format
#: and still refuses a mistyped ``44``. The workbook warns about anything but 4 or 5 (``dbm.USUAL_ROUNDS``).
DBM_MAX_ROUNDS = 10
#: CdF bonus points of a player (§IV.3a "autres bonus"), either sign.
CDF_MAX_BONUS = 10_000
#: Elo game totals, either sign: totals are ranked to nine decimals (``mechanics.rank_key``), so a larger
#: total would lose its decimals.
ELO_MAX_TOTAL = 1e9
#: Elo starting ratings and games already played (carried over from last season, or typed in ``Joueurs``): the
#: highest tier starts at 1500; a million stops a mistyped number and keeps every rating exact.
ELO_MAX_RATING = 1_000_000
ELO_MAX_GAMES = 1_000_000
#: TORRES numbers typed (Elo, in-game points), either sign: same reason as ``ELO_MAX_TOTAL``.
TORRES_MAX_NUMBER = 1e9
#: TORRES division numbers: a deeper pyramid would have millions of groups.
TORRES_MAX_DIVISION = 10
#: Cells of a range an Excel function takes (a whole column is 1,048,576 cells: seconds of work and a huge spill).
FUNCTION_MAX_CELLS = 100_000
#: Magnitude of a number an Excel function takes: sums of FUNCTION_MAX_CELLS of them stay finite and exact enough.
FUNCTION_MAX_NUMBER = 1e12

__all__ = [
    "CDF_MAX_BONUS", "DBM_MAX_ROUNDS", "ELO_MAX_GAMES", "ELO_MAX_RATING",
    "ELO_MAX_TOTAL", "FUNCTION_MAX_CELLS", "FUNCTION_MAX_NUMBER", "MAX_IMPOSED",
    "MAX_PLACE", "MAX_TOURNAMENT_NAME",
    "TORRES_MAX_DIVISION", "TORRES_MAX_NUMBER",
]
