"""The read-only web view: an aiohttp server in the bot's process (docs/web.md).

Routes (all GET or HEAD; anything else is 405):

- ``/g/<game id>/<token>``: a game's page; ``.../v/<step>.png``: the board after a step
- ``/l/<league id>/<token>``: a league's page; ``.../standings.png``: its standings picture
- ``/static/<name>``: the stylesheet and the script (by name from the package, nothing else)

A wrong token, an unknown id or any other path is the same plain 404. Pages are built from the
shared database, so every shard process serves every game. Replays run in a thread and
pictures in the render pool, never on the event loop; both are cached (LRU in memory).
"""

from __future__ import annotations

import asyncio
import functools
import ipaddress
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, replace
from importlib.resources import files
from typing import Any, TypeVar

from aiohttp import web

from bot.catalog import Catalog
from bot.present import decimal
from bot.render_pool import RenderPool
from bot.service.errors import ServiceError
from bot.service.league_results import LeagueStandings
from bot.service.pictures import picture_language
from bot.service.ratings import displayed
from bot.service.records import draw_recap, record_of
from bot.service.results import COMPUTER_USER_ID, Turn
from bot.service.tables import match_of, step_of
from bot.store import Game, GameNotFound, GameStatus, League
from engine import games
from engine.games import Match
from engine.record import FULL, to_json

from . import links, pages
from .cards import card_texts, field_name
from .config import WebConfig
from .limits import RateLimit
from .replay import Replay, public_state, replay_steps
from .sources import StandingsSource, WebStore
from .texts import web_catalog

log = logging.getLogger(__name__)

REPLAYS_KEPT = 64  # games whose replay (a packed spectator's view per step) stays in memory
PAGES_KEPT = 64  # games' pages kept as HTML (tens of KB each)
PICTURES_KEPT = 128  # step pictures kept (about 200 KB each)
RECAPS_KEPT = 16  # recap GIFs kept (about 0.5 MB each)
STATIC = {"web.css": "text/css", "web.js": "text/javascript", "icon.svg": "image/svg+xml"}
CSP = (
    "default-src 'none'; img-src 'self'; style-src 'self'; script-src 'self'; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",  # the token is in the address: never tell other sites
    "X-Frame-Options": "DENY",
    "X-Robots-Tag": "noindex, nofollow",
}
ALLOWED_METHODS = ("GET", "HEAD")

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Kept(OrderedDict[K, V]):
    """A small LRU map: ``keep`` forgets the least recently used beyond ``size``."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def find(self, key: K) -> V | None:
        """The value (now the most recent), or None."""
        value = self.get(key)
        if value is not None:
            self.move_to_end(key)
        return value

    def keep(self, key: K, value: V) -> None:
        """Store a value, dropping the oldest beyond ``size``."""
        self[key] = value
        self.move_to_end(key)
        while len(self) > self.size:
            self.popitem(last=False)


@dataclass(frozen=True)
class Prepared:
    """A game read for its page: the match, its replay and the turn being played."""

    match: Match
    replay: Replay
    turn: Turn | None


def _prepare(game: Game, catalog: Catalog, base: Replay | None) -> Prepared:
    """Replay a stored game (in a thread: the engine runs the actions of the log), on from
    ``base`` (an earlier replay of it) when it still holds."""
    match = match_of(game)
    replay = replay_steps(match, catalog, picture_language(game), base)
    info = match.turn_info
    turn = None if info.seat is None else Turn(info.round, info.seat, replay.turn_start)
    return Prepared(match, replay, turn)


class NotFound(Exception):
    """Answered with the plain 404 (no game, no league, wrong token, no such step)."""


def not_found() -> web.Response:
    """The one 404: it says nothing about what exists."""
    return web.Response(status=404, text="Not found\n")


def client_address(request: web.Request) -> str:
    """The client's address; behind a proxy on this machine, the one it forwarded."""
    remote = request.remote or "?"
    forwarded = request.headers.get("X-Forwarded-For")
    try:
        local = ipaddress.ip_address(remote).is_loopback
    except ValueError:
        local = False
    if forwarded and local:
        return forwarded.split(",")[-1].strip() or remote
    return remote


class WebServer:
    """The web pages of the games and leagues in ``store``, served on ``config``'s address."""

    def __init__(
        self,
        config: WebConfig,
        store: WebStore,
        pool: RenderPool,
        *,
        leagues: StandingsSource | None = None,
        catalog: Catalog | None = None,
        limit: RateLimit | None = None,
    ) -> None:
        self.config = config
        self.store = store
        self.pool = pool
        self.leagues = leagues
        self.catalog = catalog or web_catalog()
        self.limit = limit or RateLimit()
        self.replays: Kept[tuple[int, int, int], Prepared] = Kept(REPLAYS_KEPT)
        self.latest: Kept[int, Prepared] = Kept(REPLAYS_KEPT)  # per game: the base of the next
        self.pages: Kept[tuple[int, int, str, str, int | None], bytes] = Kept(PAGES_KEPT)
        self.pictures: Kept[tuple[int, int, str, str], bytes] = Kept(PICTURES_KEPT)
        self.recaps: Kept[tuple[int, int], bytes] = Kept(RECAPS_KEPT)
        self._building: dict[tuple[int, int, int], asyncio.Task[Prepared]] = {}
        self._runner: web.AppRunner | None = None
        self.port: int | None = None
        self.app = self._application()

    # -- the application --------------------------------------------------------------------

    def _application(self) -> web.Application:
        app = web.Application(middlewares=[self._guard], handler_args={"max_field_size": 8190})
        app.router.add_get(r"/g/{id:\d{1,18}}/{token:[A-Za-z0-9_-]{1,64}}", self.game_page)
        app.router.add_get(
            r"/g/{id:\d{1,18}}/{token:[A-Za-z0-9_-]{1,64}}/v/{step:\d{1,9}}.png", self.step_picture
        )
        app.router.add_get(r"/l/{id:\d{1,18}}/{token:[A-Za-z0-9_-]{1,64}}", self.league_page)
        app.router.add_get(
            r"/l/{id:\d{1,18}}/{token:[A-Za-z0-9_-]{1,64}}/standings.png", self.standings_picture
        )
        app.router.add_get(r"/static/{name}", self.static)
        app.router.add_get(
            r"/g/{id:\d{1,18}}/{token:[A-Za-z0-9_-]{1,64}}/recap.gif", self.recap_gif
        )
        return app

    @web.middleware
    async def _guard(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        """Methods, the rate limit, the plain 404 and the security headers on every answer."""
        response = await self._answer(request, handler)
        response.headers.update(SECURITY_HEADERS)
        return response

    async def _answer(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        if request.method not in ALLOWED_METHODS:
            allow = {"Allow": ", ".join(ALLOWED_METHODS)}
            return web.Response(status=405, text="Method not allowed\n", headers=allow)
        address = client_address(request)
        if not self.limit.allow(address):
            wait = self.limit.retry_after(address)
            return web.Response(
                status=429, text="Too many requests\n", headers={"Retry-After": str(wait)}
            )
        try:
            return await handler(request)
        except (NotFound, web.HTTPNotFound, web.HTTPMethodNotAllowed):
            return not_found()
        except Exception:
            log.exception("web: %s %s failed", request.method, request.path)
            return web.Response(status=500, text="Something went wrong\n")

    async def start(self) -> None:
        """Listen on the configured host and port (port 0: any free one, see ``port``)."""
        runner = web.AppRunner(self.app, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, self.config.host, self.config.port, reuse_address=True)
        await site.start()
        self._runner = runner
        bound = runner.addresses
        self.port = int(bound[0][1]) if bound else self.config.port
        log.info("web pages served on %s:%s", self.config.host, self.port)

    async def stop(self) -> None:
        """Stop listening and close the open connections."""
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()
        for task in self._building.values():
            task.cancel()

    @property
    def public_url(self) -> str:
        """The address links start with: WEB_BASE_URL, else the port actually listened on."""
        if self.port is None or self.config.base_url is not None:
            return self.config.public_url
        return replace(self.config, port=self.port).public_url

    def game_url(self, game_id: int) -> str:
        """The public address of a game's page."""
        return links.page_url(self.public_url, self.config.secret, game_id)

    def league_url(self, league_id: int) -> str:
        """The public address of a league's page."""
        return links.league_url(self.public_url, self.config.secret, league_id)

    # -- reading ----------------------------------------------------------------------------

    def _checked(self, request: web.Request, kind: str) -> int:
        item_id = int(request.match_info["id"])
        if not links.valid(self.config.secret, kind, item_id, request.match_info["token"]):
            raise NotFound
        return item_id

    async def _game(self, game_id: int) -> Game:
        try:
            return await self.store.load_game(game_id)
        except GameNotFound:
            raise NotFound from None

    async def prepared(self, game: Game) -> Prepared:
        """The game replayed (cached by game, version and log length; one replay at a time)."""
        key = (game.id, game.version, game.action_count)
        found = self.replays.find(key)
        if found is not None:
            return found
        task = self._building.get(key)
        if task is None:
            latest = self.latest.find(game.id)
            base = None if latest is None else latest.replay
            task = asyncio.create_task(asyncio.to_thread(_prepare, game, self.catalog, base))
            self._building[key] = task
            task.add_done_callback(lambda _: self._building.pop(key, None))
        try:
            prepared = await asyncio.shield(task)
        except ServiceError:
            raise NotFound from None  # a damaged snapshot (logged): nothing to show
        self.replays.keep(key, prepared)
        latest = self.latest.find(game.id)
        if latest is None or latest.replay.last.version <= prepared.replay.last.version:
            self.latest.keep(game.id, prepared)
        return prepared

    # -- game pages -------------------------------------------------------------------------

    async def game_page(self, request: web.Request) -> web.Response:
        """A game's page."""
        game = await self._game(self._checked(request, "game"))
        ready = await self.prepared(game)
        deadline = await self._deadline(game, ready.turn)
        # every viewer of a game sees the same page: built once per version (and deadline)
        key = (game.id, game.version, game.status.value, ready.replay.last.chain, deadline)
        html = self.pages.find(key)
        if html is None:
            actions = await self.store.load_actions(game.id)
            times = [None, *(int(a.created_at.timestamp()) for a in actions)]
            page = self._page(game, ready, tuple(times[: len(ready.replay.steps)]), deadline)
            html = pages.game_html(page, self._say(picture_language(game))).encode()
            self.pages.keep(key, html)
        return web.Response(
            body=html,
            content_type="text/html",
            charset="utf-8",
            headers={"Cache-Control": "no-store"},
        )

    def _say(self, language: str) -> Callable[..., str]:
        def say(key: str, **params: Any) -> str:
            return self.catalog.text(key, language, **params)

        return say

    async def _deadline(self, game: Game, turn: Turn | None) -> int | None:
        """The deadline of the turn being played, unless it has none (or no longer); stored
        under the turn's key, the old ``round.seat`` for a turn begun before migration 0012."""
        if turn is None or game.status != GameStatus.ACTIVE:
            return None
        before = await self.store.old_turn_keys(game.id)
        key = turn.old_text if before is not None and turn.start <= before else turn.text
        return await self.store.standing_deadline(game.id, key)

    def _page(
        self, game: Game, ready: Prepared, times: tuple[int | None, ...], deadline: int | None
    ) -> pages.GamePage:
        match, replay = ready.match, ready.replay
        standing = {r.seat: r for r in match.standing.results}
        outcome = match.outcome
        winners = set(outcome.winners) if outcome is not None else set()
        active = game.status == GameStatus.ACTIVE and match.current_seat is not None
        colours = match.colours
        players = tuple(
            pages.PlayerLine(
                seat=s.seat,
                name=s.player,
                colour=colours[s.seat],
                score=standing[s.seat].score if s.seat in standing else 0,
                to_play=active and s.seat == match.current_seat,
                winner=s.seat in winners and game.status == GameStatus.FINISHED,
                computer=s.user_id == COMPUTER_USER_ID or s.stand_in is not None,
            )
            for s in game.seats
        )
        language = picture_language(game)
        view = replay.last.view
        step_key = step_of(match) if active else None
        status = game.status.value if game.status != GameStatus.ACTIVE or active else "finished"
        return pages.GamePage(
            game_id=game.id,
            game_name=games.rules_for(game.game_key).display_name,
            language=language,
            status=status,
            round=match.turn_info.round,
            players=players,
            step=self.catalog.text(step_key, language) if step_key else None,
            deadline=deadline,
            replay=replay,
            times=times,
            cards=card_texts(game.game_key, view, language),
            picture=f"{links.token(self.config.secret, 'game', game.id)}/v/{{v}}.png",
            field_names={
                field: field_name(game.game_key, field, language)
                for seat in range(len(game.seats))
                for field, _ in public_state(view, seat)
            },
        )

    async def step_picture(self, request: web.Request) -> web.Response:
        """The board after one step of a game's replay (the current step: as it is now)."""
        game = await self._game(self._checked(request, "game"))
        number = int(request.match_info["step"])
        ready = await self.prepared(game)
        if number >= len(ready.replay.steps):
            raise NotFound
        step = ready.replay.steps[number]
        language = picture_language(game)
        key = (game.id, number, language, step.chain)
        png = self.pictures.find(key)
        if png is None:
            png = await self.pool.draw(step.view, list(step.events), language)
            self.pictures.keep(key, png)
        return web.Response(
            body=png, content_type="image/png", headers={"Cache-Control": "private, max-age=300"}
        )

    # -- league pages -----------------------------------------------------------------------

    async def _league(self, request: web.Request) -> League:
        league = await self.store.load_league_by_id(self._checked(request, "league"))
        if league is None:
            raise NotFound
        return league

    async def _standings(self, league: League) -> LeagueStandings | None:
        return None if self.leagues is None else await self.leagues.standings(league)

    async def league_page(self, request: web.Request) -> web.Response:
        """A league's page: standings, rounds with their games' pages, rating histories."""
        league = await self._league(request)
        language = await self.store.guild_language(league.guild_id) or "en"
        say = self._say(language)
        standings = await self._standings(league)
        players = await self.store.league_players(league.id)
        names = {p.user_id: p.name for p in players}
        tables = tuple(
            pages.TableLink(
                t.round,
                t.table_no,
                tuple(names.get(u, "?") for u in t.user_ids),
                None
                if t.game_id is None
                else "../.." + links.game_path(self.config.secret, t.game_id),
            )
            for t in await self.store.league_tables(league.id)
        )
        ratings = []
        for player in players:
            history = await self.store.rating_history(
                league.guild_id, league.game_key, player.user_id
            )
            ratings.append((player.name, tuple(displayed(c.mu, c.sigma) for c in history)))
        page = pages.LeaguePage(
            title=say(
                "web.league_title",
                name=league.name,
                game=games.rules_for(league.game_key).display_name,
            ),
            status=_league_status(league, say),
            language=language,
            headers=tuple(
                say(f"league.column.{c}")
                for c in ("rank", "player", "points", "played", "rating", "change")
            ),
            rows=() if standings is None else _rows(standings, say, language),
            tables=tables,
            ratings=tuple(ratings),
            picture=None
            if standings is None
            else f"{links.token(self.config.secret, 'league', league.id)}/standings.png",
        )
        return web.Response(
            text=pages.league_html(page, say),
            content_type="text/html",
            headers={"Cache-Control": "no-store"},
        )

    async def standings_picture(self, request: web.Request) -> web.Response:
        """The league's standings picture (as posted in Discord), drawn in a thread."""
        from bot.cogs.league import standings_png

        league = await self._league(request)
        standings = await self._standings(league)
        if standings is None:
            raise NotFound
        language = await self.store.guild_language(league.guild_id) or "en"
        png = await asyncio.to_thread(standings_png, self._say(language), standings, language)
        return web.Response(
            body=png, content_type="image/png", headers={"Cache-Control": "no-store"}
        )

    async def recap_gif(self, request: web.Request) -> web.Response:
        """The animated recap of a game that is over, as its final message in Discord carries
        it (404 while it runs): drawn in the web's render pool, kept by game and version."""
        game = await self._game(self._checked(request, "game"))
        if game.status == GameStatus.ACTIVE or game.action_count == 0:
            raise NotFound
        key = (game.id, game.version)
        gif = self.recaps.find(key)
        if gif is None:
            actions = await self.store.load_actions(game.id)
            full = await asyncio.to_thread(record_of, game, actions, FULL)
            language = picture_language(game)
            gif = await self.pool.call(draw_recap, to_json(full), language, full.ended)
            self.recaps.keep(key, gif)
        return web.Response(
            body=gif, content_type="image/gif", headers={"Cache-Control": "private, max-age=3600"}
        )

    # -- files ------------------------------------------------------------------------------

    async def static(self, request: web.Request) -> web.Response:
        """The stylesheet or the script, by name from the package (nothing else is served)."""
        name = request.match_info["name"]
        kind = STATIC.get(name)
        if kind is None:
            raise NotFound
        body = _static_file(name)
        return web.Response(
            body=body, content_type=kind, headers={"Cache-Control": "public, max-age=3600"}
        )


@functools.cache
def _static_file(name: str) -> bytes:
    return (files("bot.web") / "static" / name).read_bytes()


def _league_status(league: League, say: Callable[..., str]) -> str:
    if league.status == "signup":
        return say("web.league.signup")
    if league.status == "finished":
        return say("web.league.finished")
    return say("web.league.running", round=league.current_round, rounds=league.rounds)


def _rows(
    standings: LeagueStandings, say: Callable[..., str], locale: str
) -> tuple[pages.StandingRowText, ...]:
    return tuple(
        pages.StandingRowText(
            str(line.rank),
            line.name + (" " + say("league.withdrawn") if line.withdrawn else ""),
            f"{line.points:g}",
            str(line.played),
            "—" if line.rating is None else decimal(line.rating, locale),
            "" if abs(line.change) < 0.05 else decimal(line.change, locale, signed=True),
            line.withdrawn,
        )
        for line in standings.lines
    )
