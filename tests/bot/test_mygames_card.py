"""``/mygames`` is one card (issue 37 item 4, D202): a section per game, its line beside a button
that opens the player's panel of that game in one tap (refused, in words, to a player whose turn
it is not or who has no seat); thirty games show the first ones and how many more, within a
card's limits, in Polish too. On the Discord double, which judges each card as Discord would."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.cards import MAX_CARD_COMPONENTS, MAX_CARD_TEXT
from bot.cogs.info import MY_GAMES_SHOWN, mygames_card
from bot.service import GameListing
from tests.discord_double.records import BUTTON, SECTION, MessageRecord
from tests.discord_double.validate import check_v2_components, walk_v2
from tests.e2e.harness import CHANNEL, GUEST, HOST, TIMEOUT, WATCHER, Env, himiko_env, run
from tests.e2e.test_play import assert_clean_error, two_humans
from tests.e2e.test_recovery import finish_turn

from .fakes import FakeBot, fake_interaction

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL


def sections(card: MessageRecord) -> list[tuple[str, dict[str, Any]]]:
    """Each section of a card: its text and its accessory."""
    return [
        (str(s["components"][0]["content"]), s["accessory"])
        for s in card.components_of_type(SECTION)
    ]


async def mygames(env: Env, user: Any) -> MessageRecord:
    """``/mygames`` in the channel: the reply."""
    return await (await env.double.slash(user, CHANNEL, "mygames")).reply(TIMEOUT)


def test_each_game_has_a_button_that_opens_its_panel_in_one_tap(tmp_path: Path) -> None:
    """Two games of the host: the one waiting on the host first, its button "Your turn" opens
    the host's panel of that game (a card whose choices play in it); the other's button opens
    nothing but says whose turn it is; a member without a seat is told so."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            first, _, _ = await two_humans(env)
            second, _, _ = await two_humans(env)
            tables = {t.id: t for t in (first, second)}
            turns = {t: await env.current_user(t) == HOST.id for t in tables}
            if all(turns.values()) or not any(turns.values()):  # one game must wait on the guest
                [table, *_] = tables.values()
                await finish_turn(env, HOST if turns[table.id] else GUEST, table)
                turns = {t: await env.current_user(t) == HOST.id for t in tables}
            listed = await mygames(env, HOST)
            assert listed.is_v2 and listed.ephemeral and listed.pinged_user_ids() == []
            shown = sections(listed)
            assert len(shown) == 2 and listed.text_displays()[0].startswith("**Your active games")
            ids = {t: (await env.game(t)).id for t in tables}
            mine = next(t for t, my_turn in turns.items() if my_turn)
            theirs = next(t for t in tables if t != mine)
            (line, button), (other_line, other_button) = shown  # waiting on the host first
            assert f"<#{mine}>" in line and "**your turn**" in line and "deadline <t:" in line
            assert f"<#{theirs}>" in other_line and f"<@{GUEST.id}>" in other_line
            assert button["type"] == BUTTON and button["label"] == "Your turn"
            assert button["custom_id"] == f"himiko:mygame:{ids[mine]}"
            assert other_button["label"] == "Open"

            click = await env.double.click(HOST, CHANNEL, listed.id, button["custom_id"])
            panel = await click.reply(TIMEOUT)
            assert panel.is_v2 and panel.ephemeral and "Your turn" in panel.text()
            assert panel.gallery_attachments() and panel.id != listed.id
            menus = [i for i in panel.custom_ids() if i.startswith("himiko:panel:act:")]
            assert menus and all(f":{ids[mine]}:" in i for i in menus), panel.custom_ids()
            value = (panel.component(menus[0]) or {})["options"][0]["value"]
            version = await env.version(mine)
            chosen = await env.double.click(HOST, CHANNEL, panel.id, menus[0], [value])
            await chosen.wait_event("edit_original", TIMEOUT)
            assert await env.version(mine) == version + 1  # played from the panel it opened
            assert env.double.message(listed.id).custom_ids() == listed.custom_ids()

            refused = await env.double.click(HOST, CHANNEL, listed.id, other_button["custom_id"])
            answer = await refused.reply(TIMEOUT)
            assert_clean_error(answer)
            assert "It is not your turn" in answer.content and answer.custom_ids() == []
            stranger = await env.double.click(WATCHER, CHANNEL, listed.id, button["custom_id"])
            answer = await stranger.reply(TIMEOUT)
            assert_clean_error(answer)
            assert "You are not playing in this game" in answer.content

    run(body, timeout=120)


def test_thirty_games_show_the_first_ones_and_how_many_more(tmp_path: Path) -> None:
    """Thirty games (the reading room answers thirty): the card Discord accepts holds the
    first ones, each with its button, and says how many more there are."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table, player, _ = await two_humans(env)
            [real] = await env.bot.rooms.reading.my_games(player.id, guild_id=None)
            many = [replace(real, game_id=real.game_id + n) for n in range(30)]

            async def thirty(*_: object, **__: object) -> list[GameListing]:
                return many

            env.bot.rooms.reading.my_games = thirty  # type: ignore[method-assign]
            listed = await mygames(env, player)
            assert listed.is_v2 and len(sections(listed)) == MY_GAMES_SHOWN
            assert listed.text_displays()[-1] == f"…and {30 - MY_GAMES_SHOWN} more."
            shown = [accessory["custom_id"] for _, accessory in sections(listed)]
            assert shown == [f"himiko:mygame:{g.game_id}" for g in many[:MY_GAMES_SHOWN]]
            click = await env.double.click(player, CHANNEL, listed.id, shown[0])
            assert "Your turn" in (await click.reply(TIMEOUT)).text()  # the first is the real one
            assert table.id == real.thread_id

    run(body, timeout=60)


@pytest.mark.parametrize("count", [1, MY_GAMES_SHOWN, MY_GAMES_SHOWN + 1, 30])
def test_the_card_keeps_within_the_limits_in_polish(count: int) -> None:
    """The longest lines there are (a time bank, a deadline, the computer playing for the
    reader on vacation) in Polish: 40 components and 4,000 characters at most."""
    interaction = fake_interaction(FakeBot())
    interaction.locale = discord.Locale.polish
    found = [
        GameListing(
            game_id=(1 << 63) - 1 - n,
            thread_id=(1 << 64) - 1 - n,
            game_key="yamatai" if n % 2 else "namiji",
            my_turn=n < 3,
            current_user_id=None if n < 3 else (1 << 64) - 1,
            deadline=4_102_444_800,
            stand_in="vacation",
            bank=86_400 * 9 + 3_600 * 23,
        )
        for n in range(count)
    ]
    view = mygames_card(FakeBot(), interaction, found)  # type: ignore[arg-type]
    components = view.to_components()  # type: ignore[no-untyped-call]
    check_v2_components(components)
    assert sum(1 for _ in walk_v2(components)) <= MAX_CARD_COMPONENTS
    texts = [c["content"] for _, c in walk_v2(components) if c["type"] == 10]
    assert sum(map(len, texts)) <= MAX_CARD_TEXT
    assert texts[0].startswith("**Twoje aktywne gry")
    listed = min(count, MY_GAMES_SHOWN)
    assert sum(1 for _, c in walk_v2(components) if c["type"] == SECTION) == listed
    assert ("jeszcze" in texts[-1]) == (count > MY_GAMES_SHOWN), texts[-1]
    labels = [c["label"] for _, c in walk_v2(components) if c["type"] == BUTTON]
    assert labels == ["Twoja tura"] * min(3, listed) + ["Otwórz"] * (listed - min(3, listed))
