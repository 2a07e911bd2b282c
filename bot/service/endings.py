"""The end of games by a player: resign, abandon, cancel before the first move."""

from __future__ import annotations

import logging

from bot.store import (
    EndingStore,
    Game,
    GameNotFound,
    GameStatus,
    StaleVersion,
)

from .errors import ServiceError, store_refusals
from .results import (
    COMPUTER_USER_ID,
    Resigned,
)
from .rights import Member, abandon_refusal
from .tables import (
    ABANDONED_BY,
    CANCELLED,
    RESIGNED,
    GameDesk,
    players_of,
    resign_outcome,
    resigned_seats,
)

log = logging.getLogger(__name__)

RESIGN_ATTEMPTS = 5  # a resignation read again when a move was saved meanwhile, at most


class EndingService:
    """Ends a game before its rules do: a resignation, an abandon, a cancelled lobby; and a
    finished game's rematch."""

    def __init__(self, desk: GameDesk, store: EndingStore) -> None:
        self.desk = desk
        self.store = store

    async def resign(self, user_id: int, *, game_id: int, version: int | None = None) -> Resigned:
        """A seated player resigns: the computer plays their seat to the end (they rank last).

        A computer seat is a player like any other (D207): when one other seat is left that has
        not resigned, human or computer, it wins at once (the game is finished); when several
        are, the game goes on with the computer in the resigner's seat; when none is (every
        other seat resigned before), the game ends without a winner (abandoned).
        ``version`` is not required to match: resigning stays valid while others play on, and
        a move saved between reading the game and finishing it (the computer plays on while
        the player confirms) only makes it read the game again.
        """
        for _ in range(RESIGN_ATTEMPTS):
            game, match = await self.desk.load(game_id=game_id)
            if not game.seats_of(user_id) or user_id == COMPUTER_USER_ID:
                raise ServiceError("error.not_seated")
            seats = [s for s in game.seats_of(user_id) if game.stand_in_of(s) != "resigned"]
            if not seats:
                raise ServiceError("resign.already")
            others = [
                s.seat for s in game.seats if s.user_id != user_id and s.stand_in != "resigned"
            ]
            with store_refusals(stale="error.stale_board"):
                try:
                    await self._save_resignation(game, seats, others)
                except StaleVersion:
                    continue  # a computer's move was saved since the game was read: again
            players = players_of(game, match, {s: "resigned" for s in seats})
            if len(others) <= 1:
                winner = players[others[0]] if others else None
                return Resigned(
                    game_id=game.id,
                    thread_id=game.thread_id,
                    player=players[seats[0]],
                    ended=True,
                    winner=winner,
                )
            return Resigned(
                game_id=game.id,
                thread_id=game.thread_id,
                player=players[seats[0]],
                computers_next=match.current_seat in seats,
            )
        raise ServiceError("error.stale_board")  # the game moved at every try: try again later

    async def _save_resignation(self, game: Game, seats: list[int], others: list[int]) -> None:
        """Store a resignation of ``seats``: the one seat of ``others`` wins at once (the game
        finished at the version read: StaleVersion if it moved since), none left abandons the
        game, several go on with the computer in the resigned seats."""
        now, reason = self.desk.now(), f"{RESIGNED}{seats[0]}"
        if len(others) == 1:
            outcome = resign_outcome(game, others[0], {*seats, *resigned_seats(game)}, reason)
            await self.store.resign_and_finish(game.id, seats[0], game.version, outcome, now=now)
        elif not others:
            await self.store.abandon_game(game.id, reason=reason)
        else:
            for mine in seats:
                await self.store.set_stand_in(game.id, mine, "resigned", now=now)

    async def may_abandon(self, member: Member, *, thread_id: int) -> tuple[int, int, str | None]:
        """(game id, version, its league's name or None) of the thread's active game if the
        member may abandon it (``bot.service.rights``: the host of a casual game while not
        resigned, a league game's organisers, or a member who manages threads)."""
        game, _ = await self.desk.load(thread_id=thread_id)
        return await self._may_abandon(game, member)

    async def _may_abandon(self, game: Game, member: Member) -> tuple[int, int, str | None]:
        rights = self.desk.rights
        role = None if rights is None else await rights.league_role(game.id, member)
        refusal = abandon_refusal(game, member, role)
        if refusal is not None:
            raise refusal
        return game.id, game.version, None if role is None else role.league

    async def abandon(self, member: Member, *, game_id: int) -> int:
        """Abandon a stuck game: a casual one ends without a winner, a league one is ranked as it
        stood (the league's rule); the thread is told who did it. The new version."""
        game, _ = await self.desk.load(game_id=game_id)
        await self._may_abandon(game, member)
        reason = f"{ABANDONED_BY}{member.user_id}"
        with store_refusals(stale="error.stale_board"):
            version = await self.store.abandon_game(game.id, reason=reason)
        return version

    async def cancel_unplayed(self, thread_id: int) -> int | None:
        """Abandon the thread's game if nobody has played yet; its id (None: no active game).

        Refused (``lobby.game_under_way``) once a move was saved: then players resign instead;
        and once the host (who alone may cancel) resigned from it: the others play on.
        """
        try:
            game = await self.store.load_game_by_thread(thread_id)
        except GameNotFound:
            return None
        if game.action_count:
            raise ServiceError("lobby.game_under_way", thread=f"<#{thread_id}>")
        if game.stand_in_of(0) == "resigned":
            raise ServiceError("abandon.host_resigned")
        with store_refusals(stale="lobby.game_under_way"):
            await self.store.abandon_game(game.id, expected_version=game.version, reason=CANCELLED)
        return game.id

    async def rematch_of(
        self, user_id: int, *, game_id: int
    ) -> tuple[Game, tuple[int, int] | None]:
        """A finished game for its player's Rematch click, with the rematch lobby it opened
        (channel, message) if any. Refused to anyone not seated in it (``rematch.not_player``)
        and while the game is still being played (``rematch.not_over``)."""
        try:
            game = await self.store.load_game(game_id)
        except GameNotFound:
            raise ServiceError("error.no_game") from None
        if user_id == COMPUTER_USER_ID or not game.seats_of(user_id):
            raise ServiceError("rematch.not_player")
        if game.status == GameStatus.ACTIVE:  # only a final message has the button: made up
            raise ServiceError("rematch.not_over")
        return game, await self.store.rematch_of(game.id)

    async def record_rematch(
        self, game_id: int, channel_id: int, message_id: int, *, replacing: int | None = None
    ) -> tuple[int, int]:
        """Record the rematch lobby of a game unless one is (or in place of the closed lobby
        ``replacing`` while it is the one recorded); the one recorded (the first)."""
        return await self.store.record_rematch(game_id, channel_id, message_id, replacing=replacing)
