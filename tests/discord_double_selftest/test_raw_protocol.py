"""The double's wire protocol without discord.py: gateway framing and REST error shapes."""

from __future__ import annotations

import asyncio
import json
import zlib
from typing import Any

import aiohttp

from tests.discord_double import DROP, DiscordDouble

from .harness import ALICE, CHANNEL_ID, GUILD_ID, TOKEN, make_double, run

JSON = dict[str, Any]
AUTH = {"Authorization": f"Bot {TOKEN}"}


class RawGateway:
    """A minimal gateway client that understands zlib-stream."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse, compressed: bool) -> None:
        self.ws = ws
        self.inflate = zlib.decompressobj() if compressed else None

    async def recv(self) -> JSON:
        """Next gateway payload."""
        msg = await asyncio.wait_for(self.ws.receive(), 5)
        if msg.type is aiohttp.WSMsgType.BINARY:
            assert self.inflate is not None and msg.data.endswith(b"\x00\x00\xff\xff")
            payload: JSON = json.loads(self.inflate.decompress(msg.data))
            return payload
        if msg.type is aiohttp.WSMsgType.TEXT:
            text_payload: JSON = json.loads(msg.data)
            return text_payload
        raise ConnectionError(f"closed: {msg.type} {msg.data} {msg.extra}")

    async def until(self, event: str) -> JSON:
        """Skip payloads until a dispatch of this event; return its data."""
        while True:
            payload = await self.recv()
            if payload.get("t") == event:
                data: JSON = payload["d"]
                return data


async def _identify(
    session: aiohttp.ClientSession, double: DiscordDouble, token: str
) -> RawGateway:
    ws = await session.ws_connect(f"{double.gateway_url}?v=10&encoding=json&compress=zlib-stream")
    gw = RawGateway(ws, compressed=True)
    hello = await gw.recv()
    assert hello["op"] == 10 and hello["d"]["heartbeat_interval"] > 0
    await ws.send_json({"op": 2, "d": {"token": token, "intents": 513, "properties": {}}})
    return gw


def test_uncompressed_gateway_heartbeat_and_bad_token() -> None:
    async def body() -> None:
        async with make_double() as double, aiohttp.ClientSession() as session:
            ws = await session.ws_connect(f"{double.gateway_url}?v=10&encoding=json")
            gw = RawGateway(ws, compressed=False)
            assert (await gw.recv())["op"] == 10
            await ws.send_json({"op": 1, "d": None})
            assert (await gw.recv()) == {"op": 11}
            await ws.send_json({"op": 2, "d": {"token": "nope", "intents": 0, "properties": {}}})
            closed = await asyncio.wait_for(ws.receive(), 5)
            assert closed.type is aiohttp.WSMsgType.CLOSE and closed.data == 4004
            assert not double.gateway.ready

    run(body)


def test_zlib_stream_ready_guild_create_and_interaction() -> None:
    async def body() -> None:
        async with make_double() as double, aiohttp.ClientSession() as session:
            gw = await _identify(session, double, TOKEN)
            ready = await gw.until("READY")
            assert ready["user"]["id"] == str(double.app_id)
            assert ready["resume_gateway_url"] == double.gateway_url
            guild = await gw.until("GUILD_CREATE")
            assert guild["id"] == str(GUILD_ID)
            assert [c["name"] for c in guild["channels"]] == ["yamatai", "channel-2"]
            await double.wait_ready(1)

            url = f"{double.api_base}/applications/{double.app_id}/guilds/{GUILD_ID}/commands"
            cmds = [
                {
                    "name": "echo",
                    "description": "d",
                    "options": [{"type": 3, "name": "text", "description": "t", "required": True}],
                }
            ]
            async with session.put(url, json=cmds, headers=AUTH) as resp:
                assert resp.status == 200
                [synced] = await resp.json()
            rec = await double.slash(ALICE, CHANNEL_ID, "echo", {"text": "hi"})
            data = await gw.until("INTERACTION_CREATE")
            assert data["id"] == str(rec.id) and data["data"]["id"] == synced["id"]
            assert data["data"]["options"] == [{"name": "text", "type": 3, "value": "hi"}]
            assert data["member"]["user"]["id"] == str(ALICE.id)
            assert data["channel"]["id"] == str(CHANNEL_ID)

            callback = f"{double.api_base}/interactions/{rec.id}/{rec.token}/callback"
            followup = f"{double.api_base}/webhooks/{double.app_id}/{rec.token}?wait=true"
            async with session.post(followup, json={"content": "early"}) as resp:
                assert resp.status == 404 and (await resp.json())["code"] == 10015
            async with session.post(callback, json={"type": 4, "data": {"content": "hi"}}) as resp:
                assert resp.status == 200
                body_ = await resp.json()
                assert body_["resource"]["message"]["content"] == "hi"
            async with session.post(callback, json={"type": 4, "data": {"content": "x"}}) as resp:
                assert resp.status == 400 and (await resp.json())["code"] == 40060
            created = await gw.until("MESSAGE_CREATE")
            assert created["content"] == "hi" and created["interaction_metadata"]["id"] == str(
                rec.id
            )
            bad = f"{double.api_base}/interactions/{rec.id}/wrong-token/callback"
            async with session.post(bad, json={"type": 4, "data": {"content": "x"}}) as resp:
                assert resp.status == 404 and (await resp.json())["code"] == 10062

    run(body)


def test_rest_auth_validation_and_unknown_routes() -> None:
    async def body() -> None:
        async with make_double() as double, aiohttp.ClientSession() as session:
            api = double.api_base
            async with session.get(f"{api}/users/@me") as resp:
                assert resp.status == 401
            async with session.get(f"{api}/gateway/bot", headers=AUTH) as resp:
                assert (await resp.json())["url"] == double.gateway_url
            url = f"{api}/applications/{double.app_id}/commands"
            async with session.put(
                url, json=[{"name": "Bad", "description": "d"}], headers=AUTH
            ) as r:
                assert r.status == 400 and (await r.json())["code"] == 50035
            async with session.post(
                f"{api}/channels/{CHANNEL_ID}/messages", json={}, headers=AUTH
            ) as resp:
                assert resp.status == 400 and (await resp.json())["code"] == 50006
            body_ = {"content": "x", "allowed_mentions": {"parse": ["users"], "users": ["1"]}}
            async with session.post(
                f"{api}/channels/{CHANNEL_ID}/messages", json=body_, headers=AUTH
            ) as resp:
                assert resp.status == 400
            for custom_id, status in (("", 400), ("x" * 101, 400), ("x" * 100, 200)):
                button = {"type": 2, "style": 1, "label": "b", "custom_id": custom_id}
                message = {"content": "x", "components": [{"type": 1, "components": [button]}]}
                async with session.post(
                    f"{api}/channels/{CHANNEL_ID}/messages", json=message, headers=AUTH
                ) as resp:
                    assert resp.status == status, custom_id  # Discord: 1 to 100 characters
            async with session.post(
                f"{api}/channels/1/messages", json={"content": "x"}, headers=AUTH
            ) as r:
                assert r.status == 404 and (await r.json())["code"] == 10003
            async with session.delete(f"{api}/guilds/{GUILD_ID}", headers=AUTH) as resp:
                assert resp.status == 405
            async with session.get(f"{api}/voice/regions", headers=AUTH) as resp:
                assert resp.status == 404
            assert [(r.method, r.path) for r in double.unexpected_requests] == [
                ("DELETE", f"/guilds/{GUILD_ID}"),
                ("GET", "/voice/regions"),
            ]

    run(body)


def test_response_deadline() -> None:
    async def body() -> None:
        double = make_double(response_deadline=0.05)
        async with double, aiohttp.ClientSession() as session:
            gw = await _identify(session, double, TOKEN)
            await gw.until("GUILD_CREATE")
            url = f"{double.api_base}/applications/{double.app_id}/commands"
            async with session.put(url, json=[{"name": "x", "description": "d"}], headers=AUTH):
                pass
            rec = await double.slash(ALICE, CHANNEL_ID, "x")
            await asyncio.sleep(0.1)
            callback = f"{double.api_base}/interactions/{rec.id}/{rec.token}/callback"
            async with session.post(callback, json={"type": 5}) as resp:
                assert resp.status == 404 and (await resp.json())["code"] == 10062
            assert not rec.responded

    run(body)


def test_faults_and_enforced_nonce() -> None:
    """5xx and 429 runs answer without an effect; a lost response happens after the effect."""

    async def body() -> None:
        async with make_double() as double, aiohttp.ClientSession() as session:
            url = f"{double.api_base}/channels/{CHANNEL_ID}/messages"
            route = "POST /channels/{channel_id}/messages"
            post = {"content": "hi", "nonce": "n1", "enforce_nonce": True}
            double.faults.fail(route, status=503, times=2, channel_id=CHANNEL_ID)
            double.faults.rate_limit(route, retry_after=0.25)
            for expected in (503, 503, 429):
                async with session.post(url, json=post, headers=AUTH) as resp:
                    assert resp.status == expected
                    if expected == 429:
                        assert (await resp.json())["retry_after"] == 0.25
                        assert resp.headers["Via"]
            assert double.messages(CHANNEL_ID) == []
            double.faults.lose_response(route)
            try:
                async with session.post(url, json=post, headers=AUTH) as resp:
                    raise AssertionError(f"answered {resp.status}")
            except aiohttp.ServerDisconnectedError:
                pass
            [sent] = double.messages(CHANNEL_ID)  # the effect happened
            async with session.post(url, json=post, headers=AUTH) as resp:
                assert resp.status == 200 and (await resp.json())["id"] == str(sent.id)
            async with session.post(url, json={**post, "enforce_nonce": False}, headers=AUTH):
                pass
            assert len(double.messages(CHANNEL_ID)) == 2  # without enforce_nonce: a new one
            double.faults.fail(route, status=DROP)  # dropped before anything was done
            try:
                async with session.post(url, json={"content": "x"}, headers=AUTH) as resp:
                    raise AssertionError(f"answered {resp.status}")
            except aiohttp.ServerDisconnectedError:
                pass
            assert len(double.messages(CHANNEL_ID)) == 2
            assert all(f.spent for f in double.faults.active)

    run(body)


def test_a_held_response_answers_only_once_released() -> None:
    """The effect happens at once; the answer waits until the test releases it."""

    async def body() -> None:
        async with make_double() as double, aiohttp.ClientSession() as session:
            url = f"{double.api_base}/channels/{CHANNEL_ID}/messages"
            held = double.faults.hold_response("POST /channels/{channel_id}/messages")
            request = asyncio.create_task(session.post(url, json={"content": "hi"}, headers=AUTH))
            await asyncio.wait_for(held.reached.wait(), 5)
            [sent] = double.messages(CHANNEL_ID)  # already there, unanswered
            assert not request.done()
            held.release()
            async with await asyncio.wait_for(request, 5) as resp:
                assert resp.status == 200 and (await resp.json())["id"] == str(sent.id)

    run(body)
