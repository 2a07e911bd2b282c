"""The game service: load a game, check the seat, apply through the engine, save, render.

No discord types here: ids are ints, results are plain dataclasses (see ``results``).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import AsyncGenerator, Awaitable, Callable, Mapping, Sequence
from dataclasses import asdict, replace
from itertools import accumulate
from typing import Any, Protocol

from bot.games import presentation
from bot.names import display_name
from bot.render_pool import RenderPool
from bot.store import (
    LANGUAGES,
    AwaySeat,
    Game,
    GameNotActive,
    GameNotFound,
    GameStatus,
    GameStore,
    NewSeat,
    Reminder,
    Shards,
    StaleVersion,
    UserSettings,
    resigned_last,
)
from bot.store import Outcome as StoredOutcome
from bot.store import SeatResult as StoredResult
from engine import games
from engine.contract import Event, Outcome
from engine.errors import CorruptGame, EngineError
from engine.games import Match, computer_player

from . import panel as panels
from .errors import EngineRejected, ServiceError, rejected, store_refusals
from .history import replay_turns, turn_start
from .notify import NOTIFY_MODES, Delivery, check_zone, delivery, vacation_end
from .pace import pace
from .results import (
    COMPUTER_USER_ID,
    Back,
    BoardResult,
    Created,
    Ended,
    FinalResult,
    GameListing,
    HistoryResult,
    PanelState,
    PlayerInfo,
    PlayResult,
    Preview,
    Resigned,
    ScoreLine,
    SkipVote,
    Turn,
    TurnKey,
    TurnRecord,
    TurnReport,
    UndoResult,
)
from .rights import LeagueRights, Member, abandon_refusal
from .suggest import Suggestions, suggestions

log = logging.getLogger(__name__)

RESIGNED = "resigned:"  # end reason prefix, followed by the seat
ABANDONED_BY = "abandoned_by:"  # end reason prefix, followed by the user who abandoned the game
CANCELLED = "cancelled"  # end reason of a game whose lobby was cancelled before any move
BATCH_TURNS = 12  # computer turns saved and posted together at most (one message, one picture)
PICTURES_KEPT = 64  # recent pictures kept by the service (about 200 KB each)


class Renderer(Protocol):
    """Draws a game's picture: (view, events marked or None, language[, legal actions marked,
    stand-ins, computer played]) -> PNG bytes (see ``render_picture``)."""

    def __call__(
        self, view: dict[str, Any], events: Sequence[Event] | None, /, *more: Any
    ) -> bytes: ...


SeedSource = Callable[[], int]
Clock = Callable[[], float]  # UTC unix seconds (``time.time``); tests inject their own
GameOverListener = Callable[[int], Awaitable[None]]  # told a game's id once it finished or ended


def reminder_plan(start: int, deadline: int) -> list[tuple[str, int]]:
    """The (kind, due_at) reminders of a turn begun at ``start`` with ``deadline`` seconds.

    At most two reminders per turn: at half the time, and near the end (a twelfth of it before);
    then the deadline itself, when the other players may vote to skip the turn.
    """
    return [
        ("half", start + deadline // 2),
        ("near", start + deadline - deadline // 12),
        ("deadline", start + deadline),
    ]


def render_picture(
    view: dict[str, Any],
    events: Sequence[Event] | None,
    language: str = "en",
    legal: Sequence[str] | None = None,
    stand_ins: Sequence[tuple[int, str]] = (),
    computer_played: bool = False,
) -> bytes:
    """The board PNG of a view, marking the changes in ``events`` (None: from the view), with
    its texts in ``language``; with ``legal`` (the actions of the step to choose), the game's
    phone-sized turn picture marking them, when the game has one (docs/render.md). The bot's
    extras: (seat, why) the computer plays for a human, and the last turn played so."""
    from render import FOCUS_RENDERERS, render_board, render_focus

    seats = dict(stand_ins)
    if legal is not None and view.get("game") in FOCUS_RENDERERS:
        return render_focus(
            view,
            legal=legal,
            events=events,
            language=language,
            stand_ins=seats,
            computer_played=computer_played,
        )
    return render_board(
        view, events=events, language=language, stand_ins=seats, computer_played=computer_played
    )


def picture_language(game: Game) -> str:
    """The language of a game's pictures: the game's; English for games made before the choice
    (as they were drawn then)."""
    return game.language or "en"


def picture_key(view: Mapping[str, Any], events: Sequence[Event] | None, *more: object) -> str:
    """What a picture is a pure function of: the view (game state, viewer), the events marked,
    and ``more``, the drawer's further arguments (language, legal actions marked, the bot's
    stand-ins and computer turn); as a digest."""
    text = json.dumps([view, events, more], sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


class PictureCache:
    """The last pictures drawn, by ``picture_key``: asked again (the board after a play, a
    second viewer with the same view), a picture is not drawn twice."""

    def __init__(self, size: int = PICTURES_KEPT) -> None:
        self.size = size
        self._pictures: OrderedDict[str, bytes] = OrderedDict()

    def get(self, key: str) -> bytes | None:
        """The picture under ``key`` (now the most recent), or None."""
        png = self._pictures.get(key)
        if png is not None:
            self._pictures.move_to_end(key)
        return png

    def put(self, key: str, png: bytes) -> None:
        """Keep a picture, forgetting the least recently used beyond ``size``."""
        self._pictures[key] = png
        self._pictures.move_to_end(key)
        while len(self._pictures) > self.size:
            self._pictures.popitem(last=False)


def split_actions(text: str) -> list[str]:
    """The non-empty ``;``-separated parts of an action text."""
    return [p.strip() for p in text.split(";") if p.strip()]


def normalize_actions(text: str) -> str:
    """An action text without empty parts: ``"; fleet 4 ;;"`` -> ``"fleet 4"``."""
    return "; ".join(split_actions(text))


def _match_of(game: Game) -> Match:
    """The stored game's match; a snapshot the engine cannot read is reported as damaged."""
    try:
        return games.from_json(game.snapshot)
    except CorruptGame as error:
        log.error("game %d: stored snapshot is damaged: %s", game.id, error)
        raise ServiceError("error.damaged_game", game_id=game.id) from None


def _players(
    game: Game, match: Match, stand_ins: Mapping[int, str] | None = None
) -> tuple[PlayerInfo, ...]:
    """Every seat's player; ``stand_ins``: seat -> why the computer plays for its player."""
    colours = match.colours
    found = stand_ins or {}
    result = []
    for seat in game.seats:
        user = None if seat.user_id == COMPUTER_USER_ID else seat.user_id
        stand_in = found.get(seat.seat, seat.stand_in) if user is not None else None
        result.append(PlayerInfo(seat.seat, seat.player, user, colours[seat.seat], stand_in))
    return tuple(result)


def _turn_key(match: Match) -> TurnKey | None:
    """Where the game stands: (round, seat to act); None once the game is over."""
    info = match.turn_info
    return None if info.seat is None else (info.round, info.seat)


def _turn(match: Match, start: int | None = None) -> Turn | None:
    """The turn being played, None once the game is over; ``start`` if known, else by replay
    (a few milliseconds: call it off the event loop, see ``_current_turn``)."""
    info = match.turn_info
    if info.seat is None:
        return None
    return Turn(info.round, info.seat, turn_start(match) if start is None else start)


async def _current_turn(match: Match) -> Turn | None:
    """The turn being played (``_turn``), replayed in a thread."""
    return await asyncio.to_thread(_turn, match)


def _step(match: Match) -> str | None:
    """The catalog key of the step to play (``<game>.step.<step>``), None once over."""
    step = match.turn_info.step
    return presentation(match.game_key).step_key(match.view(None), step) if step else None


def _final(players: Sequence[PlayerInfo], outcome: Outcome) -> FinalResult:
    by_seat = {p.seat: p for p in players}
    resigned = {p.seat for p in players if p.stand_in == "resigned"}
    ranks = resigned_last({r.seat: r.rank for r in outcome.results}, resigned)
    lines = []
    for result in outcome.results:
        player = by_seat[result.seat]
        lines.append(
            ScoreLine(
                seat=player.seat,
                name=player.name,
                user_id=player.user_id,
                total=result.score,
                rank=ranks[result.seat],
                lines={line.label: line.points for line in result.lines},
            )
        )
    lines.sort(key=lambda s: s.rank)
    return FinalResult(tuple(lines), outcome.tie_broken)


class GameService:
    """Everything a command or button does to a game, without Discord."""

    def __init__(
        self,
        repo: GameStore,
        *,
        renderer: Renderer = render_picture,
        seed_source: SeedSource | None = None,
        clock: Clock = time.time,
        pool: RenderPool | None = None,
    ) -> None:
        """``pool``: where pictures are drawn (default: ``renderer`` in a thread)."""
        self.repo = repo
        self.pool = pool if pool is not None else RenderPool(0, renderer)
        self.pictures = PictureCache()
        self._seed_source = seed_source or (lambda: secrets.randbits(62))
        self.clock = clock
        self.game_over_listeners: list[GameOverListener] = []
        self.league_rights: LeagueRights | None = None  # set by the league service

    async def _game_over(self, game_id: int) -> None:
        """Tell the listeners (ratings, leagues) a game ended; their failures are only logged.

        Each listener also catches up on its own (the bot's sweep), so nothing is lost if the
        process dies before or during this call.
        """
        for listener in self.game_over_listeners:
            try:
                await listener(game_id)
            except Exception:
                log.warning("game %d: a game-over listener failed", game_id, exc_info=True)

    def now(self) -> int:
        """The current time in UTC unix seconds, from the injected clock."""
        return int(self.clock())

    async def warm_up(self) -> None:
        """Render one board per game so the caches exist before the first player waits on it."""
        for key, rules in games.GAMES.items():
            match = games.new(key, [f"P{i}" for i in range(rules.min_players)], 0)
            await self._render(match.view(None), None)

    # -- loading and checks ---------------------------------------------------------------------

    async def _load(
        self, *, thread_id: int | None = None, game_id: int | None = None, ended: bool = False
    ) -> tuple[Game, Match]:
        """The game and its match; only an active one unless ``ended`` (reading, not changing)."""
        try:
            if game_id is not None:
                game = await self.repo.load_game(game_id)
            elif thread_id is not None:
                # the latest game, active or not: a finished game's thread says it is over
                game = await self.repo.load_latest_game_by_thread(thread_id)
            else:
                raise ServiceError("error.no_game")
        except GameNotFound:
            raise ServiceError("error.no_game") from None
        match = _match_of(game)
        if game.status != GameStatus.ACTIVE and not ended:
            raise game_over(game, match)
        return game, match

    async def _load_checked(
        self, thread_id: int | None, game_id: int | None, version: int | None
    ) -> tuple[Game, Match]:
        game, match = await self._load(thread_id=thread_id, game_id=game_id)
        if version is not None and game.version != version:
            raise ServiceError("error.stale_board")
        return game, match

    @staticmethod
    def _acting_seat(game: Game, match: Match, user_id: int) -> int:
        """The seat the user acts for now; refuses spectators and players out of turn."""
        seats = game.seats_of(user_id)
        if not seats or user_id == COMPUTER_USER_ID:
            raise ServiceError("error.not_seated")
        current = match.current_seat
        if current is None:
            raise ServiceError("error.game_over")
        if current not in seats:
            raise ServiceError("error.not_your_turn", player=match.players[current])
        stand_in = game.stand_in_of(current)
        if stand_in is not None:  # the computer plays this seat: /back first (or resigned)
            raise ServiceError(f"stand_in.refused.{stand_in}")
        return current

    async def _render(
        self,
        view: dict[str, Any],
        events: Sequence[Event] | None,
        game: Game | None = None,
        legal: Sequence[str] | None = None,
        *,
        stand_ins: Mapping[int, str] | None = None,
        computer_played: bool = False,
    ) -> bytes:
        """The picture in the game's language (None: a warm-up), from the cache or drawn off
        the event loop (see ``bot.render_pool``); ``legal``: the turn picture marking them;
        ``stand_ins`` (seat -> why the computer plays its human) and ``computer_played`` (the
        last turn so) are told on the picture."""
        language = "en" if game is None else picture_language(game)
        marked = None if legal is None else tuple(legal)
        seats = tuple(sorted((stand_ins or {}).items()))
        more: tuple[object, ...] = (language, marked, seats, computer_played)
        key = picture_key(view, events, *more)
        png = self.pictures.get(key)
        if png is None:
            png = await self.pool.draw(view, events, *more)
            self.pictures.put(key, png)
        return png

    async def _stand_ins(self, game: Game) -> dict[int, str]:
        """Human seats the computer plays now: seat -> "away", "resigned" or "vacation"."""
        found = {
            s.seat: s.stand_in
            for s in game.seats
            if s.stand_in is not None and s.user_id != COMPUTER_USER_ID
        }
        if game.status != GameStatus.ACTIVE:
            return found
        resting = await self.repo.vacationers(game.id, now=self.now())
        for seat in game.seats:
            if seat.user_id in resting and seat.seat not in found:
                found[seat.seat] = "vacation"
        return found

    @staticmethod
    def _computer_acts(game: Game, seat: int | None, stand_ins: Mapping[int, str]) -> bool:
        """Whether the computer plays ``seat`` now (a computer seat or an absent player's)."""
        return seat is not None and (game.user_of(seat) == COMPUTER_USER_ID or seat in stand_ins)

    async def _save(self, game: Game, match: Match, *, silent: bool) -> int:
        with store_refusals():
            return await self.repo.append_match(game, match, silent=silent)

    # -- creating -------------------------------------------------------------------------------

    async def create_game(
        self,
        *,
        guild_id: int,
        channel_id: int,
        thread_id: int,
        players: Sequence[tuple[int | None, str]],
        game_key: str,
        options: Mapping[str, Any] | None = None,
        seed: int | None = None,
        turn_deadline: int | None = None,
        computer_takeover: bool = False,
        language: str | None = None,
    ) -> Created:
        """Start a game with (user id or None for a computer, name) per seat, in seat order.

        ``turn_deadline``: the seconds each player has for a turn (None: no deadline);
        ``computer_takeover``: at the deadline the computer takes the seat over (no vote);
        ``language``: of its public messages and pictures (en, fr, it, pl).
        """
        seed = self._seed_source() if seed is None else seed
        names = [name for _, name in players]
        try:
            match = games.new(game_key, names, seed, options)
        except EngineError as error:
            raise EngineRejected(error) from None
        colours = match.colours
        seats = [
            NewSeat(
                seat=i,
                user_id=COMPUTER_USER_ID if user is None else user,
                player=name,
                colour=colours[i],
            )
            for i, (user, name) in enumerate(players)
        ]
        game = await self.repo.create_game(
            guild_id=guild_id,
            channel_id=channel_id,
            thread_id=thread_id,
            game_key=game_key,
            seed=seed,
            options=match.options,
            seats=seats,
            snapshot=match.to_json(),
            current_seat=match.current_seat,
            turn_deadline=turn_deadline,
            computer_takeover=computer_takeover,
            language=language,
        )
        infos = _players(game, match)
        first = infos[match.current_seat or 0]
        picture = await self._render(match.view(None), None, game)
        return Created(
            game.id,
            game.game_key,
            thread_id,
            game.version,
            infos,
            picture,
            first,
            first.computer,
            await _current_turn(match),
            game.language,
        )

    # -- playing --------------------------------------------------------------------------------

    async def play(
        self,
        user_id: int,
        text: str,
        *,
        thread_id: int | None = None,
        game_id: int | None = None,
        version: int | None = None,
    ) -> PlayResult:
        """Apply one action or a whole sequence (all or nothing) for the user, and save it."""
        game, match = await self._load_checked(thread_id, game_id, version)
        seat = self._acting_seat(game, match, user_id)
        before = len(match.log)
        try:
            events = match.play(text, seat=seat)
        except EngineError as error:
            raise rejected(error, match, seat, split_actions(text)) from None
        ends_turn = match.milestones(events).turn_ended
        saved = await self._save(game, match, silent=not ends_turn)
        if match.outcome is not None:
            await self._game_over(game.id)
        actions = tuple(t for _, t in match.log[before:])
        turn = await self._turn_report(game, match, saved) if ends_turn else None
        own = match.view(seat)
        picture = turn.picture if turn is not None else await self._render(own, events, game)
        computers = self._computer_acts(game, match.current_seat, await self._stand_ins(game))
        return PlayResult(
            game.id,
            game.thread_id,
            saved,
            actions,
            tuple(events),
            picture,
            _step(match),
            turn,
            computers,
        )

    async def preview(self, user_id: int, text: str, *, thread_id: int) -> Preview:
        """Apply a sequence to a copy and show what it would do; nothing is saved."""
        game, match = await self._load(thread_id=thread_id)
        seat = self._acting_seat(game, match, user_id)
        try:
            result = match.preview(text, seat=seat)
        except EngineError as error:
            raise rejected(error, match, seat, split_actions(text)) from None
        actions = tuple(result.actions)
        picture = await self._render(result.view, result.events, game)
        return Preview(
            game.id,
            game.game_key,
            game.thread_id,
            game.version,
            "; ".join(actions),
            actions,
            tuple(result.events),
            picture,
            _players(game, match),
            result.ends_turn,
        )

    async def _turn_report(
        self, game: Game, match: Match, version: int, *, since: int | None = None
    ) -> TurnReport | None:
        """The report of the last completed turn, as of ``version`` (None before the first).

        A computer's turn comes with the computer turns just before it, saved with it and posted
        as one message: those that start at action ``since`` or later (the batch just saved),
        or, when that is not known (a restart), those back to the last turn a human played
        (at most ``BATCH_TURNS``).
        """
        played_for = await self.repo.computer_played(game.id)
        turns = _mark_computer_played(await asyncio.to_thread(replay_turns, match), played_for)
        starts = list(accumulate((len(t.actions) for t in turns), initial=0))
        done = [(start, t) for start, t in zip(starts, turns, strict=False) if t.complete]
        if not done:
            return None
        stand_ins = await self._stand_ins(game)
        players = _players(game, match, stand_ins)
        turn = done[-1][1]

        def by_computer(record: TurnRecord) -> bool:
            return record.by_computer or game.user_of(record.seat) == COMPUTER_USER_ID

        earlier: list[TurnRecord] = []
        if by_computer(turn):
            for start, record in reversed(done[-BATCH_TURNS:-1]):
                if not by_computer(record) or (since is not None and start < since):
                    break
                earlier.insert(0, record)
        nxt = match.current_seat
        started = sum(len(t.actions) for t in turns if t.complete)  # the next turn begins here
        final = None if match.outcome is None else _final(players, match.outcome)
        skipped = len(match.log) in played_for
        picture = await self._render(
            match.view(None), turn.events, game, stand_ins=stand_ins, computer_played=skipped
        )
        return TurnReport(
            game_id=game.id,
            game=game.game_key,
            thread_id=game.thread_id,
            version=version,
            player=players[turn.seat],
            round=turn.round,
            actions=turn.actions,
            events=turn.events,
            players=players,
            picture=picture,
            next_player=None if nxt is None else players[nxt],
            final=final,
            next_turn=_turn(match, started),
            skipped=skipped,
            earlier=tuple(earlier),
            channel_id=game.channel_id,
            language=game.language,
        )

    async def undo(
        self,
        user_id: int,
        *,
        thread_id: int | None = None,
        game_id: int | None = None,
        version: int | None = None,
    ) -> UndoResult:
        """Take back the user's last action of the current turn (per the engine's policy)."""
        game, match = await self._load_checked(thread_id, game_id, version)
        seat = self._acting_seat(game, match, user_id)
        try:
            undone = match.undo(seat)
        except EngineError as error:
            raise EngineRejected(error) from None
        with store_refusals():
            saved = await self.repo.undo_last(
                game.id, game.version, match.to_json(), current_seat=match.current_seat
            )
        picture = await self._render(match.view(seat), None, game)
        return UndoResult(game.id, saved, undone, picture, _step(match))

    async def computer_turns(
        self, game_id: int, seed: int | None = None
    ) -> AsyncGenerator[TurnReport, None]:
        """Play the computer seats' turns until a human is due; one save and report per batch.

        The computer turns between two human turns are saved together (at most ``BATCH_TURNS``
        at once), so a process killed between two of them plays them again and they are posted
        as one message, exactly once.
        """
        while True:
            try:
                game, match = await self._load(game_id=game_id)
            except ServiceError:
                return
            seat = match.current_seat
            stand_ins = await self._stand_ins(game)
            if seat is None or not self._computer_acts(game, seat, stand_ins):
                return
            # One batch is all computer seats or all absent humans' seats, so by_computer (a
            # computer played for a human) holds for every action saved with it.
            for_human = game.user_of(seat) != COMPUTER_USER_ID  # away, vacation or resigned
            computers = (
                set(stand_ins)
                if for_human
                else {s.seat for s in game.seats if s.user_id == COMPUTER_USER_ID}
            )
            since = len(match.log)
            await asyncio.to_thread(
                _play_computer_turns, match, computers, game.seed if seed is None else seed
            )
            try:
                saved = await self.repo.append_match(game, match, by_computer=for_human)
            except (StaleVersion, GameNotActive):
                return  # somebody else moved this game on; they continue from there
            if match.outcome is not None:
                await self._game_over(game.id)
            report = await self._turn_report(game, match, saved, since=since)
            if report is not None:
                yield report

    async def pending_post(self, game_id: int) -> TurnReport | Created | Ended | None:
        """The thread message a game still owes (its end, latest turn or opening), if any."""
        try:
            game = await self.repo.load_game(game_id)
        except GameNotFound:
            return None
        if game.announced_version >= game.version:
            return None
        match = _match_of(game)
        resigned = (game.end_reason or "").startswith(RESIGNED)
        if game.status == GameStatus.ABANDONED or resigned:
            ended = _ended(game, match)
            if ended.reason == "abandoned_by" and await self._league_of(game.id) is not None:
                ended = replace(ended, reason="abandoned_by_league")  # ranked as it stood
            return ended
        report = await self._turn_report(game, match, game.version)
        if report is not None:
            return report
        infos = _players(game, match)
        first = infos[match.current_seat or 0]
        picture = await self._render(match.view(None), None, game)
        return Created(
            game.id,
            game.game_key,
            game.thread_id,
            game.version,
            infos,
            picture,
            first,
            first.computer,
            await _current_turn(match),
            game.language,
        )

    # -- deadlines and reminders ------------------------------------------------------------------

    async def _stored_turn(self, game_id: int, turn: Turn) -> str:
        """The key a turn's reminders and votes are stored under: ``round.seat.start``; for the
        turn a game was playing at migration 0012 (or an older one) the old ``round.seat``."""
        before = await self.repo.old_turn_keys(game_id)
        return turn.old_text if before is not None and turn.start <= before else turn.text

    async def deadline_for(self, game_id: int, turn: Turn | None) -> int | None:
        """The deadline of a game's turn (unix seconds), scheduling its reminders the first time.

        Called when the turn's message is posted. Nothing is scheduled for a game without a
        deadline, a computer's turn, a finished game, or a turn that was already played (then the
        deadline stored for it, if any); other turns' unsent reminders are cancelled.
        """
        try:
            game, match = await self._load(game_id=game_id, ended=True)
        except ServiceError:
            return None
        now = self.now()
        current = await _current_turn(match) if game.status == GameStatus.ACTIVE else None
        if turn is None or current != turn:
            if current is None:
                await self.repo.cancel_reminders(game.id, now=now)
            if turn is None:
                return None
            return await self.repo.turn_deadline(game.id, await self._stored_turn(game.id, turn))
        user = game.user_of(turn.seat)
        absent = turn.seat in await self._stand_ins(game)  # the computer plays at once
        if game.turn_deadline is None or user is None or user == COMPUTER_USER_ID or absent:
            await self.repo.cancel_reminders(game.id, now=now)
            return None
        return await self.repo.schedule_turn(
            game.id,
            turn=await self._stored_turn(game.id, turn),
            seat=turn.seat,
            user_id=user,
            deadline_at=now + game.turn_deadline,
            reminders=reminder_plan(now, game.turn_deadline),
            now=now,
        )

    async def claim_due_reminders(
        self, *, lease: int, shards: Shards | None = None
    ) -> list[Reminder]:
        """Claim the reminders due now for ``lease`` seconds (see ``GameStore``)."""
        return await self.repo.claim_due_reminders(now=self.now(), lease=lease, shards=shards)

    async def reminder_thread(self, reminder: Reminder) -> int | None:
        """The thread to remind in, or None if the reminder's turn is no longer being played."""
        try:
            game, match = await self._load(game_id=reminder.game_id)
        except ServiceError:
            return None
        turn = await _current_turn(match)
        if turn is None or await self._stored_turn(game.id, turn) != reminder.turn:
            return None
        if game.user_of(turn.seat) != reminder.user_id:
            return None
        if turn.seat in await self._stand_ins(game):  # away or on vacation: none reaches them
            return None
        return game.thread_id

    async def deadline_takeover(self, reminder: Reminder) -> PlayerInfo | None:
        """At a deadline, in a game with the take-over option: the computer takes the seat.

        The seat is "away" until its player uses ``/back``; the player, or None if the game has
        no such option (or the reminder is not the deadline).
        """
        if reminder.kind != "deadline":
            return None
        try:
            game, match = await self._load(game_id=reminder.game_id)
        except ServiceError:
            return None
        if not game.computer_takeover:
            return None
        await self.repo.set_stand_in(game.id, reminder.seat, "away", now=self.now())
        return _players(game, match, {reminder.seat: "away"})[reminder.seat]

    async def mark_reminders_sent(self, reminder_ids: Sequence[int]) -> None:
        """Record that reminders were sent (one transaction)."""
        await self.repo.mark_reminders_sent(reminder_ids, now=self.now())

    async def cancel_reminder(self, reminder_id: int) -> None:
        """Drop a reminder whose turn is over."""
        await self.repo.cancel_reminder(reminder_id, now=self.now())

    async def vote_skip(
        self, user_id: int, *, game_id: int, turn: str, choice: str = "skip"
    ) -> SkipVote:
        """A vote by one of the other players on a turn whose deadline passed.

        ``turn``: the key on the deadline message's button (``round.seat.start``, or the old
        ``round.seat`` of buttons posted before migration 0012): a vote counts only for that very
        turn. ``choice``: "skip" (the computer plays this turn) or "away" (the computer plays
        the seat until its player uses ``/back``). The voters are the humans still playing (see
        ``_voters``); each has one vote per turn and may change it; the choice a majority of
        them (more than half) picks is applied at once. A skip: the game's strongest computer
        player plays the turn for the absent player (marked as such) and the turn's report is
        returned. A hand-over: the seat is stored as away (``announce`` only for the vote that
        did it) and the runner plays its turns.
        """
        if choice not in ("skip", "away"):
            raise ServiceError("deadline.turn_over")
        game, match = await self._load(game_id=game_id)
        current = await _current_turn(match)
        stored = None if current is None else await self._stored_turn(game.id, current)
        if current is None or stored != turn:
            raise ServiceError("deadline.turn_over")
        voters = await self._voters(game, current.seat)
        if user_id not in voters:
            raise ServiceError("deadline.not_voter")
        deadline = await self.repo.turn_deadline(game.id, turn)
        if deadline is None or self.now() < deadline:
            raise ServiceError("deadline.not_yet")
        votes = await self.repo.add_deadline_vote(game.id, turn, user_id, choice, now=self.now())
        needed = len(voters) // 2 + 1
        counted = len(set(votes) & voters)
        if counted < needed:
            return SkipVote(game.id, counted, needed, choice=choice, thread_id=game.thread_id)
        if choice == "away":
            seat = current.seat
            handed = await self.repo.hand_over(game.id, seat, now=self.now())
            player = _players(game, match, {seat: "away"})[seat]
            return SkipVote(
                game.id, counted, needed, None, True, choice, player, game.thread_id, handed
            )
        await asyncio.to_thread(_play_computer_turn, match, current.seat, game.seed)
        with store_refusals(stale="deadline.turn_over"):
            saved = await self.repo.append_match(game, match, by_computer=True)
        if match.outcome is not None:
            await self._game_over(game.id)
        report = await self._turn_report(game, match, saved)
        computers = self._computer_acts(game, match.current_seat, await self._stand_ins(game))
        return SkipVote(game.id, counted, needed, report, computers, thread_id=game.thread_id)

    async def _voters(self, game: Game, absent_seat: int) -> set[int]:
        """Who votes on a turn at its deadline: the humans still playing, other than the absent
        player; not a player who resigned, withdrew from the game's league, or whose seats the
        computer plays (away, on vacation)."""
        stand_ins = await self._stand_ins(game)
        humans = {s.user_id for s in game.seats if s.user_id != COMPUTER_USER_ID}
        sitting_out = {s.user_id for s in game.seats if s.seat in stand_ins}
        gone = await self.repo.forfeits_of_game(game.id)
        return humans - sitting_out - gone - {game.user_of(absent_seat)}

    async def back(self, user_id: int, *, thread_id: int | None = None) -> Back:
        """Give the user's away seats back to them: the thread's game's if they are away there,
        else every game's. ``back.none`` if the computer plays none of their seats."""
        seats = await self.repo.away_seats(user_id)
        here = [s for s in seats if s.thread_id == thread_id]
        returned = await self.repo.clear_away(here or seats, now=self.now())
        if not returned:
            settings = await self.user_settings(user_id)
            if (settings.vacation_until or 0) > self.now():
                raise ServiceError("back.on_vacation")
            if thread_id is not None and await self._resigned_here(user_id, thread_id):
                raise ServiceError("stand_in.refused.resigned")
            raise ServiceError("back.none")
        return Back(tuple(dict.fromkeys((s.game_id, s.thread_id) for s in returned)))

    async def _resigned_here(self, user_id: int, thread_id: int) -> bool:
        """Whether the user resigned from the active game of this thread."""
        try:
            game, _ = await self._load(thread_id=thread_id)
        except ServiceError:
            return False
        return any(game.stand_in_of(seat) == "resigned" for seat in game.seats_of(user_id))

    async def away_seats(self, user_id: int) -> list[AwaySeat]:
        """The user's seats the computer plays until they come back."""
        return await self.repo.away_seats(user_id)

    # -- per-user settings -------------------------------------------------------------------

    async def user_settings(self, user_id: int) -> UserSettings:
        """A user's settings (the defaults if they never set any)."""
        return await self.repo.load_user_settings(user_id) or UserSettings(user_id)

    async def set_notify(self, user_id: int, mode: str) -> UserSettings:
        """How the user is told it is their turn: ping, dm, both or none."""
        if mode not in NOTIFY_MODES:
            raise ServiceError("settings.bad_mode")
        settings = replace(await self.user_settings(user_id), notify=mode)
        await self.repo.save_user_settings(settings, now=self.now())
        return settings

    async def set_quiet(self, user_id: int, zone: str, start: int, end: int) -> UserSettings:
        """Quiet hours from ``start`` to ``end`` o'clock in an IANA zone (start = end: none)."""
        if not (0 <= start <= 23 and 0 <= end <= 23):
            raise ServiceError("settings.bad_hours")
        zone = check_zone(zone)
        quiet = (None, None) if start == end else (start, end)
        settings = replace(
            await self.user_settings(user_id),
            time_zone=zone,
            quiet_start=quiet[0],
            quiet_end=quiet[1],
        )
        await self.repo.save_user_settings(settings, now=self.now())
        return settings

    async def set_vacation(self, user_id: int, until: str) -> UserSettings:
        """On vacation to the end of ``until`` (YYYY-MM-DD, in the user's time zone, else UTC)."""
        settings = await self.user_settings(user_id)
        end = vacation_end(until, settings.time_zone, self.now())
        settings = replace(settings, vacation_until=end)
        await self.repo.save_user_settings(settings, now=self.now())
        return settings

    async def end_vacation(self, user_id: int) -> UserSettings:
        """Back from vacation now (``settings.no_vacation`` if there was none)."""
        settings = await self.user_settings(user_id)
        if (settings.vacation_until or 0) <= self.now():
            raise ServiceError("settings.no_vacation")
        settings = replace(settings, vacation_until=None)
        await self.repo.save_user_settings(settings, now=self.now())
        return settings

    async def export_settings(self, user_id: int) -> dict[str, Any]:
        """Everything stored about the user's settings (empty if nothing is)."""
        stored = await self.repo.load_user_settings(user_id)
        return {} if stored is None else asdict(stored)

    async def delete_settings(self, user_id: int) -> bool:
        """Delete the user's stored settings; False if there were none."""
        return await self.repo.delete_user_settings(user_id)

    # -- languages ------------------------------------------------------------------------------

    async def server_language(self, guild_id: int) -> str | None:
        """The server's default language for new games and league posts (None: none set)."""
        return await self.repo.guild_language(guild_id)

    async def set_server_language(self, guild_id: int, language: str | None, *, by: int) -> None:
        """Set (or with None clear) the server's default language; an unknown one is refused."""
        if language is not None and language not in LANGUAGES:
            raise ServiceError("server.language_unknown", allowed=", ".join(LANGUAGES))
        await self.repo.set_guild_language(guild_id, language, by=by, now=self.now())

    async def delivery(self, user_id: int) -> Delivery:
        """How to tell the user now (ping, direct message) per their settings and quiet hours."""
        return delivery(await self.user_settings(user_id), self.now())

    # -- reading --------------------------------------------------------------------------------

    async def board(
        self, user_id: int | None, *, thread_id: int, public: bool = False
    ) -> BoardResult:
        """The current picture (also of an ended game): own view when private, else spectators'."""
        game, match = await self._load(thread_id=thread_id, ended=True)
        seats = [] if user_id is None else game.seats_of(user_id)
        viewer = None if public or not seats or user_id == COMPUTER_USER_ID else seats[0]
        if viewer is not None and match.current_seat in seats:
            viewer = match.current_seat
        stand_ins = await self._stand_ins(game)
        players = _players(game, match, stand_ins)
        over = game.status != GameStatus.ACTIVE or match.current_seat is None
        current = None if over or match.current_seat is None else players[match.current_seat]
        turns = await asyncio.to_thread(replay_turns, match)
        events = [e for t in turns[-1:] for e in t.events]
        played = bool(turns) and len(match.log) in await self.repo.computer_played(game.id)
        picture = await self._render(
            match.view(viewer), events, game, stand_ins=stand_ins, computer_played=played
        )
        return BoardResult(
            game.id,
            game.version,
            picture,
            match.turn_info.round,
            current,
            _step(match),
            over,
        )

    async def announced_version(self, game_id: int) -> int:
        """The newest version of a game whose thread message was posted (the outbox's mark)."""
        return (await self.repo.load_game(game_id)).announced_version

    async def mark_announced(self, game_id: int, version: int) -> None:
        """Record that a game's thread message for ``version`` was posted."""
        await self.repo.mark_announced(game_id, version)

    async def game_language(
        self, *, game_id: int | None = None, thread_id: int | None = None
    ) -> str | None:
        """The language chosen for a game (by id, else the thread's latest game); None if it
        has none (made before the choice) or there is no such game."""
        try:
            if game_id is not None:
                return (await self.repo.load_game(game_id)).language
            if thread_id is not None:
                return (await self.repo.load_latest_game_by_thread(thread_id)).language
        except GameNotFound:
            pass
        return None

    async def game_in_thread(self, thread_id: int) -> str | None:
        """The game key of the thread's latest game, or None if the thread has none."""
        try:
            game = await self.repo.load_latest_game_by_thread(thread_id)
        except GameNotFound:
            return None
        return game.game_key

    async def history(self, *, thread_id: int, turns: int = 5) -> HistoryResult:
        """The last ``turns`` turns of the thread's latest game (also ended), with their events."""
        game, match = await self._load(thread_id=thread_id, ended=True)
        records = await asyncio.to_thread(replay_turns, match)
        records = _mark_computer_played(records, await self.repo.computer_played(game.id))
        times = [a.created_at for a in await self.repo.load_actions(game.id)]
        figures = pace(records, times, game.created_at, len(game.seats))
        players = _players(game, match, await self._stand_ins(game))
        return HistoryResult(game.id, game.game_key, players, tuple(records[-turns:]), figures)

    async def my_games(self, user_id: int, *, guild_id: int | None) -> list[GameListing]:
        """The user's active games (in one server if given), those awaiting them first."""
        found = await self.repo.list_active_games(user_id)
        listings = []
        for g in found:
            if guild_id is not None and g.guild_id != guild_id:
                continue
            game = await self.repo.load_game(g.game_id)
            stand_ins = await self._stand_ins(game)
            absent = g.current_seat in stand_ins  # the computer plays it: nobody waits on them
            human = g.current_user_id not in (None, COMPUTER_USER_ID) and not absent
            deadline = await self._standing_deadline(game) if human else None
            whose = g.current_user_id if human else None
            mine = g.my_turn and not absent
            listings.append(GameListing(g.game_id, g.thread_id, g.game_key, mine, whose, deadline))
        far = 1 << 62  # games without a deadline after those with one
        return sorted(
            listings,
            key=lambda g: (not g.my_turn, far if g.deadline is None else g.deadline),
        )

    async def _standing_deadline(self, game: Game) -> int | None:
        """The deadline of the turn a game is playing now, unless it has none (or no longer);
        None for a game whose snapshot is damaged (logged), so the others are still listed."""
        try:
            turn = await _current_turn(_match_of(game))
        except ServiceError:
            return None
        if turn is None:
            return None
        return await self.repo.standing_deadline(game.id, await self._stored_turn(game.id, turn))

    async def suggest(self, user_id: int, typed: str, *, thread_id: int) -> Suggestions:
        """Autocomplete choices for the action option (the refusal if the user may not act now)."""
        try:
            game, match = await self._load(thread_id=thread_id)
            seat = self._acting_seat(game, match, user_id)
        except ServiceError as error:
            refused = Suggestions()
            refused.refusal = error
            return refused
        return suggestions(match, seat, typed)

    async def panel(
        self,
        user_id: int,
        *,
        thread_id: int | None = None,
        game_id: int | None = None,
        version: int | None = None,
        category: str | None = None,
        page: int = 0,
        picture: bool = True,
        turn: TurnKey | None = None,
        after: str | None = None,
        prefix: str = "",
    ) -> PanelState:
        """The turn panel for the player to act: groups of legal choices and a preview.

        With ``turn`` an out-of-date ``version`` is fine while that turn is still being played;
        ``after`` (the action just played) keeps its group chosen while it lasts, else opens the
        likely next step; ``prefix`` (a stage of a large group) narrows the choices.
        """
        game, match = await self._load(thread_id=thread_id, game_id=game_id)
        if version is not None and game.version != version and _turn_key(match) != turn:
            raise ServiceError("error.stale_board")
        seat = self._acting_seat(game, match, user_id)
        shown = presentation(game.game_key)
        legal = panel_choices(match)
        groups = panels.categories(legal, shown.panel_group)
        keys = [c.key for c in groups]
        if after is not None:
            order = shown.panel_next
            chosen = panels.next_group(keys, shown.panel_group(after), order)
        else:
            if prefix and category is None:
                category = shown.panel_group(prefix)
            chosen = panels.next_group(keys, category, ())
        members = [a for a in legal if shown.panel_group(a) == chosen]
        values, prefix = panels.stage(members, prefix)
        actions, page, pages = panels.page_of(values, page)
        ending = [a for a in legal if shown.panel_group(a) == panels.END_GROUP]
        view = match.view(seat)
        marked = [a for a in members if a.startswith(prefix)]  # the step's choices left
        png = await self._panel_picture(view, game, marked) if picture else None
        players = _players(game, match)
        return PanelState(
            game_id=game.id,
            game=game.game_key,
            version=game.version,
            step=_step(match) or "",
            player=players[seat],
            categories=tuple(c for c in groups if c.key != panels.END_GROUP or len(ending) > 1),
            category=chosen,
            page=page,
            pages=pages,
            actions=tuple(actions),
            can_undo=match.can_undo(seat),
            picture=png,
            prefix=prefix,
            end=ending[0] if len(ending) == 1 else None,
            view=view,
            names=tuple(p.name for p in players),
        )

    async def _panel_picture(
        self, view: dict[str, Any], game: Game, marked: Sequence[str]
    ) -> bytes | None:
        """The panel's turn picture (the step's choices marked); None if drawing it failed:
        the panel is the way to play, so it is shown without its picture rather than lost."""
        try:
            return await self._render(view, None, game, marked)
        except Exception:
            log.warning("game %d: the turn picture could not be drawn", game.id, exc_info=True)
            return None

    async def panel_action(self, user_id: int, *, game_id: int, version: int, crc: str) -> str:
        """The action a panel button plays, found by its checksum among the current choices."""
        game, match = await self._load_checked(None, game_id, version)
        self._acting_seat(game, match, user_id)
        action = panels.by_checksum(panel_choices(match), crc)
        if action is None:
            raise ServiceError("error.stale_board")
        return action

    async def resign(self, user_id: int, *, game_id: int, version: int | None = None) -> Resigned:
        """A seated player resigns: the computer plays their seat to the end (they rank last).

        When one other human is left, that player wins at once (the game is finished); when
        none is (only computers would play on), the game ends without a winner (abandoned).
        ``version`` is not required to match: resigning stays valid while others play on.
        """
        game, match = await self._load(game_id=game_id)
        if not game.seats_of(user_id) or user_id == COMPUTER_USER_ID:
            raise ServiceError("error.not_seated")
        seats = [s for s in game.seats_of(user_id) if game.stand_in_of(s) != "resigned"]
        if not seats:
            raise ServiceError("resign.already")
        seat = seats[0]
        players = _players(game, match, {s: "resigned" for s in seats})
        others = [
            s.seat
            for s in game.seats
            if s.user_id not in (COMPUTER_USER_ID, user_id) and s.stand_in != "resigned"
        ]
        now, reason = self.now(), f"{RESIGNED}{seat}"
        with store_refusals(stale="error.stale_board"):
            if len(others) == 1:
                outcome = _resign_outcome(game, others[0], {*seats, *_resigned(game)}, reason)
                await self.repo.resign_and_finish(game.id, seat, game.version, outcome, now=now)
            elif not others:
                await self.repo.abandon_game(game.id, reason=reason)
            else:
                for mine in seats:
                    await self.repo.set_stand_in(game.id, mine, "resigned", now=now)
        if len(others) <= 1:
            await self._game_over(game.id)
            winner = players[others[0]] if others else None
            return Resigned(game.id, game.thread_id, players[seat], True, winner)
        return Resigned(
            game.id, game.thread_id, players[seat], computers_next=match.current_seat in seats
        )

    async def may_abandon(self, member: Member, *, thread_id: int) -> tuple[int, int, str | None]:
        """(game id, version, its league's name or None) of the thread's active game if the
        member may abandon it (``bot.service.rights``: the host of a casual game while not
        resigned, a league game's organisers, or a member who manages threads)."""
        game, _ = await self._load(thread_id=thread_id)
        return await self._may_abandon(game, member)

    async def _may_abandon(self, game: Game, member: Member) -> tuple[int, int, str | None]:
        role = None
        if self.league_rights is not None:
            role = await self.league_rights.league_role(game.id, member)
        refusal = abandon_refusal(game, member, role)
        if refusal is not None:
            raise refusal
        return game.id, game.version, None if role is None else role.league

    async def _league_of(self, game_id: int) -> str | None:
        """The name of the league the game was played for, if any."""
        if self.league_rights is None:
            return None
        return await self.league_rights.league_name(game_id)

    async def abandon(self, member: Member, *, game_id: int) -> int:
        """Abandon a stuck game: a casual one ends without a winner, a league one is ranked as it
        stood (the league's rule); the thread is told who did it. The new version."""
        game, _ = await self._load(game_id=game_id)
        await self._may_abandon(game, member)
        reason = f"{ABANDONED_BY}{member.user_id}"
        with store_refusals(stale="error.stale_board"):
            version = await self.repo.abandon_game(game.id, reason=reason)
        await self._game_over(game.id)
        return version

    async def cancel_unplayed(self, thread_id: int) -> int | None:
        """Abandon the thread's game if nobody has played yet; its id (None: no active game).

        Refused (``lobby.game_under_way``) once a move was saved: then players resign instead;
        and once the host (who alone may cancel) resigned from it: the others play on.
        """
        try:
            game = await self.repo.load_game_by_thread(thread_id)
        except GameNotFound:
            return None
        if game.action_count:
            raise ServiceError("lobby.game_under_way", thread=f"<#{thread_id}>")
        if game.stand_in_of(0) == "resigned":
            raise ServiceError("abandon.host_resigned")
        with store_refusals(stale="lobby.game_under_way"):
            await self.repo.abandon_game(game.id, expected_version=game.version, reason=CANCELLED)
        return game.id

    async def seated(self, user_id: int, *, thread_id: int) -> tuple[int, int]:
        """(game id, version) of the thread's game if the user plays in it (else not_seated)."""
        game, _ = await self._load(thread_id=thread_id)
        if not game.seats_of(user_id) or user_id == COMPUTER_USER_ID:
            raise ServiceError("error.not_seated")
        if all(game.stand_in_of(s) == "resigned" for s in game.seats_of(user_id)):
            raise ServiceError("resign.already")
        return game.id, game.version

    async def game_id(self, thread_id: int) -> int:
        """The id of the thread's latest game, any status (no_game if it never had one)."""
        try:
            return (await self.repo.load_latest_game_by_thread(thread_id)).id
        except GameNotFound:
            raise ServiceError("error.no_game") from None

    async def active_game_id(self, thread_id: int) -> int | None:
        """The id of the thread's active game, if it has one."""
        try:
            return (await self.repo.load_game_by_thread(thread_id)).id
        except GameNotFound:
            return None

    async def pending_computer_games(self, shards: Shards | None = None) -> list[int]:
        """Active games waiting for the computer (its seat, or an away, resigned or vacationing
        player's), e.g. after a restart or when a vacation began; only ``shards``' guilds."""
        return await self.repo.computer_due_games(now=self.now(), shards=shards)

    async def owing_games(self, shards: Shards | None = None) -> list[int]:
        """Games that still owe their thread a message (turns, openings and endings), in the
        guilds of ``shards`` if given."""
        owed = await self.repo.unannounced_games(shards)
        return sorted({*owed, *await self.repo.unannounced_abandoned_games(shards)})


def panel_choices(match: Match) -> list[str]:
    """The panel's choices: the legal actions with the game's shortcuts, each fitting an option."""
    shown = presentation(match.game_key)
    legal = shown.panel_actions(lambda text: match.preview(text).legal_next, match.legal_actions())
    return [a for a in legal if len(a) <= panels.MAX_VALUE]


def _mark_computer_played(records: list[TurnRecord], seqs: set[int]) -> list[TurnRecord]:
    """The turns with ``by_computer`` set where a computer played for the player (a skip)."""
    if not seqs:
        return records
    marked, last = [], 0
    for record in records:
        first, last = last + 1, last + len(record.actions)
        played = any(first <= seq <= last for seq in seqs)
        marked.append(replace(record, by_computer=True) if played else record)
    return marked


def _ended(game: Game, match: Match) -> Ended:
    """The end message of an abandoned game, from its stored reason, in the game's language."""
    return replace(_end_reason(game, match), language=game.language)


def _end_reason(game: Game, match: Match) -> Ended:
    """The end message of an abandoned game, from its stored reason."""
    reason = game.end_reason or ""
    players = _players(game, match)
    if reason.startswith(RESIGNED):
        player = players[int(reason.removeprefix(RESIGNED))]
        winner = next((players[s.seat] for s in game.seats if s.winner), None)
        if game.status == GameStatus.FINISHED and winner is not None:
            return Ended(game.id, game.thread_id, game.version, "resigned_won", player, winner)
        return Ended(game.id, game.thread_id, game.version, "resigned", player)
    if reason.startswith(ABANDONED_BY):
        by = int(reason.removeprefix(ABANDONED_BY))
        return Ended(game.id, game.thread_id, game.version, "abandoned_by", by=by)
    kind = "cancelled" if reason == CANCELLED else "abandoned"
    return Ended(game.id, game.thread_id, game.version, kind)


def game_over(game: Game, match: Match) -> ServiceError:
    """The refusal of a change to a game that is over, with its result (who won, or why not)."""
    if match.outcome is not None:
        final = _final(_players(game, match), match.outcome)
        best = final.winner.rank
        winners = [s.name for s in final.scores if s.rank == best]
        scores = ", ".join(f"{display_name(s.name)} {s.total}" for s in final.scores)
        return ServiceError("error.game_over_won", player=", ".join(winners), scores=scores)
    reason = game.end_reason or ""
    if reason.startswith(RESIGNED):
        player = _players(game, match)[int(reason.removeprefix(RESIGNED))].name
        return ServiceError("error.game_over_resigned", player=player)
    if reason == CANCELLED:
        return ServiceError("error.game_over_cancelled")
    return ServiceError("error.game_over")


def _play_computer_turns(match: Match, computers: set[int], seed: int) -> None:
    """Play computer seats' turns while one is due (at most ``BATCH_TURNS``)."""
    for _ in range(BATCH_TURNS):
        seat = match.current_seat
        if seat is None or seat not in computers:
            return
        _play_computer_turn(match, seat, seed)


def _resigned(game: Game) -> set[int]:
    """Seats whose players resigned."""
    return {s.seat for s in game.seats if s.stand_in == "resigned"}


def _resign_outcome(game: Game, winner: int, resigned: set[int], reason: str) -> StoredOutcome:
    """The result when the last other human resigned: ``winner`` first, the computers next, the
    resigned seats last. The game was not played out, so no seat has a score (0)."""
    ranks = resigned_last({s.seat: 1 if s.seat == winner else 2 for s in game.seats}, resigned)
    results = tuple(StoredResult(s.seat, 0, ranks[s.seat], s.seat == winner) for s in game.seats)
    return StoredOutcome(reason, results)


def _play_computer_turn(match: Match, seat: int, seed: int) -> None:
    """Let the game's strongest computer player act for ``seat`` until its turn ends."""
    player = computer_player(match.game_key)
    for _ in range(200):
        action = player(match.view(seat), seed + seat)
        events = match.play(action, seat=seat)
        if match.current_seat != seat or match.milestones(events).turn_ended:
            return
    raise RuntimeError(f"the computer player did not finish its turn: {match.log[-5:]}")
