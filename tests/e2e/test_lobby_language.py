"""The lobby's language is picked from a menu (issue 21 item 10), on the Discord double; the
language button of lobbies posted before it still switches to the next language."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.harness import CHANNEL, GUEST, HOST, TIMEOUT, custom_id, himiko_env, run

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL


def test_the_host_picks_the_language_from_a_menu_and_old_buttons_still_work(
    tmp_path: Path,
) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            lobby = await env.open_lobby(HOST)
            assert not [c for c in lobby.custom_ids() if c.startswith("himiko:lobby:language:")]
            menu_id = custom_id(lobby, "himiko:lobby:lang:")
            menu = lobby.component(menu_id)
            assert menu is not None and menu["type"] == 3
            options = [(o["value"], o["label"], o.get("default", False)) for o in menu["options"]]
            assert options == [
                ("en", "🌐 English", True),
                ("fr", "🌐 Français", False),
                ("it", "🌐 Italiano", False),
                ("pl", "🌐 Polski", False),
            ]

            guest = await env.double.click(GUEST, CHANNEL, lobby.id, menu_id, values=["pl"])
            assert (await guest.reply(TIMEOUT)).content.startswith("Only the host")
            chosen = await env.double.click(HOST, CHANNEL, lobby.id, menu_id, values=["pl"])
            assert (await chosen.response(TIMEOUT)).type == 7
            shown = env.double.message(lobby.id)
            assert "Dołącz" in str(shown.components) and ":pl" in custom_id(
                shown, "himiko:lobby:join:"
            )
            polish = shown.component(custom_id(shown, "himiko:lobby:lang:"))
            assert polish is not None
            assert [o["value"] for o in polish["options"] if o.get("default")] == ["pl"]

            forged = await env.double.forged_click(
                HOST, CHANNEL, lobby.id, custom_id(shown, "himiko:lobby:lang:"), values=["de"]
            )
            assert (await forged.response(TIMEOUT)).type == 7  # not a language: nothing changes
            assert ":pl" in custom_id(env.double.message(lobby.id), "himiko:lobby:join:")

            # a lobby posted before the menu had a language button in that row: pressed, it
            # switches to the next language, as it did
            old = "himiko:lobby:language:yamatai:2:0:@:48:0:pl"
            record = env.double.message(lobby.id)
            record.components[-1] = {
                "type": 1,
                "components": [{"type": 2, "style": 2, "label": "🌐 Polski", "custom_id": old}],
            }
            pressed = await env.double.click(HOST, CHANNEL, lobby.id, old)
            assert (await pressed.response(TIMEOUT)).type == 7
            after = env.double.message(lobby.id)
            assert ":en" in custom_id(after, "himiko:lobby:join:") and "Join" in str(
                after.components
            )

    run(body)
