"""Yamatai on the web page: the specialists' texts, the names of the players' fields."""

CARD_TEXTS = "y.specialist."
FIELD_TEXTS = "y.col."
