"""A league's page speaks its server's language as the bot's league posts do (issue 38 item 4):
the server's ``/server language`` default, else its Discord locale; English otherwise."""

from __future__ import annotations

from pathlib import Path

import aiohttp
import pytest

from bot.store import NewLeague
from tests.e2e.harness import CHANNEL, GUILD, HOST, himiko_env, run

from .test_bot_web import _with_web

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL


async def _page(url: str) -> str:
    async with aiohttp.ClientSession() as client, client.get(url) as answer:
        assert answer.status == 200
        return await answer.text()


def test_a_league_page_follows_its_servers_discord_locale(tmp_path: Path) -> None:
    """On a French server no admin set a language for, the page is French; a ``/server
    language`` default wins; a server the bot does not see reads English."""

    async def body() -> None:
        async with himiko_env(tmp_path, preferred_locale="fr") as env:
            _with_web(env)
            bot = await env.restart()
            assert bot.web is not None and bot.repo is not None
            new = NewLeague(GUILD, CHANNEL, "Coupe", "yamatai", 2, 2, "swiss", None, "3,1", None, 1)
            league = await bot.repo.create_league(new, now=1_000)
            elsewhere = await bot.repo.create_league(
                NewLeague(999, 998, "Cup", "yamatai", 2, 2, "swiss", None, "3,1", None, 1),
                now=1_000,
            )
            assert await bot.repo.join_league(league.id, HOST.id, "Hana", now=1_000)
            french = await _page(bot.web.league_url(league.id))
            assert "Coupe — ligue de Yamatai" in french and "Inscriptions ouvertes" in french
            assert 'lang="fr"' in french
            assert "Open for sign-up" not in french
            await bot.rooms.settings.set_server_language(GUILD, "pl", by=HOST.id)
            polish = await _page(bot.web.league_url(league.id))
            assert "Zapisy otwarte" in polish
            english = await _page(bot.web.league_url(elsewhere.id))
            assert "Cup — league of Yamatai" in english and "Open for sign-up" in english

    run(body, timeout=120)
