"""The double's in-memory world: channels, messages, commands, interactions, request log."""

from __future__ import annotations

import itertools
import mimetypes
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from . import errors, payloads, validate
from .records import (
    EPHEMERAL,
    LOADING,
    AttachmentRecord,
    ChannelRecord,
    InteractionRecord,
    MessageRecord,
    RequestRecord,
    utcnow,
)
from .specs import GuildSpec, UserSpec
from .waiting import Notifier

JSON = dict[str, Any]

DISCORD_EPOCH_MS = 1420070400000
HAS_THREAD = 1 << 5


@dataclass
class UploadedFile:
    """A file part of a multipart request."""

    index: int
    filename: str
    data: bytes
    content_type: str


class DoubleState:
    """Everything the double knows and records; REST and gateway handlers share one instance."""

    def __init__(
        self,
        *,
        token: str,
        app_id: int,
        bot: UserSpec,
        owner: UserSpec,
        guilds: Iterable[GuildSpec],
        application_flags: int,
        bot_permissions: int,
        max_upload_bytes: int,
        nonce_window: float = 300.0,
    ) -> None:
        self.token = token
        self.app_id = app_id
        self.bot = bot
        self.owner = owner
        self.application_flags = application_flags
        self.bot_permissions = bot_permissions
        self.max_upload_bytes = max_upload_bytes
        self.nonce_window = nonce_window
        self.nonces: dict[tuple[int, int, str], tuple[int, float]] = {}
        self.notifier = Notifier()
        self.base_url = ""
        self.guilds: dict[int, GuildSpec] = {g.id: g for g in guilds}
        self.users: dict[int, UserSpec] = {bot.id: bot, owner.id: owner}
        self.channels: dict[int, ChannelRecord] = {}
        self.messages: dict[int, MessageRecord] = {}
        self.channel_messages: dict[int, list[int]] = {}
        self.global_commands: list[JSON] = []
        self.guild_commands: dict[int, list[JSON]] = {}
        self.command_syncs: list[tuple[int | None, float]] = []
        self.interactions: dict[int, InteractionRecord] = {}
        self.interactions_by_token: dict[str, InteractionRecord] = {}
        self.requests: list[RequestRecord] = []
        self.loose_attachments: dict[int, tuple[int, AttachmentRecord]] = {}
        self._last_id = 0
        self._tokens = itertools.count(1)
        for guild in self.guilds.values():
            for member in guild.members:
                self.users[member.id] = member
            for pos, cid in enumerate(guild.text_channel_ids):
                self.channels[cid] = ChannelRecord(
                    id=cid, type=0, guild_id=guild.id, name=guild.channel_name(cid), position=pos
                )

    # -- ids -------------------------------------------------------------------------------------

    def next_id(self) -> int:
        """A fresh, increasing snowflake with the current timestamp."""
        now = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        self._last_id = max(now, self._last_id + 1)
        return self._last_id

    def next_token(self) -> str:
        """A fresh interaction token."""
        return f"itoken-{next(self._tokens)}-{self.next_id()}"

    def changed(self) -> None:
        """Wake waiters after a mutation."""
        self.notifier.bump()

    # -- lookups ---------------------------------------------------------------------------------

    def channel(self, channel_id: int) -> ChannelRecord:
        """The channel, or ApiError Unknown Channel."""
        try:
            return self.channels[channel_id]
        except KeyError:
            raise errors.unknown_channel() from None

    def message(self, channel_id: int, message_id: int) -> MessageRecord:
        """A live message in that channel, or ApiError Unknown Message."""
        self.channel(channel_id)
        msg = self.messages.get(message_id)
        if msg is None or msg.deleted or msg.channel_id != channel_id:
            raise errors.unknown_message()
        return msg

    def guild(self, guild_id: int) -> GuildSpec:
        """The guild spec, or ApiError Unknown Guild."""
        try:
            return self.guilds[guild_id]
        except KeyError:
            raise errors.unknown("Guild", 10004) from None

    def user(self, user_id: int) -> UserSpec:
        """A known user, or ApiError Unknown User."""
        try:
            return self.users[user_id]
        except KeyError:
            raise errors.unknown("User", 10013) from None

    def find_attachment(self, attachment_id: int) -> tuple[int, AttachmentRecord] | None:
        """(channel id, attachment) for an uploaded or option attachment."""
        if attachment_id in self.loose_attachments:
            return self.loose_attachments[attachment_id]
        for msg in self.messages.values():
            for att in msg.attachments:
                if att.id == attachment_id:
                    return msg.channel_id, att
        return None

    def guild_channels(self, guild_id: int) -> list[ChannelRecord]:
        """Channels and threads of a guild, in creation order."""
        return [c for c in self.channels.values() if c.guild_id == guild_id]

    def find_command(self, name: str, guild_id: int | None) -> tuple[JSON, int | None] | None:
        """A synced chat-input command by name: the guild's first, then global."""
        if guild_id is not None:
            for cmd in self.guild_commands.get(guild_id, []):
                if cmd["name"] == name and cmd.get("type", 1) == 1:
                    return cmd, guild_id
        for cmd in self.global_commands:
            if cmd["name"] == name and cmd.get("type", 1) == 1:
                return cmd, None
        return None

    # -- payloads --------------------------------------------------------------------------------

    def message_json(self, msg: MessageRecord, *, nested: bool = False) -> JSON:
        """REST message object for a record."""
        meta = None
        if msg.interaction_id is not None and msg.interaction_id in self.interactions:
            meta = interaction_metadata(self.interactions[msg.interaction_id])
        referenced = None
        ref = msg.message_reference
        if ref and not nested and ref.get("message_id"):
            target = self.messages.get(int(ref["message_id"]))
            if target is not None and not target.deleted:
                referenced = self.message_json(target, nested=True)
        return payloads.message_payload(
            msg, self.users, self.base_url, interaction_meta=meta, referenced=referenced
        )

    def message_event(self, msg: MessageRecord) -> JSON:
        """MESSAGE_CREATE/UPDATE payload: message plus guild_id and author member."""
        data = self.message_json(msg)
        if msg.guild_id is not None:
            data["guild_id"] = str(msg.guild_id)
            author = self.users[msg.author_id]
            data["member"] = payloads.member_payload(author, with_user=False)
        return data

    # -- messages --------------------------------------------------------------------------------

    def _attachments(
        self, entries: list[JSON] | None, files: list[UploadedFile], keep: list[AttachmentRecord]
    ) -> list[AttachmentRecord]:
        by_index = {f.index: f for f in files}
        result: list[AttachmentRecord] = []
        used: set[int] = set()
        existing = {a.id: a for a in keep}
        for entry in entries or []:
            key = int(entry["id"])
            if key in existing:
                result.append(existing[key])
            elif key in by_index:
                used.add(key)
                result.append(self._new_attachment(by_index[key], entry))
        for f in files:
            if f.index not in used:
                result.append(self._new_attachment(f, {}))
        return result

    def _new_attachment(self, upload: UploadedFile, entry: JSON) -> AttachmentRecord:
        if len(upload.data) > self.max_upload_bytes:
            raise errors.ApiError(413, 40005, "Request entity too large")
        filename = entry.get("filename") or upload.filename
        guessed = mimetypes.guess_type(filename)[0]
        content_type = guessed or upload.content_type or "application/octet-stream"
        return AttachmentRecord(
            id=self.next_id(),
            filename=filename,
            content_type=content_type,
            data=upload.data,
            description=entry.get("description"),
        )

    def create_message(
        self,
        channel_id: int,
        body: JSON,
        files: list[UploadedFile],
        *,
        author_id: int | None = None,
        webhook_id: int | None = None,
        interaction: InteractionRecord | None = None,
        extra_flags: int = 0,
        validate_body: bool = True,
    ) -> MessageRecord:
        """Store a new message from a create body (content, embeds, components, attachments)."""
        channel = self.channel(channel_id)
        if validate_body:
            validate.check_message(body, has_files=bool(files))
        if channel.is_thread and (channel.archived or channel.locked):
            channel.archived = False  # sending unarchives, as on Discord
        ref = body.get("message_reference")
        msg_type = 19 if ref else 0
        if interaction is not None and interaction.type == 2:
            msg_type = 20 if interaction.payload["data"].get("type", 1) == 1 else 23
        msg = MessageRecord(
            id=self.next_id(),
            channel_id=channel_id,
            guild_id=channel.guild_id,
            author_id=author_id if author_id is not None else self.bot.id,
            content=str(body.get("content") or ""),
            embeds=list(body.get("embeds") or []),
            components=list(body.get("components") or []),
            allowed_mentions=body.get("allowed_mentions"),
            flags=int(body.get("flags") or 0) | extra_flags,
            tts=bool(body.get("tts", False)),
            type=msg_type,
            message_reference=ref,
            interaction_id=interaction.id if interaction else None,
            webhook_id=webhook_id,
            nonce=body.get("nonce"),
            poll=body.get("poll"),
            created_at=time.perf_counter(),
        )
        msg.attachments = self._attachments(body.get("attachments"), files, [])
        if body.get("enforce_nonce") and msg.nonce is not None:
            self.nonces[(channel_id, msg.author_id, str(msg.nonce))] = (msg.id, time.monotonic())
        self.messages[msg.id] = msg
        self.channel_messages.setdefault(channel_id, []).append(msg.id)
        if not msg.ephemeral:
            channel.last_message_id = msg.id
            if channel.is_thread:
                channel.message_count += 1
        self.changed()
        return msg

    def same_nonce(self, channel_id: int, body: JSON, author_id: int) -> MessageRecord | None:
        """The message an ``enforce_nonce`` create repeats (same channel, author and nonce).

        Discord keeps nonces for a few minutes (``nonce_window`` seconds here); a repeat within
        that time gets the existing message back and creates nothing.
        """
        if not body.get("enforce_nonce") or body.get("nonce") is None:
            return None
        found = self.nonces.get((channel_id, author_id, str(body["nonce"])))
        if found is None or time.monotonic() - found[1] > self.nonce_window:
            return None
        msg = self.messages[found[0]]
        return None if msg.deleted else msg

    def edit_message(self, msg: MessageRecord, body: JSON, files: list[UploadedFile]) -> None:
        """Apply a PATCH body (only the keys present) and keep the previous version."""
        validate.check_message(body, has_files=bool(files), editing=True)
        msg.history.append(self.message_json(msg, nested=True))
        if "content" in body:
            msg.content = str(body["content"] or "")
        if "embeds" in body:
            msg.embeds = list(body["embeds"] or [])
        if "components" in body:
            msg.components = list(body["components"] or [])
        if "allowed_mentions" in body:
            msg.allowed_mentions = body["allowed_mentions"]
        if "flags" in body and body["flags"] is not None:
            msg.flags = int(body["flags"]) | (msg.flags & EPHEMERAL)  # ephemerality is fixed
        msg.flags &= ~LOADING
        if "attachments" in body or files:
            entries = body.get("attachments")
            if entries is None:
                entries = [{"id": str(a.id)} for a in msg.attachments]
            msg.attachments = self._attachments(entries, files, msg.attachments)
        msg.edited_timestamp = utcnow()
        self.changed()

    def delete_message(self, msg: MessageRecord) -> None:
        """Mark a message deleted."""
        msg.deleted = True
        self.changed()

    def live_messages(
        self, channel_id: int, *, include_ephemeral: bool = True
    ) -> list[MessageRecord]:
        """Non-deleted messages of a channel, oldest first."""
        out = []
        for mid in self.channel_messages.get(channel_id, []):
            msg = self.messages[mid]
            if msg.deleted or (msg.ephemeral and not include_ephemeral):
                continue
            out.append(msg)
        return out

    # -- threads ---------------------------------------------------------------------------------

    def create_thread(
        self,
        parent_id: int,
        body: JSON,
        *,
        owner_id: int,
        starter: MessageRecord | None = None,
    ) -> ChannelRecord:
        """Create a thread under a text channel (from a message when ``starter`` is given)."""
        parent = self.channel(parent_id)
        if parent.type not in (0, 5) or parent.guild_id is None:
            raise errors.ApiError(400, 50024, "Cannot execute action on this channel type")
        name = str(body.get("name") or "")
        if not 1 <= len(name) <= 100:
            raise errors.invalid_form("name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100.")
        if starter is not None:
            if starter.flags & HAS_THREAD:
                raise errors.ApiError(
                    400,
                    160004,
                    "A thread has already been created for this message",
                )
            thread_id, kind = starter.id, 11
            starter.flags |= HAS_THREAD
        else:
            thread_id, kind = self.next_id(), int(body.get("type") or 12)
        thread = ChannelRecord(
            id=thread_id,
            type=kind,
            guild_id=parent.guild_id,
            name=name,
            parent_id=parent_id,
            owner_id=owner_id,
            auto_archive_duration=int(body.get("auto_archive_duration") or 4320),
            invitable=bool(body.get("invitable", True)),
            rate_limit_per_user=int(body.get("rate_limit_per_user") or 0),
            member_ids={owner_id},
            starter_message_id=starter.id if starter else None,
        )
        self.channels[thread.id] = thread
        self.changed()
        return thread

    # -- commands --------------------------------------------------------------------------------

    def set_commands(self, guild_id: int | None, commands: list[JSON]) -> list[JSON]:
        """Bulk overwrite: keep ids of commands whose (name, type) already existed."""
        validate.check_commands(commands)
        old = self.global_commands if guild_id is None else self.guild_commands.get(guild_id, [])
        old_ids = {(c["name"], c.get("type", 1)): c["id"] for c in old}
        stored: list[JSON] = []
        for cmd in commands:
            kind = int(cmd.get("type", 1))
            full: JSON = {
                "type": kind,
                "description": "",
                "options": [],
                "default_member_permissions": None,
                "dm_permission": True,
                "nsfw": False,
                **cmd,
                "id": old_ids.get((cmd["name"], kind)) or str(self.next_id()),
                "application_id": str(self.app_id),
                "version": str(self.next_id()),
            }
            if guild_id is not None:
                full["guild_id"] = str(guild_id)
            stored.append(full)
        if guild_id is None:
            self.global_commands = stored
        else:
            self.guild_commands[guild_id] = stored
        self.command_syncs.append((guild_id, time.perf_counter()))
        self.changed()
        return stored


def interaction_metadata(rec: InteractionRecord) -> JSON:
    """The ``interaction_metadata`` of messages created by an interaction."""
    payload = rec.payload
    user = payload["member"]["user"] if "member" in payload else payload["user"]
    meta: JSON = {
        "id": str(rec.id),
        "type": rec.type,
        "user": user,
        "authorizing_integration_owners": payload.get("authorizing_integration_owners", {}),
    }
    if rec.type == 2:
        meta["name"] = payload["data"]["name"]
        meta["command_type"] = payload["data"].get("type", 1)
    if rec.component_message_id is not None:
        meta["interacted_message_id"] = str(rec.component_message_id)
    return meta
