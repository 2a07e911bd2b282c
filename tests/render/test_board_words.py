"""The pictures' words from the verification play-through's last findings (issue 38): the
board names the step to everyone, not as an order (Polish "Teraz gra Ann: popłynąć łodzią"),
while the turn picture tells its player ("Teraz: przesuń łódź"); a stand-in's tag says no
gender; Italian's "ed" before an "e"; every built tile read on a player's box; the recruiting
step's title when nobody can be recruited."""

from __future__ import annotations

import random
from collections import Counter
from functools import cache
from typing import Any

import pytest

from engine import games
from render import render_focus
from render.extras import Extras
from render.namiji.picture import render_board as render_namiji
from render.text import measuring
from render.words import say
from render.yamatai.picture import render_board as render_yamatai
from render.yamatai.signs import tile_label
from tests.render.games import new_match, play_turns

LANGUAGES = ("en", "fr", "it", "pl")


def _opening(game: str) -> tuple[Any, list[str]]:
    """The view and legal actions of a new two-player game whose first player is Ann."""
    for seed in range(40):
        match = games.new(game, ["Ann", "Bo"], seed=seed)
        view = match.view(None)
        if view["players"][view["current_seat"]]["name"] == "Ann":
            return view, match.legal_actions()
    raise AssertionError("Ann never plays first")


def _texts(draw: Any, view: Any, lang: str, **kwargs: Any) -> list[str]:
    with measuring() as drawn:
        draw(view, extras=Extras(language=lang), **kwargs)
    return [d.text for d in drawn]


#: game -> (the board's title and centre in Polish, the turn picture's "now" line)
POLISH = {
    "namiji": (("Teraz gra Ann: popłynąć łodzią", "Dalej: popłynąć łodzią"), "Teraz: przesuń łódź"),
    "yamatai": (
        ("Runda 1  ·  teraz gra Ann: wybrać kafelek floty",),
        "Teraz: wybierz kafelek floty",
    ),
}


@pytest.mark.parametrize("game", sorted(POLISH))
def test_a_polish_board_names_the_step_to_everyone_the_turn_picture_to_its_player(
    game: str,
) -> None:
    """The thread's board (everyone reads it) said "Gra Ann: przesuń łódź", an order to the
    reader; it names the step in the infinitive as the web page does ("popłynąć łodzią"),
    and the turn picture, only its player's, keeps the order ("Teraz: przesuń łódź")."""
    board_words, now = POLISH[game]
    view, legal = _opening(game)
    board = _texts(render_namiji if game == "namiji" else render_yamatai, view, "pl")
    for said in board_words:
        assert said in board, (said, board[:12])
    assert not any(
        t.startswith(("Gra ", "Dalej: przesuń")) or "gra Ann: wybierz" in t for t in board
    )
    focus = _texts(render_focus, view, "pl", legal=legal)
    assert now in focus, focus[:6]


#: Infinitive endings (Polish "wziąć", Italian "prendere"), as the web page says a step.
INFINITIVE = {"pl": ("ć",), "it": ("are", "ere", "ire")}


@pytest.mark.parametrize("lang", sorted(INFINITIVE))
def test_every_task_on_the_board_is_an_infinitive(lang: str) -> None:
    """Each Namiji task and Yamatai step the board names is an infinitive in Polish and
    Italian (Italian's "tocca a Bo: muovi una barca" was an order too), never the turn
    picture's order."""
    keys = [f"n.task.{t}" for t in ("fish", "catch", "net", "trap", "rock", "panorama")]
    keys += ["n.phase.move", *(f"y.step.{s}" for s in ("fleet", "trade", "place", "act"))]
    keys += ["y.step.acted", "y.step.stored", "y.step.recruited"]
    for key in keys:
        said = say(key, lang)
        assert said.split()[0].endswith(INFINITIVE[lang]), (key, said)
    assert say("n.task.fish", lang) != say("n.focus.task.fish", lang)


def _yours(key: str) -> str:
    """The turn picture's key of a board's step key."""
    prefix, kind, name = key.split(".")
    return f"{prefix}.focus.{kind}.{name}"


def test_a_french_stand_in_tag_says_no_gender() -> None:
    """ "absent" is a man's form, for Hana too: the tag names the absence, as the bot says it
    ("l'ordinateur joue pour **Hana** (absence …)") and as Polish does ("nieobecność")."""
    view, _ = _opening("yamatai")
    extras = Extras(language="fr", stand_ins=((0, "away"),))
    with measuring() as drawn:
        render_yamatai(view, extras=extras)
    texts = [d.text for d in drawn]
    assert "absence · l'ordinateur joue" in texts, texts
    assert not any(t.startswith("absent ") for t in texts)


def test_italian_picture_texts_say_ed_before_an_e() -> None:
    """The bot's texts say "Ann ed Emma" (``bot.catalog.BotCatalog``); the pictures' filled-in
    texts follow the same rule, and leave the other languages' "e" alone."""
    it = say("n.header.over_shared", "it", names="Ann e Emma", best=30)
    assert it == "Partita finita — vincono Ann ed Emma con 30 punti"
    assert "Ann ed Ugo" not in say("n.header.over_shared", "it", names="Ann e Ugo", best=3)
    assert say("n.focus.wins", "fr", names="Ann e Emma", best=3).count("e Emma") == 1


def test_an_italian_tie_on_the_board_says_ed() -> None:
    """A tie between Ann and Emma on the Namiji final board reads "Ann ed Emma"."""
    view, _ = _opening("namiji")
    view = {**view, "phase": "over"}
    view["players"] = [{**p, "score": 30} for p in view["players"]]
    view["players"][1]["name"] = "Emma"
    texts = _texts(render_namiji, view, "it")
    assert any("Ann ed Emma" in t for t in texts), texts[:6]
    assert not any("Ann e Emma" in t for t in texts)


@cache
def _final(players: int, seed: int) -> Any:
    match, _ = play_turns(players, seed, None)
    return match.view(None)


#: players, seed, as many tiles as a player may build there (standard ones and prestige ones)
BUILT = ((2, 3, 12), (3, 5, 10), (4, 7, 8))
TILES = ("B02", "T2", "B16", "B15", "P2", "P1", "T3", "B04", "B01", "B05", "B03", "B17")


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(("players", "seed", "count"), BUILT)
def test_every_built_tile_is_read_on_the_player_s_box(
    players: int, seed: int, count: int, lang: str
) -> None:
    """Polish "zbudowane" left room for one tile a line: a box read "#05 / #14 +5". The built
    list shows every tile a player can have built, at 2, 3 and 4 players, in every language."""
    counts = []
    for tiles in ((), TILES[:count]):
        view = _final(players, seed)
        view = {**view, "players": [dict(p) for p in view["players"]]}
        view["players"][0].update(tiles=list(tiles), hidden_tiles=0)
        texts = _texts(render_yamatai, view, lang)
        counts.append(Counter(t for t in texts if t.startswith("+") and t[1:].isdigit()))
    assert counts[1] == counts[0], "a '+N' says some built tiles are not shown"
    standard = [tile_label(t) for t in TILES[:count] if t.startswith("B")]
    assert not [label for label in standard if label not in texts], texts


def test_the_recruiting_step_with_nobody_to_recruit_says_end_the_turn() -> None:
    """At the rulebook's step 5 (recruit, optional) with no specialist the player can recruit
    and a fleet's power left ("reserve …"), the turn picture said "Maintenant : recruter ou
    finir le tour"; what is left is ending the turn (the power is named among the choices)."""
    match = new_match(2, 2)
    picked = random.Random(2)
    while (seat := match.current_seat) is not None:
        legal = match.legal_actions()
        view = match.view(seat)
        if (view.get("turn") or {}).get("label") == "stored" and not any(
            a.startswith("recruit ") for a in legal
        ):
            break
        match.play(picked.choice(legal), seat=seat)
    else:
        raise AssertionError("no recruiting step without a specialist to recruit")
    texts = _texts(render_focus, view, "fr", legal=legal)
    assert "Maintenant\xa0: finir le tour" in texts, texts[:6]
    assert not any("recruter" in t for t in texts)
