"""The game service against a real SQLite store and real rendering."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.catalog import default_catalog
from bot.present import error_text
from bot.service import PlayResult, Rooms, ServiceError
from bot.service.tables import BATCH_TURNS
from bot.store import GameNotActive, GameNotFound, NothingToUndo, StaleVersion
from engine import games
from render.extras import Extras

from .support import ANN, BO, play_whole_turn, two_player_game, with_service

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL


PNG = b"\x89PNG"


def _user(created_first_seat: int, seats: dict[int, int]) -> int:
    return seats[created_first_seat]


def test_create_and_play_single_actions(tmp_path: Path) -> None:
    async def body(rooms: Rooms) -> None:
        created = await two_player_game(rooms)
        assert created.picture.startswith(PNG)
        assert [p.name for p in created.players] == ["Ann", "Bo"]
        first = created.first
        assert first.user_id in (ANN, BO)
        game = await rooms.desk.repo.load_game(created.game_id)
        match = games.from_json(game.snapshot)
        action = match.legal_actions()[0]
        result = await rooms.playing.play(first.user_id or 0, action, thread_id=500)
        assert result.actions == (action,)
        assert result.version == created.version + 1
        # the step's picture follows the answer (D100): what it is drawn from, drawn by nobody
        assert result.picture is None and result.picture_order is not None
        assert (await rooms.pictures.draw(result.picture_order)).startswith(PNG)
        assert result.turn is None
        assert result.step == "yamatai.step.trade"

    asyncio.run(with_service(tmp_path, body))


async def _whole_turn(rooms: Rooms, game_id: int) -> tuple[int, str]:
    """A legal whole turn for the current player (found by the greedy computer player)."""
    game = await rooms.desk.repo.load_game(game_id)
    match = games.from_json(game.snapshot)
    seat = match.current_seat
    assert seat is not None
    before = len(match.log)
    from engine.yamatai.players import greedy_player

    while True:
        events = match.play(greedy_player(match.view(seat), 1), seat=seat)
        if any(e["type"] == "end_turn" for e in events):
            break
    text = "; ".join(t for _, t in match.log[before:])
    return game.user_of(seat) or 0, text


def test_whole_turn_preview_then_confirm(tmp_path: Path) -> None:
    async def body(rooms: Rooms) -> None:
        created = await two_player_game(rooms)
        user, text = await _whole_turn(rooms, created.game_id)
        preview = await rooms.playing.preview(user, text, thread_id=500)
        assert preview.ends_turn and preview.picture.startswith(PNG)
        assert preview.text == text
        unchanged = await rooms.desk.repo.load_game(created.game_id)
        assert unchanged.version == created.version and unchanged.action_count == 0
        result = await rooms.playing.play(
            user, preview.text, game_id=preview.game_id, version=preview.version
        )
        assert result.turn is not None
        assert result.turn.actions == tuple(text.split("; "))
        assert result.turn.next_player is not None
        assert result.turn.next_player.user_id != user
        # the turn's picture follows its message: not drawn for the answer, drawn on order
        assert result.turn.picture is None and result.turn.picture_order is not None
        assert (await rooms.reports.draw_picture(result.turn.picture_order)).startswith(PNG)

    asyncio.run(with_service(tmp_path, body))


def test_sequence_is_all_or_nothing(tmp_path: Path) -> None:
    async def body(rooms: Rooms) -> None:
        created = await two_player_game(rooms)
        user = created.first.user_id or 0
        game = await rooms.desk.repo.load_game(created.game_id)
        fleet = games.from_json(game.snapshot).legal_actions()[0]
        with pytest.raises(ServiceError) as caught:
            await rooms.playing.play(user, f"{fleet}; place gold 999", thread_id=500)
        assert caught.value.key == "error.sequence.did_you_mean"  # placements legal after it
        assert caught.value.params["suggestions"].startswith("`place ")
        assert caught.value.params["number"] == 2
        assert caught.value.params["part"] == "place gold 999"
        after = await rooms.desk.repo.load_game(created.game_id)
        assert after.action_count == 0

    asyncio.run(with_service(tmp_path, body))


def test_wrong_player_and_spectator(tmp_path: Path) -> None:
    async def body(rooms: Rooms) -> None:
        created = await two_player_game(rooms)
        other = BO if created.first.user_id == ANN else ANN
        with pytest.raises(ServiceError) as caught:
            await rooms.playing.play(other, "fleet 1", thread_id=500)
        assert caught.value.key == "error.not_your_turn"
        assert caught.value.params["player"] == created.first.name
        with pytest.raises(ServiceError) as caught:
            await rooms.playing.play(999, "fleet 1", thread_id=500)
        assert caught.value.key == "error.not_seated"
        with pytest.raises(ServiceError) as caught:
            await rooms.playing.play(ANN, "fleet 1", thread_id=12345)
        assert caught.value.key == "error.no_game"

    asyncio.run(with_service(tmp_path, body))


def test_malformed_and_illegal_actions_say_what_is_legal(tmp_path: Path) -> None:
    async def body(rooms: Rooms) -> None:
        created = await two_player_game(rooms)
        user = created.first.user_id or 0
        with pytest.raises(ServiceError) as caught:
            await rooms.playing.play(user, "flet 4", thread_id=500)
        assert caught.value.key == "error.single.did_you_mean"
        assert "`fleet 4`" in caught.value.params["suggestions"] and not caught.value.legal
        with pytest.raises(ServiceError) as caught:
            await rooms.playing.play(user, "xyzzy 42", thread_id=500)
        assert caught.value.key == "error.single.unreadable"  # never the whole grammar
        assert caught.value.legal and all(a.startswith("fleet ") for a in caught.value.legal)
        with pytest.raises(ServiceError) as caught:
            await rooms.playing.play(user, "buy wood", thread_id=500)
        assert caught.value.key == "error.single.illegal"
        assert caught.value.legal and all(a.startswith("fleet") for a in caught.value.legal)
        assert "Legal now" not in caught.value.params["message"]  # the list comes as data

    asyncio.run(with_service(tmp_path, body))


@pytest.mark.parametrize(("typed", "command"), [("undo", "undo"), ("/Board", "board")])
def test_a_command_typed_as_an_action_points_to_its_command(
    tmp_path: Path, typed: str, command: str
) -> None:
    """QA: ``/play action: undo`` answered "I could not read `undo` as an action"."""

    async def body(rooms: Rooms) -> None:
        created = await two_player_game(rooms)
        user = created.first.user_id or 0
        with pytest.raises(ServiceError) as caught:
            await rooms.playing.play(user, typed, thread_id=500)
        assert caught.value.key == "error.single.a_command"
        said = error_text(default_catalog(), caught.value, "fr")
        assert f"`/{command}`" in said and "commande" in said
        game = await rooms.desk.repo.load_game(created.game_id)
        first = games.from_json(game.snapshot).legal_actions()[0]
        with pytest.raises(ServiceError) as caught:
            await rooms.playing.play(user, f"{first}; {typed}", thread_id=500)
        assert caught.value.key == "error.sequence.a_command"
        game = await rooms.desk.repo.load_game(created.game_id)
        assert game.version == created.version  # nothing was played

    asyncio.run(with_service(tmp_path, body))


def test_two_concurrent_applies_one_wins(tmp_path: Path) -> None:
    async def body(rooms: Rooms) -> None:
        created = await two_player_game(rooms)
        user = created.first.user_id or 0
        game = await rooms.desk.repo.load_game(created.game_id)
        action = games.from_json(game.snapshot).legal_actions()[0]

        async def click() -> PlayResult | ServiceError:
            try:
                return await rooms.playing.play(
                    user, action, game_id=created.game_id, version=created.version
                )
            except ServiceError as error:
                return error

        results = await asyncio.gather(click(), click())
        wins = [r for r in results if isinstance(r, PlayResult)]
        losses = [r for r in results if isinstance(r, ServiceError)]
        assert len(wins) == 1 and len(losses) == 1
        assert losses[0].key in ("error.already_played", "error.stale_board")
        after = await rooms.desk.repo.load_game(created.game_id)
        assert after.action_count == 1

    asyncio.run(with_service(tmp_path, body))


def test_stale_version_is_out_of_date(tmp_path: Path) -> None:
    async def body(rooms: Rooms) -> None:
        created = await two_player_game(rooms)
        user = created.first.user_id or 0
        game = await rooms.desk.repo.load_game(created.game_id)
        first, second = games.from_json(game.snapshot).legal_actions()[:2]
        await rooms.playing.play(user, first, game_id=created.game_id, version=created.version)
        with pytest.raises(ServiceError) as caught:
            await rooms.playing.play(user, second, game_id=created.game_id, version=created.version)
        assert caught.value.key == "error.stale_board"

    asyncio.run(with_service(tmp_path, body))


def test_undo_within_the_turn_only(tmp_path: Path) -> None:
    async def body(rooms: Rooms) -> None:
        created = await two_player_game(rooms)
        user = created.first.user_id or 0
        with pytest.raises(ServiceError) as caught:
            await rooms.playing.undo(user, thread_id=500)
        assert caught.value.key == "error.engine.undo_not_allowed.turn_start"
        said = error_text(default_catalog(), caught.value, None)
        assert said == "There is nothing to undo in this turn: finished turns stay played."
        game = await rooms.desk.repo.load_game(created.game_id)
        action = games.from_json(game.snapshot).legal_actions()[0]
        played = await rooms.playing.play(user, action, thread_id=500)
        undone = await rooms.playing.undo(user, thread_id=500)
        assert undone.undone == action
        assert undone.version == played.version + 1
        assert undone.picture is None and undone.picture_order is not None
        assert (await rooms.pictures.draw(undone.picture_order)).startswith(PNG)
        after = await rooms.desk.repo.load_game(created.game_id)
        assert after.action_count == 0 and after.current_seat == created.first.seat

    asyncio.run(with_service(tmp_path, body))


def test_computer_players_finish_a_game(tmp_path: Path) -> None:
    async def body(rooms: Rooms) -> None:
        created = await rooms.playing.create_game(
            game_key="yamatai",
            guild_id=1,
            channel_id=2,
            thread_id=3,
            players=[(None, "Computer 1"), (None, "Computer 2")],
        )
        assert created.computers_next
        reports = [r async for r in rooms.computers.computer_turns(created.game_id)]
        assert len(reports) > 1  # saved and posted by batches of BATCH_TURNS turns
        assert all(len(r.earlier) == BATCH_TURNS - 1 for r in reports[:-1])
        history = await rooms.reading.history(thread_id=3, turns=10_000)
        posted = sum(len(r.earlier) + 1 for r in reports)
        assert posted == len([t for t in history.turns if t.complete])  # each turn said once
        last = reports[-1]
        assert last.final is not None and last.next_player is None
        assert [s.rank for s in last.final.scores] == [1, 2]
        game = await rooms.desk.repo.load_game(created.game_id)
        assert game.status == "finished"
        assert {s.final_rank for s in game.seats} == {1, 2}
        board = await rooms.reading.board(None, thread_id=3, public=True)
        assert board.over and board.game_id == created.game_id
        history = await rooms.reading.history(thread_id=3, turns=2)
        assert [t.complete for t in history.turns] == [True, True]
        assert all(r.picture is None and r.picture_order for r in reports[-2:])

    asyncio.run(with_service(tmp_path, body))


def test_computer_seat_plays_after_a_human_turn(tmp_path: Path) -> None:
    async def body(rooms: Rooms) -> None:
        created = await rooms.playing.create_game(
            game_key="yamatai",
            guild_id=1,
            channel_id=2,
            thread_id=3,
            players=[(ANN, "Ann"), (None, "Computer 1")],
        )
        reports = [r async for r in rooms.computers.computer_turns(created.game_id)]
        game = await rooms.desk.repo.load_game(created.game_id)
        assert game.user_of(game.current_seat) == ANN
        assert game.version == created.version + len(reports)  # each batch is one save
        for report in reports:
            assert report.player.computer and report.next_player is not None

    asyncio.run(with_service(tmp_path, body))


def test_board_history_and_my_games(tmp_path: Path) -> None:
    async def body(rooms: Rooms) -> None:
        created = await two_player_game(rooms)
        user, text = await _whole_turn(rooms, created.game_id)
        await rooms.playing.play(user, text, thread_id=500)
        board = await rooms.reading.board(user, thread_id=500)
        assert board.picture.startswith(PNG) and board.round == 1 and not board.over
        history = await rooms.reading.history(thread_id=500)
        assert len(history.turns) == 1 and history.turns[0].complete
        assert "; ".join(history.turns[0].actions) == text
        mine = await rooms.reading.my_games(ANN, guild_id=9)
        assert [g.game_id for g in mine] == [created.game_id]
        assert await rooms.reading.my_games(ANN, guild_id=77) == []

    asyncio.run(with_service(tmp_path, body))


def test_turn_panel_groups_the_legal_choices(tmp_path: Path) -> None:
    async def body(rooms: Rooms) -> None:
        created = await two_player_game(rooms)
        user = created.first.user_id or 0
        state = await rooms.playing.panel(user, thread_id=500)
        assert state.step == "yamatai.step.fleet" and state.category == "fleet"
        assert all(a.startswith("fleet") for a in state.actions)
        await rooms.playing.play(
            user, state.actions[0], game_id=state.game_id, version=state.version
        )
        state = await rooms.playing.panel(user, thread_id=500, picture=False)
        keys = [c.key for c in state.categories]
        assert any(k.startswith("place:") for k in keys)
        assert state.can_undo and state.picture is None

    asyncio.run(with_service(tmp_path, body))


def test_resigning_in_a_two_player_game_makes_the_opponent_win(tmp_path: Path) -> None:
    async def body(rooms: Rooms) -> None:
        created = await two_player_game(rooms)
        resigned = await rooms.endings.resign(BO, game_id=created.game_id, version=created.version)
        assert resigned.player.name == "Bo" and resigned.ended
        assert resigned.winner is not None and resigned.winner.name == "Ann"
        game = await rooms.desk.repo.load_game(created.game_id)
        assert game.status == "finished"
        assert [(s.player, s.winner, s.final_rank, s.stand_in) for s in game.seats] == [
            ("Ann", True, 1, None),
            ("Bo", False, 2, "resigned"),
        ]
        with pytest.raises(ServiceError) as caught:
            await rooms.playing.play(ANN, "fleet 1", thread_id=500)
        assert caught.value.key == "error.game_over_resigned"  # over, and says how it ended
        assert caught.value.params["player"] == "Bo"
        board = await rooms.reading.board(ANN, thread_id=500)  # reading works after the end
        assert board.over and board.current is None and board.picture.startswith(PNG)
        assert (await rooms.reading.history(thread_id=500)).game_id == created.game_id
        with pytest.raises(ServiceError) as caught:
            await rooms.reading.board(ANN, thread_id=501)
        assert caught.value.key == "error.no_game"

    asyncio.run(with_service(tmp_path, body))


def test_take_your_turn_opens_the_panel_until_the_turn_has_passed(tmp_path: Path) -> None:
    async def body(rooms: Rooms) -> None:
        created = await two_player_game(rooms)
        user = created.first.user_id or 0
        assert created.turn is not None and created.turn.key == (1, created.first.seat)
        key = created.turn.key
        game = await rooms.desk.repo.load_game(created.game_id)
        action = games.from_json(game.snapshot).legal_actions()[0]
        await rooms.playing.play(user, action, thread_id=500)  # acted via /play: version moved on
        state = await rooms.playing.panel(
            user, game_id=created.game_id, version=created.version, turn=key
        )
        assert state.version > created.version and state.player.seat == created.first.seat
        with pytest.raises(ServiceError) as caught:  # action buttons stay strict
            await rooms.playing.panel(user, game_id=created.game_id, version=created.version)
        assert caught.value.key == "error.stale_board"
        await rooms.playing.undo(user, thread_id=500)
        from .support import play_whole_turn

        done = await play_whole_turn(rooms, created.game_id)
        assert done.turn is not None and done.turn.next_turn is not None
        assert done.turn.next_turn.key == (1, 1 - created.first.seat)
        other = done.turn.next_player.user_id if done.turn.next_player else None
        with pytest.raises(ServiceError) as caught:  # the turn has passed: out of date
            await rooms.playing.panel(
                other or 0, game_id=created.game_id, version=created.version, turn=key
            )
        assert caught.value.key == "error.stale_board"

    asyncio.run(with_service(tmp_path, body))


@pytest.mark.parametrize(
    ("refusal", "key"),
    [
        (GameNotActive(1, "abandoned"), "error.game_over"),
        (StaleVersion(1, 2, 3), "error.already_played"),
        (NothingToUndo(1), "error.nothing_to_undo"),
        (GameNotFound("gone", game_id=1), "error.no_game"),
    ],
)
def test_store_refusals_of_save_undo_and_resign_are_explained(
    tmp_path: Path, refusal: Exception, key: str
) -> None:
    async def body(rooms: Rooms) -> None:
        created = await two_player_game(rooms)
        user = created.first.user_id or 0
        game = await rooms.desk.repo.load_game(created.game_id)
        action = games.from_json(game.snapshot).legal_actions()[0]
        await rooms.playing.play(user, action, thread_id=500)
        game = await rooms.desk.repo.load_game(created.game_id)
        following = games.from_json(game.snapshot).legal_actions()[0]

        async def refuse(*args: object, **kwargs: object) -> int:
            raise refusal

        rooms.desk.repo.undo_last = refuse  # type: ignore[method-assign]
        rooms.desk.repo.append_match = refuse  # type: ignore[method-assign]
        rooms.desk.repo.abandon_game = refuse  # type: ignore[method-assign]
        rooms.desk.repo.resign_and_finish = refuse  # type: ignore[method-assign]
        with pytest.raises(ServiceError) as caught:
            await rooms.playing.undo(user, thread_id=500)  # e.g. resigned meanwhile
        assert caught.value.key == key
        with pytest.raises(ServiceError) as caught:
            await rooms.playing.play(user, following, thread_id=500)
        assert caught.value.key == key
        with pytest.raises(ServiceError) as caught:
            await rooms.endings.resign(user, game_id=created.game_id)
        expected = "error.stale_board" if isinstance(refusal, StaleVersion) else key
        assert caught.value.key == expected

    asyncio.run(with_service(tmp_path, body, fast=True))


def test_an_away_players_turns_are_each_posted_once(tmp_path: Path) -> None:
    """A human's own turn is never posted again with the computer turns played for them later."""

    async def body(rooms: Rooms) -> None:
        created = await rooms.playing.create_game(
            game_key="yamatai",
            guild_id=1,
            channel_id=2,
            thread_id=3,
            players=[(ANN, "Ann"), (None, "Computer 1")],
        )
        if created.computers_next:
            [_ async for _ in rooms.computers.computer_turns(created.game_id)]
        human = await play_whole_turn(rooms, created.game_id)
        assert human.turn is not None
        history = await rooms.reading.history(thread_id=3, turns=10_000)
        before = len([t for t in history.turns if t.complete])
        game = await rooms.desk.repo.load_game(created.game_id)
        seat = game.seats_of(ANN)[0]
        await rooms.desk.repo.set_stand_in(created.game_id, seat, "away", now=rooms.desk.now())
        reports = [r async for r in rooms.computers.computer_turns(created.game_id)]
        assert reports and reports[-1].final is not None
        said = [a for r in reports for a in (*(t.actions for t in r.earlier), r.actions)]
        assert human.turn.actions not in said
        history = await rooms.reading.history(thread_id=3, turns=10_000)
        after = [t.actions for t in history.turns if t.complete]
        assert len(said) == len(after) - before  # every later turn once, none from before
        assert [a[0] for a in said] == [a[0] for a in after[before:]]

    asyncio.run(with_service(tmp_path, body, fast=True))


def test_a_mid_turn_play_draws_the_step_picture_the_panel_draws(tmp_path: Path) -> None:
    """QA: a mid-turn ``/play``'s step picture said "Last turn: none yet" from its second step
    (round 2 too) and never what the others did; it is the panel's picture: the others' turns
    since the player's last one told and marked, every legal choice ringed."""
    from bot.service.history import since_last_turn
    from bot.service.tables import panel_choices
    from render import render_focus

    async def body(rooms: Rooms) -> None:
        created = await two_player_game(rooms)
        await play_whole_turn(rooms, created.game_id)
        game = await rooms.desk.repo.load_game(created.game_id)
        match = games.from_json(game.snapshot)
        seat = match.current_seat
        assert seat is not None
        user = next(s.user_id for s in game.seats if s.seat == seat) or 0
        for _ in range(2):  # the turn's first step, then a later one
            result = await rooms.playing.play(user, match.legal_actions()[0], thread_id=500)
            match = games.from_json((await rooms.desk.repo.load_game(created.game_id)).snapshot)
            since = since_last_turn(match, seat)
            assert since.first_turn  # round 1: the player's first turn, told since the start
            assert len(since.turns) == 1 and since.turns[0].seat != seat  # the other's turn
            assert result.picture_order is not None and match.current_seat == seat
            told = [(t.seat, t.events) for t in since.turns]
            expected = render_focus(
                match.view(seat),
                legal=panel_choices(match),
                extras=Extras(since=told, first_turn=True),
            )
            assert await rooms.pictures.draw(result.picture_order) == expected

    asyncio.run(with_service(tmp_path, body))


def test_the_log_shows_its_reader_their_own_built_tile(tmp_path: Path) -> None:
    """``/log`` hides a built tile from everyone (``build ? A3``) but the player who built it,
    who reads their own action in full (QA: the builder saw ``?`` for their own tile)."""

    async def body(rooms: Rooms) -> None:
        created = await two_player_game(rooms)
        for _ in range(40):
            result = await play_whole_turn(rooms, created.game_id)
            built = [a for a in result.actions if a.startswith("build ")]
            if built:
                break
        else:
            raise AssertionError("nobody built in 40 turns: the test proves nothing")
        game = await rooms.desk.repo.load_game(created.game_id)
        builder = games.from_json(game.snapshot).log[-1][0]
        _, tile, island = built[0].split()

        async def logged(reader: int | None) -> list[str]:
            history = await rooms.reading.history(thread_id=500, turns=1, reader=reader)
            return [a for t in history.turns for a in t.actions if a.startswith("build ")]

        assert await logged(game.user_of(builder)) == [f"build {tile} {island}"]
        hidden = [f"build ? {island}"]
        assert await logged(game.user_of(1 - builder)) == hidden
        assert await logged(None) == hidden  # a watcher

    asyncio.run(with_service(tmp_path, body, fast=True))
