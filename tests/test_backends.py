"""The test loop's own parts: template databases, the markers given by path, the tiny search."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.service import thinking
from bot.store import MigrationError
from bot.store.migrate import (
    discover,
    require_current,
    require_current_postgres,
)
from engine.yamatai.search import BUDGET
from tests.backends import (
    TEMPLATE_PREFIX,
    admin,
    blocking,
    current_kind,
    database,
    drop_databases,
    postgres_template,
    stale_templates,
)

pytestmark = pytest.mark.usefixtures("backend")


def schema_version(target: Path | str) -> int:
    """The schema version of the test's database (raises if it is not the newest)."""
    if isinstance(target, Path):
        return require_current(target)
    return blocking(require_current_postgres(target))


def test_a_tests_database_starts_at_the_newest_migration(tmp_path: Path) -> None:
    """A database asked for is a migrated copy of the template, at the newest version."""
    assert schema_version(database(tmp_path)) == len(discover())


def test_each_name_is_its_own_copy(tmp_path: Path) -> None:
    """Two databases of one test are two copies, each migrated."""
    first, second = database(tmp_path, "a.sqlite3"), database(tmp_path, "b.sqlite3")
    assert first != second
    assert schema_version(first) == schema_version(second) == len(discover())


@pytest.mark.fresh_database
def test_a_fresh_database_test_starts_empty(tmp_path: Path) -> None:
    """A test marked fresh_database gets a database without any migration."""
    target = database(tmp_path)
    if isinstance(target, Path):
        assert not target.exists()
    else:
        with pytest.raises(MigrationError, match="older than this code"):
            schema_version(target)


def test_the_postgres_variant_is_marked_postgres(request: pytest.FixtureRequest) -> None:
    """The [postgres] variants carry the postgres marker (what --quick deselects)."""
    marked = request.node.get_closest_marker("postgres") is not None
    assert marked == (current_kind() == "postgres")
    if marked:
        assert postgres_template().startswith("himiko_tpl_")


@pytest.mark.sqlite_only
def test_the_strong_search_is_tiny_by_default() -> None:
    """Outside real_search tests the strong computer searches a few samples."""
    budget = thinking.game_budget("yamatai", 1.0)
    assert (budget.iterations, budget.determinizations, budget.turns) == (4, 2, 1)
    assert budget.deadline is not None


@pytest.mark.sqlite_only
@pytest.mark.real_search
def test_a_real_search_test_keeps_the_games_budget() -> None:
    """A test marked real_search sees the game's own budget."""
    budget = thinking.game_budget("yamatai", 1.0)
    assert budget.iterations == BUDGET.iterations
    assert budget.determinizations == BUDGET.determinizations


def test_a_template_left_by_a_killed_run_is_dropped(tmp_path: Path) -> None:
    """A template whose test process is gone (killed before its end) is dropped by the next."""
    if current_kind() != "postgres":
        pytest.skip("PostgreSQL's templates")
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    name = f"{TEMPLATE_PREFIX}left_{dead.pid}"
    admin(f'CREATE DATABASE "{name}" TEMPLATE template0')
    try:
        assert name in blocking(stale_templates())
        assert postgres_template() not in blocking(stale_templates())  # this process's lives
    finally:
        drop_databases([name])
