"""A player's private notes on a game (issue 39 item 3): one text per game and player, up to
4,000 characters, read back only by its author, kept across restarts; never in a record, a web
page or a spectator's view (nothing but this room reads them)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from bot.store import Game, GameNotFound
from bot.store.notes import MAX_NOTE
from bot.store.player_interface import NotesStore

from .errors import ServiceError
from .tables import Clock

__all__ = ["MAX_NOTE", "Note", "NotesService"]


class NotesBook(NotesStore, Protocol):
    """The store calls notes make: the notes, and the games they are about."""

    async def load_game(self, game_id: int) -> Game:
        """A game by its id (GameNotFound)."""
        ...

    async def latest_game_head_by_thread(self, thread_id: int) -> Game:
        """The thread's latest game without its snapshot, any status (GameNotFound)."""
        ...


@dataclass(frozen=True, kw_only=True)
class Note:
    """A player's note on a game: the game and what they wrote ("" when nothing yet)."""

    game_id: int
    game_key: str
    body: str


class NotesService:
    """Reading and writing a player's own note on a game they sit in."""

    def __init__(self, store: NotesBook, clock: Clock) -> None:
        self.store = store
        self.clock = clock

    async def of_thread(self, user_id: int, thread_id: int) -> Note:
        """The player's note on the thread's latest game (``notes.no_game``: none there;
        ``notes.not_player``: the player does not sit in it)."""
        try:
            game = await self.store.latest_game_head_by_thread(thread_id)
        except GameNotFound:
            raise ServiceError("notes.no_game") from None
        return await self._note(game, user_id)

    async def of_game(self, user_id: int, game_id: int) -> Note:
        """The player's note on a game (``notes.no_game``, ``notes.not_player``)."""
        try:
            game = await self.store.load_game(game_id)
        except GameNotFound:
            raise ServiceError("notes.no_game") from None
        return await self._note(game, user_id)

    async def save(self, user_id: int, game_id: int, body: str) -> Note:
        """Replace the player's note on a game they sit in (empty: deleted); ``notes.too_long``
        past ``MAX_NOTE`` characters, nothing changed."""
        if len(body) > MAX_NOTE:
            raise ServiceError("notes.too_long", most=MAX_NOTE, length=len(body))
        note = await self.of_game(user_id, game_id)
        await self.store.save_note(game_id, user_id, body, now=int(self.clock()))
        return Note(game_id=note.game_id, game_key=note.game_key, body=body if body.strip() else "")

    async def _note(self, game: Game, user_id: int) -> Note:
        if not game.seats_of(user_id):
            raise ServiceError("notes.not_player")
        body = await self.store.note_of(game.id, user_id)
        return Note(game_id=game.id, game_key=game.game_key, body=body or "")
