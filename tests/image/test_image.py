"""The container image (Dockerfile) as an owner runs it: the installed wheel, the demo's pages,
and ``python -m bot`` against the Discord double, every container on the host's network with
traffic on 127.0.0.1 only (the engine has no bridge: scripts/lib/test-docker.sh)."""

from __future__ import annotations

import json
import os
import re
import time
import urllib.request

import pytest

from tests.discord_double import ChannelRecord, DiscordDouble
from tests.e2e.harness import (
    CHANNEL,
    COMMANDS,
    GUILD,
    HOST,
    TIMEOUT,
    WATCHER,
    custom_id,
    has_png,
    make_double,
    run,
)
from tests.image.conftest import ROOT
from tests.image.docker import START, Containers, Docker

pytestmark = pytest.mark.image

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
LINK = re.compile(r"^ +(http://127\.0\.0\.1:\d+/g/\d+/[A-Za-z0-9_-]+)$", re.MULTILINE)

FACTS = """
import json, os, pathlib, bot, render
fonts = pathlib.Path(render.__file__).parent / "assets" / "fonts"
print(json.dumps({
    "uid": os.getuid(),
    "cwd": os.getcwd(),
    "bot": bot.__file__,
    "fonts": sorted(p.name for p in fonts.iterdir()),
    "sources": [p for p in ("/src", "/wheels", "/opt/build") if os.path.exists(p)],
}))
"""


def test_the_image_runs_the_installed_wheel_as_a_user_without_rights(
    docker: Docker, image: str, containers: Containers
) -> None:
    """``python -m bot`` is the entry point; the project is the installed wheel with its fonts,
    no source tree or build tools are left; the user is not root; the data is a volume."""
    (inspected,) = json.loads(docker.run("image", "inspect", image).stdout)
    config = inspected["Config"]
    assert config["Entrypoint"] == ["python", "-m", "bot"]
    assert config["User"] == "himiko" and config["WorkingDir"] == "/data"
    assert "/data" in config["Volumes"]

    probe = docker.run(
        "run", "--rm", "--name", containers.name(), "--network", "host",
        "--entrypoint", "python", image, "-c", FACTS,
    )  # fmt: skip
    assert probe.returncode == 0, probe.stderr
    facts = json.loads(probe.stdout)
    assert facts["uid"] != 0 and facts["cwd"] == "/data"
    installed = r"/opt/himiko/lib/python3\.\d+/site-packages/bot/__init__\.py"
    assert re.fullmatch(installed, facts["bot"]), facts["bot"]
    shipped = sorted(p.name for p in (ROOT / "render" / "assets" / "fonts").iterdir())
    assert facts["fonts"] == shipped and len(shipped) >= 10
    assert facts["sources"] == []

    started = docker.run("run", "--rm", "--name", containers.name(), "--network", "host", image)
    assert started.returncode == 2, started.stderr  # settings: no DISCORD_TOKEN
    assert len(started.stderr.strip().splitlines()) == 1 and "DISCORD_TOKEN" in started.stderr


def _get(url: str) -> tuple[int, str, bytes]:
    with urllib.request.urlopen(url, timeout=TIMEOUT) as answer:
        return answer.status, answer.headers.get_content_type(), answer.read()


def test_the_images_demo_serves_its_games_pages_to_the_host(
    docker: Docker, image: str, containers: Containers
) -> None:
    """``--demo`` plays its games in the container and serves their pages on the host's
    127.0.0.1: every printed link answers, and a step's picture is drawn with the fonts."""
    count = docker.run(
        "run", "--rm", "--name", containers.name(), "--network", "host", "--entrypoint",
        "python", image, "-c", "from bot.web.demo import DEMO_GAMES; print(len(DEMO_GAMES))",
    )  # fmt: skip
    assert count.returncode == 0, count.stderr
    expected = int(count.stdout)
    name = containers.name()
    started = docker.run(
        "run", "--detach", "--init", "--name", name, "--network", "host",
        image, "--demo", "--port", "0",
    )  # fmt: skip
    assert started.returncode == 0, started.stderr

    deadline = time.monotonic() + START
    while len(links := LINK.findall(docker.logs(name))) < expected:
        assert docker.running(name), docker.logs(name)
        assert time.monotonic() < deadline, docker.logs(name)
        time.sleep(0.2)
    assert len(links) == expected >= 2

    for link in links:
        status, kind, body = _get(link)
        assert (status, kind) == (200, "text/html") and b"<html" in body.lower()
    status, kind, picture = _get(f"{links[0]}/v/1.png")
    assert (status, kind) == (200, "image/png") and picture.startswith(PNG_MAGIC)

    stopped = docker.run("stop", name)
    assert stopped.returncode == 0, stopped.stderr
    assert docker.exit_code(name) == 0, docker.logs(name)
    assert "Traceback" not in docker.logs(name)


async def answers_help(docker: Docker, name: str, double: DiscordDouble) -> None:
    """The bot in the container ``name`` answers ``/help`` (privately, with its commands)."""
    helped = await double.slash(WATCHER, CHANNEL, "help")
    reply = await docker.while_up(name, helped.reply(START))
    assert reply.ephemeral and "`/new game:`" in reply.text()


async def game_against_a_computer(
    docker: Docker, name: str, double: DiscordDouble, game: str
) -> ChannelRecord:
    """``/new`` with a computer seat and Start, answered by the bot in the container ``name``;
    the game's thread, once its opening picture (drawn in the container with the wheel's
    fonts) is posted."""
    opened = await double.slash(HOST, CHANNEL, "new", {"game": game, "seats": 2, "computers": True})
    lobby = await docker.while_up(name, opened.reply(START))
    starting = custom_id(lobby, "himiko:lobby:start:")
    start = await double.click(HOST, CHANNEL, lobby.id, starting)
    await docker.while_up(name, start.wait_event("edit_original", START))
    thread = await docker.while_up(name, double.wait_for_thread(CHANNEL, timeout=START))
    await docker.while_up(name, double.wait_for_message(thread.id, has_png, START))
    return thread


async def _start_bot(
    docker: Docker, image: str, double: DiscordDouble, name: str, volume: str
) -> None:
    """``python -m bot`` in the image, its settings from the environment, pointed at the double;
    its SQLite file on the named volume."""
    env = {**os.environ, "DISCORD_TOKEN": double.token}  # never on a command line
    await docker.arun(
        "run", "--detach", "--init", "--name", name, "--network", "host",
        "--volume", f"{volume}:/data", "--env", "DISCORD_TOKEN",
        "--env", f"DISCORD_API_BASE={double.api_base}",
        "--env", f"DISCORD_GATEWAY_URL={double.gateway_url}",
        "--env", f"DEV_GUILD_ID={GUILD}", "--env", "COMPUTER_PAUSE=0",
        image, env=env,
    )  # fmt: skip


def test_the_bot_in_the_image_plays_against_the_discord_double(
    docker: Docker, image: str, containers: Containers
) -> None:
    """The bot in the container syncs its commands, answers ``/help``, opens a game against a
    computer with its picture, is backed up while it runs, stops cleanly on ``docker stop``,
    and its games stay on the volume."""
    name, volume = containers.name(), containers.volume()

    async def body() -> None:
        async with make_double() as double:
            await _start_bot(docker, image, double, name, volume)
            synced = await docker.while_up(name, double.wait_for_commands(GUILD, START))
            assert sorted(c["name"] for c in synced) == sorted(COMMANDS)
            await docker.while_up(name, double.wait_ready(START))

            await answers_help(docker, name, double)
            await game_against_a_computer(docker, name, double, "yamatai")

            backup = "python -m bot.store backup --db himiko.sqlite3 --to backup.sqlite3"
            await docker.arun("exec", name, *backup.split())
            await docker.arun("stop", name)
            assert double.unexpected_requests == []
        log = docker.logs(name)
        assert docker.exit_code(name) == 0, log
        assert f"synced {len(COMMANDS)} slash commands" in log, log
        assert "Traceback" not in log and " ERROR " not in log, log
        assert double.token not in log
        for database in ("himiko.sqlite3", "backup.sqlite3"):
            checked = await docker.arun(
                "run", "--rm", "--name", containers.name(), "--network", "host",
                "--volume", f"{volume}:/data", "--entrypoint", "python", image,
                "-m", "bot.store", "verify", "--db", database,
            )  # fmt: skip
            assert "checked 1 games, 0 differ" in checked, checked

    run(body, timeout=6 * START)
