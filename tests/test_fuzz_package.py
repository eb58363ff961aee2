"""Fuzzing whole workbooks of the five federations: the zip (CRC, names, flags, methods, truncation, duplicate and
``../`` entries), the XML of every part (encodings, DOCTYPE and entities, huge numbers, deep nesting, namespace
prefixes, single quotes, dropped, doubled or renamed elements, wrong references) and the cells' values, with a
fixed seed (``benchmarks/fuzz.py``, which also runs the long run).

Each mutant goes through ``check`` then ``fill``, as an organiser runs them: one French sentence (or located
problems) and the file untouched, or a filled workbook that reopens in openpyxl, passes the package validator
with no new problem and keeps no ``..`` name; ``check`` and ``fill`` agree; a mutation that keeps the meaning
fills the same standings as the original.
"""

from __future__ import annotations

import signal
from collections import Counter

import fuzz  # benchmarks/fuzz.py, on the path by conftest
import pytest

CASES = 200
CHUNKS = 4  # run apart (pytest -n spreads them over the cores), each with its own originals
SEED = 28
SECONDS = 60  # a case taking longer is a hang (a bomb let through)


class Hang(Exception):
    pass


def _alarm(signum, frame):
    raise Hang()


@pytest.mark.skipif(not hasattr(signal, "SIGALRM"), reason="the hang guard needs SIGALRM (not on Windows)")
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_mutated_packages_end_filled_and_sound_or_refused_in_one_sentence(tmp_path, chunk):
    originals = fuzz.Originals(tmp_path)
    outcomes: Counter[str] = Counter()
    findings: dict[str, tuple[fuzz.Result, str]] = {}
    previous = signal.signal(signal.SIGALRM, _alarm)
    try:
        for case in range(chunk, CASES, CHUNKS):
            signal.alarm(SECONDS)
            try:
                result = fuzz.attempt(SEED, case, tmp_path, originals)
            except Hang:
                result = fuzz.Result("hang", f"over {SECONDS} s")
            finally:
                signal.alarm(0)
            outcomes[result.outcome] += 1
            if result.finding:
                findings.setdefault(f"{result.outcome}: {fuzz._kind(result)}",
                                    (result, f"case {case}: {result.said[:150]} => {result.detail[:200]}"))
    finally:
        signal.signal(signal.SIGALRM, previous)
    print(f"fuzz: cases {chunk}, {chunk + CHUNKS}… of {CASES}: {dict(outcomes)}")
    said = "\n".join(f"{kind}\n    {example}" for kind, (_, example) in sorted(findings.items()))
    assert not findings, said
    assert outcomes["accepted"] and outcomes["refused"]


def test_the_mutations_cover_the_zip_the_xml_and_the_values(tmp_path):
    """The cases of the suite's seed reach every level and most kinds of mutation (the fuzz is not idle)."""
    originals = fuzz.Originals.__new__(fuzz.Originals)  # the files only, not filled: enough to mutate
    from xlcircuit.federations import ADAPTERS
    from xlcircuit.xlsx import save_atomic

    originals.files = {}
    for code in fuzz.CODES:
        wb = ADAPTERS[code].new_workbook()
        ADAPTERS[code].put_example(wb)
        originals.files[code, False] = originals.files[code, True] = save_atomic(wb, tmp_path / f"{code}.xlsx").read_bytes()
    said = " | ".join(" | ".join(fuzz.mutant(originals.files[fuzz.choose_original(SEED, case)], SEED, case).said)
                      for case in range(CASES))
    for words in ("CRC faux", "nom changé", "drapeaux", "méthode", "zip tronqué", "entrée en double",
                  "entrée dangereuse", "entrée ôtée", "bombe", "encodage déclaré", "UTF-16 réel", "DOCTYPE", "nombre",
                  "imbrication", "préfixe", "apostrophes", "élément ôté", "élément doublé", "cellule",
                  "xl/styles.xml", "[Content_Types].xml", "_rels/.rels", "xl/workbook.xml", "xl/tables/"):
        assert words in said, words
