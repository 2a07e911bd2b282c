"""The player's own private panel and ``/play`` reply tell them what they just played in the
second person (issue 38 leftovers): the French panel said "Joué : a pris la flotte 5" (it,
"took fleet 5"), the Polish "Zagrano: bierze flotę 5". Now "Tu as pris la flotte 5", "Bierzesz
flotę 5", "Hai preso la flotta 5", "You took fleet 5", from the turn messages' own phrases."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import ui

from bot.catalog import default_catalog
from bot.service import Rooms
from bot.summary import Summary
from bot.views.panel import act
from engine import games
from engine.players import random_player

from .fakes import FakeBot, fake_interaction
from .support import two_player_game, with_service

LOCALES = {
    "en": discord.Locale.american_english,
    "fr": discord.Locale.french,
    "it": discord.Locale.italian,
    "pl": discord.Locale.polish,
}
#: How each language begins the panel's line after the first action of a Yamatai turn.
FLEET = {"en": "You took fleet ", "fr": "Tu as pris la flotte ", "it": "Hai preso la flotta "}
FLEET["pl"] = "Bierzesz flotę "
#: What a phrase of the player's own, said to them, begins with (the third person's first verb
#: put in the second person); a phrase of someone else is left as it is.
SECOND = {"en": "you ", "fr": "tu as ", "it": "hai "}
POLISH_SECOND = "sz"


def _words(card: Any) -> str:
    return "\n".join(i.content for i in card.walk_children() if isinstance(i, ui.TextDisplay))


@pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL
@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_the_panel_tells_the_player_their_move_in_the_second_person(
    tmp_path: Path, lang: str
) -> None:
    async def body(rooms: Rooms) -> None:
        created = await two_player_game(rooms)
        user = created.first.user_id or 0
        bot = FakeBot(rooms=rooms)
        state = await rooms.playing.panel(user, game_id=created.game_id, picture=False)
        click = fake_interaction(bot, user_id=user)
        click.locale = LOCALES[lang]
        click.edits = []

        async def edit(**kwargs: Any) -> None:
            click.edits.append(kwargs)

        click.edit_original_response = edit
        await act(bot, click, created.game_id, state.version, state.actions[0])  # type: ignore[arg-type]
        [shown] = click.edits
        said = _words(shown["view"])
        assert said.startswith(FLEET[lang]), said

    asyncio.run(with_service(tmp_path, body, fast=True))


def _said(lang: str, game: str, seed: int) -> list[tuple[str, str, str]]:
    """Every action of a random 2-player game: (action, said to its player, its turn phrase)."""
    summary = Summary(default_catalog(), lang, game)
    match = games.new(game, ["Ann", "Bo"], seed=seed)
    said = []
    while (seat := match.current_seat) is not None:
        action = random_player(match.view(seat), seat)
        events = match.play(action, seat=seat)
        names = ["Ann", "Bo"]
        third = summary.actions(events, names, played=[action])
        said.append((action, summary.yours(events, names, played=[action]), third))
    return said


@pytest.mark.parametrize("lang", sorted(LOCALES))
@pytest.mark.parametrize("game", ["namiji", "yamatai"])
def test_every_move_of_a_whole_game_is_said_to_its_player(lang: str, game: str) -> None:
    """Each action a player makes is said to them in the second person, each of its phrases
    that is theirs too ("tu as gardé…, as mis 1 bateau de côté"); only what someone else did
    (a card taken away for the neutral boat) stays in the third person."""
    catalog = default_catalog()
    tables = (catalog.text(k, lang) for k in ("summary.you_verbs", f"{game}.summary.you_verbs"))
    verbs = dict(entry.partition(">")[::2] for table in tables for entry in table.split())
    changed = {third for third, second in verbs.items() if second and second != third}
    yours = 0
    for action, said, third in _said(lang, game, seed=5):
        if third.split(" ")[0] not in verbs:  # someone else's doing: as the turn message says
            assert said == third, (action, said)
            continue
        yours += 1
        if lang == "pl":
            assert said.split(" ")[0].endswith(POLISH_SECOND), (action, said)
        else:
            assert said.startswith(SECOND[lang]), (action, said)
        for phrase in said.split(", ")[1:]:  # no verb of the player left in the third person
            assert phrase.split(" ")[0] not in changed, (action, said)
        assert " son " not in said and " sa " not in said, said  # French: "ton", not "son"
    assert yours > 20


def test_a_phrase_of_someone_else_stays_in_the_third_person() -> None:
    """Izanami pays another player: "Bo a touché 1 pièce" is not said to the one who played."""
    summary = Summary(default_catalog(), "fr", "yamatai")
    names = ["Ann", "Bo"]
    paid = [{"type": "ananda", "seat": 0, "to": 1, "coins": 1}]
    received = [{"type": "izanami", "seat": 1, "coins": 1}]
    assert summary.yours(paid + received, names) == (
        "tu as payé 1 pièce à Bo (Ananda), Bo a touché 1 pièce (Izanami)"
    )
    assert summary.yours(received, names) == "Bo a touché 1 pièce (Izanami)"
    assert summary.yours([], names, played=["end"]) == "tu as passé"


@pytest.mark.parametrize("lang", ["fr", "it", "pl"])
@pytest.mark.parametrize("game", ["namiji", "yamatai"])
def test_each_phrase_begun_by_a_players_verb_in_english_is_in_every_languages_table(
    game: str, lang: str
) -> None:
    """A phrase said in English as the player's doing ("took fleet 5") begins with a verb of
    the language's ``summary.you_verbs`` too, so the panel can say it to its player: a phrase
    added later without its verb in the table would be told in the third person."""
    tables = default_catalog().tables
    english, own = tables["en"], tables[lang]
    verbs = {
        entry.partition(">")[0]
        for key in ("summary.you_verbs", f"{game}.summary.you_verbs")
        for entry in own[key].split()
    }
    english_verbs = set(english[f"{game}.summary.you_verbs"].split())
    missing = {
        key: text
        for key, text in own.items()
        if key.startswith(f"{game}.summary.")
        and not key.endswith(".you_verbs")
        and english.get(key, english.get(key.rsplit("_", 1)[0] + "_other", "")).split(" ")[0]
        in english_verbs
        and text.split(" ")[0] not in verbs
    }
    assert missing == {}


@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_the_bots_own_phrases_of_a_players_doing_have_their_verb_in_the_table(lang: str) -> None:
    """ "passed" (and "ended the turn", for a turn ended with no phrase of its own) are the
    player's doing, said by the bot's catalog for every game: their first word is in the
    bot's ``summary.you_verbs``, so the panel says them in the second person."""
    catalog = default_catalog()
    verbs = {e.partition(">")[0] for e in catalog.text("summary.you_verbs", lang).split()}
    for key in ("summary.nothing", "summary.turn_ended"):
        if catalog.has(key):
            assert catalog.text(key, lang).split(" ")[0] in verbs, key
