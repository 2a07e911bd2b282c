"""The ``;`` preview tells the player what their sequence would do in the second person, as the
panel and the ``/play`` reply do (D244): it said "Aperçu (rien n'est encore enregistré) : a pris
la flotte 1, …" (French "took fleet 1" with nobody doing it); now "… : tu as pris la flotte 1",
"You took fleet 1", "Hai preso la flotta 1", Polish "Bierzesz flotę 1"."""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace

import discord
import pytest

from bot.cogs.play import preview_embed
from bot.service import Rooms
from engine import games

from .support import two_player_game, with_service

LOCALES = {
    "en": discord.Locale.american_english,
    "fr": discord.Locale.french,
    "it": discord.Locale.italian,
    "pl": discord.Locale.polish,
}
#: How the preview's summary begins in each language, after its title.
SAID = {
    "en": ": you took fleet ",
    "fr": "\u00a0: tu as pris la flotte ",
    "it": ": hai preso la flotta ",
    "pl": ": bierzesz flotę ",
}


@pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL
@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_the_preview_tells_the_player_their_sequence_in_the_second_person(
    tmp_path: Path, lang: str
) -> None:
    async def body(rooms: Rooms) -> None:
        created = await two_player_game(rooms)
        game = await rooms.desk.repo.load_game(created.game_id)
        match = games.from_json(game.snapshot)
        seat = match.current_seat
        assert seat is not None
        fleet = match.legal_actions()[0]
        match.play(fleet, seat=seat)
        text = f"{fleet}; {match.legal_actions()[0]}"
        user = game.user_of(seat) or 0
        preview = await rooms.playing.preview(user, text, thread_id=500, typed=True)
        interaction = SimpleNamespace(locale=LOCALES[lang])
        said = preview_embed(interaction, preview).description or ""  # type: ignore[arg-type]
        first = said.split("\n")[0]
        assert SAID[lang] in first, first
        assert (await rooms.desk.repo.load_game(created.game_id)).version == game.version

    asyncio.run(with_service(tmp_path, body, fast=True))
