"""Reading games: the board, the history, a player's games, what a thread holds."""

from __future__ import annotations

import asyncio
import logging
import statistics
from collections.abc import Sequence

from bot.games import presentation
from bot.store import (
    ActiveGame,
    Game,
    GameNotFound,
    GameStatus,
    PlayerGame,
    ReadingStore,
    Shards,
)

from .deadlines import DeadlineService
from .errors import ServiceError
from .history import replay_turns
from .pace import pace, seat_times
from .pictures import Pictures, stored_ranks
from .records import ended_word
from .results import (
    COMPUTER_USER_ID,
    BoardResult,
    GameListing,
    HistoryResult,
    Profile,
)
from .tables import (
    GameDesk,
    current_turn,
    end_reason,
    mark_computer_played,
    match_of,
    players_of,
    step_of,
)

log = logging.getLogger(__name__)
#: How many of a server's games ``/games`` lists at most (the most recently active).
SERVER_GAMES = 200
#: How many of a player's newest games ``/profile`` counts.
PROFILE_GAMES = 200


class ReadingService:
    """Everything that only reads a game (also an ended one)."""

    def __init__(
        self, desk: GameDesk, store: ReadingStore, pictures: Pictures, deadlines: DeadlineService
    ) -> None:
        self.desk = desk
        self.store = store
        self.pictures = pictures
        self.deadlines = deadlines

    async def board(
        self, user_id: int | None, *, thread_id: int, public: bool = False
    ) -> BoardResult:
        """The current picture (also of an ended game): own view when private, else spectators'."""
        game, match = await self.desk.load(thread_id=thread_id, ended=True)
        seats = [] if user_id is None else game.seats_of(user_id)
        viewer = None if public or not seats or user_id == COMPUTER_USER_ID else seats[0]
        if viewer is not None and match.current_seat in seats:
            viewer = match.current_seat
        stand_ins = await self.desk.stand_ins(game)
        players = players_of(game, match, stand_ins)
        over = game.status != GameStatus.ACTIVE or match.current_seat is None
        current = None if over or match.current_seat is None else players[match.current_seat]
        turns = await asyncio.to_thread(replay_turns, match)
        events = [e for t in turns[-1:] for e in t.events]
        played = bool(turns) and len(match.log) in await self.store.computer_played(game.id)
        # a game the bot ended (a resignation, an abandon) is drawn as the thread's final
        # board draws it: ended, nobody to play, no computer playing on for anyone
        stopped = over and bool(game.end_reason) and match.outcome is None
        picture = await self.pictures.render(
            match.view(viewer),
            events,
            game,
            stand_ins={} if stopped else stand_ins,
            computer_played=played and not stopped,
            banks=await self.deadlines.shown_banks(game),
            ended=ended_word(game) if stopped else None,
            ranks=stored_ranks(game),  # the result as stored names the winner (D286)
        )
        return BoardResult(
            game_id=game.id,
            version=game.version,
            picture=picture,
            round=presentation(game.game_key).number(match.turn_info),
            current=current,
            step=step_of(match),
            over=over,
            counts=presentation(game.game_key).counts,
            ended=end_reason(game, match) if stopped else None,
        )

    async def announced_version(self, game_id: int) -> int:
        """The newest version of a game whose thread message was posted (the outbox's mark),
        read without the game."""
        return (await self.store.game_versions(game_id)).announced

    async def game_language(
        self, *, game_id: int | None = None, thread_id: int | None = None
    ) -> str | None:
        """The language chosen for a game (by id, else the thread's latest game); None if it
        has none (made before the choice) or there is no such game."""
        try:
            if game_id is not None:
                return (await self.store.load_game(game_id)).language
            if thread_id is not None:
                return (await self.store.load_latest_game_by_thread(thread_id)).language
        except GameNotFound:
            pass
        return None

    async def game_in_thread(self, thread_id: int) -> str | None:
        """The game key of the thread's latest game, or None if the thread has none."""
        try:
            game = await self.store.load_latest_game_by_thread(thread_id)
        except GameNotFound:
            return None
        return game.game_key

    async def history(
        self, *, thread_id: int, turns: int = 5, reader: int | None = None
    ) -> HistoryResult:
        """The last ``turns`` turns of the thread's latest game (also ended), with their events;
        the ``reader``'s own actions (a user seated in it) in full."""
        game, match = await self.desk.load(thread_id=thread_id, ended=True)
        seat = next(iter(game.seats_of(reader)), None) if reader is not None else None
        records = await asyncio.to_thread(replay_turns, match, seat)
        records = mark_computer_played(records, await self.store.computer_played(game.id))
        times = [a.created_at for a in await self.store.load_actions(game.id)]
        figures = pace(records, times, game.created_at, len(game.seats))
        players = players_of(game, match, await self.desk.stand_ins(game))
        banks = await self.deadlines.banks(game)
        seat_banks = None if banks is None else tuple(banks.get(s.seat) for s in game.seats)
        return HistoryResult(
            game_id=game.id,
            game=game.game_key,
            players=players,
            turns=tuple(records[-turns:]),
            pace=figures,
            banks=seat_banks,
        )

    async def my_games(self, user_id: int, *, guild_id: int | None) -> list[GameListing]:
        """The user's active games (in one server if given), those awaiting them first."""
        found = await self.store.list_active_games(user_id)
        return await self._listings(
            user_id, [g for g in found if guild_id is None or g.guild_id == guild_id]
        )

    async def profile(self, user_id: int, *, guild_id: int | None) -> Profile:
        """A player's record on a server (None: on every server) over their ``PROFILE_GAMES``
        newest games: finished,
        abandoned, resigned (a resignation counts once, whatever the game's end), playing now,
        and their median time to move."""
        seats = await self.store.player_games(guild_id, user_id, PROFILE_GAMES)
        by_game: dict[int, list[PlayerGame]] = {}
        for seat in seats:
            by_game.setdefault(seat.game_id, []).append(seat)
        counts = {"finished": 0, "abandoned": 0, "resigned": 0, "active": 0}
        times: list[float] = []
        for game_id, mine in by_game.items():
            resigned = any(s.stand_in == "resigned" for s in mine)
            counts["resigned" if resigned else mine[0].status] += 1
            actions = await self.store.load_actions(game_id)
            by_computer = await self.store.computer_played(game_id)
            started = mine[0].created_at
            times += seat_times(actions, {s.seat for s in mine}, started, by_computer)
        return Profile(
            finished=counts["finished"],
            abandoned=counts["abandoned"],
            resigned=counts["resigned"],
            playing=counts["active"],
            median_move=statistics.median(times) if times else None,
            counted=len(by_game),
        )

    async def server_games(self, user_id: int, *, guild_id: int) -> list[GameListing]:
        """A server's active games (the most recently active ``SERVER_GAMES``), listed as
        ``my_games`` lists the user's: those awaiting the user first."""
        return await self._listings(
            user_id, await self.store.list_guild_games(guild_id, SERVER_GAMES)
        )

    async def _listings(self, user_id: int, found: Sequence[ActiveGame]) -> list[GameListing]:
        """Each game as the user sees it in a list: whose turn, the deadline, their seat."""
        listings = []
        for g in found:
            game = await self.store.load_game(g.game_id)
            stand_ins = await self.desk.stand_ins(game)
            absent = g.current_seat in stand_ins  # the computer plays it: nobody waits on them
            human = g.current_user_id not in (None, COMPUTER_USER_ID) and not absent
            deadline = await self._standing_deadline(game) if human else None
            whose = g.current_user_id if human else None
            seats = game.seats_of(user_id) if user_id != COMPUTER_USER_ID else []
            mine = g.current_seat in seats and not absent
            stand_in = next((stand_ins[s] for s in seats if s in stand_ins), None)
            banks = await self.deadlines.banks(game) or {}
            bank = next((banks[s] for s in seats if s in banks), None)
            listings.append(
                GameListing(
                    game_id=g.game_id,
                    thread_id=g.thread_id,
                    game_key=g.game_key,
                    my_turn=mine,
                    current_user_id=whose,
                    deadline=deadline,
                    stand_in=stand_in,
                    bank=bank,
                )
            )
        far = 1 << 62  # games without a deadline after those with one
        return sorted(
            listings,
            key=lambda g: (not g.my_turn, far if g.deadline is None else g.deadline),
        )

    async def _standing_deadline(self, game: Game) -> int | None:
        """The deadline of the turn a game is playing now, unless it has none (or no longer);
        None for a game whose snapshot is damaged (logged), so the others are still listed."""
        try:
            turn = await current_turn(match_of(game))
        except ServiceError:
            return None
        if turn is None:
            return None
        return await self.store.standing_deadline(
            game.id, await self.deadlines.stored_turn(game.id, turn)
        )

    async def seated(self, user_id: int, *, thread_id: int) -> tuple[int, int]:
        """(game id, version) of the thread's game if the user plays in it (else not_seated)."""
        game, _ = await self.desk.load(thread_id=thread_id)
        if not game.seats_of(user_id) or user_id == COMPUTER_USER_ID:
            raise ServiceError("error.not_seated")
        if all(game.stand_in_of(s) == "resigned" for s in game.seats_of(user_id)):
            raise ServiceError("resign.already")
        return game.id, game.version

    async def game_id(self, thread_id: int) -> int:
        """The id of the thread's latest game, any status (no_game if it never had one)."""
        try:
            return (await self.store.load_latest_game_by_thread(thread_id)).id
        except GameNotFound:
            raise ServiceError("error.no_game") from None

    async def active_game_id(self, thread_id: int) -> int | None:
        """The id of the thread's active game, if it has one."""
        try:
            return (await self.store.load_game_by_thread(thread_id)).id
        except GameNotFound:
            return None

    async def owing_games(self, shards: Shards | None = None) -> list[int]:
        """Games that still owe their thread a message (turns, openings and endings), in the
        guilds of ``shards`` if given."""
        owed = await self.store.unannounced_games(shards)
        return sorted({*owed, *await self.store.unannounced_abandoned_games(shards)})
