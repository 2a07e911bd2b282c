"""Words the verification play-through of session 46 still found wrong (fr, pl): one term per
thing and no name left undeclined, in the catalogs every message reads."""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _texts(path: str) -> dict[str, str]:
    loaded: dict[str, str] = json.loads((ROOT / path).read_text(encoding="utf-8"))
    return loaded


def test_the_french_coach_names_the_strong_computer_player_one_way() -> None:
    """The turning points said "le joueur fort", the hint "le joueur ordinateur fort"."""
    fr = _texts("bot/catalog/fr.json")
    lines = [v for k, v in fr.items() if k.startswith("coach.turning_point_line")]
    assert lines and all("joueur ordinateur fort" in line for line in lines)


def test_the_french_rematch_is_a_table_as_every_lobby() -> None:
    """A lobby is a "table" in French (/help, /games); "salon" is Discord's channel."""
    fr = _texts("bot/catalog/fr.json")
    assert all(
        "table" in fr[k] and "salon" not in fr[k] for k in ("rematch.opened", "rematch.exists")
    )


def test_a_gold_boat_is_never_yellow_in_french() -> None:
    """Tomoe, Nakatsu, Raijin, Michimata spoke of "bateaux jaunes" where the rest says "d'or"."""
    for path in ("render/yamatai/locale/fr.json", "bot/web/locale/fr.json"):
        texts = _texts(path).items()
        assert not [k for k, v in texts if "bateau jaune" in v or "bateaux jaunes" in v], path


def test_a_polish_resignation_leaves_the_name_undeclined() -> None:
    """ "poddaniem gry przez **Hana**" (przez wants "Hanę"): the name stands as the subject."""
    pl = _texts("bot/catalog/pl.json")
    assert "przez **{player}**" not in pl["error.game_over_resigned"]
    assert "**{player}** poddaje grę" in pl["error.game_over_resigned"]


def test_the_polish_trap_loss_has_one_verb_to_turn_into_the_second_person() -> None:
    """ "Wyciągasz drugiego kraba i traci cały połów": only a phrase's first verb is the
    player's (summary.you_verbs), so the loss is said without a second one."""
    pl = _texts("bot/games/namiji/locale/pl.json")
    assert pl["namiji.summary.trap_lost"].startswith("wyciąga ")
    assert "traci" not in pl["namiji.summary.trap_lost"]


def test_polish_examples_give_saba_its_feminine_colour() -> None:
    """ "`fish pomarańczowy saba`" while every other text says "pomarańczowa saba" (the bot
    reads both; its examples use its own words)."""
    pl = _texts("bot/games/namiji/locale/pl.json")
    assert not [k for k, v in pl.items() if "pomarańczowy saba" in v]
    assert "`fish pomarańczowa saba`" in pl["namiji.typed.fish"]


def test_the_polish_swap_of_tokens_names_them_without_a_case() -> None:
    """ "Zamień ceramika z wyspy A4 z sake…": after "zamień … z" Polish wants the accusative
    and the instrumental; the tokens' names stand alone after a colon."""
    pl = _texts("bot/games/yamatai/locale/pl.json")
    assert pl["yamatai.panel.do.swap_tokens"] == "Zamień miejscami: {first} i {second}"


def test_a_french_gold_boat_is_never_said_with_its_colour() -> None:
    """Fleet 10: "un bateau de ton choix, or (jaune) compris" where the rest says "d'or"
    (verification 47, O10); only the typed words' lists name the colours."""
    for path in (
        "render/yamatai/locale/fr.json",
        "bot/web/locale/fr.json",
        "bot/games/yamatai/locale/fr.json",
    ):
        texts = _texts(path).items()
        assert not [k for k, v in texts if "(jaune)" in v], path
    assert "bateau d'or" in _texts("render/yamatai/locale/fr.json")["y.fleet.10"]


STRONG_PLAYER = {
    "en": "the strong computer player",
    "fr": "le joueur ordinateur fort",
    "it": "il giocatore computer forte",
    "pl": "silny gracz komputerowy",
}


def test_the_coach_names_the_strong_computer_player_one_way_in_every_text() -> None:
    """The hint said "le joueur ordinateur fort", "none cost you much" "le joueur fort"
    (verification 47, O5); "silny gracz komputerowy" / "silny gracz" in Polish."""
    for locale, name in STRONG_PLAYER.items():
        texts = _texts(f"bot/catalog/{locale}.json")
        coach = {
            k: v
            for k, v in texts.items()
            if k.startswith(("coach.hint_title", "coach.turning_point_line", "coach.no_turning"))
        }
        assert len(coach) >= 5, locale
        assert not [k for k, v in coach.items() if name.lower() not in v.lower()], locale
