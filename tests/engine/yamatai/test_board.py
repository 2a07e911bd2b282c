"""The house archipelago (engine/yamatai/data/board.json) and its loader."""

from __future__ import annotations

import copy
import importlib.util
import json
import re
import sys
from collections import deque
from collections.abc import Callable, Iterable
from importlib import resources
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from engine.yamatai.board import Board, board_from_dict, load_board

ROOT = Path(__file__).resolve().parents[3]
GENERATOR = ROOT / "tools" / "make_board.py"

Key = tuple[float, float]


@pytest.fixture(scope="module")
def board() -> Board:
    return load_board()


@pytest.fixture(scope="module")
def raw() -> dict[str, Any]:
    text = resources.files("engine.yamatai").joinpath("data", "board.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def key(point: Iterable[float]) -> Key:
    x, y = point
    return (round(x, 3), round(y, 3))


def island_edges(board: Board, i: int) -> list[frozenset[Key]]:
    cs = [key(c) for c in board.island_corners[i]]
    return [frozenset((cs[k], cs[(k + 1) % 6])) for k in range(6)]


def edge_owners(board: Board) -> dict[frozenset[Key], list[int]]:
    owners: dict[frozenset[Key], list[int]] = {}
    for i in range(len(board.island_labels)):
        for e in island_edges(board, i):
            owners.setdefault(e, []).append(i)
    return owners


def midpoint(edge: frozenset[Key]) -> Key:
    (ax, ay), (bx, by) = sorted(edge)
    return ((ax + bx) / 2, (ay + by) / 2)


def close(p: Iterable[float], q: Iterable[float]) -> bool:
    (px, py), (qx, qy) = p, q
    return abs(px - qx) < 1e-3 and abs(py - qy) < 1e-3


def spot_edges(board: Board) -> list[frozenset[Key]]:
    """The cell edge each spot lies on (found from its islands and its position)."""
    edges = []
    for s, isl in enumerate(board.spot_islands):
        found = [e for e in island_edges(board, isl[0]) if close(midpoint(e), board.spot_xy[s])]
        assert len(found) == 1, f"spot {board.spot_labels[s]} is not on an edge of its island"
        edges.append(found[0])
    return edges


def reachable(starts: Iterable[int], links: tuple[tuple[int, ...], ...]) -> set[int]:
    seen = set(starts)
    todo = deque(seen)
    while todo:
        for j in links[todo.popleft()]:
            if j not in seen:
                seen.add(j)
                todo.append(j)
    return seen


def test_34_islands_in_a_5_by_7_grid(board: Board, raw: dict[str, Any]) -> None:
    assert len(board.island_labels) == 34
    assert raw["geometry"] == {"hex": "pointy", "rows": 5, "cols": 7, "size": 1.0}
    assert raw["house"] is True
    rows = {int(lab[1:]) for lab in board.island_labels}
    assert rows == {1, 2, 3, 4, 5}
    # Every row still starts on the left edge (column A).
    assert {f"A{r}" for r in rows} <= set(board.island_labels)


def test_labels_unique_match_patterns_and_reading_order(board: Board) -> None:
    assert len(set(board.island_labels)) == len(board.island_labels)
    assert all(re.fullmatch(r"[A-G][1-5]", lab) for lab in board.island_labels)
    order = sorted(board.island_labels, key=lambda lab: (lab[1:], lab[0]))
    assert list(board.island_labels) == order
    assert list(board.spot_labels) == [str(n) for n in range(1, len(board.spot_labels) + 1)]
    positions = [(round(y, 3), round(x, 3)) for x, y in board.spot_xy]
    assert positions == sorted(positions)
    assert dict(board.island_index) == {lab: i for i, lab in enumerate(board.island_labels)}
    assert dict(board.spot_index) == {lab: i for i, lab in enumerate(board.spot_labels)}


def test_coordinates_are_non_negative_and_inside_the_box(board: Board) -> None:
    points = [*board.island_xy, *board.spot_xy]
    points += [c for cs in board.island_corners for c in cs]
    assert all(x >= 0 and y >= 0 for x, y in points)
    assert max(x for x, _ in points) == pytest.approx(board.width)
    assert max(y for _, y in points) == pytest.approx(board.height)


def test_adjacency_is_symmetric_and_only_across_a_shared_edge(board: Board) -> None:
    owners = edge_owners(board)
    shared = {frozenset(o) for o in owners.values() if len(o) == 2}
    for i, neighbours in enumerate(board.island_neighbours):
        assert list(neighbours) == sorted(set(neighbours))
        for j in neighbours:
            assert i != j
            assert i in board.island_neighbours[j]
            # Exactly two corners in common: an edge, not just a corner.
            common = {key(c) for c in board.island_corners[i]} & {
                key(c) for c in board.island_corners[j]
            }
            assert len(common) == 2
            assert frozenset((i, j)) in shared


def test_each_spot_touches_the_islands_across_its_edge(board: Board) -> None:
    owners = edge_owners(board)
    edges = spot_edges(board)
    assert len(set(edges)) == len(edges), "two spots on one edge"
    for s, (edge, isl) in enumerate(zip(edges, board.spot_islands, strict=True)):
        assert len(isl) in (1, 2)
        assert list(isl) == sorted(set(isl))
        assert sorted(owners[edge]) == list(isl), f"spot {board.spot_labels[s]}"
        if len(isl) == 2:
            a, b = isl
            assert b not in board.island_neighbours[a], "a channel is also a land border"
        assert all(s in board.island_spots[i] for i in isl)
    for i, spots in enumerate(board.island_spots):
        assert list(spots) == sorted(set(spots))
        assert all(i in board.spot_islands[s] for s in spots)


def test_every_shared_edge_is_a_land_border_or_a_channel(board: Board) -> None:
    owners = edge_owners(board)
    channels = {e for e in spot_edges(board) if len(owners[e]) == 2}
    for edge, isl in owners.items():
        if len(isl) == 2:
            a, b = isl
            assert (b in board.island_neighbours[a]) != (edge in channels)


def test_every_island_touches_at_least_3_spots_most_4_to_6(board: Board) -> None:
    counts = [len(spots) for spots in board.island_spots]
    assert min(counts) >= 3
    assert max(counts) <= 6
    assert sum(1 for n in counts if 4 <= n <= 6) >= 0.75 * len(counts)


def test_balance_targets(board: Board) -> None:
    owners = edge_owners(board)
    internal = sum(1 for o in owners.values() if len(o) == 2)
    borders = sum(len(n) for n in board.island_neighbours) // 2
    assert 0.30 <= borders / internal <= 0.40
    assert 60 <= len(board.spot_labels) <= 80


def test_exactly_5_entry_spots_on_the_left_edge(board: Board) -> None:
    assert len(board.entry_spots) == 5
    left = min(x for x, _ in board.island_xy)
    rows = set()
    for s in board.entry_spots:
        (isl,) = board.spot_islands[s]  # coastal: one island
        label = board.island_labels[isl]
        assert label[0] == "A"
        rows.add(label[1:])
        x, _ = board.spot_xy[s]
        assert x < board.island_xy[isl][0]  # west side of its island
        assert x <= left + 1e-3  # the smallest x region of the board
        assert s in board.border_spots
    assert rows == {"1", "2", "3", "4", "5"}


def test_coastal_spots_are_border_spots(board: Board) -> None:
    coastal = {s for s, isl in enumerate(board.spot_islands) if len(isl) == 1}
    assert coastal
    assert coastal <= board.border_spots


def test_border_spots_are_exactly_those_on_the_outer_edge(board: Board) -> None:
    owners = edge_owners(board)
    outer_vertices = {v for e, o in owners.items() if len(o) == 1 for v in e}
    for s, edge in enumerate(spot_edges(board)):
        on_edge = len(board.spot_islands[s]) == 1 or bool(edge & outer_vertices)
        assert (s in board.border_spots) == on_edge, f"spot {board.spot_labels[s]}"


def test_links_are_symmetric_and_join_edges_meeting_at_a_corner(board: Board) -> None:
    edges = spot_edges(board)
    for s, links in enumerate(board.spot_links):
        assert list(links) == sorted(set(links))
        assert s not in links
        for t in links:
            assert s in board.spot_links[t]
        touching = {t for t, e in enumerate(edges) if t != s and e & edges[s]}
        assert set(links) == touching


def test_spot_network_is_connected(board: Board) -> None:
    assert reachable([0], board.spot_links) == set(range(len(board.spot_labels)))


def test_every_island_is_reachable_from_an_entry_spot(board: Board) -> None:
    spots = reachable(board.entry_spots, board.spot_links)
    islands = {i for s in spots for i in board.spot_islands[s]}
    assert islands == set(range(len(board.island_labels)))


def load_generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_board_under_test", GENERATOR)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[spec.name]
    return module


def test_generator_is_deterministic_and_matches_the_committed_json() -> None:
    generator = load_generator()
    first = generator.build()
    second = generator.build()
    assert first == second
    committed = resources.files("engine.yamatai").joinpath("data", "board.json")
    text = committed.read_text(encoding="utf-8")
    assert json.loads(text) == first
    assert generator.dumps(first) == text


def test_load_board_is_cached_and_rejects_unknown_names(board: Board) -> None:
    assert load_board("default") is board
    with pytest.raises(ValueError, match="unknown board"):
        load_board("no-such-board")


def test_board_from_dict_round_trips_the_packaged_board(board: Board, raw: dict[str, Any]) -> None:
    assert board_from_dict(raw) == board


def _asymmetric_link(data: dict[str, Any]) -> None:
    spot = data["spots"][0]
    other = next(s for s in data["spots"] if s["label"] == spot["links"][0])
    other["links"].remove(spot["label"])


def _unknown_island(data: dict[str, Any]) -> None:
    data["spots"][0]["islands"] = ["Z9"]


def _unknown_island_in_border(data: dict[str, Any]) -> None:
    data["borders"].append(["A1", "Q7"])


def _unknown_link(data: dict[str, Any]) -> None:
    data["spots"][0]["links"].append("999")


def _three_islands(data: dict[str, Any]) -> None:
    data["spots"][0]["islands"] = ["A1", "B1", "A2"]


def _duplicate_island_label(data: dict[str, Any]) -> None:
    data["islands"][1]["label"] = data["islands"][0]["label"]


def _duplicate_spot_label(data: dict[str, Any]) -> None:
    data["spots"][1]["label"] = data["spots"][0]["label"]


@pytest.mark.parametrize(
    ("breakage", "message"),
    [
        (_asymmetric_link, "does not link back"),
        (_unknown_island, "unknown island 'Z9'"),
        (_unknown_island_in_border, "unknown island 'Q7'"),
        (_unknown_link, "unknown spot '999'"),
        (_three_islands, "must touch 1 or 2 islands"),
        (_duplicate_island_label, "duplicate island labels"),
        (_duplicate_spot_label, "duplicate spot labels"),
    ],
)
def test_board_from_dict_rejects_a_broken_board(
    raw: dict[str, Any], breakage: Callable[[dict[str, Any]], None], message: str
) -> None:
    data = copy.deepcopy(raw)
    breakage(data)
    with pytest.raises(ValueError, match=re.escape(message)):
        board_from_dict(data)
