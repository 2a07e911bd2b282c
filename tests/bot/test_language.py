"""Languages without Discord: catalog languages of Discord locales, numbers in each language,
the lobby's language in its custom ids."""

from __future__ import annotations

from dataclasses import replace

from bot.lobby_state import LobbyState, parse_custom_id
from bot.present import decimal, known_language


def test_known_languages_of_discord_locales() -> None:
    assert [known_language(x) for x in ("fr", "en-US", "en-GB", "pl", "it", "de", None)] == [
        "fr",
        "en",
        "en",
        "pl",
        "it",
        None,
        None,
    ]


def test_pace_figures_in_the_readers_numbers() -> None:
    assert decimal(1.5, "en-US") == "1.5"
    assert [decimal(1.5, x) for x in ("fr", "it", "pl")] == ["1,5"] * 3
    assert decimal(1234.25, "en-US") == "1,234.2"
    assert decimal(-0.3, "fr", signed=True) == "-0,3" and decimal(2, "pl", signed=True) == "+2,0"


def test_the_lobby_language_rides_in_its_ids_and_old_ids_have_none() -> None:
    state = LobbyState("yamatai", 3, True, (100, 200), language="pl")
    parsed = parse_custom_id(state.custom_id("join"))
    assert parsed is not None and parsed[1].language == "pl"
    assert state.custom_id("join").endswith(":pl")
    takeover = LobbyState("yamatai", 3, True, (100,), deadline=0, takeover=True, language="it")
    again = parse_custom_id(takeover.custom_id("start"))
    assert again is not None and again[1] == replace(takeover, players=())
    old = parse_custom_id("himiko:lobby:start:yamatai:3:1:2t.5m:168")
    assert old is not None and old[1].language is None and old[1].deadline == 168
    assert parse_custom_id("himiko:lobby:start:yamatai:3:1:2t.5m:de") is None
    languages = [state.language]
    for _ in range(4):
        state = state.next_language()
        languages.append(state.language)
    assert languages == ["pl", "en", "fr", "it", "pl"]
