"""Refusal registries: every key the engine raises is registered, every text fills its data."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from engine.errors import EngineError
from engine.games import new
from engine.namiji.refusals import REFUSALS as NAMIJI
from engine.refusals import MATCH, Refusals
from engine.yamatai.refusals import REFUSALS as YAMATAI

ROOT = Path(__file__).resolve().parents[2] / "engine"
#: Where each registry's keys are raised from.
SOURCES = {
    "match": (MATCH, [ROOT / "games.py"]),
    "yamatai": (YAMATAI, sorted((ROOT / "yamatai").glob("*.py"))),
    "namiji": (NAMIJI, sorted((ROOT / "namiji").glob("*.py"))),
}
RAISING = {"illegal", "notation", "make"}  # the registry's methods that take a key
#: Yamatai helpers that raise a key family: (index of the argument, the keys it names).
HELPERS = {
    "_bad": (0, ("bad_arguments.{}",)),
    "_check_acted": (2, ("must_collect_or_build.{}",)),
    "_check_stored": (2, ("store_boats_first.{}",)),
    "_check_act_step": (2, ("already_acted.{}", "no_boats_placed.{}")),
}
ERRORS = {"IllegalAction", "InvalidNotation", "InvalidSetup", "NotYourTurn", "UndoNotAllowed"}


def _key_argument(call: ast.Call) -> ast.expr | None:
    """The key argument of a registry call (``make`` takes the error class first)."""
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    if name not in RAISING:
        return None
    index = 1 if name == "make" else 0
    return call.args[index] if len(call.args) > index else None


def _raised_keys(path: Path) -> list[ast.expr]:
    """Every key argument of a registry call in a file (both sides of ``x if c else y``)."""
    tree = ast.parse(path.read_text("utf-8"))
    found = [_key_argument(n) for n in ast.walk(tree) if isinstance(n, ast.Call)]
    keys: list[ast.expr] = []
    for key in found:
        keys += [key.body, key.orelse] if isinstance(key, ast.IfExp) else [key] if key else []
    return keys


def _helper_keys(path: Path) -> list[str]:
    """The keys named through a helper's literal argument, e.g. ``_bad("fleet", ...)``."""
    keys = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
        if name in HELPERS and path.parent.name == "yamatai":
            index, families = HELPERS[name]
            arg = node.args[index]
            if isinstance(arg, ast.Constant):
                keys += [family.format(arg.value) for family in families]
    return keys


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_every_raised_key_is_registered(name: str) -> None:
    registry, paths = SOURCES[name]
    keys = [k for path in paths for k in _raised_keys(path)]
    assert keys
    for named in (k for path in paths for k in _helper_keys(path)):
        assert named in registry.texts, f"{name}: {named!r} is not registered"
    for key in keys:
        if isinstance(key, ast.Constant):
            assert key.value in registry.texts, f"{name}: {key.value!r} is not registered"
        elif isinstance(key, ast.JoinedStr):  # f"already_acted.{action}": a registered family
            stem = key.values[0]
            assert isinstance(stem, ast.Constant) and isinstance(stem.value, str)
            assert any(k.startswith(stem.value) for k in registry.texts), stem.value
        else:  # a key passed on by a helper (``_bad(reason)``): checked where it is named
            assert isinstance(key, ast.Name), ast.dump(key)


@pytest.mark.parametrize("name", ["yamatai", "namiji"])
def test_games_raise_refusals_only_through_their_registry(name: str) -> None:
    for path in SOURCES[name][1]:
        tree = ast.parse(path.read_text("utf-8"))
        direct = [
            n.func.id
            for n in ast.walk(tree)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ERRORS
        ]
        assert direct == [], f"{path.name} builds {direct} without a key"


def test_a_refusal_carries_its_key_game_and_data() -> None:
    match = new("yamatai", ["Ann", "Bob"], seed=7)
    with pytest.raises(EngineError) as caught:
        match.play("buy wood")
    error = caught.value
    assert (error.reason, error.key, error.game) == (
        "choose_fleet_first",
        "choose_fleet_first",
        "yamatai",
    )
    assert error.to_dict()["key"] == "choose_fleet_first"
    assert error.detail == "Your turn starts by choosing a fleet tile."


def test_a_variant_key_keeps_its_reason_and_fills_its_text() -> None:
    registry = Refusals("g", {"spent.twice": "Spent {count} of {what}."})
    error = registry.illegal("spent.twice", count=2, what="coins")
    assert (error.reason, error.key, error.data) == (
        "spent",
        "spent.twice",
        {"count": 2, "what": "coins"},
    )
    assert error.message == "Spent 2 of coins."


def test_sequence_refusals_keep_their_key_and_say_which_action() -> None:
    match = new("yamatai", ["Ann", "Bob"], seed=7)
    first = match.legal_actions()[0]
    with pytest.raises(EngineError) as caught:
        match.play(f"{first}; {first}", seat=match.current_seat)
    error = caught.value
    assert error.key == "fleet_already_chosen" and error.data["action"] == 2
    assert error.detail.startswith("Action 2 (")


@pytest.mark.parametrize("registry", [MATCH, YAMATAI, NAMIJI], ids=["match", "yamatai", "namiji"])
def test_registered_keys_are_well_formed(registry: Refusals) -> None:
    for key, text in registry.texts.items():
        assert key.replace(".", "").replace("_", "").isalnum() and key == key.lower(), key
        assert text.strip() and text.endswith((".", ")")), key
