"""Readable helpers to arrange Yamatai positions for the engine's behaviour tests.

Tests act through ``Match.play``; these helpers only arrange the state first (clear the board,
give boats, coins and tokens, put boats, tokens and buildings, choose the face-up tiles) and find
board geometry, so that a test names only the spots and islands it cares about.

Boats, cultures, spots, islands and tiles are given by name or label ("clay", "silk", "12",
"C4", "B07"), never by index.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

import pytest

from engine import games
from engine.errors import EngineError, IllegalAction
from engine.yamatai.board import load_board
from engine.yamatai.components import load_components
from engine.yamatai.state import NONE, Building

BOARD = load_board()
COMP = load_components()
BOATS = COMP.boat_names  # bamboo, wood, stone, clay, gold
CULTURES = COMP.culture_names  # rice, tea, silk, pottery, pearl, sake
NAMES = ["Ann", "Bo", "Cy", "Di"]
ALL_FLEETS = sorted(COMP.fleets)
# A building row nobody can build by accident: every tile needs a gold boat and three others.
HARMLESS_ROW = ["P1", "P2", "P3", "P4", "T3"]

Match = games.Match


# -- matches ---------------------------------------------------------------------------------


def new_match(players: int = 3, seed: int = 7) -> Match:
    """A fresh game exactly as set up by the engine."""
    return games.new("yamatai", players=NAMES[:players], seed=seed)


def fresh(players: int = 3, seed: int = 7) -> Match:
    """A fresh game with an empty board and a building row nobody can build by accident."""
    m = new_match(players, seed)
    clear_board(m)
    set_row(m, [])
    return m


def others(m: Match, seat: int | None = None) -> list[int]:
    """Every seat except ``seat`` (default: the current seat)."""
    me = m.current_seat if seat is None else seat
    return [s for s in range(len(m.players)) if s != me]


# -- arranging the state ---------------------------------------------------------------------


def clear_board(m: Match) -> None:
    """No culture token, mountain, sacred ground, building or boat anywhere on the board."""
    st = m.state
    islands = len(BOARD.island_labels)
    st.island_tokens = [NONE] * islands
    st.mountains = [False] * islands
    st.sacred = [False] * islands
    st.buildings = [None] * islands
    st.spot_boats = [NONE] * len(BOARD.spot_labels)
    st.sacred_left = COMP.sacred_grounds


def give(
    m: Match,
    seat: int,
    *,
    boats: dict[str, int] | None = None,
    coins: int | None = None,
    tokens: dict[str, int] | None = None,
    specialists: Iterable[str] = (),
    pp_tokens: int | None = None,
    set_aside: dict[str, int] | None = None,
    buildings_left: int | None = None,
) -> None:
    """Set what a player holds: boats and tokens are set exactly (others to zero)."""
    player = m.state.players[seat]
    if boats is not None:
        player.boats = counts(boats, BOATS)
    if set_aside is not None:
        player.set_aside = counts(set_aside, BOATS)
    if tokens is not None:
        player.tokens = counts(tokens, CULTURES)
    if coins is not None:
        player.coins = coins
    if pp_tokens is not None:
        player.pp_tokens = pp_tokens
    if buildings_left is not None:
        player.buildings_left = buildings_left
    for name in specialists:
        grant_specialist(m, seat, name)


def counts(named: dict[str, int], names: Sequence[str]) -> list[int]:
    """A count per name, in the engine's order."""
    unknown = set(named) - set(names)
    assert not unknown, f"unknown names {unknown}"
    return [named.get(name, 0) for name in names]


def grant_specialist(m: Match, seat: int, name: str) -> None:
    """The player has recruited ``name``; it leaves the track (refilled) or the deck."""
    st = m.state
    if name in st.specialist_track:
        slot = st.specialist_track.index(name)
        st.specialist_track[slot] = st.specialist_deck.pop(0)
        st.specialist_coins[slot] = 0
    else:
        st.specialist_deck.remove(name)
    st.players[seat].specialists.append(name)


def set_specialists(m: Match, names: Sequence[str], coins: Sequence[int] | None = None) -> None:
    """The face-up specialist track (padded from the deck) and the coins on each tile."""
    st = m.state
    names = list(names)
    previous = [s for s in st.specialist_track if s is not None and s not in names]
    deck = [s for s in st.specialist_deck if s not in names] + previous
    while len(names) < COMP.specialist_track_size:
        names.append(deck.pop(0))
    st.specialist_track = names
    st.specialist_deck = deck
    st.specialist_coins = list(coins or []) + [0] * (len(names) - len(coins or []))


def set_row(m: Match, tiles: Sequence[str]) -> None:
    """The face-up building row: these tiles, then harmless ones; every other tile is the deck."""
    st = m.state
    row = list(tiles)
    row += [t for t in HARMLESS_ROW if t not in row][: max(0, COMP.building_row_size - len(row))]
    taken = set(row) | {t for p in st.players for t in p.tiles + p.reserved}
    st.building_row = row
    st.building_deck = [t for t in COMP.buildings if t not in taken]


def face_up_fleets(m: Match, fleets: Sequence[int]) -> None:
    """These fleet tiles face up first on the track; the others (not played) follow face down."""
    st = m.state
    rest = [f for f in ALL_FLEETS if f not in fleets and f not in st.played]
    track = list(fleets) + rest
    st.fleet_track = track + [0] * (len(ALL_FLEETS) - len(track))


def visible_fleets(m: Match) -> list[int]:
    """Fleet numbers face up on the track, in track order."""
    return [f for f in m.state.fleet_track[: COMP.fleet_visible] if f]


def put_boat(m: Match, boat: str, spot_label: str) -> None:
    """A boat (from the reserve) on a spot, as if placed in an earlier turn."""
    st = m.state
    index = BOATS.index(boat)
    st.spot_boats[BOARD.spot_index[spot_label]] = index
    st.reserve[index] -= 1


def put_token(m: Match, island_label: str, culture: str | None) -> None:
    """A culture token on an island (None: no token)."""
    index = NONE if culture is None else CULTURES.index(culture)
    m.state.island_tokens[BOARD.island_index[island_label]] = index


def put_mountain(m: Match, island_label: str) -> None:
    """A mountain tile under the island."""
    m.state.mountains[BOARD.island_index[island_label]] = True


def put_sacred(m: Match, island_label: str) -> None:
    """A sacred ground token on the island."""
    m.state.sacred[BOARD.island_index[island_label]] = True
    m.state.sacred_left -= 1


def put_building(m: Match, seat: int, tile: str, island_label: str) -> None:
    """A building built in an earlier turn: the tile is the player's, the island holds it."""
    st = m.state
    st.buildings[BOARD.island_index[island_label]] = Building(seat, tile)
    player = st.players[seat]
    player.tiles.append(tile)
    if not COMP.buildings[tile].prestige:
        player.buildings_left -= 1
    if tile in st.building_deck:
        st.building_deck.remove(tile)
    elif tile in st.building_row:
        st.building_row.remove(tile)
        st.building_row.append(st.building_deck.pop(0))


# -- reading the state -----------------------------------------------------------------------


class Island(NamedTuple):
    """What lies on an island."""

    token: str | None
    building: tuple[int, str] | None  # (owner seat, tile)
    sacred: bool
    mountain: bool


def island(m: Match, label: str) -> Island:
    """The culture token, building, sacred ground and mountain of an island."""
    st = m.state
    i = BOARD.island_index[label]
    token = st.island_tokens[i]
    building = st.buildings[i]
    return Island(
        CULTURES[token] if token != NONE else None,
        (building.owner, building.tile) if building else None,
        st.sacred[i],
        st.mountains[i],
    )


def spot(m: Match, label: str) -> str | None:
    """The boat on a spot, or None."""
    boat = m.state.spot_boats[BOARD.spot_index[label]]
    return BOATS[boat] if boat != NONE else None


def boats(m: Match, seat: int) -> dict[str, int]:
    """The boats a player holds (harbor and this turn's), zero counts left out."""
    return named(m.state.players[seat].boats, BOATS)


def tokens(m: Match, seat: int) -> dict[str, int]:
    """The culture tokens a player holds, zero counts left out."""
    return named(m.state.players[seat].tokens, CULTURES)


def reserve(m: Match) -> dict[str, int]:
    """Boats left in the reserve, per type."""
    return dict(zip(BOATS, m.state.reserve, strict=True))


def named(values: Sequence[int], names: Sequence[str]) -> dict[str, int]:
    """Non-zero counts by name."""
    return {name: n for name, n in zip(names, values, strict=True) if n}


def coins(m: Match, seat: int) -> int:
    """A player's coins."""
    return int(m.state.players[seat].coins)


def score_lines(m: Match, seat: int) -> dict[str, int]:
    """A player's running score lines, as the public view shows them."""
    lines: dict[str, int] = m.view(None)["players"][seat]["score"]["lines"]
    return lines


def to_act(m: Match) -> int:
    """The seat whose turn it is (the game must be running)."""
    seat = m.current_seat
    assert seat is not None, "the game is over"
    return seat


def final(m: Match) -> dict[str, Any]:
    """The final scoring as the view shows it (scores with their lines, reasons, ranking)."""
    outcome: dict[str, Any] = m.view(None)["outcome"]
    return outcome


def events_of(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    """The events of one type."""
    return [e for e in events if e["type"] == kind]


def legal_starting(m: Match, word: str) -> list[str]:
    """Legal actions that start with a word ("end", "build", "place wood" ...)."""
    return [a for a in m.legal_actions() if a == word or a.startswith(word + " ")]


# -- acting ----------------------------------------------------------------------------------


def take_fleet(m: Match, number: int, extra: str | None = None) -> list[dict[str, Any]]:
    """Choose a fleet (turning it face up first if needed)."""
    assert number not in m.state.played, f"fleet {number} was already played this round"
    if number not in visible_fleets(m):
        shown = visible_fleets(m)
        face_up_fleets(m, [number, *shown[: COMP.fleet_visible - 1]])
    return m.play(f"fleet {number}" + (f" {extra}" if extra else ""))


def store_boats(m: Match) -> list[dict[str, Any]]:
    """The harbor step with its first legal choice, if boats wait for it."""
    keeps = legal_starting(m, "keep")
    return m.play(keeps[0]) if keeps else []


def end_turn(m: Match) -> list[dict[str, Any]]:
    """Store boats (the first legal way of filling the harbor) if needed, then end the turn."""
    events = store_boats(m)
    ends = legal_starting(m, "end")
    assert ends, f"cannot end the turn now; legal: {m.legal_actions()[:10]}"
    return events + m.play(ends[0])


def pass_turn(m: Match, fleet: int | None = None) -> list[dict[str, Any]]:
    """A quiet turn: take a fleet (default: the first legal one), place nothing, end."""
    first = legal_starting(m, "fleet")[0]
    events = m.play(first) if fleet is None else take_fleet(m, fleet)
    return events + end_turn(m)


def finish_round(m: Match) -> list[dict[str, Any]]:
    """Quiet turns until the round (or the game) ends."""
    start = m.state.round
    events: list[dict[str, Any]] = []
    while m.current_seat is not None and m.state.round == start:
        events += pass_turn(m)
    return events


def refused(
    m: Match,
    text: str,
    reason: str | None = None,
    error: type[EngineError] = IllegalAction,
    seat: int | None = None,
) -> EngineError:
    """Assert that the action raises ``error`` (with ``reason``) and changes nothing."""
    before = m.to_json()
    log = list(m.log)
    with pytest.raises(error) as caught:
        m.play(text, seat=seat)
    assert type(caught.value) is error, f"{type(caught.value).__name__}: {caught.value}"
    if reason is not None:
        assert caught.value.reason == reason, f"{caught.value.reason}: {caught.value}"
    assert m.to_json() == before
    assert m.log == log
    return caught.value


# -- board geometry --------------------------------------------------------------------------


def entry_spots() -> list[str]:
    """The entry spots' labels, in number order."""
    return sorted((BOARD.spot_labels[s] for s in BOARD.entry_spots), key=int)


def border_spots() -> list[str]:
    """The border spots' labels (Toyo-Tama's entries), in number order."""
    return sorted((BOARD.spot_labels[s] for s in BOARD.border_spots), key=int)


def links(spot_label: str) -> list[str]:
    """Spots connected to a spot."""
    return [BOARD.spot_labels[t] for t in BOARD.spot_links[BOARD.spot_index[spot_label]]]


def islands_of(spot_label: str) -> list[str]:
    """Islands a spot touches."""
    return [BOARD.island_labels[i] for i in BOARD.spot_islands[BOARD.spot_index[spot_label]]]


def spots_of(island_label: str) -> list[str]:
    """Spots around an island."""
    return [BOARD.spot_labels[s] for s in BOARD.island_spots[BOARD.island_index[island_label]]]


def neighbours(island_label: str) -> list[str]:
    """Islands sharing a land border with an island."""
    index = BOARD.island_index[island_label]
    return [BOARD.island_labels[i] for i in BOARD.island_neighbours[index]]


def path_from(start: str, length: int, allowed: Iterable[str] | None = None) -> list[str]:
    """A chain of ``length`` connected spots from ``start`` (within ``allowed`` if given)."""
    ok = set(allowed) if allowed is not None else set(BOARD.spot_labels)

    def walk(path: list[str]) -> list[str] | None:
        if len(path) == length:
            return path
        for nxt in links(path[-1]):
            if nxt in ok and nxt not in path:
                found = walk([*path, nxt])
                if found:
                    return found
        return None

    found = walk([start]) if start in ok else None
    assert found, f"no chain of {length} spots from {start}"
    return found


def fork() -> tuple[str, str, str, str]:
    """(first, second, only_first, only_second): an entry spot, a spot connected to it, and a
    spot connected to each of them but not to the other."""
    for first in entry_spots():
        for second in links(first):
            only_first = [s for s in links(first) if s != second and s not in links(second)]
            only_second = [s for s in links(second) if s != first and s not in links(first)]
            if only_first and only_second:
                return first, second, only_first[0], only_second[0]
    raise AssertionError("no fork from an entry spot")


def entry_path(length: int) -> list[str]:
    """A chain of ``length`` connected spots: an entry spot, then spots that are not entries."""
    entries = entry_spots()
    for start in entries:
        allowed = [s for s in BOARD.spot_labels if s == start or s not in entries]
        try:
            return path_from(start, length, allowed)
        except AssertionError:
            continue
    raise AssertionError(f"no chain of {length} spots from an entry spot")


def private_chain(length: int) -> tuple[list[str], list[str]]:
    """(spots, islands): connected spots, each touching its own island that no other one does."""
    for start in BOARD.spot_labels:
        found = _private_walk([start], length)
        if found:
            return found
    raise AssertionError(f"no chain of {length} spots with an island each")


def _private_walk(path: list[str], length: int) -> tuple[list[str], list[str]] | None:
    if len(path) == length:
        own = []
        for at in path:
            elsewhere = {i for other in path if other != at for i in islands_of(other)}
            mine = [i for i in islands_of(at) if i not in elsewhere]
            if not mine:
                return None
            own.append(mine[0])
        return path, own
    for nxt in links(path[-1]):
        if nxt not in path:
            found = _private_walk([*path, nxt], length)
            if found:
                return found
    return None


def open_chain(m: Match, boat: str, chain: Sequence[str], island_label: str | None = None) -> None:
    """Let a chain start on chain[0] with ``boat``: unless it is an entry spot, put a boat of
    the same type on a connected spot outside the chain (and away from the island, if given)."""
    if chain[0] in entry_spots():
        return
    away = set(spots_of(island_label)) if island_label else set()
    for anchor in links(chain[0]):
        if anchor not in chain and anchor not in away and spot(m, anchor) is None:
            put_boat(m, boat, anchor)
            return
    raise AssertionError(f"no anchor for a chain starting on {chain[0]}")


def chain_around(island_label: str, length: int) -> list[str]:
    """A chain of connected spots all touching the island (from an entry spot if possible)."""
    around = spots_of(island_label)
    starts = sorted(around, key=lambda s: (s not in entry_spots(), int(s)))
    for start in starts:
        try:
            return path_from(start, length, around)
        except AssertionError:
            continue
    raise AssertionError(f"no chain of {length} spots around {island_label}")


def landing(island_label: str, avoid: Iterable[str] = ()) -> tuple[str, str]:
    """(spot, anchor): a spot touching the island and a connected spot that does not.

    Put a boat on the anchor first, and a boat of the same type may start a chain on the spot.
    """
    around = spots_of(island_label)
    avoid = set(avoid)
    for at in around:
        if at in avoid:
            continue
        for anchor in links(at):
            if anchor not in around and anchor not in avoid:
                return at, anchor
    raise AssertionError(f"no landing spot for {island_label}")


def arrive(m: Match, island_label: str, boat: str, avoid: Iterable[str] = ()) -> str:
    """Place ``boat`` (held by the current player) on a spot touching the island; return it.

    A boat of the same type is first put on a connected spot away from the island, so the
    placement follows the first-boat rule without using an entry spot.
    """
    at, anchor = landing(island_label, avoid)
    put_boat(m, boat, anchor)
    m.play(f"place {boat} {at}")
    return at


def surround(m: Match, island_label: str, boats_: Sequence[str], skip: Iterable[str] = ()) -> None:
    """Put these boats on spots around the island (not on ``skip``), as if placed earlier."""
    free = [s for s in spots_of(island_label) if s not in set(skip) and spot(m, s) is None]
    assert len(free) >= len(boats_), f"{island_label} has room for {len(free)} boats only"
    for boat, at in zip(boats_, free, strict=False):
        put_boat(m, boat, at)


def island_path(length: int, min_spots: int = 3) -> list[str]:
    """Islands each sharing a land border with the next (the last one has enough spots)."""

    def walk(path: list[str]) -> list[str] | None:
        if len(path) == length:
            return path if len(spots_of(path[-1])) >= min_spots else None
        for nxt in neighbours(path[-1]):
            if nxt not in path:
                found = walk([*path, nxt])
                if found:
                    return found
        return None

    for start in BOARD.island_labels:
        found = walk([start])
        if found:
            return found
    raise AssertionError(f"no chain of {length} bordering islands")


def hub(min_spots: int = 4, degree: int = 2) -> tuple[str, list[str]]:
    """(island, neighbours): an island with enough spots and at least ``degree`` land borders."""
    for label in BOARD.island_labels:
        if len(spots_of(label)) >= min_spots and len(neighbours(label)) >= degree:
            return label, neighbours(label)
    raise AssertionError(f"no island with {min_spots} spots and {degree} land borders")


def far_from(island_label: str, min_spots: int = 3) -> str:
    """An island with no land border with, and no spot shared with, the given island."""
    near = set(neighbours(island_label)) | {island_label}
    shared = set(spots_of(island_label))
    for label in BOARD.island_labels:
        if label in near or shared & set(spots_of(label)):
            continue
        if len(spots_of(label)) >= min_spots:
            return label
    raise AssertionError(f"no island far from {island_label}")
