"""The coach's hint points at the move (issue 38 item 2, D210, D211): its choices come highest
chance first, each says where the panel has it, and its Play button shows the panel focused on
it, whose own button plays it. A Play click out of turn, or once the step has passed, is
refused and changes nothing. Played through the Discord double in a coached Yamatai game."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.catalog import default_catalog
from bot.games import presentation
from bot.service.panel import END_GROUP
from engine import games
from engine.contract import Budget, Choice
from tests.discord_double import MessageRecord, UserSpec
from tests.e2e.harness import GUEST, HOST, TIMEOUT, Env, Table, himiko_env, run
from tests.e2e.test_coach import click, coached_game, panel

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

PLAY = "himiko:coach:play:"
CHANCES = (0.39, 0.41, 0.30)  # the search's order: its pick first, by samples
SAMPLES = (20, 8, 8)


def words(locale: str) -> Callable[..., str]:
    """The bot's catalog in one language, as the views call it."""
    catalog = default_catalog()
    return lambda key, **params: catalog.text(key, locale, **params)


def label(locale: str, view: Any, action: str) -> str:
    """A choice in the panel's words."""
    return presentation("yamatai").panel_label(words(locale), view, action)


def group_name(locale: str, action: str) -> str:
    """The name of the panel menu an action is in."""
    shown = presentation("yamatai")
    return shown.panel_group_label(words(locale), shown.panel_group(action))


async def to_many_groups(env: Env, table: Table) -> UserSpec:
    """The player to act, once their fleet is chosen: the step offers several panel groups."""
    player = GUEST if await env.current_user(table.id) == GUEST.id else HOST
    match = await env.match(table.id)
    fleet = next(a for a in match.legal_actions() if a.startswith("fleet "))
    await (await env.play(player, table.id, fleet)).reply(TIMEOUT)
    return player


def searched_choices(legal: list[str], monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Three legal actions outside the group the panel opens (its first), of as many groups as
    there are, given by the search in the order its rank gives them (its pick first, 39%,
    then 41%, then 30%): the engine's search itself is tested in tests/engine."""
    shown = presentation("yamatai")
    groups = list(dict.fromkeys(shown.panel_group(a) for a in legal))
    hidden = [a for a in legal if shown.panel_group(a) not in (groups[0], END_GROUP)]
    firsts = [
        next(a for a in hidden if shown.panel_group(a) == g)
        for g in groups[1:]
        if any(shown.panel_group(a) == g for a in hidden)
    ]
    picked = (firsts + [a for a in hidden if a not in firsts])[:3]
    assert len(picked) == 3, groups

    def analyse(view: Any, seed: int, budget: Budget | None = None, also: Any = ()) -> list[Choice]:
        return [Choice(a, c, n) for a, c, n in zip(picked, CHANCES, SAMPLES, strict=True)]

    monkeypatch.setattr(games.rules_for("yamatai"), "analyse", analyse)
    return picked


async def hint(env: Env, user: UserSpec, table: Table, locale: str = "en-US") -> MessageRecord:
    """The user's panel, then its Hint: the hint's private answer."""
    shown = await panel(env, user, table, locale)
    answer = await (await click(env, user, table, shown, "himiko:panel:hint:", locale)).reply(
        TIMEOUT
    )
    assert answer.ephemeral
    return answer


def test_hints_highest_chance_first_each_with_its_menu_and_a_play_button(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The search ranks its pick (39%) above a choice it sampled less (41%): the hint shows 41%
    first. Each line names the panel menu the choice is in, in the reader's language; each
    choice has its Play button, in that order."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table = await coached_game(env, (GUEST,))
            player = await to_many_groups(env, table)
            match = await env.match(table.id)
            view = match.view(match.current_seat)
            picked = searched_choices(match.legal_actions(), monkeypatch)
            by_chance = [picked[1], picked[0], picked[2]]
            for locale in ("en-US", "fr", "it", "pl"):
                lang = locale[:2]
                say = words(lang)
                answer = await hint(env, player, table, locale)
                lines = answer.content.splitlines()
                assert lines[0] == say("coach.hint_title")
                expected = [
                    say(
                        "coach.hint_line",
                        rank=rank,
                        action=label(lang, view, action),
                        chance=chance,
                        where=say("coach.hint_where", group=group_name(lang, action)),
                    )
                    for rank, (action, chance) in enumerate(
                        zip(by_chance, (41, 39, 30), strict=True), start=1
                    )
                ]
                assert lines[1:] == expected
                plays = [c for c in answer.custom_ids() if c.startswith(PLAY)]
                assert len(plays) == 3
                button = answer.component(plays[0])
                assert button is not None
                assert button["label"] == "▶ " + say("coach.hint_play", rank=1)
            assert await env.current_user(table.id) == player.id
            assert len((await env.match(table.id)).log) == len(match.log)  # a hint plays nothing

    run(body, timeout=120)


def test_a_hint_s_play_button_shows_the_panel_at_it_then_the_panel_s_button_plays_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Play 1 turns the hint into the panel focused on that choice: the coach's words, its menu
    chosen, the choice as the one button of the panel (nothing played yet); that button plays
    it as any panel click does, and the panel goes on to the next step."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table = await coached_game(env, (GUEST,))
            player = await to_many_groups(env, table)
            match = await env.match(table.id)
            view = match.view(match.current_seat)
            picked = searched_choices(match.legal_actions(), monkeypatch)
            first = picked[1]  # 41%: the hint's first line
            answer = await hint(env, player, table)
            version = await env.version(table.id)
            plays = [c for c in answer.custom_ids() if c.startswith(PLAY)]
            ask = await env.double.click(player, table.id, answer.id, plays[0])
            await ask.wait_event("edit_original", TIMEOUT)
            focused = env.double.message(answer.id)
            assert focused.is_v2 and focused.ephemeral
            words_en = label("en", view, first)
            where = f"in the panel: “{group_name('en', first)}”"
            assert f"The coach's choice: **{words_en}** ({where})" in focused.text()
            assert await env.version(table.id) == version  # nothing played yet
            [do] = [c for c in focused.custom_ids() if c.startswith("himiko:panel:do:")]
            button = focused.component(do)
            assert button is not None and button["label"] == words_en
            assert not [c for c in focused.custom_ids() if c.startswith("himiko:panel:act:")]
            [menu] = [
                c for c in focused.components_of_type(3) if c["custom_id"].startswith("himiko:")
            ]
            chosen = [o["label"] for o in menu["options"] if o.get("default")]
            assert chosen and chosen[0].startswith(group_name("en", first))
            assert any(c.startswith("himiko:panel:page:") for c in focused.custom_ids())
            played = await env.double.click(player, table.id, answer.id, do)
            await played.wait_event("edit_original", TIMEOUT)
            after = await env.match(table.id)
            assert after.log[-1] == (after.log[-1][0], first)  # the hinted choice, played
            assert await env.version(table.id) == version + 1
            assert "— next: " in env.double.message(answer.id).text()  # said what was played

    run(body, timeout=120)


def test_a_play_click_out_of_turn_or_after_the_step_is_refused_and_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The other player clicks the hint's Play: told it is not their turn. The player plays
    something else, then clicks Play on the old hint: told the hint's step has passed. Neither
    click plays anything nor changes the hint's message; the focused panel's own button, once
    the game moved on, is refused as any out-of-date panel button."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table = await coached_game(env, (GUEST,))
            player = await to_many_groups(env, table)
            other = HOST if player == GUEST else GUEST
            match = await env.match(table.id)
            picked = searched_choices(match.legal_actions(), monkeypatch)
            answer = await hint(env, player, table)
            kept = await hint(env, player, table)  # the same step's hint, a second message
            plays = [c for c in answer.custom_ids() if c.startswith(PLAY)]
            version = await env.version(table.id)

            wrong = await env.double.click(other, table.id, answer.id, plays[0])
            refused = await wrong.reply(TIMEOUT)
            assert refused.ephemeral and "It is not your turn" in refused.content
            assert await env.version(table.id) == version
            assert env.double.message(answer.id).content == answer.content  # unchanged

            again = [c for c in kept.custom_ids() if c.startswith(PLAY)]
            ask = await env.double.click(player, table.id, kept.id, again[0])
            await ask.wait_event("edit_original", TIMEOUT)
            focused = env.double.message(kept.id)
            [do] = [c for c in focused.custom_ids() if c.startswith("himiko:panel:do:")]

            elsewhere = next(a for a in match.legal_actions() if a not in picked)
            await (await env.play(player, table.id, elsewhere)).reply(TIMEOUT)
            moved = await env.version(table.id)
            assert moved == version + 1
            stale = await env.double.click(player, table.id, answer.id, plays[1])
            said = await stale.reply(TIMEOUT)
            assert said.ephemeral and "This hint was for a step that has passed" in said.content
            assert env.double.message(answer.id).content == answer.content  # unchanged
            late = await env.double.click(player, table.id, kept.id, do)
            assert "out of date" in (await late.reply(TIMEOUT)).content
            assert await env.version(table.id) == moved  # nothing played by either click
            assert (await env.match(table.id)).log[-1][1] == elsewhere

    run(body, timeout=120)


def test_a_hint_to_end_the_turn_points_at_the_end_button_which_ends_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ending the turn is a button, not a menu: the hint says so, and its Play shows the panel
    with no menu of actions but its End the turn button, which ends the turn."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table = await coached_game(env, (GUEST,))
            greedy = games.computer_player("yamatai")
            match = await env.match(table.id)
            while "end" not in match.legal_actions() or len(match.legal_actions()) < 2:
                seat = match.current_seat
                assert seat is not None
                player = GUEST if await env.current_user(table.id) == GUEST.id else HOST
                await (await env.play(player, table.id, greedy(match.view(seat), 3))).reply(TIMEOUT)
                match = await env.match(table.id)
            player = GUEST if await env.current_user(table.id) == GUEST.id else HOST
            other = next(a for a in match.legal_actions() if a != "end")

            def analyse(
                view: Any, seed: int, budget: Budget | None = None, also: Any = ()
            ) -> list[Choice]:
                return [Choice(other, 0.40, 10), Choice("end", 0.60, 10)]

            monkeypatch.setattr(games.rules_for("yamatai"), "analyse", analyse)
            answer = await hint(env, player, table)
            first = answer.content.splitlines()[1]
            assert first.startswith("1. ") and "60%" in first
            assert first.endswith("(in the panel: the “End the turn” button)"), first
            plays = [c for c in answer.custom_ids() if c.startswith(PLAY)]
            ask = await env.double.click(player, table.id, answer.id, plays[0])
            await ask.wait_event("edit_original", TIMEOUT)
            focused = env.double.message(answer.id)
            assert "The coach's choice: **" in focused.text()
            assert not [c for c in focused.custom_ids() if c.startswith("himiko:panel:act:")]
            [end] = [c for c in focused.custom_ids() if c.startswith("himiko:panel:do:")]
            button = focused.component(end)
            assert button is not None and button["label"] == "End the turn"
            done = await env.double.click(player, table.id, answer.id, end)
            await done.wait_event("edit_original", TIMEOUT)
            await env.settled()
            ended = await env.match(table.id)
            assert ended.log[len(match.log)] == (match.current_seat, "end")
            assert "Your turn is over" in env.double.message(answer.id).text()

    run(body, timeout=120)
