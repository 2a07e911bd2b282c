"""The services' results are built with keywords only (issue 36 item 4): no field is filled by
its place, so adding or moving a field cannot silently shift the others."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from bot.service import coach, league_results, ratings, records, results, thinking
from bot.service.results import PlayResult


def test_a_play_result_built_positionally_is_refused() -> None:
    with pytest.raises(TypeError):
        PlayResult(1, 2, 3, (), (), None, None, "yamatai", ())  # type: ignore[call-arg]
    built = PlayResult(
        game_id=1,
        thread_id=2,
        version=3,
        actions=(),
        events=(),
        picture=None,
        step=None,
        game="yamatai",
        names=(),
    )
    assert (built.game_id, built.turn, built.computers_next) == (1, None, False)


@pytest.mark.parametrize(
    "module", [results, league_results, coach, ratings, records, thinking], ids=lambda m: m.__name__
)
def test_every_result_takes_keywords_only(module: object) -> None:
    kinds = {
        name: {p.kind for p in inspect.signature(value).parameters.values()}
        for name, value in vars(module).items()
        if isinstance(value, type)
        and dataclasses.is_dataclass(value)
        and value.__module__ == getattr(module, "__name__", None)
        and dataclasses.fields(value)
    }
    assert kinds
    assert {name: k for name, k in kinds.items() if k != {inspect.Parameter.KEYWORD_ONLY}} == {}
