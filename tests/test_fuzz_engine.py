"""Fuzzing the package, where files arrive broken: the zip's structure (local headers, central directory, CRCs,
flags, compression methods, sizes, names) and the XML of every part (content types and relationships included),
mutated in real workbooks of every federation. Each mutant ends filled, with a workbook openpyxl reopens and the
package validator passes, or in one French sentence: never a traceback, a hang, or an output more damaged than
its input.

The suite runs a short run on each federation's example cut to its first few events (``fuzz.small_example``),
every kind of zip and XML mutation twice; a longer run, random kinds on the whole examples, is by hand:
``python tests/test_fuzz_engine.py --cases 5000 --seed 7`` prints the outcomes and each failure's place.
"""

from __future__ import annotations

import argparse
import functools
import os
import random
import re
import signal
import struct
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
from xlcircuit.federations import adapter_of
from xlcircuit.rules.errors import XlcircuitError
from xlcircuit.xlsx import Book, save_atomic
from xlcircuit.xlsx.validate import package_problems, structure_problems

CASES = 34  # the suite's: each of the 9 kinds of zip mutation and the 8 of XML twice
SECONDS = 60  # a case taking longer is a hang (a bomb let through)
#: Values a hostile or broken file may hold where a number, a reference, a name or an encoding is expected.
HOSTILE = [b"", b"-1", b"0", b"1e20", b"9" * 400, b"A0", b"A1:XFD1048576", b"XFD1048577", b"&#0;", b"\xc3",
           b"../../x", b"/xl/../../x", b"rId999", b"NaN", b"2147483648", b"UTF-7", b"x" * 300]
_ATTRIBUTE = re.compile(rb"""=(["'])([^"']*)\1""")


def _central(data: bytes) -> list[int]:
    """Where the central directory entries are (the last end-of-directory record's)."""
    end = data.rfind(b"PK\x05\x06")
    if end < 0:
        return []
    count, _, start = struct.unpack("<HII", data[end + 10:end + 20])
    offsets, at = [], start
    for _ in range(count):
        if data[at:at + 4] != b"PK\x01\x02":
            break
        offsets.append(at)
        n, e, c = struct.unpack("<HHH", data[at + 28:at + 34])
        at += 46 + n + e + c
    return offsets


ZIP_KINDS, XML_KINDS = 9, 8


def mutate_zip(data: bytes, rng: random.Random, kind: int | None = None) -> bytes:
    """One mutation of the zip's structure (of kind ``kind``, else a random one)."""
    buffer = bytearray(data)
    entries = _central(data)
    kind = rng.randrange(ZIP_KINDS) if kind is None else kind
    if not entries or kind == 0:  # truncated
        return data[:rng.randrange(len(data))]
    entry = rng.choice(entries)
    local = struct.unpack("<I", data[entry + 42:entry + 46])[0]
    if kind == 1:  # a byte of a local header
        buffer[local + rng.randrange(30)] = rng.randrange(256)
    elif kind == 2:  # a byte of a central directory entry
        buffer[entry + rng.randrange(46)] = rng.randrange(256)
    elif kind == 3:  # bytes of a member's data
        start = local + 30 + sum(struct.unpack("<HH", data[local + 26:local + 30]))
        size = struct.unpack("<I", data[entry + 20:entry + 24])[0]
        for _ in range(rng.randint(1, 4)):
            buffer[start + rng.randrange(max(size, 1))] = rng.randrange(256)
    elif kind == 4:  # the encryption flag, a compression method
        if rng.random() < 0.5:
            buffer[entry + 8] |= 1
            buffer[local + 6] |= 1
        else:
            method = struct.pack("<H", rng.choice([1, 6, 9, 12, 14, 93, 99]))
            buffer[entry + 10:entry + 12] = method
            buffer[local + 8:local + 10] = method
    elif kind == 5:  # a CRC or a size in the central directory
        field = rng.choice([16, 20, 24])
        buffer[entry + field:entry + field + 4] = struct.pack("<I", rng.randrange(1 << 32))
    elif kind == 6:  # a name in the local header only
        n = struct.unpack("<H", data[local + 26:local + 28])[0]
        if n:
            buffer[local + 30 + rng.randrange(n)] = rng.choice(b"./\\xY")
    elif kind == 7:  # a name in the central directory only
        n = struct.unpack("<H", data[entry + 28:entry + 30])[0]
        if n:
            buffer[entry + 46 + rng.randrange(n)] = rng.choice(b"./\\xY")
    else:  # random bytes anywhere
        for _ in range(rng.randint(1, 8)):
            buffer[rng.randrange(len(buffer))] = rng.randrange(256)
    return bytes(buffer)


def mutate_xml(data: bytes, rng: random.Random, kind: int | None = None) -> bytes | None:
    """One mutation of a part's XML (of kind ``kind``, else a random one; None: the part is dropped)."""
    kind = rng.randrange(XML_KINDS) if kind is None else kind
    if kind == 0 and data:  # bytes flipped
        buffer = bytearray(data)
        for _ in range(rng.randint(1, 6)):
            buffer[rng.randrange(len(buffer))] = rng.randrange(256)
        return bytes(buffer)
    if kind == 1:  # truncated
        return data[:rng.randrange(len(data) + 1)]
    if kind == 2:  # attribute values replaced
        found = list(_ATTRIBUTE.finditer(data))
        for match in rng.sample(found, min(len(found), rng.randint(1, 3))):
            data = data.replace(match.group(0), b'="' + rng.choice(HOSTILE) + b'"', 1)
        return data
    if kind == 3:  # an encoding declared
        body = re.sub(rb"^<\?xml[^>]*\?>", b"", data)
        return b'<?xml version="1.0" encoding="' + rng.choice([b"UTF-7", b"ISO-8859-1", b"UTF-16", b"x"]) + b'"?>' + body
    if kind == 4:  # a document type declared, maybe behind a comment
        body = re.sub(rb"^<\?xml[^>]*\?>", b"", data)
        comment = b"<!--" + b"<a " * rng.randrange(3000) + b"-->"
        return comment + b'<!DOCTYPE x [<!ENTITY a "aaaa">]>' + body
    if kind == 5:  # quotes and white space as other writers put them
        return data.replace(b'="', b"='", 3).replace(b'" ', b"' ", 3).replace(b"<c ", b"<c\n", 50)
    if kind == 6:  # a span repeated
        a = rng.randrange(len(data) + 1)
        return data[:a] + data[a:a + rng.randint(1, 300)] * rng.randint(2, 4) + data[a:]
    return None


@functools.cache
def _originals(folder: str, small: bool = False) -> tuple[Path, ...]:
    """Each federation's example, filled and saved (a real workbook, as ``xlcircuit demo`` leaves it); ``small``:
    each example cut to its first few events."""
    if small:
        import fuzz  # benchmarks/fuzz.py, on the path by conftest

        made = fuzz.small_originals()
        paths = [Path(folder) / f"{code}.xlsx" for code in fuzz.CODES]
        for path in paths:
            path.write_bytes(made.files[path.stem, True])
        return tuple(paths)
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


def _mutant(original: Path, target: Path, rng: random.Random, forced: int | None = None) -> str:
    """A copy of ``original`` with its zip or one to three of its parts mutated; says what. ``forced``: the zip
    (even) or the XML (odd) is mutated, with kind ``forced // 2`` (modulo the kinds), else both at random."""
    if (rng.random() < 0.4) if forced is None else forced % 2 == 0:
        kind = None if forced is None else forced // 2 % ZIP_KINDS
        target.write_bytes(mutate_zip(original.read_bytes(), rng, kind))
        what = f"zip ({kind})" if kind is not None else "zip"
    else:
        kind = None if forced is None else forced // 2 % XML_KINDS
        with zipfile.ZipFile(original) as old:
            names = [i.filename for i in old.infolist()]
            chosen = set(rng.sample(names, rng.randint(1, 3)))
            with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as new:
                for name in names:
                    data = old.read(name)
                    if name in chosen:
                        data = mutate_xml(data, rng, kind)
                    if data is not None:
                        new.writestr(name, data)
        what = ", ".join(sorted(chosen)) + (f" ({kind})" if kind is not None else "")
    old_enough = time.time() - 3600  # an e-mailed file, not one being written
    os.utime(target, (old_enough, old_enough))
    return what


class Hang(Exception):
    pass


def _alarm(signum, frame):
    raise Hang()


def attempt(path: Path, out: Path) -> str:
    """What ``check`` then ``fill path -o out`` do, as far as the library goes: "rempli", "refusé", or what went
    wrong ("accepté par check, refusé par fill"; "rempli mais abîmé: …")."""
    checked = True
    try:
        book = Book(path)
        adapter_of(book).compute(book)
    except XlcircuitError as exc:
        assert str(exc) and "Traceback" not in str(exc)
        checked = False
    out.unlink(missing_ok=True)
    try:
        book = Book(path)
        adapter_of(book).fill(book)
        book.save(out)
    except XlcircuitError as exc:
        assert str(exc) and "Traceback" not in str(exc)
        return "accepté par check, refusé par fill" if checked and "problème" not in str(exc) else "refusé"
    return _judged(path, out)


def _judged(path: Path, out: Path) -> str:
    """A filled workbook reopens with openpyxl and is no more damaged than its input (the validator's findings)."""
    import openpyxl

    openpyxl.load_workbook(out)
    with zipfile.ZipFile(path) as old, zipfile.ZipFile(out) as new:
        worse = structure_problems(new) - structure_problems(old)
    if worse:
        return f"rempli mais abîmé: {sorted(worse)[0][:80]}"
    problems = package_problems(out)
    return f"rempli, défauts de l'original gardés: {problems[0][:60]}" if problems else "rempli"


def _place(exc: BaseException) -> str:
    frames = traceback.extract_tb(exc.__traceback__)
    last = frames[-1] if frames else None
    return f"{type(exc).__name__} at {Path(last.filename).name}:{last.lineno}" if last else type(exc).__name__


def replay(case: int, seed: int, folder: Path) -> None:
    """Make the mutants of a run up to ``case`` and attempt that one only, its traceback shown."""
    originals = _originals(str(folder))
    rng = random.Random(seed)
    for _ in range(case + 1):
        original = rng.choice(originals)
        what = _mutant(original, folder / "mutant.xlsx", rng)
    print(f"case {case}: {original.stem}: {what}")
    print(attempt(folder / "mutant.xlsx", folder / "out.xlsx"))


def run(cases: int, seed: int, folder: Path, verbose: bool = False,
        every_kind: bool = False) -> tuple[Counter, dict[str, str]]:
    """``cases`` mutants; the outcomes and, for each failure's kind, one example of what was mutated.
    ``every_kind``: the suite's run, on the small examples, the kinds of mutation taken in turn."""
    originals = _originals(str(folder), small=every_kind)
    rng = random.Random(seed)
    outcomes: Counter = Counter()
    failures: dict[str, str] = {}
    previous = signal.signal(signal.SIGALRM, _alarm)
    try:
        for case in range(cases):
            original = rng.choice(originals)
            mutant = folder / f"mutant-{case % 4}.xlsx"
            what = _mutant(original, mutant, rng, case if every_kind else None)
            signal.alarm(SECONDS)
            try:
                outcome = attempt(mutant, folder / "out.xlsx")
                outcomes[outcome.split(":")[0]] += 1
                if outcome not in ("rempli", "refusé") and not outcome.startswith("rempli, défauts"):
                    failures.setdefault(outcome, f"case {case}, {original.stem}: {what}")
            except Exception as exc:  # what the test counts
                outcomes["crash"] += 1
                failures.setdefault(_place(exc), f"case {case}, {original.stem}: {what}: {str(exc)[:150]}")
                if verbose:
                    print(f"case {case}: {_place(exc)} ({original.stem}: {what})", flush=True)
            finally:
                signal.alarm(0)
    finally:
        signal.signal(signal.SIGALRM, previous)
    return outcomes, failures


@pytest.mark.skipif(not hasattr(signal, "SIGALRM"), reason="the hang guard needs SIGALRM (not on Windows)")
def test_mutated_packages_of_every_federation_end_filled_or_in_one_sentence(tmp_path):
    outcomes, failures = run(CASES, seed=28, folder=tmp_path, every_kind=True)
    print(f"fuzz: {sum(outcomes.values())} cases, {dict(outcomes)}")
    assert not failures, "\n".join(f"{where}: {example}" for where, example in failures.items())
    assert outcomes["refusé"] and outcomes["rempli"]


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("-v", "--verbose", action="store_true")
    parser.add_argument("--memory", type=int, default=3, help="address-space limit, in GiB")
    parser.add_argument("--replay", type=int, help="attempt only this case of the run, showing its traceback")
    options = parser.parse_args()
    import resource
    resource.setrlimit(resource.RLIMIT_AS, (options.memory << 30, resource.RLIM_INFINITY))
    if options.replay is not None:
        with tempfile.TemporaryDirectory() as scratch:
            replay(options.replay, options.seed, Path(scratch))
        sys.exit(0)
    with tempfile.TemporaryDirectory() as scratch:
        outcomes, failures = run(options.cases, options.seed, Path(scratch), options.verbose)
    print(f"{sum(outcomes.values())} cases: {dict(outcomes)}; {len(failures)} kinds of failure")
    for where, example in sorted(failures.items()):
        print(f"  {where}: {example}")
    sys.exit(1 if failures else 0)
