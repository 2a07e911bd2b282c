"""Every panel choice of both games in words, in four languages (issue 21, item 2).

Random games (several seeds, 2 to 5 seats) are played with the engine's seeded random player;
at every state each panel the player can open (each group, stage and page) is read through the
presentation's public hooks (``panel_group_label``, ``panel_label``, ``panel_description``) in
en, fr, it and pl. No label says a choice in notation, no French, Italian or Polish text carries
an English word (outside the names listed below), and everything fits Discord's limits.
"""

from __future__ import annotations

import re
from typing import Any

import discord
import pytest

from bot.catalog import default_catalog
from bot.games import presentation
from bot.games.base import Texts
from bot.service.panel import STAGE
from bot.views.panel import panel_view
from engine import games
from engine.players import random_player

from .fakes import FakeBot, fake_interaction
from .test_panel import _panel_states

OTHERS = ("fr", "it", "pl")
MAX_LABEL = MAX_DESCRIPTION = 100
#: Names said alike in every language: the games' proper names (specialists, meals, fish
#: species), words that are the same in the language (``panorama`` in Italian and Polish, ``sake``)
#: and the points' unit.
NAMES = {
    "amateratsu", "izanagi", "raijin", "ananda", "izanami", "riu", "awashima", "kachiko",
    "susanoo", "ebisu", "kagutsuchi", "tomoe", "fu", "hsi", "michimata", "toyo", "tama",
    "hetsuka", "nakatsu", "yasoma",
    "onigiri", "miso", "soba", "tempura", "yakitori", "makis", "maki", "sashimi", "unagi",
    "tai", "saba", "fugu", "sake", "panorama", "torii", "pts",
}  # fmt: skip
#: Words spelt alike in English and the language, by language.
COGNATES = {
    "fr": {
        "culture", "double", "face", "orange", "panoramas", "pile", "place", "points", "port",
        "prestige", "section", "sections", "standard", "type", "types",
    },
    "it": {"per", "standard"},
    "pl": {"port"},
}  # fmt: skip
#: Notation that never belongs in a label: crate cells, nets, Namiji card codes.
NOTATION = re.compile(r"\br\dc\d\b|\bN:[a-z]{2}\b|\b[MRU]\d{1,2}\b")
WORD = re.compile(r"[^\W\d_]{3,}")


def _texts(locale: str) -> Texts:
    catalog = default_catalog()
    return lambda key, **params: catalog.text(key, locale, **params)


def _words(text: str) -> set[str]:
    return {w.lower() for w in WORD.findall(text)} - NAMES


def _check(game: str, kind: str, english: str, other: str, shown: str, action: str) -> None:
    """One text in one language: fits, no placeholder left, no English, no notation."""
    limit = MAX_LABEL if kind != "description" else MAX_DESCRIPTION
    assert len(shown) <= limit and "{" not in shown, (kind, shown)
    if kind == "label":
        assert not NOTATION.search(shown), (game, action, shown)
    if other == "en":
        return
    leaked = (_words(english) | _words(action)) & _words(shown) - COGNATES[other]
    assert not leaked, (game, other, action, shown, leaked)


def _read(game: str, state: Any, texts: dict[str, Texts]) -> None:
    shown = presentation(game)
    view = state.view or {}
    for group in state.categories:
        said = {lang: shown.panel_group_label(t, group.key) for lang, t in texts.items()}
        for lang, text in said.items():
            _check(game, "group", said["en"], lang, f"{text} (999)", group.key)
    for value in state.actions:
        action = value.removesuffix(STAGE)
        labels = {lang: shown.panel_label(t, view, action) for lang, t in texts.items()}
        for lang in texts:
            _check(game, "label", labels["en"], lang, labels[lang] + value[len(action) :], value)
        assert labels["en"] != action, (game, value)  # said in words, not in notation
        about = {lang: shown.panel_description(t, view, action) for lang, t in texts.items()}
        for lang in texts:
            if about[lang] is not None:
                _check(game, "description", about["en"] or "", lang, about[lang] or "", value)


@pytest.mark.parametrize(
    ("game", "seats", "seed"),
    [("namiji", n, seed) for n in (2, 3, 4, 5) for seed in (n, 10 + n)]
    + [("yamatai", n, seed) for n in (2, 3, 4) for seed in (n, 10 + n)],
)
def test_every_reachable_panel_choice_is_in_words_in_four_languages(
    game: str, seats: int, seed: int
) -> None:
    """QA (issue 21): Namiji's Polish panel offered `draw`, `stop`, `refuse`, `pick M1`,
    `rock R12` and `net N:ot r1c1 h`."""
    texts = {lang: _texts(lang) for lang in ("en", *OTHERS)}
    match = games.new(game, [f"P{i}" for i in range(seats)], seed=seed)
    while (seat := match.current_seat) is not None:
        for state in _panel_states(match, seat):
            _read(game, state, texts)
        match.play(random_player(match.view(seat), seat), seat=seat)


def test_the_panel_names_the_cards_and_says_their_effect_under_each() -> None:
    """Issue 21 item 1: `pick U11` / `rock R12` became the card's name, its effect beneath."""
    bot = FakeBot()
    interaction = fake_interaction(bot)
    interaction.locale = discord.Locale.polish
    t = _texts("pl")
    namiji = presentation("namiji")
    seen: set[str] = set()
    for seed in range(6):
        match = games.new("namiji", ["Ann", "Bo", "Cy"], seed=seed)
        while (seat := match.current_seat) is not None and len(seen) < 2:
            for state in _panel_states(match, seat):
                if state.category not in ("pick", "rock"):
                    continue
                view = panel_view(bot, interaction, state)  # type: ignore[arg-type]
                menus = [getattr(item, "item", item) for item in view.children]  # DynamicItem
                options = [o for menu in menus for o in getattr(menu, "options", [])]
                for option in options:
                    code = option.value.split()[1]
                    assert namiji.card_name(t, code) in option.label, option.label
                    # what it does, without the code a player does not read (P2)
                    assert option.description and code not in option.description, option
                    assert option.description in namiji.card_help(t, code), option
                    seen.add(state.category)
            match.play(random_player(match.view(seat), seat), seat=seat)
    assert seen == {"pick", "rock"}


@pytest.mark.parametrize("locale", ["en", "fr", "it", "pl"])
def test_putting_back_the_tiles_looked_at_says_what_each_tile_is(locale: str) -> None:
    """QA: fleet 3's 24 orderings read "T3, B05 and B13 at the bottom" with nothing under them;
    each option says the tiles' points and boats in the player's language."""
    from bot.games.yamatai import tile_name

    said = presentation("yamatai").panel_description(_texts(locale), {}, "arrange B05 / T3 B13")
    assert said is not None and len(said) <= 100, said
    names = [tile_name(_texts(locale), code) for code in ("B05", "T3", "B13")]  # by name
    assert [part.split(":")[0].strip() for part in said.split(" · ")] == names, said
    assert "3 PP" in said and "5 PP" in said, said
    # French puts a no-break space before the colon (the play-through read "B05: 3 PP")
    colon = "\u00a0: " if locale == "fr" else ": "
    assert said.count(colon) == 3, said


@pytest.mark.parametrize("locale", ["en", "fr", "it", "pl"])
def test_a_reserved_tile_on_the_web_says_its_points_as_the_language_writes(locale: str) -> None:
    """A reserved building tile on the web page: its name, points and boats; French with a
    no-break space before the colon ("B18: 4 PP" before)."""
    from bot.games.yamatai import tile_name, web_words

    tile = {"id": "B18", "pp": 4, "boats": ["bamboo", "bamboo", "wood"]}
    [said] = web_words(_texts(locale), "reserved", [tile]) or []
    colon = "\u00a0: " if locale == "fr" else ": "
    assert said.startswith(f"{tile_name(_texts(locale), 'B18')}{colon}4 PP ("), said
