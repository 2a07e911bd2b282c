"""The web server over a real store (SQLite and PostgreSQL): pages, pictures, safety."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import pytest

from bot.store import GameRepository
from bot.web import links
from bot.web.limits import RateLimit
from bot.web.server import CSP
from engine import games

from .support import PNG, SECRET, Drawer, play_turns, played_game, serving, store_at

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

# the plain 404 to a client that names no language: in the four (test_page_endings)
NOT_FOUND = "Not found · Page introuvable · Pagina non trovata · Nie znaleziono strony\n"
EVIL = ("<script>alert(1)</script>", '"><img src=x onerror=alert(2)>')


def test_a_game_page_shows_players_replay_and_log(tmp_path: Path) -> None:
    async def body() -> None:
        async with store_at(tmp_path) as repo:
            game_id = await played_game(repo, "yamatai", ["Ann", "Bo"], turns=3)
            game = await repo.load_game(game_id)
            async with serving(repo) as (_, client):
                answer = await client.get(links.game_path(SECRET, game_id))
                assert answer.status == 200
                assert answer.headers["Content-Security-Policy"] == CSP
                html = await answer.text()
                assert "Yamatai — game" in html and "Ann" in html and "Bo" in html
                steps = json.loads(re.findall(r'id="steps">(.*?)</script>', html)[0])["steps"]
                assert len(steps) == game.action_count + 1  # the start, then every action
                assert steps[0]["text"] == "Before the first action"
                assert steps[-1]["text"].startswith(("Ann: ", "Bo: "))
                assert f'max="{game.action_count}"' in html
                assert html.count("<li value=") == game.action_count  # the log

    asyncio.run(body())


def test_the_page_speaks_the_games_language(tmp_path: Path) -> None:
    async def body() -> None:
        async with store_at(tmp_path) as repo:
            game_id = await played_game(repo, "namiji", ["Ann", "Bo"], turns=2, language="fr")
            async with serving(repo) as (_, client):
                html = await (await client.get(links.game_path(SECRET, game_id))).text()
                assert '<html lang="fr">' in html
                assert "Namiji — partie" in html and "Historique" in html

    asyncio.run(body())


def test_a_wrong_token_or_unknown_game_is_the_same_plain_404(tmp_path: Path) -> None:
    async def body() -> None:
        async with store_at(tmp_path) as repo:
            game_id = await played_game(repo, "yamatai", ["Ann", "Bo"], turns=1)
            other = links.token(SECRET, "game", game_id + 1)
            league = links.token(SECRET, "league", game_id)
            async with serving(repo) as (_, client):
                answers = [
                    await client.get(f"/g/{game_id}/{other}"),  # another game's token
                    await client.get(f"/g/{game_id}/{league}"),  # a league's token, same id
                    await client.get(f"/g/{game_id}/AAAAAAAAAAAAAAAAAAAAAA"),
                    await client.get(f"/g/{game_id}/{other}/v/0.png"),
                    await client.get(links.game_path(SECRET, game_id + 1)),  # no such game
                    await client.get(links.game_path(SECRET, game_id) + "/v/999.png"),
                    await client.get("/"),
                    await client.get("/l/1/" + links.token(SECRET, "league", 1)),  # no league
                ]
                for answer in answers:
                    assert answer.status == 404
                    assert await answer.text() == NOT_FOUND
                    assert answer.headers["Content-Security-Policy"] == CSP

    asyncio.run(body())


def test_step_pictures_are_each_versions_board_drawn_once(tmp_path: Path) -> None:
    async def body() -> None:
        async with store_at(tmp_path) as repo:
            game_id = await played_game(repo, "yamatai", ["Ann", "Bo"], turns=2)
            drawer = Drawer()
            path = links.game_path(SECRET, game_id)
            async with serving(repo, drawer) as (_, client):
                for step in (0, 3, 3):
                    answer = await client.get(f"{path}/v/{step}.png")
                    assert answer.status == 200
                    assert answer.content_type == "image/png"
                    assert await answer.read() == PNG
                assert [c[0]["version"] for c in drawer.calls] == [0, 3]  # the 2nd 3 cached
                view, events, more = drawer.calls[1]
                assert view["viewer"] is None and events and more == ("en",)
                head = await client.head(f"{path}/v/1.png")
                assert head.status == 200

    asyncio.run(body())


def test_a_running_games_step_picture_is_asked_again_after_an_undo(tmp_path: Path) -> None:
    """Issue 35 item 11: an undo changes what the current step's address shows, so the browser
    may keep it only while it checks (``no-cache`` with the step's past as its ETag)."""

    async def play_one(repo: GameRepository, game_id: int, choice: int) -> int:
        game = await repo.load_game(game_id)
        match = games.from_json(game.snapshot)
        match.play(match.legal_actions()[choice])
        await repo.append_match(game, match)
        return len(match.log)

    async def body() -> None:
        async with store_at(tmp_path) as repo:
            game_id = await played_game(repo, "yamatai", ["Ann", "Bo"], turns=1)
            step = await play_one(repo, game_id, 0)
            drawer = Drawer()
            address = f"{links.game_path(SECRET, game_id)}/v/{step}.png"
            async with serving(repo, drawer) as (server, client):
                first = await client.get(address)
                assert first.headers["Cache-Control"] == "no-cache"
                etag = first.headers["ETag"]
                again = await client.get(address, headers={"If-None-Match": etag})
                assert again.status == 304 and len(drawer.calls) == 1
                game = await repo.load_game(game_id)
                match = games.from_json(game.snapshot)
                match.undo()
                await repo.undo_last(
                    game_id, game.version, match.to_json(), current_seat=match.current_seat
                )
                assert await play_one(repo, game_id, 1) == step
                server.read.pop(game_id, None)  # as FRESH seconds later (a fresh read is reused)
                changed = await client.get(address, headers={"If-None-Match": etag})
                assert changed.status == 200 and changed.headers["ETag"] != etag
                assert len(drawer.calls) == 2

    asyncio.run(body())


def test_the_page_follows_the_game_after_more_turns(tmp_path: Path) -> None:
    async def body() -> None:
        async with store_at(tmp_path) as repo:
            game_id = await played_game(repo, "yamatai", ["Ann", "Bo"], turns=1)
            path = links.game_path(SECRET, game_id)
            async with serving(repo) as (_, client):
                first = await (await client.get(path)).text()
                await play_turns(repo, game_id, 2)
                game = await repo.load_game(game_id)
                later = await (await client.get(path)).text()
                assert f'max="{game.action_count}"' in later and later != first

    asyncio.run(body())


def test_player_names_are_escaped_everywhere(tmp_path: Path) -> None:
    async def body() -> None:
        async with store_at(tmp_path) as repo:
            game_id = await played_game(repo, "yamatai", list(EVIL), turns=3)
            async with serving(repo) as (_, client):
                html = await (await client.get(links.game_path(SECRET, game_id))).text()
        assert "<script>alert" not in html and "<img src=x" not in html
        assert html.count("<script") == 2  # the page's own script and its JSON data
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
        assert "&quot;&gt;&lt;img src=x onerror=alert(2)&gt;" in html
        data = re.findall(r'id="steps">(.*?)</script>', html, re.S)[0]
        assert "<" not in data and ">" not in data
        assert any(EVIL[0] in s["text"] for s in json.loads(data)["steps"])

    asyncio.run(body())


def test_direction_controls_in_names_are_never_shown_and_names_are_isolated(
    tmp_path: Path,
) -> None:
    """Issue 35 item 9: U+202E or U+2067 in a name (stored by an older version) would reverse
    what follows it in the table, the log and the replay's texts (D148)."""
    controls = set("\u202e\u2067\u2069\u200f")

    async def body() -> None:
        async with store_at(tmp_path) as repo:
            names = ["Ann\u202eevil", "\u2067Bo\u2069"]
            game_id = await played_game(repo, "yamatai", names, turns=3)
            async with serving(repo) as (_, client):
                html = await (await client.get(links.game_path(SECRET, game_id))).text()
        assert not set(html) & controls
        assert "<bdi>Annevil</bdi>" in html and "<bdi>Bo</bdi>" in html
        data = re.findall(r'id="steps">(.*?)</script>', html, re.S)[0]
        assert any("Annevil" in s["text"] for s in json.loads(data)["steps"])

    asyncio.run(body())


def test_only_get_and_head(tmp_path: Path) -> None:
    async def body() -> None:
        async with store_at(tmp_path) as repo:
            game_id = await played_game(repo, "yamatai", ["Ann", "Bo"], turns=0)
            path = links.game_path(SECRET, game_id)
            async with serving(repo) as (_, client):
                for method in ("POST", "PUT", "DELETE", "PATCH", "OPTIONS"):
                    answer = await client.request(method, path)
                    assert answer.status == 405, method
                    assert answer.headers["Allow"] == "GET, HEAD"
                assert (await client.head(path)).status == 200

    asyncio.run(body())


def test_static_files_by_name_only(tmp_path: Path) -> None:
    async def body() -> None:
        async with store_at(tmp_path) as repo, serving(repo) as (_, client):
            css = await client.get("/static/web.css")
            assert css.status == 200 and css.content_type == "text/css"
            js = await client.get("/static/web.js")
            assert js.status == 200 and "ArrowRight" in await js.text()
            for path in (
                "/static/../server.py",
                "/static/%2e%2e/server.py",
                "/static/..%2fserver.py",
                "/static/server.py",
                "/static/locale%2fen.json",
                "/static/",
                "/static//etc/passwd",
            ):
                answer = await client.get(path)
                assert answer.status == 404, path
                assert await answer.text() == NOT_FOUND

    asyncio.run(body())


def test_too_many_requests_from_one_address(tmp_path: Path) -> None:
    async def body() -> None:
        async with store_at(tmp_path) as repo:
            limit = RateLimit(burst=3, per_second=0.001)
            async with serving(repo, limit=limit) as (_, client):
                codes = [(await client.get("/static/web.css")).status for _ in range(4)]
                assert codes == [200, 200, 200, 429]
                answer = await client.get("/static/web.css")
                assert answer.status == 429 and int(answer.headers["Retry-After"]) >= 1
                # behind a proxy on this machine, each forwarded client has its own bucket
                other = await client.get("/static/web.css", headers={"X-Forwarded-For": "10.0.0.7"})
                assert other.status == 200

    asyncio.run(body())


def test_the_turn_deadline_is_shown_as_a_utc_time(tmp_path: Path) -> None:
    async def body() -> None:
        async with store_at(tmp_path) as repo:
            game_id = await played_game(repo, "yamatai", ["Ann", "Bo"], turns=1)
            game = await repo.load_game(game_id)
            await schedule(repo, game_id, game.action_count)
            async with serving(repo) as (_, client):
                html = await (await client.get(links.game_path(SECRET, game_id))).text()
        assert 'data-utc="1900000000"' in html and "Turn deadline" in html

    asyncio.run(body())


async def schedule(repo: GameRepository, game_id: int, start: int) -> None:
    """Schedule the current turn's deadline (at unix time 1900000000) as the bot would."""
    from bot.service.tables import turn_of
    from engine import games

    match = games.from_json((await repo.load_game(game_id)).snapshot)
    turn = turn_of(match)
    assert turn is not None
    await repo.schedule_turn(
        game_id,
        turn=turn.text,
        seat=turn.seat,
        user_id=0,
        deadline_at=1_900_000_000,
        reminders=[("deadline", 1_900_000_000)],
        now=1_800_000_000,
    )
