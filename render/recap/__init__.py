"""The animated recap of a game: spectator views after each round or turn -> GIF bytes.

Each frame is the game's picture (``render.render_board``) scaled down to ``WIDTH`` pixels
above a strip with a caption in the game's language (``render/recap/locale``); every frame is
mapped to one palette made from the first, middle and last pictures, without dithering, so that
Pillow stores each frame as the rectangle that changed. Frames beyond ``MAX_FRAMES`` are left
out evenly, the first and the last kept; the last is held ``HOLD_MS``. The whole lasts under
``MAX_MS`` and weighs under ``MAX_BYTES`` (narrower frames are tried until it does).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from importlib.resources import files

from PIL import Image, ImageDraw

from engine.record import Moment
from render import render_board, words
from render.extras import Extras
from render.text import draw_text
from render.theme import Theme, get_theme

#: The recap's captions, added to the picture texts.
LOCALE = files("render") / "recap" / "locale"
words.add_texts(LOCALE)

WIDTH = 800
NARROWER = (640, 480)  # tried in turn while the file is too heavy
MAX_FRAMES = 60
FRAME_MS = (250, 1200)  # the shortest and the longest time a frame is shown, but the last
MOVING_MS = 15_000  # the time shared by the frames before the last
HOLD_MS = 3_000
MAX_MS = 20_000
MAX_BYTES = 8 * 1024 * 1024
CAPTION_SIZE = 22
COLOURS = 255

__all__ = ["MAX_BYTES", "MAX_FRAMES", "MAX_MS", "WIDTH", "caption", "durations", "render_recap"]


def render_recap(
    moments: Sequence[Moment],
    *,
    language: str = "en",
    theme: str | Theme = "default",
    ended: str | None = None,
    width: int = WIDTH,
    ranks: tuple[tuple[int, int], ...] = (),
) -> bytes:
    """An animated GIF of the moments (``engine.record.recap_moments``): one frame each, the
    last held; ``ended``: why the bot ended the game, written on the last picture (see
    render.stand_in); ``ranks``: the result as the bot stored it, (seat, rank), ranked and
    named on the last picture (``Extras.ranks``, D286). Only spectator views are drawn
    (ValueError for a seat's view)."""
    if not moments:
        raise ValueError("a recap needs at least one moment")
    for moment in moments:
        if moment.view.get("viewer") is not None:
            raise ValueError("a recap is drawn from spectator views only (viewer must be None)")
    chosen = _sample(moments, MAX_FRAMES)
    look = get_theme(theme)
    with words.speaking(language) as lang:
        last = len(chosen) - 1
        pictures = [
            _picture(m, look, lang, *((ended, ranks) if i == last else (None, ())))
            for i, m in enumerate(chosen)
        ]
        captions = [caption(m, lang) for m in chosen]
    times = durations(len(pictures))
    data = b""
    for wide in (width, *(w for w in NARROWER if w < width)):
        frames = [_captioned(p, t, look, wide) for p, t in zip(pictures, captions, strict=True)]
        data = _encode(frames, times)
        if len(data) < MAX_BYTES:
            break
    return data


def durations(count: int) -> list[int]:
    """Each frame's time in milliseconds: the moving frames share ``MOVING_MS`` within
    ``FRAME_MS``, the last is held ``HOLD_MS``."""
    if count <= 1:
        return [HOLD_MS] * count
    each = min(max(MOVING_MS // (count - 1), FRAME_MS[0]), FRAME_MS[1])
    return [each] * (count - 1) + [HOLD_MS]


def caption(moment: Moment, lang: str | None = None) -> str:
    """A frame's caption in the picture's language (or ``lang``)."""
    return words.say(f"recap.{moment.kind}", lang, number=moment.number)


def _sample(moments: Sequence[Moment], most: int) -> list[Moment]:
    """At most ``most`` moments, evenly spread, the first and the last kept."""
    if len(moments) <= most:
        return list(moments)
    last = len(moments) - 1
    picked = sorted({round(i * last / (most - 1)) for i in range(most)})
    return [moments[i] for i in picked]


def _picture(
    moment: Moment, theme: Theme, lang: str, ended: str | None, ranks: tuple[tuple[int, int], ...]
) -> Image.Image:
    # a recap is watched, in the thread as on the web: its titles in the third person (D242)
    look = Extras(language=lang, theme=theme, ended=ended, voice="spectator", ranks=ranks)
    png = render_board(moment.view, extras=look)
    return Image.open(io.BytesIO(png)).convert("RGB")


def _captioned(picture: Image.Image, text: str, theme: Theme, width: int) -> Image.Image:
    """The picture scaled to ``width`` above a strip with its caption (nothing covered)."""
    height = round(picture.height * width / picture.width)
    strip = CAPTION_SIZE + CAPTION_SIZE // 2 * 2
    frame = Image.new("RGB", (width, height + strip), theme.background)
    # reducing_gap=1: shrink by the whole factor with a box filter first (the usual halving is
    # then one cheap reduce, ~14 times faster than Lanczos over the full picture, and looks
    # the same in a 255-colour GIF), Lanczos only for what is left.
    scaled = picture.resize((width, height), Image.Resampling.LANCZOS, reducing_gap=1.0)
    frame.paste(scaled, (0, 0))
    draw = ImageDraw.Draw(frame)
    at = (CAPTION_SIZE // 2, height + strip / 2)
    draw_text(draw, at, text, theme.ink_light, CAPTION_SIZE, anchor="lm")
    return frame


def _encode(frames: Sequence[Image.Image], times: Sequence[int]) -> bytes:
    """The frames as one animated GIF on a shared palette (no dithering: flat art, small
    deltas between frames)."""
    middle = frames[len(frames) // 2]
    sample = Image.new("RGB", (frames[0].width, frames[0].height * 3))
    for row, frame in enumerate((frames[0], middle, frames[-1])):
        sample.paste(frame, (0, row * frame.height))
    palette = sample.quantize(COLOURS, method=Image.Quantize.FASTOCTREE)
    mapped = [f.quantize(palette=palette, dither=Image.Dither.NONE) for f in frames]
    out = io.BytesIO()
    mapped[0].save(
        out,
        format="GIF",
        save_all=True,
        append_images=mapped[1:],
        duration=list(times),
        loop=0,
        disposal=1,
    )
    return out.getvalue()
