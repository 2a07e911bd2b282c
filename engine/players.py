"""Computer players of any game: pure, seeded functions from a seat's view to a legal action."""

from __future__ import annotations

from engine.contract import ComputerPlayer, View
from engine.rng import Rng

#: The levels every game offers (``Rules.levels`` names the player of each).
LEVELS = ("easy", "normal", "strong")
BLUNDER_CHANCE = 0.25  # the easy players' share of random decisions


def seeded(view: View, seed: int) -> Rng:
    """A generator for one decision: the player's seed and the game's version."""
    return Rng(seed * 1_000_003 + int(view.get("version", 0)))


def legal_of(view: View) -> list[str]:
    """The legal actions a seat's view lists (ValueError if it is not that seat's turn)."""
    legal: list[str] = view["legal_actions"]
    if not legal:
        raise ValueError("the view has no legal actions: it is not this seat's turn")
    return legal


def random_player(view: View, seed: int) -> str:
    """A uniformly random legal action (works for every game)."""
    legal = legal_of(view)
    return legal[seeded(view, seed).below(len(legal))]


def blundering(player: ComputerPlayer, chance: float = BLUNDER_CHANCE) -> ComputerPlayer:
    """A weaker player: ``player``, but a uniformly random legal action ``chance`` of the time."""

    def easy_player(view: View, seed: int) -> str:
        if seeded(view, seed ^ 0x5EED).random() < chance:
            return random_player(view, seed)
        return player(view, seed)

    easy_player.__doc__ = f"{player.__doc__} A random action {chance:.0%} of the time."
    return easy_player


#: ``Rules.levels`` of a game whose players come from ``players_by_name``: level -> stored name.
NAMED_LEVELS: dict[str, str] = {"easy": "easy", "normal": "greedy", "strong": "strong"}


def players_by_name(strong: ComputerPlayer, greedy: ComputerPlayer) -> dict[str, ComputerPlayer]:
    """A game's computer players by the names games are stored with, the strongest first:
    ``strong``, ``greedy`` (normal), ``easy`` (greedy with blunders) and ``random``."""
    return {
        "strong": strong,
        "greedy": greedy,
        "easy": blundering(greedy),
        "random": random_player,
    }
