"""A turn card as a French player reads it (issue 37 item 1, D200), through the Discord double:
its heading in the game's language, the two pictures, the accent of the seat to play, the
buttons (Take your turn, Rules) and what Rules answers."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

from bot.thread.turn_cards import BOARD_PICTURE, TURN_PICTURE
from render import seat_colour
from tests.discord_double import MessageRecord
from tests.e2e.harness import GUEST, HOST, TIMEOUT, Env, custom_id, himiko_env, run, shown
from tests.e2e.test_coach import coached_game
from tests.e2e.test_picture_follows import gate, turn_played_behind_a_closed_gate
from tests.e2e.test_play import rest_of_turn, two_humans
from tests.e2e.test_web_export import _with_web, link_urls

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

CONTAINER = 17


def png_width(data: bytes) -> int:
    """A PNG's width, from its header."""
    return int(struct.unpack(">I", data[16:20])[0])


async def first_turn_card(env: Env) -> tuple[MessageRecord, int]:
    """The card of a game's first completed turn, and the user who plays next."""
    table, player, other = await two_humans(env)
    for action in rest_of_turn(await env.match(table.id)):
        await (await env.play(player, table.id, action)).reply(TIMEOUT)
    card = await env.double.wait_for_message(
        table.id, lambda m: m.is_v2 and m.id != table.opening.id and bool(m.attachments), TIMEOUT
    )
    return card, other.id


def test_a_french_turn_card_has_its_pictures_accent_and_rules_button(tmp_path: Path) -> None:
    """Heading in French with the next player and the round; turn.png phone-sized, board.png
    whole; the accent is the next seat's colour; Rules answers privately with the overview."""

    async def body() -> None:
        async with himiko_env(tmp_path, preferred_locale="fr") as env:
            card, next_user = await first_turn_card(env)
            heading, told = card.text_displays()[:2]
            assert heading.startswith("### Yamatai · manche 1")
            assert f"<@{next_user}>" in heading and told  # who plays next; the turn in words
            shown = {a.filename: a for a in card.gallery_attachments()}
            assert list(shown) == [TURN_PICTURE, BOARD_PICTURE]
            assert png_width(shown[TURN_PICTURE].data) <= 1000
            assert png_width(shown[BOARD_PICTURE].data) > png_width(shown[TURN_PICTURE].data)
            match = await env.match(card.channel_id)
            colour = seat_colour("yamatai", match.colours[match.current_seat or 0])
            assert colour is not None
            [container] = card.components_of_type(CONTAINER)
            assert container["accent_color"] == (colour[0] << 16) | (colour[1] << 8) | colour[2]
            ids = card.custom_ids()
            assert any(i.startswith("himiko:open:") for i in ids)
            assert "himiko:rules:yamatai" in ids

            said = await env.double.click(
                next_user, card.channel_id, card.id, "himiko:rules:yamatai", locale="fr"
            )
            reply = await said.reply(TIMEOUT)
            # the overview lists its topics by their French titles (D245)
            assert reply.ephemeral and "Commandes du bot" in reply.content
            assert card_labels(card) == ["Jouer mon tour", "📖 Règles"]  # no web pages here

    run(body)


def card_labels(card: MessageRecord) -> list[str]:
    """The labels of a card's buttons."""
    return [str(c.get("label", "")) for c in card.components_of_type(2)]


def test_a_turn_message_still_in_words_keeps_its_classic_button(tmp_path: Path) -> None:
    """A turn message as messages were before cards (words and a classic button row: here its
    pictures are held, so it is not a card yet): its Take your turn opens the panel."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table, _, opened, turn = await turn_played_behind_a_closed_gate(env)
            assert not turn.is_v2 and turn.content
            button = custom_id(turn, "himiko:open:")
            match = await env.match(table.id)
            next_user = await env.current_user(table.id)
            assert next_user is not None and match.outcome is None
            click = await env.double.click(next_user, table.id, turn.id, button)
            opened.set()  # the panel's own picture is drawn by the same pool
            panel = await click.reply(TIMEOUT)
            assert panel.ephemeral and any(
                i.startswith("himiko:panel:") for i in panel.custom_ids()
            )

    run(body)


def test_with_the_web_pages_on_every_turn_card_links_to_the_game(tmp_path: Path) -> None:
    """The web pages on: the turn card has View on the web (its game's page) beside Take your
    turn and Rules, so a phone reader is one tap from the page wherever the thread stands."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            _with_web(env)
            bot = await env.restart()
            assert bot.web is not None
            card, _ = await first_turn_card(env)
            game = await env.game(card.channel_id)
            assert link_urls(card) == [bot.web.game_url(game.id)]
            assert card_labels(card)[-1] == "📖 Rules"

    run(body)


def test_pictures_that_fail_leave_a_card_in_words_and_come_with_a_later_sweep(
    tmp_path: Path,
) -> None:
    """The render worker fails: the turn message still becomes its card (its words, its buttons,
    no gallery) and stays owed; the next sweep draws the pictures and edits them in, once."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            pool = env.bot.render_pool
            assert pool is not None
            draw = pool.draw_payload
            failing = True

            async def broken(payload: bytes) -> bytes:
                if failing:
                    raise RuntimeError("the worker died")
                return await draw(payload)

            table, player, other = await two_humans(env)
            pool.draw_payload = broken  # type: ignore[method-assign]
            for action in rest_of_turn(await env.match(table.id)):
                await (await env.play(player, table.id, action)).reply(TIMEOUT)
            card = await env.double.wait_for_message(
                table.id, lambda m: m.is_v2 and m.id != table.opening.id, TIMEOUT
            )
            await env.bot.outbox.pictures.idle()
            assert card.attachments == [] and card.gallery_urls() == []
            assert f"<@{other.id}>" in card.text_displays()[0] and card.text_displays()[1]
            assert any(i.startswith("himiko:open:") for i in card.custom_ids())
            assert [o.message_id for o in await env.bot.rooms.reports.owed_pictures()] == [card.id]

            failing = False
            await env.bot.sweep()
            await env.bot.outbox.pictures.idle()
            pictured = env.double.message(card.id)
            assert [a.filename for a in pictured.gallery_attachments()] == [
                TURN_PICTURE,
                BOARD_PICTURE,
            ]
            assert await env.bot.rooms.reports.owed_pictures() == []

    run(body)


def test_a_coached_game_ended_by_resigning_has_a_final_card_like_any_end(tmp_path: Path) -> None:
    """Resigning a coached two-player game: its ending card offers My turning points, Rematch
    and Rules as a finished game's does, and its board says the game ended (it is not the
    board of the last turn card, where a player was still to act)."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            double = env.double
            table = await coached_game(env, (GUEST,))
            player = HOST if await env.current_user(table.id) == HOST.id else GUEST
            for action in rest_of_turn(await env.match(table.id)):
                await (await env.play(player, table.id, action)).reply(TIMEOUT)
            last_turn = await double.wait_for_message(
                table.id, lambda m: m.is_v2 and "turn.png" in shown(m), TIMEOUT
            )
            ask = await (await double.slash(player, table.id, "resign")).reply(TIMEOUT)
            yes = await double.click(player, table.id, ask.id, custom_id(ask, "himiko:resign:ok:"))
            await yes.reply(TIMEOUT)
            ending = await double.wait_for_message(
                table.id,
                lambda m: m.is_v2 and m.id > last_turn.id and "board.png" in shown(m),
                TIMEOUT,
            )
            ids = ending.custom_ids()
            assert any(i.startswith("himiko:coach:points:") for i in ids), ids
            assert any(i.startswith("himiko:rematch:") for i in ids), ids
            assert "himiko:rules:yamatai" in ids
            ended_board = ending.attachment("board.png")
            turn_board = last_turn.attachment("board.png")
            assert ended_board is not None and turn_board is not None
            assert ended_board.data != turn_board.data  # "ended by a resignation" on it

    run(body)


def test_turns_whose_pictures_were_overtaken_still_become_cards_in_words(
    tmp_path: Path,
) -> None:
    """Four turns played while pictures are held: the queue draws only the newest turn's
    pictures (the older ones are overtaken, never drawn), yet every turn message becomes a card:
    the older ones in words, the newest with its pictures; nothing stays owed."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table, player, other = await two_humans(env)
            await env.quiet()
            assert env.bot.render_pool is not None
            opened = gate(env.bot.render_pool)
            users = {player.id: player, other.id: other}
            for _ in range(4):
                user = users[await env.current_user(table.id) or 0]
                for action in rest_of_turn(await env.match(table.id)):
                    await (await env.play(user, table.id, action)).reply(TIMEOUT)
            opened.set()
            await env.settled()
            await env.bot.outbox.pictures.idle()
            _, *turns = env.double.messages(table.id, include_ephemeral=False)
            assert len(turns) == 4 and all(m.is_v2 for m in turns), [m.text() for m in turns]
            assert shown(turns[-1]) == [TURN_PICTURE, BOARD_PICTURE]
            assert any(shown(m) == [] for m in turns[:-1])  # overtaken: a card in words
            assert all(m.text_displays()[1] for m in turns)  # each tells its turn
            assert await env.bot.rooms.reports.owed_pictures() == []

    run(body)
