"""``/web``, ``/export``, the "View on the web" buttons and the recap GIF of a game's final
message, through the Discord double (issue 22, the Discord half; docs/web.md, docs/records.md)."""

from __future__ import annotations

import asyncio
import io
import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from PIL import Image

from bot.catalog import default_catalog
from bot.service.records import Records
from bot.settings import Settings
from bot.store import Game, GameStatus
from bot.web.config import WebConfig
from engine import games
from engine import record as rec
from engine.games import Match
from tests.discord_double import MessageRecord
from tests.e2e.harness import (
    CHANNEL,
    HOST,
    TIMEOUT,
    WATCHER,
    Env,
    Table,
    custom_id,
    himiko_env,
    run,
    shown,
)
from tests.e2e.test_turn_cards import SEQUENCE_FROM, confirmed, next_play

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

SECRET = "webwire-secret-of-some-length"
MAX_HOST_ACTIONS = 400
GIF_LIMIT_BYTES = 8 * 1024 * 1024
GIF_LIMIT_MS = 20_000
_WORD = re.compile(r"[A-Za-z0-9#]+")


def _with_web(env: Env) -> None:
    """The bot's next start reads WEB_PORT (any free port) and WEB_SECRET."""
    plain = env.settings

    def settings() -> Settings:
        return replace(plain(), web=WebConfig(port=0, secret=SECRET))

    env.settings = settings  # type: ignore[method-assign]


def link_urls(message: MessageRecord) -> list[str]:
    """The addresses of a message's link buttons."""
    return [c["url"] for c in message.iter_components() if c.get("type") == 2 and "url" in c]


def said(key: str, locale: str = "en", **params: Any) -> str:
    """A catalog text as the bot says it."""
    return default_catalog().text(key, locale, **params)


async def replayed(env: Env, game: Game) -> tuple[Match, list[tuple[int, str]]]:
    """The engine's replay of the game's stored actions, and those actions (seat, notation)."""
    repo = env.bot.repo
    assert repo is not None
    stored = [(a.seat, a.notation) for a in await repo.load_actions(game.id)]
    return games.replay(game.game_key, game.players, game.seed, game.options, stored), stored


async def host_turns(env: Env, table: Table, turns: int | None) -> None:
    """The host plays the first suggestion ``turns`` times (None: until the game is over, a
    turn of several actions as one confirmed sequence, ``host_to_the_end``)."""
    if turns is None:
        await host_to_the_end(env, table)
        return
    played = 0
    while played < turns:
        await env.bot.runner.idle()  # the computers' turns
        game = await env.game(table.id)
        if game.status != GameStatus.ACTIVE:
            return
        assert game.current_user_id == HOST.id
        choices = await env.choices(HOST, table.id, "")
        await (await env.play(HOST, table.id, choices[0])).reply(TIMEOUT)
        played += 1
        assert played < MAX_HOST_ACTIONS, "the game does not end"
    await env.bot.runner.idle()


async def host_to_the_end(env: Env, table: Table) -> None:
    """The host plays the computer's choices until the game is over: a turn of
    ``SEQUENCE_FROM`` actions or more as one confirmed ``/play`` (one preview picture, not a
    step picture per action; these tests are about the game's end)."""
    choose = games.computer_player("yamatai")
    played = 0
    while played < MAX_HOST_ACTIONS:
        await env.bot.runner.idle()  # the computers' turns
        game = await env.game(table.id)
        if game.status != GameStatus.ACTIVE:
            return
        assert game.current_user_id == HOST.id
        actions = next_play(await env.match(table.id), choose, played)
        if len(actions) >= SEQUENCE_FROM:
            await confirmed(env, HOST, table, "; ".join(actions))
        else:
            for action in actions:
                await (await env.play(HOST, table.id, action)).reply(TIMEOUT)
        played += len(actions)
    raise AssertionError("the game does not end")


async def export(env: Env, user: Any, thread_id: int, locale: str | None = None) -> MessageRecord:
    """``/export`` in a channel: the private follow-up (the record, or why not)."""
    done = await env.double.slash(user, thread_id, "export", locale=locale)
    answer = await done.followup(0, TIMEOUT)
    assert answer.ephemeral
    return answer


def secret_words(match: Match) -> set[str]:
    """Everything hidden from a spectator or from any seat at this point of the game."""
    hidden = set(match.rules.secrets(match.state, None))
    for seat in range(len(match.players)):
        hidden |= match.rules.secrets(match.state, seat)
    return hidden


def final_message(env: Env, thread_id: int) -> MessageRecord:
    """The bot's last public message in a thread."""
    return env.double.messages(thread_id, include_ephemeral=False)[-1]


def check_gif(data: bytes) -> None:
    """A valid animated GIF within the recap's limits (8 MB, 20 s)."""
    assert data.startswith(b"GIF8") and len(data) < GIF_LIMIT_BYTES
    with Image.open(io.BytesIO(data)) as gif:
        frames = int(getattr(gif, "n_frames", 1))
        assert gif.format == "GIF" and getattr(gif, "is_animated", False) and frames >= 2
        total = 0
        for frame in range(frames):
            gif.seek(frame)
            total += int(gif.info["duration"])
        assert 0 < total < GIF_LIMIT_MS


def test_web_link_export_and_recap_of_a_game_played_on_the_double(tmp_path: Path) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            _with_web(env)
            bot = await env.restart()
            assert bot.web is not None
            table = await env.start_game(HOST, computers=2)
            game = await env.game(table.id)
            url = bot.web.game_url(game.id)
            assert link_urls(table.opening) == [url]  # the opening's "View on the web"

            # /web: the link, only for the user; the page it names is served and shows the game
            asked = await env.double.slash(WATCHER, table.id, "web")
            answer = await asked.reply(TIMEOUT)
            assert answer.ephemeral and answer.content == said("web.link", url=url)
            await host_turns(env, table, 3)
            game = await env.game(table.id)
            async with aiohttp.ClientSession() as client:
                async with client.get(url) as page:
                    assert page.status == 200
                    html = await page.text()
                async with client.get(f"{url}/recap.gif") as early:
                    assert early.status == 404  # no recap before the end
            assert "Hana" in html and "Computer 2" in html
            steps = json.loads(re.findall(r'id="steps">(.*?)</script>', html)[0])["steps"]
            assert len(steps) == game.action_count + 1

            # /export while the game runs: a player gets the spectator record, nothing hidden
            running = await export(env, HOST, table.id)
            name = f"yamatai-{game.id}.json"
            attached = running.attachment(name)
            assert attached is not None
            assert running.content == said("export.spectator")
            data = json.loads(attached.data)
            assert data["kind"] == "spectator" and "seed" not in data
            spectator = rec.from_json(attached.data.decode())
            match, stored = await replayed(env, game)
            assert [e.seat for e in spectator.actions] == [seat for seat, _ in stored]
            assert spectator.actions[-1].scores == rec.public_scores(match.view(None))
            assert [p.name for p in spectator.players] == game.players
            leaked = set(_WORD.findall(attached.data.decode())) & secret_words(match)
            assert not leaked, leaked
            assert rec.check(spectator).kind == rec.SPECTATOR

            # refusals: not a player while it runs, not a game's thread (user's language)
            refused = await export(env, WATCHER, table.id, locale="fr")
            assert refused.content == said("export.not_player", "fr") and not refused.attachments
            nowhere = await export(env, HOST, CHANNEL, locale="pl")
            assert nowhere.content == said("export.no_game", "pl")
            asked = await env.double.slash(HOST, CHANNEL, "web", locale="it")
            assert (await asked.reply(TIMEOUT)).content == said("web.no_game", "it")

            # the end: the final message carries the recap GIF and "View on the web"
            await host_turns(env, table, None)
            game = await env.game(table.id)
            assert game.status == GameStatus.FINISHED
            await env.settled()  # the last turn's card brings the recap and the board (D200)
            last = final_message(env, table.id)
            assert last.is_v2 and shown(last) == ["recap.gif", "board.png"]
            gif = last.attachment("recap.gif")
            assert gif is not None and gif.content_type == "image/gif"
            check_gif(gif.data)
            assert link_urls(last) == [url]

            # /export after the end: anyone gets the full record, which checks and replays
            over = await export(env, WATCHER, table.id)
            assert over.content == said("export.full", file=name)
            attached = over.attachment(name)
            assert attached is not None
            full = rec.from_json(attached.data.decode())
            assert full.kind == rec.FULL and full.seed == game.seed and full.result is not None
            # who really played: the computer seats at the lobby's level, not "strong"
            assert game.computer_level == "normal"
            assert [(p.computer, p.level) for p in full.players] == [
                (False, None),
                (True, "normal"),
                (True, "normal"),
            ]
            assert rec.check(full).over
            match, stored = await replayed(env, game)
            assert [(e.seat, e.action) for e in full.actions] == stored
            assert rec.replay(full)[-1].view() == match.view(None)
            assert rec.check(spectator, against=full).replayed  # what was shown is the game played

            # the web page offers the same recap
            async with aiohttp.ClientSession() as client:
                async with client.get(url) as page:
                    assert "/recap.gif" in await page.text()
                async with client.get(f"{url}/recap.gif") as served:
                    assert served.status == 200 and served.content_type == "image/gif"
                    assert await served.read() == gif.data
                wrong = url.rsplit("/", 1)[0] + "/" + "A" * 22 + "/recap.gif"
                async with client.get(wrong) as guessed:
                    assert guessed.status == 404

    run(body, timeout=240)


def test_a_game_ended_by_a_resignation_gets_its_recap_and_link_and_a_full_record(
    tmp_path: Path,
) -> None:
    """The host alone against a computer resigns, so the computer wins at once (D207): the
    ending message (not a turn's) carries the recap, marked as ended by the bot, and the link;
    the record says why it ended."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            _with_web(env)
            bot = await env.restart()
            assert bot.web is not None
            table = await env.start_game(HOST, computers=1)
            await host_turns(env, table, 2)
            resign = await (await env.double.slash(HOST, table.id, "resign")).reply(TIMEOUT)
            yes = custom_id(resign, "himiko:resign:ok:")
            await (await env.double.click(HOST, table.id, resign.id, yes)).reply(TIMEOUT)
            ending = await env.double.wait_for_message(
                table.id, lambda m: "resigned" in m.text() and not m.ephemeral, TIMEOUT
            )
            game = await env.game(table.id)
            assert game.status != GameStatus.ACTIVE
            assert ending.is_v2 and shown(ending) == ["recap.gif", "board.png"]
            gif = ending.attachment("recap.gif")
            assert gif is not None
            check_gif(gif.data)
            assert link_urls(ending) == [bot.web.game_url(game.id)]
            over = await export(env, WATCHER, table.id)
            attached = over.attachment(f"yamatai-{game.id}.json")
            assert attached is not None
            full = rec.from_json(attached.data.decode())
            assert full.kind == rec.FULL and full.ended == "resigned" and full.result is None
            assert rec.check(full).replayed
            # the page marks the computer the winner, as the ending card says
            async with (
                aiohttp.ClientSession() as client,
                client.get(bot.web.game_url(game.id)) as page,
            ):
                html = await page.text()
            rows = re.findall(r'<tr data-seat="\d+".*?</tr>', html)
            [won] = [row for row in rows if 'class="tag win"' in row]
            assert "Computer 1" in won and "Hana" not in won

    run(body, timeout=240)


@pytest.mark.parametrize("trouble", ["fails", "slow"])
def test_without_web_no_link_and_a_failed_recap_leaves_the_final_message_without_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, trouble: str
) -> None:
    async def broken(self: Records, game_id: int) -> bytes | None:
        if trouble == "slow":
            await asyncio.sleep(60)
        raise RuntimeError("the drawing failed")

    monkeypatch.setattr(Records, "recap", broken)
    monkeypatch.setattr("bot.service.records.RECAP_SECONDS", 0.2)

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            assert env.bot.web is None and env.bot.game_page(1) is None
            table = await env.start_game(HOST, computers=2)
            assert link_urls(table.opening) == []
            asked = await env.double.slash(HOST, table.id, "web", locale="pl")
            answer = await asked.reply(TIMEOUT)
            assert answer.ephemeral and answer.content == said("web.none", "pl")
            await host_turns(env, table, None)
            await env.settled()  # the last turn's card brings its board (D200)
            last = final_message(env, table.id)
            assert "**The game is over.**" in last.text()
            assert [a.filename for a in last.attachments] == ["board.png"] == shown(last)
            assert link_urls(last) == []

    run(body, timeout=240)
    why = "took over" if trouble == "slow" else "the recap failed"
    assert any(why in r.getMessage() for r in caplog.records), caplog.text
