"""REST routes: interaction callbacks and the interaction webhook (original + follow-ups)."""

from __future__ import annotations

import time
from typing import Any

from . import errors, validate
from .records import (
    EPHEMERAL,
    LOADING,
    AttachmentRecord,
    CallbackRecord,
    InteractionEvent,
    InteractionRecord,
    MessageRecord,
)
from .rest import Ctx, Req, Result, Route
from .routes_channels import edit_body, message_event

JSON = dict[str, Any]

# Callback types allowed per interaction type (PING, command, component, autocomplete, modal).
_ALLOWED = {1: {1}, 2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 4: {8}, 5: {4, 5, 6, 7}}


def _interaction(ctx: Ctx, req: Req) -> InteractionRecord:
    rec = ctx.state.interactions.get(req.int("interaction_id"))
    if rec is None or rec.token != req.params["token"]:
        raise errors.unknown_interaction()
    return rec


def _by_token(ctx: Ctx, req: Req) -> InteractionRecord:
    if req.params["app_id"] != str(ctx.state.app_id):
        raise errors.unknown_webhook()
    token = req.params["token"]
    rec = ctx.state.interactions_by_token.get(token)
    if rec is None:
        raise errors.unknown_webhook()
    return rec


def _event(ctx: Ctx, rec: InteractionRecord, kind: str, message_id: int | None) -> None:
    rec.events.append(InteractionEvent(kind, time.perf_counter(), message_id))
    ctx.state.changed()


def _resource(ctx: Ctx, rec: InteractionRecord, rtype: int, msg: MessageRecord | None) -> JSON:
    interaction: JSON = {"id": str(rec.id), "type": rec.type}
    if msg is not None:
        interaction.update(
            response_message_id=str(msg.id),
            response_message_loading=msg.loading,
            response_message_ephemeral=msg.ephemeral,
        )
    out: JSON = {"interaction": interaction}
    if rtype in (4, 5, 7) and msg is not None:
        out["resource"] = {"type": rtype, "message": ctx.state.message_json(msg)}
    elif rtype in (6, 9):
        out["resource"] = {"type": rtype}
    return out


async def callback(ctx: Ctx, req: Req) -> Result:
    """POST /interactions/{id}/{token}/callback (types 1, 4, 5, 6, 7, 8, 9)."""
    state = ctx.state
    rec = _interaction(ctx, req)
    deadline = ctx.response_deadline
    if rec.callbacks:
        raise errors.ApiError(400, 40060, "Interaction has already been acknowledged.")
    if deadline is not None and time.perf_counter() - rec.dispatched_at > deadline:
        raise errors.unknown_interaction()
    body = req.json()
    rtype = int(body.get("type", 0))
    data: JSON = body.get("data") or {}
    if rtype not in _ALLOWED.get(rec.type, set()):
        raise errors.invalid_form(
            "type", "INTERACTION_RESPONSE_TYPE_INVALID", f"Invalid type {rtype} for {rec.type}"
        )
    msg: MessageRecord | None = None
    if rtype == 4:
        validate.check_v2_request(data, req.files)
        msg = state.create_message(
            rec.channel_id, data, req.files, webhook_id=state.app_id, interaction=rec
        )
        rec.original_message_id = msg.id
    elif rtype == 5:
        flags = int(data.get("flags") or 0) & EPHEMERAL
        msg = state.create_message(
            rec.channel_id,
            {"flags": flags},
            [],
            webhook_id=state.app_id,
            interaction=rec,
            extra_flags=LOADING,
            validate_body=False,
        )
        rec.original_message_id = msg.id
    elif rtype == 7:
        msg = rec.original()
        if msg is None:
            raise errors.unknown_message()
        validate.check_v2_request(data, req.files, msg)
        state.edit_message(msg, edit_body(msg, data), req.files)
    elif rtype == 8:
        validate.check_choices(list(data.get("choices") or []))
    files = [
        AttachmentRecord(state.next_id(), f.filename, f.content_type, f.data) for f in req.files
    ]
    rec.callbacks.append(CallbackRecord(rtype, data, files, time.perf_counter()))
    _event(ctx, rec, f"callback:{rtype}", msg.id if msg is not None else None)
    if msg is not None:
        await message_event(ctx, "MESSAGE_UPDATE" if rtype == 7 else "MESSAGE_CREATE", msg)
    return 200, _resource(ctx, rec, rtype, msg)


async def followup(ctx: Ctx, req: Req) -> Result:
    """POST /webhooks/{app_id}/{token}: a follow-up (the first after a defer fills the original)."""
    state = ctx.state
    rec = _by_token(ctx, req)
    if not rec.callbacks:
        raise errors.unknown_webhook()
    body = req.json()
    original = rec.original()
    if rec.callbacks[0].type == 5 and original is not None and original.loading:
        # the ACK decided ephemerality; the other flags (IS_COMPONENTS_V2) are the follow-up's
        body = {**body, "flags": int(body.get("flags") or 0) & ~EPHEMERAL}
        validate.check_message(body, has_files=bool(req.files))
        validate.check_v2_request(body, req.files, original)
        state.edit_message(original, body, req.files)
        msg = original
        await message_event(ctx, "MESSAGE_UPDATE", msg)
    else:
        validate.check_v2_request(body, req.files)
        msg = state.create_message(
            rec.channel_id, body, req.files, webhook_id=state.app_id, interaction=rec
        )
        await message_event(ctx, "MESSAGE_CREATE", msg)
    rec.followup_ids.append(msg.id)
    _event(ctx, rec, "followup", msg.id)
    if req.query.get("wait", "false").lower() in ("false", "0"):
        return 204, None
    return 200, state.message_json(msg)


def _webhook_message(ctx: Ctx, req: Req) -> tuple[InteractionRecord, MessageRecord, bool]:
    rec = _by_token(ctx, req)
    mid = req.params["message_id"]
    if mid == "@original":
        msg = rec.original()
        if msg is None or msg.deleted:
            raise errors.unknown_message()
        return rec, msg, True
    message_id = req.int("message_id")
    if message_id not in rec.message_ids():
        raise errors.unknown_message()
    msg = ctx.state.messages[message_id]
    if msg.deleted:
        raise errors.unknown_message()
    is_original = message_id in (rec.original_message_id, rec.component_message_id)
    return rec, msg, is_original


async def get_webhook_message(ctx: Ctx, req: Req) -> Result:
    """GET /webhooks/{app_id}/{token}/messages/{message_id|@original}."""
    _, msg, _ = _webhook_message(ctx, req)
    return 200, ctx.state.message_json(msg)


async def edit_webhook_message(ctx: Ctx, req: Req) -> Result:
    """PATCH /webhooks/{app_id}/{token}/messages/{message_id|@original}."""
    rec, msg, is_original = _webhook_message(ctx, req)
    body = req.json()
    validate.check_v2_request(body, req.files, msg)
    ctx.state.edit_message(msg, edit_body(msg, body), req.files)
    _event(ctx, rec, "edit_original" if is_original else "edit_followup", msg.id)
    await message_event(ctx, "MESSAGE_UPDATE", msg)
    return 200, ctx.state.message_json(msg)


async def delete_webhook_message(ctx: Ctx, req: Req) -> Result:
    """DELETE /webhooks/{app_id}/{token}/messages/{message_id|@original}."""
    rec, msg, is_original = _webhook_message(ctx, req)
    ctx.state.delete_message(msg)
    _event(ctx, rec, "delete_original" if is_original else "delete_followup", msg.id)
    await message_event(ctx, "MESSAGE_DELETE", msg)
    return 204, None


_W = "/webhooks/{app_id}/{token}"
ROUTES = [
    Route("POST", "/interactions/{interaction_id}/{token}/callback", callback, auth=False),
    Route("POST", _W, followup, auth=False),
    Route("GET", _W + "/messages/{message_id}", get_webhook_message, auth=False),
    Route("PATCH", _W + "/messages/{message_id}", edit_webhook_message, auth=False),
    Route("DELETE", _W + "/messages/{message_id}", delete_webhook_message, auth=False),
]
