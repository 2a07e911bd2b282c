"""The game service: load a game, check the seat, apply through the engine, save, render.

No discord types here: ids are ints, results are plain dataclasses (see ``results``).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import AsyncGenerator, Callable, Mapping, Sequence
from dataclasses import asdict, replace
from typing import Any

from bot.games import presentation
from bot.names import display_name
from bot.store import (
    Game,
    GameNotActive,
    GameNotFound,
    GameStatus,
    GameStore,
    NewSeat,
    Reminder,
    StaleVersion,
    UserSettings,
)
from engine import games
from engine.contract import Outcome
from engine.errors import CorruptGame, EngineError
from engine.games import Match, computer_player

from . import panel as panels
from .errors import EngineRejected, ServiceError, rejected, store_refusals
from .history import replay_turns
from .notify import NOTIFY_MODES, Delivery, check_zone, delivery
from .pace import pace
from .results import (
    COMPUTER_USER_ID,
    BoardResult,
    Created,
    Ended,
    Event,
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
    TurnKey,
    TurnRecord,
    TurnReport,
    UndoResult,
)
from .suggest import Suggestions, suggestions

log = logging.getLogger(__name__)

RESIGNED = "resigned:"  # end reason prefix, followed by the seat
CANCELLED = "cancelled"  # end reason of a game whose lobby was cancelled before any move
BATCH_TURNS = 12  # computer turns saved and posted together at most (one message, one picture)
Renderer = Callable[[dict[str, Any], Sequence[Event] | None], bytes]
SeedSource = Callable[[], int]
Clock = Callable[[], float]  # UTC unix seconds (``time.time``); tests inject their own


def turn_text(turn: TurnKey) -> str:
    """A turn key as stored with its reminders: ``round.seat``."""
    return f"{turn[0]}.{turn[1]}"


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


def render_picture(view: dict[str, Any], events: Sequence[Event] | None) -> bytes:
    """The board PNG of a view, marking the changes in ``events`` (None: from the view)."""
    from render import render_board

    return render_board(view, events=events)


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


def _players(game: Game, match: Match) -> tuple[PlayerInfo, ...]:
    colours = match.colours
    result = []
    for seat in game.seats:
        user = None if seat.user_id == COMPUTER_USER_ID else seat.user_id
        result.append(PlayerInfo(seat.seat, seat.player, user, colours[seat.seat]))
    return tuple(result)


def _turn_key(match: Match) -> TurnKey | None:
    """The turn being played: (round, seat to act); None once the game is over."""
    info = match.turn_info
    return None if info.seat is None else (info.round, info.seat)


def _step(match: Match) -> str | None:
    """The catalog key of the step to play (``<game>.step.<step>``), None once over."""
    step = match.turn_info.step
    return f"{match.game_key}.step.{step}" if step else None


def _final(players: Sequence[PlayerInfo], outcome: Outcome) -> FinalResult:
    by_seat = {p.seat: p for p in players}
    lines = []
    for result in outcome.results:
        player = by_seat[result.seat]
        lines.append(
            ScoreLine(
                seat=player.seat,
                name=player.name,
                user_id=player.user_id,
                total=result.score,
                rank=result.rank,
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
    ) -> None:
        self.repo = repo
        self._renderer = renderer
        self._seed_source = seed_source or (lambda: secrets.randbits(62))
        self.clock = clock

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
        return current

    async def _render(self, view: dict[str, Any], events: Sequence[Event] | None) -> bytes:
        return await asyncio.to_thread(self._renderer, view, events)

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
    ) -> Created:
        """Start a game with (user id or None for a computer, name) per seat, in seat order.

        ``turn_deadline``: the seconds each player has for a turn (None: no deadline).
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
        )
        infos = _players(game, match)
        first = infos[match.current_seat or 0]
        picture = await self._render(match.view(None), None)
        return Created(
            game.id,
            game.game_key,
            thread_id,
            game.version,
            infos,
            picture,
            first,
            first.computer,
            _turn_key(match),
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
        actions = tuple(t for _, t in match.log[before:])
        turn = await self._turn_report(game, match, saved) if ends_turn else None
        own = match.view(seat)
        picture = turn.picture if turn is not None else await self._render(own, events)
        nxt = match.current_seat
        computers = nxt is not None and game.user_of(nxt) == COMPUTER_USER_ID
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
        picture = await self._render(result.view, result.events)
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

    async def _turn_report(self, game: Game, match: Match, version: int) -> TurnReport | None:
        """The report of the last completed turn, as of ``version`` (None before the first).

        A computer's turn comes with the computer turns just before it (back to the last human
        turn, at most ``BATCH_TURNS``): they are saved together and posted as one message.
        """
        turns = await asyncio.to_thread(replay_turns, match)
        done = [t for t in turns if t.complete]
        if not done:
            return None
        turn = done[-1]
        earlier: list[TurnRecord] = []
        if game.user_of(turn.seat) == COMPUTER_USER_ID:
            for record in reversed(done[-BATCH_TURNS:-1]):
                if game.user_of(record.seat) != COMPUTER_USER_ID:
                    break
                earlier.insert(0, record)
        players = _players(game, match)
        nxt = match.current_seat
        final = None if match.outcome is None else _final(players, match.outcome)
        skipped = len(match.log) in await self.repo.computer_played(game.id)
        picture = await self._render(match.view(None), turn.events)
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
            next_turn=_turn_key(match),
            skipped=skipped,
            earlier=tuple(earlier),
            channel_id=game.channel_id,
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
        picture = await self._render(match.view(seat), None)
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
            if seat is None or game.user_of(seat) != COMPUTER_USER_ID:
                return
            computers = {s.seat for s in game.seats if s.user_id == COMPUTER_USER_ID}
            await asyncio.to_thread(
                _play_computer_turns, match, computers, game.seed if seed is None else seed
            )
            try:
                saved = await self.repo.append_match(game, match)
            except (StaleVersion, GameNotActive):
                return  # somebody else moved this game on; they continue from there
            report = await self._turn_report(game, match, saved)
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
        if game.status == GameStatus.ABANDONED:
            return _ended(game, match)
        report = await self._turn_report(game, match, game.version)
        if report is not None:
            return report
        infos = _players(game, match)
        first = infos[match.current_seat or 0]
        picture = await self._render(match.view(None), None)
        return Created(
            game.id,
            game.game_key,
            game.thread_id,
            game.version,
            infos,
            picture,
            first,
            first.computer,
            _turn_key(match),
        )

    # -- deadlines and reminders ------------------------------------------------------------------

    async def deadline_for(self, game_id: int, turn: TurnKey | None) -> int | None:
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
        current = _turn_key(match) if game.status == GameStatus.ACTIVE else None
        if turn is None or current != turn:
            if current is None:
                await self.repo.cancel_reminders(game.id, now=now)
            return None if turn is None else await self.repo.turn_deadline(game.id, turn_text(turn))
        user = game.user_of(turn[1])
        if game.turn_deadline is None or user is None or user == COMPUTER_USER_ID:
            await self.repo.cancel_reminders(game.id, now=now)
            return None
        return await self.repo.schedule_turn(
            game.id,
            turn=turn_text(turn),
            seat=turn[1],
            user_id=user,
            deadline_at=now + game.turn_deadline,
            reminders=reminder_plan(now, game.turn_deadline),
            now=now,
        )

    async def claim_due_reminders(self, *, lease: int) -> list[Reminder]:
        """Claim the reminders due now for ``lease`` seconds (see ``GameStore``)."""
        return await self.repo.claim_due_reminders(now=self.now(), lease=lease)

    async def reminder_thread(self, reminder: Reminder) -> int | None:
        """The thread to remind in, or None if the reminder's turn is no longer being played."""
        try:
            game, match = await self._load(game_id=reminder.game_id)
        except ServiceError:
            return None
        turn = _turn_key(match)
        if turn is None or turn_text(turn) != reminder.turn:
            return None
        if game.user_of(turn[1]) != reminder.user_id:
            return None
        return game.thread_id

    async def mark_reminders_sent(self, reminder_ids: Sequence[int]) -> None:
        """Record that reminders were sent (one transaction)."""
        await self.repo.mark_reminders_sent(reminder_ids, now=self.now())

    async def cancel_reminder(self, reminder_id: int) -> None:
        """Drop a reminder whose turn is over."""
        await self.repo.cancel_reminder(reminder_id, now=self.now())

    async def vote_skip(self, user_id: int, *, game_id: int, turn: str) -> SkipVote:
        """A vote by one of the other players to skip a turn whose deadline passed.

        Once a majority of the other human players voted, the game's strongest computer player
        plays the turn for the absent player (marked as such) and the turn's report is returned.
        """
        game, match = await self._load(game_id=game_id)
        current = _turn_key(match)
        if current is None or turn_text(current) != turn:
            raise ServiceError("deadline.turn_over")
        absent = game.user_of(current[1])
        voters = {s.user_id for s in game.seats if s.user_id not in (COMPUTER_USER_ID, absent)}
        if user_id not in voters:
            raise ServiceError("deadline.not_voter")
        deadline = await self.repo.turn_deadline(game.id, turn)
        if deadline is None or self.now() < deadline:
            raise ServiceError("deadline.not_yet")
        votes = await self.repo.add_deadline_vote(game.id, turn, user_id, "skip", now=self.now())
        needed = len(voters) // 2 + 1
        counted = len(set(votes) & voters)
        if counted < needed:
            return SkipVote(game.id, counted, needed)
        await asyncio.to_thread(_play_computer_turn, match, current[1], game.seed)
        with store_refusals(stale="deadline.turn_over"):
            saved = await self.repo.append_match(game, match, by_computer=True)
        report = await self._turn_report(game, match, saved)
        nxt = match.current_seat
        computers = nxt is not None and game.user_of(nxt) == COMPUTER_USER_ID
        return SkipVote(game.id, counted, needed, report, computers)

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

    async def export_settings(self, user_id: int) -> dict[str, Any]:
        """Everything stored about the user's settings (empty if nothing is)."""
        stored = await self.repo.load_user_settings(user_id)
        return {} if stored is None else asdict(stored)

    async def delete_settings(self, user_id: int) -> bool:
        """Delete the user's stored settings; False if there were none."""
        return await self.repo.delete_user_settings(user_id)

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
        view = match.view(viewer)
        players = _players(game, match)
        over = game.status != GameStatus.ACTIVE or match.current_seat is None
        current = None if over or match.current_seat is None else players[match.current_seat]
        turns = await asyncio.to_thread(replay_turns, match)
        events = [e for t in turns[-1:] for e in t.events]
        picture = await self._render(view, events)
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
        return HistoryResult(
            game.id, game.game_key, _players(game, match), tuple(records[-turns:]), figures
        )

    async def my_games(self, user_id: int, *, guild_id: int | None) -> list[GameListing]:
        """The user's active games (in one server if given), those awaiting them first."""
        found = await self.repo.list_active_games(user_id)
        listings = []
        for g in found:
            if guild_id is not None and g.guild_id != guild_id:
                continue
            deadline = None
            human = g.current_user_id not in (None, COMPUTER_USER_ID)
            latest = await self.repo.latest_deadline(g.game_id) if human else None
            if latest is not None and latest[0] == g.current_seat:
                deadline = latest[1]
            listings.append(
                GameListing(
                    g.game_id, g.thread_id, g.game_key, g.my_turn, g.current_user_id, deadline
                )
            )
        far = 1 << 62  # games without a deadline after those with one
        return sorted(
            listings,
            key=lambda g: (not g.my_turn, far if g.deadline is None else g.deadline),
        )

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
            order = getattr(shown, "panel_next", ())
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
        png = await self._render(view, None) if picture else None
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

    async def panel_action(self, user_id: int, *, game_id: int, version: int, crc: str) -> str:
        """The action a panel button plays, found by its checksum among the current choices."""
        game, match = await self._load_checked(None, game_id, version)
        self._acting_seat(game, match, user_id)
        action = panels.by_checksum(panel_choices(match), crc)
        if action is None:
            raise ServiceError("error.stale_board")
        return action

    async def resign(self, user_id: int, *, game_id: int, version: int | None = None) -> Resigned:
        """End the game because a seated player resigns (the game is abandoned)."""
        game, match = await self._load(game_id=game_id)
        seats = game.seats_of(user_id)
        if not seats or user_id == COMPUTER_USER_ID:
            raise ServiceError("error.not_seated")
        with store_refusals(stale="error.stale_board"):
            await self.repo.abandon_game(
                game.id, expected_version=version, reason=f"{RESIGNED}{seats[0]}"
            )
        players = _players(game, match)
        return Resigned(game.id, game.thread_id, players[seats[0]])

    async def cancel_unplayed(self, thread_id: int) -> int | None:
        """Abandon the thread's game if nobody has played yet; its id (None: no active game).

        Refused (``lobby.game_under_way``) once a move was saved: then players resign instead.
        """
        try:
            game = await self.repo.load_game_by_thread(thread_id)
        except GameNotFound:
            return None
        if game.action_count:
            raise ServiceError("lobby.game_under_way", thread=f"<#{thread_id}>")
        with store_refusals(stale="lobby.game_under_way"):
            await self.repo.abandon_game(game.id, expected_version=game.version, reason=CANCELLED)
        return game.id

    async def seated(self, user_id: int, *, thread_id: int) -> tuple[int, int]:
        """(game id, version) of the thread's game if the user plays in it (else not_seated)."""
        game, _ = await self._load(thread_id=thread_id)
        if not game.seats_of(user_id) or user_id == COMPUTER_USER_ID:
            raise ServiceError("error.not_seated")
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

    async def pending_computer_games(self) -> list[int]:
        """Active games waiting for a computer seat (e.g. after a restart)."""
        found = await self.repo.list_active_games(COMPUTER_USER_ID)
        return [g.game_id for g in found if g.my_turn]

    async def owing_games(self) -> list[int]:
        """Games that still owe their thread a message (turns, openings and endings)."""
        owed = await self.repo.unannounced_games()
        return sorted({*owed, *await self.repo.unannounced_abandoned_games()})


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
    """The end message of an abandoned game, from its stored reason."""
    reason = game.end_reason or ""
    if reason.startswith(RESIGNED):
        player = _players(game, match)[int(reason.removeprefix(RESIGNED))]
        return Ended(game.id, game.thread_id, game.version, "resigned", player)
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


def _play_computer_turn(match: Match, seat: int, seed: int) -> None:
    """Let the game's strongest computer player act for ``seat`` until its turn ends."""
    player = computer_player(match.game_key)
    for _ in range(200):
        action = player(match.view(seat), seed + seat)
        events = match.play(action, seat=seat)
        if match.current_seat != seat or match.milestones(events).turn_ended:
            return
    raise RuntimeError(f"the computer player did not finish its turn: {match.log[-5:]}")
