"""``/log`` shows actions in notation only: what the engine hides is ``?``, never English words
such as "arrange (1 on top, 2 at the bottom)" or "rock (a card kept face down)" (issue 21
item 7, D86)."""

from __future__ import annotations

import random

import pytest

from bot.service.history import public_notation, replay_turns
from engine import games


@pytest.mark.parametrize(("game", "actions"), [("yamatai", 120), ("namiji", 60)])
def test_hidden_actions_are_masked_in_notation(game: str, actions: int) -> None:
    masked = 0
    for seed in range(4):
        match = games.new(game, ["Ann", "Bob", "Cy"], seed)
        choose = random.Random(seed)
        for _ in range(actions):
            match.play(choose.choice(match.legal_actions()), seat=match.current_seat)
        assert match.current_seat is not None  # mid-game: something is hidden
        logged = [text for _, text in match.log]
        shown = [a for turn in replay_turns(match) for a in turn.actions]
        assert len(shown) == len(logged)
        for text, public in zip(logged, shown, strict=True):
            assert "(" not in public, public
            words = text.split()
            assert public.split()[0] == words[0]
            assert all(w in ("?", "…") or w in words for w in public.split()), (text, public)
            masked += public != text
    assert masked, "no hidden action in these games: the test proves nothing"


def test_a_hidden_action_without_a_secret_word_keeps_its_verb() -> None:
    assert public_notation("rock R02", "rock (a card kept face down)", frozenset()) == "rock …"
    assert public_notation("build B07 C4", "build C4 (torii)", frozenset({"B07"})) == "build ? C4"
    assert public_notation("fleet 4", "fleet 4", frozenset({"4"})) == "fleet 4"
