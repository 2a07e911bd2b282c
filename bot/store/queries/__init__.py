"""Every SQL statement the repository runs: portable SQL, ``?`` parameters, plain types.

No PRAGMAs, no SQLite-only syntax here (those live in ``sqlite.py``), so a PostgreSQL
backend can reuse these statements with its own parameter style. One module per part of the
schema; the repository reads them all as ``queries.NAME``.
"""

from .games import *  # noqa: F403
from .leagues import *  # noqa: F403
from .lobbies import *  # noqa: F403
from .more_time import *  # noqa: F403
from .notes import *  # noqa: F403
from .pings import *  # noqa: F403
from .queue import *  # noqa: F403
from .ratings import *  # noqa: F403
from .schedule import *  # noqa: F403
from .stand_ins import *  # noqa: F403
