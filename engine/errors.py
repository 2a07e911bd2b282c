"""Typed engine errors: each has a stable ``code`` and says what is legal instead."""

from __future__ import annotations

from collections.abc import Mapping, Sequence


def echo(text: str, limit: int = 40) -> str:
    """What a player typed, quoted and shortened for an error (long input must not crowd it out)."""
    return repr(text if len(text) <= limit else text[:limit] + "…")


class EngineError(Exception):
    """Base class of every error the engine raises on purpose."""

    code = "engine_error"

    def __init__(
        self,
        message: str,
        *,
        reason: str | None = None,
        legal: Sequence[str] = (),
        data: Mapping[str, object] | None = None,
        key: str | None = None,
        game: str | None = None,
    ):
        super().__init__(message)
        self.message = message  # the whole English text, with the legal alternatives if any
        self.detail = message  # what was wrong, without the list of legal alternatives
        self.reason = reason or self.code
        self.legal = list(legal)
        self.data: dict[str, object] = dict(data or {})  # facts a translation may name
        # The refusal's stable message id and the game whose sentences it is in (None: any game's,
        # raised by the match itself); a key of None means only the English message exists.
        self.key = key
        self.game = game

    def to_dict(self) -> dict[str, object]:
        """The error as JSON-ready data (code, reason, key, game, detail, message, legal, data)."""
        return {
            "code": self.code,
            "reason": self.reason,
            "key": self.key,
            "game": self.game,
            "detail": self.detail,
            "message": self.message,
            "legal": self.legal,
            "data": dict(self.data),
        }


class UnknownGame(EngineError):
    """No game is registered under that key."""

    code = "unknown_game"


class InvalidSetup(EngineError):
    """The players, seed or options given for a new game are not acceptable."""

    code = "invalid_setup"


class InvalidNotation(EngineError):
    """The text is not an action in the game's notation."""

    code = "invalid_notation"


class IllegalAction(EngineError):
    """The action is well formed but not allowed now; ``reason`` says why."""

    code = "illegal_action"


class NotYourTurn(EngineError):
    """Somebody other than the current seat tried to act."""

    code = "not_your_turn"


class GameOver(EngineError):
    """The game has ended; no more actions are accepted."""

    code = "game_over"


class UndoNotAllowed(EngineError):
    """The undo policy does not allow taking back the last action."""

    code = "undo_not_allowed"


class CorruptGame(EngineError):
    """Serialized game data is malformed or from an unknown schema."""

    code = "corrupt_game"
