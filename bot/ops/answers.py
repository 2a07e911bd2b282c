"""Interactions timed, counted and named in the log: slash commands, autocompletes and clicks.

The command tree runs each command through ``Answers.command``; every persistent button and
menu is built from ``TimedItems`` (the bot's ``BoundItems``), whose classes run their clicks
through ``Answers.click``. An interaction's outcome is read from what its handling left on it
(``interaction.extras``): ``bot.present.report_error`` leaves the error it answered under
``ERROR``, ``bot.present.busy_notice`` the gate's word under ``NOTICE``.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, cast, runtime_checkable

import discord
from discord import ui

from bot.context import Himiko
from bot.internals import Interaction, item_template
from bot.ops.logs import log_context
from bot.service import ServiceError
from bot.store import is_busy
from bot.views.base import BoundItems, PersistentItem

if TYPE_CHECKING:
    from bot.ops.metrics import Metrics

ItemT = TypeVar("ItemT", bound=ui.DynamicItem[Any])
#: An interaction's handling, to run once.
Handling = Callable[[], Awaitable[None]]

#: ``interaction.extras`` key: the error its handling answered (``bot.present.report_error``).
ERROR = "error"
#: ``interaction.extras`` key: the admission gate's word to it (``bot.present.busy_notice``).
NOTICE = "notice"
#: The gate's words that mean the command was not run (refused under load, or the bot stopped).
NOT_RUN = frozenset({"busy.refused", "busy.stopping"})
_WORD = re.compile(r"[a-z]+")


@runtime_checkable
class OfGame(Protocol):
    """A button or menu of one game (its clicks name the game in the log)."""

    game_id: int


def outcome(interaction: Interaction, raised: BaseException | None = None) -> str:
    """ok; refused (a ServiceError: the player was told why); busy (not run under load, or the
    database stayed busy); error (an unexpected failure)."""
    if interaction.extras.get(NOTICE) in NOT_RUN:
        return "busy"
    error = raised if raised is not None else interaction.extras.get(ERROR)
    if error is None:
        return "ok"
    if isinstance(error, ServiceError):
        return "refused"
    if isinstance(error, BaseException) and is_busy(error):
        return "busy"
    return "error"


def command_name(interaction: Interaction) -> str:
    """The command's full name (``league create``), else the name Discord sent."""
    command = interaction.command
    if command is not None:
        return command.qualified_name
    data: Mapping[str, object] = interaction.data or {}
    return str(data.get("name", "unknown"))


def click_name(custom_id: str) -> str:
    """A click's name from its custom id: the words after ``himiko:``, at most two
    (``lobby:join``, ``panel:do``, ``rematch``); numbers and the rest are left out."""
    parts = custom_id.split(":")
    if parts and parts[0] == "himiko":
        parts = parts[1:]
    words: list[str] = []
    for part in parts[:2]:
        if _WORD.fullmatch(part) is None:
            break
        words.append(part)
    return ":".join(words) or "unknown"


class Answers:
    """Times and counts each interaction's handling (``metrics``), and gives the records
    logged meanwhile its context; ``answered``: a logger that also writes one line per
    interaction handled (JSON logs), or None."""

    def __init__(self, metrics: Metrics | None, answered: logging.Logger | None = None) -> None:
        self.metrics = metrics
        self.answered = answered

    async def command(self, interaction: Interaction, handle: Handling) -> None:
        """Run a slash command's (or autocomplete's) handling, timed and counted."""
        kind = (
            "autocomplete"
            if interaction.type is discord.InteractionType.autocomplete
            else "command"
        )
        data: Mapping[str, object] = interaction.data or {}
        with log_context(
            guild=interaction.guild_id,
            channel=interaction.channel_id,
            command=str(data.get("name", "unknown")),
        ):
            await self._timed(interaction, kind, lambda: command_name(interaction), handle)

    async def click(self, interaction: Interaction, item: PersistentItem, handle: Handling) -> None:
        """Run a button's or menu's click, timed and counted (its game in the log context)."""
        name = click_name(item.custom_id)
        with log_context(
            guild=interaction.guild_id,
            channel=interaction.channel_id,
            game=item.game_id if isinstance(item, OfGame) else None,
            click=name,
        ):
            await self._timed(interaction, "click", lambda: name, handle)

    async def _timed(
        self,
        interaction: Interaction,
        kind: str,
        name: Callable[[], str],
        handle: Handling,
    ) -> None:
        began = time.perf_counter()
        raised: BaseException | None = None
        try:
            await handle()
        except Exception as error:
            raised = error
            raise
        finally:
            self._record(interaction, kind, name(), time.perf_counter() - began, raised)

    def _record(
        self,
        interaction: Interaction,
        kind: str,
        name: str,
        seconds: float,
        raised: BaseException | None,
    ) -> None:
        result = outcome(interaction, raised)
        if self.metrics is not None:
            self.metrics.interactions.labels(kind, name, result).inc()
            self.metrics.answer_seconds.labels(kind, name).observe(seconds)
        if self.answered is not None and kind != "autocomplete":
            milliseconds = round(seconds * 1000, 1)
            with log_context(outcome=result, duration_ms=milliseconds):
                self.answered.info("%s %s: %s in %.0f ms", kind, name, result, milliseconds)


def answers_for(metrics: Metrics | None, *, json_logs: bool, reports: bool) -> Answers | None:
    """What times and names the interactions: None when nothing would use it (no metrics, text
    logs, no error reports); with JSON logs, a line per interaction handled (``bot.answers``)."""
    if metrics is None and not json_logs and not reports:
        return None
    return Answers(metrics, logging.getLogger("bot.answers") if json_logs else None)


class TimedItems(BoundItems):
    """``BoundItems`` whose classes run their clicks through ``answers`` (same templates:
    custom ids unchanged)."""

    def __init__(self, bot: Himiko, answers: Answers) -> None:
        super().__init__(bot)
        self._answers = answers
        self._timed: dict[type[PersistentItem], type[PersistentItem]] = {}

    def __call__(self, item: type[ItemT], /) -> type[ItemT]:
        """``item`` bound to the context, its clicks timed and counted."""
        made = self._timed.get(item)
        if made is None:
            bound = super().__call__(item)
            made = self._timed[item] = _timed_class(bound, self._answers)
        return cast(type[ItemT], made)


def _timed_class(bound: type[ItemT], answers: Answers) -> type[ItemT]:
    """A subclass of ``bound`` whose ``callback`` goes through ``answers.click``."""
    inner = bound.callback

    async def callback(self: ItemT, interaction: Interaction) -> None:
        await answers.click(interaction, self, lambda: inner(self, interaction))

    template = item_template(bound)
    namespace = {"callback": callback, "__module__": bound.__module__}
    return cast(type[ItemT], type(bound.__name__, (bound,), namespace, template=template))
