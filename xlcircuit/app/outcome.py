"""What a use case ends with (:class:`Outcome`), and :func:`run`, which turns the errors xlcircuit raises
on purpose into an outcome as well: one French sentence, never a traceback."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..rules.errors import Problem, WorkbookProblems, XlcircuitError

#: Told the name of each step as the work reaches it (``lecture``, ``calcul``, ``écriture``…).
Progress = Callable[[str], None]


def quiet(step: str) -> None:
    """The progress of work nobody watches."""


#: The fill's two paths: only xlcircuit's sheets rewritten, every other part copied byte for byte; or the
#: whole workbook rewritten through openpyxl's model (when an output sheet holds what the first cannot place).
SURGICAL, FULL = "surgical", "full"


#: What a terminal obeys or a text display reorders rather than shows: control characters (but line feed and
#: tab), bidirectional overrides and isolates, line and paragraph separators. A name from a workbook holding
#: them could retitle the terminal, erase a line or reverse what follows; each is shown as its escape instead
#: (``\x1b``, ``\u202e``), in ASCII, which every code page prints.
_INVISIBLE = {code: f"\\x{code:02x}" for code in (*range(0x20), 0x7F, *range(0x80, 0xA0))
              if chr(code) not in "\n\t"}
_INVISIBLE |= {code: f"\\u{code:04x}"
               for code in (0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x2028, 0x2029)}


def visible(text: str) -> str:
    """``text`` safe to print or show: every character of :data:`_INVISIBLE` written as its escape."""
    return text.translate(_INVISIBLE)


@dataclass
class Outcome:
    """What a use case ends with, for the organiser."""

    lines: list[str] = field(default_factory=list)  # the summary, the files written, a hint
    warnings: list[str] = field(default_factory=list)  # « À vérifier »: after the summary
    problems: list[Problem] = field(default_factory=list)  # located problems: nothing was written
    error: str | None = None  # why nothing (or not everything) was done, in one sentence or a few lines
    result: Path | None = None  # what « Ouvrir le résultat » opens: the workbook filled, the folder shared
    route: str | None = None  # a fill's path: SURGICAL or FULL
    status: int = 0  # the command line's exit status: 0 done, 1 a problem (reported)
    #: The lock file that stopped a fill (a spreadsheet program has the workbook open, or had it when it
    #: crashed): the window then offers to go on anyway, as ``--force`` does.
    lock: Path | None = None

    @property
    def failed(self) -> bool:
        return self.status != 0

    def visible(self) -> Outcome:
        """This outcome with every text safe to print or show (:func:`visible`): what the faces display."""
        return replace(
            self, lines=[visible(line) for line in self.lines], warnings=[visible(w) for w in self.warnings],
            error=None if self.error is None else visible(self.error),
            problems=[replace(p, sheet=visible(p.sheet), column=None if p.column is None else visible(p.column),
                              message=visible(p.message), cell=None if p.cell is None else visible(p.cell))
                      for p in self.problems])


def problems_sentence(count: int) -> str:
    """The first line of a list of located problems."""
    return f"{count} problème{'s' if count > 1 else ''} dans le classeur"


def run(action: Callable[[], Outcome]) -> Outcome:
    """``action()``, its deliberate errors turned into an outcome with status 1 (problems, or one sentence).
    Anything else is a bug and propagates: each face reports it its own way."""
    try:
        return action()
    except WorkbookProblems as exc:
        return Outcome(problems=exc.problems, error=problems_sentence(len(exc.problems)), status=1)
    except XlcircuitError as exc:
        return Outcome(error=str(exc), status=1)
    except OSError as exc:  # a folder that is a file, a full disk...: one sentence, not a traceback
        from .files import why

        return Outcome(error=f"Impossible de lire ou d'écrire {exc.filename or ''} ({why(exc)}).", status=1)
