"""A turn message as a card (D200): the words first, then the card once its pictures are drawn.

A turn message is posted as plain words, with its buttons and the ping of the player to act, so
the notification says something (a mention inside a layout message gives an empty push:
discord-api-docs issue 7854). Once its pictures are drawn the same message is edited into a
card (``bot.cards``): a container in the colour of the seat to play, a heading (game, round, who
plays and until when), the turn in words, a gallery of the phone-sized turn picture and the
whole board, then Take your turn and View on the web. A game's last turn becomes the final
card: the results in words, the recap and the final board, the coach's turning points, Rematch
and View on the web. An edit cannot take the layout flag off again, and Discord keeps the first
post's push as it was.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

import discord
from discord import ui

from bot.cards import buttons_of, card, fit_texts, gallery, rows, texts
from bot.context import Himiko
from bot.games import presentation
from bot.service import PlayerInfo, TurnReport
from bot.service.messages import FinalExtras
from bot.thread.turns import RECAP_NAME, next_lines, turn_told
from engine import games
from render import seat_colour

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
    heading, body = fit_texts(
        [
            _heading(bot, report, locale, deadline),
            "\n".join([*told.head, *told.earlier, *told.this]),
        ]
    )
    shown = _shown(bot, locale, pictures, final=report.final is not None)
    files = [discord.File(io.BytesIO(data), filename=name) for name, _, data in shown]
    parts: list[ui.Item[ui.LayoutView]] = [*texts(heading, body)]
    if shown:
        parts += [ui.Separator(), gallery(*((name, about) for name, about, _ in shown))]
    parts += rows(buttons_of(_buttons(bot, report, locale, final)))
    return card(*parts, accent=_accent(report)), files


def _heading(bot: Himiko, report: TurnReport, locale: str | None, deadline: int | None) -> str:
    """The card's heading: the game and its round (or turn), then who plays and until when."""
    game = games.rules_for(report.game).display_name
    counts = presentation(report.game).counts
    key = "card.heading" if counts == "round" else f"card.heading_{counts}"
    if report.final is not None:
        key, called = "card.heading_over", []
    else:
        called = next_lines(bot, report, locale, deadline)
    return "\n".join([bot.catalog.text(key, locale, game=game, round=report.round), *called])


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


def _buttons(
    bot: Himiko, report: TurnReport, locale: str | None, final: FinalExtras | None
) -> ui.View | None:
    """The card's buttons: Take your turn (a human to act) or a last turn's turning points
    and Rematch, then View on the web."""
    view: ui.View | None = None
    if report.final is not None:
        view = bot.buttons.final_view(
            report.game_id, locale, coach=final is not None and final.coach
        )
    elif report.next_player is not None and not report.next_player.computer:
        view = bot.buttons.turn_view(report.game_id, report.version, report.next_turn, locale)
    return bot.buttons.web_link(report.game_id, locale, view)


def _accent(report: TurnReport) -> int | None:
    """The colour of the seat to play (a last turn: the winner's), as Discord's accent."""
    if report.final is not None:
        seat: PlayerInfo | None = report.players[report.final.winner.seat]
    else:
        seat = report.next_player
    rgb = None if seat is None else seat_colour(report.game, seat.colour)
    return None if rgb is None else (rgb[0] << 16) | (rgb[1] << 8) | rgb[2]
