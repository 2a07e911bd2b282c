"""Typing in your language (issue 38, items 5, 6 and 14): ``/play`` suggestions read in the
user's words with the notation as their value, names typed in any language are played, an
unknown name is refused saying what is allowed, a Namiji turn typed with ``;`` that turns over
something hidden says what to play first, and ``/rules card:`` offers only the chosen game's."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.catalog import default_catalog
from bot.games import presentation
from bot.games.base import Texts
from engine.games import Match
from tests.discord_double import UserSpec
from tests.e2e.harness import CHANNEL, GUEST, HOST, TIMEOUT, WATCHER, Env, Table, himiko_env, run

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

#: A boat as a Polish player types it: the words the bot's own Polish uses ("łódź z bambusem").
POLISH_BOATS = {
    "bamboo": "łódź z bambusem",
    "wood": "drewno",
    "stone": "KAMIEŃ",
    "clay": "czerwona",
    "gold": "żółtą",
}
#: The same in French.
FRENCH_BOATS = {
    "bamboo": "bambou",
    "wood": "Bois",
    "stone": "pierre",
    "clay": "argile",
    "gold": "or",
}


def _words(lang: str) -> Texts:
    catalog = default_catalog()
    return lambda key, **params: catalog.text(key, lang, **params)


async def _table(env: Env, game: str = "yamatai") -> tuple[Table, UserSpec]:
    """A started game of the host and the guest, and the player to act."""
    table = await env.start_game(HOST, [GUEST], game=game)
    first = await env.current_user(table.id)
    return table, HOST if first == HOST.id else GUEST


async def _play(env: Env, user: UserSpec, table: Table, action: str, locale: str) -> str:
    """``/play action:`` typed by a user of ``locale``: the private reply's text."""
    rec = await env.double.slash(user, table.id, "play", {"action": action}, locale=locale)
    reply = await rec.reply(TIMEOUT)
    assert reply.ephemeral, reply.content
    return reply.content


def _reveals(match: Match, action: str) -> bool:
    return bool(match.rules.reveals(match.rules.parse(match.state, action)))


def test_suggestions_read_in_french_with_the_notation_as_their_value(tmp_path: Path) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table, player = await _table(env)
            match = await env.match(table.id)
            seat = match.current_seat
            assert seat is not None
            found = await env.double.autocomplete(
                player, table.id, "play", {"action": ""}, "action", timeout=TIMEOUT, locale="fr"
            )
            legal = match.legal_actions()
            assert [c["value"] for c in found] == legal[:25] and found
            label = presentation("yamatai").panel_label
            view = match.view(seat)
            for choice in found:  # QA: the names were the raw notation in every language
                value = str(choice["value"])
                assert choice["name"] == label(_words("fr"), view, value)[:100]
                assert choice["name"] != value and value.startswith("fleet ")
            # after the fleet, a French boat's name completes as the notation
            await _play(env, player, table, legal[0], "fr")
            match = await env.match(table.id)
            place = next(a for a in match.legal_actions() if a.startswith("place "))
            boat = place.split()[1]
            typed = f"place {FRENCH_BOATS[boat]}"
            found = await env.double.autocomplete(
                player, table.id, "play", {"action": typed}, "action", timeout=TIMEOUT, locale="fr"
            )
            places = [a for a in match.legal_actions() if a.startswith(f"place {boat} ")]
            assert [c["value"] for c in found] == places[:25]
            view = match.view(seat)
            assert [c["name"] for c in found] == [label(_words("fr"), view, a) for a in places[:25]]

    run(body)


def test_a_boat_typed_in_polish_is_played_and_an_unknown_word_is_refused(tmp_path: Path) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table, player = await _table(env)
            await _play(env, player, table, (await env.match(table.id)).legal_actions()[0], "pl")
            match = await env.match(table.id)
            place = next(a for a in match.legal_actions() if a.startswith("place "))
            _, boat, spot = place.split()
            version = await env.version(table.id)

            # an unknown word where a boat belongs: refused, saying which boats there are
            said = await _play(env, player, table, f"place fioletowa {spot}", "pl")
            assert "`fioletowa` to nie łódź" in said and "bambus, drewno, kamień" in said
            said = await _play(env, player, table, f"place violet {spot}", "fr")
            assert "`violet` n'est pas un bateau" in said and "bambou, bois, pierre" in said
            assert await env.version(table.id) == version  # nothing played

            typed = f"place {POLISH_BOATS[boat]} {spot}"
            said = await _play(env, player, table, typed, "pl")
            assert (await env.match(table.id)).log[-1][1] == place, said
            assert await env.version(table.id) > version

    run(body)


def test_a_namiji_turn_with_a_hidden_thing_says_what_to_play_first(tmp_path: Path) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            for _ in range(6):  # a move onto a fishing, net, trap or rock space turns it over
                table, player = await _table(env, "namiji")
                match = await env.match(table.id)
                moves = [a for a in match.legal_actions() if _reveals(match, a)]
                if moves:
                    break
            else:
                raise AssertionError("no move turned anything over")
            move = moves[0]
            version = await env.version(table.id)
            said = await _play(env, player, table, f"{move}; fish hidden", "en-US")
            # QA: it began "That is not allowed now", though the move is allowed on its own
            assert said.startswith(f"Play `{move}` alone: it turns over what is there"), said
            assert "Then play the rest: `fish hidden`." in said
            assert "not allowed" not in said
            said = await _play(env, player, table, f"{move}; fish hidden", "pl")
            assert said.startswith(f"Zagraj `{move}` osobno"), said
            assert await env.version(table.id) == version
            # /help and /rules say how a Namiji turn is typed
            rec = await env.double.slash(player, table.id, "help", {}, locale="fr")
            help_said = (await rec.reply(TIMEOUT)).embeds[0]["description"]
            assert "À Namiji, une action qui retourne quelque chose de caché" in help_said
            rec = await env.double.slash(
                player, table.id, "rules", {"topic": "notation"}, locale="en-US"
            )
            rules_said = (await rec.reply(TIMEOUT)).content
            assert "play that one alone (`/play move 9`), look, then the rest" in rules_said
            # a card typed by its Polish name reads as its code (then refused as not legal now)
            said = await _play(env, player, table, "pick zzz", "pl")
            assert "`zzz` to nie karta" in said

    run(body)


def test_the_card_autocomplete_offers_only_the_chosen_games_cards(tmp_path: Path) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path) as env:

            async def offered(options: dict[str, str], channel: int = CHANNEL) -> list[str]:
                found = await env.double.autocomplete(
                    WATCHER, channel, "rules", options, "card", timeout=TIMEOUT
                )
                return [str(c["value"]) for c in found]

            # QA: after game:namiji, "pala" offered Yamatai's palaces
            assert await offered({"game": "namiji", "card": "pala"}) == []
            assert await offered({"game": "yamatai", "card": "pala"}) == ["P1", "P2", "P3", "P4"]
            namiji = set(presentation("namiji").card_codes("upgrades"))
            assert set(await offered({"game": "namiji", "card": "u1"})) <= namiji
            # no game chosen and none in the channel: every game's cards
            assert await offered({"card": "pala"}) == ["P1", "P2", "P3", "P4"]
            # in a Namiji game's thread, its cards only
            table = await env.start_game(HOST, [GUEST], game="namiji")
            assert await offered({"card": "pala"}, table.id) == []
            assert "U1" in await offered({"card": "u1"}, table.id)

    run(body)
