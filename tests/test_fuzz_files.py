"""Fuzzing the file readers: the XML inside real workbooks of every federation, mutated, ends in a
filled workbook or in one French sentence (an ``XlcircuitError``), never in a traceback.

The suite runs a bounded number of cases; a longer run is by hand:
``python tests/test_fuzz_files.py --cases 5000 --seed 7`` prints the cases run and each crash's place.
"""

from __future__ import annotations

import argparse
import functools
import os
import random
import re
import signal
import sys
import tempfile
import time
import traceback
import zipfile
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from xlcircuit.federations import ADAPTERS as FEDERATIONS
from xlcircuit.federations import adapter_of as federation_of
from xlcircuit.rules.errors import XlcircuitError
from xlcircuit.xlsx import Book, save_atomic

CASES = 120  # the byte-level mutants; the zip and XML ones are tests/test_fuzz_engine.py and test_fuzz_package.py
SECONDS = 60  # a case taking longer is a hang (a bomb let through)

#: Values a hostile or broken file may hold where a number, a reference or a name is expected.
HOSTILE = ["", " ", "-1", "0", "1", "2147483648", "99999999999999999999", "1e308", "-0", "NaN", "inf", "a",
           "A1:XFD1048576", "A1:E1048576", "XFD1048576", "A0", "ZZZZ1", "1:1", "$A$1", "A1:A1:A1", "Feuil1!A1",
           "&amp;", "&#0;", "&#xD800;", "é", "\u202e", "x" * 300, "true", "2", "#REF!", "classement",
           "rId999", "../../etc/passwd", "/xl/worksheets/sheet1.xml", "s", "str", "inlineStr", "e", "n", "b", "d"]
ENTITIES = (b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;">]>')
_ATTRIBUTE = re.compile(rb'="([^"]*)"')
_TEXT = re.compile(rb">([^<]+)<")
_TAG = re.compile(rb"<(/?)([A-Za-z_][\w.:-]*)")


def _mutate(data: bytes, rng: random.Random) -> bytes | None:
    """One mutation of an XML part (None: the part is dropped)."""
    kind = rng.randrange(12)
    if kind == 0 and data:  # flip bytes
        buffer = bytearray(data)
        for _ in range(rng.randint(1, 8)):
            buffer[rng.randrange(len(buffer))] = rng.randrange(256)
        return bytes(buffer)
    if kind == 1:  # truncated
        return data[: rng.randrange(len(data) + 1)]
    if kind == 2:  # a span deleted
        a = rng.randrange(len(data) + 1)
        return data[:a] + data[a + rng.randint(1, 400):]
    if kind == 3:  # a span repeated
        a = rng.randrange(len(data) + 1)
        return data[:a] + data[a:a + rng.randint(1, 400)] * rng.randint(2, 5) + data[a:]
    if kind in (4, 5, 6):  # attribute values replaced
        found = list(_ATTRIBUTE.finditer(data))
        for match in rng.sample(found, min(len(found), rng.randint(1, 3))):
            value = rng.choice(HOSTILE).encode()
            data = data[:match.start(1)] + value + data[match.end(1):] if len(value) == len(match.group(1)) \
                else data.replace(match.group(0), b'="' + value + b'"', 1)
        return data
    if kind == 7:  # text replaced
        found = list(_TEXT.finditer(data))
        if found:
            match = rng.choice(found)
            data = data[:match.start(1)] + rng.choice(HOSTILE).encode() + data[match.end(1):]
        return data
    if kind == 8:  # entities declared and used
        body = re.sub(rb"^<\?xml[^>]*\?>", b"", data)
        return ENTITIES + body.replace(b">", b">&b;", 1)
    if kind == 9:  # a tag renamed
        found = list(_TAG.finditer(data))
        if found:
            match = rng.choice(found)
            data = data[:match.start(2)] + rng.choice([b"c", b"row", b"x", b"v", b"f", b"is", b"t", b"sheet",
                                                       b"table", b"mergeCell", b"col"]) + data[match.end(2):]
        return data
    if kind == 10:  # case changed (a table renamed « classement », a sheet « résultats »)
        found = list(_ATTRIBUTE.finditer(data))
        if found:
            match = rng.choice(found)
            data = data[:match.start(1)] + match.group(1).lower() + data[match.end(1):]
        return data
    return None  # the part dropped


@functools.cache
def _originals(folder: str) -> tuple[Path, ...]:
    """Each federation's example, filled and saved (a real workbook, as ``xlcircuit demo`` leaves it)."""
    paths = []
    for code, module in FEDERATIONS.items():
        path = Path(folder) / f"{code}.xlsx"
        wb = module.new_workbook()
        module.put_example(wb)
        save_atomic(wb, path)
        book = Book(path)
        module.fill(book)
        book.save()
        paths.append(path)
    return tuple(paths)


def _mutant(original: Path, target: Path, rng: random.Random) -> str:
    """A copy of ``original`` with one to three of its XML parts mutated; says which."""
    with zipfile.ZipFile(original) as old:
        infos = old.infolist()
        xml = [i.filename for i in infos if i.filename.endswith((".xml", ".rels"))]
        chosen = set(rng.sample(xml, rng.randint(1, 3)))
        with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as new:
            for info in infos:
                data = old.read(info.filename)
                if info.filename in chosen:
                    data = _mutate(data, rng)
                if data is not None:
                    new.writestr(info.filename, data)
    old_enough = time.time() - 3600  # an e-mailed file, not one being written
    os.utime(target, (old_enough, old_enough))
    return ", ".join(sorted(chosen))


class Hang(Exception):
    pass


def _alarm(signum, frame):
    raise Hang()


def attempt(path: Path, out: Path) -> str:
    """What ``xlcircuit fill path -o out`` does, as far as the library goes: "rempli" or "refusé"."""
    try:
        book = Book(path)
        module = federation_of(book)
        module.fill(book)
        book.save(out)
    except XlcircuitError as exc:
        message = str(exc)
        assert message and "Traceback" not in message
        return "refusé"
    return "rempli"


def _place(exc: BaseException) -> str:
    """Where a crash happened: its kind and the innermost frame (file:line)."""
    frames = traceback.extract_tb(exc.__traceback__)
    last = frames[-1] if frames else None
    return f"{type(exc).__name__} at {Path(last.filename).name}:{last.lineno}" if last else type(exc).__name__


def replay(case: int, seed: int, folder: Path) -> None:
    """Make the mutants of a run up to ``case`` and attempt that one only, its traceback shown."""
    originals = _originals(str(folder))
    rng = random.Random(seed)
    for _ in range(case + 1):
        original = rng.choice(originals)
        parts = _mutant(original, folder / "mutant.xlsx", rng)
    print(f"case {case}: {original.stem}: {parts}")
    print(attempt(folder / "mutant.xlsx", folder / "out.xlsx"))


def run(cases: int, seed: int, folder: Path, verbose: bool = False) -> tuple[Counter, dict[str, str]]:
    """``cases`` mutants; the outcomes and, for each crash place, one example of what was mutated."""
    originals = _originals(str(folder))
    rng = random.Random(seed)
    outcomes: Counter = Counter()
    crashes: dict[str, str] = {}
    previous = signal.signal(signal.SIGALRM, _alarm)
    try:
        for case in range(cases):
            original = rng.choice(originals)
            mutant = folder / f"mutant-{case % 4}.xlsx"
            parts = _mutant(original, mutant, rng)
            signal.alarm(SECONDS)
            try:
                outcomes[attempt(mutant, folder / "out.xlsx")] += 1
            except Exception as exc:  # what the test counts
                outcomes["crash"] += 1
                where = _place(exc)
                crashes.setdefault(where, f"case {case}, {original.stem}: {parts}: {str(exc)[:150]}")
                if verbose:
                    print(f"case {case}: {where} ({original.stem}: {parts})", flush=True)
            finally:
                signal.alarm(0)
    finally:
        signal.signal(signal.SIGALRM, previous)
    return outcomes, crashes


@pytest.mark.skipif(not hasattr(signal, "SIGALRM"), reason="the hang guard needs SIGALRM (not on Windows)")
def test_mutated_workbooks_of_every_federation_end_filled_or_in_one_sentence(tmp_path):
    outcomes, crashes = run(CASES, seed=14, folder=tmp_path)
    print(f"fuzz: {sum(outcomes.values())} cases, {dict(outcomes)}")
    assert not crashes, "\n".join(f"{where}: {example}" for where, example in crashes.items())
    assert outcomes["refusé"] and outcomes["rempli"]


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("-v", "--verbose", action="store_true")
    parser.add_argument("--replay", type=int, help="attempt only this case of the run, showing its traceback")
    parser.add_argument("--memory", type=int, default=3, help="address-space limit, in GiB")
    options = parser.parse_args()
    import resource
    resource.setrlimit(resource.RLIMIT_AS, (options.memory << 30, resource.RLIM_INFINITY))
    if options.replay is not None:
        with tempfile.TemporaryDirectory() as scratch:
            replay(options.replay, options.seed, Path(scratch))
        sys.exit(0)
    with tempfile.TemporaryDirectory() as scratch:
        outcomes, crashes = run(options.cases, options.seed, Path(scratch), options.verbose)
    print(f"{sum(outcomes.values())} cases: {dict(outcomes)}; {len(crashes)} crash places")
    for where, example in sorted(crashes.items()):
        print(f"  {where}: {example}")
    sys.exit(1 if crashes else 0)
