"""The bot's Prometheus metrics: one registry of its own (never the library's global one).

``Metrics`` holds every series the bot exports, typed; the parts that feed them get it (or one
of its metrics) handed by the composition root. Depths and the gateway's latency are read
when scraped, through the callbacks ``watch`` is given; the games per game and status are
counted from the database before each scrape (``count_games``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping

from prometheus_client import CONTENT_TYPE_LATEST as CONTENT_TYPE
from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    ProcessCollector,
    generate_latest,
)

__all__ = ["CONTENT_TYPE", "GAME_STATUSES", "Metrics"]

#: A stored game's statuses (the games table's CHECK).
GAME_STATUSES = ("active", "finished", "abandoned")
#: Seconds: an answer within Discord's 3 s, and the slow ones past it.
ANSWER_BUCKETS = (0.025, 0.05, 0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0, 30.0)
#: Seconds: a picture is drawn in 16-19 ms by a warm worker; a queue for a worker adds more.
PICTURE_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
#: Seconds: a normal decision is instant, a strong one searches 0.25-1 s.
THINK_BUCKETS = (0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0)


def _finite(read: Callable[[], float]) -> Callable[[], float]:
    """``read`` with an infinite value (no heartbeat answered yet) shown as unknown (NaN)."""

    def value() -> float:
        number = read()
        return number if math.isfinite(number) else math.nan

    return value


class Metrics:
    """Every series of the bot, in one registry; ``exposition()`` is the ``/metrics`` text."""

    def __init__(self) -> None:
        self.registry = registry = CollectorRegistry()
        self.interactions = Counter(
            "himiko_interactions",
            "Slash commands, their autocompletes and clicks handled, by kind (command, "
            "autocomplete, click), name and outcome (ok; refused: the player was told why; "
            "busy: refused under load or by a busy database; error: an unexpected failure).",
            ("kind", "name", "outcome"),
            registry=registry,
        )
        self.answer_seconds = Histogram(
            "himiko_answer_seconds",
            "Seconds from an interaction's arrival to the end of its handling (its answer "
            "given), waiting for a place in the admission gate included.",
            ("kind", "name"),
            buckets=ANSWER_BUCKETS,
            registry=registry,
        )
        self.turn_message_seconds = Histogram(
            "himiko_turn_message_seconds",
            "Seconds to post a thread message a game owed (a turn, an opening, an ending) and "
            "record it, from the outbox's flush to its end.",
            buckets=ANSWER_BUCKETS,
            registry=registry,
        )
        self.picture_seconds = Histogram(
            "himiko_picture_seconds",
            "Seconds a picture took in the render pool (waiting for a worker included).",
            buckets=PICTURE_BUCKETS,
            registry=registry,
        )
        self.think_seconds = Histogram(
            "himiko_think_seconds",
            "Seconds a computer player's decision (or a coach's hint) took in the think pool.",
            buckets=THINK_BUCKETS,
            registry=registry,
        )
        self.reminders_sent = Counter(
            "himiko_reminders_sent",
            "Reminder messages posted in game threads.",
            registry=registry,
        )
        self.discord_responses = Counter(
            "himiko_discord_http_responses",
            "Answers of Discord's HTTP API to the bot, by status (error: no answer came).",
            ("status",),
            registry=registry,
        )
        self.database_errors = Counter(
            "himiko_database_errors",
            "Calls to the store that failed with a database error (unreachable, broken, busy).",
            registry=registry,
        )
        self.games = Gauge(
            "himiko_games",
            "Stored games by game and status (active, finished, abandoned), read from the "
            "database when scraped.",
            ("game", "status"),
            registry=registry,
        )
        self.admission_waiting = Gauge(
            "himiko_admission_waiting",
            "Commands and turn panel clicks waiting for a place in the admission gate.",
            registry=registry,
        )
        self.admission_running = Gauge(
            "himiko_admission_running",
            "Commands and turn panel clicks holding a place in the admission gate.",
            registry=registry,
        )
        self.picture_queue = Gauge(
            "himiko_picture_queue",
            "Pictures waiting to be drawn (after their messages were posted).",
            registry=registry,
        )
        self.gateway_latency = Gauge(
            "himiko_gateway_latency_seconds",
            "Seconds between a gateway heartbeat and its acknowledgement (mean of the shards; "
            "NaN before the first).",
            registry=registry,
        )
        ProcessCollector(registry=registry)  # process_cpu_seconds_total, memory, open fds

    def watch(
        self,
        *,
        admission_waiting: Callable[[], float],
        admission_running: Callable[[], float],
        picture_queue: Callable[[], float],
        gateway_latency: Callable[[], float],
    ) -> None:
        """Read the queue depths and the gateway's latency from these callbacks when scraped."""
        self.admission_waiting.set_function(admission_waiting)
        self.admission_running.set_function(admission_running)
        self.picture_queue.set_function(picture_queue)
        self.gateway_latency.set_function(_finite(gateway_latency))

    def count_games(self, counts: Mapping[tuple[str, str], int], games: Iterable[str]) -> None:
        """Set the games gauge from the database's counts per (game, status); every status of
        ``games`` (the registered ones) and of any game counted has a value, 0 if none."""
        keys = set(games) | {game for game, _ in counts}
        for game in sorted(keys):
            for status in GAME_STATUSES:
                self.games.labels(game, status).set(counts.get((game, status), 0))

    def exposition(self) -> bytes:
        """Every series in Prometheus' text format (``CONTENT_TYPE``)."""
        return generate_latest(self.registry)
