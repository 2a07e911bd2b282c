"""Run the real bot (``bot.app.create_bot``, as ``python -m bot`` does) against the Discord double.

``run(body)`` runs an async test body with a hard timeout (no pytest-asyncio). ``himiko_env``
starts the double and the bot on a fresh SQLite file, and checks on the way out that no request
hit an unknown route and that nothing was logged at ERROR. ``Env`` holds the simulated users'
moves: open a lobby, join, start, type into ``/play`` and click buttons.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TypeVar

from bot.app import SWEEP_INTERVAL, HimikoBot, answer_pending_interactions, create_bot
from bot.internals import endpoints, set_endpoints
from bot.settings import Settings
from bot.store import Game, Target, is_url
from engine import games
from engine.games import Match
from tests.backends import database
from tests.discord_double import (
    ChannelRecord,
    DiscordDouble,
    GuildSpec,
    InteractionRecord,
    MessageRecord,
    UserSpec,
)
from tests.e2e.quick_bot import quiet
from tests.waiting import settled

GUILD = 311_000_000_000_000_001
CHANNEL = 311_000_000_000_000_002
HOST = UserSpec(322_000_000_000_000_001, "hana", global_name="Hana")
GUEST = UserSpec(322_000_000_000_000_002, "kenji", global_name="Kenji")
WATCHER = UserSpec(322_000_000_000_000_003, "mio", global_name="Mio")
TOKEN = "e2e-token"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
POST_MESSAGE = "POST /channels/{channel_id}/messages"
COMMANDS = (
    "new",
    "play",
    "turn",
    "undo",
    "board",
    "log",
    "games",
    "mygames",
    "rules",
    "resign",
    "settings",
    "help",
    "league",
    "rating",
    "leaderboard",
    "back",
    "abandon",
    "server",
    "web",
    "export",
    "profile",
    "queue",
    "notes",
)
TIMEOUT = 10.0
_PLAYS_FIRST = re.compile(r"<@(\d+)> plays first")


def run(body: Callable[[], Awaitable[None]], timeout: float = 60.0) -> None:
    """Run an async test body to the end in a new event loop, failing after ``timeout`` s."""

    async def main() -> None:
        await asyncio.wait_for(body(), timeout)

    asyncio.run(main())


def make_double(preferred_locale: str = "en-US", **kwargs: Any) -> DiscordDouble:
    """A double with one server (its preferred locale), one text channel and three members."""
    guild = GuildSpec(
        GUILD,
        "Yamatai club",
        text_channel_ids=[CHANNEL],
        members=[HOST, GUEST, WATCHER],
        channel_names={CHANNEL: "yamatai"},
        preferred_locale=preferred_locale,
    )
    return DiscordDouble(token=TOKEN, guilds=[guild], **kwargs)


class ErrorLog(logging.Handler):
    """Collects every record logged at ERROR or above, from any logger."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        """Keep the record."""
        self.records.append(record)

    def messages(self) -> list[str]:
        """The kept records as ``logger: message`` lines."""
        return [f"{r.name}: {r.getMessage()}" for r in self.records]


def has_png(message: MessageRecord) -> bool:
    """Whether a message carries a PNG picture."""
    return any(a.data.startswith(PNG_MAGIC) for a in message.attachments)


def pngs(message: MessageRecord) -> list[bytes]:
    """The PNG attachments of a message."""
    return [a.data for a in message.attachments if a.data.startswith(PNG_MAGIC)]


def shown(message: MessageRecord) -> list[str]:
    """The file names of the pictures a card's galleries show, in order."""
    return [a.filename for a in message.gallery_attachments()]


def told(message: MessageRecord) -> str:
    """What a turn message tells in words: its card's second text (under the heading), or its
    words while its pictures are drawn (it becomes its card then: D200)."""
    if not message.is_v2:
        return message.content
    return "\n".join(message.text_displays()[1:2])


def but_rules(message: MessageRecord) -> list[str]:
    """A message's custom ids but its Rules button's (``himiko:rules:<game>``, on every card)."""
    return [c for c in message.custom_ids() if not c.startswith("himiko:rules:")]


def as_posted(double: DiscordDouble, message: MessageRecord) -> MessageRecord:
    """The message as it was posted, before any edit (a turn message's words and ping, before
    it became its card: D200): its first version and the allowed mentions its post sent, so
    ``pinged_user_ids()`` says whom the post notified (an edit notifies nobody)."""
    if not message.history:
        return message
    first = message.history[0]
    [post, *_] = [
        r.body
        for r in double.requests
        if r.route == POST_MESSAGE
        and r.status == 200
        and r.path == f"/channels/{message.channel_id}/messages"
        and isinstance(r.body, dict)
        and str(r.body.get("nonce")) == str(message.nonce)
        and (r.body.get("content") or "") == first["content"]
    ]
    return replace(
        message,
        content=first["content"],
        embeds=first["embeds"],
        components=first["components"],
        flags=first["flags"],
        allowed_mentions=post.get("allowed_mentions"),
        history=[],
    )


def first_player_id(opening: MessageRecord) -> int | None:
    """The user said to play first in an opening message (None if a computer starts)."""
    found = _PLAYS_FIRST.search(opening.text())
    return None if found is None else int(found[1])


def custom_id(message: MessageRecord, prefix: str) -> str:
    """The one custom id on a message that starts with ``prefix``."""
    found = [c for c in message.custom_ids() if c.startswith(prefix)]
    assert len(found) == 1, (prefix, message.custom_ids(), message.text())
    return found[0]


@dataclass
class Table:
    """A started game as the users see it: its thread and the opening message."""

    thread: ChannelRecord
    opening: MessageRecord
    lobby: MessageRecord

    @property
    def id(self) -> int:
        """The thread id (where the game's commands are used)."""
        return self.thread.id


class FakeClock:
    """An injectable clock (UTC unix seconds) that only moves when a test moves it."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        """Move the time on."""
        self.now += seconds


class Env:
    """The double, the running bot and what simulated users do with them."""

    def __init__(
        self, double: DiscordDouble, database: Target, sweep_interval: float = SWEEP_INTERVAL
    ) -> None:
        self.double = double
        self.database = database
        self.sweep_interval = sweep_interval
        self.log = ErrorLog()
        self._bot: HimikoBot | None = None
        self._task: asyncio.Task[None] | None = None
        self.restarts = 0
        self._game_ids: dict[int, int] = {}
        self.clock = FakeClock()  # deadlines and reminders; survives restarts
        self.scheduler_interval = 30.0

    # -- the bot ---------------------------------------------------------------------------------

    @property
    def bot(self) -> HimikoBot:
        """The running bot."""
        assert self._bot is not None, "the bot is not running"
        return self._bot

    def settings(self) -> Settings:
        """What ``python -m bot`` would read from DISCORD_* settings pointing at the double."""
        url = str(self.database) if is_url(self.database) else None
        return Settings(
            token=self.double.token,
            database_path=Path(self.database) if url is None else Path("unused.sqlite3"),
            database_url=url,
            dev_guild_id=GUILD,
            api_base=self.double.api_base,
            gateway_url=self.double.gateway_url,
            computer_pause=0,
            scheduler_interval=self.scheduler_interval,
        )

    async def start_bot(self) -> HimikoBot:
        """Create the bot and start it; return once it is connected and ready."""
        settings = self.settings()
        bot = create_bot(
            settings,
            guild_ready_timeout=0.05,
            sweep_interval=self.sweep_interval,
            clock=self.clock,
        )
        task = asyncio.create_task(bot.start(settings.token), name="himiko")
        self._bot, self._task = bot, task
        ready = asyncio.create_task(bot.wait_until_ready())
        done, _ = await asyncio.wait({ready, task}, timeout=TIMEOUT, return_when="FIRST_COMPLETED")
        if ready not in done:
            ready.cancel()
            if task in done:
                task.result()  # raises what stopped the bot
            raise TimeoutError("the bot did not become ready")
        await self.double.wait_ready(TIMEOUT)
        await asyncio.wait_for(bot.scheduler.first_tick_done.wait(), TIMEOUT)  # what was due
        return bot

    async def stop_bot(self) -> None:
        """Let computer turns finish, then close the bot the way a shutdown does."""
        bot, task = self._bot, self._task
        self._bot = self._task = None
        if bot is None or task is None:
            return
        try:
            await asyncio.wait_for(bot.runner.idle(), TIMEOUT)
        finally:
            await bot.close()
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.wait_for(task, TIMEOUT)

    async def restart(self) -> HimikoBot:
        """Close the bot and start a new one on the same database and double."""
        await self.stop_bot()
        self.restarts += 1
        return await self.start_bot()

    async def settled(self) -> None:
        """Wait until no computer turn runs and every queued picture is attached (a turn
        message is posted before its picture: issue 25)."""
        await asyncio.wait_for(self.bot.runner.idle(), TIMEOUT)
        # the runner queues its turns' pictures before it is idle; a picture queues nothing
        await asyncio.wait_for(self.bot.outbox.pictures.idle(), TIMEOUT)

    async def quiet(self) -> None:
        """Wait until the bot does nothing: no command or click handled, no computer turn, no
        picture queued. What "time enough for a message too many" waited for: any message or
        answer the bot would send is sent by then."""
        await quiet(self.bot, TIMEOUT)

    # -- reading the game behind a thread (the bot's own store) ----------------------------------

    async def game(self, thread_id: int) -> Game:
        """The stored game of a thread (also once it is over)."""
        repo = self.bot.repo
        assert repo is not None
        if thread_id not in self._game_ids:
            self._game_ids[thread_id] = (await repo.load_game_by_thread(thread_id)).id
        return await repo.load_game(self._game_ids[thread_id])

    async def version(self, thread_id: int) -> int:
        """The stored version of the thread's game."""
        return (await self.game(thread_id)).version

    async def match(self, thread_id: int) -> Match:
        """The thread's game as the engine sees it (a copy; playing it changes nothing)."""
        return games.from_json((await self.game(thread_id)).snapshot)

    async def current_user(self, thread_id: int) -> int | None:
        """The user id to act in the thread's game (None: a computer, or the game is over)."""
        user = (await self.game(thread_id)).current_user_id
        return None if user == 0 else user

    # -- users -----------------------------------------------------------------------------------

    async def open_lobby(
        self, host: UserSpec, *, seats: int = 2, computers: bool = False, game: str = "yamatai"
    ) -> MessageRecord:
        """``/new game:<game>`` in the channel; return the lobby message."""
        rec = await self.double.slash(
            host, CHANNEL, "new", {"game": game, "seats": seats, "computers": computers}
        )
        lobby = await rec.reply(TIMEOUT)
        assert not lobby.ephemeral and lobby.channel_id == CHANNEL
        return lobby

    async def lobby_click(
        self, user: UserSpec, lobby: MessageRecord, action: str
    ) -> InteractionRecord:
        """Click Join, Leave, Start or Cancel on the lobby as it is now."""
        wanted = custom_id(lobby, f"himiko:lobby:{action}:")
        return await self.double.click(user, CHANNEL, lobby.id, wanted)

    async def start_game(
        self,
        host: UserSpec,
        guests: Sequence[UserSpec] = (),
        *,
        computers: int = 0,
        game: str = "yamatai",
    ) -> Table:
        """Open a lobby, let the guests join, start it; return the thread and opening board."""
        seats = 1 + len(guests) + computers
        lobby = await self.open_lobby(host, seats=seats, computers=computers > 0, game=game)
        for guest in guests:
            rec = await self.lobby_click(guest, lobby, "join")
            assert (await rec.response(TIMEOUT)).type == 7
        before = {t.id for t in self.double.threads(CHANNEL)}
        start = await self.lobby_click(host, lobby, "start")
        await start.wait_event("edit_original", TIMEOUT)
        thread = await self.double.wait_for_thread(CHANNEL, lambda t: t.id not in before)
        opening = await self.double.wait_for_message(thread.id, has_png, TIMEOUT)
        return Table(thread, opening, lobby)

    async def play(self, user: UserSpec | int, thread_id: int, action: str) -> InteractionRecord:
        """``/play action:...`` in a thread."""
        return await self.double.slash(user, thread_id, "play", {"action": action})

    async def choices(self, user: UserSpec | int, thread_id: int, typed: str) -> list[str]:
        """The values ``/play``'s autocomplete offers for what is typed."""
        found = await self.double.autocomplete(
            user, thread_id, "play", {"action": typed}, focused="action", timeout=TIMEOUT
        )
        return [str(c["value"]) for c in found]

    def turn_messages(self, thread_id: int) -> list[MessageRecord]:
        """The bot's public messages with a board picture in a thread, oldest first."""
        return [
            m
            for m in self.double.messages(thread_id, include_ephemeral=False)
            if m.author_id == self.double.app_id and has_png(m)
        ]


@contextlib.asynccontextmanager
async def himiko_env(
    tmp_path: Path,
    *,
    sweep_interval: float = SWEEP_INTERVAL,
    scheduler_interval: float = 30.0,
    **double_kwargs: Any,
) -> AsyncIterator[Env]:
    """The double and the bot on ``tmp_path/himiko.sqlite3`` (or the test's PostgreSQL database);
    checks requests and logs at exit."""

    def make(double: DiscordDouble) -> Env:
        env = Env(double, database(tmp_path, "himiko.sqlite3"), sweep_interval)
        env.scheduler_interval = scheduler_interval
        return env

    async with running_env(make_double(**double_kwargs), make) as env:
        yield env


E = TypeVar("E", bound=Env)


@contextlib.asynccontextmanager
async def running_env(
    double: DiscordDouble, make: Callable[[DiscordDouble], E]
) -> AsyncIterator[E]:
    """``double`` started, the bot of the ``Env`` that ``make`` gives started on it; at the
    end, once no command, click or computer turn is under way: no request to an unknown route
    and nothing logged at ERROR (unless the test cleared ``env.log`` after checking it)."""
    saved = endpoints()
    await double.start()
    env = make(double)
    root = logging.getLogger()
    root.addHandler(env.log)
    try:
        await env.start_bot()
        yield env
        await asyncio.wait_for(env.bot.runner.idle(), TIMEOUT)
        # the commands and clicks under way answer (or log their failures), and the callbacks
        # that follow them run
        await asyncio.wait_for(answer_pending_interactions(TIMEOUT), TIMEOUT + 1)
        await settled()
        assert double.unexpected_requests == [], [
            (r.method, r.path, r.status) for r in double.unexpected_requests
        ]
        assert env.log.messages() == []
    finally:
        root.removeHandler(env.log)
        try:
            await env.stop_bot()
        finally:
            await double.stop()
            set_endpoints(*saved)
