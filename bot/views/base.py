"""What the persistent buttons and menus (``discord.ui.DynamicItem``) have in common.

The mixins go before ``ui.DynamicItem[...]`` in a class's bases; every class takes its
``template`` from its ``bot.custom_ids`` specification, so custom ids stay exactly as they were
(old buttons keep working after a restart).
"""

from __future__ import annotations

import logging
import re
from typing import Any, ClassVar, Self, TypeVar, cast

import discord
from discord import ui

from bot.context import Himiko
from bot.custom_ids import CustomId
from bot.internals import Interaction, item_template
from bot.present import guarded, t
from bot.service import ServiceError

log = logging.getLogger(__name__)

ItemT = TypeVar("ItemT", bound=ui.DynamicItem[Any])
#: A persistent button or menu (a ``DynamicItem`` of a button or a select menu).
PersistentItem = ui.DynamicItem[ui.Item[ui.View]]


class BoundItems:
    """Each persistent item class bound to one context, made once per class.

    A click is rebuilt by the registered class (``from_custom_id``), and discord.py registers
    again the class of every ``DynamicItem`` in a view it sends (``ViewStore.add_view``). So the
    bot registers the bound classes and every view builds them: the class a click reaches always
    carries the context (``bot``), handed down by the composition root, not read from the
    interaction.
    """

    def __init__(self, bot: Himiko) -> None:
        self._bot = bot
        self._made: dict[type[PersistentItem], type[PersistentItem]] = {}

    def __call__(self, item: type[ItemT], /) -> type[ItemT]:
        """``item`` with ``bot`` set to this context (same template: custom ids unchanged)."""
        made = self._made.get(item)
        if made is None:
            template = item_template(item)
            namespace = {"bot": self._bot, "__module__": item.__module__}
            made = type(item.__name__, (item,), namespace, template=template)
            self._made[item] = made
        return cast(type[ItemT], made)


#: Discord refuses a button whose label is longer (a select option's may be 100)
MAX_BUTTON_LABEL = 80


def button(
    custom_id: str, label: str, style: discord.ButtonStyle = discord.ButtonStyle.secondary
) -> ui.Button[ui.View]:
    """A persistent button (its custom id is what a click is rebuilt from), its label cut to
    Discord's 80 characters with an ellipsis (a Polish panel's one choice, "Zbierz żetony
    kultury: ..." of four islands, was longer: the whole panel was refused)."""
    if len(label) > MAX_BUTTON_LABEL:
        label = label[: MAX_BUTTON_LABEL - 1] + "…"
    return ui.Button(label=label, style=style, custom_id=custom_id)


async def drop_buttons(interaction: Interaction) -> None:
    """Take the buttons off the message clicked, once what they ask is done: clicking again
    would only be told so. Best effort (logged): the message says the same either way."""
    if interaction.message is None:
        return
    try:
        await interaction.message.edit(view=None)
    except discord.HTTPException:
        log.info("message %s keeps its buttons", interaction.message.id)


class OneGameButton:
    """A persistent button whose custom id names one game (its ``game`` field): a click
    rebuilds it from that id alone. The mixin goes before ``ui.DynamicItem[...]``; the class
    takes the game's id first."""

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: ui.Item[ui.View], match: re.Match[str], /
    ) -> Self:
        """Rebuild from a click."""
        made: Self = cast(Any, cls)(int(match["game"]))  # a subclass takes the game's id first
        return made


class OkNoButton:
    """Confirm / Cancel that only its user may click.

    Custom id from ``spec`` (``ok``, ``game``, ``version``, ``user`` and the subclass's extra
    fields, see ``bot.custom_ids``); a subclass sets ``spec`` and ``ok_style`` and implements
    ``confirm`` and ``cancel``.
    """

    spec: ClassVar[CustomId]
    ok_style: ClassVar[discord.ButtonStyle]
    bot: ClassVar[Himiko]  # set on the bound class (``BoundItems``)

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
        cls, interaction: Interaction, item: ui.Item[ui.View], match: re.Match[str], /
    ) -> Self:
        """Rebuild from a click (a subclass with extra fields overrides this)."""
        return cls(
            match["ok"] == "ok", int(match["game"]), int(match["version"]), int(match["user"])
        )

    @classmethod
    def pair(
        cls, bot: Himiko, interaction: Interaction, game_id: int, version: int, yes: str, no: str
    ) -> ui.View:
        """A view with this button's Confirm and Cancel for the interaction's user, labelled
        with the catalog texts ``yes`` and ``no``."""
        user = interaction.user.id
        bound = cast(Any, bot.bound)(cls)  # a DynamicItem subclass: the mixin comes first
        view = ui.View(timeout=None)
        for ok, key in ((True, yes), (False, no)):
            view.add_item(bound(ok, game_id, version, user, t(interaction, key)))
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
