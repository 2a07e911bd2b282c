""" "24 h more" through the double (issue 39 item 4): the half-time reminder offers its player
to ask; the request is posted for everyone; another player grants it once and the turn's
deadline and reminders move on a day; the asker, a spectator, a second grant, another
player's ask and a game with a time bank are refused, changing nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.catalog import default_catalog
from bot.service import ServiceError
from bot.store import Reminder
from tests.discord_double import MessageRecord
from tests.e2e.harness import TIMEOUT, WATCHER, Env, Table, custom_id, himiko_env, run
from tests.e2e.test_play import two_humans
from tests.e2e.test_reminders import reminders_to
from tests.e2e.test_time_bank import banked_game, players

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

HOUR = 3600
DAY = 24 * HOUR


def said(key: str, locale: str = "en", **params: Any) -> str:
    """A catalog text as the bot says it."""
    return default_catalog().text(key, locale, **params)


async def rows(env: Env, table: Table) -> list[Reminder]:
    """The game's reminder rows."""
    repo = env.bot.repo
    assert repo is not None
    return await repo.list_reminders((await env.game(table.id)).id)


async def click(
    env: Env, user: Any, table: Table, message: MessageRecord, prefix: str
) -> MessageRecord:
    """Click the button of ``message`` whose id starts with ``prefix``: the answer."""
    done = await env.double.click(user, table.id, message.id, custom_id(message, prefix))
    return await done.reply(TIMEOUT)


def test_asked_by_the_player_granted_once_by_another_the_turn_gets_a_day_more(
    tmp_path: Path,
) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table, player, other = await two_humans(env)
            deadline = int(env.clock()) + 48 * HOUR
            env.clock.advance(DAY)
            assert await env.bot.scheduler.tick() == 1
            [reminder] = reminders_to(env, table, player)
            assert reminder.custom_ids() == [custom_id(reminder, "himiko:more:ask:")]
            # only the player to act asks
            refused = await click(env, other, table, reminder, "himiko:more:ask:")
            assert refused.ephemeral and refused.content == said("more.not_yours")
            request = await click(env, player, table, reminder, "himiko:more:ask:")
            name = "Hana" if player.id == 322_000_000_000_000_001 else "Kenji"
            assert not request.ephemeral  # the others see it
            assert request.content == said("more.asked", player=name, when=f"<t:{deadline}:R>")
            assert request.pinged_user_ids() == []
            # asked: the reminder's button has done its work (a second ask is refused)
            await env.quiet()
            assert env.double.message(reminder.id).custom_ids() == []
            # the asker cannot grant it, nor can a spectator
            own = await click(env, player, table, request, "himiko:more:grant:")
            assert own.content == said("more.own")
            watcher = await click(env, WATCHER, table, request, "himiko:more:grant:")
            assert watcher.content == said("more.not_player")
            before = await rows(env, table)
            assert {r.deadline_at for r in before} == {deadline}
            grant = custom_id(request, "himiko:more:grant:")
            await (await env.double.click(other, table.id, request.id, grant)).response(TIMEOUT)
            other_name = "Kenji" if name == "Hana" else "Hana"
            new = deadline + DAY
            shown = env.double.message(request.id)  # the request became the grant
            assert shown.content == said(
                "more.granted", granter=other_name, player=name, when=f"<t:{new}:R>"
            )
            assert shown.custom_ids() == []
            after = {r.kind: r for r in await rows(env, table)}
            assert {r.deadline_at for r in after.values()} == {new}
            assert after["half"].due_at == before[0].due_at  # sent already: unchanged
            assert after["near"].due_at == deadline - 4 * HOUR + DAY
            # the near reminder comes a day later; a second ask on this turn: refused
            env.clock.advance(DAY - 4 * HOUR)
            assert await env.bot.scheduler.tick() == 0
            env.clock.advance(DAY)
            assert await env.bot.scheduler.tick() == 1
            near = reminders_to(env, table, player)[-1]
            assert f"<t:{new}:R>" in near.content
            assert near.custom_ids() == []  # more time was had on this turn: no Ask
            panel = await (await env.double.slash(player, table.id, "turn")).reply(TIMEOUT)
            again = await click(env, player, table, panel, "himiko:more:now:")
            assert again.content == said("more.asked_already")

    run(body, timeout=120)


def test_a_time_bank_is_never_extended(tmp_path: Path) -> None:
    """A banked game's reminder has no Ask button, and asking through the service is refused;
    its lobby does not promise more time (a game with a deadline's does)."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table = await banked_game(env)
            assert said("lobby.more_time_text") not in env.double.message(table.lobby.id).text()
            player, _ = await players(env, table)
            env.clock.advance(36 * HOUR)
            assert await env.bot.scheduler.tick() == 1
            [reminder] = reminders_to(env, table, player)
            assert reminder.custom_ids() == []
            game = await env.game(table.id)
            with pytest.raises(ServiceError) as refused:
                await env.bot.rooms.more_time.ask(player.id, game_id=game.id)
            assert refused.value.key == "more.bank"
            deadlines = {r.deadline_at for r in await rows(env, table)}
            assert deadlines == {int(env.clock()) + 36 * HOUR}
            dated = await two_humans(env)  # a game with the lobby's 48-hour deadline
            assert said("lobby.more_time_text") in env.double.message(dated[0].lobby.id).text()

    run(body, timeout=120)


def test_the_panel_asks_for_the_turn_being_played(tmp_path: Path) -> None:
    """The turn panel of a game with a deadline has the Ask button too: the request goes to
    the thread for everyone, as the reminder's does."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table, player, other = await two_humans(env)
            panel = await (await env.double.slash(player, table.id, "turn")).reply(TIMEOUT)
            request = await click(env, player, table, panel, "himiko:more:now:")
            assert not request.ephemeral and custom_id(request, "himiko:more:grant:")
            again = await click(env, other, table, panel, "himiko:more:now:")
            assert again.content == said("more.not_yours")

    run(body, timeout=120)
