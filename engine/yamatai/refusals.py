"""Yamatai's refusal sentences by stable key (``data/refusals.json``): the registry of its keys."""

from __future__ import annotations

from engine.refusals import Refusals

REFUSALS = Refusals.load("yamatai", "engine.yamatai")
illegal = REFUSALS.illegal
notation = REFUSALS.notation
