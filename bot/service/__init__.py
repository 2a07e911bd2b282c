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
    GameListing,
    HistoryResult,
    Pace,
    PanelState,
    PlayerInfo,
    PlayResult,
    Preview,
    Profile,
    Resigned,
    ScoreLine,
    SkipVote,
    Turn,
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
    "Game",
    "GameListing",
    "GameSettings",
    "HistoryResult",
    "LeagueRole",
    "Member",
    "Pace",
    "PanelState",
    "PlayResult",
    "PlayerInfo",
    "Preview",
    "Profile",
    "Renderer",
    "Resigned",
    "Rooms",
    "ScoreLine",
    "ServiceError",
    "SkipVote",
    "Turn",
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
