"""``/profile``, ``/rating`` and ``/leaderboard`` answer with one card each (issue 37 item 4,
D203), on the Discord double: the player's text beside their avatar (a thumbnail), the rating
chart in a gallery, the leaderboard's lines within the limits of a card; the same facts as the
messages before, in the reader's language, private or public as asked."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from discord import ui

from bot.cards import MAX_CARD_COMPONENTS, MAX_CARD_TEXT
from bot.catalog import default_catalog
from bot.cogs import league
from bot.cogs.league import leaderboard_card
from bot.service.ratings import LeaderLine
from bot.store.models import RatingChange
from tests.discord_double import UserSpec
from tests.discord_double.records import (
    CONTAINER,
    MEDIA_GALLERY,
    SECTION,
    THUMBNAIL,
    MessageRecord,
)
from tests.e2e.harness import (
    CHANNEL,
    GUEST,
    GUILD,
    HOST,
    TIMEOUT,
    WATCHER,
    Env,
    has_png,
    himiko_env,
    run,
)

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

USERS = {HOST.id: HOST, GUEST.id: GUEST}
BOARD_PLAYERS = 200
FIRST_RATED = 330_000_000_000_000_000


def avatar_url(user: UserSpec) -> str:
    """The URL discord.py gives as ``display_avatar.url`` of a user without an avatar (the
    double gives none): Discord's default avatar for a user id."""
    return f"https://cdn.discordapp.com/embed/avatars/{(user.id >> 22) % 6}.png"


def card_text(message: MessageRecord) -> str:
    """Everything a card says (its text displays, in order)."""
    return "\n".join(message.text_displays())


def shown_person(message: MessageRecord) -> dict[str, Any]:
    """The thumbnail beside the one section of a card: whose avatar it shows."""
    (section,) = message.components_of_type(SECTION)
    accessory: dict[str, Any] = section["accessory"]
    assert accessory["type"] == THUMBNAIL
    return accessory


def assert_card(message: MessageRecord, *, ephemeral: bool) -> None:
    """One V2 card (a container, no content, no embed), private or public as asked."""
    assert message.is_v2 and message.content == "" and message.embeds == []
    assert [c["type"] for c in message.components] == [CONTAINER]
    assert message.ephemeral is ephemeral


def assert_avatar_of(message: MessageRecord, user: UserSpec) -> None:
    """The card's section shows ``user``'s avatar, named by their display name."""
    thumbnail = shown_person(message)
    assert thumbnail["media"]["url"] == avatar_url(user)
    assert thumbnail["description"] == user.global_name


async def ask(
    env: Env, user: UserSpec, command: str, options: dict[str, object], locale: str = "en-US"
) -> MessageRecord:
    """``/command`` in the channel by ``user`` reading Discord in ``locale``: its answer."""
    reader = replace(user, locale=locale)
    rec = await env.double.slash(reader, CHANNEL, command, options, locale=locale)
    return await rec.reply(TIMEOUT)


async def nim_to_the_end(env: Env) -> None:
    """A game of Nim of the host and the guest, played to its end (both rated)."""
    table = await env.start_game(HOST, [GUEST], game="nim")
    while (current := await env.current_user(table.id)) is not None:
        action = (await env.match(table.id)).legal_actions()[-1]
        await (await env.play(USERS[current], table.id, action)).reply(TIMEOUT)


def test_profile_is_a_card_beside_the_avatar_in_each_language(tmp_path: Path) -> None:
    """The record in words in a section, the player's avatar beside it; private unless
    ``public:true``; in English, French and Polish."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            await nim_to_the_end(env)
            guest = await ask(env, HOST, "profile", {"user": GUEST.id})
            assert_card(guest, ephemeral=True)
            assert_avatar_of(guest, GUEST)
            said = card_text(guest)
            assert said.startswith(f"**<@{GUEST.id}> on this server**")
            assert "Games: 1 finished, 0 abandoned, 0 resigned, 0 being played" in said
            assert "Median time to move: < 1 min" in said
            assert "Nim rating: **" in said and "(games: 1, #" in said
            assert guest.mentioned_user_ids() == [GUEST.id] and guest.pinged_user_ids() == []

            mine = await ask(env, HOST, "profile", {"public": True})
            assert_card(mine, ephemeral=False)
            assert_avatar_of(mine, HOST)
            assert "1 finished, 0 abandoned, 0 resigned" in card_text(mine)
            assert mine.pinged_user_ids() == []

            french = await ask(env, WATCHER, "profile", {}, locale="fr")
            assert_card(french, ephemeral=True)
            assert_avatar_of(french, WATCHER)
            said = card_text(french)
            assert "Parties finies\u00a0: 0" in said and "aucun coup encore" in said
            assert "Pas encore de cote" in said

            polish = await ask(env, GUEST, "profile", {}, locale="pl")
            assert_card(polish, ephemeral=True)
            assert_avatar_of(polish, GUEST)
            said = card_text(polish)
            assert f"**<@{GUEST.id}> na tym serwerze**" in said
            assert "Gry: ukończone 1, przerwane 0, poddane 0, w toku 0" in said
            assert "Ranking w Nim: **" in said

    run(body, timeout=120)


def test_rating_is_a_card_with_the_avatar_and_the_chart_in_a_gallery(tmp_path: Path) -> None:
    """The rating in words beside the avatar and its history chart in a gallery; a player
    without a rating gets a card in words; in English, French and Polish."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            await nim_to_the_end(env)
            mine = await ask(env, HOST, "rating", {"game": "nim"})
            assert_card(mine, ephemeral=True)
            assert_avatar_of(mine, HOST)
            said = card_text(mine)
            assert said.startswith("**Hana — Nim**")
            assert f"<@{HOST.id}>: Nim rating **" in said and "(games played: 1)" in said
            assert "The rating is cautious" in said and "sigma" not in said
            (chart,) = mine.gallery_attachments()
            assert mine.gallery_urls() == ["attachment://rating.png"] and has_png(mine)
            assert chart.data == mine.attachments[0].data
            assert len(mine.components_of_type(MEDIA_GALLERY)) == 1

            told = await ask(env, HOST, "rating", {"user": GUEST.id, "public": True})
            assert_card(told, ephemeral=False)
            assert_avatar_of(told, GUEST)
            assert f"<@{GUEST.id}>: Nim rating **" in card_text(told)
            assert told.pinged_user_ids() == [] and len(told.gallery_attachments()) == 1

            french = await ask(env, GUEST, "rating", {"game": "nim"}, locale="fr")
            assert_card(french, ephemeral=True)
            assert_avatar_of(french, GUEST)
            assert f"<@{GUEST.id}>\xa0: cote à Nim **" in card_text(french)
            assert len(french.gallery_attachments()) == 1

            polish = await ask(env, HOST, "rating", {"game": "yamatai"}, locale="pl")
            assert_card(polish, ephemeral=True)
            assert_avatar_of(polish, HOST)
            assert "nie ma jeszcze rankingu w Yamatai" in card_text(polish)
            assert polish.gallery_urls() == [] and polish.attachments == []

    run(body, timeout=120)


async def rate_many(env: Env, players: int) -> None:
    """``players`` players rated in Nim on the server (one game's rating changes, stored as the
    ratings service stores them), the first the best."""
    table = await env.start_game(HOST, [GUEST], game="nim")
    repo = env.bot.repo
    assert repo is not None
    game_id = (await repo.load_game_by_thread(table.id)).id
    changes = [
        RatingChange(game_id, FIRST_RATED + i, 25.0, 8.333, 40.0 - i / 10, 2.0)
        for i in range(players)
    ]
    assert await repo.record_ratings(game_id, GUILD, "nim", changes)


def test_a_leaderboard_of_200_players_is_one_card_within_the_limits(tmp_path: Path) -> None:
    """200 rated players, in Polish (the longest texts): one card, its ten best lines, within
    4,000 characters and 40 components (the double refuses a card beyond them); public when
    asked; an empty leaderboard is a card too (French)."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            await rate_many(env, BOARD_PLAYERS)
            polish = await ask(env, WATCHER, "leaderboard", {"game": "nim"}, locale="pl")
            assert_card(polish, ephemeral=True)
            said = card_text(polish)
            assert said.startswith("**Nim: najlepsi gracze**\n")
            assert said.count("(gry: 1)") == 10
            assert f"1. <@{FIRST_RATED}>: **" in said and f"10. <@{FIRST_RATED + 9}>: **" in said
            assert len(said) <= 4000 and polish.pinged_user_ids() == []

            posted = await ask(env, WATCHER, "leaderboard", {"public": True})
            assert_card(posted, ephemeral=False)
            assert card_text(posted).startswith("**Nim leaderboard**")
            assert card_text(posted).count("(games: 1)") == 10

            empty = await ask(env, WATCHER, "leaderboard", {"game": "yamatai"}, locale="fr")
            assert_card(empty, ephemeral=True)
            assert card_text(empty) == "Personne n'a encore de cote à Yamatai sur ce serveur."

    run(body, timeout=120)


def test_a_leaderboard_card_longer_than_a_card_is_cut_within_the_limits() -> None:
    """Lines beyond what a card holds (a long list in Polish) are cut at the end, marked, and
    the card stays within 4,000 characters and 40 components; the title and best lines stay."""
    catalog = default_catalog()

    def say(key: str, **params: Any) -> str:
        return catalog.text(key, "pl", **params)

    lines = [
        LeaderLine(place=i + 1, user_id=FIRST_RATED + i, rating=1000.0 - i, games=1000 + i)
        for i in range(BOARD_PLAYERS)
    ]
    shown = leaderboard_card(say, "Yamatai", lines, "pl")
    said = [item.content for item in shown.walk_children() if isinstance(item, ui.TextDisplay)]
    assert shown.content_length() <= MAX_CARD_TEXT and sum(map(len, said)) <= MAX_CARD_TEXT
    assert shown.total_children_count <= MAX_CARD_COMPONENTS
    assert said[0] == "**Yamatai: najlepsi gracze**"
    assert said[1].startswith(f"1. <@{FIRST_RATED}>: **1\xa0000,0** (gry: 1000)\n")
    assert said[1].endswith("…")


def test_a_rating_chart_that_fails_leaves_the_card_in_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The chart's renderer failing: the rating is still told beside the avatar, with no
    gallery and no attachment (a warning is logged, no error reaches the player)."""

    def broken(values: Any, **drawn: Any) -> bytes:
        raise OSError("the chart could not be drawn")

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            await nim_to_the_end(env)
            monkeypatch.setattr(league, "render_rating_chart", broken)
            told = await ask(env, GUEST, "rating", {"game": "nim"}, locale="pl")
            assert_card(told, ephemeral=True)
            assert_avatar_of(told, GUEST)
            assert f"<@{GUEST.id}>: ranking w Nim **" in card_text(told)
            assert told.gallery_urls() == [] and told.attachments == []

    run(body, timeout=120)
