"""Themes: every colour and font size of the picture, as data."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from types import MappingProxyType

RGB = tuple[int, int, int]

__all__ = ["RGB", "THEMES", "Theme", "get_theme", "hex_rgb", "theme_colours"]


def hex_rgb(text: str) -> RGB:
    """'#rrggbb' as an (r, g, b) tuple."""
    value = text.lstrip("#")
    if len(value) != 6:
        raise ValueError(f"not a #rrggbb colour: {text!r}")
    return (int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16))


def _colours(**pairs: str) -> Mapping[str, RGB]:
    """A read-only name -> RGB mapping from '#rrggbb' strings."""
    return MappingProxyType({name: hex_rgb(value) for name, value in pairs.items()})


@dataclass(frozen=True, eq=False)
class Theme:
    """Colours and font sizes of one look; compared by identity so it can key a cache."""

    name: str
    # frame and text
    background: RGB = (0x1C, 0x22, 0x30)
    panel: RGB = (0xF5, 0xEF, 0xE2)
    panel_alt: RGB = (0xE9, 0xE1, 0xCF)
    panel_edge: RGB = (0x8F, 0x7F, 0x60)
    ink: RGB = (0x1D, 0x1A, 0x16)
    ink_soft: RGB = (0x5B, 0x53, 0x46)
    ink_light: RGB = (0xF4, 0xF1, 0xEA)
    ink_dim: RGB = (0xAA, 0xB3, 0xC5)
    accent: RGB = (0xFF, 0xCC, 0x33)
    current: RGB = (0xFF, 0xCC, 0x33)
    last_turn: RGB = (0xFF, 0x5A, 0xA5)
    last_turn_ink: RGB = (0xC2, 0x18, 0x5B)
    negative: RGB = (0xB3, 0x26, 0x1E)
    # the archipelago
    sea_top: RGB = (0x2F, 0x7F, 0xAE)
    sea_bottom: RGB = (0x1D, 0x5A, 0x86)
    sea_wave: RGB = (0x4B, 0x95, 0xC0)
    shallow: RGB = (0x6F, 0xC0, 0xD8)
    coast: RGB = (0x3D, 0x33, 0x22)
    sand: RGB = (0xEA, 0xD9, 0xA6)
    land: tuple[RGB, ...] = (
        (0xB9, 0xCF, 0x86),
        (0xCD, 0xD6, 0x97),
        (0xA9, 0xC4, 0x7F),
        (0xD6, 0xCF, 0x98),
    )
    land_border: RGB = (0x6D, 0x7A, 0x45)
    island_label: RGB = (0x1D, 0x1A, 0x16)
    island_label_halo: RGB = (0xF7, 0xF3, 0xE4)
    spot_fill: RGB = (0xF7, 0xF3, 0xE8)
    spot_edge: RGB = (0x17, 0x35, 0x52)
    spot_ink: RGB = (0x10, 0x24, 0x3A)
    entry_fill: RGB = (0xFF, 0xD5, 0x4A)
    entry_mark: RGB = (0xFF, 0xD5, 0x4A)
    mountain: RGB = (0x7D, 0x6F, 0x5C)
    mountain_shade: RGB = (0x5E, 0x52, 0x42)
    snow: RGB = (0xF4, 0xF4, 0xF0)
    sacred: RGB = (0xC0, 0x39, 0x2B)
    sacred_fill: RGB = (0xF3, 0xEA, 0xD2)
    tree: RGB = (0x2E, 0x6B, 0x3A)
    torii: RGB = (0xD8, 0x43, 0x2E)
    tile_face: RGB = (0xFB, 0xF6, 0xEA)
    tile_back: RGB = (0x3B, 0x4A, 0x6B)
    tile_back_mark: RGB = (0x5B, 0x6D, 0x94)
    coin: RGB = (0xF2, 0xC2, 0x30)
    coin_edge: RGB = (0x9A, 0x6F, 0x0A)
    pp: RGB = (0x8B, 0x2D, 0x5C)
    # pieces (keys: engine names)
    boats: Mapping[str, RGB] = field(
        default_factory=lambda: _colours(
            bamboo="#3fae49", wood="#8a5a2b", stone="#2b2b2e", clay="#cf3a2b", gold="#f7c81e"
        )
    )
    boat_ink: Mapping[str, RGB] = field(
        default_factory=lambda: _colours(
            bamboo="#0b250d", wood="#ffffff", stone="#ffffff", clay="#ffffff", gold="#2a2000"
        )
    )
    cultures: Mapping[str, RGB] = field(
        default_factory=lambda: _colours(
            rice="#f6f1dd",
            tea="#2f7d44",
            silk="#e0559b",
            pottery="#c2622c",
            pearl="#98d4ea",
            sake="#4b3a8c",
        )
    )
    culture_ink: Mapping[str, RGB] = field(
        default_factory=lambda: _colours(
            rice="#1d1a16",
            tea="#ffffff",
            silk="#ffffff",
            pottery="#ffffff",
            pearl="#10243a",
            sake="#ffffff",
        )
    )
    players: Mapping[str, RGB] = field(
        default_factory=lambda: _colours(
            blue="#2f6fde", orange="#f28c1e", purple="#9446c2", grey="#8d939c"
        )
    )
    player_ink: Mapping[str, RGB] = field(
        default_factory=lambda: _colours(
            blue="#ffffff", orange="#1d1a16", purple="#ffffff", grey="#1d1a16"
        )
    )
    # font sizes (pixels)
    island_label_size: int = 25
    spot_label_size: int = 17
    boat_letter_size: int = 19
    token_letter_size: int = 22
    title_size: int = 26
    heading_size: int = 19
    body_size: int = 18
    small_size: int = 15


DEFAULT = Theme(name="default")

CONTRAST = replace(
    DEFAULT,
    name="contrast",
    background=hex_rgb("#000000"),
    panel=hex_rgb("#ffffff"),
    panel_alt=hex_rgb("#ececec"),
    panel_edge=hex_rgb("#000000"),
    ink_soft=hex_rgb("#222222"),
    sea_top=hex_rgb("#1b5f8f"),
    sea_bottom=hex_rgb("#123f63"),
    sea_wave=hex_rgb("#2a6f9f"),
    shallow=hex_rgb("#3b86b3"),
    coast=hex_rgb("#000000"),
    land=(hex_rgb("#e3e8c0"), hex_rgb("#d5deae"), hex_rgb("#ece6bf"), hex_rgb("#dfe3b4")),
    land_border=hex_rgb("#333333"),
)

THEMES: Mapping[str, Theme] = MappingProxyType({t.name: t for t in (DEFAULT, CONTRAST)})
"""Built-in themes by name."""


def get_theme(theme: str | Theme) -> Theme:
    """A Theme given itself or its name (ValueError for an unknown name)."""
    if isinstance(theme, Theme):
        return theme
    try:
        return THEMES[theme]
    except KeyError:
        known = ", ".join(sorted(THEMES))
        raise ValueError(f"unknown theme {theme!r} (known: {known})") from None


def theme_colours(theme: Theme) -> tuple[RGB, ...]:
    """Every colour a theme names, in field order (with white and black), once each."""
    found: list[RGB] = [(255, 255, 255), (0, 0, 0)]
    for spec in fields(theme):
        value = getattr(theme, spec.name)
        if isinstance(value, Mapping):
            found += value.values()
        elif isinstance(value, tuple) and value and isinstance(value[0], tuple):
            found += value
        elif isinstance(value, tuple):
            found.append(value)
    return tuple(dict.fromkeys(found))
