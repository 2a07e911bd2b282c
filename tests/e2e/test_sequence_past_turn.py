"""A typed sequence that goes on after the action ending the turn (play-through 47 finding 2,
``/play move 2; end; end``) is refused as the other sequence refusals are, through the real bot
on the Discord double: nothing was played, which action of how many, the action in words with
its notation marked ("« Terminer le tour » (notation : `end`)"), and that each turn is played
on its own. It said "Ce n'est pas ton tour : l'action 3 ('end') vient après…" in French and
"Nie teraz: akcja 3 ('end')…" in Polish, to the player whose turn it was, the action in
Python's quotes."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.catalog import default_catalog
from bot.games import presentation
from engine import games
from engine.games import Match
from tests.e2e.harness import GUEST, HOST, TIMEOUT, himiko_env, run

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

#: What each language says: nothing was played, which action, each turn on its own.
SAID = {
    "en-US": ("Nothing was played: action {n} of {count}, “{said}” (notation: `{part}`)", "own"),
    "fr": (
        "Rien n'a été joué\u00a0: l'action {n} sur {count}, «\u00a0{said}\u00a0» "
        "(notation\u00a0: `{part}`)",
        "chaque tour séparément",
    ),
    "it": (
        "Non è stato giocato nulla: l'azione {n} di {count}, «{said}» (notazione: `{part}`)",
        "ogni turno a parte",
    ),
    "pl": (
        "Nic nie zostało zagrane: akcja {n} z {count}, „{said}” (notacja: `{part}`)",
        "każdą turę zagraj osobno",
    ),
}


def _whole_turn(match: Match) -> list[str]:
    """Actions that make up the player's whole turn, none turning anything over, ending it as
    soon as they may (played on a copy)."""
    copy = games.from_json(match.to_json())
    played: list[str] = []
    while True:
        legal = [
            a
            for a in copy.legal_actions()
            if not copy.rules.reveals(copy.rules.parse(copy.state, a))
        ]
        assert legal, played  # the seed's first turn has a way through without a reveal
        action = "end" if "end" in legal else legal[0]
        played.append(action)
        if copy.milestones(copy.play(action, seat=copy.current_seat)).turn_ended:
            return played


def _label(lang: str, game: str, match: Match, action: str) -> str:
    catalog = default_catalog()
    return presentation(game).panel_label(
        lambda key, **params: catalog.text(key, lang, **params), match.view(None), action
    )


@pytest.mark.parametrize("game", ["namiji", "yamatai"])
def test_a_sequence_past_the_end_of_the_turn_names_the_action_in_words(
    tmp_path: Path, game: str
) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table = await env.start_game(HOST, [GUEST], game=game)
            player = HOST if await env.current_user(table.id) == HOST.id else GUEST
            match = await env.match(table.id)
            turn = _whole_turn(match)
            typed = [*turn, "end"]
            before = (await env.game(table.id)).version
            for lang, (start, own) in SAID.items():
                rec = await env.double.slash(
                    player, table.id, "play", {"action": "; ".join(typed)}, locale=lang
                )
                said = str((await rec.reply(TIMEOUT)).content)
                words = _label(lang.split("-")[0], game, match, "end")
                wanted = start.format(n=len(typed), count=len(typed), said=words, part="end")
                assert said.startswith(wanted), (lang, said)
                assert own in said and "'end'" not in said, (lang, said)
                assert "pas ton tour" not in said and "Nie teraz" not in said, (lang, said)
            assert (await env.game(table.id)).version == before  # nothing was played

    run(body)
