"""A panel step's picture, drawn after its answer and attached to it (D100): the turn panel's,
``/play``'s and the turn button's."""

from __future__ import annotations

import logging
from collections.abc import Callable

from discord import ui

from bot.context import Himiko
from bot.internals import Interaction
from bot.present import picture
from bot.service.pictures import PictureOrder
from bot.thread.picture_queue import Delivery
from bot.views.panel_card import PANEL_PICTURE

log = logging.getLogger(__name__)


def follow_picture(
    bot: Himiko,
    interaction: Interaction,
    game_id: int,
    order: PictureOrder | None,
    card: Callable[[], ui.LayoutView] | None = None,
) -> None:
    """Queue the step's picture; once drawn it is attached to the interaction's answer by an
    edit (D100). A newer step of the same player in the same game replaces it if it has not
    started, and a picture drawn after a newer step was asked for is not attached; without an
    ``order`` (the turn ended) nothing is drawn and the player's older step pictures are not
    attached either. A panel's ``card`` is its card again, with the picture in its gallery: a
    card shows only the attachments its components name. Failing to draw or attach it (Discord
    5xx, the answer's token expired after 15 minutes) loses only the picture: the action is
    saved and answered already, the card stays in words."""
    queue = bot.outbox.pictures
    key = (game_id, "step", interaction.user.id)

    async def attach(version: int) -> Delivery | None:
        if order is None:
            return None
        try:
            png = await bot.rooms.pictures.draw(order)
        except Exception:
            log.warning("game %s: a step's picture was lost", game_id, exc_info=True)
            return None

        async def deliver() -> None:
            try:
                if queue.newer(key, version):
                    return
                if card is None:
                    await interaction.edit_original_response(attachments=[picture(png)])
                else:
                    await interaction.edit_original_response(
                        attachments=[picture(png, PANEL_PICTURE)], view=card()
                    )
            except Exception:
                log.warning("game %s: a step's picture was lost", game_id, exc_info=True)

        return deliver

    queue.put_newest(key, attach)
