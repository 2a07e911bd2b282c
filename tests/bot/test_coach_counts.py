"""The coach's answer when nothing was a turning point counts the decisions it looked at in the
reader's language (issue 38 leftovers): "Aucune de tes 1 dernières décisions" / "None of your
last 1 decisions" for one, "None of your last 0 decisions" for none. One decision is said in the
singular, several by the language's plural forms, none by a sentence of its own."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.catalog import default_catalog
from bot.service.coach import TurningPoints
from bot.views.coach import show_turning_points

from .fakes import FakeBot, fake_interaction

LOCALES = {
    "en": discord.Locale.american_english,
    "fr": discord.Locale.french,
    "it": discord.Locale.italian,
    "pl": discord.Locale.polish,
}
#: What each language says for 0, 1, 2 and 5 decisions looked at.
SAID = {
    "en": (
        "You have made no decision in this game yet: there is nothing to look at.",
        "Your last decision did not lose you much: the strong computer player agrees with it.",
        "None of your last 2 decisions lost you much: the strong computer player agrees with them.",
        "None of your last 5 decisions lost you much: the strong computer player agrees with them.",
    ),
    "fr": (
        "Tu n'as pris aucune décision dans cette partie\u00a0: il n'y a rien à examiner.",
        "Ta dernière décision ne t'a pas coûté grand-chose\u00a0: le joueur ordinateur fort"
        " est d'accord avec elle.",
        "Aucune de tes 2 dernières décisions ne t'a coûté grand-chose\u00a0: le joueur"
        " ordinateur fort est d'accord avec elles.",
        "Aucune de tes 5 dernières décisions ne t'a coûté grand-chose\u00a0: le joueur"
        " ordinateur fort est d'accord avec elles.",
    ),
    "it": (
        "Non hai ancora preso nessuna decisione in questa partita: non c'è niente da esaminare.",
        "La tua ultima decisione non ti è costata molto: il giocatore computer forte è d'accordo.",
        "Nessuna delle tue ultime 2 decisioni ti è costata molto: il giocatore computer forte è"
        " d'accordo.",
        "Nessuna delle tue ultime 5 decisioni ti è costata molto: il giocatore computer forte è"
        " d'accordo.",
    ),
    "pl": (
        "W tej grze nie ma jeszcze żadnej twojej decyzji: nie ma czego sprawdzać.",
        "Twoja ostatnia decyzja nie kosztowała cię wiele: silny gracz komputerowy się z nią"
        " zgadza.",
        "Żadna z twoich 2 ostatnich decyzji nie kosztowała cię wiele: silny gracz komputerowy"
        " się z nimi zgadza.",
        "Żadna z twoich 5 ostatnich decyzji nie kosztowała cię wiele: silny gracz komputerowy"
        " się z nimi zgadza.",
    ),
}


def _answer(lang: str, looked_at: int) -> str:
    """The private answer of the turning-points button for a game with none."""

    async def turning_points(user_id: int, game_id: int) -> TurningPoints:
        return TurningPoints(game="yamatai", looked_at=looked_at, points=())

    coach = SimpleNamespace(turning_points=turning_points)
    rooms = SimpleNamespace(coach=coach, desk=SimpleNamespace(repo=None))  # only the coach is asked
    bot: Any = FakeBot(rooms=rooms)
    click = fake_interaction(bot)
    click.locale = LOCALES[lang]
    asyncio.run(show_turning_points(bot, click, 7))
    [sent] = click.followup.sent
    assert sent["ephemeral"]
    return str(sent["content"])


@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_no_turning_points_counts_the_decisions_in_words(lang: str) -> None:
    assert tuple(_answer(lang, n) for n in (0, 1, 2, 5)) == SAID[lang]


@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_the_turning_points_title_says_one_decision_in_the_singular(lang: str) -> None:
    catalog = default_catalog()
    one, five = (catalog.text("coach.turning_points_title", lang, count=n) for n in (1, 5))
    assert "1" not in one and "5" in five, (one, five)
