"""The report of a game's last turn, and the thread message a game still owes."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from functools import partial
from itertools import accumulate

from bot.store import (
    Game,
    GameNotFound,
    GameStatus,
    OwedPicture,
    ReportStore,
    Shards,
)
from engine.games import Match, replay

from .history import replay_turns
from .pictures import PictureOrder, Pictures
from .results import (
    COMPUTER_USER_ID,
    Created,
    Ended,
    TurnRecord,
    TurnReport,
)
from .tables import (
    BATCH_TURNS,
    RESIGNED,
    GameDesk,
    current_turn,
    ended_of,
    final_result,
    mark_computer_played,
    match_of,
    players_of,
    shown_banks,
    turn_of,
)

log = logging.getLogger(__name__)


class TurnReports:
    """What a game's thread is told: its last completed turn, or what it still owes."""

    def __init__(self, desk: GameDesk, store: ReportStore, pictures: Pictures) -> None:
        self.desk = desk
        self.store = store
        self.pictures = pictures

    async def turn_report(
        self, game: Game, match: Match, version: int, *, since: int | None = None
    ) -> TurnReport | None:
        """The report of the last completed turn, as of ``version`` (None before the first).

        A computer's turn comes with the computer turns just before it, saved with it and posted
        as one message: those that start at action ``since`` or later (the batch just saved),
        or, when that is not known (a restart), those back to the last turn a human played
        (at most ``BATCH_TURNS``).
        """
        played_for = await self.store.computer_played(game.id)
        turns = mark_computer_played(await asyncio.to_thread(replay_turns, match), played_for)
        starts = list(accumulate((len(t.actions) for t in turns), initial=0))
        done = [(start, t) for start, t in zip(starts, turns, strict=False) if t.complete]
        if not done:
            return None
        stand_ins = await self.desk.stand_ins(game)
        players = players_of(game, match, stand_ins)
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
        final = None if match.outcome is None else final_result(players, match.outcome)
        skipped = len(match.log) in played_for
        # the picture follows the message (drawn by the outbox once the message is out)
        order = partial(
            self.pictures.order,
            match.view(None),
            turn.events,
            game,
            stand_ins=stand_ins,
            computer_played=skipped,
            banks=await self.banks(game, now=self.desk.now()),  # the mover's turn ends now
            # the final board ranks and names the winner as the result does (D286)
            ranks=None if final is None else {s.seat: s.rank for s in final.scores},
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
            picture=None,
            next_player=None if nxt is None else players[nxt],
            final=final,
            next_turn=turn_of(match, started),
            skipped=skipped,
            earlier=tuple(earlier),
            channel_id=game.channel_id,
            language=game.language,
            picture_order=order(),
            card_order=order(legal=()),  # the card's phone picture: the turn's places, no choice
        )

    async def banks(self, game: Game, *, now: int | None = None) -> dict[int, int] | None:
        """Each human seat's time bank as the pictures show it (``shown_banks``: the turn
        still open charged until ``now`` if given; None: the game has no time bank)."""
        if game.time_bank is None:
            return None
        return shown_banks(game, await self.store.bank_turns(game.id), now)

    async def pending_post(self, game_id: int) -> TurnReport | Created | Ended | None:
        """The thread message a game still owes (its end, latest turn or opening), if any."""
        owed = await self.owed_with_game(game_id)
        return None if owed is None else owed[0]

    async def owed_with_game(
        self, game_id: int
    ) -> tuple[TurnReport | Created | Ended, Game, Match] | None:
        """``pending_post``, with the game and match it was made from (one read of the game)."""
        try:
            game = await self.store.load_game(game_id)
        except GameNotFound:
            return None
        if game.announced_version >= game.version:
            return None
        match = match_of(game)
        return await self._owed(game, match), game, match

    async def _owed(self, game: Game, match: Match) -> TurnReport | Created | Ended:
        """The message a game owes for its latest version: its end, latest turn or opening."""
        resigned = (game.end_reason or "").startswith(RESIGNED)
        if game.status == GameStatus.ABANDONED or resigned:
            ended = ended_of(game, match)
            if ended.reason == "abandoned_by" and await self.desk.league_of(game.id) is not None:
                ended = replace(ended, reason="abandoned_by_league")  # ranked as it stood
            return ended
        report = await self.turn_report(game, match, game.version)
        if report is not None:
            return report
        infos = players_of(game, match)
        first = infos[match.current_seat or 0]
        picture = await self.pictures.render(
            match.view(None), None, game, banks=await self.banks(game)
        )
        return Created(
            game_id=game.id,
            game=game.game_key,
            thread_id=game.thread_id,
            version=game.version,
            players=infos,
            picture=picture,
            first=first,
            computers_next=first.computer,
            turn=await current_turn(match),
            language=game.language,
        )

    async def draw_picture(self, order: PictureOrder) -> bytes:
        """The picture a posted turn message still owes (from the cache, or drawn)."""
        return await self.pictures.draw(order)

    async def owed_pictures(self, shards: Shards | None = None) -> list[OwedPicture]:
        """Turn messages posted without their picture (a restart: drawn now, once), in the
        guilds of ``shards`` if given."""
        return await self.store.owed_pictures(shards)

    async def owed_report(self, owed: OwedPicture) -> TurnReport | None:
        """What an owed picture is drawn from after a restart: the game's last completed turn
        as it stands now (the owed message is its latest turn message: a newer one replaces
        it); None if the game has no turn to show any more (abandoned, or gone)."""
        try:
            game = await self.store.load_game(owed.game_id)
        except GameNotFound:
            return None
        if game.status == GameStatus.ABANDONED or game.announced_version < owed.version:
            return None
        match = match_of(game)
        turns = await asyncio.to_thread(replay_turns, match)
        if not turns or not any(t.complete for t in turns):
            return None
        if not turns[-1].complete:  # moves of the next turn since: the board as the turn ended
            started = sum(len(t.actions) for t in turns if t.complete)
            match = replay(
                game.game_key, match.players, match.seed, match.options, match.log[:started]
            )
        return await self.turn_report(game, match, owed.version)

    async def picture_attached(self, game_id: int, version: int) -> None:
        """Record that the turn message of ``version`` has its picture (or never will)."""
        await self.store.clear_owed_picture(game_id, version)
