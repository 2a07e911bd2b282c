"""Commands that work anywhere through the double (issue 39 item 6): ``/mygames``,
``/profile``, ``/rating``, ``/rules`` and ``/help`` are registered globally as installable on a
user and usable in direct messages; in a direct message ``/mygames`` lists the player's games on
every server; the game commands stay in servers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.catalog import default_catalog
from tests.discord_double import ChannelRecord
from tests.e2e.harness import HOST, TIMEOUT, WATCHER, Env, himiko_env, run

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

ANYWHERE = {"mygames", "profile", "rating", "rules", "help"}
USER_INSTALL, BOT_DM, PRIVATE_CHANNEL = 1, 1, 2


def said(key: str, locale: str = "en", **params: Any) -> str:
    """A catalog text as the bot says it."""
    return default_catalog().text(key, locale, **params)


def direct_messages(env: Env, user_id: int) -> int:
    """The id of the user's direct message channel with the bot (made here)."""
    state = env.double.state
    channel = ChannelRecord(
        id=state.next_id(), type=1, guild_id=None, name="", recipient_ids=[user_id]
    )
    state.channels[channel.id] = channel
    return channel.id


def test_the_commands_anywhere_answer_in_a_direct_message(tmp_path: Path) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            registered = await env.double.wait_for_commands(None, TIMEOUT)
            assert {c["name"] for c in registered} == ANYWHERE
            for command in registered:
                assert USER_INSTALL in command["integration_types"], command["name"]
                assert {BOT_DM, PRIVATE_CHANNEL} <= set(command["contexts"]), command["name"]
            table = await env.start_game(HOST, computers=1)
            dm = direct_messages(env, HOST.id)
            mine = await (await env.double.slash(HOST, dm, "mygames")).reply(TIMEOUT)
            assert mine.ephemeral and f"<#{table.id}>" in mine.text()
            assert said("mygames.title_everywhere") in mine.text()
            profile = await (await env.double.slash(HOST, dm, "profile")).reply(TIMEOUT)
            assert said("profile.title_everywhere", user=f"<@{HOST.id}>") in profile.text()
            rating = await (await env.double.slash(HOST, dm, "rating")).reply(TIMEOUT)
            assert said("rating.none_anywhere") in rating.text()
            helped = await (await env.double.slash(HOST, dm, "help")).reply(TIMEOUT)
            assert helped.embeds and "/mygames" in helped.embeds[0]["description"]
            rules = await env.double.slash(HOST, dm, "rules", {"game": "yamatai"})
            assert (await rules.reply(TIMEOUT)).content
            # someone without games: told so, on every server
            other = direct_messages(env, WATCHER.id)
            none = await (await env.double.slash(WATCHER, other, "mygames")).reply(TIMEOUT)
            assert said("mygames.none_everywhere") in none.text()
            # the game commands are not there
            with pytest.raises(LookupError):
                await env.double.slash(HOST, dm, "games")

    run(body, timeout=120)
