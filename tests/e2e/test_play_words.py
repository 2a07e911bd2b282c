"""What ``/play``, ``/undo``, a refusal and the coach's turning points say, through the real bot on
the Discord double, in French and Polish (issue 38, play-through 46 items 4, 15, 16, 17, 18): the
action in words first, its notation second and marked as such; an empty ``/play`` gives an example
of the game being played; a refusal says once what is wrong and lists what is possible in words;
a turning point is one a player can see."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.catalog import default_catalog
from bot.games import presentation
from engine import games
from engine.contract import Choice
from engine.games import Match
from tests.discord_double import UserSpec
from tests.e2e.harness import GUEST, HOST, TIMEOUT, Env, Table, custom_id, himiko_env, run
from tests.e2e.test_coach import coached_game
from tests.e2e.test_endings_honest import resign

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

#: How each language marks the notation after the words (D213's "(notation: `fleet 4`)").
MARKED = {"fr": "(notation\u00a0: `{}`)", "pl": "(notacja: `{}`)"}
QUOTED = {"fr": "«\u00a0{}\u00a0»", "pl": "„{}”"}


def _label(lang: str, game: str, view: Any, action: str) -> str:
    """The panel's words for an action, in ``lang``."""
    catalog = default_catalog()
    return presentation(game).panel_label(
        lambda key, **params: catalog.text(key, lang, **params), view, action
    )


def _hides_nothing(match: Match, action: str) -> bool:
    return not match.rules.reveals(match.rules.parse(match.state, action))


async def _table(env: Env, game: str) -> tuple[Table, UserSpec]:
    """A started game of the host and the guest, and the player to act."""
    table = await env.start_game(HOST, [GUEST], game=game)
    first = await env.current_user(table.id)
    return table, HOST if first == HOST.id else GUEST


async def _slash(
    env: Env, user: UserSpec, table: Table, name: str, lang: str, **options: str
) -> Any:
    """A slash command by a user of ``lang``: its private answer."""
    rec = await env.double.slash(user, table.id, name, options, locale=lang)
    reply = await rec.reply(TIMEOUT)
    assert reply.ephemeral and not reply.loading, reply.content
    return reply


@pytest.mark.parametrize("lang", ["fr", "pl"])
def test_an_empty_play_gives_an_example_of_the_game_being_played(tmp_path: Path, lang: str) -> None:
    """An empty ``/play`` in a Namiji game said "for example `fleet 4` or `fleet 4; buy wood;
    place wood 12`", Yamatai actions (play-through 46, item 4)."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            namiji, player = await _table(env, "namiji")
            said = (await _slash(env, player, namiji, "play", lang, action=" ; ")).content
            assert "`move 9`" in said and "fleet" not in said and "buy" not in said, said
            yamatai, player = await _table(env, "yamatai")
            said = (await _slash(env, player, yamatai, "play", lang, action=";")).content
            assert "`fleet 4`" in said and "move" not in said, said

    run(body)


@pytest.mark.parametrize("lang", ["fr", "pl"])
@pytest.mark.parametrize("game", ["namiji", "yamatai"])
def test_play_and_undo_say_the_action_in_words_then_its_notation(
    tmp_path: Path, lang: str, game: str
) -> None:
    """``/play`` answered "Joué : `move 2` — …" and ``/undo`` "Action reprise : `move 2`."
    (play-through 46, items 15 and 16): the words first, the notation second and marked."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table, player = await _table(env, game)
            match = await env.match(table.id)
            seat = match.current_seat
            assert seat is not None
            action = next(a for a in match.legal_actions() if _hides_nothing(match, a))
            words = _label(lang, game, match.view(seat), action)
            assert words != action
            played = (await _slash(env, player, table, "play", lang, action=action)).content
            mark = MARKED[lang].format(action)
            assert mark in played, played
            assert not played.split(mark)[0].count("`"), played  # no notation before the words
            undone = (await _slash(env, player, table, "undo", lang)).content
            assert undone.startswith(
                ("Action reprise\u00a0: " if lang == "fr" else "Cofnięto: ")
                + QUOTED[lang].format(words)
                + " "
                + mark
            ), undone
            assert (await env.match(table.id)).log == match.log  # taken back

    run(body)


@pytest.mark.parametrize("lang", ["fr", "pl"])
def test_a_whole_turn_is_previewed_and_confirmed_with_its_notation_second(
    tmp_path: Path, lang: str
) -> None:
    """The ``;`` preview ended with the sequence in a bare code block; it is now marked as the
    notation after the words, and Confirm still reads it back and plays it."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table, player = await _table(env, "yamatai")
            match = await env.match(table.id)
            seat = match.current_seat
            assert seat is not None
            first = next(a for a in match.legal_actions() if _hides_nothing(match, a))
            after = match.legal_after(first, seat=seat)
            text = f"{first}; {after[0]}"
            preview = await _slash(env, player, table, "play", lang, action=text)
            description = preview.embeds[0]["description"]
            assert "```" not in description, description
            assert description.splitlines()[-1] == MARKED[lang].format(text), description
            ok = custom_id(preview, "himiko:seq:ok:")
            clicked = await env.double.click(player, table.id, preview.id, ok, locale=lang)
            await clicked.wait_event("edit_original", TIMEOUT)
            confirmed = env.double.message(preview.id).content
            assert MARKED[lang].format(text) in confirmed, confirmed
            assert [a for _, a in (await env.match(table.id)).log[-2:]] == [first, after[0]]

    run(body)


#: What a Namiji refusal at the move step says (the step's words, once) and how the list begins.
REFUSED = {
    "fr": ("ne se joue pas à cette étape", "Possible maintenant (notation entre parenthèses)"),
    "pl": ("nie należy do tego kroku", "Dozwolone teraz (notacja w nawiasach)"),
}


@pytest.mark.parametrize("lang", ["fr", "pl"])
def test_a_refusal_says_once_what_is_wrong_and_what_is_possible_in_words(
    tmp_path: Path, lang: str
) -> None:
    """ "`fish os` n'est pas permis maintenant : « fish os » ne se joue pas maintenant ; les
    commandes de cette étape : `move`.\\nPossible maintenant : `move 1`; `move 2`; …" (play-through
    46, item 17): one sentence naming the action in words, the step in words, and what is
    possible in words with the notation second; a Yamatai refusal likewise."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table, player = await _table(env, "namiji")
            match = await env.match(table.id)
            seat = match.current_seat
            assert seat is not None
            view = match.view(seat)
            said = (await _slash(env, player, table, "play", lang, action="fish os")).content
            first, *rest = said.splitlines()
            wrong, listed = REFUSED[lang]
            fish = QUOTED[lang].format(_label(lang, "namiji", view, "fish os"))
            assert first.startswith(fish + " " + MARKED[lang].format("fish os")), first
            assert first.count("fish os") == 1 and wrong in first, first
            step = match.turn_info.step
            assert step is not None
            key = presentation("namiji").step_key(match.view(None), step)
            assert default_catalog().text(key, lang) in first, first
            legal = match.legal_actions()
            assert rest[0].startswith(listed), said
            assert rest[1] == f"• {_label(lang, 'namiji', view, legal[0])} (`{legal[0]}`)", said
            assert (await env.match(table.id)).log == match.log  # nothing changed

            yamatai, player = await _table(env, "yamatai")
            match = await env.match(yamatai.id)
            seat = match.current_seat
            assert seat is not None
            view = match.view(seat)
            said = (
                await _slash(env, player, yamatai, "play", lang, action="place bamboo 12")
            ).content
            first, *rest = said.splitlines()
            place = QUOTED[lang].format(_label(lang, "yamatai", view, "place bamboo 12"))
            assert place + " " + MARKED[lang].format("place bamboo 12") in first, first
            assert rest[0].startswith(listed), said
            legal = match.legal_actions()
            assert rest[1] == f"• {_label(lang, 'yamatai', view, legal[0])} (`{legal[0]}`)", said
            # an action with no words of its own is named by its notation (V1: « None »)
            said = (await _slash(env, player, yamatai, "play", lang, action="keep")).content
            assert "None" not in said and "`keep`" in said, said

    run(body)


#: Chances the strong player's search gives, by the decision's place in the log: most decisions
#: lose a fraction of a point ("about 0%" both), one loses 30 points.
FRACTION = (0.002, 0.004)
COSTLY = (0.20, 0.50)


@pytest.mark.parametrize("lang", ["fr", "pl"])
def test_turning_points_list_only_what_shows_and_quote_the_panel_s_words(
    tmp_path: Path, lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ "1. Tura 30: twój ruch to Płyń na pole 36 (około 0% szans); silny gracz zagrałby Płyń na
    pole 27 (około 0%)" (play-through 46, item 18): a drop that rounds to nothing is no turning
    point, and the panel's words are quoted, not pasted mid-sentence with their capital."""
    costly: dict[str, int] = {}

    def chances_of(game: str, view: Any, seed: int, played: str, budget: Any) -> Any:
        other = next(a for a in view["legal_actions"] if a != played)
        mine, best = COSTLY if view["version"] == costly.get("version") else FRACTION
        return Choice(played, mine, 10), [Choice(other, best, 10), Choice(played, mine, 10)]

    monkeypatch.setattr(games, "chances_of", chances_of)  # the coach's thinking asks it

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table = await coached_game(env, computers=True)
            chosen: list[str] = []  # the costly decision's words: played, the strong choice
            for number in range(3):
                await env.bot.runner.idle()
                match = await env.match(table.id)
                assert match.current_seat == 0
                legal = match.legal_actions()
                action = next(a for a in legal if _hides_nothing(match, a))
                if number == 1:
                    costly["version"] = len(match.log)
                    other = next(a for a in legal if a != action)
                    view = match.view(0)
                    chosen = [(_label(lang, "yamatai", view, a)) for a in (action, other)]
                reply = await (await env.play(HOST, table.id, action)).reply(TIMEOUT)
                assert not reply.loading
            await resign(env, table.id, HOST, lang)
            final = await env.double.wait_for_message(
                table.id,
                lambda m: any(c.startswith("himiko:coach:points:") for c in m.custom_ids()),
                TIMEOUT,
            )
            ask = custom_id(final, "himiko:coach:points:")
            clicked = await env.double.click(HOST, table.id, final.id, ask, locale=lang)
            lines = (await clicked.reply(TIMEOUT)).content.splitlines()
            assert len(lines) == 2, lines  # the title and the one drop that shows
            played, best = chosen
            quoted = QUOTED[lang]
            assert quoted.format(played) in lines[1] and quoted.format(best) in lines[1], lines
            assert "20" in lines[1] and "50" in lines[1], lines

    run(body, timeout=120)


@pytest.mark.parametrize("lang", ["fr", "pl"])
def test_the_panel_s_undo_says_the_action_in_words_then_its_notation(
    tmp_path: Path, lang: str
) -> None:
    """The panel's Undo answered "Action reprise : `move 2`." / "Cofnięto `move 2`." too."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table, player = await _table(env, "namiji")
            match = await env.match(table.id)
            seat = match.current_seat
            assert seat is not None
            action = next(a for a in match.legal_actions() if _hides_nothing(match, a))
            words = _label(lang, "namiji", match.view(seat), action)
            await _slash(env, player, table, "play", lang, action=action)
            panel = await _slash(env, player, table, "turn", lang)
            undo = next(i for i in panel.custom_ids() if i.startswith("himiko:panel:undo:"))
            clicked = await env.double.click(player, table.id, panel.id, undo, locale=lang)
            await clicked.wait_event("edit_original", TIMEOUT)
            said = env.double.message(panel.id).text()
            assert QUOTED[lang].format(words) + " " + MARKED[lang].format(action) in said, said
            assert (await env.match(table.id)).log == match.log

    run(body)
