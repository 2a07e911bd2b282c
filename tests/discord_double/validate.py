"""The subset of Discord's request validation a bot most often trips over."""

from __future__ import annotations

import re
from typing import Any

from .errors import ApiError, invalid_form
from .records import IS_COMPONENTS_V2

JSON = dict[str, Any]

_COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")
_TEXT_LIMITS = {"title": 256, "description": 4096}


def _too_long(path: str, limit: int) -> ApiError:
    return invalid_form(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")


def check_message(body: JSON, *, has_files: bool, editing: bool = False) -> None:
    """Raise ApiError where Discord would reject this message create/edit body."""
    content = body.get("content")
    if content is not None and len(str(content)) > 2000:
        raise _too_long("content", 2000)
    embeds = body.get("embeds") or []
    if len(embeds) > 10:
        raise _too_long("embeds", 10)
    total = 0
    for i, embed in enumerate(embeds):
        for key, limit in _TEXT_LIMITS.items():
            text = embed.get(key) or ""
            total += len(text)
            if len(text) > limit:
                raise _too_long(f"embeds.{i}.{key}", limit)
        fields = embed.get("fields") or []
        if len(fields) > 25:
            raise _too_long(f"embeds.{i}.fields", 25)
        for f in fields:
            total += len(f.get("name", "")) + len(f.get("value", ""))
    if total > 6000:
        raise ApiError(400, 50035, "Invalid Form Body", {"embeds": "total length over 6000"})
    flags = int(body.get("flags") or 0)
    components = body.get("components") or []
    if not flags & IS_COMPONENTS_V2:
        check_components(components)
    am = body.get("allowed_mentions")
    if isinstance(am, dict):
        parse = am.get("parse", [])
        for kind in ("users", "roles"):
            if kind in parse and am.get(kind):
                raise invalid_form(
                    f"allowed_mentions.{kind}",
                    "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                    f'parse:["{kind}"] and {kind}: [ids...] are mutually exclusive.',
                )
    if editing:
        return
    empty = not (content or embeds or components or has_files or body.get("sticker_ids"))
    if empty and not body.get("poll") and not body.get("attachments"):
        raise ApiError(400, 50006, "Cannot send an empty message")


def check_components(rows: list[JSON]) -> None:
    """Validate classic action rows: at most 5 rows, 5 buttons a row, unique custom ids of 1 to
    100 characters."""
    if len(rows) > 5:
        raise _too_long("components", 5)
    seen: set[str] = set()
    for r, row in enumerate(rows):
        if row.get("type") != 1:
            raise invalid_form(f"components.{r}.type", "UNION_TYPE_CHOICES", "Value not valid.")
        children = row.get("components") or []
        if not 1 <= len(children) <= 5:
            raise invalid_form(
                f"components.{r}.components", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5."
            )
        for c, comp in enumerate(children):
            path = f"components.{r}.components.{c}"
            cid = comp.get("custom_id")
            if cid is not None:
                if not 1 <= len(cid) <= 100:
                    raise invalid_form(
                        f"{path}.custom_id",
                        "BASE_TYPE_BAD_LENGTH",
                        "Must be between 1 and 100 in length.",
                    )
                if cid in seen:
                    raise invalid_form(
                        f"{path}.custom_id",
                        "COMPONENT_CUSTOM_ID_DUPLICATED",
                        "Duplicate custom id.",
                    )
                seen.add(cid)
            if len(comp.get("label") or "") > 80:
                raise _too_long(f"{path}.label", 80)
            if comp.get("type") == 3 and len(comp.get("options") or []) > 25:
                raise _too_long(f"{path}.options", 25)
            if comp.get("type") in (3, 5, 6, 7, 8) and len(children) != 1:
                raise invalid_form(
                    f"components.{r}.components",
                    "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                    "A select menu must be alone in its row.",
                )


def check_choices(choices: list[JSON]) -> None:
    """Autocomplete results: at most 25, names 1..100, string values up to 100."""
    if len(choices) > 25:
        raise _too_long("data.choices", 25)
    for i, choice in enumerate(choices):
        if not 1 <= len(choice.get("name", "")) <= 100:
            raise _too_long(f"data.choices.{i}.name", 100)
        value = choice.get("value")
        if isinstance(value, str) and len(value) > 100:
            raise _too_long(f"data.choices.{i}.value", 100)


def check_commands(commands: list[JSON]) -> None:
    """Validate a bulk overwrite of application commands."""
    if len(commands) > 100:
        raise _too_long("commands", 100)
    keys: set[tuple[str, int]] = set()
    for i, cmd in enumerate(commands):
        kind = int(cmd.get("type", 1))
        name = cmd.get("name", "")
        key = (name, kind)
        if key in keys:
            raise invalid_form(f"{i}.name", "APPLICATION_COMMANDS_DUPLICATE_NAME", "Duplicate name")
        keys.add(key)
        if kind == 1:
            _check_chat_input(cmd, str(i), depth=0)


def _check_chat_input(node: JSON, path: str, depth: int) -> None:
    name = node.get("name", "")
    if not _COMMAND_NAME.match(name) or name != name.lower():
        raise invalid_form(f"{path}.name", "APPLICATION_COMMAND_INVALID_NAME", "Invalid name")
    if not 1 <= len(node.get("description", "")) <= 100:
        raise invalid_form(f"{path}.description", "BASE_TYPE_BAD_LENGTH", "Must be 1-100 long.")
    options = node.get("options") or []
    if len(options) > 25:
        raise _too_long(f"{path}.options", 25)
    optional_seen = False
    for j, opt in enumerate(options):
        opath = f"{path}.options.{j}"
        if opt.get("type") in (1, 2):
            if depth >= 2 or (opt["type"] == 2 and depth >= 1):
                raise invalid_form(opath, "APPLICATION_COMMAND_OPTIONS_TOO_DEEP", "Too deep")
            _check_chat_input(opt, opath, depth + 1)
            continue
        _check_chat_input({**opt, "options": []}, opath, depth + 1)
        if opt.get("required"):
            if optional_seen:
                raise invalid_form(
                    opath,
                    "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                    "Required options must be placed before non-required options",
                )
        else:
            optional_seen = True
        if len(opt.get("choices") or []) > 25:
            raise _too_long(f"{opath}.choices", 25)
        if opt.get("choices") and opt.get("autocomplete"):
            raise invalid_form(
                f"{opath}.autocomplete",
                "APPLICATION_COMMAND_OPTION_AUTOCOMPLETE_CHOICES",
                "Autocomplete cannot be set with choices",
            )
