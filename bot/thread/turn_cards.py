"""A turn message as a card (D200): the words first, then the card once its pictures are drawn.

A turn message is posted as plain words, with its buttons and the ping of the player to act, so
the notification says something (a mention inside a layout message gives an empty push:
discord-api-docs issue 7854). Once its pictures are drawn the same message is edited into a
card (``bot.cards``): a container in the colour of the seat to play, a heading (game, round, who
plays and until when), the turn in words, the phone-sized turn picture and the whole board (a
gallery each), then Take your turn, View on the web and Rules. A game's last turn becomes the
final card: the results in words, the recap and the final board, the coach's turning points,
Rematch, View on the web and Rules. An edit cannot take the layout flag off again, and Discord
keeps the first post's push as it was. The opening becomes its card at once; an ending (it pings
nobody) is posted as its card.
"""

from __future__ import annotations

import io
import logging
from dataclasses import dataclass
from typing import Any

import discord
from discord import ui

from bot.cards import MAX_CARD_TEXT, buttons_of, card, fit_texts, gallery, rows, texts
from bot.context import Himiko
from bot.games import presentation
from bot.names import display_name
from bot.present import NO_MENTIONS, picture, users
from bot.service import Created, Ended, PlayerInfo, TurnReport
from bot.service.messages import FinalExtras
from bot.thread.threads import game_locale, message_nonce
from bot.thread.turns import fitting, next_lines, opening_buttons, opening_text, turn_told
from engine import games
from render import seat_colour

log = logging.getLogger(__name__)
RECAP_NAME = "recap.gif"
TURN_PICTURE = "turn.png"
BOARD_PICTURE = "board.png"


@dataclass(frozen=True, kw_only=True)
class CardPictures:
    """A card's pictures as drawn: the turn picture for a phone, the whole board, a last
    turn's recap (None: not drawn, or it failed: the card is readable without it)."""

    turn: bytes | None = None
    board: bytes | None = None
    recap: bytes | None = None


def turn_card(
    bot: Himiko,
    report: TurnReport,
    locale: str | None,
    deadline: int | None,
    pictures: CardPictures,
    *,
    final: FinalExtras | None = None,
) -> tuple[ui.LayoutView, list[discord.File]]:
    """A turn message's card and the files its gallery shows (``final``: a last turn's)."""
    told = turn_told(bot, report, locale)
    heading = _heading(bot, report, locale, deadline)
    room = MAX_CARD_TEXT - len(heading)  # the oldest computer turns go first, this turn never
    lines = fitting(told.head, told.earlier, told.this, room)
    heading, body = fit_texts([heading, "\n".join(lines)])
    files, pictured = _pictured(_shown(bot, locale, pictures, final=report.final is not None))
    parts = [*texts(heading, body), *pictured, *rows(_buttons(bot, report, locale, final))]
    return card(*parts, accent=_accent(report)), files


def _heading(bot: Himiko, report: TurnReport, locale: str | None, deadline: int | None) -> str:
    """The card's heading: the game and the round (or turn) now played, then who plays and
    until when."""
    if report.final is not None:
        return _game_heading(bot, report.game, "card.heading_over", locale)
    counts = presentation(report.game).counts
    key = "card.heading" if counts == "round" else f"card.heading_{counts}"
    nxt = report.next_turn  # the turn the player to act is about to play
    number = report.round if nxt is None else nxt.round
    heading = _game_heading(bot, report.game, key, locale, round=number)
    return "\n".join([heading, *next_lines(bot, report, locale, deadline)])


def _game_heading(bot: Himiko, game: str, key: str, locale: str | None, **more: object) -> str:
    """A heading naming the game (``key``: its catalog text, with ``more``)."""
    name = games.rules_for(game).display_name
    return bot.catalog.text(key, locale, game=name, **more)


def _shown(
    bot: Himiko, locale: str | None, pictures: CardPictures, *, final: bool
) -> list[tuple[str, str, bytes]]:
    """The gallery's pictures as (file name, description, bytes): the turn picture (not on
    the final card) and the board, or the recap and the final board; the turn picture is left
    out when it is the board itself (a game without a turn picture)."""
    turn = None if final or pictures.turn == pictures.board else pictures.turn
    listed = [
        (RECAP_NAME, "card.recap", pictures.recap),
        (TURN_PICTURE, "card.turn_picture", turn),
        (BOARD_PICTURE, "card.final_board" if final else "card.board", pictures.board),
    ]
    return [
        (name, bot.catalog.text(key, locale), data)
        for name, key, data in listed
        if data is not None
    ]


def _pictured(
    shown: list[tuple[str, str, bytes]],
) -> tuple[list[discord.File], list[ui.Item[ui.LayoutView]]]:
    """The files of a card's pictures, and what shows them below a separator: one gallery per
    picture (a gallery of two shows them side by side, half as wide, and the turn picture is
    drawn to be read at a phone's full width); nothing when there is no picture."""
    files = [discord.File(io.BytesIO(data), filename=name) for name, _, data in shown]
    galleries = [gallery((name, about)) for name, about, _ in shown]
    return files, [ui.Separator(), *galleries] if shown else []


def _buttons(
    bot: Himiko, report: TurnReport, locale: str | None, final: FinalExtras | None
) -> list[ui.Item[ui.View]]:
    """The card's buttons: Take your turn (a human to act) or a last turn's turning points
    and Rematch, then View on the web and Rules."""
    view: ui.View | None = None
    if report.final is not None:
        coach = final is not None and final.coach
        view = bot.buttons.final_view(report.game_id, locale, coach=coach)
    elif report.next_player is not None and not report.next_player.computer:
        view = bot.buttons.turn_view(report.game_id, report.version, report.next_turn, locale)
    shown = buttons_of(bot.buttons.web_link(report.game_id, locale, view))
    return [*shown, bot.buttons.rules(report.game, locale)]


def _accent(report: TurnReport) -> int | None:
    """The colour of the seat to play (a last turn: the winner's), as Discord's accent."""
    if report.final is not None:
        seat: PlayerInfo | None = report.players[report.final.winner.seat]
    else:
        seat = report.next_player
    return _rgb(None if seat is None else seat_colour(report.game, seat.colour))


def _rgb(colour: tuple[int, int, int] | None) -> int | None:
    """A colour as Discord's accent (0xRRGGBB), if any."""
    return None if colour is None else (colour[0] << 16) | (colour[1] << 8) | colour[2]


async def post_ending(
    bot: Himiko, channel: discord.abc.Messageable, ended: Ended, final: FinalExtras | None
) -> None:
    """The last message of a game that ended before its end (a resignation, an abandon, a
    cancel), as its card at once (it pings nobody): why it ended and who won, the recap and
    the board as it stood, My turning points (a coached game), Rematch (not after a cancel),
    View on the web and Rules."""
    locale = game_locale(ended.language, channel)
    final = final or FinalExtras(coach=False, recap=None)
    name = "" if ended.player is None else display_name(ended.player.name)
    winner = "" if ended.winner is None else display_name(ended.winner.name)
    by = "" if ended.by is None else f"<@{ended.by}>"
    heading, said = fit_texts(
        [
            _game_heading(bot, ended.game, "card.heading_over", locale),
            bot.catalog.text(f"game.{ended.reason}", locale, player=name, winner=winner, by=by),
        ]
    )
    drawn = CardPictures(board=final.board, recap=final.recap)
    files, pictured = _pictured(_shown(bot, locale, drawn, final=True))
    parts = [*texts(heading, said), *pictured]
    rematch = None
    if ended.reason != "cancelled":
        rematch = bot.buttons.final_view(ended.game_id, locale, coach=final.coach)
    shown_buttons = buttons_of(bot.buttons.web_link(ended.game_id, locale, rematch))
    parts += rows([*shown_buttons, bot.buttons.rules(ended.game, locale)])
    colour = None if ended.winner is None else seat_colour(ended.game, ended.winner.colour)
    await channel.send(
        view=card(*parts, accent=_rgb(colour)),
        files=files,
        allowed_mentions=NO_MENTIONS,
        nonce=message_nonce(ended.game_id, ended.version),
    )


async def post_opening(
    bot: Himiko, thread: discord.abc.Messageable, created: Created, deadline: int | None
) -> None:
    """The first message of a game's thread: players, who starts (and the first turn's
    ``deadline``, as prepared) and the board, posted in words with the pings, then at once
    edited into its card keeping its picture; if that edit fails, it stays in words."""
    locale = game_locale(created.language, thread)
    humans = users([p.user_id for p in created.players if p.user_id is not None])
    text = opening_text(bot, created, locale, deadline)
    view = opening_buttons(bot, created, locale)
    buttons: dict[str, Any] = {} if view is None else {"view": view}
    message = await thread.send(
        text,
        file=picture(created.picture, BOARD_PICTURE),
        allowed_mentions=humans,
        nonce=message_nonce(created.game_id, created.version),
        **buttons,
    )
    heading = _game_heading(bot, created.game, "card.heading_new", locale)
    parts: list[ui.Item[ui.LayoutView]] = [
        *texts(*fit_texts([heading, text])),
        ui.Separator(),
        gallery((BOARD_PICTURE, bot.catalog.text("card.board", locale))),
        *rows(
            [
                *buttons_of(opening_buttons(bot, created, locale)),
                bot.buttons.rules(created.game, locale),
            ]
        ),
    ]
    colour = seat_colour(created.game, created.first.colour)
    try:
        await message.edit(
            content=None,
            view=card(*parts, accent=_rgb(colour)),
            attachments=message.attachments,
            allowed_mentions=humans,
        )
    except discord.HTTPException:
        log.warning("game %s: its opening stays in words", created.game_id, exc_info=True)
