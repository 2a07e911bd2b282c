"""Property tests over every custom id kind: ids from outside never break parsing.

A click's custom id comes from the client, so any text may arrive. For every kind in
``bot.custom_ids`` and every persistent item (``bot.views.DYNAMIC_ITEMS``): parsing random and
oversized ids never raises (an id that is not valid parses to None, or matches no item's
template, which is how discord.py drops a forged click), never gives a number out of its range,
and a valid id survives parse and format (or a click's rebuild) unchanged.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot import custom_ids
from bot.custom_ids import (
    BOUNDS,
    MAX_LENGTH,
    ROUND_MAX,
    SEAT_MAX,
    SNOWFLAKE_MAX,
    VERSION_MAX,
    CustomId,
    Field,
    at_most,
)
from bot.lobby_state import DEADLINE_HOURS, LobbyState, parse_custom_id
from bot.store import COMPUTER_LEVELS, LANGUAGES
from bot.views import DYNAMIC_ITEMS
from engine import games

SPECS: dict[str, CustomId] = {
    name: value for name, value in vars(custom_ids).items() if isinstance(value, CustomId)
}
TEMPLATES = [
    (kind, re.compile(kind.__discord_ui_compiled_template__.pattern)) for kind in DYNAMIC_ITEMS
]
INTERACTION: Any = SimpleNamespace(message=None)
EXAMPLES = settings(max_examples=300, deadline=None)


def _turn(text: str) -> list[tuple[int, int]]:
    """round.seat, and a version after them if the kind writes one."""
    found, seat, *since = text.split(".")
    return [(int(found), ROUND_MAX), (int(seat), SEAT_MAX), *((int(v), VERSION_MAX) for v in since)]


def _players(text: str) -> list[tuple[int, int]]:
    if text == "@":
        return []
    return [(int(p, 36), SNOWFLAKE_MAX) for p in text.split(".")]


#: the numbers a parsed field holds, each with its largest allowed value (other than BOUNDS')
NUMBERS: dict[str, Callable[[str], list[tuple[int, int]]]] = {
    "turn": _turn,
    "players": _players,
    "n": lambda text: [(int(text), 2)],
    "seats": lambda text: [(int(text), 99)],
    "deadline": lambda text: [(int(text), 999)],
    "computers": lambda text: [(int(text), 1)],
    "takeover": lambda text: [(int(text), 1)],
}


def bounded(field: Field) -> bool:
    """Whether the field is a number bounded by ``BOUNDS`` (the lobby's ``game`` is a key)."""
    return field.name in BOUNDS and field.pattern == at_most(BOUNDS[field.name])


def in_range(spec: CustomId, fields: Mapping[str, str | None]) -> bool:
    """Every number in the parsed fields is within its bounds (and not negative)."""
    for field in spec.fields:
        text = fields[field.name]
        if text is None:
            continue
        if bounded(field):
            numbers = [(int(text), BOUNDS[field.name])]
        else:
            numbers = NUMBERS[field.name](text) if field.name in NUMBERS else []
        if any(not 0 <= value <= top for value, top in numbers):
            return False
    return True


def rebuilt(kind: Any, custom_id: str) -> Any | None:
    """What a click with this id rebuilds (as discord.py does), None if no template matches."""
    match = kind.__discord_ui_compiled_template__.fullmatch(custom_id)
    if match is None:
        return None
    step = kind.from_custom_id(INTERACTION, None, match)
    try:
        step.send(None)
    except StopIteration as done:
        return done.value
    raise AssertionError(f"{kind.__name__}.from_custom_id waited for something")


def item_numbers(item: Any) -> Iterator[tuple[int, int]]:
    """The numbers a rebuilt item holds, each with its largest allowed value."""
    for attribute, top in (
        ("game_id", BOUNDS["game"]),
        ("version", BOUNDS["version"]),
        ("user_id", BOUNDS["user"]),
        ("page", BOUNDS["page"]),
    ):
        value = getattr(item, attribute, None)
        if isinstance(value, int):
            yield value, top
    turn = getattr(item, "turn", None)
    if isinstance(turn, tuple):
        yield turn[0], ROUND_MAX
        yield turn[1], SEAT_MAX
    elif isinstance(turn, str):
        yield from _turn(turn)
    state = getattr(item, "state", None)
    if isinstance(state, LobbyState):
        yield from ((p, SNOWFLAKE_MAX) for p in state.players)
        yield state.seats, 99
        yield state.deadline, 999


# -- random and oversized ids -------------------------------------------------------------------

HUGE = st.one_of(
    st.integers(0, 1 << 80),
    st.sampled_from(
        [top + extra for top in (*BOUNDS.values(), ROUND_MAX, SEAT_MAX) for extra in (0, 1)]
    ),
    st.integers(10**30, 10**200),
).map(str)
PART = st.one_of(
    HUGE,
    st.builds(lambda a, b: f"{a}.{b}", HUGE, HUGE),
    st.sampled_from(["ok", "no", "@", "yamatai", "namiji", "en", "fr", "0badf00d", ""]),
    st.text(alphabet="0123456789abcxyz.:@-_| ", max_size=30),
    st.builds(lambda n: ".".join(["zzzzzzzzzzzzzz"] * n), st.integers(1, 12)),
)


@st.composite
def shaped_ids(draw: st.DrawFn) -> str:
    """An id with a real kind's prefix (and action) and random, often oversized, fields."""
    spec = draw(st.sampled_from(sorted(SPECS.values(), key=lambda s: s.template)))
    parts = [spec.prefix]
    for field in spec.fields:
        if field.name == "action":
            parts.append(draw(st.sampled_from(field.pattern.split("|"))))
        elif field.optional and draw(st.booleans()):
            continue
        else:
            parts.append(draw(PART))
    parts += draw(st.lists(PART, max_size=2))
    return ":".join(parts)


ANY_ID = st.one_of(shaped_ids(), st.text(max_size=200), st.from_regex(r"himiko:[a-z:0-9.@]*"))


@EXAMPLES
@given(ANY_ID)
def test_parsing_any_id_never_raises_nor_gives_numbers_out_of_range(custom_id: str) -> None:
    for spec in SPECS.values():
        fields = spec.parse(custom_id)
        if fields is not None:
            assert len(custom_id) <= MAX_LENGTH
            assert in_range(spec, fields), (spec.prefix, fields)
    lobby = parse_custom_id(custom_id)
    if lobby is not None:
        _, state = lobby
        assert state.min_seats <= state.seats <= state.max_seats
        assert len(state.players) <= state.seats
        assert all(0 <= p <= SNOWFLAKE_MAX for p in state.players)
        assert state.deadline in DEADLINE_HOURS


@EXAMPLES
@given(ANY_ID)
def test_a_click_with_any_id_rebuilds_an_item_in_range_or_none(custom_id: str) -> None:
    """discord.py rebuilds an item from every id that matches its template: that never raises
    (discord.py would log an ERROR) and the item holds only numbers in range."""
    for kind, _ in TEMPLATES:
        item = rebuilt(kind, custom_id)
        if item is None:
            continue
        assert type(item) is kind
        for value, top in item_numbers(item):
            assert 0 <= value <= top, (kind.__name__, custom_id)


def test_an_id_one_past_any_bound_is_refused_by_every_kind() -> None:
    """The largest allowed number is read; one more is refused, for every number field."""
    for spec in SPECS.values():
        for at, field in enumerate(spec.fields):
            if not bounded(field):
                continue
            for value, accepted in ((BOUNDS[field.name], True), (BOUNDS[field.name] + 1, False)):
                parts = [spec.prefix, *(_valid_text(f) for f in spec.fields)]
                parts[1 + at] = str(value)
                text = ":".join(parts)
                assert (spec.parse(text) is not None) is accepted, text
                kinds = [k for k, t in TEMPLATES if t.fullmatch(text)]
                assert bool(kinds) is accepted, text


def _valid_text(field: Field) -> str:
    """A small valid value of a field (the first action, the first choice)."""
    examples = {"ok": "ok", "crc": "0badf00d", "cat": "place", "turn": "3.1", "n": "2"}
    if field.name in examples:
        return examples[field.name]
    if field.name == "action":
        return field.pattern.split("|")[0]
    return "7"


# -- valid ids round-trip -----------------------------------------------------------------------


def _value(field: Field) -> st.SearchStrategy[str]:
    """Valid values of a field, numbers as the bot writes them (no leading zeros)."""
    if bounded(field):
        return st.integers(0, BOUNDS[field.name]).map(str)
    if field.name == "turn":
        return st.builds(
            lambda r, s: f"{r}.{s}", st.integers(0, ROUND_MAX), st.integers(0, SEAT_MAX)
        )
    if field.name == "crc":
        return st.integers(0, (1 << 32) - 1).map(lambda n: f"{n:08x}")
    return st.from_regex(f"(?:{field.pattern})", fullmatch=True)


@st.composite
def valid_ids(draw: st.DrawFn) -> tuple[CustomId, dict[str, str | None]]:
    """A kind (other than the lobby's, below) and valid values of its fields."""
    spec = draw(st.sampled_from([s for s in SPECS.values() if s.prefix != "himiko:lobby"]))
    values: dict[str, str | None] = {}
    for field in spec.fields:
        optional = field.optional and draw(st.booleans())
        values[field.name] = None if optional else draw(_value(field))
    return spec, values


@EXAMPLES
@given(valid_ids())
def test_valid_ids_round_trip_through_parse_and_a_click(
    drawn: tuple[CustomId, dict[str, str | None]],
) -> None:
    spec, values = drawn
    text = spec.format(**values)
    if len(text) > MAX_LENGTH:  # a long panel group name: the panel never writes one
        assert spec.parse(text) is None
        return
    assert spec.parse(text) == values
    kinds = [kind for kind, template in TEMPLATES if template.fullmatch(text)]
    assert kinds, text
    for kind in kinds:
        item = rebuilt(kind, text)
        assert item is not None and item.item.custom_id == text


LOBBIES = st.builds(
    lambda game, seats, computers, deadline, takeover, language, level, coach, way, action: (
        action,
        LobbyState(
            game,
            min(max(seats, games.rules_for(game).min_players), games.rules_for(game).max_players),
            computers,
            (),
            deadline=deadline,
            takeover=takeover,
            language=language,
            level=level,
            coach=coach,
        ).with_direction(way),
    ),
    st.sampled_from(sorted(games.GAMES)),
    st.integers(1, 9),
    st.booleans(),
    st.sampled_from(DEADLINE_HOURS),
    st.booleans(),
    st.sampled_from((None, *LANGUAGES)),
    st.sampled_from(COMPUTER_LEVELS),
    st.booleans(),
    st.sampled_from(("clockwise", "reversed", "random")),  # Namiji's; ignored by other games
    st.sampled_from(custom_ids.LOBBY_BUTTONS + custom_ids.LOBBY_SELECTS),
)


@EXAMPLES
@given(LOBBIES, st.lists(st.integers(0, SNOWFLAKE_MAX), max_size=5))
def test_valid_lobby_ids_round_trip(drawn: tuple[str, LobbyState], users: list[int]) -> None:
    """Lobby ids written now give their options back; ids written before (players in base 36)
    give their players back, up to the largest snowflake."""
    action, state = drawn
    text = state.custom_id(action)
    assert parse_custom_id(text) == (action, state)
    [kind] = [kind for kind, template in TEMPLATES if template.fullmatch(text)]
    item = rebuilt(kind, text)
    assert item is not None and item.item.custom_id == text
    players = tuple(users[: state.seats])
    if players:
        written = ".".join(_in_base(p, 36) for p in players)
        old = text.replace(":@", f":{written}", 1)
        parsed = parse_custom_id(old)
        if len(old) > MAX_LENGTH:  # Discord never showed such a button
            assert parsed is None
        else:
            assert parsed is not None and parsed[1].players == players


@given(st.integers(0, 1 << 70), st.data(), st.sampled_from([2, 10, 16, 36]))
def test_at_most_matches_exactly_the_numbers_up_to_its_limit(
    limit: int, data: st.DataObject, base: int
) -> None:
    number = data.draw(st.one_of(st.integers(0, limit), st.integers(0, 1 << 72)))
    pattern = re.compile(at_most(limit, base))
    digits = _in_base(number, base)
    assert (pattern.fullmatch(digits) is not None) is (number <= limit)
    assert pattern.fullmatch(_in_base(limit, base)) is not None


def _in_base(number: int, base: int) -> str:
    text = ""
    while True:
        number, digit = divmod(number, base)
        text = custom_ids.DIGITS[digit] + text
        if not number:
            return text


def test_a_number_field_without_a_bound_is_refused_when_the_kind_is_defined() -> None:
    with pytest.raises(ValueError, match="need a bound"):
        custom_ids.spec("himiko:new", "game", "count")
