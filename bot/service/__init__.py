"""The game service and its plain results: the layer between Discord and engine, store, render."""

# Store values commands and views use as they are (a player's /settings, a stored game, a new
# game's settings, the games' languages): they take them from here, never from the store.
from bot.store import LANGUAGES, Game, GameSettings, UserSettings

from .errors import EngineRejected, ServiceError
from .pictures import Renderer, render_picture
from .results import (
    COMPUTER_USER_ID,
    Back,
    BoardResult,
    Category,
    Created,
    Ended,
    FinalResult,
    FinalScore,
    GameListing,
    HistoryResult,
    Pace,
    PanelState,
    PlayerInfo,
    PlayPreview,
    PlayResult,
    Profile,
    Resigned,
    SkipVote,
    TurnId,
    TurnKey,
    TurnRecord,
    TurnReport,
    UndoResult,
)
from .rights import LeagueRole, Member
from .rooms import Rooms, build_rooms
from .tables import normalize_actions, split_actions

__all__ = [
    "COMPUTER_USER_ID",
    "LANGUAGES",
    "Back",
    "BoardResult",
    "Category",
    "Created",
    "Ended",
    "EngineRejected",
    "FinalResult",
    "FinalScore",
    "Game",
    "GameListing",
    "GameSettings",
    "HistoryResult",
    "LeagueRole",
    "Member",
    "Pace",
    "PanelState",
    "PlayPreview",
    "PlayResult",
    "PlayerInfo",
    "Profile",
    "Renderer",
    "Resigned",
    "Rooms",
    "ServiceError",
    "SkipVote",
    "TurnId",
    "TurnKey",
    "TurnRecord",
    "TurnReport",
    "UndoResult",
    "UserSettings",
    "build_rooms",
    "normalize_actions",
    "render_picture",
    "split_actions",
]
