"""The stored snapshot without its action log: the ``actions`` table keeps the log once (D113).

The engine's snapshot (``Match.to_json``) is canonical JSON with sorted keys, so it begins
``{"format":1,"game":"<key>","log":[...],"options":...``. The store writes it with the log array
replaced by ``null`` and, when it reads such a snapshot, puts back the log it read from
``actions`` in the same transaction: callers see the engine's full text, as before. A snapshot
written before (its log inline) or any other text is stored and read unchanged.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable

from .connection import Row

#: The snapshot's beginning up to its log: only the format number and the game's key precede it.
_HEAD = re.compile(r'\{"format":\d+,"game":"[A-Za-z0-9_-]+"')
_LOG = ',"log":['
_LOG_END = '],"options":'
#: What stands for the log in a stored snapshot.
STORED_LOG = ',"log":null,"options":'


def without_log(snapshot: str) -> str:
    """The text to store: the engine's snapshot with its log left out (other text unchanged)."""
    head = _HEAD.match(snapshot)
    if head is None or not snapshot.startswith(_LOG, head.end()):
        return snapshot
    # The first '],"options":' closes the log: inside the log's strings every '"' is escaped.
    end = snapshot.find(_LOG_END, head.end())
    if end < 0:
        return snapshot
    return snapshot[: head.end()] + STORED_LOG + snapshot[end + len(_LOG_END) :]


def log_left_out(stored: str) -> bool:
    """Whether a stored snapshot needs its log put back from the ``actions`` table."""
    head = _HEAD.match(stored)
    return head is not None and stored.startswith(STORED_LOG, head.end())


def with_log(stored: str, actions: Iterable[Row]) -> str:
    """The engine's snapshot again: ``stored`` with the log of ``actions`` (seat, notation)."""
    head = _HEAD.match(stored)
    if head is None or not stored.startswith(STORED_LOG, head.end()):
        return stored
    log = json.dumps([[a["seat"], a["notation"]] for a in actions], separators=(",", ":"))
    rest = stored[head.end() + len(STORED_LOG) :]
    return f'{stored[: head.end()]},"log":{log},"options":{rest}'
