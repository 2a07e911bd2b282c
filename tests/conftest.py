"""The whole suite: Nim, the game that lives only in the tests, joins the registries.

The markers that select (``-m``) are given here by path, so the test files stay as they are
(D169): ``postgres``, ``e2e``, ``slow`` and ``serial`` (timing-sensitive: ./scripts/test runs
them after the others, in one process). By default the strong computer searches a tiny budget
(``small_search``); a test about the search itself is marked ``real_search``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from bot.service import thinking
from engine import games
from engine.contract import Budget, ComputerPlayer
from tests.backends import BACKENDS, URL_ENV, drop_templates, server_url, use_backend
from tests.nim import register

register()


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Tests that use the ``backend`` fixture run once per backend (tests/backends.py)."""
    if "backend" in metafunc.fixturenames:
        only = metafunc.definition.get_closest_marker("sqlite_only")
        metafunc.parametrize("backend", ("sqlite",) if only else BACKENDS, indirect=True)


#: Set by .ci/run: in CI nothing may be skipped for want of a part (PostgreSQL, Chromium).
REQUIRE_ALL = "HIMIKO_REQUIRE_ALL"


#: The markers of the suite, with what each means.
MARKERS = {
    "sqlite_only": "the test is about SQLite itself",
    "postgres": "runs on the PostgreSQL server (the [postgres] variants, the server's own tests)",
    "e2e": "end to end: the real client against the Discord double, or python -m bot",
    "slow": "takes more than about 5 s on its own",
    "serial": "timing-sensitive: run alone, not beside other tests (xdist)",
    "real_search": "the strong computer searches its real budget, not the tests' tiny one",
    "fresh_database": "the test's databases start empty, not as a migrated template's copy",
}

#: Node id prefixes of the end-to-end tests.
E2E = ("tests/e2e/", "tests/discord_double_selftest/")

#: Node id prefixes of tests that take more than about 5 s (the baseline's durations).
SLOW = (
    "tests/e2e/test_honest_results.py",
    "tests/e2e/test_shards.py",
    "tests/e2e/test_readable_results.py",
    "tests/e2e/test_reminder_kill.py",
    "tests/e2e/test_namiji.py",
    "tests/e2e/test_kill_pictures.py",
    "tests/e2e/test_recovery.py",
    "tests/e2e/test_coach.py",
    "tests/e2e/test_process.py",
    "tests/e2e/test_stop.py",
    "tests/e2e/test_hung_worker.py",
    "tests/engine/namiji/test_direction.py::test_the_computer_players_finish_a_reversed_game",
    "tests/engine/yamatai/test_random_play.py",
    "tests/league/test_season.py",
    "tests/league/test_recovery.py",
    "tests/league/test_league_machine.py",
    "tests/bot/test_service.py::test_an_away_players_turns_are_each_posted_once",
    "tests/test_benchmarks.py",
    "tests/web/test_browser.py",
    "tests/web/test_demo.py",
    "tests/store/test_store_crash.py",
    "tests/test_package.py",
    "tests/image/",
)

#: Node id prefixes of tests that must not share the CPU with others (D189): they bound a time
#: (a worker's patience, the admission gate's estimate of a wait, a server's timeout, the time
#: a picture takes) or count worker processes or their priority. The tests that only run
#: ``python -m bot`` (or a writer) as a process, kill or stop it and wait for a condition run
#: beside the others; so do the image's (tests/image, their own lane in ./scripts/test, D189)
#: and the wheel's (tests/test_package.py builds from a copy of the tree, once per run, D235).
SERIAL = (
    "tests/e2e/test_hung_worker.py",  # a think worker's 1 s of patience
    "tests/e2e/test_recovery.py",  # a lock held past the store's busy timeout (1 s there)
    "tests/e2e/test_admission.py",  # the gate's measured waits and 0.2 s to answer
    "tests/bot/test_admission_estimate.py",
    "tests/bot/test_admission_workers.py",  # worker priority, counted workers
    "tests/bot/test_worker_pool.py",  # patience
    "tests/bot/test_think_pool.py",
    "tests/bot/test_render_pool.py",
    "tests/web/test_protocol.py",  # a 0.3 s request timeout
    "tests/ops/test_watchdog.py",  # pings within the watchdog's interval
    # systemd's notifications within the watchdog's interval, python -m bot's start and stop
    # (its "not exited 30 s after SIGINT" beside other tests was the test no longer reading the
    # notify socket while the bot's send waited for room: both fixed, D295 and D298)
    "tests/e2e/test_metrics_process.py",
    # the load benchmark's tiny run: no command refused (busy) at its rate; the other
    # benchmark tests count and parse, and run beside the others (D235)
    "tests/test_benchmarks.py::test_the_load_benchmark_prints_its_refusals_verify_and_messages_posted_twice",
)

#: Tests about the real search (its budget, its answers).
REAL_SEARCH = ("tests/bot/test_think_pool.py", "tests/engine/test_search.py")

#: Tests that migrate to an older version, or count what was applied: empty databases.
FRESH_DATABASE = (
    "tests/store/test_store_migrate.py",
    "tests/store/test_store_postgres.py",
    "tests/store/test_store_schema.py",
    "tests/store/test_store_outbox.py",
    "tests/store/test_store_computer_level.py",
    "tests/store/test_store_league_names.py",
    "tests/store/test_store_time_bank.py",
    "tests/bot/test_turn_identity.py",
)

#: Tests that need the PostgreSQL server whatever their parameters.
POSTGRES = ("tests/store/test_store_postgres.py",)

_BY_PATH = {
    "e2e": E2E,
    "slow": SLOW,
    "serial": SERIAL,
    "real_search": REAL_SEARCH,
    "fresh_database": FRESH_DATABASE,
    "postgres": POSTGRES,
}


def pytest_configure(config: pytest.Config) -> None:
    """Register the suite's markers; in CI, insist on every real part."""
    for name, meaning in MARKERS.items():
        config.addinivalue_line("markers", f"{name}: {meaning}")
    if os.environ.get(REQUIRE_ALL):
        chromium = Path(os.environ.get("HIMIKO_CHROMIUM", "/usr/bin/chromium"))
        missing = [
            name
            for name, there in (("PostgreSQL", server_url()), ("Chromium", chromium.exists()))
            if not there
        ]
        if missing:
            raise pytest.UsageError(f"{REQUIRE_ALL} is set but {', '.join(missing)} is missing")


def markers_of(nodeid: str, backend: object = None) -> list[str]:
    """The markers the suite gives the test ``nodeid`` by its path (and its backend)."""
    names = [m for m, prefixes in _BY_PATH.items() if nodeid.startswith(prefixes)]
    if backend == "postgres" and "postgres" not in names:
        names.append("postgres")
    return names


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the collected tests by path (``-m`` then selects among them)."""
    for item in items:
        callspec = getattr(item, "callspec", None)
        backend = callspec.params.get("backend") if callspec is not None else None
        for name in markers_of(item.nodeid, backend):
            item.add_marker(name)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Remove this process's template databases."""
    drop_templates()


#: The strong computer's budget per decision in the tests (unless ``real_search``): the
#: search's code runs as in play, with a fraction of its samples.
SMALL_SEARCH = Budget(iterations=4, determinizations=2, candidates=3, turns=1)


@pytest.fixture(autouse=True)
def small_search(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """The strong computer searches a tiny budget in this process (not in spawned ones): the
    bot's (``thinking.game_budget``) and the engine's when no budget is given."""
    if request.node.get_closest_marker("real_search") is not None:
        return
    real = thinking.game_budget
    real_player = games.computer_player

    def small_player(
        game: str, level: str | None = None, budget: Budget | None = None
    ) -> ComputerPlayer:
        if budget is None and level in ("strong", games.rules_for(game).levels["strong"]):
            budget = SMALL_SEARCH
        return real_player(game, level, budget)

    monkeypatch.setattr(games, "computer_player", small_player)

    def small(game: str, seconds: float, iterations: int | None = None) -> Budget:
        budget = real(game, seconds, iterations)
        return replace(
            budget,
            iterations=min(budget.iterations, SMALL_SEARCH.iterations),
            determinizations=min(budget.determinizations, SMALL_SEARCH.determinizations),
            candidates=min(budget.candidates, SMALL_SEARCH.candidates),
            turns=SMALL_SEARCH.turns,
            turns_per_seat=0,
        )

    monkeypatch.setattr(thinking, "game_budget", small)


@pytest.fixture
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The backend of this run of the test; ``database(tmp_path, name)`` follows it."""
    kind = str(request.param)
    if kind == "postgres" and server_url() is None:
        pytest.skip(f"no PostgreSQL server: set {URL_ENV} (./scripts/test starts one)")
    fresh = request.node.get_closest_marker("fresh_database") is not None
    with use_backend(kind, tmp_path, fresh=fresh):
        yield kind
