"""The double's Components V2 checks: what discord.py sends for a LayoutView is accepted and
stored (channel messages, edits, interaction answers), and what Discord refuses gets its 400."""

from __future__ import annotations

import io
import json
from typing import Any

import aiohttp
import discord
import pytest
from discord import ui

from tests.discord_double import DiscordDouble
from tests.discord_double.records import (
    BUTTON,
    CONTAINER,
    IS_COMPONENTS_V2,
    SECTION,
    MessageRecord,
)

from .harness import (
    ALICE,
    BOB,
    CHANNEL_ID,
    GUILD_ID,
    PNG,
    TOKEN,
    SelfTestBot,
    make_double,
    run,
    running_bot,
)

JSON = dict[str, Any]
AUTH = {"Authorization": f"Bot {TOKEN}"}
BOARD = PNG
PHONE = PNG + b"phone"


def card(turn: int, *, gallery: tuple[str, ...] = ("phone.png", "board.png")) -> ui.LayoutView:
    """A turn card as issue 37 describes it: one container, text, a section, a gallery, buttons."""
    view = ui.LayoutView(timeout=None)
    items = [discord.MediaGalleryItem(f"attachment://{name}") for name in gallery]
    view.add_item(
        ui.Container(
            ui.TextDisplay(f"## Round {turn}"),
            ui.Section(
                ui.TextDisplay("Alice plays"),
                ui.TextDisplay("deadline <t:0:R>"),
                accessory=ui.Button(label="Rules", custom_id=f"rules:{turn}"),
            ),
            ui.Separator(),
            ui.MediaGallery(*items),
            ui.ActionRow(
                ui.Button(label="Take your turn", custom_id=f"take:{turn}"),
                ui.Button(label="View on the web", url="http://127.0.0.1/game/1"),
            ),
            accent_colour=0x3366CC,
        )
    )
    return view


def files() -> list[discord.File]:
    """The two pictures a turn card shows."""
    return [
        discord.File(io.BytesIO(PHONE), "phone.png"),
        discord.File(io.BytesIO(BOARD), "board.png"),
    ]


def assert_turn_card(record: MessageRecord, turn: int) -> None:
    """The record of ``card(turn)`` sent with ``files()``."""
    assert record.is_v2 and record.content == "" and record.embeds == []
    assert record.text_displays() == [f"## Round {turn}", "Alice plays", "deadline <t:0:R>"]
    assert record.gallery_urls() == ["attachment://phone.png", "attachment://board.png"]
    assert [a.data for a in record.gallery_attachments()] == [PHONE, BOARD]
    assert record.custom_ids() == [f"rules:{turn}", f"take:{turn}"]
    [container] = record.components_of_type(CONTAINER)
    assert container["accent_color"] == 0x3366CC
    [section] = record.components_of_type(SECTION)
    assert section["accessory"]["type"] == BUTTON


def test_layout_view_sent_and_edited_in_a_channel() -> None:
    async def body() -> None:
        async with running_bot() as (double, bot):
            channel = bot.get_channel(CHANNEL_ID)
            assert isinstance(channel, discord.TextChannel)
            msg = await channel.send(view=card(1), files=files())
            record = double.message(msg.id)
            assert_turn_card(record, 1)
            assert msg.flags.components_v2  # discord.py reads the flag back
            # an edit keeping only the board: its gallery names what the message keeps
            board = next(a for a in msg.attachments if a.filename == "board.png")
            await msg.edit(view=card(2, gallery=("board.png",)), attachments=[board])
            assert record.gallery_urls() == ["attachment://board.png"]
            assert [a.filename for a in record.attachments] == ["board.png"]
            assert record.custom_ids() == ["rules:2", "take:2"] and len(record.history) == 1
            # an edit without a view keeps the flag (it cannot be removed) and the layout
            await msg.edit(attachments=[board])
            assert record.is_v2 and record.custom_ids() == ["rules:2", "take:2"]
            # a gallery naming the dropped picture is refused, the message is left as it was
            with pytest.raises(discord.HTTPException) as refused:
                await msg.edit(view=card(3, gallery=("phone.png",)))
            assert refused.value.status == 400 and refused.value.code == 50035
            assert "components.0.components.3.items.0.media.url" in refused.value.text
            assert record.custom_ids() == ["rules:2", "take:2"]

    run(body)


def test_classic_message_turned_into_a_card_by_an_edit() -> None:
    async def body() -> None:
        async with running_bot() as (double, bot):
            channel = bot.get_channel(CHANNEL_ID)
            assert isinstance(channel, discord.TextChannel)
            msg = await channel.send(f"<@{ALICE.id}> your turn")
            with pytest.raises(discord.HTTPException) as refused:  # content not reset
                await msg.edit(view=card(1), attachments=files())
            assert refused.value.code == 50035 and "In content" in refused.value.text
            await msg.edit(content=None, view=card(1), attachments=files())
            record = double.message(msg.id)
            assert_turn_card(record, 1)
            assert record.history[0]["content"] == f"<@{ALICE.id}> your turn"

    run(body)


def test_mentions_in_text_displays_ping_per_allowed_mentions() -> None:
    async def body() -> None:
        async with running_bot() as (double, bot):
            channel = bot.get_channel(CHANNEL_ID)
            assert isinstance(channel, discord.TextChannel)
            view = ui.LayoutView()
            view.add_item(ui.Container(ui.TextDisplay(f"<@{ALICE.id}> to play, <@{BOB.id}> next")))
            pinged = await channel.send(
                view=view,
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(ALICE.id)]),
            )
            assert double.message(pinged.id).mentioned_user_ids() == [ALICE.id, BOB.id]
            assert double.message(pinged.id).pinged_user_ids() == [ALICE.id]
            quiet = await channel.send(view=view)  # the bot's default: AllowedMentions.none()
            assert double.message(quiet.id).pinged_user_ids() == []

    run(body)


class CardButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"take:(?P<n>\d+)"):
    """The card's Take button: answers with the next card in place (type 7)."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label="Take your turn", custom_id=f"take:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any, /
    ) -> CardButton:
        """Rebuild from the custom id."""
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Replace the clicked card by the next one."""
        await interaction.response.edit_message(view=card(self.n + 1))


def add_card_commands(bot: SelfTestBot) -> None:
    """Commands answering with cards: at once, after a defer, by editing the response."""

    @bot.tree.command(description="Answer with a card")
    async def cardnow(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(view=card(1), files=files())
        await interaction.followup.send(view=card(2), files=files(), ephemeral=True)

    @bot.tree.command(description="Defer, then a card")
    async def cardlater(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.followup.send(view=card(1), files=files())
        await interaction.edit_original_response(view=card(2), attachments=files())

    @bot.tree.command(description="Defer, then edit the loading message into a card")
    async def cardedit(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.edit_original_response(view=card(3), attachments=files())


def test_interaction_answers_with_cards() -> None:
    async def body() -> None:
        async with running_bot() as (double, bot):
            add_card_commands(bot)
            bot.add_dynamic_items(CardButton)
            bot.tree.copy_global_to(guild=discord.Object(GUILD_ID))
            await bot.tree.sync(guild=discord.Object(GUILD_ID))

            now = await double.slash(ALICE, CHANNEL_ID, "cardnow", {})
            assert (await now.response()).type == 4
            original = now.original()
            assert original is not None
            assert_turn_card(original, 1)
            followup = await now.followup(0)
            assert_turn_card(followup, 2)
            assert followup.ephemeral

            later = await double.slash(ALICE, CHANNEL_ID, "cardlater", {})
            await later.wait_event("edit_original")
            filled = later.original()
            assert filled is not None and not filled.loading
            assert_turn_card(filled, 2)
            assert filled.history[-1]["flags"] & IS_COMPONENTS_V2  # the follow-up filled it

            edited = await double.slash(ALICE, CHANNEL_ID, "cardedit", {})
            await edited.wait_event("edit_original")
            loading_then_card = edited.original()
            assert loading_then_card is not None and not loading_then_card.loading
            assert_turn_card(loading_then_card, 3)

            click = await double.click(ALICE, CHANNEL_ID, original.id, "take:1")
            assert (await click.response()).type == 7
            assert original.custom_ids() == ["rules:2", "take:2"] and original.is_v2
            assert original.gallery_urls() == ["attachment://phone.png", "attachment://board.png"]

    run(body, timeout=30)


# -- refusals, sent raw ----------------------------------------------------------------------------

V2 = IS_COMPONENTS_V2


def text(content: str = "t") -> JSON:
    """A text display."""
    return {"type": 10, "content": content}


def button(custom_id: str = "b", label: str = "b") -> JSON:
    """A primary button."""
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id}


def row(*children: JSON) -> JSON:
    """An action row."""
    return {"type": 1, "components": list(children)}


def section(*texts: JSON, accessory: JSON | None = None) -> JSON:
    """A section (a button accessory unless given)."""
    return {"type": 9, "components": list(texts), "accessory": accessory or button("acc")}


def container(*children: JSON) -> JSON:
    """A container."""
    return {"type": 17, "components": list(children)}


def gallery(*urls: str) -> JSON:
    """A media gallery."""
    return {"type": 12, "items": [{"media": {"url": u}} for u in urls]}


THUMB = {"type": 11, "media": {"url": "https://example.invalid/a.png"}}
SELECT = {"type": 3, "custom_id": "s", "options": [{"label": "a", "value": "a"}]}


def v2(*components: JSON, **extra: Any) -> JSON:
    """A V2 create body."""
    return {"flags": V2, "components": list(components), **extra}


# (name, body, dotted path of the error): each a rule of Discord's docs or spec
REFUSED: list[tuple[str, JSON, str]] = [
    ("button at top level", v2(button()), "components.0.type"),
    ("thumbnail at top level", v2(THUMB), "components.0.type"),
    (
        "container in a container",
        v2(container(container(text()))),
        "components.0.components.0.type",
    ),
    ("thumbnail in a container", v2(container(THUMB)), "components.0.components.0.type"),
    ("empty container", v2(container()), "components.0.components"),
    (
        "section of four texts",
        v2(section(text(), text(), text(), text())),
        "components.0.components",
    ),
    ("section without text", v2(section()), "components.0.components"),
    ("button in a section's texts", v2(section(button())), "components.0.components.0.type"),
    ("text as an accessory", v2(section(text(), accessory=text())), "components.0.accessory.type"),
    (
        "section without accessory",
        v2({"type": 9, "components": [text()]}),
        "components.0.accessory",
    ),
    (
        "six buttons in a row",
        v2(row(*(button(f"b{i}") for i in range(6)))),
        "components.0.components",
    ),
    ("select beside a button", v2(row(SELECT, button())), "components.0.components"),
    ("text in a row", v2(row(text())), "components.0.components.0.type"),
    ("41 components", v2(*(text() for _ in range(41))), "components"),
    ("41 nested components", v2(container(*(text() for _ in range(40)))), "components"),
    ("4001 characters of text", v2(text("x" * 2000), text("y" * 2001)), "components"),
    ("empty text display", v2(text("")), "components.0.content"),
    ("empty gallery", v2(gallery()), "components.0.items"),
    ("11 gallery items", v2(gallery(*["https://e.invalid/a.png"] * 11)), "components.0.items"),
    (
        "custom id twice",
        v2(section(text(), accessory=button("same")), row(button("same"))),
        "components.1.components.0.custom_id",
    ),
    ("custom id of 101", v2(row(button("x" * 101))), "components.0.components.0.custom_id"),
    ("empty custom id", v2(row(button(""))), "components.0.components.0.custom_id"),
    ("label of 81", v2(row(button(label="x" * 81))), "components.0.components.0.label"),
    ("component id twice", v2({**text(), "id": 7}, {**text(), "id": 7}), "components.1.id"),
    (
        "accent colour over 0xFFFFFF",
        v2({**container(text()), "accent_color": 1 << 24}),
        "components.0.accent_color",
    ),
    ("content with the flag", v2(text(), content="hi"), "content"),
    ("embeds with the flag", v2(text(), embeds=[{"title": "t"}]), "embeds"),
    ("stickers with the flag", v2(text(), sticker_ids=["1"]), "sticker_ids"),
    ("poll with the flag", v2(text(), poll={"question": {"text": "q"}, "answers": []}), "poll"),
    (
        "gallery of a missing file",
        v2(gallery("attachment://x.png")),
        "components.0.items.0.media.url",
    ),
    (
        "thumbnail of a missing file",
        v2(section(text(), accessory={"type": 11, "media": {"url": "attachment://x.png"}})),
        "components.0.accessory.media.url",
    ),
    (
        "file component of a missing file",
        v2({"type": 13, "file": {"url": "attachment://x.zip"}}),
        "components.0.file.url",
    ),
    (
        "file component naming a URL",
        v2({"type": 13, "file": {"url": "https://e.invalid/x.zip"}}),
        "components.0.file.url",
    ),
    ("layout without the flag", {"components": [container(text())]}, "components.0.type"),
    ("a string as a component", v2(container("text")), "components.0.components.0"),  # type: ignore[arg-type]
    ("a string as a gallery item", v2({"type": 12, "items": ["x"]}), "components.0.items.0"),
]

ACCEPTED: list[tuple[str, JSON]] = [
    ("40 components", v2(container(*(text() for _ in range(39))))),
    ("4000 characters of text", v2(text("x" * 2000), text("y" * 2000))),
    ("10 gallery items", v2(gallery(*["https://e.invalid/a.png"] * 10))),
    (
        "section of three texts and a thumbnail",
        v2(section(text(), text(), text(), accessory=THUMB)),
    ),
    ("a select alone in a row", v2(row(SELECT))),
    ("five buttons in a row", v2(row(*(button(f"b{i}") for i in range(5))))),
    ("content null and embeds []", v2(text(), content=None, embeds=[])),
    ("id 0 twice (treated as empty)", v2({**text(), "id": 0}, {**text(), "id": 0})),
]


def errors_at(answer: JSON, path: str) -> list[JSON]:
    """The ``_errors`` of an Invalid Form Body answer at this dotted path."""
    node: Any = answer["errors"]
    for part in path.split("."):
        assert isinstance(node, dict) and part in node, (path, answer)
        node = node[part]
    errors: list[JSON] = node["_errors"]
    return errors


async def post(
    session: aiohttp.ClientSession,
    url: str,
    body: JSON,
    uploads: dict[str, bytes] | None = None,
    method: str = "POST",
) -> tuple[int, JSON]:
    """Send a message body as JSON, or multipart with files, as discord.py does."""
    if uploads:
        form = aiohttp.FormData()
        form.add_field("payload_json", json.dumps(body), content_type="application/json")
        for i, (name, data) in enumerate(uploads.items()):
            form.add_field(f"files[{i}]", data, filename=name, content_type="image/png")
        request = session.request(method, url, data=form, headers=AUTH)
    else:
        request = session.request(method, url, json=body, headers=AUTH)
    async with request as resp:
        answer = await resp.json() if resp.status != 204 else {}
        return resp.status, answer


def refused(status: int, answer: JSON, path: str) -> None:
    """Assert a 400 Invalid Form Body at this path."""
    assert status == 400 and answer["code"] == 50035, answer
    assert errors_at(answer, path)


@pytest.mark.parametrize(("name", "payload", "path"), REFUSED, ids=[r[0] for r in REFUSED])
def test_channel_message_refused(name: str, payload: JSON, path: str) -> None:
    async def body() -> None:
        async with make_double() as double, aiohttp.ClientSession() as session:
            url = f"{double.api_base}/channels/{CHANNEL_ID}/messages"
            status, answer = await post(session, url, payload)
            refused(status, answer, path)
            assert double.messages(CHANNEL_ID) == []

    run(body)


@pytest.mark.parametrize(("name", "payload"), ACCEPTED, ids=[a[0] for a in ACCEPTED])
def test_channel_message_accepted_at_the_limits(name: str, payload: JSON) -> None:
    async def body() -> None:
        async with make_double() as double, aiohttp.ClientSession() as session:
            url = f"{double.api_base}/channels/{CHANNEL_ID}/messages"
            status, answer = await post(session, url, payload)
            assert status == 200, answer
            [record] = double.messages(CHANNEL_ID)
            assert record.is_v2 and record.components == payload["components"]

    run(body)


def test_attachment_references_and_edits_raw() -> None:
    async def body() -> None:
        async with make_double() as double, aiohttp.ClientSession() as session:
            url = f"{double.api_base}/channels/{CHANNEL_ID}/messages"
            media = v2(
                gallery("attachment://board.png"),
                {"type": 13, "file": {"url": "attachment://rules.pdf"}},
            )
            # a file renamed by its attachments entry is named by its new name
            renamed = {**media, "attachments": [{"id": 0, "filename": "board.png"}, {"id": 1}]}
            status, answer = await post(session, url, renamed, {"b.png": BOARD, "rules.pdf": b"%"})
            assert status == 200, answer
            record = double.message(int(answer["id"]))
            assert [a.filename for a in record.gallery_attachments()] == ["board.png"]
            edit = f"{url}/{record.id}"
            # removing the flag, or adding content to a card, is refused; nothing changes
            for patch, path in (
                ({"flags": 0}, "flags"),
                ({"flags": 0, "components": []}, "flags"),
                ({"content": "hello"}, "content"),
                (
                    {"attachments": [{"id": str(record.attachments[1].id)}]},
                    "components.0.items.0.media.url",
                ),
                (
                    {"components": [gallery("attachment://other.png")]},
                    "components.0.items.0.media.url",
                ),
            ):
                status, answer = await post(session, edit, patch, method="PATCH")
                refused(status, answer, path)
            assert record.is_v2 and len(record.attachments) == 2 and record.history == []
            # keeping the board and replacing the file component is accepted
            keep = {
                "components": [gallery("attachment://board.png", "attachment://new.png")],
                "attachments": [{"id": str(record.attachments[0].id)}, {"id": 0}],
            }
            status, answer = await post(session, edit, keep, {"new.png": PHONE}, method="PATCH")
            assert status == 200, answer
            assert [a.data for a in record.gallery_attachments()] == [BOARD, PHONE]
            assert record.is_v2 and record.text_displays() == []

    run(body)


async def _raw_session(
    session: aiohttp.ClientSession, double: DiscordDouble
) -> aiohttp.ClientWebSocketResponse:
    """A raw gateway session (no bot answers), with one guild command synced."""
    ws = await session.ws_connect(f"{double.gateway_url}?v=10&encoding=json")
    await ws.receive()  # HELLO
    await ws.send_json({"op": 2, "d": {"token": TOKEN, "intents": 513, "properties": {}}})
    await double.wait_ready(5)
    url = f"{double.api_base}/applications/{double.app_id}/guilds/{GUILD_ID}/commands"
    async with session.put(url, json=[{"name": "card", "description": "d"}], headers=AUTH) as r:
        assert r.status == 200
    return ws


def test_interaction_answers_refused_raw() -> None:
    bad = v2(container(THUMB))
    path = "components.0.components.0.type"

    async def body() -> None:
        async with make_double() as double, aiohttp.ClientSession() as session:
            ws = await _raw_session(session, double)
            api = double.api_base
            rec = await double.slash(ALICE, CHANNEL_ID, "card", {})
            callback = f"{api}/interactions/{rec.id}/{rec.token}/callback"
            status, answer = await post(session, callback, {"type": 4, "data": bad})
            refused(status, answer, path)  # the double does not prefix "data."
            assert not rec.responded
            status, answer = await post(session, callback, {"type": 5, "data": {}})
            assert status == 200
            hook = f"{api}/webhooks/{double.app_id}/{rec.token}"
            # the first follow-up fills the loading message: judged as a V2 body
            status, answer = await post(session, f"{hook}?wait=true", bad)
            refused(status, answer, path)
            status, answer = await post(session, f"{hook}?wait=true", v2(text("card")))
            assert status == 200, answer
            original = rec.original()
            assert original is not None and original.is_v2 and not original.loading
            status, answer = await post(session, f"{hook}?wait=true", v2(gallery("attachment://x")))
            refused(status, answer, "components.0.items.0.media.url")
            edit = f"{hook}/messages/@original"
            for patch, where in (
                (bad, path),
                ({"flags": 0}, "flags"),
                ({"content": "x"}, "content"),
            ):
                status, answer = await post(session, edit, patch, method="PATCH")
                refused(status, answer, where)
            assert original.text_displays() == ["card"]
            await ws.close()

    run(body)


def test_update_message_refused_raw() -> None:
    async def body() -> None:
        async with make_double() as double, aiohttp.ClientSession() as session:
            ws = await _raw_session(session, double)
            url = f"{double.api_base}/channels/{CHANNEL_ID}/messages"
            status, answer = await post(session, url, v2(text("card"), row(button("go"))))
            assert status == 200
            message_id = int(answer["id"])
            rec = await double.click(ALICE, CHANNEL_ID, message_id, "go")
            callback = f"{double.api_base}/interactions/{rec.id}/{rec.token}/callback"
            for data, where in (
                ({"flags": 0, "components": [row(button("go"))]}, "flags"),
                ({"components": [THUMB]}, "components.0.type"),  # flag kept: judged as V2
                ({"content": "x"}, "content"),
            ):
                status, answer = await post(session, callback, {"type": 7, "data": data})
                refused(status, answer, where)
            status, answer = await post(
                session, callback, {"type": 7, "data": {"components": [text("next")]}}
            )
            assert status == 200, answer
            assert double.message(message_id).text_displays() == ["next"]
            await ws.close()

    run(body)


def every_item_view() -> ui.LayoutView:
    """One of each V2 item discord.py 2.7.1 offers, with ids, spoilers and alt texts set."""
    view = ui.LayoutView(timeout=None)
    select: ui.Select[ui.LayoutView] = ui.Select(
        custom_id="pick",
        options=[discord.SelectOption(label="fr"), discord.SelectOption(label="pl")],
    )
    view.add_item(ui.TextDisplay("top", id=1))
    view.add_item(
        ui.Container(
            ui.Section(
                ui.TextDisplay("seat 1", id=3),
                accessory=ui.Thumbnail("attachment://phone.png", description="avatar", id=4),
                id=2,
            ),
            ui.Separator(visible=False, spacing=discord.SeparatorSpacing.large, id=5),
            ui.MediaGallery(
                discord.MediaGalleryItem(
                    "attachment://board.png", description="board", spoiler=True
                ),
                id=6,
            ),
            ui.File("attachment://rules.pdf", spoiler=True, id=7),
            ui.ActionRow(select, id=8),
            spoiler=True,
            id=9,
        )
    )
    return view


def test_every_item_discord_py_sends_is_accepted() -> None:
    async def body() -> None:
        async with running_bot() as (double, bot):
            channel = bot.get_channel(CHANNEL_ID)
            assert isinstance(channel, discord.TextChannel)
            pdf = discord.File(io.BytesIO(b"%PDF"), "rules.pdf")
            msg = await channel.send(view=every_item_view(), files=[*files(), pdf])
            record = double.message(msg.id)
            assert record.is_v2 and record.text_displays() == ["top", "seat 1"]
            assert [c.get("id") for c in record.iter_components()] == [
                1,
                9,
                2,
                3,
                4,
                5,
                6,
                7,
                8,
                None,
            ]
            assert record.gallery_urls() == ["attachment://board.png"]
            assert [a.data for a in record.gallery_attachments()] == [BOARD]
            assert record.custom_ids() == ["pick"]

    run(body)
