"""The read-only web view: an aiohttp server in the bot's process (docs/web.md).

Routes (all GET or HEAD; anything else is 405):

- ``/g/<game id>/<token>``: a game's page; ``.../v/<step>.png``: the board after a step
- ``/l/<league id>/<token>``: a league's page; ``.../standings.png``: its standings picture
- ``/static/<name>``: the stylesheet and the script (by name from the package, nothing else)

A wrong token, an unknown id or any other path is the same plain 404. Pages are built from the
shared database, so every shard process serves every game. Replays, the game pages' HTML and
the step pictures are made in the web's own worker (``bot.web.work``, D111), never on the event
loop nor in a thread of the bot's process; the answers are cached (LRU in memory).
"""

from __future__ import annotations

import asyncio
import functools
import ipaddress
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from importlib.resources import files
from typing import TypeVar

from aiohttp import web

from bot.catalog import LOCALES, Catalog
from bot.kept import Kept
from bot.league_picture import resigned_note, standing_columns, standings_png
from bot.present import decimal
from bot.service.errors import ServiceError
from bot.service.league_results import LeagueStandings
from bot.service.pictures import picture_language
from bot.service.ratings import displayed
from bot.service.results import TurnId
from bot.service.tables import RESIGNED
from bot.store import Game, GameNotFound, GameStatus, League
from bot.workers.render_pool import RenderPool
from engine import games

from . import links, pages, work
from .config import WebConfig
from .limits import RateLimit
from .protocol import SERVER_NAME, BoundedRunner, Connections
from .sources import StandingsSource, WebStore
from .texts import web_catalog

log = logging.getLogger(__name__)

OUTLINES_KEPT = 64  # games whose outline (turn, step chains) is kept
GAMES_KEPT = 256  # games recently read, with when (step pictures reuse a fresh read)
FRESH = 2.0  # seconds a read of a game serves its step pictures and its page's deadline
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
T = TypeVar("T")


class NotFound(Exception):
    """Answered with the plain 404 (no game, no league, wrong token, no such step)."""


def not_found(catalog: Catalog, accept: str) -> web.Response:
    """The one 404: it says nothing about what exists, in the language the reader's browser
    asks for (``Accept-Language``), else in all four."""
    return plain(404, "web.not_found", catalog, accept)


def plain(
    status: int, key: str, catalog: Catalog, accept: str, headers: dict[str, str] | None = None
) -> web.Response:
    """A plain-text answer (an error) in the language the reader's browser asks for
    (``Accept-Language``), else in all four."""
    language = reader_language(accept)
    said = [catalog.text(key, lang) for lang in ([language] if language else LOCALES)]
    return web.Response(status=status, text=" · ".join(said) + "\n", headers=headers)


def reader_language(accept: str) -> str | None:
    """The first of the pages' languages a browser's ``Accept-Language`` asks for, by its
    weights (``fr-FR,fr;q=0.9,en;q=0.8`` -> ``fr``); None if it asks for none of them."""
    asked = []
    for order, item in enumerate(accept.split(",")):
        tag, _, params = item.strip().partition(";")
        weight = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        asked.append((-weight, order, tag.split("-")[0].strip().lower()))
    for weight, _, language in sorted(asked):
        if weight < 0 and language in LOCALES:
            return language
    return None


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
        languages: Callable[[int], Awaitable[str | None]] | None = None,
    ) -> None:
        self.config = config
        self.store = store
        self.pool = pool
        self.leagues = leagues
        self.catalog = catalog or web_catalog()
        self.limit = limit or RateLimit()
        # a server's language by its id: the bot's (its ``/server language``, else its Discord
        # locale); without a bot (the demo), its ``/server language`` alone
        self.languages = languages or store.guild_language
        self.outlines: Kept[tuple[int, int, int], work.Outline] = Kept(OUTLINES_KEPT)
        self.pages: Kept[tuple[int, int, str, str, int | None], bytes] = Kept(PAGES_KEPT)
        self.pictures: Kept[tuple[int, int, str, str], bytes] = Kept(PICTURES_KEPT)
        self.recaps: Kept[tuple[int, int], bytes] = Kept(RECAPS_KEPT)
        self._building: dict[tuple[int, int, int], asyncio.Task[work.Outline]] = {}
        # the players' own reads wait behind the web's on the store's one reader: read less
        self.read: Kept[int, tuple[float, Game]] = Kept(GAMES_KEPT)
        self._reading: dict[int, asyncio.Task[Game]] = {}
        self.first_keys: Kept[int, int | None] = Kept(GAMES_KEPT)  # ``old_turn_keys``
        self.deadlines: Kept[tuple[int, int], tuple[float, int | None]] = Kept(GAMES_KEPT)
        self._runner: web.AppRunner | None = None
        self.connections = Connections(config.max_connections)
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
        response.headers["Server"] = SERVER_NAME  # aiohttp's default names itself and Python
        return response

    async def _answer(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        if request.method not in ALLOWED_METHODS:
            allow = {"Allow": ", ".join(ALLOWED_METHODS)}
            return web.Response(status=405, text="Method not allowed\n", headers=allow)
        address = client_address(request)
        accept = request.headers.get("Accept-Language", "")
        if not self.limit.allow(address):
            wait = {"Retry-After": str(self.limit.retry_after(address))}
            return plain(429, "web.too_many", self.catalog, accept, wait)
        try:
            return await handler(request)
        except (NotFound, web.HTTPNotFound, web.HTTPMethodNotAllowed):
            return not_found(self.catalog, accept)
        except Exception:
            log.exception("web: %s %s failed", request.method, request.path)
            return plain(500, "web.failed", self.catalog, accept)

    async def start(self) -> None:
        """Listen on the configured host and port (port 0: any free one, see ``port``)."""
        runner = BoundedRunner(
            self.app,
            connections=self.connections,
            timeout=self.config.request_timeout,
            headers=SECURITY_HEADERS,
            access_log=None,
            keepalive_timeout=self.config.request_timeout,
        )
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
        for task in (*self._building.values(), *self._reading.values()):
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

    async def _game(self, game_id: int, step: int | None = None) -> Game:
        """The stored game, read once for every request that asks at the same time; for
        the picture of a ``step``, a read of the last ``FRESH`` seconds that has the step."""
        if step is not None:
            at, game = self.read.find(game_id) or (0.0, None)
            if game is not None and time.monotonic() - at < FRESH and step <= game.action_count:
                return game
        task = self._reading.get(game_id)
        if task is None:
            task = asyncio.create_task(self.store.load_game(game_id))
            self._reading[game_id] = task
            task.add_done_callback(lambda _: self._reading.pop(game_id, None))
        try:
            game = await asyncio.shield(task)
        except GameNotFound:
            self.read.pop(game_id, None)
            raise NotFound from None
        self.read.keep(game_id, (time.monotonic(), game))
        return game

    async def outline(self, game: Game) -> work.Outline:
        """The game's outline (turn, step chains), from its replay in the web's worker
        (kept by game, version and log length; one request to the worker at a time)."""
        key = (game.id, game.version, game.action_count)
        found = self.outlines.find(key)
        if found is not None:
            return found
        task = self._building.get(key)
        if task is None:
            task = asyncio.create_task(self.pool.call(work.outline, game))
            self._building[key] = task
            task.add_done_callback(lambda _: self._building.pop(key, None))
        try:
            outline = await asyncio.shield(task)
        except ServiceError:
            raise NotFound from None  # a damaged snapshot (logged): nothing to show
        self.outlines.keep(key, outline)
        return outline

    # -- game pages -------------------------------------------------------------------------

    async def game_page(self, request: web.Request) -> web.Response:
        """A game's page (its HTML made in the web's worker, once per version and deadline)."""
        game = await self._game(self._checked(request, "game"))
        outline = await self.outline(game)
        deadline = await self._deadline(game, outline.turn)
        # every viewer of a game sees the same page: built once per version (and deadline)
        key = (game.id, game.version, game.status.value, outline.chains[-1], deadline)
        html = self.pages.find(key)
        if html is None:
            actions = await self.store.load_actions(game.id)
            times = (None, *(int(a.created_at.timestamp()) for a in actions))
            picture = f"{links.token(self.config.secret, 'game', game.id)}/v/{{v}}.png"
            computer = frozenset(await self.store.computer_played(game.id))
            html = await self._work(work.page_html, game, times, deadline, picture, computer)
            self.pages.keep(key, html)
        return web.Response(
            body=html,
            content_type="text/html",
            charset="utf-8",
            headers={"Cache-Control": "no-store"},
        )

    async def _work(self, function: Callable[..., T], *args: object) -> T:
        """``function(*args)`` in the web's worker; a damaged snapshot is the plain 404."""
        try:
            return await self.pool.call(function, *args)
        except ServiceError:
            raise NotFound from None

    def _say(self, language: str) -> Callable[..., str]:
        def say(key: str, **params: object) -> str:
            return self.catalog.text(key, language, **params)

        return say

    async def _deadline(self, game: Game, turn: TurnId | None) -> int | None:
        """The deadline of the turn being played, unless it has none (or no longer); stored
        under the turn's key, the old ``round.seat`` for a turn begun before migration 0012."""
        if turn is None or game.status != GameStatus.ACTIVE:
            return None
        known = self.deadlines.find((game.id, game.version))
        if known is not None and time.monotonic() - known[0] < FRESH:
            return known[1]
        if game.id not in self.first_keys:  # a game's, set by the migration: never changes
            self.first_keys.keep(game.id, await self.store.old_turn_keys(game.id))
        before = self.first_keys.get(game.id)
        key = turn.old_text if before is not None and turn.start <= before else turn.text
        deadline = await self.store.standing_deadline(game.id, key)
        self.deadlines.keep((game.id, game.version), (time.monotonic(), deadline))
        return deadline

    async def step_picture(self, request: web.Request) -> web.Response:
        """The board after one step of a game's replay (the current step: as it is now)."""
        number = int(request.match_info["step"])
        game = await self._game(self._checked(request, "game"), number)
        outline = await self.outline(game)
        if number >= len(outline.chains):
            raise NotFound
        language = picture_language(game)
        # the last step of a game the bot ended is drawn as it ended ("resigned"), unlike the
        # same step while the game ran
        ended = work.ending(game, number, len(outline.chains) - 1) or ""
        key = (game.id, number, language, outline.chains[number] + ended)
        # An undo in a running game changes what a step number shows: the browser asks again
        # each time (a 304 while the step's past is the same); a game over never changes.
        etag = f'"{number}-{language}-{outline.chains[number]}{ended and "-" + ended}"'
        running = game.status == GameStatus.ACTIVE
        cache = {"Cache-Control": "no-cache" if running else "private, max-age=300", "ETag": etag}
        if etag in request.headers.get("If-None-Match", ""):
            return web.Response(status=304, headers=cache)
        png = self.pictures.find(key)
        if png is None:
            drawn = await self._work(work.step_picture, self.pool.drawer, game, number, language)
            if drawn is None:  # the game moved on between the outline and the picture
                raise NotFound
            png = drawn
            self.pictures.keep(key, png)
        return web.Response(body=png, content_type="image/png", headers=cache)

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
        language = await self.languages(league.guild_id) or "en"
        say = self._say(language)
        standings = await self._standings(league)
        players = await self.store.league_players(league.id)
        names = {p.user_id: p.name for p in players}
        tables = []
        for t in await self.store.league_tables(league.id):
            link = None
            if t.game_id is not None:
                link = "../.." + links.game_path(self.config.secret, t.game_id)
            result = None if t.game_id is None else await self._table_result(t.game_id, say)
            seated = tuple(names.get(u, "?") for u in t.user_ids)
            tables.append(pages.TableLink(t.round, t.table_no, seated, link, result))
        ratings = []
        for player in players:
            history = await self.store.rating_history(
                league.guild_id, league.game_key, player.user_id
            )
            values = tuple(displayed(c.mu, c.sigma) for c in history)
            ratings.append((player.name, values, decimal(values[-1], language) if values else ""))
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
            tables=tuple(tables),
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

    async def _table_result(self, game_id: int, say: Callable[..., str]) -> str | None:
        """How a table's game stands, in words: being played, won by whom (the scores, best
        first), resigned, abandoned; None if the game is gone."""
        try:
            game = await self.store.load_game(game_id)
        except GameNotFound:
            return None
        return table_result(game, say)

    async def standings_picture(self, request: web.Request) -> web.Response:
        """The league's standings picture (as posted in Discord), drawn in a thread."""
        league = await self._league(request)
        standings = await self._standings(league)
        if standings is None:
            raise NotFound
        language = await self.languages(league.guild_id) or "en"
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
            gif = await self._work(work.recap, game, actions)
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


def table_result(game: Game, say: Callable[..., str]) -> str:
    """A league table's game in words: "being played", "won by Bo (43-24)" (the scores best
    first, joined by an en dash), "Ann resigned, won by Bo", "abandoned"."""
    if game.status == GameStatus.ACTIVE:
        return say("web.league.playing")
    winners = ", ".join(s.player for s in game.seats if s.winner)
    if game.status != GameStatus.FINISHED or not winners:
        return say("web.league.abandoned")
    reason = game.end_reason or ""
    if reason.startswith(RESIGNED):
        seat = int(reason.removeprefix(RESIGNED))
        player = next((s.player for s in game.seats if s.seat == seat), "?")
        return say("web.league.resigned_won", player=player, winner=winners)
    scores = sorted((s.final_score or 0 for s in game.seats), reverse=True)
    return say("web.league.won", winner=winners, scores="\N{EN DASH}".join(map(str, scores)))


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
            *standing_columns(say, line, locale), line.withdrawn, resigned_note(say, line)
        )
        for line in standings.lines
    )
