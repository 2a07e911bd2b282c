"""PostgreSQL's own parts: the migrations' two texts, the schema, the command line, backups.

The repository's behaviour on PostgreSQL is tested by the store, service and e2e suites, which
run on both backends (tests/backends.py).
"""

from __future__ import annotations

import asyncio
import random
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import asyncpg
import pytest

from bot.store import MigrationError, open_store
from bot.store.migrate import (
    DEFAULT_MIGRATIONS_DIR,
    discover,
    migrate_postgres,
    postgres_migrations,
)
from bot.store.postgres import placeholders, redact
from tests.backends import create_database, drop_databases, server_url, url_of
from tests.store.store_helpers import create_engine_game, play_turns, run, store_cli


@pytest.fixture
def pg() -> Iterator[list[str]]:
    """Fresh PostgreSQL databases on demand (``url_of(create(pg))``), dropped afterwards."""
    if server_url() is None:
        pytest.skip("no PostgreSQL server: set HIMIKO_TEST_POSTGRES_URL (./scripts/test does)")
    names: list[str] = []
    yield names
    drop_databases(names)


def new_url(names: list[str]) -> str:
    """A new empty database's URL, dropped with the test."""
    names.append(create_database())
    return url_of(names[-1])


# -- the migrations' two texts (no server needed) ------------------------------------------------


def test_postgresql_runs_its_own_text_where_there_is_one_else_the_shared_file() -> None:
    shared = discover()
    on_postgres = postgres_migrations()
    assert [m.label for m in on_postgres] == [m.label for m in shared]
    for lite, pg in zip(shared, on_postgres, strict=True):
        own = DEFAULT_MIGRATIONS_DIR / "postgres" / lite.path.name
        assert pg.path == (own if own.exists() else lite.path)
        if not own.exists():
            assert pg.statements == lite.statements


def test_a_postgresql_file_must_stand_for_a_shared_one(tmp_path: Path) -> None:
    for migration in discover():
        shutil.copy(migration.path, tmp_path / migration.path.name)
    (tmp_path / "postgres").mkdir()
    (tmp_path / "postgres" / "0099_orphan.sql").write_text("SELECT 1;\n")
    with pytest.raises(MigrationError, match="stands for no migration"):
        postgres_migrations(tmp_path)


def test_placeholders_number_parameters_outside_strings_and_comments() -> None:
    sql = "SELECT '?', \"a?\" FROM t -- why?\nWHERE a = ? AND b = ? /* ? */"
    assert placeholders(sql) == (
        "SELECT '?', \"a?\" FROM t -- why?\nWHERE a = $1 AND b = $2 /* ? */"
    )


def test_redact_hides_the_password() -> None:
    assert redact("postgresql://bot:s3cret@db:5432/himiko") == "postgresql://bot:***@db:5432/himiko"
    assert redact("postgresql://bot@db/himiko") == "postgresql://bot@db/himiko"


# -- against a server ----------------------------------------------------------------------------


def columns_sqlite(db: Path) -> dict[str, set[str]]:
    """Table -> column names of a SQLite database."""
    conn = sqlite3.connect(db)
    try:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        return {t: {r[1] for r in conn.execute(f"PRAGMA table_info({t})")} for t in tables}
    finally:
        conn.close()


async def columns_postgres(url: str) -> tuple[dict[str, set[str]], set[str]]:
    """Table -> column names, and index names, of a PostgreSQL database."""
    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch(
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = current_schema()"
        )
        indexes = await conn.fetch("SELECT indexname FROM pg_indexes WHERE schemaname = 'public'")
    finally:
        await conn.close()
    tables: dict[str, set[str]] = {}
    for table, column in rows:
        tables.setdefault(table, set()).add(column)
    return tables, {r[0] for r in indexes}


def test_both_schemas_have_the_same_tables_columns_and_named_indexes(
    tmp_path: Path, pg: list[str]
) -> None:
    url = new_url(pg)
    result = store_cli("migrate", "--db", url)
    assert result.returncode == 0, result.stderr
    assert f"schema version 0 -> {len(discover())}" in result.stdout
    again = store_cli("migrate", "--db", url)
    assert f"up to date at schema version {len(discover())}" in again.stdout
    db = tmp_path / "db.sqlite3"
    assert store_cli("migrate", "--db", db).returncode == 0
    tables, indexes = run(columns_postgres(url))
    assert tables.pop("schema_version") == {"id", "version"}
    assert tables == columns_sqlite(db)
    conn = sqlite3.connect(db)
    named = {
        r[0]
        for r in conn.execute("SELECT name FROM sqlite_master WHERE type='index' AND sql NOT NULL")
    }
    conn.close()
    assert named <= indexes


def test_two_processes_migrating_at_once_both_succeed(pg: list[str]) -> None:
    url = new_url(pg)

    async def both() -> list[str]:
        reports = await asyncio.gather(migrate_postgres(url), migrate_postgres(url))
        assert all(r.after == len(discover()) for r in reports)
        return sorted(label for r in reports for label in r.applied)

    assert run(both()) == [m.label for m in discover()]  # each exactly once


def test_identity_continues_after_a_table_rebuild(tmp_path: Path, pg: list[str]) -> None:
    """A later migration that copies a table keeps its ids; new rows continue after them."""
    shutil.copytree(DEFAULT_MIGRATIONS_DIR, tmp_path, dirs_exist_ok=True)
    name = f"{len(discover()) + 1:04d}_rebuild_reminders.sql"
    (tmp_path / name).write_text("SELECT 1;\n")  # SQLite's text, not run here
    (tmp_path / "postgres" / name).write_text(
        "CREATE TABLE reminders_new (id BIGINT NOT NULL GENERATED BY DEFAULT AS IDENTITY"
        " PRIMARY KEY, game_id BIGINT NOT NULL, turn TEXT NOT NULL, seat BIGINT NOT NULL,"
        " user_id BIGINT NOT NULL, kind TEXT NOT NULL, due_at BIGINT NOT NULL,"
        " deadline_at BIGINT NOT NULL, claimed_until BIGINT, sent_at BIGINT, cancelled_at BIGINT,"
        " claims BIGINT NOT NULL DEFAULT 0,"
        " UNIQUE (game_id, turn, kind));\n"
        "INSERT INTO reminders_new SELECT * FROM reminders;\n"
        "DROP TABLE reminders;\n"
        "ALTER TABLE reminders_new RENAME TO reminders;\n"
    )
    url = new_url(pg)

    async def main() -> list[int]:
        repo = await open_store(url)
        try:
            game, _ = await create_engine_game(repo, 1, 5)
            await repo.schedule_turn(
                game.id,
                turn="1.0",
                seat=0,
                user_id=100,
                deadline_at=9,
                reminders=[("half", 5)],
                now=1,
            )
        finally:
            await repo.close()
        repo = await open_store(url, migrations_dir=tmp_path)
        try:
            await repo.schedule_turn(
                game.id,
                turn="1.1",
                seat=1,
                user_id=101,
                deadline_at=19,
                reminders=[("half", 15)],
                now=2,
            )
            return [r.id for r in await repo.list_reminders(game.id)]
        finally:
            await repo.close()

    assert run(main()) == [1, 2]


def test_backup_and_restore_through_the_command_line(tmp_path: Path, pg: list[str]) -> None:
    url = new_url(pg)

    async def populate() -> list[tuple[int, int]]:
        repo = await open_store(url)
        try:
            rng = random.Random(3)
            for thread in (1, 2):
                game, _ = await create_engine_game(repo, thread, seed=thread)
                await play_turns(repo, game.id, rng, steps=12)
            return [((g := await repo.load_game(i)).version, g.action_count) for i in (1, 2)]
        finally:
            await repo.close()

    before = run(populate())
    dump = tmp_path / "backups" / "himiko.dump"
    backup = store_cli("backup", "--db", url, "--to", dump)
    assert backup.returncode == 0, backup.stderr
    assert dump.exists() and not dump.with_name("himiko.dump.partial").exists()

    copy = new_url(pg)
    restored = store_cli("restore", "--db", copy, "--from", dump)
    assert restored.returncode == 0, restored.stderr
    verified = store_cli("verify", "--db", copy)
    assert verified.returncode == 0 and "checked 2 games, 0 differ" in verified.stdout

    async def read_copy() -> list[tuple[int, int]]:
        repo = await open_store(copy)
        try:
            game, _ = await create_engine_game(repo, 3, seed=3)  # ids continue in the copy
            assert game.id == 3
            return [((g := await repo.load_game(i)).version, g.action_count) for i in (1, 2)]
        finally:
            await repo.close()

    assert run(read_copy()) == before
    refused = store_cli("restore", "--db", copy, "--from", dump)
    assert refused.returncode == 2 and "already has" in refused.stderr


def test_a_missing_or_unreachable_database_is_one_line_and_exit_2(pg: list[str]) -> None:
    missing = url_of("no_such_database")
    result = store_cli("verify", "--db", missing)
    assert result.returncode == 2
    assert "'no_such_database' does not exist" in result.stderr
    assert "Traceback" not in result.stderr
    wrong = "postgresql://nobody:secret@127.0.0.1:1/himiko"
    result = store_cli("migrate", "--db", wrong)
    assert result.returncode == 2 and "cannot be used" in result.stderr
    assert "secret" not in result.stderr + result.stdout
