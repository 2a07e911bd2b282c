"""The words a player reads are the words that work (issue 38, session 46's Yamatai play-through,
items 1, 3, 7 and 13): ``/play``'s autocomplete finds a choice by the words it shows (any case,
with or without accents), its one choice after the game ended is whole words, ending a turn is
told as ending it (nobody passed), and a refusal says the expected form and the boats in the
reader's words."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.catalog import default_catalog
from bot.games import presentation
from bot.service.suggest import MAX_VALUE, folded
from engine import games
from engine.games import Match
from tests.discord_double import UserSpec
from tests.e2e.harness import GUEST, HOST, TIMEOUT, Env, Table, custom_id, himiko_env, run

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

LANGS = ("fr", "pl")


async def _table(env: Env) -> tuple[Table, UserSpec]:
    """A started Yamatai game of the host and the guest, and the player to act."""
    table = await env.start_game(HOST, [GUEST])
    return table, await _to_act(env, table)


async def _to_act(env: Env, table: Table) -> UserSpec:
    return HOST if await env.current_user(table.id) == HOST.id else GUEST


async def _offered(
    env: Env, user: UserSpec, table: Table, typed: str, locale: str
) -> list[tuple[str, str]]:
    """``/play``'s autocomplete for what is typed: (name, value) of each choice."""
    found = await env.double.autocomplete(
        user, table.id, "play", {"action": typed}, "action", timeout=TIMEOUT, locale=locale
    )
    return [(str(c["name"]), str(c["value"])) for c in found]


async def _play(env: Env, user: UserSpec, table: Table, action: str, locale: str) -> str:
    """``/play action:`` typed by a user of ``locale``: the private reply's text."""
    rec = await env.double.slash(user, table.id, "play", {"action": action}, locale=locale)
    reply = await rec.reply(TIMEOUT)
    assert reply.ephemeral, reply.content
    return reply.content


def _label(lang: str, match: Match, action: str, game: str = "yamatai") -> str:
    catalog = default_catalog()
    seat = match.current_seat
    assert seat is not None
    return presentation(game).panel_label(
        lambda key, **params: catalog.text(key, lang, **params), match.view(seat), action
    )


#: Polish boats as the fleet choices name them, the first one a clay boat (QA typed it).
POLISH_BOATS = (
    "łódź z gliną",
    "łódź z kamieniem",
    "łódź z drewnem",
    "łódź z bambusem",
    "łódź ze złotem",
)


def test_the_autocomplete_finds_a_choice_by_the_words_it_shows(tmp_path: Path) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table, player = await _table(env)
            match = await env.match(table.id)
            fleets = match.legal_actions()
            assert all(a.startswith("fleet ") for a in fleets)
            # QA: "flo", "Flotte", "bat" (what the French choices read) found nothing
            for typed in ("flo", "Flotte", "FLOTTE", "bat"):
                found = await _offered(env, player, table, typed, "fr")
                assert [v for _, v in found] == fleets, typed
            fleet = next(a for a in fleets if a.split()[1] in "23456789")
            found = await _offered(env, player, table, f"Flotte {fleet.split()[1]}", "fr")
            assert found[0] == (_label("fr", match, fleet), fleet)
            # Polish, with or without its letters: "łódź z gliną" (a clay boat), or another
            # boat when this game's fleets offer no clay one (the seed is random)
            boat = next(
                b
                for b in POLISH_BOATS
                if any(b in _label("pl", match, a) for a in fleets)
                and not all(b in _label("pl", match, a) for a in fleets)
            )
            with_boat = [a for a in fleets if boat in _label("pl", match, a)]
            for typed in (boat, folded(boat).upper()):
                found = await _offered(env, player, table, typed, "pl")
                assert [v for _, v in found][: len(with_boat)] == with_boat, typed
                assert {v for _, v in found} < set(fleets), typed
            # the notation still finds its own, first
            assert [v for _, v in await _offered(env, player, table, "fleet", "pl")] == fleets
            # after the fleet, in the middle of a sequence: "Acheter" finds the buys
            sequence = f"{fleets[0]}; ach"
            found = await _offered(env, player, table, sequence, "fr")
            assert found and all(v.startswith(f"{fleets[0]}; buy ") for _, v in found), found
            last = [folded(n.split("; ")[-1].removeprefix("… ")) for n, _ in found]
            assert all(w.startswith("acheter un bateau") for w in last), found

    run(body)


def test_the_autocomplete_after_the_end_says_it_in_whole_words(tmp_path: Path) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table, player = await _table(env)
            other = GUEST if player == HOST else HOST
            ask = await (await env.double.slash(other, table.id, "resign")).reply(TIMEOUT)
            yes = await env.double.click(
                other, table.id, ask.id, custom_id(ask, "himiko:resign:ok:")
            )
            await yes.reply(TIMEOUT)
            await env.settled()
            catalog = default_catalog()
            for locale in ("fr", "pl"):
                [(name, _)] = await _offered(env, player, table, "", locale)
                whole = catalog.text("error.game_over_resigned", locale, player=other.global_name)
                whole = whole.replace("**", "").replace("`", "")
                assert len(whole) > MAX_VALUE  # so it had to be shortened
                # QA: cut at 100 characters in the middle of a word, no ellipsis
                assert len(name) <= MAX_VALUE and whole.startswith(name), name
                assert name.endswith((".", "…")), name
                assert other.global_name is not None and other.global_name in name

    run(body)


def test_ending_a_turn_is_told_as_ending_it_not_as_passing(tmp_path: Path) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table, _ = await _table(env)
            greedy = games.computer_player("yamatai")
            for locale, said, wrong in (
                ("fr", "tu as terminé le tour", "passé"),
                ("pl", "kończysz turę", "pasuj"),
            ):
                match = await env.match(table.id)
                while "end" not in match.legal_actions():
                    seat = match.current_seat
                    assert seat is not None
                    player = await _to_act(env, table)
                    await (await env.play(player, table.id, greedy(match.view(seat), 3))).reply(
                        TIMEOUT
                    )
                    match = await env.match(table.id)
                answer = await _play(env, await _to_act(env, table), table, "end", locale)
                # QA: "Joué : `end` — a passé." / "Zagrano `end` — pasuje." (nobody passed)
                assert said in answer and wrong not in answer, answer
                await env.settled()

    run(body, timeout=120)


#: English a refusal showed outside its notation (QA: "'keep BOAT...'", "(tu as : bamboo)",
#: "Forme attendue : build TILE ISLAND").
ENGLISH = re.compile(r"\b(BOAT|TILE|ISLAND|SPOT|bamboo|wood|stone|clay|gold)\b")


def _words_only(text: str) -> str:
    """A reply without its notation (between backticks): what is read as words."""
    return re.sub(r"`[^`]*`", "", text)


def test_a_refusal_says_the_form_and_the_boats_in_the_readers_words(tmp_path: Path) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table, player = await _table(env)
            fleet = next(a for a in (await env.match(table.id)).legal_actions() if a != "fleet 10")
            version = await env.version(table.id)
            said = {lang: await _play(env, player, table, f"{fleet}; end", lang) for lang in LANGS}
            # QA (fr): "Range tes bateaux (action 4) avant de finir ton tour : 'keep
            # BOAT...'. Garde 1 de tes bateaux au port (tu as : bamboo)"
            assert "(étape 4)" in said["fr"] and "(action 4)" not in said["fr"], said["fr"]
            assert "`keep` suivi des bateaux à garder" in said["fr"], said["fr"]
            assert re.search(r"au port \(tu en as \d\)", said["fr"]), said["fr"]
            assert "(krok 4)" in said["pl"] and "`keep` i łodzie, które zatrzymujesz" in said["pl"]
            assert re.search(r"\(masz ich: \d\)", said["pl"]), said["pl"]
            # QA: "Forme attendue : build TILE ISLAND."
            said_build = {lang: await _play(env, player, table, "build A1", lang) for lang in LANGS}
            assert "`build` TUILE ÎLE, par exemple `build B07 C4`" in said_build["fr"]
            assert "`build` KAFELEK WYSPA, np. `build B07 C4`" in said_build["pl"]
            # QA: "`place bamboo 12` n'est pas permis maintenant" (typed "bambou")
            echo = {
                lang: await _play(env, player, table, typed, lang)
                for lang, typed in (("fr", "place bambou 12"), ("pl", "place drewno 12"))
            }
            assert "bateau de bambou sur l'emplacement 12" in echo["fr"], echo["fr"]
            assert "łódź z drewnem na polu 12" in echo["pl"], echo["pl"]
            for lang in LANGS:
                for text in (said[lang], said_build[lang], echo[lang]):
                    assert not ENGLISH.search(_words_only(text)), (lang, text)
            assert await env.version(table.id) == version  # nothing played

    run(body)


@pytest.mark.parametrize("lang", LANGS)
def test_every_expected_form_reads_in_the_readers_language(lang: str) -> None:
    """Each ``bad_arguments`` refusal says its form itself (the engine's ``form`` is English
    syntax) with an example the bot reads (names in the reader's words)."""
    catalog = default_catalog()
    names = presentation("yamatai").typed_names()
    assert names is not None
    keys = [k for k in catalog.tables[lang] if k.startswith("yamatai.refusal.bad_arguments.")]
    assert len(keys) == 15
    for key in keys:
        text = catalog.text(key, lang, verb="raijin", count=2)
        assert "{form}" not in catalog.raw(key, lang) and not ENGLISH.search(_words_only(text))
        for example in re.findall(r"`([^`]*\d[^`]*)`", text):
            match = games.new("yamatai", ["Ann", "Bob"], seed=1)
            match.canonical(names.read(example))  # raises if it is no action


def test_the_namiji_autocomplete_finds_its_moves_by_their_words(tmp_path: Path) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table = await env.start_game(HOST, [GUEST], game="namiji")
            player = await _to_act(env, table)
            match = await env.match(table.id)
            legal = match.legal_actions()
            assert legal
            for lang in LANGS:
                label = _label(lang, match, legal[0], "namiji")
                # its first word ("Avancer", "Płyń"), as typed: any case, accents optional
                word = label.split()[0]
                for typed in (word, folded(word).upper()):
                    found = await _offered(env, player, table, typed, lang)
                    assert legal[0] in [v for _, v in found], (lang, typed, label, found)

    run(body)
