"""pytest configuration of the core tests: report where the data and the random seeds come from."""

from tests.helpers import BASE_SEED, data_dir


def pytest_report_header(config):
    return f"jitfish data: {data_dir()}  random seed base: {BASE_SEED} (set JITFISH_SEED to vary)"


def pytest_sessionstart(session):
    """Compile the kernels (or check that they are) before any test starts an engine, as `make
    install` does: an engine on a cold cache would play its first moves from the quick search of
    jitfish/quickmove.py while it compiles (tests/test_first_start.py tests that on purpose)."""
    import subprocess
    import sys
    from pathlib import Path

    subprocess.run([sys.executable, "-m", "jitfish.warmup"], cwd=Path(__file__).resolve().parents[1], check=True,
                   stdout=subprocess.DEVNULL)
