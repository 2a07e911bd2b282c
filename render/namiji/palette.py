"""Namiji's colours, keyed by the game's own names (player colours, fish colours, stations)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from render.theme import RGB, hex_rgb


def _colours(**pairs: str) -> Mapping[str, RGB]:
    """Read-only name -> RGB mapping from hex strings."""
    return MappingProxyType({k: hex_rgb(v) for k, v in pairs.items()})


#: Boat and player colours (the engine's colour names) and the ink drawn on them.
PLAYERS = _colours(
    green="#3fae49", pink="#e8609c", yellow="#f7c81e", blue="#2f6fde", violet="#8a4cc2"
)
PLAYER_INK = _colours(
    green="#0b250d", pink="#ffffff", yellow="#2a2000", blue="#ffffff", violet="#ffffff"
)
NEUTRAL = hex_rgb("#9aa0a8")
NEUTRAL_INK = hex_rgb("#1d1a16")

#: Fish colours (the engine's colour letters) and the ink of their letters.
FISH = _colours(b="#3b7ddd", o="#f08a24", g="#4caf50")
FISH_INK = _colours(b="#ffffff", o="#1d1a16", g="#0b250d")

#: Station fills by station letter (F fishing, N net, C trap, T whirlpool, R sacred rock,
#: D/O/W panoramas, P pontoon, S port).
STATIONS = _colours(
    F="#bfe3f5",
    N="#d9d2c0",
    C="#f3c9b5",
    T="#c9c3ee",
    R="#e0e0d8",
    D="#bfeee2",
    O="#f4d0ea",
    W="#c7d7f2",
    P="#e8cf95",
    S="#f2e3a0",
)
STATION_INK = hex_rgb("#10243a")

SEA = hex_rgb("#1f5f8b")
SEA_LOOP = hex_rgb("#5aa6cf")
OUTER_SPOT = hex_rgb("#e9f1f6")
CLOSED_SPOT = hex_rgb("#557891")
CARD_BACK = hex_rgb("#3b4a6b")
CARD_BACK_MARK = hex_rgb("#7d90b8")
CARD_FACE = hex_rgb("#fbf6ea")
CELL_EMPTY = hex_rgb("#e4d6b8")
CELL_EDGE = hex_rgb("#8f7f60")
NET = hex_rgb("#3d2c1c")
SHRIMP = hex_rgb("#f5a48a")
CRAB = hex_rgb("#c0392b")
OFFERING = hex_rgb("#d8432e")
OFFERING_GONE = hex_rgb("#d9cfbb")
GOLD = hex_rgb("#f2c230")

#: Every colour above, for the pictures' fixed palette (``render.png.palette_of``).
ALL: tuple[RGB, ...] = (
    *PLAYERS.values(),
    *PLAYER_INK.values(),
    NEUTRAL,
    NEUTRAL_INK,
    *FISH.values(),
    *FISH_INK.values(),
    *STATIONS.values(),
    STATION_INK,
    SEA,
    SEA_LOOP,
    OUTER_SPOT,
    CLOSED_SPOT,
    CARD_BACK,
    CARD_BACK_MARK,
    CARD_FACE,
    CELL_EMPTY,
    CELL_EDGE,
    NET,
    SHRIMP,
    CRAB,
    OFFERING,
    OFFERING_GONE,
    GOLD,
)
