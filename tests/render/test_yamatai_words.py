"""Yamatai's picture words as a player reads them (issue 38, play-through of session 46): the
turn order names fleets without a gendered verb or a "#" (which marks buildings), a stopped
game's title fits, the end reasons are Discord's words, one French term for the prestige
tokens, Polish card texts in lowercase "ty", and an empty row's word that agrees with any
label."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from engine.yamatai.players import greedy_player
from render import render_board, render_focus
from render import turn_words as render_turn_words
from render.extras import Extras
from render.text import Drawn, measuring
from render.words import say, speaking
from render.yamatai.layout import layout
from render.yamatai.picture import seat_marks
from render.yamatai.signs import boat_letters, culture_letters
from render.yamatai.tracks import ORDER_WIDTH, end_words
from tests.render.games import new_match, play_turns
from tests.render.test_phone import _clear_caches

LANGUAGES = ("en", "fr", "it", "pl")
ROOT = Path(__file__).parents[2]
#: Every way the engine says why a game of Yamatai ended.
END_REASONS = ("boats", "buildings", "specialists", "last_building")


def _drawn(view: Any, language: str, **extras: Any) -> list[Drawn]:
    _clear_caches()  # the static layer holds text too: draw it afresh to see every word
    with measuring() as drawn:
        render_board(view, extras=Extras(language=language, **extras))
    return drawn


def _inside(box: tuple[float, ...], outer: tuple[float, ...]) -> bool:
    return all(box[i] >= outer[i] - 1 for i in (0, 1)) and all(
        box[i] <= outer[i] + 1 for i in (2, 3)
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_turn_order_names_each_taken_fleet_as_the_fleet_word_without_a_hash(
    language: str,
) -> None:
    """Polish read "wziął #4" (a man's past tense for any player) and "#4" beside "#17" for a
    building: the order strip now reads "flota 4", the word the rest of the picture uses."""
    match, _ = play_turns(3, 4, 2)
    view = match.view(None)
    taken = [(seat, f) for seat in range(3) for f in view["players"][seat].get("fleets", [])]
    assert taken, "two turns in, two fleets are taken"
    fleet = layout("default", 3).fleet
    order = (fleet.x0, fleet.y0, fleet.x0 + ORDER_WIDTH, fleet.y1)  # the strip left of the track
    in_order = [d for d in _drawn(view, language) if _inside(d.box, order)]
    texts = {d.text for d in in_order}
    for _, fleet in taken:
        assert say("y.focus.fleets_one", language, items=fleet, count=1) in texts, texts
    assert not any("#" in t for t in texts), texts
    if language == "pl":
        assert not any("wziął" in t for t in texts)


@pytest.mark.parametrize("how", ["resigned", "abandoned"])
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_stopped_game_s_title_is_whole_in_round_twelve(
    language: str, players: int, how: str
) -> None:
    """The Polish final board after a resignation read "wyniki z chwili przer…" (cut)."""
    match, _ = play_turns(players, 5, 9)
    view = {**match.view(None), "round": 12}  # the longest round number a game reaches
    with speaking(language):
        stopped = say(f"c.ended.{how}")
    title = say("y.header.ended", language, ended=stopped, round=12)
    texts = [d.text for d in _drawn(view, language, ended=how)]
    assert title in texts, [t for t in texts if "·" in t or "…" in t][:3]


@pytest.mark.parametrize("reason", END_REASONS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_final_board_gives_the_end_reason_in_discord_s_words(
    language: str, reason: str
) -> None:
    """fr Discord said "il n'y a plus de bateau d'une couleur", the picture "un type de bateau
    est épuisé"; a game ended by a last building read "last building" in every language."""
    locale = ROOT / "bot/games/yamatai/locale" / f"{language}.json"
    discord = json.loads(locale.read_text("utf-8"))[f"yamatai.end_reason.{reason}"]
    with speaking(language):
        assert end_words([reason]) == discord


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_longest_end_reason_fits_beside_the_final_title(language: str) -> None:
    """The Polish last-building reason is a long sentence: drawn whole, apart from the title."""
    match, _ = play_turns(2, 3, None)
    view = match.view(None)
    outcome = {**view["outcome"], "end_reasons": ["last_building"]}
    drawn = _drawn({**view, "outcome": outcome}, language)
    with speaking(language):
        reason = say("y.final.reason", reasons=end_words(["last_building"]))
        title = say("y.final.title")
    said = next(d for d in drawn if d.text == reason)
    head = next(d for d in drawn if d.text == title)
    assert head.box[2] + 12 <= said.box[0], (head.box, said.box)


def test_french_pictures_name_the_prestige_tokens_as_discord_and_the_web_do() -> None:
    """The final table said "Pions PP", the player strip "pions PP", Discord and the web
    "pions Prestige": one term."""
    match, _ = play_turns(2, 3, None)
    drawn = _drawn(match.view(None), "fr")
    texts = [d.text for d in drawn]
    assert "Pions Prestige" in texts  # the final table's column
    strips = [d for d in drawn if "pions Prest. +" in d.text]  # abbreviated as its neighbours
    assert len(strips) == 2, texts
    for panel in layout("default", 2).panels:
        assert any(_inside(d.box, panel.box) and "…" not in d.text for d in strips)
    assert not any("pions pp" in t.lower() for t in texts)


def _polish_texts() -> dict[str, str]:
    texts: dict[str, str] = {}
    for folder in ("render/locale", "render/yamatai/locale", "render/namiji/locale"):
        texts.update(json.loads((ROOT / folder / "pl.json").read_text("utf-8")))
    return texts


def test_polish_picture_texts_write_ty_in_lowercase_inside_a_sentence() -> None:
    """Ananda read "Kto buduje obok Twoich budynków, płaci Ci 2 monety." like a letter, where
    every other text writes "twoja tura"."""
    pronoun = re.compile(r"(?<![.!?:]\s)(?<!^)\b(Ty|Tw(?:ój|oj\w*)|Ci|Ciebie|Cię|Tob\w*)\b")
    capitalised = {k: v for k, v in _polish_texts().items() if pronoun.search(v)}
    assert not capitalised


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_empty_row_s_word_agrees_with_every_row_label(language: str) -> None:
    """French read "Spécialistes néant" (odd) and Italian "Riservate nessuno" (wrong gender):
    the word after an empty row suits a masculine and a feminine label alike."""
    gendered = {"néant", "aucun", "aucune", "nessuno", "nessuna"}
    view = new_match(2, 1).view(None)  # nobody has a specialist or a reserved tile yet
    texts = [d.text for d in _drawn(view, language)]
    with speaking(language):
        empty = say("c.none")
    assert texts.count(empty) >= 4  # two empty rows on each player's panel
    assert empty not in gendered


def _turn(seed: int, number: int) -> tuple[Any, list[dict[str, Any]]]:
    """A 2-player greedy game just after its ``number``-th turn (from 0), and that turn's events."""
    match = new_match(2, seed)
    events: list[dict[str, Any]] = []
    done = 0
    while (seat := match.current_seat) is not None:
        events += match.play(greedy_player(match.view(seat), seed * 31 + seat), seat=seat)
        if any(e["type"] == "end_turn" for e in events):
            if done == number:
                return match, events
            done, events = done + 1, []
    raise AssertionError("the game ended first")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_turn_picture_tells_the_whole_last_turn(language: str) -> None:
    """The "last turn" box listed what the map shows ("took fleet 4") and left out the boats
    bought and sold, kept and set aside, and the pile looked at: a reader took it for the whole
    turn. Now it tells every part of it."""
    match, events = _turn(2, 13)  # bought a boat, looked at the pile, kept one, set one aside
    kinds = {e["type"] for e in events}
    assert {"buy", "look", "harbor"} <= kinds
    harbor = next(e for e in events if e["type"] == "harbor")
    seat = match.current_seat
    _clear_caches()
    with measuring() as drawn:
        render_focus(
            match.view(seat),
            legal=match.legal_actions(),
            events=events,
            extras=Extras(language=language),
        )
    text = " ".join(d.text for d in drawn)  # the box's lines, wrapped at spaces
    with speaking(language):
        parts = [
            *(say(f"y.focus.a_boat.{e['boat']}") for e in events if e["type"] == "buy"),
            say("y.focus.looked_at"),
            say("y.focus.kept", boats=say(f"y.focus.a_boat.{harbor['kept'][0]}")),
            say("y.focus.set_aside", count=len(harbor["set_aside"])),
        ]
    missing = [part for part in parts if part not in text]
    assert not missing, text[-400:]


def test_polish_picture_texts_about_a_player_do_not_assume_a_man() -> None:
    """ "wziął #4", "zrezygnował", "nieobecny", "gra pierwszy" are a man's forms, for Hana too:
    the texts about a player say it without gender, as the bot's texts do ("bierze flotę")."""
    masculine = re.compile(r"\b(\w+ął|\w+ował|\w+ał|nieobecny)\b|\bgra(sz)? pierwszy\b")
    keys = (
        "y.order.took",
        "y.power.first",
        "y.fleet.1",
        "c.stand_in.plays.resigned",
        "c.stand_in.plays.away",
    )
    texts = _polish_texts()
    gendered = {k: texts[k] for k in keys if masculine.search(texts[k].replace("\n", " "))}
    assert not gendered


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_player_s_mark_is_never_a_piece_s_letter(language: str) -> None:
    """Polish: Komputer's house read "K" beside the "K" stone boats, Hana's "H" beside the "H"
    tea tokens; a mark that is also a piece's letter gives way to seat numbers."""
    match = new_match(2, 1, ("Hana", "Komputer 1 (normalny)"))
    view = match.view(None)
    texts = {d.text for d in _drawn(view, language)}
    with speaking(language):
        pieces = {*boat_letters().values(), *culture_letters().values()}
        marks = seat_marks(view["players"])
    assert pieces.isdisjoint(marks)
    assert set(marks) <= texts  # drawn on the players' houses and badges
    if language == "pl":
        assert marks == ["1", "2"]
    with speaking(language):  # initials that are no piece's letter stay initials
        assert seat_marks([{"name": "Umi"}, {"name": "Ève"}]) == ["U", "È"]


def test_polish_pictures_say_tokens_taken_as_the_thread_does() -> None:
    """The box read "bierze herbata z A4" (a nominative after "bierze"); the thread says
    "zbiera żeton kultury: herbata z wyspy A4" (one token)."""
    events = [
        {"type": "fleet", "seat": 0, "fleet": 3},
        {"type": "collect", "seat": 0, "tokens": [{"island": "A4", "culture": "tea"}]},
    ]
    said = render_turn_words("yamatai", "Hana", 0, events, language="pl")
    assert said == "Hana: bierze flotę 3; zbiera żeton kultury: herbata z A4"
