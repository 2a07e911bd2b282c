"""The databases the store, service and end-to-end tests run on: SQLite, and PostgreSQL.

A test module opts in with ``pytestmark = pytest.mark.usefixtures("backend")``: each of its
tests then runs once on each backend (ids ``[sqlite]`` and ``[postgres]``), and the test asks
``database(tmp_path, name)`` for its database instead of building a file path. On SQLite that
is ``tmp_path / name``; on PostgreSQL a fresh database on the server named by
``HIMIKO_TEST_POSTGRES_URL`` (``./scripts/test`` starts one), the same one for the same name
during the test, dropped afterwards. Without a server the PostgreSQL variants are skipped.
"""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from bot.store import Target

T = TypeVar("T")

URL_ENV = "HIMIKO_TEST_POSTGRES_URL"
BACKENDS = ("sqlite", "postgres")


def server_url() -> str | None:
    """The test server's URL (any database on it), or None if no server was given."""
    return os.environ.get(URL_ENV) or None


def blocking(coro: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine to completion, also from inside a running event loop."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


def url_of(database_name: str) -> str:
    """The test server's URL for another database."""
    url = server_url()
    assert url is not None
    return urlunsplit(urlsplit(url)._replace(path="/" + database_name))


async def _admin(*statements: str) -> None:
    url = server_url()
    assert url is not None
    conn = await asyncpg.connect(url)
    try:
        for statement in statements:
            await conn.execute(statement)
    finally:
        await conn.close()


def create_database() -> str:
    """A new empty database on the test server; its name."""
    name = "t_" + uuid.uuid4().hex[:16]
    blocking(_admin(f'CREATE DATABASE "{name}" TEMPLATE template0'))
    return name


def drop_databases(names: list[str]) -> None:
    """Drop test databases, even with connections still open."""
    if names:
        blocking(_admin(*(f'DROP DATABASE IF EXISTS "{n}" WITH (FORCE)' for n in names)))


class Databases:
    """The databases of one test on one backend, by name."""

    def __init__(self, kind: str, tmp_path: Path) -> None:
        self.kind = kind
        self.tmp_path = tmp_path
        self.created: dict[str, str] = {}

    def get(self, name: str) -> Target:
        """The database called ``name`` (created on first use)."""
        if self.kind == "sqlite":
            return self.tmp_path / name
        if name not in self.created:
            self.created[name] = create_database()
        return url_of(self.created[name])


_current: Databases | None = None


def current_kind() -> str:
    """The backend the running test uses (SQLite for tests that did not opt in)."""
    return "sqlite" if _current is None else _current.kind


def database(tmp_path: Path, name: str = "db.sqlite3") -> Target:
    """The running test's database called ``name``: a file in tmp_path, or a PostgreSQL URL."""
    if _current is None:
        return tmp_path / name
    return _current.get(name)


@contextmanager
def use_backend(kind: str, tmp_path: Path) -> Iterator[Databases]:
    """Make ``database()`` answer with ``kind`` for one test; drop its PostgreSQL databases."""
    global _current
    databases = Databases(kind, tmp_path)
    _current = databases
    try:
        yield databases
    finally:
        _current = None
        drop_databases(list(databases.created.values()))
