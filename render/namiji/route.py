"""The pieces on the route: every boat at its space, spot or slot; the boat to act; last moves."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from engine.namiji.components import CLOCKWISE, components, sheet_index
from engine.namiji.view import NamijiPlayer, NamijiView
from render.focus import Stage
from render.namiji import layout, palette
from render.namiji.glyphs import boat_sprite, paste_centred, ring_sprite
from render.namiji.highlight import Highlight
from render.stand_in import without_turn
from render.theme import RGB, Theme

NEUTRAL_MARK = "\u00b7"  # the neutral boat (2 players) has no owner

__all__ = ["acting_boat", "boat_centre", "boat_look", "draw_boats"]


def boat_centre(
    pos: int, spot: int, direction: str = CLOCKWISE
) -> tuple[tuple[float, float], bool]:
    """Where a boat at route index ``pos`` of a game sailed in ``direction`` stands on the
    picture (the house sheet's loop), and whether it is in a port or pontoon slot."""
    comp = components()
    spaces = layout.route_spaces(len(comp.route))
    pos = sheet_index(pos, direction) if pos != comp.arrival else pos
    if comp.is_port(pos):
        corner = (pos // (layout.SPACES_PER_SIDE + 1)) % 4
        return layout.slot_centre(corner, max(1, spot)), True
    space = spaces[pos]
    return (space.outer if spot == 1 else (space.x, space.y)), False


def boat_look(
    seat: int | None, players: Sequence[NamijiPlayer], marks: Sequence[str]
) -> tuple[RGB, RGB, str]:
    """A boat's fill, ink and mark."""
    if seat is None:
        return palette.NEUTRAL, palette.NEUTRAL_INK, NEUTRAL_MARK
    colour = str(players[seat].get("colour", ""))
    return (
        palette.PLAYERS.get(colour, palette.NEUTRAL),
        palette.PLAYER_INK.get(colour, palette.NEUTRAL_INK),
        marks[seat],
    )


def nobody_to_act(view: NamijiView) -> NamijiView:
    """``without_turn`` for Namiji: when the bot ended the game, no seat plays and no boat moves."""
    quiet = without_turn(view)
    if quiet is not view:
        quiet["boat_to_act"] = None
    return quiet


def acting_boat(view: NamijiView) -> int | None:
    """The boat to frame: the one that moves or stops, or in a draft the picking seat's boat."""
    if view.get("phase") == "draft":
        seat = view.get("current_seat")
        return next((i for i, b in enumerate(view["boats"]) if b.get("seat") == seat), None)
    acting = view.get("boat_to_act")
    return None if acting is None else int(acting)


def draw_boats(
    canvas: Image.Image,
    view: NamijiView,
    look: Theme,
    hl: Highlight,
    marks: Sequence[str],
    stage: Stage | None = None,
) -> None:
    """Every boat; the boat to act and the boats just moved ringed; on a ``stage`` (a turn
    picture's crop drawn at its size), each scaled to the crop."""
    put = paste_centred if stage is None else stage.paste
    players = view["players"]
    acting = acting_boat(view)
    direction = str(view.get("direction", CLOCKWISE))
    for index, boat in enumerate(view["boats"]):
        (x, y), slot = boat_centre(int(boat["pos"]), int(boat["spot"]), direction)
        radius = layout.SLOT_BOAT_RADIUS if slot else layout.BOAT_RADIUS
        if index in hl.boats:
            put(canvas, ring_sprite(radius + 7, look.last_turn, 4), (x, y))
        if index == acting:
            put(canvas, ring_sprite(radius + 3, look.current, 4), (x, y))
        fill, ink, mark = boat_look(boat.get("seat"), players, marks)
        put(canvas, boat_sprite(fill, ink, mark, radius), (x, y))
