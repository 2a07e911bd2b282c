"""Private notes per game through the double (issue 39 item 3): ``/notes`` in a game's thread
answers with a modal holding the player's own note; what is saved comes back only to its
author, after a restart too (a modal opened before it is still saved); not a player, not a game,
too long: refused, nothing changed; a note is in no record."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bot.catalog import default_catalog
from tests.discord_double import InteractionRecord, MessageRecord
from tests.e2e.harness import (
    CHANNEL,
    GUEST,
    HOST,
    TIMEOUT,
    WATCHER,
    Env,
    custom_id,
    himiko_env,
    run,
)

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

TEXT = "himiko:notes:text"
PLAN = "Fleet 3 next round; Kenji hoards stone boats.\nKeep 2 silk for the palace."


def said(key: str, locale: str = "en", **params: Any) -> str:
    """A catalog text as the bot says it."""
    return default_catalog().text(key, locale, **params)


async def open_notes(env: Env, user: Any, channel: int, locale: str = "en-US") -> InteractionRecord:
    """``/notes``: the interaction (its modal, or its refusal)."""
    done = await env.double.slash(user, channel, "notes", locale=locale)
    await done.response(TIMEOUT)
    return done


def shown_note(opened: InteractionRecord) -> str:
    """The note the modal shows (its text input's value)."""
    modal = opened.modal
    assert modal is not None, "no modal opened"
    inputs = [row.get("component") or row["components"][0] for row in modal["components"]]
    found = [c for c in inputs if c.get("custom_id") == TEXT]
    assert len(found) == 1 and found[0]["max_length"] == 4000
    return str(found[0].get("value") or "")


async def submit(env: Env, user: Any, opened: InteractionRecord, body: str) -> MessageRecord:
    """Submit the modal with ``body``: the private answer."""
    done = await env.double.submit_modal(user, opened, {TEXT: body})
    return await done.reply(TIMEOUT)


def test_a_note_comes_back_only_to_its_author_and_survives_a_restart(tmp_path: Path) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table = await env.start_game(HOST, [GUEST])
            thread = table.id
            opened = await open_notes(env, HOST, thread)
            assert shown_note(opened) == ""
            saved = await submit(env, HOST, opened, PLAN)
            assert saved.ephemeral and saved.content == said("notes.saved", count=len(PLAN))
            # it says where to read it again: /notes, or the turn panel's Notes (by its label)
            for locale in ("en-US", "fr", "it", "pl"):
                speaker = replace(HOST, locale=locale)
                again = await submit(env, speaker, await open_notes(env, HOST, thread), PLAN)
                assert "/notes" in again.content, again.content
                label = said("panel.notes", locale.split("-")[0])
                assert f" {label} " in again.content, again.content
            assert shown_note(await open_notes(env, HOST, thread)) == PLAN
            assert shown_note(await open_notes(env, GUEST, thread)) == ""  # only its author
            # a modal opened before a restart and sent after it: still saved
            before = await open_notes(env, GUEST, thread)
            await env.restart()
            answer = await submit(env, GUEST, before, "Mon plan")
            assert answer.content == said("notes.saved", count=8)
            assert shown_note(await open_notes(env, HOST, thread)) == PLAN
            assert shown_note(await open_notes(env, GUEST, thread)) == "Mon plan"
            # no record carries a note
            export = await (await env.double.slash(HOST, thread, "export")).reply(TIMEOUT)
            data = export.attachments[0].data.decode()
            assert json.loads(data)["actions"] is not None
            assert "Fleet 3" not in data and "Mon plan" not in data
            # one character is said in the singular
            for locale, said_one in (("en-US", "(1 character)"), ("fr", "(1 caractère)")):
                speaker = replace(HOST, locale=locale)
                one = await submit(env, speaker, await open_notes(env, HOST, thread), "x")
                assert said_one in one.content, one.content
            # an empty note clears it
            cleared = await submit(env, HOST, await open_notes(env, HOST, thread), "  ")
            assert cleared.content == said("notes.cleared")
            assert shown_note(await open_notes(env, HOST, thread)) == ""

    run(body, timeout=120)


def test_refusals_change_nothing(tmp_path: Path) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table = await env.start_game(HOST, [GUEST])
            watcher = await open_notes(env, WATCHER, table.id, locale="pl")
            assert watcher.modal is None
            assert (await watcher.reply(TIMEOUT)).content == said("notes.not_player", "pl")
            nowhere = await open_notes(env, HOST, CHANNEL)
            assert (await nowhere.reply(TIMEOUT)).content == said("notes.no_game")
            opened = await open_notes(env, HOST, table.id)
            await submit(env, HOST, opened, PLAN)
            too_long = await submit(env, HOST, opened, "x" * 4001)
            assert too_long.content == said("notes.too_long", most=4000, length=4001)
            assert shown_note(await open_notes(env, HOST, table.id)) == PLAN
            # someone else submitting a player's modal writes their own note, or is refused
            stolen = await submit(env, WATCHER, opened, "mine now")
            assert stolen.content == said("notes.not_player")
            assert shown_note(await open_notes(env, HOST, table.id)) == PLAN

    run(body, timeout=120)


def test_the_panel_s_notes_button_opens_the_same_note(tmp_path: Path) -> None:
    """The turn panel's Notes button answers with the modal of the player's own note."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table = await env.start_game(HOST, [GUEST])
            opened = await open_notes(env, HOST, table.id)
            await submit(env, HOST, opened, PLAN)
            player = await env.current_user(table.id)
            user = HOST if player == HOST.id else GUEST
            panel = await (await env.double.slash(user, table.id, "turn")).reply(TIMEOUT)
            button = custom_id(panel, "himiko:notes:open:")
            clicked = await env.double.click(user, table.id, panel.id, button)
            await clicked.response(TIMEOUT)
            assert shown_note(clicked) == (PLAN if user is HOST else "")

    run(body, timeout=120)
