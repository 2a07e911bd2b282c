"""The whole suite: Nim, the game that lives only in the tests, joins the registries."""

from __future__ import annotations

from tests.nim import register

register()
