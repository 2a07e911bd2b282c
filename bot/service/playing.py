"""Playing a turn: create a game, play, preview, undo, the panel and suggestions."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Hashable, Mapping, Sequence
from functools import partial
from typing import Any

from bot.games import presentation
from bot.games.typed import UnknownName
from bot.kept import Kept
from bot.store import (
    DEFAULT_SETTINGS,
    Game,
    GameLog,
    GameSettings,
    NewSeat,
)
from engine import games
from engine.errors import EngineError

from . import panel as panels
from .errors import EngineRejected, ServiceError, rejected, store_refusals
from .history import since_last_turn, turn_start
from .pictures import PictureOrder, Pictures
from .reports import TurnReports
from .results import (
    COMPUTER_USER_ID,
    Created,
    PanelState,
    PlayPreview,
    PlayResult,
    SinceLastTurn,
    TurnKey,
    UndoResult,
)
from .suggest import Named, Suggestions, suggestions
from .tables import (
    GameDesk,
    SeedSource,
    current_turn,
    panel_choices,
    players_of,
    split_actions,
    step_of,
    turn_key,
)

log = logging.getLogger(__name__)

SINCE_KEPT = 1024
"""Turns whose "since your last turn" records are kept (a few hundred bytes each)."""


class PlayService:
    """Everything a player does on their turn, and starting a game."""

    def __init__(
        self,
        desk: GameDesk,
        store: GameLog,
        pictures: Pictures,
        reports: TurnReports,
        seed_source: SeedSource,
    ) -> None:
        self.desk = desk
        self.store = store
        self.pictures = pictures
        self.reports = reports
        self._seed_source = seed_source
        # the others' turns told on a turn's step pictures: a replay of the game, the same for
        # every step of the turn, so kept per turn
        self._since: Kept[Hashable, SinceLastTurn] = Kept(SINCE_KEPT)

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
        settings: GameSettings = DEFAULT_SETTINGS,
    ) -> Created:
        """Start a game with (user id or None for a computer, name) per seat, in seat order,
        set up with ``settings`` (deadline or time bank, language, computer level, coach)."""
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
        game = await self.store.create_game(
            guild_id=guild_id,
            channel_id=channel_id,
            thread_id=thread_id,
            game_key=game_key,
            seed=seed,
            options=match.options,
            seats=seats,
            snapshot=match.to_json(),
            current_seat=match.current_seat,
            settings=settings,
        )
        infos = players_of(game, match)
        first = infos[match.current_seat or 0]
        banks = await self.reports.banks(game)
        picture = await self.pictures.render(match.view(None), None, game, banks=banks)
        return Created(
            game_id=game.id,
            game=game.game_key,
            thread_id=thread_id,
            version=game.version,
            players=infos,
            picture=picture,
            first=first,
            computers_next=first.computer,
            turn=await current_turn(match),
            language=game.language,
        )

    async def play(
        self,
        user_id: int,
        text: str,
        *,
        thread_id: int | None = None,
        game_id: int | None = None,
        version: int | None = None,
        typed: bool = False,
    ) -> PlayResult:
        """Apply one action or a whole sequence (all or nothing) for the user, and save it;
        ``typed``: as the player typed it, names maybe in words (``read_typed``)."""
        game, match = await self.desk.load_checked(thread_id, game_id, version)
        seat = self.desk.acting_seat(game, match, user_id)
        if typed:
            text = read_typed(game.game_key, text)
        before = len(match.log)
        try:
            events = match.play(text, seat=seat)
        except EngineError as error:
            raise rejected(error, match, seat, split_actions(text)) from None
        ends_turn = match.milestones(events).turn_ended
        # kept by the save: the player's next autocomplete and the turn's thread message
        # start from this version without reading it again
        saved = (await self.desk.save(game, match, silent=not ends_turn)).version
        actions = tuple(t for _, t in match.log[before:])
        turn = await self.reports.turn_report(game, match, saved) if ends_turn else None
        # the answer does not wait for a picture: a completed turn's follows its thread
        # message, a step's the answer (D89, D100)
        order = None
        if turn is None:  # the player's next step: the phone-sized turn picture, choices ringed
            order = await self._step_order(game, match, seat, panel_choices(match))
        computers = self.desk.computer_acts(
            game, match.current_seat, await self.desk.stand_ins(game)
        )
        return PlayResult(
            game_id=game.id,
            thread_id=game.thread_id,
            version=saved,
            actions=actions,
            events=tuple(events),
            picture=None,
            step=step_of(match),
            game=game.game_key,
            names=tuple(p.name for p in players_of(game, match)),
            turn=turn,
            computers_next=computers,
            picture_order=order,
        )

    async def preview(
        self, user_id: int, text: str, *, thread_id: int, typed: bool = False
    ) -> PlayPreview:
        """Apply a sequence to a copy and show what it would do; nothing is saved. ``typed``:
        as the player typed it (``read_typed``)."""
        game, match = await self.desk.load(thread_id=thread_id)
        seat = self.desk.acting_seat(game, match, user_id)
        if typed:
            text = read_typed(game.game_key, text)
        try:
            result = match.preview(text, seat=seat)
        except EngineError as error:
            raise rejected(error, match, seat, split_actions(text)) from None
        actions = tuple(result.actions)
        picture = await self.pictures.render(result.view, result.events, game)
        return PlayPreview(
            game_id=game.id,
            game=game.game_key,
            thread_id=game.thread_id,
            version=game.version,
            text="; ".join(actions),
            actions=actions,
            events=tuple(result.events),
            picture=picture,
            players=players_of(game, match),
            ends_turn=result.ends_turn,
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
        game, match = await self.desk.load_checked(thread_id, game_id, version)
        seat = self.desk.acting_seat(game, match, user_id)
        try:
            undone = match.undo(seat)
        except EngineError as error:
            raise EngineRejected(error) from None
        with store_refusals():
            saved = await self.store.undo_last(
                game.id, game.version, match.to_json(), current_seat=match.current_seat
            )
        order = await self._step_order(game, match, seat, panel_choices(match))
        return UndoResult(
            game_id=game.id,
            version=saved,
            undone=undone,
            picture=None,
            step=step_of(match),
            picture_order=order,
            game=game.game_key,
            view=match.view(seat),
        )

    async def _step_order(
        self,
        game: Game,
        match: games.Match,
        seat: int,
        marked: Sequence[str],
        *,
        view: dict[str, Any] | None = None,
        since: SinceLastTurn | None = None,
    ) -> PictureOrder:
        """A step's turn picture for the player to act (the panel's and a mid-turn ``/play``'s
        alike): ``marked`` ringed, the others' turns since the player's last one told and
        marked, the time banks if the game has them."""
        if since is None:
            since = await self._since_last_turn(game, match, seat)
        banks = await self.reports.banks(game)
        shown = match.view(seat) if view is None else view
        return self.pictures.order(shown, None, game, marked, since=since, banks=banks)

    async def _since_last_turn(self, game: Game, match: games.Match, seat: int) -> SinceLastTurn:
        """``since_last_turn``, kept per turn (a replay of the game, the same for every step)."""
        start = turn_start(match)
        key = (game.id, seat, start, hash(tuple(match.log[:start])))  # a rewound game differs
        since = self._since.find(key)
        if since is None:
            since = await asyncio.to_thread(since_last_turn, match, seat)
            self._since.keep(key, since)
        return since

    async def suggest(
        self, user_id: int, typed: str, *, thread_id: int, named: Named | None = None
    ) -> Suggestions:
        """Autocomplete choices for the action option (the refusal if the user may not act now);
        ``named(game, view, action)``: an action as the choices show it, matched as well."""
        try:
            game, known = await self.desk.load_known(thread_id)
            seat = self.desk.acting_seat(game, known.match, user_id)
        except ServiceError as error:
            refused = Suggestions()
            refused.refusal = error
            return refused
        names = presentation(game.game_key).typed_names()
        if names is not None:  # names typed in words complete as their notation
            typed = names.begun(typed)
        view, shown = None, None
        if named is not None:  # the words shown find their action too
            view = known.match.view(seat)
            shown = partial(named, game.game_key, view)
        legal = known.legal_actions()
        found = suggestions(known.match, seat, typed, legal_now=legal, named=shown)
        found.game = game.game_key
        found.view = view
        if found.view is None and found:
            found.view = known.match.view(seat)
        return found

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
        game, match = await self.desk.load(thread_id=thread_id, game_id=game_id)
        if version is not None and game.version != version and turn_key(match) != turn:
            raise ServiceError("error.stale_board")
        seat = self.desk.acting_seat(game, match, user_id)
        shown = presentation(game.game_key)
        legal = panel_choices(match)
        groups = panels.categories(legal, shown.panel_group)
        keys = [c.key for c in groups]
        if after is not None:
            chosen = panels.next_group(keys, shown.panel_group(after), shown.panel_next)
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
        since = await self._since_last_turn(game, match, seat)
        drawn = await self._step_order(game, match, seat, marked, view=view, since=since)
        png = await self._panel_picture(drawn, game) if picture else None
        players = players_of(game, match)
        return PanelState(
            game_id=game.id,
            game=game.game_key,
            version=game.version,
            step=step_of(match) or "",
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
            # the coach's Hint button: never in a league game
            coach=game.coach and await self.desk.league_of(game.id) is None,
            picture_order=drawn,
            since=since.turns,
            first_turn=since.first_turn,
            players=tuple(players),
            timed=game.turn_deadline is not None and game.time_bank is None,
        )

    async def _panel_picture(self, order: PictureOrder, game: Game) -> bytes | None:
        """The panel's turn picture (the step's choices marked); None if drawing it failed:
        the panel is the way to play, so it is shown without its picture rather than lost."""
        try:
            return await self.pictures.draw(order)
        except Exception:
            log.warning("game %d: the turn picture could not be drawn", game.id, exc_info=True)
            return None

    async def panel_action(self, user_id: int, *, game_id: int, version: int, crc: str) -> str:
        """The action a panel button plays, found by its checksum among the current choices."""
        game, match = await self.desk.load_checked(None, game_id, version)
        self.desk.acting_seat(game, match, user_id)
        action = panels.by_checksum(panel_choices(match), crc)
        if action is None:
            raise ServiceError("error.stale_board")
        return action


def read_typed(game: str, text: str) -> str:
    """A typed action text with the names typed in words (any language, D219) in the game's
    notation; an unknown word where a name belongs is refused, saying what is allowed."""
    names = presentation(game).typed_names()
    if names is None:
        return text
    try:
        return names.read(text)
    except UnknownName as error:
        word = error.word[:40].replace("`", "'")
        raise ServiceError(
            f"{game}.typed.{error.kind}", fallback="error.typed_unknown", word=word
        ) from None
