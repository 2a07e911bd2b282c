"""The subset of Discord's request validation a bot most often trips over."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any, Protocol

from .errors import ApiError, invalid_form
from .records import (
    ACTION_ROW,
    BUTTON,
    CONTAINER,
    FILE,
    IS_COMPONENTS_V2,
    MEDIA_GALLERY,
    SECTION,
    SEPARATOR,
    TEXT_DISPLAY,
    THUMBNAIL,
    MessageRecord,
)

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
    if flags & IS_COMPONENTS_V2:
        _check_v2_exclusive(body)
        check_v2_components(components)
    else:
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


# -- Components V2 ---------------------------------------------------------------------------------
# Sources (read 2026-11-29): discord-api-docs developers/components/reference.mdx ("Component
# Reference", commit c98d64b), developers/resources/message.mdx (flags, Create/Edit Message),
# developers/change-log.mdx (2025-04-29 "Raised Component Limits"), and the published OpenAPI spec
# discord-api-spec specs/openapi.json (commit 74fda0f), schemas *ComponentForMessageRequest. Each
# rule below names where it comes from; docs/discord_double.md lists them and what is not known.

SELECTS = frozenset({3, 5, 6, 7, 8})
# spec MessageCreateRequest.components oneOf: action row, container, file, media gallery, section,
# separator, text display (buttons, selects and thumbnails are never top level)
V2_TOP_LEVEL = frozenset(
    {ACTION_ROW, CONTAINER, FILE, MEDIA_GALLERY, SECTION, SEPARATOR, TEXT_DISPLAY}
)
# reference "Container Child Components" and spec ContainerComponentForMessageRequest
IN_CONTAINER = frozenset({ACTION_ROW, TEXT_DISPLAY, SECTION, MEDIA_GALLERY, SEPARATOR, FILE})
# reference "Section Accessory Components": button or thumbnail
ACCESSORIES = frozenset({BUTTON, THUMBNAIL})
MAX_V2_COMPONENTS = 40  # reference: "Messages allow up to 40 total components"
MAX_V2_TEXT = 4000  # spec TextDisplay content maxLength 4000; total: discord-api-docs PR 8562
ATTACHMENT_SCHEME = "attachment://"


class Upload(Protocol):
    """An uploaded file of the request (rest.UploadedFile)."""

    index: int
    filename: str


def _bad_type(path: str, allowed: frozenset[int]) -> ApiError:
    choices = ", ".join(str(t) for t in sorted(allowed))
    return invalid_form(
        f"{path}.type", "UNION_TYPE_CHOICES", f'Value of field "type" must be one of ({choices}).'
    )


def _bad_length(path: str, low: int, high: int) -> ApiError:
    return invalid_form(
        path, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length."
    )


def _check_v2_exclusive(body: JSON) -> None:
    """message.mdx Create Message: with IS_COMPONENTS_V2 "Providing `content`, `embeds`,
    `sticker_ids`, `poll` ... will fail with a 400"; Edit Message: those must be reset to empty
    (null content and poll, [] embeds and sticker_ids), so empty values are accepted."""
    for key in ("content", "embeds", "sticker_ids", "poll"):
        if body.get(key):
            raise invalid_form(
                key,
                "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                f"The '{key}' field cannot be used when using MessageFlags.IS_COMPONENTS_V2",
            )


def walk_v2(components: Sequence[JSON], path: str = "components") -> Iterator[tuple[str, JSON]]:
    """Every component of a V2 tree with its dotted path, depth first in display order."""
    for i, comp in enumerate(components):
        here = f"{path}.{i}"
        yield here, comp
        children = comp.get("components")
        if isinstance(children, list):
            yield from walk_v2(children, f"{here}.components")
        for key in ("accessory", "component"):
            if isinstance(comp.get(key), dict):
                yield f"{here}.{key}", comp[key]
                yield from walk_v2(comp[key].get("components") or [], f"{here}.{key}.components")


def check_v2_components(components: list[JSON]) -> None:
    """Validate an IS_COMPONENTS_V2 layout: types and nesting, counts, lengths, unique ids."""
    if not isinstance(components, list):
        raise invalid_form("components", "BASE_TYPE_ARRAY", "Must be an array.")
    for i, comp in enumerate(components):
        _object(comp, f"components.{i}")
        if comp.get("type") not in V2_TOP_LEVEL:
            raise _bad_type(f"components.{i}", V2_TOP_LEVEL)
    seen_custom: set[str] = set()
    seen_ids: set[int] = set()
    count = 0
    text = 0
    for path, comp in walk_v2(components):
        _object(comp, path)
        count += 1
        _check_id(comp, path, seen_ids)
        kind = comp.get("type")
        if kind == CONTAINER:
            _check_container(comp, path)
        elif kind == SECTION:
            _check_section(comp, path)
        elif kind == ACTION_ROW:
            _check_row(comp, path)
        elif kind == TEXT_DISPLAY:
            text += _check_text(comp, path)
        elif kind == MEDIA_GALLERY:
            _check_gallery(comp, path)
        elif kind == THUMBNAIL:
            _check_media(comp.get("media"), f"{path}.media")
            _check_alt(comp, path)
        elif kind == FILE:
            _check_file(comp, path)
        elif kind == SEPARATOR and comp.get("spacing") not in (None, 1, 2):
            # spec MessageComponentSeparatorSpacingSize: 1 (small) or 2 (large)
            raise invalid_form(
                f"{path}.spacing", "BASE_TYPE_CHOICES", "Value must be one of (1, 2)."
            )
        if kind == BUTTON or kind in SELECTS:
            _check_interactive(comp, path, seen_custom)
    if count > MAX_V2_COMPONENTS:
        raise _too_long("components", MAX_V2_COMPONENTS)
    if text > MAX_V2_TEXT:
        raise invalid_form(
            "components",
            "BASE_TYPE_MAX_LENGTH",
            f"The text of all text displays must be {MAX_V2_TEXT} or fewer in length.",
        )


def _object(value: Any, path: str) -> None:
    """A component (or gallery item) must be a JSON object, not a list or a string."""
    if not isinstance(value, dict):
        raise invalid_form(
            path, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType"
        )


def _check_id(comp: JSON, path: str, seen: set[int]) -> None:
    """reference "Anatomy of a Component": id is a 32-bit integer unique within the message;
    0 counts as empty (spec: int32, minimum 0)."""
    cid = comp.get("id")
    if cid is None or cid == 0:
        return
    if isinstance(cid, bool) or not isinstance(cid, int) or not 0 < cid < 2**31:
        raise invalid_form(
            f"{path}.id", "NUMBER_TYPE_MAX", "Must be a 32-bit integer of 0 or more."
        )
    if cid in seen:
        raise invalid_form(f"{path}.id", "COMPONENT_ID_DUPLICATED", "Duplicate component id.")
    seen.add(cid)


def _children(comp: JSON, path: str, low: int, high: int) -> list[JSON]:
    children = comp.get("components")
    if not isinstance(children, list) or not low <= len(children) <= high:
        raise _bad_length(f"{path}.components", low, high)
    for i, child in enumerate(children):
        _object(child, f"{path}.components.{i}")
    return children


def _check_container(comp: JSON, path: str) -> None:
    # spec ContainerComponentForMessageRequest: components minItems 1, maxItems 40;
    # accent_color null or 0..0xFFFFFF
    for i, child in enumerate(_children(comp, path, 1, MAX_V2_COMPONENTS)):
        if child.get("type") not in IN_CONTAINER:
            raise _bad_type(f"{path}.components.{i}", IN_CONTAINER)
    colour = comp.get("accent_color")
    if colour is not None and (
        isinstance(colour, bool) or not isinstance(colour, int) or not 0 <= colour <= 0xFFFFFF
    ):
        raise invalid_form(
            f"{path}.accent_color", "NUMBER_TYPE_MAX", "Must be between 0 and 16777215."
        )


def _check_section(comp: JSON, path: str) -> None:
    # reference Section: "One to three child components" (text displays), and an accessory
    for i, child in enumerate(_children(comp, path, 1, 3)):
        if child.get("type") != TEXT_DISPLAY:
            raise _bad_type(f"{path}.components.{i}", frozenset({TEXT_DISPLAY}))
    accessory = comp.get("accessory")
    if not isinstance(accessory, dict):
        raise invalid_form(f"{path}.accessory", "BASE_TYPE_REQUIRED", "This field is required")
    if accessory.get("type") not in ACCESSORIES:
        raise _bad_type(f"{path}.accessory", ACCESSORIES)


def _check_row(comp: JSON, path: str) -> None:
    # reference Action Row: up to 5 buttons or a single select (spec: minItems 1, maxItems 5)
    children = _children(comp, path, 1, 5)
    allowed = frozenset({BUTTON}) | SELECTS
    for i, child in enumerate(children):
        if child.get("type") not in allowed:
            raise _bad_type(f"{path}.components.{i}", allowed)
        if child.get("type") in SELECTS and len(children) != 1:
            raise invalid_form(
                f"{path}.components",
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                "A select menu must be alone in its row.",
            )


def _check_text(comp: JSON, path: str) -> int:
    # spec TextDisplayComponentForMessageRequest: content required, 1..4000
    content = comp.get("content")
    if not isinstance(content, str) or not 1 <= len(content) <= MAX_V2_TEXT:
        raise _bad_length(f"{path}.content", 1, MAX_V2_TEXT)
    return len(content)


def _check_gallery(comp: JSON, path: str) -> None:
    # reference Media Gallery: "1 to 10 media gallery items" (spec: minItems 1, maxItems 10)
    items = comp.get("items")
    if not isinstance(items, list) or not 1 <= len(items) <= 10:
        raise _bad_length(f"{path}.items", 1, 10)
    for j, item in enumerate(items):
        _object(item, f"{path}.items.{j}")
        _check_media(item.get("media"), f"{path}.items.{j}.media")
        _check_alt(item, f"{path}.items.{j}")


def _check_alt(comp: JSON, path: str) -> None:
    # spec: description null or 1..1024 (thumbnail, media gallery item)
    alt = comp.get("description")
    if alt is not None and not 1 <= len(str(alt)) <= 1024:
        raise _bad_length(f"{path}.description", 1, 1024)


def _check_media(media: Any, path: str) -> None:
    # spec UnfurledMediaRequest: url required, at most 2048
    url = media.get("url") if isinstance(media, dict) else None
    if not isinstance(url, str) or not url:
        raise invalid_form(f"{path}.url", "BASE_TYPE_REQUIRED", "This field is required")
    if len(url) > 2048:
        raise _too_long(f"{path}.url", 2048)


def _check_file(comp: JSON, path: str) -> None:
    # reference File: "only supports attachment references using the attachment://<filename>"
    _check_media(comp.get("file"), f"{path}.file")
    if not str(comp["file"]["url"]).startswith(ATTACHMENT_SCHEME):
        raise invalid_form(
            f"{path}.file.url",
            "UNFURLED_MEDIA_ITEM_ATTACHMENT_REQUIRED",
            "A file component only accepts attachment:// references.",
        )


def _check_interactive(comp: JSON, path: str, seen: set[str]) -> None:
    """Buttons and selects anywhere in the tree (rows and section accessories)."""
    cid = comp.get("custom_id")
    style = comp.get("style")
    if comp.get("type") == BUTTON and style in (1, 2, 3, 4) and cid is None:
        # reference Button: "Non-link and non-premium buttons must have a custom_id"
        raise invalid_form(f"{path}.custom_id", "BASE_TYPE_REQUIRED", "This field is required")
    if comp.get("type") == BUTTON and style == 5 and not comp.get("url"):
        raise invalid_form(f"{path}.url", "BASE_TYPE_REQUIRED", "This field is required")
    if cid is not None:
        if not 1 <= len(cid) <= 100:
            raise _bad_length(f"{path}.custom_id", 1, 100)
        if cid in seen:
            raise invalid_form(
                f"{path}.custom_id", "COMPONENT_CUSTOM_ID_DUPLICATED", "Duplicate custom id."
            )
        seen.add(cid)
    if len(comp.get("label") or "") > 80:
        raise _too_long(f"{path}.label", 80)
    if len(comp.get("url") or "") > 512:
        raise _too_long(f"{path}.url", 512)
    if comp.get("type") == 3 and not 1 <= len(comp.get("options") or []) <= 25:
        raise _bad_length(f"{path}.options", 1, 25)


def media_references(components: Sequence[JSON]) -> Iterator[tuple[str, str]]:
    """(path, url) of every media item of a V2 tree: gallery items, thumbnails and files."""
    for path, comp in walk_v2(components):
        kind = comp.get("type")
        if kind == MEDIA_GALLERY:
            for j, item in enumerate(comp.get("items") or []):
                yield f"{path}.items.{j}.media.url", str((item.get("media") or {}).get("url", ""))
        elif kind == THUMBNAIL:
            yield f"{path}.media.url", str((comp.get("media") or {}).get("url", ""))
        elif kind == FILE:
            yield f"{path}.file.url", str((comp.get("file") or {}).get("url", ""))


def upload_names(body: JSON, files: Sequence[Upload]) -> set[str]:
    """File names of this request's uploads (an ``attachments`` entry may rename its file)."""
    renamed = {
        int(e["id"]): str(e["filename"])
        for e in body.get("attachments") or []
        if isinstance(e, dict) and e.get("filename") and str(e.get("id", "")).isdigit()
    }
    return {renamed.get(f.index, f.filename) for f in files}


def check_v2_request(
    body: JSON, files: Sequence[Upload], current: MessageRecord | None = None
) -> None:
    """The V2 checks that need the request's uploads and, for an edit, the message edited.

    - message.mdx: IS_COMPONENTS_V2 "can't be removed from that message": an edit whose
      ``flags`` lacks it on a V2 message is refused;
    - Edit Message: setting the flag on a classic message needs ``content``/``embeds`` reset;
    - every ``attachment://name`` must name a file of this request or, on an edit, one the
      message keeps (the docs do not say what Discord answers otherwise: see
      docs/discord_double.md).
    """
    was_v2 = current is not None and bool(current.flags & IS_COMPONENTS_V2)
    flags = body.get("flags")
    if was_v2 and flags is not None and not int(flags) & IS_COMPONENTS_V2:
        raise invalid_form(
            "flags",
            "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG",
            "The IS_COMPONENTS_V2 flag cannot be removed from a message.",
        )
    v2 = was_v2 or bool(int(flags or 0) & IS_COMPONENTS_V2)
    if not v2:
        return
    if current is not None and not was_v2:
        if current.content and (body.get("content") or "content" not in body):
            raise invalid_form(
                "content",
                "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                "Set 'content' to null to turn a message into an IS_COMPONENTS_V2 message",
            )
        if current.embeds and (body.get("embeds") or "embeds" not in body):
            raise invalid_form(
                "embeds",
                "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                "Set 'embeds' to [] to turn a message into an IS_COMPONENTS_V2 message",
            )
    if "components" in body:
        components = body.get("components") or []
        check_v2_components(components)  # a sound tree before its media are looked at
    else:
        components = current.components if current is not None else []
    names = upload_names(body, files)
    if current is not None:
        entries = body.get("attachments")
        kept_ids = (
            {str(e.get("id")) for e in entries if isinstance(e, dict)}
            if isinstance(entries, list)
            else {str(a.id) for a in current.attachments}
        )
        names |= {a.filename for a in current.attachments if str(a.id) in kept_ids}
    for path, url in media_references(components):
        if url.startswith(ATTACHMENT_SCHEME) and url[len(ATTACHMENT_SCHEME) :] not in names:
            raise invalid_form(
                path,
                "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND",
                f"{url} names no attachment of this message.",
            )
