"""LOG_FORMAT=json (issue 40 item 4): ``python -m bot`` plays a game against the computer and
every line it writes is one JSON object with its context, and none holds the token, a
player's name or what a player typed."""

from __future__ import annotations

import asyncio
import json
import signal
from pathlib import Path
from typing import Any

from bot.store import GameRepository
from engine import games
from tests.e2e.harness import CHANNEL, GUILD, HOST, TIMEOUT, custom_id, has_png, make_double, run
from tests.e2e.test_metrics_process import environment, spawn

PLAYS = 6  # actions the host plays (a turn or more; the computer plays between)
TYPED = "zebra moon 42"  # what the host types that is no action: refused, never logged
FIELDS = {"time", "level", "logger", "message"}


async def host_plays(double: Any, repo: GameRepository, thread_id: int) -> None:
    """The host plays the first legal action ``PLAYS`` times, each when it is their turn."""
    played = 0
    while played < PLAYS:
        game = await repo.load_latest_game_by_thread(thread_id)
        if game.status != "active":
            return
        if game.current_user_id != HOST.id:  # the computer's turn: it plays in a moment
            await asyncio.sleep(0.05)
            continue
        action = games.from_json(game.snapshot).legal_actions()[0]
        rec = await double.slash(HOST, thread_id, "play", {"action": action})
        await rec.reply(TIMEOUT)
        played += 1


def test_a_game_logged_as_json_lines_holds_no_token_name_or_typed_text(tmp_path: Path) -> None:
    async def body() -> None:
        async with make_double() as double:
            env = environment(tmp_path, double, LOG_FORMAT="json")
            process = await spawn(tmp_path, env)
            try:
                await double.wait_for_commands(GUILD, 30)
                await double.wait_ready(TIMEOUT)
                new = await double.slash(
                    HOST, CHANNEL, "new", {"game": "yamatai", "seats": 2, "computers": True}
                )
                lobby = await new.reply(TIMEOUT)
                start = custom_id(lobby, "himiko:lobby:start:")
                clicked = await double.click(HOST, CHANNEL, lobby.id, start)
                await clicked.wait_event("edit_original", TIMEOUT)
                thread = await double.wait_for_thread(CHANNEL, lambda t: True)
                await double.wait_for_message(thread.id, has_png, TIMEOUT)
                typed = await double.slash(HOST, thread.id, "play", {"action": TYPED})
                await typed.reply(TIMEOUT)
                repo = await GameRepository.connect(tmp_path / "himiko.sqlite3")
                try:
                    await asyncio.wait_for(host_plays(double, repo, thread.id), 60)
                finally:
                    await repo.close()
                process.send_signal(signal.SIGINT)
                out, err = await asyncio.wait_for(process.communicate(), 30)
            finally:
                if process.returncode is None:
                    process.kill()
                    await process.wait()
        assert process.returncode == 0, err.decode()
        lines = (out + err).decode().splitlines()
        records = [json.loads(line) for line in lines]  # every line is one JSON object
        assert all(set(r) >= FIELDS for r in records), records
        for line in lines:
            for secret in (double.token, HOST.name, HOST.global_name, TYPED, "zebra"):
                assert secret is not None and secret not in line, line
        answered = [r for r in records if r["logger"] == "bot.answers"]
        plays = [r for r in answered if r.get("command") == "play"]
        assert len(plays) == PLAYS + 1, answered
        assert {r["outcome"] for r in plays} == {"ok", "refused"}
        for record in plays:
            assert record["guild"] == GUILD and record["channel"] == thread.id
            assert record["duration_ms"] >= 0 and record["level"] == "INFO"
        [click] = [r for r in answered if r.get("click") == "lobby:start"]
        assert click["outcome"] == "ok" and click["guild"] == GUILD
        assert any(r["message"].startswith("synced") for r in records)

    run(body, timeout=120)
