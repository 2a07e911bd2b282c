"""``/rules`` on a Namiji card as a French or Polish reader reads it (issue 38, play-through 46
Namiji items 29 and 9): a card's code came between its name and its text, unmarked ("• **Zręczny
rybak**: R01: na koniec…", "U5: pułapka: …"), its kind was the topic's title with its capital
mid-sentence ("(Karty ulepszeń)"), and a meal was the engine's French "makis" in Polish. Now the
text, then the code marked as the notation; the kind of one card in lower case; the meal in
the reader's words."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.e2e.harness import CHANNEL, TIMEOUT, WATCHER, Env, himiko_env, run

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

#: A card line's code as it was: right after the name, before the text.
CODE_FIRST = re.compile(r"\*\*[^*]+\*\*\s?:\s?`?[MRU]\d{1,2}\b")


async def rules(env: Env, lang: str, **options: str) -> str:
    rec = await env.double.slash(
        WATCHER, CHANNEL, "rules", {"game": "namiji", **options}, locale=lang
    )
    reply = await rec.reply(TIMEOUT)
    assert reply.ephemeral
    return reply.content


@pytest.mark.parametrize(
    ("lang", "card", "heading", "marked"),
    [
        ("pl", "U5", "**Szczęśliwa pułapka** (karta ulepszenia)\n", "(notacja: `U5`)"),
        ("fr", "U5", "**Nasse chanceuse** (carte Amélioration)\n", "(notation\u00a0: `U5`)"),
        ("pl", "M6", "**maki** (karta posiłku)\n", "(notacja: `M6`)"),
        ("fr", "M6", "**makis** (carte Repas)\n", "(notation\u00a0: `M6`)"),
    ],
)
def test_a_card_says_its_kind_in_lower_case_and_its_code_last_marked(
    tmp_path: Path, lang: str, card: str, heading: str, marked: str
) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            said = await rules(env, lang, card=card)
            assert said.startswith(heading), said
            text = said.removeprefix(heading)
            assert text.endswith(marked) and not text.startswith(card), said

    run(body)


@pytest.mark.parametrize("lang", ["pl", "fr"])
@pytest.mark.parametrize("topic", ["rock_cards", "upgrades", "meals"])
def test_a_card_topic_lists_each_card_with_its_text_first(
    tmp_path: Path, lang: str, topic: str
) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            said = await rules(env, lang, topic=topic)
            lines = [line for line in said.splitlines() if line.startswith("• ")]
            assert len(lines) >= 8, said
            for line in lines:
                assert not CODE_FIRST.search(line), line
                assert re.search(r"\((notation|notacja)\W+`[MRU]\d{1,2}`\)$", line), line
            if topic == "meals":
                assert ("makis" in said) == (lang == "fr"), said

    run(body)
