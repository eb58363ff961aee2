"""The benchmark scripts still run (a tiny size; their figures are not checked: speed is not a unit test)."""

import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).parent.parent / "benchmarks"


@pytest.mark.parametrize("script, args, header, first, more, function", [
    pytest.param("bench_tdf.py", ["--sizes", "2"], ["tournois", "lignes", "fill", "s"], ["2", "122"], {},
                 "TDF_POINTS", id="tdf"),
    pytest.param("bench_elo.py", ["--core", "20", "--fill", "10"], ["parties", "lignes", "cœur"], ["20"],
                 {2: "fill, 10 parties"}, "ELO_CHANGE", id="elo"),
    # two poules of 24 players and a referee each
    pytest.param("bench_dbm.py", ["--sizes", "2"], ["poules", "lignes", "fill", "s"], ["2", "50"], {},
                 "DBM_POINTS", id="dbm"),
    # 30 players + 20 new; 3 groups × 15 matches × 4
    pytest.param("bench_torres.py", ["--sizes", "2"], ["divisions", "joueurs", "lignes"], ["2", "50", "180"], {},
                 "TORRES_VP", id="torres"),
    # 14 players x 4 rounds = 56 lines, 56 x 4 ballots = 224
    pytest.param("bench_cdf.py", ["--sizes", "14"], ["joueurs", "lignes", "fill", "s"], ["14", "280"], {},
                 "PASTIS", id="cdf"),
])  # fmt: skip
def test_the_benchmark_runs_on_a_tiny_size(tmp_path, script, args, header, first, more, function):
    # Run from another folder: a script finds the harness beside it, not in the working directory.
    run = subprocess.run([sys.executable, str(BENCHMARKS / script), *args], capture_output=True, text=True,
                         timeout=120, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].split()[:len(header)] == header
    assert lines[1].split()[:len(first)] == first
    for index, start in more.items():
        assert lines[index].startswith(start)
    assert function in lines[-1]


def test_the_import_benchmark_runs_on_a_tiny_size(tmp_path):
    run = subprocess.run([sys.executable, str(BENCHMARKS / "bench_import.py"), "--sizes", "2"], capture_output=True,
                         text=True, timeout=300, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].split()[:4] == ["tournois", "format", "lignes", "import"]
    assert [line.split()[:3] for line in lines[1:]] == [["2", "xlsx", "120"], ["2", "csv", "120"]]
