"""The turn panel: an ephemeral card with menus of legal choices and a preview picture
(``bot.views.panel_card``: its texts, the step's picture in a gallery, the choices).

Custom ids (all carry the game id; those that act also carry the game version):
``himiko:panel:cat:<game>:<version>`` (select: a group of actions),
``himiko:panel:act:<game>:<version>:<n>`` (select: an action; n = 0..2, one per menu),
``himiko:panel:page:<game>:<version>:<page>:<group>`` (button: another page of a group),
``himiko:panel:page:<game>:<version>:<page>:<group>|<stage>`` (the same, within a stage),
``himiko:panel:do:<game>:<version>:<crc32>`` (button: the one action shown, or ending the turn),
``himiko:panel:undo:<game>:<version>`` (button) and ``himiko:panel:refresh:<game>`` (button);
in a coached game, ``himiko:panel:hint:<game>:<version>`` (button: the coach's hint) and, under a
hint, ``himiko:coach:play:<game>:<version>:<crc32>`` (button: a choice of the hint).

The coach's hint (D151, D211) lists the strong player's three best choices, highest chance
first, each with where the panel has it and a Play button. That button shows the panel
*focused* on its choice: the one choice left, played by the panel's own button (``ActButton``),
its group's other choices a click away (Other choices). The hint lives here, not in
``bot.views.coach``: the panel shows the Hint button and a hint shows the panel.

A value ending in ``STAGE`` in an action menu is a stage of a large group: choosing it shows the
actions under it (the next word), it plays nothing.
"""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import ClassVar, Self

import discord
from discord import ui

from bot.admission import through_gate
from bot.context import Himiko
from bot.custom_ids import (
    PANEL_ACTION,
    PANEL_CATEGORY,
    PANEL_DO,
    PANEL_PAGE,
    PANEL_REFRESH,
    PANEL_UNDO,
)
from bot.games import presentation
from bot.internals import Interaction
from bot.present import after_save, busy_notice, guarded, picture, played_words, t, undone_text
from bot.service import PanelState, TurnKey
from bot.service.panel import END_GROUP, PAGE_SIZE, PER_SELECT, STAGE, checksum, chunks
from bot.thread.door import announce
from bot.views.base import PersistentItem, button
from bot.views.more_time import AskNowButton
from bot.views.notes import NotesButton
from bot.views.panel_card import PANEL_PICTURE, panel_accent, panel_card
from bot.views.panel_words import (
    category_label,
    opening_words,
    panel_content,
)
from bot.views.step_picture import follow_picture
from bot.views.words import MAX_LABEL
from bot.views.words import choice_label as choice_label  # the panel's words, for its callers

log = logging.getLogger(__name__)
PAGE_SEPARATOR = "|"  # between the group and the stage in a page button's id


class CategorySelect(ui.DynamicItem[ui.Select[ui.View]], template=PANEL_CATEGORY.template):
    """Chooses which group of actions the panel shows."""

    bot: ClassVar[Himiko]  # set on the bound class (``BoundItems``)

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
        cls, interaction: Interaction, item: ui.Item[ui.View], match: re.Match[str], /
    ) -> Self:
        """Rebuild from a click."""
        return cls(int(match["game"]), int(match["version"]))

    async def callback(self, interaction: Interaction) -> None:
        """Show the chosen group."""
        value = self.item.values[0] if self.item.values else None
        await gated(
            self.bot,
            interaction,
            lambda: refresh(self.bot, interaction, self.game_id, self.version, value, 0),
        )


class ActionSelect(
    ui.DynamicItem[ui.Select[ui.View]],
    template=PANEL_ACTION.template,
):
    """Plays the chosen action."""

    bot: ClassVar[Himiko]  # set on the bound class (``BoundItems``)

    def __init__(
        self, game_id: int, version: int, n: int, select: ui.Select[ui.View] | None = None
    ) -> None:
        self.game_id, self.version = game_id, version
        custom_id = PANEL_ACTION.format(game=game_id, version=version, n=n)
        super().__init__(select or ui.Select(custom_id=custom_id), row=1 + n)

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: ui.Item[ui.View], match: re.Match[str], /
    ) -> Self:
        """Rebuild from a click."""
        return cls(int(match["game"]), int(match["version"]), int(match["n"]))

    async def callback(self, interaction: Interaction) -> None:
        """Apply the action and show the next step."""
        value = self.item.values[0] if self.item.values else ""
        if value.endswith(STAGE):
            await gated(
                self.bot,
                interaction,
                lambda: open_stage(self.bot, interaction, self.game_id, self.version, value),
            )
            return
        await gated(
            self.bot,
            interaction,
            lambda: act(self.bot, interaction, self.game_id, self.version, value),
        )


class PageButton(
    ui.DynamicItem[ui.Button[ui.View]],
    template=PANEL_PAGE.template,
):
    """Shows another page of a large group."""

    bot: ClassVar[Himiko]  # set on the bound class (``BoundItems``)

    def __init__(
        self, game_id: int, version: int, page: int, category: str, label: str = ""
    ) -> None:
        self.game_id, self.version, self.page, self.category = game_id, version, page, category
        custom_id = PANEL_PAGE.format(game=game_id, version=version, page=page, cat=category)
        super().__init__(button(custom_id, label or str(page + 1)), row=4)

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: ui.Item[ui.View], match: re.Match[str], /
    ) -> Self:
        """Rebuild from a click."""
        return cls(int(match["game"]), int(match["version"]), int(match["page"]), match["cat"])

    async def callback(self, interaction: Interaction) -> None:
        """Show that page (of the stage the id names, if any)."""
        group, _, prefix = self.category.partition(PAGE_SEPARATOR)
        await gated(
            self.bot,
            interaction,
            lambda: refresh(
                self.bot, interaction, self.game_id, self.version, group, self.page, prefix
            ),
        )


class ActButton(ui.DynamicItem[ui.Button[ui.View]], template=PANEL_DO.template):
    """Plays the one action a button stands for (the only choice left, or ending the turn)."""

    bot: ClassVar[Himiko]  # set on the bound class (``BoundItems``)

    def __init__(self, game_id: int, version: int, crc: str, label: str = "", row: int = 4) -> None:
        self.game_id, self.version, self.crc = game_id, version, crc
        custom_id = PANEL_DO.format(game=game_id, version=version, crc=crc)
        item = button(custom_id, label or "…")
        item.style = discord.ButtonStyle.primary
        super().__init__(item, row=row)

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: ui.Item[ui.View], match: re.Match[str], /
    ) -> Self:
        """Rebuild from a click."""
        return cls(int(match["game"]), int(match["version"]), match["crc"])

    async def callback(self, interaction: Interaction) -> None:
        """Find the action among the current choices and play it."""

        async def run() -> None:
            action = await self.bot.rooms.playing.panel_action(
                interaction.user.id, game_id=self.game_id, version=self.version, crc=self.crc
            )
            await act(self.bot, interaction, self.game_id, self.version, action)

        await gated(self.bot, interaction, run)


class UndoButton(ui.DynamicItem[ui.Button[ui.View]], template=PANEL_UNDO.template):
    """Takes back the last action of the turn."""

    bot: ClassVar[Himiko]  # set on the bound class (``BoundItems``)

    def __init__(self, game_id: int, version: int, label: str = "Undo") -> None:
        self.game_id, self.version = game_id, version
        super().__init__(button(PANEL_UNDO.format(game=game_id, version=version), label), row=4)

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: ui.Item[ui.View], match: re.Match[str], /
    ) -> Self:
        """Rebuild from a click."""
        return cls(int(match["game"]), int(match["version"]))

    async def callback(self, interaction: Interaction) -> None:
        """Undo and show the panel again."""
        await gated(
            self.bot, interaction, lambda: undo(self.bot, interaction, self.game_id, self.version)
        )


class RefreshButton(ui.DynamicItem[ui.Button[ui.View]], template=PANEL_REFRESH.template):
    """Shows the panel for the game's current state (never out of date)."""

    bot: ClassVar[Himiko]  # set on the bound class (``BoundItems``)

    def __init__(self, game_id: int, label: str = "Refresh") -> None:
        self.game_id = game_id
        super().__init__(button(PANEL_REFRESH.format(game=game_id), label), row=4)

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: ui.Item[ui.View], match: re.Match[str], /
    ) -> Self:
        """Rebuild from a click."""
        return cls(int(match["game"]))

    async def callback(self, interaction: Interaction) -> None:
        """Reload the panel."""
        await gated(
            self.bot,
            interaction,
            lambda: refresh(self.bot, interaction, self.game_id, None, None, 0),
        )


async def gated(bot: Himiko, interaction: Interaction, body: Callable[[], Awaitable[None]]) -> None:
    """A panel click's handling through the admission gate, as a gated command's: deferred at
    once as an update of the panel, run in its turn, refused at once past the bound (D134); any
    failure answered (``guarded``)."""
    await guarded(
        interaction,
        lambda: through_gate(bot.admission, interaction, body, busy_notice, thinking=False),
    )


def panel_view(
    bot: Himiko, interaction: Interaction, state: PanelState, *, focused: bool = False
) -> ui.View:
    """The panel's menus and buttons for one state (``focused``: on a hint's action, with
    Other choices back to its group)."""
    view = ui.View(timeout=None)
    game, version = state.game_id, state.version
    if len(state.categories) > 1:
        category = bot.bound(CategorySelect)(game, version)
        category.item.placeholder = t(interaction, "panel.category_placeholder")
        for group in state.categories:
            shown = category_label(interaction, state.game, group.key)
            name = t(interaction, "panel.category_option", category=shown, count=group.count)
            category.item.add_option(
                label=name[:MAX_LABEL], value=group.key, default=group.key == state.category
            )
        view.add_item(category)

    def label(value: str) -> str:
        return choice_label(interaction, state.game, state.view, value)

    if len(state.actions) == 1 and not state.actions[0].endswith(STAGE):
        [only] = state.actions
        if only != state.end:  # ending the turn has its own button below
            view.add_item(bot.bound(ActButton)(game, version, checksum(only), label(only), row=1))
    else:
        _add_menus(bot, interaction, view, state, label)
    if state.end is not None:
        view.add_item(
            bot.bound(ActButton)(game, version, checksum(state.end), t(interaction, "panel.end"))
        )
    if state.can_undo:
        view.add_item(bot.bound(UndoButton)(game, version, t(interaction, "panel.undo")))
    where = state.category
    if state.prefix:
        where += PAGE_SEPARATOR + state.prefix
    if state.page > 0:
        text = t(interaction, "panel.previous")
        view.add_item(bot.bound(PageButton)(game, version, state.page - 1, where, text))
    if state.page + 1 < state.pages:
        text = t(interaction, "panel.next")
        view.add_item(bot.bound(PageButton)(game, version, state.page + 1, where, text))
    if focused:
        text = t(interaction, "coach.other_choices")
        view.add_item(bot.bound(PageButton)(game, version, 0, state.category, text))
    view.add_item(bot.bound(RefreshButton)(game, t(interaction, "panel.refresh")))
    extra: list[ui.DynamicItem[ui.Button[ui.View]]] = []  # in the first rows with room
    if state.coach:
        extra.append(bot.buttons.hint_button(game, version, t(interaction, "panel.hint")))
    extra.append(bot.bound(NotesButton)(game, t(interaction, "panel.notes")))
    if state.timed:
        extra.append(bot.bound(AskNowButton)(game, t(interaction, "more.ask")))
    for item in extra:
        with contextlib.suppress(ValueError):  # every row full: the panel is shown without it
            view.add_item(item)
    return view


def _add_menus(
    bot: Himiko,
    interaction: Interaction,
    view: ui.View,
    state: PanelState,
    label: Callable[[str], str],
) -> None:
    """The action menus of one page (up to three of 25 options)."""
    game, version = state.game_id, state.version
    category = category_label(interaction, state.game, state.category)
    staged = any(v.endswith(STAGE) for v in state.actions)
    first = state.page * PAGE_SIZE
    total = next((c.count for c in state.categories if c.key == state.category), 0)
    shown = presentation(state.game)

    def about(value: str) -> str | None:
        """The line under a choice or a stage (a card's effect...), cut to fit."""
        words = lambda k, **p: t(interaction, k, **p)  # noqa: E731
        text = shown.panel_description(words, state.view or {}, value.removesuffix(STAGE))
        if not text or len(text) <= MAX_LABEL:  # a description's limit is a label's, 100
            return text or None
        return text[: MAX_LABEL - 1] + "…"

    for n, actions in enumerate(chunks(list(state.actions))):
        select = bot.bound(ActionSelect)(game, version, n)
        start = first + n * PER_SELECT + 1
        if staged:
            placeholder = t(interaction, "panel.stage_placeholder", category=category)
        else:
            placeholder = t(
                interaction,
                "panel.actions_placeholder",
                category=category,
                first=start,
                last=start + len(actions) - 1,
                count=total,
            )
        select.item.placeholder = placeholder[:150]
        for action in actions:
            select.item.add_option(label=label(action), value=action, description=about(action))
        view.add_item(select)


async def open_panel(
    bot: Himiko,
    interaction: Interaction,
    *,
    thread_id: int | None = None,
    game_id: int | None = None,
    version: int | None = None,
    turn: TurnKey | None = None,
) -> None:
    """Answer with a new ephemeral turn panel."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    state = await bot.rooms.playing.panel(
        interaction.user.id, thread_id=thread_id, game_id=game_id, version=version, turn=turn
    )
    words = opening_words(interaction, state)
    if state.picture is None:  # not drawn: the card in words
        view = panel_message(bot, interaction, state, words)
        await interaction.followup.send(view=view, ephemeral=True)
    else:
        view = panel_message(bot, interaction, state, words, shown=True)
        png = picture(state.picture, PANEL_PICTURE)
        await interaction.followup.send(view=view, ephemeral=True, file=png)


def panel_message(
    bot: Himiko,
    interaction: Interaction,
    state: PanelState,
    words: list[str],
    *,
    shown: bool = False,
    focused: bool = False,
) -> ui.LayoutView:
    """The panel's card for one state: ``words``, the attached picture if ``shown``, the
    choices (``focused``: see ``panel_view``)."""
    choices = panel_view(bot, interaction, state, focused=focused)
    return panel_card(words, choices, picture=shown, accent=panel_accent(state))


async def _show(
    bot: Himiko,
    interaction: Interaction,
    state: PanelState,
    words: list[str],
    *,
    focused: bool = False,
) -> None:
    """The step's card at once, in words without the previous step's picture; its own picture
    follows into the card's gallery."""
    view = panel_message(bot, interaction, state, words, focused=focused)
    await interaction.edit_original_response(content=None, view=view, attachments=[])
    follow_picture(
        bot,
        interaction,
        state.game_id,
        state.picture_order,
        card=lambda: panel_message(bot, interaction, state, words, shown=True, focused=focused),
    )


async def show_focused(
    bot: Himiko, interaction: Interaction, state: PanelState, action: str, said: str
) -> None:
    """The panel focused on one of its actions (a hint's): that action as its one choice,
    played by the panel's own button, ending the turn by its End button; ``said`` above the
    step, the action's choices marked on the picture as for its stage."""
    if action == state.end:
        state = replace(state, actions=(), category=END_GROUP, prefix="", page=0, pages=1)
    else:
        state = replace(state, actions=(action,), prefix=action, page=0, pages=1)
    await _show(bot, interaction, state, [said, panel_content(interaction, state)], focused=True)


async def refresh(
    bot: Himiko,
    interaction: Interaction,
    game_id: int,
    version: int | None,
    category: str | None,
    page: int,
    prefix: str = "",
) -> None:
    """Redraw the panel (another group, stage or page, or the current state)."""
    await interaction.response.defer()
    state = await bot.rooms.playing.panel(
        interaction.user.id,
        game_id=game_id,
        version=version,
        category=category,
        page=page,
        picture=False,
        prefix=prefix,
    )
    await _show(bot, interaction, state, [panel_content(interaction, state)])


async def open_stage(
    bot: Himiko, interaction: Interaction, game_id: int, version: int, value: str
) -> None:
    """Show the choices under a stage of a large group (its next word)."""
    await refresh(bot, interaction, game_id, version, None, 0, value.removesuffix(STAGE))


async def act(bot: Himiko, interaction: Interaction, game_id: int, version: int, text: str) -> None:
    """Play one action from the panel; show the next step in the same group while it lasts."""
    await interaction.response.defer()
    result = await bot.rooms.playing.play(
        interaction.user.id, text, game_id=game_id, version=version
    )
    with after_save():
        posted = await announce(bot, result)
        if result.turn is not None:
            done = t(interaction, "panel.done" if posted else "panel.done_unposted")
            nxt = result.turn.next_player
            if nxt is not None and not nxt.computer and nxt.user_id == interaction.user.id:
                await _again(bot, interaction, game_id, done)  # the last boat plays again
                return
            view = panel_card([done], None, accent=None)
            await interaction.edit_original_response(content=None, view=view, attachments=[])
            follow_picture(bot, interaction, game_id, None)  # no older step's picture on it
            return
        state = await bot.rooms.playing.panel(
            interaction.user.id, game_id=game_id, after=text, picture=False
        )
        said = panel_content(interaction, state, played_words(interaction, result))
        await _show(bot, interaction, state, [said])


async def _again(bot: Himiko, interaction: Interaction, game_id: int, done: str) -> None:
    """The turn just ended and the next one is the same player's: their new panel at once."""
    state = await bot.rooms.playing.panel(interaction.user.id, game_id=game_id, picture=False)
    said = f"{done}\n{t(interaction, 'panel.again')}\n{panel_content(interaction, state)}"
    await _show(bot, interaction, state, [said])


async def undo(bot: Himiko, interaction: Interaction, game_id: int, version: int) -> None:
    """Undo from the panel and show it again."""
    await interaction.response.defer()
    result = await bot.rooms.playing.undo(interaction.user.id, game_id=game_id, version=version)
    state = await bot.rooms.playing.panel(interaction.user.id, game_id=game_id, picture=False)
    said = undone_text(interaction, result)
    await _show(bot, interaction, state, [said, panel_content(interaction, state)])


PANEL_ITEMS: tuple[type[PersistentItem], ...] = (
    CategorySelect,
    ActionSelect,
    PageButton,
    ActButton,
    UndoButton,
    RefreshButton,
)
