"""A game's web page extras come from its presentation (``Presentation.web``, a ``WebExtras``),
found through the bot's game registry like its other parts; a game without them, or a key the bot
does not present, gets the generic page (issue 36 item 3)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

import bot.games
from bot.catalog import default_catalog
from bot.games import presentation
from bot.games.base import Score, Texts, WebExtras
from bot.web.cards import card_texts, field_name
from bot.web.games import extras, shown_score
from bot.web.seats import seat_rows
from bot.web.texts import web_catalog
from render import words
from tests.nim.presentation import NimPresentation

ROOT = Path(__file__).resolve().parents[2]
VIEW = {"players": [{"name": "Ann", "taken": 3, "set_aside": ["Raijin"], "score": 3}]}


def _taken(t: Texts, field: str, value: object) -> list[str] | None:
    return [f"{value} objects"] if field == "taken" else None


def _score(player: Mapping[str, Any], language: str) -> Score:
    return (f"{player['score']} ({language})", "counted so far")


class NimWithExtras(NimPresentation):
    """Nim whose page puts ``taken`` in words, shows its own score and lists Yamatai's cards."""

    web = WebExtras(card_texts="y.specialist.", field_texts="y.col.", words=_taken, score=_score)


@pytest.mark.parametrize("game_key", ["nim", "a-game-the-bot-does-not-present"])
def test_a_game_without_extras_gets_the_generic_page(game_key: str) -> None:
    assert extras(game_key) == WebExtras()
    assert shown_score(game_key, {"score": 3}, "en") == ("3", None)
    assert shown_score(game_key, {"score": {"total": 4}}, "en") == ("4", None)
    assert card_texts(game_key, VIEW, "en") == ()
    assert field_name(game_key, "set_aside", "en") == "set aside"
    rows = dict(seat_rows(game_key, VIEW, 0, default_catalog(), "en"))
    assert ("3",) in rows.values() and ("Raijin",) in rows.values()


def test_a_games_extras_reach_the_page(monkeypatch: pytest.MonkeyPatch) -> None:
    """Registered with extras, the same game's page uses every one of them."""
    monkeypatch.setitem(bot.games.PRESENTATIONS, "nim", NimWithExtras())
    assert shown_score("nim", {"score": 3}, "fr") == ("3 (fr)", "counted so far")
    rows = dict(seat_rows("nim", VIEW, 0, default_catalog(), "en"))
    assert ("3 objects",) in rows.values()
    raijin = words.say("y.specialist.Raijin", "fr")  # the card named: "Raijin : Une fois…"
    line = web_catalog().text("web.card_line", "fr", card="Raijin", text=raijin)
    assert card_texts("nim", VIEW, "fr") == (("Raijin", line),)
    assert words.known("y.col.set_aside")
    assert field_name("nim", "set_aside", "fr") == words.say("y.col.set_aside", "fr")


def test_the_shipped_games_declare_their_extras() -> None:
    yamatai, namiji = presentation("yamatai").web, presentation("namiji").web
    assert (yamatai.card_texts, yamatai.field_texts) == ("y.specialist.", "y.col.")
    assert (namiji.card_texts, namiji.field_texts) == (None, "n.cat.")
    assert namiji.card_words is not None and yamatai.card_words is None
    assert yamatai.words is not None and namiji.words is not None and namiji.score is None
    hidden = {"score": {"total": 5}, "hidden_tiles": 2}
    assert shown_score("yamatai", hidden, "fr") == ("5+?", words.say("y.focus.hidden_score", "fr"))
    assert shown_score("namiji", {"score": {"total": 5}}, "fr") == ("5", None)


def test_no_web_module_is_looked_up_by_the_games_key() -> None:
    """The extras are a typed value of the registry: no per-game web module found by name."""
    assert not (ROOT / "bot" / "web" / "games").exists()
    source = (ROOT / "bot" / "web" / "games.py").read_text("utf-8")
    assert "importlib" not in source and "getattr(" not in source
