"""Engine refusals in the catalog: every key in four languages, random refusals fully translated."""

from __future__ import annotations

import logging
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.catalog import LOCALES, base_id, default_catalog, placeholders
from bot.present import error_text, refusal_id, refusal_text
from bot.service import EngineRejected
from engine.errors import EngineError, IllegalAction
from engine.games import Match, new
from engine.namiji.notation import FORMS as NAMIJI_FORMS
from engine.namiji.refusals import REFUSALS as NAMIJI
from engine.refusals import MATCH, Refusals
from engine.yamatai.notation import FORMS as YAMATAI_FORMS
from engine.yamatai.refusals import REFUSALS as YAMATAI

REGISTRIES = {"refusal": MATCH, "yamatai.refusal": YAMATAI, "namiji.refusal": NAMIJI}
CATALOG = default_catalog()
OTHERS = [locale for locale in LOCALES if locale != "en"]


def _forms(table: dict[str, str], key: str) -> dict[str, str]:
    """A catalog id's text, whole or as its plural forms."""
    return {k: v for k, v in table.items() if k == key or (base_id(k) == key and k != key)}


@pytest.mark.parametrize("prefix", sorted(REGISTRIES))
def test_every_refusal_key_is_in_every_catalog_with_its_placeholders(prefix: str) -> None:
    registry = REGISTRIES[prefix]
    for key, english in registry.texts.items():
        wanted = placeholders(english)
        for locale in LOCALES:
            forms = _forms(CATALOG.tables[locale], f"{prefix}.{key}")
            assert forms, f"{locale}: {prefix}.{key} is missing"
            found = set().union(*(placeholders(t) for t in forms.values()))
            # a plural form may say the number in words ("one transaction"), never more
            assert found <= wanted and wanted - found <= {"count"}, f"{locale}: {prefix}.{key}"
            if "count" in wanted and len(forms) > 1:
                assert any("count" in placeholders(t) for t in forms.values())


def _words(forms: tuple[str, ...], extra: list[str]) -> list[str]:
    """Words to build random notation from: the forms' words, the legal actions' words, noise."""
    words = {w for form in forms for w in form.split()} | {w for a in extra for w in a.split()}
    return sorted(words | {"0", "99", "x", "/", "B01", "T1", "P2", "gold", "wood", "Riu"})


def _advanced(game: str, seed: int, steps: int) -> Match:
    """A game after ``steps`` random legal actions (no hidden-information ones)."""
    match = new(game, ["Ann", "Bob", "Cid"], seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        legal = [a for a in match.legal_actions() if not a.startswith("look")]
        if not legal or match.current_seat is None:
            break
        match.play(rng.choice(legal), seat=match.current_seat)
    return match


@settings(max_examples=120, deadline=None, derandomize=True)
@given(
    game=st.sampled_from(["yamatai", "namiji"]),
    seed=st.integers(0, 50),
    steps=st.integers(0, 40),
    picks=st.lists(st.integers(0, 10_000), min_size=1, max_size=4),
    joined=st.booleans(),
)
def test_random_refusals_are_fully_translated(
    game: str, seed: int, steps: int, picks: list[int], joined: bool
) -> None:
    match = _advanced(game, seed, steps)
    if match.current_seat is None:
        return
    forms = YAMATAI_FORMS if game == "yamatai" else NAMIJI_FORMS
    words = _words(tuple(forms), match.legal_actions())
    text = " ".join(words[p % len(words)] for p in picks)
    if joined and match.legal_actions():  # a sequence whose second part is the random one
        text = f"{match.legal_actions()[0]}; {text}"
    try:
        match.preview(text, seat=match.current_seat)
    except EngineError as error:
        assert error.key is not None, error
        english = refusal_text(CATALOG, error, "en")
        assert english is not None and english.rstrip(" .") in error.detail
        for locale in OTHERS:
            shown = refusal_text(CATALOG, error, locale, where=True)
            assert shown is not None and "{" not in shown, (locale, shown)
            own = _forms(CATALOG.tables[locale], refusal_id(error) or "")
            assert own, f"{locale} falls back to English for {error.key}"
            assert shown != english, (locale, shown)


def test_polish_plural_forms_of_a_counted_refusal() -> None:
    texts = [
        refusal_text(CATALOG, YAMATAI.illegal("no_trades_left", count=n), "pl") for n in (1, 2, 5)
    ]
    assert texts == [
        "W turze możesz wykonać 1 transakcję.",
        "W turze możesz wykonać 2 transakcje.",
        "W turze możesz wykonać 5 transakcji.",
    ]
    english = refusal_text(CATALOG, YAMATAI.illegal("no_trades_left", count=1), "en")
    assert english == "You may make 1 transaction per turn."


def test_the_refusal_replaces_the_english_inside_the_frame() -> None:
    error = EngineRejected(YAMATAI.illegal("choose_fleet_first"))
    text = error_text(CATALOG, error, "pl")
    assert text == "Tego nie można teraz zrobić: turę zaczynasz od wyboru kafelka floty."
    assert "fleet tile" in error_text(CATALOG, error, "en-US")


def test_player_names_in_a_refusal_are_escaped() -> None:
    error = MATCH.make(IllegalAction, "not_your_turn", player="a_b*")
    assert refusal_text(CATALOG, error, "fr") == "C'est le tour de a\\_b\\*, pas le tien."


def test_an_unknown_key_falls_back_to_the_english_and_is_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    stray = Refusals("yamatai", {"brand_new": "Something new went wrong ({n})."})
    error = EngineRejected(stray.illegal("brand_new", n=3))
    with caplog.at_level(logging.WARNING):
        text = error_text(CATALOG, error, "pl")
    assert "Something new went wrong (3)." in text
    assert "yamatai.refusal.brand_new" in caplog.text


def test_a_game_without_catalog_refusals_shows_its_message() -> None:
    error = EngineRejected(IllegalAction("Take 1 to 3 stones.", reason="too_many"))
    assert refusal_text(CATALOG, error.error, "pl") is None
    assert "Take 1 to 3 stones." in error_text(CATALOG, error, "pl")
