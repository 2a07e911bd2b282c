"""The turn panel: an ephemeral message with menus of legal choices and a preview picture.

Custom ids (all carry the game id; those that act also carry the game version):
``himiko:panel:cat:<game>:<version>`` (select: a group of actions),
``himiko:panel:act:<game>:<version>:<n>`` (select: an action; n = 0..2, one per menu),
``himiko:panel:page:<game>:<version>:<page>:<group>`` (button: another page of a group),
``himiko:panel:undo:<game>:<version>`` (button) and ``himiko:panel:refresh:<game>`` (button).
"""

from __future__ import annotations

import re
from typing import Any, Self

import discord
from discord import ui

from bot.custom_ids import (
    PANEL_ACTION,
    PANEL_CATEGORY,
    PANEL_PAGE,
    PANEL_REFRESH,
    PANEL_UNDO,
)
from bot.games import presentation
from bot.present import after_save, guarded, himiko, picture, t
from bot.service import PanelState, TurnKey
from bot.service.panel import PAGE_SIZE, PER_SELECT, chunks
from bot.turns import announce
from bot.views.base import button

Interaction = discord.Interaction[Any]
MAX_LABEL = 100


def category_label(interaction: Interaction, game: str, key: str) -> str:
    """A panel group's name in the user's language."""
    return presentation(game).panel_group_label(lambda k, **p: t(interaction, k, **p), key)


def panel_content(interaction: Interaction, state: PanelState, played: str | None = None) -> str:
    """The panel's text: the step (after what was just played, if anything), the page."""
    step = t(interaction, state.step)
    if played is None:
        text = t(interaction, "panel.title", step=step)
    else:
        text = t(interaction, "panel.played", action=played, step=step)
    if state.pages > 1:
        text += " · " + t(interaction, "panel.page", page=state.page + 1, pages=state.pages)
    return text


class CategorySelect(ui.DynamicItem[ui.Select[ui.View]], template=PANEL_CATEGORY.template):
    """Chooses which group of actions the panel shows."""

    def __init__(
        self, game_id: int, version: int, select: ui.Select[ui.View] | None = None
    ) -> None:
        self.game_id, self.version = game_id, version
        super().__init__(
            select or ui.Select(custom_id=PANEL_CATEGORY.format(game=game_id, version=version)),
            row=0,
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        """Rebuild from a click."""
        return cls(int(match["game"]), int(match["version"]))

    async def callback(self, interaction: Interaction) -> None:
        """Show the chosen group."""
        value = self.item.values[0] if self.item.values else None
        await guarded(
            interaction, lambda: refresh(interaction, self.game_id, self.version, value, 0)
        )


class ActionSelect(
    ui.DynamicItem[ui.Select[ui.View]],
    template=PANEL_ACTION.template,
):
    """Plays the chosen action."""

    def __init__(
        self, game_id: int, version: int, n: int, select: ui.Select[ui.View] | None = None
    ) -> None:
        self.game_id, self.version = game_id, version
        custom_id = PANEL_ACTION.format(game=game_id, version=version, n=n)
        super().__init__(select or ui.Select(custom_id=custom_id), row=1 + n)

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        """Rebuild from a click."""
        return cls(int(match["game"]), int(match["version"]), int(match["n"]))

    async def callback(self, interaction: Interaction) -> None:
        """Apply the action and show the next step."""
        value = self.item.values[0] if self.item.values else ""
        await guarded(interaction, lambda: act(interaction, self.game_id, self.version, value))


class PageButton(
    ui.DynamicItem[ui.Button[ui.View]],
    template=PANEL_PAGE.template,
):
    """Shows another page of a large group."""

    def __init__(
        self, game_id: int, version: int, page: int, category: str, label: str = ""
    ) -> None:
        self.game_id, self.version, self.page, self.category = game_id, version, page, category
        custom_id = PANEL_PAGE.format(game=game_id, version=version, page=page, cat=category)
        super().__init__(button(custom_id, label or str(page + 1)), row=4)

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        """Rebuild from a click."""
        return cls(int(match["game"]), int(match["version"]), int(match["page"]), match["cat"])

    async def callback(self, interaction: Interaction) -> None:
        """Show that page."""
        await guarded(
            interaction,
            lambda: refresh(interaction, self.game_id, self.version, self.category, self.page),
        )


class UndoButton(ui.DynamicItem[ui.Button[ui.View]], template=PANEL_UNDO.template):
    """Takes back the last action of the turn."""

    def __init__(self, game_id: int, version: int, label: str = "Undo") -> None:
        self.game_id, self.version = game_id, version
        super().__init__(button(PANEL_UNDO.format(game=game_id, version=version), label), row=4)

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        """Rebuild from a click."""
        return cls(int(match["game"]), int(match["version"]))

    async def callback(self, interaction: Interaction) -> None:
        """Undo and show the panel again."""
        await guarded(interaction, lambda: undo(interaction, self.game_id, self.version))


class RefreshButton(ui.DynamicItem[ui.Button[ui.View]], template=PANEL_REFRESH.template):
    """Shows the panel for the game's current state (never out of date)."""

    def __init__(self, game_id: int, label: str = "Refresh") -> None:
        self.game_id = game_id
        super().__init__(button(PANEL_REFRESH.format(game=game_id), label), row=4)

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        """Rebuild from a click."""
        return cls(int(match["game"]))

    async def callback(self, interaction: Interaction) -> None:
        """Reload the panel."""
        await guarded(interaction, lambda: refresh(interaction, self.game_id, None, None, 0))


def panel_view(interaction: Interaction, state: PanelState) -> ui.View:
    """The panel's menus and buttons for one state."""
    view = ui.View(timeout=None)
    game, version = state.game_id, state.version
    if len(state.categories) > 1:
        category = CategorySelect(game, version)
        category.item.placeholder = t(interaction, "panel.category_placeholder")
        for group in state.categories:
            label = f"{category_label(interaction, state.game, group.key)} ({group.count})"
            category.item.add_option(
                label=label[:MAX_LABEL], value=group.key, default=group.key == state.category
            )
        view.add_item(category)
    first = state.page * PAGE_SIZE
    for n, actions in enumerate(chunks(list(state.actions))):
        select = ActionSelect(game, version, n)
        start = first + n * PER_SELECT + 1
        select.item.placeholder = t(
            interaction,
            "panel.actions_placeholder",
            category=category_label(interaction, state.game, state.category),
            first=start,
            last=start + len(actions) - 1,
            count=next((c.count for c in state.categories if c.key == state.category), 0),
        )[:150]
        for action in actions:
            select.item.add_option(label=action[:MAX_LABEL], value=action)
        view.add_item(select)
    if state.can_undo:
        view.add_item(UndoButton(game, version, t(interaction, "panel.undo")))
    if state.page > 0:
        label = t(interaction, "panel.previous")
        view.add_item(PageButton(game, version, state.page - 1, state.category, label))
    if state.page + 1 < state.pages:
        label = t(interaction, "panel.next")
        view.add_item(PageButton(game, version, state.page + 1, state.category, label))
    view.add_item(RefreshButton(game, t(interaction, "panel.refresh")))
    return view


async def open_panel(
    interaction: Interaction,
    *,
    thread_id: int | None = None,
    game_id: int | None = None,
    version: int | None = None,
    turn: TurnKey | None = None,
) -> None:
    """Answer with a new ephemeral turn panel."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    state = await himiko(interaction).service.panel(
        interaction.user.id, thread_id=thread_id, game_id=game_id, version=version, turn=turn
    )
    kwargs: dict[str, Any] = {}
    if state.picture is not None:
        kwargs["file"] = picture(state.picture)
    await interaction.followup.send(
        panel_content(interaction, state),
        view=panel_view(interaction, state),
        ephemeral=True,
        **kwargs,
    )


async def _edit(
    interaction: Interaction, content: str, png: bytes | None, view: ui.View | None
) -> None:
    kwargs: dict[str, Any] = {"content": content, "view": view}
    if png is not None:
        kwargs["attachments"] = [picture(png)]
    await interaction.edit_original_response(**kwargs)


async def refresh(
    interaction: Interaction, game_id: int, version: int | None, category: str | None, page: int
) -> None:
    """Redraw the panel (another group or page, or the current state)."""
    await interaction.response.defer()
    state = await himiko(interaction).service.panel(
        interaction.user.id,
        game_id=game_id,
        version=version,
        category=category,
        page=page,
        picture=version is None,
    )
    await _edit(
        interaction,
        panel_content(interaction, state),
        state.picture,
        panel_view(interaction, state),
    )


async def act(interaction: Interaction, game_id: int, version: int, text: str) -> None:
    """Play one action from the panel; show the next step in the same group while it lasts."""
    await interaction.response.defer()
    bot = himiko(interaction)
    result = await bot.service.play(interaction.user.id, text, game_id=game_id, version=version)
    with after_save():
        posted = await announce(bot, result)
        if result.turn is not None:
            done = t(interaction, "panel.done" if posted else "panel.done_unposted")
            await interaction.edit_original_response(content=done, view=None, attachments=[])
            return
        state = await bot.service.panel(
            interaction.user.id, game_id=game_id, after=text, picture=False
        )
        played = "; ".join(result.actions) or text
        await _edit(
            interaction,
            panel_content(interaction, state, played),
            result.picture,
            panel_view(interaction, state),
        )


async def undo(interaction: Interaction, game_id: int, version: int) -> None:
    """Undo from the panel and show it again."""
    await interaction.response.defer()
    bot = himiko(interaction)
    result = await bot.service.undo(interaction.user.id, game_id=game_id, version=version)
    state = await bot.service.panel(interaction.user.id, game_id=game_id, picture=False)
    content = (
        t(interaction, "play.undone", action=result.undone)
        + "\n"
        + panel_content(interaction, state)
    )
    await _edit(interaction, content, result.picture, panel_view(interaction, state))


PANEL_ITEMS: tuple[type[ui.DynamicItem[Any]], ...] = (
    CategorySelect,
    ActionSelect,
    PageButton,
    UndoButton,
    RefreshButton,
)
