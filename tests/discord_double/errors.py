"""Discord-shaped API errors."""

from __future__ import annotations

from typing import Any


class ApiError(Exception):
    """An error the REST API answers with ``{"message", "code"[, "errors"]}``."""

    def __init__(self, status: int, code: int, message: str, errors: Any = None) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors

    def body(self) -> dict[str, Any]:
        """The JSON body Discord would send."""
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors is not None:
            body["errors"] = self.errors
        return body


def unknown(what: str, code: int) -> ApiError:
    """A 404 ``Unknown <what>`` error."""
    return ApiError(404, code, f"Unknown {what}")


def unknown_channel() -> ApiError:
    """404 Unknown Channel (10003)."""
    return unknown("Channel", 10003)


def unknown_message() -> ApiError:
    """404 Unknown Message (10008)."""
    return unknown("Message", 10008)


def unknown_webhook() -> ApiError:
    """404 Unknown Webhook (10015)."""
    return unknown("Webhook", 10015)


def unknown_interaction() -> ApiError:
    """404 Unknown interaction (10062)."""
    return ApiError(404, 10062, "Unknown interaction")


def invalid_form(path: str, code: str, message: str) -> ApiError:
    """400 Invalid Form Body (50035) with one nested field error at a dotted path."""
    errors: dict[str, Any] = {"_errors": [{"code": code, "message": message}]}
    for part in reversed(path.split(".")):
        errors = {part: errors}
    return ApiError(400, 50035, "Invalid Form Body", errors)
