"""Pictures off the event loop (issue 16): the process pool, a dead worker, the picture cache,
and which plays draw a picture."""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
import pickle
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from bot.service import Rooms, build_rooms
from bot.service.pictures import PictureCache, Pictures, picture_key, render_picture
from bot.settings import SettingsError, load_settings
from bot.store import open_store
from bot.workers.render_pool import RenderPool, default_processes
from bot.workers.worker_pool import die_with_parent
from engine import games
from render.extras import Extras
from tests.backends import database
from tests.stopped import alive, gone, let_go, worker_process_id

from .pool_work import doubled, drawer_dies_in_a_worker, drawer_pid, warm_at_this_priority
from .support import ANN, BO, play_whole_turn, two_player_game

PNG = b"\x89PNG"
#: The warmer of the pools whose tests are about the pool, not about its warm-up (that is
#: ``test_workers_draw_the_same_picture_as_the_process``'s): it only ties each worker to this
#: process; a worker starts in a fraction of the second the bot's warmer takes to draw a board
#: per game, and runs at this process's priority (D294).
LIGHT = die_with_parent


def _view() -> dict[str, Any]:
    return games.new("yamatai", ["Ann", "Bo"], seed=3).view(None)


def test_closing_the_pool_stops_its_workers() -> None:
    """Pictures are drawn in another process, which is gone once the pool is closed."""

    async def body() -> int:
        pool = RenderPool(1, drawer_pid, warm=LIGHT)
        await pool.start()
        pid = int(await pool.draw(_view(), None))
        await pool.close()
        return pid

    pid = asyncio.run(body())
    assert pid != os.getpid()
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def test_workers_draw_the_same_picture_as_the_process() -> None:
    """A warmed worker's picture is byte for byte the one drawn here (the bot's warm-up, at
    this process's priority)."""

    async def body() -> bytes:
        pool = RenderPool(1, render_picture, warm=warm_at_this_priority)
        await pool.start()
        try:
            return await pool.draw(_view(), None)
        finally:
            await pool.close()

    assert asyncio.run(body()) == render_picture(_view(), None)


def test_a_dead_worker_costs_one_retry_in_process(caplog: pytest.LogCaptureFixture) -> None:
    """The picture is still drawn (in-process), logged, and the pool works again after."""

    async def body() -> tuple[bytes, bytes, int]:
        pool = RenderPool(1, drawer_dies_in_a_worker, warm=LIGHT)
        await pool.start()
        try:
            first = await pool.draw(_view(), None)
            second = await pool.draw(_view(), None)
            return first, second, pool.crashes
        finally:
            await pool.close()

    with caplog.at_level(logging.WARNING, logger="bot.workers.render_pool"):
        first, second, crashes = asyncio.run(body())
    assert first == second == b"\x89PNG drawn in-process"
    assert crashes == 2  # every draw of this drawer kills its worker; each is retried once
    assert "a worker died" in caplog.text


def test_no_processes_draws_in_a_thread() -> None:
    """RENDER_PROCESSES=0: the drawer runs in a thread of this process (here it is not killed)."""

    async def body() -> bytes:
        pool = RenderPool(0, drawer_dies_in_a_worker)
        await pool.start()
        png = await pool.draw(_view(), None)
        await pool.close()
        return png

    assert asyncio.run(body()) == b"\x89PNG drawn in-process"


def test_call_runs_any_function_in_a_worker_or_a_thread() -> None:
    """``call`` (the recap's way into the pool) runs a module-level function by name."""

    async def body() -> None:
        pool = RenderPool(1, render_picture, warm=LIGHT)
        await pool.start()
        try:
            assert await pool.call(doubled, 21) == (42, True)
        finally:
            await pool.close()
        assert await RenderPool(0, render_picture).call(doubled, 4) == (8, False)

    asyncio.run(body())


def test_render_processes_setting() -> None:
    """RENDER_PROCESSES: a count (0: a thread); by default the CPU count less one, 1 to 4."""
    env = {"DISCORD_TOKEN": "x"}
    assert load_settings({**env, "RENDER_PROCESSES": "0"}, None).render_processes == 0
    assert load_settings({**env, "RENDER_PROCESSES": "3"}, None).render_processes == 3
    assert load_settings(env, None).render_processes == default_processes()
    assert [default_processes(n) for n in (1, 2, 3, 8, 64)] == [1, 1, 2, 4, 4]
    for bad in ("-1", "two", "65"):
        with pytest.raises(SettingsError, match="RENDER_PROCESSES"):
            load_settings({**env, "RENDER_PROCESSES": bad}, None)


def test_picture_cache_keeps_the_recent_ones() -> None:
    """Least recently used pictures go first; the key changes with anything drawn."""
    cache = PictureCache(size=2)
    cache.put("a", b"1")
    cache.put("b", b"2")
    assert cache.get("a") == b"1"
    cache.put("c", b"3")
    assert cache.get("b") is None and cache.get("a") == b"1" and cache.get("c") == b"3"
    view = _view()
    keys = {
        picture_key(view, None),
        picture_key(view, [{"type": "fleet"}]),
        picture_key(view, None, None, Extras(computer_played=True)),
        picture_key(view, None, None, Extras(stand_ins=((1, "away"),))),
        picture_key(view, None, ("fleet 4",), Extras()),
        picture_key(view, None, None, Extras(language="fr")),
    }
    assert len(keys) == 6
    # the view of a game read back from its snapshot has the key of the same view played
    # in memory (equal values, equal key, whichever objects they share)
    match = games.new("yamatai", ["Ann", "Bo"], seed=3)
    match.play(match.legal_actions()[0], seat=match.current_seat)
    again = games.from_json(match.to_json())
    for seat in (None, 0, 1):
        assert picture_key(again.view(seat), None, None, Extras()) == picture_key(
            match.view(seat), None, None, Extras()
        )


class CallRecorder(RenderPool):
    """A pool in a thread that records what each call is sent."""

    def __init__(self) -> None:
        super().__init__(0, render_picture)
        self.calls: list[tuple[object, ...]] = []

    async def call(self, function: Any, *args: object) -> Any:
        """Record the call, then run it."""
        self.calls.append((function, *args))
        return await super().call(function, *args)


def test_a_picture_is_serialized_once_for_its_key_and_its_worker() -> None:
    """The bytes a picture's key is hashed from are the bytes sent to the worker (D133): the
    view is not encoded for the key and pickled again for the worker."""
    pool = CallRecorder()
    pictures = Pictures(pool)
    view = _view()
    order = pictures.order(view, None, None, None, stand_ins={1: "away"})
    png = asyncio.run(pictures.draw(order))
    assert png.startswith(PNG)
    [call] = pool.calls
    assert len(call) == 3 and call[1] is render_picture, call[:2]  # (its function, drawer, bytes)
    payload = call[2]
    assert isinstance(payload, bytes)
    assert hashlib.blake2b(payload, digest_size=16).hexdigest() == order.key
    assert pickle.loads(payload) == (view, None, order.legal, order.extras)
    assert asyncio.run(pictures.draw(order)) == png and len(pool.calls) == 1  # from the cache


class Recorder:
    """A renderer that records the views it is asked to draw."""

    def __init__(self) -> None:
        self.views: list[Any] = []
        self.more: list[tuple[object, ...]] = []  # the drawer's further arguments, per picture

    def __call__(
        self,
        view: dict[str, Any],
        events: Sequence[dict[str, Any]] | None,
        legal: Sequence[str] | None,
        extras: Extras,
    ) -> bytes:
        self.views.append(view)
        self.more.append((legal, extras))
        return b"\x89PNG recorded"


def _service_run(tmp_path: Path, body: Any) -> Recorder:
    recorder = Recorder()

    async def run() -> None:
        repo = await open_store(database(tmp_path, "games.sqlite3"))
        try:
            await body(build_rooms(repo, renderer=recorder, seed_source=lambda: 7), recorder)
        finally:
            await repo.close()

    asyncio.run(run())
    return recorder


@pytest.mark.usefixtures("backend")
def test_which_plays_draw_a_picture(tmp_path: Path) -> None:
    """A single action draws nothing before its answer, its order then the player's own picture
    (D100); a completed turn draws nothing before its answer, then one public picture and no
    private one; the same board asked again is not drawn again."""

    async def body(rooms: Rooms, recorder: Recorder) -> None:
        created = await two_player_game(rooms)
        assert len(recorder.views) == 1  # the opening picture
        game = await rooms.desk.repo.load_game(created.game_id)
        match = games.from_json(game.snapshot)
        user = created.first.user_id or 0
        result = await rooms.playing.play(user, match.legal_actions()[0], thread_id=500)
        assert result.turn is None and len(recorder.views) == 1 and result.picture_order
        await rooms.pictures.draw(result.picture_order)
        assert len(recorder.views) == 2 and recorder.views[-1]["viewer"] == created.first.seat
        recorder.views.clear()
        turn = await play_whole_turn(rooms, created.game_id)
        assert turn.turn is not None and turn.turn.picture_order is not None
        assert recorder.views == [] and turn.picture is None  # it follows the words (D89)
        await rooms.reports.draw_picture(turn.turn.picture_order)
        assert len(recorder.views) == 1  # then the public picture only
        recorder.views.clear()
        first = await rooms.reading.board(None, thread_id=500, public=True)
        drawn = len(recorder.views)
        other = BO if user == ANN else ANN
        again = await rooms.reading.board(other, thread_id=500, public=True)
        assert first.picture == again.picture
        assert len(recorder.views) == drawn <= 1  # asked again: from the cache

    _service_run(tmp_path, body)


@pytest.mark.usefixtures("backend")
def test_stand_ins_go_to_the_picture_as_arguments(tmp_path: Path) -> None:
    """A seat the computer plays for its human: the board is drawn with that stand-in as an
    argument of the drawer (and cached by it), the engine's view as it is, without bot keys."""

    async def body(rooms: Rooms, recorder: Recorder) -> None:
        created = await two_player_game(rooms)
        recorder.more.clear()
        await rooms.reading.board(None, thread_id=500, public=True)
        assert recorder.more == [(None, Extras())]
        await rooms.desk.repo.set_stand_in(created.game_id, 1, "away", now=rooms.desk.now())
        await rooms.reading.board(None, thread_id=500, public=True)  # drawn again, not the cached
        assert recorder.more[1:] == [(None, Extras(stand_ins=((1, "away"),)))]
        assert recorder.views[-1] == recorder.views[-2]  # the engine's view, no bot keys

    _service_run(tmp_path, body)


def test_the_drawer_tells_the_stand_ins() -> None:
    """``render_picture`` passes the stand-ins and the computer's turn on to the picture."""
    view = games.new("yamatai", ["Ann", "Bo"], 3).view(None)
    plain = render_picture(view, None)
    assert render_picture(view, None, None, Extras(stand_ins=((1, "away"),))) != plain
    assert render_picture(view, None, None, Extras(computer_played=False)) == plain


POOL_OWNER = """
import asyncio, os
from bot.workers.render_pool import RenderPool

async def main() -> None:
    pool = RenderPool(1, bytes)  # the bot's warmer; no picture is drawn
    await pool.start()
    pid = await asyncio.get_running_loop().run_in_executor(pool._executor, os.getpid)
    print(pid, flush=True)
    await asyncio.sleep(120)

asyncio.run(main())
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_workers_die_with_a_killed_bot() -> None:
    """A bot killed by SIGKILL leaves no worker behind (it would hold the bot's output open)."""
    import signal
    import subprocess
    import time

    owner = subprocess.Popen(
        [sys.executable, "-c", POOL_OWNER],
        stdout=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    try:
        assert owner.stdout is not None
        worker = int(owner.stdout.readline())
        assert alive(worker)
        owner.send_signal(signal.SIGKILL)
        owner.wait(30)
        for _ in range(300):  # a bound, not a speed: the kernel signals the worker at once
            if not alive(worker):
                break
            time.sleep(0.1)
        assert not alive(worker)
    finally:
        owner.kill()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_stopped_worker_costs_one_picture_in_process(caplog: pytest.LogCaptureFixture) -> None:
    """SIGSTOP the render worker (issue 35 item 2, D150): the picture waiting on it is drawn
    in-process once the worker has been silent for the pool's patience; the stopped worker is
    killed and the next picture is drawn by a new one."""
    import signal

    async def body() -> tuple[int, bytes, int, int]:
        pool = RenderPool(1, drawer_pid, patience=1.0, warm=LIGHT)
        await pool.start()
        stopped = await worker_process_id(lambda: pool.draw(_view(), None))
        before = pool.hangs  # a picture drawn here while finding a worker (a loaded machine)
        try:
            os.kill(stopped, signal.SIGSTOP)
            here = await pool.draw(_view(), None)
            await gone(stopped)
            fresh = int(await pool.draw(_view(), None))
            return stopped, here, fresh, pool.hangs - before
        finally:
            let_go(stopped)
            await pool.close()

    with caplog.at_level(logging.WARNING, logger="bot.workers.render_pool"):
        stopped, here, fresh, hangs = asyncio.run(asyncio.wait_for(body(), 60))
    assert here == str(os.getpid()).encode() and hangs == 1
    assert not alive(stopped)
    assert fresh not in (stopped, os.getpid())
    assert "render pool: a worker gave no sign of life for 1 s" in caplog.text
