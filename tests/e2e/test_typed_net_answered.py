"""``/play action: net`` (also ``net N:os rXcY h`` and ``move 2; net``) is answered through the
real bot on the Discord double (play-through 47 finding 5: Discord showed "The application did
not respond", the bot logged IndexError / ValueError): a private refusal that names what was
typed and lists what is allowed, and nothing logged at ERROR (the harness checks it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.harness import GUEST, HOST, TIMEOUT, himiko_env, run

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

#: The first line of each refusal begins so ("I could not read `net`…").
TYPED = ("net", "net N:os rXcY h", "move 2; net")


@pytest.mark.parametrize("lang", ["fr", "pl"])
def test_a_half_typed_net_is_answered_with_a_refusal(tmp_path: Path, lang: str) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table = await env.start_game(HOST, [GUEST], game="namiji")
            player = HOST if await env.current_user(table.id) == HOST.id else GUEST
            before = (await env.game(table.id)).version
            for action in TYPED:
                rec = await env.double.slash(
                    player, table.id, "play", {"action": action}, locale=lang
                )
                reply = await rec.reply(TIMEOUT)
                assert reply.ephemeral, reply.content
                what, allowed = str(reply.content).split("\n", 1)
                assert "`net" in what and "(`" in allowed, (action, reply.content)
            assert (await env.game(table.id)).version == before

    run(body)
