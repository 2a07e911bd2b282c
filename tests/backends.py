"""The databases the store, service and end-to-end tests run on: SQLite, and PostgreSQL.

A test module opts in with ``pytestmark = pytest.mark.usefixtures("backend")``: each of its
tests then runs once on each backend (ids ``[sqlite]`` and ``[postgres]``), and the test asks
``database(tmp_path, name)`` for its database instead of building a file path. On SQLite that
is ``tmp_path / name``; on PostgreSQL a fresh database on the server named by
``HIMIKO_TEST_POSTGRES_URL`` (``./scripts/test`` starts one), the same one for the same name
during the test, dropped afterwards. Without a server the PostgreSQL variants are skipped.

Each database starts migrated (D170): a copy of a template migrated once per test process (a
SQLite file copied, a PostgreSQL ``CREATE DATABASE ... TEMPLATE``), so no test pays for the
migrations. A test about migrating itself is marked ``fresh_database`` and gets an empty one.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import shutil
import tempfile
import threading
import uuid
from collections.abc import Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from bot.store import Target
from bot.store.migrate import DEFAULT_MIGRATIONS_DIR, migrate_database, migrate_postgres

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


class _Admin:
    """One connection to the test server's own database for making and dropping databases, kept
    for the test process on an event loop in a thread of its own: a new connection for each
    statement cost the server ~9 ms of CPU, two for every test on PostgreSQL."""

    lock = threading.Lock()
    loop: asyncio.AbstractEventLoop | None = None
    connection: asyncpg.Connection | None = None

    @classmethod
    def run(cls, statements: tuple[str, ...]) -> None:
        """Run the statements in turn on the kept connection (made again if it was lost)."""
        with cls.lock:
            if cls.loop is None:
                cls.loop = asyncio.new_event_loop()
                runner = threading.Thread(target=cls.loop.run_forever, name="admin", daemon=True)
                runner.start()
            asyncio.run_coroutine_threadsafe(cls._execute(statements), cls.loop).result()

    @classmethod
    async def _execute(cls, statements: tuple[str, ...]) -> None:
        for statement in statements:
            try:
                await (await cls._connection()).execute(statement)
            except (asyncpg.ConnectionDoesNotExistError, asyncpg.InterfaceError):
                cls.connection = None  # lost (the server closed it): once more on a new one
                await (await cls._connection()).execute(statement)

    @classmethod
    async def _connection(cls) -> asyncpg.Connection:
        if cls.connection is None or cls.connection.is_closed():
            url = server_url()
            assert url is not None
            cls.connection = await asyncpg.connect(url)
        return cls.connection


def admin(*statements: str) -> None:
    """Run statements on the test server's own database (CREATE and DROP DATABASE)."""
    _Admin.run(statements)


def create_database(*, fresh: bool = True) -> str:
    """A new database on the test server, empty or (``fresh=False``) migrated; its name."""
    name = "t_" + uuid.uuid4().hex[:16]
    template = "template0" if fresh else postgres_template()
    admin(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
    return name


def migrations_digest() -> str:
    """A digest of every migration file (SQLite's and PostgreSQL's own), names and text."""
    digest = hashlib.sha256()
    for path in sorted(DEFAULT_MIGRATIONS_DIR.rglob("*.sql")):
        digest.update(path.relative_to(DEFAULT_MIGRATIONS_DIR).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


class _Templates:
    """This process's migrated templates, made on first use (one per xdist worker)."""

    sqlite_dir: Path | None = None
    postgres: str | None = None


def sqlite_template() -> Path:
    """A SQLite file at the newest migration, made once per process; copy it, never open it."""
    if _Templates.sqlite_dir is None:
        folder = Path(tempfile.mkdtemp(prefix="himiko-template-"))
        migrate_database(folder / "template.sqlite3")
        leftovers = sorted(p.name for p in folder.iterdir() if p.name != "template.sqlite3")
        assert not leftovers, f"the template left {leftovers} after closing"
        _Templates.sqlite_dir = folder
    return _Templates.sqlite_dir / "template.sqlite3"


def postgres_template() -> str:
    """A PostgreSQL database at the newest migration, made once per process; its name.

    The name carries the migrations' digest and the process id: each test process (each xdist
    worker, each concurrent run) copies its own, as a template may have no other session.
    """
    if _Templates.postgres is None:
        drop_databases(blocking(stale_templates()))
        name = f"{TEMPLATE_PREFIX}{migrations_digest()[:12]}_{os.getpid()}"
        admin(f'CREATE DATABASE "{name}" TEMPLATE template0')
        blocking(migrate_postgres(url_of(name)))
        _Templates.postgres = name
    return _Templates.postgres


TEMPLATE_PREFIX = "himiko_tpl_"


def process_alive(pid: int) -> bool:
    """Whether process ``pid`` of this machine still runs (one of another user counts)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


async def stale_templates() -> list[str]:
    """Templates left by test processes of this machine that died before their session's end
    (killed): only on a server on this machine, where their process ids mean something."""
    url = server_url()
    assert url is not None
    if urlsplit(url).hostname not in ("127.0.0.1", "localhost", "::1"):
        return []
    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch(
            "SELECT datname FROM pg_database WHERE datname LIKE $1", TEMPLATE_PREFIX + "%"
        )
    finally:
        await conn.close()
    names = [str(r["datname"]) for r in rows]
    pids = {n: n.rsplit("_", 1)[-1] for n in names}
    return [n for n, pid in pids.items() if pid.isdigit() and not process_alive(int(pid))]


def drop_templates() -> None:
    """Remove this process's templates (at the end of the session)."""
    if _Templates.sqlite_dir is not None:
        shutil.rmtree(_Templates.sqlite_dir, ignore_errors=True)
        _Templates.sqlite_dir = None
    if _Templates.postgres is not None:
        drop_databases([_Templates.postgres])
        _Templates.postgres = None


def drop_databases(names: list[str]) -> None:
    """Drop test databases, even with connections still open."""
    if names:
        admin(*(f'DROP DATABASE IF EXISTS "{n}" WITH (FORCE)' for n in names))


class Databases:
    """The databases of one test on one backend, by name."""

    def __init__(self, kind: str, tmp_path: Path, *, fresh: bool = False) -> None:
        self.kind = kind
        self.tmp_path = tmp_path
        self.fresh = fresh
        self.created: dict[str, str] = {}
        self.copied: set[str] = set()

    def get(self, name: str) -> Target:
        """The database called ``name``: on first use a migrated copy, or empty if ``fresh``."""
        if self.kind == "sqlite":
            path = self.tmp_path / name
            if not self.fresh and name not in self.copied and not path.exists():
                path.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(sqlite_template(), path)
            self.copied.add(name)
            return path
        if name not in self.created:
            self.created[name] = create_database(fresh=self.fresh)
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
def use_backend(kind: str, tmp_path: Path, *, fresh: bool = False) -> Iterator[Databases]:
    """Make ``database()`` answer with ``kind`` for one test; drop its PostgreSQL databases."""
    global _current
    databases = Databases(kind, tmp_path, fresh=fresh)
    _current = databases
    try:
        yield databases
    finally:
        _current = None
        drop_databases(list(databases.created.values()))
