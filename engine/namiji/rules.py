"""Namiji's rules: setup, who acts, legal actions, and applying them (station effects, drafts)."""

from __future__ import annotations

from collections.abc import Iterator

from engine import rng
from engine.contract import Event
from engine.namiji.components import CELLS, CLOCKWISE, PANORAMA_TYPES, cell_index, components
from engine.namiji.notation import Action, format_action
from engine.namiji.refusals import REFUSALS
from engine.namiji.scoring import (
    fish_cells,
    fits,
    line_value,
    net_cells,
    net_places,
    new_lines,
    penalty,
    rock_met,
)
from engine.namiji.state import DRAFT, MOVE, OVER, STATION, Boat, Player, State

OPTIONAL = "offer"  # the only task that `end` may skip (U7's second offering)


# -- setup -------------------------------------------------------------------------------------


def new_state(names: list[str], seed: int, direction: str = CLOCKWISE) -> State:
    """A fresh game: decks shuffled, the bank with one fish face up, boats in random slots."""
    comp = components()
    state = rng.seed_state(seed)
    fish = [k for k, n in comp.fish.items() for _ in range(n)]
    nets = [k for k, n in comp.nets.items() for _ in range(n)]
    pontoon = [*comp.meals, *comp.upgrades]
    rocks = list(comp.rocks)
    for pile in (fish, nets, pontoon, rocks):
        state = rng.shuffle(state, pile)
    owners: list[int | None] = list(range(len(names)))
    if len(names) == 2:
        owners.append(None)  # the neutral boat
    slots = list(range(1, len(owners) + 1))
    state = rng.shuffle(state, slots)
    players = [Player(name, comp.colours[i]) for i, name in enumerate(names)]
    st = State(
        rng=state,
        players=players,
        boats=[Boat(0, slot, seat) for seat, slot in zip(owners, slots, strict=True)],
        bank_up=[fish.pop()],
        bank_down=fish,
        net_pile=nets,
        bag=dict(comp.crustaceans),
        pontoon_deck=pontoon,
        rock_deck=rocks,
        arrivals=list(comp.arrival_tokens[len(owners)]),
        bonuses=[f"B{t}" for t in PANORAMA_TYPES],
        direction=direction,
    )
    st.boat = boat_to_move(st) or 0
    return st


# -- who acts ----------------------------------------------------------------------------------


def behind(boat: Boat) -> tuple[int, int]:
    """Sort key: smaller is further behind (outer spots and higher slots count as behind)."""
    return (boat.pos, -boat.spot)


def boat_to_move(st: State) -> int | None:
    """The boat furthest behind among those not yet arrived."""
    arrival = components(st.direction).arrival
    sailing = [i for i, b in enumerate(st.boats) if b.pos != arrival]
    return min(sailing, key=lambda i: behind(st.boats[i])) if sailing else None


def front_seat(st: State) -> int:
    """The seat whose boat is furthest ahead (it moves the neutral boat)."""
    boats = [b for b in st.boats if b.seat is not None]
    leader = max(boats, key=behind).seat
    assert leader is not None
    return leader


def slot_boat(st: State, slot: int) -> int:
    """The boat in a slot of the pontoon where every boat waits."""
    pos = st.boats[0].pos
    return next(i for i, b in enumerate(st.boats) if b.pos == pos and b.spot == slot)


def actor(st: State) -> int | None:
    """The seat to act now, or None once the game is over."""
    if st.phase == OVER:
        return None
    if st.phase == DRAFT:
        seat = st.boats[slot_boat(st, st.draft_slot)].seat
        assert seat is not None
        return seat
    seat = st.boats[st.boat].seat
    return front_seat(st) if seat is None else seat


def doubles_used(st: State) -> bool:
    """Whether double spaces are in play (4 or 5 players)."""
    return len(st.players) >= components(st.direction).double_from


def upgrades(player: Player, station: str) -> set[str]:
    """The effects of a player's upgrades that act at a station letter."""
    comp = components()
    return {
        comp.upgrades[c].effect
        for c in player.pontoon
        if c in comp.upgrades and station in comp.upgrades[c].station
    }


# -- legal actions -----------------------------------------------------------------------------


def _free_spot(st: State, index: int) -> int | None:
    comp = components(st.direction)
    taken = {b.spot for b in st.boats if b.pos == index}
    if not comp.double[index]:
        spots = [0]
    elif doubles_used(st):
        spots = [0, 1]
    else:
        spots = [0] if comp.double_below == "route_spot" else []
    return next((s for s in spots if s not in taken), None)


def port_slots(st: State) -> int:
    """Slots used at a pontoon: 3 at 2-3 players, else one per player."""
    return components(st.direction).slots[len(st.players)]


def moves(st: State) -> list[Action]:
    """Every move of the boat to act: free usable spaces up to the next pontoon or the port."""
    return list(_each_move(st))


def _each_move(st: State) -> Iterator[Action]:
    """The moves of ``moves`` one by one (a refusal asks only whether there is one)."""
    comp = components(st.direction)
    boat = st.boats[st.boat]
    stop = comp.next_stop(boat.pos)
    route = comp.route  # each move knows its station, as Namiji.parse gives it
    player = None if boat.seat is None else st.players[boat.seat]
    for q in range(boat.pos + 1, stop):
        if _may_stop(st, player, q):
            yield Action("move", (str(q),), route[q])
    if stop == comp.arrival:
        yield Action("move", (str(stop),), route[stop])
        return
    taken = {b.spot for b in st.boats if b.pos == stop}
    for s in range(1, port_slots(st) + 1):
        if s not in taken:
            yield Action("move", (str(stop), str(s)), route[stop])


def _may_stop(st: State, player: Player | None, q: int) -> bool:
    """Whether the boat to act (``player``'s, None for the neutral boat) may stop on space ``q``
    before its next stop: a free usable spot, not a station of a panorama it has completed."""
    comp = components(st.direction)
    letter = comp.route[q]
    if player and letter in comp.sections and player.panoramas[letter] == comp.sections[letter]:
        return False
    return _free_spot(st, q) is not None


def _move_allowed(st: State, args: tuple[str, ...]) -> bool:
    """Whether ``move`` with these arguments is one of ``moves(st)`` (without listing them)."""
    numbers = [int(a) for a in args if a.isascii() and a.isdigit() and str(int(a)) == a]
    if len(numbers) != len(args) or not 1 <= len(args) <= 2:
        return False
    comp = components(st.direction)
    pos = st.boats[st.boat].pos
    stop = comp.next_stop(pos)
    q = numbers[0]
    if len(args) == 1:
        seat = st.boats[st.boat].seat
        player = None if seat is None else st.players[seat]
        return (pos < q < stop and _may_stop(st, player, q)) or q == stop == comp.arrival
    slot = numbers[1]
    taken = {b.spot for b in st.boats if b.pos == stop}
    return q == stop != comp.arrival and 1 <= slot <= port_slots(st) and slot not in taken


def _stopper(st: State) -> tuple[int, Player]:
    """The seat whose boat is resolving its stop, and its player."""
    seat = st.boats[st.boat].seat
    assert seat is not None, "the neutral boat's stops have no decisions"
    return seat, st.players[seat]


def _station_actions(st: State) -> list[Action]:
    comp = components(st.direction)
    if not st.tasks:
        return [Action("end")]
    player = _stopper(st)[1]
    task = st.tasks[0]
    if task == "fish":
        found = [Action("fish", (k,)) for k in sorted(set(st.bank_up))]
        return found + ([Action("fish", ("hidden",))] if st.bank_down else [])
    if task == "catch":
        return [Action("keep", (c,)) for c in fish_cells(player.crate)] + [Action("release")]
    if task == "net":
        places = net_places(player.crate)
        nets = sorted(set(st.nets_shown))
        return [Action("net", (k, c, o)) for k in nets for c, o in places] + [Action("refuse")]
    if task == "trap":
        return [Action("draw")] + ([Action("stop")] if st.drawn else [])
    if task == "rock":
        return [Action("rock", (c,)) for c in sorted(st.rocks_shown)]
    if task == "offer":
        return [Action("offer"), Action("end")]
    if task == "panorama":
        return [
            Action("panorama", (t,))
            for t in PANORAMA_TYPES
            if player.panoramas[t] < comp.sections[t]
        ]
    raise AssertionError(task)


def legal(st: State) -> list[Action]:
    """Every legal action now, in a fixed order."""
    if st.phase == OVER:
        return []
    if st.phase == DRAFT:
        return [Action("pick", (c,)) for c in sorted(st.hand)]
    if st.phase == MOVE:
        return moves(st)
    return _station_actions(st)


def check(st: State, action: Action) -> None:
    """Raise IllegalAction unless the action is legal now (one of ``legal(st)``, found without
    listing them; a refusal lists them to say what comes now)."""
    if _allowed(st, action):
        return
    kinds = _legal_kinds(st)
    if st.phase == OVER:
        raise REFUSALS.illegal("game_over")
    if action.kind not in kinds:
        wanted = " / ".join(sorted(kinds))
        raise REFUSALS.illegal("wrong_step", played=format_action(action), wanted=wanted)
    raise REFUSALS.illegal("not_allowed", played=format_action(action))


def _legal_kinds(st: State) -> set[str]:
    """The kinds of ``legal(st)``'s actions (a refusal names them): while moving, whether there
    is a first move (not every move listed)."""
    if st.phase == MOVE:
        return {"move"} if next(_each_move(st), None) is not None else set()
    return {a.kind for a in legal(st)}


def _allowed(st: State, action: Action) -> bool:
    """Whether the action is one of ``legal(st)``."""
    kind, args = action.kind, action.args
    if st.phase == OVER:
        return False
    if st.phase == DRAFT:
        return kind == "pick" and len(args) == 1 and args[0] in st.hand
    if st.phase == MOVE:
        return kind == "move" and _move_allowed(st, args)
    if not st.tasks:
        return kind == "end" and not args
    return _TASK_ALLOWS[st.tasks[0]](st, _stopper(st)[1], kind, args)


def _fish_allowed(st: State, player: Player, kind: str, args: tuple[str, ...]) -> bool:
    if kind != "fish" or len(args) != 1:
        return False
    return args[0] in st.bank_up or (args[0] == "hidden" and bool(st.bank_down))


def _catch_allowed(st: State, player: Player, kind: str, args: tuple[str, ...]) -> bool:
    if kind == "release":
        return not args
    cells = [CELLS.index(c) for c in args if c in CELLS]
    return kind == "keep" and len(cells) == len(args) == 1 and fits(player.crate, cells)


def _net_allowed(st: State, player: Player, kind: str, args: tuple[str, ...]) -> bool:
    if kind == "refuse":
        return not args
    if kind != "net" or len(args) != 3 or args[0] not in st.nets_shown:
        return False
    _, cell, orientation = args
    cells = net_cells(cell, orientation) if cell in CELLS and orientation in ("h", "v") else None
    return cells is not None and fits(player.crate, cells)


def _trap_allowed(st: State, player: Player, kind: str, args: tuple[str, ...]) -> bool:
    return not args and (kind == "draw" or (kind == "stop" and bool(st.drawn)))


def _rock_allowed(st: State, player: Player, kind: str, args: tuple[str, ...]) -> bool:
    return kind == "rock" and len(args) == 1 and args[0] in st.rocks_shown


def _offer_allowed(st: State, player: Player, kind: str, args: tuple[str, ...]) -> bool:
    return kind in ("offer", "end") and not args


def _panorama_allowed(st: State, player: Player, kind: str, args: tuple[str, ...]) -> bool:
    if kind != "panorama" or len(args) != 1 or args[0] not in PANORAMA_TYPES:
        return False
    return player.panoramas[args[0]] < components(st.direction).sections[args[0]]


# What each station task allows, as ``_station_actions`` lists it.
_TASK_ALLOWS = {
    "fish": _fish_allowed,
    "catch": _catch_allowed,
    "net": _net_allowed,
    "trap": _trap_allowed,
    "rock": _rock_allowed,
    "offer": _offer_allowed,
    "panorama": _panorama_allowed,
}


# -- applying ----------------------------------------------------------------------------------


def apply(st: State, action: Action, pass_turn: bool = True) -> list[Event]:
    """Apply a checked action in place and return its events."""
    events: list[Event] = []
    seat = actor(st)
    kind = action.kind
    if kind == "pick":
        _pick(st, seat, action.args[0], events)
        events.append({"type": "end_turn", "seat": seat})
        _settle_draft(st, events)  # the next pick is another seat's: nothing hidden is shown
        return events
    if kind == "move":
        _move(st, action, events)
    elif kind == "end":
        st.tasks.clear()
        events.append({"type": "end_turn", "seat": seat})
        if pass_turn:
            _next(st, events)
        return events
    else:
        _resolve(st, action, events)
    _settle(st, events)
    return events


def _score(st: State, seat: int, points: int, why: str, events: list[Event]) -> None:
    st.players[seat].score += points
    events.append({"type": "score", "seat": seat, "points": points, "for": why})


def _move(st: State, action: Action, events: list[Event]) -> None:
    comp = components(st.direction)
    boat = st.boats[st.boat]
    q = int(action.args[0])
    if len(action.args) == 2:
        spot = int(action.args[1])
    elif q == comp.arrival:
        spot = 1 + sum(b.pos == q for b in st.boats)  # the arrival order
    else:
        free = _free_spot(st, q)
        assert free is not None
        spot = free
    boat.pos, boat.spot = q, spot
    st.moved, st.phase = True, STATION
    st.turns += 1
    events.append({"type": "move", "boat": st.boat, "seat": boat.seat, "to": q, "spot": spot})
    if q == comp.arrival and st.arrivals:
        token = st.arrivals.pop(0)
        events.append({"type": "arrival", "boat": st.boat, "seat": boat.seat, "token": token})
        if boat.seat is not None:
            st.players[boat.seat].arrival = token
            _score(st, boat.seat, comp.arrival_points[token], "arrival", events)
    if boat.seat is not None:
        _stop(st, boat.seat, comp.route[q], events)


def _stop(st: State, seat: int, letter: str, events: list[Event]) -> None:
    """The station's effect: automatic parts now, decisions as tasks."""
    comp = components(st.direction)
    player = st.players[seat]
    extra = upgrades(player, letter)
    if letter == "F":
        if "reveal_3" in extra:
            for _ in range(3):
                _reveal_fish(st, events)
        st.tasks = ["fish", "fish"] if "fish_twice" in extra else ["fish"]
    elif letter == "N":
        st.tasks = ["net", "fish"] if "net_and_fish" in extra else ["net"]
    elif letter == "C":
        st.tasks = ["trap"]
    elif letter == "T":
        _offer(st, seat, events)
        if "free_crustacean" in extra and _bag_size(st):
            token = _draw_crustacean(st)
            player.trap.append(token)
            events.append({"type": "crustaceans", "seat": seat, "tokens": [token]})
            _score(st, seat, 1, "crustaceans", events)
        if "two_offerings" in extra:
            st.tasks = ["offer"]
    elif letter == "R":
        if "rock_offering" in extra:
            _offer(st, seat, events)
        st.tasks = ["rock"]
    elif letter in comp.sections:
        if (
            "other_panorama" in extra
            and sum(player.panoramas[t] < comp.sections[t] for t in PANORAMA_TYPES) > 1
        ):
            st.tasks = ["panorama"]
        else:
            _panorama(st, seat, letter, "two_sections" in extra, events)


def _reveal_fish(st: State, events: list[Event]) -> None:
    if st.bank_down:
        fish = st.bank_down.pop()
        st.bank_up.append(fish)
        st.bank_up.sort()
        events.append({"type": "fish_revealed", "fish": fish})


def _offer(st: State, seat: int, events: list[Event]) -> None:
    player = st.players[seat]
    if player.offerings:
        player.offerings -= 1
        events.append({"type": "offering", "seat": seat, "left": player.offerings})


def _bag_size(st: State) -> int:
    return st.bag["SH"] + st.bag["CB"]


def _draw_crustacean(st: State) -> str:
    st.rng, n = rng.below(st.rng, _bag_size(st))
    token = "SH" if n < st.bag["SH"] else "CB"
    st.bag[token] -= 1
    return token


def _panorama(st: State, seat: int, kind: str, two: bool, events: list[Event]) -> None:
    comp = components(st.direction)
    player = st.players[seat]
    taken = [1, 2] if two and player.panoramas[kind] == 0 else [player.panoramas[kind] + 1]
    for section in taken:
        player.panoramas[kind] = section
        events.append({"type": "panorama", "seat": seat, "card": f"{kind}{section}"})
        _score(st, seat, section, "panoramas", events)
    bonus = f"B{kind}"
    if player.panoramas[kind] == comp.sections[kind] and bonus in st.bonuses:
        st.bonuses.remove(bonus)
        player.bonuses.append(bonus)
        events.append({"type": "panorama_bonus", "seat": seat, "card": bonus})
        _score(st, seat, comp.panorama_bonus, "panorama_bonus", events)


def _place(st: State, seat: int, kind: str, cells: list[int], events: list[Event]) -> None:
    player = st.players[seat]
    assert fits(player.crate, cells)
    for i in cells:
        player.crate[i] = kind
    for line in new_lines(player, cells):
        player.lines.append(line)
        events.append({"type": "crate_line", "seat": seat, "line": line})
        _score(st, seat, line_value(line), "crate", events)


def _resolve(st: State, action: Action, events: list[Event]) -> None:
    """A decision at a station."""
    comp = components(st.direction)
    seat, player = _stopper(st)
    kind, args = action.kind, action.args
    if kind == "fish":
        if args[0] == "hidden":
            st.catch = st.bank_down.pop()
        else:
            st.bank_up.remove(args[0])
            st.catch = args[0]
        events.append({"type": "fished", "seat": seat, "fish": st.catch})
        _reveal_fish(st, events)
        st.tasks[0] = "catch"
    elif kind == "keep":
        events.append({"type": "kept", "seat": seat, "fish": st.catch, "cell": args[0]})
        _place(st, seat, st.catch, [cell_index(args[0])], events)
        st.catch = ""
        st.tasks.pop(0)
    elif kind == "release":
        st.bank_up.append(st.catch)
        st.bank_up.sort()
        events.append({"type": "released", "seat": seat, "fish": st.catch})
        st.catch = ""
        st.tasks.pop(0)
    elif kind == "net":
        net, cell, orientation = args
        cells = net_cells(cell, orientation)
        assert cells is not None
        st.nets_shown.remove(net)
        player.nets.append(f"{net} {cell} {orientation}")
        events.append(
            {
                "type": "net_placed",
                "seat": seat,
                "net": net,
                "cell": cell,
                "orientation": orientation,
            }
        )
        _place(st, seat, net, cells, events)
        _nets_under(st)
        st.tasks.pop(0)
    elif kind == "refuse":
        events.append({"type": "net_refused", "seat": seat})
        _nets_under(st)
        st.tasks.pop(0)
    elif kind == "draw":
        token = _draw_crustacean(st)
        st.drawn.append(token)
        events.append({"type": "drawn", "seat": seat, "token": token})
        limit = 3 if "third_crab" in upgrades(player, "C") else comp.bust_on_crab
        most = 7 if "seven_draws" in upgrades(player, "C") else comp.max_draws
        if st.drawn.count("CB") >= limit:
            for t in st.drawn:
                st.bag[t] += 1
            events.append({"type": "trap_lost", "seat": seat, "tokens": st.drawn[:]})
            st.drawn.clear()
            st.tasks.pop(0)
        elif len(st.drawn) >= most or not _bag_size(st):
            _keep_trap(st, seat, events)
    elif kind == "stop":
        _keep_trap(st, seat, events)
    elif kind == "rock":
        st.rocks_shown.remove(args[0])
        player.rocks.append(args[0])
        st.rock_deck[:0] = st.rocks_shown
        events.append({"type": "rock_kept", "seat": seat, "under": len(st.rocks_shown)})
        st.rocks_shown.clear()
        st.tasks.pop(0)
    elif kind == "offer":
        _offer(st, seat, events)
        st.tasks.pop(0)
    elif kind == "panorama":
        st.tasks.pop(0)
        displayed = comp.route[st.boats[st.boat].pos]
        two = args[0] == displayed and "two_sections" in upgrades(player, displayed)
        _panorama(st, seat, args[0], two, events)


def _nets_under(st: State) -> None:
    st.net_pile[:0] = st.nets_shown
    st.nets_shown.clear()


def _keep_trap(st: State, seat: int, events: list[Event]) -> None:
    st.players[seat].trap += st.drawn
    events.append({"type": "crustaceans", "seat": seat, "tokens": st.drawn[:]})
    _score(st, seat, len(st.drawn), "crustaceans", events)
    st.drawn.clear()
    st.tasks.pop(0)


def _settle(st: State, events: list[Event]) -> None:
    """Start the next task: reveal what it shows, or drop it when it can do nothing."""
    seat = st.boats[st.boat].seat
    while st.tasks and seat is not None:
        player = st.players[seat]
        task = st.tasks[0]
        if task == "fish" and not st.bank_up and not st.bank_down:
            st.tasks.pop(0)
        elif task == "net" and not st.nets_shown:
            count = 2 if "two_nets" in upgrades(player, "N") else 1
            for _ in range(min(count, len(st.net_pile))):
                st.nets_shown.append(st.net_pile.pop())
            if not st.nets_shown:
                st.tasks.pop(0)
                continue
            events.append({"type": "nets_revealed", "seat": seat, "nets": st.nets_shown[:]})
            break
        elif task == "trap" and not st.drawn and not _bag_size(st):
            st.tasks.pop(0)
        elif task == "rock" and not st.rocks_shown:
            count = 3 if "three_rocks" in upgrades(player, "R") else 2
            for _ in range(min(count, len(st.rock_deck))):
                st.rocks_shown.append(st.rock_deck.pop())
            if not st.rocks_shown:
                st.tasks.pop(0)
                continue
            events.append({"type": "rocks_drawn", "seat": seat, "count": len(st.rocks_shown)})
            break
        elif task == "offer" and not player.offerings:
            st.tasks.pop(0)
        else:
            break


def _next(st: State, events: list[Event]) -> None:
    """After a turn: the next boat to move, a pontoon draft, or the end of the game."""
    comp = components(st.direction)
    st.moved = False
    st.tasks.clear()
    b = boat_to_move(st)
    if b is None:
        _finish(st, events)
        return
    pos = st.boats[b].pos
    waiting = all(boat.pos == pos for boat in st.boats)
    if comp.route[pos].startswith("P") and pos not in st.drafted and waiting:
        count = min(len(st.boats) + 1, len(st.pontoon_deck))
        st.hand = [st.pontoon_deck.pop() for _ in range(count)]
        st.phase, st.draft_slot = DRAFT, 1
        events.append({"type": "draft", "pontoon": comp.route[pos], "cards": count})
        _settle_draft(st, events)
        return
    st.phase, st.boat = MOVE, b


def _pick(st: State, seat: int | None, card: str, events: list[Event]) -> None:
    assert seat is not None
    st.hand.remove(card)
    st.players[seat].pontoon.append(card)
    events.append({"type": "pontoon_card", "seat": seat, "card": card})
    meal = components(st.direction).meals.get(card)
    if meal is not None:
        _score(st, seat, meal, "meals", events)
    st.draft_slot += 1


def _settle_draft(st: State, events: list[Event]) -> None:
    """Pass the hand on: the neutral boat discards one at random, an empty hand gives nothing."""
    while st.draft_slot <= len(st.boats):
        boat = st.boats[slot_boat(st, st.draft_slot)]
        if boat.seat is not None and st.hand:
            return
        if st.hand:
            st.rng, n = rng.below(st.rng, len(st.hand))
            st.pontoon_deck.insert(0, st.hand.pop(n))
            events.append({"type": "neutral_pick"})
        st.draft_slot += 1
    st.pontoon_deck[:0] = st.hand
    st.hand.clear()
    st.drafted.append(st.boats[0].pos)
    st.phase = MOVE
    _next(st, events)


def _finish(st: State, events: list[Event]) -> None:
    """Every boat has arrived: reveal and score the sacred rocks, take off the offerings."""
    comp = components(st.direction)
    for seat, player in enumerate(st.players):
        met = [c for c in player.rocks if rock_met(player, c)]
        events.append(
            {"type": "rocks_revealed", "seat": seat, "cards": player.rocks[:], "met": met}
        )
        _score(st, seat, sum(comp.rocks[c].points for c in met), "sacred_rocks", events)
        _score(st, seat, -penalty(player.offerings), "offerings", events)
    st.phase = OVER
    events.append({"type": "game_end"})
