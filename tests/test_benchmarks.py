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
