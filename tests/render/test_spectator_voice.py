"""The web page's pictures speak to spectators (issue 38 item 9): the board's title says the step
in the third person ("Ann choisit une tuile Flotte", "Ann przesuwa łódź"), while the thread's
pictures, read by the players, keep speaking to the player to move ("à Ann de jouer : choisir
une flotte")."""

from __future__ import annotations

import json
from typing import Any

import pytest
from PIL import Image

from bot.service.pictures import render_picture
from bot.web.pictures import web_picture
from engine import games
from engine import record as rec
from render.extras import Extras
from render.namiji.picture import doing_words
from render.recap import render_recap
from render.stand_in import dressed
from render.text import measuring
from render.words import speaking
from render.yamatai.header import STEPS, step_words
from render.yamatai.picture import render_board as render_yamatai
from tests.engine.test_record import finished, played
from tests.render.games import highlight_from_json
from tests.render.probes import decode
from tests.render.test_golden import GOLDEN, UPDATE, assert_matches
from tests.render.test_phone import _clear_caches

#: (game, language) -> (the spectators' words at the game's first step, the players' ones), for
#: the first player, Ann: Yamatai begins by choosing a fleet, Namiji by moving a boat (its title,
#: and what comes next in the middle of the loop).
TITLES = {
    ("yamatai", "fr"): (
        ("Manche 1  ·  Ann choisit une tuile Flotte",),
        ("à Ann de jouer\xa0: choisir",),
    ),
    ("yamatai", "pl"): (
        ("Runda 1  ·  Ann wybiera kafelek floty",),
        ("teraz gra Ann: wybrać kafelek floty",),
    ),
    ("namiji", "fr"): (
        ("Ann déplace un bateau", "Ensuite\xa0: Ann déplace un bateau"),
        ("À Ann de jouer\xa0: déplacer un bateau", "Ensuite\xa0: déplacer un bateau"),
    ),
    ("namiji", "pl"): (
        ("Ann przesuwa łódź", "Dalej: Ann przesuwa łódź"),
        ("Teraz gra Ann: popłynąć łodzią", "Dalej: popłynąć łodzią"),
    ),
}


def _opening(game: str) -> dict[str, Any]:
    """Everyone's view of a new two-player game whose first player is Ann."""
    for seed in range(40):
        match = games.new(game, ["Ann", "Bo"], seed=seed)
        view = match.view(None)
        if view["players"][view["current_seat"]]["name"] == "Ann":
            return view
    raise AssertionError("Ann never plays first")


@pytest.mark.parametrize(("game", "lang"), list(TITLES))
def test_the_web_picture_says_the_step_in_the_third_person(game: str, lang: str) -> None:
    """The web's drawer (``bot.web.pictures.web_picture``) titles the board in the spectators'
    words; the bot's picture of the same view keeps the players' words."""
    watched, played = TITLES[(game, lang)]
    view = _opening(game)
    _clear_caches()
    with measuring() as web:
        web_picture(view, None, lang)
    with measuring() as thread:
        render_picture(view, None, None, Extras(language=lang))
    web_texts, thread_texts = [d.text for d in web], [d.text for d in thread]
    for said in watched:
        assert said in web_texts, (said, web_texts[:12])
        assert said not in thread_texts, (said, thread_texts[:12])
    for said in played:
        assert not any(said in t for t in web_texts), (said, web_texts[:12])
        assert any(said in t for t in thread_texts), (said, thread_texts[:12])


@pytest.mark.parametrize("lang", ("en", "fr", "pl"))
def test_every_step_has_its_spectators_words(lang: str) -> None:
    """Each step of each game is told to spectators in words of their own, not the players'
    (Italian's third person is often its imperative, "termina il turno": not compared)."""
    with speaking(lang):
        for step in STEPS:
            view: Any = {"turn": {"step": step}}
            assert step_words(view, watched=True) != step_words(view), (lang, step)
        for phase, tasks in [
            *(("station", [t]) for t in ("fish", "catch", "net", "trap", "rock", "panorama")),
            ("station", []),
            ("move", []),
            ("draft", []),
        ]:
            view = {"phase": phase, "tasks": tasks}
            with dressed(Extras(language=lang, voice="spectator")):
                assert doing_words(view, watched=True) != doing_words(view), (lang, phase, tasks)


SPECTATOR_GOLDEN = (("fr", "4p-seed7-turn20"), ("pl", "namiji-3p-seed5-reversed"))
"""The web page's pictures of two stored spectator views, in French and Polish."""


@pytest.mark.parametrize(("lang", "name"), SPECTATOR_GOLDEN)
def test_golden_for_spectators(lang: str, name: str) -> None:
    """The stored view drawn for the web page matches its golden picture (the title in the
    third person); regenerate with UPDATE_GOLDEN=1."""
    data = json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))
    extras = Extras(language=lang, voice="spectator")
    if "highlight" in data:
        hl = highlight_from_json(data["highlight"])
        png = render_yamatai(data["view"], highlight=hl, extras=extras)
    else:
        png = render_picture(data["view"], data["events"], None, extras)
    actual = decode(png).reduce(2)
    image_path = GOLDEN / f"web-{lang}-{name}.png"
    if UPDATE:
        actual.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE).save(
            image_path, optimize=True
        )
    assert_matches(image_path, actual)


@pytest.mark.parametrize("game", ["yamatai", "namiji"])
def test_the_recap_is_told_to_spectators(game: str) -> None:
    """A recap's frames (the game's final message and its web page) title each moment in the
    spectators' words ("Ann przesuwa łódź"), never the players' ("Gra Ann: przesuń łódź")."""
    match = finished(game, 2, 1)
    record = rec.build(game, match.options, 1, match.players, played(match), match.outcome)
    moments = rec.recap_moments(rec.replay(record))
    _clear_caches()
    with measuring() as drawn:
        render_recap(moments[:6], language="pl")
    texts = [d.text for d in drawn]
    played_prefix = {"yamatai": "  ·  gra ", "namiji": "Gra "}[game]
    watched = {"yamatai": "Runda 1  ·  ", "namiji": " przesuwa łódź"}[game]
    assert not [t for t in texts if played_prefix in t or t.startswith(played_prefix)], texts
    assert any(watched in t for t in texts), texts
