"""The PNG writer (issue 25 item 4): a palette picture written with ISA-L's deflate decodes to
the very pixels and palette it was given, in Pillow and in zlib, with either deflate."""

from __future__ import annotations

import io
import struct
import zlib

import pytest
from PIL import Image

from engine.yamatai.view import yamatai_view
from render.png import deflater, encode_png, isal_compress, write_png
from render.theme import get_theme
from render.yamatai.picture import picture_palette, render_image
from tests.render.games import play_turns


def _board() -> Image.Image:
    match, hl = play_turns(3, 5, 6)
    return render_image(yamatai_view(match.view(None)), highlight=hl)


def _chunks(png: bytes) -> list[tuple[bytes, bytes]]:
    """Every chunk's type and data, each CRC checked."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    found, at = [], 8
    while at < len(png):
        (length,) = struct.unpack(">I", png[at : at + 4])
        kind, data = png[at + 4 : at + 8], png[at + 8 : at + 8 + length]
        (crc,) = struct.unpack(">I", png[at + 8 + length : at + 12 + length])
        assert crc == zlib.crc32(kind + data), kind
        found.append((kind, data))
        at += 12 + length
    return found


@pytest.mark.parametrize("fast", [True, False], ids=["isal", "zlib"])
@pytest.mark.parametrize("level", [0, 1, 3, 6])
def test_written_picture_decodes_to_its_pixels_and_palette(fast: bool, level: int) -> None:
    """Pillow reads back the same indices and palette; the stream is a valid zlib stream."""
    picture = _board().quantize(palette=picture_palette(get_theme("default")))
    png = write_png(picture, level, fast=fast)
    back = Image.open(io.BytesIO(png))
    back.load()
    assert back.mode == "P" and back.size == picture.size
    assert back.tobytes() == picture.tobytes()
    assert back.getpalette() == picture.getpalette()
    kinds = [kind for kind, _ in _chunks(png)]
    assert kinds == [b"IHDR", b"PLTE", b"IDAT", b"IEND"]
    rows = zlib.decompress(dict(_chunks(png))[b"IDAT"])
    assert len(rows) == picture.height * (picture.width + 1)


def test_isal_is_used_and_pure() -> None:
    """ISA-L is installed (a dependency) and deflates the same rows to the same bytes."""
    assert isal_compress is not None
    image = _board()
    palette = picture_palette(get_theme("default"))
    assert encode_png(image, palette=palette) == encode_png(image, palette=palette)
    assert deflater()(b"x" * 1000, 1) != zlib.compress(b"x" * 1000, 1)


def test_isal_is_faster_and_not_bigger_than_zlib_level_1() -> None:
    """What it is for: level 1 of ISA-L is no bigger than zlib's level 1 on a board picture."""
    picture = _board().quantize(palette=picture_palette(get_theme("default")))
    assert len(write_png(picture, 1)) <= len(write_png(picture, 1, fast=False))


def test_write_png_refuses_other_modes() -> None:
    """Only palette pictures are written by hand; RGB still goes through Pillow."""
    with pytest.raises(ValueError, match="palette"):
        write_png(Image.new("RGB", (4, 4)))
    rgb = encode_png(Image.new("RGB", (4, 4), (1, 2, 3)), palette=False)
    assert Image.open(io.BytesIO(rgb)).mode == "RGB"
