"""The web page's "+?" note tells the truth after a game the bot stopped (V1 finding 15, issue
38): a resigned Yamatai game still said the face-down tiles' PP are "counted at the end"
("liczone na końcu", "comptés à la fin"), an end that never came; the note now says they were
never counted because the game stopped before its end. A game under way keeps its note."""

from __future__ import annotations

import asyncio
import re
from html import unescape
from pathlib import Path

import pytest

from bot.service import build_rooms
from bot.web import links

from .support import SECRET, Drawer, played_game, serving, store_at

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

# shown at the page's (last) step: the stopped game's note from it on, not those before (D287)
NOTE = re.compile(r'<p class="note"(?: data-from="\d+")?>(.*?)</p>', re.S)
#: The note under way and after the resignation, per language.
SAID = {
    "fr": ("comptés à la fin", "jamais comptés car la partie s'est arrêtée avant sa fin"),
    "pl": ("liczone na końcu", "nie zostały policzone, bo gra skończyła się przed czasem"),
    "it": ("contati alla fine", "mai contati perché la partita si è fermata prima della fine"),
    "en": ("counted at the end", "never counted because the game stopped before its end"),
}


def _notes(html: str) -> list[str]:
    """The page's notes on what "+?" stands for."""
    return [unescape(n) for n in NOTE.findall(html) if n.startswith("+?")]


async def _pages(tmp_path: Path, language: str) -> tuple[list[str], list[str]]:
    """The notes of a Yamatai game's page (Ann against a computer, played until someone holds
    a face-down tile) before and after Ann resigns."""
    async with store_at(tmp_path) as repo:
        game_id = await played_game(
            repo, "yamatai", ["Ann", "Bo"], turns=14, users=[11, None], language=language
        )
        async with serving(repo, Drawer()) as (_, client):
            path = links.game_path(SECRET, game_id)
            before = _notes(await (await client.get(path)).text())
            await build_rooms(repo, renderer=Drawer()).endings.resign(11, game_id=game_id)
            after = _notes(await (await client.get(path)).text())
    return before, after


@pytest.mark.parametrize("language", sorted(SAID))
def test_the_hidden_score_note_says_what_is_true_after_a_resignation(
    tmp_path: Path, language: str
) -> None:
    under_way, stopped = SAID[language]
    before, after = asyncio.run(_pages(tmp_path, language))
    assert any(under_way in n for n in before), before
    assert len(after) == 1 and stopped in after[0] and under_way not in after[0], after
