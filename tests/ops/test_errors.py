"""Error reports (issue 40 item 5): an unexpected failure of a command of the real bot goes to
Sentry, caught here by a local capturing transport (never the network), without the player's
name or what they typed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import sentry_sdk
from sentry_sdk.envelope import Envelope
from sentry_sdk.transport import Transport

from bot.ops.config import OpsConfig
from bot.ops.errors import REMOVED, start_error_reports, stop_error_reports
from tests.e2e.harness import CHANNEL, HOST, TIMEOUT, run
from tests.ops.support import ops_env

DSN = "https://public@127.0.0.1/1"  # parsed, never contacted: the transport below keeps events
TYPED = "zebra moon 42"


class Capture(Transport):
    """Keeps every envelope the SDK would send."""

    def __init__(self) -> None:
        super().__init__()
        self.envelopes: list[Envelope] = []

    def capture_envelope(self, envelope: Envelope) -> None:
        """Keep it."""
        self.envelopes.append(envelope)

    def events(self) -> list[dict[str, Any]]:
        """The error events sent."""
        return [
            item.payload.json
            for envelope in self.envelopes
            for item in envelope.items
            if item.type == "event" and item.payload.json is not None
        ]


@pytest.fixture
def capture() -> Any:
    transport = Capture()
    yield transport
    stop_error_reports()
    sentry_sdk.init()  # no DSN: reports nothing from here on


def test_an_unexpected_command_failure_is_reported_without_player_data(
    tmp_path: Path, capture: Capture
) -> None:
    async def body() -> None:
        start_error_reports(DSN, transport=capture)  # in the loop, as the bot does
        async with ops_env(tmp_path, OpsConfig(sentry_dsn=DSN)) as env:
            repo = env.bot.repo
            assert repo is not None

            async def broken(guild_id: int, limit: int) -> list[Any]:
                raise RuntimeError(f"{HOST.global_name} ({HOST.name}) typed {TYPED}")

            repo.list_guild_games = broken  # type: ignore[method-assign]
            rec = await env.double.slash(HOST, CHANNEL, "games")
            reply = await rec.reply(TIMEOUT)
            assert reply.ephemeral and "Traceback" not in reply.content
            sentry_sdk.flush()
            env.log.records.clear()  # the failure was logged at ERROR, as it should be
        [event] = capture.events()
        [exception] = event["exception"]["values"]
        assert exception["type"] == "RuntimeError" and exception["value"] == REMOVED
        frames = exception["stacktrace"]["frames"]
        assert frames and all("vars" not in frame for frame in frames)
        assert event["logentry"] == {
            "message": "interaction failed%s: user=%s guild=%s channel=%s data=%s"
        }
        assert event["tags"]["command"] == "games" and event["tags"]["channel"] == str(CHANNEL)
        assert "user" not in event and "request" not in event
        sent = json.dumps(capture.events()) + "".join(
            json.dumps(e.items[0].payload.json) for e in capture.envelopes if e.items
        )
        for secret in (HOST.name, HOST.global_name, TYPED, str(HOST.id), env.double.token):
            assert secret is not None and secret not in sent

    run(body)
