"""The whole suite: Nim, the game that lives only in the tests, joins the registries."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.backends import BACKENDS, URL_ENV, server_url, use_backend
from tests.nim import register

register()


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Tests that use the ``backend`` fixture run once per backend (tests/backends.py)."""
    if "backend" in metafunc.fixturenames:
        only = metafunc.definition.get_closest_marker("sqlite_only")
        metafunc.parametrize("backend", ("sqlite",) if only else BACKENDS, indirect=True)


#: Set by .ci/run: in CI nothing may be skipped for want of a part (PostgreSQL, Chromium).
REQUIRE_ALL = "HIMIKO_REQUIRE_ALL"


def pytest_configure(config: pytest.Config) -> None:
    """Register the marker of tests about SQLite itself; in CI, insist on every real part."""
    config.addinivalue_line("markers", "sqlite_only: the test is about SQLite itself")
    if os.environ.get(REQUIRE_ALL):
        chromium = Path(os.environ.get("HIMIKO_CHROMIUM", "/usr/bin/chromium"))
        missing = [
            name
            for name, there in (("PostgreSQL", server_url()), ("Chromium", chromium.exists()))
            if not there
        ]
        if missing:
            raise pytest.UsageError(f"{REQUIRE_ALL} is set but {', '.join(missing)} is missing")


@pytest.fixture
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The backend of this run of the test; ``database(tmp_path, name)`` follows it."""
    kind = str(request.param)
    if kind == "postgres" and server_url() is None:
        pytest.skip(f"no PostgreSQL server: set {URL_ENV} (./scripts/test starts one)")
    with use_backend(kind, tmp_path):
        yield kind
