"""The container image's tests: the engine, the image built once per run, containers cleaned up.

``./scripts/test`` (scripts/lib/test-docker.sh) exports HIMIKO_TEST_DOCKER, the docker command
of an engine that answers, HIMIKO_TEST_IMAGE_BASE, the Python base to build on (no image
registry is reachable from the test machines: a base made from Debian's packages), and
HIMIKO_TEST_COMPOSE, the compose command.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import REQUIRE_ALL
from tests.image.docker import Containers, Docker, remove_left_behind

ROOT = Path(__file__).resolve().parents[2]
DOCKER_ENV = "HIMIKO_TEST_DOCKER"
BASE_ENV = "HIMIKO_TEST_IMAGE_BASE"
COMPOSE_ENV = "HIMIKO_TEST_COMPOSE"
TAG = "himiko:test"
BUILD_TIMEOUT = 900.0  # seconds: a cold build downloads every dependency from the registry


def pytest_configure(config: pytest.Config) -> None:
    """Register the marker that selects these tests (``pytest -m image``)."""
    config.addinivalue_line("markers", "image: builds and runs the container image (Docker)")


def missing(reason: str) -> None:
    """Skip for want of a part, or fail where HIMIKO_REQUIRE_ALL insists on every part."""
    if os.environ.get(REQUIRE_ALL):
        pytest.fail(f"{REQUIRE_ALL} is set but {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def docker() -> Docker:
    """The engine and the base to build on, or a skip."""
    command, base = os.environ.get(DOCKER_ENV), os.environ.get(BASE_ENV)
    if not command or not base:
        missing(
            f"there is no Docker engine or base image ({DOCKER_ENV}, {BASE_ENV} unset): "
            "./scripts/test starts an engine and makes the base (scripts/lib/test-docker.sh)"
        )
    engine = Docker(command or "", base or "", tuple(shlex.split(os.environ.get(COMPOSE_ENV, ""))))
    remove_left_behind(engine)
    return engine


@pytest.fixture(scope="session")
def image(docker: Docker) -> str:
    """The project's Dockerfile built on the base (unchanged layers are reused: the engine
    keeps them between runs), with the host's network for pip."""
    built = docker.run(
        "build",
        "--network",
        "host",
        "--build-arg",
        f"PYTHON_IMAGE={docker.base}",
        "--tag",
        TAG,
        str(ROOT),
        timeout=BUILD_TIMEOUT,
    )
    if built.returncode != 0:
        pytest.fail(f"docker build failed:\n{built.stdout[-4000:]}\n{built.stderr[-4000:]}")
    return TAG


@pytest.fixture
def containers(docker: Docker) -> Iterator[Containers]:
    """The test's containers, volumes and compose projects, removed even when it fails."""
    made = Containers(docker)
    yield made
    left = made.remove()
    assert left == [], f"could not remove {left}"
