"""/settings on the Discord double: direct messages, quiet hours, export and delete."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.service.notify import delivery, is_quiet
from bot.store import UserSettings
from tests.discord_double import MessageRecord, UserSpec
from tests.e2e.harness import CHANNEL, HOST, TIMEOUT, Env, as_posted, himiko_env, run
from tests.e2e.test_play import two_humans
from tests.e2e.test_recovery import finish_turn
from tests.e2e.test_reminders import HOUR, reminders_to

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL


def direct_messages(env: Env, user: UserSpec) -> list[MessageRecord]:
    """The bot's messages in the user's DM channel."""
    found = []
    for channel in env.double.state.channels.values():
        if channel.type == 1 and channel.recipient_ids == [user.id]:
            found += env.double.messages(channel.id)
    return found


async def say(env: Env, user: UserSpec, command: str, **options: object) -> MessageRecord:
    """Run a ``/settings`` subcommand in the channel; its (private) reply."""
    reply = await (await env.double.slash(user, CHANNEL, command, options)).reply(TIMEOUT)
    assert reply.ephemeral
    return reply


def test_a_player_who_chose_direct_messages_gets_one_and_no_ping(tmp_path: Path) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table, player, _ = await two_humans(env)
            reply = await say(env, player, "settings notify", mode="dm")
            assert "direct message" in reply.content
            env.clock.advance(24 * HOUR)
            assert await env.bot.scheduler.tick() == 1
            [reminder] = [m for m in env.double.messages(table.id) if not m.attachments]
            assert reminder.pinged_user_ids() == [] and f"<@{player.id}>" in reminder.content
            [dm] = direct_messages(env, player)
            assert f"<#{table.id}>" in dm.content and "<t:" in dm.content
            assert reminders_to(env, table, player) == []

    run(body)


def test_quiet_hours_hold_back_the_ping_and_the_direct_message(tmp_path: Path) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table, player, _ = await two_humans(env)
            await say(env, player, "settings notify", mode="both")
            due = int(env.clock()) + 24 * HOUR
            hour = datetime.fromtimestamp(due, UTC).hour
            reply = await say(
                env, player, "settings quiet", time_zone="UTC", start=hour, end=(hour + 2) % 24
            )
            assert "UTC" in reply.content
            env.clock.advance(24 * HOUR)
            assert await env.bot.scheduler.tick() == 1
            [reminder] = [m for m in env.double.messages(table.id) if not m.attachments]
            assert reminder.pinged_user_ids() == []  # the thread message, without the ping
            assert direct_messages(env, player) == []

    run(body)


def test_time_zones_are_validated_suggested_exported_and_deleted(tmp_path: Path) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            bad = await say(env, HOST, "settings quiet", time_zone="Mars/Olympus", start=22, end=7)
            assert "not a time zone" in bad.content
            found = await env.double.autocomplete(
                HOST,
                CHANNEL,
                "settings quiet",
                {"time_zone": "paris"},
                focused="time_zone",
                timeout=TIMEOUT,
            )
            assert [c["value"] for c in found] == ["Europe/Paris"]
            await say(env, HOST, "settings quiet", time_zone="Europe/Paris", start=22, end=7)
            shown = await say(env, HOST, "settings show")
            assert "22:00 to 7:00 (Europe/Paris)" in shown.content
            exported = await say(env, HOST, "settings export")
            assert '"time_zone": "Europe/Paris"' in exported.content
            assert '"notify": "ping"' in exported.content
            assert "deleted" in (await say(env, HOST, "settings delete")).content
            assert "Nothing was stored" in (await say(env, HOST, "settings delete")).content
            assert "{}" in (await say(env, HOST, "settings export")).content

    run(body)


def test_quiet_hours_wrap_past_midnight_in_the_players_zone() -> None:
    night = UserSettings(1, "both", "Asia/Tokyo", 22, 7)
    at = [int(datetime(2026, 6, 1, h, 0, tzinfo=UTC).timestamp()) for h in range(24)]
    quiet_utc_hours = [h for h in range(24) if is_quiet(night, at[h])]
    assert quiet_utc_hours == [13, 14, 15, 16, 17, 18, 19, 20, 21]  # 22:00-07:00 in Tokyo
    assert delivery(night, at[12]).dm and delivery(night, at[12]).ping
    assert not delivery(night, at[13]).dm
    assert not is_quiet(UserSettings(1), at[0])
    assert delivery(UserSettings(1, "none"), at[0]) == delivery(night, at[13])


def test_the_turn_message_respects_the_next_players_choice(tmp_path: Path) -> None:
    """The next player chose direct messages: the board is posted without a ping, a DM says so."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table, player, other = await two_humans(env)
            await say(env, other, "settings notify", mode="dm")
            await finish_turn(env, player, table)
            turn = env.turn_messages(table.id)[-1]
            posted = as_posted(env.double, turn)  # its words, before they became its card
            assert f"<@{other.id}>" in posted.content and posted.pinged_user_ids() == []
            assert f"<@{other.id}>" in turn.text_displays()[0] and turn.pinged_user_ids() == []
            [dm] = direct_messages(env, other)
            assert dm.content.startswith(f"It is your turn in <#{table.id}>.")
            assert direct_messages(env, player) == []

    run(body)


def test_vacation_dates_out_of_range_or_with_more_text_get_the_date_refusals(
    tmp_path: Path,
) -> None:
    """Year 9999, year 1, 30 February, a date with more text: each gets its refusal in words,
    never "something went wrong", nothing logged, and no vacation starts."""
    cases = {
        "9999-12-31": "at most 30 days",
        "0001-01-01": "already ended",
        "2027-02-30": "YYYY-MM-DD",
        "2027-01-20xyz": "YYYY-MM-DD",
        "20270120": "YYYY-MM-DD",
    }

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            for until, words in cases.items():
                reply = await say(env, HOST, "settings vacation", until=until)
                assert words in reply.content, (until, reply.content)
            shown = await say(env, HOST, "settings show")
            assert "Vacation: none" in shown.content

    run(body)
