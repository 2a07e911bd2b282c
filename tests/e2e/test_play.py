"""Playing in a game thread: autocomplete, single actions, whole-turn sequences, refusals."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.errors import EngineError
from engine.games import Match
from tests.discord_double import MessageRecord, UserSpec
from tests.e2e.harness import (
    GUEST,
    HOST,
    TIMEOUT,
    WATCHER,
    Env,
    Table,
    custom_id,
    has_png,
    himiko_env,
    run,
)

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL


TRACEBACK_MARKERS = ("Traceback", 'File "', "Error:", "line ")


async def two_humans(env: Env) -> tuple[Table, UserSpec, UserSpec]:
    """A started game of the host and the guest: (table, player to act, the other player)."""
    table = await env.start_game(HOST, [GUEST])
    first = await env.current_user(table.id)
    assert first in (HOST.id, GUEST.id)
    return (table, HOST, GUEST) if first == HOST.id else (table, GUEST, HOST)


def shows_hidden(match: Match, action: str) -> bool:
    """Whether an action reveals hidden information (such actions are played on their own)."""
    return bool(match.rules.reveals(match.rules.parse(match.state, action)))


def rest_of_turn(match: Match) -> list[str]:
    """The first legal action that may be part of a sequence, until the player's turn ends."""
    seat = match.current_seat
    assert seat is not None
    before = len(match.log)
    for _ in range(50):
        action = next(a for a in match.legal_actions() if not shows_hidden(match, a))
        events = match.play(action, seat=seat)
        if any(e.get("type") == "end_turn" for e in events):
            return [text for _, text in match.log[before:]]
    raise AssertionError("the turn did not end after 50 actions")


def public(env: Env, table: Table) -> list[MessageRecord]:
    """The thread's public messages."""
    return env.double.messages(table.id, include_ephemeral=False)


def assert_clean_error(message: MessageRecord) -> None:
    """An ephemeral refusal in words, never a traceback."""
    assert message.ephemeral, message.content
    assert message.content.strip()
    for marker in TRACEBACK_MARKERS:
        assert marker not in message.content, message.content


def test_autocomplete_offers_legal_actions_and_one_action_is_applied(tmp_path: Path) -> None:
    """``/play`` suggestions come from the legal actions, filtered by what is typed."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table, player, other = await two_humans(env)
            legal = (await env.match(table.id)).legal_actions()

            everything = await env.choices(player, table.id, "")
            assert everything == legal[:25] and everything
            typed = everything[0][:3]  # e.g. "fle"
            filtered = await env.choices(player, table.id, typed)
            assert filtered and set(filtered) <= set(legal)
            assert all(typed in c for c in filtered)
            assert [a for a in legal if a.startswith(typed)][:25] == [
                c for c in filtered if c.startswith(typed)
            ]
            assert await env.choices(player, table.id, "zzz qqq") == []
            # nobody else is offered an action: one choice says whose turn it is, or who plays
            name = "Hana" if player is HOST else "Kenji"
            found = await env.double.autocomplete(
                other, table.id, "play", {"action": "fle"}, focused="action", timeout=TIMEOUT
            )
            assert [c["name"] for c in found] == [f"It is not your turn: {name} is to play."]
            assert [c["value"] for c in found] == ["fle"]  # picking it keeps what was typed
            watched = await env.double.autocomplete(
                WATCHER, table.id, "play", {"action": ""}, focused="action", timeout=TIMEOUT
            )
            assert len(watched) == 1 and "You are not playing" in str(watched[0]["name"])

            # after "a; " the suggestions continue the sequence from the state after a
            action = everything[0]
            continued = await env.choices(player, table.id, f"{action}; ")
            assert continued and all(c.startswith(f"{action}; ") for c in continued)

            version = await env.version(table.id)
            posted = len(public(env, table))
            rec = await env.play(player, table.id, action)
            assert (await rec.response(TIMEOUT)).type == 4  # answered directly (D139)
            reply = await rec.reply(TIMEOUT)
            assert reply.ephemeral and not reply.loading
            assert f"(notation: `{action}`)" in reply.content and "Step:" in reply.content
            assert (
                action.startswith("fleet ") and f"took fleet {action.split()[1]}" in reply.content
            )
            pictured = await env.double.wait_for_message(  # the board follows the words (D100)
                table.id, lambda m: m.id == reply.id and has_png(m), TIMEOUT
            )
            assert pictured.content == reply.content
            assert await env.version(table.id) > version
            match = await env.match(table.id)
            assert match.log[-1][1] == action and match.current_seat is not None
            assert len(public(env, table)) == posted  # the turn goes on: nothing public yet
            after = await env.choices(player, table.id, "")
            assert after and after != everything

    run(body)


def test_whole_turn_sequence_preview_cancel_confirm_and_turn_message(tmp_path: Path) -> None:
    """A ``;`` sequence is previewed; Cancel keeps nothing; Confirm saves the whole turn."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            double = env.double
            table, player, other = await two_humans(env)
            actions = rest_of_turn(await env.match(table.id))
            assert len(actions) >= 2
            sequence = "; ".join(actions)
            version = await env.version(table.id)

            # preview, then Cancel: nothing saved
            rec = await env.play(player, table.id, sequence)
            preview = await rec.reply(TIMEOUT)
            assert preview.ephemeral and has_png(preview)
            text = preview.text()
            assert "Preview" in text and "This ends your turn." in text and sequence in text
            cancel = custom_id(preview, "himiko:seq:no:")
            custom_id(preview, "himiko:seq:ok:")
            click = await double.click(player, table.id, preview.id, cancel)
            assert (await click.response(TIMEOUT)).type == 7
            cancelled = double.message(preview.id)
            assert "Cancelled" in cancelled.content and cancelled.attachments == []
            assert cancelled.custom_ids() == []
            assert await env.version(table.id) == version

            # preview again, the other player cannot confirm it, the player can
            posted = len(public(env, table))
            rec = await env.play(player, table.id, sequence)
            preview = await rec.reply(TIMEOUT)
            confirm = custom_id(preview, "himiko:seq:ok:")
            stolen = await double.click(other, table.id, preview.id, confirm)
            assert_clean_error(await stolen.reply(TIMEOUT))
            assert await env.version(table.id) == version

            click = await double.click(player, table.id, preview.id, confirm)
            assert (await click.response(TIMEOUT)).type == 6
            await click.wait_event("edit_original", TIMEOUT)
            done = double.message(preview.id)
            assert "Your turn is over" in done.content and done.custom_ids() == []
            assert done.embeds == [] and done.attachments == []  # the preview is gone
            assert await env.version(table.id) > version
            match = await env.match(table.id)
            assert [t for _, t in match.log[-len(actions) :]] == actions
            assert await env.current_user(table.id) == other.id

            # exactly one public message: picture, summary, a ping for the next player only
            new = public(env, table)[posted:]
            assert len(new) == 1, [m.content for m in new]
            [turn] = new  # posted at once; its picture follows (an edit)
            turn = await double.wait_for_message(
                table.id, lambda m: m.id == new[0].id and has_png(m), TIMEOUT
            )
            assert turn.author_id == double.app_id
            name = "Hana" if player is HOST else "Kenji"
            posted_words = turn.history[0]["content"]  # words first, then the card (an edit)
            assert posted_words.startswith(f"**{name}** ")
            assert turn.is_v2 and turn.text_displays()[1].startswith(f"**{name}** ")
            assert f"<@{other.id}>" in turn.text_displays()[0]  # the heading: who plays next
            assert turn.pinged_user_ids() == [other.id]
            assert player.id not in turn.pinged_user_ids()
            assert turn.allowed_mentions is not None
            assert not turn.allowed_mentions.get("parse")
            assert [int(u) for u in turn.allowed_mentions.get("users", [])] == [other.id]
            assert not turn.pings_everyone()
            assert custom_id(turn, "himiko:open:").endswith(f":{await env.version(table.id)}")

    run(body)


def test_wrong_player_and_malformed_action_are_refused_privately(tmp_path: Path) -> None:
    """Out of turn, spectators, and unreadable actions: an ephemeral reason, nothing saved."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table, player, other = await two_humans(env)
            legal = (await env.match(table.id)).legal_actions()
            version = await env.version(table.id)
            posted = len(public(env, table))
            name = "Hana" if player is HOST else "Kenji"

            rec = await env.play(other, table.id, legal[0])
            refusal = await rec.reply(TIMEOUT)
            assert_clean_error(refusal)
            assert f"It is not your turn: **{name}** is to play." in refusal.content

            rec = await env.play(WATCHER, table.id, legal[0])
            refusal = await rec.reply(TIMEOUT)
            assert_clean_error(refusal)
            assert "You are not playing in this game" in refusal.content

            rec = await env.play(player, table.id, "xyzzy 42")
            error = await rec.reply(TIMEOUT)
            assert_clean_error(error)
            assert "I could not read `xyzzy 42` as an action." in error.content
            assert "Legal now" in error.content and "Actions are" not in error.content
            assert f"`{legal[0]}`" in error.content  # the actions legal now, not the forms

            # a typo gets the closest legal actions, not a list
            typo = legal[0].replace("fleet", "flet")
            error = await (await env.play(player, table.id, typo)).reply(TIMEOUT)
            assert_clean_error(error)
            assert f"I could not read `{typo}`. Did you mean “" in error.content  # in words
            assert f"(notation: `{legal[0]}`)" in error.content
            assert "Legal now" not in error.content

            # a well-formed action that is not allowed now also says what is
            rec = await env.play(player, table.id, "end")
            error = await rec.reply(TIMEOUT)
            assert_clean_error(error)
            assert "Legal now" in error.content and legal[0] in error.content

            # a sequence with a bad part is refused as a whole before any preview, naming the
            # part and what is legal at that point (after the first action, not at the start)
            rec = await env.play(player, table.id, f"{legal[0]}; xyzzy 42")
            error = await rec.reply(TIMEOUT)
            assert_clean_error(error)
            assert error.custom_ids() == [] and not has_png(error)
            assert "action 2 of 2, `xyzzy 42`" in error.content, error.content
            after = (await env.match(table.id)).preview(legal[0]).legal_next
            assert "Legal after action 1 (notation in brackets):\n• " in error.content
            assert f" (`{after[0]}`)\n" in error.content  # in words, its notation second
            assert f"`{legal[1]}`" not in error.content  # not what was legal at the start
            rec = await env.play(player, table.id, f"{legal[0]}; buy wod; end")
            error = await rec.reply(TIMEOUT)
            assert "action 2 of 3, `buy wod`. Did you mean “" in error.content  # in words
            assert "(notation: `buy wood`)" in error.content
            assert await env.version(table.id) == version  # nothing was played

            assert await env.version(table.id) == version
            assert (await env.match(table.id)).log == []
            assert len(public(env, table)) == posted
            assert await env.current_user(table.id) == player.id

    run(body)


def test_autocomplete_only_offers_sequences_that_play_accepts(tmp_path: Path) -> None:
    """After ``fleet 3; `` every suggestion must be a sequence ``/play`` can preview.

    Fleet 3's power ``look`` shows hidden building tiles, so the engine refuses it inside a
    sequence (R29); the suggestions for a sequence should leave it out.
    """

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            for _ in range(12):  # fleet 3 is face up at the start of about half the games
                table, player, _other = await two_humans(env)
                match = await env.match(table.id)
                if "fleet 3" in match.legal_actions():
                    break
            else:
                raise AssertionError("fleet 3 was never face up")
            seat = match.current_seat
            offered = await env.choices(player, table.id, "fleet 3; ")
            assert offered and all(c.startswith("fleet 3; ") for c in offered)
            refused = []
            for choice in offered:
                try:
                    match.preview(choice, seat=seat)
                except EngineError as error:
                    refused.append(f"{choice!r}: {error}")
            if any(c.endswith("; look") for c in offered):
                rec = await env.play(player, table.id, "fleet 3; look")
                answer = await rec.reply(TIMEOUT)
                assert_clean_error(answer)  # what the player gets for picking the suggestion
            assert refused == [], refused

    run(body)


def test_a_polish_player_reads_the_engines_refusal_in_polish(tmp_path: Path) -> None:
    """The same refusal reads in the user's Discord locale: Polish words, no English left."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table, player, _ = await two_humans(env)
            version = await env.version(table.id)
            replies = {}
            for locale in ("pl", "en-US"):
                rec = await env.double.slash(
                    player, table.id, "play", {"action": "buy wood"}, locale=locale
                )
                reply = await rec.reply(TIMEOUT)
                assert_clean_error(reply)
                replies[locale] = reply.content
            polish = replies["pl"]
            assert "turę zaczynasz od wyboru kafelka floty." in polish, polish
            assert "fleet tile" not in polish and "starts by" not in polish
            assert "Your turn starts by choosing a fleet tile." in replies["en-US"]
            assert await env.version(table.id) == version  # nothing was played

    run(body)


def test_the_play_that_ends_a_turn_says_what_it_did_in_words(tmp_path: Path) -> None:
    """Issue 38 acceptance (P2's play-through): the answer to the ``/play`` that ends a turn
    says the action in words, not only its notation (a Namiji card picked read "Played
    `pick M5`" and nothing more)."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table, player, _ = await two_humans(env)
            actions = rest_of_turn(await env.match(table.id))
            replies = [
                await (await env.play(player, table.id, action)).reply(TIMEOUT)
                for action in actions
            ]
            reply = replies[-1]
            assert reply.content.startswith("Played: "), reply.content
            words, notation = reply.content.removeprefix("Played: ").split(" (notation: ", 1)
            assert words and "`" not in words, reply.content  # the words first, then the notation
            assert notation.startswith(f"`{actions[-1]}`)"), reply.content

    run(body)
