"""What the web's own worker does (``bot.web.pictures.web_pool``): replays, pages, pictures.

A game's replay runs every action of its log through the engine and packs a spectator's view
per step; its page lists every step; its step pictures are drawn from those views. All of it
holds the GIL, so it runs here, in the web's low-priority worker process, and not in the bot's
process, whose event loop plays the turns (D111). The replays are kept in this process (one
per game, continued from the last one when the game went on); the bot's process sends a stored
game (its row and snapshot) and gets back small answers: an outline, the page's HTML, a PNG.
With the web pool in a thread (``RENDER_PROCESSES=0``, tests) the same functions run in a
thread of the bot's process.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Callable
from dataclasses import dataclass

from bot.games import presentation
from bot.games.base import Score
from bot.kept import Kept
from bot.service.pictures import picture_language, stored_ranks
from bot.service.records import draw_recap, ended_word, recap_ranks, record_of
from bot.service.results import COMPUTER_USER_ID, TurnId
from bot.service.tables import end_reason, match_of, step_of
from bot.store import Action, Game, GameStatus
from engine import games
from engine.contract import JsonObject
from engine.games import Match
from engine.record import FULL, to_json

from . import pages
from .cards import card_texts
from .games import extras, shown_score
from .pictures import lower_priority
from .replay import Replay, replay_steps
from .seats import Row, seat_rows
from .texts import web_catalog

REPLAYS_KEPT = 64  # games whose replay (a packed spectator's view per step) stays in memory
FRAMES_KEPT = 16_384  # steps whose players' scores and state, in a language, stay in memory


@dataclass(frozen=True)
class Prepared:
    """A game read for its page: the match, its replay and the turn being played."""

    match: Match
    replay: Replay
    turn: TurnId | None


@dataclass(frozen=True)
class Outline:
    """What the bot's process needs of a replay: the turn being played (for its deadline)
    and each step's chain (a picture is reused only for the same past)."""

    turn: TurnId | None
    chains: tuple[str, ...]


_replays: Kept[tuple[int, int, bytes, str], Prepared] = Kept(REPLAYS_KEPT)
_latest: Kept[int, Prepared] = Kept(REPLAYS_KEPT)  # per game: the base of its next replay
_lock = threading.Lock()  # in a thread (the web pool without processes): one cache update


def prepared(game: Game) -> Prepared:
    """The stored game replayed (kept by game, version and log length; continued from the
    game's last replay when it still holds). ServiceError for a damaged snapshot."""
    lower_priority()
    # the snapshot's digest too: one process may serve several stores (tests, the demo)
    # (and the language: a test's store may hold the same game in another language)
    digest = hashlib.blake2b(game.snapshot.encode(), digest_size=16).digest()
    key = (game.id, game.version, digest, picture_language(game))
    with _lock:
        found = _replays.find(key)
        latest = _latest.find(game.id)
    if found is not None:
        return found
    match = match_of(game)
    base = None if latest is None else latest.replay
    replay = replay_steps(match, web_catalog(), picture_language(game), base)
    info = match.turn_info
    turn = (
        None
        if info.seat is None
        else TurnId(round=info.round, seat=info.seat, start=replay.turn_start)
    )
    ready = Prepared(match, replay, turn)
    with _lock:
        _replays.keep(key, ready)
        latest = _latest.find(game.id)
        if latest is None or latest.replay.last.version <= replay.last.version:
            _latest.keep(game.id, ready)
    return ready


def outline(game: Game) -> Outline:
    """The game's outline, from its replay."""
    ready = prepared(game)
    return Outline(ready.turn, tuple(step.chain for step in ready.replay.steps))


def ending(game: Game, number: int, last: int) -> str | None:
    """How the bot ended the game (``records.ended_word``: "resigned", "abandoned"), told on
    the picture of its ``last`` step as on the Discord final board (nobody to play); None for
    the other steps, a game under way and one its rules ended."""
    if number != last or game.status == GameStatus.ACTIVE or not game.end_reason:
        return None
    if match_of(game).outcome is not None:  # the rules ended it ("boats"): drawn as they did
        return None
    return ended_word(game)


def step_picture(
    drawer: Callable[..., bytes], game: Game, number: int, language: str
) -> bytes | None:
    """The board after step ``number`` of the game's replay (None: no such step), drawn by
    ``drawer`` (the web pool's) from the spectator's view and the step's marked events; the
    last step of a game the bot ended, as it ended (``ending``); the last step of a finished
    game ranked and won as its stored result says (a resigned seat last, D286)."""
    steps = prepared(game).replay.steps
    if number >= len(steps):
        return None
    step = steps[number]
    last = len(steps) - 1
    ended = ending(game, number, last)
    ranks = tuple(sorted(stored_ranks(game).items())) if number == last and not ended else ()
    if ranks:
        return drawer(step.view, list(step.events), language, None, ranks)
    if ended is None:
        return drawer(step.view, list(step.events), language)
    return drawer(step.view, list(step.events), language, ended)


def recap(game: Game, actions: list[Action]) -> bytes:
    """The animated recap of a game that is over (the full record replayed, then drawn)."""
    lower_priority()
    full = record_of(game, actions, FULL)
    return draw_recap(to_json(full), picture_language(game), full.ended, recap_ranks(game))


def page_html(
    game: Game,
    times: tuple[int | None, ...],
    deadline: int | None,
    picture: str,
    computer: frozenset[int] = frozenset(),
) -> bytes:
    """The game's page as UTF-8 HTML (``times``: when each action was played; ``picture``:
    the relative address of a step's picture, ``{v}`` standing for the step; ``computer``:
    the actions, by sequence number, the computer played for a human seat)."""
    ready = prepared(game)
    catalog = web_catalog()
    language = picture_language(game)

    def say(key: str, **params: object) -> str:
        return catalog.text(key, language, **params)

    page = _page(game, ready, times[: len(ready.replay.steps)], deadline, picture, computer)
    return pages.game_html(page, say).encode()


def _page(
    game: Game,
    ready: Prepared,
    times: tuple[int | None, ...],
    deadline: int | None,
    picture: str,
    computer: frozenset[int] = frozenset(),
) -> pages.GamePage:
    match, replay = ready.match, ready.replay
    resigned = resigned_from(game, match, computer, len(replay.steps) - 1)
    # the winners as stored: a resigned seat ranks last even when the computer finished it
    # with the top score (D286), and a game the bot ended keeps the one it named (D207)
    winners = {s.seat for s in game.seats if s.winner}
    active = game.status == GameStatus.ACTIVE and match.current_seat is not None
    colours = match.colours
    language = picture_language(game)
    view = replay.last.view
    # the scores a spectator may see (R34: a face-down tile's PP is not), never the standing
    scores = {
        seat: shown_score(game.game_key, player, language)
        for seat, player in enumerate(view.get("players", ()))
        if isinstance(player, dict)
    }
    players = tuple(
        pages.PlayerLine(
            seat=s.seat,
            name=s.player,
            colour=colours[s.seat],
            score=scores.get(s.seat, ("?", None))[0],
            to_play=active and s.seat == match.current_seat,
            winner=s.seat in winners and game.status == GameStatus.FINISHED,
            # a computer's own seat says so by its name; a human's resigned seat is "resigned"
            resigned=s.stand_in == "resigned",
            resigned_from=resigned.get(s.seat, 0),
            stand_in=s.user_id != COMPUTER_USER_ID and s.stand_in not in (None, "resigned"),
        )
        for s in game.seats
    )
    ending = end_reason(game, match) if game.end_reason and not active else None
    step_key = step_of(match) if active else None
    cards = _cards(game.game_key, replay, language)
    notes, stopped = _score_notes(game, match, scores, language)
    frames = _frames(game, replay, language, active, dict(cards))
    status = game.status.value if game.status != GameStatus.ACTIVE or active else "finished"
    return pages.GamePage(
        game_id=game.id,
        game_name=games.rules_for(game.game_key).display_name,
        language=language,
        status=status,
        winners=tuple(p.name for p in players if p.winner),
        resigned=None if ending is None or ending.player is None else ending.player.name,
        round=presentation(game.game_key).number(match.turn_info),
        counts=presentation(game.game_key).counts,
        players=players,
        score_notes=notes,
        stopped_note=stopped,
        step=_step_words(step_key, language),
        deadline=deadline,
        replay=replay,
        times=times,
        cards=cards,
        picture=picture,
        seats={
            s.seat: seat_rows(game.game_key, view, s.seat, web_catalog(), language)
            for s in game.seats
        },
        frames=frames,
    )


def spectator_step(step_key: str) -> str:
    """The catalog key of a step's words for a spectator, in the third person (D215), from the
    panel's, which speaks to the player: ``<game>.step.<step>`` -> ``<game>.web.step.<step>``
    (a game's own texts, in its locale folder)."""
    game, _, step = step_key.partition(".step.")
    return f"{game}.web.step.{step}"


def _step_words(step_key: str | None, language: str) -> str | None:
    """The step to play for a spectator (``spectator_step``), in ``language``."""
    return web_catalog().text(spectator_step(step_key), language) if step_key else None


@dataclass(frozen=True)
class _Seen:
    """What the page shows of the players after one step, whoever's turn it is."""

    scores: tuple[str, ...]
    seats: tuple[tuple[Row, ...], ...]
    cards: tuple[str, ...]


# by (step's chain, language): a running game's page is built again at each action, and all
# but its last steps are the same; a view is made of its past, so the chain names it
_seen: Kept[tuple[str, str], _Seen] = Kept(FRAMES_KEPT)


def _frames(
    game: Game, replay: Replay, language: str, active: bool, cards: dict[str, str]
) -> tuple[pages.Frame, ...]:
    """The players after each step of the replay: scores, whose turn, each one's state, the
    cards on the table (the last step's turn as the game stands: none once it is over)."""
    frames = []
    last = len(replay.steps) - 1
    rows: dict[str, tuple[Row, ...]] = {}
    for number, step in enumerate(replay.steps):
        with _lock:
            seen = _seen.find((step.chain, language))
        if seen is None:
            seen = _seen_at(game.game_key, step.view, language, cards, rows)
            with _lock:
                _seen.keep((step.chain, language), seen)
        to_play = step.to_play if active or number < last else None
        frames.append(
            pages.Frame(
                scores=seen.scores,
                to_play=to_play,
                step=_step_words(step.step_key, language) if to_play is not None else None,
                seats=seen.seats,
                cards=seen.cards,
            )
        )
    return tuple(frames)


def _seen_at(
    game_key: str,
    view: JsonObject,
    language: str,
    cards: dict[str, str],
    rows: dict[str, tuple[Row, ...]],
) -> _Seen:
    """The players in a step's view, in ``language``: scores, state rows, cards named
    (``rows``: a seat's rows by its view, which changes only when that seat plays)."""
    players = [p for p in view.get("players", ()) if isinstance(p, dict)]
    catalog = web_catalog()
    seats = []
    for seat, player in enumerate(players):
        known = json.dumps([seat, player])
        if known not in rows:
            rows[known] = seat_rows(game_key, view, seat, catalog, language)
        seats.append(rows[known])
    return _Seen(
        scores=tuple(shown_score(game_key, p, language)[0] for p in players),
        seats=tuple(seats),
        cards=tuple(name for name in dict.fromkeys(_strings(view)) if name in cards),
    )


def _score_notes(
    game: Game, match: Match, scores: dict[int, Score], language: str
) -> tuple[tuple[str, ...], str | None]:
    """What the scores leave out, once each (the game's notes); once the bot stopped the game
    before the rules' end (a resignation, an abandon), what the game says then instead, at
    the last step (the notes stand before it, as the game was then)."""
    notes = tuple(dict.fromkeys(n for _, n in scores.values() if n is not None))
    stopped = extras(game.game_key).score_note_stopped
    ended_early = game.status != GameStatus.ACTIVE and game.end_reason and match.outcome is None
    if notes and stopped and ended_early:
        return notes, web_catalog().text(stopped, language)
    return notes, None


def resigned_from(game: Game, match: Match, computer: frozenset[int], last: int) -> dict[int, int]:
    """The step from which each resigned seat shows as resigned in the replay: its first
    action of the run the computer played for it to the end (sequence numbers in
    ``computer``; step ``n`` is the board before action ``n + 1``), else the last step (the
    resignation ended the game)."""
    found = {}
    for seat in (s.seat for s in game.seats if s.stand_in == "resigned"):
        step = last
        for number in reversed([i for i, (s, _) in enumerate(match.log) if s == seat]):
            if number + 1 not in computer:
                break
            step = number
        found[seat] = step
    return found


def _cards(game_key: str, replay: Replay, language: str) -> tuple[tuple[str, str], ...]:
    """(name, text) of the cards on the table now, then of those only earlier steps show
    (each string of the views asked about once: most stay from step to step)."""
    found = dict(card_texts(game_key, replay.last.view, language))
    asked = set(_strings(replay.last.view))
    for step in replay.steps:
        new = [name for name in dict.fromkeys(_strings(step.view)) if name not in asked]
        asked.update(new)
        if new:
            found.update(card_texts(game_key, {"strings": new}, language))
    return tuple(found.items())


def _strings(view: object) -> list[str]:
    """Every string of a view, in reading order (where its cards are named)."""
    found: list[str] = []
    stack = [view]
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            found.append(value)
        elif isinstance(value, dict):
            stack.extend(reversed(list(value.values())))
        elif isinstance(value, list | tuple):
            stack.extend(reversed(value))
    return found
