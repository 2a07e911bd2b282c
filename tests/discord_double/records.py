"""What the double records: channels, messages, attachments, requests and interactions."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from .waiting import Notifier

JSON = dict[str, Any]

EPHEMERAL = 1 << 6
LOADING = 1 << 7
IS_COMPONENTS_V2 = 1 << 15

# Component types a V2 record is searched by (discord-api-docs components/reference.mdx)
ACTION_ROW, BUTTON, SECTION, TEXT_DISPLAY, THUMBNAIL = 1, 2, 9, 10, 11
MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER = 12, 13, 14, 17
ATTACHMENT = "attachment://"

_USER_MENTION = re.compile(r"<@!?(\d+)>")
_ROLE_MENTION = re.compile(r"<@&(\d+)>")


def utcnow() -> dt.datetime:
    """The current time, timezone-aware UTC."""
    return dt.datetime.now(dt.UTC)


@dataclass
class AttachmentRecord:
    """One uploaded file, bytes kept."""

    id: int
    filename: str
    content_type: str
    data: bytes
    description: str | None = None

    @property
    def size(self) -> int:
        """Size in bytes."""
        return len(self.data)


@dataclass
class ChannelRecord:
    """A guild text channel, a thread (type 11/12) or a DM (type 1)."""

    id: int
    type: int
    guild_id: int | None
    name: str
    parent_id: int | None = None
    owner_id: int | None = None
    position: int = 0
    topic: str | None = None
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = 1440
    invitable: bool = True
    rate_limit_per_user: int = 0
    created_at: dt.datetime = field(default_factory=utcnow)
    message_count: int = 0
    member_ids: set[int] = field(default_factory=set)
    recipient_ids: list[int] = field(default_factory=list)
    starter_message_id: int | None = None
    last_message_id: int | None = None
    pinned_ids: list[int] = field(default_factory=list)

    @property
    def is_thread(self) -> bool:
        """True for public, private and announcement threads."""
        return self.type in (10, 11, 12)


@dataclass
class MessageRecord:
    """A message as the double stores it; edits update it in place (old versions in history)."""

    id: int
    channel_id: int
    guild_id: int | None
    author_id: int
    content: str = ""
    embeds: list[JSON] = field(default_factory=list)
    components: list[JSON] = field(default_factory=list)
    attachments: list[AttachmentRecord] = field(default_factory=list)
    allowed_mentions: JSON | None = None
    flags: int = 0
    tts: bool = False
    type: int = 0
    message_reference: JSON | None = None
    interaction_id: int | None = None
    webhook_id: int | None = None
    nonce: str | int | None = None
    poll: JSON | None = None
    pinned: bool = False
    deleted: bool = False
    reactions: list[str] = field(default_factory=list)
    timestamp: dt.datetime = field(default_factory=utcnow)
    edited_timestamp: dt.datetime | None = None
    created_at: float = 0.0
    history: list[JSON] = field(default_factory=list)

    @property
    def ephemeral(self) -> bool:
        """True if only the interacting user sees it."""
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """True while a deferred response shows "thinking"."""
        return bool(self.flags & LOADING)

    @property
    def is_v2(self) -> bool:
        """True if the message carries IS_COMPONENTS_V2 (a layout of components, no content)."""
        return bool(self.flags & IS_COMPONENTS_V2)

    def iter_components(self) -> Iterator[JSON]:
        """Every component, depth first in display order: rows and their buttons, containers and
        their children, sections' text displays then their accessory."""
        stack = list(reversed(self.components))
        while stack:
            comp = stack.pop()
            yield comp
            children: list[JSON] = list(comp.get("components", []))
            for key in ("accessory", "component"):
                if isinstance(comp.get(key), dict):
                    children.append(comp[key])
            stack.extend(reversed(children))

    def components_of_type(self, kind: int) -> list[JSON]:
        """The components of this type (e.g. ``CONTAINER``), depth first in display order."""
        return [c for c in self.iter_components() if c.get("type") == kind]

    def text_displays(self) -> list[str]:
        """The text of every text display, in display order (sections' texts included)."""
        return [str(c.get("content", "")) for c in self.components_of_type(TEXT_DISPLAY)]

    def gallery_urls(self) -> list[str]:
        """The media URL of every media gallery item, in order (``attachment://name`` as sent)."""
        return [
            str((item.get("media") or {}).get("url", ""))
            for gallery in self.components_of_type(MEDIA_GALLERY)
            for item in gallery.get("items", [])
        ]

    def gallery_attachments(self) -> list[AttachmentRecord]:
        """The attachments the gallery items show (``attachment://name``), in order."""
        found = (
            self.attachment(url[len(ATTACHMENT) :])
            for url in self.gallery_urls()
            if url.startswith(ATTACHMENT)
        )
        return [a for a in found if a is not None]

    def custom_ids(self) -> list[str]:
        """The custom ids of all interactive components, in order."""
        return [c["custom_id"] for c in self.iter_components() if "custom_id" in c]

    def component(self, custom_id: str) -> JSON | None:
        """The component with this custom id, if any."""
        return next((c for c in self.iter_components() if c.get("custom_id") == custom_id), None)

    def attachment(self, filename: str) -> AttachmentRecord | None:
        """The attachment with this file name, if any."""
        return next((a for a in self.attachments if a.filename == filename), None)

    def text(self) -> str:
        """Content plus embed titles, descriptions and fields, for loose assertions."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [embed.get("title") or "", embed.get("description") or ""]
            for f in embed.get("fields", []):
                parts += [f.get("name", ""), f.get("value", "")]
        for comp in self.iter_components():
            if comp.get("type") == 10:
                parts.append(comp.get("content", ""))
        return "\n".join(p for p in parts if p)

    def mention_text(self) -> str:
        """The text Discord reads mentions from: the content, plus every text display of a V2
        message (components reference, Text Display: its mentions ping per allowed_mentions)."""
        return "\n".join([self.content, *self.text_displays()])

    def mentioned_user_ids(self) -> list[int]:
        """User ids written as mentions in the content or the text displays."""
        return [int(m) for m in _USER_MENTION.findall(self.mention_text())]

    def mentioned_role_ids(self) -> list[int]:
        """Role ids written as mentions in the content or the text displays."""
        return [int(m) for m in _ROLE_MENTION.findall(self.mention_text())]

    def pinged_user_ids(self) -> list[int]:
        """Users the message notifies, after applying allowed_mentions like Discord does."""
        mentioned = self.mentioned_user_ids()
        am = self.allowed_mentions
        if am is None:
            return mentioned
        if "users" in am.get("parse", []):
            return mentioned
        allowed = {int(u) for u in am.get("users", [])}
        return [u for u in mentioned if u in allowed]

    def pings_everyone(self) -> bool:
        """True if @everyone/@here would notify."""
        text = self.mention_text()
        if "@everyone" not in text and "@here" not in text:
            return False
        am = self.allowed_mentions
        return am is None or "everyone" in am.get("parse", [])


@dataclass
class RequestRecord:
    """One REST request the double served."""

    method: str
    path: str
    status: int
    route: str | None
    body: Any = None
    file_count: int = 0
    at: float = 0.0


@dataclass
class CallbackRecord:
    """An interaction callback (initial response)."""

    type: int
    data: JSON
    files: list[AttachmentRecord]
    at: float


@dataclass
class InteractionEvent:
    """A step in answering an interaction, for latency figures."""

    kind: str  # callback:N, followup, edit_original, delete_original, edit_followup
    at: float
    message_id: int | None = None


_VISIBLE = ("callback:4", "callback:7", "edit_original", "followup")


class InteractionRecord:
    """An interaction the double dispatched and everything the bot answered to it."""

    def __init__(
        self,
        payload: JSON,
        notifier: Notifier,
        messages: Mapping[int, MessageRecord],
    ) -> None:
        self.payload = payload
        self.id: int = int(payload["id"])
        self.token: str = payload["token"]
        self.type: int = payload["type"]
        self.channel_id: int = int(payload["channel_id"])
        self.guild_id: int | None = int(payload["guild_id"]) if payload.get("guild_id") else None
        user = payload["member"]["user"] if "member" in payload else payload["user"]
        self.user_id: int = int(user["id"])
        self.component_message_id: int | None = (
            int(payload["message"]["id"]) if "message" in payload else None
        )
        self.dispatched_at: float = 0.0
        self.callbacks: list[CallbackRecord] = []
        self.original_message_id: int | None = None
        self.followup_ids: list[int] = []
        self.events: list[InteractionEvent] = []
        self._notifier = notifier
        self._messages = messages

    def __repr__(self) -> str:
        return f"<InteractionRecord id={self.id} type={self.type} callbacks={len(self.callbacks)}>"

    # -- results ---------------------------------------------------------------------------------

    @property
    def responded(self) -> bool:
        """True once the initial callback arrived."""
        return bool(self.callbacks)

    @property
    def callback(self) -> CallbackRecord | None:
        """The initial response, if any."""
        return self.callbacks[0] if self.callbacks else None

    @property
    def choices(self) -> list[JSON] | None:
        """Autocomplete choices (callback type 8), if answered so."""
        cb = self.callback
        return list(cb.data.get("choices", [])) if cb is not None and cb.type == 8 else None

    @property
    def modal(self) -> JSON | None:
        """The modal the bot opened (callback type 9), if any."""
        cb = self.callback
        return cb.data if cb is not None and cb.type == 9 else None

    def original(self) -> MessageRecord | None:
        """The message ``@original`` designates now (response or the clicked message)."""
        mid = self.original_message_id or self.component_message_id
        return self._messages.get(mid) if mid is not None else None

    def followups(self) -> list[MessageRecord]:
        """Follow-up messages in order (the first after a defer is the original itself)."""
        return [self._messages[m] for m in self.followup_ids]

    def message_ids(self) -> set[int]:
        """Every message id this interaction's webhook may address."""
        ids = set(self.followup_ids)
        if self.original_message_id is not None:
            ids.add(self.original_message_id)
        elif self.component_message_id is not None:
            ids.add(self.component_message_id)
        return ids

    # -- waiting ---------------------------------------------------------------------------------

    async def response(self, timeout: float = 5.0) -> CallbackRecord:
        """Wait for the initial callback."""
        return await self._notifier.wait_for(
            lambda: self.callback, timeout, f"a response to interaction {self.id}"
        )

    async def followup(self, index: int = 0, timeout: float = 5.0) -> MessageRecord:
        """Wait for the index-th follow-up message."""

        def probe() -> MessageRecord | None:
            if len(self.followup_ids) > index:
                return self._messages[self.followup_ids[index]]
            return None

        return await self._notifier.wait_for(probe, timeout, f"follow-up #{index} of {self.id}")

    async def reply(self, timeout: float = 5.0) -> MessageRecord:
        """Wait for the first message the user sees (response, update, edit, follow-up)."""

        def probe() -> MessageRecord | None:
            for ev in self.events:
                if ev.kind in _VISIBLE and ev.message_id is not None:
                    return self._messages.get(ev.message_id)
            return None

        return await self._notifier.wait_for(probe, timeout, f"a visible reply to {self.id}")

    async def wait_event(self, kind: str, timeout: float = 5.0) -> InteractionEvent:
        """Wait for an event of this kind (e.g. ``edit_original``)."""
        return await self._notifier.wait_for(
            lambda: next((e for e in self.events if e.kind == kind), None),
            timeout,
            f"{kind} on interaction {self.id}",
        )

    # -- timing ----------------------------------------------------------------------------------

    @property
    def first_response_latency(self) -> float | None:
        """Seconds from dispatch to the initial callback."""
        cb = self.callback
        return None if cb is None else cb.at - self.dispatched_at

    @property
    def reply_latency(self) -> float | None:
        """Seconds from dispatch to the first visible reply (see ``reply``)."""
        ev = next((e for e in self.events if e.kind in _VISIBLE), None)
        return None if ev is None else ev.at - self.dispatched_at

    def latencies(self) -> list[tuple[str, float]]:
        """(event kind, seconds since dispatch) for every step, in order."""
        return [(e.kind, e.at - self.dispatched_at) for e in self.events]
