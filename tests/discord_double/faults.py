"""Fault injection for the REST API: 5xx and 429 runs, responses lost after the effect, and
responses held after the effect until the test releases them (a client killed meanwhile never
gets its answer, as when a process dies between a request and the use of its response).

A fault matches a route by its name as recorded in ``RequestRecord.route`` (for example
``"POST /channels/{channel_id}/messages"``) and optionally by path parameters
(``channel_id=thread.id``). It applies to the next ``times`` matching requests, then it is spent.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

JSON = dict[str, Any]
DROP = 0  # "status" of a lost response: the connection is closed without an answer


@dataclass
class Fault:
    """One injected failure: what it matches, what it answers, how many times."""

    route: str
    status: int
    times: int
    after_effect: bool = False
    retry_after: float = 0.0
    params: dict[str, str] = field(default_factory=dict)
    hits: int = 0
    # a held response: ``reached`` is set once a request did its effect and waits, its answer
    # (the real one) goes out once ``released`` is set
    held: bool = False
    reached: asyncio.Event = field(default_factory=asyncio.Event)
    released: asyncio.Event = field(default_factory=asyncio.Event)

    def release(self) -> None:
        """Let the held requests answer (also those still to come)."""
        self.released.set()

    @property
    def spent(self) -> bool:
        """Whether it already applied ``times`` times."""
        return self.hits >= self.times

    def matches(self, route: str, params: dict[str, str], after_effect: bool) -> bool:
        """Whether this fault applies to a request of ``route`` at this point."""
        if self.spent or self.after_effect != after_effect or self.route != route:
            return False
        return all(params.get(k) == v for k, v in self.params.items())

    def body(self) -> JSON:
        """The JSON body Discord sends with this status."""
        if self.status == 429:
            return {
                "message": "You are being rate limited.",
                "retry_after": self.retry_after,
                "global": False,
            }
        return {"message": f"{self.status}: Server Error", "code": 0}

    def headers(self) -> dict[str, str]:
        """Headers Discord sends with this status (discord.py wants ``Via`` on a real 429)."""
        if self.status == 429:
            return {
                "Via": "1.1 google",
                "Retry-After": str(self.retry_after),
                "X-RateLimit-Scope": "user",
            }
        return {}


class Faults:
    """The double's injected failures (``double.faults``)."""

    def __init__(self) -> None:
        self.active: list[Fault] = []

    def _add(self, fault: Fault) -> Fault:
        self.active.append(fault)
        return fault

    def fail(self, route: str, *, status: int = 503, times: int = 1, **params: Any) -> Fault:
        """Answer the next ``times`` requests with ``status`` without doing anything."""
        return self._add(Fault(route, status, times, params=_strings(params)))

    def rate_limit(
        self, route: str, *, times: int = 1, retry_after: float = 0.05, **params: Any
    ) -> Fault:
        """Answer the next ``times`` requests 429 with ``retry_after`` seconds."""
        return self._add(Fault(route, 429, times, retry_after=retry_after, params=_strings(params)))

    def lose_response(
        self, route: str, *, status: int = DROP, times: int = 1, **params: Any
    ) -> Fault:
        """Do the next ``times`` requests, then drop the connection (or answer ``status``)."""
        return self._add(Fault(route, status, times, after_effect=True, params=_strings(params)))

    def hold_response(self, route: str, *, times: int = 1, **params: Any) -> Fault:
        """Do the next ``times`` requests, then hold each answer until ``Fault.release``."""
        fault = Fault(route, 0, times, after_effect=True, held=True, params=_strings(params))
        return self._add(fault)

    def clear(self) -> None:
        """Forget every fault (held answers are released)."""
        for fault in self.active:
            fault.release()
        self.active.clear()

    def take(self, route: str, params: dict[str, str], *, after_effect: bool) -> Fault | None:
        """The first fault for this request at this point, counted as applied."""
        for fault in self.active:
            if fault.matches(route, params, after_effect):
                fault.hits += 1
                return fault
        return None


def _strings(params: dict[str, Any]) -> dict[str, str]:
    return {k: str(v) for k, v in params.items()}
