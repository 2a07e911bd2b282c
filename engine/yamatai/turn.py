"""The steps of a player's turn: fleet, trade, place, collect or build, harbor, recruit, end."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import suppress
from itertools import combinations, compress, product, repeat
from operator import sub
from typing import Any

from engine.contract import Event
from engine.yamatai.common import (
    adjacent_boats,
    boat_list,
    current,
    has,
    island_is_empty,
    owner_of,
)
from engine.yamatai.components import BuildingTile, Fleet
from engine.yamatai.context import Ctx
from engine.yamatai.refusals import illegal
from engine.yamatai.state import (
    ACTED,
    FLEET,
    NONE,
    PLACE,
    RECRUITED,
    STEP_NAMES,
    STORED,
    TRADE,
    Building,
    Player,
    State,
)

Args = tuple[Any, ...]

# -- fleet ---------------------------------------------------------------------------------


def visible_fleets(ctx: Ctx, st: State) -> list[int]:
    """Fleet numbers face up on the fleet track, in number order."""
    return sorted(f for f in st.fleet_track[: ctx.comp.fleet_visible] if f)


def extra_boat_choices(st: State, fleet: Fleet) -> list[int]:
    """Boat types still in the reserve after the fleet's own boats are taken."""
    left = st.reserve[:]
    for boat in fleet.boats:
        if left[boat]:
            left[boat] -= 1
    return [boat for boat, n in enumerate(left) if n > 0]


def check_fleet(ctx: Ctx, st: State, args: Args) -> None:
    """Choosing a fleet: the first thing in a turn, from the face-up tiles."""
    number, extra = args
    if st.turn.step != FLEET:
        raise illegal("fleet_already_chosen", fleet=st.turn.fleet)
    visible = visible_fleets(ctx, st)
    if number not in visible:
        raise illegal("fleet_not_available", fleet=number, visible=", ".join(map(str, visible)))
    fleet = ctx.comp.fleets[number]
    if fleet.power == "extra_boat":
        choices = extra_boat_choices(st, fleet)
        names = ", ".join(ctx.boat_name(b) for b in choices)
        if extra == NONE and choices:
            raise illegal("choose_extra_boat", fleet=number, boats=names)
        if extra != NONE and extra not in choices:
            raise illegal("reserve_empty.fleet", boat=ctx.boat_name(extra), boats=names)
    elif extra != NONE:
        raise illegal("no_extra_boat", fleet=number)


def apply_fleet(ctx: Ctx, st: State, args: Args) -> list[Event]:
    """Take the fleet tile and its boats (those the reserve still has)."""
    number, extra = args
    player = current(st)
    st.fleet_track[st.fleet_track.index(number)] = 0
    player.fleets.append(number)
    st.played.append(number)
    st.turn.fleet = number
    st.turn.step = TRADE
    wanted = ctx.comp.fleets[number].boats + ((extra,) if extra != NONE else ())
    taken: list[str] = []
    missing: list[str] = []
    for boat in wanted:
        if st.reserve[boat] > 0:
            st.reserve[boat] -= 1
            player.boats[boat] += 1
            taken.append(ctx.boat_name(boat))
        else:
            missing.append(ctx.boat_name(boat))
    return [{"type": "fleet", "seat": st.seat, "fleet": number, "boats": taken, "missing": missing}]


def gen_fleet(ctx: Ctx, st: State) -> Iterator[Args]:
    """Every fleet choice."""
    for number in visible_fleets(ctx, st):
        fleet = ctx.comp.fleets[number]
        choices = extra_boat_choices(st, fleet) if fleet.power == "extra_boat" else []
        if choices:
            for boat in choices:
                yield (number, boat)
        else:
            yield (number, NONE)


# -- trade ---------------------------------------------------------------------------------


def trade_limit(player: Player) -> int:
    """Transactions allowed per turn (Izanagi adds one)."""
    return 2 if has(player, "Izanagi") else 1


def buy_price(ctx: Ctx, player: Player, boat: int) -> int | None:
    """What a boat costs this player, or None if it cannot be bought."""
    if boat == ctx.gold:
        return ctx.comp.tomoe_gold_price if has(player, "Tomoe") else None
    return ctx.comp.buy_prices[boat]


def sell_price(ctx: Ctx, player: Player, boat: int) -> int | None:
    """What a boat sells for, for this player, or None if it cannot be sold."""
    if boat == ctx.gold:
        return ctx.comp.tomoe_gold_price if has(player, "Tomoe") else None
    if has(player, "Susanoo") and boat in ctx.comp.susanoo_sell:
        return ctx.comp.susanoo_sell[boat]
    return ctx.comp.sell_prices[boat]


def _check_trade_step(st: State) -> None:
    if st.turn.step != TRADE:
        raise illegal("wrong_phase.trade")
    limit = trade_limit(current(st))
    if st.turn.trades >= limit:
        raise illegal("no_trades_left", count=limit)


def _price_or_refuse(ctx: Ctx, price: int | None, boat: int) -> int:
    if price is None:
        raise illegal("gold_not_tradable", boat=ctx.boat_name(boat))
    return price


def check_buy(ctx: Ctx, st: State, args: Args) -> None:
    """Buying one boat from the reserve at the mat price."""
    (boat,) = args
    _check_trade_step(st)
    player = current(st)
    price = _price_or_refuse(ctx, buy_price(ctx, player, boat), boat)
    if player.coins < price:
        raise illegal("unaffordable", boat=ctx.boat_name(boat), price=price, coins=player.coins)
    if st.reserve[boat] == 0:
        raise illegal("reserve_empty", boat=ctx.boat_name(boat))


def check_sell(ctx: Ctx, st: State, args: Args) -> None:
    """Selling one of your boats to the reserve at the mat price."""
    (boat,) = args
    _check_trade_step(st)
    player = current(st)
    _price_or_refuse(ctx, sell_price(ctx, player, boat), boat)
    if player.boats[boat] == 0:
        raise illegal("no_such_boat.sell", boat=ctx.boat_name(boat))


def apply_buy(ctx: Ctx, st: State, args: Args) -> list[Event]:
    """Pay and take the boat."""
    (boat,) = args
    player = current(st)
    price = buy_price(ctx, player, boat) or 0
    player.coins -= price
    player.boats[boat] += 1
    st.reserve[boat] -= 1
    st.turn.trades += 1
    return [{"type": "buy", "seat": st.seat, "boat": ctx.boat_name(boat), "coins": -price}]


def apply_sell(ctx: Ctx, st: State, args: Args) -> list[Event]:
    """Return the boat and take the coins."""
    (boat,) = args
    player = current(st)
    price = sell_price(ctx, player, boat) or 0
    player.coins += price
    player.boats[boat] -= 1
    st.reserve[boat] += 1
    st.turn.trades += 1
    return [{"type": "sell", "seat": st.seat, "boat": ctx.boat_name(boat), "coins": price}]


def gen_buy(ctx: Ctx, st: State) -> list[Args]:
    """Every affordable purchase."""
    player = current(st)
    if st.turn.step != TRADE or st.turn.trades >= trade_limit(player):
        return []
    found: list[Args] = []
    for boat, left in enumerate(st.reserve):
        price = buy_price(ctx, player, boat)
        if left and price is not None and player.coins >= price:
            found.append((boat,))
    return found


def gen_sell(ctx: Ctx, st: State) -> Iterator[Args]:
    """Every possible sale."""
    player = current(st)
    if st.turn.step != TRADE or st.turn.trades >= trade_limit(player):
        return
    for boat, n in enumerate(player.boats):
        if n and sell_price(ctx, player, boat) is not None:
            yield (boat,)


# -- place ---------------------------------------------------------------------------------


def _entry_spots(ctx: Ctx, player: Player) -> frozenset[int]:
    if has(player, "Toyo-Tama"):
        return ctx.board.border_spots | ctx.board.entry_spots
    return ctx.board.entry_spots


def place_targets(ctx: Ctx, st: State) -> dict[int, list[int]]:
    """For each boat type the player holds, the spots where it may be placed now."""
    held = [b for b, n in enumerate(current(st).boats) if n]
    if not held:
        return {}
    if st.turn.placed:
        chain = _boat_targets(ctx, st, held[0])  # any boat's: next to the boat placed last
        return {b: chain for b in held}
    return {boat: _boat_targets(ctx, st, boat) for boat in held}


def _boat_targets(ctx: Ctx, st: State, boat: int) -> list[int]:
    """The spots where a boat of that type may be placed now, in spot order."""
    boats = st.spot_boats
    links = ctx.board.spot_links
    placed = st.turn.placed
    if placed:
        return sorted(t for t in links[placed[-1]] if boats[t] == NONE)
    near = set(_entry_spots(ctx, current(st)))
    for spot in _spots_holding(boats, boat):
        near.update(links[spot])
    # the free ones (compress: no Python loop; a set unchanged is iterated in one order)
    return sorted(compress(near, map(NONE.__eq__, map(boats.__getitem__, near))))


def first_spots(ctx: Ctx, st: State) -> set[int]:
    """The spots of ``place_targets`` together, before any boat is placed this turn: free
    spots on an entry or next to a boat of a type the player holds (no list per type)."""
    held = [b for b, n in enumerate(current(st).boats) if n]
    if not held:
        return set()
    boats = st.spot_boats
    links = ctx.board.spot_links
    near = set(_entry_spots(ctx, current(st)))
    for boat in held:
        for spot in _spots_holding(boats, boat):
            near.update(links[spot])
    return {s for s in near if boats[s] == NONE}


def _spots_holding(boats: list[int], boat: int) -> Iterator[int]:
    """The spots with a boat of that type (found by list.index: no Python loop over the rest)."""
    spot = -1
    with suppress(ValueError):
        while True:
            spot = boats.index(boat, spot + 1)
            yield spot


def check_place(ctx: Ctx, st: State, args: Args) -> None:
    """Placing a boat: first on an entry or next to its colour, then chained to the previous."""
    boat, spot = args
    if st.turn.step not in (TRADE, PLACE):
        raise illegal("wrong_phase.place")
    player = current(st)
    name = ctx.boat_name(boat)
    if player.boats[boat] == 0:
        held = sum(player.boats)  # a number: the player's texts name no boat in English
        raise illegal("no_such_boat.place" if held else "no_such_boat.none", boat=name, held=held)
    if st.spot_boats[spot] != NONE:
        raise illegal("spot_taken", spot=ctx.spot(spot))
    if spot in _boat_targets(ctx, st, boat):  # only this boat's (the player holds one)
        return
    if st.turn.placed:
        previous = ctx.spot(st.turn.placed[-1])
        raise illegal("broken_chain", spot=previous)
    raise illegal("not_an_entry", boat=name, spot=ctx.spot(spot))


def apply_place(ctx: Ctx, st: State, args: Args) -> list[Event]:
    """Put the boat on the spot; it now belongs to everyone."""
    boat, spot = args
    current(st).boats[boat] -= 1
    st.spot_boats[spot] = boat
    st.turn.placed.append(spot)
    st.turn.step = PLACE
    return [{"type": "place", "seat": st.seat, "boat": ctx.boat_name(boat), "spot": ctx.spot(spot)}]


def gen_place(ctx: Ctx, st: State) -> list[Args]:
    """Every legal placement of every boat held (a list: there are many)."""
    if st.turn.step not in (TRADE, PLACE):
        return []
    targets = sorted(place_targets(ctx, st).items())
    return [(boat, spot) for boat, spots in targets for spot in spots]


# -- collect -------------------------------------------------------------------------------


def collect_sets(ctx: Ctx, st: State) -> list[tuple[int, ...]]:
    """The largest sets of islands whose tokens can be taken, one per boat placed this turn."""
    tokens = st.island_tokens
    options = [
        tuple(i for i in ctx.board.spot_islands[s] if tokens[i] != NONE) for s in st.turn.placed
    ]
    # Every choice of one island per boat, as a set: its islands can all be taken (one boat for
    # each), and the largest sets are those of the largest matchings of boats to islands (a
    # boat left out of one has all its islands in it already). Found in C, no Python loop.
    found = set(map(frozenset, product(*(o for o in options if o))))
    best = max(map(len, found))
    return sorted(
        (ctx.by_label(s) for s in found if len(s) == best and best > 0),
        key=lambda islands: [ctx.island_rank[i] for i in islands],
    )


def _check_act_step(ctx: Ctx, st: State, action: str) -> None:
    """Refuse collecting or building (``action``) at the wrong step or before any boat is placed."""
    if st.turn.step not in (TRADE, PLACE):
        raise illegal(f"already_acted.{action}")
    if not st.turn.placed:
        raise illegal(f"no_boats_placed.{action}")


def check_collect(ctx: Ctx, st: State, args: Args) -> None:
    """Collecting: one token per boat placed this turn, each next to its own boat."""
    (islands,) = args
    _check_act_step(ctx, st, "collect")
    if len(set(islands)) != len(islands):
        raise illegal("duplicate_island")
    for island in islands:
        if st.island_tokens[island] == NONE:
            raise illegal("no_token", island=ctx.island(island))
    sets = collect_sets(ctx, st)
    if ctx.by_label(islands) in sets:
        return
    if not sets:
        raise illegal("nothing_to_collect")
    size = len(sets[0])
    if len(islands) < size:
        raise illegal("take_all_tokens", count=size)
    raise illegal("not_adjacent")


def apply_collect(ctx: Ctx, st: State, args: Args) -> list[Event]:
    """Take the tokens; the islands are cleared."""
    (islands,) = args
    player = current(st)
    taken = []
    for island in islands:
        culture = st.island_tokens[island]
        player.tokens[culture] += 1
        st.island_tokens[island] = NONE
        taken.append({"island": ctx.island(island), "culture": ctx.comp.culture_names[culture]})
    st.turn.step = ACTED
    st.turn.collected = True
    return [{"type": "collect", "seat": st.seat, "tokens": taken}]


def gen_collect(ctx: Ctx, st: State) -> Iterator[Args]:
    """Every maximal collection."""
    if st.turn.step in (TRADE, PLACE) and st.turn.placed:
        for islands in collect_sets(ctx, st):
            yield (islands,)


# -- build ---------------------------------------------------------------------------------


def buildable_tiles(st: State) -> list[str]:
    """Tiles the current player may build: the face-up row and their own reservations."""
    return st.building_row + current(st).reserved


def missing_boats(ctx: Ctx, st: State, tile: BuildingTile, island: int) -> int:
    """How many of the tile's required boats are not adjacent to the island."""
    return missing(tile, adjacent_boats(ctx, st, island))


def missing(tile: BuildingTile, have: list[int]) -> int:
    """How many of the tile's required boats ``have`` (counts by boat type) lacks: the sum of
    max(0, need - had) (mapped, not looped: asked for every tile and island)."""
    return sum(map(max, map(sub, tile.needs, have), repeat(0, len(have))))


def shortfall_allowed(ctx: Ctx, st: State) -> int:
    """Fleet 9 lets you build with one boat fewer than required."""
    return 1 if ctx.comp.fleets[st.turn.fleet].power == "discount" else 0


def ananda_payee(ctx: Ctx, st: State, island: int) -> int | None:
    """The Ananda owner an opponent must pay to build on this island, if any."""
    seat = owner_of(st, "Ananda")
    if seat is None or seat == st.seat:
        return None
    for n in ctx.board.island_neighbours[island]:
        building = st.buildings[n]
        if building and building.owner == seat and not ctx.comp.buildings[building.tile].prestige:
            return seat
    return None


def _islands_next_to_placed(ctx: Ctx, st: State) -> list[int]:
    return sorted({i for s in st.turn.placed for i in ctx.board.spot_islands[s]})


def check_build(ctx: Ctx, st: State, args: Args) -> None:
    """Building: an available tile, an empty island next to a boat placed this turn, its boats."""
    tile_id, island = args
    _check_act_step(ctx, st, "build")
    player = current(st)
    tile = ctx.comp.buildings[tile_id]
    if tile_id not in buildable_tiles(st):
        holder = next((p.name for p in st.players if tile_id in p.reserved), None)
        if holder:
            raise illegal("tile_not_available.reserved", tile=tile_id, player=holder)
        raise illegal("tile_not_available", tile=tile_id)
    if not tile.prestige and player.buildings_left == 0:
        raise illegal("no_buildings_left")
    label = ctx.island(island)
    if not island_is_empty(st, island):
        raise illegal("island_not_empty", island=label)
    if island not in _islands_next_to_placed(ctx, st):
        raise illegal("not_next_to_placed_boat", island=label)
    missing = missing_boats(ctx, st, tile, island)
    if missing > shortfall_allowed(ctx, st):
        needs = ", ".join(boat_list(ctx, list(tile.needs)))
        raise illegal("missing_boats", tile=tile_id, boats=needs, island=label, count=missing)
    payee = ananda_payee(ctx, st, island)
    if payee is not None and player.coins < 2:
        raise illegal("cannot_pay_ananda", island=label, player=st.players[payee].name)


def _group_size(ctx: Ctx, st: State, seat: int, island: int) -> int:
    """Size of the group of the player's standard buildings that a building on island joins."""
    seen = {island}
    todo = [island]
    buildings = st.buildings
    while todo:
        for n in ctx.board.island_neighbours[todo.pop()]:
            b = buildings[n]
            if (
                n not in seen
                and b is not None
                and b.owner == seat
                and not ctx.comp.buildings[b.tile].prestige
            ):
                seen.add(n)
                todo.append(n)
    return len(seen)


def build_bonus(ctx: Ctx, st: State, tile: BuildingTile, island: int) -> dict[str, int]:
    """PP tokens and coins a building earns when built (before it is placed)."""
    player = current(st)
    bonus: dict[str, int] = {}
    if not tile.prestige or has(player, "Awashima"):
        neighbours = [st.buildings[n] for n in ctx.board.island_neighbours[island]]
        shrines = sum(1 for b in neighbours if b and ctx.comp.buildings[b.tile].prestige)
        if shrines:
            bonus["shrines"] = shrines
        if st.mountains[island]:
            bonus["mountain"] = 1
        group = _group_size(ctx, st, st.seat, island)
        if group >= 2:
            bonus["group"] = group * (2 if tile.trading_post else 1)
    if (
        not tile.prestige
        and has(player, "Kagutsuchi")
        and _group_size(ctx, st, st.seat, island) == 1
    ):
        bonus["kagutsuchi"] = 1
    return bonus


def apply_build(ctx: Ctx, st: State, args: Args) -> list[Event]:
    """Pay Ananda if due, take the bonuses, put the building on the island."""
    tile_id, island = args
    seat = st.seat
    player = current(st)
    tile = ctx.comp.buildings[tile_id]
    events: list[Event] = []
    payee = ananda_payee(ctx, st, island)
    if payee is not None:
        player.coins -= 2
        st.players[payee].coins += 2
        events.append({"type": "ananda", "seat": seat, "to": payee, "coins": 2})
    bonus = build_bonus(ctx, st, tile, island)
    pp = bonus.get("shrines", 0) + bonus.get("mountain", 0) + bonus.get("kagutsuchi", 0)
    coins = bonus.get("group", 0)
    player.pp_tokens += pp
    player.coins += coins
    if tile_id in st.building_row:
        st.building_row.remove(tile_id)
    else:
        player.reserved.remove(tile_id)
    player.tiles.append(tile_id)
    st.buildings[island] = Building(seat, tile_id)
    if not tile.prestige:
        player.buildings_left -= 1
        if player.buildings_left == 0:
            st.last_building = True
    st.turn.step = ACTED
    events.append(
        {
            "type": "build",
            "seat": seat,
            "tile": tile_id,
            "island": ctx.island(island),
            "kind": tile.kind,
            "figure": tile.kind if tile.prestige else "standard",
            "pp_tokens": pp,
            "coins": coins,
            "bonus": bonus,
            "last_building": not tile.prestige and player.buildings_left == 0,
        }
    )
    return events


def gen_build(ctx: Ctx, st: State) -> Iterator[Args]:
    """Every legal building."""
    if st.turn.step not in (TRADE, PLACE) or not st.turn.placed:
        return
    player = current(st)
    tiles = [ctx.comp.buildings[t] for t in sorted(buildable_tiles(st))]
    tiles = [t for t in tiles if t.prestige or player.buildings_left > 0]
    allowance = shortfall_allowed(ctx, st)
    for island in _islands_next_to_placed(ctx, st):
        if not island_is_empty(st, island):
            continue
        if player.coins < 2 and ananda_payee(ctx, st, island) is not None:
            continue
        have = adjacent_boats(ctx, st, island)
        for tile in tiles:
            if missing(tile, have) <= allowance:
                yield (tile.id, island)


def can_collect_or_build(ctx: Ctx, st: State) -> bool:
    """Whether the mandatory collect-or-build step is possible right now."""
    if st.turn.step not in (TRADE, PLACE) or not st.turn.placed:
        return False
    tokens = st.island_tokens
    for spot in st.turn.placed:
        if any(tokens[i] != NONE for i in ctx.board.spot_islands[spot]):
            return True
    return next(gen_build(ctx, st), None) is not None


def _still_to_act(ctx: Ctx, st: State, can_act: bool | None) -> bool:
    """``can_act`` when the caller found it (the legal actions list collect and build first),
    else ``can_collect_or_build``."""
    return can_collect_or_build(ctx, st) if can_act is None else can_act


def _check_acted(ctx: Ctx, st: State, action: str) -> None:
    """Refuse ``action`` (recruit, keep, end) while collecting or building is still possible."""
    if can_collect_or_build(ctx, st):
        raise illegal(f"must_collect_or_build.{action}")


# -- recruit -------------------------------------------------------------------------------


def payments(player: Player) -> list[tuple[int, ...]]:
    """Token payments the player can make: two identical or three different."""
    tokens = player.tokens
    pairs = [(c, c) for c, n in enumerate(tokens) if n >= 2]
    held = [c for c, n in enumerate(tokens) if n >= 1]
    return sorted(pairs + list(combinations(held, 3)))


def check_recruit(ctx: Ctx, st: State, args: Args) -> None:
    """Recruiting one face-up specialist with two identical or three different tokens."""
    name, cultures = args
    if st.turn.step == RECRUITED:
        raise illegal("already_recruited")
    _check_acted(ctx, st, "recruit")
    _check_stored(ctx, st, "recruit")
    if name not in st.specialist_track:
        face_up = ", ".join(s for s in st.specialist_track if s)
        raise illegal("specialist_not_available", specialist=name, face_up=face_up)
    pattern_ok = (len(cultures) == 2 and cultures[0] == cultures[1]) or (
        len(cultures) == 3 and len(set(cultures)) == 3
    )
    if not pattern_ok:
        raise illegal("bad_payment")
    if tuple(cultures) not in payments(current(st)):
        names = " ".join(ctx.comp.culture_names[c] for c in cultures)
        raise illegal("missing_tokens", tokens=names)


def apply_recruit(ctx: Ctx, st: State, args: Args) -> list[Event]:
    """Spend the tokens, take the specialist and its coins (Izanami takes half)."""
    name, cultures = args
    seat = st.seat
    player = current(st)
    for culture in cultures:
        player.tokens[culture] -= 1
    slot = st.specialist_track.index(name)
    coins = st.specialist_coins[slot]
    st.specialist_track[slot] = None
    st.specialist_coins[slot] = 0
    events: list[Event] = []
    izanami = owner_of(st, "Izanami")
    if izanami is not None and izanami != seat and coins:
        half = coins // 2
        st.players[izanami].coins += half
        coins -= half
        events.append({"type": "izanami", "seat": izanami, "from": seat, "coins": half})
    player.coins += coins
    player.specialists.append(name)
    st.turn.step = RECRUITED
    st.turn.recruited = name
    paid = [ctx.comp.culture_names[c] for c in cultures]
    events.insert(
        0,
        {"type": "recruit", "seat": seat, "specialist": name, "tokens": paid, "coins": coins},
    )
    return events


def gen_recruit(ctx: Ctx, st: State, can_act: bool | None = None) -> Iterator[Args]:
    """Every recruitment the player can afford now (``can_act``: ``can_collect_or_build`` if
    the caller knows it)."""
    if st.turn.step == RECRUITED or st.turn.step == FLEET or harbor_pending(st):
        return
    options = payments(current(st))
    if not options or _still_to_act(ctx, st, can_act):
        return
    for name in sorted(s for s in st.specialist_track if s):
        for cultures in options:
            yield (name, cultures)


# -- harbor (step 4) and end of turn ------------------------------------------------------


def harbor_capacity(ctx: Ctx, player: Player) -> int:
    """Boats the harbor keeps between turns (Riu adds two)."""
    return ctx.comp.harbor + (ctx.comp.riu_extra_harbor if has(player, "Riu") else 0)


def keep_options(ctx: Ctx, player: Player) -> list[tuple[int, ...]]:
    """Every way to fill the harbor from the boats held."""
    held = [b for b, n in enumerate(player.boats) for _ in range(n)]
    size = min(harbor_capacity(ctx, player), len(held))
    return sorted(set(combinations(held, size)))


def harbor_done(st: State) -> bool:
    """Whether this turn's boats are stored (rulebook order: step 4 is over)."""
    return st.rulebook_order and st.turn.step in (STORED, RECRUITED)


def harbor_pending(st: State) -> bool:
    """Whether boats held still wait for the harbor step before recruiting or ending."""
    # not harbor_done(st), written out: this is asked several times for each legal list
    return st.turn.step not in (STORED, RECRUITED) and st.rulebook_order and any(current(st).boats)


def step_name(st: State) -> str:
    """The engine's step as shown: after collecting or building with no boat to store, the
    harbor is done (``rules.shown_step`` also reads what is legal)."""
    if st.turn.step == ACTED and st.rulebook_order and not harbor_pending(st):
        return STEP_NAMES[STORED]
    return STEP_NAMES[st.turn.step]


def check_boats_usable(st: State, specialist: str) -> None:
    """Refuse a specialist's power that takes or gives the player's boats once they are stored."""
    if harbor_done(st):
        raise illegal("boats_stored", specialist=specialist)


def _harbor_advice(ctx: Ctx, player: Player) -> dict[str, object]:
    """How many boats the harbor keeps and how many the player holds: a refusal's data (the
    boats' names are the legal keeps the refusal lists)."""
    capacity = harbor_capacity(ctx, player)
    held = sum(player.boats)
    return {"count": min(capacity, held), "held": held}


def _check_stored(ctx: Ctx, st: State, action: str) -> None:
    """Refuse ``action`` (recruit, end) while the boats still wait for the harbor step."""
    if harbor_pending(st):
        raise illegal(f"store_boats_first.{action}", **_harbor_advice(ctx, current(st)))


def _check_kept(ctx: Ctx, player: Player, kept: tuple[int, ...]) -> None:
    if tuple(kept) not in keep_options(ctx, player):
        raise illegal("harbor", **_harbor_advice(ctx, player))


def _store(ctx: Ctx, st: State, kept: tuple[int, ...]) -> Event:
    """Keep the chosen boats in the harbor and set the others aside."""
    player = current(st)
    harbor = [0] * len(player.boats)
    for boat in kept:
        harbor[boat] += 1
    aside = [n - k for n, k in zip(player.boats, harbor, strict=True)]
    for boat, n in enumerate(aside):
        player.set_aside[boat] += n
    player.boats = harbor
    return {
        "type": "harbor",
        "seat": st.seat,
        "kept": boat_list(ctx, harbor),
        "set_aside": boat_list(ctx, aside),
    }


def check_keep(ctx: Ctx, st: State, args: Args) -> None:
    """Step 4: after collecting or building (or when neither is possible), fill the harbor."""
    (kept,) = args
    if not st.rulebook_order:
        raise illegal("old_step_order")
    if harbor_done(st):
        raise illegal("already_stored")
    _check_acted(ctx, st, "keep")
    player = current(st)
    if not sum(player.boats):
        raise illegal("nothing_to_keep")
    _check_kept(ctx, player, kept)


def apply_keep(ctx: Ctx, st: State, args: Args) -> list[Event]:
    """Keep the chosen boats; set the others aside."""
    (kept,) = args
    event = _store(ctx, st, kept)
    st.turn.step = STORED
    return [event]


def gen_keep(ctx: Ctx, st: State, can_act: bool | None = None) -> list[Args]:
    """Every way to fill the harbor now (``can_act`` as for ``gen_recruit``)."""
    if st.turn.step == FLEET or not harbor_pending(st) or _still_to_act(ctx, st, can_act):
        return []
    return [(kept,) for kept in keep_options(ctx, current(st))]


def check_end(ctx: Ctx, st: State, args: Args) -> None:
    """Ending the turn: collect-or-build done if possible, the boats stored."""
    (kept,) = args
    _check_acted(ctx, st, "end")
    player = current(st)
    if not st.rulebook_order:
        _check_kept(ctx, player, kept)
        return
    if kept and harbor_done(st):
        raise illegal("already_stored.end")
    if kept:
        raise illegal("keep_first")
    _check_stored(ctx, st, "end")


def apply_end(ctx: Ctx, st: State, args: Args) -> list[Event]:
    """End the turn (in a game under the old order, filling the harbor first)."""
    (kept,) = args
    events = [] if st.rulebook_order else [_store(ctx, st, kept)]
    return [*events, {"type": "end_turn", "seat": st.seat}]


def gen_end(ctx: Ctx, st: State, can_act: bool | None = None) -> Iterator[Args]:
    """Every way to end the turn now (``can_act`` as for ``gen_recruit``)."""
    if st.turn.step == FLEET or _still_to_act(ctx, st, can_act):
        return
    if not st.rulebook_order:
        for kept in keep_options(ctx, current(st)):
            yield (kept,)
    elif not harbor_pending(st):
        yield ((),)
