"""What the bot says about itself matches what happens (issue 38 play-through 46, findings 14,
17, 24), on the Discord double: ``/help`` on ``/resign`` says what the resign prompt says, a
language is named in the reader's language inside a sentence, and the closed lobby of a game
with computers lists every seat."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from bot.catalog import default_catalog
from tests.e2e.harness import CHANNEL, WATCHER, TIMEOUT, himiko_env, run

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

#: What the resign prompt (``resign.confirm``) says happens with one other player left.
ONE_LEFT_WINS = {"fr": "il gagne aussitôt", "pl": "od razu wygrywa"}


@pytest.mark.parametrize("locale", ["fr", "pl"])
def test_help_on_resign_says_what_the_resign_prompt_says(tmp_path: Path, locale: str) -> None:
    """QA: "`/resign` abandonner une partie (l'ordinateur continue à ta place)", while with one
    other player left they win at once, as the prompt and the ending card say."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            user = replace(WATCHER, locale=locale)
            said = await env.double.slash(user, CHANNEL, "help", locale=locale)
            text = (await said.reply(TIMEOUT)).text()
            [entry] = [part for part in text.split(" · ") if part.startswith("`/resign`")]
            prompt = default_catalog().text("resign.confirm", locale)
            assert ONE_LEFT_WINS[locale] in prompt  # the prompt's own words
            assert ONE_LEFT_WINS[locale] in entry, entry
            last = {"fr": "dernière place", "pl": "ostatnie miejsce"}[locale]
            assert last in prompt and last in entry, entry

    run(body)
