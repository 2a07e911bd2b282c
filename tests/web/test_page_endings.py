"""How a game's page tells its end and its seats (play-through 46: Yamatai findings 4, 5, 16;
Namiji finding 10): a resignation is said with its winner, the last picture is the ended game,
the resigner is not a "computer", the deadline's colon is the language's, a turn that ended and
began the pontoon draft is one sentence, and a 404 speaks the reader's language."""

from __future__ import annotations

import asyncio
import re
from html import unescape
from pathlib import Path
from typing import Any

import pytest

from bot.service import build_rooms
from bot.web import links
from bot.web.demo import play_turn
from bot.web.limits import RateLimit
from bot.web.texts import web_catalog
from engine import games

from .support import SECRET, Drawer, played_game, serving, store_at
from .test_server import schedule

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

NB = "\N{NO-BREAK SPACE}"
STATUS = re.compile(r'<p class="status">(.*?)</p>', re.S)
PLAYERS = re.compile(r'<section class="players">.*?<tbody>(.*?)</tbody>', re.S)
ROW = re.compile(r"<tr data-seat=\"(\d)\".*?</tr>", re.S)
# shown at the page's (last) step: a tag from a step on (a resignation, D287) is too
SHOWN_TAG = re.compile(r'<span class="tag(?: win)?"(?: data-from="\d+")?>([^<]*)</span>')


def _status(html: str) -> str:
    return unescape(STATUS.findall(html)[0])


def _tags(html: str) -> dict[int, list[str]]:
    """The tags shown (not hidden) after each seat's name in the players' table."""
    rows = re.findall(r'<tr data-seat="(\d)"(.*?)</tr>', PLAYERS.findall(html)[0], re.S)
    return {int(seat): [unescape(t) for t in SHOWN_TAG.findall(row)] for seat, row in rows}


async def _resigned(tmp_path: Path, language: str) -> tuple[str, list[tuple[object, ...]]]:
    """A two-seat game (Ann, a computer) Ann resigned in round 1: its page, and what the
    drawer was asked for its last step's picture before and after the resignation."""
    async with store_at(tmp_path) as repo:
        computer = "Komputer 1 (normalny)" if language == "pl" else "Ordinateur 1 (normal)"
        game_id = await played_game(
            repo, "yamatai", ["Ann", computer], turns=3, users=[11, None], language=language
        )
        last = (await repo.load_game(game_id)).action_count
        drawer = Drawer()
        async with serving(repo, drawer) as (_, client):
            path = links.game_path(SECRET, game_id)
            before = await client.get(f"{path}/v/{last}.png")
            assert before.status == 200
            await build_rooms(repo, renderer=Drawer()).endings.resign(11, game_id=game_id)
            html = await (await client.get(path)).text()  # (reads the game again)
            after = await client.get(f"{path}/v/{last}.png")
            assert after.status == 200 and after.headers["ETag"] != before.headers["ETag"]
    return html, [more for _, _, more in drawer.calls]


@pytest.mark.parametrize(
    ("language", "status", "resigned"),
    [
        ("pl", "Zakończona: Ann poddaje grę, wygrywa Komputer 1 (normalny)", "rezygnacja"),
        ("fr", f"Terminée{NB}: Ann a abandonné, Ordinateur 1 (normal) a gagné", "a abandonné"),
    ],
)
def test_a_resigned_game_says_who_resigned_and_who_won(
    tmp_path: Path, language: str, status: str, resigned: str
) -> None:
    """QA (pl): after Hana resigned, the status said only "Zakończona", the players' table
    tagged her "komputer" (and the real computer too), and the last picture still had her to
    play ("TERAZ GRA"). The status says the resignation and the winner; the resigner is tagged
    as resigned, no seat as a computer (the computer's name says it); the last step's picture
    is drawn as a game the bot ended (``ended="resigned"``, as the Discord final board)."""
    html, calls = asyncio.run(_resigned(tmp_path, language))
    assert _status(html) == status
    tags = _tags(html)
    winner = {"pl": "zwycięzca", "fr": "vainqueur"}[language]
    assert tags == {0: [resigned], 1: [winner]}
    assert calls == [(language,), (language, "resigned")]


def test_a_game_ended_by_its_rules_names_its_winners(tmp_path: Path) -> None:
    """The status of a finished game says who won, as the ending card does ("Terminée"
    alone said nothing), with the winners' tag in the table; its last picture is the rules'
    end, not "Partie abandonnée" (V1: the stored reason, "boats", was read as the bot's)."""

    async def body() -> tuple[str, list[tuple[object, ...]]]:
        async with store_at(tmp_path) as repo:
            game_id = await played_game(repo, "yamatai", ["Ann", "Bo"], turns=None, language="fr")
            game = await repo.load_game(game_id)
            winners = ", ".join(s.player for s in game.seats if s.winner)
            assert winners
            ranks.extend((s.seat, s.final_rank) for s in game.seats)
            drawer = Drawer()
            async with serving(repo, drawer) as (_, client):
                path = links.game_path(SECRET, game_id)
                html = await (await client.get(path)).text()
                last = await client.get(f"{path}/v/{game.action_count}.png")
                assert last.status == 200
            assert _status(html) == f"Terminée{NB}: gagnée par {winners}"
            return html, [more for _, _, more in drawer.calls]

    ranks: list[tuple[int, int | None]] = []
    html, calls = asyncio.run(body())
    assert "ordinateur" not in PLAYERS.findall(html)[0]
    # drawn without an end of the bot's, ranked as the result was stored (D286)
    assert calls == [("fr", None, tuple(ranks))]


def test_the_french_deadline_has_a_space_before_its_colon(tmp_path: Path) -> None:
    """QA (fr): "Fin du tour: 17 janv." (the colon was the code's, not the catalog's)."""

    async def body() -> str:
        async with store_at(tmp_path) as repo:
            game_id = await played_game(repo, "yamatai", ["Ann", "Bo"], turns=1, language="fr")
            await schedule(repo, game_id, (await repo.load_game(game_id)).action_count)
            async with serving(repo) as (_, client):
                return await (await client.get(links.game_path(SECRET, game_id))).text()

    html = asyncio.run(body())
    (line,) = re.findall(r'<p class="deadline">(.*?)</p>', html)
    assert line.startswith(f"Fin du tour{NB}: <time ") and 'data-utc="1900000000"' in line


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("fr", f"{NB}; le choix des cartes Ponton commence au ponton 1 (4 cartes)"),
        ("pl", "; na pomoście 1 zaczyna się wybieranie kart (liczba kart: 4)"),
    ],
)
def test_an_end_that_begins_the_pontoon_draft_says_the_turn_ended(
    tmp_path: Path, language: str, words: str
) -> None:
    """QA (Namiji fr, pl): "**Hana** le choix des cartes Ponton commence au ponton 3": the
    draft's phrase, whose subject is not the player, followed the player's name. The entry
    says the turn ended (as the game says it: ``namiji.summary.end``), then the draft."""
    match = games.new("namiji", ["Ann", "Bo", "Cy"], 3)
    while len(match.log) < 45:
        play_turn(match, 3)
    replayed = games.new("namiji", ["Ann", "Bo", "Cy"], 3)
    drafts = [
        number
        for number, (seat, text) in enumerate(match.log, 1)
        if any(e["type"] == "draft" for e in replayed.play(text, seat=seat)) and text == "end"
    ]
    assert drafts  # seed 3 begins a draft with an `end`

    async def body() -> str:
        async with store_at(tmp_path) as repo:
            # the same game as ``match`` (seed 3), played as far: its log holds the entry
            game_id = await played_game(
                repo, "namiji", ["Ann", "Bo", "Cy"], turns=len(match.log), language=language
            )
            async with serving(repo) as (_, client):
                return await (await client.get(links.game_path(SECRET, game_id))).text()

    html = asyncio.run(body())
    entry = re.findall(rf'<li value="{drafts[0]}">(.*?)</li>', html, re.S)[0]
    said = unescape(entry.split("</b> ", 1)[1].split(' <span class="notation">')[0])
    assert said == web_catalog().text("namiji.summary.end", language) + words


@pytest.mark.parametrize(
    ("accept", "text"),
    [
        ("fr-FR,fr;q=0.9,en;q=0.8", "Page introuvable\n"),
        ("pl", "Nie znaleziono strony\n"),
        ("de-DE,it;q=0.5", "Pagina non trovata\n"),
        ("en-GB", "Not found\n"),
        (None, "Not found · Page introuvable · Pagina non trovata · Nie znaleziono strony\n"),
    ],
)
def test_the_404_speaks_the_readers_language(tmp_path: Path, accept: str | None, text: str) -> None:
    """QA: the 404 said "Not found" in English to everyone. It says it in the language the
    browser asks for (one of the four), else in all four; never anything about what exists."""

    async def body() -> None:
        async with store_at(tmp_path) as repo:
            game_id = await played_game(repo, "yamatai", ["Ann", "Bo"], turns=1, language="pl")
            headers = {} if accept is None else {"Accept-Language": accept}
            async with serving(repo) as (_, client):
                for path in (
                    f"/g/{game_id}/{links.token(SECRET, 'game', game_id + 1)}",
                    links.game_path(SECRET, game_id + 1),
                    "/nothing",
                ):
                    answer = await client.get(path, headers=headers)
                    assert answer.status == 404
                    assert await answer.text() == text

    asyncio.run(body())


def test_a_game_going_on_tags_the_seats_the_computer_plays_for_their_players(
    tmp_path: Path,
) -> None:
    """While a game goes on, a resigned player's seat says they resigned and the computer plays
    for them, an absent player's that the computer plays for them; a computer's own seat has
    no tag (its name says it: "computer" after a human's name read as "is a computer")."""

    async def body() -> str:
        async with store_at(tmp_path) as repo:
            game_id = await played_game(
                repo, "yamatai", ["Ann", "Bo", "Computer 1 (normal)"], turns=2, users=[11, 12, None]
            )
            await build_rooms(repo, renderer=Drawer()).endings.resign(11, game_id=game_id)
            assert await repo.set_stand_in(game_id, 1, "away", now=1_000)
            async with serving(repo) as (_, client):
                return await (await client.get(links.game_path(SECRET, game_id))).text()

    html = asyncio.run(body())
    assert _status(html).startswith("In progress")
    assert _tags(html) == {
        0: ["resigned: the computer plays for them"],
        1: ["the computer plays for them"],
        2: [],
    }


class _Broken(Drawer):
    """A drawer that fails (a picture that cannot be drawn: the server's 500)."""

    def __call__(self, view: dict[str, Any], events: Any, *more: Any) -> bytes:
        """Fail."""
        raise RuntimeError("the drawer broke")


def test_the_other_errors_speak_the_readers_language_too(tmp_path: Path) -> None:
    """QA: "Too many requests" and "Something went wrong" were English to everyone."""

    async def body() -> None:
        async with store_at(tmp_path) as repo:
            game_id = await played_game(repo, "yamatai", ["Ann", "Bo"], turns=1)
            path = links.game_path(SECRET, game_id)
            async with serving(repo, _Broken()) as (_, client):
                broken = await client.get(f"{path}/v/0.png", headers={"Accept-Language": "pl"})
                assert broken.status == 500
                assert await broken.text() == "Coś poszło nie tak: spróbuj ponownie później\n"
            async with serving(repo, limit=RateLimit(burst=1, per_second=0.001)) as (_, client):
                french = {"Accept-Language": "fr"}
                assert (await client.get(path, headers=french)).status == 200
                refused = await client.get(path, headers=french)
                assert refused.status == 429 and "Retry-After" in refused.headers
                assert await refused.text() == f"Trop de demandes{NB}: réessaie dans un instant\n"

    asyncio.run(body())
