"""Yamatai's picture: the archipelago, the tracks, the players' panels and the turn picture."""

from importlib.resources import files

#: Yamatai's picture texts, one ``<lang>.json`` per language (ids ``y.``).
LOCALE = files(__name__) / "locale"
