"""Fleet powers (once, in the turn the fleet is played) and specialist powers."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from itertools import chain, combinations, compress, permutations, starmap
from operator import ne, or_
from typing import Any

from engine.contract import Event
from engine.yamatai.common import current, has, island_is_empty
from engine.yamatai.context import Ctx
from engine.yamatai.refusals import illegal
from engine.yamatai.state import NONE, State
from engine.yamatai.turn import check_boats_usable, harbor_done

Args = tuple[Any, ...]
LOOK_DEPTH = 3
KACHIKO_PRICE = 2
HETSUKA_COINS = 4

# Action kind -> the fleet power that allows it.
FLEET_POWERS = {
    "reserve": "reserve",
    "look": "look",
    "arrange": "look",
    "slide": "slide",
    "sacred": "sacred",
    "swap_tokens": "swap_tokens",
    "remove": "remove",
    "swap_boats": "swap_boats",
}
# Action kind -> the specialist whose once-per-turn power it is.
SPECIALIST_POWERS = {
    "raijin": "Raijin",
    "nakatsu": "Nakatsu",
    "michimata": "Michimata",
    "hetsuka": "Hetsuka",
    "kachiko": "Kachiko",
    "ebisu": "Ebisu",
}


def fleet_power(ctx: Ctx, st: State) -> str:
    """The power of the fleet chosen this turn."""
    return ctx.comp.fleets[st.turn.fleet].power


def power_ready(ctx: Ctx, st: State, kind: str) -> bool:
    """Whether the power behind this action kind can still be used this turn."""
    if kind == "arrange":
        return bool(st.turn.looked)
    if kind in FLEET_POWERS:
        return fleet_power(ctx, st) == FLEET_POWERS[kind] and "fleet" not in st.turn.used
    name = SPECIALIST_POWERS[kind]
    return has(current(st), name) and name not in st.turn.used


def check_ready(ctx: Ctx, st: State, kind: str) -> None:
    """Raise unless the power behind this action can be used now."""
    if power_ready(ctx, st, kind):
        return
    if kind == "arrange":
        raise illegal("nothing_to_arrange")
    if kind in FLEET_POWERS:
        power = FLEET_POWERS[kind]
        number = next(f.number for f in ctx.comp.fleets.values() if f.power == power)
        if fleet_power(ctx, st) != power:
            raise illegal("wrong_fleet", fleet=number)
        raise illegal("power_used.fleet", fleet=number)
    name = SPECIALIST_POWERS[kind]
    if not has(current(st), name):
        raise illegal("no_specialist", specialist=name)
    raise illegal("power_used", specialist=name)


def _mark_used(ctx: Ctx, st: State, kind: str) -> None:
    st.turn.used.append("fleet" if kind in FLEET_POWERS else SPECIALIST_POWERS[kind])


def _follow_boat(st: State, old: int, new: int) -> None:
    """Boats placed this turn keep counting as placed wherever they are moved."""
    st.turn.placed = [new if s == old else s for s in st.turn.placed]


def _follow_swap(st: State, a: int, b: int) -> None:
    """Two swapped boats each take their placed-this-turn status to the other spot (R4)."""
    st.turn.placed = [b if s == a else a if s == b else s for s in st.turn.placed]


def _swap_changes_something(st: State, a: int, b: int) -> bool:
    """Different types, or one of two same-type boats is yours from this turn (R17)."""
    placed = st.turn.placed
    return st.spot_boats[a] != st.spot_boats[b] or (a in placed) != (b in placed)


# -- checks --------------------------------------------------------------------------------


# Powers that take or give the boats a player holds: not once they are stored (step 4).
BOAT_POWERS = ("raijin", "nakatsu", "michimata")


def check_power(ctx: Ctx, st: State, kind: str, args: Args) -> None:
    """Check a fleet or specialist power action."""
    check_ready(ctx, st, kind)
    if kind in BOAT_POWERS:
        check_boats_usable(st, SPECIALIST_POWERS[kind])
    _CHECKS[kind](ctx, st, args)


def _check_reserve(ctx: Ctx, st: State, args: Args) -> None:
    if args[0] not in st.building_row:
        row = ", ".join(st.building_row)
        raise illegal("tile_not_available.row", tile=args[0], row=row)


def _check_look(ctx: Ctx, st: State, args: Args) -> None:
    if not st.building_deck:
        raise illegal("deck_empty")


def _check_arrange(ctx: Ctx, st: State, args: Args) -> None:
    top, bottom = args
    given = list(top) + list(bottom)
    if sorted(given) != sorted(st.turn.looked):
        raise illegal("arrange_mismatch", tiles=" ".join(st.turn.looked))


def _check_slide(ctx: Ctx, st: State, args: Args) -> None:
    start, end = args
    if st.spot_boats[start] == NONE:
        raise illegal("no_boat", spot=ctx.spot(start))
    if st.spot_boats[end] != NONE:
        raise illegal("spot_taken.slide", spot=ctx.spot(end))
    if end not in ctx.board.spot_links[start]:
        raise illegal("not_connected", start=ctx.spot(start), end=ctx.spot(end))


def _check_sacred(ctx: Ctx, st: State, args: Args) -> None:
    if st.sacred_left == 0:
        raise illegal("no_sacred_ground")
    if not island_is_empty(st, args[0]):
        raise illegal("island_not_empty", island=ctx.island(args[0]))


def _check_swap_tokens(ctx: Ctx, st: State, args: Args) -> None:
    a, b = args
    tokens = st.island_tokens
    for island in (a, b):
        if tokens[island] == NONE:
            raise illegal("no_token", island=ctx.island(island))
    if tokens[a] == tokens[b]:
        raise illegal("same_token")


def _check_remove(ctx: Ctx, st: State, args: Args) -> None:
    (spots,) = args
    if len(set(spots)) != len(spots):
        raise illegal("duplicate_spot")
    for spot in spots:
        if st.spot_boats[spot] == NONE:
            raise illegal("no_boat", spot=ctx.spot(spot))


def _check_swap_boats(ctx: Ctx, st: State, args: Args) -> None:
    a, b = args
    for spot in (a, b):
        if st.spot_boats[spot] == NONE:
            raise illegal("no_boat", spot=ctx.spot(spot))
    if not _swap_changes_something(st, a, b):
        raise illegal("same_boat")


def _check_raijin(ctx: Ctx, st: State, args: Args) -> None:
    need = [0] * len(st.reserve)
    for boat in args:
        need[boat] += 1
    if any(n > h for n, h in zip(need, current(st).boats, strict=True)):
        raise illegal("no_such_boat.pair")
    if st.reserve[ctx.gold] == 0:
        raise illegal("reserve_empty.gold")


def _check_nakatsu(ctx: Ctx, st: State, args: Args) -> None:
    if current(st).boats[ctx.gold] == 0:
        raise illegal("no_such_boat.gold")
    if ctx.gold in args:
        raise illegal("no_gold")
    need = [0] * len(st.reserve)
    for boat in args:
        need[boat] += 1
    if any(n > r for n, r in zip(need, st.reserve, strict=True)):
        raise illegal("reserve_empty.pair")


def _check_token_held(ctx: Ctx, st: State, args: Args) -> None:
    if current(st).tokens[args[0]] == 0:
        raise illegal("missing_tokens.one", culture=ctx.comp.culture_names[args[0]])


def _check_michimata(ctx: Ctx, st: State, args: Args) -> None:
    _check_token_held(ctx, st, args)
    if st.reserve[ctx.gold] == 0:
        raise illegal("reserve_empty.gold")


def _check_kachiko(ctx: Ctx, st: State, args: Args) -> None:
    if not st.sacred[args[0]]:
        raise illegal("no_sacred_ground.island", island=ctx.island(args[0]))
    if current(st).coins < KACHIKO_PRICE:
        raise illegal("unaffordable.kachiko", price=KACHIKO_PRICE)


def _check_ebisu(ctx: Ctx, st: State, args: Args) -> None:
    if not st.turn.collected or st.turn.recruited == "Ebisu":
        raise illegal("not_collected")
    if st.island_tokens[args[0]] == NONE:
        raise illegal("no_token", island=ctx.island(args[0]))


_CHECKS = {
    "reserve": _check_reserve,
    "look": _check_look,
    "arrange": _check_arrange,
    "slide": _check_slide,
    "sacred": _check_sacred,
    "swap_tokens": _check_swap_tokens,
    "remove": _check_remove,
    "swap_boats": _check_swap_boats,
    "raijin": _check_raijin,
    "nakatsu": _check_nakatsu,
    "michimata": _check_michimata,
    "hetsuka": _check_token_held,
    "kachiko": _check_kachiko,
    "ebisu": _check_ebisu,
}

# -- effects -------------------------------------------------------------------------------


def apply_power(ctx: Ctx, st: State, kind: str, args: Args) -> list[Event]:
    """Apply a checked power action."""
    if kind != "arrange":
        _mark_used(ctx, st, kind)
    event: Event = {"type": kind, "seat": st.seat}
    event.update(_EFFECTS[kind](ctx, st, args))
    return [event]


def _reserve(ctx: Ctx, st: State, args: Args) -> Event:
    st.building_row.remove(args[0])
    current(st).reserved.append(args[0])
    return {"tile": args[0]}


def _look(ctx: Ctx, st: State, args: Args) -> Event:
    st.turn.looked = st.building_deck[:LOOK_DEPTH]
    del st.building_deck[:LOOK_DEPTH]
    return {"count": len(st.turn.looked)}


def _arrange(ctx: Ctx, st: State, args: Args) -> Event:
    top, bottom = args
    st.building_deck = list(top) + st.building_deck + list(bottom)
    st.turn.looked = []
    return {"top": len(top), "bottom": len(bottom)}


def _slide(ctx: Ctx, st: State, args: Args) -> Event:
    start, end = args
    boat = st.spot_boats[start]
    st.spot_boats[end] = boat
    st.spot_boats[start] = NONE
    _follow_boat(st, start, end)
    return {"boat": ctx.boat_name(boat), "from": ctx.spot(start), "to": ctx.spot(end)}


def _sacred(ctx: Ctx, st: State, args: Args) -> Event:
    st.sacred[args[0]] = True
    st.sacred_left -= 1
    return {"island": ctx.island(args[0])}


def _swap_tokens(ctx: Ctx, st: State, args: Args) -> Event:
    a, b = args
    tokens = st.island_tokens
    tokens[a], tokens[b] = tokens[b], tokens[a]
    return {"islands": [ctx.island(a), ctx.island(b)]}


def _remove(ctx: Ctx, st: State, args: Args) -> Event:
    (spots,) = args
    removed = []
    for spot in spots:
        boat = st.spot_boats[spot]
        st.reserve[boat] += 1
        st.spot_boats[spot] = NONE
        removed.append({"boat": ctx.boat_name(boat), "spot": ctx.spot(spot)})
    st.turn.placed = [s for s in st.turn.placed if s not in spots]
    return {"boats": removed}


def _swap_boats(ctx: Ctx, st: State, args: Args) -> Event:
    a, b = args
    boats = st.spot_boats
    boats[a], boats[b] = boats[b], boats[a]
    _follow_swap(st, a, b)
    return {"spots": [ctx.spot(a), ctx.spot(b)]}


def _raijin(ctx: Ctx, st: State, args: Args) -> Event:
    player = current(st)
    for boat in args:
        player.boats[boat] -= 1
        st.reserve[boat] += 1
    st.reserve[ctx.gold] -= 1
    player.boats[ctx.gold] += 1
    return {"gave": [ctx.boat_name(b) for b in args], "took": ["gold"]}


def _nakatsu(ctx: Ctx, st: State, args: Args) -> Event:
    player = current(st)
    player.boats[ctx.gold] -= 1
    st.reserve[ctx.gold] += 1
    for boat in args:
        st.reserve[boat] -= 1
        player.boats[boat] += 1
    return {"gave": ["gold"], "took": [ctx.boat_name(b) for b in args]}


def _michimata(ctx: Ctx, st: State, args: Args) -> Event:
    player = current(st)
    player.tokens[args[0]] -= 1
    st.reserve[ctx.gold] -= 1
    player.boats[ctx.gold] += 1
    return {"culture": ctx.comp.culture_names[args[0]], "took": ["gold"]}


def _hetsuka(ctx: Ctx, st: State, args: Args) -> Event:
    player = current(st)
    player.tokens[args[0]] -= 1
    player.coins += HETSUKA_COINS
    return {"culture": ctx.comp.culture_names[args[0]], "coins": HETSUKA_COINS}


def _kachiko(ctx: Ctx, st: State, args: Args) -> Event:
    current(st).coins -= KACHIKO_PRICE
    st.sacred[args[0]] = False
    st.sacred_left += 1
    return {"island": ctx.island(args[0]), "coins": -KACHIKO_PRICE}


def _ebisu(ctx: Ctx, st: State, args: Args) -> Event:
    culture = st.island_tokens[args[0]]
    current(st).tokens[culture] += 1
    st.island_tokens[args[0]] = NONE
    return {"island": ctx.island(args[0]), "culture": ctx.comp.culture_names[culture]}


_EFFECTS = {
    "reserve": _reserve,
    "look": _look,
    "arrange": _arrange,
    "slide": _slide,
    "sacred": _sacred,
    "swap_tokens": _swap_tokens,
    "remove": _remove,
    "swap_boats": _swap_boats,
    "raijin": _raijin,
    "nakatsu": _nakatsu,
    "michimata": _michimata,
    "hetsuka": _hetsuka,
    "kachiko": _kachiko,
    "ebisu": _ebisu,
}

# -- generation ----------------------------------------------------------------------------


def gen_power(ctx: Ctx, st: State, kind: str) -> Iterator[Args]:
    """Every legal use of one power now."""
    if power_ready(ctx, st, kind):
        yield from gen_ready_power(ctx, st, kind)


def gen_ready_power(ctx: Ctx, st: State, kind: str) -> Iterable[Args]:
    """Every legal use of a power that ``power_ready`` allows now."""
    if kind in BOAT_POWERS and harbor_done(st):
        return ()
    return _GENERATORS[kind](ctx, st)


# Each fleet power's action kinds and each specialist's, 'arrange' left out (it follows 'look').
_FLEET_KINDS = {
    power: tuple(k for k, p in FLEET_POWERS.items() if p == power and k != "arrange")
    for power in FLEET_POWERS.values()
}
_SPECIALIST_KIND = {name: kind for kind, name in SPECIALIST_POWERS.items()}
_ORDER = {kind: i for i, kind in enumerate([*FLEET_POWERS, *SPECIALIST_POWERS])}


def ready_powers(ctx: Ctx, st: State) -> list[str]:
    """The power action kinds that ``power_ready`` allows now but 'arrange', in the legal order
    (fleet powers, then specialists, as listed above): found once instead of kind by kind."""
    used = st.turn.used
    kinds = [] if "fleet" in used else list(_FLEET_KINDS.get(fleet_power(ctx, st), ()))
    mine = [
        _SPECIALIST_KIND[name]
        for name in current(st).specialists
        if name in _SPECIALIST_KIND and name not in used
    ]
    if len(mine) > 1:
        mine.sort(key=_ORDER.__getitem__)
    return kinds + mine


def _boats_on_board(st: State) -> list[int]:
    boats = st.spot_boats
    return list(compress(range(len(boats)), map(NONE.__ne__, boats)))  # spots with a boat


def _tokens_on_board(ctx: Ctx, st: State) -> tuple[int, ...]:
    return ctx.by_label(i for i, t in enumerate(st.island_tokens) if t != NONE)


def _gen_arrange(ctx: Ctx, st: State) -> Iterator[Args]:
    looked = st.turn.looked
    for order in permutations(looked):
        for cut in range(len(order) + 1):
            yield (order[:cut], order[cut:])


def _gen_slide(ctx: Ctx, st: State) -> Iterator[Args]:
    boats = st.spot_boats
    for spot in _boats_on_board(st):
        for end in ctx.board.spot_links[spot]:
            if boats[end] == NONE:
                yield (spot, end)


# The powers with many choices give itertools' iterators (no generator resumed for each choice,
# no list of arguments made: the legal list looks each up as it comes).


def _gen_remove(ctx: Ctx, st: State) -> Iterator[Args]:
    spots = _boats_on_board(st)
    # ((spot,),) for each spot, then (pair,) for each pair
    return chain(zip(zip(spots)), zip(combinations(spots, 2)))


def _gen_swap_boats(ctx: Ctx, st: State) -> Iterator[Args]:
    spots = _boats_on_board(st)
    types = [st.spot_boats[s] for s in spots]
    placed = [s in st.turn.placed for s in spots]
    # _swap_changes_something for every pair, in the same order (itertools, not a loop)
    changes = map(or_, starmap(ne, combinations(types, 2)), starmap(ne, combinations(placed, 2)))
    return compress(combinations(spots, 2), changes)


def _gen_swap_tokens(ctx: Ctx, st: State) -> Iterator[Args]:
    islands = _tokens_on_board(ctx, st)
    cultures = [st.island_tokens[i] for i in islands]
    # the pairs of islands whose cultures differ, in the same order (itertools, not a loop)
    return compress(combinations(islands, 2), starmap(ne, combinations(cultures, 2)))


def _gen_pairs(ctx: Ctx, st: State, pool: list[int]) -> Iterator[Args]:
    items = [b for b, n in enumerate(pool) for _ in range(min(n, 2))]
    yield from sorted(set(combinations(items, 2)))


def _gen_raijin(ctx: Ctx, st: State) -> Iterator[Args]:
    if st.reserve[ctx.gold]:
        yield from _gen_pairs(ctx, st, current(st).boats)


def _gen_nakatsu(ctx: Ctx, st: State) -> Iterator[Args]:
    if current(st).boats[ctx.gold]:
        pool = st.reserve[:]
        pool[ctx.gold] = 0
        yield from _gen_pairs(ctx, st, pool)


def _gen_held_tokens(ctx: Ctx, st: State) -> Iterator[Args]:
    for culture, n in enumerate(current(st).tokens):
        if n:
            yield (culture,)


def _gen_michimata(ctx: Ctx, st: State) -> Iterator[Args]:
    if st.reserve[ctx.gold]:
        yield from _gen_held_tokens(ctx, st)


def _gen_kachiko(ctx: Ctx, st: State) -> Iterator[Args]:
    if current(st).coins >= KACHIKO_PRICE:
        for island, sacred in enumerate(st.sacred):
            if sacred:
                yield (island,)


def _gen_ebisu(ctx: Ctx, st: State) -> Iterator[Args]:
    if st.turn.collected and st.turn.recruited != "Ebisu":
        for island in _tokens_on_board(ctx, st):
            yield (island,)


def _gen_sacred(ctx: Ctx, st: State) -> Iterator[Args]:
    if st.sacred_left:
        for island in range(len(st.island_tokens)):
            if island_is_empty(st, island):
                yield (island,)


_GENERATORS: dict[str, Callable[[Ctx, State], Iterable[Args]]] = {
    "reserve": lambda ctx, st: ((t,) for t in sorted(st.building_row)),
    "look": lambda ctx, st: iter([()] if st.building_deck else []),
    "arrange": _gen_arrange,
    "slide": _gen_slide,
    "sacred": _gen_sacred,
    "swap_tokens": _gen_swap_tokens,
    "remove": _gen_remove,
    "swap_boats": _gen_swap_boats,
    "raijin": _gen_raijin,
    "nakatsu": _gen_nakatsu,
    "michimata": _gen_michimata,
    "hetsuka": _gen_held_tokens,
    "kachiko": _gen_kachiko,
    "ebisu": _gen_ebisu,
}
