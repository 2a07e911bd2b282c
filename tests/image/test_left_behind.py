"""What a killed test run leaves in the engine is removed by the next run's image tests."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.image.docker import Docker, remove_left_behind

pytestmark = pytest.mark.image


def test_a_killed_runs_volumes_are_removed_and_a_living_ones_kept(docker: Docker) -> None:
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    left = f"himiko-test-{dead.pid}-x000000000000"
    project = f"himikotest{dead.pid}x000000000000_postgres-data"  # a compose project's volume
    living = f"himiko-test-{os.getpid()}-x000000000000"
    for name in (left, project, living):
        assert docker.run("volume", "create", name).returncode == 0
    try:
        removed = remove_left_behind(docker)
        assert left in removed and project in removed and living not in removed
        assert docker.run("volume", "inspect", left).returncode != 0
        assert docker.run("volume", "inspect", living).returncode == 0
    finally:
        for name in (left, project, living):
            docker.run("volume", "rm", "--force", name)
