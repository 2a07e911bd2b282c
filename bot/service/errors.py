"""Errors the game service raises: a catalog id, its parameters and the legal alternatives."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from bot.store import GameNotActive, GameNotFound, NothingToUndo, StaleVersion
from engine.errors import EngineError


class ServiceError(Exception):
    """A request the service refuses; ``key`` is a catalog id, ``params`` fill its text."""

    def __init__(self, key: str, *, legal: Sequence[str] = (), **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params
        self.legal = list(legal)


class EngineRejected(ServiceError):
    """The engine refused an action; the message and legal alternatives come from it."""

    def __init__(self, error: EngineError, legal_now: Sequence[str] | None = None) -> None:
        super().__init__(
            f"error.engine.{error.code}",
            legal=error.legal if legal_now is None else legal_now,
            message=error.detail,
            reason=error.reason,
        )
        self.error = error


@contextmanager
def store_refusals(stale: str = "error.already_played") -> Iterator[None]:
    """Turn the store's refusals of a change into ServiceErrors (``stale``: the version key)."""
    try:
        yield
    except StaleVersion:
        raise ServiceError(stale) from None
    except GameNotActive:
        raise ServiceError("error.game_over") from None
    except GameNotFound:
        raise ServiceError("error.no_game") from None
    except NothingToUndo:
        raise ServiceError("error.nothing_to_undo") from None
