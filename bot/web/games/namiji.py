"""Namiji on the web page: the upgrade cards' texts, the names of the players' fields."""

CARD_TEXTS = "n.upgrade."
FIELD_TEXTS = "n.cat."
