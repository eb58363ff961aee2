"""Fuzzing whole workbooks of the five federations: the zip (CRC, names, flags, methods, truncation, duplicate and
``../`` entries), the XML of every part (encodings, DOCTYPE and entities, huge numbers, deep nesting, namespace
prefixes, single quotes, dropped, doubled or renamed elements, wrong references) and the cells' values, with a
fixed seed (``benchmarks/fuzz.py``, which also runs the long run).

Each mutant goes through ``check`` then ``fill``, as an organiser runs them: one French sentence (or located
problems) and the file untouched, or a filled workbook that reopens in openpyxl, passes the package validator
with no new problem and keeps no ``..`` name; ``check`` and ``fill`` agree; a mutation that keeps the meaning
fills the same standings as the original.

The suite's run is short: each federation's example cut to its first few events (``fuzz.small_example``), and of
the first cases of its seed only those that bring a kind of mutation, a part or a federation seen fewer than
twice (``fuzz.covering``). The long runs, on the whole examples, are by hand (``benchmarks/fuzz.py``).
"""

from __future__ import annotations

import functools
import io
import signal
import zipfile
from collections import Counter

import fuzz  # benchmarks/fuzz.py, on the path by conftest
import pytest

SEED = 28
SCAN = 600  # the first cases of the seed, among which the suite's are chosen
TIMES = 2  # each kind of mutation, part and federation reached at least this often
CHUNKS = 2  # run apart (pytest -n spreads them over the cores)
SECONDS = 60  # a case taking longer is a hang (a bomb let through)


originals = fuzz.small_originals  # the five federations' examples, cut small, typed in and filled (once)


@functools.cache
def cases() -> list[int]:
    return fuzz.covering(SEED, range(SCAN), TIMES, originals().files)


class Hang(Exception):
    pass


def _alarm(signum, frame):
    raise Hang()


@pytest.mark.skipif(not hasattr(signal, "SIGALRM"), reason="the hang guard needs SIGALRM (not on Windows)")
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_mutated_packages_end_filled_and_sound_or_refused_in_one_sentence(tmp_path, chunk):
    outcomes: Counter[str] = Counter()
    findings: dict[str, tuple[fuzz.Result, str]] = {}
    previous = signal.signal(signal.SIGALRM, _alarm)
    try:
        for case in cases()[chunk::CHUNKS]:
            signal.alarm(SECONDS)
            try:
                result = fuzz.attempt(SEED, case, tmp_path, originals())
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
    print(f"fuzz: chunk {chunk} of {len(cases())} cases: {dict(outcomes)}")
    said = "\n".join(f"{kind}\n    {example}" for kind, (_, example) in sorted(findings.items()))
    assert not findings, said
    assert outcomes["accepted"] and outcomes["refused"]


def test_the_small_originals_fill_standings_of_every_federation():
    """The cut examples are real seasons: each fills (``Originals`` fills them) standings with players in them."""
    for code in fuzz.CODES:
        header, *rows = originals().standings[code]
        assert sum(1 for row in rows if row[header.index("Joueur")]) >= 2, code  # two players ranked at least
        assert len(originals().files[code, False]) < len(originals().files[code, True])


def test_the_mutations_cover_the_zip_the_xml_and_the_values():
    """The suite's cases reach every kind of mutation, every part of the examples and every federation, filled
    or not, at least twice (the fuzz is short, not idle)."""
    parts = {fuzz._part(name) for data in originals().files.values()
             for name in zipfile.ZipFile(io.BytesIO(data)).namelist() if name.endswith((".xml", ".rels"))}
    assert {"xl/styles.xml", "[Content_Types].xml", "_rels/.rels", "xl/workbook.xml", "xl/tables/table#.xml",
            "xl/worksheets/sheet#.xml"} <= parts
    reached: Counter[str] = Counter()
    for case in cases():
        code, filled = fuzz.choose_original(SEED, case)
        reached.update(fuzz.mutant(originals().files[code, filled], SEED, case).kinds)
        reached[f"fédération {code}{' rempli' * filled}"] += 1
    wanted = fuzz.every_kind(sorted(parts)) | {f"fédération {code}{' rempli' * filled}"
                                               for code in fuzz.CODES for filled in (False, True)}
    assert {kind for kind in wanted if reached[kind] < TIMES} == set()
    assert len(cases()) < SCAN / 4


def test_the_summary_of_a_run_says_the_seed_it_was_run_with(tmp_path, monkeypatch, capsys):
    """``fuzz.py --summary LOG`` titles the figures with the run's own seed (it said « seed 1 » of any run)."""
    log = tmp_path / "run.jsonl"

    def two_cases(cases, seed, jobs, timeout, memory, report):
        for case in cases:
            report(case, fuzz.Result("accepted" if case % 2 else "refused"))

    monkeypatch.setattr(fuzz, "long_run", two_cases)
    for argv in (["--seed", "5", "--start", "10", "--cases", "2", "--log", str(log)], ["--summary", str(log)]):
        monkeypatch.setattr("sys.argv", ["fuzz.py", *argv])
        with pytest.raises(SystemExit) as end:
            fuzz.main()
        assert end.value.code == 0
    printed = capsys.readouterr().out
    assert printed.count("2 cases (seed 5, ") == 2 and "seed 1" not in printed
    monkeypatch.setattr("sys.argv", ["fuzz.py", "--summary", str(log), "--seed", "6"])
    with pytest.raises(SystemExit) as end:
        fuzz.main()
    assert "seeds [5], not 6" in str(end.value.code)
