"""Namiji's board picture: the route loop, the boats and each player's boat board."""

from importlib.resources import files

#: Namiji's picture texts, one ``<lang>.json`` per language (ids ``n.``).
LOCALE = files(__name__) / "locale"
