"""pytest configuration of the core tests: report where the data and the random seeds come from."""

from tests.helpers import BASE_SEED, data_dir


def pytest_report_header(config):
    return f"jitfish data: {data_dir()}  random seed base: {BASE_SEED} (set JITFISH_SEED to vary)"
