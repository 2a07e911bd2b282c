"""The web's pictures speak to spectators in their card texts too (issue 38 item 9): the Yamatai
board's specialist cards and fleet tiles read "Son port garde…", "Kupuje…", "rezerwuje" on the
web page, never "Ton port garde…", "Kupujesz…", "rezerwuj" (the players' words, which the
thread's pictures keep); Namiji's board pictures say nothing to the reader either."""

from __future__ import annotations

import json
import re
from typing import Any, cast

import pytest

from bot.service.pictures import render_picture
from bot.web.pictures import web_picture
from engine.yamatai.view import YamataiSpecialist
from render.extras import Extras
from render.stand_in import dressed
from render.text import measuring, text_length
from render.words import speaking
from render.yamatai.layout import layout
from render.yamatai.tracks import POWER_SIZE, card_slots, specialist_power, wrap
from tests.render.test_golden import GOLDEN
from tests.render.test_phone import _clear_caches
from tests.render.test_specialist_texts import CARDS, DISC, TRACK

#: Words that speak to the reader as the player, per language: possessives and pronouns of the
#: second person, and the second person's verbs the players' card texts use.
SECOND_PERSON = {
    "fr": {
        "ton", "ta", "tes", "tu", "toi", "te", "tien", "tienne", "tiens",
        "vends", "prends", "construis", "joues", "paies",
    },
    "pl": {
        "twój", "twoja", "twoje", "twoich", "twoim", "twoimi", "twojego", "twojej", "twoją",
        "ci", "cię", "ciebie", "tobie", "kupujesz", "sprzedajesz", "zaczynasz",
        "rezerwuj", "zarezerwuj", "obejrzyj", "podejrzyj", "przesuń", "zamień", "usuń", "weź",
        "zbuduj", "umieść", "odłóż",
    },
}  # fmt: skip

YAMATAI = ("2p-seed3-midturn", "3p-seed5-final", "4p-seed7-turn20")
NAMIJI = (
    "namiji-2p-seed3-final",
    "namiji-3p-seed5-reversed",
    "namiji-4p-seed7-seat",
    "namiji-5p-seed3-draft",
)


def _stored(name: str) -> dict[str, Any]:
    """A stored golden view (with its events, if any)."""
    data: dict[str, Any] = json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))
    return data


def _fleets() -> list[dict[str, Any]]:
    """The ten fleet tiles, face up, as the view shows them."""
    data = json.loads((GOLDEN.parents[2] / "engine/yamatai/data/components.json").read_text())
    return [
        {"fleet": t["number"], "boats": t["boats"], "power": t["power"], "face_up": True}
        for t in data["fleets"]["tiles"]
    ]


def _yamatai_views() -> list[tuple[dict[str, Any], Any]]:
    """Yamatai boards showing every specialist card and every fleet tile, five at a time."""
    base = _stored("4p-seed7-turn20")["view"]
    cards = [dict(card, coins=2) for card in CARDS]
    fleets = _fleets()
    views = [
        {
            **base,
            "specialist_track": cards[i : i + TRACK],
            "fleet_track": fleets[(i // TRACK * 5) % 10 :][:5],
        }
        for i in range(0, len(cards), TRACK)
    ]
    return [(v, None) for v in views] + [(_stored(n)["view"], None) for n in YAMATAI]


def _namiji_views() -> list[tuple[dict[str, Any], Any]]:
    """Namiji's stored boards: the draft, a stop, the loop, the final table."""
    return [(d["view"], d.get("events")) for d in map(_stored, NAMIJI)]


def _words(texts: list[str]) -> set[str]:
    """Every word of the texts, lower case (an apostrophe ends a word: "t'" reads "t")."""
    return {w for t in texts for w in re.findall(r"[^\W\d_]+", t.lower())}


def _drawn(view: dict[str, Any], events: Any, lang: str, *, web: bool) -> list[str]:
    """The texts a picture of the view draws: the web's, or the thread's."""
    _clear_caches()
    with measuring() as drawn:
        if web:
            web_picture(view, events, lang)
        else:
            render_picture(view, events, None, Extras(language=lang))
    return [d.text for d in drawn]


@pytest.mark.parametrize("lang", sorted(SECOND_PERSON))
@pytest.mark.parametrize("game", ["yamatai", "namiji"])
def test_a_web_picture_says_nothing_to_the_reader(game: str, lang: str) -> None:
    """No text of a web picture (titles, specialist cards, fleet tiles, Namiji's boards) is in
    the second person."""
    views = _yamatai_views() if game == "yamatai" else _namiji_views()
    for view, events in views:
        said = _words(_drawn(view, events, lang, web=True)) & SECOND_PERSON[lang]
        assert not said, (game, lang, sorted(said))


@pytest.mark.parametrize(
    ("lang", "watched", "played"),
    [
        ("fr", "Son port garde deux bateaux de plus.", "Ton port garde deux bateaux de plus."),
        ("pl", "Kupuje i sprzedaje łodzie ze złotem za 5 monet.", "Kupujesz i sprzedajesz"),
        ("pl", "rezerwuje", "rezerwuj"),
    ],
)
def test_the_thread_keeps_the_players_words(lang: str, watched: str, played: str) -> None:
    """The same board in the thread still speaks to its players; the web's tells about them."""
    view, _ = _yamatai_views()[0]
    riu_tomoe = [c for c in CARDS if c["name"] in ("Riu", "Tomoe")]
    view = {**view, "specialist_track": [dict(c, coins=0) for c in riu_tomoe]}
    web = " ".join(_drawn(view, None, lang, web=True))
    thread = " ".join(_drawn(view, None, lang, web=False))
    first = watched.split()[0]
    assert first in web.split() and played.split()[0] not in web.split(), web
    assert played.split()[0] in thread.split() and first not in thread.split(), thread


@pytest.mark.parametrize("lang", ["en", "fr", "it", "pl"])
def test_every_spectator_power_fits_its_card(lang: str) -> None:
    """The spectators' specialist texts, often longer ("właściciela"), fit the card's width
    (a long word broken with a hyphen) and end above its prestige disc."""
    slot = card_slots(layout("default", 4).specialists, TRACK)[0]
    width = slot.width - 6
    room = slot.y1 - DISC - (slot.y0 + 32)  # lines of POWER_SIZE, 1 px apart, from 32 px down
    with speaking(lang), dressed(Extras(language=lang, voice="spectator")):
        for card in CARDS:
            power = specialist_power(cast(YamataiSpecialist, card))
            lines = wrap(power, POWER_SIZE, width, "condensed")
            assert all(text_length(line, POWER_SIZE, "condensed") <= width for line in lines)
            assert len(lines) * (POWER_SIZE + 1) - 1 <= room, (card["name"], lines)


@pytest.mark.parametrize("lang", ["en", "fr", "it", "pl"])
def test_the_web_picture_names_the_fleet_tile_as_the_page_does(lang: str) -> None:
    """The page says "choisir une tuile Flotte": its picture says "Ann choisit une tuile
    Flotte", not "une flotte" (one term, the rulebook's: docs/glossary)."""
    catalog = GOLDEN.parents[2] / f"bot/games/yamatai/locale/{lang}.json"
    step = json.loads(catalog.read_text(encoding="utf-8"))["yamatai.web.step.fleet"]
    term = " ".join(step.split()[-2:])  # "tuile Flotte", "kafelek floty", "fleet tile"
    view = _stored("4p-seed7-turn20")["view"]
    title = next(t for t in _drawn(view, None, lang, web=True) if "·" in t and "6" in t)
    assert title.endswith(term), (title, term)
