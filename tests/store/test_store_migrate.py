"""Migration runner: from empty, from every earlier version, and every refusal."""

from __future__ import annotations

import shutil
import sqlite3
import threading
from pathlib import Path
from typing import cast

import pytest

from bot.store import GameRepository, MigrationError, open_store
from bot.store.migrate import (
    DEFAULT_MIGRATIONS_DIR,
    discover,
    migrate_database,
    require_current,
    split_statements,
)
from bot.store.sqlite import SqliteBackend
from tests.store.store_helpers import REPO_ROOT, raw, run, schema_dump, store_cli


def write(directory: Path, files: dict[str, str]) -> Path:
    """Write migration files into a directory; return it."""
    directory.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (directory / name).write_text(text, encoding="utf-8")
    return directory


def test_project_migrations_are_numbered_from_0001() -> None:
    migrations = discover()
    assert [m.version for m in migrations] == list(range(1, len(migrations) + 1))
    assert migrations[0].label == "0001_initial"


def test_migrate_from_empty_creates_schema_in_wal_mode(tmp_path: Path) -> None:
    db = tmp_path / "sub" / "himiko.sqlite3"
    report = migrate_database(db)
    latest = len(discover())
    assert (report.before, report.after) == (0, latest)
    assert report.applied[0] == "0001_initial"
    conn = raw(db)
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"games", "seats", "actions", "snapshots"} <= tables
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()
    again = migrate_database(db)
    assert again.applied == () and again.after == latest


def test_store_connections_have_foreign_keys_and_busy_timeout(tmp_path: Path) -> None:
    async def main() -> tuple[int, int, str]:
        repo = await open_store(tmp_path / "db.sqlite3")
        try:
            backend = cast(SqliteBackend, repo._db)
            conn = backend.writer
            fk = await (await conn.execute("PRAGMA foreign_keys")).fetchone()
            busy = await (await conn.execute("PRAGMA busy_timeout")).fetchone()
            mode = await (await backend.reader.execute("PRAGMA journal_mode")).fetchone()
            assert fk is not None and busy is not None and mode is not None
            return int(fk[0]), int(busy[0]), str(mode[0])
        finally:
            await repo.close()

    fk, busy, mode = run(main())
    assert fk == 1 and busy > 0 and mode == "wal"


def test_from_every_earlier_version_matches_from_empty(tmp_path: Path) -> None:
    migrations = discover()
    fresh = tmp_path / "fresh.sqlite3"
    migrate_database(fresh)
    expected = schema_dump(fresh)
    for k in range(len(migrations)):
        partial_dir = tmp_path / f"first{k}"
        partial_dir.mkdir()
        for m in migrations[:k]:
            shutil.copy(m.path, partial_dir / m.path.name)
        db = tmp_path / f"from{k}.sqlite3"
        if k:
            assert migrate_database(db, partial_dir).after == k
        else:
            sqlite3.connect(db).close()
        report = migrate_database(db)
        assert (report.before, report.after) == (k, len(migrations))
        assert schema_dump(db) == expected


def test_runner_applies_in_order_one_transaction_each(tmp_path: Path) -> None:
    d = write(
        tmp_path / "m",
        {
            "0001_a.sql": "CREATE TABLE a (x INTEGER);",
            "0002_b.sql": "-- note; with a semicolon\nCREATE TABLE b (y TEXT DEFAULT ';');\n"
            "INSERT INTO b (y) VALUES ('it''s; fine');",
            "README.md": "not a migration",
        },
    )
    db = tmp_path / "db.sqlite3"
    assert migrate_database(db, d).applied == ("0001_a", "0002_b")
    conn = raw(db)
    assert conn.execute("SELECT y FROM b").fetchall() == [("it's; fine",)]
    conn.close()
    write(d, {"0003_c.sql": "ALTER TABLE a ADD COLUMN z INTEGER;"})
    report = migrate_database(db, d)
    assert (report.before, report.after, report.applied) == (2, 3, ("0003_c",))


def test_failing_migration_changes_nothing(tmp_path: Path) -> None:
    d = write(tmp_path / "m", {"0001_a.sql": "CREATE TABLE a (x INTEGER);"})
    db = tmp_path / "db.sqlite3"
    migrate_database(db, d)
    write(
        d,
        {
            "0002_bad.sql": "CREATE TABLE b (y INTEGER);\nINSERT INTO a (x) VALUES (1);\n"
            "INSERT INTO missing_table VALUES (1);"
        },
    )
    with pytest.raises(MigrationError, match="0002_bad: statement 3 failed"):
        migrate_database(db, d)
    conn = raw(db)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 1
    names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    assert "b" not in names
    assert conn.execute("SELECT COUNT(*) FROM a").fetchone()[0] == 0
    conn.close()


def test_migration_leaving_foreign_key_violations_is_refused(tmp_path: Path) -> None:
    d = write(
        tmp_path / "m",
        {
            "0001_a.sql": "CREATE TABLE p (id INTEGER PRIMARY KEY);\n"
            "CREATE TABLE c (p_id INTEGER REFERENCES p (id));\n"
            "INSERT INTO c (p_id) VALUES (42);"
        },
    )
    db = tmp_path / "db.sqlite3"
    with pytest.raises(MigrationError, match="foreign key"):
        migrate_database(db, d)
    assert schema_dump(db) == [("user_version", "0", "")]


@pytest.mark.parametrize(
    ("files", "message"),
    [
        ({"0001_a.sql": "SELECT 1;", "0003_c.sql": "SELECT 1;"}, "0002 is missing"),
        ({"0002_b.sql": "SELECT 1;"}, "0001 is missing"),
        ({"0001_a.sql": "SELECT 1;", "0001_b.sql": "SELECT 1;"}, "duplicate migration number 0001"),
        ({"1_a.sql": "SELECT 1;"}, "must be named NNNN_name.sql"),
        ({"0001_A.sql": "SELECT 1;"}, "must be named NNNN_name.sql"),
        ({"0001_a.sql": "BEGIN;\nCREATE TABLE a (x INTEGER);\nCOMMIT;"}, "transactions"),
        ({"0001_a.sql": "PRAGMA user_version = 5;"}, "user_version"),
        ({"0001_a.sql": "CREATE TABLE a (x INTEGER)"}, "not terminated"),
        ({"0001_a.sql": "-- only a comment\n"}, "no SQL statements"),
    ],
)
def test_bad_migration_sets_are_refused(
    tmp_path: Path, files: dict[str, str], message: str
) -> None:
    d = write(tmp_path / "m", files)
    with pytest.raises(MigrationError, match=message):
        discover(d)
    db = tmp_path / "db.sqlite3"
    with pytest.raises(MigrationError):
        migrate_database(db, d)
    assert not db.exists()


def test_trigger_bodies_are_one_statement() -> None:
    sql = (
        "CREATE TABLE t (x INTEGER);\n"
        "CREATE TRIGGER t_ins AFTER INSERT ON t BEGIN\n"
        "  UPDATE t SET x = x + 1 WHERE rowid = new.rowid;\n"
        "END;\n"
    )
    statements = split_statements(sql)
    assert len(statements) == 2
    assert statements[1].endswith("END;")


def test_database_newer_than_code_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    migrate_database(db)
    latest = len(discover())
    conn = raw(db)
    conn.execute(f"PRAGMA user_version = {latest + 1}")
    conn.close()
    before = schema_dump(db)
    with pytest.raises(MigrationError, match="newer than this code"):
        run(open_store(db))
    with pytest.raises(MigrationError, match="newer than this code"):
        require_current(db)
    result = store_cli("migrate", "--db", str(db))
    assert result.returncode == 2
    assert "error [migration_error]" in result.stderr and "newer" in result.stderr
    assert schema_dump(db) == before


def test_connect_without_migrating_refuses_an_old_database(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    sqlite3.connect(db).close()
    with pytest.raises(MigrationError, match="older than this code"):
        run(GameRepository.connect(db))


def test_two_processes_migrating_at_once_both_succeed(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    errors: list[BaseException] = []

    def go() -> None:
        try:
            migrate_database(db)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=go) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert schema_dump(db)[0] == ("user_version", str(len(discover())), "")


def test_cli_migrate(tmp_path: Path) -> None:
    db = tmp_path / "new.sqlite3"
    first = store_cli("migrate", "--db", str(db))
    assert first.returncode == 0, first.stderr
    assert "schema version 0 -> " in first.stdout and "applied 0001_initial" in first.stdout
    second = store_cli("migrate", "--db", str(db))
    assert second.returncode == 0 and "up to date" in second.stdout


def test_default_migrations_dir_is_the_repository_one() -> None:
    assert DEFAULT_MIGRATIONS_DIR == REPO_ROOT / "migrations"
