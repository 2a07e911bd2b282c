"""A game's page as its reader reads it (issue 38 items 3, 8 and 9): the log and the replay say
each action in the page's language, its notation second and marked; the replay moves the
players' scores, turn and state with the board; a spectator is never spoken to as the player."""

from __future__ import annotations

import asyncio
import json
import re
from html import unescape
from pathlib import Path

import pytest

from bot.games import presentation
from bot.service.tables import step_of
from bot.web import links
from bot.web.demo import play_turn
from bot.web.games import shown_score
from bot.web.seats import seat_rows
from bot.web.texts import web_catalog
from bot.web.work import spectator_step
from engine import games

from .support import SECRET, played_game, serving, store_at

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

LANGUAGES = ("fr", "it", "pl")
LOG = re.compile(r'<ol reversed class="entries">(.*?)</ol>', re.S)
ENTRY = re.compile(r'<li value="(\d+)">(.*?)</li>', re.S)
STEPS = re.compile(r'<script type="application/json" id="steps">(.*?)</script>', re.S)
TAGS = re.compile(r"<[^>]+>")


async def _pages(tmp_path: Path, game_key: str, turns: int) -> dict[str, tuple[str, int]]:
    """The page of a game played ``turns`` turns by computers, per language (with its id)."""
    pages = {}
    async with store_at(tmp_path) as repo, serving(repo) as (_, client):
        for number, language in enumerate(LANGUAGES):
            game_id = await played_game(
                repo,
                game_key,
                ["Ann", "Bo", "Cy"],
                turns=turns,
                thread_id=900 + number,
                language=language,
            )
            answer = await client.get(links.game_path(SECRET, game_id))
            assert answer.status == 200
            pages[language] = (await answer.text(), game_id)
    return pages


def _log(html: str) -> dict[int, str]:
    """The log's entries by step, as HTML."""
    return {int(n): item for n, item in ENTRY.findall(LOG.findall(html)[0])}


def _steps(html: str) -> dict[str, object]:
    found: dict[str, object] = json.loads(STEPS.findall(html)[0])
    return found


def _match(game_key: str, turns: int) -> games.Match:
    """The game the store played (same players, seed and computer moves as ``played_game``)."""
    match = games.new(game_key, ["Ann", "Bo", "Cy"], 3)
    for _ in range(turns):
        if match.current_seat is None:
            break
        play_turn(match, 3)
    return match


@pytest.mark.parametrize("game_key", ["yamatai", "namiji"])
def test_the_log_says_each_action_in_words_with_its_notation_second(
    tmp_path: Path, game_key: str
) -> None:
    """QA: "build A4 (a standard building, tile face down)" and "end — a passé" on a French
    page. Each entry is the action in words, then its notation marked as such (no engine's
    English note); an action that only ended the turn says so (``web.turn_ended``)."""
    turns = 6 if game_key == "yamatai" else 10
    pages = asyncio.run(_pages(tmp_path, game_key, turns))
    catalog = web_catalog()
    match = _match(game_key, turns)
    ends = {n for n, (_, text) in enumerate(match.log, 1) if text == "end"}
    assert ends
    for language, (html, _) in pages.items():
        nothing = catalog.text("summary.nothing", language)
        ended = catalog.text("web.turn_ended", language)
        marked = catalog.text("web.notation", language, notation="\0").split("\0")[0]
        entries = _log(html)
        assert len(entries) == len(match.log)
        for number, item in entries.items():
            words = TAGS.sub("", item.split("</b>", 1)[1].split('<span class="notation">')[0])
            notation = re.findall(r"<code>(.*?)</code>", item)
            assert words.strip() and not words.strip().startswith("<code>"), (language, item)
            assert f'<span class="notation">({marked}<code>' in item, (language, item)
            assert len(notation) == 1 and "(" not in notation[0], (language, item)
            assert unescape(notation[0]).split()[0] == match.log[number - 1][1].split()[0]
            assert nothing not in unescape(words), (language, item)
            if number in ends:
                assert unescape(words).strip() in (
                    ended,
                    catalog.text("namiji.summary.end", language),
                ), (language, item)
        for step in _steps(html)["steps"][1:]:  # type: ignore[index]
            text = step["text"]
            assert nothing not in text and f"({marked}" in text, (language, text)
            assert not re.search(r"\([^)]*\b(?:face down|on top|kept)\b", text), text


def test_the_replay_carries_the_players_as_they_were_at_each_step(tmp_path: Path) -> None:
    """QA: at step 0 the scores and each player's state showed the end of the game. Each step
    sends the scores, the seat to play and each seat's state of its own view."""
    turns = 7
    pages = asyncio.run(_pages(tmp_path, "yamatai", turns))
    html, _ = pages["pl"]
    sent = _steps(html)
    match = _match("yamatai", turns)
    steps = sent["steps"]
    assert isinstance(steps, list) and len(steps) == len(match.log) + 1
    replayed = games.new("yamatai", ["Ann", "Bo", "Cy"], 3)
    catalog = web_catalog()
    differ = False
    for number, step in enumerate(steps):
        if number:
            replayed.play(match.log[number - 1][1], seat=match.log[number - 1][0])
        view = replayed.view(None)
        scores = [shown_score("yamatai", p, "pl")[0] for p in view["players"]]
        assert step["scores"] == scores, number
        differ = differ or scores != steps[-1]["scores"]
        assert step["turn"] == replayed.current_seat
        for seat in range(3):
            rows = [sent["rows"][r] for r in sent["blocks"][step["seats"][seat]]]  # type: ignore[index]
            expected = seat_rows("yamatai", view, seat, catalog, "pl")
            assert rows == [[label, list(values)] for label, values in expected], (number, seat)
        key = step_of(replayed)
        assert key is not None
        turn = catalog.text("web.to_play_step", "pl", step=catalog.text(spectator_step(key), "pl"))
        assert sent["turns"][step["turnText"]] == turn  # type: ignore[index]
    assert differ  # the scores moved during the game: step 0 is not the end's


def test_every_step_of_the_panel_has_a_spectators_wording() -> None:
    """A spectator reads the step to play in the third person: every ``<game>.step.<step>``
    (which speaks to the player, in the panel) has a ``web.<game>.step.<step>`` in all four
    languages, and in French, Italian and Polish it is not the player's wording."""
    catalog = web_catalog()
    for game_key in ("yamatai", "namiji"):
        keys = [k for k in catalog.tables["en"] if k.startswith(f"{game_key}.step.")]
        assert len(keys) >= 9, keys
        assert presentation(game_key).key == game_key
        for key in keys:
            for language in ("en", *LANGUAGES):
                spectator = catalog.tables[language].get(spectator_step(key))
                assert spectator, (language, key)
                if language != "en":
                    assert spectator != catalog.tables[language][key], (language, key)


# the second person a page may not use but in its note to the reader ("You see what a
# spectator sees") and in the cards' own rules texts (the pictures')
YOU = {
    "fr": re.compile(r"\b(?:tu|toi|ton|ta|tes|te|choisis|prends|garde|termine)\b", re.I),
    "pl": re.compile(r"\b(?:twoj\w*|twój|tw\w*|ci|ciebie|wybierz|zakończ|popłyń)\b", re.I),
    "it": re.compile(r"\b(?:tu|tua|tuo|tuoi|tue|ti|scegli|prendi|termina)\b", re.I),
}


@pytest.mark.parametrize("game_key", ["yamatai", "namiji"])
def test_a_spectator_page_names_the_step_in_the_third_person(tmp_path: Path, game_key: str) -> None:
    """QA: "twoja łódź", "choisis une tuile" on spectator pages. The player to act is tagged
    with the spectator's wording of their step (``web.<game>.step.<step>``), and no turn
    text of the page or its replay speaks to the reader as that player."""
    turns = 4
    pages = asyncio.run(_pages(tmp_path, game_key, turns))
    catalog = web_catalog()
    match = _match(game_key, turns)
    key = step_of(match)
    assert key is not None
    for language, (html, _) in pages.items():
        expected = catalog.text(
            "web.to_play_step", language, step=catalog.text(spectator_step(key), language)
        )
        player = catalog.text("web.to_play_step", language, step=catalog.text(key, language))
        shown = re.findall(r'<span class="tag turn">(.*?)</span>', html)
        assert [unescape(s) for s in shown] == [expected], (language, shown)
        turns_sent = _steps(html)["turns"]
        assert isinstance(turns_sent, list) and turns_sent
        for text in [unescape(s) for s in shown] + turns_sent:
            assert text != player
            assert not YOU[language].search(text), (language, text)
