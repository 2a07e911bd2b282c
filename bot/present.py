"""Presenting service results on Discord: texts in the user's locale, files, replies, errors."""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, contextmanager, nullcontext
from typing import Protocol, TypedDict

import discord
from babel.numbers import format_decimal

from bot.admission import AnswerSoon
from bot.catalog import LOCALES, Catalog, default_catalog, normalize_locale
from bot.catalog.typography import MESSAGE_AFTER_COLON, after_colon, card_names, nested_quotes
from bot.games import PRESENTATIONS, presentation
from bot.internals import Interaction
from bot.names import display_name, league_name
from bot.service import EngineRejected, Member, PlayResult, Rooms, ServiceError, UndoResult
from bot.service.errors import NAMES_THE_ACTION
from bot.store import is_busy
from bot.summary import Summary
from engine.errors import EngineError

log = logging.getLogger(__name__)

MAX_CONTENT = 2000
LEGAL_SHOWN = 8
NO_MENTIONS = discord.AllowedMentions.none()
NAME_PARAMS = ("player", "host")  # error parameters that hold a player's name
_ESCAPE = re.compile(r"\\([^\sA-Za-z0-9])")  # a markdown escape (``\_``), shown raw in a choice


def t(interaction: Interaction, key: str, /, **params: object) -> str:
    """A catalog text in the locale of the user behind the interaction (the one catalog of the
    process, ``default_catalog()``, which the bot's ``catalog`` is too); a quote inside a
    quote in the language's inner marks."""
    catalog, locale = default_catalog(), str(interaction.locale)
    return nested_quotes(catalog.text(key, locale, **params), catalog.text("language.code", locale))


def public_locale(interaction: Interaction) -> str | None:
    """The locale for messages everyone reads: the server's, if known."""
    return None if interaction.guild_locale is None else str(interaction.guild_locale)


def known_language(locale: object) -> str | None:
    """The catalog language of a Discord locale (``fr`` -> ``fr``, ``en-US`` -> ``en``), or None
    when the bot has no catalog for it (``de``)."""
    if locale is None:
        return None
    short = str(locale).replace("_", "-").split("-")[0].lower()
    return short if short in LOCALES else None


class Roomed(Protocol):
    """Whatever carries the rooms: the bot, or its web pages' host (``bot/web/hosting.py``)."""

    @property
    def rooms(self) -> Rooms:
        """The game services."""
        ...


async def server_language(bot: Roomed, guild_id: int | None, preferred: object) -> str | None:
    """The language of a server's public texts outside games (league posts) and the default of
    its new games: its ``/server language`` default, else its ``preferred`` locale if the bot
    speaks it; None outside a server or when neither applies."""
    if guild_id is None:
        return None
    chosen = await bot.rooms.settings.server_language(guild_id)
    return chosen or known_language(preferred)


def decimal(value: float, locale: str | None, *, signed: bool = False, whole: bool = False) -> str:
    """A number with one decimal in a language's own way (``1.5`` -> ``1,5`` in French);
    ``whole``: up to two decimals, none for a whole number (league points: ``3``, ``1,5``)."""
    number = "#,##0.##" if whole else "#,##0.0"
    pattern = f"+{number};-{number}" if signed else number
    return format_decimal(value, format=pattern, locale=normalize_locale(locale))


def clip(text: str, limit: int = MAX_CONTENT) -> str:
    """Text cut to Discord's length limit with an ellipsis."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def plain(text: str) -> str:
    """Text without markdown emphasis or code marks (for places that show it raw: choices)."""
    bare = text.replace("**", "").replace("`", "")
    return _ESCAPE.sub(r"\1", bare)


def picture(png: bytes, name: str = "board.png") -> discord.File:
    """A PNG as an attachment."""
    return discord.File(io.BytesIO(png), filename=name)


def only(user_id: int | None) -> discord.AllowedMentions:
    """Allowed mentions that ping just this user (nobody for None)."""
    if user_id is None:
        return NO_MENTIONS
    return discord.AllowedMentions(
        everyone=False, roles=False, replied_user=False, users=[discord.Object(id=user_id)]
    )


def users(user_ids: Sequence[int]) -> discord.AllowedMentions:
    """Allowed mentions that ping exactly these users."""
    return discord.AllowedMentions(
        everyone=False,
        roles=False,
        replied_user=False,
        users=[discord.Object(id=u) for u in user_ids],
    )


class AfterSave(Exception):
    """A failure after the move was saved: the player must not hear that nothing changed."""


@contextmanager
def after_save() -> Iterator[None]:
    """Mark failures in the block as happening after a save (refusals pass unchanged)."""
    try:
        yield
    except ServiceError:
        raise
    except Exception as error:
        raise AfterSave(str(error)) from error


def played_text(interaction: Interaction, result: PlayResult, posted: bool = True) -> str:
    """The player's private confirmation of a play (saying so if the thread post failed)."""
    actions = "; ".join(result.actions)
    # what it did in words too: a fish drawn face down is named at once (QA), a card picked
    said = played_words(interaction, result)
    if result.turn is not None:
        key = "play.turn_done" if posted else "play.turn_done_unposted"
        return t(interaction, key, actions=actions, words=said)
    step = t(interaction, result.step) if result.step else ""
    applied = t(interaction, "play.applied_words", actions=actions, words=said)
    return applied + " " + t(interaction, "play.step", step=step)


def undone_text(interaction: Interaction, result: UndoResult) -> str:
    """The player's private word that an action was taken back: the action in the panel's
    words (a choice again, in the view after the undo), its notation second."""
    said = None
    if result.game in PRESENTATIONS and result.view is not None:
        label = presentation(result.game).panel_label
        said = label(lambda k, **p: t(interaction, k, **p), result.view, result.undone)
    if said is None or said.strip() == result.undone.strip():
        return t(interaction, "play.undone", action=result.undone)
    return t(interaction, "play.undone_words", said=said, action=result.undone)


def played_words(interaction: Interaction, result: PlayResult) -> str:
    """What a play did, in the reader's words (its events; what made none, by its actions),
    said to the player who played it ("you took fleet 5")."""
    words = Summary(default_catalog(), str(interaction.locale), result.game)
    return words.yours(result.events, result.names, played=result.actions)


def error_text(catalog: Catalog, error: ServiceError, locale: str | None) -> str:
    """What was wrong and, when known, what is legal instead (in words, when the game and the
    player's view are known: "“Fish the orange saba” (notation: `fish os`)")."""
    params = {k: _shown(error.key, k, v) for k, v in error.params.items()}
    said = _said(catalog, error, locale)
    refused, told = None, {}
    if error.refusal is not None:
        where = isinstance(error, EngineRejected)  # not named by the frame around the message
        told = _told(catalog, error, locale, said)
        refused = refusal_text(catalog, error.refusal, locale, where, told)
        params["message"] = refused or params["message"]
    if error.suggested and said is not None:
        params["suggestions"] = _suggested(catalog, error.suggested, locale, said)
    key = error.key if error.fallback is None or catalog.has(error.key) else error.fallback
    words = said(str(params.get("part", ""))) if said is not None else None
    if words and catalog.has(f"{key}_words"):  # the action in words, notation second
        key, params["said"] = f"{key}_words", words
    if refused and MESSAGE_AFTER_COLON.search(catalog.raw(key, locale)):
        names = _names(catalog, locale, error.refusal, told)
        params["message"] = after_colon(catalog, locale, refused, names)
    text = catalog.text(key, locale, **params)
    if error.legal:
        text += "\n" + legal_text(catalog, error.legal, locale, after=error.legal_after, said=said)
    return clip(nested_quotes(text, catalog.text("language.code", locale)))


Saying = Callable[[str], str | None]


def _said(catalog: Catalog, error: ServiceError, locale: str | None) -> Saying | None:
    """How the refused game names an action in words (its panel's label), None when the
    game is not known; the function gives None for an action without words of its own."""
    if error.game is None or error.game not in PRESENTATIONS:
        return None
    label = presentation(error.game).panel_label
    view = error.view or {}

    def said(action: str) -> str | None:
        words = label(lambda k, **p: catalog.text(k, locale, **p), view, action)
        return None if words.strip() == action.strip() else words

    return said


def _suggested(catalog: Catalog, actions: Sequence[str], locale: str | None, said: Saying) -> str:
    """A "did you mean"'s actions, each in words with its notation marked where it has
    words ("« Filet … » (notation : `net N:bt r1c2 h`)"), else its notation."""
    shown = []
    for action in actions:
        words = said(action)
        key = "error.action_words" if words else "error.action"
        shown.append(catalog.text(key, locale, said=words, part=action))
    return ", ".join(shown)


def _told(
    catalog: Catalog, error: ServiceError, locale: str | None, said: Saying | None
) -> dict[str, object]:
    """A refusal's parameters the bot says better than the engine: the refused action in
    words, notation second ("played"), what the step asks, in words ("wanted"), and the
    things its game names in words (a boat, a token: the game's ``refusal_words``)."""
    data = error.refusal.data if error.refusal is not None else {}
    told: dict[str, object] = _game_words(catalog, error.refusal, locale)
    played = data.get(NAMES_THE_ACTION)
    if isinstance(played, str):
        words = said(played) if said is not None else None
        key = "error.action_words" if words else "error.action"
        told[NAMES_THE_ACTION] = catalog.text(key, locale, said=words, part=played)
    if "wanted" in data:
        told["wanted"] = catalog.text(error.step, locale) if error.step else f"`{data['wanted']}`"
    return told


def _game_words(
    catalog: Catalog, refusal: EngineError | None, locale: str | None
) -> dict[str, object]:
    """The refusal's parameters its game says in words ("de bambou" for the engine's
    "bamboo"), none for a refusal of no registered game or without a key."""
    if refusal is None or refusal.key is None or refusal.game not in PRESENTATIONS:
        return {}
    words = presentation(refusal.game).refusal_words
    return words(lambda k, **p: catalog.text(k, locale, **p), refusal.key, refusal.data)


def _shown(key: str, param: str, value: object) -> object:
    """An error's parameter as a message shows it: names of players and leagues escaped."""
    if not isinstance(value, str):
        return value
    if param in NAME_PARAMS:
        return display_name(value)
    if param == "name" and key.startswith("league."):
        return league_name(value)
    return value


def refusal_id(refusal: EngineError) -> str | None:
    """The catalog id of an engine refusal: ``<game>.refusal.<key>`` (``refusal.<key>``: the
    match's own); None for an error that has only its English message (e.g. a test game's)."""
    if refusal.key is None:
        return None
    return f"{refusal.game}.refusal.{refusal.key}" if refusal.game else f"refusal.{refusal.key}"


def refusal_text(
    catalog: Catalog,
    refusal: EngineError,
    locale: str | None,
    where: bool = False,
    told: Mapping[str, object] | None = None,
) -> str | None:
    """What the engine refused and why, in the locale; None where only English exists.

    ``where``: say which action of a sequence it was, as the engine's English does;
    ``told``: parameters said by the bot in place of the engine's (``_told``).
    """
    key = refusal_id(refusal)
    if key is None:
        return None
    if not catalog.has(key):
        log.warning("refusal %r is missing from the catalog; showing the engine's English", key)
        return None
    params = {
        k: display_name(v) if k in NAME_PARAMS and isinstance(v, str) else v
        for k, v in refusal.data.items()
    }
    params.update(told or {})
    text = catalog.text(key, locale, **params)
    if where and "action" in refusal.data:
        text = after_colon(catalog, locale, text, _names(catalog, locale, refusal, params))
        text = catalog.text("error.sequence.action", locale, number=refusal.data["action"]) + text
    return text


def _names(
    catalog: Catalog,
    locale: str | None,
    refusal: EngineError | None,
    params: Mapping[str, object] | None = None,
) -> list[str]:
    """What a refusal may begin with that keeps its capital after a colon: its parameters'
    words (a player, a tile, an action in words; ``params``: the bot's own words for them)
    and its game's card names."""
    if refusal is None:
        return []
    values = [*refusal.data.values(), *(params or {}).values()]
    words = [str(v) for v in values if isinstance(v, str)]
    return [*words, *map(display_name, words), *card_names(catalog, locale, refusal.game)]


def legal_text(
    catalog: Catalog,
    legal: Sequence[str],
    locale: str | None,
    after: int = 0,
    said: Saying | None = None,
) -> str:
    """What is legal, one action a line: in words with its notation (``said``: the game's
    words for an action), else its notation; now, or after an earlier part of a sequence."""
    lines, worded = [], False
    for action in legal[:LEGAL_SHOWN]:
        words = said(action) if said is not None else None
        worded = worded or bool(words)
        key = "error.legal_line_words" if words else "error.legal_line"
        lines.append(catalog.text(key, locale, said=words, part=action))
    more = len(legal) - len(lines)
    key = "error.legal_after" if after else "error.legal"
    key += ("_words" if worded else "") + ("_more" if more > 0 else "")
    return catalog.text(key, locale, legal="\n".join(lines), more=more, number=after)


class Reply(TypedDict, total=False):
    """What ``send`` gives Discord: only what it was handed (discord.py then sends nothing
    for the rest, as for a keyword not given)."""

    content: str
    embed: discord.Embed
    file: discord.File
    view: discord.ui.View
    ephemeral: bool
    allowed_mentions: discord.AllowedMentions


async def send(
    interaction: Interaction,
    content: str | None = None,
    *,
    png: bytes | None = None,
    view: discord.ui.View | None = None,
    ephemeral: bool = True,
    mentions: discord.AllowedMentions = NO_MENTIONS,
    png_name: str = "board.png",
    embed: discord.Embed | None = None,
) -> None:
    """Reply to an interaction, or follow up if it was already answered or deferred."""
    kwargs: Reply = {"ephemeral": ephemeral, "allowed_mentions": mentions}
    if content is not None:
        kwargs["content"] = clip(content)
    if embed is not None:
        kwargs["embed"] = embed
    if png is not None:
        kwargs["file"] = picture(png, png_name)
    if view is not None:
        kwargs["view"] = view
    response = interaction.response
    # a command that may answer directly: never crossing its late deferral (D139)
    turn: AbstractAsyncContextManager[object] = (
        response.answering if isinstance(response, AnswerSoon) else nullcontext()
    )
    async with turn:
        if response.is_done():
            await interaction.followup.send(**kwargs)
        else:
            await response.send_message(**kwargs)


async def report_error(interaction: Interaction, error: BaseException) -> None:
    """Answer a failed interaction: the reason for a ServiceError, else a generic apology."""
    interaction.extras["error"] = error  # its outcome, for the metrics (bot/ops/answers.py)
    if isinstance(error, ServiceError):
        try:
            text = error_text(default_catalog(), error, str(interaction.locale))
        except Exception:  # a refusal that cannot be said is still answered, never left silent
            log.exception("the refusal %s could not be put in words", error.key)
            text = t(interaction, "error.generic")
    elif is_busy(error):  # other writers kept the database (or the row) busy: rolled back
        log.warning("interaction refused, the database stayed busy: %s", error)
        text = t(interaction, "error.busy")
    else:
        saved = isinstance(error, AfterSave) and error.__cause__ is not None
        cause = error.__cause__ if saved else error
        data: Mapping[str, object] = interaction.data or {}
        log.error(
            "interaction failed%s: user=%s guild=%s channel=%s data=%s",
            " after saving" if saved else "",
            interaction.user.id if interaction.user else None,
            interaction.guild_id,
            interaction.channel_id,
            {k: data.get(k) for k in ("name", "custom_id", "options", "values")},
            exc_info=cause,
        )
        text = t(interaction, "error.after_save" if saved else "error.generic")
    try:
        await send(interaction, text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not send the error reply", exc_info=True)


async def busy_notice(interaction: Interaction, key: str) -> None:
    """A short private word from the admission gate, in the player's language."""
    interaction.extras["notice"] = key  # its outcome, for the metrics (bot/ops/answers.py)
    await send(interaction, t(interaction, key), ephemeral=True)


async def guarded(interaction: Interaction, body: Callable[[], Awaitable[None]]) -> None:
    """Run a handler; any failure becomes a short ephemeral reply, never a traceback."""
    try:
        await body()
    except Exception as error:  # every failure is answered; unknown ones are logged
        await report_error(interaction, error)


def member_of(interaction: Interaction) -> Member:
    """The user with what Discord lets them do: Manage Threads where they are, Manage Server,
    their roles (what abandoning a game and running a league depend on)."""
    user = interaction.user
    if not isinstance(user, discord.Member):  # outside a server: no server rights, no roles
        return Member(user.id, manage_threads=interaction.permissions.manage_threads)
    return Member(
        user.id,
        manage_threads=interaction.permissions.manage_threads,
        manage_guild=user.guild_permissions.manage_guild,
        roles=tuple(r.id for r in user.roles),
    )


def thread_of(interaction: Interaction) -> int:
    """The id of the channel the command was used in (a game's thread, hopefully)."""
    if interaction.guild_id is None or interaction.channel_id is None:
        raise ServiceError("error.guild_only")
    return interaction.channel_id
