"""The benchmark script still runs (a tiny size; its figures are not checked: speed is not a unit test)."""

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).parent.parent / "benchmarks" / "bench_tdf.py"


def test_the_benchmark_runs_on_a_tiny_season():
    run = subprocess.run([sys.executable, str(SCRIPT), "--sizes", "2"], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].split()[:4] == ["tournois", "lignes", "fill", "s"]
    assert lines[1].split()[:2] == ["2", "122"]
    assert "TDF_POINTS" in lines[-1]


ELO_SCRIPT = Path(__file__).parent.parent / "benchmarks" / "bench_elo.py"


def test_the_elo_benchmark_runs_on_a_tiny_history():
    run = subprocess.run([sys.executable, str(ELO_SCRIPT), "--core", "20", "--fill", "10"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].split()[:3] == ["parties", "lignes", "cœur"]
    assert lines[1].split()[0] == "20"
    assert lines[2].startswith("fill, 10 parties")
    assert "ELO_CHANGE" in lines[-1]


DBM_SCRIPT = Path(__file__).parent.parent / "benchmarks" / "bench_dbm.py"


def test_the_dbm_benchmark_runs_on_a_tiny_season():
    run = subprocess.run([sys.executable, str(DBM_SCRIPT), "--sizes", "2"], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].split()[:4] == ["poules", "lignes", "fill", "s"]
    assert lines[1].split()[:2] == ["2", "50"]  # two poules of 24 players and a referee each
    assert "DBM_POINTS" in lines[-1]


TORRES_SCRIPT = Path(__file__).parent.parent / "benchmarks" / "bench_torres.py"


def test_the_torres_benchmark_runs_on_a_tiny_season():
    run = subprocess.run([sys.executable, str(TORRES_SCRIPT), "--sizes", "2"], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].split()[:3] == ["divisions", "joueurs", "lignes"]
    assert lines[1].split()[:3] == ["2", "50", "180"]  # 30 players + 20 new; 3 groups × 15 matches × 4
    assert "TORRES_VP" in lines[-1]


CDF_SCRIPT = Path(__file__).parent.parent / "benchmarks" / "bench_cdf.py"


def test_the_cdf_benchmark_runs_on_a_tiny_championship():
    run = subprocess.run([sys.executable, str(CDF_SCRIPT), "--sizes", "14"], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].split()[:4] == ["joueurs", "lignes", "fill", "s"]
    assert lines[1].split()[:2] == ["14", "280"]  # 14 players x 4 rounds = 56 lines, 56 x 4 ballots = 224
    assert "CDF_PASTIS" in lines[-1]
