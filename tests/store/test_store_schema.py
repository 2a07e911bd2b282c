"""Both databases end with the same schema: tables, columns, indexes and constraints.

Each migration is written for SQLite and for PostgreSQL (migrations/ and migrations/postgres/);
nothing translates one into the other, so this is what keeps the two in step. Types compare by
meaning (SQLite's INTEGER is 64-bit like PostgreSQL's BIGINT; SQLite never enforces a VARCHAR
length, so PostgreSQL's TEXT is its twin); a CHECK compares by the columns it constrains, since
the two databases print the same expression differently.
"""

from __future__ import annotations

import re
import shutil
import sqlite3
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import asyncpg
import pytest

from bot.store.migrate import DEFAULT_MIGRATIONS_DIR, discover, migrate_database, migrate_postgres
from tests.backends import create_database, drop_databases, server_url, url_of
from tests.store.store_helpers import run

#: Type names by meaning: SQLite's integers are all 64-bit, PostgreSQL's ``integer`` is 32-bit.
_SQLITE_TYPES = {"integer": "int64", "int": "int64", "bigint": "int64", "varchar": "text"}
_POSTGRES_TYPES = {"bigint": "int64", "integer": "int32", "double precision": "real"}
_POSTGRES_TYPES |= {"character varying": "varchar", "bytea": "blob"}
_CAST = re.compile(r"::[a-z ]+(\[\])?")
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_STRING = re.compile(r"'(?:[^']|'')*'")


@dataclass(frozen=True)
class Column:
    """A column as both databases can say it."""

    type: str
    not_null: bool
    default: str | None


@dataclass
class Schema:
    """What a migrated database holds, in terms both databases share."""

    columns: dict[str, dict[str, Column]]
    primary_keys: dict[str, tuple[str, ...]]
    #: name -> (table, unique, columns, partial)
    indexes: dict[str, tuple[str, bool, tuple[str, ...], bool]]
    #: table -> column tuples of its UNIQUE constraints
    uniques: dict[str, Counter[tuple[str, ...]]]
    #: table -> (columns, referenced table, referenced columns)
    foreign_keys: dict[str, Counter[tuple[tuple[str, ...], str, tuple[str, ...]]]]
    #: table -> the set of columns each CHECK constrains
    checks: dict[str, Counter[frozenset[str]]]


def _type(name: str, names: dict[str, str]) -> str:
    base = re.sub(r"\(.*\)", "", name).strip().lower()
    return names.get(base, base)


def _default(text: str | None) -> str | None:
    if text is None or text.upper() == "NULL":
        return None
    return _CAST.sub("", text).strip("()")


def _check_clauses(sql: str) -> list[str]:
    """The expressions of every CHECK in a CREATE TABLE statement."""
    clauses = []
    for match in re.finditer(r"\bCHECK\s*\(", sql, re.IGNORECASE):
        depth, at = 1, match.end()
        while depth:
            depth += {"(": 1, ")": -1}.get(sql[at], 0)
            at += 1
        clauses.append(sql[match.end() : at - 1])
    return clauses


def sqlite_schema(db: Path) -> Schema:
    """The schema of a SQLite database."""
    conn = sqlite3.connect(db)
    try:
        tables = dict(
            conn.execute(
                "SELECT name, sql FROM sqlite_master WHERE type = 'table' "
                "AND name NOT LIKE 'sqlite_%'"
            ).fetchall()
        )
        schema = Schema({}, {}, {}, {}, {}, {})
        for table, sql in tables.items():
            info = conn.execute(f"PRAGMA table_info({table})").fetchall()
            schema.columns[table] = {
                name: Column(
                    _type(kind, _SQLITE_TYPES), bool(not_null) or pk > 0, _default(default)
                )
                for _, name, kind, not_null, default, pk in info
            }
            schema.primary_keys[table] = tuple(
                name for *_, name, pk in sorted((r[5], r[1], r[5]) for r in info if r[5])
            )
            schema.uniques[table] = Counter()
            for _, name, unique, origin, partial in conn.execute(f"PRAGMA index_list({table})"):
                cols = tuple(r[2] for r in conn.execute(f"PRAGMA index_info({name})"))
                if origin == "u":
                    schema.uniques[table][cols] += 1
                elif origin == "c":
                    schema.indexes[name] = (table, bool(unique), cols, bool(partial))
            schema.foreign_keys[table] = Counter()
            for key in {r[0] for r in conn.execute(f"PRAGMA foreign_key_list({table})")}:
                rows = [r for r in conn.execute(f"PRAGMA foreign_key_list({table})") if r[0] == key]
                target = rows[0][2]
                to = tuple(r[4] for r in rows)
                if None in to:
                    to = tuple(r[1] for r in conn.execute(f"PRAGMA table_info({target})") if r[5])
                schema.foreign_keys[table][(tuple(r[3] for r in rows), target, to)] += 1
            names = set(schema.columns[table])
            schema.checks[table] = Counter(
                frozenset(w for w in _IDENTIFIER.findall(_STRING.sub("", c)) if w in names)
                for c in _check_clauses(sql)
            )
        return schema
    finally:
        conn.close()


async def postgres_schema(url: str) -> Schema:
    """The schema of a PostgreSQL database (the migrations' own bookkeeping table left out)."""
    conn = await asyncpg.connect(url)
    try:
        schema = Schema({}, {}, {}, {}, {}, {})
        for table, name, kind, nullable, default in await conn.fetch(
            "SELECT table_name, column_name, data_type, is_nullable, column_default "
            "FROM information_schema.columns WHERE table_schema = current_schema() "
            "AND table_name <> 'schema_version' ORDER BY table_name, ordinal_position"
        ):
            schema.columns.setdefault(table, {})[name] = Column(
                _type(kind, _POSTGRES_TYPES), nullable == "NO", _default(default)
            )
            schema.uniques.setdefault(table, Counter())
            schema.foreign_keys.setdefault(table, Counter())
            schema.checks.setdefault(table, Counter())
        constraints = await conn.fetch(
            "SELECT c.conrelid::regclass::text AS table_name, c.contype::text, c.conindid, "
            "c.confrelid::regclass::text AS target, "
            "ARRAY(SELECT a.attname FROM unnest(c.conkey) WITH ORDINALITY k(n, o) "
            "      JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n "
            "      ORDER BY k.o)::text[] AS cols, "
            "ARRAY(SELECT a.attname FROM unnest(c.confkey) WITH ORDINALITY k(n, o) "
            "      JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.n "
            "      ORDER BY k.o)::text[] AS to_cols "
            "FROM pg_constraint c JOIN pg_namespace s ON s.oid = c.connamespace "
            "WHERE s.nspname = current_schema() AND c.conrelid::regclass::text <> 'schema_version'"
        )
        backing = set()
        for row in constraints:
            table, cols = row["table_name"], tuple(row["cols"])
            if row["contype"] == "p":
                schema.primary_keys[table] = cols
                backing.add(row["conindid"])
            elif row["contype"] == "u":
                schema.uniques[table][cols] += 1
                backing.add(row["conindid"])
            elif row["contype"] == "f":
                schema.foreign_keys[table][(cols, row["target"], tuple(row["to_cols"]))] += 1
            elif row["contype"] == "c":
                schema.checks[table][frozenset(cols)] += 1
        for index in await conn.fetch(
            "SELECT i.indexrelid, i.indexrelid::regclass::text AS name, "
            "i.indrelid::regclass::text AS table_name, i.indisunique, "
            "i.indpred IS NOT NULL AS partial, "
            "ARRAY(SELECT a.attname FROM unnest(i.indkey) WITH ORDINALITY k(n, o) "
            "      JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.n "
            "      ORDER BY k.o)::text[] AS cols "
            "FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid "
            "JOIN pg_namespace s ON s.oid = t.relnamespace "
            "WHERE s.nspname = current_schema() AND t.relname <> 'schema_version'"
        ):
            if index["indexrelid"] not in backing:
                schema.indexes[index["name"]] = (
                    index["table_name"],
                    index["indisunique"],
                    tuple(index["cols"]),
                    index["partial"],
                )
        for table in schema.columns:
            schema.primary_keys.setdefault(table, ())
        return schema
    finally:
        await conn.close()


def schemas(tmp_path: Path, migrations: Path | None = None) -> tuple[Schema, Schema]:
    """The schema of a SQLite and of a PostgreSQL database, each migrated from empty."""
    if server_url() is None:
        pytest.skip("no PostgreSQL server: set HIMIKO_TEST_POSTGRES_URL (./scripts/test does)")
    db = tmp_path / "schema.sqlite3"
    migrate_database(db, migrations)
    name = create_database()
    try:
        url = url_of(name)
        run(migrate_postgres(url, migrations))
        return sqlite_schema(db), run(postgres_schema(url))
    finally:
        drop_databases([name])


@pytest.fixture
def both(tmp_path: Path) -> tuple[Schema, Schema]:
    """Both databases migrated with the project's migrations."""
    return schemas(tmp_path)


def test_the_same_tables_and_columns(both: tuple[Schema, Schema]) -> None:
    """Every table has the same columns, with types of the same meaning, nullability, defaults."""
    lite, pg = both
    assert pg.columns == lite.columns


def test_the_same_keys_and_constraints(both: tuple[Schema, Schema]) -> None:
    """Primary keys, UNIQUE constraints, foreign keys and CHECKs match table by table."""
    lite, pg = both
    assert pg.primary_keys == lite.primary_keys
    assert pg.uniques == lite.uniques
    assert pg.foreign_keys == lite.foreign_keys
    assert pg.checks == lite.checks


def test_the_same_indexes(both: tuple[Schema, Schema]) -> None:
    """Every named index exists in both, on the same columns, as unique and as partial."""
    lite, pg = both
    assert pg.indexes == lite.indexes


def test_a_shared_migration_that_means_two_things_is_caught(tmp_path: Path) -> None:
    """A shared file whose INTEGER is 32-bit on PostgreSQL, or a CHECK left out of PostgreSQL's
    own text, makes the schemas differ (what these tests guard against)."""
    folder = tmp_path / "migrations"
    shutil.copytree(DEFAULT_MIGRATIONS_DIR, folder, ignore=shutil.ignore_patterns("__*"))
    number = len(discover()) + 1
    (folder / f"{number:04d}_extra.sql").write_text(
        "ALTER TABLE games ADD COLUMN extra INTEGER CHECK (extra >= 0);\n"
    )
    lite, pg = schemas(tmp_path, folder)
    assert lite.columns["games"]["extra"].type == "int64"
    assert pg.columns["games"]["extra"].type == "int32"
    (folder / "postgres" / f"{number:04d}_extra.sql").write_text(
        "ALTER TABLE games ADD COLUMN extra BIGINT;\n"
    )
    (tmp_path / "again").mkdir()
    lite, pg = schemas(tmp_path / "again", folder)
    assert pg.columns == lite.columns
    assert pg.checks["games"] != lite.checks["games"]
