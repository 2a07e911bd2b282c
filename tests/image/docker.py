"""Driving the docker and compose commands from the image tests, blocking or on the event loop
the Discord double runs on; and the containers, volumes and compose projects a test made, all
removed at its end."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import uuid
from collections.abc import Awaitable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

import pytest

from tests.backends import process_alive

RUN_TIMEOUT = 120.0  # seconds for one docker command (not a build)
START = 120.0  # seconds a container may take to start, sync or serve (a loaded machine)
ANSI = re.compile(r"\x1b\[[0-9;]*m")  # discord.py colours its log when it runs in Docker
T = TypeVar("T")


@dataclass(frozen=True)
class Docker:
    """The docker command of an engine that answers, the base image to build on, and the
    compose command (empty when none is installed)."""

    command: str
    base: str
    compose: tuple[str, ...] = ()

    def run(
        self, *args: str, env: Mapping[str, str] | None = None, timeout: float = RUN_TIMEOUT
    ) -> subprocess.CompletedProcess[str]:
        """``docker ARGS``, its output captured (never raises on a non-zero exit)."""
        return _run([self.command, *args], env, timeout)

    def run_compose(
        self, *args: str, env: Mapping[str, str] | None = None, timeout: float = RUN_TIMEOUT
    ) -> subprocess.CompletedProcess[str]:
        """``docker compose ARGS`` (or ``docker-compose``), its output captured."""
        return _run([*self.compose, *args], env, timeout)

    async def arun(self, *args: str, env: Mapping[str, str] | None = None) -> str:
        """``docker ARGS`` without blocking the event loop; its output; fails on an error."""
        return await _arun([self.command, *args], env)

    async def arun_compose(self, *args: str, env: Mapping[str, str] | None = None) -> str:
        """``docker compose ARGS`` without blocking the event loop; fails on an error."""
        return await _arun([*self.compose, *args], env)

    async def arun_compose_bytes(self, *args: str, env: Mapping[str, str] | None = None) -> bytes:
        """``docker compose ARGS``' standard output as it is (a dump, say); fails on an error."""
        return await _arun_bytes([*self.compose, *args], env)

    def logs(self, name: str) -> str:
        """A container's log (both streams), without colours."""
        done = self.run("logs", name)
        return ANSI.sub("", done.stdout + done.stderr)

    def running(self, name: str) -> bool:
        """Whether the container runs."""
        state = self.run("container", "inspect", "--format", "{{.State.Running}}", name)
        return state.stdout.strip() == "true"

    def exit_code(self, name: str) -> int:
        """The exit code of a container that stopped."""
        state = self.run("container", "inspect", "--format", "{{.State.ExitCode}}", name)
        return int(state.stdout)

    async def while_up(self, name: str, step: Awaitable[T]) -> T:
        """Await ``step``, failing with the container's log if it stops (or START passes)
        first."""
        waiting = asyncio.ensure_future(step)
        ended = asyncio.ensure_future(self.arun("wait", name))
        try:
            done, _ = await asyncio.wait(
                {waiting, ended}, timeout=START, return_when=asyncio.FIRST_COMPLETED
            )
            if waiting not in done:
                pytest.fail(f"{name} stopped or hung first; its log:\n{self.logs(name)}")
            return waiting.result()
        finally:
            for task in (waiting, ended):
                task.cancel()
            await asyncio.gather(waiting, ended, return_exceptions=True)


def _run(
    command: Sequence[str], env: Mapping[str, str] | None, timeout: float
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        list(command),
        env=None if env is None else dict(env),
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )


async def _arun_bytes(
    command: Sequence[str], env: Mapping[str, str] | None, merge: bool = False
) -> bytes:
    process = await asyncio.create_subprocess_exec(
        *command,
        env=None if env is None else dict(env),
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT if merge else asyncio.subprocess.PIPE,
    )
    try:
        out, err = await process.communicate()
    except asyncio.CancelledError:  # no command outlives the test (docker wait, say)
        process.kill()
        await process.wait()
        raise
    said = ANSI.sub("", (out if merge else err or b"").decode(errors="replace"))
    assert process.returncode == 0, f"{' '.join(command)}: {said}"
    return out


async def _arun(command: Sequence[str], env: Mapping[str, str] | None) -> str:
    return ANSI.sub("", (await _arun_bytes(command, env, merge=True)).decode())


#: A name this process made: its process id, then a random part (compose spells a project's
#: name without the dashes).
_MADE_BY = re.compile(r"^himiko-?test-?(\d+)-?x")


def _new_name() -> str:
    return f"himiko-test-{os.getpid()}-x{uuid.uuid4().hex[:12]}"


def remove_left_behind(docker: Docker) -> list[str]:
    """Remove the containers and volumes that test processes of this machine made and could not
    remove, killed before their end: a compose project's containers restart with the engine
    (``restart: unless-stopped``) and a bot among them would start again and again, beside
    every later run. What was removed."""
    project = '{{.Label "com.docker.compose.project"}}'
    removed = []
    for kind, listing in (
        ("container", ("ps", "--all", "--format", f"{{{{.Names}}}}\t{project}")),
        ("volume", ("volume", "ls", "--format", f"{{{{.Name}}}}\t{project}")),
    ):
        for line in docker.run(*listing).stdout.splitlines():
            made = [m for m in map(_MADE_BY.match, line.split("\t")) if m is not None]
            if made and not process_alive(int(made[0].group(1))):
                name = line.split("\t")[0]
                removal = (
                    ("rm", "--force", "--volumes")
                    if kind == "container"
                    else ("volume", "rm", "--force")
                )
                docker.run(*removal, name)
                removed.append(name)
    return removed


@dataclass
class Containers:
    """Names for the containers, volumes and compose projects a test makes; all removed at
    its end."""

    docker: Docker
    names: list[str] = field(default_factory=list)
    volumes: list[str] = field(default_factory=list)
    projects: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)

    def name(self) -> str:
        """A new container name, removed (with its anonymous volumes) at the end."""
        self.names.append(_new_name())
        return self.names[-1]

    def volume(self) -> str:
        """A new named volume, removed at the end."""
        self.volumes.append(_new_name())
        return self.volumes[-1]

    def project(self, *files: str) -> tuple[str, ...]:
        """Compose's options for a new project of these files (``-p NAME -f FILE...``), taken
        down with its volumes at the end."""
        name = _new_name().replace("-", "")  # compose's own spelling of a project's name
        options = ("--project-name", name, *(arg for f in files for arg in ("--file", f)))
        self.projects.append((name, options))
        return options

    def remove(self) -> list[str]:
        """Remove everything made; what is left."""
        left = []
        for name, options in self.projects:
            self.docker.run_compose(*options, "down", "--volumes", "--timeout", "30")
            label = f"label=com.docker.compose.project={name}"
            ps = self.docker.run("ps", "--all", "--quiet", "--filter", label)
            self.docker.run("rm", "--force", "--volumes", *ps.stdout.split())
            volumes = self.docker.run("volume", "ls", "--quiet", "--filter", label)
            self.docker.run("volume", "rm", "--force", *volumes.stdout.split())
            if self.docker.run("ps", "--all", "--quiet", "--filter", label).stdout.strip():
                left.append(name)
        for name in self.names:
            self.docker.run("rm", "--force", "--volumes", name)
            if self.docker.run("container", "inspect", name).returncode == 0:
                left.append(name)
        for volume in self.volumes:
            self.docker.run("volume", "rm", "--force", volume)
            if self.docker.run("volume", "inspect", volume).returncode == 0:
                left.append(volume)
        return left
