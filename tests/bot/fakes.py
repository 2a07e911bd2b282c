"""Small stand-ins for discord objects: a bot, a thread, an interaction (no network)."""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace
from typing import Any, cast

import discord
from discord.app_commands import CommandInvokeError

from bot.app import HimikoTree
from bot.catalog import default_catalog
from bot.thread.outbox import Outbox
from bot.views.base import BoundItems
from bot.views.buttons import ViewButtons


def http_error(status: int = 503, kind: type[discord.HTTPException] = discord.HTTPException) -> Any:
    """A discord HTTP error as raised by a failed request."""
    response = SimpleNamespace(status=status, reason="test")
    return kind(cast(Any, response), "test failure")


class FakeThread(discord.abc.Messageable):
    """A messageable channel that records what is sent, or raises ``fail`` on each send
    (calling ``while_failing`` first: what else happens while that request fails)."""

    def __init__(self, id: int = 500, fail: list[BaseException] | None = None) -> None:
        self.id = id
        self.fail = fail or []
        self.while_failing: Callable[[], None] = lambda: None
        self.sent: list[dict[str, Any]] = []
        self.edits: list[dict[str, Any]] = []
        self.guild: Any = None
        self.mention = f"<#{id}>"

    async def _get_channel(self) -> Any:
        return self

    async def send(self, content: str | None = None, **kwargs: Any) -> Any:
        """Record a message (or raise the next queued failure)."""
        if self.fail:
            self.while_failing()
            raise self.fail.pop(0)
        self.sent.append({"content": content, **kwargs})
        return FakeSent(self, len(self.sent))


class FakeSent:
    """A message the fake thread sent: its id; an edit is recorded in the thread's ``edits``."""

    def __init__(self, thread: FakeThread, id: int) -> None:
        self.thread, self.id, self.attachments = thread, id, list[Any]()

    async def edit(self, **kwargs: Any) -> FakeSent:
        """Record the edit (the opening becomes its card at once, D200)."""
        self.thread.edits.append({"id": self.id, **kwargs})
        return self


class FakeRunner:
    """Records the games whose computer players were woken."""

    def __init__(self) -> None:
        self.kicked: list[int] = []
        self.unreachable: set[int] = set()

    def kick(self, game_id: int) -> None:
        """Remember the game."""
        self.kicked.append(game_id)


class FakeLeagues:
    """Records the games whose end was told and the leagues kicked (no league work runs)."""

    def __init__(self) -> None:
        self.ended: list[int] = []
        self.kicked: list[int] = []

    def kick(self, league_id: int) -> None:
        """Remember the league."""
        self.kicked.append(league_id)

    def after_game(self, game_id: int) -> None:
        """Remember the game."""
        self.ended.append(game_id)

    async def settle(self, league_id: int) -> None:
        """Remember the league, as a kick."""
        self.kicked.append(league_id)


class FakeBot:
    """What the turn posting code reads from the bot: catalog, channels, runner, rooms."""

    def __init__(self, thread: FakeThread | None = None, rooms: Any = None) -> None:
        self.catalog = default_catalog()
        self.bound = BoundItems(self)  # type: ignore[arg-type]
        self.buttons = ViewButtons(self)  # type: ignore[arg-type]
        self.thread = thread or FakeThread()
        self.runner: Any = FakeRunner()
        self.leagues: Any = FakeLeagues()
        self.rooms = rooms
        self.repo = None if rooms is None else rooms.desk.repo
        self.outbox = Outbox(self)  # type: ignore[arg-type]
        self.lobbies: Any = None  # a LobbyBook where a test needs one
        self.served_shards = None  # no sharding: every guild
        self.client = self  # channels and users, as the Discord client gives them

    def game_page(self, game_id: int) -> str | None:
        """No web view is configured."""
        return None

    def get_channel(self, channel_id: int) -> Any:
        """The one thread if the id matches."""
        return self.thread if channel_id == self.thread.id else None

    async def fetch_channel(self, channel_id: int) -> Any:
        """Like Discord: NotFound for an unknown channel."""
        if channel_id == self.thread.id:
            return self.thread
        raise http_error(404, discord.NotFound)


class FakeResponse:
    """An interaction response that records what was sent."""

    def __init__(self) -> None:
        self.done = False
        self.sent: list[dict[str, Any]] = []
        self.deferred: list[dict[str, Any]] = []

    def is_done(self) -> bool:
        """Whether the interaction was answered."""
        return self.done

    async def send_message(self, content: str | None = None, **kwargs: Any) -> None:
        """Answer."""
        self.done = True
        self.sent.append({"content": content, **kwargs})

    async def edit_message(self, **kwargs: Any) -> None:
        """Answer by editing the message the component is on."""
        self.done = True
        self.sent.append({"edit": True, **kwargs})

    async def defer(self, **kwargs: Any) -> None:
        """Acknowledge for later."""
        self.done = True
        self.deferred.append(kwargs)


class FakeFollowup:
    """Follow-up messages, recorded."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def send(self, content: str | None = None, **kwargs: Any) -> None:
        """Record a follow-up."""
        self.sent.append({"content": content, **kwargs})


def fake_interaction(bot: Any, user_id: int = 101, channel_id: int = 500) -> Any:
    """An interaction in a guild thread that records responses and follow-ups."""
    return SimpleNamespace(
        client=bot,
        locale=discord.Locale.american_english,
        guild_locale=None,
        guild_id=9,
        channel_id=channel_id,
        user=SimpleNamespace(id=user_id, display_name="Ann", mention=f"<@{user_id}>"),
        data={},
        message=None,
        response=FakeResponse(),
        followup=FakeFollowup(),
        extras={},  # as discord.py's: what the handling leaves on it (bot/ops/answers.py)
    )


async def invoke(command: Any, cog: Any, interaction: Any, **options: Any) -> None:
    """Run a slash command's callback as the command tree does: a failure goes to on_error."""
    try:
        await command.callback(cog, interaction, **options)
    except Exception as error:
        await HimikoTree.on_error(cast(Any, None), interaction, CommandInvokeError(command, error))
