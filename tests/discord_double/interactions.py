"""INTERACTION_CREATE payloads: commands (options, resolved), components, modals."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import payloads
from .records import AttachmentRecord, ChannelRecord
from .specs import ADMINISTRATOR, RoleSpec, UserSpec
from .state import DoubleState

JSON = dict[str, Any]

ALL_PERMISSIONS = (1 << 53) - 1
_SUB = (1, 2)


def member_permissions(user: UserSpec) -> int:
    """The permission bits sent for a member (administrators get all)."""
    return ALL_PERMISSIONS if user.permissions & ADMINISTRATOR else user.permissions


def interaction_payload(
    state: DoubleState,
    *,
    itype: int,
    user: UserSpec,
    channel: ChannelRecord,
    data: JSON | None,
    message: JSON | None = None,
    locale: str | None = None,
) -> JSON:
    """A complete INTERACTION_CREATE payload as Discord sends it to a bot over the gateway."""
    channel_data = payloads.channel_payload(channel)
    perms = member_permissions(user)
    channel_data["permissions"] = str(perms)
    payload: JSON = {
        "id": str(state.next_id()),
        "application_id": str(state.app_id),
        "type": itype,
        "token": state.next_token(),
        "version": 1,
        "channel_id": str(channel.id),
        "channel": channel_data,
        "app_permissions": str(state.bot_permissions),
        "locale": locale or user.locale,
        "entitlements": [],
        "entitlement_sku_ids": [],
        "attachment_size_limit": state.max_upload_bytes,
    }
    if data is not None:
        payload["data"] = data
    if channel.guild_id is not None:
        guild = state.guild(channel.guild_id)
        payload.update(
            guild_id=str(guild.id),
            guild_locale=guild.preferred_locale,
            guild={"id": str(guild.id), "locale": guild.preferred_locale, "features": []},
            member=payloads.member_payload(user, permissions=perms),
            authorizing_integration_owners={"0": str(guild.id)},
            context=0,
        )
    else:
        channel_data["recipients"] = [payloads.user_payload(user)]
        payload.update(
            user=payloads.user_payload(user),
            authorizing_integration_owners={"0": "0", "1": str(user.id)},
            context=1,
        )
    if message is not None:
        payload["message"] = message
    return payload


def command_data(
    state: DoubleState,
    command: JSON,
    command_guild_id: int | None,
    path: list[str],
    values: Mapping[str, Any],
    *,
    channel_id: int,
    focused: str | None = None,
) -> JSON:
    """``data`` of a chat-input or autocomplete interaction, typed by the synced schema."""
    data: JSON = {"id": command["id"], "name": command["name"], "type": 1}
    if command_guild_id is not None:
        data["guild_id"] = str(command_guild_id)
    node, container = command, data
    for name in path:
        opt = _option(node, name, sub=True)
        entry: JSON = {"name": name, "type": opt["type"], "options": []}
        container.setdefault("options", []).append(entry)
        node, container = opt, entry
    resolved: JSON = {}
    entries: list[JSON] = []
    for name, value in values.items():
        opt = _option(node, name, sub=False)
        otype = int(opt["type"])
        entry = {"name": name, "type": otype}
        if name == focused:
            entry.update(value=str(value), focused=True)
        else:
            entry["value"] = _convert(state, otype, value, resolved, channel_id)
        entries.append(entry)
    if focused is None:
        missing = [
            o["name"]
            for o in node.get("options") or []
            if o.get("required") and o["type"] not in _SUB and o["name"] not in values
        ]
        if missing:
            raise ValueError(f"required options missing for /{command['name']}: {missing}")
    elif focused not in values:
        raise ValueError(f"focused option {focused!r} has no value")
    if entries:
        container.setdefault("options", []).extend(entries)
    if resolved:
        data["resolved"] = resolved
    return data


def _option(node: JSON, name: str, *, sub: bool) -> JSON:
    for opt in node.get("options") or []:
        if opt["name"] == name and (opt["type"] in _SUB) == sub:
            return dict(opt)
    kind = "subcommand" if sub else "option"
    raise LookupError(f"/{node.get('name')} has no {kind} {name!r}")


def _convert(state: DoubleState, otype: int, value: Any, resolved: JSON, channel_id: int) -> Any:
    if otype == 3:
        return str(value)
    if otype == 4:
        return int(value)
    if otype == 10:
        return float(value)
    if otype == 5:
        return bool(value)
    if otype in (6, 9) and isinstance(value, UserSpec | int) and _is_user(state, value):
        user = value if isinstance(value, UserSpec) else state.user(int(value))
        resolved.setdefault("users", {})[str(user.id)] = payloads.user_payload(user)
        member = payloads.member_payload(user, with_user=False, permissions=user.permissions)
        resolved.setdefault("members", {})[str(user.id)] = member
        return str(user.id)
    if otype == 7:
        channel = state.channel(int(value))
        ch = payloads.channel_payload(channel)
        ch["permissions"] = str(state.bot_permissions)
        resolved.setdefault("channels", {})[str(channel.id)] = ch
        return str(channel.id)
    if otype in (8, 9):
        role = _role(state, value)
        resolved.setdefault("roles", {})[str(role.id)] = payloads.role_payload(role)
        return str(role.id)
    if otype == 11:
        filename, blob = value
        att = AttachmentRecord(state.next_id(), filename, "application/octet-stream", bytes(blob))
        state.loose_attachments[att.id] = (channel_id, att)
        att_json = payloads.attachment_payload(att, channel_id, state.base_url)
        resolved.setdefault("attachments", {})[str(att.id)] = att_json
        return str(att.id)
    raise ValueError(f"unsupported option type {otype}")


def _is_user(state: DoubleState, value: UserSpec | int) -> bool:
    return isinstance(value, UserSpec) or int(value) in state.users


def _role(state: DoubleState, value: Any) -> RoleSpec:
    if isinstance(value, RoleSpec):
        return value
    for guild in state.guilds.values():
        if int(value) == guild.id:
            return payloads.everyone_role(guild)
        for role in guild.roles:
            if role.id == int(value):
                return role
    raise LookupError(f"unknown role {value}")


def modal_components(modal: JSON, values: Mapping[str, str]) -> list[JSON]:
    """The submitted ``components`` of a modal: its structure with each text input's value."""
    out: list[JSON] = []
    for comp in modal.get("components") or []:
        if comp.get("type") == 1:
            row = [_submitted(c, values) for c in comp.get("components") or []]
            out.append({"type": 1, "components": row})
        elif comp.get("type") == 18:  # label wrapping one component
            out.append({"type": 18, "component": _submitted(comp["component"], values)})
        else:
            out.append({k: v for k, v in comp.items() if k in ("type", "id", "content")})
    return out


def _submitted(comp: JSON, values: Mapping[str, str]) -> JSON:
    cid = comp.get("custom_id", "")
    if comp.get("type") == 4:
        return {"type": 4, "custom_id": cid, "value": values.get(cid, comp.get("value") or "")}
    raw: Any = values.get(cid, [])
    return {"type": comp.get("type"), "custom_id": cid, "values": list(raw)}
