"""Stored rows as the store's models: every column read by its name, never by its position."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from .connection import Row
from .models import (
    Action,
    ActiveGame,
    AwaySeat,
    BankTurn,
    Game,
    GameStatus,
    League,
    LeaguePlayer,
    PlayerGame,
    Rating,
    RatingChange,
    Reminder,
    Seat,
    UserSettings,
)


def format_time(moment: datetime) -> str:
    """Store a time as sortable ISO-8601 UTC text with microseconds and a ``Z``."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def parse_time(text: str) -> datetime:
    """Read a time written by :func:`format_time`."""
    return datetime.fromisoformat(text)


def optional_int(value: Any) -> int | None:
    """A nullable integer column."""
    return None if value is None else int(value)


def only(rows: Iterable[Row], column: str) -> Any:
    """One column of the first row (None if there is no row)."""
    for row in rows:
        return row[column]
    return None


def ints(rows: Iterable[Row], column: str) -> list[int]:
    """One integer column of every row, in order."""
    return [int(row[column]) for row in rows]


def seat_from_row(row: Row) -> Seat:
    """A ``seats`` row (``SELECT_SEATS``)."""
    lines = None if row["score_lines"] is None else json.loads(row["score_lines"])
    return Seat(
        seat=int(row["seat"]),
        user_id=int(row["user_id"]),
        player=str(row["player"]),
        colour=str(row["colour"]),
        final_score=optional_int(row["final_score"]),
        final_rank=optional_int(row["final_rank"]),
        winner=None if row["winner"] is None else bool(row["winner"]),
        score_lines=None if lines is None else {str(k): int(v) for k, v in lines.items()},
        stand_in=None if row["stand_in"] is None else str(row["stand_in"]),
    )


def action_from_row(row: Row) -> Action:
    """An ``actions`` row (``SELECT_ACTIONS``)."""
    return Action(
        seq=int(row["seq"]),
        seat=int(row["seat"]),
        notation=str(row["notation"]),
        created_at=parse_time(row["created_at"]),
    )


def game_from_row(row: Row, seats: Iterable[Row]) -> Game:
    """A game with its snapshot (``SELECT_GAME_BY_ID`` and the like) and its seats."""
    return Game(
        id=int(row["id"]),
        guild_id=int(row["guild_id"]),
        channel_id=int(row["channel_id"]),
        thread_id=int(row["thread_id"]),
        game_key=str(row["game_key"]),
        options=None if row["options"] is None else json.loads(row["options"]),
        seed=int(row["seed"]),
        status=GameStatus(row["status"]),
        version=int(row["version"]),
        action_count=int(row["action_count"]),
        current_seat=optional_int(row["current_seat"]),
        end_reason=row["end_reason"],
        created_at=parse_time(row["created_at"]),
        updated_at=parse_time(row["updated_at"]),
        ended_at=None if row["ended_at"] is None else parse_time(row["ended_at"]),
        seats=tuple(seat_from_row(s) for s in seats),
        snapshot=str(row["state"]),
        announced_version=int(row["announced_version"]),
        turn_deadline=optional_int(row["turn_deadline"]),
        computer_takeover=bool(row["computer_takeover"]),
        language=None if row["language"] is None else str(row["language"]),
        computer_level=str(row["computer_level"]),
        coach=bool(row["coach"]),
        time_bank=optional_int(row["time_bank"]),
        time_increment=int(row["time_increment"]),
    )


def game_with_seats_from_rows(rows: Sequence[Row]) -> Game:
    """A game read with its seats (``GAME_WITH_SEATS``: a row per seat, the snapshot in the
    first), with its seated users' vacations."""
    vacations = tuple(
        (int(r["user_id"]), int(r["vacation_until"]))
        for r in rows
        if r["vacation_until"] is not None
    )
    return replace(game_from_row(rows[0], rows), vacations=vacations)


def player_game_from_row(row: Row) -> PlayerGame:
    """A user's seat in a game (``SELECT_PLAYER_GAMES``)."""
    return PlayerGame(
        game_id=int(row["id"]),
        game_key=str(row["game_key"]),
        status=str(row["status"]),
        seat=int(row["seat"]),
        stand_in=None if row["stand_in"] is None else str(row["stand_in"]),
        created_at=parse_time(row["created_at"]),
    )


def active_game_from_row(row: Row) -> ActiveGame:
    """One of a user's seats in an active game (``SELECT_USER_ACTIVE_GAMES``), or a server's
    active game (``SELECT_GUILD_ACTIVE_GAMES``: no seat)."""
    return ActiveGame(
        game_id=int(row["id"]),
        guild_id=int(row["guild_id"]),
        channel_id=int(row["channel_id"]),
        thread_id=int(row["thread_id"]),
        game_key=str(row["game_key"]),
        version=int(row["version"]),
        current_seat=optional_int(row["current_seat"]),
        current_user_id=optional_int(row["current_user_id"]),
        my_seats=() if row["my_seat"] is None else (int(row["my_seat"]),),
        updated_at=parse_time(row["updated_at"]),
    )


def reminder_from_row(row: Row) -> Reminder:
    """A ``reminders`` row (``REMINDER_ROW``)."""
    return Reminder(
        id=int(row["id"]),
        game_id=int(row["game_id"]),
        turn=str(row["turn"]),
        seat=int(row["seat"]),
        user_id=int(row["user_id"]),
        kind=str(row["kind"]),
        due_at=int(row["due_at"]),
        deadline_at=int(row["deadline_at"]),
        claimed_until=optional_int(row["claimed_until"]),
        sent_at=optional_int(row["sent_at"]),
        cancelled_at=optional_int(row["cancelled_at"]),
        claims=int(row["claims"]),
    )


def bank_turn_from_row(row: Row) -> BankTurn:
    """A ``bank_turns`` row (``SELECT_BANK_TURNS``)."""
    return BankTurn(
        turn=str(row["turn"]),
        seat=int(row["seat"]),
        started_at=int(row["started_at"]),
        available=int(row["available"]),
        ended_at=optional_int(row["ended_at"]),
    )


def user_settings_from_row(row: Row) -> UserSettings:
    """A ``user_settings`` row (``SELECT_USER_SETTINGS``)."""
    return UserSettings(
        user_id=int(row["user_id"]),
        notify=str(row["notify"]),
        time_zone=None if row["time_zone"] is None else str(row["time_zone"]),
        quiet_start=optional_int(row["quiet_start"]),
        quiet_end=optional_int(row["quiet_end"]),
        vacation_until=optional_int(row["vacation_until"]),
    )


def league_from_row(row: Row) -> League:
    """A ``leagues`` row (``LEAGUE_COLUMNS``)."""
    return League(
        id=int(row["id"]),
        guild_id=int(row["guild_id"]),
        channel_id=int(row["channel_id"]),
        name=str(row["name"]),
        game_key=str(row["game_key"]),
        rounds=int(row["rounds"]),
        table_size=int(row["table_size"]),
        pairing=str(row["pairing"]),
        turn_deadline=optional_int(row["turn_deadline"]),
        points=str(row["points"]),
        organiser_role=optional_int(row["organiser_role"]),
        creator_id=int(row["creator_id"]),
        status=str(row["status"]),
        current_round=int(row["current_round"]),
        posted_round=int(row["posted_round"]),
    )


def league_player_from_row(row: Row) -> LeaguePlayer:
    """A ``league_players`` row (``SELECT_LEAGUE_PLAYERS``)."""
    return LeaguePlayer(
        user_id=int(row["user_id"]),
        name=str(row["name"]),
        joined=int(row["joined"]),
        withdrawn_round=optional_int(row["withdrawn_round"]),
    )


def rating_from_row(row: Row) -> Rating:
    """A ``ratings`` row (user_id, mu, sigma, games)."""
    return Rating(
        user_id=int(row["user_id"]),
        mu=float(row["mu"]),
        sigma=float(row["sigma"]),
        games=int(row["games"]),
    )


def change_from_row(row: Row) -> RatingChange:
    """A ``rating_history`` row."""
    return RatingChange(
        game_id=int(row["game_id"]),
        user_id=int(row["user_id"]),
        mu_before=float(row["mu_before"]),
        sigma_before=float(row["sigma_before"]),
        mu=float(row["mu"]),
        sigma=float(row["sigma"]),
    )


def away_seat_from_row(row: Row) -> AwaySeat:
    """A seat the computer plays until its player is back (``SELECT_AWAY_SEATS``)."""
    return AwaySeat(game_id=int(row["id"]), thread_id=int(row["thread_id"]), seat=int(row["seat"]))
