"""The real discord.py client against the double: login, sync, slash, autocomplete, buttons..."""

from __future__ import annotations

import asyncio

import aiohttp
import discord
from discord.http import Route

from .harness import ALICE, BOB, CHANNEL_ID, GUILD_ID, PNG, TOKEN, run, running_bot


def test_login_ready_and_guild_sync() -> None:
    async def body() -> None:
        async with running_bot() as (double, bot):
            assert bot.user is not None and bot.user.id == double.app_id
            assert bot.application_id == double.app_id
            guild = bot.get_guild(GUILD_ID)
            assert guild is not None and guild.name == "Selftest"
            channel = guild.get_channel(CHANNEL_ID)
            assert isinstance(channel, discord.TextChannel) and channel.name == "yamatai"
            assert guild.me is not None
            names = sorted(c["name"] for c in double.commands(GUILD_ID))
            assert names == ["board", "newgame", "ping", "play", "preview", "rename", "slow"]
            assert double.commands() == []
            synced_ids = {c.id for c in bot.synced}
            assert synced_ids == {int(c["id"]) for c in double.commands(GUILD_ID)}
            play = double.command("play", GUILD_ID)
            assert play is not None
            assert [o["name"] for o in play["options"]] == ["action", "times"]
            assert play["options"][0]["autocomplete"] is True
            assert double.gateway.compression_requested == ["zlib-stream"]
            assert double.unexpected_requests == []

    run(body)


def test_global_sync() -> None:
    async def body() -> None:
        async with running_bot(sync_global=True) as (double, _bot):
            assert {c["name"] for c in double.commands()} >= {"ping", "play"}
            assert double.commands(GUILD_ID) == []
            rec = await double.slash(ALICE, CHANNEL_ID, "ping")
            assert (await rec.reply()).content == "pong"
            assert "guild_id" not in rec.payload["data"]

    run(body)


def test_slash_then_dynamic_button_edits_message() -> None:
    async def body() -> None:
        async with running_bot() as (double, _bot):
            rec = await double.slash(ALICE, CHANNEL_ID, "ping")
            response = await rec.response()
            assert response.type == 4
            msg = await rec.reply()
            assert msg.content == "pong" and msg.custom_ids() == ["counter:0"]
            assert msg.interaction_id == rec.id and msg.type == 20
            assert rec.first_response_latency is not None and rec.first_response_latency >= 0

            click = await double.click(BOB, CHANNEL_ID, msg.id, "counter:0")
            assert (await click.response()).type == 7
            edited = await click.reply()
            assert edited.id == msg.id
            assert edited.content == "count 1" and edited.custom_ids() == ["counter:1"]
            assert len(edited.history) == 1 and edited.history[0]["content"] == "pong"

            again = await double.click(ALICE, CHANNEL_ID, msg.id, "counter:1")
            assert (await again.reply()).content == "count 2"
            assert [m.id for m in double.messages(CHANNEL_ID)] == [msg.id]
            assert double.unexpected_requests == []

    run(body)


def test_autocomplete_and_typed_options() -> None:
    async def body() -> None:
        async with running_bot() as (double, _bot):
            choices = await double.autocomplete(
                ALICE, CHANNEL_ID, "play", {"action": "pla"}, focused="action"
            )
            assert choices == [
                {"name": "place", "value": "place"},
                {"name": "play", "value": "play"},
            ]
            empty = await double.autocomplete(
                ALICE, CHANNEL_ID, "play", {"action": "zz", "times": 2}, focused="action"
            )
            assert empty == []

            rec = await double.slash(ALICE, CHANNEL_ID, "play", {"action": "pass", "times": 3})
            reply = await rec.reply()
            assert reply.content == "played pass x3" and reply.ephemeral
            assert double.messages(CHANNEL_ID, include_ephemeral=False) == []
            option = rec.payload["data"]["options"][1]
            assert option == {"name": "times", "type": 4, "value": 3}

    run(body)


def test_defer_then_followup_with_png_and_allowed_mentions() -> None:
    async def body() -> None:
        async with running_bot() as (double, _bot):
            rec = await double.slash(ALICE, CHANNEL_ID, "board")
            assert (await rec.response()).type == 5
            msg = await rec.reply()
            assert msg.id == rec.original_message_id and not msg.loading
            [att] = msg.attachments
            assert att.filename == "board.png" and att.content_type == "image/png"
            assert att.data == PNG
            assert msg.mentioned_user_ids() == [ALICE.id, BOB.id]
            assert msg.pinged_user_ids() == [ALICE.id]
            extra = await rec.followup(1)
            assert extra.ephemeral and extra.content == "extra"
            assert [kind for kind, _ in rec.latencies()] == ["callback:5", "followup", "followup"]
            assert rec.reply_latency is not None
            async with (
                aiohttp.ClientSession() as session,
                session.get(double.state.message_json(msg)["attachments"][0]["url"]) as resp,
            ):
                assert resp.status == 200 and await resp.read() == PNG

    run(body)


def test_thread_creation_and_posting() -> None:
    async def body() -> None:
        async with running_bot() as (double, bot):
            rec = await double.slash(ALICE, CHANNEL_ID, "newgame", {"title": "Game 1"})
            lobby = await rec.reply()
            thread = await double.wait_for_thread(CHANNEL_ID, lambda t: t.name == "Game 1")
            assert thread.id == lobby.id and thread.type == 11 and thread.guild_id == GUILD_ID
            first = await double.wait_for_message(thread.id)
            assert first.content.startswith("Game Game 1 started")
            assert first.pinged_user_ids() == [ALICE.id]
            assert [(a.filename, a.data) for a in first.attachments] == [("board.png", PNG)]
            side = await double.wait_for_thread(CHANNEL_ID, lambda t: t.name == "Game 1-chat")
            assert side.type == 11
            assert (await double.wait_for_message(side.id)).content == "chat here"
            assert [t.name for t in double.threads(CHANNEL_ID)] == ["Game 1", "Game 1-chat"]
            cached = bot.get_channel(thread.id)
            assert isinstance(cached, discord.Thread) and cached.parent_id == CHANNEL_ID

            pick = await double.click(BOB, CHANNEL_ID, lobby.id, "colour", ["blue"])
            answer = await pick.reply()
            assert answer.content == "you chose blue" and answer.ephemeral

            in_thread = await double.slash(BOB, thread.id, "ping")
            assert (await in_thread.reply()).channel_id == thread.id
            assert [m.content for m in double.messages(thread.id)][-1] == "pong"
            assert thread.message_count == 2

    run(body)


def test_modal_round_trip() -> None:
    async def body() -> None:
        async with running_bot() as (double, _bot):
            opened = await double.slash(ALICE, CHANNEL_ID, "rename")
            assert (await opened.response()).type == 9
            assert opened.modal is not None and opened.modal["title"] == "Rename"
            submitted = await double.submit_modal(ALICE, opened, {"name": "Kyoto"})
            assert (await submitted.reply()).content == "renamed to Kyoto"

    run(body)


def test_wrong_token_is_login_failure() -> None:
    async def body() -> None:
        from tests.discord_double.configure import configure_client_for_double

        from .harness import SelfTestBot, make_double

        double = make_double()
        await double.start()
        restore = configure_client_for_double(double.api_base, double.gateway_url)
        bot = SelfTestBot()
        try:
            try:
                await bot.start("not-" + TOKEN)
            except discord.LoginFailure:
                pass
            else:
                raise AssertionError("LoginFailure not raised")
        finally:
            await bot.close()
            await double.stop()
            restore()
        assert [(r.path, r.status) for r in double.requests] == [("/users/@me", 401)]

    run(body)


def test_ephemeral_preview_with_file_then_confirm_view() -> None:
    async def body() -> None:
        async with running_bot() as (double, _bot):
            rec = await double.slash(ALICE, CHANNEL_ID, "preview", {"turn": "boat A3; collect"})
            preview = await rec.reply()
            assert preview.ephemeral and preview.content == "preview of boat A3; collect"
            assert [a.data for a in preview.attachments] == [PNG]
            assert preview.custom_ids() == ["confirm"]
            assert rec.callback is not None and [f.filename for f in rec.callback.files] == [
                "preview.png"
            ]
            click = await double.click(ALICE, CHANNEL_ID, preview.id, "confirm")
            done = await click.reply()
            assert done.id == preview.id and done.content == "confirmed boat A3; collect"
            assert done.attachments == [] and done.components == []

    run(body)


def test_reconnect_resumes_session() -> None:
    async def body() -> None:
        async with running_bot() as (double, bot):
            resumed = asyncio.Event()

            async def on_resumed() -> None:
                resumed.set()

            bot.add_listener(on_resumed)
            await double.reconnect()
            await asyncio.wait_for(resumed.wait(), 10)
            await double.wait_ready()
            assert len(double.gateway.identify_payloads) == 1
            assert len(double.gateway.sessions) == 1
            rec = await double.slash(BOB, CHANNEL_ID, "ping")
            assert (await rec.reply()).content == "pong"

    run(body)


def test_rest_errors_reach_the_client_and_unknown_routes_are_recorded() -> None:
    async def body() -> None:
        async with running_bot() as (double, bot):
            channel = bot.get_channel(CHANNEL_ID)
            assert isinstance(channel, discord.TextChannel)
            try:
                await channel.send("x" * 2001)
            except discord.HTTPException as exc:
                assert exc.status == 400 and exc.code == 50035
            else:
                raise AssertionError("2001 characters accepted")
            msg = await channel.send("hello", allowed_mentions=discord.AllowedMentions.none())
            await msg.edit(content="hello again")
            await msg.pin()
            record = double.message(msg.id)
            assert record.content == "hello again" and record.pinned
            assert record.allowed_mentions == {"parse": []}
            fetched = await channel.fetch_message(msg.id)
            assert fetched.content == "hello again"
            await msg.delete()
            assert double.messages(CHANNEL_ID) == []
            assert double.unexpected_requests == []
            try:
                await bot.http.request(Route("GET", "/guilds/{guild_id}/bans", guild_id=GUILD_ID))
            except discord.NotFound:
                pass
            else:
                raise AssertionError("unknown route answered")
            [unexpected] = double.unexpected_requests
            assert (unexpected.method, unexpected.path) == ("GET", f"/guilds/{GUILD_ID}/bans")
            double.state.requests.remove(unexpected)  # keep the harness' own checks meaningful

    run(body)


def test_clean_shutdown() -> None:
    async def body() -> None:
        async with running_bot() as (double, _bot):
            port = double.port
            assert len(double.gateway.connections) == 1
        assert double.gateway.connections == []
        # discord.py sends close(1000) and, racing it from its read loop, close(4000)
        assert len(double.gateway.close_codes) == 1
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            pass
        else:
            writer.close()
            raise AssertionError("double still listening after stop()")

    run(body)


def test_deferred_edit_original_and_deferred_update() -> None:
    async def body() -> None:
        async with running_bot() as (double, _bot):
            rec = await double.slash(ALICE, CHANNEL_ID, "slow")
            assert (await rec.response()).type == 5
            msg = await rec.reply()
            assert (await rec.wait_event("edit_original")).message_id == msg.id
            assert msg.ephemeral and not msg.loading and msg.content == "rendered"
            assert [a.data for a in msg.attachments] == [PNG]
            click = await double.click(ALICE, CHANNEL_ID, msg.id, "quiet:0")
            assert (await click.response()).type == 6
            edited = await click.reply()
            assert edited.id == msg.id and edited.content == "quiet 1"
            assert [a.filename for a in edited.attachments] == ["slow.png"]

    run(body)
