"""Namiji's pictures name every step in the reader's words (issue 38, verification
play-through 47): the second offering read "Maintenant : offer" and "Na tym przystanku:
offer" because the pictures knew six of the engine's seven station tasks."""

from __future__ import annotations

import json
import random
import re
from functools import cache
from typing import Any

import pytest

from engine import games
from engine.namiji import rules
from engine.namiji.components import REVERSED, components
from render import render_focus
from render.extras import Extras
from render.namiji.picture import render_board
from render.text import measuring
from render.words import say, table
from tests.render.test_golden import GOLDEN
from tests.render.test_phone import _clear_caches

LANGUAGES = ("en", "fr", "it", "pl")
#: Every task the engine can set at a station: each has its rule of what it allows, and a task
#: without one cannot be played, so a new task lands here and must be named in words.
TASKS = sorted(rules._TASK_ALLOWS)


@cache
def _station() -> tuple[Any, list[str]]:
    """A two-player game's view at a station, Ann's task under way, and its legal actions."""
    match = games.new("namiji", ["Ann", "Bo"], seed=3)
    picked = random.Random(3)
    while match.current_seat is not None:
        view = match.view(match.current_seat)
        if view["phase"] == "station" and view["tasks"]:
            return view, match.legal_actions()
        match.play(picked.choice(match.legal_actions()), seat=match.current_seat)
    raise AssertionError("no station with a task")


def _texts(draw: Any, view: Any, lang: str, **kwargs: Any) -> list[str]:
    with measuring() as drawn:
        draw(view, **kwargs)
    return [d.text for d in drawn]


def _at(task: str) -> tuple[Any, list[str]]:
    view, legal = _station()
    return {**view, "tasks": [task]}, legal


def test_the_engine_has_the_second_offering_among_its_tasks() -> None:
    """The list the test walks is the engine's: it holds the step the play-through met."""
    assert "offer" in TASKS and len(TASKS) >= 7, TASKS


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("task", TASKS)
def test_every_station_task_is_named_in_words_on_every_picture(task: str, lang: str) -> None:
    """The board (to everyone, the infinitive), the turn picture (to its player) and the web's
    picture (spectators, the third person) name the task in words, never its code."""
    view, legal = _at(task)
    name = view["players"][view["current_seat"]]["name"]
    board = _texts(render_board, view, lang, extras=Extras(language=lang))
    words = say(f"n.task.{task}", lang)
    assert say("n.centre.at_stop", lang, task=words) in board, board[:8]
    assert any(t.endswith(words) and name in t for t in board), board[:4]
    focus = _texts(render_focus, view, lang, legal=legal, extras=Extras(language=lang))
    assert any(t.endswith(say(f"n.focus.task.{task}", lang)) for t in focus), focus[:6]
    watch = Extras(language=lang, voice="spectator")
    seen = _texts(render_board, view, lang, extras=watch)
    watched = say(f"n.watch.{task}", lang)
    assert say("n.centre.at_stop_watch", lang, name=name, task=watched) in seen, seen[:8]
    for texts in (board, focus, seen):
        assert not [t for t in texts if t.endswith((f": {task}", f" {name} {task}"))], texts[:8]
    assert task not in (words, watched), (words, watched)


#: How the bot's texts name a pontoon ("namiji.summary.draft": "ponton {pontoon}", "na pomoście 1").
PONTOONS = {"en": "pontoon", "fr": "ponton", "it": "pontile", "pl": "pomost"}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("reversed_", [False, True])
def test_a_pontoon_is_numbered_as_the_texts_number_it(lang: str, reversed_: bool) -> None:
    """The board named the pontoons "ponton P1", "pomost P2": a code; the texts say "ponton 1".
    The three are numbered in the order the boats reach them, either way round the sea."""
    view, _ = _station()
    if reversed_:
        view = {**view, "direction": REVERSED}
    _clear_caches()  # the pontoons' names are on the board's cached static layer
    texts = _texts(render_board, view, lang, extras=Extras(language=lang))
    word = PONTOONS[lang]
    assert {f"{word} {n}" for n in (1, 2, 3)} <= set(texts), [t for t in texts if word in t]
    assert not [t for t in texts if re.search(r"\bP\d\b", t)], texts


def _named(letters: str, lang: str) -> list[str]:
    return [f"{letter} {say(f'n.station.{letter}', lang)}" for letter in letters]


def _keeping(pontoon: list[str], rocks: list[str]) -> tuple[Any, list[str]]:
    """The stored keep step (its crop is the player's boat board), the player holding cards."""
    data = json.loads((GOLDEN / "focus-namiji-keep.json").read_text(encoding="utf-8"))
    view = data["view"]
    players = [dict(p) for p in view["players"]]
    players[view["viewer"]].update(pontoon=pontoon, rocks=rocks)
    return {**view, "players": players}, data["legal"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_card_chips_on_a_turn_picture_are_read_with_a_key(lang: str) -> None:
    """A panel picture's boat board showed "M +3", "U DOW", "R +3" with no key (the board's key
    is only on the whole board) and "U DOW" (an upgrade acting at the three panoramas) read as
    nothing even with it: the crop's key names the cards' letters, an upgrade says its station
    in words."""
    comp = components()
    upgrades = [next(c for c, u in comp.upgrades.items() if u.station == s) for s in ("DOW", "N")]
    meal, rock = next(iter(comp.meals)), next(iter(comp.rocks))
    view, legal = _keeping([meal, *upgrades], [rock])
    texts = _texts(render_focus, view, lang, legal=legal, extras=Extras(language=lang))
    assert say("n.key.cards", lang) in texts, texts
    net = say("n.key.stations", lang, stations=f"N {say('n.station.N', lang)}")
    assert net in texts, texts  # the net upgrade's disc; the panoramas' have their own line
    assert say("n.key.panoramas", lang, kinds=", ".join(_named("DOW", lang))) in texts
    assert not [t for t in texts if re.fullmatch(r"U [A-Z]+", t)], texts
    plain, legal = _keeping([], [])
    bare = _texts(render_focus, plain, lang, legal=legal, extras=Extras(language=lang))
    assert say("n.key.cards", lang) not in bare  # no chips, no line for them


#: The word the bot's texts use for what a panorama stop gives ("a pris la section 2 du
#: panorama Dauphin", namiji.summary.panorama), and the word for a card the pictures said.
SECTION = {
    "en": ("section", "card"),
    "fr": ("section", "carte"),
    "it": ("sezione", "carta"),
    "pl": ("część", "kartę"),
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_panorama_stop_gives_a_section_as_the_texts_say(lang: str) -> None:
    """The pictures said "a pris une carte Panorama", "bierze kartę panoramy" where every text
    says "a pris la section 2 du panorama Dauphin", "bierze część 2 panoramy"; the step where
    Autre vue lets the player choose says what the menu and /board say ("choisir le panorama
    à poursuivre")."""
    section, card = SECTION[lang]
    took = say("n.focus.panorama", lang)
    assert section in took and card not in took, took
    for key in ("n.task.panorama", "n.focus.task.panorama", "n.watch.panorama"):
        said = say(key, lang)
        assert card not in said.lower() and "panoram" in said, (key, said)
    assert say("n.task.panorama", "fr") == "choisir le panorama à poursuivre"


def test_the_polish_pictures_say_crate_lines_and_dashed_squares() -> None:
    """The Polish final board's row said "rzędy skrzynki" (rows only) where its notes and the web
    say "linie skrzynki"; the legend's "Kwadraty z przerywanej linii" read awkwardly."""
    assert say("n.cat.crate", "pl") == "linie skrzynki"
    for key in ("c.focus.since_legend", "c.focus.since_legend_start"):
        assert say(key, "pl").startswith("Przerywane kwadraty: "), say(key, "pl")


def test_a_polish_picture_says_one_word_for_a_stop() -> None:
    """Polish pictures said "przystanek" ("Na tym przystanku", the key's "przystanki") and
    "stacja" ("jest na stacji"): one word, the glossary's "przystanek"."""
    texts = [v for k, v in table("pl").items() if k.startswith(("n.", "c."))]
    assert not [t for t in texts if "stacj" in t.lower()], [t for t in texts if "stacj" in t]


#: The spectators' words for a step the player may skip (the second offering: or end the turn;
#: the net: or refuse it). They said the choice as made, "Kenji fait une deuxième offrande",
#: "Kenji składa drugą ofiarę", while the page beside said "…, ou terminer son tour"
#: (verification 48 N4).
MAY = {
    "offer": {
        "en": "may make a second offering",
        "fr": "peut faire une deuxième offrande",
        "it": "può fare una seconda offerta",
        "pl": "może złożyć drugą ofiarę",
    },
    "net": {
        "en": "may take a net",
        "fr": "peut prendre un filet",
        "it": "può prendere una rete",
        "pl": "może wziąć sieć",
    },
}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("task", sorted(MAY))
def test_a_step_the_player_may_skip_is_told_to_spectators_as_a_choice(task: str, lang: str) -> None:
    """The web's picture tells spectators what the player may do at a step with a way out, in
    its title and at the stop, never as done; the players' board keeps naming the step."""
    view, _ = _at(task)
    name = view["players"][view["current_seat"]]["name"]
    may = MAY[task][lang]
    seen = _texts(render_board, view, lang, extras=Extras(language=lang, voice="spectator"))
    assert say("n.header.watch", lang, name=name, doing=may) in seen, seen[:8]
    assert say("n.centre.at_stop_watch", lang, name=name, task=may) in seen, seen[:8]
    board = _texts(render_board, view, lang, extras=Extras(language=lang))
    assert not [t for t in board if may in t], board[:8]
