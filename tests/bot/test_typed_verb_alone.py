"""A verb typed alone that begins legal actions (``net`` at a net step, ``fish``, ``move``) is
said to need more, with the legal actions it begins listed in words, notation marked; a
half-typed action's "did you mean" names each suggestion in words with its notation
(verification 48, findings N2 and N1: ``net`` was "not an action", the suggestions notation
only). Typed as ``/play`` types them: the service's ``play`` with ``typed``, said by
``error_text`` as ``report_error`` says it."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from bot.catalog import default_catalog
from bot.present import error_text
from bot.service import Rooms, ServiceError, build_rooms
from bot.store import open_store
from engine import games
from tests.backends import database
from tests.bot.test_typed_actions_refused import ANN, BO, _checked_refusal, _picture, _typed

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

#: The refusal's first line and how the reader's language marks an action in words.
NEEDS_MORE = {"fr": "n'est que le début d'une action", "pl": "to tylko początek akcji"}
IN_WORDS = {"fr": ("« ", " » (notation : `"), "pl": ("„", "” (notacja: `")}
#: How many random legal actions are played at most to reach a step with a net.
LONGEST = 400


async def _at_a_net(rooms: Rooms) -> tuple[int, list[str]]:
    """A Namiji table played (random legal actions) to a step where a net is legal, and what
    is legal there."""
    await rooms.playing.create_game(
        game_key="namiji",
        guild_id=9,
        channel_id=10,
        thread_id=900,
        players=[(ANN, "Ann"), (BO, "Bo")],
    )
    rng = random.Random(3)
    for _ in range(LONGEST):
        game = await rooms.desk.repo.load_game_by_thread(900)
        match = games.from_json(game.snapshot)
        legal = match.legal_actions()
        if any(action.startswith("net ") for action in legal):
            return 900, legal
        assert match.current_seat is not None
        await rooms.playing.play(
            game.user_of(match.current_seat) or 0, rng.choice(legal), thread_id=900
        )
    raise AssertionError("no net step came up")


def _run(tmp_path: Path, check: str) -> None:
    async def body() -> None:
        repo = await open_store(database(tmp_path, "games.sqlite3"))
        try:
            rooms = build_rooms(repo, renderer=_picture, seed_source=lambda: 7)
            thread, legal = await _at_a_net(rooms)
            if check == "verb":
                await _verb_alone(rooms, thread, legal)
            else:
                await _half_net(rooms, thread, legal)
        finally:
            await repo.close()

    asyncio.run(body())


async def _verb_alone(rooms: Rooms, thread: int, legal: list[str]) -> None:
    """Each verb of the step's actions, typed alone: needs more, its actions listed."""
    verbs = sorted({a.split()[0] for a in legal if len(a.split()) > 1})
    assert "net" in verbs
    for verb in verbs:
        refusal, version = await _typed(rooms, thread, verb)
        assert isinstance(refusal, ServiceError), verb
        begun = [a for a in legal if a.split()[0] == verb and len(a.split()) > 1]
        assert refusal.legal == begun, (verb, refusal.legal)
        for locale in ("fr", "pl"):
            said = error_text(default_catalog(), refusal, locale).replace("\xa0", " ")
            what, allowed = said.split("\n", 1)
            assert what.startswith(f"`{verb}` ") and NEEDS_MORE[locale] in what, said
            lines = [line for line in allowed.splitlines() if line.startswith("• ")]
            assert lines, said
            for line in lines:  # in words, the notation in brackets after them
                words, notation = line[2:].rsplit(" (`", 1)
                assert words and notation.startswith(f"{verb} "), (locale, line)
                assert not words.startswith(f"{verb} "), (locale, line)
        _checked_refusal(refusal, verb)
        after = await rooms.desk.repo.load_game_by_thread(thread)
        assert after.version == version


async def _half_net(rooms: Rooms, thread: int, legal: list[str]) -> None:
    """A net typed up to its fish: each suggestion in words, its notation marked."""
    net = next(a for a in legal if a.startswith("net "))
    typed = " ".join(net.split()[:2])
    refusal, _ = await _typed(rooms, thread, typed)
    assert isinstance(refusal, ServiceError) and refusal.key.endswith("did_you_mean")
    for locale in ("fr", "pl"):
        said = error_text(default_catalog(), refusal, locale).replace("\xa0", " ")
        opening, marked = IN_WORDS[locale]
        shown = said.split("\n", 1)[0].count(marked)
        assert shown == said.count(f"`{typed} ") > 0, (locale, said)  # each one in words
        assert said.count(opening) >= shown and f"{marked}{typed} " in said, (locale, said)
    _checked_refusal(refusal, typed)


def test_a_verb_typed_alone_at_its_step_needs_more_and_lists_its_actions(
    tmp_path: Path,
) -> None:
    _run(tmp_path, "verb")


def test_a_half_typed_net_is_offered_nets_in_words(tmp_path: Path) -> None:
    _run(tmp_path, "net")
