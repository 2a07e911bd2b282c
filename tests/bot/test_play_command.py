"""/play hands the service an action text without empty ``;`` parts."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any, cast

import pytest

from bot.cogs.play import PlayCog
from bot.service import ServiceError, normalize_actions
from bot.service.suggest import Suggestions

from .fakes import FakeBot, fake_interaction, invoke


@pytest.mark.parametrize(
    ("typed", "sent"),
    [
        ("fleet 4;;", "fleet 4"),
        ("; fleet 4 ;", "fleet 4"),
        ("fleet 4", "fleet 4"),
        (" fleet 4 ;; buy wood ; ", "fleet 4; buy wood"),
        (";; ;", ""),
    ],
)
def test_normalize_actions_drops_empty_parts(typed: str, sent: str) -> None:
    assert normalize_actions(typed) == sent


class RecordingService:
    """The playing room: records what /play passes on, then refuses (nothing else is needed)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str]] = []

    async def play(self, user_id: int, text: str, **kwargs: Any) -> Any:
        self.calls.append(("play", text))
        raise ServiceError("error.no_game")

    async def preview(self, user_id: int, text: str, **kwargs: Any) -> Any:
        self.calls.append(("preview", text))
        raise ServiceError("error.no_game")


def _play(typed: str) -> tuple[RecordingService, Any]:
    playing = RecordingService()
    bot = FakeBot(rooms=_rooms(playing))
    cog = PlayCog(bot)  # type: ignore[arg-type]
    interaction = fake_interaction(bot)
    command: Any = cog.play
    asyncio.run(invoke(command, cog, interaction, action=typed))
    return playing, interaction


def _rooms(playing: RecordingService) -> Any:
    """Rooms with only the playing room, the reading room's game of the thread (the empty
    action's example is the game's) and a desk without a store."""

    async def game_in_thread(thread_id: int) -> str:
        return "yamatai"

    reading = SimpleNamespace(game_in_thread=game_in_thread)
    return SimpleNamespace(playing=playing, reading=reading, desk=SimpleNamespace(repo=None))


def test_play_sends_one_action_without_empty_parts() -> None:
    assert _play("fleet 4;;")[0].calls == [("play", "fleet 4")]
    assert _play("; fleet 4 ;")[0].calls == [("play", "fleet 4")]


def test_play_previews_a_sequence_without_empty_parts() -> None:
    assert _play("fleet 4;; buy wood;")[0].calls == [("preview", "fleet 4; buy wood")]


def test_play_of_only_separators_is_refused_before_the_service() -> None:
    playing, interaction = _play(" ; ;")
    assert playing.calls == []
    assert "Type an action" in interaction.response.sent[0]["content"]


def _autocomplete(found: Suggestions, typed: str) -> list[Any]:
    playing = RecordingService()

    async def suggest(user_id: int, text: str, **kwargs: Any) -> Suggestions:
        return found

    playing.suggest = suggest  # type: ignore[attr-defined]
    bot = FakeBot(rooms=_rooms(playing))
    cog = PlayCog(bot)  # type: ignore[arg-type]
    complete = cast(Any, PlayCog.play_autocomplete)  # discord.py types it as the decorator
    return list(asyncio.run(complete(cog, fake_interaction(bot), typed)))


def test_autocomplete_explains_when_every_match_is_too_long() -> None:
    too_long = Suggestions()
    too_long.too_long = True
    [choice] = _autocomplete(too_long, "fleet 4; buy wood; pla")
    assert choice.name.startswith("No suggestion fits in 100 characters")
    assert choice.value == "fleet 4; buy wood; pla"  # picking it keeps what was typed
    assert _autocomplete(Suggestions(), "zzz") == []
    assert [c.value for c in _autocomplete(Suggestions(["fleet 4"]), "fl")] == ["fleet 4"]


@pytest.mark.parametrize(
    ("locale", "words"),
    [("en-US", "you fished one orange fugu"), ("fr", "tu as pêché un fugu orange")],
)
def test_a_mid_turn_answer_says_what_the_action_did(locale: str, words: str) -> None:
    """QA: after ``/play fish hidden`` the answer only said "keep the fish in your crate, or
    release it": the fish drawn face down was named nowhere before the choice."""
    import discord

    from bot.present import played_text
    from bot.service import PlayResult

    result = PlayResult(
        game_id=1,
        thread_id=500,
        version=7,
        actions=("fish hidden",),
        events=({"type": "fished", "seat": 0, "fish": "of"},),
        picture=None,
        step="namiji.step.catch",
        game="namiji",
        names=("Ann", "Bo"),
    )
    interaction = fake_interaction(FakeBot())
    interaction.locale = discord.Locale(locale)
    said = played_text(interaction, result)
    assert "`fish hidden`" in said and words in said, said
