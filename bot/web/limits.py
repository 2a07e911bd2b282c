"""Requests limited per client address: a token bucket each (D75)."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

BURST = 120  # requests a client may make at once (a page and a quick run through its replay)
PER_SECOND = 4.0  # requests a client may make per second after that
KEPT = 10_000  # clients remembered before the ones with a full bucket are forgotten


@dataclass
class _Bucket:
    tokens: float
    at: float


class RateLimit:
    """``allow(address)``: whether one more request of that client is served now."""

    def __init__(
        self,
        burst: int = BURST,
        per_second: float = PER_SECOND,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.burst = burst
        self.per_second = per_second
        self.clock = clock
        self._buckets: dict[str, _Bucket] = {}

    def allow(self, address: str) -> bool:
        """Take one token from the client's bucket; False when it is empty."""
        now = self.clock()
        bucket = self._buckets.get(address)
        if bucket is None:
            if len(self._buckets) >= KEPT:
                self._forget_idle(now)
            bucket = self._buckets[address] = _Bucket(float(self.burst), now)
        bucket.tokens = min(self.burst, bucket.tokens + (now - bucket.at) * self.per_second)
        bucket.at = now
        if bucket.tokens < 1:
            return False
        bucket.tokens -= 1
        return True

    def retry_after(self, address: str) -> int:
        """Whole seconds until the client's next request is served."""
        bucket = self._buckets.get(address)
        if bucket is None or bucket.tokens >= 1:
            return 0
        return max(1, math.ceil((1 - bucket.tokens) / self.per_second))

    def _forget_idle(self, now: float) -> None:
        full = [
            a
            for a, b in self._buckets.items()
            if b.tokens + (now - b.at) * self.per_second >= self.burst
        ]
        for address in full or list(self._buckets)[: KEPT // 2]:
            del self._buckets[address]
