"""The animated recap (render/recap): a valid GIF within the limits, captions in the game's
language, drawn from spectator views only."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator, Mapping
from functools import cache
from typing import Any

import pytest
from PIL import Image

import render.recap as recap
from engine import record as rec
from render.catalog import placeholders
from render.recap import MAX_BYTES, MAX_FRAMES, MAX_MS, caption, durations, render_recap
from render.text import recording
from tests.engine.test_record import finished, full_record, played, running_record


@cache
def longest(game: str) -> tuple[list[rec.Moment], bytes]:
    """The recap of a whole game at the most seats (4-player Yamatai, 5-player Namiji) between
    the normal computer players (longer games than random play)."""
    match = finished(game, {"yamatai": 4, "namiji": 5}[game], 3, "greedy")
    record = rec.build(game, match.options, 3, match.players, played(match), match.outcome)
    moments = rec.recap_moments(rec.replay(record))
    return moments, render_recap(moments, language="fr")


def frames(gif: bytes) -> Iterator[Image.Image]:
    """Every frame of a GIF."""
    picture = Image.open(io.BytesIO(gif))
    for index in range(getattr(picture, "n_frames", 1)):
        picture.seek(index)
        yield picture


@pytest.mark.parametrize("game", ["yamatai", "namiji"])
def test_a_whole_game_makes_a_valid_animated_gif_within_the_limits(game: str) -> None:
    """Pillow opens it; several frames, at most MAX_FRAMES, 800 px wide; under 20 s with the
    last frame held longest; under 8 MB."""
    moments, gif = longest(game)
    picture = Image.open(io.BytesIO(gif))
    assert picture.format == "GIF" and getattr(picture, "is_animated", False)
    count = getattr(picture, "n_frames", 1)
    assert 1 < count == min(len(moments), MAX_FRAMES)
    assert picture.size == (800, 550 + recap.CAPTION_SIZE * 2)  # 1600 x 1100 halved, the strip
    times = [int(frame.info["duration"]) for frame in frames(gif)]
    assert sum(times) < MAX_MS
    assert times[-1] > max(times[:-1])
    assert len(gif) < MAX_BYTES


def test_namiji_has_more_turns_than_frames_and_keeps_the_first_and_the_last() -> None:
    """A long game is thinned evenly: the setup and the end are kept."""
    moments, _ = longest("namiji")
    assert len(moments) > MAX_FRAMES
    chosen = recap._sample(moments, MAX_FRAMES)
    assert len(chosen) == MAX_FRAMES
    assert chosen[0] is moments[0] and chosen[-1] is moments[-1]
    versions = [m.view["version"] for m in chosen]
    assert versions == sorted(set(versions))


def test_durations_stay_under_twenty_seconds_for_any_count() -> None:
    """The moving frames share the time, the last is held."""
    assert durations(1) == [recap.HOLD_MS]
    for count in range(2, MAX_FRAMES + 1):
        times = durations(count)
        assert len(times) == count and sum(times) < MAX_MS
        assert times[-1] == recap.HOLD_MS > times[0] >= recap.FRAME_MS[0]


def test_a_heavy_recap_is_drawn_narrower() -> None:
    """Over MAX_BYTES at 800 px, the frames are scaled down further until it fits."""
    moments = rec.recap_moments(rec.replay(running_record("yamatai", 2, 60)))
    wide = render_recap(moments)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(recap, "MAX_BYTES", len(wide) - 1)
        narrow = render_recap(moments)
    assert Image.open(io.BytesIO(narrow)).size[0] < 800
    assert len(narrow) < len(wide)


def test_captions_in_the_games_language() -> None:
    """Round, turn, setup and end in en, fr, it and pl."""
    view: dict[str, Any] = {}
    assert caption(rec.Moment(view, "round", 3), "fr") == "Manche 3"
    assert caption(rec.Moment(view, "turn", 12), "pl") == "Tura 12"
    assert caption(rec.Moment(view, "start", 0), "it") == "Preparazione"
    assert caption(rec.Moment(view, "end", 0), "en") == "End of the game"
    assert caption(rec.Moment(view, "end", 0), "xx") == "End of the game"


def test_the_frames_are_captioned_in_the_games_language() -> None:
    """The captions drawn on the frames are in the language asked for."""
    moments = rec.recap_moments(rec.replay(running_record("yamatai", 3, 70)))
    with recording() as drawn:
        render_recap(moments, language="pl")
    texts = [text for text, _ in drawn]
    assert "Przygotowanie" in texts and "Tura 2" in texts
    assert not any(t.startswith(("Setup", "Turn ")) for t in texts)


def test_the_recap_texts_are_in_every_language_with_the_same_placeholders() -> None:
    """Same ids and placeholders in the four files, and no game named."""
    folder = recap.LOCALE
    tables = {
        lang: json.loads((folder / f"{lang}.json").read_text("utf-8"))
        for lang in ("en", "fr", "it", "pl")
    }
    english = {k: v for k, v in tables["en"].items() if not k.startswith("_")}
    for lang, table in tables.items():
        texts = {k: v for k, v in table.items() if not k.startswith("_")}
        assert texts.keys() == english.keys(), lang
        for key, text in texts.items():
            assert placeholders(text) == placeholders(english[key]), (lang, key)
            assert not re.search("yamatai|namiji", text, re.IGNORECASE)


def test_a_seats_view_is_refused() -> None:
    """A recap is drawn from spectator views only."""
    match = finished("namiji", 2, 1)
    with pytest.raises(ValueError, match="spectator views only"):
        render_recap([rec.Moment(match.view(0), "end", 0)])
    with pytest.raises(ValueError, match="at least one"):
        render_recap([])


def _tiny_png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (160, 110), (10, 20, 30)).save(out, format="PNG")
    return out.getvalue()


@pytest.mark.parametrize(
    ("game", "players", "seed", "upto"),
    [
        ("yamatai", 2, 1, None),
        ("yamatai", 4, 3, 150),
        ("namiji", 3, 2, 120),
        ("namiji", 5, 4, None),
    ],
)
def test_every_frame_is_drawn_from_a_spectator_view_without_secrets(
    game: str, players: int, seed: int, upto: int | None
) -> None:
    """Property over games running and finished: every view the recap draws is the spectator
    view of its step, holding none of ``Rules.secrets(state, None)`` (while the game runs)."""
    full = full_record(game, players, seed)
    record = full if upto is None else running_record(game, players, upto, seed)
    steps = rec.replay(record)
    drawn: list[Mapping[str, Any]] = []

    def record_view(view: Mapping[str, Any], **_: Any) -> bytes:
        drawn.append(view)
        return _tiny_png()

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(recap, "render_board", record_view)
        render_recap(rec.recap_moments(steps))
    assert len(drawn) > 1
    rules = steps[0].rules
    for view in drawn:
        step = steps[view["version"]]
        assert view["viewer"] is None and view == step.view()
        if rules.current_seat(step.state) is not None:
            strings = set(re.findall(r"[\w#]+", json.dumps(view)))
            assert not strings & rules.secrets(step.state, None), view["version"]
