"""The game service and its plain results: the layer between Discord and engine, store, render."""

from .errors import EngineRejected, ServiceError
from .games import GameService, Renderer, render_picture, split_actions
from .results import (
    COMPUTER_USER_ID,
    BoardResult,
    Category,
    Created,
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
    TurnRecord,
    TurnReport,
    UndoResult,
)

__all__ = [
    "COMPUTER_USER_ID",
    "BoardResult",
    "Category",
    "Created",
    "EngineRejected",
    "Event",
    "FinalResult",
    "GameListing",
    "GameService",
    "HistoryResult",
    "PanelState",
    "PlayResult",
    "PlayerInfo",
    "Preview",
    "Renderer",
    "Resigned",
    "ScoreLine",
    "ServiceError",
    "TurnRecord",
    "TurnReport",
    "UndoResult",
    "render_picture",
    "split_actions",
]
