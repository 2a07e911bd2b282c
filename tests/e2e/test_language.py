"""Languages end to end: the user's locale for private replies, the game's language for public
messages and pictures, the server default (/server), and the synced commands' localizations."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Any

from bot.catalog import default_catalog
from render import render_board
from render.extras import Extras
from tests.discord_double import MessageRecord
from tests.e2e.harness import (
    CHANNEL,
    COMMANDS,
    GUEST,
    GUILD,
    HOST,
    TIMEOUT,
    WATCHER,
    Env,
    as_posted,
    custom_id,
    himiko_env,
    pngs,
    run,
    shown,
)
from tests.e2e.test_play import rest_of_turn

MANAGE_GUILD = 1 << 5
ADMIN = replace(HOST, permissions=HOST.permissions | MANAGE_GUILD)
LOCALES = ("fr", "it", "pl")
NAME = re.compile(r"^[-_\w]{1,32}$")
ENGLISH_LABELS = {"Join", "Leave", "Start", "Cancel"}


def _longest(node: dict[str, Any], field: str) -> int:
    """A field's length as Discord counts it: the longest of the default and its localizations."""
    texts = [str(node.get(field, ""))]
    texts += [str(v) for v in (node.get(f"{field}_localizations") or {}).values()]
    return max(len(t) for t in texts)


def _check_node(node: dict[str, Any], where: str) -> int:
    """Check a command's or option's names and descriptions in every locale; its char count."""
    names = [node["name"], *(node.get("name_localizations") or {}).values()]
    for name in names:
        assert NAME.match(name) and name == name.lower(), (where, name)
    descriptions = [node["description"], *(node.get("description_localizations") or {}).values()]
    for text in descriptions:
        assert 1 <= len(text) <= 100, (where, text)
    total = _longest(node, "name") + _longest(node, "description")
    for choice in node.get("choices", []):
        for text in [choice["name"], *(choice.get("name_localizations") or {}).values()]:
            assert 1 <= len(text) <= 100, (where, text)
        total += _longest(choice, "name") + len(str(choice["value"]))
    for option in node.get("options", []):
        total += _check_node(option, f"{where} {option['name']}")
    return total


def _synced(env: Env) -> Any:
    return env.double.wait_for_commands(GUILD, TIMEOUT)


def test_synced_commands_fit_discords_limits_in_every_locale(tmp_path: Path) -> None:
    """Names English and valid; descriptions and choice names 1-100 characters in every locale;
    at most 4000 characters per command (the longest localization of each field counted)."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            synced = await _synced(env)
            assert sorted(c["name"] for c in synced) == sorted(COMMANDS)
            for command in synced:
                assert not command.get("name_localizations"), command["name"]  # names: English
                assert _check_node(command, command["name"]) <= 4000, command["name"]
            server = env.double.command("server", GUILD)
            assert server is not None and int(server["default_member_permissions"]) == MANAGE_GUILD
            assert server["description_localizations"]["pl"].startswith("Ustawienia serwera")
            language = server["options"][0]
            none = next(c for c in language["choices"] if c["value"] == "none")
            assert none["name_localizations"]["fr"] == "Aucune (la langue du serveur)"

    run(body)


def test_every_synced_command_has_a_different_description_in_fr_it_pl(tmp_path: Path) -> None:
    """The acceptance contract: ``description_localizations`` for fr, it and pl on every
    command, each unlike the English description."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            missing = []
            for command in await _synced(env):
                localized = command.get("description_localizations") or {}
                missing += [
                    (command["name"], locale)
                    for locale in LOCALES
                    if localized.get(locale) in (None, command["description"])
                ]
            assert missing == []

    run(body)


def test_the_same_refusal_reads_in_each_users_locale(tmp_path: Path) -> None:
    """/play where no game is: French for a French user, Polish unlike English (private)."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            said = {}
            for locale in ("en-US", "fr", "pl"):
                rec = await env.double.slash(
                    WATCHER, CHANNEL, "play", {"action": "fleet 4"}, locale=locale
                )
                reply = await rec.reply(TIMEOUT)
                assert reply.ephemeral
                said[locale] = reply.content
            catalog = default_catalog()
            assert said["en-US"] == catalog.text("error.no_game", "en")
            assert said["fr"] == catalog.text("error.no_game", "fr")
            assert said["pl"] == catalog.text("error.no_game", "pl") != said["en-US"]

    run(body)


def _labels(message: MessageRecord) -> set[str]:
    return {str(c.get("label")) for c in message.iter_components() if c.get("type") == 2}


def test_a_french_server_opens_french_lobbies(tmp_path: Path) -> None:
    """Preferred locale French, French host: no English button label, the embed in French."""

    async def body() -> None:
        async with himiko_env(tmp_path, preferred_locale="fr") as env:
            rec = await env.double.slash(
                replace(HOST, locale="fr"), CHANNEL, "new", {"game": "yamatai"}, locale="fr"
            )
            lobby = await rec.reply(TIMEOUT)
            labels = _labels(lobby)
            assert not labels & ENGLISH_LABELS, labels
            assert {"Rejoindre", "Lancer"} <= labels
            language = lobby.component(custom_id(lobby, "himiko:lobby:lang:"))
            assert language is not None
            assert [o["label"] for o in language["options"] if o.get("default")] == ["🌐 Français"]
            assert "nouvelle partie" in lobby.text()
            assert ":fr" in custom_id(lobby, "himiko:lobby:join:")
            # an English-speaking guest's refusal is in English, the lobby stays French
            click = await env.double.click(
                GUEST, CHANNEL, lobby.id, custom_id(lobby, "himiko:lobby:start:")
            )
            refusal = await click.reply(TIMEOUT)
            assert refusal.ephemeral and refusal.content.startswith("Only the host")
            assert env.double.message(lobby.id).text() == lobby.text()

    run(body)


async def _server_language(env: Env, user: Any, value: str | None) -> str:
    options = {} if value is None else {"language": value}
    rec = await env.double.slash(user, CHANNEL, "server", options)
    reply = await rec.reply(TIMEOUT)
    assert reply.ephemeral
    return reply.content


def test_only_managers_set_the_server_default_and_a_polish_game_is_polish(tmp_path: Path) -> None:
    """/server language: refused without Manage Server (nothing changes); set to Polish by a
    manager, a new game's lobby, opening, pictures and turn messages are Polish, while an
    English user's private replies stay English."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            catalog = default_catalog()
            refused = await _server_language(env, GUEST, "pl")
            assert refused == catalog.text("server.manage_only", "en")
            assert "No default language" in await _server_language(env, GUEST, None)
            # named in the reader's (English) words inside the sentence, not "Polski"
            assert "in Polish" in await _server_language(env, ADMIN, "pl")
            assert "in Polish" in await _server_language(env, GUEST, None)
            table = await env.start_game(HOST, [GUEST])
            assert "nowa gra" in env.double.message(table.lobby.id).text()
            card = await env.double.wait_for_message(  # the opening, then its card (D200)
                table.id, lambda m: m.id == table.opening.id and m.is_v2, TIMEOUT
            )
            heading, words = card.text_displays()[:2]
            assert heading == catalog.text("card.heading_new", "pl", game="Yamatai")
            assert words.startswith("**Zaczyna się partia Yamatai!**")
            assert shown(card) == ["board.png"]
            match = await env.match(table.id)
            (opening,) = pngs(card)
            assert opening == render_board(match.view(None), extras=Extras(language="pl"))
            assert opening != render_board(match.view(None), extras=Extras(language="en"))

            player = HOST if await env.current_user(table.id) == HOST.id else GUEST
            other = GUEST if player is HOST else HOST
            seat = match.current_seat
            rec = await env.double.slash(player, table.id, "board", {}, locale="en-US")
            board = await rec.reply(TIMEOUT)
            assert board.ephemeral and "Round 1" in board.content  # the reader's words
            assert pngs(board) == [
                render_board(match.view(seat), events=[], extras=Extras(language="pl"))
            ]

            actions = rest_of_turn(await env.match(table.id))
            rec = await env.play(player, table.id, "; ".join(actions))
            preview = await rec.reply(TIMEOUT)
            assert "Preview" in preview.text()  # private: the player's own locale
            confirm = custom_id(preview, "himiko:seq:ok:")
            click = await env.double.click(player, table.id, preview.id, confirm)
            await click.wait_event("edit_original", TIMEOUT)
            await env.settled()  # the turn message's picture follows it
            turn = env.turn_messages(table.id)[-1]
            assert turn.id != table.opening.id
            your_turn = catalog.text("game.your_turn", "pl", mention=f"<@{other.id}>")
            assert your_turn in as_posted(env.double, turn).content  # the words that pinged
            assert your_turn in turn.text_displays()[0]  # its card's heading
            labels = [str(c["label"]) for c in turn.iter_components() if c.get("type") == 2]
            assert labels[0] == catalog.text("game.take_turn", "pl")
            polish = [catalog.text(key, "pl") for key in ("game.take_turn", "card.rules")]
            assert all(any(label.endswith(p) for p in polish) for label in labels), labels

    run(body)
