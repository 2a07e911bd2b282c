"""The web view shows only what a spectator may see (issue 22 item 4), like the conformance suite.

Games are played into the store turn by turn; every few turns the page is read and no word of
it may be one of the engine's secrets of the game as it stands (``Rules.secrets(st, None)``:
no hidden card, hand, face-down tile or deck order of any seat). Then every replayed step's
picture is asked for: what the drawer is given (the view, the events marked) may contain no
secret of the game at that step. (Once the game is over, the log's texts show what the rules
reveal at the end, e.g. which tile was built: the pages read while it ran are checked above.)
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.web import links
from engine import games

from .support import SECRET, Drawer, play_turns, played_game, serving, store_at

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

EVERY = 4  # turns between two looks at the page
_WORD = re.compile(r"[A-Za-z0-9#]+")


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from _strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item)


def _words(html: str, game_id: int) -> set[str]:
    """The words of a page (its own address left out: a token is random letters)."""
    return set(_WORD.findall(html.replace(links.token(SECRET, "game", game_id), "")))


@pytest.mark.parametrize(("game_key", "players"), [("yamatai", 3), ("namiji", 3)])
def test_no_secret_in_any_page_or_step_picture(tmp_path: Path, game_key: str, players: int) -> None:
    names = ["Ann", "Bo", "Cy", "Di"][:players]

    async def body() -> None:
        async with store_at(tmp_path) as repo:
            game_id = await played_game(repo, game_key, names, turns=0, seed=11)
            drawer = Drawer()
            path = links.game_path(SECRET, game_id)
            async with serving(repo, drawer) as (_, client):
                looks = 0
                while True:
                    match = games.from_json((await repo.load_game(game_id)).snapshot)
                    if match.current_seat is None:
                        break
                    html = await (await client.get(path)).text()
                    secrets = match.rules.secrets(match.state, None)
                    assert secrets, "a running game has something hidden"
                    leaked = _words(html, game_id) & secrets
                    assert not leaked, f"page at {len(match.log)} shows {sorted(leaked)[:5]}"
                    looks += 1
                    await play_turns(repo, game_id, EVERY)
                assert looks > 5
                for step in range(len(match.log) + 1):
                    assert (await client.get(f"{path}/v/{step}.png")).status == 200
            replayed = games.new(game_key, match.players, match.seed, match.options)
            for step, (view, events, _) in enumerate(drawer.calls):
                assert view["version"] == step and view["viewer"] is None
                if replayed.current_seat is None:
                    break  # the end: what the rules reveal then is shown
                secrets = replayed.rules.secrets(replayed.state, None)
                leaked = {*_strings(view), *_strings(events)} & secrets
                assert not leaked, f"step {step} shows {sorted(leaked)[:5]}"
                if step < len(match.log):
                    seat, action = match.log[step]
                    replayed.play(action, seat=seat)

    asyncio.run(body())


_PLAYERS = re.compile(r'<section class="players">(.*?)</section>', re.S)
_SCORE = re.compile(r'<td class="num">([^<]*)</td></tr>')


def _page_scores(html: str) -> list[str]:
    """The scores of the page's players table, seat by seat."""
    return _SCORE.findall(_PLAYERS.findall(html)[0])


def _spectator_scores(match: games.Match) -> list[str]:
    """Each seat's score as the spectator's view shows it (``+?``: face-down tiles' PP)."""
    shown = []
    for player in match.view(None)["players"]:
        score = player["score"]
        total = score["total"] if isinstance(score, dict) else score
        shown.append(f"{total}+?" if player.get("hidden_tiles") else str(total))
    return shown


@pytest.mark.parametrize("game_key", ["yamatai", "namiji"])
def test_the_players_scores_are_the_spectators(tmp_path: Path, game_key: str) -> None:
    """Issue 35 item 1: the players table showed the engine's standing, which counts a Yamatai
    player's face-down tiles, so anyone with the link read a hidden tile's PP off the score.
    The page shows each score as the spectator's view does (R34: "+?"), until the game is over."""

    async def body() -> None:
        async with store_at(tmp_path) as repo:
            game_id = await played_game(repo, game_key, ["Ann", "Bo", "Cy"], turns=0, seed=5)
            path = links.game_path(SECRET, game_id)
            hidden_looks = 0
            async with serving(repo) as (_, client):
                while True:
                    match = games.from_json((await repo.load_game(game_id)).snapshot)
                    html = await (await client.get(path)).text()
                    shown = _spectator_scores(match)
                    assert _page_scores(html) == shown, len(match.log)
                    standing = [str(r.score) for r in match.standing.results]
                    if shown != standing and match.current_seat is not None:
                        hidden_looks += 1
                        assert "face-down building tiles" in html  # what "+?" stands for
                    if match.current_seat is None:
                        break
                    await play_turns(repo, game_id, EVERY)
            final = {r.seat: str(r.score) for r in match.standing.results}
            assert _page_scores(html) == [final[s] for s in range(3)]  # over: everything
            assert (hidden_looks > 0) == (game_key == "yamatai")

    asyncio.run(body())
