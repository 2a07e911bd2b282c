"""The private turn panel is one card (issue 37 item 4, D202): its texts, the step's picture in a
media gallery, then its choices; every step of a whole Yamatai turn and of a Namiji turn played
through it on the Discord double, which judges each card as Discord would (V2 rules). The
biggest panels in Polish keep within a card's limits (40 components, 4,000 characters)."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.cards import MAX_CARD_COMPONENTS, MAX_CARD_TEXT
from bot.custom_ids import ROW_ID_MAX, VERSION_MAX
from bot.service import PanelState, TurnRecord
from bot.service.results import PlayerInfo
from bot.service.tables import step_of
from bot.views.panel import panel_message
from bot.views.panel_card import PANEL_PICTURE
from bot.views.panel_words import opening_words, panel_content
from engine import games
from engine.players import random_player
from tests.discord_double.records import ACTION_ROW, CONTAINER, MEDIA_GALLERY, MessageRecord
from tests.discord_double.validate import check_v2_components, walk_v2
from tests.e2e.harness import GUEST, HOST, TIMEOUT, Env, Table, himiko_env, pngs, run
from tests.e2e.test_panel_steps import longer_turn, way_to

from .fakes import FakeBot, fake_interaction
from .test_panel import _panel_states

MAX_STEPS = 80
NAMES = ["Wiktoria Ź" + "ż" * 20, "Jean-Baptiste " + "é" * 18, "Giulia " + "à" * 25]


def assert_card(panel: MessageRecord, *, pictured: bool) -> None:
    """The panel is one card: texts first, its one picture in the gallery if ``pictured`` (the
    attached file, and nothing in a gallery otherwise), then its choices in action rows."""
    assert panel.is_v2 and panel.ephemeral and panel.content == ""
    [container] = panel.components
    assert container["type"] == CONTAINER
    assert (container["accent_color"] is not None) == bool(panel.custom_ids())  # the seat's
    kinds = [c["type"] for c in container["components"]]
    assert kinds[0] == 10 and panel.text_displays()[0].strip(), kinds  # the step in words
    if pictured:
        [png] = pngs(panel)
        assert panel.gallery_urls() == [f"attachment://{PANEL_PICTURE}"]
        assert [a.data for a in panel.gallery_attachments()] == [png]
        assert kinds.index(MEDIA_GALLERY) < kinds.index(ACTION_ROW), kinds
    else:
        assert MEDIA_GALLERY not in kinds and not pngs(panel)


async def pictured(env: Env, table: Table, panel_id: int, before: bytes | None) -> MessageRecord:
    """The panel once its gallery shows a picture other than ``before``."""

    def shown(message: MessageRecord) -> bool:
        found = [a.data for a in message.gallery_attachments()]
        return message.id == panel_id and len(found) == 1 and found[0] != before

    return await env.double.wait_for_message(table.id, shown, TIMEOUT)


#: The panel's own buttons: its menus and moves, the coach's, Notes and Ask for 24 h more.
PANEL_PREFIXES = ("himiko:panel:", "himiko:coach:", "himiko:notes:open:", "himiko:more:now:")


async def card_turn(env: Env, table: Table) -> list[str]:
    """The current player's whole turn through the panel's card, opened by ``/turn`` (the first
    action played is undone once): every step's card checked. The kinds of steps taken."""
    user = HOST if await env.current_user(table.id) == HOST.id else GUEST
    opened = await (await env.double.slash(user, table.id, "turn", {})).reply(TIMEOUT)
    assert_card(opened, pictured=True)
    assert "Your turn" in opened.text()
    shown = pngs(opened)[0]
    kinds: list[str] = []
    for _ in range(MAX_STEPS):
        match = await env.match(table.id)
        game = (await env.game(table.id)).game_key
        panel = env.double.message(opened.id)
        assert all(i.startswith(PANEL_PREFIXES) for i in panel.custom_ids())
        if kinds == ["act"] and match.can_undo(match.current_seat):
            kind, button = "undo", next(i for i in panel.custom_ids() if ":undo:" in i)
            click = await env.double.click(user, table.id, panel.id, button)
        else:
            kind, item, values = way_to(panel, game, longer_turn(match))
            click = await env.double.click(user, table.id, panel.id, item, values)
        await click.wait_event("edit_original", TIMEOUT)
        if await env.current_user(table.id) != user.id:  # the turn ended: the card says so
            await env.settled()
            done = env.double.message(opened.id)
            assert_card(done, pictured=False)
            assert "Your turn is over" in done.text() and done.custom_ids() == []
            kinds.append("end")
            return kinds
        step = await pictured(env, table, opened.id, shown)
        assert_card(step, pictured=True)
        said = step.text()
        assert {"act": "— next: ", "undo": "Took back"}.get(kind, "Your turn") in said, said
        shown = pngs(step)[0]
        kinds.append(kind)
    raise AssertionError(f"the turn did not end after {MAX_STEPS} panel steps: {kinds}")


@pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL
def test_a_whole_yamatai_turn_through_the_panel_card(tmp_path: Path) -> None:
    """Yamatai: each step (group, stage, action, undo) is the card again, its picture in its
    gallery; the turn's end leaves the card in words."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table = await env.start_game(HOST, [GUEST])
            kinds = await card_turn(env, table)
            assert kinds.count("act") >= 3 and "undo" in kinds and kinds[-1] == "end", kinds

    run(body, timeout=120)


@pytest.mark.usefixtures("backend")
def test_a_whole_namiji_turn_through_the_panel_card(tmp_path: Path) -> None:
    """Namiji: the same card at each step of a turn."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table = await env.start_game(HOST, [GUEST], computers=1, game="namiji")
            await env.settled()
            kinds = await card_turn(env, table)
            assert "act" in kinds and kinds[-1] == "end", kinds

    run(body, timeout=120)


def since_turns(match: Any, count: int) -> tuple[TurnRecord, ...]:
    """``count`` turns of a random game as told since a player's last turn (long ones)."""
    rng = random.Random(count)
    replay = games.new(match.game_key, NAMES, seed=3)
    turns: list[TurnRecord] = []
    while len(turns) < count and (seat := replay.current_seat) is not None:
        events = replay.play(rng.choice(replay.legal_actions()), seat=seat)
        turns.append(
            TurnRecord(seat=seat, round=1, actions=("x",), events=tuple(events), complete=True)
        )
    return tuple(turns)


@pytest.mark.parametrize("game", ["yamatai", "namiji"])
def test_the_biggest_polish_panels_fit_a_card(game: str) -> None:
    """Every panel of a random three-player game, in Polish, made as big as it gets (a coach's
    Hint, Undo, both page buttons, the ending button, long names and thirty turns told since
    the player's last one): the card passes the double's V2 rules; the biggest is counted."""
    bot = FakeBot()
    interaction = fake_interaction(bot)
    interaction.locale = discord.Locale.polish
    match = games.new(game, NAMES, seed=7)
    since = since_turns(match, 30)
    colours = match.colours
    players = tuple(
        PlayerInfo(seat=i, name=n, user_id=i + 1, colour=colours[i]) for i, n in enumerate(NAMES)
    )
    most_components = most_text = 0
    while (seat := match.current_seat) is not None:
        for shown in _panel_states(match, seat):
            state: PanelState = replace(
                shown,
                game_id=ROW_ID_MAX,
                version=VERSION_MAX,
                step=step_of(match) or "",
                player=players[seat],
                page=1,
                pages=3,  # Previous and Next both shown
                coach=True,
                since=since,
                players=players,
            )
            view = panel_message(
                bot,  # type: ignore[arg-type]
                interaction,
                state,
                opening_words(interaction, state),
                shown=True,
            )
            components = view.to_components()  # type: ignore[no-untyped-call]
            check_v2_components(components)  # 40 components, 4,000 characters, labels, ids
            count = sum(1 for _ in walk_v2(components))
            text = sum(len(c.get("content", "")) for _, c in walk_v2(components))
            most_components, most_text = max(most_components, count), max(most_text, text)
        match.play(random_player(match.view(seat), seat), seat=seat)
    assert 12 <= most_components <= MAX_CARD_COMPONENTS, most_components
    assert 1000 < most_text <= MAX_CARD_TEXT, most_text  # the thirty turns told are in it


@pytest.mark.usefixtures("backend")
def test_a_panel_whose_pictures_fail_is_a_card_in_words(tmp_path: Path) -> None:
    """No picture can be drawn: the panel still opens as its card (texts and choices, no
    gallery, nothing attached), and a choice played in it shows the next step the same way."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table = await env.start_game(HOST, [GUEST])
            await env.settled()
            assert env.bot.render_pool is not None

            async def broken(payload: bytes) -> bytes:
                raise RuntimeError("no fonts today")

            env.bot.render_pool.draw_payload = broken  # type: ignore[method-assign]
            user = HOST if await env.current_user(table.id) == HOST.id else GUEST
            opened = await (await env.double.slash(user, table.id, "turn", {})).reply(TIMEOUT)
            assert_card(opened, pictured=False)
            assert "Your turn" in opened.text() and opened.attachments == []
            kind, item, values = way_to(opened, "yamatai", longer_turn(await env.match(table.id)))
            version = await env.version(table.id)
            click = await env.double.click(user, table.id, opened.id, item, values)
            await click.wait_event("edit_original", TIMEOUT)
            await env.bot.outbox.pictures.idle()  # the step's picture tried, and lost
            step = env.double.message(opened.id)
            assert_card(step, pictured=False)
            assert step.custom_ids() and step.attachments == []
            assert await env.version(table.id) == version + (kind == "act")

    run(body, timeout=60)


@pytest.mark.usefixtures("backend")
def test_a_classic_panel_shown_before_the_upgrade_becomes_the_card_at_its_first_click(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A panel opened before cards (its words as content, the picture attached, its menus in
    classic rows): its Refresh, handled now, edits it into the card (content reset, as Discord
    requires to set the flag) with the new step's picture in the gallery."""
    from bot import present
    from bot.cogs import play
    from bot.views import panel as panels

    async def classic(bot: Any, interaction: Any, **where: Any) -> None:
        """``open_panel`` as it was before the panel was a card."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        state = await bot.rooms.playing.panel(interaction.user.id, **where)
        view = panels.panel_view(bot, interaction, state)
        png = present.picture(state.picture or b"")
        content = panel_content(interaction, state)
        await interaction.followup.send(content, view=view, ephemeral=True, file=png)

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table = await env.start_game(HOST, [GUEST])
            user = HOST if await env.current_user(table.id) == HOST.id else GUEST
            with monkeypatch.context() as patched:
                patched.setattr(play, "open_panel", classic)
                old = await (await env.double.slash(user, table.id, "turn", {})).reply(TIMEOUT)
            assert not old.is_v2 and "Your turn" in old.content and pngs(old)
            refresh = next(i for i in old.custom_ids() if i.startswith("himiko:panel:refresh:"))
            click = await env.double.click(user, table.id, old.id, refresh)
            await click.wait_event("edit_original", TIMEOUT)
            card = await pictured(env, table, old.id, None)
            assert_card(card, pictured=True)
            assert "Your turn" in card.text() and refresh in card.custom_ids()

    run(body, timeout=60)
