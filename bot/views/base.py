"""What the persistent buttons and menus (``discord.ui.DynamicItem``) have in common.

The mixins go before ``ui.DynamicItem[...]`` in a class's bases; every class takes its
``template`` from its ``bot.custom_ids`` specification, so custom ids stay exactly as they were
(old buttons keep working after a restart).
"""

from __future__ import annotations

import re
from typing import Any, ClassVar, Self, cast

import discord
from discord import ui

from bot.custom_ids import CustomId
from bot.present import guarded, t
from bot.service import ServiceError

Interaction = discord.Interaction[Any]


def button(
    custom_id: str, label: str, style: discord.ButtonStyle = discord.ButtonStyle.secondary
) -> ui.Button[ui.View]:
    """A persistent button (its custom id is what a click is rebuilt from)."""
    return ui.Button(label=label, style=style, custom_id=custom_id)


class OkNoButton:
    """Confirm / Cancel that only its user may click.

    Custom id from ``spec`` (``ok``, ``game``, ``version``, ``user`` and the subclass's extra
    fields, see ``bot.custom_ids``); a subclass sets ``spec`` and ``ok_style`` and implements
    ``confirm`` and ``cancel``.
    """

    spec: ClassVar[CustomId]
    ok_style: ClassVar[discord.ButtonStyle]

    def __init__(
        self,
        ok: bool,
        game_id: int,
        version: int,
        user_id: int,
        label: str = "",
        **extra: str,
    ) -> None:
        self.ok, self.game_id, self.version, self.user_id = ok, game_id, version, user_id
        word = "ok" if ok else "no"
        custom_id = self.spec.format(ok=word, game=game_id, version=version, user=user_id, **extra)
        style = self.ok_style if ok else discord.ButtonStyle.secondary
        cast(Any, super()).__init__(button(custom_id, label or word, style))  # the DynamicItem

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        """Rebuild from a click (a subclass with extra fields overrides this)."""
        return cls(
            match["ok"] == "ok", int(match["game"]), int(match["version"]), int(match["user"])
        )

    @classmethod
    def pair(
        cls, interaction: Interaction, game_id: int, version: int, yes: str, no: str
    ) -> ui.View:
        """A view with this button's Confirm and Cancel for the interaction's user, labelled
        with the catalog texts ``yes`` and ``no``."""
        user = interaction.user.id
        view = ui.View(timeout=None)
        for ok, key in ((True, yes), (False, no)):
            view.add_item(cast(Any, cls(ok, game_id, version, user, t(interaction, key))))
        return view

    async def callback(self, interaction: Interaction) -> None:
        """Confirm or cancel, for the button's user only."""
        await guarded(interaction, lambda: self._run(interaction))

    async def _run(self, interaction: Interaction) -> None:
        if interaction.user.id != self.user_id:
            raise ServiceError("error.not_yours")
        await (self.confirm(interaction) if self.ok else self.cancel(interaction))

    async def confirm(self, interaction: Interaction) -> None:
        """The Confirm click."""
        raise NotImplementedError

    async def cancel(self, interaction: Interaction) -> None:
        """The Cancel click."""
        raise NotImplementedError
