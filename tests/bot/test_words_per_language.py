"""Words per language across every catalog (issue 38 items 4 and 12): one term per concept
between Discord, the pictures and the web pages; French typography; no formula shown."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("en", "fr", "it", "pl")
# notation and code between backticks, placeholders, addresses, quoted notation (« fleet 4 »,
# 'keep BOAT...') and "+?" (a score not known yet) are not French words
NOT_WORDS = re.compile(r"`[^`]*`|\{[^}]*\}|https?://\S+|«\xa0[^»]*\xa0»|'[a-z][^']*'|\+\?")
HIGH = re.compile(r"(.)([:;!?])")
NO_BREAK = ("\N{NO-BREAK SPACE}", "\N{NARROW NO-BREAK SPACE}")


def catalog_files(language: str) -> list[Path]:
    """Every catalog file of a language: the bot's, each game's, the pictures', the web's."""
    found = [ROOT / "bot" / "catalog" / f"{language}.json"]
    found += sorted((ROOT / "bot" / "games").glob(f"*/locale/{language}.json"))
    found += sorted((ROOT / "render").glob(f"**/locale/{language}.json"))
    found.append(ROOT / "bot" / "web" / "locale" / f"{language}.json")
    return found


def shown(language: str) -> dict[str, str]:
    """Every text a reader may see in ``language``, by key (``_about`` notes left out)."""
    texts: dict[str, str] = {}
    for path in catalog_files(language):
        for key, value in json.loads(path.read_text(encoding="utf-8")).items():
            if not key.startswith("_") and isinstance(value, str):
                texts[key] = value
    return texts


def test_every_french_text_has_a_no_break_space_before_high_punctuation() -> None:
    """French puts a no-break space before ``:`` ``;`` ``!`` ``?`` (docs/glossary/fr.md), in
    every catalog: the games' refusals wrote "Forme attendue : {form}" with a plain space."""
    wrong = {
        key: text
        for key, text in shown("fr").items()
        if any(m.group(1) not in NO_BREAK for m in HIGH.finditer(NOT_WORDS.sub("X", text)))
    }
    assert wrong == {}


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_text_shown_to_players_says_sigma(language: str) -> None:
    """The rating is "cautious", in words: no "mu - 3 sigma" on a card or a page."""
    assert [k for k, text in shown(language).items() if "sigma" in text.lower()] == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_undo_and_cancel_are_different_words(language: str) -> None:
    """The panel's Undo (take back an action) and Cancel (a preview, a lobby) begin with
    different words: "Annuler" was both in French."""
    texts = shown(language)
    undo = texts["panel.undo"].split()[0].lower()
    assert undo not in {texts[k].split()[0].lower() for k in ("play.cancel", "lobby.cancel")}


TIME_BANK = {"en": "bank", "fr": "réserve de temps", "it": "riserva di tempo", "pl": "bank czasu"}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_time_bank_has_one_name_on_the_pictures_and_in_discord(language: str) -> None:
    """The pictures' clock and the lobby's option name the time bank alike ("banque" on the
    French picture, "réserve de temps" in Discord)."""
    texts = shown(language)
    term = TIME_BANK[language]
    for key in ("c.bank.days_hours", "c.bank.hours_minutes", "c.bank.minutes", "lobby.bank_label"):
        assert term in texts[key].lower(), key


LEAGUE_ROUND = {
    "en": "round",
    "fr": "ronde",
    "it": "giornata",
    "pl": "rund",
}  # Polish declines it: runda, rundy


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_league_round_is_one_word_on_its_page_and_in_discord(language: str) -> None:
    """The league page said "Manche 1 sur 1" where Discord says "ronde 1" (docs/glossary)."""
    texts = shown(language)
    term = LEAGUE_ROUND[language]
    page = ("web.league.round", "web.league.running")
    discord = ("league.table_post", "league.round_over", "league.started")
    for key in page + discord:
        assert term in texts[key].lower(), key


@pytest.mark.parametrize(
    ("language", "turn"), [("en", "Turn"), ("fr", "Tour"), ("it", "Turno"), ("pl", "Tura")]
)
def test_namiji_turning_points_count_turns(language: str, turn: str) -> None:
    """Namiji has no rounds: its turning points say the turn ("Runda" in Polish before)."""
    line = shown(language)["coach.turning_point_line_turn"]
    assert f"{turn} {{round}}" in line


TYPED_EXAMPLE = re.compile(r"fleet 4; [^`'»]*12")


@pytest.mark.parametrize("language", ("fr", "it", "pl"))
def test_a_whole_turn_example_names_the_boats_in_the_readers_language(language: str) -> None:
    """The `;` example of /help, /play's option and the empty-action refusal named the boats in
    English ("buy wood; place wood 12") on French, Italian and Polish pages: it names them in
    the reader's words, and those words read back to the notation (issue 38, play-through)."""
    from bot.games import presentation

    names = presentation("yamatai").typed_names()
    assert names is not None
    texts = shown(language)
    for key in ("yamatai.help.example", "yamatai.play.example", "cmd.play.action"):
        [example] = TYPED_EXAMPLE.findall(texts[key])
        assert "wood" not in example, (key, example)
        assert names.read(example) == "fleet 4; buy wood; place wood 12", (key, example)


@pytest.mark.parametrize("language", ("fr", "it"))
def test_profile_counts_agree_with_one_game(language: str) -> None:
    """/profile said "Parties : 1 finies" (a plural adjective after a count that may be 1): each
    count comes after its label, so one game reads as well as many."""
    line = shown(language)["profile.games"]
    assert not re.search(r"\{(finished|abandoned|resigned|playing)\} \w", line), line


def test_french_yamatai_says_manche_for_the_next_round() -> None:
    """Fleet 1's panel name said "au prochain tour" where its card says "à la manche suivante":
    in French Yamatai a round is a "manche", a "tour" is one player's turn."""
    texts = shown("fr")
    assert "manche suivante" in texts["yamatai.power.first"]
    assert "manche suivante" in texts["y.fleet.1"]


#: French texts that speak to several players at once, where "vous" is the plural of "tu"
TO_SEVERAL = {
    "league.table_post",
    "rematch.invite_many",
    "rematch.invite_other",
    "lobby.fewer.namiji.2",
}
VOUS = re.compile(r"\b(?:vous|votre|vos|\w+ez(?:-(?:en|le|la|les))?)\b", re.IGNORECASE)
NOT_VOUS = {"chez", "assez", "nez", "rez"}


def test_french_speaks_to_one_player_as_tu() -> None:
    """The French catalog says "tu": Namiji's upgrade cards said "piochez ... gardez-le", the
    web's cards hint "Touchez ou survolez", a busy refusal "Réessayez" (the play-through in
    French); only a text to several players says "vous"."""
    texts = shown("fr")
    found = {
        key: words
        for key, text in texts.items()
        if key not in TO_SEVERAL
        and (
            words := [w for w in VOUS.findall(NOT_WORDS.sub("", text)) if w.lower() not in NOT_VOUS]
        )
    }
    assert found == {}


@pytest.mark.parametrize("language", ("en", "fr", "it", "pl"))
def test_namijis_help_example_is_a_whole_turn_the_first_player_may_play(language: str) -> None:
    """The help's Namiji example was `move 5; end`, refused (space 5 is a net, which shows
    what was hidden: played alone); it must be a whole turn the first boat may sail, in either
    direction and for any number of players (Italian play-through RV)."""
    from engine import games

    text = shown(language)["namiji.help.example"]
    [actions] = re.findall(r"`/play action: ([^`]+)`", text)
    rules = games.rules_for("namiji")
    for players in range(rules.min_players, rules.max_players + 1):
        for options in ({}, {"direction": "reversed"}):
            match = games.new("namiji", [f"P{i}" for i in range(players)], seed=1, options=options)
            match.preview(actions)  # raises if any action of it is not legal then
