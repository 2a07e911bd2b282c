"""The league standings picture leaves out its change column while no row has a change to show
(play-through 46, item 32: "Évol." / "Zmiana" stood empty for every player after round 1)."""

from __future__ import annotations

from render.league import StandingRow, render_standings
from render.text import measuring
from tests.render.probes import decode

HEADERS = ("#", "Joueur", "Points", "Parties", "Classement", "Évol.")


def _rows(*changes: str) -> list[StandingRow]:
    return [
        StandingRow(str(n + 1), name, "3", "1", "25,0", change)
        for n, (name, change) in enumerate(zip(("Kenji", "Hana"), changes, strict=True))
    ]


def _drawn(rows: list[StandingRow]) -> tuple[list[str], int]:
    with measuring() as drawn:
        png = render_standings("Printemps — Yamatai", "après la ronde 1 sur 3", HEADERS, rows)
    return [d.text for d in drawn], decode(png).width


def test_no_change_column_before_any_change() -> None:
    texts, narrow = _drawn(_rows("", ""))
    assert "Évol." not in texts and "Classement" in texts, texts
    shown, wide = _drawn(_rows("+1,2", ""))
    assert "Évol." in shown and "+1,2" in shown, shown
    assert narrow < wide
